//! The library's layers, held: every `crate::` path in `src/` (its `use`
//! lines and the paths written out in code) is an arrow from one module to
//! another, and no arrow may point up the layers of CONTRIBUTING.md or
//! close a cycle. Tests (`mod tests`, `tests.rs`) may use anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom first: a module may use its own layer and those
/// below. CONTRIBUTING.md's "Layers" section says the same in words.
const LAYERS: [(&str, &[&str]); 8] = [
    ("foundations", &["value", "stats", "key_map", "pool", "crew"]),
    ("the game abstraction", &["game"]),
    (
        "shared services",
        &[
            "table",
            "shared_table",
            "observe",
            "clock",
            "options",
            "search",
            "ordering",
        ],
    ),
    ("trees and games", &["trees", "games"]),
    ("algorithms", &["algorithms", "stochastic"]),
    ("drivers", &["drivers"]),
    ("tools", &["engine", "minimal", "simulate"]),
    ("the run layer", &["run"]),
];

fn layer_of(top: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, mods)| mods.contains(&top))
}

/// Every module of `src/` by its path (`games::othello::board`), with the
/// file that holds it.
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            if parts == ["lib"] || parts.iter().any(|p| p == "tests") {
                continue;
            }
            out.insert(parts.join("::"), path);
        }
    }
    out
}

/// The text of a module's file without comments, string literals and its
/// test module: what the compiler reads as paths.
fn code_of(text: &str) -> String {
    let mut text = text.to_string();
    while let Some(i) = text.find("#[cfg(test)]\nmod ") {
        let rest = &text[i..];
        let end = match (rest.find('{'), rest.find(';')) {
            (Some(b), Some(semi)) if semi < b => i + semi + 1,
            (Some(b), _) => i + b + matching_brace(&rest[b..]) + 1,
            _ => text.len(),
        };
        text.replace_range(i..end, "");
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
                out.push_str("\"\"");
            }
            _ => out.push(c),
        }
    }
    out
}

/// The longest known module that `path` (`games::othello::Othello`) names.
fn resolve(path: &[&str], mods: &BTreeMap<String, PathBuf>) -> Option<String> {
    (1..=path.len())
        .rev()
        .map(|k| path[..k].join("::"))
        .find(|m| mods.contains_key(m))
}

/// The paths a piece of code names after `crate::` and `super::`, with
/// braces expanded (`crate::a::{b, c::d}` gives `a::b` and `a::c::d`).
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(i) = code[from..].find(prefix) {
        let start = from + i;
        from = start + prefix.len();
        if start > 0
            && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_' || bytes[start - 1] == b':')
        {
            continue;
        }
        let rest = &code[from..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let head: Vec<String> = rest[..end]
            .trim_end_matches(':')
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        if rest[end..].starts_with('{') {
            let close = matching_brace(&rest[end..]);
            for item in split_top(&rest[end + 1..end + close]) {
                let item = item.split(" as ").next().unwrap().trim();
                let mut p = head.clone();
                p.extend(
                    item.split("::")
                        .filter(|s| !s.is_empty() && *s != "self")
                        .map(str::to_string),
                );
                out.push(p);
            }
        } else {
            out.push(head);
        }
    }
    out
}

fn matching_brace(s: &str) -> usize {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    s.len()
}

fn split_top(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0);
    for c in s.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur);
    // `a::{b, c}` inside braces: expand one level more.
    out.into_iter()
        .flat_map(|item| {
            let item = item.trim().to_string();
            match item.find('{') {
                Some(i) => {
                    let head = item[..i].to_string();
                    let inner = &item[i + 1..item.len() - 1];
                    split_top(inner)
                        .into_iter()
                        .map(|x| format!("{head}{}", x.trim()))
                        .collect()
                }
                None => vec![item],
            }
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// Every arrow `from -> to` between the modules of `src/`, arrows from a
/// module to its own ancestors left out (a parent module and its children
/// are one unit: the parent re-exports them).
fn arrows(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules(src);
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, file) in &mods {
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        let mut named: Vec<Vec<String>> = paths_after(&code, "crate::");
        // `super::` is the module's parent, `super::super::` the parent's
        // parent. (Inline modules other than tests are read as their file:
        // none holds a path that its file does not.)
        let own: Vec<&str> = m.split("::").collect();
        for p in paths_after(&code, "super::") {
            let ups = 1 + p.iter().take_while(|s| *s == "super").count();
            let mut full: Vec<String> = own[..own.len().saturating_sub(ups)]
                .iter()
                .map(|s| s.to_string())
                .collect();
            full.extend(p.into_iter().skip(ups - 1));
            named.push(full);
        }
        for p in named {
            let p: Vec<&str> = p.iter().map(String::as_str).collect();
            let Some(to) = resolve(&p, &mods) else { continue };
            if &to == m || m.starts_with(&format!("{to}::")) {
                continue;
            }
            out.entry(m.clone()).or_default().insert(to);
        }
    }
    out
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The arrows of `graph` that point up the layers.
fn upward(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let layer = |m: &str| {
        let top = m.split("::").next().unwrap();
        layer_of(top).unwrap_or_else(|| panic!("module `{top}` is in no layer: add it to LAYERS and CONTRIBUTING.md"))
    };
    let mut wrong = Vec::new();
    for (from, tos) in graph {
        for to in tos {
            let (lf, lt) = (layer(from), layer(to));
            if lt > lf {
                wrong.push(format!("{from} ({}) uses {to} ({})", LAYERS[lf].0, LAYERS[lt].0));
            }
        }
    }
    wrong
}

/// The cycles of `graph`: its strongly connected components of two or
/// more modules (Tarjan's algorithm).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        found: Vec<String>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on.insert(v);
        let graph = s.graph;
        for w in graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            let seen = s.index.get(w).copied();
            let reach = match seen {
                None => {
                    visit(s, w);
                    s.low[w]
                }
                Some(iw) if s.on.contains(w) => iw,
                Some(_) => continue,
            };
            let lv = s.low.get_mut(v).unwrap();
            *lv = (*lv).min(reach);
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(w);
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.found.push(comp.join(" <-> "));
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

#[test]
fn no_module_uses_a_layer_above_its_own() {
    let wrong = upward(&arrows(&src()));
    assert!(
        wrong.is_empty(),
        "arrows up the layers (CONTRIBUTING.md, \"Layers\"):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_import_cycles() {
    let found = cycles(&arrows(&src()));
    assert!(found.is_empty(), "modules that use each other:\n{}", found.join("\n"));
}

#[test]
fn the_checks_find_an_upward_arrow_and_a_cycle() {
    // A small source tree of our own: the game uses an algorithm (up the
    // layers), and the table and the search use each other (a cycle).
    let dir = std::env::temp_dir().join(format!("stockman-layers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("algorithms")).unwrap();
    let files = [
        ("lib.rs", "pub mod game;"),
        (
            "game.rs",
            "use crate::algorithms::alphabeta::search;\n// crate::run::X is a comment\n",
        ),
        ("table.rs", "use crate::search::{Budget, Outcome};"),
        ("search.rs", "pub fn f() { crate::table::g() }"),
        (
            "value.rs",
            "#[cfg(test)]\nmod tests {\n    use crate::run::Runner;\n}\n",
        ),
        ("algorithms/mod.rs", "pub mod alphabeta;"),
        (
            "algorithms/alphabeta.rs",
            "use super::super::value::Value;\nuse super::Thing;",
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let graph = arrows(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        upward(&graph),
        ["game (the game abstraction) uses algorithms::alphabeta (algorithms)"]
    );
    assert_eq!(cycles(&graph), ["search <-> table"]);
    // `super::super::` climbs two levels; `super::` to a parent is no
    // arrow (a parent and its children are one unit); tests are skipped.
    assert_eq!(graph["algorithms::alphabeta"], BTreeSet::from(["value".to_string()]));
    assert!(!graph.contains_key("value"));
}

#[test]
fn the_arrow_reader_sees_what_it_must() {
    // The reader itself: braces, renames, `super::` and comments.
    let code = code_of("use crate::a::{b, c::{d, e as f}};\n// crate::x::y\nlet s = \"crate::z\";\nsuper::w();");
    let paths = paths_after(&code, "crate::");
    assert_eq!(paths, [vec!["a", "b"], vec!["a", "c", "d"], vec!["a", "c", "e"]]);
    assert_eq!(paths_after(&code, "super::"), [vec!["w"]]);
    // And the real tree: the algorithms use the search's services, the
    // run layer's games module uses the games, the drivers the algorithms.
    let graph = arrows(&src());
    assert!(graph["algorithms::alphabeta"].contains("search"));
    assert!(graph["run::games"].contains("games"));
    assert!(graph["drivers::iterative"].contains("algorithms"));
}
