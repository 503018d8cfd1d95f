//! Lazy SMP and ABDADA against the one-thread searches: on seeded random
//! trees and on Connect Four test positions, every depth-first algorithm on
//! 2 to 8 threads, both ways, returns the one-thread value (BNS: a bound that holds it;
//! a best move whose subtree holds it), whatever the threads' timing.
//! Values only: counts and times depend on the scheduler.

use stockman::run::{Runner, Settings, SourceKind};
use stockman::{Algorithm, ConnectFour, Game, Parallel, RandomSpec, RandomTree};

/// The algorithms with a parallel form (the depth-first ones but minimax).
fn depth_first() -> Vec<Algorithm> {
    Algorithm::ALL
        .iter()
        .copied()
        .filter(|&a| stockman::algorithms::lazy_smp::supports(a))
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
        // A small table keeps the threads racing for the same buckets.
        let tt = if seed % 3 == 0 { Some(1) } else { None };
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
            // The best move reaches the value (BNS: its bound).
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
            if let Some(v) = s.value {
                assert_eq!(child_value, v, "{moves}: {} best move {best:?}", s.label());
            }
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
    assert_eq!(
        Runner::single_threaded(&request(4, false, None, None)),
        vec![
            Algorithm::Minimax,
            Algorithm::Sss,
            Algorithm::Dual,
            Algorithm::RecSss,
            Algorithm::RecDual
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
