//! A batch of positions cut into shards that run apart (processes, a
//! cluster's array job) and merged back into the rows and summaries of the
//! whole batch.
//!
//! Shard `K` of `N` solves the positions whose index `i` (0-based, in file
//! order) has `i % N == K - 1`: round robin, so that every shard gets its
//! share of a file sorted by difficulty. Its JSON output starts with a
//! [`ShardHeader`] line naming the batch (the file's digest, the
//! algorithms, the depth) and the positions it owes; then come its
//! [`BatchRow`]s. [`merge`] checks that the shards are of one batch, that
//! none is missing or given twice and that each is complete, then gives the
//! rows in file order and the summaries recounted from them.
//!
//! # Example
//! ```
//! use stockman::run::shards::{merge, BatchRow, ShardHeader, ShardOutput};
//! use stockman::Stats;
//! let header = |index| ShardHeader::new(index, 2, "t.txt", 3, "3\n5\n7\n", &["alphabeta".into()], None);
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

use super::batch::{Counted, Summary};
use crate::stats::Stats;
use crate::value::Value;
use serde::{Deserialize, Serialize};
use std::fmt;

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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardHeader {
    /// What the shard is.
    pub shard: ShardInfo,
}

/// Which shard of which batch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
}

impl ShardHeader {
    /// The header of shard `index` of `count` of a batch of `positions`
    /// positions read from `text`.
    pub fn new(
        index: u32,
        count: u32,
        file: &str,
        positions: usize,
        text: &str,
        algorithms: &[String],
        depth: Option<u32>,
    ) -> ShardHeader {
        ShardHeader {
            shard: ShardInfo {
                index,
                count,
                file: file.to_string(),
                positions,
                digest: format!("{:016x}", fnv1a(text.as_bytes())),
                algorithms: algorithms.to_vec(),
                depth,
            },
        }
    }

    /// The positions shard `index` owes: those of index `i` with `i % count == index - 1`.
    pub fn owed(&self) -> usize {
        let (k, n) = (self.shard.index as usize, self.shard.count as usize);
        self.shard.positions / n + usize::from(self.shard.positions % n >= k)
    }
}

/// FNV-1a over bytes: a digest that every platform and release computes alike.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
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

/// Why shards cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// No shard given.
    Nothing,
    /// Two shards of different batches (file, digest, count, algorithms or depth).
    Mismatch {
        /// The first shard.
        first: String,
        /// The one that differs.
        other: String,
        /// What differs.
        what: &'static str,
    },
    /// A shard given twice.
    Twice {
        /// `K/N`.
        shard: String,
        /// The two files.
        files: [String; 2],
    },
    /// Shards missing.
    Missing {
        /// Their `K/N`.
        shards: Vec<String>,
    },
    /// A shard with fewer or more rows than it owes (stopped early, or cut).
    Incomplete {
        /// Its file.
        name: String,
        /// The rows it has.
        rows: usize,
        /// The rows it owes (positions times algorithms).
        owed: usize,
    },
    /// A row of a position the shard does not own, or out of order.
    Stray {
        /// Its file.
        name: String,
        /// The row's line in the positions file.
        line: usize,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Nothing => f.write_str("no shard to merge"),
            MergeError::Mismatch { first, other, what } => write!(
                f,
                "{other} is a shard of another batch than {first}: its {what} differs"
            ),
            MergeError::Twice { shard, files } => {
                write!(f, "shard {shard} is given twice: {} and {}", files[0], files[1])
            }
            MergeError::Missing { shards } => write!(f, "shard {} missing", shards.join(", ")),
            MergeError::Incomplete { name, rows, owed } => write!(
                f,
                "{name} holds {rows} rows where its shard owes {owed}: it stopped early or was cut (run the shard again)"
            ),
            MergeError::Stray { name, line } => write!(
                f,
                "{name} has a row for line {line}, which is not its shard's or comes out of order"
            ),
        }
    }
}

impl std::error::Error for MergeError {}

/// Merges the outputs of every shard of one batch: the rows in file order
/// and the summaries recounted. See the [module](self) documentation.
///
/// # Errors
/// See [`MergeError`].
pub fn merge(mut shards: Vec<ShardOutput>) -> Result<Merged, MergeError> {
    let first = shards.first().ok_or(MergeError::Nothing)?;
    // The first shard's header and name: what every other must match.
    let (info, first) = (first.header.shard.clone(), first.name.clone());
    let a = &info;
    for s in &shards {
        let b = &s.header.shard;
        let what = if b.count != a.count {
            Some("shard count")
        } else if b.digest != a.digest || b.positions != a.positions {
            Some("positions file")
        } else if b.algorithms != a.algorithms {
            Some("list of algorithms")
        } else if b.depth != a.depth {
            Some("depth")
        } else {
            None
        };
        if let Some(what) = what {
            return Err(MergeError::Mismatch {
                first: first.clone(),
                other: s.name.clone(),
                what,
            });
        }
    }
    shards.sort_by_key(|s| s.header.shard.index);
    for w in shards.windows(2) {
        if w[0].header.shard.index == w[1].header.shard.index {
            return Err(MergeError::Twice {
                shard: format!("{}/{}", w[0].header.shard.index, a.count),
                files: [w[0].name.clone(), w[1].name.clone()],
            });
        }
    }
    let have: Vec<u32> = shards.iter().map(|s| s.header.shard.index).collect();
    let missing: Vec<String> = (1..=a.count)
        .filter(|k| !have.contains(k))
        .map(|k| format!("{k}/{}", a.count))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing { shards: missing });
    }
    let algos = a.algorithms.len().max(1);
    for s in &shards {
        let owed = s.header.owed() * algos;
        if s.rows.len() != owed {
            return Err(MergeError::Incomplete {
                name: s.name.clone(),
                rows: s.rows.len(),
                owed,
            });
        }
    }
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
                    line: r.line,
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

    fn shard(index: u32, count: u32, positions: usize, rows: Vec<BatchRow>) -> ShardOutput {
        let algos = ["a".to_string(), "b".to_string()];
        ShardOutput {
            name: format!("{index}.jsonl"),
            header: ShardHeader::new(index, count, "f", positions, "text", &algos, None),
            rows,
        }
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
                shard(1, 2, 2, vec![row(1, "a"), row(1, "b")]),
                shard(2, 2, 2, vec![row(4, "a"), row(4, "b")]),
            ]
        };
        let m = merge(good()).unwrap();
        assert_eq!(m.rows.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 1, 4, 4]);
        assert_eq!(m.summaries[0].wrong, Some(2));
        let mut swapped = good();
        swapped[1].rows.swap(0, 1);
        assert!(matches!(merge(swapped), Err(MergeError::Stray { line: 4, .. })));
        let mut behind = good();
        behind[1].rows = vec![row(1, "a"), row(1, "b")];
        assert!(matches!(merge(behind), Err(MergeError::Stray { line: 1, .. })));
        assert_eq!(merge(vec![]), Err(MergeError::Nothing));
    }
}
