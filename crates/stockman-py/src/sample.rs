//! `stockman.sample`: the stochastic searches on Bernoulli trees, through
//! the run layer's rows (the dicts are the CLI's JSON rows).

use crate::running::json_object;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use stockman::run::stochastic::{sample_rows, BernoulliSource, SampleRunError};
use stockman::stochastic::{BernoulliTree, SampleError, SampleOptions, Sampler};
use stockman::Role;

/// A value error naming the argument.
fn bad(name: &str, e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{name}: {e}"))
}

/// `stockman.sample` (the Python half documents the arguments).
#[pyfunction]
#[pyo3(signature = (tree, algorithms=None, delta=0.1, epsilon=0.0, max_samples=10_000_000, seed=0, rate="proven", interval="kl", sampling="murphy", threshold=None, runs=1, root="max"))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn sample<'py>(
    py: Python<'py>,
    tree: &str,
    algorithms: Option<Vec<String>>,
    delta: f64,
    epsilon: f64,
    max_samples: u64,
    seed: u64,
    rate: &str,
    interval: &str,
    sampling: &str,
    threshold: Option<f64>,
    runs: u64,
    root: &str,
) -> PyResult<Bound<'py, PyList>> {
    let root: Role = root.parse().map_err(|e: String| bad("root", e))?;
    let text = tree.trim_start();
    let source = if text.starts_with('[') || text.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        let t = BernoulliTree::parse(tree, root)
            .map_err(|e| bad("tree", format!("line {}, column {}: {}", e.line, e.column, e.kind)))?;
        BernoulliSource::Tree(t)
    } else {
        BernoulliSource::random(tree, root).map_err(|e| bad("tree", e))?
    };
    let samplers: Vec<Sampler> = match algorithms {
        Some(names) => names
            .iter()
            .map(|n| n.parse::<Sampler>().map_err(|e| bad("algorithms", e)))
            .collect::<PyResult<_>>()?,
        None => Sampler::defaults(threshold),
    };
    let opts = SampleOptions {
        delta,
        epsilon,
        max_samples,
        seed,
        rate: rate.parse().map_err(|e| bad("rate", e))?,
        interval: interval.parse().map_err(|e: String| bad("interval", e))?,
        rule: sampling.parse().map_err(|e| bad("sampling", e))?,
        threshold,
    };
    let rows = py
        .allow_threads(|| sample_rows(&source, &samplers, &opts, runs))
        .map_err(|e| {
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
        })?;
    let list = PyList::empty(py);
    for r in &rows {
        let json = serde_json::to_value(r).map_err(|e| PyValueError::new_err(e.to_string()))?;
        list.append(json_object(py, &json)?)?;
    }
    Ok(list)
}
