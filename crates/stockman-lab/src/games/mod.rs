//! Game grids (`stockman experiment --game G --positions F`): every
//! algorithm at every depth (and table size) on every test position, as in
//! Plaat, Schaeffer, Pijls and de Bruin's figures. This module holds what
//! does not depend on the game: the rows ([`GameRecord`]) and their CSV
//! form, sharding and merging, the check that the searches agree, and the
//! summary and plots relative to NegaScout and to the minimal tree. The
//! command line runs the searches.

use crate::record::{stats_columns, write_atomic};
use crate::report::{plot_lines, Axes, Series};
use crate::Error;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use stockman::{Algorithm, Stats, Value};

/// NegaScout's mean time below which no time ratio is given: shorter
/// searches measure the clock and the scheduler more than the search.
pub const MIN_TIME_US: f64 = 100.0;

/// The name of the rows that hold a position's minimal tree.
pub const MINIMAL: &str = "minimal-tree";

/// One row of a game grid: a search, or a position's minimal tree.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The job's number: its place in the unsharded grid.
    pub job: u64,
    /// `connect4`, `othello`, `chess`...
    pub game: String,
    /// The position, as the positions file gives it.
    pub position: String,
    /// The depth in plies.
    pub depth: u32,
    /// The transposition table's size in MiB; `None` for searches without a
    /// table (SSS\* with its OPEN list) and for the minimal tree.
    pub tt_mb: Option<f64>,
    /// `negascout+id` (iterative deepening), `sss`, [`MINIMAL`]...
    pub algorithm: String,
    /// The root's value (none for BNS and for a search that stopped).
    pub value: Option<Value>,
    /// BNS's final bounds: `low <= value < high`.
    pub bound: Option<(Value, Value)>,
    /// The best move, in the game's notation.
    pub best_move: Option<String>,
    /// Why the search stopped without an answer.
    pub error: Option<String>,
    /// Every counter. For the minimal tree: its leaves (`leaf_evals`) and
    /// nodes (`nodes`), and the time the full minimax took.
    pub stats: Stats,
    /// The minimal tree's distinct leaf positions (its rows only).
    pub leaf_positions: Option<u64>,
    /// The distinct positions the full minimax visited (minimal-tree rows only).
    pub minimax_positions: Option<u64>,
    /// The CPU time the search's thread spent, in microseconds (the
    /// `time_us` counter is wall-clock time); `None` in files written before
    /// the column existed. The summary's time ratios use it when every row
    /// compared has it: a busy machine then slows a search's clock but not
    /// its CPU time.
    pub cpu_us: Option<u64>,
}

impl GameRecord {
    /// Whether this row is a minimal tree rather than a search.
    pub fn is_minimal(&self) -> bool {
        self.algorithm == MINIMAL
    }

    /// The row's place in a (position, depth, table, algorithm) grid, for
    /// checking that shards come from the same grid.
    fn identity(&self) -> (&str, &str, u32, Option<u64>, &str) {
        (
            &self.game,
            &self.position,
            self.depth,
            self.tt_mb.map(f64::to_bits),
            &self.algorithm,
        )
    }
}

/// The columns before the counters.
const KEY_COLUMNS: [&str; 11] = [
    "job",
    "game",
    "position",
    "depth",
    "tt_mb",
    "algorithm",
    "value",
    "bound_low",
    "bound_high",
    "best_move",
    "error",
];

/// The columns after the counters (minimal-tree rows).
const EXTRA_COLUMNS: [&str; 3] = ["leaf_positions", "minimax_positions", "cpu_us"];

/// The header row of a game grid's results file.
pub fn header() -> Vec<String> {
    KEY_COLUMNS
        .iter()
        .map(|s| s.to_string())
        .chain(stats_columns())
        .chain(EXTRA_COLUMNS.iter().map(|s| s.to_string()))
        .collect()
}

/// A table size as the files write it: `16`, `0.25`.
pub fn fmt_mb(mb: f64) -> String {
    format!("{mb}")
}

fn fields(r: &GameRecord) -> Vec<String> {
    fn opt<T: ToString>(v: Option<T>) -> String {
        v.map_or(String::new(), |v| v.to_string())
    }
    let mut out = vec![
        r.job.to_string(),
        r.game.clone(),
        r.position.clone(),
        r.depth.to_string(),
        r.tt_mb.map_or(String::new(), fmt_mb),
        r.algorithm.clone(),
        opt(r.value),
        opt(r.bound.map(|b| b.0)),
        opt(r.bound.map(|b| b.1)),
        r.best_move.clone().unwrap_or_default(),
        r.error.clone().unwrap_or_default(),
    ];
    let s = serde_json::to_value(r.stats).expect("Stats serializes");
    for c in stats_columns() {
        out.push(s[c.as_str()].to_string());
    }
    out.push(opt(r.leaf_positions));
    out.push(opt(r.minimax_positions));
    out.push(opt(r.cpu_us));
    out
}

/// Writes rows to a new results file (header first), atomically.
pub fn write_csv(path: &Path, records: &[GameRecord]) -> Result<(), Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header()).map_err(|e| Error::csv(path, e))?;
    for r in records {
        w.write_record(fields(r)).map_err(|e| Error::csv(path, e))?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::new(format!("{}: {e}", path.display())))?;
    write_atomic(path, &bytes)
}

/// Whether `path` is a game grid's results file (it has a `position` column).
pub fn is_game_csv(path: &Path) -> bool {
    csv::Reader::from_path(path)
        .ok()
        .and_then(|mut r| r.headers().ok().map(|h| h.iter().any(|c| c == "position")))
        .unwrap_or(false)
}

/// Reads a results file written by [`write_csv`].
pub fn read_csv(path: &Path) -> Result<Vec<GameRecord>, Error> {
    let mut rd = csv::Reader::from_path(path).map_err(|e| Error::csv(path, e))?;
    let headers = rd.headers().map_err(|e| Error::csv(path, e))?.clone();
    let col: HashMap<&str, usize> = headers.iter().enumerate().map(|(i, h)| (h, i)).collect();
    for k in KEY_COLUMNS {
        if !col.contains_key(k) {
            return Err(Error::new(format!(
                "{}: no `{k}` column: not a game grid's results file",
                path.display()
            )));
        }
    }
    let mut out = Vec::new();
    for (line, rec) in rd.records().enumerate() {
        let rec = rec.map_err(|e| Error::csv(path, e))?;
        let at = || format!("{}: row {}", path.display(), line + 2);
        let get = |k: &str| col.get(k).and_then(|&i| rec.get(i)).unwrap_or("").trim();
        fn num<T: std::str::FromStr>(s: &str, k: &str, at: &dyn Fn() -> String) -> Result<T, Error> {
            s.parse()
                .map_err(|_| Error::new(format!("{}: `{k}` = `{s}` is not a number", at())))
        }
        fn optnum<T: std::str::FromStr>(s: &str, k: &str, at: &dyn Fn() -> String) -> Result<Option<T>, Error> {
            if s.is_empty() {
                Ok(None)
            } else {
                num(s, k, at).map(Some)
            }
        }
        let mut stats = serde_json::to_value(Stats::default()).expect("Stats serializes");
        for c in stats_columns() {
            let v: u64 = optnum(get(&c), &c, &at)?.unwrap_or(0);
            stats[c.as_str()] = serde_json::Value::from(v);
        }
        let stats: Stats = serde_json::from_value(stats).map_err(|e| Error::new(format!("{}: {e}", at())))?;
        let low: Option<Value> = optnum(get("bound_low"), "bound_low", &at)?;
        let high: Option<Value> = optnum(get("bound_high"), "bound_high", &at)?;
        let text = |k: &str| (!get(k).is_empty()).then(|| get(k).to_string());
        out.push(GameRecord {
            job: num(get("job"), "job", &at)?,
            game: get("game").to_string(),
            position: get("position").to_string(),
            depth: num(get("depth"), "depth", &at)?,
            tt_mb: optnum(get("tt_mb"), "tt_mb", &at)?,
            algorithm: get("algorithm").to_string(),
            value: optnum(get("value"), "value", &at)?,
            bound: low.zip(high),
            best_move: text("best_move"),
            error: text("error"),
            stats,
            leaf_positions: optnum(get("leaf_positions"), "leaf_positions", &at)?,
            minimax_positions: optnum(get("minimax_positions"), "minimax_positions", &at)?,
            cpu_us: optnum(get("cpu_us"), "cpu_us", &at)?,
        });
    }
    Ok(out)
}

/// Combines the rows of several files: sorted by job, a job given twice
/// kept once. Fails if two files disagree on what a job number means.
pub fn merge(sets: Vec<Vec<GameRecord>>) -> Result<Vec<GameRecord>, Error> {
    let mut all: Vec<GameRecord> = sets.into_iter().flatten().collect();
    all.sort_by_key(|r| r.job);
    let mut out: Vec<GameRecord> = Vec::with_capacity(all.len());
    for r in all {
        if let Some(last) = out.last() {
            if last.job == r.job {
                if last.identity() != r.identity() {
                    return Err(Error::new(format!(
                        "job {} is {:?} in one file and {:?} in another: the files come from different grids",
                        r.job,
                        last.identity(),
                        r.identity()
                    )));
                }
                continue;
            }
        }
        out.push(r);
    }
    Ok(out)
}

/// Every row that found a value at a position and depth found the same
/// one (the minimal tree's full minimax included), and every BNS bound
/// holds it. Returns the disagreements.
pub fn check_agreement(records: &[GameRecord]) -> Vec<String> {
    let mut by: BTreeMap<(&str, u32), Vec<&GameRecord>> = BTreeMap::new();
    for r in records {
        by.entry((r.position.as_str(), r.depth)).or_default().push(r);
    }
    let mut out = Vec::new();
    for ((pos, depth), rs) in by {
        let values: Vec<(&GameRecord, Value)> = rs.iter().filter_map(|r| r.value.map(|v| (*r, v))).collect();
        let Some(&(first, v)) = values.first() else { continue };
        let name = |r: &GameRecord| match r.tt_mb {
            Some(mb) => format!("{} ({} MiB)", r.algorithm, fmt_mb(mb)),
            None => r.algorithm.clone(),
        };
        if let Some((r, w)) = values.iter().find(|(_, w)| *w != v) {
            out.push(format!(
                "position {pos} depth {depth}: {} found {w}, {} found {v}",
                name(r),
                name(first)
            ));
        }
        for r in rs.iter().filter(|r| r.bound.is_some()) {
            let (lo, hi) = r.bound.expect("filtered");
            if !(lo <= v && v < hi) {
                out.push(format!(
                    "position {pos} depth {depth}: {} bound [{lo}, {hi}) misses {v}",
                    name(r)
                ));
            }
        }
    }
    out
}

/// The rank of an algorithm's row name in the registry (`mtdf+id` as `mtdf`),
/// the minimal tree last.
fn rank(name: &str) -> (usize, String) {
    let base = name.strip_suffix("+id").unwrap_or(name);
    let i = base
        .parse::<Algorithm>()
        .ok()
        .and_then(|a| Algorithm::ALL.iter().position(|&b| b == a))
        .unwrap_or(usize::MAX);
    (i, name.to_string())
}

/// Geometric mean of positive ratios, `None` if there are none.
fn geomean(xs: &[f64]) -> Option<f64> {
    let logs: Vec<f64> = xs.iter().filter(|&&x| x > 0.0).map(|x| x.ln()).collect();
    (!logs.is_empty()).then(|| (logs.iter().sum::<f64>() / logs.len() as f64).exp())
}

/// One algorithm at one depth with one table, over the positions.
#[derive(Clone, Debug, PartialEq)]
pub struct GameCell {
    /// Searches that finished.
    pub searches: usize,
    /// Searches that stopped at a limit (left out of everything else).
    pub failed: usize,
    /// Mean leaves evaluated.
    pub leaves: f64,
    /// Mean positions visited.
    pub nodes: f64,
    /// Mean time in microseconds.
    pub time_us: f64,
    /// Mean passes over the root.
    pub passes: f64,
    /// Geometric mean over positions of leaves / NegaScout's leaves.
    pub leaves_vs_ns: Option<f64>,
    /// Geometric mean over positions of nodes / NegaScout's nodes.
    pub nodes_vs_ns: Option<f64>,
    /// Total time over the positions / NegaScout's total time (a ratio of
    /// sums: single searches may take microseconds), where NegaScout took
    /// at least [`MIN_TIME_US`] on average.
    pub time_vs_ns: Option<f64>,
    /// Geometric mean over positions of leaves / the minimal tree's leaves.
    pub leaves_vs_minimal: Option<f64>,
    /// The same per-position ratio's smallest and largest values.
    pub leaves_vs_minimal_range: Option<(f64, f64)>,
}

/// The minimal trees of one depth.
#[derive(Clone, Debug, PartialEq)]
pub struct MinimalCell {
    /// Positions whose minimal tree was computed.
    pub positions: usize,
    /// Positions where the full minimax passed the cap.
    pub capped: usize,
    /// Mean leaves of the minimal tree.
    pub leaves: f64,
    /// Mean distinct leaf positions of the minimal tree.
    pub leaf_positions: f64,
    /// Mean distinct positions of the full minimax.
    pub minimax_positions: f64,
}

/// Everything the summary and the plots of a game grid show.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// The games of the rows (one, normally).
    pub games: Vec<String>,
    /// Distinct positions.
    pub positions: usize,
    /// Rows.
    pub rows: usize,
    /// Depths, ascending.
    pub depths: Vec<u32>,
    /// Table sizes in MiB, ascending (empty if no search used a table).
    pub tables: Vec<f64>,
    /// Algorithms (row names), in registry order.
    pub algorithms: Vec<String>,
    /// Per table size (`None`: no search used a table), per (algorithm, depth).
    /// The searches without a table appear under every size.
    pub cells: BTreeMap<Option<u64>, BTreeMap<(usize, u32), GameCell>>,
    /// The minimal trees, per depth.
    pub minimal: BTreeMap<u32, MinimalCell>,
    /// Per (algorithm, depth): the smallest table size from which every
    /// position's leaf and node counts equal those with the largest table,
    /// and whether they still changed between the two largest sizes.
    pub settles: BTreeMap<(usize, u32), (f64, bool)>,
    /// Per (algorithm, table size) at the deepest depth: the geometric mean
    /// over positions of leaves / NegaScout's leaves with the largest table.
    pub by_table: BTreeMap<(usize, u64), f64>,
    /// The disagreements ([`check_agreement`]).
    pub disagreements: Vec<String>,
    /// Job numbers missing below the largest one.
    pub gaps: u64,
    /// Whether the times are the searches' CPU times (every search row has
    /// `cpu_us`) rather than the clock's.
    pub cpu_time: bool,
}

/// Summarises a game grid's rows (of a whole run or of merged shards: the
/// same rows give the same summary whatever their order).
pub fn summarize(records: &[GameRecord]) -> GameSummary {
    let mut records: Vec<&GameRecord> = records.iter().collect();
    records.sort_by_key(|r| r.job);
    let mut names: Vec<String> = records
        .iter()
        .filter(|r| !r.is_minimal())
        .map(|r| r.algorithm.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    names.sort_by_key(|n| rank(n));
    let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    let depths: Vec<u32> = records
        .iter()
        .map(|r| r.depth)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let table_bits: BTreeSet<u64> = records.iter().filter_map(|r| r.tt_mb.map(f64::to_bits)).collect();
    let mut tables: Vec<f64> = table_bits.iter().map(|&b| f64::from_bits(b)).collect();
    tables.sort_by(f64::total_cmp);
    let sections: Vec<Option<u64>> = if tables.is_empty() {
        vec![None]
    } else {
        tables.iter().map(|t| Some(t.to_bits())).collect()
    };
    let largest = tables.last().map(|t| t.to_bits());

    // Finished searches by (position, depth, table bits or None, algorithm).
    type At<'a> = (&'a str, u32);
    // Time: the thread's CPU time where every search has it, else the clock.
    let cpu_time = records.iter().filter(|r| !r.is_minimal()).all(|r| r.cpu_us.is_some());
    let time_of = |r: &GameRecord| -> u64 {
        match r.cpu_us {
            Some(c) if cpu_time => c,
            _ => r.stats.time_us,
        }
    };
    let mut ok: HashMap<(At, Option<u64>, usize), &GameRecord> = HashMap::new();
    let mut minimal: HashMap<At, &GameRecord> = HashMap::new();
    for r in &records {
        if r.error.is_some() {
            continue;
        }
        let at = (r.position.as_str(), r.depth);
        if r.is_minimal() {
            minimal.insert(at, r);
        } else {
            ok.insert((at, r.tt_mb.map(f64::to_bits), index[r.algorithm.as_str()]), r);
        }
    }
    let ns = names.iter().position(|n| n.starts_with("negascout"));
    // A search's row for a table size: its own, or its table-less one.
    let find = |at: At, t: Option<u64>, a: usize| ok.get(&(at, t, a)).or_else(|| ok.get(&(at, None, a))).copied();

    let mut cells: BTreeMap<Option<u64>, BTreeMap<(usize, u32), GameCell>> = BTreeMap::new();
    for &t in &sections {
        let mut groups: BTreeMap<(usize, u32), (Vec<&GameRecord>, usize)> = BTreeMap::new();
        for r in records.iter().filter(|r| !r.is_minimal()) {
            if r.tt_mb.is_some() && r.tt_mb.map(f64::to_bits) != t {
                continue;
            }
            let g = groups.entry((index[r.algorithm.as_str()], r.depth)).or_default();
            if r.error.is_some() {
                g.1 += 1;
            } else {
                g.0.push(r);
            }
        }
        let section = cells.entry(t).or_default();
        for ((a, d), (rs, failed)) in groups {
            let n = rs.len().max(1) as f64;
            let mean = |f: &dyn Fn(&Stats) -> u64| rs.iter().map(|r| f(&r.stats) as f64).sum::<f64>() / n;
            let (mut lv, mut nv, mut tn, mut td, mut tk, mut mv) = (vec![], vec![], 0.0, 0.0, 0usize, vec![]);
            for r in &rs {
                let at = (r.position.as_str(), r.depth);
                if let Some(b) = ns.and_then(|b| find(at, t, b)) {
                    if b.stats.leaf_evals > 0 {
                        lv.push(r.stats.leaf_evals as f64 / b.stats.leaf_evals as f64);
                    }
                    if b.stats.nodes > 0 {
                        nv.push(r.stats.nodes as f64 / b.stats.nodes as f64);
                    }
                    tn += time_of(r) as f64;
                    td += time_of(b) as f64;
                    tk += 1;
                }
                if let Some(m) = minimal.get(&at).filter(|m| m.stats.leaf_evals > 0) {
                    mv.push(r.stats.leaf_evals as f64 / m.stats.leaf_evals as f64);
                }
            }
            let range = mv.iter().fold(None, |acc: Option<(f64, f64)>, &x| {
                Some(acc.map_or((x, x), |(lo, hi)| (lo.min(x), hi.max(x))))
            });
            section.insert(
                (a, d),
                GameCell {
                    searches: rs.len(),
                    failed,
                    leaves: mean(&|s| s.leaf_evals),
                    nodes: mean(&|s| s.nodes),
                    time_us: rs.iter().map(|r| time_of(r) as f64).sum::<f64>() / n,
                    passes: mean(&|s| s.passes),
                    leaves_vs_ns: geomean(&lv),
                    nodes_vs_ns: geomean(&nv),
                    time_vs_ns: (tk > 0 && td / tk as f64 >= MIN_TIME_US).then(|| tn / td),
                    leaves_vs_minimal: geomean(&mv),
                    leaves_vs_minimal_range: range,
                },
            );
        }
    }

    let mut min_cells = BTreeMap::new();
    for &d in &depths {
        let rows: Vec<&&GameRecord> = records.iter().filter(|r| r.is_minimal() && r.depth == d).collect();
        if rows.is_empty() {
            continue;
        }
        let done: Vec<&&&GameRecord> = rows.iter().filter(|r| r.error.is_none()).collect();
        let n = done.len().max(1) as f64;
        let mean = |f: &dyn Fn(&GameRecord) -> u64| done.iter().map(|r| f(r) as f64).sum::<f64>() / n;
        min_cells.insert(
            d,
            MinimalCell {
                positions: done.len(),
                capped: rows.len() - done.len(),
                leaves: mean(&|r| r.stats.leaf_evals),
                leaf_positions: mean(&|r| r.leaf_positions.unwrap_or(0)),
                minimax_positions: mean(&|r| r.minimax_positions.unwrap_or(0)),
            },
        );
    }

    // Table sizes: where each algorithm's counts stop changing.
    let mut settles = BTreeMap::new();
    let mut by_table = BTreeMap::new();
    if tables.len() > 1 {
        let positions: BTreeSet<&str> = records.iter().map(|r| r.position.as_str()).collect();
        for (a, _) in names.iter().enumerate() {
            for &d in &depths {
                let counts = |t: u64| -> Option<Vec<(u64, u64)>> {
                    positions
                        .iter()
                        .map(|p| {
                            ok.get(&((*p, d), Some(t), a))
                                .map(|r| (r.stats.leaf_evals, r.stats.nodes))
                        })
                        .collect()
                };
                let Some(last) = largest.and_then(counts) else { continue };
                let mut from = *tables.last().expect("two sizes");
                for t in tables.iter().rev().skip(1) {
                    if counts(t.to_bits()).as_ref() == Some(&last) {
                        from = *t;
                    } else {
                        break;
                    }
                }
                let still = from == *tables.last().expect("two sizes");
                settles.insert((a, d), (from, still));
            }
        }
        if let (Some(&deepest), Some(b)) = (depths.last(), ns) {
            for (a, _) in names.iter().enumerate() {
                for t in &tables {
                    let xs: Vec<f64> = positions
                        .iter()
                        .filter_map(|p| {
                            let x = ok.get(&((*p, deepest), Some(t.to_bits()), a))?;
                            let y = ok.get(&((*p, deepest), largest, b))?;
                            (y.stats.leaf_evals > 0).then(|| x.stats.leaf_evals as f64 / y.stats.leaf_evals as f64)
                        })
                        .collect();
                    if let Some(g) = geomean(&xs) {
                        by_table.insert((a, t.to_bits()), g);
                    }
                }
            }
        }
    }

    let max_job = records.iter().map(|r| r.job).max();
    let distinct: BTreeSet<u64> = records.iter().map(|r| r.job).collect();
    let owned: Vec<GameRecord> = records.iter().map(|r| (*r).clone()).collect();
    GameSummary {
        games: records
            .iter()
            .map(|r| r.game.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect(),
        positions: records.iter().map(|r| &r.position).collect::<BTreeSet<_>>().len(),
        rows: records.len(),
        depths,
        tables,
        algorithms: names,
        cells,
        minimal: min_cells,
        settles,
        by_table,
        disagreements: check_agreement(&owned),
        gaps: max_job.map_or(0, |m| m + 1 - distinct.len() as u64),
        cpu_time,
    }
}

/// Slots of a fixed table of `mb` MiB: power-of-two buckets of 64 bytes,
/// [`stockman::table::SLOTS`] entries each (see [`stockman::FixedTable`]).
pub fn table_entries(mb: f64) -> u64 {
    let buckets = ((mb * (1u64 << 20) as f64) / stockman::FixedTable::BUCKET_BYTES as f64).max(1.0) as u64;
    let pow = 1u64 << (63 - buckets.leading_zeros());
    pow * stockman::table::SLOTS as u64
}

/// A markdown table's header: an `algorithm` column, then one right-aligned
/// column per title.
fn header_row(o: &mut String, titles: impl Iterator<Item = String>) {
    let titles: Vec<String> = titles.collect();
    let _ = writeln!(
        o,
        "| algorithm | {} |\n|---|{}",
        titles.join(" | "),
        "---:|".repeat(titles.len())
    );
}

fn fmt_ratio(x: Option<f64>) -> String {
    x.map_or("-".to_string(), |x| format!("{x:.3}"))
}

fn fmt_count(x: f64) -> String {
    if x >= 1000.0 {
        // Thousands separators.
        let s = format!("{x:.0}");
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        out
    } else {
        format!("{x:.1}")
    }
}

fn fmt_int(x: u64) -> String {
    if x >= 1000 {
        fmt_count(x as f64)
    } else {
        x.to_string()
    }
}

fn table_title(t: Option<u64>) -> String {
    match t {
        Some(b) => {
            let mb = f64::from_bits(b);
            format!("{} MiB table ({} entries)", fmt_mb(mb), fmt_int(table_entries(mb)))
        }
        None => "no table".to_string(),
    }
}

impl GameSummary {
    /// The summary as Markdown.
    pub fn markdown(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(
            o,
            "# {}: {} positions, depths {}\n",
            self.games.join(", "),
            self.positions,
            fmt_list(&self.depths)
        );
        let _ = writeln!(
            o,
            "{} rows: {}{}.",
            self.rows,
            self.algorithms.join(", "),
            if self.minimal.is_empty() {
                String::new()
            } else {
                format!(" and the minimal tree ({MINIMAL})")
            }
        );
        if self.gaps > 0 {
            let _ = writeln!(
                o,
                "\n**{} job numbers are missing: the run was interrupted or a shard is missing.**",
                self.gaps
            );
        }
        if self.disagreements.is_empty() {
            let _ = writeln!(
                o,
                "\nEvery search that found a value found the same one at every position and depth{}, \
                 and every BNS bound holds it.",
                if self.minimal.is_empty() {
                    ""
                } else {
                    " (the minimal tree's full minimax too)"
                }
            );
        } else {
            let _ = writeln!(o, "\n**The searches disagree:**\n");
            for d in &self.disagreements {
                let _ = writeln!(o, "- {d}");
            }
        }
        let _ = writeln!(
            o,
            "\nRelative columns: leaves and nodes are the geometric mean over the positions of the \
             ratio to NegaScout's count at the same position, depth and table; time is the ratio of \
             the total {}, given where NegaScout took 0.1 ms or more on average (one process on \
             a shared machine: secondary evidence). `+id`: iterative deepening, whose counts \
             add up every iteration. Leaves / minimal: against the minimal tree of the last depth \
             (tree nodes, Knuth and Moore), geometric mean (smallest-largest).",
            if self.cpu_time {
                "CPU times of the searches' threads (column `cpu_us`; mean time is CPU time too)"
            } else {
                "clock times"
            }
        );
        for (t, cells) in &self.cells {
            let _ = writeln!(o, "\n## {}\n", table_title(*t));
            let _ = writeln!(
                o,
                "| depth | algorithm | searches | mean leaves | mean nodes | mean time | passes | \
                 leaves / NegaScout | nodes / NegaScout | time / NegaScout | leaves / minimal | failed |"
            );
            let _ = writeln!(o, "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            let mut rows: Vec<(&(usize, u32), &GameCell)> = cells.iter().collect();
            rows.sort_by_key(|((a, d), _)| (*d, *a));
            for (&(a, d), c) in rows {
                let _ = writeln!(
                    o,
                    "| {d} | {} | {} | {} | {} | {} | {:.1} | {} | {} | {} | {} | {} |",
                    self.algorithms[a],
                    c.searches,
                    fmt_count(c.leaves),
                    fmt_count(c.nodes),
                    crate_fmt_time(c.time_us),
                    c.passes,
                    fmt_ratio(c.leaves_vs_ns),
                    fmt_ratio(c.nodes_vs_ns),
                    fmt_ratio(c.time_vs_ns),
                    match (c.leaves_vs_minimal, c.leaves_vs_minimal_range) {
                        (Some(g), Some((lo, hi))) => format!("{g:.2} ({lo:.2}-{hi:.2})"),
                        _ => "-".to_string(),
                    },
                    c.failed
                );
            }
        }
        if !self.minimal.is_empty() {
            let _ = writeln!(o, "\n## The minimal tree\n");
            let _ = writeln!(
                o,
                "Its leaves count tree nodes (a position reached by two move orders counts twice); \
                 its leaf positions count each (position, remaining depth) once: a search with a \
                 table may evaluate as few. Capped: the full minimax would visit more positions \
                 than allowed.\n"
            );
            let _ = writeln!(
                o,
                "| depth | positions | capped | mean leaves | mean leaf positions | mean positions of the full minimax |"
            );
            let _ = writeln!(o, "|---:|---:|---:|---:|---:|---:|");
            for (d, m) in &self.minimal {
                let _ = writeln!(
                    o,
                    "| {d} | {} | {} | {} | {} | {} |",
                    m.positions,
                    m.capped,
                    fmt_count(m.leaves),
                    fmt_count(m.leaf_positions),
                    fmt_count(m.minimax_positions)
                );
            }
        }
        if self.tables.len() > 1 {
            let _ = writeln!(o, "\n## Table size\n");
            let _ = writeln!(
                o,
                "The smallest table (MiB) from which every position's leaf and node counts are \
                 those of the largest table ({} MiB); `*`: they still changed between the two \
                 largest sizes.\n",
                fmt_mb(*self.tables.last().expect("two sizes"))
            );
            header_row(&mut o, self.depths.iter().map(|d| format!("d={d}")));
            for (a, name) in self.algorithms.iter().enumerate() {
                let row: Vec<String> = self
                    .depths
                    .iter()
                    .map(|d| match self.settles.get(&(a, *d)) {
                        Some((mb, true)) => format!("{}*", fmt_mb(*mb)),
                        Some((mb, false)) => fmt_mb(*mb),
                        None => "-".to_string(),
                    })
                    .collect();
                if row.iter().any(|c| c != "-") {
                    let _ = writeln!(o, "| {name} | {} |", row.join(" | "));
                }
            }
            if let Some(deepest) = self.depths.last() {
                let _ = writeln!(
                    o,
                    "\nLeaves at depth {deepest} relative to NegaScout's with the largest table \
                     (geometric mean over positions), by table size:\n"
                );
                header_row(&mut o, self.tables.iter().map(|t| format!("{} MiB", fmt_mb(*t))));
                for (a, name) in self.algorithms.iter().enumerate() {
                    let row: Vec<String> = self
                        .tables
                        .iter()
                        .map(|t| fmt_ratio(self.by_table.get(&(a, t.to_bits())).copied()))
                        .collect();
                    if row.iter().any(|c| c != "-") {
                        let _ = writeln!(o, "| {name} | {} |", row.join(" | "));
                    }
                }
            }
        }
        o
    }

    /// The plots: with the largest table, leaves, nodes and time relative
    /// to NegaScout against depth, and leaves relative to the minimal tree;
    /// with several sizes, leaves against the table size too. Returns
    /// `(file name, SVG)` pairs.
    pub fn plots(&self) -> Result<Vec<(String, String)>, Error> {
        let game = self.games.join("+");
        let xs: Vec<f64> = self.depths.iter().map(|&d| d as f64).collect();
        let mut out = Vec::new();
        type Measure = (&'static str, &'static str, fn(&GameCell) -> Option<f64>);
        let measures: [Measure; 4] = [
            ("leaves-vs-negascout", "leaves / NegaScout's leaves", |c| c.leaves_vs_ns),
            ("nodes-vs-negascout", "nodes / NegaScout's nodes", |c| c.nodes_vs_ns),
            ("time-vs-negascout", "time / NegaScout's time", |c| c.time_vs_ns),
            ("leaves-vs-minimal", "leaves / minimal tree's leaves", |c| {
                c.leaves_vs_minimal
            }),
        ];
        // Against depth: with the largest table (the summary has the others).
        if let Some((t, cells)) = self.cells.iter().next_back() {
            for (file, y_desc, f) in measures {
                let series: Vec<Series> = self
                    .algorithms
                    .iter()
                    .enumerate()
                    .map(|(a, name)| Series {
                        name: name.clone(),
                        points: self
                            .depths
                            .iter()
                            .filter_map(|&d| cells.get(&(a, d)).and_then(f).map(|y| (d as f64, y)))
                            .collect(),
                    })
                    .filter(|s| !s.points.is_empty())
                    .collect();
                if series.is_empty() {
                    continue;
                }
                let title = format!("{game}: {y_desc}, {}", table_title(*t));
                let axes = Axes {
                    title: &title,
                    x_desc: "depth (plies)",
                    y_desc,
                    xs: &xs,
                    x_label: &|x| format!("{x:.0}"),
                };
                out.push((format!("{file}.svg"), plot_lines(&axes, &series)?));
            }
        }
        if self.tables.len() > 1 && !self.by_table.is_empty() {
            let xs: Vec<f64> = self.tables.iter().map(|t| t.log2()).collect();
            let series: Vec<Series> = self
                .algorithms
                .iter()
                .enumerate()
                .map(|(a, name)| Series {
                    name: name.clone(),
                    points: self
                        .tables
                        .iter()
                        .filter_map(|t| self.by_table.get(&(a, t.to_bits())).map(|&y| (t.log2(), y)))
                        .collect(),
                })
                .filter(|s| !s.points.is_empty())
                .collect();
            let deepest = self.depths.last().copied().unwrap_or(0);
            let title = format!("{game}: leaves against table size, depth {deepest}");
            let axes = Axes {
                title: &title,
                x_desc: "table size (MiB, log scale)",
                y_desc: "leaves / NegaScout's leaves with the largest table",
                xs: &xs,
                x_label: &|x| fmt_mb(2f64.powf(x)),
            };
            out.push(("leaves-vs-table-size.svg".to_string(), plot_lines(&axes, &series)?));
        }
        Ok(out)
    }
}

fn crate_fmt_time(us: f64) -> String {
    if us >= 10_000_000.0 {
        format!("{:.1} s", us / 1e6)
    } else if us >= 10_000.0 {
        format!("{:.1} ms", us / 1e3)
    } else {
        format!("{us:.0} us")
    }
}

fn fmt_list(xs: &[u32]) -> String {
    match xs {
        [] => String::new(),
        [x] => x.to_string(),
        [first, .., last] if xs.windows(2).all(|w| w[1] == w[0] + 1) => format!("{first}-{last}"),
        _ => xs.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
    }
}

/// Writes `summary.md` and the plots into `dir`. Returns the files written.
pub fn write_report(records: &[GameRecord], dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let s = summarize(records);
    let mut files = Vec::new();
    let p = dir.join("summary.md");
    write_atomic(&p, s.markdown().as_bytes())?;
    files.push(p);
    for (name, svg) in s.plots()? {
        let p = dir.join(name);
        write_atomic(&p, svg.as_bytes())?;
        files.push(p);
    }
    Ok(files)
}

/// Combines the shards' results files (or directories holding
/// `results-*.csv` files) into `out`: `results.csv`, the summary and the
/// plots. Returns the merged rows and the files written.
pub fn merge_files(inputs: &[PathBuf], out: &Path) -> Result<(Vec<GameRecord>, Vec<PathBuf>), Error> {
    let files = crate::run::shard_files(inputs)?;
    let sets = files.iter().map(|f| read_csv(f)).collect::<Result<Vec<_>, _>>()?;
    let records = merge(sets)?;
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let path = out.join("results.csv");
    write_csv(&path, &records)?;
    let mut written = vec![path];
    written.extend(write_report(&records, out)?);
    Ok((records, written))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(
        job: u64,
        pos: &str,
        depth: u32,
        tt: Option<f64>,
        algo: &str,
        leaves: u64,
        value: Option<i32>,
    ) -> GameRecord {
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
}
