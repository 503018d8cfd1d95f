//! One result row per algorithm, as text or JSON.

use stockman::Limit;

/// What `solve` reports for one algorithm (the JSON contract): the run
/// layer's row, which Python's dicts are made from too.
pub use stockman::run::Row;

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
