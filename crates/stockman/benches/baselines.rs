//! The baselines on a width-8 depth-8 random tree (16.7 million leaves),
//! with their leaf counts asserted before timing, perft style.

use criterion::{criterion_group, criterion_main, Criterion};
use stockman::{Algorithm, RandomSpec, RandomTree, SearchOptions};

fn baselines(c: &mut Criterion) {
    let tree = RandomTree::new(RandomSpec::parse("width=8,depth=8,seed=1").unwrap());
    let opts = SearchOptions::default();
    let mut group = c.benchmark_group("baselines w8 d8 iid seed 1");
    group.sample_size(10);
    for (algo, leaves) in [
        (Algorithm::Minimax, 16_777_216),
        (Algorithm::AlphaBeta, 371_239),
        (Algorithm::NegaScout, 322_844),
    ] {
        let out = algo.search(&tree, &opts).unwrap();
        assert_eq!(out.value, Some(194), "{algo}");
        assert_eq!(out.stats.leaf_evals, leaves, "{algo}");
        group.bench_function(algo.name(), |b| b.iter(|| algo.search(&tree, &opts).unwrap()));
    }
    group.finish();
}

criterion_group!(benches, baselines);
criterion_main!(benches);
