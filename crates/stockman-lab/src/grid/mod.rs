//! The grid of an experiment: which searches on which random trees.
//!
//! A [`Grid`] is the cross product algorithms x widths x depths x value
//! models x orderings x seeds. It comes from a small TOML file (see
//! [`Grid::from_toml`] and the bundled [`PRESETS`]) and can be adjusted from
//! the command line with [`Overrides`]. [`Grid::jobs`] expands it into
//! numbered [`Job`]s in a fixed order, and a [`Shard`] selects a disjoint
//! slice of them.

use crate::Error;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use stockman::{Algorithm, Parallel, RandomSpec, ValueModel};

/// How children are ordered in the random trees of a grid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Order {
    /// Values drawn independently of the position of a child: no ordering.
    Random,
    /// RandomSpec's `order=P`: the best child comes first with probability `P`.
    Best(f64),
}

impl Order {
    /// The label used in files and tables: `random` or the probability (`0.9`).
    pub fn label(&self) -> String {
        match self {
            Order::Random => "random".to_string(),
            Order::Best(p) => format!("{p}"),
        }
    }

    /// The value of RandomSpec's `order` field.
    pub fn probability(&self) -> Option<f64> {
        match self {
            Order::Random => None,
            Order::Best(p) => Some(*p),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

impl FromStr for Order {
    type Err = Error;
    fn from_str(s: &str) -> Result<Order, Error> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("random") || t.eq_ignore_ascii_case("none") {
            return Ok(Order::Random);
        }
        let p: f64 = t.parse().map_err(|_| {
            Error::new(format!(
                "ordering `{t}`: expected `random` or a probability such as 0.9"
            ))
        })?;
        if !(0.0..=1.0).contains(&p) {
            return Err(Error::new(format!(
                "ordering `{t}`: a probability lies between 0 and 1"
            )));
        }
        Ok(Order::Best(p))
    }
}

/// The name of a value model in files and tables: `iid` or `incremental`.
pub fn model_label(m: ValueModel) -> &'static str {
    match m {
        ValueModel::Iid => "iid",
        ValueModel::Incremental => "incremental",
    }
}

/// Parses `iid` or `incremental` (also `inc`).
pub fn parse_model(s: &str) -> Result<ValueModel, Error> {
    match s.trim().to_ascii_lowercase().as_str() {
        "iid" => Ok(ValueModel::Iid),
        "incremental" | "inc" => Ok(ValueModel::Incremental),
        other => Err(Error::new(format!(
            "value model `{other}`: expected `iid` or `incremental`"
        ))),
    }
}

/// The leaves of the minimal tree of a uniform tree: `w^ceil(d/2) + w^floor(d/2) - 1`
/// (Knuth and Moore 1975), the fewest leaves any search must evaluate.
pub fn minimal_leaves(width: u32, depth: u32) -> f64 {
    let w = width as f64;
    w.powi(depth.div_ceil(2) as i32) + w.powi((depth / 2) as i32) - 1.0
}

/// One random tree of a grid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeKey {
    /// How leaf values are drawn.
    pub model: ValueModel,
    /// How children are ordered.
    pub order: Order,
    /// Branching factor.
    pub width: u32,
    /// Depth in plies.
    pub depth: u32,
    /// The tree's seed.
    pub seed: u64,
}

impl TreeKey {
    /// The random-tree spec (the `--random` argument of `stockman solve`).
    pub fn spec(&self) -> RandomSpec {
        let mut s = RandomSpec::new(self.width, self.depth, self.seed);
        s.model = self.model;
        if self.model == ValueModel::Incremental {
            s.range = (-100, 100);
        }
        s.order = self.order.probability();
        s
    }
}

/// The separation values Best Node Search tries in a grid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BnsGuess {
    /// Rutko's default, `alpha + (beta - alpha)(count - 1)/count`
    /// ([`stockman::algorithms::bns::Rutko`]); rows named `bns`.
    #[default]
    Rutko,
    /// The midpoint of the bounds ([`stockman::algorithms::bns::Bisect`]):
    /// not Rutko's, a comparison of ours; rows named `bns-bisect`.
    Bisect,
}

impl BnsGuess {
    /// `rutko` or `bisect`.
    pub fn name(self) -> &'static str {
        match self {
            BnsGuess::Rutko => "rutko",
            BnsGuess::Bisect => "bisect",
        }
    }
}

impl FromStr for BnsGuess {
    type Err = Error;
    fn from_str(s: &str) -> Result<BnsGuess, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "rutko" => Ok(BnsGuess::Rutko),
            "bisect" => Ok(BnsGuess::Bisect),
            other => Err(Error::new(format!(
                "BNS guess `{other}`: expected `rutko` (Rutko's default) or `bisect` (the midpoint; ours)"
            ))),
        }
    }
}

/// One search of a grid: an algorithm on a tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Job {
    /// The job's number in [`Grid::jobs`] order, from 0.
    pub index: u64,
    /// The search.
    pub algorithm: Algorithm,
    /// The tree.
    pub tree: TreeKey,
    /// Best Node Search's guess (for other algorithms: the default).
    pub bns_guess: BnsGuess,
    /// RSEARCH's memory in stored nodes (`None`: its default, and for the
    /// other algorithms).
    pub memory: Option<usize>,
}

impl Job {
    /// The name of the job's rows: the algorithm's, `bns-bisect` for
    /// Best Node Search with the midpoint guess, `rsearch-mM` for RSEARCH
    /// with a memory of `M` nodes.
    pub fn label(&self) -> String {
        match (self.algorithm, self.bns_guess, self.memory) {
            (Algorithm::Bns, BnsGuess::Bisect, _) => "bns-bisect".to_string(),
            (Algorithm::Rsearch, _, Some(m)) => format!("rsearch-m{m}"),
            (a, _, _) => a.name().to_string(),
        }
    }
}

/// The items of `list` in order, each once.
fn distinct<T: Copy + PartialEq>(list: &[T]) -> impl Iterator<Item = T> + '_ {
    list.iter()
        .enumerate()
        .filter(|&(i, x)| !list[..i].contains(x))
        .map(|(_, &x)| x)
}

/// The memory `M` of a row labelled `rsearch-mM` ([`Job::label`]).
pub fn rsearch_memory(label: &str) -> Option<usize> {
    label.strip_prefix("rsearch-m")?.parse().ok()
}

/// The K-th of N disjoint slices of a grid (`--shard K/N`, K from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, 1 to `count`.
    pub index: u32,
    /// How many slices.
    pub count: u32,
}

impl Shard {
    /// Whether job number `job` belongs to this slice (round robin, so that
    /// every slice gets a fair share of the deep, costly trees).
    pub fn contains(&self, job: u64) -> bool {
        job % self.count as u64 == (self.index - 1) as u64
    }

    /// The file name of this shard's results: `results-K-of-N.csv`.
    pub fn file_name(&self) -> String {
        format!("results-{}-of-{}.csv", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = Error;
    fn from_str(s: &str) -> Result<Shard, Error> {
        let bad = || Error::new(format!("shard `{s}`: expected K/N with 1 <= K <= N, for example 2/8"));
        let (k, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// An experiment: the cross product of its lists, each tree searched by every algorithm.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// A name for reports.
    pub name: String,
    /// The searches, in report order.
    pub algorithms: Vec<Algorithm>,
    /// Branching factors.
    pub widths: Vec<u32>,
    /// Depths in plies.
    pub depths: Vec<u32>,
    /// Value models.
    pub models: Vec<ValueModel>,
    /// Orderings.
    pub orders: Vec<Order>,
    /// How many trees (seeds) per combination.
    pub seeds: u64,
    /// The first seed: the trees use seeds `first_seed .. first_seed + seeds`.
    pub first_seed: u64,
    /// Stop a search after visiting this many positions (recorded as an error).
    pub max_nodes: Option<u64>,
    /// Stop a search after this many seconds (recorded as an error).
    pub time_limit: Option<f64>,
    /// The guesses Best Node Search runs with (one row each).
    pub bns_guesses: Vec<BnsGuess>,
    /// The memories RSEARCH runs with, in stored nodes (one row each,
    /// `rsearch-mM`); empty: once, with its default.
    pub memories: Vec<usize>,
    /// Threads per search (1: the exact one-thread counts); not the grid's
    /// worker threads, which run whole searches side by side.
    pub search_threads: usize,
    /// How a search's threads share it, when `search_threads > 1`.
    pub parallel: Parallel,
}

/// The TOML form of a [`Grid`].
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GridFile {
    #[serde(default)]
    name: Option<String>,
    algorithms: Vec<String>,
    widths: Vec<u32>,
    depths: Vec<u32>,
    models: Vec<String>,
    #[serde(default)]
    orders: Vec<OrderItem>,
    seeds: u64,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    max_nodes: Option<u64>,
    #[serde(default)]
    time_limit: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    bns_guesses: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    memories: Option<Vec<usize>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    search_threads: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    parallel: Option<String>,
}

/// `"random"` or a probability in a TOML list.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(untagged)]
enum OrderItem {
    P(f64),
    Name(String),
}

/// The largest depth a grid may ask for (beyond it no search finishes anyway).
pub const MAX_GRID_DEPTH: u32 = 40;

/// A bundled grid: its name, what it is for, and its TOML text.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// The name given to `--preset`.
    pub name: &'static str,
    /// One line on what it measures.
    pub about: &'static str,
    /// The grid as TOML.
    pub toml: &'static str,
}

/// The bundled grids.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "default",
        about: "the classic comparisons: every algorithm but minimax, width 8, depths 2-8, iid and incremental, random and good ordering, 20 seeds (well under a minute on 2 cores)",
        toml: include_str!("../../presets/default.toml"),
    },
    Preset {
        name: "quick",
        about: "a few seconds: small trees, every algorithm (for tests and a first look)",
        toml: include_str!("../../presets/quick.toml"),
    },
    Preset {
        name: "wide",
        about: "the default grid down to depth 9 with 50 seeds (tens of CPU-minutes; shard it)",
        toml: include_str!("../../presets/wide.toml"),
    },
    Preset {
        name: "deep",
        about: "width 4 down to depth 12 with 50 seeds: the ratios' trend with depth (tens of CPU-minutes)",
        toml: include_str!("../../presets/deep.toml"),
    },
];

/// The bundled grid called `name`.
pub fn preset(name: &str) -> Result<Grid, Error> {
    let p = PRESETS.iter().find(|p| p.name == name).ok_or_else(|| {
        let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        Error::new(format!("unknown preset `{name}` (known: {})", names.join(", ")))
    })?;
    Grid::from_toml(p.toml)
}

/// Command-line changes to a grid; each `Some` replaces the grid's list.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// Comma-separated algorithm names, or `all`.
    pub algorithms: Option<String>,
    /// Widths: `4`, `2,4,8` or `2..8` (inclusive).
    pub widths: Option<String>,
    /// Depths, in the same forms as widths.
    pub depths: Option<String>,
    /// `iid`, `incremental` or both, comma-separated.
    pub models: Option<String>,
    /// `random` and/or probabilities, comma-separated.
    pub orders: Option<String>,
    /// Trees per combination.
    pub seeds: Option<u64>,
    /// The first seed.
    pub first_seed: Option<u64>,
    /// Per-search node limit.
    pub max_nodes: Option<u64>,
    /// Per-search time limit in seconds.
    pub time_limit: Option<f64>,
    /// BNS's guesses: `rutko`, `bisect` or both, comma-separated.
    pub bns_guesses: Option<String>,
    /// RSEARCH's memories, in the forms of widths (`0,16,256`, `0..8`).
    pub memories: Option<String>,
    /// Threads per search.
    pub search_threads: Option<usize>,
    /// How a search's threads share it.
    pub parallel: Option<Parallel>,
}

/// Parses `4`, `2,4,8` or `2..8` (inclusive) into numbers.
pub fn parse_numbers(s: &str) -> Result<Vec<u32>, Error> {
    let bad = |part: &str| Error::new(format!("`{part}` in `{s}`: expected N, A..B or a comma-separated list"));
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim) {
        if let Some((a, b)) = part.split_once("..") {
            let a: u32 = a.trim().parse().map_err(|_| bad(part))?;
            let b: u32 = b.trim().trim_start_matches('=').parse().map_err(|_| bad(part))?;
            if a > b {
                return Err(bad(part));
            }
            out.extend(a..=b);
        } else {
            out.push(part.parse().map_err(|_| bad(part))?);
        }
    }
    Ok(out)
}

impl Grid {
    /// Parses and checks a grid written in TOML:
    ///
    /// ```toml
    /// name = "mine"
    /// algorithms = ["alphabeta", "sss", "mt-sss"]
    /// widths = [4]
    /// depths = [2, 4, 6]
    /// models = ["iid", "incremental"]
    /// orders = ["random", 0.9]   # optional, default ["random"]
    /// seeds = 10                 # trees per combination
    /// seed = 1                   # optional first seed, default 1
    /// max_nodes = 10000000       # optional per-search limit
    /// time_limit = 30.0          # optional per-search limit in seconds
    /// memories = [0, 64, 4096]   # optional: RSEARCH once per memory
    /// ```
    pub fn from_toml(text: &str) -> Result<Grid, Error> {
        let f: GridFile = toml::from_str(text).map_err(|e| Error::new(format!("grid file: {e}")))?;
        let algorithms = f
            .algorithms
            .iter()
            .map(|a| Algorithm::parse_list(a).map_err(|e| Error::new(e.to_string())))
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .flatten()
            .collect();
        let models = f.models.iter().map(|m| parse_model(m)).collect::<Result<Vec<_>, _>>()?;
        let orders = if f.orders.is_empty() {
            vec![Order::Random]
        } else {
            f.orders
                .iter()
                .map(|o| match o {
                    OrderItem::P(p) => p.to_string().parse(),
                    OrderItem::Name(n) => n.parse(),
                })
                .collect::<Result<Vec<_>, _>>()?
        };
        let g = Grid {
            name: f.name.unwrap_or_else(|| "custom".to_string()),
            algorithms,
            widths: f.widths,
            depths: f.depths,
            models,
            orders,
            seeds: f.seeds,
            first_seed: f.seed.unwrap_or(1),
            max_nodes: f.max_nodes,
            time_limit: f.time_limit,
            bns_guesses: match &f.bns_guesses {
                Some(list) => list.iter().map(|g| g.parse()).collect::<Result<_, _>>()?,
                None => vec![BnsGuess::Rutko],
            },
            memories: f.memories.unwrap_or_default(),
            search_threads: f.search_threads.unwrap_or(1),
            parallel: match &f.parallel {
                Some(p) => p.parse().map_err(|e: String| Error::new(format!("grid file: {e}")))?,
                None => Parallel::default(),
            },
        };
        g.validate()?;
        Ok(g)
    }

    /// The grid as TOML, as [`Grid::from_toml`] reads it.
    pub fn to_toml(&self) -> String {
        let f = GridFile {
            name: Some(self.name.clone()),
            algorithms: self.algorithms.iter().map(|a| a.name().to_string()).collect(),
            widths: self.widths.clone(),
            depths: self.depths.clone(),
            models: self.models.iter().map(|m| model_label(*m).to_string()).collect(),
            orders: self
                .orders
                .iter()
                .map(|o| match o {
                    Order::Random => OrderItem::Name("random".into()),
                    Order::Best(p) => OrderItem::P(*p),
                })
                .collect(),
            seeds: self.seeds,
            seed: Some(self.first_seed),
            max_nodes: self.max_nodes,
            time_limit: self.time_limit,
            bns_guesses: (self.bns_guesses != [BnsGuess::Rutko])
                .then(|| self.bns_guesses.iter().map(|g| g.name().to_string()).collect()),
            memories: (!self.memories.is_empty()).then(|| self.memories.clone()),
            search_threads: (self.search_threads != 1).then_some(self.search_threads),
            parallel: (self.search_threads != 1).then(|| self.parallel.name().to_string()),
        };
        toml::to_string(&f).expect("a grid serializes")
    }

    /// Applies command-line changes, then checks the result.
    pub fn apply(&mut self, o: &Overrides) -> Result<(), Error> {
        if let Some(a) = &o.algorithms {
            self.algorithms = Algorithm::parse_list(a).map_err(|e| Error::new(e.to_string()))?;
        }
        if let Some(w) = &o.widths {
            self.widths = parse_numbers(w)?;
        }
        if let Some(d) = &o.depths {
            self.depths = parse_numbers(d)?;
        }
        if let Some(m) = &o.models {
            self.models = m.split(',').map(parse_model).collect::<Result<_, _>>()?;
        }
        if let Some(ord) = &o.orders {
            self.orders = ord.split(',').map(str::parse).collect::<Result<_, _>>()?;
        }
        if let Some(s) = o.seeds {
            self.seeds = s;
        }
        if let Some(s) = o.first_seed {
            self.first_seed = s;
        }
        if o.max_nodes.is_some() {
            self.max_nodes = o.max_nodes;
        }
        if o.time_limit.is_some() {
            self.time_limit = o.time_limit;
        }
        if let Some(g) = &o.bns_guesses {
            self.bns_guesses = g.split(',').map(str::parse).collect::<Result<_, _>>()?;
        }
        if let Some(m) = &o.memories {
            self.memories = parse_numbers(m)?.into_iter().map(|m| m as usize).collect();
        }
        if let Some(t) = o.search_threads {
            self.search_threads = t;
        }
        if let Some(p) = o.parallel {
            self.parallel = p;
        }
        self.validate()
    }

    /// Checks that every list is non-empty and every tree can be generated.
    pub fn validate(&self) -> Result<(), Error> {
        let empty = |what: &str| Error::new(format!("the grid has no {what}"));
        if self.algorithms.is_empty() {
            return Err(empty("algorithms"));
        }
        if self.widths.is_empty() {
            return Err(empty("widths"));
        }
        if self.depths.is_empty() {
            return Err(empty("depths"));
        }
        if self.models.is_empty() {
            return Err(empty("value models"));
        }
        if self.orders.is_empty() {
            return Err(empty("orderings"));
        }
        if self.seeds == 0 {
            return Err(empty("seeds (seeds = 0)"));
        }
        if self.bns_guesses.is_empty() {
            return Err(empty("BNS guesses"));
        }
        if stockman::Threads::check_count(self.search_threads).is_err() {
            return Err(Error::new(format!(
                "search_threads = {}: give 1 to {}",
                self.search_threads,
                stockman::run::MAX_THREADS
            )));
        }
        if let Some(&d) = self.depths.iter().find(|&&d| d > MAX_GRID_DEPTH) {
            return Err(Error::new(format!("depth {d} is larger than {MAX_GRID_DEPTH}")));
        }
        if let Some(t) = self.time_limit {
            if !(t.is_finite() && t > 0.0) {
                return Err(Error::new("time_limit must be a positive number of seconds"));
            }
        }
        for &w in &self.widths {
            for &d in &self.depths {
                for &m in &self.models {
                    for &o in &self.orders {
                        let key = TreeKey {
                            model: m,
                            order: o,
                            width: w,
                            depth: d,
                            seed: self.first_seed,
                        };
                        key.spec().validate().map_err(|e| Error::new(e.to_string()))?;
                    }
                }
            }
        }
        self.first_seed
            .checked_add(self.seeds)
            .ok_or_else(|| Error::new("the seeds overflow 64 bits"))?;
        Ok(())
    }

    /// The searches of one tree: the algorithms, BNS once per guess,
    /// RSEARCH once per memory.
    fn searches(&self) -> Vec<(Algorithm, BnsGuess, Option<usize>)> {
        let mut out = Vec::new();
        for &a in &self.algorithms {
            if a == Algorithm::Bns {
                out.extend(distinct(&self.bns_guesses).map(|g| (a, g, None)));
            } else if a == Algorithm::Rsearch && !self.memories.is_empty() {
                out.extend(distinct(&self.memories).map(|m| (a, BnsGuess::Rutko, Some(m))));
            } else {
                out.push((a, BnsGuess::Rutko, None));
            }
        }
        out
    }

    /// The number of searches in the grid.
    pub fn job_count(&self) -> u64 {
        [
            self.searches().len(),
            self.widths.len(),
            self.depths.len(),
            self.models.len(),
            self.orders.len(),
        ]
        .iter()
        .map(|&n| n as u64)
        .product::<u64>()
            * self.seeds
    }

    /// Every search, numbered from 0: depth varies slowest (so that an
    /// interrupted run has finished the shallow trees), then width, model,
    /// ordering and seed; the algorithms of one tree are adjacent.
    pub fn jobs(&self) -> Vec<Job> {
        let mut out = Vec::with_capacity(self.job_count() as usize);
        let searches = self.searches();
        for &depth in &self.depths {
            for &width in &self.widths {
                for &model in &self.models {
                    for &order in &self.orders {
                        for seed in self.first_seed..self.first_seed + self.seeds {
                            let tree = TreeKey {
                                model,
                                order,
                                width,
                                depth,
                                seed,
                            };
                            for &(algorithm, bns_guess, memory) in &searches {
                                let index = out.len() as u64;
                                out.push(Job {
                                    index,
                                    algorithm,
                                    tree,
                                    bns_guess,
                                    memory,
                                });
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The jobs of one shard (all of them for `None`).
    pub fn shard_jobs(&self, shard: Option<Shard>) -> Vec<Job> {
        let mut jobs = self.jobs();
        if let Some(s) = shard {
            jobs.retain(|j| s.contains(j.index));
        }
        jobs
    }
}

#[cfg(test)]
mod tests;
