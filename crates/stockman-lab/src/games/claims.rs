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

use super::summary::{crate_fmt_time, fmt_count, fmt_int, fmt_list, fmt_ratio};
use super::{read_csv, summarize, table_entries, GameCell, GameRecord, GameSummary};
use crate::Error;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use stockman::Stats;

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
    /// The deepest depth of the grid.
    pub depth: u32,
    /// The largest table, in MiB.
    pub table_mb: f64,
}

/// The variant folders under `dir` (each with a `results.csv`), by name:
/// names without a width first, then `wN` by width. None if `dir` is absent.
fn variants(dir: &Path) -> Result<Vec<(String, Vec<GameRecord>)>, Error> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut dirs: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Error::io(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("results.csv").is_file())
        .collect();
    let name = |d: &Path| {
        d.file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default()
    };
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

    /// An algorithm's measure relative to NegaScout's at the deepest depth.
    pub fn vs_negascout(&self, algo: &str, m: Measure) -> Option<f64> {
        let c = self.cell(algo)?;
        match m {
            Measure::Leaves => c.leaves_vs_ns,
            Measure::Positions => c.nodes_vs_ns,
            Measure::Time => c.time_vs_ns,
        }
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
        rule: "the same with CPU time (single runs)",
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
            let main_ns = leaves_by_position(&g.records, NS, g.depth, g.table_mb);
            let (name, r) = std::iter::once(("report", &g.records))
                .chain(g.bns_windows.iter().map(|(n, rs)| (n.as_str(), rs)))
                .filter_map(|(n, rs)| {
                    let bns = leaves_by_position(rs, BNS, g.depth, g.table_mb);
                    Some((n, leaf_ratio(&bns, &main_ns)?))
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

/// A game's table at its deepest depth with the largest table.
pub fn deepest(g: &GameFigures) -> String {
    let mut o = String::new();
    let n = g.cell(NS).map_or(0, |c| c.searches);
    let _ = writeln!(
        o,
        "**{}, depth {}** ({} positions, {} MiB table, {} entries):\n",
        g.name,
        g.depth,
        n,
        super::fmt_mb(g.table_mb),
        fmt_int(table_entries(g.table_mb))
    );
    let _ = writeln!(
        o,
        "| algorithm | mean leaves | mean positions | mean CPU time | passes | leaves / NegaScout | positions / NegaScout | time / NegaScout |"
    );
    let _ = writeln!(o, "|---|---:|---:|---:|---:|---:|---:|---:|");
    for (a, name) in g.summary.algorithms.iter().enumerate() {
        let Some(c) = g
            .summary
            .cells
            .get(&Some(g.table_mb.to_bits()))
            .and_then(|s| s.get(&(a, g.depth)))
        else {
            continue;
        };
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {:.1} | {} | {} | {} |",
            display_name(name),
            fmt_count(c.leaves),
            fmt_count(c.nodes),
            crate_fmt_time(c.time_us),
            c.passes,
            fmt_ratio(c.leaves_vs_ns),
            fmt_ratio(c.nodes_vs_ns),
            fmt_ratio(c.time_vs_ns)
        );
    }
    o
}

/// Leaves relative to NegaScout against depth, largest table, for the
/// depth-first algorithms other than NegaScout.
pub fn by_depth(games: &[GameFigures]) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "| game | algorithm | depth: leaves / NegaScout |\n|---|---|---|");
    for g in games {
        for algo in [AB, MTSSS, MTDF, MTDUAL, BNS] {
            let cells: Vec<String> = g
                .summary
                .depths
                .iter()
                .filter_map(|&d| Some(format!("{d}: {:.3}", g.cell_at(algo, d)?.leaves_vs_ns?)))
                .collect();
            if !cells.is_empty() {
                let _ = writeln!(o, "| {} | {} | {} |", g.name, short_name(algo), cells.join(", "));
            }
        }
    }
    o
}

/// Leaves at the deepest depth against the table's size.
pub fn table_sizes(games: &[GameFigures]) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "| game, depth | algorithm | table entries: leaves / NegaScout's with the largest table |\n|---|---|---|"
    );
    for g in games {
        for algo in [NS, MTDF, MTSSS, MTDUAL] {
            let cells: Vec<String> = g
                .summary
                .tables
                .iter()
                .filter_map(|&t| {
                    let r = g.leaves_with_table(algo, t)?;
                    Some(format!("{}: {r:.3}", fmt_int(table_entries(t))))
                })
                .collect();
            if !cells.is_empty() {
                let _ = writeln!(
                    o,
                    "| {}, {} | {} | {} |",
                    g.name,
                    g.depth,
                    short_name(algo),
                    cells.join(", ")
                );
            }
        }
    }
    o
}

/// Leaves relative to the minimal tree at each game's deepest depth with
/// minimal trees.
pub fn minimal(games: &[GameFigures]) -> String {
    let algos = [AB, NS, MTDF, MTSSS, MTDUAL, BNS, "sss"];
    let mut o = String::new();
    let _ = writeln!(
        o,
        "| game, depth | positions | {} |\n|---|---:|{}",
        algos.iter().map(|a| short_name(a)).collect::<Vec<_>>().join(" | "),
        "---:|".repeat(algos.len())
    );
    for g in games {
        let Some(d) = g.minimal_depth() else { continue };
        let m = &g.summary.minimal[&d];
        let cells: Vec<String> = algos
            .iter()
            .map(|a| {
                g.cell_at(a, d)
                    .and_then(|c| c.leaves_vs_minimal)
                    .map_or("-".to_string(), |x| format!("{x:.2}"))
            })
            .collect();
        let _ = writeln!(o, "| {}, {d} | {} | {} |", g.name, m.positions, cells.join(" | "));
    }
    o
}

/// What each grid holds: positions, depths, table sizes, rows.
pub fn grids(games: &[GameFigures]) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "| game | positions | depths | table sizes (MiB) | minimal trees at depths | rows |\n|---|---:|---|---|---|---:|"
    );
    for g in games {
        let s = &g.summary;
        let minimal: Vec<u32> = s.minimal.keys().copied().collect();
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {} |",
            g.name,
            s.positions,
            fmt_list(&s.depths),
            s.tables
                .iter()
                .map(|t| super::fmt_mb(*t))
                .collect::<Vec<_>>()
                .join(", "),
            if minimal.is_empty() {
                "-".to_string()
            } else {
                fmt_list(&minimal)
            },
            fmt_int(s.rows as u64)
        );
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
    out.push(("by-depth".to_string(), by_depth(games)));
    out.push(("table-sizes".to_string(), table_sizes(games)));
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

/// A search's leaves per position at (depth, table) for a row name.
fn leaves_by_position<'a>(
    records: &'a [GameRecord],
    algo: &str,
    depth: u32,
    table_mb: f64,
) -> HashMap<&'a str, &'a GameRecord> {
    records
        .iter()
        .filter(|r| {
            r.algorithm == algo
                && r.depth == depth
                && r.error.is_none()
                && r.tt_mb.map(f64::to_bits) == Some(table_mb.to_bits())
        })
        .map(|r| (r.position.as_str(), r))
        .collect()
}

/// Geometric mean over the positions both maps hold of `a / b` leaves.
fn leaf_ratio(a: &HashMap<&str, &GameRecord>, b: &HashMap<&str, &GameRecord>) -> Option<f64> {
    let logs: Vec<f64> = a
        .iter()
        .filter_map(|(p, x)| {
            let y = b.get(p)?;
            (x.stats.leaf_evals > 0 && y.stats.leaf_evals > 0)
                .then(|| (x.stats.leaf_evals as f64 / y.stats.leaf_evals as f64).ln())
        })
        .collect();
    (!logs.is_empty()).then(|| (logs.iter().sum::<f64>() / logs.len() as f64).exp())
}

impl GameFigures {
    /// Per baseline variant: NegaScout's and alpha-beta's leaves at the
    /// deepest depth relative to the report's NegaScout (geometric mean),
    /// and the fraction of aspirated iterations whose window failed.
    pub fn baseline_rows(&self) -> Vec<(String, Option<f64>, Option<f64>, Option<f64>)> {
        let main_ns = leaves_by_position(&self.records, NS, self.depth, self.table_mb);
        self.baselines
            .iter()
            .map(|(name, rows)| {
                let ns = leaves_by_position(rows, NS, self.depth, self.table_mb);
                let ab = leaves_by_position(rows, AB, self.depth, self.table_mb);
                // Iteration 1 searches the full window; each failed window
                // adds one pass (the one-sided re-search cannot fail).
                let (fails, tries) = ns.values().fold((0u64, 0u64), |(f, t), r| {
                    let d = u64::from(self.depth);
                    (f + r.stats.passes.saturating_sub(d), t + d.saturating_sub(1))
                });
                let has_window = name != "no-aspiration" && tries > 0;
                (
                    name.clone(),
                    leaf_ratio(&ns, &main_ns),
                    leaf_ratio(&ab, &main_ns),
                    has_window.then(|| fails as f64 / tries as f64),
                )
            })
            .collect()
    }

    /// The variant whose NegaScout evaluates the fewest leaves, and that
    /// ratio to the report's NegaScout (1 when no variant does better).
    pub fn strongest_negascout(&self) -> (String, f64) {
        self.baseline_rows()
            .into_iter()
            .filter_map(|(n, ns, _, _)| Some((n, ns?)))
            .fold(("the report's (aspiration 10)".to_string(), 1.0), |best, x| {
                if x.1 < best.1 {
                    x
                } else {
                    best
                }
            })
    }
}

/// The baselines table: for each game with variants, NegaScout and
/// alpha-beta under each aspiration setting.
pub fn baselines(games: &[GameFigures]) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "| game, depth | baseline setting | NegaScout leaves / the report's NegaScout | alpha-beta leaves / the report's NegaScout | failed windows (NegaScout) |\n|---|---|---:|---:|---:|"
    );
    for g in games {
        for (name, ns, ab, fail) in g.baseline_rows() {
            let _ = writeln!(
                o,
                "| {}, {} | {} | {} | {} | {} |",
                g.name,
                g.depth,
                name,
                fmt_ratio(ns),
                fmt_ratio(ab),
                fail.map_or("-".to_string(), |f| format!("{:.0}%", 100.0 * f))
            );
        }
    }
    o
}

/// Best Node Search's first window: per game, the report's BNS and each
/// variant run beside it, relative to the report's NegaScout (leaves and
/// positions, geometric means at the deepest depth, largest table), with
/// the mean passes per search.
pub fn bns_windows(games: &[GameFigures]) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "| game, depth | BNS first window | leaves / NegaScout | positions / NegaScout | passes |\n|---|---|---:|---:|---:|"
    );
    for g in games {
        if g.bns_windows.is_empty() {
            continue;
        }
        let main_ns = leaves_by_position(&g.records, NS, g.depth, g.table_mb);
        let ratio = |rows: &HashMap<&str, &GameRecord>, f: fn(&Stats) -> u64| -> Option<f64> {
            let logs: Vec<f64> = rows
                .iter()
                .filter_map(|(p, x)| {
                    let y = main_ns.get(p)?;
                    (f(&x.stats) > 0 && f(&y.stats) > 0).then(|| (f(&x.stats) as f64 / f(&y.stats) as f64).ln())
                })
                .collect();
            (!logs.is_empty()).then(|| (logs.iter().sum::<f64>() / logs.len() as f64).exp())
        };
        let mut rows = vec![(
            "the report's grid (see the setting)".to_string(),
            leaves_by_position(&g.records, BNS, g.depth, g.table_mb),
        )];
        for (name, records) in &g.bns_windows {
            rows.push((name.clone(), leaves_by_position(records, BNS, g.depth, g.table_mb)));
        }
        for (name, r) in rows {
            let passes = r.values().map(|x| x.stats.passes as f64).sum::<f64>() / r.len().max(1) as f64;
            let _ = writeln!(
                o,
                "| {}, {} | {} | {} | {} | {:.1} |",
                g.name,
                g.depth,
                name,
                fmt_ratio(ratio(&r, |s| s.leaf_evals)),
                fmt_ratio(ratio(&r, |s| s.nodes)),
                passes
            );
        }
    }
    o
}

/// The algorithms of the random-tree table of Best Node Search, with their
/// column titles.
const RANDOM_ALGOS: &[(&str, &str)] = &[
    ("negascout", "NegaScout"),
    ("sss", "SSS\\*"),
    ("dual", "Dual\\*"),
    ("mtdf", "MTD(f)"),
    ("mtd-bi", "MTD(bi)"),
    ("bns", "BNS"),
    ("bns-bisect", "BNS, midpoint guess"),
];

/// Depths of the random-tree table: the shallow trees are too small to
/// tell the algorithms apart.
const RANDOM_DEPTHS: std::ops::RangeInclusive<u32> = 4..=8;

/// The random-tree table of Best Node Search (a random-tree grid's rows):
/// per shape, each algorithm's leaves relative to alpha-beta's on the same
/// tree (geometric mean over depths 4-8 and seeds), and which algorithm
/// evaluates the fewest leaves and visits the fewest positions.
pub fn bns_random(records: &[crate::Record]) -> String {
    use std::collections::BTreeMap;
    type Tree = (String, String, u32, u32, u64);
    let mut by_tree: HashMap<(Tree, &str), &crate::Record> = HashMap::new();
    let mut shapes: BTreeMap<(String, String, u32), ()> = BTreeMap::new();
    for r in records
        .iter()
        .filter(|r| r.error.is_none() && RANDOM_DEPTHS.contains(&r.depth))
    {
        by_tree.insert((r.tree_key(), r.algorithm.as_str()), r);
        shapes.insert((r.model.clone(), r.order.clone(), r.width), ());
    }
    let geomean = |xs: &[f64]| (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp();
    let mut o = String::new();
    let _ = writeln!(
        o,
        "| tree | {} | fewest leaves | fewest positions |\n|---|{}---|---|",
        RANDOM_ALGOS.iter().map(|a| a.1).collect::<Vec<_>>().join(" | "),
        "---:|".repeat(RANDOM_ALGOS.len())
    );
    let (mut fewest_bns, mut shapes_seen, mut excess) = (0, 0, Vec::new());
    for (model, order, width) in shapes.keys() {
        let trees: Vec<&Tree> = by_tree
            .keys()
            .filter(|(t, a)| *a == "alphabeta" && t.0 == *model && t.1 == *order && t.2 == *width)
            .map(|(t, _)| t)
            .collect();
        let ratio = |algo: &str, f: fn(&Stats) -> u64| -> Option<f64> {
            let xs: Vec<f64> = trees
                .iter()
                .filter_map(|t| {
                    let a = by_tree.get(&((*t).clone(), algo))?;
                    let b = by_tree.get(&((*t).clone(), "alphabeta"))?;
                    (f(&b.stats) > 0 && f(&a.stats) > 0).then(|| f(&a.stats) as f64 / f(&b.stats) as f64)
                })
                .collect();
            (!xs.is_empty()).then(|| geomean(&xs))
        };
        let leaves: Vec<Option<f64>> = RANDOM_ALGOS.iter().map(|a| ratio(a.0, |s| s.leaf_evals)).collect();
        let nodes: Vec<Option<f64>> = RANDOM_ALGOS.iter().map(|a| ratio(a.0, |s| s.nodes)).collect();
        let best = |xs: &[Option<f64>]| -> Option<usize> {
            (0..xs.len())
                .filter(|&i| xs[i].is_some())
                .min_by(|&i, &j| xs[i].unwrap().total_cmp(&xs[j].unwrap()))
        };
        let (bl, bn) = (best(&leaves), best(&nodes));
        let cells: Vec<String> = leaves
            .iter()
            .enumerate()
            .map(|(i, x)| match x {
                Some(x) if Some(i) == bl => format!("**{x:.2}**"),
                Some(x) => format!("{x:.2}"),
                None => "-".to_string(),
            })
            .collect();
        let name = |b: Option<usize>| b.map_or("-".to_string(), |i| RANDOM_ALGOS[i].1.to_string());
        let order_text = if order == "random" { "random order" } else { "ordered" };
        shapes_seen += 1;
        if bl.is_some_and(|i| RANDOM_ALGOS[i].0.starts_with("bns")) {
            fewest_bns += 1;
        }
        // BNS (Rutko's guess) against the best of SSS*, Dual* and MTD(f) on
        // iid trees of width 4 and 8, the model of most random-tree studies.
        if model == "iid" && *width >= 4 {
            let at = |name: &str| RANDOM_ALGOS.iter().position(|a| a.0 == name).and_then(|i| leaves[i]);
            let others = ["sss", "dual", "mtdf"]
                .iter()
                .filter_map(|a| at(a))
                .fold(f64::INFINITY, f64::min);
            if let Some(b) = at("bns") {
                excess.push((format!("{order_text}, w{width}"), b / others - 1.0));
            }
        }
        let _ = writeln!(
            o,
            "| {model}, {order_text}, w{width} | {} | {} | {} |",
            cells.join(" | "),
            name(bl),
            name(bn)
        );
    }
    let _ = writeln!(
        o,
        "\nBest Node Search (Rutko's guess or the midpoint) evaluates the fewest leaves on {fewest_bns} of \
         {shapes_seen} shapes: **{}** (rule: the fewest leaves on every shape).",
        if fewest_bns == shapes_seen {
            "reproduced"
        } else {
            "not reproduced"
        }
    );
    if !excess.is_empty() {
        let _ = writeln!(
            o,
            "On iid trees of width 4 and 8, BNS with Rutko's guess evaluates more leaves than the best of \
             SSS\\*, Dual\\* and MTD(f) by: {}.",
            excess
                .iter()
                .map(|(shape, x)| format!("{:.0}% ({shape})", 100.0 * x))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    o
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

#[cfg(test)]
mod tests {
    use super::*;

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
        let dir = std::env::temp_dir().join(format!("stockman-claims-{}-{mt_sss_small}", std::process::id()));
        std::fs::create_dir_all(dir.join("checkers")).unwrap();
        crate::games::write_csv(&dir.join("checkers/results.csv"), &records(mt_sss_small)).unwrap();
        let g = GameFigures::load(&dir, &REPORT_GAMES[3]).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        g
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
        let v = verdicts(&[g.clone()]);
        assert!(
            v.contains("| 3 a table of fewer than 2^20 entries is enough for MT-SSS\\* |"),
            "{v}"
        );
        assert!(v.contains("| reproduced (1.000) |"), "{v}");
        let d = deepest(&g);
        assert!(
            d.contains("**checkers, depth 4** (2 positions, 16 MiB table, 786,432 entries)"),
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
}
