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
mod layers;
mod minimal_tree;
mod othello;
mod simulate;
mod stochastic;
mod theorems;
mod tictactoe;
mod unstable_moves;

/// With `autotests = false` cargo builds only the targets Cargo.toml names:
/// a new file in tests/ that is not a module here would never be compiled,
/// silently. Every `.rs` file of tests/ is a module here or a target.
#[test]
fn every_test_file_is_compiled() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let here = concat!(include_str!("integration.rs"), include_str!("parallel.rs"));
    let targets = ["integration", "parallel"];
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(stem) = name.strip_suffix(".rs") else { continue };
        if !targets.contains(&stem) && !here.contains(&format!("\nmod {stem};\n")) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "add to tests/integration.rs as modules: {missing:?}"
    );
}
