//! On perfectly ordered uniform trees alpha-beta evaluates exactly the
//! minimal tree: w^ceil(d/2) + w^floor(d/2) - 1 leaves (Knuth and Moore
//! 1975); `stockman::minimal_tree` computes that tree for any game.

use stockman::Limits;
use stockman::{
    minimal_tree, Algorithm, ConnectFour, ExplicitTree, RandomSpec, RandomTree, Role, SearchOptions, TicTacToe,
    Unfolded, ValueModel,
};

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

/// The computed minimal tree of any uniform tree has the Knuth-Moore
/// count, whatever the values (ties, narrow ranges, any ordering), and its
/// value is the minimax value.
#[test]
fn the_computed_minimal_tree_of_a_uniform_tree_has_the_knuth_moore_count() {
    for w in 1..=5u32 {
        for d in 0..=6u32 {
            for seed in 0..4u64 {
                for (model, range, order) in [
                    (ValueModel::Iid, (0, 1000), None),
                    (ValueModel::Iid, (0, 3), None),
                    (ValueModel::Incremental, (-100, 100), Some(0.9)),
                    (ValueModel::Iid, (0, 1000), Some(1.0)),
                ] {
                    let mut spec = RandomSpec::new(w, d, seed);
                    spec.model = model;
                    spec.range = range;
                    spec.order = order;
                    let t = RandomTree::new(spec);
                    let m = minimal_tree(&t, d, None).unwrap();
                    let what = format!("w={w} d={d} seed={seed} {model:?} {range:?} {order:?}");
                    assert_eq!(m.leaves, minimal(w as u64, d), "{what}");
                    // A tree's nodes are all distinct.
                    assert_eq!(m.leaf_positions, m.leaves, "{what}");
                    let ab = Algorithm::AlphaBeta.search(&t, &SearchOptions::default()).unwrap();
                    assert_eq!(Some(m.value), ab.value, "{what}");
                }
            }
        }
    }
}

/// No search that proves the value evaluates fewer leaves than the minimal
/// tree of a tree (BNS proves less: a best move and a bound).
#[test]
fn no_search_that_finds_the_value_beats_the_minimal_tree() {
    for seed in 0..6u64 {
        for (w, d) in [(2, 7), (3, 5), (5, 4), (8, 3)] {
            let t = RandomTree::new(RandomSpec::new(w, d, seed));
            let m = minimal_tree(&t, d, None).unwrap();
            for &a in Algorithm::ALL {
                if !a.finds_value() {
                    continue;
                }
                let out = a.search(&t, &SearchOptions::default()).unwrap();
                assert!(
                    out.stats.leaf_evals >= m.leaves,
                    "{a} w={w} d={d} seed={seed}: {} < {}",
                    out.stats.leaf_evals,
                    m.leaves
                );
                assert_eq!(out.value, Some(m.value), "{a}");
            }
        }
    }
}

/// The textbook tree and a non-uniform tree, counted by hand.
#[test]
fn hand_counted_trees() {
    let t = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
    let m = minimal_tree(&t, 2, None).unwrap();
    assert_eq!((m.value, m.leaves, m.nodes, m.positions), (3, 5, 9, 13));
    // Depth 1: the root's children are the leaves (valued statically, as
    // the searches value them), and all three are needed.
    let m = minimal_tree(&t, 1, None).unwrap();
    let opts = SearchOptions {
        limits: Limits::to_depth(1),
        ..SearchOptions::default()
    };
    let ab = Algorithm::AlphaBeta.search(&t, &opts).unwrap();
    assert_eq!((Some(m.value), m.leaves), (ab.value, 3));
    // A MAX root over a leaf and a MIN node: the value 4 comes from the
    // MIN node [4,9]; refuting the leaf 1 takes that leaf.
    let t = ExplicitTree::parse("[1,[4,9]]", Role::Max).unwrap();
    let m = minimal_tree(&t, 2, None).unwrap();
    assert_eq!((m.value, m.leaves, m.nodes), (4, 3, 5));
}

/// On games with transpositions the counts are of the tree: the same as
/// on the game with its transpositions unfolded, while the distinct leaf
/// positions are fewer.
#[test]
fn transpositions_are_counted_as_tree_nodes() {
    let c4 = ConnectFour::from_moves("4453").unwrap().with_heuristic();
    for depth in 1..=5 {
        let merged = minimal_tree(&c4, depth, None).unwrap();
        let tree = minimal_tree(&Unfolded(c4), depth, None).unwrap();
        assert_eq!(
            (merged.value, merged.leaves, merged.nodes),
            (tree.value, tree.leaves, tree.nodes)
        );
        assert_eq!(tree.leaf_positions, tree.leaves);
        assert!(merged.leaf_positions <= merged.leaves);
        assert!(merged.positions < tree.positions || depth < 3, "depth {depth}");
        let opts = SearchOptions {
            limits: Limits::to_depth(depth),
            ..SearchOptions::default()
        };
        let ab = Algorithm::AlphaBeta.search(&c4, &opts).unwrap();
        assert_eq!(ab.value, Some(merged.value), "depth {depth}");
    }
    let ttt = TicTacToe::new();
    let m = minimal_tree(&ttt, 9, None).unwrap();
    assert_eq!(m.value, 0);
    assert!(m.leaf_positions < m.leaves, "{m:?}");
    assert!(m.positions < 6000, "{m:?}"); // 5,478 positions, at most one per draft
}
