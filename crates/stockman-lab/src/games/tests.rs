use super::*;

fn rec(job: u64, pos: &str, depth: u32, tt: Option<f64>, algo: &str, leaves: u64, value: Option<i32>) -> GameRecord {
    GameRecord {
        job,
        game: "connect4".into(),
        position: pos.into(),
        depth,
        tt_mb: tt,
        algorithm: algo.into(),
        value,
        bound: None,
        best_move: Some("4".into()),
        error: None,
        stats: Stats {
            leaf_evals: leaves,
            nodes: 2 * leaves,
            passes: 1,
            time_us: 10 * leaves,
            ..Stats::default()
        },
        leaf_positions: None,
        minimax_positions: None,
        cpu_us: None,
    }
}

fn grid() -> Vec<GameRecord> {
    let mut rs = vec![];
    let mut job = 0;
    for (p, v) in [("44", 3), ("4453 x", -2)] {
        for d in [2, 3] {
            let mut m = rec(job, p, d, None, MINIMAL, 4, Some(v));
            m.leaf_positions = Some(3);
            m.minimax_positions = Some(40);
            rs.push(m);
            job += 1;
            for tt in [0.5, 2.0] {
                for (a, l) in [("negascout+id", 10), ("mtdf+id", 8)] {
                    // The small table costs MTD(f) leaves at depth 3.
                    let l = if a == "mtdf+id" && tt < 1.0 && d == 3 { 9 } else { l };
                    rs.push(rec(job, p, d, Some(tt), a, l, Some(v)));
                    job += 1;
                }
            }
            let mut b = rec(job, p, d, Some(2.0), "bns+id", 5, None);
            b.bound = Some((v, v + 1));
            rs.push(b);
            job += 1;
            rs.push(rec(job, p, d, None, "sss", 6, Some(v)));
            job += 1;
        }
    }
    rs
}

#[test]
fn csv_round_trip_and_merge() {
    let dir = std::env::temp_dir().join(format!("stockman-lab-games-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rs = grid();
    let p = dir.join("results.csv");
    write_csv(&p, &rs).unwrap();
    assert!(is_game_csv(&p));
    assert_eq!(read_csv(&p).unwrap(), rs);
    // Two halves merge back to the whole, in job order.
    let (a, b): (Vec<GameRecord>, Vec<GameRecord>) = rs.iter().cloned().partition(|r| r.job % 2 == 0);
    assert_eq!(merge(vec![b, a.clone()]).unwrap(), rs);
    let mut other = a.clone();
    other[0].algorithm = "alphabeta+id".into();
    assert!(merge(vec![a, other]).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn separate_runs_join_with_new_job_numbers_and_a_search_given_twice_is_refused() {
    // Depth 2 and depth 3 run apart: each run numbers its jobs from 0.
    let rs = grid();
    let renumber = |rows: Vec<GameRecord>| -> Vec<GameRecord> {
        rows.into_iter()
            .enumerate()
            .map(|(i, mut r)| {
                r.job = i as u64;
                r
            })
            .collect()
    };
    let shallow = renumber(rs.iter().filter(|r| r.depth == 2).cloned().collect());
    let deep = renumber(rs.iter().filter(|r| r.depth == 3).cloned().collect());
    // Merging them as shards is refused: job 0 means two searches.
    assert!(merge(vec![shallow.clone(), deep.clone()]).is_err());
    let joined = join(vec![
        ("deep.csv".into(), deep.clone()),
        ("shallow.csv".into(), shallow.clone()),
    ])
    .unwrap();
    assert_eq!(joined.len(), rs.len());
    assert!(joined.iter().enumerate().all(|(i, r)| r.job == i as u64));
    assert_eq!(joined[0].identity(), deep[0].identity());
    assert_eq!(joined[deep.len()].identity(), shallow[0].identity());
    // The same search in two files names both.
    let e = join(vec![
        ("a.csv".into(), deep.clone()),
        ("b.csv".into(), deep[1..2].to_vec()),
    ])
    .unwrap_err();
    assert!(
        e.0.contains("b.csv: negascout+id at position 44 depth 3 (0.5 MiB table) is already in a.csv"),
        "{}",
        e.0
    );
    // A search twice inside one file says so.
    let twice = [deep.clone(), deep[1..2].to_vec()].concat();
    let e = join(vec![("a.csv".into(), twice)]).unwrap_err();
    assert!(
        e.0.contains("a.csv: negascout+id at position 44 depth 3 (0.5 MiB table) is given twice in it"),
        "{}",
        e.0
    );
    // Runs of two games are not one grid.
    let mut chess = shallow;
    chess.iter_mut().for_each(|r| r.game = "chess".into());
    let e = join(vec![("c4.csv".into(), deep), ("chess.csv".into(), chess)]).unwrap_err();
    assert!(
        e.0.contains("chess.csv: a chess search, where the runs before it are connect4's"),
        "{}",
        e.0
    );
}

#[test]
fn ratios_settling_and_disagreements() {
    let rs = grid();
    let s = summarize(&rs);
    assert!(s.disagreements.is_empty(), "{:?}", s.disagreements);
    assert_eq!(s.algorithms, vec!["negascout+id", "sss", "mtdf+id", "bns+id"]);
    assert_eq!(s.tables, vec![0.5, 2.0]);
    let big = &s.cells[&Some(2.0f64.to_bits())];
    let mtdf = &big[&(2, 3)];
    assert_eq!(mtdf.leaves_vs_ns, Some(0.8));
    assert!((mtdf.leaves_vs_minimal.unwrap() - 2.0).abs() < 1e-12);
    assert!((mtdf.time_vs_ns.unwrap() - 0.8).abs() < 1e-12);
    // SSS* (no table) is in every section, against that section's NegaScout.
    assert_eq!(s.cells[&Some(0.5f64.to_bits())][&(1, 2)].leaves_vs_ns, Some(0.6));
    // MTD(f)'s counts settle at 2 MiB at depth 3 (still changing), at 0.5 at depth 2.
    assert_eq!(s.settles[&(2, 3)], (2.0, true));
    assert_eq!(s.settles[&(2, 2)], (0.5, false));
    assert!((s.by_table[&(2, 0.5f64.to_bits())] - 0.9).abs() < 1e-12);
    let md = s.markdown();
    assert!(
        md.contains("## Table size") && md.contains("| mtdf+id | 0.5 | 2* |"),
        "{md}"
    );
    assert!(md.contains("## The minimal tree"), "{md}");
    let plots = s.plots().unwrap();
    let names: Vec<&str> = plots.iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"leaves-vs-negascout.svg"), "{names:?}");
    assert_eq!(names.len(), 5, "{names:?}");
    assert!(names.contains(&"leaves-vs-table-size.svg"), "{names:?}");
    assert!(plots.iter().all(|(_, svg)| svg.starts_with("<svg")));
    // A wrong value and a bound that misses are reported.
    let mut bad = rs.clone();
    bad[1].value = Some(99);
    bad[12].bound = Some((50, 60));
    let s = summarize(&bad);
    assert_eq!(s.disagreements.len(), 2, "{:?}", s.disagreements);
    assert!(s.markdown().contains("**The searches disagree:**"));
    // Order does not matter.
    let mut rev = rs.clone();
    rev.reverse();
    assert_eq!(summarize(&rev), summarize(&rs));
    assert_eq!(summarize(&rs[1..]).gaps, 1);
}

#[test]
fn cpu_time_replaces_the_clock_only_when_every_search_has_it() {
    let mut rs = grid();
    assert!(!summarize(&rs).cpu_time);
    // CPU time: NegaScout 100 per search, MTD(f) 50, whatever the clock says.
    for r in rs.iter_mut().filter(|r| !r.is_minimal()) {
        r.cpu_us = Some(if r.algorithm == "mtdf+id" { 50 } else { 100 });
    }
    let s = summarize(&rs);
    assert!(s.cpu_time);
    let mtdf = &s.cells[&Some(2.0f64.to_bits())][&(2, 3)];
    assert!((mtdf.time_vs_ns.unwrap() - 0.5).abs() < 1e-12);
    assert!((mtdf.time_us - 50.0).abs() < 1e-12);
    assert!(s.markdown().contains("CPU times of the searches' threads"));
    // One search without it: back to the clock for every row (0.8, as above).
    rs[1].cpu_us = None;
    let s = summarize(&rs);
    assert!(!s.cpu_time);
    let mtdf = &s.cells[&Some(2.0f64.to_bits())][&(2, 3)];
    assert!((mtdf.time_vs_ns.unwrap() - 0.8).abs() < 1e-12);
    assert!(s.markdown().contains("clock times"));
    // The column survives a round trip through the CSV file.
    let dir = std::env::temp_dir().join(format!("stockman-lab-cpu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("results.csv");
    write_csv(&p, &rs).unwrap();
    assert_eq!(read_csv(&p).unwrap(), rs);
    std::fs::remove_dir_all(&dir).ok();
}
