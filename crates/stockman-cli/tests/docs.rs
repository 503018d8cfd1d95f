//! The documentation's own checks: the README's shape, every relative link
//! (and its `#anchor`) of the README, CONTRIBUTING.md and `docs/` resolves,
//! every fenced block says its language (an unmarked one would be compiled
//! as Rust by the guide's doc-tests), and the command-line page names every
//! subcommand and flag the binary has. The guide's Rust examples run as
//! doc-tests of the `stockman` crate (`stockman::guide`).

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The Markdown files the checks cover: README.md, CONTRIBUTING.md and
/// every `.md` under `docs/`.
fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let root = root();
    let mut files = vec![root.join("README.md"), root.join("CONTRIBUTING.md")];
    walk(&root.join("docs"), &mut files);
    files.sort();
    files
}

/// The lines of `text` outside fenced code blocks, with their 1-based numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut inside = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
            continue;
        }
        if !inside {
            out.push((i + 1, line));
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces
/// to hyphens; a repeated heading gets `-1`, `-2`, ...
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let heading = heading.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let slug: String = heading
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.insert(if *n == 0 { slug.clone() } else { format!("{slug}-{n}") });
        *n += 1;
    }
    out
}

/// Every link target `](target)` on a prose line, with its line number.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (number, line) in prose_lines(text) {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            out.push((number, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let files = markdown_files();
    assert!(files.len() >= 15, "found only {} Markdown files", files.len());
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        for (line, target) in links(&text) {
            if target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let resolved = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            let name = file.strip_prefix(root()).unwrap().display();
            if !resolved.exists() {
                broken.push(format!("{name}:{line}: `{target}`: no such file"));
                continue;
            }
            if let Some(anchor) = anchor {
                if resolved.extension().is_some_and(|e| e == "md") {
                    let known = anchors(&fs::read_to_string(&resolved).unwrap());
                    if !known.contains(anchor) {
                        broken.push(format!("{name}:{line}: `{target}`: no heading with anchor `#{anchor}`"));
                    }
                }
            }
        }
    }
    assert!(
        checked >= 100,
        "only {checked} relative links found: is the scan broken?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_fenced_block_names_its_language() {
    let mut unmarked = Vec::new();
    for file in markdown_files() {
        let text = fs::read_to_string(&file).unwrap();
        let mut inside = false;
        for (i, line) in text.lines().enumerate() {
            let t = line.trim_start();
            if let Some(info) = t.strip_prefix("```") {
                if !inside && info.trim().is_empty() {
                    unmarked.push(format!("{}:{}", file.strip_prefix(root()).unwrap().display(), i + 1));
                }
                inside = !inside;
            }
        }
    }
    assert!(
        unmarked.is_empty(),
        "fenced blocks without a language:\n{}",
        unmarked.join("\n")
    );
}

#[test]
fn the_readme_is_short_and_starts_with_the_two_commands() {
    let text = fs::read_to_string(root().join("README.md")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() <= 200, "README.md has {} lines (at most 200)", lines.len());
    assert_eq!(
        lines[..6],
        [
            "# stockman",
            "",
            "```sh",
            "cargo run --release -p stockman-cli -- solve --tree examples/textbook.tree",
            "cargo test --workspace",
            "```",
        ]
    );
    let ci = fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(
        ci.contains("cargo test --workspace"),
        ".ci/run must run the README's test command"
    );
}

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_stockman"))
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "stockman {args:?} --help failed");
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands a help text lists under `Commands:`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// The long flags a help text names.
fn flags(help: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for word in help.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        if word.len() > 2 && word.starts_with("--") && word.as_bytes()[2].is_ascii_lowercase() {
            out.insert(word.to_string());
        }
    }
    out.remove("--help");
    out.remove("--version");
    out
}

#[test]
fn the_cli_page_names_every_subcommand_and_flag() {
    let page = fs::read_to_string(root().join("docs/guide/cli.md")).unwrap();
    let names_flag = |flag: &str| {
        page.match_indices(flag)
            .any(|(at, _)| !page[at + flag.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-'))
    };
    let top = subcommands(&help(&[]));
    assert!(top.len() >= 9, "{top:?}");
    let mut missing = Vec::new();
    let mut commands: Vec<Vec<String>> = top.iter().map(|c| vec![c.clone()]).collect();
    for c in &top {
        for sub in subcommands(&help(&[c])) {
            commands.push(vec![c.clone(), sub]);
        }
    }
    for command in &commands {
        let args: Vec<&str> = command.iter().map(String::as_str).collect();
        let name = args.join(" ");
        if !page.contains(&format!("stockman {name}")) && !page.contains(&format!("## {name}")) {
            missing.push(format!("subcommand `{name}`"));
        }
        for flag in flags(&help(&args)) {
            if !names_flag(&flag) {
                missing.push(format!("`{name} {flag}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/guide/cli.md does not name:\n{}",
        missing.join("\n")
    );
}

/// Rooms sized to their job: no source file of a crate over 1,000 lines.
#[test]
fn no_source_file_is_over_a_thousand_lines() {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, usize)>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let lines = fs::read_to_string(&path).unwrap().lines().count();
                out.push((path, lines));
            }
        }
    }
    let mut files = Vec::new();
    for krate in fs::read_dir(root().join("crates")).unwrap() {
        let src = krate.unwrap().path().join("src");
        if src.is_dir() {
            walk(&src, &mut files);
        }
    }
    assert!(files.len() > 50, "found only {} source files", files.len());
    let big: Vec<String> = files
        .iter()
        .filter(|(_, n)| *n > 1000)
        .map(|(p, n)| format!("{} ({n} lines)", p.strip_prefix(root()).unwrap().display()))
        .collect();
    assert!(
        big.is_empty(),
        "split these by concern (CONTRIBUTING.md):\n{}",
        big.join("\n")
    );
}

/// The rows of the Markdown table of `file` whose header line is `header`.
fn table_rows(file: &str, header: &str) -> Vec<String> {
    let text = fs::read_to_string(root().join(file)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == header)
        .unwrap_or_else(|| panic!("{file}: no table headed `{header}`"));
    lines[at + 2..]
        .iter()
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.to_string())
        .collect()
}

/// The tables of algorithms are the capabilities table's rows: a name, a
/// module that exists, the row's summary, in the table's order (issue 64:
/// four hand-kept copies went stale). A new algorithm fails here until the
/// README and the guide show its row.
#[test]
fn the_algorithm_tables_are_the_capabilities_table() {
    use stockman::algorithms::capabilities::CAPABILITIES;
    let mut readme = Vec::new();
    let mut guide = Vec::new();
    for c in CAPABILITIES {
        let module = c.name.replace('-', "_");
        let src = root().join("crates/stockman/src/algorithms");
        assert!(
            src.join(format!("{module}.rs")).exists() || src.join(&module).join("mod.rs").exists(),
            "{}: no module algorithms::{module}",
            c.name
        );
        readme.push(format!("| `{}` | `algorithms::{module}` | {} |", c.name, c.summary));
        guide.push(format!(
            "| `{}` | `{:?}` | `algorithms::{module}` | {} |",
            c.name, c.algorithm, c.summary
        ));
    }
    assert_eq!(table_rows("README.md", "| `--algo` | module | what it is |"), readme);
    assert_eq!(
        table_rows(
            "docs/guide/algorithms.md",
            "| `--algo` | `Algorithm::` | module | what it is |"
        ),
        guide
    );
}

/// Every help text that lists algorithms lists them all, from the table:
/// `solve` and `trace` every algorithm and stochastic search, `play` and
/// `match` exactly the ones that drive an engine.
#[test]
fn the_help_lists_every_algorithm_of_the_table() {
    use stockman::Algorithm;
    let help = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_stockman"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let all: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
    let samplers: Vec<&str> = stockman::stochastic::Sampler::ALL.iter().map(|s| s.name()).collect();
    let engines: Vec<&str> = Algorithm::ALL
        .iter()
        .filter(|a| a.drives_engine())
        .map(|a| a.name())
        .collect();
    for sub in ["solve", "trace"] {
        let text = help(&[sub, "--help"]).split_whitespace().collect::<Vec<_>>().join(" ");
        let want = format!(
            "`all`: {}; on stochastic trees: {}",
            all.join(", "),
            samplers.join(", ")
        );
        assert!(text.contains(&want), "{sub} --help lacks `{want}`:\n{text}");
    }
    for sub in ["play", "match"] {
        let text = help(&[sub, "--help"]).split_whitespace().collect::<Vec<_>>().join(" ");
        let want = format!("one of {}", engines.join(", "));
        assert!(text.contains(&want), "{sub} --help lacks `{want}`:\n{text}");
    }
}

/// The command-line page's lists of algorithms are the table's: `--algo`'s
/// every algorithm, `play`'s the ones that drive an engine.
#[test]
fn the_cli_page_lists_the_tables_algorithms() {
    use stockman::Algorithm;
    let text = fs::read_to_string(root().join("docs/guide/cli.md")).unwrap();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let quoted = |it: &mut dyn Iterator<Item = &Algorithm>| it.map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ");
    let all = quoted(&mut Algorithm::ALL.iter());
    assert!(text.contains(&all), "docs/guide/cli.md lacks the list {all}");
    let engines = quoted(&mut Algorithm::ALL.iter().filter(|a| a.drives_engine()));
    assert!(
        text.contains(&engines),
        "docs/guide/cli.md lacks the engines' list {engines}"
    );
}
