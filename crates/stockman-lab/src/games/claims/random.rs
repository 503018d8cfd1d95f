//! The random-tree table of Best Node Search.

use crate::games::summary::geomean;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use stockman::Stats;

/// The algorithms of the random-tree table of Best Node Search, with their
/// column titles.
const RANDOM_ALGOS: &[(&str, &str)] = &[
    ("negascout", "NegaScout"),
    ("sss", "SSS\\*"),
    ("dual", "Dual\\*"),
    ("mtdf", "MTD(f)"),
    ("mtd-bi", "MTD(bi)"),
    ("bns", "BNS"),
    ("bns-bisect", "BNS, midpoint guess"),
];

/// Depths of the random-tree table: the shallow trees are too small to
/// tell the algorithms apart.
const RANDOM_DEPTHS: std::ops::RangeInclusive<u32> = 4..=8;

/// The random-tree table of Best Node Search (a random-tree grid's rows):
/// per shape, each algorithm's leaves relative to alpha-beta's on the same
/// tree (geometric mean over depths 4-8 and seeds), and which algorithm
/// evaluates the fewest leaves and visits the fewest positions.
pub fn bns_random(records: &[crate::Record]) -> String {
    type Tree = (String, String, u32, u32, u64);
    // Ordered maps: every mean is summed in the same order on every run.
    let mut by_tree: BTreeMap<(Tree, &str), &crate::Record> = BTreeMap::new();
    let mut shapes: BTreeMap<(String, String, u32), ()> = BTreeMap::new();
    for r in records
        .iter()
        .filter(|r| r.error.is_none() && RANDOM_DEPTHS.contains(&r.depth))
    {
        by_tree.insert((r.tree_key(), r.algorithm.as_str()), r);
        shapes.insert((r.model.clone(), r.order.clone(), r.width), ());
    }
    let mut o = String::new();
    let _ = writeln!(
        o,
        "| tree | {} | fewest leaves | fewest positions |\n|---|{}---|---|",
        RANDOM_ALGOS.iter().map(|a| a.1).collect::<Vec<_>>().join(" | "),
        "---:|".repeat(RANDOM_ALGOS.len())
    );
    let (mut fewest_bns, mut shapes_seen, mut excess) = (0, 0, Vec::new());
    for (model, order, width) in shapes.keys() {
        let trees: Vec<&Tree> = by_tree
            .keys()
            .filter(|(t, a)| *a == "alphabeta" && t.0 == *model && t.1 == *order && t.2 == *width)
            .map(|(t, _)| t)
            .collect();
        let ratio = |algo: &str, f: fn(&Stats) -> u64| -> Option<f64> {
            let xs: Vec<f64> = trees
                .iter()
                .filter_map(|t| {
                    let a = by_tree.get(&((*t).clone(), algo))?;
                    let b = by_tree.get(&((*t).clone(), "alphabeta"))?;
                    (f(&b.stats) > 0 && f(&a.stats) > 0).then(|| f(&a.stats) as f64 / f(&b.stats) as f64)
                })
                .collect();
            geomean(&xs)
        };
        let leaves: Vec<Option<f64>> = RANDOM_ALGOS.iter().map(|a| ratio(a.0, |s| s.leaf_evals)).collect();
        let nodes: Vec<Option<f64>> = RANDOM_ALGOS.iter().map(|a| ratio(a.0, |s| s.nodes)).collect();
        let best = |xs: &[Option<f64>]| -> Option<usize> {
            (0..xs.len())
                .filter(|&i| xs[i].is_some())
                .min_by(|&i, &j| xs[i].unwrap().total_cmp(&xs[j].unwrap()))
        };
        let (bl, bn) = (best(&leaves), best(&nodes));
        let cells: Vec<String> = leaves
            .iter()
            .enumerate()
            .map(|(i, x)| match x {
                Some(x) if Some(i) == bl => format!("**{x:.2}**"),
                Some(x) => format!("{x:.2}"),
                None => "-".to_string(),
            })
            .collect();
        let name = |b: Option<usize>| b.map_or("-".to_string(), |i| RANDOM_ALGOS[i].1.to_string());
        let order_text = if order == "random" { "random order" } else { "ordered" };
        shapes_seen += 1;
        if bl.is_some_and(|i| RANDOM_ALGOS[i].0.starts_with("bns")) {
            fewest_bns += 1;
        }
        // BNS (Rutko's guess) against the best of SSS*, Dual* and MTD(f) on
        // iid trees of width 4 and 8, the model of most random-tree studies.
        if model == "iid" && *width >= 4 {
            let at = |name: &str| RANDOM_ALGOS.iter().position(|a| a.0 == name).and_then(|i| leaves[i]);
            let others = ["sss", "dual", "mtdf"]
                .iter()
                .filter_map(|a| at(a))
                .fold(f64::INFINITY, f64::min);
            if let Some(b) = at("bns") {
                excess.push((format!("{order_text}, w{width}"), b / others - 1.0));
            }
        }
        let _ = writeln!(
            o,
            "| {model}, {order_text}, w{width} | {} | {} | {} |",
            cells.join(" | "),
            name(bl),
            name(bn)
        );
    }
    let _ = writeln!(
        o,
        "\nBest Node Search (Rutko's guess or the midpoint) evaluates the fewest leaves on {fewest_bns} of \
         {shapes_seen} shapes: **{}** (rule: the fewest leaves on every shape).",
        if fewest_bns == shapes_seen {
            "reproduced"
        } else {
            "not reproduced"
        }
    );
    if !excess.is_empty() {
        let _ = writeln!(
            o,
            "On iid trees of width 4 and 8, BNS with Rutko's guess evaluates more leaves than the best of \
             SSS\\*, Dual\\* and MTD(f) by: {}.",
            excess
                .iter()
                .map(|(shape, x)| format!("{:.0}% ({shape})", 100.0 * x))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    o
}
