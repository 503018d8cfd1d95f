//! A self-contained HTML page that replays one traced search step by step.
//!
//! The page has no external resource: its CSS and JavaScript are inline and
//! the trace is embedded as JSON. It draws the tree as SVG and, for SSS\* and
//! Dual\*, marks every node by its state (unvisited, LIVE, SOLVED, expanded,
//! done, purged, on the current solution tree) with its `h`, lists OPEN
//! beside it and explains each step's Gamma case in one sentence. For the
//! other searches (MT drivers, BNS, the depth-first ones) each leaf
//! evaluation and each pass is a step: the passes are listed with their
//! window, result and bounds, and the leaves evaluated so far are colored.
//!
//! The URL fragment `#step=N` or `#step=end` opens a step; `#selftest`
//! clicks through every step with the controls and writes `PASS` or `FAIL`
//! and the reasons into the element with id `selftest` (for headless tests).

use crate::Error;
use serde::Serialize;
use stockman::{Algorithm, Event, ExplicitTree, Game, Gamma, Role, SearchOptions, Stats, Tracer, Value, INF};

/// The largest tree the page draws: beyond it the picture is unreadable.
pub const MAX_NODES: usize = 500;

const TEMPLATE: &str = include_str!("viewer.html");

#[derive(Serialize)]
struct NodeOut {
    path: Vec<u32>,
    parent: i64,
    max: bool,
    value: Option<Value>,
}

#[derive(Serialize)]
struct Outcome {
    value: Option<Value>,
    best_move: Option<usize>,
    bound: Option<[Value; 2]>,
}

#[derive(Serialize)]
struct Explain {
    case: String,
    number: u8,
    text: &'static str,
}

#[derive(Serialize)]
struct Data<'a> {
    title: &'a str,
    algorithm: &'static str,
    dual: bool,
    steps: bool,
    inf: Value,
    nodes: Vec<NodeOut>,
    events: &'a [Event],
    explain: Vec<Explain>,
    outcome: Outcome,
    stats: Stats,
}

/// Whether the algorithm is one of the Dual\* family (lower bounds first).
fn is_dual(algo: Algorithm) -> bool {
    algo.capabilities().dual
}

/// The tree in pre-order: each node's path, parent (index, -1 for the root),
/// role and leaf value.
fn nodes(tree: &ExplicitTree) -> Vec<NodeOut> {
    let mut out = Vec::with_capacity(tree.len());
    // (node id, parent's index in `out`, path)
    let mut stack: Vec<(u32, i64, Vec<u32>)> = vec![(0, -1, Vec::new())];
    while let Some((id, parent, path)) = stack.pop() {
        let me = out.len() as i64;
        let kids = tree.children(id);
        for (i, &c) in kids.iter().enumerate().rev() {
            let mut p = path.clone();
            p.push(i as u32);
            stack.push((c, me, p));
        }
        out.push(NodeOut {
            path,
            parent,
            max: tree.role(&id) == Role::Max,
            value: kids.is_empty().then(|| tree.leaf_value(id)),
        });
    }
    out
}

/// Escapes text for HTML element content and attribute values.
fn escape_html(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            _ => o.push(c),
        }
    }
    o
}

/// JSON that is safe inside a `<script>` element: no `<`, `>`, `&` or line
/// separators appear literally (they only occur inside JSON strings, where
/// the `\u` escapes mean the same).
fn script_safe_json(json: &str) -> String {
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// Traces `algo` on the first plies of `game` (all of them, or `opts.depth`)
/// and renders the page. Fails if that tree has more than [`MAX_NODES`]
/// nodes or the search stops at a limit.
pub fn page<G: Game>(game: &G, algo: Algorithm, opts: &SearchOptions, title: &str) -> Result<String, Error> {
    let tree = ExplicitTree::from_game(game, opts.limits.depth, MAX_NODES).ok_or_else(|| {
        Error::new(format!(
            "the tree has more than {MAX_NODES} nodes: too many to draw readably in --html \
             (trace a smaller tree, use --depth, or drop --html for the text trace)"
        ))
    })?;
    let mut tracer = Tracer::default();
    let out = algo
        .with_options(opts)
        .observer(&mut tracer)
        .run(&tree)
        .map_err(|e| Error::new(format!("{algo}: {e}")))?;
    let dual = is_dual(algo);
    let cases = [
        Gamma::Evaluate,
        Gamma::ExpandFirst,
        Gamma::ExpandAll,
        Gamma::SolveParentPurge,
        Gamma::SolveParent,
        Gamma::NextSibling,
        Gamma::Finish,
    ];
    let explain = cases
        .iter()
        .map(|&g| Explain {
            case: match serde_json::to_value(g) {
                Ok(serde_json::Value::String(s)) => s,
                _ => String::new(),
            },
            number: g.number(),
            text: g.explain(dual),
        })
        .collect();
    let data = Data {
        title,
        algorithm: algo.name(),
        dual,
        steps: tracer.events.iter().any(|e| matches!(e, Event::Step(_))),
        inf: INF,
        nodes: nodes(&tree),
        events: &tracer.events,
        explain,
        outcome: Outcome {
            value: out.value,
            best_move: out.best_index,
            bound: out.bound.map(|(a, b)| [a, b]),
        },
        stats: out.stats,
    };
    let json = serde_json::to_string(&data).map_err(|e| Error::new(format!("trace to JSON: {e}")))?;
    Ok(TEMPLATE
        .replace("{{TITLE}}", &escape_html(title))
        .replace("{{DATA}}", &script_safe_json(&json)))
}

const COMPARE_TEMPLATE: &str = include_str!("compare.html");

#[derive(Serialize)]
struct LeafOut {
    node: usize,
    value: Value,
    /// The windows from the root down to the leaf (depth-first searches).
    windows: Vec<[Value; 2]>,
}

#[derive(Serialize)]
struct SearchOut {
    algorithm: &'static str,
    depth_first: bool,
    leaves: Vec<LeafOut>,
    outcome: Outcome,
    stats: Stats,
}

#[derive(Serialize)]
struct CompareData<'a> {
    title: &'a str,
    inf: Value,
    nodes: Vec<NodeOut>,
    searches: Vec<SearchOut>,
}

/// A page that replays several searches of one tree side by side, one leaf
/// evaluation per step, each leaf marked by the searches that evaluated it,
/// and the alpha-beta window of every node on the depth-first searches'
/// current paths. Fails like [`page`].
pub fn compare_page<G: Game>(
    game: &G,
    algos: &[Algorithm],
    opts: &SearchOptions,
    title: &str,
) -> Result<String, Error> {
    let tree = ExplicitTree::from_game(game, opts.limits.depth, MAX_NODES).ok_or_else(|| {
        Error::new(format!(
            "the tree has more than {MAX_NODES} nodes: too many to draw readably in --html \
             (trace a smaller tree, use --depth, or drop --html for the text trace)"
        ))
    })?;
    let nodes = nodes(&tree);
    let index: std::collections::HashMap<&[u32], usize> =
        nodes.iter().enumerate().map(|(i, n)| (n.path.as_slice(), i)).collect();
    let mut searches = Vec::new();
    for &algo in algos {
        let mut rec = stockman::WindowRecorder::default();
        let out = algo
            .with_options(opts)
            .observer(&mut rec)
            .run(&tree)
            .map_err(|e| Error::new(format!("{algo}: {e}")))?;
        let leaves = rec
            .leaves
            .iter()
            .map(|l| LeafOut {
                node: index[l.path.as_slice()],
                value: l.value,
                windows: l.windows.iter().map(|&(a, b)| [a, b]).collect(),
            })
            .collect();
        searches.push(SearchOut {
            algorithm: algo.name(),
            depth_first: !algo.is_best_first(),
            leaves,
            outcome: Outcome {
                value: out.value,
                best_move: out.best_index,
                bound: out.bound.map(|(a, b)| [a, b]),
            },
            stats: out.stats,
        });
    }
    let data = CompareData {
        title,
        inf: INF,
        nodes,
        searches,
    };
    let json = serde_json::to_string(&data).map_err(|e| Error::new(format!("trace to JSON: {e}")))?;
    Ok(COMPARE_TEMPLATE
        .replace("{{TITLE}}", &escape_html(title))
        .replace("{{DATA}}", &script_safe_json(&json)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use stockman::RandomSpec;

    #[test]
    fn page_embeds_the_trace_and_nothing_external() {
        let t = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
        let html = page(&t, Algorithm::Sss, &SearchOptions::default(), "a <b> & c").unwrap();
        assert!(html.starts_with("<!doctype html>"));
        assert!(html.contains("a &lt;b&gt; &amp; c"));
        assert!(!html.contains("a <b> & c"));
        assert!(html.contains("\"algorithm\":\"sss\""));
        assert!(html.contains("id=\"result\""));
        for external in ["src=\"http", "href=\"http", "<link", "@import", "src=\"//"] {
            assert!(!html.contains(external), "{external}");
        }
        assert!(!html.contains("{{DATA}}") && !html.contains("{{TITLE}}"));
        // The embedded JSON parses back.
        let start = html.find("id=\"trace-data\">").unwrap() + "id=\"trace-data\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        let v: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
        assert_eq!(v["outcome"]["value"], 3);
        assert_eq!(v["nodes"].as_array().unwrap().len(), 13);
        assert_eq!(v["nodes"][1]["path"], serde_json::json!([0]));
        assert_eq!(v["nodes"][2]["path"], serde_json::json!([0, 0]));
        assert_eq!(v["nodes"][2]["value"], 3);
        assert_eq!(v["steps"], true);
    }

    #[test]
    fn large_trees_are_refused() {
        let big = stockman::RandomTree::new(RandomSpec::new(3, 6, 1)); // 1093 nodes
        let e = page(&big, Algorithm::Sss, &SearchOptions::default(), "big").unwrap_err();
        assert!(e.to_string().contains("more than 500 nodes"), "{e}");
        let ok = stockman::RandomTree::new(RandomSpec::new(3, 5, 1)); // 364 nodes
        assert!(page(&ok, Algorithm::MtSss, &SearchOptions::default(), "ok").is_ok());
    }

    #[test]
    fn the_comparison_page_holds_every_search() {
        let t = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
        let algos = [Algorithm::AlphaBeta, Algorithm::Sss];
        let html = compare_page(&t, &algos, &SearchOptions::default(), "cmp").unwrap();
        assert!(html.contains("id=\"result\"") && !html.contains("{{DATA}}"));
        let start = html.find("id=\"trace-data\">").unwrap() + "id=\"trace-data\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        let v: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
        assert_eq!(v["searches"][0]["algorithm"], "alphabeta");
        assert_eq!(v["searches"][0]["leaves"].as_array().unwrap().len(), 7);
        assert_eq!(v["searches"][0]["leaves"][0]["windows"].as_array().unwrap().len(), 3);
        assert_eq!(v["searches"][1]["depth_first"], false);
        // SSS*'s leaves, in its order: 3, 2, 14, 5, 2, 12, 8.
        let vals: Vec<i64> = v["searches"][1]["leaves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["value"].as_i64().unwrap())
            .collect();
        assert_eq!(vals, [3, 2, 14, 5, 2, 12, 8]);
    }

    #[test]
    fn escaping() {
        assert_eq!(
            script_safe_json(r#"{"a":"</script>&"}"#),
            r#"{"a":"\u003c/script\u003e\u0026"}"#
        );
        assert_eq!(escape_html("\"'"), "&quot;&#39;");
    }
}
