//! Best moves, not only values, under threads (a module of the `parallel`
//! test binary).
//!
//! A root's best move is right only with the bound it proved. A table entry
//! can hold one pass's bound beside another pass's move: at a MAX root, a
//! pass that fails high stores the lower bound with the move that reached
//! it; a later pass (or another thread's) that fails low keeps that lower
//! bound and writes its own move, which is only the most promising one and
//! may be worth less. A root that takes such an entry's move as proven
//! plays a losing move with the right value. These tests build that entry
//! by hand and check that neither the root's table cut nor ABDADA's
//! settled-root test takes its move, then check every best move of every
//! depth-first algorithm on thousands of threaded searches of random trees
//! with a narrow value range (ties and cut-offs everywhere) and 1 MiB
//! tables (collisions). (Connect Four's threaded best moves, BNS's
//! included, are checked in `lazy_smp_and_abdada_solve_connect_four_positions_exactly`.)

use super::{child_value, value_of, AnsweredTable};
use stockman::run::{Runner, Settings, SourceKind};
use stockman::{Algorithm, Entry, Game, MapTable, Parallel, RandomSpec, RandomTree, Role, SearchOptions, Table};

/// The depth-first algorithms the issue names, which all run threaded.
const THREADED: [Algorithm; 7] = [
    Algorithm::AlphaBeta,
    Algorithm::NegaScout,
    Algorithm::Mtdf,
    Algorithm::MtdBi,
    Algorithm::MtSss,
    Algorithm::MtDual,
    Algorithm::Bns,
];

/// A tree, its value, and a root move worth less than it (for a MAX root;
/// more, for a MIN root): the move a mixed entry names.
fn tree_with_a_worse_move(spec: &str) -> (RandomTree, i32, u32) {
    let tree = RandomTree::new(RandomSpec::parse(spec).unwrap());
    let value = value_of(&tree);
    let mut moves = Vec::new();
    tree.moves(&tree.root(), &mut moves);
    let worse = (0..moves.len())
        .find(|&i| child_value(&tree, i) != value)
        .expect("a root move that does not hold the value") as u32;
    (tree, value, worse)
}

/// The mixed root entry: the root's exact value (one pass's lower bound,
/// another's upper bound) beside a move that proves neither.
fn mixed_entry(value: i32, worse: u32) -> Entry {
    Entry {
        lower: value,
        upper: value,
        draft: u32::MAX,
        best: worse,
        best_proves: false,
        work: 20,
    }
}

#[test]
fn the_root_table_cut_refuses_a_move_stored_without_its_proof() {
    for spec in [
        "width=5,depth=5,seed=7,range=0..20",
        "width=4,depth=6,seed=3,range=0..20,root=min",
    ] {
        let (tree, value, worse) = tree_with_a_worse_move(spec);
        let root = tree.hash(&tree.root()).unwrap();
        for algo in [
            Algorithm::AlphaBeta,
            Algorithm::NegaScout,
            Algorithm::Mtdf,
            Algorithm::MtSss,
        ] {
            let mut table = MapTable::default();
            table.store(root, mixed_entry(value, worse));
            let out = algo
                .with_options(&SearchOptions::default())
                .table(&mut table)
                .run(&tree)
                .unwrap();
            assert_eq!(out.value, Some(value), "{spec} {algo}");
            let best = out.best_index.expect("a best move");
            assert_ne!(best as u32, worse, "{spec} {algo}: took the mixed entry's move");
            assert_eq!(child_value(&tree, best), value, "{spec} {algo}: best move {best}");
            // The same entry with its move proven (here, a lie) is taken
            // at once: the refusal above is the flag's doing.
            table.clear();
            table.store(
                root,
                Entry {
                    best_proves: true,
                    ..mixed_entry(value, worse)
                },
            );
            let out = algo
                .with_options(&SearchOptions::default())
                .table(&mut table)
                .run(&tree)
                .unwrap();
            assert_eq!(
                (out.value, out.best_index),
                (Some(value), Some(worse as usize)),
                "{spec} {algo}"
            );
            assert_eq!(
                (out.stats.nodes, out.stats.leaf_evals),
                (out.stats.passes.max(1), 0),
                "{spec} {algo}: a root cut visits the root only, once a pass"
            );
        }
    }
}

#[test]
fn the_settled_root_test_refuses_a_move_stored_without_its_proof() {
    let (tree, value, worse) = tree_with_a_worse_move("width=8,depth=7,seed=9");
    let root = tree.hash(&tree.root()).unwrap();
    let mut obs = stockman::NoObserver;
    let mut alone = AnsweredTable {
        inner: MapTable::default(),
        root,
        entry: mixed_entry(value, worse),
        probes: 0,
        after: u64::MAX,
    };
    let full = Algorithm::AlphaBeta
        .with_options(&SearchOptions::default())
        .observer(&mut obs)
        .table(&mut alone)
        .run(&tree)
        .unwrap();
    assert_eq!(full.value, Some(value));
    // Another thread "stores" the mixed entry while this search runs: the
    // search does not give up with its move, and goes on to the end.
    let mut table = AnsweredTable {
        inner: MapTable::default(),
        root,
        entry: mixed_entry(value, worse),
        probes: 0,
        after: 3000,
    };
    let out = Algorithm::AlphaBeta
        .with_options(&SearchOptions::default())
        .observer(&mut obs)
        .table(&mut table)
        .run(&tree)
        .unwrap();
    assert_eq!(out.value, Some(value));
    let best = out.best_index.unwrap();
    assert_eq!(child_value(&tree, best), value, "best move {best}");
    assert_eq!(out.stats.nodes, full.stats.nodes, "the search went on to the end");
    assert!(table.probes > 3000, "the entry was there to refuse");
}

#[test]
fn a_pass_that_fails_away_from_the_mover_stores_no_proof() {
    for (spec, role) in [
        ("width=5,depth=5,seed=2,range=0..8", Role::Max),
        ("width=5,depth=5,seed=2,range=0..8,root=min", Role::Min),
    ] {
        let tree = RandomTree::new(RandomSpec::parse(spec).unwrap());
        let value = value_of(&tree);
        let root = tree.hash(&tree.root()).unwrap();
        let mut obs = stockman::NoObserver;
        // (window, whether the pass fails on the mover's side)
        let fail_high = ((value - 1, value), role == Role::Max);
        let fail_low = ((value, value + 1), role == Role::Min);
        for ((alpha, beta), proves) in [fail_high, fail_low] {
            let mut table = MapTable::default();
            let mut heur = stockman::Heuristics::new();
            let opts = SearchOptions::default();
            let out = Algorithm::AlphaBeta
                .with_options(&opts)
                .observer(&mut obs)
                .table(&mut table)
                .heuristics(&mut heur)
                .window(alpha, beta)
                .run(&tree)
                .unwrap();
            let e = table.probe(root).unwrap();
            assert_eq!(e.best_proves, proves, "{spec} ({alpha},{beta}): {e:?}");
            if proves {
                let best = out.best_index.unwrap();
                assert_eq!(e.best as usize, best);
                assert_eq!(child_value(&tree, best), value, "{spec}: the proving move");
            }
        }
    }
}

/// The value of every root move of `tree`.
fn child_values(tree: &RandomTree) -> Vec<i32> {
    let mut moves = Vec::new();
    tree.moves(&tree.root(), &mut moves);
    (0..moves.len()).map(|i| child_value(tree, i)).collect()
}

/// Every threaded search of `trees` random trees: `THREADED` x 2, 3, 4 and
/// 8 threads x ABDADA and Lazy SMP, 1 MiB tables. Returns the searches run
/// and the wrong answers (value, or a best move whose child is worth
/// anything but the value), each described.
fn threaded_best_moves(seeds: std::ops::Range<u64>) -> (usize, Vec<String>) {
    let mut runner = Runner::new();
    let mut searches = 0;
    let mut wrong = Vec::new();
    for seed in seeds {
        // Narrow ranges: many moves tie with the best, many cut-offs.
        let width = 2 + seed % 4;
        let depth = 2 + (seed / 4 % 4) as u32;
        let hi = 2 + seed % 7;
        let root = if seed % 3 == 0 { ",root=min" } else { "" };
        let spec = format!("width={width},depth={depth},seed={seed},range=0..{hi}{root}");
        let tree = RandomTree::new(RandomSpec::parse(&spec).unwrap());
        let value = value_of(&tree);
        let children = child_values(&tree);
        for threads in [2, 3, 4, 8] {
            for how in Parallel::ALL {
                let request = Settings {
                    algorithms: Some(THREADED.to_vec()),
                    threads: Some(threads),
                    parallel: Some(how),
                    tt_mb: Some(1),
                    iterative: seed % 5 == 4,
                    ..Settings::default()
                }
                .request(SourceKind::Tree)
                .unwrap();
                for s in runner.solve_threads(&tree, &request) {
                    searches += 1;
                    let what = format!("{spec} {} on {threads} threads, {how}", s.label());
                    if let Some(e) = &s.error {
                        wrong.push(format!("{what}: {e}"));
                        continue;
                    }
                    match (s.value, s.bound) {
                        (Some(v), _) if v != value => wrong.push(format!("{what}: value {v}, not {value}")),
                        (None, Some((lo, hi))) if !(lo <= value && value < hi || lo == value && hi == value) => {
                            wrong.push(format!("{what}: bound [{lo},{hi}) misses {value}"))
                        }
                        (None, None) => wrong.push(format!("{what}: neither value nor bound")),
                        _ => {}
                    }
                    match s.best_index {
                        Some(i) if children[i] == value => {}
                        Some(i) => wrong.push(format!(
                            "{what}: best move {i} is worth {}, the root {value}",
                            children[i]
                        )),
                        None => wrong.push(format!("{what}: no best move")),
                    }
                }
            }
        }
    }
    (searches, wrong)
}

/// 2,000 trees x 7 algorithms x 4 thread counts x 2 ways = 112,000
/// threaded searches, every best move checked against its child's value.
#[test]
fn every_threaded_best_move_holds_the_value_on_2000_narrow_random_trees() {
    let (searches, wrong) = threaded_best_moves(0..2000);
    assert_eq!(searches, 2000 * 7 * 4 * 2);
    assert_none_wrong(searches, &wrong);
}

#[track_caller]
fn assert_none_wrong(searches: usize, wrong: &[String]) {
    assert!(
        wrong.is_empty(),
        "{} wrong of {searches}:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The stress run of the experiment page (outside CI: `cargo test -p
/// stockman --test parallel -- --ignored stress --nocapture`, in the
/// optimised test profile, with `STOCKMAN_STRESS_TREES=N`, default 3,000
/// trees = 168,000 searches), on trees the CI test does not use.
#[test]
#[ignore = "a stress run of minutes; see docs/experiments/parallel.md"]
fn stress_threaded_best_moves() {
    let trees: u64 = std::env::var("STOCKMAN_STRESS_TREES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000);
    let (searches, wrong) = threaded_best_moves(1_000_000..1_000_000 + trees);
    println!(
        "stress: {searches} threaded searches on {trees} trees, {} wrong",
        wrong.len()
    );
    assert_none_wrong(searches, &wrong);
}
