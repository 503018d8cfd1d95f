//! The library's integration tests, one module per file, in one binary
//! (see Cargo.toml: one link and one copy of each generic search instead
//! of eleven; the tests on several threads are a binary of their own).
//! Run one file's tests with a filter, e.g.
//! `cargo test -p stockman --test integration theorems::`.

mod checkers;
mod chess;
mod connect4;
mod enhancements;
mod golden;
mod minimal_tree;
mod othello;
mod simulate;
mod theorems;
mod tictactoe;
mod unstable_moves;
