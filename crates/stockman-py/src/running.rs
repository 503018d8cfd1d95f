//! Running a search: the shared runner, the search thread, and answers as
//! Python dicts.

use crate::errors::{error_kind, package_error};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;
use stockman::run::{panic_message, Row, Runner, Solution};
use stockman::Stats;

/// The runner every `solve` shares: its fixed table is allocated and
/// committed once, not at each call (and never inside a search's clock).
static RUNNER: Mutex<Option<Runner>> = Mutex::new(None);

/// Takes the shared runner (a fresh one if another thread has it).
pub(crate) fn take_runner() -> Runner {
    RUNNER.lock().ok().and_then(|mut r| r.take()).unwrap_or_default()
}

pub(crate) fn give_back(runner: Runner) {
    if let Ok(mut r) = RUNNER.lock() {
        *r = Some(runner);
    }
}

/// Runs `f` on a thread with `stack` bytes of stack while this thread
/// waits without the GIL, checking for signals every 50 ms: a signal's
/// exception (KeyboardInterrupt) raises `stop` and is raised once `f` has
/// returned; a panic in `f` becomes `InternalError`.
pub(crate) fn run_search<T: Send>(
    py: Python<'_>,
    stack: usize,
    stop: &AtomicBool,
    f: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let done = (Mutex::new(false), Condvar::new());
    let done = &done;
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("stockman-search".into())
            .stack_size(stack)
            .spawn_scoped(s, move || {
                let r = std::panic::catch_unwind(AssertUnwindSafe(f));
                if let Ok(mut d) = done.0.lock() {
                    *d = true;
                }
                done.1.notify_all();
                r
            })
            .map_err(|e| {
                PyRuntimeError::new_err(format!(
                    "cannot start the search thread ({} MiB of stack): {e}",
                    stack >> 20
                ))
            })?;
        let mut interrupt = None;
        loop {
            let finished = py.allow_threads(|| match done.0.lock() {
                Ok(d) if *d => true,
                Ok(d) => done
                    .1
                    .wait_timeout(d, Duration::from_millis(50))
                    .map_or(true, |(d, _)| *d),
                Err(_) => true,
            });
            if finished {
                break;
            }
            if interrupt.is_none() {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    interrupt = Some(e);
                }
            }
        }
        let joined = py.allow_threads(|| worker.join());
        if let Some(e) = interrupt {
            return Err(e);
        }
        match joined {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(p)) | Err(p) => Err(internal_error(py, &*p)),
        }
    })
}

/// A panic's payload as the package's `InternalError`.
pub(crate) fn internal_error(py: Python<'_>, payload: &(dyn std::any::Any + Send)) -> PyErr {
    package_error(
        py,
        "InternalError",
        format!(
            "internal error (a bug in stockman, please report it): {}",
            panic_message(payload)
        ),
    )
}

/// A best move as Python sees it: a child's index (trees, Python games)
/// or the move in the game's notation (a number where it is one).
#[derive(Clone, Debug)]
pub(crate) enum BestMove {
    Index(usize),
    Text(String),
}

impl BestMove {
    pub(crate) fn of_text(t: String) -> BestMove {
        match t.parse::<usize>() {
            Ok(n) => BestMove::Index(n),
            Err(_) => BestMove::Text(t),
        }
    }

    /// As the row of the CLI's JSON has it.
    fn to_json(&self) -> serde_json::Value {
        match self {
            BestMove::Index(i) => serde_json::Value::from(*i),
            BestMove::Text(t) => serde_json::Value::from(t.as_str()),
        }
    }
}

pub(crate) fn stats_dict<'py>(py: Python<'py>, s: &Stats) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in [
        ("leaf_evals", s.leaf_evals),
        ("nodes_expanded", s.nodes_expanded),
        ("nodes", s.nodes),
        ("horizon_nodes", s.horizon_nodes),
        ("max_open", s.max_open),
        ("open_pushes", s.open_pushes),
        ("open_purged", s.open_purged),
        ("passes", s.passes),
        ("tt_probes", s.tt_probes),
        ("tt_hits", s.tt_hits),
        ("tt_stores", s.tt_stores),
        ("time_us", s.time_us),
    ] {
        d.set_item(k, v)?;
    }
    Ok(d)
}

/// One algorithm's answer as a dict: the run layer's [`Row`], the row of
/// the CLI's `solve --format json` (with Python's names for the limits),
/// plus `error_kind` when it failed.
pub(crate) fn solution_dict<'py>(py: Python<'py>, s: &Solution<BestMove>) -> PyResult<Bound<'py, PyDict>> {
    let row = Row::from_solution(s.clone(), &|m, _| m.to_json(), &crate::errors::Arguments);
    let json = serde_json::to_value(&row).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let d = json_object(py, &json)?.downcast_into::<PyDict>()?;
    if let Some(e) = &s.error {
        d.set_item("error_kind", error_kind(e))?;
    }
    Ok(d)
}

/// A JSON value as the Python object `json.loads` would give.
pub(crate) fn json_object<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value as J;
    Ok(match v {
        J::Null => py.None().into_bound(py),
        J::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        J::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        J::String(t) => PyString::new(py, t).into_any(),
        J::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_object(py, item)?)?;
            }
            list.into_any()
        }
        J::Object(fields) => {
            let d = PyDict::new(py);
            for (k, item) in fields {
                d.set_item(k, json_object(py, item)?)?;
            }
            d.into_any()
        }
    })
}
