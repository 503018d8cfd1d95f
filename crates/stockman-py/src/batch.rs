//! `stockman.solve_positions`: a test set of a built-in game solved by the
//! library's batch layer (`stockman::run::batch`), the one `stockman solve
//! --positions` uses, so Python gets the CLI's per-position rows and summary.

use crate::errors::run_error;
use crate::running::{give_back, run_search, stats_dict, take_runner};
use crate::search::{builtin_stack, settings};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use stockman::games::positions::parse_positions;
use stockman::run::batch::{self, PositionResult, Summary};
use stockman::run::{GameKind, SourceKind};

/// Every position of `text` (a test set: one position a line, as `solve
/// --positions` reads) solved by each algorithm: `{"positions": [...],
/// "summary": [...]}`, the CLI's JSON rows and summary lines.
#[pyfunction]
#[pyo3(signature = (game, text, algorithms=None, depth=None, max_nodes=None, time_limit=None, tt_mb=None, iterative=false, threads=1, parallel=None, round_states=0))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_positions<'py>(
    py: Python<'py>,
    game: &str,
    text: &str,
    algorithms: Option<Vec<String>>,
    depth: Option<u32>,
    max_nodes: Option<u64>,
    time_limit: Option<f64>,
    tt_mb: Option<usize>,
    iterative: bool,
    threads: usize,
    parallel: Option<&str>,
    round_states: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let kind: GameKind = game.parse().map_err(|e| PyValueError::new_err(format!("game: {e}")))?;
    let lines = parse_positions(text)
        .map_err(|e| PyValueError::new_err(format!("line {}, column {}: {}", e.line, e.column, e.message)))?;
    let settings = settings(
        algorithms,
        depth,
        max_nodes,
        time_limit,
        tt_mb,
        false,
        iterative,
        threads,
        parallel,
        round_states,
    )?;
    let mut request = settings.request(SourceKind::Game(kind)).map_err(|e| run_error(py, e))?;
    let stop = Arc::new(AtomicBool::new(false));
    request.options.control.stop = Some(stop.clone());
    let mut runner = take_runner();
    let mut rows: Vec<PositionResult> = Vec::new();
    let result = run_search(py, builtin_stack(request.options.limits.depth), &stop, || {
        batch::solve_positions(kind, &lines, &request, &mut runner, |p| rows.push(p.clone()))
    });
    give_back(runner);
    let summaries = result?.map_err(|e| match e.line {
        0 => PyValueError::new_err(e.error.to_string()),
        n => PyValueError::new_err(format!("line {n}: {}", e.error)),
    })?;
    let out = PyDict::new(py);
    let positions = PyList::empty(py);
    for p in &rows {
        for (s, score) in p.solutions.iter().zip(&p.best_move_scores) {
            let d = PyDict::new(py);
            d.set_item("line", p.line)?;
            d.set_item("position", &p.position)?;
            d.set_item("algorithm", s.label())?;
            d.set_item("value", s.value)?;
            // As the CLI writes it: a number where the notation is one.
            match s.best_move.as_deref().map(|m| (m, m.parse::<u64>())) {
                Some((_, Ok(n))) => d.set_item("best_move", n)?,
                Some((m, Err(_))) => d.set_item("best_move", m)?,
                None => d.set_item("best_move", py.None())?,
            }
            if let Some((lo, hi)) = s.proven {
                d.set_item("proven_bounds", [lo, hi])?;
            }
            d.set_item("stats", stats_dict(py, &s.stats)?)?;
            d.set_item("expected", p.expected)?;
            d.set_item("best_move_score", *score)?;
            if let Some(e) = &s.error {
                d.set_item("error", e.describe(&crate::errors::Arguments))?;
            }
            positions.append(d)?;
        }
    }
    out.set_item("positions", positions)?;
    let summary = PyList::empty(py);
    for s in &summaries {
        summary.append(summary_dict(py, s)?)?;
    }
    out.set_item("summary", summary)?;
    Ok(out)
}

/// One algorithm's summary: the fields of the CLI's `{"summary": {...}}` lines.
fn summary_dict<'py>(py: Python<'py>, s: &Summary) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("algorithm", &s.algorithm)?;
    d.set_item("positions", s.positions)?;
    d.set_item("wrong", s.wrong)?;
    d.set_item("bad_moves", s.bad_moves)?;
    d.set_item("failed", s.failed)?;
    d.set_item("stopped", s.stopped)?;
    d.set_item("mean_time_us", s.mean_time_us())?;
    d.set_item("median_time_us", s.median_time_us())?;
    d.set_item("p99_time_us", s.p99_time_us())?;
    d.set_item("mean_nodes", s.mean_nodes())?;
    d.set_item("positions_per_s", s.positions_per_s())?;
    d.set_item("stats", stats_dict(py, &s.stats)?)?;
    Ok(d)
}
