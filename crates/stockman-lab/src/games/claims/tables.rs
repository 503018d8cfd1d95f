//! The report's tables: each game at its deepest depth, against depth, by
//! table size, against the minimal tree, the grids, the baselines and Best
//! Node Search's first windows.

use super::{
    display_name, ratio_by_position, rows_by_position, short_name, GameFigures, AB, BNS, MTDF, MTDUAL, MTSSS, NS,
};
use crate::games::summary::{crate_fmt_time, fmt_count, fmt_int, fmt_list, fmt_ratio};
use crate::games::{fmt_mb, table_entries};
use std::fmt::Write as _;

/// A game's table at its deepest depth with the largest table.
pub fn deepest(g: &GameFigures) -> String {
    let mut o = String::new();
    let n = g.cell(NS).map_or(0, |c| c.searches);
    let runs = 1 + g.repeats.len();
    let _ = writeln!(
        o,
        "**{}, depth {}** ({} positions, {} MiB table, {} entries; times: {}):\n",
        g.name,
        g.depth,
        n,
        fmt_mb(g.table_mb),
        fmt_int(table_entries(g.table_mb)),
        if runs > 1 {
            format!("the median of {runs} runs, ranges in table `timing`")
        } else {
            "one run".to_string()
        }
    );
    let _ = writeln!(
        o,
        "| algorithm | mean leaves | mean positions | mean CPU time | passes | leaves / NegaScout | positions / NegaScout | time / NegaScout |"
    );
    let _ = writeln!(o, "|---|---:|---:|---:|---:|---:|---:|---:|");
    for name in &g.summary.algorithms {
        let Some(c) = g.cell(name) else { continue };
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {:.1} | {} | {} | {} |",
            display_name(name),
            fmt_count(c.leaves),
            fmt_count(c.nodes),
            crate_fmt_time(super::median(&g.mean_time_runs(name)).unwrap_or(c.time_us)),
            c.passes,
            fmt_ratio(c.leaves_vs_ns),
            fmt_ratio(c.nodes_vs_ns),
            fmt_ratio(g.vs_negascout(name, super::Measure::Time))
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
            s.tables.iter().map(|t| fmt_mb(*t)).collect::<Vec<_>>().join(", "),
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

/// The baselines table: for each game with variants, NegaScout and
/// alpha-beta under each aspiration setting.
pub fn baselines(games: &[GameFigures]) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "| game, depth | baseline setting | NegaScout leaves / the report's NegaScout | alpha-beta leaves / the report's NegaScout | failed windows (NegaScout) |\n|---|---|---:|---:|---:|"
    );
    for g in games {
        for row in g.baseline_rows() {
            let _ = writeln!(
                o,
                "| {}, {} | {} | {} | {} | {} |",
                g.name,
                g.depth,
                row.name,
                fmt_ratio(row.negascout),
                fmt_ratio(row.alphabeta),
                row.failed.map_or("-".to_string(), |f| format!("{:.0}%", 100.0 * f))
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
        let main_ns = rows_by_position(&g.records, NS, g.depth, g.table_mb);
        let mut rows = vec![(
            "the report's grid (see the setting)".to_string(),
            rows_by_position(&g.records, BNS, g.depth, g.table_mb),
        )];
        for (name, records) in &g.bns_windows {
            rows.push((name.clone(), rows_by_position(records, BNS, g.depth, g.table_mb)));
        }
        for (name, r) in rows {
            let passes = r.values().map(|x| x.stats.passes as f64).sum::<f64>() / r.len().max(1) as f64;
            let _ = writeln!(
                o,
                "| {}, {} | {} | {} | {} | {:.1} |",
                g.name,
                g.depth,
                name,
                fmt_ratio(ratio_by_position(&r, &main_ns, |s| s.leaf_evals)),
                fmt_ratio(ratio_by_position(&r, &main_ns, |s| s.nodes)),
                passes
            );
        }
    }
    o
}

/// Positions at the depth limit in the table or not: per game with rows
/// in `no-horizon/`, each algorithm's leaves relative to NegaScout's in
/// the report's setting (stored) and with none stored on either side, and
/// its own leaves and positions without them relative to with them.
pub fn horizon(games: &[GameFigures]) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "| game, depth | algorithm | leaves / NegaScout, stored (the report) | leaves / NegaScout, none stored | leaves, none / stored | positions, none / stored |\n|---|---|---:|---:|---:|---:|"
    );
    for g in games {
        for name in &g.summary.algorithms {
            let Some((vs_ns, own)) = g.no_horizon_ratios(name, |s| s.leaf_evals) else {
                continue;
            };
            let positions = g.no_horizon_ratios(name, |s| s.nodes).map(|r| r.1);
            let _ = writeln!(
                o,
                "| {}, {} | {} | {} | {} | {} | {} |",
                g.name,
                g.depth,
                short_name(name),
                fmt_ratio(g.vs_negascout(name, super::Measure::Leaves)),
                fmt_ratio(Some(vs_ns)),
                fmt_ratio(Some(own)),
                fmt_ratio(positions)
            );
        }
    }
    o
}

/// The table-size curves: for each game that has one, each table-using
/// search's leaves at the curve's depth against the table's entries,
/// relative to NegaScout's with the largest table, and the mean positions
/// a search visited with the largest table (every pass counted: more than
/// the distinct positions the table must hold).
pub fn table_curve(games: &[GameFigures]) -> String {
    let mut o = String::new();
    for g in games {
        for c in &g.table_curves {
            let Some(&depth) = c.depths.last() else { continue };
            let Some(&largest) = c.tables.last() else { continue };
            let _ = writeln!(
                o,
                "**{}, depth {depth}** ({} positions): leaves relative to NegaScout's with {} entries\n",
                g.name,
                c.positions,
                fmt_int(table_entries(largest))
            );
            let _ = writeln!(
                o,
                "| algorithm | {} | mean positions visited ({} entries) |\n|---|{}---:|",
                c.tables
                    .iter()
                    .map(|t| fmt_int(table_entries(*t)))
                    .collect::<Vec<_>>()
                    .join(" | "),
                fmt_int(table_entries(largest)),
                "---:|".repeat(c.tables.len())
            );
            // The cell of algorithm `a` with table `t` at the curve's depth.
            let cell = |a: usize, t: f64| c.cells.get(&Some(t.to_bits()))?.get(&(a, depth));
            let mut stopped_any = false;
            for (a, name) in c.algorithms.iter().enumerate() {
                let cells: Vec<String> = c
                    .tables
                    .iter()
                    .map(|&t| {
                        let ratio = fmt_ratio(c.by_table.get(&(a, t.to_bits())).copied());
                        // Searches stopped at the grid's cap are not in the mean: say so.
                        let failed = cell(a, t).map_or(0, |cell| cell.failed);
                        if failed > 0 {
                            stopped_any = true;
                            format!("{ratio} ({failed} stopped)")
                        } else {
                            ratio
                        }
                    })
                    .collect();
                let mean = cell(a, largest).map(|cell| cell.nodes.round() as u64);
                let _ = writeln!(
                    o,
                    "| {} | {} | {} |",
                    short_name(name),
                    cells.join(" | "),
                    mean.map_or("-".to_string(), fmt_int)
                );
            }
            if stopped_any {
                let _ = writeln!(
                    o,
                    "\n(N stopped): searches that reached the grid's node cap before the depth, left out of \
                     the mean of their cell, which therefore understates it."
                );
            }
            let _ = writeln!(o);
        }
    }
    o
}

/// The times of the deepest depth over every run: per algorithm, the
/// median of the mean CPU time per search and of the time relative to
/// NegaScout, each with its range (smallest-largest).
pub fn timing(games: &[GameFigures]) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "| game, depth | algorithm | runs | mean CPU time: median (range) | time / NegaScout: median (range) |\n|---|---|---:|---|---|"
    );
    let range = |xs: &[f64], f: &dyn Fn(f64) -> String| -> String {
        match median_range(xs) {
            Some((m, lo, hi)) if xs.len() > 1 => format!("{} ({}-{})", f(m), f(lo), f(hi)),
            Some((m, _, _)) => f(m),
            None => "-".to_string(),
        }
    };
    for g in games {
        for name in &g.summary.algorithms {
            let times = g.mean_time_runs(name);
            if times.is_empty() {
                continue;
            }
            let ratios = g.time_runs(name);
            let _ = writeln!(
                o,
                "| {}, {} | {} | {} | {} | {} |",
                g.name,
                g.depth,
                short_name(name),
                times.len(),
                range(&times, &crate_fmt_time),
                range(&ratios, &|x| format!("{x:.3}"))
            );
        }
    }
    o
}

/// Time against depth (largest table): per game and algorithm, at each
/// depth the median and range (smallest-largest) over the runs of the total
/// CPU time relative to NegaScout's ([`GameFigures::time_runs_at`]); a
/// depth with a single run says so. Depths where NegaScout took under
/// 0.1 ms a search are left out, as in the grids' summaries.
pub fn timing_by_depth(games: &[GameFigures]) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "| game | algorithm | runs | depth: time / NegaScout, median (range) |\n|---|---|---:|---|"
    );
    for g in games {
        for algo in &g.summary.algorithms {
            if algo == NS {
                continue;
            }
            let mut runs = Vec::new();
            let cells: Vec<String> = g
                .summary
                .depths
                .iter()
                .filter_map(|&d| {
                    let xs = g.time_runs_at(algo, d);
                    let (m, lo, hi) = median_range(&xs)?;
                    runs.push(xs.len());
                    Some(if xs.len() > 1 {
                        format!("{d}: {m:.3} ({lo:.3}-{hi:.3})")
                    } else {
                        format!("{d}: {m:.3} (one run)")
                    })
                })
                .collect();
            if cells.is_empty() {
                continue;
            }
            let (fewest, most) = (runs.iter().min().copied(), runs.iter().max().copied());
            let runs = match (fewest, most) {
                (Some(a), Some(b)) if a == b => a.to_string(),
                (Some(a), Some(b)) => format!("{a}-{b}"),
                _ => "-".to_string(),
            };
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} |",
                g.name,
                short_name(algo),
                runs,
                cells.join(", ")
            );
        }
    }
    o
}

/// The median, smallest and largest of `xs`; `None` when empty.
fn median_range(xs: &[f64]) -> Option<(f64, f64, f64)> {
    let m = super::median(xs)?;
    let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some((m, lo, hi))
}
