//! On perfectly ordered uniform trees alpha-beta evaluates exactly the
//! minimal tree: w^ceil(d/2) + w^floor(d/2) - 1 leaves (Knuth and Moore 1975).

use stockman::{Algorithm, RandomSpec, RandomTree, SearchOptions, ValueModel};

fn minimal(w: u64, d: u32) -> u64 {
    w.pow(d.div_ceil(2)) + w.pow(d / 2) - 1
}

#[test]
fn alphabeta_evaluates_exactly_the_minimal_tree_when_perfectly_ordered() {
    let mut checked = 0;
    for w in 1..=5u32 {
        for d in 0..=6u32 {
            for seed in 0..5u64 {
                for model in [ValueModel::Iid, ValueModel::Incremental] {
                    let mut spec = RandomSpec::new(w, d, seed);
                    spec.order = Some(1.0);
                    spec.model = model;
                    // A wide range, so that siblings rarely tie with the best.
                    spec.range = if model == ValueModel::Iid {
                        (0, 1_000_000)
                    } else {
                        (-1000, 1000)
                    };
                    let t = RandomTree::new(spec);
                    let out = Algorithm::AlphaBeta.search(&t, &SearchOptions::default()).unwrap();
                    assert_eq!(
                        out.stats.leaf_evals,
                        minimal(w as u64, d),
                        "width {w} depth {d} seed {seed} {model:?}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 5 * 7 * 5 * 2);
}
