//! One result row per algorithm, as text or JSON.

use serde::Serialize;
use stockman::{Outcome, SearchError, Stats, Value};

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
    pub fn new<M>(
        algorithm: &str,
        result: Result<Outcome<M>, SearchError>,
        best: impl Fn(&Outcome<M>) -> Option<serde_json::Value>,
        leaves: Option<Vec<Vec<u32>>>,
    ) -> Row {
        match result {
            Ok(out) => Row {
                algorithm: algorithm.to_string(),
                value: out.value,
                best_move: best(&out),
                bound: out.bound.map(|(a, b)| [a, b]),
                stats: out.stats,
                depth_completed: out.depth_completed,
                stopped_by: out.stopped_by.map(|l| l.to_string()),
                leaves,
                error: None,
            },
            Err(e) => Row {
                algorithm: algorithm.to_string(),
                value: None,
                best_move: None,
                bound: None,
                stats: e.stats().copied().unwrap_or_default(),
                depth_completed: None,
                stopped_by: None,
                leaves: None,
                error: Some(e.to_string()),
            },
        }
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
        let value = match (r.value, r.bound) {
            (Some(v), _) => v.to_string(),
            (None, Some([a, b])) => format!("[{a},{b})"),
            _ => "-".into(),
        };
        // A move's text (chess: `e2e4`) without JSON's quotes.
        let best = match &r.best_move {
            None => "-".to_string(),
            Some(serde_json::Value::String(t)) => t.clone(),
            Some(m) => m.to_string(),
        };
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
    for r in rows {
        if let Some(e) = &r.error {
            out.push_str(&format!("{}: {e}\n", r.algorithm));
        }
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
