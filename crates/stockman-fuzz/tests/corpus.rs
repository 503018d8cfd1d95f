//! Every file of the fuzz corpus (`fuzz/corpus/<target>/`), and every crash
//! the fuzzer found (`fuzz/regressions/<target>/`), through its target's
//! check: the fuzzer's findings as ordinary tests.

use std::path::Path;

#[test]
fn the_corpus_passes_every_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut checked = 0;
    for (name, check) in stockman_fuzz::TARGETS {
        for kind in ["corpus", "regressions"] {
            let dir = root.join(kind).join(name);
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for entry in entries {
                let path = entry.unwrap().path();
                let data = std::fs::read(&path).unwrap();
                let result = std::panic::catch_unwind(|| check(&data));
                assert!(result.is_ok(), "{name}: {} fails its check", path.display());
                checked += 1;
            }
        }
    }
    assert!(
        checked >= 5 * stockman_fuzz::TARGETS.len(),
        "only {checked} corpus files found"
    );
}
