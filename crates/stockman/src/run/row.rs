//! The row a front end reports for one algorithm's answer.

use super::Solution;
use crate::search::SettingNames;
use crate::stats::Stats;
use crate::value::Value;
use serde::Serialize;

/// One algorithm's answer as the front ends report it: a row of `stockman
/// solve --format json` (the JSON contract of the command line) and the
/// dict Python's `solve` returns are both this row, serialized.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Row {
    /// The algorithm's name (`mtdf`; deepened: `mtdf+id`).
    pub algorithm: String,
    /// The minimax value; null for BNS and for a search that stopped.
    pub value: Option<Value>,
    /// 0-based index of the root's child for trees, a column 1-7 for Connect Four, a cell 1-9 for tic-tac-toe.
    pub best_move: Option<serde_json::Value>,
    /// BNS: [alpha, beta] with alpha <= value < beta.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<[Value; 2]>,
    /// A search stopped by a limit: [lower, upper] with lower <= value <= upper,
    /// what its passes had proved (the MT drivers and BNS); `best_move` is then
    /// a move proven to reach the bound on the root mover's side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proven_bounds: Option<[Value; 2]>,
    /// What the search measured.
    pub stats: Stats,
    /// Iterative deepening: the deepest completed iteration, whose value and move these are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth_completed: Option<u32>,
    /// Iterative deepening: the limit that stopped the next iteration, as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<String>,
    /// The evaluated leaves in evaluation order (with --leaves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaves: Option<Vec<Vec<u32>>>,
    /// Why the search stopped without an answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Row {
    /// The row of one solution; `best` turns its best move (and index)
    /// into JSON, and `names` names the settings behind a limit as the
    /// front end's user typed them ([`SettingNames`]).
    pub fn from_solution<M>(
        s: Solution<M>,
        best: &dyn Fn(&M, usize) -> serde_json::Value,
        names: &dyn SettingNames,
    ) -> Row {
        let best_move = s.best_move.as_ref().zip(s.best_index).map(|(m, i)| best(m, i));
        Row {
            algorithm: s.label(),
            value: s.value,
            best_move,
            bound: s.bound.map(|(a, b)| [a, b]),
            proven_bounds: s.proven.map(|(a, b)| [a, b]),
            stats: s.stats,
            depth_completed: s.depth_completed,
            stopped_by: s.stopped_by.map(|l| names.limit(&l)),
            leaves: s.leaves,
            error: s.error.map(|e| e.describe(names)),
        }
    }
}
