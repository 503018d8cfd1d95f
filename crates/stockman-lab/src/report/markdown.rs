//! The [`Summary`] as Markdown: the checks, then per panel the tables of
//! leaves and ratios with their spreads.

use super::{Cell, PanelKey, Spread, Summary};
use crate::grid::minimal_leaves;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use stockman::Algorithm;

fn fmt_num(x: f64) -> String {
    if x >= 1000.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

fn fmt_spread(s: &Spread, digits: usize) -> String {
    format!("{:.digits$} ± {:.digits$}", s.mean, s.sd)
}

impl Summary {
    /// The depths of a panel, ascending.
    pub fn depths(&self, panel: &PanelKey) -> Vec<u32> {
        self.panels[panel]
            .keys()
            .map(|&(_, d)| d)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    }

    /// The summary as Markdown: the checks, then per panel the tables of
    /// leaves relative to alpha-beta and to the minimal tree, mean leaves,
    /// OPEN peaks of the best-first searches and passes of the drivers.
    pub fn markdown(&self, title: &str) -> String {
        let mut o = String::new();
        let _ = writeln!(o, "# {title}\n");
        let _ = writeln!(
            o,
            "{} searches on {} random trees by {} algorithms ({}).",
            self.searches,
            self.trees,
            self.algorithms.len(),
            self.algorithms.join(", ")
        );
        if self.errors > 0 {
            let _ = writeln!(
                o,
                "\n**{} searches stopped at a limit and are left out of the means.**",
                self.errors
            );
        }
        if self.gaps > 0 {
            let _ = writeln!(
                o,
                "\n**{} job numbers are missing: the run was interrupted or a shard is missing.**",
                self.gaps
            );
        }
        let _ = writeln!(
            o,
            "\nEach cell is the mean over the trees (seeds) ± the sample standard deviation. \
             Ratios are taken per tree, then averaged. The minimal tree of width w and depth d has \
             w^ceil(d/2) + w^floor(d/2) - 1 leaves (Knuth and Moore 1975)."
        );
        if !self.claims.is_empty() {
            let _ = writeln!(o, "\n## Checks of published claims\n");
            let _ = writeln!(o, "| claim | trees | holds on | |");
            let _ = writeln!(o, "|---|---:|---:|---|");
            for c in &self.claims {
                let verdict = if c.held == c.trees {
                    "confirmed"
                } else {
                    "**contradicted**"
                };
                let _ = writeln!(o, "| {} | {} | {} ({verdict}) | {} |", c.claim, c.trees, c.held, c.note);
            }
        }
        for (panel, cells) in &self.panels {
            let depths = self.depths(panel);
            let _ = writeln!(o, "\n## {}\n", panel.title());
            let algos: Vec<usize> = cells
                .keys()
                .map(|&(a, _)| a)
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            let head = |o: &mut String, first: &str| {
                let _ = write!(o, "| {first} |");
                for d in &depths {
                    let _ = write!(o, " d={d} |");
                }
                let _ = write!(o, "\n|---|");
                for _ in &depths {
                    let _ = write!(o, "---:|");
                }
                o.push('\n');
            };
            let table = |o: &mut String,
                         heading: &str,
                         rows: &[usize],
                         cell: &dyn Fn(&Cell) -> Option<String>,
                         extra: Option<(&str, &dyn Fn(u32) -> String)>| {
                let body: Vec<(usize, Vec<String>)> = rows
                    .iter()
                    .map(|&a| {
                        let row = depths
                            .iter()
                            .map(|&d| cells.get(&(a, d)).and_then(cell).unwrap_or_else(|| "-".to_string()))
                            .collect::<Vec<_>>();
                        (a, row)
                    })
                    .filter(|(_, row)| row.iter().any(|c| c != "-"))
                    .collect();
                if body.is_empty() {
                    return;
                }
                let _ = writeln!(o, "### {heading}\n");
                head(o, "algorithm");
                for (a, row) in body {
                    let _ = writeln!(o, "| {} | {} |", self.algorithms[a], row.join(" | "));
                }
                if let Some((name, f)) = extra {
                    let row: Vec<String> = depths.iter().map(|&d| f(d)).collect();
                    let _ = writeln!(o, "| {name} | {} |", row.join(" | "));
                }
                o.push('\n');
            };
            table(
                &mut o,
                "Leaves relative to alpha-beta",
                &algos,
                &|c| c.vs_alphabeta.map(|s| fmt_spread(&s, 3)),
                None,
            );
            table(
                &mut o,
                "Positions visited relative to alpha-beta",
                &algos,
                &|c| c.nodes_vs_alphabeta.map(|s| fmt_spread(&s, 3)),
                None,
            );
            table(
                &mut o,
                "Time relative to alpha-beta (per tree, where alpha-beta took at least 0.1 ms; \
                 measure with --threads 1)",
                &algos,
                &|c| c.time_vs_alphabeta.map(|s| fmt_spread(&s, 2)),
                None,
            );
            table(
                &mut o,
                "Leaves relative to the minimal tree",
                &algos,
                &|c| Some(fmt_spread(&c.vs_minimal, 2)),
                None,
            );
            let w = panel.width;
            table(
                &mut o,
                "Leaves evaluated (mean)",
                &algos,
                &|c| Some(fmt_num(c.leaves.mean)),
                Some(("minimal tree", &|d| format!("{}", minimal_leaves(w, d)))),
            );
            let best_first: Vec<usize> = algos
                .iter()
                .copied()
                .filter(|&a| self.algorithms[a].parse::<Algorithm>().is_ok_and(|x| x.is_best_first()))
                .collect();
            table(
                &mut o,
                "Peak OPEN size of the best-first searches (mean (largest), or the one value)",
                &best_first,
                &|c| {
                    Some(if c.max_open.min == c.max_open.max {
                        format!("{}", c.max_open.max)
                    } else {
                        format!("{} ({})", fmt_num(c.max_open.mean), c.max_open.max)
                    })
                },
                None,
            );
            let drivers: Vec<usize> = algos
                .iter()
                .copied()
                .filter(|&a| cells.iter().any(|(&(b, _), c)| b == a && c.passes.max > 1.0))
                .collect();
            table(
                &mut o,
                "Passes over the root (mean ± sd)",
                &drivers,
                &|c| Some(fmt_spread(&c.passes, 1)),
                None,
            );
        }
        o
    }
}
