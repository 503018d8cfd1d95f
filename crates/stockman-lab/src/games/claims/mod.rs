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
use super::GameRecord;
use crate::Error;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use stockman::Stats;

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

mod blocks;
mod figures;
mod random;
mod tables;
#[cfg(test)]
mod tests;

pub use blocks::fill_blocks;
pub use figures::{median, GameFigures, Measure, ReportGame, REPORT_GAMES};
pub use random::bns_random;
pub use tables::{
    baselines, bns_windows, by_depth, deepest, grids, horizon, minimal, table_curve, table_sizes, timing,
    timing_by_depth,
};
