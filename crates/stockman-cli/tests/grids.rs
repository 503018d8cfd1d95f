//! The committed experiment data can be regenerated: a small slice of each
//! grid behind the reports (the first positions at the shallow depths, a few
//! random trees) is run again and every count must equal the committed row.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use stockman::Stats;
use stockman_lab::games::{read_csv, GameRecord};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("stockman-grids-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_stockman"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "stockman {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Counts without the clocks.
fn counts(s: &Stats) -> Stats {
    Stats { time_us: 0, ..*s }
}

type Key = (String, u32, Option<u64>, String);

fn key(r: &GameRecord) -> Key {
    (
        r.position.clone(),
        r.depth,
        r.tt_mb.map(f64::to_bits),
        r.algorithm.clone(),
    )
}

/// The committed rows of `docs/experiments/games/DIR/results.csv`, by search.
fn committed(dir: &str) -> HashMap<Key, GameRecord> {
    read_csv(&root().join("docs/experiments/games").join(dir).join("results.csv"))
        .unwrap()
        .into_iter()
        .map(|r| (key(&r), r))
        .collect()
}

/// Runs `stockman experiment --game GAME` on the first `n` positions of
/// `positions` with `flags`, and compares every row with the committed
/// `docs/experiments/games/DIR/results.csv`. Returns the rows compared.
fn slice(game: &str, dir: &str, positions: &Path, n: usize, flags: &str) -> usize {
    let tmp = scratch(dir.replace('/', "-").as_str());
    let text = std::fs::read_to_string(positions).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(n)
        .collect();
    let file = tmp.join("positions.txt");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let out = tmp.join("out");
    let mut args = vec![
        "experiment",
        "--game",
        game,
        "--positions",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "1",
    ];
    args.extend(flags.split_whitespace());
    run(&args);
    let committed = committed(dir);
    let fresh = read_csv(&out.join("results.csv")).unwrap();
    assert!(!fresh.is_empty());
    for r in &fresh {
        let c = committed
            .get(&key(r))
            .unwrap_or_else(|| panic!("{dir}: no committed row for {:?}", key(r)));
        let at = format!("{dir}: {:?}", key(r));
        assert_eq!(r.value, c.value, "{at}: value");
        assert_eq!(r.bound, c.bound, "{at}: bound");
        assert_eq!(r.best_move, c.best_move, "{at}: best move");
        assert_eq!(r.error, c.error, "{at}: error");
        assert_eq!(counts(&r.stats), counts(&c.stats), "{at}: counts");
        assert_eq!(
            r.leaf_positions, c.leaf_positions,
            "{at}: minimal tree's leaf positions"
        );
    }
    std::fs::remove_dir_all(&tmp).unwrap();
    fresh.len()
}

const ALL: &str = "alphabeta,negascout,mtdf,mt-sss,mt-dual,bns,sss";

#[test]
fn a_slice_of_the_checkers_grid_regenerates() {
    let deck = root().join("crates/stockman/tests/data/checkers/acf-3-move.txt");
    let n = slice(
        "checkers",
        "checkers",
        &deck,
        3,
        &format!("--depths 2..7 --algo {ALL} --iterative --history --tt-mb 0.0625,16 --minimal --minimal-depths 2..4"),
    );
    assert_eq!(n, 3 * 6 * (6 * 2 + 1) + 3 * 3);
}

#[test]
fn a_slice_of_the_connect_four_grid_regenerates() {
    let set = root().join("crates/stockman/tests/data/connect4/Test_L2_R2");
    let n = slice(
        "connect4",
        "connect4",
        &set,
        3,
        &format!("--depths 2..9 --algo {ALL} --iterative --bns-window 0 --tt-mb 1,16 --minimal --minimal-depths 2..4"),
    );
    assert_eq!(n, 3 * 8 * (6 * 2 + 1) + 3 * 3);
}

#[test]
fn a_slice_of_the_othello_grid_regenerates() {
    let ffo = root().join("crates/stockman/tests/data/othello/fforum-40-59.obf");
    let n = slice(
        "othello",
        "othello",
        &ffo,
        2,
        &format!(
            "--depths 1..5 --algo {ALL} --iterative --bns-window 0 --tt-mb 0.0625,16 --minimal --minimal-depths 1..3"
        ),
    );
    assert_eq!(n, 2 * 5 * (6 * 2 + 1) + 2 * 3);
}

#[test]
fn a_slice_of_a_baseline_grid_regenerates() {
    let set = root().join("crates/stockman/tests/data/connect4/Test_L2_R2");
    slice(
        "connect4",
        "baselines/connect4/no-aspiration",
        &set,
        4,
        "--depths 2..12 --algo alphabeta,negascout --iterative --no-aspiration --tt-mb 16",
    );
    slice(
        "connect4",
        "baselines/connect4/w50",
        &set,
        4,
        "--depths 2..12 --algo alphabeta,negascout --iterative --aspiration 50 --tt-mb 16",
    );
}

/// The random-tree grid of Best Node Search: every algorithm on the first
/// three seeds of the width-2 and width-4 shapes to depth 5.
#[test]
fn a_slice_of_the_random_tree_grid_regenerates() {
    let tmp = scratch("bns-random");
    let out = tmp.join("out");
    run(&[
        "experiment",
        "--preset",
        "default",
        "--algo",
        "alphabeta,negascout,sss,dual,mtdf,mtd-bi,bns",
        "--bns-guess",
        "rutko,bisect",
        "--widths",
        "2,4",
        "--depths",
        "2..5",
        "--seeds",
        "3",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    type TreeKey = (String, String, String, u32, u32, u64);
    let k = |r: &stockman_lab::Record| -> TreeKey {
        (
            r.algorithm.clone(),
            r.model.clone(),
            r.order.clone(),
            r.width,
            r.depth,
            r.seed,
        )
    };
    let committed: HashMap<TreeKey, stockman_lab::Record> =
        stockman_lab::record::read_csv(&root().join("docs/experiments/bns-random/results.csv"))
            .unwrap()
            .into_iter()
            .map(|r| (k(&r), r))
            .collect();
    let fresh = stockman_lab::record::read_csv(&out.join("results.csv")).unwrap();
    assert_eq!(fresh.len(), 8 * 2 * 4 * 4 * 3);
    for r in &fresh {
        let c = committed
            .get(&k(r))
            .unwrap_or_else(|| panic!("no committed row for {:?}", k(r)));
        assert_eq!(
            (r.value, r.best_move, &r.error),
            (c.value, c.best_move, &c.error),
            "{:?}",
            k(r)
        );
        assert_eq!(counts(&r.stats), counts(&c.stats), "{:?}", k(r));
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn a_slice_of_the_table_curve_and_of_a_bns_window_grid_regenerates() {
    let deck = root().join("crates/stockman/tests/data/checkers/acf-3-move.txt");
    // The curve's first opening is the deck's first.
    slice(
        "checkers",
        "table-curve/checkers",
        &deck,
        1,
        "--depths 15 --algo negascout,mtdf --iterative --history --tt-mb 4,256",
    );
    // The chess curve's first position is the suite's first (a mate: cheap
    // at depth 6), with the smallest table and the largest.
    let bk = root().join("crates/stockman/tests/data/chess/bratko-kopec.epd");
    slice(
        "chess",
        "table-curve/chess",
        &bk,
        1,
        "--depths 6 --algo negascout,mt-sss --iterative --history --tt-mb 0.015625,256 --max-nodes 50000000",
    );
    // And at depth 7 (its own curve, from 1 MiB), every search of it.
    slice(
        "chess",
        "table-curve/chess-depth7",
        &bk,
        1,
        "--depths 7 --algo negascout,mtdf,mt-sss --iterative --history --tt-mb 1,256 --max-nodes 200000000",
    );
    let set = root().join("crates/stockman/tests/data/connect4/Test_L2_R2");
    slice(
        "connect4",
        "bns-window/connect4/w10",
        &set,
        3,
        "--depths 2..12 --algo bns --iterative --bns-window 10 --tt-mb 16",
    );
}

/// `--no-horizon-table` in a game grid: a slice of the committed
/// `no-horizon/connect4` run regenerates, and those rows are other searches
/// than the grid's, with the same values: most evaluate more leaves (a leaf
/// is evaluated again in every pass or iteration that reaches it).
#[test]
fn a_slice_of_the_no_horizon_grid_regenerates_and_differs_from_the_grid() {
    let set = root().join("crates/stockman/tests/data/connect4/Test_L2_R2");
    let n = slice(
        "connect4",
        "no-horizon/connect4",
        &set,
        3,
        "--depths 2..12 --algo alphabeta,negascout,mtdf,mt-sss,mt-dual,bns --iterative --bns-window 0 --no-horizon-table --tt-mb 16",
    );
    assert_eq!(n, 3 * 11 * 6);
    let grid = committed("connect4");
    let (mut more, mut compared) = (0, 0);
    for r in committed("no-horizon/connect4").into_values() {
        let g = &grid[&key(&r)];
        assert_eq!(
            (r.value, r.error.is_some()),
            (g.value, g.error.is_some()),
            "{:?}",
            key(&r)
        );
        // Not every search: the table's moves and enhanced transposition
        // cutoffs differ between the two, so a few searches get cheaper.
        if r.algorithm != "bns+id" && r.error.is_none() {
            more += usize::from(r.stats.leaf_evals > g.stats.leaf_evals);
            compared += 1;
        }
    }
    assert!(
        more * 10 > compared * 9,
        "{more} of {compared} searches evaluate more leaves without the horizon"
    );
}

/// `experiment claims`: `--check` passes on the committed report, fails
/// with exit 1 naming the block when a generated figure was edited by
/// hand, and rewrites it without `--check`; an unknown block is an error.
#[test]
fn claims_checks_and_rewrites_the_report() {
    let grids = root().join("docs/experiments/games");
    let random = root().join("docs/experiments/bns-random");
    let report = std::fs::read_to_string(root().join("docs/experiments/real-games.md")).unwrap();
    let tmp = scratch("claims");
    let doc = tmp.join("report.md");
    let claims = |extra: &[&str]| {
        let mut args = vec![
            "experiment",
            "claims",
            "--grids",
            grids.to_str().unwrap(),
            "--random",
            random.to_str().unwrap(),
            "--doc",
            doc.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        Command::new(env!("CARGO_BIN_EXE_stockman"))
            .args(&args)
            .output()
            .unwrap()
    };
    std::fs::write(&doc, &report).unwrap();
    let out = claims(&["--check"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    // A figure of the verdict table edited by hand.
    let at = report.find("<!-- begin generated verdicts -->").unwrap();
    let edited = format!(
        "{}{}",
        &report[..at],
        report[at..].replacen("reproduced (", "reproduced (9", 1)
    );
    std::fs::write(&doc, &edited).unwrap();
    let out = claims(&["--check"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("these generated blocks differ from the data: verdicts"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&doc).unwrap(),
        edited,
        "--check changed the file"
    );
    assert!(claims(&[]).status.success());
    assert_eq!(std::fs::read_to_string(&doc).unwrap(), report);

    // A block the data do not give.
    std::fs::write(
        &doc,
        format!("{report}\n<!-- begin generated nonsense -->\n<!-- end generated nonsense -->\n"),
    )
    .unwrap();
    let out = claims(&["--check"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no generated block named `nonsense`"), "{err}");
    // A document that is not there is named, before any grid is read.
    std::fs::remove_file(&doc).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_stockman"))
        .args([
            "experiment",
            "claims",
            "--grids",
            "/nonexistent-grids",
            "--doc",
            doc.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("reading {}", doc.display())), "{err}");
    std::fs::remove_dir_all(&tmp).unwrap();
}

#[test]
fn a_slice_of_the_chess_grids_regenerates() {
    let bk = root().join("crates/stockman/tests/data/chess/bratko-kopec.epd");
    let n = slice(
        "chess",
        "chess",
        &bk,
        2,
        &format!("--depths 1..3 --algo {ALL} --iterative --history --bns-window 0 --tt-mb 0.0625,16 --minimal --minimal-depths 1..2"),
    );
    assert_eq!(n, 2 * 3 * (6 * 2 + 1) + 2 * 2);
    // Best Node Search with a window of half-width 10 on the same grid.
    let n = slice(
        "chess",
        "bns-window/chess/w10",
        &bk,
        2,
        "--depths 1..4 --algo bns --iterative --history --bns-window 10 --tt-mb 16 --max-nodes 50000000",
    );
    assert_eq!(n, 2 * 4);
}
