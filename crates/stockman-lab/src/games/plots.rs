//! The summary's plots.

use super::summary::table_title;
use super::{fmt_mb, GameCell, GameSummary};
use crate::report::{plot_lines, Axes, Series};
use crate::Error;

impl GameSummary {
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
