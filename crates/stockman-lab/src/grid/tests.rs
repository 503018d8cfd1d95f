//! The grid's tests: TOML files, presets, overrides, jobs and shards.

use super::*;

fn small() -> Grid {
    Grid::from_toml(
        r#"
        algorithms = ["alphabeta", "sss"]
        widths = [2, 3]
        depths = [2, 4, 5]
        models = ["iid", "incremental"]
        orders = ["random", 0.9]
        seeds = 3
        seed = 10
        "#,
    )
    .unwrap()
}

/// BNS runs once per guess, its rows named by the guess; the grid file
/// keeps the guesses.
#[test]
fn bns_runs_once_per_guess() {
    let mut g = Grid::from_toml(
        r#"
        algorithms = ["alphabeta", "bns"]
        widths = [3]
        depths = [2]
        models = ["iid"]
        seeds = 2
        bns_guesses = ["rutko", "bisect"]
        "#,
    )
    .unwrap();
    let labels: Vec<String> = g.jobs().iter().map(|j| j.label()).collect();
    assert_eq!(
        labels,
        ["alphabeta", "bns", "bns-bisect", "alphabeta", "bns", "bns-bisect"]
    );
    assert_eq!(g.job_count(), 6);
    assert_eq!(Grid::from_toml(&g.to_toml()).unwrap(), g);
    g.apply(&Overrides {
        bns_guesses: Some("bisect".into()),
        ..Overrides::default()
    })
    .unwrap();
    assert_eq!(g.jobs()[1].label(), "bns-bisect");
    assert!(!g.to_toml().contains("rutko"));
    assert!(g
        .apply(&Overrides {
            bns_guesses: Some("median".into()),
            ..Overrides::default()
        })
        .is_err());
}

#[test]
fn expansion_is_the_full_product_in_a_fixed_order() {
    let g = small();
    let jobs = g.jobs();
    assert_eq!(jobs.len() as u64, g.job_count());
    assert_eq!(jobs.len(), 2 * 2 * 3 * 2 * 2 * 3);
    for (i, j) in jobs.iter().enumerate() {
        assert_eq!(j.index, i as u64);
    }
    // Algorithms innermost, then seeds, ...; depth outermost.
    assert_eq!(jobs[0].algorithm, Algorithm::AlphaBeta);
    assert_eq!(jobs[1].algorithm, Algorithm::Sss);
    assert_eq!(jobs[0].tree, jobs[1].tree);
    assert_eq!(jobs[2].tree.seed, 11);
    assert_eq!(jobs[0].tree.seed, 10);
    assert_eq!(jobs[6].tree.order, Order::Best(0.9));
    assert_eq!(jobs[12].tree.model, ValueModel::Incremental);
    assert_eq!(jobs[24].tree.width, 3);
    assert!(jobs[..48].iter().all(|j| j.tree.depth == 2));
    assert!(jobs[48..96].iter().all(|j| j.tree.depth == 4));
    // Every combination exactly once.
    let mut keys: Vec<String> = jobs
        .iter()
        .map(|j| format!("{:?}", (j.algorithm, j.tree.spec().to_string())))
        .collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), jobs.len());
}

#[test]
fn shards_are_disjoint_and_complete() {
    let g = small();
    let all = g.jobs();
    for n in 1..=7u32 {
        let mut seen = vec![0u32; all.len()];
        for k in 1..=n {
            let s: Shard = format!("{k}/{n}").parse().unwrap();
            let part = g.shard_jobs(Some(s));
            let sizes = (all.len() as u32).div_ceil(n);
            assert!(part.len() as u32 <= sizes);
            for j in part {
                assert_eq!(all[j.index as usize], j);
                seen[j.index as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&c| c == 1), "shards of {n} overlap or miss a job");
    }
    assert!("0/3".parse::<Shard>().is_err());
    assert!("4/3".parse::<Shard>().is_err());
    assert!("1/0".parse::<Shard>().is_err());
    assert!("x".parse::<Shard>().is_err());
}

#[test]
fn toml_round_trip_overrides_and_errors() {
    let g = small();
    assert_eq!(Grid::from_toml(&g.to_toml()).unwrap(), g);
    let mut h = g.clone();
    h.apply(&Overrides {
        algorithms: Some("sss,dual".into()),
        depths: Some("1..3".into()),
        orders: Some("random".into()),
        seeds: Some(2),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(h.algorithms, vec![Algorithm::Sss, Algorithm::Dual]);
    assert_eq!(h.depths, vec![1, 2, 3]);
    assert_eq!(h.orders, vec![Order::Random]);
    assert_eq!(h.job_count(), 2 * 2 * 3 * 2 * 2);
    assert!(Grid::from_toml("algorithms = [\"nope\"]\nwidths=[2]\ndepths=[2]\nmodels=[\"iid\"]\nseeds=1").is_err());
    assert!(
        Grid::from_toml("algorithms = [\"sss\"]\nwidths=[2]\ndepths=[2]\nmodels=[\"iid\"]\nseeds=1\nbogus=2").is_err()
    );
    assert!(h
        .apply(&Overrides {
            orders: Some("1.5".into()),
            ..Default::default()
        })
        .is_err());
    assert_eq!(parse_numbers("2..4,7").unwrap(), vec![2, 3, 4, 7]);
    assert!(parse_numbers("4..2").is_err());
}

#[test]
fn presets_parse() {
    for p in PRESETS {
        let g = preset(p.name).unwrap();
        assert!(g.job_count() > 0, "{}", p.name);
    }
    assert!(preset("nope").is_err());
}

#[test]
fn minimal_tree() {
    assert_eq!(minimal_leaves(3, 2), 5.0);
    assert_eq!(minimal_leaves(2, 4), 7.0);
    assert_eq!(minimal_leaves(4, 3), 16.0 + 4.0 - 1.0);
    assert_eq!(minimal_leaves(8, 0), 1.0);
}

#[test]
fn rsearch_runs_once_per_memory() {
    let mut g = Grid::from_toml(
        r#"
        algorithms = ["sss", "rsearch"]
        widths = [2]
        depths = [2]
        models = ["iid"]
        seeds = 1
        memories = [0, 64, 0]
        "#,
    )
    .unwrap();
    let labels: Vec<String> = g.jobs().iter().map(|j| j.label()).collect();
    assert_eq!(labels, ["sss", "rsearch-m0", "rsearch-m64"]);
    assert_eq!(Grid::from_toml(&g.to_toml()).unwrap(), g);
    g.apply(&Overrides {
        memories: Some("1..3".into()),
        ..Overrides::default()
    })
    .unwrap();
    assert_eq!(g.job_count(), 4);
    assert!(g
        .apply(&Overrides {
            memories: Some("a lot".into()),
            ..Overrides::default()
        })
        .is_err());
    g.memories.clear();
    assert_eq!(g.jobs()[1].label(), "rsearch");
    assert!(!g.to_toml().contains("memories"));
}
