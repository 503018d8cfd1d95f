//! The Rust half of the `stockman` Python package: every search on
//! explicit trees, random trees, the built-in games and games written in
//! Python, through the library's run layer (`stockman::run`): the same
//! defaults, checks and runner as the command line, answered as Python
//! dicts with no JSON in between. The Python half
//! (`python/stockman/__init__.py`) checks the arguments, names them in its
//! errors, and raises the documented exceptions for failed searches.
//!
//! Every search runs on a thread of its own, with a stack sized to the
//! search, while the calling thread waits with the GIL released and checks
//! for signals every 50 ms: Ctrl-C stops the search (through
//! [`Control::stop`](stockman::Control::stop)) and raises `KeyboardInterrupt`, and a panic in
//! the search becomes `stockman.InternalError` instead of crossing into
//! Python.
// `stockman::SearchError` carries the stopped search's `Stats` and what it
// proved; it is returned once per search, so its size costs nothing here.
#![allow(clippy::result_large_err)]

mod batch;
mod easyai;
mod engine;
mod errors;
mod pygame;
mod running;
mod sample;
mod search;
mod sources;
mod trace;

use crate::engine::Engine;
use crate::search::solve;
use crate::sources::{BuiltinGame, RandomTree};
use crate::trace::{trace_html, trace_json};
use pyo3::prelude::*;
use stockman::{Algorithm, VALUE_MAX, VALUE_MIN};

/// The most moves one position of a Python game may have: more is taken
/// for an endless iterator, and the search stops with a `ValueError`.
pub const MAX_MOVES: usize = 1_000_000;

/// The deepest a Python game may go: a search that would go deeper stops
/// with a `ValueError` (give `depth=`), so that no game can exhaust the
/// search thread's stack.
pub const MAX_PLIES: u32 = 100_000;

/// The names of every algorithm, baselines first.
#[pyfunction]
fn algorithm_names() -> Vec<&'static str> {
    Algorithm::ALL.iter().map(|a| a.name()).collect()
}

/// The names of the algorithms that need a transposition table (and so a
/// game with `hash()`).
#[pyfunction]
fn table_algorithm_names() -> Vec<&'static str> {
    Algorithm::ALL
        .iter()
        .filter(|a| a.needs_table())
        .map(|a| a.name())
        .collect()
}

/// The names of the stochastic searches.
#[pyfunction]
fn sampler_names() -> Vec<&'static str> {
    stockman::stochastic::SAMPLERS.iter().map(|s| s.name).collect()
}

#[pymodule]
fn _stockman(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(batch::solve_positions, m)?)?;
    m.add_function(wrap_pyfunction!(sample::sample, m)?)?;
    m.add_function(wrap_pyfunction!(sample::sample_trace_json, m)?)?;
    m.add_function(wrap_pyfunction!(sample::sample_html, m)?)?;
    m.add_function(wrap_pyfunction!(trace_json, m)?)?;
    m.add_function(wrap_pyfunction!(trace_html, m)?)?;
    m.add_function(wrap_pyfunction!(algorithm_names, m)?)?;
    m.add_function(wrap_pyfunction!(sampler_names, m)?)?;
    m.add_function(wrap_pyfunction!(table_algorithm_names, m)?)?;
    m.add_class::<RandomTree>()?;
    m.add_class::<BuiltinGame>()?;
    m.add_class::<Engine>()?;
    m.add_class::<easyai::EasyAiGame>()?;
    m.add("VALUE_MIN", VALUE_MIN)?;
    m.add("VALUE_MAX", VALUE_MAX)?;
    m.add("MAX_MOVES", MAX_MOVES)?;
    m.add("MAX_PLIES", MAX_PLIES)?;
    m.add("MAX_TABLE_MB", stockman::MAX_TABLE_MB)?;
    m.add("MAX_THREADS", stockman::run::MAX_THREADS)?;
    m.add("MAX_ROUND_STATES", stockman::simulate::MAX_PROCESSORS)?;
    m.add("DEFAULT_GAME_TABLE_MB", stockman::run::DEFAULT_GAME_TABLE_MB)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
