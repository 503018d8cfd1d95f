//! Chess: move generation checked by perft through the [`Game`] trait,
//! every algorithm agreeing on the Bratko-Kopec positions, MT-SSS\* =
//! SSS\* on the chess tree, exact mates and stalemates, repetitions (a
//! threefold at the root, a perpetual check found, a threefold avoided),
//! and located errors.
//!
//! The whole file takes about 16 s on the project's 2-core machine in the
//! (optimised) test profile; the slowest test, every algorithm at depth 3
//! on six Bratko-Kopec positions, about 8 s of it, the perpetual check at
//! depth 5 (minimax included) about 5 s, the depth-1 and -2 agreement on
//! all 24 positions about 3 s, perft about 1 s.

use std::collections::HashMap;
use stockman::games::chess::{ChessGame, MATE};
use stockman::{Algorithm, Game, LeafRecorder, Outcome, Playable, Role, SearchOptions, TableSize, Unfolded, Value};
use stockman::{Enhancements, Limits};

/// Leaf nodes `depth` plies below `pos`, through the game's own `moves`
/// and `play` (so it checks the move list and copy-make, not cozy-chess).
fn perft<G: Game>(g: &G, pos: &G::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    g.moves(pos, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|&m| perft(g, &g.play(pos, m), depth - 1)).sum()
}

fn game(text: &str) -> ChessGame {
    ChessGame::from_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Published perft counts (chessprogramming wiki, "Perft Results"). None
/// of these trees reaches the fifty-move rule or a dead position within
/// its depth, where `Game::moves` stops listing legal moves.
#[test]
fn perft_matches_the_published_counts() {
    let cases: [(&str, &[u64]); 7] = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &[20, 400, 8902, 197_281],
        ),
        // "Kiwipete" (with its black pawn on h3: without it White has 49 moves).
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            &[48, 2039, 97_862],
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &[14, 191, 2812, 43_238]),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            &[6, 264, 9467],
        ),
        (
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
            &[6, 264, 9467],
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            &[44, 1486, 62_379],
        ),
        (
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            &[46, 2079, 89_890],
        ),
    ];
    for (fen, counts) in cases {
        let g = game(fen);
        for (d, &want) in counts.iter().enumerate() {
            let depth = d as u32 + 1;
            assert_eq!(perft(&g, &g.root(), depth), want, "{fen} depth {depth}");
        }
    }
}

/// Every move the game lists two plies deep reads back from its own text,
/// and no move is listed twice.
#[test]
fn move_texts_round_trip() {
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ] {
        let g = game(fen);
        for mv in g.legal_moves() {
            let after = g.after(mv);
            for g in [&g, &after] {
                let moves = g.legal_moves();
                for &m in &moves {
                    let text = g.move_text(m);
                    assert_eq!(g.parse_move(&text), Ok(m), "{fen}: {text}");
                    assert_eq!(moves.iter().filter(|&&x| x == m).count(), 1, "{fen}: {text} twice");
                }
            }
        }
    }
}

/// The minimax value of `pos` searched `depth` plies deep, computed here
/// without the crate's searches.
fn minimax<G: Game>(g: &G, pos: &G::Position, depth: u32) -> Value {
    let mut moves = Vec::new();
    g.moves(pos, &mut moves);
    if depth == 0 || moves.is_empty() {
        return g.evaluate(pos);
    }
    let values = moves.iter().map(|&m| minimax(g, &g.play(pos, m), depth - 1));
    match g.role(pos) {
        Role::Max => values.max().expect("moves"),
        Role::Min => values.min().expect("moves"),
    }
}

fn depth(d: u32) -> SearchOptions {
    SearchOptions {
        limits: Limits::to_depth(d),
        ..Default::default()
    }
}

/// What a game program runs: a small table, the table's move first,
/// history, killers and enhanced transposition cutoffs.
fn enhanced(d: u32) -> SearchOptions {
    SearchOptions {
        limits: Limits::to_depth(d),
        table: TableSize::Megabytes(8),
        enhancements: Enhancements {
            table_move_first: true,
            history: true,
            killers: true,
            etc: true,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// Every algorithm finds the minimax value `d` plies deep (Best Node
/// Search: a bound that holds it), and every best move holds it.
fn every_algorithm_agrees(label: &str, g: &ChessGame, d: u32, with_enhancements: bool) -> Value {
    let root = g.root();
    let v = minimax(g, &root, d);
    let mut child_values: HashMap<String, Value> = HashMap::new();
    let mut option_sets = vec![depth(d)];
    if with_enhancements {
        option_sets.push(enhanced(d));
    }
    for opts in &option_sets {
        for &a in Algorithm::ALL {
            let out = a
                .search(g, opts)
                .unwrap_or_else(|e| panic!("{label} depth {d}: {a}: {e}"));
            match out.bound {
                Some((lo, hi)) => assert!(lo <= v && v < hi, "{label} depth {d}: {a}: {lo}..{hi} misses {v}"),
                None => assert_eq!(out.value, Some(v), "{label} depth {d}: {a}"),
            }
            if let Some(m) = out.best_move {
                let text = g.move_text(m);
                let held = *child_values
                    .entry(text.clone())
                    .or_insert_with(|| minimax(g, &g.play(&root, m), d - 1));
                assert_eq!(held, v, "{label} depth {d}: {a}: {text} does not hold {v}");
            } else {
                assert!(g.legal_moves().is_empty(), "{label}: {a} names no move");
            }
        }
    }
    v
}

fn bratko_kopec() -> Vec<(String, ChessGame)> {
    include_str!("data/chess/bratko-kopec.epd")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let id = l
                .split("id \"")
                .nth(1)
                .and_then(|s| s.split('"').next())
                .expect("an id");
            (id.to_string(), game(l))
        })
        .collect()
}

#[test]
fn the_bratko_kopec_positions_parse() {
    let set = bratko_kopec();
    assert_eq!(set.len(), 24);
    for (i, (id, g)) in set.iter().enumerate() {
        assert_eq!(id, &format!("BK.{:02}", i + 1));
        // EPD: the clocks default to 0 1.
        assert!(g.fen().ends_with(" 0 1"), "{id}: {}", g.fen());
        assert!(g.result().is_none(), "{id}");
    }
    // BK.01: Black to move, the key is the queen check on d1.
    let (_, g) = &set[0];
    assert!(!g.first_player_to_move());
    assert!(g.parse_move("d6d1").is_ok());
}

#[test]
fn every_algorithm_agrees_on_bratko_kopec_at_depths_1_and_2() {
    for (id, g) in bratko_kopec() {
        every_algorithm_agrees(&id, &g, 1, true);
        every_algorithm_agrees(&id, &g, 2, true);
    }
}

#[test]
fn every_algorithm_agrees_on_some_bratko_kopec_positions_at_depth_3() {
    let set = bratko_kopec();
    // Tactical (1, 15, 19, 22) and positional (6, 8) positions, the
    // endgame-like ones among them cheaper.
    for i in [1, 6, 8, 15, 19, 22] {
        let (id, g) = &set[i - 1];
        every_algorithm_agrees(id, g, 3, i == 6);
    }
}

#[test]
fn the_start_position_agrees_at_depth_3() {
    let v = every_algorithm_agrees("startpos", &ChessGame::new(), 3, true);
    // White is to move, and a tempo up: a small plus, no material swings.
    assert!((0..100).contains(&v), "{v}");
}

fn leaf_paths<G: Game>(a: Algorithm, g: &G, d: u32) -> (Vec<Vec<u32>>, Outcome<G::Move>) {
    let mut rec = LeafRecorder::default();
    let out = a.with_options(&depth(d)).observer(&mut rec).run(g).unwrap();
    (rec.paths(), out)
}

/// The theorem is about the tree: on the unfolded chess tree (nodes hashed
/// by their path, see `stockman::Unfolded`) MT-SSS\* evaluates exactly
/// SSS\*'s leaves in the same order, and MT-Dual\* Dual\*'s, up to 4 plies deep.
#[test]
fn mt_sss_equals_sss_on_the_chess_tree() {
    let set = bratko_kopec();
    let cases = [
        ("startpos", ChessGame::new()),
        ("BK.06", set[5].1.clone()),
        ("BK.22", set[21].1.clone()),
    ];
    for (label, g) in cases {
        let tree = Unfolded(g);
        for d in 1..=4 {
            let (sss, a) = leaf_paths(Algorithm::Sss, &tree, d);
            let (mt, b) = leaf_paths(Algorithm::MtSss, &tree, d);
            assert_eq!(a.value, b.value, "{label} depth {d}");
            assert_eq!(mt, sss, "{label} depth {d}: MT-SSS* vs SSS*");
            let (dual, _) = leaf_paths(Algorithm::Dual, &tree, d);
            let (mt_dual, _) = leaf_paths(Algorithm::MtDual, &tree, d);
            assert_eq!(mt_dual, dual, "{label} depth {d}: MT-Dual* vs Dual*");
        }
    }
}

/// With the real position hash, transpositions share table entries: at
/// depth 3 (a move of each side's swapped, `Nf3 Nf6 Nc3` = `Nc3 Nf6 Nf3`)
/// MT-SSS\* reuses leaf values stored under the other move order and
/// evaluates fewer leaves than SSS\*, which walks the tree. Same value.
#[test]
fn the_real_hash_merges_transpositions() {
    let g = ChessGame::new();
    let (sss, a) = leaf_paths(Algorithm::Sss, &g, 3);
    let (mt, b) = leaf_paths(Algorithm::MtSss, &g, 3);
    assert_eq!(a.value, b.value);
    eprintln!("startpos depth 3: MT-SSS* {} leaves, SSS* {}", mt.len(), sss.len());
    assert!(mt.len() < sss.len(), "MT-SSS* {} leaves, SSS* {}", mt.len(), sss.len());
    // What MT-SSS* evaluates is still a subsequence of SSS*'s leaves.
    let mut rest = sss.iter();
    for leaf in &mt {
        assert!(
            rest.any(|l| l == leaf),
            "MT-SSS* evaluated {leaf:?} out of SSS*'s order"
        );
    }
    // The tree's own theorem, at depth 2, where no transposition exists.
    assert_eq!(
        leaf_paths(Algorithm::MtSss, &g, 2).0,
        leaf_paths(Algorithm::Sss, &g, 2).0
    );
}

/// Every algorithm finds `want` at depth `d`, and a best move (if any)
/// among `best`.
fn all_find(text: &str, d: u32, want: Value, best: &[&str]) {
    let g = game(text);
    for &a in Algorithm::ALL {
        let out = a.search(&g, &depth(d)).unwrap();
        match out.bound {
            Some((lo, hi)) => assert!(lo <= want && want < hi, "{text}: {a}: {lo}..{hi}"),
            None => assert_eq!(out.value, Some(want), "{text} depth {d}: {a}"),
        }
        let m = out.best_move.map(|m| g.move_text(m));
        if a.finds_value() && !best.is_empty() {
            let m = m.unwrap_or_default();
            assert!(best.contains(&m.as_str()), "{text}: {a} plays {m}");
        }
    }
}

#[test]
fn mates_are_found_exactly_and_ranked_by_distance() {
    // Mate in one (Rd8#): worth MATE - 1 at every depth that sees it.
    for d in 1..=3 {
        all_find("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", d, MATE - 1, &["d1d8"]);
    }
    // Morphy's mate in two: 1.Ra6! bxa6 2.b7#. Three plies deep it is
    // MATE - 3; two plies deep the mate is not in sight.
    let morphy = "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1";
    all_find(morphy, 3, MATE - 3, &["a1a6"]);
    let two = Algorithm::AlphaBeta
        .search(&game(morphy), &depth(2))
        .unwrap()
        .value
        .unwrap();
    assert!(two.abs() < 10_000, "{two}");
    // After 1.Ra6 Black, to move, is mated at ply 2 whatever it does.
    all_find(&format!("{morphy} moves a1a6"), 2, -(MATE - 2), &[]);
    // Mated at the root: no moves, the lowest score.
    all_find("startpos moves f2f3 e7e5 g2g4 d8h4", 3, -MATE, &[]);
}

#[test]
fn stalemate_and_draws_are_zero() {
    // Stalemated at the root.
    all_find("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 3, 0, &[]);
    // Queen and king against king: Qb8, Qc8, Qg7 and Qh7 mate, Qf7 stalemates.
    let text = "7k/1Q6/6K1/8/8/8/8/8 w - - 0 1";
    all_find(text, 1, MATE - 1, &["b7b8", "b7c8", "b7g7", "b7h7"]);
    all_find(&format!("{text} moves b7f7"), 2, 0, &[]);
    let g = game(text);
    let stalemate = g.after(g.parse_move("b7f7").unwrap());
    assert!(stalemate.legal_moves().is_empty());
    assert_eq!(stalemate.result(), Some(stockman::GameResult::Draw));
    assert_eq!(g.evaluate(&g.play(&g.root(), g.parse_move("b7f7").unwrap())), 0);
    // King and knight against king: dead, 0 for every algorithm.
    all_find("8/8/4k3/8/8/3KN3/8/8 w - - 0 1", 3, 0, &[]);
}

/// Knights out and back twice: the start position for the third time is a
/// draw by threefold repetition; one trip fewer is not.
#[test]
fn threefold_repetition_is_a_draw() {
    let g = game("startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    assert_eq!(g.result(), Some(stockman::GameResult::Draw));
    assert!(g.legal_moves().is_empty());
    let g = game("startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6");
    assert_eq!(g.result(), None);
    assert_eq!(g.history().len(), 6);
}

/// The moves of the root that give check.
fn checks(g: &ChessGame) -> Vec<String> {
    g.legal_moves()
        .into_iter()
        .filter(|&m| !g.after(m).board().checkers().is_empty())
        .map(|m| g.move_text(m))
        .collect()
}

/// White, a rook, a bishop and a pawn behind (queen and three pawns against
/// queen, rook, bishop and four pawns, Black's pieces boxed in on a8-c8),
/// has a perpetual check: Qe8+ Kh7 Qh5+ Kg8 Qe8+, every black move forced.
/// Four plies deep the repetition is out of sight and White is lost (-865);
/// five plies deep the fifth ply repeats the first, and every algorithm
/// finds the draw, with a checking move.
#[test]
fn a_perpetual_check_saves_the_side_behind() {
    let text = "qrb3k1/pp1p2p1/8/8/4Q3/8/5PPP/6K1 w - - 0 1";
    let four = Algorithm::AlphaBeta
        .search(&game(text), &depth(4))
        .unwrap()
        .value
        .unwrap();
    assert!(four < -700, "{four}");
    let g = game(text);
    let checks = checks(&g);
    all_find(text, 5, 0, &checks.iter().map(String::as_str).collect::<Vec<_>>());
    // With a table too: the hash tells the paths apart, so no entry stored
    // on a line where the checks repeat is used on one where they do not
    // (with a path-blind hash MT-SSS* under iterative deepening found -845).
    assert_eq!(every_algorithm_agrees("perpetual", &g, 5, true), 0);
    for &a in Algorithm::ALL
        .iter()
        .filter(|a| !a.is_best_first() && **a != Algorithm::Minimax)
    {
        let opts = SearchOptions {
            limits: Limits {
                depth: Some(5),
                ..SearchOptions::engine(Some(10)).limits
            },
            ..SearchOptions::engine(Some(10))
        };
        let out = a.with_options(&opts).deepen().run(&g).unwrap();
        match out.bound {
            Some((lo, hi)) => assert!(lo <= 0 && 0 < hi, "iterative {a}: {lo}..{hi}"),
            None => assert_eq!(out.value, Some(0), "iterative {a}"),
        }
    }
    // The line itself: after Qe8+ Kh7 Qh5+ Kg8 Qe8+ Black has no move left
    // (a draw), and the position is worth 0, not White's material deficit.
    let mut pos = g.root();
    for text in ["e4e8", "g8h7", "e8h5", "h7g8", "h5e8"] {
        let mut moves = Vec::new();
        g.moves(&pos, &mut moves);
        let mv = moves.into_iter().find(|&m| m.to_string() == text).expect(text);
        pos = g.play(&pos, mv);
    }
    let mut moves = Vec::new();
    g.moves(&pos, &mut moves);
    assert!(moves.is_empty());
    assert_eq!(g.evaluate(&pos), 0);
}

/// White, a queen up, has shuffled Qd5-b3 and back while Black's king went
/// g8-h7 and back: Qb3-d5 now, the best move from the same board without
/// the history, would bring the position after it about for the third
/// time. White plays something else and keeps its advantage.
#[test]
fn the_side_ahead_avoids_a_threefold_repetition() {
    let bare = game("6k1/5pp1/7p/8/8/1Q6/5PPP/6K1 w - - 0 1");
    let out = Algorithm::AlphaBeta.search(&bare, &depth(4)).unwrap();
    assert_eq!(
        (out.value, out.best_move.map(|m| bare.move_text(m))),
        (Some(915), Some("b3d5".to_string()))
    );
    let text = "6k1/5pp1/7p/3Q4/8/8/5PPP/6K1 b - - 0 1 moves g8h7 d5b3 h7g8 b3d5 g8h7 d5b3 h7g8";
    let g = game(text);
    assert_eq!(
        g.board(),
        &game("6k1/5pp1/7p/8/8/1Q6/5PPP/6K1 w - - 7 5").board().clone()
    );
    assert_eq!(g.result(), None);
    let repeat = g.parse_move("b3d5").unwrap();
    assert_eq!(g.after(repeat).result(), Some(stockman::GameResult::Draw));
    assert_eq!(g.evaluate(&g.play(&g.root(), repeat)), 0);
    for &a in Algorithm::ALL {
        let out = a.search(&g, &depth(4)).unwrap();
        match out.bound {
            Some((lo, hi)) => assert!(lo <= 905 && 905 < hi, "{a}: {lo}..{hi}"),
            None => assert_eq!(out.value, Some(905), "{a}"),
        }
        assert_ne!(out.best_move, Some(repeat), "{a}");
    }
    assert_eq!(every_algorithm_agrees("avoid", &g, 4, true), 905);
}

#[test]
fn bad_positions_and_moves_are_explained() {
    let err = |t: &str| <ChessGame as Playable>::from_position(t).unwrap_err().to_string();
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0"),
        "FEN field 6 (fullmove number) is missing: a FEN with a halfmove clock also has a fullmove number"
    );
    assert_eq!(
        err("startpos moves e2e4 e7e5 e1e3"),
        "move 3 `e1e3`: the king on e1 cannot move to e3"
    );
    assert_eq!(
        err("startpos moves e2e4 e2e3"),
        "move 2 `e2e3`: there is no black piece on e2"
    );
    let g = ChessGame::new();
    assert_eq!(
        g.parse_move("e2e5"),
        Err("the pawn on e2 cannot move to e5".to_string())
    );
    assert!(g.parse_move("Nf3").unwrap_err().contains("not a move in UCI notation"));
    assert_eq!(g.player_name(true), "White");
    assert_eq!(g.player_name(false), "Black");
    assert!(g.first_player_to_move());
}
