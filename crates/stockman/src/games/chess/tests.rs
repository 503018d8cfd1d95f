use super::eval::static_eval;
use super::*;
use crate::options::Limits;
use crate::search::SearchOptions;
use cozy_chess::Square;

fn game(text: &str) -> ChessGame {
    ChessGame::from_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn err(text: &str) -> String {
    ChessGame::from_position(text).unwrap_err().to_string()
}

fn texts(g: &ChessGame) -> Vec<String> {
    g.legal_moves().into_iter().map(|m| g.move_text(m)).collect()
}

fn value(g: &ChessGame, depth: u32) -> Value {
    let opts = SearchOptions {
        limits: Limits::to_depth(depth),
        ..Default::default()
    };
    crate::algorithms::alphabeta::search_observed(g, &opts, &mut crate::NoObserver)
        .unwrap()
        .value
        .unwrap()
}

#[test]
fn positions_parse_in_every_form() {
    assert_eq!(game("").fen(), STARTPOS);
    assert_eq!(game("startpos"), ChessGame::new());
    assert_eq!(game(STARTPOS), ChessGame::new());
    assert_eq!(game(&format!("fen {STARTPOS}")), ChessGame::new());
    // EPD: four fields, clocks 0 1, operations ignored.
    let epd = game("1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";");
    assert_eq!(epd.fen(), "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1");
    assert_eq!(
        game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"),
        ChessGame::new()
    );
    let a = game("startpos moves e2e4 e7e5");
    assert_eq!(a, game("moves e2e4 e7e5"));
    assert_eq!(a, game("e2e4 e7e5"));
    assert_eq!(a, game(&format!("{STARTPOS} moves e2e4 e7e5")));
    assert_eq!(a, game("  startpos   moves  e2e4\te7e5 "));
    // EPD operations, then moves.
    let b = game("4k3/8/8/8/8/8/8/4K2R w K - id \"a; b\"; moves e1g1");
    assert_eq!(b.fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
}

#[test]
fn errors_name_the_field_or_the_move() {
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "FEN field 1 (piece placement) `rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR`: has 7 ranks separated by `/`, expected 8"
    );
    assert!(err("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        .contains("rank 7 (`ppppppppp`) covers 9 squares"));
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQXBNR w KQkq - 0 1").contains("`X` in rank 1"));
    assert!(err("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1").contains("Black has 0 kings"));
    assert!(err("4k3/8/8/8/8/8/8/P3K3 w - - 0 1").contains("a pawn on a1"));
    assert_eq!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
        "FEN field 2 (side to move) `x`: expected `w` (White to move) or `b` (Black to move)"
    );
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1")
        .starts_with("FEN field 3 (castling rights) `KQkx`: `x`"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w K - 0 1").contains("`K` needs White's king on e1 and a rook on h1"));
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1").contains("rank 6"));
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1")
        .starts_with("FEN field 4 (en passant square) `e6`: no pawn"));
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 101 1")
        .starts_with("FEN field 5 (halfmove clock) `101`"));
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0")
        .starts_with("FEN field 6 (fullmove number) `0`"));
    assert!(err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0")
        .starts_with("FEN field 6 (fullmove number) is missing"));
    assert!(
        err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w").starts_with("FEN field 3 (castling rights) is missing")
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K2R w - - 0 1 moves h1a8"),
        "move 1 `h1a8`: the rook on h1 cannot move to a8"
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K2R w - - 0 1 moves h1h8 e8d8"),
        "move 2 `e8d8`: the king on e8 cannot move to d8 (Black is in check)"
    );
    assert_eq!(
        err("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"),
        "illegal position: Black is in check but it is not Black's move"
    );
    assert!(err("startpos moves e2e4 e7e5 zz").starts_with("move 3 `zz`: `zz` is not a move in UCI notation"));
    assert_eq!(
        err("startpos moves e2e5"),
        "move 1 `e2e5`: the pawn on e2 cannot move to e5"
    );
    assert_eq!(
        err("startpos moves e1g1"),
        "move 1 `e1g1`: the king on e1 cannot move to g1"
    );
    assert!(err("hello").contains("a chess position is `startpos`, a FEN"));
    assert!(err("startpos e2e4").contains("expected `moves`"));
    assert!(ChessGame::from_position("4k3/8/8/8/8/8/8/4K3 w - - bm Ke2").is_ok());
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - id \"BK.01;").contains("unterminated quoted operand"));
    // The fool's mate: no move after the mate.
    let mated = "startpos moves f2f3 e7e5 g2g4 d8h4";
    assert_eq!(
        err(&format!("{mated} a2a3")),
        "move 5 `a2a3`: the game is over: White is checkmated"
    );
}

#[test]
fn castling_and_promotion_in_uci() {
    let g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let t = texts(&g);
    assert!(
        t.contains(&"e1g1".to_string()) && t.contains(&"e1c1".to_string()),
        "{t:?}"
    );
    let mv = g.parse_move("e1g1").unwrap();
    assert_eq!(mv.to, Square::H1); // cozy-chess: king takes rook
    assert_eq!(g.move_text(mv), "e1g1");
    assert_eq!(g.after(mv).fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    assert_eq!(g.parse_move("e1h1").unwrap(), mv);
    let g = game("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
    assert_eq!(g.parse_move("e1g1").unwrap_err(), "White cannot castle kingside here");
    let g = game("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        g.parse_move("a7a8").unwrap_err(),
        "a pawn reaching the last rank must promote: add q, r, b or n (`a7a8q`)"
    );
    let q = g.parse_move("a7a8q").unwrap();
    assert_eq!(g.move_text(q), "a7a8q");
    assert_eq!(g.parse_move("A7A8Q").unwrap(), q);
    assert_eq!(
        g.parse_move("e1e2q").unwrap_err(),
        "only a pawn reaching the last rank promotes"
    );
    assert_eq!(g.parse_move("d4d5").unwrap_err(), "there is no white piece on d4");
    // Promotions come first, the queen's first of all.
    assert_eq!(&texts(&g)[..4], &["a7a8q", "a7a8r", "a7a8b", "a7a8n"]);
}

#[test]
fn captures_come_first_in_mvv_lva_order() {
    // The white pawn and queen can both take the black queen on d5: the
    // pawn (least valuable attacker) first; then the queen takes a pawn.
    let g = game("4k3/8/8/p2q4/4P3/8/8/Q2QK3 w - - 0 1");
    let t = texts(&g);
    assert_eq!(&t[..3], &["e4d5", "d1d5", "a1a5"], "{t:?}");
    // Then the quiet moves, the largest gain in square value first.
    let g = game("4k3/p7/8/8/8/8/8/N3K3 w - - 0 1");
    assert_eq!(texts(&g)[0], "a1b3");
}

#[test]
fn display_shows_the_board_and_the_fen() {
    let s = ChessGame::new().to_string();
    let lines: Vec<&str> = s.lines().collect();
    assert_eq!(lines[0], "8  r n b q k b n r");
    assert_eq!(lines[7], "1  R N B Q K B N R");
    assert_eq!(lines[8], "   a b c d e f g h");
    assert_eq!(lines[9], format!("FEN {STARTPOS}"));
}

#[test]
fn evaluation_is_symmetric_and_sane() {
    // The start position is balanced, for either side to move.
    assert_eq!(static_eval(&Board::startpos()), 0);
    // After 1.Nf3 (-40 on g1, +10 on f3) Black, to move, is 50 behind.
    assert_eq!(static_eval(game("startpos moves g1f3").board()), -50);
    // A mirrored position (colours swapped, board flipped) evaluates the same.
    let a = game("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let b = game("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
    assert_eq!(static_eval(a.board()), static_eval(b.board()));
    // Knight in the centre beats knight on the rim.
    let centre = game("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
    let rim = game("4k3/8/8/8/N7/8/8/4K3 w - - 0 1");
    assert!(static_eval(centre.board()) > static_eval(rim.board()));
    // Quiescence: a queen that can take a defended pawn does not.
    let g = game("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1");
    let stand = static_eval(g.board());
    assert_eq!(g.evaluate(&g.root()), stand);
    // ... but takes an undefended queen.
    let g = game("4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1");
    assert!(g.evaluate(&g.root()) > 800);
    // MIN's view: one ply later the value is negated.
    let g = game("4k3/8/8/3q4/8/8/8/4K2R w - - 0 1");
    let child = g.play(&g.root(), g.parse_move("h1h2").unwrap());
    assert_eq!(g.role(&child), Role::Min);
    assert!(g.evaluate(&child) < -300, "{}", g.evaluate(&child));
}

#[test]
fn endings_are_exact() {
    // Fool's mate: White to move is mated.
    let g = game("startpos moves f2f3 e7e5 g2g4 d8h4");
    assert_eq!(g.evaluate(&g.root()), -MATE);
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.result(), Some(GameResult::SecondPlayerWins));
    // Stalemate.
    let g = game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!((g.evaluate(&g.root()), g.result()), (0, Some(GameResult::Draw)));
    // Dead positions: no moves, value 0.
    for fen in [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
        "8/8/4k3/8/8/3KN3/8/8 w - - 0 1",
        "8/2b5/4k3/8/8/3KB3/8/8 w - - 0 1",
    ] {
        let g = game(fen);
        assert!(g.legal_moves().is_empty(), "{fen}");
        assert_eq!(
            (g.evaluate(&g.root()), g.result()),
            (0, Some(GameResult::Draw)),
            "{fen}"
        );
    }
    // Bishops on different colours, or a knight and a bishop: not dead.
    assert!(game("8/3b4/4k3/8/8/3KB3/8/8 w - - 0 1").result().is_none());
    // The fifty-move rule.
    let g = game("8/8/4k3/8/8/3K4/7R/8 w - - 100 80");
    assert_eq!((g.legal_moves().len(), g.result()), (0, Some(GameResult::Draw)));
    assert_eq!(value(&g, 3), 0);
    // Claimed, not automatic: the root still has moves to search and
    // to play (every one of them a draw).
    assert!(has_moves(&g, &g.root()));
    assert!(g.parse_move("h2h3").is_ok());
    let g = game("8/8/4k3/8/8/3K4/7R/8 w - - 99 80");
    assert_eq!(value(&g, 1), 0); // every rook or king move reaches 100
    assert!(value(&g, 0) > 400);
    // Mate in one: Rd8#, from the winner's and the loser's side.
    let g = game("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    assert_eq!(value(&g, 1), MATE - 1);
    let g = game("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1");
    assert!(value(&g, 2) > -MATE + 100); // Black to move escapes (e.g. ...h6)
    assert_eq!(value(&game("3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1"), 1), -MATE);
}

/// Mangled positions and moves are rejected with a message, never a
/// panic: thousands of random edits of valid texts, from a fixed seed.
#[test]
fn mangled_input_never_panics() {
    let seeds = [
        STARTPOS,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1",
        "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";",
        "startpos moves e2e4 e7e5 g1f3",
        "8/P7/8/8/8/8/8/k6K w - - 0 1 moves a7a8q",
    ];
    let alphabet: Vec<char> = "pnbrqkPNBRQK0123456789/ wb-KQkqaeh;\"é\tmoves".chars().collect();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut accepted = 0;
    for _ in 0..4000 {
        let mut text: Vec<char> = seeds[next(seeds.len())].chars().collect();
        for _ in 0..=next(3) {
            let at = next(text.len() + 1);
            match next(3) {
                0 if at < text.len() => {
                    text.remove(at);
                }
                1 => text.insert(at, alphabet[next(alphabet.len())]),
                _ if at < text.len() => text[at] = alphabet[next(alphabet.len())],
                _ => {}
            }
        }
        let text: String = text.into_iter().collect();
        match ChessGame::from_position(&text) {
            Ok(g) => {
                accepted += 1;
                let _ = (g.to_string(), g.result(), g.legal_moves());
                let _ = g.evaluate(&g.root());
                let word: String = text.chars().rev().take(5).collect();
                let _ = g.parse_move(&word);
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
    assert!(accepted > 100, "{accepted}");
}

#[test]
fn hash_and_keys() {
    let g = ChessGame::new();
    let a = game("startpos moves g1f3 g8f6 b1c3");
    let b = game("startpos moves b1c3 g8f6 g1f3");
    assert_eq!(a.board().hash(), b.board().hash());
    // The same board at the same ply through the same positions: one
    // hash; through other positions a repetition could reach back to
    // (no graph-history interaction), or at another ply: another.
    let pa = ChessPosition {
        board: a.root.clone(),
        ply: 3,
        path: [0; PATH_MEMORY],
    };
    assert_eq!(g.hash(&pa), g.hash(&pa.clone()));
    let pb = ChessPosition {
        path: [1; PATH_MEMORY],
        ..pa.clone()
    };
    assert_ne!(g.hash(&pa), g.hash(&pb));
    let pc = ChessPosition { ply: 5, ..pa.clone() };
    assert_ne!(g.hash(&pa), g.hash(&pc));
    // The two move orders reach one board by different paths.
    let (x, y) = (line(&g, "g1f3 g8f6 b1c3"), line(&g, "b1c3 g8f6 g1f3"));
    assert_eq!(x[3].board, y[3].board);
    assert_ne!(g.hash(&x[3]), g.hash(&y[3]));
    // After a pawn move nothing before it can come back: they merge.
    let (x, y) = (line(&g, "g1f3 g8f6 d2d4 d7d5"), line(&g, "d2d4 g8f6 g1f3 d7d5"));
    assert_eq!(g.hash(&x[4]), g.hash(&y[4]));
    // The game's history counts too.
    let knights = game("startpos moves g1f3 g8f6 f3g1 f6g8");
    assert_eq!(knights.board().hash(), g.board().hash());
    assert_ne!(knights.hash(&knights.root()), g.hash(&g.root()));
    let mv = g.parse_move("e2e4").unwrap();
    assert_eq!(g.move_key(&g.root(), mv), Some(12 | 28 << 6));
    assert_eq!(g.bounds(&g.root()), (-MATE, MATE - 1));
    let child = g.play(&g.root(), mv);
    assert_eq!(g.bounds(&child), (-(MATE - 2), MATE - 1));
    assert_eq!(g.value_range(), (-MATE, MATE - 1));
}

/// The boards a line of moves passes through, as `ChessPosition`s of
/// the search from `g`'s root.
fn line(g: &ChessGame, moves: &str) -> Vec<ChessPosition> {
    let mut path = vec![g.root()];
    for text in moves.split_whitespace() {
        let pos = path.last().unwrap();
        let mv = parse_uci(&pos.board, text, None).unwrap();
        path.push(g.play(pos, mv));
    }
    path
}

fn has_moves(g: &ChessGame, pos: &ChessPosition) -> bool {
    let mut out = Vec::new();
    g.moves(pos, &mut out);
    !out.is_empty()
}

#[test]
fn the_history_holds_the_reversible_positions_before_the_root() {
    assert!(ChessGame::new().history().is_empty());
    let g = game("startpos moves g1f3 g8f6 f3g1 f6g8");
    let start = Board::startpos().hash();
    assert_eq!(g.history().len(), 4);
    assert_eq!((g.history()[0], g.board().hash()), (start, start));
    // The same board, another history: another game.
    assert_ne!(g, ChessGame::new());
    assert_eq!(
        g,
        ChessGame::from_board_with_history(g.board().clone(), g.history().to_vec())
    );
    // `after` extends it; a pawn move or a capture empties it.
    let mv = g.parse_move("b1c3").unwrap();
    assert_eq!(g.after(mv).history(), [g.history(), &[start][..]].concat());
    assert!(g.after(g.parse_move("e2e4").unwrap()).history().is_empty());
    assert!(game("startpos moves g1f3 g8f6 f3g1 e7e5").history().is_empty());
    assert_eq!(
        game("startpos moves e2e4 g8f6 e4e5 f6e4 d2d3 e4c5 g1f3")
            .history()
            .len(),
        2
    );
    // A bare FEN has none, whatever its clock.
    assert!(game("4k3/8/8/8/8/8/8/4K2R w K - 30 40").history().is_empty());
}

#[test]
fn a_threefold_repetition_ends_the_game() {
    let knights = "g1f3 g8f6 f3g1 f6g8";
    let g = game(&format!("startpos moves {knights} {knights}"));
    assert!(g.is_threefold());
    assert_eq!(g.result(), Some(GameResult::Draw));
    assert_eq!(g.ending(), Some(Ending::Repetition));
    assert!(g.legal_moves().is_empty());
    // A draw that is claimed: a GUI may play on past it.
    let on = g.after(g.parse_move("e2e4").unwrap());
    assert_eq!(on.result(), None);
    assert!(!on.legal_moves().is_empty());
    // A search of it still names a move: the root is never cut off.
    assert!(has_moves(&g, &g.root()));
    assert!(crate::algorithms::alphabeta::search_observed(
        &g,
        &SearchOptions {
            limits: Limits::to_depth(2),
            ..Default::default()
        },
        &mut crate::NoObserver
    )
    .unwrap()
    .best_move
    .is_some());
    // Twice is not thrice, nor is a repetition of the other side's turn.
    for moves in ["g1f3 g8f6 f3g1 f6g8 g1f3 g8f6", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1"] {
        let g = game(&format!("startpos moves {moves}"));
        assert_eq!(g.result(), None, "{moves}");
        assert!(!g.legal_moves().is_empty() && g.parse_move("e7e5").is_ok() != g.first_player_to_move());
    }
    // The same history with a clock that does not cover it: no repetition.
    let start = Board::startpos().hash();
    let g = ChessGame::from_board_with_history(Board::startpos(), vec![start, 1, 2, 3, start, 4, 5, 6]);
    assert_eq!(g.result(), None);
}

#[test]
fn repetitions_inside_the_search_are_draws() {
    // From the start position: back at the root after 4 plies is only
    // a twofold repetition; the fifth ply repeats the first, a position
    // after the root: a draw, no moves, value 0.
    let g = ChessGame::new();
    let path = line(&g, "g1f3 g8f6 f3g1 f6g8 g1f3");
    for pos in &path[..5] {
        assert!(!g.repeats(pos) && has_moves(&g, pos), "ply {}", pos.ply);
    }
    assert!(g.repeats(&path[5]) && !has_moves(&g, &path[5]));
    // The same board at ply 1 is worth its value (Black 50 behind).
    assert_eq!((g.evaluate(&path[1]), g.evaluate(&path[5])), (50, 0));
    // With the knights' trip already in the history, coming back to the
    // root is the third occurrence: a draw at ply 4.
    let g = game("startpos moves g1f3 g8f6 f3g1 f6g8");
    let path = line(&g, "g1f3 g8f6 f3g1 f6g8");
    assert!(!g.repeats(&path[3]) && g.repeats(&path[4]));
    assert_eq!(g.evaluate(&path[4]), 0);
    // After a pawn move the clock starts again: the position right after
    // it (ply 3) is the first of the run, repeated at ply 7.
    let g = ChessGame::new();
    let path = line(&g, "g1f3 g8f6 e2e3 f6g8 f3g1 g8f6 g1f3");
    let repeated: Vec<u32> = path.iter().filter(|p| g.repeats(p)).map(|p| p.ply).collect();
    assert_eq!((path[3].board.halfmove_clock(), repeated), (0, vec![7]));
}

#[test]
fn the_path_is_remembered_16_plies_back() {
    // A position at ply 20, its clock 30: the search path holds its
    // board 16 plies back (seen), or 18 plies back only (not seen).
    let g = game("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    let board = game("4k3/8/8/8/8/8/8/4K2R w - - 30 40").root;
    let at = |p: u32| {
        let mut path = [7; PATH_MEMORY];
        path[p as usize % PATH_MEMORY] = board.hash();
        ChessPosition {
            board: board.clone(),
            ply: 20,
            path,
        }
    };
    assert!(g.repeats(&at(4)) && g.repeats(&at(16)));
    assert!(!g.repeats(&at(2)));
    // Nor beyond the halfmove clock: with a clock of 3, not 4 plies back.
    let short = ChessPosition {
        board: game("4k3/8/8/8/8/8/8/4K2R w - - 3 40").root,
        ..at(16)
    };
    let mut path = short.path;
    path[0] = short.board.hash();
    assert!(!g.repeats(&ChessPosition { path, ..short }));
    // Before the root the history is read at any distance: the root
    // 20 plies back (and the history 24 plies back) make a threefold.
    let far = ChessGame::from_board_with_history(board.clone(), vec![board.hash(), 9, 9, 9]);
    let pos = ChessPosition {
        path: [7; PATH_MEMORY],
        ..at(0)
    };
    assert!(far.repeats(&pos));
    assert!(!g.repeats(&pos));
}
