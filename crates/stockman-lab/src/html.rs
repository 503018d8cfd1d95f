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
use stockman::stochastic::{BernoulliTree, SampleEvent, SampleOptions, SampleTrace, Sampler};
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
    /// A stochastic search's answer in words (its value is unknown to it).
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<String>,
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
    let tree = ExplicitTree::from_game(game, opts.limits.depth, MAX_NODES).ok_or_else(too_many_nodes)?;
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
            text: None,
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
    #[serde(skip_serializing_if = "Vec::is_empty")]
    windows: Vec<[Value; 2]>,
}

#[derive(Serialize)]
struct SearchOut {
    algorithm: &'static str,
    depth_first: bool,
    /// A stochastic search: its "leaves" are samples (value 0 or 1).
    stochastic: bool,
    leaves: Vec<LeafOut>,
    /// A stochastic search's rounds and tests, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<NoteOut>,
    outcome: Outcome,
    stats: Stats,
}

/// A stochastic search's round or test, as the page shows it.
#[derive(Serialize)]
struct NoteOut {
    /// Samples drawn before it.
    at: usize,
    /// One sentence.
    text: String,
    /// Words to write beside nodes (node index, text): the root moves'
    /// intervals, the node a test is at.
    labels: Vec<(usize, String)>,
}

#[derive(Serialize)]
struct CompareData<'a> {
    title: &'a str,
    inf: Value,
    /// Leaf values are whole numbers of `10^-decimals` (0: integers); the
    /// page writes them as decimals.
    decimals: u32,
    nodes: Vec<NodeOut>,
    searches: Vec<SearchOut>,
}

fn too_many_nodes() -> Error {
    Error::new(format!(
        "the tree has more than {MAX_NODES} nodes: too many to draw readably in --html \
         (trace a smaller tree, use --depth, or drop --html for the text trace)"
    ))
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
    let tree = ExplicitTree::from_game(game, opts.limits.depth, MAX_NODES).ok_or_else(too_many_nodes)?;
    let nodes = nodes(&tree);
    let searches = deterministic(&tree, &nodes, algos, opts)?;
    compare_html(title, 0, nodes, searches)
}

/// The comparison page of a tree of Bernoulli means: the stochastic
/// searches sample its leaves (a step is a sample), the deterministic ones
/// read its means as whole numbers of the fewest decimals that write them
/// (see [`BernoulliTree::in_decimals`]). Fails if the tree has more than
/// [`MAX_NODES`] nodes or a mean needs more than six decimals.
pub fn sample_compare_page(
    tree: &BernoulliTree,
    algos: &[Algorithm],
    opts: &SearchOptions,
    samplers: &[Sampler],
    sample_opts: &SampleOptions,
    title: &str,
) -> Result<String, Error> {
    if tree.len() > MAX_NODES {
        return Err(too_many_nodes());
    }
    let (values, decimals) = tree.in_decimals().ok_or_else(|| {
        Error::new(
            "a mean has more than six decimals: the page writes every mean as a whole number of millionths \
             at most (round the means)",
        )
    })?;
    let nodes = nodes(&values);
    let mut searches = Vec::new();
    for &sampler in samplers {
        let trace = sampler
            .trace(tree, sample_opts)
            .map_err(|e| Error::new(format!("{sampler}: {e}")))?;
        searches.push(stochastic(tree, &nodes, sampler, &trace));
    }
    searches.extend(deterministic(&values, &nodes, algos, opts)?);
    compare_html(title, decimals, nodes, searches)
}

fn node_index(nodes: &[NodeOut]) -> std::collections::HashMap<&[u32], usize> {
    nodes.iter().enumerate().map(|(i, n)| (n.path.as_slice(), i)).collect()
}

/// The deterministic searches' leaves, each with its windows.
fn deterministic(
    tree: &ExplicitTree,
    nodes: &[NodeOut],
    algos: &[Algorithm],
    opts: &SearchOptions,
) -> Result<Vec<SearchOut>, Error> {
    let index = node_index(nodes);
    let mut searches = Vec::new();
    for &algo in algos {
        let mut rec = stockman::WindowRecorder::default();
        let out = algo
            .with_options(opts)
            .observer(&mut rec)
            .run(tree)
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
            stochastic: false,
            leaves,
            notes: Vec::new(),
            outcome: Outcome {
                value: out.value,
                best_move: out.best_index,
                bound: out.bound.map(|(a, b)| [a, b]),
                text: None,
            },
            stats: out.stats,
        });
    }
    Ok(searches)
}

/// A stochastic search's samples as leaves of value 0 or 1, its rounds and
/// tests as notes, and its answer in words.
fn stochastic(tree: &BernoulliTree, nodes: &[NodeOut], sampler: Sampler, trace: &SampleTrace) -> SearchOut {
    let index = node_index(nodes);
    let moves: Vec<usize> = (0..tree.children(0).len()).map(|a| index[&[a as u32][..]]).collect();
    let (mut leaves, mut notes) = (Vec::new(), Vec::new());
    for e in &trace.events {
        let labels = match e {
            SampleEvent::Sample { path, one, .. } => {
                leaves.push(LeafOut {
                    node: index[path.as_slice()],
                    value: Value::from(*one),
                    windows: Vec::new(),
                });
                continue;
            }
            SampleEvent::Round { arms, .. } => arms
                .iter()
                .zip(&moves)
                .map(|(a, &m)| (m, format!("[{:.2}, {:.2}]", a.lower, a.upper)))
                .collect(),
            SampleEvent::Test { node, gamma, .. } => vec![(index[node.as_slice()], format!("test {gamma:.3}"))],
            SampleEvent::Verdict { .. } => Vec::new(),
            SampleEvent::Pass { candidates, .. } => {
                candidates.iter().map(|&a| (moves[a], "candidate".into())).collect()
            }
        };
        notes.push(NoteOut {
            at: leaves.len(),
            text: e.to_string(),
            labels,
        });
    }
    let o = &trace.outcome;
    let how = if o.confident {
        "confident"
    } else {
        "the budget stopped it"
    };
    let answer = match (o.best_index, o.verdict) {
        (Some(m), _) => format!("best move {m}"),
        (None, Some(v)) => format!("{v}"),
        (None, None) => "no verdict".to_string(),
    };
    let stats = Stats {
        leaf_evals: o.samples,
        ..Stats::default()
    };
    SearchOut {
        algorithm: sampler.name(),
        depth_first: false,
        stochastic: true,
        leaves,
        notes,
        outcome: Outcome {
            value: None,
            best_move: o.best_index,
            bound: None,
            text: Some(format!("{answer} ({how}, {} samples)", o.samples)),
        },
        stats,
    }
}

fn compare_html(title: &str, decimals: u32, nodes: Vec<NodeOut>, searches: Vec<SearchOut>) -> Result<String, Error> {
    let data = CompareData {
        title,
        inf: INF,
        decimals,
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

    /// On a tree of means the stochastic searches' steps are their samples
    /// (each at a leaf, valued 0 or 1, as many as the run draws), beside the
    /// deterministic searches reading the means in hundredths.
    #[test]
    fn the_comparison_page_of_a_tree_of_means() {
        let tree = BernoulliTree::parse("[[0.25, 0.3], [0.7, 0.85]]", Role::Max).unwrap();
        let sopts = SampleOptions::default();
        let html = sample_compare_page(
            &tree,
            &[Algorithm::AlphaBeta],
            &SearchOptions::default(),
            &[Sampler::LucbMcts, Sampler::BnsMurphy],
            &sopts,
            "means",
        )
        .unwrap();
        let start = html.find("id=\"trace-data\">").unwrap() + "id=\"trace-data\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        let v: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
        assert_eq!(v["decimals"], 2);
        let leaf_nodes: Vec<usize> = (0..7).filter(|&i| v["nodes"][i]["value"].is_i64()).collect();
        assert_eq!(leaf_nodes, [2, 3, 5, 6]);
        for (i, sampler) in [Sampler::LucbMcts, Sampler::BnsMurphy].into_iter().enumerate() {
            let s = &v["searches"][i];
            let out = sampler.run(&tree, &sopts).unwrap();
            let samples = s["leaves"].as_array().unwrap();
            assert_eq!(samples.len() as u64, out.samples);
            assert!(samples
                .iter()
                .all(|l| leaf_nodes.contains(&(l["node"].as_u64().unwrap() as usize))
                    && l["value"].as_i64().unwrap() <= 1));
            assert!(s["notes"]
                .as_array()
                .unwrap()
                .iter()
                .all(|n| n["at"].as_u64().unwrap() <= out.samples));
        }
        assert_eq!(v["searches"][2]["outcome"]["value"], 70);
        // A mean of seven decimals cannot be written in whole millionths.
        let fine = BernoulliTree::parse("[0.1234567, 0.5]", Role::Max).unwrap();
        let e = sample_compare_page(&fine, &[], &SearchOptions::default(), &[Sampler::LucbMcts], &sopts, "x");
        assert!(e.unwrap_err().to_string().contains("more than six decimals"));
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
