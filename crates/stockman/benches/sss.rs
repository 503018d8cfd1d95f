//! SSS\* and its family against alpha-beta, in one run.
//!
//! `cargo bench -p stockman --bench sss` times alpha-beta, SSS\*, Dual\*,
//! RecSSS\*, RecDual\* and MT-SSS\* (for reference) on seeded random trees
//! (width 8 depth 8 seeds 1 to 3, the bar of issue #22, and width 4 depth
//! 12, iid and incremental values), then
//! the same algorithms with an evaluation that costs a microsecond
//! ([`CostlyEval`]) on width 8 depth 6. Before timing anything it checks
//! every algorithm's leaf count against the numbers below, so a change that
//! alters what a search does cannot pass for a speed-up.
//!
//! Criterion's estimates come out one benchmark after another; on a shared
//! machine the load drifts between them, so the run ends with a table of
//! time ratios to alpha-beta measured interleaved (every algorithm once per
//! round, best of several rounds), which is what `docs/performance.md`
//! quotes.

use criterion::{BenchmarkGroup, Criterion};
use std::hint::black_box;
use std::time::{Duration, Instant};
use stockman::{Algorithm, CostlyEval, Game, RandomSpec, RandomTree, SearchOptions};

/// The algorithms timed, alpha-beta first (the ratios' denominator).
const ALGOS: [Algorithm; 6] = [
    Algorithm::AlphaBeta,
    Algorithm::Sss,
    Algorithm::Dual,
    Algorithm::RecSss,
    Algorithm::RecDual,
    Algorithm::MtSss,
];

/// A configuration: a name, a random-tree spec, the evaluation cost in
/// nanoseconds, and the leaves each of [`ALGOS`] evaluates on it.
struct Config {
    name: &'static str,
    spec: &'static str,
    nanos: u64,
    leaves: [u64; 6],
}

const CONFIGS: [Config; 10] = [
    Config {
        name: "w8d8-iid",
        spec: "width=8,depth=8,seed=1",
        nanos: 0,
        leaves: [371_239, 186_108, 284_071, 186_108, 284_071, 186_108],
    },
    Config {
        name: "w8d8-inc",
        spec: "width=8,depth=8,seed=1,model=incremental",
        nanos: 0,
        leaves: [145_545, 38_526, 81_723, 38_526, 81_723, 38_526],
    },
    Config {
        name: "w8d8s2-iid",
        spec: "width=8,depth=8,seed=2",
        nanos: 0,
        leaves: [437_568, 356_205, 307_011, 356_205, 307_011, 356_205],
    },
    Config {
        name: "w8d8s2-inc",
        spec: "width=8,depth=8,seed=2,model=incremental",
        nanos: 0,
        leaves: [54_630, 32_914, 26_786, 32_914, 26_786, 32_914],
    },
    Config {
        name: "w8d8s3-iid",
        spec: "width=8,depth=8,seed=3",
        nanos: 0,
        leaves: [277_394, 205_504, 190_521, 205_504, 190_521, 205_504],
    },
    Config {
        name: "w8d8s3-inc",
        spec: "width=8,depth=8,seed=3,model=incremental",
        nanos: 0,
        leaves: [126_701, 49_042, 67_091, 49_042, 67_091, 49_042],
    },
    Config {
        name: "w4d12-iid",
        spec: "width=4,depth=12,seed=1",
        nanos: 0,
        leaves: [322_694, 226_522, 185_312, 226_522, 185_312, 226_522],
    },
    Config {
        name: "w4d12-inc",
        spec: "width=4,depth=12,seed=1,model=incremental",
        nanos: 0,
        leaves: [241_609, 91_151, 82_961, 91_151, 82_961, 91_151],
    },
    Config {
        name: "w8d6-iid-eval1us",
        spec: "width=8,depth=6,seed=1",
        nanos: 1000,
        leaves: [17_844, 13_885, 13_237, 13_885, 13_237, 13_885],
    },
    Config {
        name: "w8d6-inc-eval1us",
        spec: "width=8,depth=6,seed=1,model=incremental",
        nanos: 1000,
        leaves: [10_376, 2_956, 6_934, 2_956, 6_934, 2_956],
    },
];

fn tree(c: &Config) -> RandomTree {
    RandomTree::new(RandomSpec::parse(c.spec).expect("valid spec"))
}

/// One search, asserting the leaf count; returns the peak OPEN size.
fn search<G: Game>(game: &G, c: &Config, k: usize) -> u64 {
    let out = ALGOS[k]
        .search(game, &SearchOptions::default())
        .expect("search succeeds");
    assert_eq!(
        out.stats.leaf_evals, c.leaves[k],
        "{} on {}: leaf count changed",
        ALGOS[k], c.name
    );
    out.stats.max_open
}

fn bench_config<G: Game>(group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>, game: &G, c: &Config) {
    for (k, algo) in ALGOS.iter().enumerate() {
        search(game, c, k);
        group.bench_function(algo.name(), |b| {
            b.iter(|| {
                algo.search(black_box(game), &SearchOptions::default())
                    .expect("search succeeds")
            })
        });
    }
}

fn benches(crit: &mut Criterion) {
    for c in &CONFIGS {
        let mut group = crit.benchmark_group(c.name);
        group
            .sample_size(20)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
        let t = tree(c);
        if c.nanos == 0 {
            bench_config(&mut group, &t, c);
        } else {
            bench_config(
                &mut group,
                &CostlyEval {
                    game: t,
                    nanos: c.nanos,
                },
                c,
            );
        }
        group.finish();
    }
}

/// Best-of-`rounds` times of every algorithm, interleaved round by round.
fn interleaved<G: Game>(game: &G, c: &Config, rounds: usize) -> ([f64; 6], [u64; 6]) {
    let mut best = [f64::MAX; 6];
    let mut peak = [0; 6];
    for _ in 0..rounds {
        for k in 0..ALGOS.len() {
            let start = Instant::now();
            peak[k] = search(game, c, k);
            best[k] = best[k].min(start.elapsed().as_secs_f64());
        }
    }
    (best, peak)
}

fn ratio_table() {
    println!();
    println!("Interleaved best-of-15 times, and ratios to alpha-beta (peak OPEN in brackets):");
    print!("{:18}", "config");
    for a in ALGOS {
        print!(" {:>20}", a.name());
    }
    println!();
    for c in &CONFIGS {
        let t = tree(c);
        let (best, peak) = if c.nanos == 0 {
            interleaved(&t, c, 15)
        } else {
            interleaved(
                &CostlyEval {
                    game: t,
                    nanos: c.nanos,
                },
                c,
                15,
            )
        };
        print!("{:18}", c.name);
        for k in 0..ALGOS.len() {
            let cell = format!("{:.2}ms x{:.2} [{}]", best[k] * 1e3, best[k] / best[0], peak[k]);
            print!(" {cell:>20}");
        }
        println!();
    }
}

fn main() {
    let mut crit = Criterion::default().configure_from_args();
    benches(&mut crit);
    crit.final_summary();
    let args: Vec<String> = std::env::args().collect();
    let benchmarking = args.iter().any(|a| a == "--bench") && !args.iter().any(|a| a == "--test" || a == "--list");
    if benchmarking {
        ratio_table();
    }
}
