//! `stockman experiment --game G --positions F`: every algorithm at every
//! depth on every position of a test set, as in Plaat et al.'s figures:
//! one CSV row per position, depth and algorithm, a check that they agree
//! on the value, and a summary relative to NegaScout.

use crate::games::{with_game, GameName, GameTask};
use crate::runner::Enhancements;
use anyhow::{anyhow, bail, Context, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use stockman::algorithms::iterative;
use stockman::{Algorithm, Playable, SearchOptions, Stats, TableSize, Value};

/// What a game grid runs.
pub struct GameGrid {
    pub game: GameName,
    pub positions: PathBuf,
    pub algorithms: Vec<Algorithm>,
    pub depths: Vec<u32>,
    pub iterative: bool,
    pub tt_mb: usize,
    pub enhance: Enhancements,
    pub max_nodes: Option<u64>,
    pub out: PathBuf,
    pub force: bool,
}

/// One search of the grid (a CSV row).
struct Row {
    position: String,
    depth: u32,
    algorithm: String,
    value: Option<Value>,
    bound: Option<(Value, Value)>,
    stats: Stats,
    error: Option<String>,
}

pub fn run(g: GameGrid) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&g.positions)
        .map_err(|e| anyhow!("cannot read positions file {}: {e}", g.positions.display()))?;
    let set = g
        .game
        .position_lines(&text)
        .map_err(|e| anyhow!("{}:{}: {}", g.positions.display(), e.line, e.message))?;
    if set.is_empty() {
        bail!("{}: no positions in the file", g.positions.display());
    }
    std::fs::create_dir_all(&g.out).with_context(|| format!("cannot create {}", g.out.display()))?;
    let results = g.out.join("results.csv");
    if results.exists() && !g.force {
        bail!("{} exists: pass --force to replace it", results.display());
    }
    let mut rows = Vec::new();
    for p in &set {
        for &depth in &g.depths {
            let task = Grid { g: &g, depth };
            let found = with_game(g.game, &p.position, true, task)
                .with_context(|| format!("{}:{}", g.positions.display(), p.line))?;
            rows.extend(found.into_iter().map(|mut r| {
                r.position = p.position.clone();
                r
            }));
        }
    }
    let disagreements = check_agreement(&rows);
    write_csv(&results, &rows)?;
    let summary = summary(&g, &rows);
    std::fs::write(g.out.join("summary.md"), &summary).with_context(|| format!("cannot write {}", g.out.display()))?;
    print!("{summary}");
    println!("wrote {}", results.display());
    println!("wrote {}", g.out.join("summary.md").display());
    if !disagreements.is_empty() {
        for d in &disagreements {
            eprintln!("error: {d}");
        }
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

struct Grid<'a> {
    g: &'a GameGrid,
    depth: u32,
}

impl GameTask for Grid<'_> {
    type Output = Vec<Row>;

    fn run<G: Playable + Sync>(self, game: G) -> Result<Vec<Row>> {
        let mut opts = SearchOptions {
            depth: Some(self.depth),
            max_nodes: self.g.max_nodes,
            table: TableSize::Megabytes(self.g.tt_mb),
            table_move_first: true,
            ..SearchOptions::default()
        };
        self.g.enhance.apply(&mut opts, self.g.iterative);
        let mut rows = Vec::new();
        for &algo in &self.g.algorithms {
            let deepen = self.g.iterative && !algo.is_best_first();
            let r = if deepen {
                iterative::search(&game, algo, &opts)
            } else {
                algo.search(&game, &opts)
            };
            let name = if deepen {
                format!("{algo}+id")
            } else {
                algo.name().to_string()
            };
            rows.push(match r {
                Ok(o) => Row {
                    position: String::new(),
                    depth: self.depth,
                    algorithm: name,
                    value: o.value,
                    bound: o.bound,
                    stats: o.stats,
                    error: None,
                },
                Err(e) => Row {
                    position: String::new(),
                    depth: self.depth,
                    algorithm: name,
                    value: None,
                    bound: None,
                    stats: e.stats().copied().unwrap_or_default(),
                    error: Some(e.to_string()),
                },
            });
        }
        Ok(rows)
    }
}

/// Every search that found a value at a position and depth found the same
/// one, and every BNS bound holds it.
fn check_agreement(rows: &[Row]) -> Vec<String> {
    let mut by: BTreeMap<(&str, u32), Vec<&Row>> = BTreeMap::new();
    for r in rows {
        by.entry((r.position.as_str(), r.depth)).or_default().push(r);
    }
    let mut out = Vec::new();
    for ((pos, depth), rs) in by {
        let values: Vec<(&str, Value)> = rs
            .iter()
            .filter_map(|r| r.value.map(|v| (r.algorithm.as_str(), v)))
            .collect();
        if let Some(&(_, v)) = values.first() {
            if let Some((a, w)) = values.iter().find(|(_, w)| *w != v) {
                out.push(format!(
                    "position {pos} depth {depth}: {a} found {w}, {} found {v}",
                    values[0].0
                ));
            }
            for r in rs.iter().filter(|r| r.bound.is_some()) {
                let (lo, hi) = r.bound.expect("filtered");
                if !(lo <= v && v < hi) {
                    out.push(format!(
                        "position {pos} depth {depth}: {} bound [{lo}, {hi}) misses {v}",
                        r.algorithm
                    ));
                }
            }
        }
    }
    out
}

fn write_csv(path: &Path, rows: &[Row]) -> Result<()> {
    let mut s = String::from(
        "position,depth,algorithm,value,bound_low,bound_high,leaf_evals,nodes_expanded,nodes,passes,tt_probes,tt_hits,tt_stores,max_open,time_us,error\n",
    );
    for r in rows {
        let opt = |v: Option<Value>| v.map_or(String::new(), |v| v.to_string());
        let st = &r.stats;
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.position,
            r.depth,
            r.algorithm,
            opt(r.value),
            opt(r.bound.map(|b| b.0)),
            opt(r.bound.map(|b| b.1)),
            st.leaf_evals,
            st.nodes_expanded,
            st.nodes,
            st.passes,
            st.tt_probes,
            st.tt_hits,
            st.tt_stores,
            st.max_open,
            st.time_us,
            r.error
                .as_deref()
                .map_or(String::new(), |e| format!("\"{}\"", e.replace('"', "'")))
        );
    }
    std::fs::write(path, s).with_context(|| format!("cannot write {}", path.display()))
}

/// Per depth and algorithm: mean leaves, nodes and time, and the geometric
/// mean over positions of leaves and nodes relative to NegaScout's.
fn summary(g: &GameGrid, rows: &[Row]) -> String {
    let mut out = format!(
        "# {} on {} ({} positions), depths {:?}{}\n\n",
        g.algorithms.iter().map(|a| a.name()).collect::<Vec<_>>().join(", "),
        g.positions.display(),
        rows.iter()
            .map(|r| &r.position)
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        g.depths,
        if g.iterative { ", iterative deepening" } else { "" }
    );
    let base: BTreeMap<(&str, u32), &Row> = rows
        .iter()
        .filter(|r| r.algorithm.starts_with("negascout") && r.error.is_none())
        .map(|r| ((r.position.as_str(), r.depth), r))
        .collect();
    out.push_str("| depth | algorithm | searches | mean leaves | mean nodes | mean time | leaves / NegaScout | nodes / NegaScout | failed |\n");
    out.push_str("|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
    let mut groups: BTreeMap<(u32, usize, &str), Vec<&Row>> = BTreeMap::new();
    for r in rows {
        let rank = g
            .algorithms
            .iter()
            .position(|a| r.algorithm.starts_with(a.name()))
            .unwrap_or(usize::MAX);
        groups.entry((r.depth, rank, r.algorithm.as_str())).or_default().push(r);
    }
    for ((depth, _, algo), rs) in groups {
        let ok: Vec<&&Row> = rs.iter().filter(|r| r.error.is_none()).collect();
        let n = ok.len().max(1) as f64;
        let mean = |f: &dyn Fn(&Stats) -> u64| ok.iter().map(|r| f(&r.stats) as f64).sum::<f64>() / n;
        let geo = |f: &dyn Fn(&Stats) -> u64| {
            let logs: Vec<f64> = ok
                .iter()
                .filter_map(|r| {
                    let b = base.get(&(r.position.as_str(), r.depth))?;
                    let (x, y) = (f(&r.stats) as f64, f(&b.stats) as f64);
                    (x > 0.0 && y > 0.0).then(|| (x / y).ln())
                })
                .collect();
            if logs.is_empty() {
                "-".to_string()
            } else {
                format!("{:.3}", (logs.iter().sum::<f64>() / logs.len() as f64).exp())
            }
        };
        let _ = writeln!(
            out,
            "| {depth} | {algo} | {} | {:.1} | {:.1} | {} | {} | {} | {} |",
            ok.len(),
            mean(&|s| s.leaf_evals),
            mean(&|s| s.nodes),
            crate::report::fmt_time(mean(&|s| s.time_us) as u64),
            geo(&|s| s.leaf_evals),
            geo(&|s| s.nodes),
            rs.len() - ok.len()
        );
    }
    out.push_str("\n(relative columns: geometric mean over positions of the ratio to NegaScout's count at the same position and depth)\n");
    out
}
