//! The practical-claims report (`docs/experiments/real-games.md`) computed
//! from the committed game grids: every number of its verdicts and tables
//! comes from here, so that the prose cannot say more than the data.
//!
//! The report keeps its explanations by hand and its figures in generated
//! blocks, each between `<!-- begin generated NAME -->` and
//! `<!-- end generated NAME -->`; [`fill_blocks`] rewrites them and
//! `stockman experiment claims --check` fails when one differs from what the
//! CSV files give.
//!
//! Verdict words follow one rule: *confirmed* and *contradicted* belong to a
//! test in the author's own setting (their programs, positions and depths),
//! which none of these grids is; here a claim is **reproduced** or **not
//! reproduced** in stockman's setting, by the threshold each claim states.

use super::summary::geomean;
use super::{read_csv, summarize, GameCell, GameRecord, GameSummary};
use crate::Error;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::Path;
use stockman::{Stats, Value};

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
    /// time ratio (NegaScout under [`MIN_TIME_US`](super::MIN_TIME_US) a
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

/// The row names of the report's algorithms.
const AB: &str = "alphabeta+id";
const NS: &str = "negascout+id";
const MTDF: &str = "mtdf+id";
const MTSSS: &str = "mt-sss+id";
const MTDUAL: &str = "mt-dual+id";
const BNS: &str = "bns+id";

/// A claim of the literature and the rule that decides it on one game.
pub struct Claim {
    /// Short label (`1a`).
    pub id: &'static str,
    /// The claim, as the report states it.
    pub text: &'static str,
    /// Who made it.
    pub source: &'static str,
    /// The rule, in words.
    pub rule: &'static str,
    /// Whether it holds on a game, and the figure that decides it; `None`
    /// when the grid lacks the rows.
    pub judge: fn(&GameFigures) -> Option<(bool, String)>,
}

const PLAAT: &str = "Plaat, Schaeffer, Pijls, de Bruin (1996)";

fn mt_family_best(g: &GameFigures, m: Measure) -> Option<(bool, String)> {
    let f = g.vs_negascout(MTDF, m)?;
    let (other, o) = [(MTSSS, "MT-SSS\\*"), (MTDUAL, "MT-Dual\\*")]
        .iter()
        .filter_map(|&(a, name)| Some((g.vs_negascout(a, m)?, name)))
        .min_by(|x, y| x.0.total_cmp(&y.0))?;
    Some((f <= other, format!("{f:.3} vs {o} {other:.3}")))
}

/// The claims of the report's verdict table, in order.
pub const CLAIMS: &[Claim] = &[
    Claim {
        id: "1a",
        text: "MT-SSS\\* does not beat NegaScout",
        source: PLAAT,
        rule: "MT-SSS\\*'s leaves / NegaScout's >= 0.95 (not 5% fewer: the smallest gain the source counts as one)",
        judge: |g| {
            let r = g.vs_negascout(MTSSS, Measure::Leaves)?;
            Some((r >= 0.95, format!("{r:.3}")))
        },
    },
    Claim {
        id: "1b",
        text: "MT-SSS\\* evaluates fewer leaves than alpha-beta",
        source: PLAAT,
        rule: "MT-SSS\\*'s leaves / alpha-beta's < 1",
        judge: |g| {
            let r = g.vs(MTSSS, AB, Measure::Leaves)?;
            Some((r < 1.0, format!("{r:.3}")))
        },
    },
    Claim {
        id: "1c",
        text: "... and visits fewer positions than alpha-beta",
        source: "the seeds' reading of the same",
        rule: "MT-SSS\\*'s positions / alpha-beta's < 1",
        judge: |g| {
            let r = g.vs(MTSSS, AB, Measure::Positions)?;
            Some((r < 1.0, format!("{r:.3}")))
        },
    },
    Claim {
        id: "1a'",
        text: "... against the strongest NegaScout",
        source: PLAAT,
        rule: "as 1a, against NegaScout's aspiration setting with the fewest leaves (table `baselines`)",
        judge: |g| {
            if g.baselines.is_empty() {
                return None;
            }
            let r = g.vs_negascout(MTSSS, Measure::Leaves)? / g.strongest_negascout().1;
            Some((r >= 0.95, format!("{r:.3}")))
        },
    },
    Claim {
        id: "1a''",
        text: "... with no position at the depth limit in the table",
        source: PLAAT,
        rule: "as 1a, both searches storing no position at the depth limit (table `horizon`)",
        judge: |g| {
            let r = g.no_horizon_ratios(MTSSS, |s| s.leaf_evals)?.0;
            Some((r >= 0.95, format!("{r:.3}")))
        },
    },
    Claim {
        id: "2a",
        text: "MTD(f) evaluates the fewest leaves of the null-window family",
        source: PLAAT,
        rule: "MTD(f)'s leaves <= MT-SSS\\*'s and MT-Dual\\*'s (ratios to NegaScout)",
        judge: |g| mt_family_best(g, Measure::Leaves),
    },
    Claim {
        id: "2b",
        text: "MTD(f) visits the fewest positions of the null-window family",
        source: PLAAT,
        rule: "the same with positions",
        judge: |g| mt_family_best(g, Measure::Positions),
    },
    Claim {
        id: "2c",
        text: "MTD(f) takes the least time of the null-window family",
        source: PLAAT,
        rule: "the same with CPU time (the median of the runs where there are several: table `timing`)",
        judge: |g| mt_family_best(g, Measure::Time),
    },
    Claim {
        id: "2d",
        text: "MTD(f) evaluates 5-10% fewer leaves than aspiration NegaScout",
        source: PLAAT,
        rule: "MTD(f)'s leaves / NegaScout's <= 0.95",
        judge: |g| {
            let r = g.vs_negascout(MTDF, Measure::Leaves)?;
            Some((r <= 0.95, format!("{r:.3}")))
        },
    },
    Claim {
        id: "2d'",
        text: "... against the strongest NegaScout",
        source: PLAAT,
        rule: "as 2d, against NegaScout's aspiration setting with the fewest leaves",
        judge: |g| {
            if g.baselines.is_empty() {
                return None;
            }
            let r = g.vs_negascout(MTDF, Measure::Leaves)? / g.strongest_negascout().1;
            Some((r <= 0.95, format!("{r:.3}")))
        },
    },
    Claim {
        id: "2d''",
        text: "... with no position at the depth limit in the table",
        source: PLAAT,
        rule: "as 2d, both searches storing no position at the depth limit (table `horizon`)",
        judge: |g| {
            let r = g.no_horizon_ratios(MTDF, |s| s.leaf_evals)?.0;
            Some((r <= 0.95, format!("{r:.3}")))
        },
    },
    Claim {
        id: "2e",
        text: "MTD(f) calls MT 3 to 6 times per iteration",
        source: PLAAT,
        rule: "MTD(f)'s mean passes / depth (one iteration per ply) within 3-6",
        judge: |g| {
            let p = g.cell(MTDF)?.passes / f64::from(g.depth);
            Some(((3.0..=6.0).contains(&p), format!("{p:.2}")))
        },
    },
    Claim {
        id: "3",
        text: "a table of fewer than 2^20 entries is enough for MT-SSS\\*",
        source: PLAAT,
        rule: "MT-SSS\\*'s leaves with the 1 MiB table (49,152 entries) within 1% of those with the largest",
        judge: |g| {
            let small = g.leaves_with_table(MTSSS, 1.0)?;
            let large = g.leaves_with_table(MTSSS, g.table_mb)?;
            let r = small / large;
            Some((r <= 1.01, format!("{r:.3}")))
        },
    },
    Claim {
        id: "3'",
        text: "... against a table larger than the positions searched",
        source: PLAAT,
        rule: "MT-SSS\\*'s leaves with 786,432 entries (16 MiB, the largest below 2^20) within 1% of those with the \
               largest table of the curve at the same depth (table `table-curve`)",
        judge: |g| {
            // The curve at the verdicts' depth.
            let c = g.table_curves.iter().find(|c| c.depths.last() == Some(&g.depth))?;
            let a = c.algorithms.iter().position(|n| n == MTSSS)?;
            let largest = *c.tables.last()?;
            let r = c.by_table.get(&(a, 16f64.to_bits()))? / c.by_table.get(&(a, largest.to_bits()))?;
            Some((r <= 1.01, format!("{r:.3}")))
        },
    },
    Claim {
        id: "4",
        text: "Best Node Search gains about 10% over the existing algorithms in games",
        source: "Rutko (2011), LNCS 7094 (abstract)",
        rule: "BNS's leaves / NegaScout's <= 0.90 (BNS proves a best move and a bound, not the value)",
        judge: |g| {
            let r = g.vs_negascout(BNS, Measure::Leaves)?;
            Some((r <= 0.90, format!("{r:.3}")))
        },
    },
    Claim {
        id: "4'",
        text: "... with BNS's best first window",
        source: "the same",
        rule: "as 4, with the first window of fewest leaves among the report's and those of table `bns-windows`",
        judge: |g| {
            if g.bns_windows.is_empty() {
                return None;
            }
            let main_ns = rows_by_position(&g.records, NS, g.depth, g.table_mb);
            let (name, r) = std::iter::once(("report", &g.records))
                .chain(g.bns_windows.iter().map(|(n, rs)| (n.as_str(), rs)))
                .filter_map(|(n, rs)| {
                    let bns = rows_by_position(rs, BNS, g.depth, g.table_mb);
                    Some((n, ratio_by_position(&bns, &main_ns, |s| s.leaf_evals)?))
                })
                .min_by(|a, b| a.1.total_cmp(&b.1))?;
            Some((r <= 0.90, format!("{r:.3}, {name}")))
        },
    },
];

/// The report's name for a row name.
pub fn display_name(row: &str) -> String {
    match row {
        AB => "alpha-beta + ID (aspiration)",
        NS => "NegaScout + ID (aspiration)",
        MTDF => "MTD(f) + ID",
        MTSSS => "MT-SSS\\* + ID",
        MTDUAL => "MT-Dual\\* + ID",
        BNS => "BNS + ID",
        "sss" => "SSS\\* (fixed depth, OPEN list)",
        "dual" => "Dual\\* (fixed depth, OPEN list)",
        other => other,
    }
    .to_string()
}

fn short_name(row: &str) -> String {
    display_name(row)
        .trim_end_matches(" + ID (aspiration)")
        .trim_end_matches(" + ID")
        .trim_end_matches(" (fixed depth, OPEN list)")
        .to_string()
}

/// The verdict table: one row per claim, one column per game, each cell the
/// verdict and the figure that decides it; then the rules.
pub fn verdicts(games: &[GameFigures]) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "| claim | source | {} |",
        games
            .iter()
            .map(|g| format!("{} (depth {})", g.name, g.depth))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(o, "|---|---|{}", "---|".repeat(games.len()));
    for c in CLAIMS {
        let cells: Vec<String> = games
            .iter()
            .map(|g| match (c.judge)(g) {
                Some((true, x)) => format!("reproduced ({x})"),
                Some((false, x)) => format!("**not reproduced** ({x})"),
                None => "no data".to_string(),
            })
            .collect();
        let _ = writeln!(o, "| {} {} | {} | {} |", c.id, c.text, c.source, cells.join(" | "));
    }
    let _ = writeln!(
        o,
        "\nRules (each on the geometric mean over positions of the ratio at the same position, \
         at the deepest depth with the largest table; time as the ratio of total CPU times):\n"
    );
    for c in CLAIMS {
        let _ = writeln!(o, "- {}: {}.", c.id, c.rule);
    }
    o
}

/// Every generated block of the report, by name: `grids`, `verdicts`,
/// `deepest-<game>` (the game's name lower-cased, spaces as dashes),
/// `by-depth`, `table-sizes`, `minimal`.
pub fn blocks(games: &[GameFigures]) -> Vec<(String, String)> {
    let mut out = vec![
        ("grids".to_string(), grids(games)),
        ("verdicts".to_string(), verdicts(games)),
    ];
    for g in games {
        out.push((
            format!("deepest-{}", g.name.to_lowercase().replace(' ', "-")),
            deepest(g),
        ));
    }
    out.push(("baselines".to_string(), baselines(games)));
    out.push(("bns-windows".to_string(), bns_windows(games)));
    out.push(("horizon".to_string(), horizon(games)));
    out.push(("by-depth".to_string(), by_depth(games)));
    out.push(("table-sizes".to_string(), table_sizes(games)));
    out.push(("table-curve".to_string(), table_curve(games)));
    out.push(("timing".to_string(), timing(games)));
    out.push(("timing-by-depth".to_string(), timing_by_depth(games)));
    out.push(("minimal".to_string(), minimal(games)));
    out
}

/// Loads [`REPORT_GAMES`] from `root` and computes their [`blocks`].
pub fn report_blocks(root: &Path) -> Result<Vec<(String, String)>, Error> {
    let games = REPORT_GAMES
        .iter()
        .map(|g| GameFigures::load(root, g))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(blocks(&games))
}

/// One baseline variant of a game ([`GameFigures::baseline_rows`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BaselineRow {
    /// The variant's folder name: `no-aspiration` or `wN`.
    pub name: String,
    /// NegaScout's leaves relative to the report's NegaScout.
    pub negascout: Option<f64>,
    /// Alpha-beta's leaves relative to the report's NegaScout.
    pub alphabeta: Option<f64>,
    /// The share of NegaScout's aspirated iterations whose window failed.
    pub failed: Option<f64>,
}

/// A search's rows per position at (depth, table) for a row name (searches
/// without a table, SSS\* and Dual\*, at any table), in position order so
/// that every mean over them is summed in the same order on every run.
fn rows_by_position<'a>(
    records: &'a [GameRecord],
    algo: &str,
    depth: u32,
    table_mb: f64,
) -> BTreeMap<&'a str, &'a GameRecord> {
    records
        .iter()
        .filter(|r| {
            r.algorithm == algo
                && r.depth == depth
                && r.error.is_none()
                && r.tt_mb.is_none_or(|t| t.to_bits() == table_mb.to_bits())
        })
        .map(|r| (r.position.as_str(), r))
        .collect()
}

/// Geometric mean over the positions both hold of `a`'s count over `b`'s
/// (`f` picks the count; positions where either is 0 are left out, as in
/// the grid's summary).
fn ratio_by_position(
    a: &BTreeMap<&str, &GameRecord>,
    b: &BTreeMap<&str, &GameRecord>,
    f: fn(&Stats) -> u64,
) -> Option<f64> {
    let xs: Vec<f64> = a
        .iter()
        .filter_map(|(p, x)| {
            let y = b.get(p)?;
            (f(&x.stats) > 0 && f(&y.stats) > 0).then(|| f(&x.stats) as f64 / f(&y.stats) as f64)
        })
        .collect();
    geomean(&xs)
}

impl GameFigures {
    /// Per baseline variant: NegaScout's and alpha-beta's leaves at the
    /// deepest depth relative to the report's NegaScout (geometric mean),
    /// and the fraction of aspirated iterations whose window failed.
    pub fn baseline_rows(&self) -> Vec<BaselineRow> {
        let main_ns = rows_by_position(&self.records, NS, self.depth, self.table_mb);
        self.baselines
            .iter()
            .map(|(name, rows)| {
                let ns = rows_by_position(rows, NS, self.depth, self.table_mb);
                let ab = rows_by_position(rows, AB, self.depth, self.table_mb);
                // Iteration 1 searches the full window; each failed window
                // adds one pass (the one-sided re-search cannot fail).
                let (fails, tries) = ns.values().fold((0u64, 0u64), |(f, t), r| {
                    let d = u64::from(self.depth);
                    (f + r.stats.passes.saturating_sub(d), t + d.saturating_sub(1))
                });
                let has_window = name != "no-aspiration" && tries > 0;
                BaselineRow {
                    name: name.clone(),
                    negascout: ratio_by_position(&ns, &main_ns, |s| s.leaf_evals),
                    alphabeta: ratio_by_position(&ab, &main_ns, |s| s.leaf_evals),
                    failed: has_window.then(|| fails as f64 / tries as f64),
                }
            })
            .collect()
    }

    /// The variant whose NegaScout evaluates the fewest leaves, and that
    /// ratio to the report's NegaScout (1 when no variant does better).
    pub fn strongest_negascout(&self) -> (String, f64) {
        self.baseline_rows()
            .into_iter()
            .filter_map(|r| Some((r.name, r.negascout?)))
            .fold(("the report's (aspiration 10)".to_string(), 1.0), |best, x| {
                if x.1 < best.1 {
                    x
                } else {
                    best
                }
            })
    }
}

/// Loads [`REPORT_GAMES`] from `root` and the random-tree grid of Best Node
/// Search from `random` (a folder with a `results.csv`), and computes the
/// report's blocks: [`blocks`] and `bns-random`.
pub fn report_blocks_with_random(root: &Path, random: &Path) -> Result<Vec<(String, String)>, Error> {
    let mut out = report_blocks(root)?;
    let records = crate::record::read_csv(&random.join("results.csv"))?;
    out.push(("bns-random".to_string(), bns_random(&records)));
    Ok(out)
}

const BEGIN: &str = "<!-- begin generated ";
const END: &str = "<!-- end generated ";

/// Replaces every generated block of `doc` with the block of that name.
/// Returns the new text and the names of the blocks whose text changed.
/// Fails on a block the document names but `blocks` lacks, on a marker
/// without its end, and on a block of `blocks` the document does not hold.
pub fn fill_blocks(doc: &str, blocks: &[(String, String)]) -> Result<(String, Vec<String>), Error> {
    let mut out = String::with_capacity(doc.len());
    let mut changed = Vec::new();
    let mut used = Vec::new();
    let mut rest = doc;
    while let Some(i) = rest.find(BEGIN) {
        let line = i + rest[i..].find('\n').unwrap_or(rest.len() - i);
        let name = rest[i + BEGIN.len()..line]
            .trim()
            .trim_end_matches("-->")
            .trim()
            .to_string();
        let at = doc.len() - rest.len() + i;
        let lineno = doc[..at].lines().count() + 1;
        let Some((_, text)) = blocks.iter().find(|(n, _)| *n == name) else {
            return Err(Error::new(format!("line {lineno}: no generated block named `{name}`")));
        };
        let end_marker = format!("{END}{name} -->");
        let Some(j) = rest[line..].find(&end_marker) else {
            return Err(Error::new(format!(
                "line {lineno}: block `{name}` has no `{end_marker}`"
            )));
        };
        let old = rest[line..line + j].trim_start_matches('\n');
        out.push_str(&rest[..line]);
        out.push('\n');
        out.push_str(text);
        if old != text {
            changed.push(name.clone());
        }
        used.push(name);
        rest = &rest[line + j..];
    }
    out.push_str(rest);
    if let Some((n, _)) = blocks.iter().find(|(n, _)| !used.contains(n)) {
        return Err(Error::new(format!("the document has no generated block `{n}`")));
    }
    Ok((out, changed))
}

mod random;
mod tables;
#[cfg(test)]
mod tests;

pub use random::bns_random;
pub use tables::{
    baselines, bns_windows, by_depth, deepest, grids, horizon, minimal, table_curve, table_sizes, timing,
    timing_by_depth,
};
