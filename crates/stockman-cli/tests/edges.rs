//! The edges a hostile user broke (issue 63), from the command line: each
//! command of the report, and what it must now answer.

mod common;
use common::*;

/// `gen` writes a MIN root's role into the file (`# root: min`), and
/// `solve --tree` reads it back: the file and the spec give one value.
#[test]
fn a_written_tree_keeps_its_min_root() {
    let out = TempFile::empty_path("min-root.tree");
    ok(&["gen", "--random", "width=2,depth=2,seed=1,root=min", "-o", out.arg()]);
    let text = std::fs::read_to_string(out.path()).unwrap();
    assert!(text.contains("\n# root: min\n"), "{text}");
    let from_file = solve_json(&["--tree", out.arg(), "--algo", "minimax,sss"]);
    let from_spec = solve_json(&["--random", "width=2,depth=2,seed=1,root=min", "--algo", "minimax,sss"]);
    for rows in [&from_file, &from_spec] {
        for r in rows.iter() {
            assert_eq!(r["value"], 368, "{r}");
        }
    }
    // The same role asked again is fine; the other one is an error.
    let again = solve_json(&["--tree", out.arg(), "--algo", "minimax", "--root", "min"]);
    assert_eq!(again[0]["value"], 368);
    let run = fails(&["solve", "--tree", out.arg(), "--algo", "minimax", "--root", "max"]);
    assert_contains(
        &run.stderr,
        &["min-root.tree:2:1", "declares a min root", "a max root was asked for"],
    );
    // A MAX root is written without a declaration, as before.
    let max = TempFile::empty_path("max-root.tree");
    ok(&["gen", "--random", "width=2,depth=2,seed=1", "-o", max.arg()]);
    assert!(!std::fs::read_to_string(max.path()).unwrap().contains("# root:"));
    assert_eq!(solve_json(&["--tree", max.arg(), "--algo", "minimax"])[0]["value"], 162);
}

/// A spec's `root=` and a different `--root` are an error, both ways.
#[test]
fn a_spec_root_and_another_root_option_are_refused() {
    for (spec, flag) in [
        ("width=2,depth=2,seed=1,root=min", "max"),
        ("width=2,depth=2,seed=1,root=max", "min"),
    ] {
        let run = fails(&["solve", "--random", spec, "--root", flag, "--algo", "minimax"]);
        assert_contains(
            &run.stderr,
            &["the spec says root=", &format!("a {flag} root was asked for")],
        );
    }
    // Without `root=` in the spec, --root sets it.
    let rows = solve_json(&[
        "--random",
        "width=2,depth=2,seed=1",
        "--root",
        "min",
        "--algo",
        "minimax",
    ]);
    assert_eq!(rows[0]["value"], 368);
    let bad = TempFile::new("bad-root.tree", "# root: mid\n[1,2]\n");
    let run = fails(&["solve", "--tree", bad.arg()]);
    assert_contains(&run.stderr, &["bad-root.tree:1:3", "`# root: mid` names no role"]);
}

/// A root of 65,536 moves, the best the last: every table-driven
/// algorithm on 1 to 4 threads names it (a 16-bit move field read as
/// "none" once made the root's table test take an entry without its move).
#[test]
fn a_root_of_65536_moves_keeps_its_best_move_on_threads() {
    let mut leaves = vec!["0"; 65_536];
    leaves[65_535] = "1";
    let tree = TempFile::new("wide.tree", format!("[{}]", leaves.join(",")));
    for threads in ["1", "2", "4"] {
        for parallel in ["abdada", "lazy-smp"] {
            let rows = solve_json(&[
                "--tree",
                tree.arg(),
                "--algo",
                "mtdf,alphabeta,mt-sss,negascout,mtd-bi,mt-dual",
                "--threads",
                threads,
                "--parallel",
                parallel,
            ]);
            assert_eq!(rows.len(), 6);
            for r in &rows {
                assert_eq!(r["value"], 1, "{threads} threads, {parallel}: {r}");
                assert_eq!(r["best_move"], 65_535, "{threads} threads, {parallel}: {r}");
            }
        }
    }
}

/// A setting that none of the requested algorithms reads is an error that
/// names the flag and the algorithms that read it (from the capabilities
/// table); `--memory -1` gets the flag's own message.
#[test]
fn options_no_requested_algorithm_reads_are_refused() {
    let tree = TempFile::new("textbook.tree", TEXTBOOK);
    let run = fails(&["solve", "--tree", tree.arg(), "--algo", "sss", "--memory", "10"]);
    assert_contains(&run.stderr, &["--memory is read only by rsearch", "(sss) reads it"]);
    let run = fails(&[
        "solve",
        "--tree",
        tree.arg(),
        "--algo",
        "sss,dual",
        "--select",
        "widest",
    ]);
    assert_contains(
        &run.stderr,
        &["--select is read only by gsearch, rsearch", "(sss, dual)"],
    );
    let run = fails(&["solve", "--tree", tree.arg(), "--algo", "rsearch", "--memory", "-1"]);
    assert_contains(&run.stderr, &["`-1` is not a number of nodes"]);
    // With one reader among them, the option is taken.
    let rows = solve_json(&[
        "--tree",
        tree.arg(),
        "--algo",
        "sss,rsearch",
        "--memory",
        "4",
        "--select",
        "lower",
    ]);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_eq!(r["value"], 3, "{r}");
    }
}
