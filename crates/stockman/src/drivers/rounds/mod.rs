//! SSS\* and Dual\* in rounds: the engine of parallel SSS\*
//! ([`parallel_sss`](super::parallel_sss), on threads) and of its
//! simulation on `P` virtual processors ([`crate::simulate`]), with the
//! report, options and errors they share.
//!
//! In a round, up to `P` states are taken off the head of OPEN and the
//! Gamma operator is applied to all of them ([`sss`] says which may run out
//! of turn and why the value stays exact). The same inputs give the same
//! rounds on every machine.

#[cfg(test)]
pub(crate) mod reference;
pub mod sss;

use crate::value::Value;
use serde::Serialize;

/// What one simulated run measured.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SimReport {
    /// Virtual processors.
    pub processors: usize,
    /// The root's minimax value.
    pub value: Value,
    /// Synchronous rounds until the answer: the simulated time.
    pub rounds: u64,
    /// Units of work done by all processors together (Gamma steps, or nodes visited).
    pub work: u64,
    /// Leaves evaluated by all processors together.
    pub leaf_evals: u64,
    /// Processor-rounds in which a processor had nothing it could do.
    pub idle: u64,
    /// Processor-rounds spent waiting for a remote access
    /// ([`SimOptions::table_latency`]; 0 without one).
    pub stalled: u64,
    /// The most states on OPEN at once (SSS\*; 0 for the depth-first searches).
    pub max_open: u64,
}

impl SimReport {
    /// Rounds at one processor over rounds here.
    pub fn speedup_over(&self, one: &SimReport) -> f64 {
        one.rounds as f64 / self.rounds.max(1) as f64
    }

    /// Work here over work at one processor (1.0: no search overhead).
    pub fn overhead_over(&self, one: &SimReport) -> f64 {
        self.work as f64 / one.work.max(1) as f64
    }
}

/// Options of a simulated run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimOptions {
    /// Virtual processors (1 to [`MAX_PROCESSORS`]).
    pub processors: usize,
    /// Plies to the horizon (`None`: the end of the game).
    pub depth: Option<u32>,
    /// Stop with [`SimError::WorkLimit`] after this much work.
    pub max_work: u64,
    /// Record the paths of the evaluated leaves, in order ([`sss`]).
    pub record_leaves: bool,
    /// Try the table's best move first ([`abdada`](crate::simulate::abdada); as
    /// [`Enhancements::table_move_first`](crate::Enhancements::table_move_first)).
    pub table_move_first: bool,
    /// Rounds a processor waits for a remote access, as on a cluster whose
    /// memory is spread over the machines. Under
    /// [`abdada`](crate::simulate::abdada) the table is partitioned (the
    /// entry of key `k` lives on processor `k mod P`) and a visit whose
    /// entry lives on another processor waits this long before it runs; in
    /// parallel SSS\* ([`sss`]) OPEN lives on processor 0, and a round in
    /// which another processor took a state lasts this much longer. 0 (the
    /// default): shared memory, every access at once. One processor never
    /// waits.
    pub table_latency: u64,
    /// Iterative deepening ([`abdada`](crate::simulate::abdada) only): passes
    /// to depth 1, 2, ..., [`depth`](Self::depth) through the one table,
    /// MTD(f) starting each from the previous depth's value, as
    /// [`Search::deepen`](crate::Search::deepen) does.
    pub iterative: bool,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            processors: 1,
            depth: None,
            max_work: 100_000_000,
            record_leaves: false,
            table_move_first: false,
            table_latency: 0,
            iterative: false,
        }
    }
}

/// The most virtual processors a simulation takes.
pub const MAX_PROCESSORS: usize = 4096;

/// Why a simulation gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    /// A processor count of 0 or over [`MAX_PROCESSORS`].
    Processors(usize),
    /// The work limit was reached.
    WorkLimit(u64),
    /// The game broke its contract (the reason says how).
    BadGame(String),
    /// Options that do not go together (the reason says which).
    Options(String),
    /// The tree is beyond what the simulation can represent (the reason
    /// says why: more states at once than SSS\*'s labels can order).
    Unsupported(String),
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Processors(p) => write!(f, "{p} processors: give 1 to {MAX_PROCESSORS}"),
            SimError::WorkLimit(n) => write!(f, "the simulation stopped after {n} units of work (its limit)"),
            SimError::BadGame(reason) | SimError::Options(reason) | SimError::Unsupported(reason) => {
                f.write_str(reason)
            }
        }
    }
}

impl std::error::Error for SimError {}

impl SimOptions {
    pub(crate) fn check(&self) -> Result<(), SimError> {
        if !(1..=MAX_PROCESSORS).contains(&self.processors) {
            return Err(SimError::Processors(self.processors));
        }
        if self.iterative && self.depth.is_none() {
            return Err(SimError::Options(
                "iterative deepening needs a depth to deepen to".into(),
            ));
        }
        Ok(())
    }
}
