//! # stockman-lab
//!
//! Experiments and pictures for the [`stockman`] searches.
//!
//! - [`grid`]: an experiment's grid of searches on random trees (algorithms x
//!   widths x depths x value models x orderings x seeds), from TOML or a
//!   bundled preset, expanded into numbered jobs and split into shards.
//! - [`run`]: the searches in parallel (rayon), their rows appended to a CSV
//!   file as they finish, resuming, merging shards.
//! - [`record`]: one row per search, every [`stockman::Stats`] field a column.
//! - [`report`]: means and spreads over seeds, checks of the published
//!   claims, a Markdown summary and SVG plots (plotters, SVG backend only).
//! - [`games`]: game grids (every algorithm at every depth and table size
//!   on a game's test positions): rows, CSV, merging, the summary relative
//!   to NegaScout and to the minimal tree, plots.
//! - [`html`]: a self-contained HTML page that replays a traced search step
//!   by step.
//!
//! The `stockman experiment` and `stockman trace --html` commands are thin
//! wrappers around this crate.
// `stockman::SearchError` carries the stopped search's `Stats` and what it
// proved; it is returned once per search, so its size costs nothing here.
#![allow(clippy::result_large_err)]
#![warn(missing_docs)]

pub mod arena;
pub mod games;
pub mod grid;
pub mod html;
pub mod record;
pub mod report;
pub mod run;

pub use grid::{BnsGuess, Grid, Job, Order, Overrides, Shard, TreeKey, PRESETS};
pub use record::Record;
pub use report::{plot_lines, summarize, Axes, Series, Summary};
pub use run::{merge_files, Finished, Plan};

use std::fmt;
use std::path::Path;

/// What went wrong in an experiment or a page: a message for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(pub String);

impl Error {
    /// An error with this message.
    pub fn new(msg: impl Into<String>) -> Error {
        Error(msg.into())
    }

    pub(crate) fn io(path: &Path, e: std::io::Error) -> Error {
        Error(format!("{}: {e}", path.display()))
    }

    pub(crate) fn csv(path: &Path, e: csv::Error) -> Error {
        Error(format!("{}: {e}", path.display()))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}
