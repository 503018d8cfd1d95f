//! Lazy SMP and ABDADA against the one-thread searches: on seeded random
//! trees and on Connect Four test positions, every depth-first algorithm on
//! 2 to 8 threads, both ways, returns the one-thread value (BNS: a bound that holds it;
//! a best move whose subtree holds it), whatever the threads' timing.
//! Values and best moves (the `best_moves` module): counts and times
//! depend on the scheduler. Parallel SSS\*
//! and Dual\*, whose rounds make them deterministic, also to the leaf.

mod best_moves;
mod distributed;
mod odd_shapes;

use stockman::run::{Runner, Settings, SourceKind};
use stockman::{Algorithm, ConnectFour, Game, Limits, Parallel, RandomSpec, RandomTree, Threads};

/// The algorithms with a parallel form (the depth-first ones but minimax).
fn depth_first() -> Vec<Algorithm> {
    Algorithm::ALL
        .iter()
        .copied()
        .filter(|&a| stockman::drivers::lazy_smp::supports(a))
        .collect()
}

fn request(threads: usize, iterative: bool, tt_mb: Option<usize>, depth: Option<u32>) -> stockman::run::Request {
    request_by(Parallel::default(), threads, iterative, tt_mb, depth)
}

fn request_by(
    parallel: Parallel,
    threads: usize,
    iterative: bool,
    tt_mb: Option<usize>,
    depth: Option<u32>,
) -> stockman::run::Request {
    Settings {
        algorithms: Some(Algorithm::ALL.to_vec()),
        threads: Some(threads),
        parallel: Some(parallel),
        iterative,
        tt_mb,
        depth,
        ..Settings::default()
    }
    .request(SourceKind::Tree)
    .unwrap()
}

/// The minimax value of a tree (one thread, exact).
fn value_of<G: Game>(game: &G) -> i32 {
    Algorithm::AlphaBeta
        .search(game, &Default::default())
        .unwrap()
        .value
        .unwrap()
}

#[track_caller]
fn check<M>(solutions: &[stockman::run::Solution<M>], value: i32, what: &str) {
    for s in solutions {
        assert!(s.error.is_none(), "{what}: {} failed: {:?}", s.label(), s.error);
        match s.value {
            Some(v) => assert_eq!(v, value, "{what}: {}", s.label()),
            None => {
                let (lo, hi) = s.bound.expect("BNS answers with a bound");
                assert!(
                    lo <= value && value < hi || lo == value && hi == value,
                    "{what}: bns [{lo},{hi}) vs {value}"
                );
            }
        }
    }
}

#[test]
fn every_algorithm_on_2_to_8_threads_keeps_its_value_on_random_trees() {
    let mut runner = Runner::new();
    let mut trees = 0;
    for seed in 1..=1500u64 {
        let width = 2 + seed % 5;
        let depth = 2 + (seed % 5) as u32;
        let model = if seed % 2 == 0 { "iid" } else { "incremental" };
        let spec = format!("width={width},depth={depth},seed={seed},model={model}");
        let tree = RandomTree::new(RandomSpec::parse(&spec).unwrap());
        let value = value_of(&tree);
        let threads = 2 + (seed % 7) as usize;
        // A small table keeps the threads racing for the same buckets. One
        // block of seeds uses it (every shape, thread count and deepening of
        // the others recurs within 140 seeds): the runner keeps its table
        // while the size stays, and a size changing every other tree made a
        // new default-size table each time (a third of the test's time).
        let tt = if (501..=1000).contains(&seed) { Some(1) } else { None };
        for how in Parallel::ALL {
            // Iterative deepening on several threads, to a last depth or
            // to the first iteration in which no thread met the horizon.
            let deepen = seed % 4 == 1 || seed % 4 == 3;
            let last = (seed % 4 == 1).then_some(depth);
            let r = request_by(how, threads, deepen, tt, last);
            let solutions = runner.solve_threads(&tree, &r);
            assert_eq!(solutions.len(), Algorithm::ALL.len());
            check(&solutions, value, &format!("{spec} on {threads} threads, {how}"));
            trees += 1;
        }
    }
    assert_eq!(trees, 3000);
}

#[test]
fn lazy_smp_and_abdada_solve_connect_four_positions_exactly() {
    let text = include_str!("data/connect4/Test_L2_R1");
    let mut runner = Runner::new();
    for (i, line) in text.lines().take(200).enumerate() {
        let mut parts = line.split_whitespace();
        let moves = parts.next().unwrap();
        let score: i32 = parts.next().unwrap().parse().unwrap();
        let game = ConnectFour::from_moves(moves).unwrap();
        let threads = [2, 3, 4, 8][i % 4];
        let how = Parallel::ALL[i / 4 % 2];
        let r = Settings {
            algorithms: Some(depth_first()),
            threads: Some(threads),
            parallel: Some(how),
            tt_mb: Some(if i % 2 == 0 { 1 } else { 16 }),
            ..Settings::default()
        }
        .request(SourceKind::Game(stockman::run::GameKind::Connect4))
        .unwrap();
        let solutions = runner.solve_threads(&game, &r);
        assert_eq!(solutions.len(), 7);
        check(&solutions, score, &format!("{moves} on {threads} threads, {how}"));
        for s in &solutions {
            // Every best move's child is worth the score (BNS's too: its
            // move holds the value its bound brackets).
            let best = s.best_move.unwrap_or_else(|| {
                panic!(
                    "{moves} on {threads} threads, {how}: {} has no best move: {:?}",
                    s.label(),
                    s.stats
                )
            });
            let child = stockman::Playable::after(&game, best);
            let child_value = -Algorithm::MtdBi
                .search(
                    &child,
                    &stockman::SearchOptions {
                        table: stockman::TableSize::Megabytes(16),
                        ..Default::default()
                    },
                )
                .unwrap()
                .value
                .unwrap();
            assert_eq!(
                child_value,
                score,
                "{moves} on {threads} threads, {how}: {} best move {best:?}",
                s.label()
            );
        }
    }
}

#[test]
fn one_thread_is_the_plain_search_bit_for_bit() {
    let tree = RandomTree::new(RandomSpec::parse("width=5,depth=6,seed=11").unwrap());
    let mut runner = Runner::new();
    let plain = runner.solve(&tree, &request(1, false, None, None));
    let threads1 = runner.solve_threads(&tree, &request(1, false, None, None));
    assert_eq!(plain.len(), threads1.len());
    for (a, b) in plain.iter().zip(&threads1) {
        let (mut sa, mut sb) = (a.stats, b.stats);
        sa.time_us = 0;
        sb.time_us = 0;
        assert_eq!(
            (a.value, a.bound, a.best_index, sa),
            (b.value, b.bound, b.best_index, sb),
            "{}",
            a.label()
        );
    }
    assert!(Runner::single_threaded(&request(1, false, None, None)).is_empty());
    // SSS* and Dual* run in rounds only when asked for them.
    assert_eq!(
        Runner::single_threaded(&request(4, false, None, None)),
        vec![
            Algorithm::Minimax,
            Algorithm::Sss,
            Algorithm::Dual,
            Algorithm::RecSss,
            Algorithm::RecDual,
            Algorithm::Sss2,
            Algorithm::Gsearch,
            Algorithm::Rsearch
        ]
    );
    assert_eq!(
        Runner::single_threaded(&request_by(Parallel::Rounds, 4, false, None, None)),
        vec![
            Algorithm::Minimax,
            Algorithm::RecSss,
            Algorithm::RecDual,
            Algorithm::Sss2,
            Algorithm::Gsearch,
            Algorithm::Rsearch
        ]
    );
}

#[test]
fn thread_counts_out_of_range_are_refused() {
    for bad in [0, stockman::run::MAX_THREADS + 1] {
        let e = Settings {
            threads: Some(bad),
            ..Settings::default()
        }
        .request(SourceKind::Tree)
        .unwrap_err()
        .to_string();
        assert!(e.contains("threads must be 1 to"), "{e}");
    }
}

/// A game rooted at one of its positions.
struct From<'a, G: Game>(&'a G, G::Position);

impl<G: Game> Game for From<'_, G> {
    type Position = G::Position;
    type Move = G::Move;
    fn root(&self) -> G::Position {
        self.1.clone()
    }
    fn role(&self, pos: &G::Position) -> stockman::Role {
        self.0.role(pos)
    }
    fn moves(&self, pos: &G::Position, out: &mut Vec<G::Move>) {
        self.0.moves(pos, out)
    }
    fn play(&self, pos: &G::Position, mv: G::Move) -> G::Position {
        self.0.play(pos, mv)
    }
    fn evaluate(&self, pos: &G::Position) -> i32 {
        self.0.evaluate(pos)
    }
}

/// The value of child `i` of the root (exact, one thread).
fn child_value<G: Game>(game: &G, i: usize) -> i32 {
    let root = game.root();
    let mut moves = Vec::new();
    game.moves(&root, &mut moves);
    value_of(&From(game, game.play(&root, moves[i])))
}

#[test]
fn parallel_sss_and_dual_keep_the_value_and_are_reproducible_to_the_leaf() {
    use stockman::drivers::parallel_sss;
    use stockman::{LeafRecorder, SearchOptions};
    for seed in 0..150u64 {
        let spec = format!("width={},depth={},seed={seed}", 2 + seed % 5, 2 + seed % 5);
        let tree = RandomTree::new(RandomSpec::parse(&spec).unwrap());
        let value = value_of(&tree);
        for dual in [false, true] {
            let algo = if dual { Algorithm::Dual } else { Algorithm::Sss };
            let mut seq = LeafRecorder::default();
            algo.with_options(&SearchOptions::default())
                .observer(&mut seq)
                .run(&tree)
                .unwrap();
            for processors in [1, 2, 3, 8, 64] {
                let mut leaves = Vec::new();
                for threads in [1, 2, 4] {
                    let mut rec = LeafRecorder::default();
                    let out = parallel_sss::search_observed(
                        &tree,
                        dual,
                        &SearchOptions::default(),
                        threads,
                        processors,
                        &mut rec,
                    )
                    .unwrap();
                    let what = format!("{spec} {} P={processors} threads={threads}", algo.name());
                    assert_eq!(out.value, Some(value), "{what}");
                    let best = out.best_index.expect("a best move");
                    assert_eq!(child_value(&tree, best), value, "{what}: best move");
                    leaves.push(rec.paths());
                }
                assert!(
                    leaves.windows(2).all(|w| w[0] == w[1]),
                    "{spec}: threads change the leaves"
                );
                if processors == 1 {
                    assert_eq!(leaves[0], seq.paths(), "{spec}: P=1 is {}", algo.name());
                }
            }
        }
    }
}

#[test]
fn parallel_sss_honours_the_node_limit() {
    use stockman::drivers::parallel_sss;
    let tree = RandomTree::new(RandomSpec::parse("width=6,depth=6,seed=4").unwrap());
    let opts = stockman::SearchOptions {
        limits: Limits {
            nodes: Some(500),
            ..Default::default()
        },
        ..Default::default()
    };
    let e = parallel_sss::search(&tree, false, &opts, 2, 4).unwrap_err();
    assert_eq!(e.limit(), Some(stockman::Limit::Nodes(500)));
    assert_eq!(e.stats().map(|s| s.nodes), Some(500));
    let e = parallel_sss::search(&tree, false, &stockman::SearchOptions::default(), 2, 5000).unwrap_err();
    assert!(e.to_string().contains("5000 states per round"), "{e}");
}

/// A table shared with an imaginary second thread, which answers the
/// root's pass while this search is still under way: after `after`
/// probes, the root's entry holds the value, as another thread would store it.
struct AnsweredTable {
    inner: stockman::MapTable,
    root: u64,
    entry: stockman::Entry,
    probes: u64,
    after: u64,
}

impl stockman::Table for AnsweredTable {
    fn probe(&mut self, key: u64) -> Option<stockman::Entry> {
        self.probes += 1;
        if self.probes == self.after {
            self.inner.store(self.root, self.entry);
        }
        self.inner.probe(key)
    }
    fn store(&mut self, key: u64, entry: stockman::Entry) {
        if key != self.root {
            self.inner.store(key, entry);
        }
    }
    fn clear(&mut self) {
        self.inner.clear();
    }
    fn shares_work(&self) -> bool {
        true
    }
}

#[test]
fn a_pass_another_thread_answered_gives_up_with_that_answer() {
    use stockman::{Entry, SearchOptions, Table};
    let tree = RandomTree::new(RandomSpec::parse("width=8,depth=7,seed=9").unwrap());
    let value = value_of(&tree);
    let full = Algorithm::AlphaBeta.search(&tree, &SearchOptions::default()).unwrap();
    let best = full.best_index.unwrap() as u32;
    let root = tree.hash(&tree.root()).unwrap();
    let entry = Entry {
        lower: value,
        upper: value,
        draft: u32::MAX,
        best,
        best_proves: true,
        work: 20,
    };
    let mut table = AnsweredTable {
        inner: stockman::MapTable::default(),
        root,
        entry,
        probes: 0,
        after: 3000,
    };
    let mut obs = stockman::NoObserver;
    let out = Algorithm::AlphaBeta
        .with_options(&SearchOptions::default())
        .observer(&mut obs)
        .table(&mut table)
        .run(&tree)
        .unwrap();
    assert_eq!(out.value, Some(value));
    assert_eq!(out.best_index, Some(best as usize));
    assert!(
        out.stats.nodes < full.stats.nodes / 2,
        "gave up early: {} of {} nodes",
        out.stats.nodes,
        full.stats.nodes
    );
    // Without the other thread's answer, the same search goes to the end.
    table.clear();
    table.after = u64::MAX;
    table.probes = 0;
    let alone = Algorithm::AlphaBeta
        .with_options(&SearchOptions::default())
        .observer(&mut obs)
        .table(&mut table)
        .run(&tree)
        .unwrap();
    assert_eq!(alone.value, Some(value));
    assert!(alone.stats.nodes > out.stats.nodes);
}

/// Othello's FFO endgame positions #40-#42 (20-22 empty squares) solved
/// exactly on 2 threads, both ways, with best moves the suite lists at the
/// best score.
#[test]
fn ffo_positions_are_solved_exactly_on_two_threads() {
    use stockman::games::othello::Othello;
    use stockman::games::positions::parse_positions;
    let lines = parse_positions(include_str!("data/othello/fforum-40-59.obf")).unwrap();
    let mut runner = Runner::new();
    for (line, how) in lines
        .iter()
        .take(3)
        .zip([Parallel::Abdada, Parallel::LazySmp, Parallel::Abdada])
    {
        let game = <Othello as stockman::Playable>::from_position(&line.position).unwrap();
        let expected = line.expected.unwrap();
        let r = Settings {
            algorithms: Some(vec![Algorithm::Mtdf, Algorithm::NegaScout]),
            threads: Some(2),
            parallel: Some(how),
            tt_mb: Some(64),
            ..Settings::default()
        }
        .request(SourceKind::Game(stockman::run::GameKind::Othello))
        .unwrap();
        for s in runner.solve_threads(&game, &r) {
            let what = format!("FFO line {} {how} {}", line.line, s.label());
            assert!(s.error.is_none(), "{what}: {:?}", s.error);
            assert_eq!(s.value, Some(expected), "{what}");
            let best = stockman::Playable::move_text(&game, s.best_move.expect("a best move"));
            assert_eq!(line.score_of(&best), Some(expected), "{what}: {best}");
        }
    }
}

/// `Threads::count`: `Algorithm::search_shared` honours it (every
/// algorithm its one-thread value, BNS a bound holding it, both ways);
/// `Algorithm::search`, which takes any game, refuses it; bad counts are errors.
#[test]
fn search_options_threads_through_search_shared() {
    use stockman::SearchOptions;
    for seed in 0..40u64 {
        let tree = RandomTree::new(RandomSpec::parse(&format!("width=4,depth=5,seed={seed}")).unwrap());
        let value = value_of(&tree);
        for (i, &algo) in Algorithm::ALL.iter().enumerate() {
            let opts = SearchOptions {
                threads: Threads {
                    count: 2 + (seed as usize + i) % 3,
                    parallel: Parallel::ALL[i % 2],
                    ..Threads::default()
                },
                ..SearchOptions::default()
            };
            let out = algo.search_shared(&tree, &opts).unwrap();
            match out.value {
                Some(v) => assert_eq!(v, value, "{algo} seed {seed}"),
                None => {
                    let (lo, hi) = out.bound.unwrap();
                    assert!(lo <= value && value < hi, "{algo} seed {seed}");
                }
            }
            let e = algo.search(&tree, &opts).unwrap_err();
            assert!(e.to_string().contains("search_shared"), "{e}");
        }
    }
    let tree = RandomTree::new(RandomSpec::parse("width=3,depth=3,seed=1").unwrap());
    for threads in [0, stockman::run::MAX_THREADS + 1] {
        let opts = SearchOptions {
            threads: Threads {
                count: threads,
                ..Threads::default()
            },
            ..SearchOptions::default()
        };
        let e = Algorithm::Mtdf.search_shared(&tree, &opts).unwrap_err();
        // The one rule (Threads::check_count) and its words, as the run layer's.
        assert_eq!(
            e.to_string(),
            stockman::Threads::check_count(threads).unwrap_err().to_string(),
            "{e}"
        );
        assert!(
            e.to_string()
                .ends_with(&format!("threads must be 1 to 1024, not {threads}")),
            "{e}"
        );
    }
    // One thread is the plain search, counts and all.
    let one = Algorithm::MtSss.search(&tree, &SearchOptions::default()).unwrap();
    let shared = Algorithm::MtSss
        .search_shared(&tree, &SearchOptions::default())
        .unwrap();
    assert_eq!(
        (one.value, one.stats.leaf_evals),
        (shared.value, shared.stats.leaf_evals)
    );
}

/// A node limit is the whole team's: on 2 to 4 threads, both ways, plain
/// and deepened, a search that runs out stops with at most the limit's
/// positions visited by all its threads together (each thread takes its
/// positions from one pool before it visits them), and within one chunk
/// per helper of it.
#[test]
fn a_node_limit_holds_for_all_threads_together() {
    use stockman::{Limit, SearchOptions};
    let game = ConnectFour::from_moves("4453").unwrap().with_heuristic();
    let limit = 200_000u64;
    for threads in [2, 3, 4] {
        for how in Parallel::ALL {
            for deepen in [false, true] {
                let what = format!("{threads} threads, {how}, deepened {deepen}");
                let opts = SearchOptions {
                    limits: Limits {
                        depth: Some(16),
                        nodes: Some(limit),
                        ..Limits::default()
                    },
                    threads: Threads {
                        count: threads,
                        parallel: how,
                        ..Threads::default()
                    },
                    table: stockman::TableSize::Megabytes(4),
                    ..SearchOptions::default()
                };
                let search = Algorithm::Mtdf.with_options(&opts);
                let r = if deepen { search.deepen() } else { search }.run_shared(&game);
                let nodes = match r {
                    Err(e) => {
                        assert_eq!(e.limit(), Some(Limit::Nodes(limit)), "{what}: {e}");
                        e.stats().unwrap().nodes
                    }
                    // Deepening answers with its last finished iteration.
                    Ok(out) => {
                        assert!(deepen, "{what}: finished within the limit");
                        assert_eq!(out.stopped_by, Some(Limit::Nodes(limit)), "{what}");
                        out.stats.nodes
                    }
                };
                let slack = 1024 * (threads as u64 - 1);
                assert!(
                    nodes <= limit && nodes + slack >= limit,
                    "{what}: {nodes} positions against a limit of {limit}"
                );
            }
        }
    }
}
