//! The odd shapes (a module of the `parallel` test binary): trees a hostile
//! user writes, searched by every algorithm on 1 and 4 threads, both ways,
//! and by both distributed schemes on 1 to 3 ranks; value and best move
//! checked on each.
//!
//! - a root with 70,000 moves, its best move at 65,535 (past a 16-bit move
//!   field) or at the end, at a MAX and a MIN root;
//! - a 100,000-ply chain and a 100,000-level comb (each level a subtree
//!   and a leaf);
//! - width-1 trees and a lone leaf;
//! - leaves at the value range's ends;
//! - a game whose move order changes between calls.

use super::value_of;
use std::sync::atomic::{AtomicU64, Ordering};
use stockman::drivers::tdsab::{LocalWorld, Scheme, TdsabOptions};
use stockman::run::{Runner, Settings, SourceKind};
use stockman::{Algorithm, ExplicitTree, Game, Parallel, Role, Value, VALUE_MAX, VALUE_MIN};

/// `n` leaves of value `rest` but the one at `at`, worth `best`.
fn wide(n: usize, at: usize, best: Value, rest: Value) -> String {
    let leaves: Vec<String> = (0..n).map(|i| if i == at { best } else { rest }.to_string()).collect();
    format!("[{}]", leaves.join(","))
}

/// A chain of `plies` single-child nodes above one leaf.
fn chain(plies: usize, leaf: Value) -> String {
    format!("{}{leaf}{}", "[".repeat(plies), "]".repeat(plies))
}

/// A comb of `levels`: each level `[rest, leaf]`, the leaves counting down
/// from `levels` so that every level's two moves differ.
fn comb(levels: usize) -> String {
    let mut s = String::with_capacity(levels * 12);
    for _ in 0..levels {
        s.push('[');
    }
    s.push('0');
    for l in 0..levels {
        s.push_str(&format!(",{}]", (l % 7) as Value - 3));
    }
    s
}

/// The odd trees, with a name for the messages.
fn shapes() -> Vec<(String, ExplicitTree)> {
    let mut out = Vec::new();
    let mut add = |name: &str, text: String, role: Role| {
        let tree = ExplicitTree::parse(&text, role).unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push((format!("{name} ({role:?} root)"), tree));
    };
    for role in [Role::Max, Role::Min] {
        let (best, rest) = if role == Role::Max { (1, 0) } else { (0, 1) };
        add("70,000 moves, best at 65,535", wide(70_000, 65_535, best, rest), role);
        add("70,000 moves, best last", wide(70_000, 69_999, best, rest), role);
        add("7,000 moves, best at 6,999", wide(7_000, 6_999, best, rest), role);
        add("100,000-ply chain", chain(100_000, 7), role);
        add("100,000-level comb", comb(100_000), role);
        add("a lone leaf", "5".into(), role);
        add("width 1, depth 12", chain(12, -4), role);
        add(
            "width 1 above a fork",
            format!("{}[3,[1,9]]{}", "[".repeat(9), "]".repeat(9)),
            role,
        );
        add(
            "the range's ends",
            format!("[[{VALUE_MIN},{VALUE_MAX}],[{VALUE_MAX},{VALUE_MIN}],[{VALUE_MIN},{VALUE_MIN}]]"),
            role,
        );
        add("ends, wide", wide(300, 299, VALUE_MAX, VALUE_MIN), role);
    }
    out
}

/// The value of the root's child reached by `mv` (exact, one thread).
fn after(tree: &ExplicitTree, mv: u32) -> Value {
    let child = tree.play(&tree.root(), mv);
    value_of(&super::From(tree, child))
}

/// Every algorithm on `threads` threads (`parallel` way).
fn solve_all(
    runner: &mut Runner,
    tree: &ExplicitTree,
    threads: usize,
    how: Parallel,
) -> Vec<stockman::run::Solution<u32>> {
    let request = Settings {
        algorithms: Some(Algorithm::ALL.to_vec()),
        threads: Some(threads),
        parallel: Some(how),
        ..Settings::default()
    }
    .request(SourceKind::Tree)
    .unwrap();
    runner.solve_threads(tree, &request)
}

/// Runs `f` on a stack deep enough for the 100,000-ply shapes (the
/// one-thread reference searches recurse once a ply).
fn deep(f: impl FnOnce() + Send) {
    stockman::run::on_stack(stockman::run::stack_bytes(200_000), f).unwrap();
}

#[test]
fn every_algorithm_answers_the_odd_shapes_on_1_and_4_threads() {
    deep(every_algorithm_on_threads);
}

fn every_algorithm_on_threads() {
    let mut runner = Runner::new();
    let mut checked = 0;
    for (name, tree) in shapes() {
        let value = value_of(&tree);
        let has_moves = !tree.children(0).is_empty();
        for (threads, how) in [
            (1, Parallel::default()),
            (4, Parallel::Abdada),
            (4, Parallel::LazySmp),
            (4, Parallel::Rounds),
        ] {
            let what = format!("{name} on {threads} threads, {how}");
            let solutions = solve_all(&mut runner, &tree, threads, how);
            assert_eq!(solutions.len(), Algorithm::ALL.len(), "{what}");
            for s in &solutions {
                if let Some(e) = &s.error {
                    panic!("{what}: {} failed: {e:?}", s.label());
                }
                match s.value {
                    Some(v) => assert_eq!(v, value, "{what}: {}", s.label()),
                    None => {
                        let (lo, hi) = s.bound.unwrap_or_else(|| panic!("{what}: {} has no answer", s.label()));
                        assert!(
                            lo <= value && value < hi || lo == value && hi == value,
                            "{what}: bns [{lo},{hi}) vs {value}"
                        );
                    }
                }
                if has_moves {
                    let mv = s
                        .best_move
                        .unwrap_or_else(|| panic!("{what}: {} has no best move", s.label()));
                    assert_eq!(after(&tree, mv), value, "{what}: {} best move {mv}", s.label());
                } else {
                    assert_eq!(s.best_move, None, "{what}: {} names a move at a leaf", s.label());
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 20 * Algorithm::ALL.len() * 4);
}

#[test]
fn both_distributed_schemes_answer_the_odd_shapes_on_1_to_3_ranks() {
    deep(both_schemes_on_ranks);
}

fn both_schemes_on_ranks() {
    let mut runs = 0;
    for (name, tree) in shapes() {
        let value = value_of(&tree);
        let has_moves = !tree.children(0).is_empty();
        for scheme in Scheme::ALL {
            for ranks in 1..=3 {
                for algorithm in [Algorithm::Mtdf, Algorithm::MtSss] {
                    let what = format!("{name}, {scheme} on {ranks} ranks, {}", algorithm.name());
                    let opts = TdsabOptions {
                        scheme,
                        algorithm,
                        // The tree's height sizes the ranks' stacks, as the
                        // command passes it.
                        max_plies: Some(tree.height()),
                        ..Default::default()
                    };
                    let out = LocalWorld::run(ranks, &tree, &opts).unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert_eq!(out.value, value, "{what}");
                    if has_moves {
                        let best = out.best_index.unwrap_or_else(|| panic!("{what}: no best move"));
                        assert_eq!(after(&tree, best as u32), value, "{what}: best move {best}");
                    }
                    runs += 1;
                }
            }
        }
    }
    assert_eq!(runs, 20 * 2 * 3 * 2);
}

/// A tree whose `moves()` turns its list by one more place at every call:
/// the same moves in another order each time (as a game that iterates a
/// hash set gives them), shared by every thread.
struct Turning {
    tree: ExplicitTree,
    calls: AtomicU64,
}

impl Game for Turning {
    type Position = u32;
    type Move = u32;
    fn root(&self) -> u32 {
        self.tree.root()
    }
    fn role(&self, pos: &u32) -> Role {
        self.tree.role(pos)
    }
    fn moves(&self, pos: &u32, out: &mut Vec<u32>) {
        let start = out.len();
        self.tree.moves(pos, out);
        let n = out.len() - start;
        if n > 1 {
            let turn = (self.calls.fetch_add(1, Ordering::Relaxed) % n as u64) as usize;
            out[start..].rotate_left(turn);
        }
    }
    fn play(&self, pos: &u32, mv: u32) -> u32 {
        self.tree.play(pos, mv)
    }
    fn evaluate(&self, pos: &u32) -> Value {
        self.tree.evaluate(pos)
    }
    fn hash(&self, pos: &u32) -> Option<u64> {
        self.tree.hash(pos)
    }
    fn value_range(&self) -> (Value, Value) {
        self.tree.value_range()
    }
}

/// A random tree of values 0..9 (a MIN root for even seeds), and the
/// same tree as a [`Turning`] game.
fn turning(width: u64, depth: u64, seed: u64) -> (ExplicitTree, Turning) {
    let spec = stockman::RandomSpec::parse(&format!("width={width},depth={depth},seed={seed},range=0..9")).unwrap();
    let spec = stockman::RandomSpec {
        root_role: if seed.is_multiple_of(2) { Role::Min } else { Role::Max },
        ..spec
    };
    let tree = ExplicitTree::from_game(&stockman::RandomTree::new(spec), None, 100_000).unwrap();
    let game = Turning {
        tree: tree.clone(),
        calls: AtomicU64::new(seed),
    };
    (tree, game)
}

/// A game whose move order changes between calls: every algorithm's
/// value holds, on any number of threads (the searches that keep a tree
/// read each node's list once, when they expand it; the best moves are
/// checked in the two tests below).
#[test]
fn a_game_whose_move_order_turns_keeps_every_value_on_threads() {
    let mut runner = Runner::new();
    let mut checked = 0;
    let algorithms: Vec<Algorithm> = Algorithm::ALL.to_vec();
    for seed in 1..=12u64 {
        let (tree, game) = turning(4, 4, seed);
        let value = value_of(&tree);
        for (threads, how) in [(1, Parallel::default()), (4, Parallel::Abdada), (4, Parallel::LazySmp)] {
            let request = Settings {
                algorithms: Some(algorithms.clone()),
                threads: Some(threads),
                parallel: Some(how),
                ..Settings::default()
            }
            .request(SourceKind::Tree)
            .unwrap();
            for s in runner.solve_threads(&game, &request) {
                let what = format!("seed {seed} on {threads} threads, {how}: {}", s.label());
                assert!(s.error.is_none(), "{what}: {:?}", s.error);
                match s.value {
                    Some(v) => assert_eq!(v, value, "{what}"),
                    None => {
                        let (lo, hi) = s.bound.expect("BNS answers with a bound");
                        assert!(lo <= value && value < hi || lo == value && hi == value, "{what}");
                    }
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 12 * 3 * algorithms.len());
}

/// The searches that keep a tree of nodes (SSS\*, Dual\*, their rounds,
/// RecSSS\*, RecDual\*, SSS-2, GSEARCH, RSEARCH) generate a node's list
/// once, when they expand it, and name its children and the root's best
/// move from that kept list: on a game whose order turns at every call,
/// each child is searched once and the move named holds the value, on one
/// thread and in rounds (left to the search on 4 threads, and 4 states a
/// round on 2 threads, and the simulated processors).
#[test]
fn the_tree_building_searches_keep_each_nodes_list_on_a_turning_game() {
    use stockman::drivers::parallel_sss;
    use stockman::simulate::{sss, SimOptions};
    let tree_building = [
        Algorithm::Sss,
        Algorithm::Dual,
        Algorithm::RecSss,
        Algorithm::RecDual,
        Algorithm::Sss2,
        Algorithm::Gsearch,
        Algorithm::Rsearch,
    ];
    let mut runner = Runner::new();
    let (mut checked, mut trees, mut wrong) = (0, 0, Vec::new());
    for width in 2..=6u64 {
        for seed in 1..=40u64 {
            let range = if seed % 2 == 0 { "0..9" } else { "0..99" };
            let text = format!("width={width},depth=5,seed={seed},range={range}");
            let spec = stockman::RandomSpec {
                root_role: if seed % 4 < 2 { Role::Max } else { Role::Min },
                ..stockman::RandomSpec::parse(&text).unwrap()
            };
            let tree = ExplicitTree::from_game(&stockman::RandomTree::new(spec), None, 100_000).unwrap();
            let value = value_of(&tree);
            let game = Turning {
                tree: tree.clone(),
                calls: AtomicU64::new(seed),
            };
            trees += 1;
            let at = format!("{text} {:?} root", tree.role(&0));
            // Every failure is listed, not only the first.
            let mut check = |what: &str, v: Option<Value>, mv: Option<u32>, wrong: &mut Vec<String>| {
                checked += 1;
                if v != Some(value) {
                    wrong.push(format!("{at}, {what}: value {v:?}, not {value}"));
                }
                if mv.is_none_or(|mv| after(&tree, mv) != value) {
                    wrong.push(format!("{at}, {what}: best move {mv:?}"));
                }
            };
            for (threads, how) in [(1, Parallel::default()), (4, Parallel::Rounds)] {
                let request = Settings {
                    algorithms: Some(tree_building.to_vec()),
                    threads: Some(threads),
                    parallel: Some(how),
                    ..Settings::default()
                }
                .request(SourceKind::Tree)
                .unwrap();
                for s in runner.solve_threads(&game, &request) {
                    let what = format!("{} on {threads} threads, {how}", s.label());
                    assert!(s.error.is_none(), "{text}, {what}: {:?}", s.error);
                    check(&what, s.value, s.best_move, &mut wrong);
                }
            }
            for dual in [false, true] {
                let out = parallel_sss::search(&game, dual, &Default::default(), 2, 4).unwrap();
                let what = format!("parallel dual={dual}, 4 states on 2 threads");
                check(&what, out.value, out.best_move, &mut wrong);
                for processors in [1, 3] {
                    let opts = SimOptions {
                        processors,
                        ..SimOptions::default()
                    };
                    let report = sss::simulate(&game, dual, &opts).unwrap();
                    if report.value != value {
                        wrong.push(format!(
                            "{text}: simulated dual={dual} on {processors}: value {}",
                            report.value
                        ));
                    }
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong of {checked}:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert_eq!(trees, 5 * 40);
    assert_eq!(checked, trees * (2 * tree_building.len() + 2));
}

/// The depth-first searches (and those built on them: the MT family,
/// MTD(f), BNS, minimax) generate a node's list once per visit, so their
/// values hold on a game whose order turns (above); their best move must
/// hold too: a root's list is generated once per search and shared by its
/// threads, so that an index the table keeps names the same move in every
/// pass and on every thread.
#[test]
fn a_game_whose_move_order_turns_gets_a_best_move_that_holds_from_the_depth_first_searches() {
    let mut runner = Runner::new();
    let mut checked = 0;
    let algorithms = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::NegaScout,
        Algorithm::MtSss,
        Algorithm::MtDual,
        Algorithm::Mtdf,
        Algorithm::MtdBi,
        Algorithm::Bns,
    ];
    for seed in 1..=40u64 {
        let (tree, game) = turning(2 + seed % 5, 5, seed);
        let value = value_of(&tree);
        for (threads, how) in [(1, Parallel::default()), (4, Parallel::Abdada), (4, Parallel::LazySmp)] {
            for iterative in [false, true] {
                let request = Settings {
                    algorithms: Some(algorithms.to_vec()),
                    threads: Some(threads),
                    parallel: Some(how),
                    iterative,
                    depth: iterative.then_some(5),
                    ..Settings::default()
                }
                .request(SourceKind::Tree)
                .unwrap();
                for s in runner.solve_threads(&game, &request) {
                    let what = format!(
                        "seed {seed} on {threads} threads, {how}, iterative {iterative}: {}",
                        s.label()
                    );
                    assert!(s.error.is_none(), "{what}: {:?}", s.error);
                    if let Some(v) = s.value {
                        assert_eq!(v, value, "{what}");
                    }
                    let mv = s.best_move.unwrap_or_else(|| panic!("{what}: no best move"));
                    assert_eq!(after(&tree, mv), value, "{what}: best move {mv}");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 40 * 3 * 2 * 8);
}

/// GSEARCH and RSEARCH under `widest` on the 100,000-level combs and the
/// 70,000-move roots (issue 63: `widest` searched the stored tree from the
/// root per leaf, 108 s on the comb; a root of w moves cost w log w a
/// leaf), and on the turning game, whose root's best move must be an index
/// into the list the search expanded (the search asked for the root's moves
/// again at the end and indexed into another order). Values, best moves and
/// leaf counts.
#[test]
fn widest_solves_the_deep_combs_and_wide_roots_and_keeps_its_root_moves() {
    deep(widest_on_odd_shapes);
}

fn widest_on_odd_shapes() {
    let mut runner = Runner::new();
    let request = |algorithms: &[Algorithm]| {
        Settings {
            algorithms: Some(algorithms.to_vec()),
            select: Some(stockman::Select::Widest),
            ..Settings::default()
        }
        .request(SourceKind::Tree)
        .unwrap()
    };
    let both = request(&[Algorithm::Gsearch, Algorithm::Rsearch]);
    let mut rows = Vec::new();
    for role in [Role::Max, Role::Min] {
        let (best, rest) = if role == Role::Max { (1, 0) } else { (0, 1) };
        for (name, text) in [("comb", comb(100_000)), ("wide", wide(70_000, 65_535, best, rest))] {
            let tree = ExplicitTree::parse(&text, role).unwrap();
            let value = value_of(&tree);
            for s in runner.solve_threads(&tree, &both) {
                let what = format!("{name} ({role:?} root): {}", s.label());
                assert!(s.error.is_none(), "{what}: {:?}", s.error);
                assert_eq!(s.value, Some(value), "{what}");
                let mv = s.best_move.unwrap_or_else(|| panic!("{what}: no best move"));
                assert_eq!(after(&tree, mv), value, "{what}: best move {mv}");
                rows.push((value, s.stats.leaf_evals));
            }
        }
    }
    // GSEARCH, then RSEARCH (no memory bound: the same search), on each.
    assert_eq!(
        rows,
        [
            (1, 50_003),
            (1, 50_003),
            (1, 70_000),
            (1, 70_000),
            (0, 50_002),
            (0, 50_002),
            (0, 70_000),
            (0, 70_000)
        ]
    );
    let mut turned = 0;
    for seed in 1..=12u64 {
        let spec = stockman::RandomSpec::parse(&format!("width=4,depth=4,seed={seed},range=0..9")).unwrap();
        let tree = ExplicitTree::from_game(&stockman::RandomTree::new(spec), None, 100_000).unwrap();
        let value = value_of(&tree);
        let game = Turning {
            tree: tree.clone(),
            calls: AtomicU64::new(seed),
        };
        for select in [stockman::Select::Upper, stockman::Select::Widest] {
            let request = Settings {
                algorithms: Some(vec![Algorithm::Gsearch, Algorithm::Rsearch]),
                select: Some(select),
                memory: Some(7),
                ..Settings::default()
            }
            .request(SourceKind::Tree)
            .unwrap();
            for s in runner.solve_threads(&game, &request) {
                let what = format!("seed {seed}, {select}: {}", s.label());
                assert_eq!(s.value, Some(value), "{what}");
                let mv = s.best_move.unwrap_or_else(|| panic!("{what}: no best move"));
                assert_eq!(after(&tree, mv), value, "{what}: best move {mv}");
                turned += 1;
            }
        }
    }
    assert_eq!(turned, 12 * 2 * 2);
}

/// A search stopped by a node limit names the root move it proved by
/// that move's child, not by its index: on a game whose order turns, the
/// caller's list of the root's moves is in another order than the
/// search's, and the move named holds the proven bound.
#[test]
fn a_stopped_search_names_its_proven_move_on_a_turning_game() {
    let stopping = [
        Algorithm::MtSss,
        Algorithm::MtDual,
        Algorithm::Mtdf,
        Algorithm::MtdBi,
        Algorithm::Bns,
    ];
    let mut runner = Runner::new();
    let (mut named, mut wrong) = (0, Vec::new());
    for seed in 1..=40u64 {
        let (tree, game) = turning(3 + seed % 4, 5, seed);
        for limit in [20, 60, 200, 600] {
            let request = Settings {
                algorithms: Some(stopping.to_vec()),
                max_nodes: Some(limit),
                ..Settings::default()
            }
            .request(SourceKind::Tree)
            .unwrap();
            for s in runner.solve(&game, &request) {
                let (Some(_), Some((lower, upper)), Some(mv)) = (&s.error, s.proven, s.best_move) else {
                    continue;
                };
                named += 1;
                let v = after(&tree, mv);
                let holds = match tree.role(&tree.root()) {
                    Role::Max => v >= lower,
                    Role::Min => v <= upper,
                };
                if !holds {
                    wrong.push(format!(
                        "seed {seed}, {limit} positions, {}: move {mv} worth {v}, proven {lower}..={upper}",
                        s.algorithm.name()
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{} of {named}:\n{}", wrong.len(), wrong.join("\n"));
    assert!(named >= 100, "only {named} stopped searches named a move");
}
