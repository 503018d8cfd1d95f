//! Errors: the Python exceptions of run-layer, table and search errors.

use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use stockman::run::RunError;
use stockman::SearchError;

/// An exception of the package's own (defined in `stockman/_errors.py`).
pub(crate) fn package_error(py: Python<'_>, name: &str, message: String) -> PyErr {
    match py.import("stockman._errors").and_then(|m| m.getattr(name)) {
        Ok(class) => match class.call1((message.clone(),)) {
            Ok(e) => PyErr::from_value(e),
            Err(e) => e,
        },
        Err(_) => PyRuntimeError::new_err(message),
    }
}

/// A run-layer error as the Python exception that fits it.
pub(crate) fn run_error(py: Python<'_>, e: RunError) -> PyErr {
    match e {
        RunError::Position { .. } | RunError::Settings(_) | RunError::NeedsDepth(_) => {
            PyValueError::new_err(e.to_string())
        }
        RunError::Unread { knob, .. } => PyValueError::new_err(e.unread(&format!("{}=", knob.name()))),
        RunError::Table(t) => table_error(t),
        RunError::Internal(m) => package_error(
            py,
            "InternalError",
            format!("internal error (a bug in stockman, please report it): {m}"),
        ),
    }
}

pub(crate) fn table_error(e: stockman::TableError) -> PyErr {
    match e.kind {
        // Asking for more than the machine has is a bad argument.
        stockman::TableErrorKind::OutOfRange | stockman::TableErrorKind::OverPhysicalMemory(_) => {
            PyValueError::new_err(format!("tt_mb: {e}"))
        }
        _ => PyMemoryError::new_err(e.to_string()),
    }
}

/// The class of a failed search, which the Python half turns into an
/// exception: `limit` (SearchLimit), `unsupported` (UnsupportedSearch),
/// `game` (GameError), `memory` (MemoryError).
pub(crate) fn error_kind(e: &SearchError) -> &'static str {
    match e {
        SearchError::NodeLimit { .. }
        | SearchError::TimeLimit { .. }
        | SearchError::Stopped { .. }
        | SearchError::OpenLimit { .. } => "limit",
        SearchError::NoHash { .. } | SearchError::Unsupported { .. } => "unsupported",
        SearchError::Table(_) => "memory",
        _ => "game",
    }
}

/// Python's names for the settings behind a search's limits: its messages
/// name the keyword argument a user passed (`max_nodes=5`), where the
/// library's name the limit itself.
pub(crate) struct Arguments;

impl stockman::SettingNames for Arguments {
    fn limit(&self, limit: &stockman::Limit) -> String {
        match limit {
            stockman::Limit::Nodes(n) => format!("max_nodes={n}"),
            stockman::Limit::Time(t) => format!("time_limit={}", t.as_secs_f64()),
            stockman::Limit::Stop => "a stop request".to_string(),
        }
    }
    fn max_open(&self) -> String {
        "max_open".to_string()
    }
}
