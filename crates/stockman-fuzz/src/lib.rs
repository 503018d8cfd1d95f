//! What the fuzz targets (`fuzz/`, cargo-fuzz) check on every input, as
//! plain functions: the targets call them with libFuzzer's inputs, and
//! `tests/corpus.rs` replays the committed corpus through them under
//! `cargo test`, so every input the fuzzer ever kept (and every crash it
//! found) stays a regression test on stable Rust.
//!
//! Each check panics when a property fails: no parser may panic, an error
//! must point inside its input, and what parses must survive a round trip.
// `stockman::SearchError` carries the stopped search's `Stats` and what it
// proved; it is returned once per search, so its size costs nothing here.
#![allow(clippy::result_large_err)]

use stockman::games::positions::parse_positions;
use stockman::{Checkers, ConnectFour, ExplicitTree, Othello, Playable, RandomSpec, Role, TicTacToe};

/// A check of arbitrary bytes: panics when a property fails.
pub type Check = fn(&[u8]);

/// The fuzz targets, by name.
pub const TARGETS: &[(&str, Check)] = &[
    ("tree_file", check_tree_file),
    ("random_spec", check_random_spec),
    ("game_position", check_game_position),
    ("positions_file", check_positions_file),
    ("grid_file", check_grid_file),
    ("checkers_position", check_checkers_position),
];

/// The tree-file parser: errors inside the text; a parsed tree written by
/// `stockman gen`'s writer parses back to the same tree.
pub fn check_tree_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match ExplicitTree::parse(text, Role::Max) {
        Ok(tree) => {
            let written = tree.to_text();
            let again = ExplicitTree::parse(&written, Role::Max).expect("the writer's output parses");
            assert_eq!(again.to_text(), written, "round trip of {text:?}");
            assert_eq!(again.len(), tree.len());
            assert_eq!(again.height(), tree.height());
        }
        Err(e) => {
            let lines = text.split('\n').count();
            assert!(
                e.line >= 1 && e.line <= lines,
                "line {} of {lines} in {text:?}: {e}",
                e.line
            );
            let width = text.split('\n').nth(e.line - 1).map_or(0, |l| l.chars().count());
            assert!(
                e.column >= 1 && e.column <= width + 1,
                "column {} of {width}: {e}",
                e.column
            );
            assert!(!e.to_string().is_empty());
        }
    }
}

/// The `--random` spec: what parses prints back to the same spec.
pub fn check_random_spec(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(spec) = RandomSpec::parse(text) {
        let again = RandomSpec::parse(&spec.to_string()).expect("a printed spec parses");
        assert_eq!(again, spec, "{text:?}");
        spec.validate().expect("a parsed spec is valid");
    }
}

/// Game positions: the first byte picks the game, the rest is a position.
/// A parsed position's moves replayed one by one give the same position,
/// errors name a move inside the text, and `parse_move` never panics.
pub fn check_game_position(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    match pick % 3 {
        0 => replay::<ConnectFour>(text),
        1 => replay::<TicTacToe>(text),
        _ => othello(text),
    }
}

/// Othello positions (move lists or FFO boards): what parses is a position
/// whose FFO board reads back the same; an error's column lies in the text.
fn othello(text: &str) {
    match Othello::from_position(text) {
        Ok(game) => {
            let again = Othello::from_position(&game.board().to_ffo()).expect("a written board parses");
            assert_eq!(again, game, "{text:?}");
            assert_eq!(again.to_string(), game.to_string());
            for probe in [text, "pass", "a1", "h8", "", " d3", "i9", "d33"] {
                let _ = game.parse_move(probe);
            }
        }
        Err(e) => {
            let width = text.chars().count();
            assert!(
                e.column >= 1 && e.column <= width + 1,
                "column {} of {width}: {e}",
                e.column
            );
            assert!(!e.to_string().is_empty());
        }
    }
}

fn replay<G: Playable + PartialEq + std::fmt::Debug>(text: &str) {
    match G::from_position(text) {
        Ok(game) => {
            let mut step = G::from_position("").expect("the start parses");
            for c in text.chars() {
                let mv = step
                    .parse_move(&c.to_string())
                    .unwrap_or_else(|e| panic!("move {c:?} of {text:?} is refused one by one: {e}"));
                step = step.after(mv);
            }
            assert_eq!(step, game, "{text:?}");
            assert_eq!(step.to_string(), game.to_string());
            for probe in [text, "0", "8", "10", "", " 4", "x"] {
                let _ = game.parse_move(probe);
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// Checkers positions (move lists, PDN FEN, board diagrams, each of the
/// last two with moves after it): what parses writes back (FEN, diagram)
/// to the same pieces and side to move, every legal move's text reads back
/// to it, and `parse_move` never panics; an error's column lies in the text.
pub fn check_checkers_position(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match Checkers::from_position(text) {
        Ok(game) => {
            let board = game.board();
            let fen = Checkers::from_position(&game.fen()).expect("a written FEN parses");
            assert_eq!(fen.board().pieces(), board.pieces(), "{text:?}");
            assert_eq!(fen.board().key(), board.key(), "{text:?}");
            let side = if board.black_to_move() { "B" } else { "W" };
            let diagram =
                Checkers::from_position(&format!("{} {side}", board.to_diagram())).expect("a written diagram parses");
            assert_eq!(diagram.board().key(), board.key(), "{text:?}");
            assert_eq!(diagram.to_string(), fen.to_string());
            for mv in game.legal_moves() {
                let t = game.move_text(mv);
                let back = game
                    .parse_move(&t)
                    .unwrap_or_else(|e| panic!("{t} of {text:?} is refused: {e}"));
                assert_eq!(game.move_text(back), t, "{text:?}");
            }
            for probe in [
                text,
                "11-15",
                "9x18x27",
                "0-1",
                "33-1",
                "",
                "x",
                "1-2-3-4-5-6-7-8-9-10-11-12-13",
            ] {
                let _ = game.parse_move(probe);
            }
        }
        Err(e) => {
            let width = text.chars().count();
            assert!(
                e.column >= 1 && e.column <= width + 1,
                "column {} of {width}: {e}",
                e.column
            );
            assert!(!e.to_string().is_empty());
        }
    }
}

/// `--positions` files: errors inside the text; what parses is the text's words.
pub fn check_positions_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse_positions(text) {
        Ok(set) => {
            for p in &set {
                let line = text.lines().nth(p.line - 1).expect("the line exists");
                assert!(line.contains(&p.position), "{p:?} not on its line {line:?}");
                assert!(!p.position.is_empty() && p.position.trim() == p.position);
            }
        }
        Err(e) => {
            let line = text.lines().nth(e.line - 1).expect("the error's line exists");
            assert!(e.column >= 1 && e.column <= line.chars().count(), "{e}");
        }
    }
}

/// Experiment grid files: what parses and validates prints back to the same grid.
pub fn check_grid_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(grid) = stockman_lab::Grid::from_toml(text) {
        if grid.validate().is_ok() {
            let again = stockman_lab::Grid::from_toml(&grid.to_toml()).expect("a written grid parses");
            assert_eq!(again, grid, "{text:?}");
        }
    }
}
