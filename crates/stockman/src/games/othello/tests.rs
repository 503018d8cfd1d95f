use super::board::flips;
use super::endgame::{
    last_flip_count, last_square, last_square_within, solve, solve_popcnt, solve_portable, solve_small,
};
use super::*;
use crate::search::SearchOptions;

/// A tiny deterministic generator (SplitMix64) for random playouts.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Flips by walking each direction square by square: the rules, plainly.
fn naive_flips(sq: u8, p: u64, o: u64) -> u64 {
    if (p | o) >> sq & 1 == 1 {
        return 0;
    }
    let (r0, c0) = (i32::from(sq / 8), i32::from(sq % 8));
    let mut all = 0;
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1)] {
        let (mut r, mut c, mut run) = (r0 + dr, c0 + dc, 0u64);
        while (0..8).contains(&r) && (0..8).contains(&c) && o >> (r * 8 + c) & 1 == 1 {
            run |= 1 << (r * 8 + c);
            r += dr;
            c += dc;
        }
        if (0..8).contains(&r) && (0..8).contains(&c) && p >> (r * 8 + c) & 1 == 1 {
            all |= run;
        }
    }
    all
}

/// Random positions reached by random legal play from the start,
/// `plies` moves deep (passes included), with their empties.
fn random_positions(seed: u64, count: usize, plies: usize) -> Vec<Board> {
    let mut rng = Rng(seed);
    let game = Othello::new();
    let mut out = Vec::new();
    while out.len() < count {
        let mut b = Board::new();
        for _ in 0..plies {
            let mut moves = Vec::new();
            game.moves(&b, &mut moves);
            if moves.is_empty() {
                break;
            }
            b = b.play(moves[rng.below(moves.len())]);
        }
        out.push(b);
    }
    out
}

fn perft(game: &Othello, b: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    game.moves(b, &mut moves);
    if moves.is_empty() {
        return 1;
    }
    moves.iter().map(|&m| perft(game, &game.play(b, m), depth - 1)).sum()
}

#[test]
fn perft_through_the_game_trait() {
    // The published Othello perft counts (passes count as moves).
    let game = Othello::new();
    let counts = [4, 12, 56, 244, 1396, 8200, 55092, 390_216, 3_005_288];
    for (d, &n) in counts.iter().enumerate() {
        assert_eq!(perft(&game, &game.root(), d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn flips_and_moves_follow_the_rules() {
    for b in random_positions(1, 400, 30)
        .into_iter()
        .chain(random_positions(2, 200, 55))
    {
        let (p, o) = (b.player, b.opponent);
        let mut legal = 0;
        for sq in 0..64u8 {
            let want = naive_flips(sq, p, o);
            if (p | o) >> sq & 1 == 0 {
                assert_eq!(flips(sq, p, o), want, "{} {}", b.to_ffo(), square_name(sq));
            }
            if want != 0 {
                legal |= 1 << sq;
            }
        }
        assert_eq!(move_set(p, o), legal, "{}", b.to_ffo());
    }
}

#[test]
fn stable_discs_are_never_flipped() {
    let mut rng = Rng(7);
    for b in random_positions(3, 300, 48) {
        let (mine, theirs) = b.stable();
        assert_eq!(mine & !b.player, 0);
        assert_eq!(theirs & !b.opponent, 0);
        // Random playouts to the end never flip them.
        let black_stable = if b.black_to_move { mine } else { theirs };
        let white_stable = if b.black_to_move { theirs } else { mine };
        for _ in 0..20 {
            let mut c = b;
            loop {
                assert_eq!(c.black() & black_stable, black_stable, "{}", b.to_ffo());
                assert_eq!(c.white() & white_stable, white_stable, "{}", b.to_ffo());
                // Every legal move, to the very end of the game.
                let moves = Othello::from_board(c).legal_moves();
                if moves.is_empty() {
                    break;
                }
                c = c.play(moves[rng.below(moves.len())]);
            }
        }
    }
    // A full board: every disc is stable.
    let full = Board::from_discs(0x00FF_00FF_00FF_00FF, !0x00FF_00FF_00FF_00FF, true).unwrap();
    assert_eq!(full.stable(), (full.player, full.opponent));
    // A corner disc is stable, and so is an edge disc next to it; an
    // edge disc with empty squares on both sides is not.
    let b = Board::from_discs(1 | 1 << 1, 1 << 9, true).unwrap();
    assert_eq!(b.stable().0, 0b11);
    let b = Board::from_discs(1 | 1 << 2, 1 << 9, true).unwrap();
    assert_eq!(b.stable().0, 1);
}

/// The stable-disc rule, plainly: from nothing, square by square, a disc
/// joins when each of its four lines is full or has, on one side, the
/// board's edge or a disc already found, until nothing changes.
fn naive_stable(me: u64, occ: u64) -> u64 {
    let on = |r: i32, c: i32| (0..8).contains(&r) && (0..8).contains(&c);
    let bit = |r: i32, c: i32| 1u64 << (8 * r + c);
    let mut stable = 0u64;
    loop {
        let mut next = stable;
        for sq in 0..64 {
            let (r, c) = (sq / 8, sq % 8);
            if me >> sq & 1 == 0 {
                continue;
            }
            let settled = [(0, 1), (1, 0), (1, 1), (1, -1)].iter().all(|&(dr, dc)| {
                let full = (-7..=7).all(|k| !on(r + k * dr, c + k * dc) || occ & bit(r + k * dr, c + k * dc) != 0);
                let side = |s: i32| !on(r + s * dr, c + s * dc) || stable & bit(r + s * dr, c + s * dc) != 0;
                full || side(1) || side(-1)
            });
            if settled {
                next |= 1 << sq;
            }
        }
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[test]
fn stable_discs_follow_the_rule() {
    // Boards from random playouts at every stage, and boards filled at
    // random (full lines, long edges, odd shapes a game rarely reaches).
    let mut boards: Vec<(u64, u64)> = random_positions(11, 400, 60)
        .iter()
        .map(|b| (b.player, b.opponent))
        .collect();
    let mut rng = Rng(5);
    for _ in 0..2000 {
        let (a, b) = (rng.next(), rng.next());
        let full = rng.next() | rng.next();
        boards.push((a & full, !a & full & (b | rng.next())));
    }
    for (p, o) in boards {
        for (me, you) in [(p, o), (o, p)] {
            assert_eq!(
                super::endgame::stable_discs(me, me | you),
                naive_stable(me, me | you),
                "{me:#018x} {you:#018x}"
            );
        }
    }
}

/// Whether the processor runs the AVX2 code (the tests of it say so when not).
#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    let yes = std::arch::is_x86_feature_detected!("avx2");
    if !yes {
        eprintln!("no AVX2 on this processor: nothing to compare");
    }
    yes
}

/// The AVX2 flips and move generation against the rules and the scalar
/// code, on random boards of every density, at every empty square.
#[cfg(target_arch = "x86_64")]
#[test]
fn simd_flips_and_moves_follow_the_rules() {
    if !has_avx2() {
        return;
    }
    let mut rng = Rng(22);
    for i in 0..4_000 {
        // Every fourth board about half full, the others about three quarters.
        let occupied = if i % 4 == 0 {
            rng.next()
        } else {
            rng.next() | rng.next()
        };
        let p = occupied & rng.next();
        let o = occupied & !p;
        // SAFETY (every call below): the processor has AVX2, checked above.
        let moves = unsafe { super::simd::move_set(p, o) };
        assert_eq!(moves, board::move_set(p, o), "moves of {p:#x} against {o:#x}");
        let mut empty = !occupied;
        while empty != 0 {
            let sq = empty.trailing_zeros() as u8;
            empty &= empty - 1;
            let f = unsafe { super::simd::flips(sq, p, o) };
            assert_eq!(f, naive_flips(sq, p, o), "{sq} for {p:#x} against {o:#x}");
            assert_eq!(moves >> sq & 1 == 1, f != 0, "{sq} for {p:#x} against {o:#x}");
        }
    }
}

/// The AVX2 flips against the rules for every colouring of every ray of
/// every square (empty, the player's, the opponent's: 3^length), the rest
/// of the board random at three densities; move generation on the same
/// boards against the scalar code, for both sides.
#[cfg(target_arch = "x86_64")]
#[test]
fn simd_flips_follow_the_rules_on_every_ray_colouring() {
    if !has_avx2() {
        return;
    }
    let mut rng = Rng(7);
    for sq in 0..64u8 {
        for ray in board::RAYS[sq as usize] {
            let squares: Vec<u32> = (0..64).filter(|b| ray >> b & 1 == 1).collect();
            for code in 0..3u32.pow(squares.len() as u32) {
                let (mut on_p, mut on_o, mut c) = (0u64, 0u64, code);
                for &b in &squares {
                    match c % 3 {
                        1 => on_p |= 1 << b,
                        2 => on_o |= 1 << b,
                        _ => {}
                    }
                    c /= 3;
                }
                for density in 0..3 {
                    let occupied = match density {
                        0 => 0,
                        1 => rng.next(),
                        _ => rng.next() | rng.next(),
                    };
                    let mine = occupied & rng.next();
                    let elsewhere = !(ray | 1u64 << sq);
                    let (p, o) = ((mine & elsewhere) | on_p, (occupied & !mine & elsewhere) | on_o);
                    // SAFETY (all three calls): the processor has AVX2, checked above.
                    let f = unsafe { super::simd::flips(sq, p, o) };
                    assert_eq!(f, naive_flips(sq, p, o), "{sq} for {p:#x} against {o:#x}");
                    assert_eq!(unsafe { super::simd::move_set(p, o) }, board::move_set(p, o));
                    assert_eq!(unsafe { super::simd::move_set(o, p) }, board::move_set(o, p));
                }
            }
        }
    }
}

/// The move lists the AVX2 copy of the ordering gives are the scalar copy's,
/// in every order and scoring, on positions from the opening to the end.
#[cfg(target_arch = "x86_64")]
#[test]
fn simd_move_ordering_lists_the_scalar_lists() {
    let Some(k) = super::simd::Avx2::detect() else {
        eprintln!("no AVX2 on this processor: nothing to compare");
        return;
    };
    for plies in [4, 20, 36, 50] {
        for b in random_positions(plies as u64, 50, plies) {
            for order in [MoveOrder::Squares, MoveOrder::FastestFirst, MoveOrder::BestReply] {
                for scoring in [Scoring::Exact, Scoring::Heuristic] {
                    let game = Othello::new().with_order(order).with_scoring(scoring);
                    let (mut fast, mut plain) = (Vec::new(), Vec::new());
                    game.moves_with(k, &b, &mut fast);
                    game.moves_with(board::Scalar, &b, &mut plain);
                    assert_eq!(fast, plain, "{} {order:?} {scoring:?}", b.to_ffo());
                }
            }
        }
    }
}

#[test]
fn the_last_square_is_counted_as_the_rules_flip() {
    // Full boards with one hole on every square, and random colours.
    let mut rng = Rng(11);
    for _ in 0..400 {
        let discs = rng.next();
        for sq in 0..64u8 {
            let hole = 1u64 << sq;
            let (p, o) = (discs & !hole, !discs & !hole);
            for (a, b) in [(p, o), (o, p)] {
                let rules = naive_flips(sq, a, b).count_ones();
                assert_eq!(last_flip_count(sq, a), rules, "{a:#x} on {sq}");
            }
            // The score, from the rules: who can move takes the square.
            let (mine, theirs) = (naive_flips(sq, p, o), naive_flips(sq, o, p));
            let score = if mine != 0 {
                2 * (p.count_ones() + mine.count_ones() + 1) as i32 - 64
            } else if theirs != 0 {
                64 - 2 * (o.count_ones() + theirs.count_ones() + 1) as i32
            } else {
                let d = p.count_ones() as i32 - o.count_ones() as i32;
                d + d.signum()
            };
            assert_eq!(last_square(p, o, hole), score, "{p:#x} with {sq} empty");
            // Fail-soft below alpha: a bound at or under it, else the score.
            for alpha in [-65, score - 3, score - 2, score - 1, score, score + 1, 65] {
                let v = last_square_within(p, o, hole, alpha);
                if v <= alpha {
                    assert!(score <= v, "{p:#x} with {sq} empty, alpha {alpha}: {v}");
                } else {
                    assert_eq!(v, score, "{p:#x} with {sq} empty, alpha {alpha}");
                }
            }
        }
    }
}

#[test]
fn the_game_solver_agrees_with_minimax() {
    let game = Othello::new();
    // Positions of about 8 empty squares, and 20 with as many as the game
    // solves itself (the sorted layer's top level, against the parity
    // layer alone and minimax over the level below).
    let deepest = random_positions(5, 20, (60 - SOLVE_EMPTIES) as usize);
    assert!(deepest.iter().any(|b| b.empties() == SOLVE_EMPTIES));
    for b in random_positions(4, 60, 52).into_iter().chain(deepest) {
        let g = Othello::from_board(b);
        let exact = crate::algorithms::minimax::search_observed(&g, &SearchOptions::default(), &mut crate::NoObserver)
            .unwrap()
            .value
            .unwrap();
        // solve_small is exact with a full window, fail-soft with any other.
        let score = if g.role(&b) == Role::Max { exact } else { -exact };
        assert_eq!(solve(b.player, b.opponent, -65, 65, false), score, "{}", b.to_ffo());
        assert_eq!(
            solve_small(b.player, b.opponent, -65, 65, false),
            score,
            "{}",
            b.to_ffo()
        );
        for (a, c) in [
            (score - 1, score + 1),
            (score, score + 1),
            (score - 1, score),
            (-65, score - 3),
        ] {
            let fast = solve(b.player, b.opponent, a, c, false);
            // The copy `solve` picks (AVX2 where the processor has it) and the others.
            assert_eq!(fast, solve_portable(b.player, b.opponent, a, c, false));
            if let Some(v) = solve_popcnt(b.player, b.opponent, a, c, false) {
                assert_eq!(fast, v);
            }
            for v in [fast, solve_small(b.player, b.opponent, a, c, false)] {
                if v <= a {
                    assert!(score <= v, "{}: {v} in ({a}, {c})", b.to_ffo());
                } else if v >= c {
                    assert!(score >= v, "{}: {v} in ({a}, {c})", b.to_ffo());
                } else {
                    assert_eq!(v, score);
                }
            }
        }
        // The bounds hold the value, whatever the window.
        for (a, c) in [
            (-crate::INF, crate::INF),
            (exact, exact + 1),
            (exact - 1, exact),
            (-64, 64),
        ] {
            let (lo, hi) = g.bounds_within(&b, a, c);
            assert!(lo <= exact && exact <= hi, "{}: {exact} not in {lo}..={hi}", b.to_ffo());
        }
        let _ = &game;
    }
}

#[test]
fn bounds_hold_before_the_last_squares() {
    for b in random_positions(5, 40, 48) {
        let g = Othello::from_board(b);
        let opts = SearchOptions {
            table: crate::TableSize::Megabytes(4),
            ..Default::default()
        };
        let v = crate::algorithms::alphabeta::search_observed(&g, &opts, &mut crate::NoObserver)
            .unwrap()
            .value
            .unwrap();
        let (lo, hi) = g.bounds(&b);
        assert!(lo <= v && v <= hi, "{}: {v} not in {lo}..={hi}", b.to_ffo());
        // Heuristic scoring: the same bounds, scaled and widened.
        let h = g.with_heuristic();
        let (hlo, hhi) = h.bounds(&b);
        assert!(hlo <= v * HEURISTIC_SCALE && v * HEURISTIC_SCALE <= hhi);
        assert!(hlo <= -HEURISTIC_MAX && hhi >= HEURISTIC_MAX);
    }
}

#[test]
fn move_orders_list_the_same_moves() {
    for b in random_positions(6, 200, 20)
        .into_iter()
        .chain(random_positions(7, 200, 45))
    {
        let mut lists = Vec::new();
        for order in [MoveOrder::Squares, MoveOrder::FastestFirst, MoveOrder::BestReply] {
            let g = Othello::from_board(b).with_order(order);
            let mut moves = Vec::new();
            g.moves(&b, &mut moves);
            let mut sorted = moves.clone();
            sorted.sort_unstable();
            lists.push(sorted);
            assert_eq!(g.legal_moves().len(), moves.len());
        }
        assert!(lists.windows(2).all(|w| w[0] == w[1]));
    }
    // Corners first in the static order; fastest first prefers the move
    // that leaves the opponent fewer replies.
    assert_eq!(SQUARE_RANK[0], 0);
    assert_eq!(SQUARE_RANK[9], 7);
}

#[test]
fn parsing_boards_and_move_lists() {
    let start = Othello::from_position("").unwrap();
    assert_eq!(start, Othello::new());
    let ffo = start.board().to_ffo();
    assert_eq!(
        ffo,
        format!("{}OX{}XO{} X", "-".repeat(27), "-".repeat(6), "-".repeat(27))
    );
    assert_eq!(Othello::from_position(&ffo).unwrap(), start);
    // Case free, surrounding white space, `*` and `.` squares, a trailing `;` list.
    let moves = Othello::from_position(" F5d6C3 ").unwrap();
    let again = Othello::from_position(&format!("{}; f4:+2;", moves.board().to_ffo())).unwrap();
    assert_eq!(again.board(), moves.board());
    let stars = moves.board().to_ffo().replace('X', "*").replace('-', ".");
    assert_eq!(Othello::from_position(&stars).unwrap().board(), moves.board());
    assert_eq!(moves.to_move_text(), "White");
    assert_eq!(
        moves.to_string().lines().next().unwrap(),
        "  a b c d e f g h",
        "the display starts with the column letters"
    );
    assert!(moves.to_string().ends_with("O (White) to move; X 5, O 2\n"));
}

#[test]
fn move_lists_with_spaces_and_passes() {
    // Random games written three ways read back to the same position:
    // squares run together, separated by spaces with `pass` written out,
    // and with forced passes left out.
    let mut rng = Rng(11);
    let mut passes = 0;
    for _ in 0..300 {
        let mut g = Othello::new();
        let (mut joined, mut spaced, mut implied) = (String::new(), Vec::new(), String::new());
        while g.result().is_none() {
            let legal = g.legal_moves();
            let mv = legal[rng.below(legal.len())];
            let text = g.move_text(mv);
            spaced.push(if rng.below(2) == 0 {
                text.to_uppercase()
            } else {
                text.clone()
            });
            if mv == PASS {
                passes += 1;
            } else {
                implied.push_str(&text);
            }
            joined.push_str(&text);
            g = g.after(mv);
        }
        assert_eq!(Othello::from_position(&joined).unwrap(), g);
        assert_eq!(Othello::from_position(&spaced.join(" ")).unwrap(), g);
        assert_eq!(Othello::from_position(&implied).unwrap(), g);
        // One move more: the game is over.
        let e = Othello::from_position(&format!("{implied}a1")).unwrap_err();
        assert!(matches!(e.kind, OthelloErrorKind::GameOver { .. }), "{e}");
    }
    assert!(passes > 0, "some random games pass");
    // A pass where the side to move has a move is illegal.
    let e = Othello::from_position("f5 pass").unwrap_err();
    assert_eq!(
        e.to_string(),
        "move 2 (`pass`, column 4): not a legal move for White (legal: f4 d6 f6)"
    );
}

#[test]
fn errors_say_where_and_why() {
    let err = |s: &str| Othello::from_position(s).unwrap_err().to_string();
    assert_eq!(err("f5d"), "move 2 (`d`, column 3): not a square (a1 to h8)");
    assert_eq!(err("  f5i1"), "move 2 (`i1`, column 5): not a square (a1 to h8)");
    assert_eq!(
        err("f5a1"),
        "move 2 (`a1`, column 3): not a legal move for White (legal: f4 d6 f6)"
    );
    let b = "-".repeat(64);
    assert_eq!(
        err(&format!("{b} Z")),
        "side to move `Z` (column 66): expected X (black) or O (white)"
    );
    assert_eq!(
        err(&b),
        "the side to move is missing after the board (column 65): X or O"
    );
    assert_eq!(
        err(&format!("{b} X 7")),
        "unexpected `7` (column 68) after the side to move"
    );
    assert_eq!(
        err(&format!("{} X", &b[..63])),
        "the board has 63 squares, not 64 (a1 to h8, row by row)"
    );
    assert_eq!(
        err(&format!("{}- X", &b)),
        "the board has 65 squares, not 64 (a1 to h8, row by row)"
    );
    // Far too long, with discs past the 64th square (a fuzzer's find).
    assert_eq!(
        err(&format!("{} X", "O".repeat(66))),
        "the board has 66 squares, not 64 (a1 to h8, row by row)"
    );
    let bad = format!("{}Q{} X", &b[..10], &b[11..]);
    assert_eq!(
        err(&bad),
        "board square 11 is 'Q': squares are X or * (black), O (white), - or . (empty)"
    );
    // A game that is over takes no more moves.
    let over = format!("{} X", "X".repeat(64));
    assert!(Othello::from_position(&over).unwrap().board().is_over());
}

#[test]
fn passes_are_moves() {
    // Black has a1, b1; White has c1... build a position where White cannot move.
    // X X O - ... : Black to move plays d1, then White has no disc: game over.
    let b = Board::from_discs(0b011, 0b100, true).unwrap();
    let g = Othello::from_board(b);
    assert_eq!(g.legal_moves(), vec![3]);
    let after = g.after(3);
    assert_eq!(after.result(), Some(GameResult::FirstPlayerWins));
    assert!(after.legal_moves().is_empty());
    assert_eq!(after.parse_move("d1").unwrap_err(), "the game is over");
    // White to move with no move while Black has one: a pass.
    let w = Othello::from_board(Board::from_discs(0b011, 0b100, false).unwrap());
    assert_eq!(w.legal_moves(), vec![PASS]);
    assert_eq!(w.parse_move("PASS"), Ok(PASS));
    assert_eq!(w.move_text(PASS), "pass");
    assert!(w.parse_move("d1").unwrap_err().contains("legal: pass"));
    assert!(w.parse_move("zz").unwrap_err().contains("type a square"));
    // A move list goes through the forced pass: after d1 by Black it is
    // Black again... here the game simply ends.
    let mut moves = Vec::new();
    w.moves(&w.root(), &mut moves);
    assert_eq!(moves, vec![PASS]);
}

#[test]
fn values_are_final_disc_differences() {
    // A full board: the disc difference; empty squares go to the winner.
    assert_eq!(final_score(!0 >> 20, (!0u64) << 44), 44 - 20);
    assert_eq!(final_score(0b1, 0b110), -62); // 1 disc against 2: the winner takes the 61 empty squares
    assert_eq!(final_score(0b11, 0b1100), 0);
    let b = Board::from_discs(0b011, 0b100, true).unwrap();
    let g = Othello::from_board(b);
    // Black plays d1 and wipes White out: 4 discs, 60 empty squares to the winner.
    assert_eq!(
        crate::algorithms::alphabeta::search_observed(&g, &SearchOptions::default(), &mut crate::NoObserver)
            .unwrap()
            .value,
        Some(64)
    );
    assert_eq!(g.with_heuristic().evaluate(&g.play(&b, 3)), 64 * HEURISTIC_SCALE);
}

#[test]
fn keys_tell_positions_and_sides_apart() {
    let mut seen = std::collections::HashMap::new();
    for b in random_positions(8, 3000, 12) {
        if let Some(old) = seen.insert(b.key(), b) {
            assert_eq!(old, b);
        }
        let other = Board {
            black_to_move: !b.black_to_move,
            ..b
        };
        assert_ne!(b.key(), other.key());
    }
    assert!(seen.len() > 1000);
}

#[test]
fn heuristic_values_stay_in_range() {
    for b in random_positions(9, 500, 30) {
        let g = Othello::from_board(b).with_heuristic();
        let v = g.evaluate(&b);
        assert!(v.abs() <= HEURISTIC_MAX || v % HEURISTIC_SCALE == 0, "{v}");
    }
}
