//! Game grids (`stockman experiment --game G --positions F`): every
//! algorithm at every depth (and table size) on every test position, as in
//! Plaat, Schaeffer, Pijls and de Bruin's figures. This module holds what
//! does not depend on the game: the rows ([`GameRecord`]) and their CSV
//! form, sharding and merging, the check that the searches agree, and the
//! summary and plots relative to NegaScout and to the minimal tree. The
//! command line runs the searches.

use crate::record::write_atomic;
use crate::Error;
use std::path::{Path, PathBuf};
use stockman::{Stats, Value};

pub mod claims;
mod plots;
mod rows;
pub mod runner;
mod summary;
#[cfg(test)]
mod tests;

pub use rows::{check_agreement, fmt_mb, header, is_game_csv, join, merge, read_csv, write_csv};
pub use summary::{summarize, table_entries, GameCell, GameSummary, MinimalCell};

/// NegaScout's mean time below which no time ratio is given: shorter
/// searches measure the clock and the scheduler more than the search.
pub const MIN_TIME_US: f64 = 100.0;

/// The name of the rows that hold a position's minimal tree.
pub const MINIMAL: &str = "minimal-tree";

/// One row of a game grid: a search, or a position's minimal tree.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The job's number: its place in the unsharded grid.
    pub job: u64,
    /// `connect4`, `othello`, `chess`...
    pub game: String,
    /// The position, as the positions file gives it.
    pub position: String,
    /// The depth in plies.
    pub depth: u32,
    /// The transposition table's size in MiB; `None` for searches without a
    /// table (SSS\* with its OPEN list) and for the minimal tree.
    pub tt_mb: Option<f64>,
    /// `negascout+id` (iterative deepening), `sss`, [`MINIMAL`]...
    pub algorithm: String,
    /// The root's value (none for BNS and for a search that stopped).
    pub value: Option<Value>,
    /// BNS's final bounds: `low <= value < high`.
    pub bound: Option<(Value, Value)>,
    /// The best move, in the game's notation.
    pub best_move: Option<String>,
    /// Why the search stopped without an answer.
    pub error: Option<String>,
    /// Every counter. For the minimal tree: its leaves (`leaf_evals`) and
    /// nodes (`nodes`), and the time the full minimax took.
    pub stats: Stats,
    /// The minimal tree's distinct leaf positions (its rows only).
    pub leaf_positions: Option<u64>,
    /// The distinct positions the full minimax visited (minimal-tree rows only).
    pub minimax_positions: Option<u64>,
    /// The CPU time the search's thread spent, in microseconds (the
    /// `time_us` counter is wall-clock time); `None` in files written before
    /// the column existed. The summary's time ratios use it when every row
    /// compared has it: a busy machine then slows a search's clock but not
    /// its CPU time.
    pub cpu_us: Option<u64>,
}

impl GameRecord {
    /// Whether this row is a minimal tree rather than a search.
    pub fn is_minimal(&self) -> bool {
        self.algorithm == MINIMAL
    }

    /// The row's place in a (position, depth, table, algorithm) grid, for
    /// checking that shards come from the same grid.
    pub(crate) fn identity(&self) -> (&str, &str, u32, Option<u64>, &str) {
        (
            &self.game,
            &self.position,
            self.depth,
            self.tt_mb.map(f64::to_bits),
            &self.algorithm,
        )
    }
}

/// Writes `summary.md` and the plots into `dir`. Returns the files written.
pub fn write_report(records: &[GameRecord], dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let s = summarize(records);
    let mut files = Vec::new();
    let p = dir.join("summary.md");
    write_atomic(&p, s.markdown().as_bytes())?;
    files.push(p);
    for (name, svg) in s.plots()? {
        let p = dir.join(name);
        write_atomic(&p, svg.as_bytes())?;
        files.push(p);
    }
    Ok(files)
}

/// Combines the shards' results files (or directories holding
/// `results-*.csv` files) into `out`: `results.csv`, the summary and the
/// plots. Returns the merged rows and the files written.
pub fn merge_files(inputs: &[PathBuf], out: &Path) -> Result<(Vec<GameRecord>, Vec<PathBuf>), Error> {
    let files = crate::run::shard_files(inputs)?;
    let sets = files.iter().map(|f| read_csv(f)).collect::<Result<Vec<_>, _>>()?;
    write_merged(merge(sets)?, out)
}

/// Joins the results files of separate runs of one game grid ([`join`]:
/// the rows in the order of the files, jobs numbered again) into `out`, as
/// [`merge_files`] writes shards.
pub fn join_files(inputs: &[PathBuf], out: &Path) -> Result<(Vec<GameRecord>, Vec<PathBuf>), Error> {
    // A run's folder stands for its `results.csv` (shards: merge them first).
    let mut files = Vec::new();
    for p in inputs {
        if p.is_dir() {
            let f = p.join("results.csv");
            if !f.is_file() {
                return Err(Error::new(format!(
                    "{}: no results.csv in it (a folder of shards is merged first, without --join)",
                    p.display()
                )));
            }
            files.push(f);
        } else {
            files.push(p.clone());
        }
    }
    if files.is_empty() {
        return Err(Error::new("nothing to join: name the runs' results files or folders"));
    }
    for (i, f) in files.iter().enumerate() {
        let same = |g: &PathBuf| match (f.canonicalize(), g.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => f == g,
        };
        if files[..i].iter().any(same) {
            return Err(Error::new(format!("{}: named twice", f.display())));
        }
    }
    let mut sets = Vec::new();
    for f in &files {
        std::fs::metadata(f).map_err(|e| Error::io(f, e))?;
        if !is_game_csv(f) {
            return Err(Error::new(format!(
                "{}: not a game grid's results file (--join joins game grids; a random-tree grid's shards are merged without it)",
                f.display()
            )));
        }
        sets.push((f.display().to_string(), read_csv(f)?));
    }
    write_merged(join(sets)?, out)
}

/// Writes merged or joined rows into `out`: `results.csv`, the summary and
/// the plots.
fn write_merged(records: Vec<GameRecord>, out: &Path) -> Result<(Vec<GameRecord>, Vec<PathBuf>), Error> {
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let path = out.join("results.csv");
    write_csv(&path, &records)?;
    let mut written = vec![path];
    written.extend(write_report(&records, out)?);
    Ok((records, written))
}
