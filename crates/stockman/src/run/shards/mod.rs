//! A batch of positions cut into shards that run apart (processes, a
//! cluster's array job) and merged back into the rows and summaries of the
//! whole batch.
//!
//! Shard `K` of `N` solves the positions whose index `i` (0-based, in file
//! order) has `i % N == K - 1`: round robin, so that every shard gets its
//! share of a file sorted by difficulty. Its JSON output starts with a
//! [`ShardHeader`] line naming the batch (the file's digest, the game, the
//! algorithms, the depth, the limits, the table, the threads, iterative
//! deepening, and one digest of all that changes a row) and the positions
//! it owes; then come its [`BatchRow`]s. [`merge`] holds the shards to the
//! [`rules`] that an experiment grid's merge answers to as well (one
//! batch, no shard missing or given twice, each complete), then gives the
//! rows in file order and the summaries recounted from them.
//!
//! # Example
//! ```
//! use stockman::run::shards::{merge, BatchRow, ShardHeader, ShardOutput};
//! use stockman::run::{GameKind, Settings, SourceKind};
//! use stockman::{Algorithm, Stats};
//! let kind = GameKind::TicTacToe;
//! let settings = Settings { algorithms: Some(vec![Algorithm::AlphaBeta]), ..Settings::default() };
//! let request = settings.request(SourceKind::Game(kind)).unwrap();
//! let header = |index| ShardHeader::new(index, 2, "t.txt", 3, "3\n5\n7\n", kind, &request);
//! let row = |line: usize| BatchRow {
//!     line,
//!     position: line.to_string(),
//!     algorithm: "alphabeta".into(),
//!     value: Some(0),
//!     best_move: None,
//!     proven_bounds: None,
//!     stats: Stats::default(),
//!     expected: Some(0),
//!     best_move_score: None,
//!     stopped_by: None,
//!     error: None,
//! };
//! let one = ShardOutput { name: "1.jsonl".into(), header: header(1), rows: vec![row(1), row(3)] };
//! let two = ShardOutput { name: "2.jsonl".into(), header: header(2), rows: vec![row(2)] };
//! let merged = merge(vec![two, one]).unwrap();
//! assert_eq!(merged.rows.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 2, 3]);
//! assert_eq!((merged.summaries[0].positions, merged.summaries[0].wrong), (3, Some(0)));
//! ```

pub mod rules;

pub use rules::MergeError;
use rules::{check, digest, share, Part};

use super::batch::{Counted, Summary};
use super::{GameKind, Request};
use crate::stats::Stats;
use crate::table::TableSize;
use crate::value::Value;
use serde::{Deserialize, Serialize};

/// One position and algorithm of a batch: a line of `stockman solve
/// --positions FILE --format json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchRow {
    /// The line of the file (1-based).
    pub line: usize,
    /// The position, as the file gives it.
    pub position: String,
    /// The algorithm's label.
    pub algorithm: String,
    /// The value found.
    pub value: Option<Value>,
    /// The best move in the game's notation (a number where it is one).
    pub best_move: Option<serde_json::Value>,
    /// The bounds a search stopped by a limit had proved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proven_bounds: Option<[Value; 2]>,
    /// The search's counters.
    pub stats: Stats,
    /// The exact score the file expects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    /// The score the file lists for the best move found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_move_score: Option<Value>,
    /// What stopped an iterative search short of its depth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<String>,
    /// Why the search gave no answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl BatchRow {
    fn counted(&self) -> Counted {
        Counted {
            expected: self.expected,
            value: self.value,
            best_move_score: self.best_move_score,
            stats: self.stats,
            failed: self.error.is_some(),
            stopped: self.stopped_by.is_some(),
        }
    }
}

/// The first line of a shard's JSON output: `{"shard": {...}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardHeader {
    /// What the shard is.
    pub shard: ShardInfo,
}

/// Which shard of which batch, and everything it ran with that changes a row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardInfo {
    /// `K`, from 1.
    pub index: u32,
    /// `N`.
    pub count: u32,
    /// The positions file, as named on the command line.
    pub file: String,
    /// Positions in the whole file.
    pub positions: usize,
    /// A digest of the file's text (FNV-1a, 64 bits, in hex): shards of
    /// different files are told apart even under one name.
    pub digest: String,
    /// The algorithms' labels, in row order.
    pub algorithms: Vec<String>,
    /// The depth limit, if any (the values are then heuristic).
    pub depth: Option<u32>,
    /// The game (`tictactoe`, `connect4`, ...).
    pub game: String,
    /// `--max-nodes`.
    pub max_nodes: Option<u64>,
    /// `--time-limit`, in seconds.
    pub time_limit_s: Option<f64>,
    /// `--max-open`.
    pub max_open: usize,
    /// The table in MiB (`None`: unbounded).
    pub tt_mb: Option<usize>,
    /// Threads per search.
    pub threads: usize,
    /// How the threads share a search.
    pub parallel: String,
    /// Iterative deepening.
    pub iterative: bool,
    /// A digest of the file's text and of every setting that changes a row
    /// (the fields above, the enhancements, the algorithms' parameters):
    /// shards of one batch have the same.
    pub run_digest: String,
}

impl ShardHeader {
    /// The header of shard `index` of `count` of a batch of `positions`
    /// positions of `game` read from `text`, solved as `request` says.
    pub fn new(
        index: u32,
        count: u32,
        file: &str,
        positions: usize,
        text: &str,
        game: GameKind,
        request: &Request,
    ) -> ShardHeader {
        let o = &request.options;
        let mut info = ShardInfo {
            index,
            count,
            file: file.to_string(),
            positions,
            digest: digest(text.as_bytes()),
            algorithms: request.labels(),
            depth: o.limits.depth,
            game: game.name().to_string(),
            max_nodes: o.limits.nodes,
            time_limit_s: o.limits.time.map(|t| t.as_secs_f64()),
            max_open: o.limits.max_open,
            tt_mb: match o.table {
                TableSize::Megabytes(mb) => Some(mb),
                TableSize::Unbounded => None,
            },
            threads: request.threads,
            parallel: request.parallel.to_string(),
            iterative: request.iterative,
            run_digest: String::new(),
        };
        // The named settings, then what changes a row and has no field of
        // its own (Debug of plain data: the same on every run of a release).
        let rest = format!(
            "{:?} {:?} {:?} {} {} {} {:?}",
            o.enhancements,
            o.params,
            o.limits.soft_time,
            request.round_states,
            request.shared_table,
            request.eval_cost_ns,
            o.threads,
        );
        let named: Vec<String> = info.settings().into_iter().map(|(w, v)| format!("{w}={v}")).collect();
        info.run_digest = digest(format!("{}\n{rest}", named.join("\n")).as_bytes());
        ShardHeader { shard: info }
    }

    /// The positions shard `index` owes: those of index `i` with `i % count == index - 1`.
    pub fn owed(&self) -> usize {
        share(self.shard.positions as u64, self.shard.index, self.shard.count) as usize
    }
}

impl ShardInfo {
    /// The settings a mixed merge names, in the order it checks them.
    pub fn settings(&self) -> Vec<(String, String)> {
        let or_none = |v: Option<String>| v.unwrap_or_else(|| "none".to_string());
        [
            (
                "positions file",
                format!("{} ({} positions)", self.digest, self.positions),
            ),
            ("game", self.game.clone()),
            ("algorithms", self.algorithms.join(",")),
            ("depth", or_none(self.depth.map(|d| d.to_string()))),
            ("max nodes", or_none(self.max_nodes.map(|n| n.to_string()))),
            ("time limit", or_none(self.time_limit_s.map(|t| format!("{t} s")))),
            ("max open", self.max_open.to_string()),
            (
                "table",
                self.tt_mb.map_or("unbounded".to_string(), |mb| format!("{mb} MiB")),
            ),
            ("threads", self.threads.to_string()),
            ("parallel", self.parallel.clone()),
            ("iterative", self.iterative.to_string()),
        ]
        .into_iter()
        .map(|(w, v)| (w.to_string(), v))
        .collect()
    }
}

/// One shard's output, read back.
#[derive(Clone, Debug, PartialEq)]
pub struct ShardOutput {
    /// Where it was read from (for messages).
    pub name: String,
    /// Its first line.
    pub header: ShardHeader,
    /// Its rows.
    pub rows: Vec<BatchRow>,
}

/// The whole batch again.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// Every row, in file order (per position, the algorithms in order).
    pub rows: Vec<BatchRow>,
    /// Per algorithm, recounted from the rows.
    pub summaries: Vec<Summary>,
}

/// Merges the outputs of every shard of one batch: the rows in file order
/// and the summaries recounted. See the [module](self) documentation.
///
/// # Errors
/// See [`MergeError`].
pub fn merge(mut shards: Vec<ShardOutput>) -> Result<Merged, MergeError> {
    let parts: Vec<Part> = shards
        .iter()
        .map(|s| {
            let h = &s.header.shard;
            Part {
                name: s.name.clone(),
                index: h.index,
                count: h.count,
                settings: h.settings(),
                digest: h.run_digest.clone(),
                owed: (s.header.owed() * h.algorithms.len().max(1)) as u64,
                rows: s.rows.len() as u64,
            }
        })
        .collect();
    check(&parts)?;
    shards.sort_by_key(|s| s.header.shard.index);
    let a = &shards[0].header.shard.clone();
    let algos = a.algorithms.len().max(1);
    // Round robin: position i is row block i / N of shard i % N.
    let n = a.count as usize;
    let mut rows = Vec::with_capacity(a.positions * algos);
    let mut last_line = 0;
    for i in 0..a.positions {
        let s = &shards[i % n];
        let block = &s.rows[(i / n) * algos..(i / n + 1) * algos];
        for (r, name) in block.iter().zip(&a.algorithms) {
            if r.line <= last_line || r.algorithm != *name || r.line != block[0].line {
                return Err(MergeError::Stray {
                    name: s.name.clone(),
                    row: format!("the row of line {} ({})", r.line, r.algorithm),
                });
            }
        }
        last_line = block[0].line;
        rows.extend_from_slice(block);
    }
    let comparable = a.depth.is_none();
    let mut summaries: Vec<Summary> = a
        .algorithms
        .iter()
        .map(|n| Summary::new(n.clone(), comparable))
        .collect();
    for r in &rows {
        if let Some(sum) = summaries.iter_mut().find(|s| s.algorithm == r.algorithm) {
            sum.record(&r.counted());
        }
    }
    Ok(Merged { rows, summaries })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::Algorithm;
    use crate::run::Settings;
    use crate::run::SourceKind;

    fn row(line: usize, algorithm: &str) -> BatchRow {
        BatchRow {
            line,
            position: String::new(),
            algorithm: algorithm.into(),
            value: Some(1),
            best_move: None,
            proven_bounds: None,
            stats: Stats::default(),
            expected: Some(0),
            best_move_score: None,
            stopped_by: None,
            error: None,
        }
    }

    fn request(settings: Settings) -> Request {
        let settings = Settings {
            algorithms: Some(vec![Algorithm::AlphaBeta, Algorithm::Mtdf]),
            ..settings
        };
        settings.request(SourceKind::Game(GameKind::TicTacToe)).unwrap()
    }

    fn shard_of(
        index: u32,
        count: u32,
        positions: usize,
        rows: Vec<BatchRow>,
        game: GameKind,
        r: &Request,
    ) -> ShardOutput {
        ShardOutput {
            name: format!("{index}.jsonl"),
            header: ShardHeader::new(index, count, "f", positions, "text", game, r),
            rows,
        }
    }

    fn shard(index: u32, count: u32, positions: usize, rows: Vec<BatchRow>) -> ShardOutput {
        shard_of(
            index,
            count,
            positions,
            rows,
            GameKind::TicTacToe,
            &request(Settings::default()),
        )
    }

    /// Shards of one file under another game, table, deepening or
    /// enhancement are refused, the setting and both values named; one
    /// that no field names is caught by the run digest.
    #[test]
    fn shards_run_with_other_settings_are_refused() {
        let rows = |line| vec![row(line, "alphabeta"), row(line, "mtdf")];
        let one = || shard(1, 2, 2, rows(1));
        let two = |game, s| shard_of(2, 2, 2, rows(4), game, &request(s));
        let refused = |other: ShardOutput| merge(vec![one(), other]).unwrap_err().to_string();
        assert_eq!(
            merge(vec![one(), two(GameKind::TicTacToe, Settings::default())])
                .unwrap()
                .rows
                .len(),
            4
        );
        assert_eq!(
            refused(two(GameKind::Connect4, Settings::default())),
            "2.jsonl: game connect4 differs from tictactoe in 1.jsonl: the two are shards of different runs"
        );
        let table = Settings {
            tt_mb: Some(16),
            ..Settings::default()
        };
        assert!(refused(two(GameKind::TicTacToe, table)).starts_with("2.jsonl: table 16 MiB differs from 64 MiB"));
        let deepened = Settings {
            iterative: true,
            ..Settings::default()
        };
        assert!(
            refused(two(GameKind::TicTacToe, deepened)).starts_with("2.jsonl: algorithms alphabeta+id,mtdf+id differs")
        );
        let limited = Settings {
            max_nodes: Some(100),
            ..Settings::default()
        };
        assert!(refused(two(GameKind::TicTacToe, limited)).starts_with("2.jsonl: max nodes 100 differs from none"));
        let threads = Settings {
            threads: Some(2),
            ..Settings::default()
        };
        assert!(refused(two(GameKind::TicTacToe, threads)).starts_with("2.jsonl: threads 2 differs from 1"));
        let guess = Settings {
            first_guess: Some(3),
            ..Settings::default()
        };
        assert!(refused(two(GameKind::TicTacToe, guess)).starts_with("2.jsonl: settings digest "));
    }

    /// Round robin: of 7 positions in 3 shards, the first owes 3 and the others 2.
    #[test]
    fn every_shard_owes_its_round_robin_share() {
        let owed: Vec<usize> = (1..=3).map(|k| shard(k, 3, 7, vec![]).header.owed()).collect();
        assert_eq!(owed, [3, 2, 2]);
        assert_eq!(shard(5, 5, 3, vec![]).header.owed(), 0);
    }

    /// Rows of another shard's position, or of the algorithms out of order,
    /// are refused; the summaries count wrong values from the rows.
    #[test]
    fn stray_rows_are_refused_and_the_rest_is_counted() {
        let good = || {
            vec![
                shard(1, 2, 2, vec![row(1, "alphabeta"), row(1, "mtdf")]),
                shard(2, 2, 2, vec![row(4, "alphabeta"), row(4, "mtdf")]),
            ]
        };
        let m = merge(good()).unwrap();
        assert_eq!(m.rows.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 1, 4, 4]);
        assert_eq!(m.summaries[0].wrong, Some(2));
        let mut swapped = good();
        swapped[1].rows.swap(0, 1);
        assert_eq!(
            merge(swapped).unwrap_err().to_string(),
            "2.jsonl: the row of line 4 (mtdf) is not its shard's, or comes out of order"
        );
        let mut behind = good();
        behind[1].rows = vec![row(1, "alphabeta"), row(1, "mtdf")];
        assert_eq!(
            merge(behind).unwrap_err().to_string(),
            "2.jsonl: the row of line 1 (alphabeta) is not its shard's, or comes out of order"
        );
        assert_eq!(merge(vec![]), Err(MergeError::Nothing));
    }
}
