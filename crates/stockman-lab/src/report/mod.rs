//! From records to conclusions: the [`Summary`] (means and spreads over
//! seeds, checks of the published claims), its Markdown form, and the SVG plots.

use crate::grid::minimal_leaves;
use crate::record::Record;
use crate::Error;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use stockman::Algorithm;

/// Mean and spread of a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// Sample size.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (n - 1 in the denominator; 0 for one value).
    pub sd: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
}

impl Spread {
    /// The spread of `xs`, or `None` for an empty sample.
    pub fn of(xs: &[f64]) -> Option<Spread> {
        if xs.is_empty() {
            return None;
        }
        let n = xs.len();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let sd = if n > 1 {
            (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
        let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Some(Spread { n, mean, sd, min, max })
    }
}

/// Trees of one kind: the lines of one plot, the tables of one section.
/// Sorted by model, then ordering (`random` first, then by probability), then width.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PanelKey {
    /// `iid` or `incremental` (sorted: iid first).
    pub model: String,
    /// `random` or the probability of the best child first.
    pub order: String,
    /// Branching factor.
    pub width: u32,
}

impl PanelKey {
    fn order_rank(&self) -> (u8, f64) {
        match self.order.parse::<f64>() {
            Ok(p) => (1, p),
            Err(_) => (if self.order == "random" { 0 } else { 2 }, 0.0),
        }
    }
}

impl Ord for PanelKey {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        let (a, b) = (self.order_rank(), o.order_rank());
        self.model
            .cmp(&o.model)
            .then(a.0.cmp(&b.0))
            .then(a.1.total_cmp(&b.1))
            .then(self.order.cmp(&o.order))
            .then(self.width.cmp(&o.width))
    }
}

impl PartialOrd for PanelKey {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

impl PanelKey {
    /// A heading: `iid values, random ordering, width 4`.
    pub fn title(&self) -> String {
        let order = if self.order == "random" {
            "random ordering".to_string()
        } else {
            format!("best child first with probability {}", self.order)
        };
        format!("{} values, {order}, width {}", self.model, self.width)
    }

    /// A file-name part: `iid_random_w4`, `incremental_order0.9_w4`.
    pub fn slug(&self) -> String {
        let order = if self.order == "random" {
            "random".to_string()
        } else {
            format!("order{}", self.order)
        };
        format!("{}_{}_w{}", self.model, order, self.width)
    }
}

/// One algorithm at one depth of one panel, over the seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Leaves evaluated.
    pub leaves: Spread,
    /// Leaves divided by alpha-beta's on the same tree (if alpha-beta ran).
    pub vs_alphabeta: Option<Spread>,
    /// Positions visited divided by alpha-beta's on the same tree (the
    /// drivers' passes re-enter the tree through the table).
    pub nodes_vs_alphabeta: Option<Spread>,
    /// Leaves divided by the minimal tree's.
    pub vs_minimal: Spread,
    /// Time divided by alpha-beta's on the same tree (if alpha-beta ran and
    /// took at least 100 microseconds, below which the clock says little).
    pub time_vs_alphabeta: Option<Spread>,
    /// Peak OPEN size.
    pub max_open: Spread,
    /// Passes over the root.
    pub passes: Spread,
}

/// One checked claim of the literature.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// The claim, with its source.
    pub claim: String,
    /// Trees on which it could be checked.
    pub trees: usize,
    /// Trees on which it held.
    pub held: usize,
    /// A note on the worst case (largest ratio, first counterexample).
    pub note: String,
}

/// Everything the Markdown summary and the plots show.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Searches (rows).
    pub searches: usize,
    /// Distinct trees.
    pub trees: usize,
    /// Searches that stopped at a limit (left out of the means).
    pub errors: usize,
    /// Job numbers missing below the largest one (an interrupted run or a missing shard).
    pub gaps: u64,
    /// The algorithms, in registry order.
    pub algorithms: Vec<String>,
    /// Per panel, per (algorithm, depth).
    pub panels: BTreeMap<PanelKey, BTreeMap<(usize, u32), Cell>>,
    /// The checks of published claims.
    pub claims: Vec<Claim>,
}

fn algo_rank(name: &str) -> (usize, String) {
    // RSEARCH's rows by memory, in numeric order, after its default row.
    if let Some(m) = crate::grid::rsearch_memory(name) {
        let i = Algorithm::ALL
            .iter()
            .position(|&b| b == Algorithm::Rsearch)
            .unwrap_or(usize::MAX);
        return (i, format!("rsearch-m{m:020}"));
    }
    let i = name
        .parse::<Algorithm>()
        .ok()
        .and_then(|a| Algorithm::ALL.iter().position(|&b| b == a))
        .unwrap_or(usize::MAX);
    (i, name.to_string())
}

type TreeId = (String, String, u32, u32, u64);

/// Summarises records (of a whole run or of merged shards: the same
/// records give the same summary whatever their order).
pub fn summarize(records: &[Record]) -> Summary {
    let mut names: Vec<String> = records
        .iter()
        .map(|r| r.algorithm.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    names.sort_by_key(|n| algo_rank(n));
    let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();

    // The finished searches of each tree, by algorithm.
    let mut by_tree: BTreeMap<TreeId, BTreeMap<usize, &Record>> = BTreeMap::new();
    for r in records {
        if r.error.is_none() {
            by_tree
                .entry(r.tree_key())
                .or_default()
                .insert(index[r.algorithm.as_str()], r);
        }
    }
    let trees: BTreeSet<TreeId> = records.iter().map(|r| r.tree_key()).collect();
    let ab = index.get("alphabeta").copied();

    #[derive(Default)]
    struct Acc {
        leaves: Vec<f64>,
        vs_ab: Vec<f64>,
        nodes_vs_ab: Vec<f64>,
        time_vs_ab: Vec<f64>,
        vs_min: Vec<f64>,
        open: Vec<f64>,
        passes: Vec<f64>,
    }
    let mut acc: BTreeMap<PanelKey, BTreeMap<(usize, u32), Acc>> = BTreeMap::new();
    for (t, algos) in &by_tree {
        let panel = PanelKey {
            model: t.0.clone(),
            order: t.1.clone(),
            width: t.2,
        };
        let min = minimal_leaves(t.2, t.3);
        let base = ab.and_then(|a| algos.get(&a)).map(|r| r.stats.leaf_evals as f64);
        let base_time = ab.and_then(|a| algos.get(&a)).map(|r| r.stats.time_us as f64);
        let base_nodes = ab.and_then(|a| algos.get(&a)).map(|r| r.stats.nodes as f64);
        for (&a, r) in algos {
            let c = acc.entry(panel.clone()).or_default().entry((a, t.3)).or_default();
            let leaves = r.stats.leaf_evals as f64;
            c.leaves.push(leaves);
            if let Some(b) = base.filter(|&b| b > 0.0) {
                c.vs_ab.push(leaves / b);
            }
            if let Some(b) = base_nodes.filter(|&b| b > 0.0) {
                c.nodes_vs_ab.push(r.stats.nodes as f64 / b);
            }
            if let Some(b) = base_time.filter(|&b| b >= 100.0) {
                c.time_vs_ab.push(r.stats.time_us as f64 / b);
            }
            c.vs_min.push(leaves / min);
            c.open.push(r.stats.max_open as f64);
            c.passes.push(r.stats.passes as f64);
        }
    }
    let panels = acc
        .into_iter()
        .map(|(p, cells)| {
            let cells = cells
                .into_iter()
                .map(|(k, c)| {
                    let s = |xs: &[f64]| Spread::of(xs).expect("a finished search");
                    (
                        k,
                        Cell {
                            leaves: s(&c.leaves),
                            vs_alphabeta: Spread::of(&c.vs_ab),
                            nodes_vs_alphabeta: Spread::of(&c.nodes_vs_ab),
                            vs_minimal: s(&c.vs_min),
                            time_vs_alphabeta: Spread::of(&c.time_vs_ab),
                            max_open: s(&c.open),
                            passes: s(&c.passes),
                        },
                    )
                })
                .collect();
            (p, cells)
        })
        .collect();

    let max_job = records.iter().map(|r| r.job).max();
    let distinct: BTreeSet<u64> = records.iter().map(|r| r.job).collect();
    Summary {
        searches: records.len(),
        trees: trees.len(),
        errors: records.iter().filter(|r| r.error.is_some()).count(),
        gaps: max_job.map_or(0, |m| m + 1 - distinct.len() as u64),
        claims: claims(&names, &index, &by_tree),
        algorithms: names,
        panels,
    }
}

fn claims(
    names: &[String],
    index: &HashMap<&str, usize>,
    by_tree: &BTreeMap<TreeId, BTreeMap<usize, &Record>>,
) -> Vec<Claim> {
    let mut out = Vec::new();
    let show = |t: &TreeId| format!("{} {} w={} d={} seed={}", t.0, t.1, t.2, t.3, t.4);
    // Dominance over alpha-beta.
    let dominance = [
        (
            "sss",
            "SSS* never evaluates a leaf that alpha-beta skips, so never more leaves (Stockman 1979)",
        ),
        (
            "dual",
            "Dual* never evaluates more leaves than alpha-beta (Marsland, Reinefeld and Schaeffer 1987)",
        ),
        (
            "recsss",
            "RecSSS* never evaluates more leaves than alpha-beta (it evaluates SSS*'s leaves)",
        ),
        (
            "sss2",
            "SSS-2 never evaluates more leaves than alpha-beta (it evaluates SSS*'s leaves)",
        ),
        (
            "gsearch",
            "GSEARCH under its default rule (the largest upper bound) never evaluates more leaves than alpha-beta (it evaluates SSS*'s leaves or, on ties, fewer)",
        ),
        (
            "mt-sss",
            "MT-SSS* never evaluates more leaves than alpha-beta (Plaat et al. 1996)",
        ),
        (
            "mt-dual",
            "MT-Dual* never evaluates more leaves than alpha-beta (Plaat et al. 1996)",
        ),
    ];
    if let Some(&ab) = index.get("alphabeta") {
        for (name, text) in dominance {
            let Some(&a) = index.get(name) else { continue };
            let (mut n, mut held, mut fewer, mut worst, mut worst_tree) = (0, 0, 0, 0.0f64, None);
            for (t, algos) in by_tree {
                if let (Some(x), Some(b)) = (algos.get(&a), algos.get(&ab)) {
                    n += 1;
                    let (lx, lb) = (x.stats.leaf_evals, b.stats.leaf_evals);
                    held += usize::from(lx <= lb);
                    fewer += usize::from(lx < lb);
                    let ratio = lx as f64 / lb.max(1) as f64;
                    if ratio > worst {
                        worst = ratio;
                        worst_tree = Some(t);
                    }
                }
            }
            if n > 0 {
                let note = if held == n {
                    format!("fewer leaves on {fewer} trees, as many on {}", n - fewer)
                } else {
                    format!(
                        "largest ratio to alpha-beta {worst:.3}{}",
                        worst_tree.map_or(String::new(), |t| format!(" ({})", show(t)))
                    )
                };
                out.push(Claim {
                    claim: text.to_string(),
                    trees: n,
                    held,
                    note,
                });
            }
        }
    }
    // Equal leaf counts.
    let equal = [
        (
            "mt-sss",
            "sss",
            "MT-SSS* evaluates exactly as many leaves as SSS* (Plaat et al. 1996)",
        ),
        (
            "mt-dual",
            "dual",
            "MT-Dual* evaluates exactly as many leaves as Dual* (Plaat et al. 1996)",
        ),
        (
            "recsss",
            "sss",
            "RecSSS* evaluates exactly as many leaves as SSS* (Bhattacharya and Bagchi 1990)",
        ),
        ("recdual", "dual", "RecDual* evaluates exactly as many leaves as Dual*"),
        (
            "sss2",
            "sss",
            "SSS-2 evaluates exactly as many leaves as SSS* (Pijls and de Bruin 1990)",
        ),
        (
            "gsearch",
            "sss",
            "GSEARCH under the largest upper bound evaluates exactly as many leaves as SSS* (our reading of Ibaraki 1986; on ties it may evaluate fewer, never more)",
        ),
    ];
    for (x, y, text) in equal {
        let (Some(&a), Some(&b)) = (index.get(x), index.get(y)) else {
            continue;
        };
        let (mut n, mut held, mut first) = (0, 0, None);
        for (t, algos) in by_tree {
            if let (Some(p), Some(q)) = (algos.get(&a), algos.get(&b)) {
                n += 1;
                if p.stats.leaf_evals == q.stats.leaf_evals {
                    held += 1;
                } else if first.is_none() {
                    first = Some(format!(
                        "first difference: {} ({} vs {})",
                        show(t),
                        p.stats.leaf_evals,
                        q.stats.leaf_evals
                    ));
                }
            }
        }
        if n > 0 {
            out.push(Claim {
                claim: text.to_string(),
                trees: n,
                held,
                note: first.unwrap_or_else(|| "equal on every tree".to_string()),
            });
        }
    }
    // OPEN holds the tips of one solution tree (uniform trees, root MAX).
    let open_bounds = [
        ("sss", true, "SSS*'s OPEN never holds more than w^ceil(d/2) states, the leaves of one max solution tree (Stockman 1979)"),
        ("dual", false, "Dual*'s OPEN never holds more than w^floor(d/2) states, the leaves of one min solution tree (Marsland et al. 1987)"),
    ];
    for (name, ceil, text) in open_bounds {
        let Some(&a) = index.get(name) else { continue };
        let (mut n, mut held, mut reached, mut first) = (0, 0, 0, None);
        for (t, algos) in by_tree {
            let Some(r) = algos.get(&a) else { continue };
            let half = if ceil { t.3.div_ceil(2) } else { t.3 / 2 };
            let bound = (t.2 as f64).powi(half as i32);
            let peak = r.stats.max_open as f64;
            n += 1;
            if peak <= bound {
                held += 1;
                reached += usize::from(peak == bound);
            } else if first.is_none() {
                first = Some(format!("first excess: {} (peak {peak}, bound {bound})", show(t)));
            }
        }
        if n > 0 {
            out.push(Claim {
                claim: text.to_string(),
                trees: n,
                held,
                note: first.unwrap_or_else(|| format!("the bound is reached on {reached} trees")),
            });
        }
    }
    // Every value-finding search agrees.
    let (mut n, mut held, mut first) = (0, 0, None);
    for (t, algos) in by_tree {
        let values: BTreeSet<i32> = algos.values().filter_map(|r| r.value).collect();
        n += 1;
        if values.len() <= 1 {
            held += 1;
        } else if first.is_none() {
            first = Some(format!("first disagreement: {} {values:?}", show(t)));
        }
    }
    if n > 0 && names.len() > 1 {
        out.push(Claim {
            claim: "All the searches find the same minimax value".to_string(),
            trees: n,
            held,
            note: first.unwrap_or_else(|| "no disagreement".to_string()),
        });
    }
    out
}

mod markdown;
mod plot;
pub use plot::{line_plot, memory_plot, plot_lines, Axes, Series};

/// Writes `summary.md` and, per panel, `leaves-vs-alphabeta_<panel>.svg`
/// and `leaves-vs-minimal_<panel>.svg` into `dir`. Returns the files.
pub fn write_report(records: &[Record], dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let s = summarize(records);
    let mut files = Vec::new();
    let p = dir.join("summary.md");
    crate::record::write_atomic(&p, s.markdown("Experiment summary").as_bytes())?;
    files.push(p);
    for panel in s.panels.keys() {
        let has_ab = s.panels[panel].values().any(|c| c.vs_alphabeta.is_some());
        if has_ab {
            let svg = line_plot(&s, panel, "leaves / alpha-beta's leaves", &|c| {
                c.vs_alphabeta.map(|x| x.mean)
            })?;
            let p = dir.join(format!("leaves-vs-alphabeta_{}.svg", panel.slug()));
            crate::record::write_atomic(&p, svg.as_bytes())?;
            files.push(p);
        }
        let svg = line_plot(&s, panel, "leaves / minimal tree's leaves", &|c| {
            Some(c.vs_minimal.mean)
        })?;
        let p = dir.join(format!("leaves-vs-minimal_{}.svg", panel.slug()));
        crate::record::write_atomic(&p, svg.as_bytes())?;
        files.push(p);
        for depth in s.depths(panel) {
            if let Some(svg) = memory_plot(&s, panel, depth)? {
                let p = dir.join(format!("rsearch-memory_{}_d{depth}.svg", panel.slug()));
                crate::record::write_atomic(&p, svg.as_bytes())?;
                files.push(p);
            }
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use stockman::Stats;

    #[test]
    fn spread_math() {
        let s = Spread::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert_eq!(s.n, 8);
        assert!((s.mean - 5.0).abs() < 1e-12);
        // Sample variance 32 / 7.
        assert!((s.sd - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert_eq!((s.min, s.max), (2.0, 9.0));
        let one = Spread::of(&[3.5]).unwrap();
        assert_eq!((one.mean, one.sd), (3.5, 0.0));
        assert!(Spread::of(&[]).is_none());
    }

    fn rec(job: u64, algo: &str, seed: u64, leaves: u64, value: i32) -> Record {
        Record {
            job,
            algorithm: algo.into(),
            model: "iid".into(),
            order: "random".into(),
            width: 2,
            depth: 2,
            seed,
            value: Some(value),
            best_move: Some(0),
            error: None,
            stats: Stats {
                leaf_evals: leaves,
                passes: 1,
                ..Stats::default()
            },
        }
    }

    #[test]
    fn ratios_are_per_tree_then_averaged() {
        // Two trees: alpha-beta 4 and 3 leaves, SSS* 3 and 3.
        let rs = vec![
            rec(0, "alphabeta", 1, 4, 5),
            rec(1, "sss", 1, 3, 5),
            rec(2, "alphabeta", 2, 3, 7),
            rec(3, "sss", 2, 3, 7),
        ];
        let s = summarize(&rs);
        assert_eq!((s.searches, s.trees, s.errors, s.gaps), (4, 2, 0, 0));
        assert_eq!(s.algorithms, vec!["alphabeta", "sss"]);
        let panel = s.panels.keys().next().unwrap().clone();
        let sss = &s.panels[&panel][&(1, 2)];
        let r = sss.vs_alphabeta.unwrap();
        assert!((r.mean - (0.75 + 1.0) / 2.0).abs() < 1e-12);
        // Minimal tree of width 2, depth 2: 2 + 2 - 1 = 3 leaves.
        assert!((sss.vs_minimal.mean - 1.0).abs() < 1e-12);
        let ab = &s.panels[&panel][&(0, 2)];
        assert!((ab.vs_minimal.mean - (4.0 / 3.0 + 1.0) / 2.0).abs() < 1e-12);
        assert!(s.claims.iter().all(|c| c.held == c.trees), "{:?}", s.claims);
        // A violation and a disagreement are reported.
        let bad = vec![rec(0, "alphabeta", 1, 3, 5), rec(1, "sss", 1, 4, 6)];
        let s = summarize(&bad);
        let failed: Vec<&str> = s
            .claims
            .iter()
            .filter(|c| c.held == 0)
            .map(|c| c.claim.as_str())
            .collect();
        assert_eq!(failed.len(), 2, "{:?}", s.claims);
        assert!(failed[0].starts_with("SSS* never") && failed[1].starts_with("All the searches"));
        assert!(s.markdown("t").contains("contradicted"));
        // Order does not matter; gaps are counted.
        let mut rev = rs.clone();
        rev.reverse();
        assert_eq!(summarize(&rev), summarize(&rs));
        assert_eq!(summarize(&rs[1..3]).gaps, 1);
    }

    #[test]
    fn plots_are_svg() {
        let rs = vec![rec(0, "alphabeta", 1, 4, 5), rec(1, "sss", 1, 3, 5)];
        let s = summarize(&rs);
        let panel = s.panels.keys().next().unwrap().clone();
        let svg = line_plot(&s, &panel, "y", &|c| c.vs_alphabeta.map(|x| x.mean)).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(200)]);
        assert!(svg.contains("sss") && svg.contains("alphabeta"));
    }

    /// A grid's RSEARCH rows by memory: run for real on small trees, they
    /// lie between alpha-beta's leaves (no memory) and GSEARCH's (memory for
    /// the whole tree), are ordered by memory, stay out of the depth plots,
    /// and get a plot of their own against memory.
    #[test]
    fn rsearch_rows_by_memory_make_a_curve_between_alphabeta_and_gsearch() {
        let grid = crate::Grid::from_toml(
            r#"
            algorithms = ["alphabeta", "gsearch", "rsearch"]
            widths = [3]
            depths = [4]
            models = ["iid"]
            seeds = 5
            memories = [1000, 0, 10]
            "#,
        )
        .unwrap();
        let opts = crate::run::options(&grid);
        let rs: Vec<Record> = grid.jobs().iter().map(|j| crate::run::run_job(j, &opts)).collect();
        let s = summarize(&rs);
        assert_eq!(
            s.algorithms,
            ["alphabeta", "gsearch", "rsearch-m0", "rsearch-m10", "rsearch-m1000"]
        );
        let panel = s.panels.keys().next().unwrap().clone();
        let mean = |name: &str| {
            let a = s.algorithms.iter().position(|n| n == name).unwrap();
            s.panels[&panel][&(a, 4)].leaves.mean
        };
        assert_eq!(mean("rsearch-m0"), mean("alphabeta"));
        assert_eq!(mean("rsearch-m1000"), mean("gsearch"));
        assert!(mean("gsearch") < mean("alphabeta"));
        let depth_plot = line_plot(&s, &panel, "y", &|c| Some(c.leaves.mean)).unwrap();
        assert!(!depth_plot.contains("rsearch"));
        let svg = memory_plot(&s, &panel, 4).unwrap().expect("three memories");
        assert!(svg.starts_with("<svg") && svg.contains("rsearch") && svg.contains("gsearch"));
        assert!(svg.contains("\n1000\n") && svg.contains("RSEARCH memory"), "{svg}");
        let dir = std::env::temp_dir().join(format!("stockman-memory-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let files = write_report(&rs, &dir).unwrap();
        assert!(
            files.iter().any(|f| f.ends_with("rsearch-memory_iid_random_w3_d4.svg")),
            "{files:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
