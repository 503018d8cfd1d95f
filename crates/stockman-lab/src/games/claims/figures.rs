//! The figures of one game of the report: its grid folders read into
//! summaries, and what the claims and tables ask of them.

use super::super::{read_csv, summarize, GameCell, GameRecord, GameSummary};
use crate::Error;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use stockman::{Stats, Value};

use super::{ratio_by_position, rows_by_position, NS};

/// A game of the report and the grid folders (under the grids' root) that
/// hold its rows; the folders of one game are read as one grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportGame {
    /// The game's name in the report.
    pub name: &'static str,
    /// Its folders, each with a `results.csv`.
    pub dirs: &'static [&'static str],
}

/// The games of `docs/experiments/real-games.md`, in its column order.
pub const REPORT_GAMES: &[ReportGame] = &[
    ReportGame {
        name: "Connect Four",
        dirs: &["connect4"],
    },
    ReportGame {
        name: "Othello",
        dirs: &["othello"],
    },
    ReportGame {
        name: "chess",
        dirs: &["chess", "chess-depth6"],
    },
    ReportGame {
        name: "checkers",
        dirs: &["checkers"],
    },
];

/// One game's grid, summarised, and where its verdicts are read: the
/// deepest depth with the largest table.
#[derive(Clone, Debug)]
pub struct GameFigures {
    /// The game's name in the report.
    pub name: String,
    /// The summary of all its rows.
    pub summary: GameSummary,
    /// Its rows.
    pub records: Vec<GameRecord>,
    /// The baseline variants run beside it (`baselines/<dir>/<variant>/`),
    /// by variant name: alpha-beta and NegaScout under other aspiration
    /// settings.
    pub baselines: Vec<(String, Vec<GameRecord>)>,
    /// Best Node Search under other first windows (`bns-window/<dir>/<variant>/`):
    /// `whole-range` (`--bns-window 0`) or `wN`.
    pub bns_windows: Vec<(String, Vec<GameRecord>)>,
    /// The table-size curves run beside it (`table-curve/<dir>/`, and
    /// `table-curve/<dir>-NAME/` for more, in name order): the table-using
    /// searches at one depth with tables from a few hundred entries to
    /// more than the positions searched.
    pub table_curves: Vec<GameSummary>,
    /// The same searches with no position at the depth limit stored in the
    /// table (`no-horizon/<dir>/`, `--no-horizon-table`), largest table
    /// only; empty where not run.
    pub no_horizon: Vec<GameRecord>,
    /// Further runs with the largest table (`repeats/<dir>/run-N/`, any of
    /// the grid's depths), for the spread of the times: each row's counts
    /// must equal the grid's row of the same search.
    pub repeats: Vec<Vec<GameRecord>>,
    /// The deepest depth of the grid.
    pub depth: u32,
    /// The largest table, in MiB.
    pub table_mb: f64,
}

/// The variant folders under `dir` (each with a `results.csv`), by name:
/// names without a width first, then `wN` by width; none if `dir` is absent.
fn variants(dir: &Path) -> Result<Vec<(String, Vec<GameRecord>)>, Error> {
    folders(dir, |_| true)
}

/// [`variants`], of the folders whose name `keep` accepts.
fn folders(dir: &Path, keep: impl Fn(&str) -> bool) -> Result<Vec<(String, Vec<GameRecord>)>, Error> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let name = |d: &Path| {
        d.file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default()
    };
    let mut dirs: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Error::io(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| keep(&name(p)) && p.join("results.csv").is_file())
        .collect();
    dirs.sort_by_key(|d| {
        let n = name(d);
        let width = n.strip_prefix('w').and_then(|w| w.parse::<u64>().ok());
        (width.is_some(), width, n)
    });
    dirs.iter()
        .map(|d| Ok((name(d), read_csv(&d.join("results.csv"))?)))
        .collect()
}

impl GameFigures {
    /// Reads a game's folders under `root` and summarises them. Fails if a
    /// file is missing or malformed, or if two searches disagree.
    pub fn load(root: &Path, game: &ReportGame) -> Result<GameFigures, Error> {
        let mut records = Vec::new();
        for d in game.dirs {
            records.extend(read_csv(&root.join(d).join("results.csv"))?);
        }
        let summary = summarize(&records);
        let baselines = variants(&root.join("baselines").join(game.dirs[0]))?;
        let bns_windows = variants(&root.join("bns-window").join(game.dirs[0]))?;
        let no_horizon_csv = root.join("no-horizon").join(game.dirs[0]).join("results.csv");
        let no_horizon = if no_horizon_csv.is_file() {
            read_csv(&no_horizon_csv)?
        } else {
            Vec::new()
        };
        // A variant searches the same positions: its values (and BNS's
        // bounds) must agree with the grid's NegaScout.
        let values: HashMap<(&str, u32), Value> = records
            .iter()
            .filter(|r| r.algorithm == NS)
            .filter_map(|r| Some(((r.position.as_str(), r.depth), r.value?)))
            .collect();
        let checked = baselines
            .iter()
            .chain(&bns_windows)
            .map(|(name, rows)| (name.as_str(), rows.as_slice()))
            .chain([("no-horizon", no_horizon.as_slice())]);
        for (name, rows) in checked {
            for r in rows {
                let Some(&v) = values.get(&(r.position.as_str(), r.depth)) else {
                    continue;
                };
                let holds = match (r.value, r.bound) {
                    (Some(x), _) => x == v,
                    (None, Some((lo, hi))) => lo <= v && v < hi,
                    (None, None) => r.error.is_some(),
                };
                if !holds {
                    return Err(Error::new(format!(
                        "{}: variant {name}: {} at {} depth {} misses NegaScout's value {v}",
                        game.name, r.algorithm, r.position, r.depth
                    )));
                }
            }
        }
        let mut table_curves = Vec::new();
        let prefix = format!("{}-", game.dirs[0]);
        let curves = folders(&root.join("table-curve"), |n| {
            n == game.dirs[0] || n.starts_with(&prefix)
        })?;
        for (name, rows) in curves {
            let s = summarize(&rows);
            if let Some(x) = s.disagreements.first() {
                return Err(Error::new(format!(
                    "{}: the table-size curve {name} disagrees: {x}",
                    game.name
                )));
            }
            table_curves.push(s);
        }
        // The grid's rows by search, for checking that a repeat is the same search.
        let main: HashMap<_, &GameRecord> = records.iter().map(|r| (r.identity(), r)).collect();
        let mut repeats = Vec::new();
        for (name, rows) in variants(&root.join("repeats").join(game.dirs[0]))? {
            for r in &rows {
                let same = main.get(&r.identity()).is_some_and(|m| {
                    (m.stats.leaf_evals, m.stats.nodes, m.value) == (r.stats.leaf_evals, r.stats.nodes, r.value)
                });
                if !same {
                    return Err(Error::new(format!(
                        "{}: repeat {name}: {} at {} depth {} is not the grid's search",
                        game.name, r.algorithm, r.position, r.depth
                    )));
                }
            }
            repeats.push(rows);
        }
        let depth = *summary
            .depths
            .last()
            .ok_or_else(|| Error::new(format!("{}: the grid has no rows", game.name)))?;
        let table_mb = *summary
            .tables
            .last()
            .ok_or_else(|| Error::new(format!("{}: no search used a table", game.name)))?;
        Ok(GameFigures {
            name: game.name.to_string(),
            summary,
            records,
            baselines,
            bns_windows,
            table_curves,
            no_horizon,
            repeats,
            depth,
            table_mb,
        })
    }

    fn index(&self, algo: &str) -> Option<usize> {
        self.summary.algorithms.iter().position(|n| n == algo)
    }

    /// An algorithm's cell (row name such as `mtdf+id`) at `depth` with the
    /// largest table.
    pub fn cell_at(&self, algo: &str, depth: u32) -> Option<&GameCell> {
        let a = self.index(algo)?;
        self.summary.cells.get(&Some(self.table_mb.to_bits()))?.get(&(a, depth))
    }

    /// An algorithm's cell at the deepest depth with the largest table.
    pub fn cell(&self, algo: &str) -> Option<&GameCell> {
        self.cell_at(algo, self.depth)
    }

    /// An algorithm's measure relative to NegaScout's at the deepest depth;
    /// for time, the median over the runs ([`GameFigures::time_runs`]).
    pub fn vs_negascout(&self, algo: &str, m: Measure) -> Option<f64> {
        let c = self.cell(algo)?;
        match m {
            Measure::Leaves => c.leaves_vs_ns,
            Measure::Positions => c.nodes_vs_ns,
            Measure::Time => median(&self.time_runs(algo)),
        }
    }

    /// An algorithm's total CPU time at the deepest depth with the largest
    /// table relative to NegaScout's, in each run: the grid's, then each
    /// repeat's.
    pub fn time_runs(&self, algo: &str) -> Vec<f64> {
        self.time_runs_at(algo, self.depth)
    }

    /// [`GameFigures::time_runs`] at `depth`: none where the grid gives no
    /// time ratio (NegaScout under [`MIN_TIME_US`](super::super::MIN_TIME_US) a
    /// search on average). As in the grid's summary, a run's ratio sums the
    /// positions where both the algorithm and NegaScout found an answer; a
    /// repeat counts only where those positions are the grid's.
    pub fn time_runs_at(&self, algo: &str, depth: u32) -> Vec<f64> {
        let Some(first) = self.cell_at(algo, depth).and_then(|c| c.time_vs_ns) else {
            return Vec::new();
        };
        // Per position where both searches answered: (algorithm's time, NegaScout's).
        let paired = |rows: &[GameRecord]| -> BTreeMap<String, (u64, u64)> {
            let a = rows_by_position(rows, algo, depth, self.table_mb);
            let b = rows_by_position(rows, NS, depth, self.table_mb);
            let time = |r: &GameRecord| r.cpu_us.unwrap_or(r.stats.time_us);
            a.iter()
                .filter_map(|(p, x)| Some((p.to_string(), (time(x), time(b.get(p)?)))))
                .collect()
        };
        let grid = paired(&self.records);
        let mut out = vec![first];
        for rows in &self.repeats {
            let run = paired(rows);
            let (ta, tb) = run.values().fold((0, 0), |(a, b), &(x, y)| (a + x, b + y));
            if !run.is_empty() && run.keys().eq(grid.keys()) && tb > 0 {
                out.push(ta as f64 / tb as f64);
            }
        }
        out
    }

    /// An algorithm's mean CPU time per search at the deepest depth with
    /// the largest table, in each run, in microseconds: the grid's, then
    /// each repeat's that answered at the same positions.
    pub fn mean_time_runs(&self, algo: &str) -> Vec<f64> {
        let mut out: Vec<f64> = self.cell(algo).map(|c| c.time_us).into_iter().collect();
        let grid = rows_by_position(&self.records, algo, self.depth, self.table_mb);
        for rows in &self.repeats {
            let rs = rows_by_position(rows, algo, self.depth, self.table_mb);
            if !rs.is_empty() && rs.keys().eq(grid.keys()) {
                let t: u64 = rs.values().map(|r| r.cpu_us.unwrap_or(r.stats.time_us)).sum();
                out.push(t as f64 / rs.len() as f64);
            }
        }
        out
    }

    /// `a`'s measure relative to `b`'s: the quotient of their ratios to
    /// NegaScout (for leaves and positions, the geometric mean over the
    /// positions of `a / b`; for time, the ratio of the total times).
    pub fn vs(&self, a: &str, b: &str, m: Measure) -> Option<f64> {
        Some(self.vs_negascout(a, m)? / self.vs_negascout(b, m)?)
    }

    /// An algorithm's leaves at the deepest depth with a `mb` MiB table,
    /// relative to NegaScout's with the largest table.
    pub fn leaves_with_table(&self, algo: &str, mb: f64) -> Option<f64> {
        let a = self.index(algo)?;
        self.summary.by_table.get(&(a, mb.to_bits())).copied()
    }

    /// With no position at the depth limit in the table (rows of
    /// `no-horizon/`): `algo`'s count relative to NegaScout's in the same
    /// setting, and relative to its own in the report's setting (geometric
    /// means over the positions at the deepest depth, largest table).
    pub fn no_horizon_ratios(&self, algo: &str, f: fn(&Stats) -> u64) -> Option<(f64, f64)> {
        if self.no_horizon.is_empty() {
            return None;
        }
        let rows = rows_by_position(&self.no_horizon, algo, self.depth, self.table_mb);
        let ns = rows_by_position(&self.no_horizon, NS, self.depth, self.table_mb);
        let own = rows_by_position(&self.records, algo, self.depth, self.table_mb);
        Some((ratio_by_position(&rows, &ns, f)?, ratio_by_position(&rows, &own, f)?))
    }

    /// The deepest depth with minimal trees, if any.
    pub fn minimal_depth(&self) -> Option<u32> {
        self.summary.minimal.keys().next_back().copied()
    }
}

/// What a ratio counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Leaves evaluated.
    Leaves,
    /// Positions visited (interior and leaves, every pass).
    Positions,
    /// CPU time of the search's thread.
    Time,
}

/// The median of `xs` (the mean of the middle two for an even count).
pub fn median(xs: &[f64]) -> Option<f64> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => None,
        n if n % 2 == 1 => Some(v[n / 2]),
        n => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}
