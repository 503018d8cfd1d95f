//! Stochastic searches as the front ends run them: one or many seeded runs
//! of each sampler on a Bernoulli tree, summarised in one row each (what
//! `stockman solve` prints for `model=bernoulli` and Python's `sample`
//! returns).

use crate::stochastic::{BernoulliTree, SampleError, SampleEvent, SampleOptions, Sampler, Verdict};
use crate::trees::random::{RandomSpec, SpecError};
use serde::Serialize;

/// Where the trees of a series of runs come from.
#[derive(Clone, Debug)]
pub enum BernoulliSource {
    /// The same tree in every run.
    Tree(BernoulliTree),
    /// A random tree; run `i` searches the tree of seed `seed + i`, so that
    /// many runs average over trees as the papers' random experiments do.
    Random(RandomSpec),
}

impl BernoulliSource {
    /// The random trees of a `model=bernoulli` spec; `root` MIN makes the
    /// root MIN (as `root=min` in the spec does). The first tree is built
    /// to check the spec whole (its size too).
    pub fn random(spec: &str, root: crate::value::Role) -> Result<BernoulliSource, SpecError> {
        let parsed = spec_with_root(spec, root)?;
        BernoulliTree::from_spec(&parsed)?;
        Ok(BernoulliSource::Random(parsed))
    }

    /// The tree of a `model=bernoulli` spec alone (what one traced run
    /// searches), built once; `root` as for [`BernoulliSource::random`].
    pub fn random_tree(spec: &str, root: crate::value::Role) -> Result<BernoulliTree, SpecError> {
        BernoulliTree::from_spec(&spec_with_root(spec, root)?)
    }

    /// The tree of run `run`.
    pub fn tree(&self, run: u64) -> Result<BernoulliTree, SpecError> {
        match self {
            BernoulliSource::Tree(t) => Ok(t.clone()),
            BernoulliSource::Random(spec) => BernoulliTree::from_spec(&RandomSpec {
                seed: spec.seed.wrapping_add(run),
                ..spec.clone()
            }),
        }
    }
}

/// A `model=bernoulli` spec, its root made MIN when `root` is.
fn spec_with_root(spec: &str, root: crate::value::Role) -> Result<RandomSpec, SpecError> {
    let mut parsed = BernoulliTree::parse_spec(spec)?;
    if root == crate::value::Role::Min {
        parsed.root_role = root;
    }
    Ok(parsed)
}

/// One sampler's runs, summarised: a row of `stockman solve`'s JSON for a
/// Bernoulli tree, and the dict of Python's `sample`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SampleRow {
    /// The sampler's name.
    pub algorithm: String,
    /// How many runs (each its own sample seed, and for a random tree its own tree).
    pub runs: u64,
    /// One run: the root move it names (0-based), or null.
    pub best_move: Option<usize>,
    /// One run of `murphy`: `below` or `above`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// One run: whether the answer is right (a move within epsilon of the
    /// best; a verdict true of the value within epsilon).
    pub correct: Option<bool>,
    /// Runs whose answer was wrong.
    pub wrong: u64,
    /// `wrong / runs`.
    pub error_rate: f64,
    /// Runs stopped by the budget instead of their rule.
    pub unsure: u64,
    /// Samples: the mean over the runs (one run: its count).
    pub samples: f64,
    /// The fewest and most samples of a run.
    pub samples_min: u64,
    /// See `samples_min`.
    pub samples_max: u64,
    /// Rounds of the last run.
    pub rounds: u64,
    /// Threshold tests of the last run (`murphy`, `bns-murphy`).
    pub tests: u64,
    /// One run: the tree's value, the minimax of the means.
    pub value: Option<f64>,
    /// One run: the value of the move named.
    pub best_value: Option<f64>,
    /// One run: where the search left the root's value, `[lower, upper]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<[f64; 2]>,
    /// One run: the samples of each leaf, left to right.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaf_samples: Option<Vec<u64>>,
    /// The options, as run.
    pub delta: f64,
    /// See `delta`.
    pub epsilon: f64,
    /// The exploration rate's name.
    pub rate: String,
}

/// Why a series of runs could not be made.
#[derive(Clone, Debug, PartialEq)]
pub enum SampleRunError {
    /// The options are not valid for a sampler.
    Options(SampleError),
    /// A random tree could not be built.
    Spec(SpecError),
    /// Zero runs.
    NoRuns,
    /// A bug: a search panicked (or its thread could not start).
    Internal(String),
}

impl std::fmt::Display for SampleRunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SampleRunError::Options(e) => e.fmt(f),
            SampleRunError::Spec(e) => e.fmt(f),
            SampleRunError::NoRuns => f.write_str("the number of runs must be at least 1"),
            SampleRunError::Internal(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for SampleRunError {}

/// Runs each sampler `runs` times (run `i` with sample seed `opts.seed + i`)
/// and summarises each in a row. The searches run on a thread whose stack
/// fits the tree's height (a threshold test recurses on the tree).
pub fn sample_rows(
    source: &BernoulliSource,
    samplers: &[Sampler],
    opts: &SampleOptions,
    runs: u64,
) -> Result<Vec<SampleRow>, SampleRunError> {
    let height = match source {
        BernoulliSource::Tree(t) => t.height(),
        BernoulliSource::Random(spec) => spec.depth,
    };
    super::on_stack(super::stack_bytes(u64::from(height)), || {
        rows_here(source, samplers, opts, runs)
    })
    .map_err(|e| SampleRunError::Internal(e.to_string()))?
}

/// One traced run of a stochastic search: `stockman trace --format json`'s
/// object and the dict of Python's `sample_trace`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SampleTraceRow {
    /// The sampler's name.
    pub algorithm: String,
    /// The tree's value, the minimax of the means.
    pub value: f64,
    /// The root move it names (0-based), or null (`murphy`).
    pub best_move: Option<usize>,
    /// `murphy`'s answer, or null.
    pub verdict: Option<Verdict>,
    /// Whether its rule stopped it (else the budget did).
    pub confident: bool,
    /// Samples drawn.
    pub samples: u64,
    /// Rounds (see [`SampleOutcome::rounds`](crate::stochastic::SampleOutcome::rounds)).
    pub rounds: u64,
    /// Threshold tests.
    pub tests: u64,
    /// Where it left the root's value, `[lower, upper]`.
    pub bound: Option<[f64; 2]>,
    /// The samples of each leaf, left to right.
    pub leaf_samples: Vec<u64>,
    /// Every sample, round and test, in order.
    pub events: Vec<SampleEvent>,
}

/// One traced run of `sampler` on `tree`, on a thread whose stack fits the
/// tree's height.
pub fn sample_trace(
    tree: &BernoulliTree,
    sampler: Sampler,
    opts: &SampleOptions,
) -> Result<SampleTraceRow, SampleRunError> {
    let t = super::on_stack(super::stack_bytes(u64::from(tree.height())), || {
        sampler.trace(tree, opts)
    })
    .map_err(|e| SampleRunError::Internal(e.to_string()))?
    .map_err(SampleRunError::Options)?;
    let o = t.outcome;
    Ok(SampleTraceRow {
        algorithm: sampler.name().to_string(),
        value: tree.value(),
        best_move: o.best_index,
        verdict: o.verdict,
        confident: o.confident,
        samples: o.samples,
        rounds: o.rounds,
        tests: o.tests,
        bound: o.bound.map(|(a, b)| [a, b]),
        leaf_samples: o.leaf_samples,
        events: t.events,
    })
}

fn rows_here(
    source: &BernoulliSource,
    samplers: &[Sampler],
    opts: &SampleOptions,
    runs: u64,
) -> Result<Vec<SampleRow>, SampleRunError> {
    if runs == 0 {
        return Err(SampleRunError::NoRuns);
    }
    for &s in samplers {
        opts.validate(s).map_err(SampleRunError::Options)?;
    }
    let mut rows = Vec::new();
    for &sampler in samplers {
        let (mut wrong, mut unsure, mut total, mut lo, mut hi) = (0u64, 0u64, 0u64, u64::MAX, 0u64);
        let mut last = None;
        for run in 0..runs {
            let tree = source.tree(run).map_err(SampleRunError::Spec)?;
            let run_opts = SampleOptions {
                seed: opts.seed.wrapping_add(run),
                ..opts.clone()
            };
            let out = sampler.run(&tree, &run_opts).map_err(SampleRunError::Options)?;
            let right = correct(&tree, &out, opts);
            wrong += u64::from(!right);
            unsure += u64::from(!out.confident);
            total += out.samples;
            lo = lo.min(out.samples);
            hi = hi.max(out.samples);
            last = Some((tree, out, right));
        }
        let (tree, out, right) = last.expect("at least one run");
        let one = runs == 1;
        rows.push(SampleRow {
            algorithm: sampler.name().to_string(),
            runs,
            best_move: out.best_index.filter(|_| one),
            verdict: out.verdict.filter(|_| one),
            correct: one.then_some(right),
            wrong,
            error_rate: wrong as f64 / runs as f64,
            unsure,
            samples: total as f64 / runs as f64,
            samples_min: lo,
            samples_max: hi,
            rounds: out.rounds,
            tests: out.tests,
            value: one.then(|| tree.value()),
            best_value: out
                .best_index
                .filter(|_| one)
                .and_then(|i| tree.root_values().get(i).copied()),
            bound: out.bound.filter(|_| one).map(|(a, b)| [a, b]),
            leaf_samples: one.then_some(out.leaf_samples),
            delta: opts.delta,
            epsilon: opts.epsilon,
            rate: opts.rate.name().to_string(),
        });
    }
    Ok(rows)
}

/// Whether an outcome is right: a move within epsilon of the best, or a
/// verdict that holds of the value with epsilon's slack. An answer without
/// confidence counts as right or wrong all the same.
fn correct(tree: &BernoulliTree, out: &crate::stochastic::SampleOutcome, opts: &SampleOptions) -> bool {
    match (out.best_index, out.verdict, opts.threshold) {
        (Some(i), _, _) => tree.good_moves(opts.epsilon).contains(&i),
        (None, Some(v), Some(gamma)) => match v {
            Verdict::Below => tree.value() < gamma + opts.epsilon,
            Verdict::Above => tree.value() > gamma - opts.epsilon,
        },
        _ => false,
    }
}
