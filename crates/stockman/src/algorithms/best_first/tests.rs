//! SSS\*'s and Dual\*'s OPEN list under relabellings: with fewer bits of
//! label than a search has, small trees relabel, and nothing else changes.

use super::relabel::{HELD_LEAVES, LABEL_ROOM, RELABELS};
use super::*;
use crate::observe::{LeafRecorder, Tracer};
use crate::{Algorithm, ExplicitTree, RandomSpec, RandomTree, Role};

/// Runs `f` with searches that have `room` bits of label (the low 32
/// of them for leaf indices) on this thread, and the relabellings it
/// made.
pub(crate) fn with_label_room<R>(room: u32, f: impl FnOnce() -> R) -> (R, u64) {
    let old = LABEL_ROOM.with(|r| r.replace(room));
    let before = RELABELS.with(|r| r.get());
    let out = f();
    LABEL_ROOM.with(|r| r.set(old));
    (out, RELABELS.with(|r| r.get()) - before)
}

/// The leaves held by a round (of [`crate::drivers::rounds::sss`]) that
/// relabellings on this thread have given new labels so far.
pub(crate) fn held_leaves_relabelled() -> u64 {
    HELD_LEAVES.with(|r| r.get())
}

/// A comb of `levels`: each level `[rest, leaf]`, or `[leaf, rest]`
/// with `leaf_first`, its leaves cycling through -3..=3.
pub(crate) fn comb(levels: usize, leaf_first: bool) -> String {
    let mut s = String::new();
    for l in 0..levels {
        let v = (l % 7) as i32 - 3;
        s.push_str(&if leaf_first { format!("[{v},") } else { "[".into() });
    }
    s.push('0');
    for l in (0..levels).rev() {
        let v = (l % 7) as i32 - 3;
        s.push_str(&if leaf_first { "]".into() } else { format!(",{v}]") });
    }
    s
}

/// Trees full of ties and of varied widths, both roles.
fn trees() -> Vec<(String, RandomTree)> {
    let mut out = Vec::new();
    for seed in 0..60u64 {
        let (w, d) = (2 + seed % 4, 3 + (seed / 4) % 5);
        let range = if seed % 3 == 0 { "0..100" } else { "0..4" };
        let variable = seed % 5 == 1;
        let root = if seed % 2 == 0 { "max" } else { "min" };
        let spec = format!("width={w},depth={d},seed={seed},range={range},variable={variable},root={root}");
        out.push((spec.clone(), RandomTree::new(RandomSpec::parse(&spec).unwrap())));
    }
    out
}

/// `algo` on `tree` with `room` bits of label, observed by a fresh `O`:
/// what `take` keeps of the observer, the answer and the counts, and
/// the relabellings made.
#[allow(clippy::type_complexity)]
fn recorded<O: Observer + Default, T>(
    algo: Algorithm,
    tree: &RandomTree,
    room: u32,
    take: impl FnOnce(O) -> T,
) -> ((T, Option<Value>, Option<usize>, Stats), u64) {
    with_label_room(room, || {
        let mut obs = O::default();
        let out = algo
            .with_options(&SearchOptions::default())
            .observer(&mut obs)
            .run(tree)
            .unwrap();
        (take(obs), out.value, out.best_index, out.stats.counts())
    })
}

/// A relabelling changes no step of SSS\* or Dual\*: with 12 to 20
/// bits of path instead of 96, every tree runs out of them, and its
/// trace (each step's popped, added, purged states and OPEN in order),
/// its leaves in order (without a trace, where the shortcuts run), its
/// counts and its answer are the same.
#[test]
fn a_relabelling_changes_no_step_of_sss_or_dual() {
    let mut relabels = 0;
    for (spec, tree) in trees() {
        for algo in [Algorithm::Sss, Algorithm::Dual] {
            let traced = |room| recorded(algo, &tree, room, |t: Tracer| t.events);
            let leaves = |room| recorded(algo, &tree, room, |r: LeafRecorder| r.leaves);
            let (want, none) = traced(128);
            let (want_leaves, _) = leaves(128);
            assert_eq!(none, 0, "{spec}");
            for room in [44, 48, 52] {
                let (got, n) = traced(room);
                assert!(got == want, "{spec} {algo}: room {room}: the trace differs");
                let (got, m) = leaves(room);
                assert!(got == want_leaves, "{spec} {algo}: room {room}: the leaves differ");
                relabels += n + m;
            }
        }
    }
    assert!(relabels > 5_000, "{relabels} relabellings");
}

/// The combs of issue 63 at 3,000 levels, and 2,000 with 48 bits of
/// room (a relabelling every few levels), both ways round and
/// both roles: SSS\* and Dual\* give alpha-beta's value and best move,
/// and evaluate no leaf that alpha-beta skips.
#[test]
fn sss_and_dual_solve_deep_combs() {
    for (levels, room) in [(3_000, 128), (2_000, 48)] {
        for leaf_first in [false, true] {
            for role in [Role::Max, Role::Min] {
                let tree = ExplicitTree::parse(&comb(levels, leaf_first), role).unwrap();
                let run = |algo: Algorithm| {
                    let mut rec = LeafRecorder::default();
                    let out = algo
                        .with_options(&SearchOptions::default())
                        .observer(&mut rec)
                        .run(&tree)
                        .unwrap();
                    (out, rec.paths())
                };
                let (ab, ab_leaves) = run(Algorithm::AlphaBeta);
                for algo in [Algorithm::Sss, Algorithm::Dual] {
                    let ((out, leaves), n) = with_label_room(room, || run(algo));
                    let at = format!("{levels} levels, leaf first {leaf_first}, {role:?}, {algo}");
                    // Leaf first, the leaves cut the comb short for some.
                    assert!(n > 0 || leaf_first, "{at}: no relabelling");
                    assert_eq!(out.value, ab.value, "{at}");
                    assert_eq!(out.best_index, ab.best_index, "{at}");
                    let seen: std::collections::HashSet<_> = ab_leaves.iter().collect();
                    assert!(leaves.iter().all(|p| seen.contains(p)), "{at}: a leaf alpha-beta skips");
                }
            }
        }
    }
}

/// What one node of the arena costs on a random tree (`docs/performance.md`).
#[test]
fn node_sizes() {
    assert_eq!(std::mem::size_of::<Node<crate::RandomNode>>(), 104);
    assert_eq!(std::mem::size_of::<Entry>(), 32);
}
