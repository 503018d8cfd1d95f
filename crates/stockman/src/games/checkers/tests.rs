use super::board::{bit_at, row_col};
use super::*;
use crate::games::perft::{divide, perft};
use crate::options::Limits;

fn game(text: &str) -> Checkers {
    Checkers::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn texts(g: &Checkers) -> Vec<String> {
    g.legal_moves().iter().map(|&m| g.move_text(m)).collect()
}

fn err(text: &str) -> String {
    Checkers::parse(text).unwrap_err().to_string()
}

#[test]
fn geometry_numbers_the_dark_squares_in_reading_order() {
    for i in 0..32 {
        let (r, c) = row_col(i);
        assert_eq!((r + c) % 2, 1, "square {} is dark", i + 1);
        assert_eq!(bit_at(r as i32, c as i32), Some(i));
    }
    // Square 1 is b8's place in a diagram (row 1, column 2), 32 g1's.
    assert_eq!(row_col(0), (0, 1));
    assert_eq!(row_col(31), (7, 6));
}

#[test]
fn the_start_has_seven_moves_for_black() {
    let g = Checkers::new();
    assert_eq!(texts(&g), ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]);
    assert_eq!(
        g.fen(),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    assert_eq!(game("B:W21-32:B1-12"), g);
    assert_eq!(game("[FEN \"B:W21-32:B1-12\"]"), g);
    assert_eq!(game(&format!("{} B", g.board().to_diagram())), g);
}

/// Aart Bik, "perft for 8x8 checkers", TalkChess forum, 8 May 2009
/// (www.talkchess.com/forum3/viewtopic.php?t=27814), also OEIS A133046
/// (duplicate captures counted separately).
#[test]
fn perft_matches_the_published_counts() {
    assert_eq!(
        perft(&Checkers::new(), 9),
        [7, 49, 302, 1469, 7361, 36768, 179_740, 845_931, 3_963_680]
    );
}

/// Perft through the search's own `moves` and `play` agrees with the
/// legal moves (the same tree, in another order), and every child hash
/// equals the played child's hash, and the incremental Zobrist key the
/// key computed from scratch.
#[test]
fn the_search_tree_is_the_legal_tree_and_hashes_agree() {
    fn walk(g: &Checkers, pos: &CheckersPosition, depth: u32) -> u64 {
        assert_eq!(pos.board.key, pos.board.compute_key());
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        g.moves(pos, &mut moves);
        let mut n = 0;
        for m in moves {
            let child = g.play(pos, m);
            assert_eq!(g.child_hash(pos, m), g.hash(&child));
            n += walk(g, &child, depth - 1);
        }
        n
    }
    for text in [
        "",
        "11-15 22-18 15x22 25x18",
        "W:WK10,K19,27:BK1,14,15,22,23",
        "B:W14,15,22,K7:B10,K25",
    ] {
        let g = game(text);
        let want = perft(&g, 5)[4];
        assert_eq!(walk(&g, &g.root(), 5), want, "{text}");
    }
}

#[test]
fn captures_are_compulsory_and_multi_jumps_go_to_the_end() {
    // Black's man on 10 jumps White's 14 to 17, then 22 to 26.
    let g = game("B:W14,22,30:B10");
    assert_eq!(texts(&g), ["10x17x26"]);
    // Only the first and last squares: one route, accepted.
    assert_eq!(g.move_text(g.parse_move("10x26").unwrap()), "10x17x26");
    let e = g.parse_move("10x17").unwrap_err();
    assert_eq!(e, "the jump must be continued to its end (for example 10x17x26)");
    let e = g.parse_move("10-15").unwrap_err();
    assert_eq!(e, "Black must capture: captures are compulsory (legal: 10x17x26)");
    // A choice of captures: any may be taken, not only the longest.
    let g = game("B:W14,15,22:B10");
    assert_eq!(texts(&g), ["10x17x26", "10x19"]);
}

#[test]
fn a_man_reaching_the_far_row_is_crowned_and_stops() {
    // Black's man on 23 jumps 27 to 32 and is crowned there, though as a
    // king it could jump on over 28.
    let g = game("B:W27,28,31:B23");
    let moves = texts(&g);
    assert_eq!(moves, ["23x32"]);
    let after = g.after(g.parse_move("23x32").unwrap());
    let (_, black_kings, _, _) = after.board().pieces();
    assert_eq!(black_kings, 1 << 31);
    assert!(after.fen().ends_with(":BK32"), "{}", after.fen());
}

#[test]
fn kings_move_both_ways_and_the_side_without_moves_loses() {
    let g = game("W:WK18:B1");
    assert_eq!(texts(&g), ["18-14", "18-15", "18-22", "18-23"]);
    // White's man on 5 has no move: 1 is Black's, and men never go back.
    let blocked = game("W:W5:B1,K9");
    assert!(blocked.legal_moves().is_empty(), "{:?}", texts(&blocked));
    assert_eq!(blocked.result(), Some(GameResult::FirstPlayerWins));
    assert_eq!(blocked.evaluate(&blocked.root()), -WIN);
    let opts = crate::SearchOptions {
        limits: Limits::to_depth(3),
        ..Default::default()
    };
    assert_eq!(
        crate::algorithms::alphabeta::search_observed(&blocked, &opts, &mut crate::NoObserver)
            .unwrap()
            .value,
        Some(-WIN)
    );
    // One ply from a win: worth WIN - 1 to the winner.
    let g = game("B:W14:B10");
    assert_eq!(
        crate::algorithms::alphabeta::search_observed(&g, &opts, &mut crate::NoObserver)
            .unwrap()
            .value,
        Some(WIN - 1)
    );
}

#[test]
fn the_draw_rule_ends_king_shuffles() {
    let mut g = game("B:WK29:BK4");
    let cycle = ["4-8", "29-25", "8-4", "25-29"];
    let mut plies = 0;
    while g.result().is_none() {
        let mv = g.parse_move(cycle[plies % 4]).unwrap();
        g = g.after(mv);
        plies += 1;
    }
    assert_eq!((plies, g.result()), (80, Some(GameResult::Draw)));
    assert_eq!(g.evaluate(&g.root()), 0);
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.parse_move("4-8").unwrap_err(), "the game is already over");
    // A man's move resets the count.
    let g = game("B:WK29:BK4,5 4-8 29-25 8-4 25-29 5-9");
    assert_eq!(g.board().quiet_plies(), 0);
    let g = game("B:WK29:BK4,5 4-8 29-25 8-4 25-29");
    assert_eq!(g.board().quiet_plies(), 4);
}

#[test]
fn bad_positions_name_the_token_and_column() {
    assert_eq!(
        err("11-15 23-19 11-16"),
        "move 3 (`11-16`, column 13): not a legal move for Black (legal: 7-11 8-11 9-13 9-14 10-14 12-16 15-18)"
    );
    assert_eq!(
        err("1. 11-15 22-18 2. 9-13"),
        "move 3 (`9-13`, column 19): Black must capture: captures are compulsory (legal: 15x22)"
    );
    assert_eq!(
        err("B:W14,22,30:B10 10x17"),
        "move 1 (`10x17`, column 17): the jump must be continued to its end (for example 10x17x26)"
    );
    assert_eq!(
        err("11-15 23-33"),
        "move 2 (`23-33`, column 7): square 33 is not on the board (squares are 1 to 32)"
    );
    assert_eq!(
        err("11-15 0-4"),
        "move 2 (`0-4`, column 7): square 0 is not on the board (squares are 1 to 32)"
    );
    assert_eq!(
        err("11-15 e3-d4"),
        "move 2 (`e3-d4`, column 7): not a move: write squares 1 to 32 joined by - or x (11-15, 9x18, 9x18x27)"
    );
    assert_eq!(
        err("W:W4:B8"),
        "FEN `4` (column 4): a White man on 4 would have been crowned: write K4"
    );
    assert_eq!(err("W:W21,21:B1"), "FEN `21` (column 7): square 21 holds two pieces");
    assert_eq!(err("W:W21:B21"), "FEN `21` (column 8): square 21 holds two pieces");
    assert_eq!(
        err("X:W21:B1"),
        "FEN `X` (column 1): the side to move is B (Black) or W (White)"
    );
    assert_eq!(
        err("W:W21:Q1"),
        "FEN `Q1` (column 7): a FEN field is W or B followed by squares (W21,22,K30)"
    );
    assert_eq!(
        err("W:W21:B1:B2"),
        "FEN `B2` (column 10): this colour's pieces are given twice"
    );
    assert_eq!(
        err("W:Wx1:B1"),
        "FEN `x1` (column 4): a piece is a square 1 to 32, K before a king's, or a range such as 1-12"
    );
    assert_eq!(err("W:W9-5:B1"), "FEN `9-5` (column 4): the range 9-5 is empty");
    // A diagram with a man on a light square (row 1, column 1).
    let mut d: Vec<char> = Checkers::new().board().to_diagram().chars().collect();
    d[0] = 'b';
    let text: String = d.iter().collect();
    assert_eq!(
        err(&format!("{text} B")),
        "board (column 1): 'b' on a light square (row 1, column 1): pieces stand on the dark squares"
    );
    assert_eq!(
        err("..b B"),
        "board (column 1): 3 squares, not 64 (8 rows, the top first: . empty, b/B black man/king, w/W white man/king)"
    );
    let start = Checkers::new().board().to_diagram();
    assert_eq!(
        err(&format!("{start} X")),
        "board (column 66): side to move `X`: expected B (Black) or W (White)"
    );
}

/// Random playouts: every move's text reads back to the move, FEN and
/// diagram round trip, and a whole game's move list reads back to it.
#[test]
fn texts_round_trip_along_random_games() {
    let mut seed = 0x1234_5678_u64;
    for _ in 0..40 {
        let mut g = Checkers::new();
        let mut line = Vec::new();
        for _ in 0..120 {
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                let t = g.move_text(m);
                let back = g.parse_move(&t).unwrap();
                // Duplicate routes (same squares) read back to the first.
                assert_eq!(g.move_text(back), t);
            }
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let m = moves[(seed >> 33) as usize % moves.len()];
            line.push(g.move_text(m));
            g = g.after(m);
            let again = game(&g.fen());
            assert_eq!(again.board().pieces(), g.board().pieces());
            assert_eq!(again.to_move_text(), g.to_move_text());
            let side = if g.first_player_to_move() { "B" } else { "W" };
            let d = game(&format!("{} {side}", g.board().to_diagram()));
            assert_eq!(d.board().key(), g.board().key());
        }
        assert_eq!(game(&line.join(" ")), g);
    }
}

#[test]
fn divide_sums_to_perft() {
    let g = game("11-15 23-19 8-11 22-17");
    let d = divide(&g, 3);
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), perft(&g, 3)[2]);
}
