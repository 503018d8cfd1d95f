//! Each move-ordering enhancement on and off, on Connect Four middle games:
//! iterative deepening to a fixed depth over positions of Pons' Test_L2_R2
//! set, with the heuristic evaluation at the horizon.
//!
//! ```text
//! cargo bench -p stockman --bench enhancements            # 50 positions, depth 12
//! ENH_POSITIONS=100 ENH_DEPTH=14 ENH_ROUNDS=3 cargo bench -p stockman --bench enhancements
//! ```
//! Prints a Markdown table per algorithm: total positions visited (exact,
//! the same on every machine) and time (the best of `ENH_ROUNDS` rounds,
//! the configurations taken round robin so that a change of load hits all
//! of them alike). One 64 MiB table serves every search, cleared before each
//! position (its memory is touched once, before the first measurement).

use std::time::{Duration, Instant};
use stockman::{Algorithm, AnyTable, ConnectFour, Heuristics, SearchOptions, Table, TableSize};
use stockman::{Enhancements, Limits};

const SET: &str = include_str!("../tests/data/connect4/Test_L2_R2");

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The configurations compared: the table's move alone, each enhancement
/// added to it, and all together.
fn configs() -> Vec<(&'static str, SearchOptions)> {
    let base = SearchOptions {
        table: TableSize::Megabytes(64),
        enhancements: Enhancements {
            table_move_first: true,
            ..Default::default()
        },
        ..SearchOptions::default()
    };
    vec![
        (
            "none (no table move)",
            SearchOptions {
                enhancements: Enhancements {
                    table_move_first: false,
                    ..base.enhancements
                },
                ..base.clone()
            },
        ),
        ("table move", base.clone()),
        (
            "+ history",
            SearchOptions {
                enhancements: Enhancements {
                    history: true,
                    ..base.enhancements
                },
                ..base.clone()
            },
        ),
        (
            "+ killers",
            SearchOptions {
                enhancements: Enhancements {
                    killers: true,
                    ..base.enhancements
                },
                ..base.clone()
            },
        ),
        (
            "+ ETC",
            SearchOptions {
                enhancements: Enhancements {
                    etc: true,
                    ..base.enhancements
                },
                ..base.clone()
            },
        ),
        (
            "+ aspiration 10",
            SearchOptions {
                enhancements: Enhancements {
                    aspiration: Some(10),
                    ..base.enhancements
                },
                ..base.clone()
            },
        ),
        (
            "+ history, killers",
            SearchOptions {
                enhancements: Enhancements {
                    history: true,
                    killers: true,
                    ..base.enhancements
                },
                ..base.clone()
            },
        ),
        ("all", SearchOptions::engine(Some(10))),
    ]
}

fn main() {
    let n = env("ENH_POSITIONS", 50);
    let depth = env("ENH_DEPTH", 12) as u32;
    let rounds = env("ENH_ROUNDS", 1).max(1);
    let games: Vec<ConnectFour> = SET
        .lines()
        .take(n)
        .map(|l| {
            ConnectFour::from_moves(l.split_whitespace().next().unwrap())
                .unwrap()
                .with_heuristic()
        })
        .collect();
    let mut table = AnyTable::new(TableSize::Megabytes(64));
    // Touch the table's memory before any clock runs.
    table.clear();
    for g in &games[..1] {
        let _ = Algorithm::AlphaBeta
            .with_options(&SearchOptions {
                limits: Limits {
                    depth: Some(depth),
                    ..configs()[1].1.limits
                },
                ..configs()[1].1.clone()
            })
            .deepen()
            .table(&mut table)
            .run(g);
    }
    println!("Connect Four, first {n} positions of Test_L2_R2, iterative deepening to depth {depth}, 64 MiB table\n");
    for algo in [
        Algorithm::AlphaBeta,
        Algorithm::NegaScout,
        Algorithm::Mtdf,
        Algorithm::MtdBi,
    ] {
        let cfgs = configs();
        let mut nodes = vec![0u64; cfgs.len()];
        let mut best = vec![Duration::MAX; cfgs.len()];
        let mut values: Vec<Vec<Option<i32>>> = vec![Vec::new(); cfgs.len()];
        for round in 0..rounds {
            for (c, (_, cfg)) in cfgs.iter().enumerate() {
                let o = SearchOptions {
                    limits: Limits {
                        depth: Some(depth),
                        ..cfg.limits
                    },
                    ..cfg.clone()
                };
                let mut total = 0;
                let mut time = Duration::ZERO;
                for g in &games {
                    table.clear();
                    let start = Instant::now();
                    let out = algo
                        .with_options(&o)
                        .deepen()
                        .table(&mut table)
                        .heuristics(&mut Heuristics::new())
                        .run(g)
                        .unwrap();
                    time += start.elapsed();
                    total += out.stats.nodes;
                    if round == 0 {
                        values[c].push(out.value);
                    }
                }
                nodes[c] = total;
                best[c] = best[c].min(time);
            }
        }
        for v in &values[1..] {
            assert_eq!(v, &values[0], "{algo}: an enhancement changed a value");
        }
        println!("### {algo}\n");
        println!("| enhancements | positions visited | vs table move | time | vs table move |");
        println!("|---|---:|---:|---:|---:|");
        for (c, (name, _)) in cfgs.iter().enumerate() {
            println!(
                "| {name} | {} | {:.3} | {:.1} ms | {:.3} |",
                nodes[c],
                nodes[c] as f64 / nodes[1] as f64,
                best[c].as_secs_f64() * 1e3,
                best[c].as_secs_f64() / best[1].as_secs_f64()
            );
        }
        println!();
    }
}
