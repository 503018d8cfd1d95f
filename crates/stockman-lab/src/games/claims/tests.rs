use super::*;
use stockman::Stats;

/// Two positions at depth 4 with tables of 1 and 16 MiB; the second
/// position's counts are the first's doubled, so every geometric mean is
/// the first position's ratio.
fn records(mt_sss_small: u64) -> Vec<GameRecord> {
    let mut rs = Vec::new();
    for (p, scale) in [("a", 1u64), ("b", 2)] {
        for tt in [1.0, 16.0] {
            for (algo, leaves) in [
                (AB, 110),
                (NS, 100),
                (MTDF, 90),
                (MTSSS, if tt < 16.0 { mt_sss_small } else { 96 }),
                (MTDUAL, 98),
                (BNS, 80),
            ] {
                let job = rs.len() as u64;
                rs.push(GameRecord {
                    job,
                    game: "checkers".into(),
                    position: p.into(),
                    depth: 4,
                    tt_mb: Some(tt),
                    algorithm: algo.into(),
                    value: (algo != BNS).then_some(7),
                    bound: (algo == BNS).then_some((7, 8)),
                    best_move: Some("11-15".into()),
                    error: None,
                    stats: Stats {
                        leaf_evals: leaves * scale,
                        nodes: 2 * leaves * scale,
                        passes: if algo == MTDF { 14 } else { 1 },
                        time_us: 10 * leaves * scale,
                        ..Stats::default()
                    },
                    leaf_positions: None,
                    minimax_positions: None,
                    cpu_us: Some(10 * leaves * scale),
                });
            }
        }
    }
    rs
}

fn figures(mt_sss_small: u64) -> GameFigures {
    load_with(mt_sss_small, &[]).unwrap()
}

fn load_with(mt_sss_small: u64, repeats: &[Vec<GameRecord>]) -> Result<GameFigures, Error> {
    load_all(mt_sss_small, repeats, None)
}

/// A scratch folder of its own (the tests run at once).
fn scratch() -> std::path::PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("stockman-claims-{}-{n}", std::process::id()))
}

/// Writes `rows` as `dir/sub/results.csv`.
fn write_rows(dir: &Path, sub: &str, rows: &[GameRecord]) {
    std::fs::create_dir_all(dir.join(sub)).unwrap();
    crate::games::write_csv(&dir.join(sub).join("results.csv"), rows).unwrap();
}

/// Writes each `(folder, rows)` to a scratch folder and loads the
/// checkers figures from it.
fn load_folders(folders: &[(&str, &[GameRecord])]) -> Result<GameFigures, Error> {
    let dir = scratch();
    for (sub, rows) in folders {
        write_rows(&dir, sub, rows);
    }
    let g = GameFigures::load(&dir, &REPORT_GAMES[3]);
    std::fs::remove_dir_all(&dir).unwrap();
    g
}

/// Loads a grid written to a scratch folder, with repeat runs and a
/// no-horizon run beside it.
fn load_all(
    mt_sss_small: u64,
    repeats: &[Vec<GameRecord>],
    no_horizon: Option<&[GameRecord]>,
) -> Result<GameFigures, Error> {
    let grid = records(mt_sss_small);
    let names: Vec<String> = (0..repeats.len())
        .map(|i| format!("repeats/checkers/run-{}", i + 2))
        .collect();
    let mut folders: Vec<(&str, &[GameRecord])> = vec![("checkers", &grid)];
    folders.extend(names.iter().map(String::as_str).zip(repeats.iter().map(Vec::as_slice)));
    if let Some(rows) = no_horizon {
        folders.push(("no-horizon/checkers", rows));
    }
    load_folders(&folders)
}

#[test]
fn times_are_the_median_of_the_runs_and_repeats_must_be_the_same_searches() {
    assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
    assert_eq!(median(&[4.0, 1.0]), Some(2.5));
    assert_eq!(median(&[]), None);
    // Two more runs: MTD(f) twice as slow in one, as fast as NegaScout in the other.
    let slow: Vec<GameRecord> = records(96)
        .into_iter()
        .map(|mut r| {
            if r.algorithm == MTDF {
                r.cpu_us = r.cpu_us.map(|t| 2 * t);
            }
            r
        })
        .collect();
    let even: Vec<GameRecord> = records(96)
        .into_iter()
        .map(|mut r| {
            if r.algorithm == MTDF {
                r.cpu_us = Some(10 * 100 * if r.position == "a" { 1 } else { 2 });
            }
            r
        })
        .collect();
    let g = load_with(96, &[slow, even]).unwrap();
    assert_eq!(g.time_runs(MTDF), vec![0.9, 1.8, 1.0]);
    assert_eq!(g.vs_negascout(MTDF, Measure::Time), Some(1.0));
    assert_eq!(verdict(&g, "2c"), Some((false, "1.000 vs MT-SSS\\* 0.960".into())));
    // (The median run has MTD(f) as slow as NegaScout: slower than MT-SSS*, so 2c fails.)
    let t = timing(std::slice::from_ref(&g));
    assert!(
        t.contains("| checkers, 4 | MTD(f) | 3 | 1500 us (1350 us-2700 us) | 1.000 (0.900-1.800) |"),
        "{t}"
    );
    // A repeat that is not the same search is an error, not a time.
    let mut other = records(96);
    other[0].stats.leaf_evals += 1;
    let e = load_with(96, &[other]).unwrap_err();
    assert!(
        e.0.contains("repeat run-2: alphabeta+id at a depth 4 is not the grid's search"),
        "{}",
        e.0
    );
}

#[test]
fn time_against_depth_is_the_median_of_the_runs_at_every_depth() {
    // The grid at depths 3 and 4; run 2 repeats both with MTD(f) twice as
    // slow, run 3 repeats depth 4 alone with MTD(f) three times as slow.
    let at = |depth: u32, mtdf: u64| -> Vec<GameRecord> {
        records(96)
            .into_iter()
            .map(|mut r| {
                r.depth = depth;
                if r.algorithm == MTDF {
                    r.cpu_us = r.cpu_us.map(|t| mtdf * t);
                }
                r
            })
            .collect()
    };
    let g = load_folders(&[
        ("checkers", &[at(3, 1), at(4, 1)].concat()),
        ("repeats/checkers/run-2", &[at(3, 2), at(4, 2)].concat()),
        ("repeats/checkers/run-3", &at(4, 3)),
    ])
    .unwrap();
    assert_eq!(g.time_runs_at(MTDF, 3), vec![0.9, 1.8]);
    assert_eq!(g.time_runs_at(MTDF, 4), vec![0.9, 1.8, 2.7]);
    let t = timing_by_depth(std::slice::from_ref(&g));
    assert!(
        t.contains("| checkers | MTD(f) | 2-3 | 3: 1.350 (0.900-1.800), 4: 1.800 (0.900-2.700) |"),
        "{t}"
    );
    assert!(
        t.contains("| checkers | alpha-beta | 2-3 | 3: 1.100 (1.100-1.100), 4: 1.100 (1.100-1.100) |"),
        "{t}"
    );
    assert!(!t.contains("| NegaScout |"), "{t}");
    // A repeat missing a position of the grid gives no ratio at that depth.
    let partial: Vec<GameRecord> = at(4, 2).into_iter().filter(|r| r.position == "a").collect();
    let g = load_folders(&[("checkers", &at(4, 1)), ("repeats/checkers/run-2", &partial)]).unwrap();
    assert_eq!(g.time_runs_at(MTDF, 4), vec![0.9]);
    assert!(timing_by_depth(std::slice::from_ref(&g)).contains("| checkers | MTD(f) | 1 | 4: 0.900 (one run) |"));
    assert_eq!(
        g.mean_time_runs(MTDF).len(),
        1,
        "a repeat short of a position gives no mean time"
    );
    // MTD(f) failed at position b in the grid and in the repeat: the ratio
    // sums the positions where both answered (a alone) in every run.
    let failed = |rows: Vec<GameRecord>| -> Vec<GameRecord> {
        rows.into_iter()
            .map(|mut r| {
                if r.algorithm == MTDF && r.position == "b" {
                    r.error = Some("stopped by --max-nodes 10".into());
                    r.value = None;
                }
                r
            })
            .collect()
    };
    let g = load_folders(&[
        ("checkers", &failed(at(4, 1))),
        ("repeats/checkers/run-2", &failed(at(4, 2))),
    ])
    .unwrap();
    assert_eq!(g.time_runs_at(MTDF, 4), vec![0.9, 1.8]);
    assert_eq!(g.mean_time_runs(MTDF), vec![900.0, 1800.0]);
}

#[test]
fn the_rows_without_the_horizon_table_are_read_against_each_other_and_the_grid() {
    // Nothing stored at the depth limit: NegaScout and MTD(f) 20% more leaves, MT-SSS* 25%.
    let rows: Vec<GameRecord> = records(96)
        .into_iter()
        .filter(|r| r.tt_mb == Some(16.0))
        .map(|mut r| {
            let f = match r.algorithm.as_str() {
                NS => 1.2,
                MTSSS => 1.25,
                MTDF => 1.2,
                _ => 1.0,
            };
            r.stats.leaf_evals = (r.stats.leaf_evals as f64 * f).round() as u64;
            r
        })
        .collect();
    let g = load_all(96, &[], Some(&rows)).unwrap();
    // 96 * 1.25 / 120 = 1; 90 * 1.2 / 120 = 0.9.
    assert_eq!(verdict(&g, "1a''"), Some((true, "1.000".into())));
    assert_eq!(verdict(&g, "2d''"), Some((true, "0.900".into())));
    assert_eq!(verdict(&figures(96), "1a''"), None);
    let h = horizon(std::slice::from_ref(&g));
    assert!(
        h.contains("| checkers, 4 | MT-SSS\\* | 0.960 | 1.000 | 1.250 | 1.000 |"),
        "{h}"
    );
    assert!(
        h.contains("| checkers, 4 | NegaScout | 1.000 | 1.000 | 1.200 | 1.000 |"),
        "{h}"
    );
    // A row whose value is not the grid's is an error.
    let mut wrong = rows.clone();
    wrong[1].value = Some(8);
    let e = load_all(96, &[], Some(&wrong)).unwrap_err();
    assert!(
        e.0.contains("variant no-horizon: negascout+id at a depth 4 misses NegaScout's value 7"),
        "{}",
        e.0
    );
}

#[test]
fn every_table_curve_of_a_game_is_read_and_row_3_prime_takes_the_one_at_its_depth() {
    // The grid's depth (4) and a deeper curve (5) where the small table costs MT-SSS* more.
    let deeper: Vec<GameRecord> = records(120)
        .into_iter()
        .map(|mut r| {
            r.depth = 5;
            r
        })
        .collect();
    let g = load_folders(&[
        ("checkers", &records(96)),
        ("table-curve/checkers", &records(96)),
        ("table-curve/checkers-depth5", &deeper),
        ("table-curve/chess", &deeper), // another game's: not read
    ])
    .unwrap();
    assert_eq!(g.table_curves.len(), 2);
    assert_eq!(g.table_curves[0].depths, vec![4]);
    assert_eq!(g.table_curves[1].depths, vec![5]);
    // Row 3' reads the depth-4 curve: 16 MiB is its largest table.
    assert_eq!(verdict(&g, "3'"), Some((true, "1.000".into())));
    let t = table_curve(std::slice::from_ref(&g));
    assert!(
        t.contains("**checkers, depth 4**") && t.contains("**checkers, depth 5**"),
        "{t}"
    );
    assert!(t.contains("| MT-SSS\\* | 1.200 | 0.960 | 288 |"), "{t}");
}

/// A search of the curve that a node cap stopped is left out of its cell's
/// mean, and the cell says so (the mean understates it).
#[test]
fn a_table_curve_cell_names_its_stopped_searches() {
    let mut curve = records(120);
    let stopped = curve
        .iter_mut()
        .find(|r| r.position == "b" && r.algorithm == MTSSS && r.tt_mb == Some(1.0))
        .unwrap();
    stopped.value = None;
    stopped.error =
        Some("stopped by --max-nodes 240 after visiting 240 positions in depth 4 (depth 3 completed)".into());
    let g = load_folders(&[("checkers", &records(96)), ("table-curve/checkers", &curve)]).unwrap();
    let t = table_curve(std::slice::from_ref(&g));
    // Position a alone: 120 / 100.
    assert!(t.contains("| MT-SSS\\* | 1.200 (1 stopped) | 0.960 | 288 |"), "{t}");
    assert!(t.contains("| NegaScout | 1.000 | 1.000 |"), "{t}");
    assert!(
        t.contains("(N stopped): searches that reached the grid's node cap"),
        "{t}"
    );
    // Without a stopped search, no note.
    let g = figures(96);
    assert!(!table_curve(std::slice::from_ref(&g)).contains("stopped"));
}

fn verdict(g: &GameFigures, id: &str) -> Option<(bool, String)> {
    (CLAIMS.iter().find(|c| c.id == id).unwrap().judge)(g)
}

#[test]
fn each_claim_reads_its_figure_and_applies_its_rule() {
    let g = figures(96);
    assert_eq!(g.depth, 4);
    assert_eq!(g.table_mb, 16.0);
    assert_eq!(verdict(&g, "1a"), Some((true, "0.960".into())));
    assert_eq!(verdict(&g, "1b"), Some((true, "0.873".into())));
    assert_eq!(verdict(&g, "1c"), Some((true, "0.873".into())));
    assert_eq!(verdict(&g, "2a"), Some((true, "0.900 vs MT-SSS\\* 0.960".into())));
    assert_eq!(verdict(&g, "2b"), Some((true, "0.900 vs MT-SSS\\* 0.960".into())));
    assert_eq!(verdict(&g, "2c"), Some((true, "0.900 vs MT-SSS\\* 0.960".into())));
    assert_eq!(verdict(&g, "2d"), Some((true, "0.900".into())));
    assert_eq!(verdict(&g, "2e"), Some((true, "3.50".into())));
    // The same leaves with the small table; then 97 / 96 (1.0104), just past 1%.
    assert_eq!(verdict(&g, "3"), Some((true, "1.000".into())));
    assert_eq!(verdict(&figures(97), "3"), Some((false, "1.010".into())));
    assert_eq!(verdict(&g, "4"), Some((true, "0.800".into())));
    // A small table that costs MT-SSS* 4% more leaves fails claim 3.
    assert_eq!(verdict(&figures(100), "3"), Some((false, "1.042".into())));
    let v = verdicts(std::slice::from_ref(&g));
    assert!(
        v.contains("| 3 a table of fewer than 2^20 entries is enough for MT-SSS\\* |"),
        "{v}"
    );
    assert!(v.contains("| reproduced (1.000) |"), "{v}");
    let d = deepest(&g);
    assert!(
        d.contains("**checkers, depth 4** (2 positions, 16 MiB table, 786,432 entries; times: one run)"),
        "{d}"
    );
    assert!(
        d.contains("| MTD(f) + ID | 135.0 | 270.0 | 1350 us | 14.0 | 0.900 | 0.900 | 0.900 |"),
        "{d}"
    );
}

#[test]
fn a_claim_without_its_rows_says_so() {
    let g = figures(96);
    let mut no_bns = g.clone();
    let i = no_bns.summary.algorithms.iter().position(|a| a == BNS).unwrap();
    for cells in no_bns.summary.cells.values_mut() {
        cells.retain(|&(a, _), _| a != i);
    }
    assert_eq!(verdict(&no_bns, "4"), None);
    assert!(verdicts(&[no_bns]).contains("| no data |"));
}

#[test]
fn blocks_are_filled_and_every_error_is_named() {
    let blocks = vec![
        ("x".to_string(), "new\n".to_string()),
        ("y".to_string(), "same\n".to_string()),
    ];
    let doc = "intro\n<!-- begin generated x -->\nold\n<!-- end generated x -->\nmid\n\
               <!-- begin generated y -->\nsame\n<!-- end generated y -->\nend\n";
    let (out, changed) = fill_blocks(doc, &blocks).unwrap();
    assert_eq!(
        out,
        "intro\n<!-- begin generated x -->\nnew\n<!-- end generated x -->\nmid\n\
         <!-- begin generated y -->\nsame\n<!-- end generated y -->\nend\n"
    );
    assert_eq!(changed, vec!["x".to_string()]);
    assert_eq!(fill_blocks(&out, &blocks).unwrap(), (out.clone(), vec![]));

    let unknown = "a\n\n<!-- begin generated z -->\n<!-- end generated z -->\n";
    assert_eq!(
        fill_blocks(unknown, &blocks).unwrap_err().0,
        "line 3: no generated block named `z`"
    );
    let open = "<!-- begin generated x -->\nold\n";
    assert_eq!(
        fill_blocks(open, &blocks).unwrap_err().0,
        "line 1: block `x` has no `<!-- end generated x -->`"
    );
    let only_x = "<!-- begin generated x -->\n<!-- end generated x -->\n";
    assert_eq!(
        fill_blocks(only_x, &blocks).unwrap_err().0,
        "the document has no generated block `y`"
    );
}
