//! Running a search: the shared runner, the search thread, and answers as
//! Python dicts.

use crate::errors::{error_kind, package_error};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;
use stockman::run::{panic_message, Runner, Solution};
use stockman::{SettingNames, Stats};

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
            Ok(Err(p)) | Err(p) => Err(package_error(
                py,
                "InternalError",
                format!(
                    "internal error (a bug in stockman, please report it): {}",
                    panic_message(&*p)
                ),
            )),
        }
    })
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

    pub(crate) fn to_object(&self, py: Python<'_>) -> PyObject {
        match self {
            BestMove::Index(i) => i
                .into_pyobject(py)
                .map(|o| o.into_any().unbind())
                .unwrap_or_else(|_| py.None()),
            BestMove::Text(t) => PyString::new(py, t).into_any().unbind(),
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

/// One algorithm's answer as a dict: the fields of the CLI's
/// `solve --format json` rows, plus `error_kind` when it failed.
pub(crate) fn solution_dict<'py>(py: Python<'py>, s: &Solution<BestMove>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("algorithm", s.label())?;
    d.set_item("value", s.value)?;
    d.set_item("best_move", s.best_move.as_ref().map(|m| m.to_object(py)))?;
    if let Some((lo, hi)) = s.bound {
        d.set_item("bound", [lo, hi])?;
    }
    if let Some((lo, hi)) = s.proven {
        d.set_item("proven_bounds", [lo, hi])?;
    }
    d.set_item("stats", stats_dict(py, &s.stats)?)?;
    if let Some(depth) = s.depth_completed {
        d.set_item("depth_completed", depth)?;
    }
    if let Some(l) = s.stopped_by {
        d.set_item("stopped_by", crate::errors::Arguments.limit(&l))?;
    }
    if let Some(leaves) = &s.leaves {
        d.set_item("leaves", leaves.clone())?;
    }
    if let Some(e) = &s.error {
        d.set_item("error", e.describe(&crate::errors::Arguments))?;
        d.set_item("error_kind", error_kind(e))?;
    }
    Ok(d)
}
