//! The practical-claims report cannot drift from its data: every generated
//! block of `docs/experiments/real-games.md` is what the committed CSV files
//! give today.

use std::path::PathBuf;
use stockman_lab::games::claims::{fill_blocks, report_blocks_with_random};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn the_report_says_what_its_data_says() {
    let blocks = report_blocks_with_random(
        &root().join("docs/experiments/games"),
        &root().join("docs/experiments/bns-random"),
    )
    .unwrap();
    let path = root().join("docs/experiments/real-games.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (_, changed) = fill_blocks(&doc, &blocks).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        changed.is_empty(),
        "these generated blocks of {} differ from the data: {changed:?}; run \
         `stockman experiment claims --doc docs/experiments/real-games.md`",
        path.display()
    );
}
