//! Golden values from the literature and the issues, asserted exactly.

use stockman::{Algorithm, ExplicitTree, LeafRecorder, Role, SearchOptions};

fn leaves(algo: Algorithm, tree: &ExplicitTree) -> (Option<i32>, Vec<i32>) {
    let mut rec = LeafRecorder::default();
    let out = algo
        .with_options(&SearchOptions::default())
        .observer(&mut rec)
        .run(tree)
        .unwrap();
    assert_eq!(
        out.stats.leaf_evals as usize,
        rec.leaves.len(),
        "{algo}: stats match the recorded leaves"
    );
    (out.value, rec.values())
}

fn textbook() -> ExplicitTree {
    ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap()
}

/// The binary tree of depth 4 used by Plaat et al. to illustrate SSS*.
fn plaat() -> ExplicitTree {
    ExplicitTree::uniform(
        2,
        4,
        &[30, 54, 21, 73, 9, 71, 43, 91, 28, 94, 78, 52, 22, 35, 53, 80],
        Role::Max,
    )
}

#[test]
fn textbook_tree_every_algorithm_finds_3() {
    let t = textbook();
    for &a in Algorithm::ALL {
        let out = a.search(&t, &SearchOptions::default()).unwrap();
        if a.finds_value() {
            assert_eq!(out.value, Some(3), "{a}");
        }
        assert_eq!(out.best_index, Some(0), "{a}");
    }
}

#[test]
fn textbook_tree_alphabeta_skips_4_and_6() {
    assert_eq!(
        leaves(Algorithm::AlphaBeta, &textbook()),
        (Some(3), vec![3, 12, 8, 2, 14, 5, 2])
    );
}

#[test]
fn textbook_tree_sss_order() {
    assert_eq!(
        leaves(Algorithm::Sss, &textbook()),
        (Some(3), vec![3, 2, 14, 5, 2, 12, 8])
    );
    assert_eq!(
        leaves(Algorithm::MtSss, &textbook()),
        (Some(3), vec![3, 2, 14, 5, 2, 12, 8])
    );
}

#[test]
fn plaat_tree_alphabeta_13_leaves() {
    let (v, l) = leaves(Algorithm::AlphaBeta, &plaat());
    assert_eq!(v, Some(52));
    assert_eq!(l.len(), 13);
}

#[test]
fn plaat_tree_sss_and_mt_sss_same_8_leaves() {
    let want = vec![30, 21, 28, 78, 52, 22, 53, 80];
    assert_eq!(leaves(Algorithm::Sss, &plaat()), (Some(52), want.clone()));
    assert_eq!(leaves(Algorithm::MtSss, &plaat()), (Some(52), want));
}

#[test]
fn plaat_tree_every_algorithm_finds_52() {
    let t = plaat();
    for &a in Algorithm::ALL {
        let out = a.search(&t, &SearchOptions::default()).unwrap();
        if a.finds_value() {
            assert_eq!(out.value, Some(52), "{a}");
        } else {
            let (lo, hi) = out.bound.unwrap();
            assert!(lo <= 52 && 52 < hi, "{a}: bound {lo}..{hi}");
        }
    }
}
