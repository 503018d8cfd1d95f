//! The simulated parallel machines: at one processor the simulation is
//! the sequential algorithm (the same leaves in the same order); at every
//! processor count the value is the minimax value; and the same inputs
//! give the same report on every run.

use stockman::run::{Runner, Settings, SourceKind};
use stockman::simulate::{abdada, sss, SimOptions};
use stockman::Limits;
use stockman::{Algorithm, ConnectFour, Game, RandomSpec, RandomTree, TicTacToe};

fn minimax<G: Game>(game: &G, depth: Option<u32>) -> i32 {
    let opts = stockman::SearchOptions {
        limits: Limits {
            depth,
            ..Default::default()
        },
        ..Default::default()
    };
    Algorithm::AlphaBeta.search(game, &opts).unwrap().value.unwrap()
}

fn spec(seed: u64) -> String {
    let width = 2 + seed % 4;
    let depth = 2 + (seed % 5) as u32;
    let model = if seed.is_multiple_of(2) { "iid" } else { "incremental" };
    format!("width={width},depth={depth},seed={seed},model={model}")
}

#[test]
fn one_processor_evaluates_the_leaves_of_sss_and_dual_in_their_order() {
    let mut runner = Runner::new();
    for seed in 1..=300u64 {
        let tree = RandomTree::new(RandomSpec::parse(&spec(seed)).unwrap());
        let request = Settings {
            algorithms: Some(vec![Algorithm::Sss, Algorithm::Dual]),
            leaves: true,
            ..Settings::default()
        }
        .request(SourceKind::Tree)
        .unwrap();
        let solutions = runner.solve(&tree, &request);
        for (dual, s) in [false, true].into_iter().zip(&solutions) {
            let opts = SimOptions {
                record_leaves: true,
                ..SimOptions::default()
            };
            let (r, leaves) = sss::simulate_recorded(&tree, dual, &opts).unwrap();
            assert_eq!(Some(r.value), s.value, "{} {}", spec(seed), s.label());
            assert_eq!(leaves.as_ref(), s.leaves.as_ref(), "{} {}", spec(seed), s.label());
            assert_eq!(r.leaf_evals, s.stats.leaf_evals);
            assert_eq!((r.rounds, r.idle), (r.work, 0));
        }
    }
}

#[test]
fn every_processor_count_finds_the_minimax_value_on_random_trees() {
    for seed in 1..=200u64 {
        let tree = RandomTree::new(RandomSpec::parse(&spec(seed)).unwrap());
        let value = minimax(&tree, None);
        for processors in [1, 2, 3, 4, 7, 8, 16, 64] {
            for dual in [false, true] {
                let opts = SimOptions {
                    processors,
                    ..SimOptions::default()
                };
                let r = sss::simulate(&tree, dual, &opts).unwrap();
                assert_eq!(r.value, value, "{} P={processors} dual={dual}", spec(seed));
                assert_eq!(r.processors, processors);
            }
        }
    }
}

#[test]
fn games_too_and_every_run_is_the_same() {
    let c4 = ConnectFour::from_moves("4453445").unwrap().with_heuristic();
    let ttt = TicTacToe::new();
    for processors in [1, 4, 32] {
        let opts = SimOptions {
            processors,
            depth: Some(5),
            ..SimOptions::default()
        };
        let a = sss::simulate(&c4, false, &opts).unwrap();
        assert_eq!(a.value, minimax(&c4, Some(5)));
        assert_eq!(a, sss::simulate(&c4, false, &opts).unwrap());
        let whole = SimOptions { depth: None, ..opts };
        assert_eq!(sss::simulate(&ttt, true, &whole).unwrap().value, 0);
    }
}

#[test]
fn abdada_on_one_processor_is_the_sequential_search_node_for_node() {
    for seed in 1..=300u64 {
        let tree = RandomTree::new(RandomSpec::parse(&spec(seed)).unwrap());
        for algo in abdada::ALGORITHMS {
            let plain = algo.search(&tree, &Default::default()).unwrap();
            let r = abdada::simulate(&tree, algo, &SimOptions::default()).unwrap();
            assert_eq!(Some(r.value), plain.value, "{} {algo}", spec(seed));
            assert_eq!(
                (r.work, r.leaf_evals, r.rounds, r.idle),
                (plain.stats.nodes, plain.stats.leaf_evals, plain.stats.nodes, 0),
                "{} {algo}",
                spec(seed)
            );
        }
    }
}

#[test]
fn abdada_finds_the_minimax_value_at_every_processor_count() {
    for seed in 1..=200u64 {
        let tree = RandomTree::new(RandomSpec::parse(&spec(seed)).unwrap());
        let value = minimax(&tree, None);
        for processors in [2, 3, 5, 8, 16, 64] {
            for algo in abdada::ALGORITHMS {
                let opts = SimOptions {
                    processors,
                    ..SimOptions::default()
                };
                let r = abdada::simulate(&tree, algo, &opts).unwrap();
                assert_eq!(r.value, value, "{} P={processors} {algo}", spec(seed));
                assert_eq!(r, abdada::simulate(&tree, algo, &opts).unwrap(), "deterministic");
            }
        }
    }
    // Connect Four to the end, transpositions and a table move first, on
    // 4453445 and O's reply 1 (4453445 itself took 35 s of CI here), against
    // the sequential MTD(f)'s exact value (and the solver's, 4).
    let c4 = ConnectFour::from_moves("44534451").unwrap();
    let exact = Algorithm::Mtdf
        .search(&c4, &stockman::SearchOptions::default())
        .unwrap()
        .value
        .unwrap();
    assert_eq!(exact, 4);
    for processors in [1, 2, 8, 64] {
        let opts = SimOptions {
            processors,
            table_move_first: true,
            ..SimOptions::default()
        };
        assert_eq!(
            abdada::simulate(&c4, Algorithm::Mtdf, &opts).unwrap().value,
            exact,
            "P={processors}"
        );
    }
}

/// Iterative deepening under ABDADA: at one processor, the crate's own
/// deepening driver with the table's move first, node for node; at more,
/// the minimax value at the depth.
#[test]
fn iterative_abdada_on_one_processor_is_the_sequential_deepening_node_for_node() {
    for seed in 1..=150u64 {
        let tree = RandomTree::new(RandomSpec::parse(&spec(seed)).unwrap());
        let full = 2 + (seed % 5) as u32;
        for depth in [full - 1, full] {
            let value = minimax(&tree, Some(depth));
            for algo in abdada::ALGORITHMS {
                let opts = stockman::SearchOptions {
                    limits: Limits::to_depth(depth),
                    enhancements: stockman::Enhancements {
                        table_move_first: true,
                        ..Default::default()
                    },
                    ..Default::default()
                };
                let deep = algo.with_options(&opts).deepen().run(&tree).unwrap();
                let sim = SimOptions {
                    depth: Some(depth),
                    iterative: true,
                    table_move_first: true,
                    ..SimOptions::default()
                };
                let r = abdada::simulate(&tree, algo, &sim).unwrap();
                assert_eq!(Some(r.value), deep.value, "{} d{depth} {algo}", spec(seed));
                assert_eq!(
                    (r.work, r.leaf_evals, r.rounds),
                    (deep.stats.nodes, deep.stats.leaf_evals, deep.stats.nodes),
                    "{} d{depth} {algo}",
                    spec(seed)
                );
                for processors in [2, 5] {
                    let p = abdada::simulate(
                        &tree,
                        algo,
                        &SimOptions {
                            processors,
                            ..sim.clone()
                        },
                    )
                    .unwrap();
                    assert_eq!(p.value, value, "{} d{depth} {algo} P={processors}", spec(seed));
                }
            }
        }
    }
}

/// A remote access costs time, never the answer: one processor never
/// waits; under ABDADA the waits are counted and the value stays; in
/// parallel SSS\* the same rounds are stepped, each with a remote state
/// lasting `k` rounds longer.
#[test]
fn table_latency_costs_rounds_not_answers() {
    for seed in 1..=60u64 {
        let tree = RandomTree::new(RandomSpec::parse(&spec(seed)).unwrap());
        let value = minimax(&tree, None);
        for k in [1u64, 4] {
            for algo in abdada::ALGORITHMS {
                let base = SimOptions::default();
                let one = abdada::simulate(&tree, algo, &base).unwrap();
                let far = SimOptions {
                    table_latency: k,
                    ..base.clone()
                };
                assert_eq!(abdada::simulate(&tree, algo, &far).unwrap(), one, "P = 1 never waits");
                let four = SimOptions {
                    processors: 4,
                    ..far.clone()
                };
                let r = abdada::simulate(&tree, algo, &four).unwrap();
                assert_eq!(r.value, value, "{} {algo} k={k}", spec(seed));
                assert_eq!(r, abdada::simulate(&tree, algo, &four).unwrap(), "deterministic");
                assert!(
                    r.stalled > 0,
                    "{} {algo} k={k}: three of four processors wait",
                    spec(seed)
                );
                assert!(r.rounds * 4 >= r.work + r.stalled, "{} {algo} k={k}", spec(seed));
            }
            for dual in [false, true] {
                let shared = SimOptions {
                    processors: 4,
                    ..SimOptions::default()
                };
                let near = sss::simulate(&tree, dual, &shared).unwrap();
                let far = sss::simulate(
                    &tree,
                    dual,
                    &SimOptions {
                        table_latency: k,
                        ..shared.clone()
                    },
                )
                .unwrap();
                assert_eq!(
                    (far.value, far.work, far.leaf_evals),
                    (near.value, near.work, near.leaf_evals)
                );
                assert_eq!(far.max_open, near.max_open);
                let longer = far.rounds - near.rounds;
                assert_eq!(longer % k, 0, "{} dual={dual}", spec(seed));
                assert!(
                    far.stalled >= longer && far.stalled <= 3 * longer,
                    "{} dual={dual}",
                    spec(seed)
                );
                assert_eq!(
                    far.rounds * 4,
                    near.rounds * 4 + far.stalled + (far.idle - near.idle),
                    "every processor-round is counted once"
                );
            }
        }
    }
    // Pinned: a change to the model shows here.
    let tree = RandomTree::new(RandomSpec::parse("width=4,depth=6,seed=5").unwrap());
    let opts = SimOptions {
        processors: 4,
        table_latency: 3,
        ..SimOptions::default()
    };
    let ab = abdada::simulate(&tree, Algorithm::AlphaBeta, &opts).unwrap();
    let ss = sss::simulate(&tree, false, &opts).unwrap();
    assert_eq!((ab.rounds, ab.work, ab.stalled), (1556, 1918, 4304), "ab");
    assert_eq!((ss.rounds, ss.work, ss.stalled), (2554, 2512, 5742), "sss");
}

/// Iterative deepening needs a depth and a depth-first search.
#[test]
fn iterative_simulation_refuses_what_it_cannot_do() {
    let tree = RandomTree::new(RandomSpec::parse("width=3,depth=3,seed=1").unwrap());
    let no_depth = SimOptions {
        iterative: true,
        ..SimOptions::default()
    };
    let e = abdada::simulate(&tree, Algorithm::Mtdf, &no_depth).unwrap_err();
    assert!(e.to_string().contains("needs a depth"), "{e}");
    let e = sss::simulate(
        &tree,
        false,
        &SimOptions {
            depth: Some(3),
            ..no_depth
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("best-first"), "{e}");
}
