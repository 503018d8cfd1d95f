//! One result row per algorithm, as text or JSON.

use serde::Serialize;
use stockman::run::Solution;
use stockman::{Limit, SettingNames, Stats, Value};

/// What `solve` reports for one algorithm (the JSON contract).
#[derive(Serialize, Debug, Clone)]
pub struct Row {
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
    /// into JSON.
    pub fn from_solution<M>(s: Solution<M>, best: &dyn Fn(&M, usize) -> serde_json::Value) -> Row {
        let best_move = s.best_move.as_ref().zip(s.best_index).map(|(m, i)| best(m, i));
        Row {
            algorithm: s.label(),
            value: s.value,
            best_move,
            bound: s.bound.map(|(a, b)| [a, b]),
            proven_bounds: s.proven.map(|(a, b)| [a, b]),
            stats: s.stats,
            depth_completed: s.depth_completed,
            stopped_by: s.stopped_by.map(|l| Flags.limit(&l)),
            leaves: s.leaves,
            error: s.error.map(|e| e.describe(&Flags)),
        }
    }
}

/// The command line's names for the settings behind a search's limits:
/// its messages name the flag a user typed (`--max-nodes 5`), where the
/// library's name the limit itself.
pub struct Flags;

impl stockman::SettingNames for Flags {
    fn limit(&self, limit: &Limit) -> String {
        match limit {
            Limit::Nodes(n) => format!("--max-nodes {n}"),
            Limit::Time(t) => format!("--time-limit {:.3}s", t.as_secs_f64()),
            Limit::Stop => "a stop request".to_string(),
        }
    }
    fn max_open(&self) -> String {
        "--max-open".to_string()
    }
}

/// A move's text (chess: `e2e4`) without JSON's quotes.
pub fn move_text(m: &serde_json::Value) -> String {
    match m {
        serde_json::Value::String(t) => t.clone(),
        m => m.to_string(),
    }
}

/// The rows as an aligned table.
pub fn table(rows: &[Row]) -> String {
    let header = [
        "algorithm",
        "value",
        "best",
        "leaves",
        "expanded",
        "nodes",
        "max open",
        "passes",
        "tt probes",
        "tt hits",
        "time",
    ];
    let mut cells: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for r in rows {
        let s = &r.stats;
        let value = match (r.value, r.bound, r.proven_bounds) {
            (Some(v), _, _) => v.to_string(),
            (None, Some([a, b]), _) => format!("[{a},{b})"),
            (None, None, Some([a, b])) => {
                format!("[{},{}]", stockman::value::fmt_value(a), stockman::value::fmt_value(b))
            }
            _ => "-".into(),
        };
        let best = r.best_move.as_ref().map_or("-".to_string(), move_text);
        cells.push(vec![
            r.algorithm.clone(),
            value,
            best,
            s.leaf_evals.to_string(),
            s.nodes_expanded.to_string(),
            s.nodes.to_string(),
            s.max_open.to_string(),
            s.passes.to_string(),
            s.tt_probes.to_string(),
            s.tt_hits.to_string(),
            fmt_time(s.time_us),
        ]);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| cells.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for (i, row) in cells.iter().enumerate() {
        let line: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, x)| {
                if c == 0 {
                    format!("{x:<w$}", w = widths[c])
                } else {
                    format!("{x:>w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
        if i == 0 {
            out.push_str(&widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("  "));
            out.push('\n');
        }
    }
    // Errors go to standard error (`exit_code`), once.
    for r in rows {
        if let Some(l) = &r.leaves {
            let paths: Vec<String> = l.iter().map(|p| stockman::dewey(p)).collect();
            out.push_str(&format!("{} leaves: {}\n", r.algorithm, paths.join(" ")));
        }
    }
    out
}

pub fn fmt_time(us: u64) -> String {
    if us < 10_000 {
        format!("{us} us")
    } else if us < 10_000_000 {
        format!("{:.1} ms", us as f64 / 1e3)
    } else {
        format!("{:.2} s", us as f64 / 1e6)
    }
}
