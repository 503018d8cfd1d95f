//! The rows of a game grid: their CSV form, merging shards, and the check
//! that the searches agree.

use super::GameRecord;
use crate::record::{stats_columns, write_atomic};
use crate::Error;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use stockman::{Stats, Value};

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

/// Joins the rows of separate runs of one game (other depths or positions
/// of the same grid, run apart): each file's rows in the order given, the
/// jobs numbered again from 0. Fails if a search (position, depth, table,
/// algorithm) appears twice, naming both files.
pub fn join(sets: Vec<(String, Vec<GameRecord>)>) -> Result<Vec<GameRecord>, Error> {
    // A search (game, position, depth, table, algorithm) -> the file holding it.
    type Search = (String, String, u32, Option<u64>, String);
    let mut seen: HashMap<Search, (usize, String)> = HashMap::new();
    let mut out: Vec<GameRecord> = Vec::new();
    for (k, (file, rows)) in sets.into_iter().enumerate() {
        for mut r in rows {
            if let Some(f) = out.first().filter(|f| f.game != r.game) {
                return Err(Error::new(format!(
                    "{file}: a {} search, where the runs before it are {}'s: joined runs must be of one game",
                    r.game, f.game
                )));
            }
            let (g, p, d, t, a) = r.identity();
            let key = (g.to_string(), p.to_string(), d, t, a.to_string());
            if let Some((j, first)) = seen.insert(key, (k, file.clone())) {
                let search = format!(
                    "{} at position {} depth {}{}",
                    r.algorithm,
                    r.position,
                    r.depth,
                    r.tt_mb
                        .map(|t| format!(" ({} MiB table)", fmt_mb(t)))
                        .unwrap_or_default()
                );
                return Err(Error::new(if j == k {
                    format!("{file}: {search} is given twice in it")
                } else {
                    format!("{file}: {search} is already in {first}: joined runs must hold different searches")
                }));
            }
            r.job = out.len() as u64;
            out.push(r);
        }
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
