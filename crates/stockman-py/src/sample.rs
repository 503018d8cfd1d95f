//! `stockman.sample`: the stochastic searches on Bernoulli trees, through
//! the run layer's rows (the dicts are the CLI's JSON rows).

use crate::running::json_object;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use stockman::run::stochastic::{sample_rows, sample_trace, BernoulliSource, SampleRunError};
use stockman::run::{on_stack, stack_bytes};
use stockman::stochastic::{check_reads, BernoulliTree, SampleError, SampleKnob, SampleOptions, Sampler};
use stockman::{Algorithm, Role, SearchOptions};

/// A value error naming the argument.
fn bad(name: &str, e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{name}: {e}"))
}

/// A tree of means (its text) or a `model=bernoulli` spec: the trees of a
/// series of runs.
fn source(tree: &str, root: Role) -> PyResult<BernoulliSource> {
    match means(tree, root)? {
        Some(t) => Ok(BernoulliSource::Tree(t)),
        None => BernoulliSource::random(tree, root).map_err(|e| bad("tree", e)),
    }
}

/// The one tree of a traced run, built once.
fn one_tree(tree: &str, root: Role) -> PyResult<BernoulliTree> {
    match means(tree, root)? {
        Some(t) => Ok(t),
        None => BernoulliSource::random_tree(tree, root).map_err(|e| bad("tree", e)),
    }
}

/// `tree` parsed as the text of a tree of means, or `None` for a spec.
fn means(tree: &str, root: Role) -> PyResult<Option<BernoulliTree>> {
    let text = tree.trim_start();
    if !(text.starts_with('[') || text.starts_with(|c: char| c.is_ascii_digit() || c == '.')) {
        return Ok(None);
    }
    BernoulliTree::parse(tree, root)
        .map(Some)
        .map_err(|e| bad("tree", format!("line {}, column {}: {}", e.line, e.column, e.kind)))
}

/// The library's error, with the argument that sets the value.
fn named(e: SampleRunError) -> PyErr {
    if let SampleRunError::Options(u @ SampleError::Unread { knob, .. }) = &e {
        return PyValueError::new_err(u.unread(&format!("{}=", knob.name())));
    }
    let name = match &e {
        SampleRunError::Options(SampleError::Delta(_)) => "delta",
        SampleRunError::Options(SampleError::Epsilon(_)) => "epsilon",
        SampleRunError::Options(SampleError::NoBudget) => "max_samples",
        SampleRunError::Options(SampleError::NoMove) => "tree",
        SampleRunError::Options(_) => "threshold",
        SampleRunError::NoRuns => "runs",
        SampleRunError::Spec(_) => "tree",
        SampleRunError::Internal(_) => "internal error",
    };
    bad(name, e)
}

/// The stochastic searches' options, as Python passes them.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub(crate) struct Options {
    delta: f64,
    epsilon: f64,
    max_samples: u64,
    seed: u64,
    rate: String,
    interval: String,
    /// `None`: not given (the default rule, and no sampler need read it).
    sampling: Option<String>,
    threshold: Option<f64>,
}

impl Options {
    /// The options for `samplers`, refusing a knob none of them reads.
    fn parse(&self, samplers: &[Sampler]) -> PyResult<SampleOptions> {
        let given = SampleKnob::ALL.into_iter().map(|k| {
            let on = match k {
                SampleKnob::Sampling => self.sampling.is_some(),
            };
            (k, on)
        });
        check_reads(samplers, given).map_err(|e| named(SampleRunError::Options(e)))?;
        let rule = match &self.sampling {
            Some(r) => r.parse().map_err(|e| bad("sampling", e))?,
            None => SampleOptions::default().rule,
        };
        Ok(SampleOptions {
            delta: self.delta,
            epsilon: self.epsilon,
            max_samples: self.max_samples,
            seed: self.seed,
            rate: self.rate.parse().map_err(|e| bad("rate", e))?,
            interval: self.interval.parse().map_err(|e: String| bad("interval", e))?,
            rule,
            threshold: self.threshold,
        })
    }
}

fn samplers(names: Option<Vec<String>>, threshold: Option<f64>) -> PyResult<Vec<Sampler>> {
    match names {
        Some(names) => names
            .iter()
            .map(|n| n.parse::<Sampler>().map_err(|e| bad("algorithms", e)))
            .collect(),
        None => Ok(Sampler::defaults(threshold)),
    }
}

/// `stockman.sample` (the Python half documents the arguments).
#[pyfunction]
#[pyo3(signature = (tree, algorithms, options, runs, root))]
pub(crate) fn sample<'py>(
    py: Python<'py>,
    tree: &str,
    algorithms: Option<Vec<String>>,
    options: Options,
    runs: u64,
    root: &str,
) -> PyResult<Bound<'py, PyList>> {
    let root: Role = root.parse().map_err(|e: String| bad("root", e))?;
    let source = source(tree, root)?;
    let samplers = samplers(algorithms, options.threshold)?;
    let opts = options.parse(&samplers)?;
    let rows = py
        .allow_threads(|| sample_rows(&source, &samplers, &opts, runs))
        .map_err(named)?;
    let list = PyList::empty(py);
    for r in &rows {
        let json = serde_json::to_value(r).map_err(|e| PyValueError::new_err(e.to_string()))?;
        list.append(json_object(py, &json)?)?;
    }
    Ok(list)
}

/// `stockman.sample_trace`: one traced run, as JSON text (the CLI's
/// `trace --format json` object).
#[pyfunction]
#[pyo3(signature = (tree, algorithm, options, root))]
pub(crate) fn sample_trace_json(
    py: Python<'_>,
    tree: &str,
    algorithm: &str,
    options: Options,
    root: &str,
) -> PyResult<String> {
    let root: Role = root.parse().map_err(|e: String| bad("root", e))?;
    let tree = one_tree(tree, root)?;
    let sampler: Sampler = algorithm.parse().map_err(|e| bad("algorithm", e))?;
    let opts = options.parse(&[sampler])?;
    let row = py
        .allow_threads(|| sample_trace(&tree, sampler, &opts))
        .map_err(named)?;
    serde_json::to_string(&row).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The comparison page of stochastic searches beside deterministic ones on
/// a tree of means (`SampleTrace.html()`).
#[pyfunction]
#[pyo3(signature = (tree, samplers, algorithms, options, root, title))]
pub(crate) fn sample_html(
    py: Python<'_>,
    tree: &str,
    samplers: Vec<String>,
    algorithms: Vec<String>,
    options: Options,
    root: &str,
    title: String,
) -> PyResult<String> {
    let root: Role = root.parse().map_err(|e: String| bad("root", e))?;
    let tree = one_tree(tree, root)?;
    let samplers = self::samplers(Some(samplers), options.threshold)?;
    let algos = algorithms
        .iter()
        .map(|a| a.parse::<Algorithm>().map_err(|e| bad("compare", e)))
        .collect::<PyResult<Vec<_>>>()?;
    let opts = options.parse(&samplers)?;
    for &s in &samplers {
        opts.validate(s).map_err(|e| named(SampleRunError::Options(e)))?;
    }
    let height = tree.height();
    py.allow_threads(|| {
        on_stack(stack_bytes(u64::from(height)), || {
            stockman_lab::html::sample_compare_page(&tree, &algos, &SearchOptions::default(), &samplers, &opts, &title)
        })
    })
    .map_err(|e| PyValueError::new_err(e.to_string()))?
    .map_err(|e| PyValueError::new_err(e.to_string()))
}
