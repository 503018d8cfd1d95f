//! The summary of a game grid: ratios to NegaScout and to the minimal
//! tree, as Markdown.

use super::{check_agreement, fmt_mb, GameRecord, MINIMAL, MIN_TIME_US};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use stockman::{Algorithm, Stats};

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
pub(super) fn geomean(xs: &[f64]) -> Option<f64> {
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

pub(super) fn fmt_ratio(x: Option<f64>) -> String {
    x.map_or("-".to_string(), |x| format!("{x:.3}"))
}

pub(super) fn fmt_count(x: f64) -> String {
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

pub(super) fn fmt_int(x: u64) -> String {
    if x >= 1000 {
        fmt_count(x as f64)
    } else {
        x.to_string()
    }
}

pub(super) fn table_title(t: Option<u64>) -> String {
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
}

pub(super) fn crate_fmt_time(us: f64) -> String {
    if us >= 10_000_000.0 {
        format!("{:.1} s", us / 1e6)
    } else if us >= 10_000.0 {
        format!("{:.1} ms", us / 1e3)
    } else {
        format!("{us:.0} us")
    }
}

pub(super) fn fmt_list(xs: &[u32]) -> String {
    match xs {
        [] => String::new(),
        [x] => x.to_string(),
        [first, .., last] if xs.windows(2).all(|w| w[1] == w[0] + 1) => format!("{first}-{last}"),
        _ => xs.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
    }
}
