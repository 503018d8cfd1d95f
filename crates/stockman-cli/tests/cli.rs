//! End-to-end tests of the `stockman` binary: the command-line contract.
//!
//! Every test runs the real executable. Tree files go to unique paths under
//! the system temporary directory and are removed afterwards. Every run is
//! checked for a panic message and killed if it takes longer than a minute.

mod common;

use common::*;
use serde_json::Value as Json;
use std::io::Read;
use std::process::{Command, Stdio};

// ------------------------------------------------------- malformed files

#[test]
fn unclosed_bracket_points_at_the_end_and_the_innermost_open_list() {
    // Line 3 is ` [14,5,2` (8 characters): the input ends at column 9, and
    // the innermost open `[` is the one at line 3, column 2.
    assert_bad_tree(
        "[[3,12,8],\n [2,4,6],\n [14,5,2",
        3,
        9,
        "unexpected end of input: 2 list(s) still open; the innermost `[` is at line 3, column 2",
    );
    // With the inner list closed and a final newline, the root is still open.
    assert_bad_tree(
        "[[3,12,8],\n [2,4,6],\n [14,5,2]\n",
        4,
        1,
        "1 list(s) still open; the innermost `[` is at line 1, column 1",
    );
    assert_bad_tree("[", 1, 2, "1 list(s) still open");
    assert_bad_tree("[1,", 1, 4, "1 list(s) still open");
}

#[test]
fn non_integer_leaves_are_named_with_their_place() {
    assert_bad_tree("[[3, 12],\n [2, 2.5]]", 2, 6, "leaf `2.5` is not an integer");
    // A tab is one column.
    assert_bad_tree("[1,\n\tx]", 2, 2, "leaf `x` is not an integer");
    assert_bad_tree("[1e3]", 1, 2, "leaf `1e3` is not an integer");
    assert_bad_tree("[7,--5]", 1, 4, "leaf `--5` is not an integer");
    assert_bad_tree("[7,-]", 1, 4, "leaf `-` is not an integer");
    assert_bad_tree("[0x10]", 1, 2, "leaf `0x10` is not an integer");
    assert_bad_tree("[\"3\"]", 1, 2, "leaf `\"3\"` is not an integer");
    assert_bad_tree("[1, 2, true]", 1, 8, "leaf `true` is not an integer");
}

#[test]
fn invisible_and_long_words_are_shown_escaped_and_shortened() {
    // A zero-width space is not white space: show it, do not print it raw.
    assert_bad_tree("[1,\u{200b}2]", 1, 4, "leaf `\\u{200b}2` is not an integer");
    let long = format!("[{}]", "x".repeat(100_000));
    let f = TempFile::new("long.tree", &long);
    let run = fails(&["solve", "--tree", f.arg()]);
    assert_contains(
        &run.stderr,
        &[&format!(
            "{}:1:2: leaf `{}...` is not an integer",
            f.arg(),
            "x".repeat(20)
        )],
    );
    assert!(
        run.stderr.len() < 1000,
        "the message quotes the whole word: {}",
        run.stderr.len()
    );
}

#[test]
fn empty_lists_are_rejected_at_their_bracket() {
    assert_bad_tree("[]", 1, 1, "empty list `[]`");
    assert_bad_tree("[[1],\n [ ] ]", 2, 2, "empty list `[]`");
    assert_bad_tree("[[1],[[2],[\n# nothing here\n]]]", 1, 11, "empty list `[]`");
}

#[test]
fn files_without_a_tree_are_rejected() {
    assert_bad_tree("", 1, 1, "the file holds no tree (it is empty or only comments)");
    assert_bad_tree("  \n\n", 3, 1, "the file holds no tree");
    assert_bad_tree("# a\n  # b\n", 3, 1, "the file holds no tree");
    assert_bad_tree("# no newline", 1, 13, "the file holds no tree");
}

#[test]
fn trailing_text_is_rejected() {
    assert_bad_tree("[1,2] 3", 1, 7, "unexpected text `3` after the end of the tree");
    assert_bad_tree(
        "[1,2]\n# fine\n]",
        3,
        1,
        "unexpected text `]` after the end of the tree",
    );
    assert_bad_tree("5 6", 1, 3, "unexpected text `6` after the end of the tree");
    assert_bad_tree(
        format!("[1]{}", "y".repeat(50)),
        1,
        4,
        &format!("unexpected text `{}...` after", "y".repeat(20)),
    );
}

#[test]
fn misplaced_punctuation_is_rejected() {
    assert_bad_tree("[1 2]", 1, 4, "unexpected `2`, expected `,` or `]`");
    assert_bad_tree("[1,]", 1, 4, "unexpected `]`, expected a list `[` or an integer");
    assert_bad_tree("[,1]", 1, 2, "unexpected `,`, expected a list `[` or an integer");
    assert_bad_tree("\n  ]", 2, 3, "unexpected `]`, expected a list `[` or an integer");
    assert_bad_tree("[[1][2]]", 1, 5, "unexpected `[`, expected `,` or `]`");
}

#[test]
fn values_out_of_range_are_rejected() {
    assert_bad_tree("[1,1000000001]", 1, 4, "leaf value 1000000001 is out of range");
    assert_bad_tree("[1,\n-1000000001]", 2, 1, "leaf value -1000000001 is out of range");
    assert_bad_tree(
        "[99999999999999999999999999999]",
        1,
        2,
        "leaf value 99999999999999999999... is out of range",
    );
    // The bounds themselves are fine.
    let rows = solve_text("[1000000000,-1000000000]", &[]);
    assert_all_find(&rows, 1_000_000_000, 0.into());
    let rows = solve_text("[1000000000,-1000000000]", &["--root", "min"]);
    assert_all_find(&rows, -1_000_000_000, 1.into());
}

#[test]
fn a_chain_200000_deep_answers_1_with_every_algorithm() {
    let n = 200_000;
    let f = TempFile::new("deep.tree", format!("{}1{}", "[".repeat(n), "]".repeat(n)));
    let rows = solve_json(&["--tree", f.arg(), "--algo", "all"]);
    assert_all_find(&rows, 1, 0.into());
    for r in &rows {
        assert_eq!(r["stats"]["leaf_evals"], 1, "{r}");
    }
    // The one leaf's path is 200,000 zeros.
    let rows = solve_json(&["--tree", f.arg(), "--algo", "sss", "--leaves"]);
    assert_eq!(leaves(&rows[0]), vec![vec![0u64; n]]);
}

#[test]
fn an_unclosed_chain_200000_deep_is_an_error() {
    let n = 200_000;
    // Every inner list closes; the outermost `[` is the one left open.
    assert_bad_tree(
        format!("{}1{}", "[".repeat(n), "]".repeat(n - 1)),
        1,
        2 * n + 1,
        "1 list(s) still open; the innermost `[` is at line 1, column 1",
    );
    assert_bad_tree(
        "[".repeat(n),
        1,
        n + 1,
        &format!("{n} list(s) still open; the innermost `[` is at line 1, column {n}"),
    );
}

#[test]
fn nesting_past_the_limit_is_an_error() {
    let n = 1_000_001;
    assert_bad_tree(
        format!("{}1{}", "[".repeat(n), "]".repeat(n)),
        1,
        n,
        "lists nested deeper than 1000000 levels",
    );
}

#[test]
fn a_missing_file_is_named() {
    let missing = temp_path("missing.tree");
    let p = missing.to_str().unwrap();
    let run = fails(&["solve", "--tree", p]);
    assert_contains(&run.stderr, &[&format!("cannot read tree file {p}: ")]);
    let run = fails(&["trace", "--algo", "sss", "--tree", p]);
    assert_contains(&run.stderr, &[&format!("cannot read tree file {p}: ")]);
}

#[test]
fn a_directory_is_not_a_tree_file() {
    let dir = std::env::temp_dir();
    let p = dir.to_str().unwrap();
    let run = fails(&["solve", "--tree", p]);
    assert_contains(&run.stderr, &[&format!("cannot read tree file {p}: ")]);
}

#[test]
fn bytes_that_are_not_utf8_are_placed() {
    // Line 2 is ` 2,` then the bad byte, at column 4.
    assert_bad_tree(
        b"[1,\n 2,\xff]",
        2,
        4,
        "not UTF-8 text (invalid byte 0xFF at byte offset 7)",
    );
    // Columns count characters, not bytes: `é` is two bytes, one column.
    assert_bad_tree(
        b"# \xc3\xa9\xc3\n1",
        1,
        4,
        "not UTF-8 text (invalid byte 0xC3 at byte offset 4)",
    );
}

#[test]
fn an_unknown_algorithm_is_named() {
    let f = TempFile::new("t.tree", TEXTBOOK);
    let run = fails(&["solve", "--tree", f.arg(), "--algo", "alphabeta,frobnicate"]);
    assert_contains(&run.stderr, &["unknown algorithm `frobnicate`", "alphabeta"]);
    assert_eq!(run.stdout, "");
    let run = fails(&["trace", "--tree", f.arg(), "--algo", "sss*"]);
    assert_contains(&run.stderr, &["unknown algorithm `sss*`"]);
    // Names are case-insensitive and may be spaced.
    let rows = solve_json(&["--tree", f.arg(), "--algo", " AlphaBeta , SSS"]);
    let names: Vec<&str> = rows.iter().map(|r| r["algorithm"].as_str().unwrap()).collect();
    assert_eq!(names, ["alphabeta", "sss"]);
}

#[test]
fn bad_random_specs_are_explained() {
    let cases = [
        ("depth=3,seed=1", "`width` is missing"),
        ("width=3,seed=1", "`depth` is missing"),
        ("width=0,depth=3", "width 0 is not in 1..=65536"),
        ("width=3,depth=3,range=5..1", "`range=5..1`: LO is larger than HI"),
        ("width=3,depth=3,range=1-5", "`range=1-5`: expected LO..HI"),
        (
            "width=3,depth=3,order=2",
            "`order=2`: a probability lies between 0 and 1",
        ),
        (
            "width=3,depth=3,order=nan",
            "`order=nan`: a probability lies between 0 and 1",
        ),
        ("width=3,depth=3,color=red", "unknown key `color`"),
        ("width=3,depth=3,seed=-1", "`seed=-1`: expected a whole number"),
        ("width=3,depth=3,width=4", "`width` is given twice"),
        ("width=3,depth=600", "depth 600 is larger than 512"),
        (
            "width=3,depth=3,model=gaussian",
            "`model=gaussian`: expected `iid` or `incremental`",
        ),
        (
            "width=3,depth=3,variable=maybe",
            "`variable=maybe`: expected true or false",
        ),
        ("width=3,,depth=3", "empty item"),
        ("width", "`width` is not of the form key=value"),
        (
            "width=3,depth=3,range=0..2000000000",
            "must lie within -1000000000..1000000000",
        ),
    ];
    for (spec, message) in cases {
        let run = fails(&["solve", "--random", spec, "--algo", "alphabeta"]);
        assert_contains(&run.stderr, &["invalid random tree spec", message, spec]);
        let run = fails(&["gen", "--random", spec]);
        assert_contains(&run.stderr, &["invalid random tree spec", message]);
    }
}

#[test]
fn a_negative_time_limit_is_refused() {
    let f = TempFile::new("t.tree", TEXTBOOK);
    // `-1` as a separate word: clap refuses it (as an unknown flag).
    let run = fails(&["solve", "--tree", f.arg(), "--time-limit", "-1"]);
    assert_contains(&run.stderr, &["-1"]);
    assert_eq!(run.stdout, "");
    let run = fails(&["solve", "--tree", f.arg(), "--time-limit=-1"]);
    assert_contains(
        &run.stderr,
        &["--time-limit", "the time limit must be a positive number of seconds"],
    );
    let run = fails(&["solve", "--tree", f.arg(), "--time-limit", "0"]);
    assert_contains(&run.stderr, &["the time limit must be a positive number of seconds"]);
    let run = fails(&["solve", "--tree", f.arg(), "--time-limit", "soon"]);
    assert_contains(&run.stderr, &["`soon` is not a number of seconds"]);
}

#[test]
fn a_huge_time_limit_is_an_error_or_no_limit_not_a_panic() {
    let f = TempFile::new("t.tree", TEXTBOOK);
    let run = stockman(&[
        "solve",
        "--tree",
        f.arg(),
        "--algo",
        "alphabeta",
        "--time-limit",
        "1e30",
    ]);
    assert!(matches!(run.code, Some(0) | Some(2)), "{run:?}");
}

#[test]
fn table_sizes_are_checked() {
    let f = TempFile::new("t.tree", TEXTBOOK);
    for (bad, message) in [
        ("0", "the table size must be 1 to 1048576 MiB"),
        ("1048577", "the table size must be 1 to 1048576 MiB"),
        ("-3", "is not a whole number of MiB"),
        ("lots", "is not a whole number of MiB"),
    ] {
        let run = fails(&["solve", "--tree", f.arg(), &format!("--tt-mb={bad}")]);
        assert_contains(&run.stderr, &["--tt-mb", message]);
        assert_eq!(run.stdout, "");
    }
    // The largest size: solved, or refused with a message where the
    // machine cannot hold it; never an abort.
    let run = stockman(&["solve", "--tree", f.arg(), "--algo", "mtdf", "--tt-mb", "1048576"]);
    match run.code {
        Some(0) => assert_contains(&run.stdout, &["mtdf"]),
        _ => {
            assert_eq!(run.code, Some(2), "{run:?}");
            assert_contains(&run.stderr, &["cannot allocate a table of 1048576 MiB"]);
        }
    }
}

/// Without the table at the horizon the values and the positions visited
/// stay, and leaves are evaluated again (MT-SSS\* in every pass that reaches them).
#[test]
fn the_horizon_table_is_optional() {
    let args = [
        "--game",
        "connect4",
        "--position",
        "4453",
        "--depth",
        "4",
        "--algo",
        "mt-sss,mtdf,negascout",
    ];
    let with = solve_json(&args);
    let mut no = args.to_vec();
    no.push("--no-horizon-table");
    let without = solve_json(&no);
    let stat = |r: &Json, k: &str| r["stats"][k].as_u64().expect("a count");
    for (a, b) in with.iter().zip(&without) {
        assert_eq!(a["algorithm"], b["algorithm"]);
        assert_eq!(a["value"], b["value"]);
        assert_eq!(stat(a, "nodes"), stat(b, "nodes"));
        assert!(stat(a, "leaf_evals") < stat(b, "leaf_evals"), "{a}\n{b}");
        assert!(stat(a, "tt_probes") > stat(b, "tt_probes"), "{a}\n{b}");
    }
    let mt = row(&with, "mt-sss");
    assert_eq!((stat(mt, "nodes"), stat(mt, "leaf_evals")), (223, 58));
    assert_eq!(stat(row(&without, "mt-sss"), "leaf_evals"), 71);
}

#[test]
fn the_node_limit_stops_every_search_with_exit_3() {
    let run = stockman(&["solve", "--random", "width=8,depth=8,seed=1", "--max-nodes", "5"]);
    assert_eq!(run.code, Some(3), "{run:?}");
    for algo in ALGOS {
        assert_contains(
            &run.stderr,
            &[&format!(
                "error: {algo}: node limit reached: stopped after visiting 5 positions (--max-nodes 5)"
            )],
        );
    }
    // JSON: the stopped rows have no value, an error and the work done.
    let run = stockman(&[
        "solve",
        "--random",
        "width=8,depth=8,seed=1",
        "--max-nodes",
        "5",
        "--algo",
        "alphabeta",
        "--format",
        "json",
        "--leaves",
    ]);
    assert_eq!(run.code, Some(3), "{run:?}");
    let rows: Json = serde_json::from_str(&run.stdout).unwrap();
    let r = &rows[0];
    assert_eq!(r["value"], Json::Null);
    assert_eq!(r["best_move"], Json::Null);
    assert_eq!(r["stats"]["nodes"], 5);
    assert!(r["error"].as_str().unwrap().contains("--max-nodes 5"), "{r}");
    assert!(r.get("leaves").is_none(), "a stopped search reports no leaves: {r}");
}

#[test]
fn the_time_limit_stops_a_long_search_with_exit_3() {
    // 8^30 leaves: only the limit can end this search, whatever the load.
    // (How soon it ends is the clock's business, not a test's; the harness's
    // TIMEOUT only catches a hang.)
    let run = stockman(&[
        "solve",
        "--random",
        "width=8,depth=30,seed=1",
        "--algo",
        "alphabeta",
        "--time-limit",
        "0.1",
    ]);
    assert_eq!(run.code, Some(3), "{run:?}");
    assert_contains(
        &run.stderr,
        &["error: alphabeta: time limit reached", "(--time-limit 0.100s)"],
    );
}

#[test]
fn the_open_limit_stops_a_best_first_search() {
    let run = stockman(&[
        "solve",
        "--random",
        "width=8,depth=8,seed=1",
        "--algo",
        "sss",
        "--max-open",
        "10",
    ]);
    assert_eq!(run.code, Some(3), "{run:?}");
    assert_contains(
        &run.stderr,
        &[
            "error: sss: OPEN list limit reached: the OPEN list would exceed 10 entries",
            "--max-open",
        ],
    );
    // The MT drivers need no OPEN list: the same limit does not stop them.
    let rows = solve_json(&[
        "--random",
        "width=4,depth=4,seed=1",
        "--algo",
        "mt-sss",
        "--max-open",
        "10",
    ]);
    assert!(rows[0]["value"].is_i64(), "{:?}", rows[0]);
}

/// SSS-2 from the command line: SSS*'s leaves in SSS*'s order (the
/// `leaves` of `--leaves`), MT-SSS*'s passes, its stored nodes as
/// `max_open` (one max solution tree of the textbook tree: 1 + 3 + 3), the
/// OPEN limit bounding them, and a trace of passes.
#[test]
fn sss2_runs_from_the_command_line() {
    let f = TempFile::new("t.tree", TEXTBOOK);
    let rows = solve_json(&["--tree", f.arg(), "--algo", "sss,sss2,mt-sss", "--leaves"]);
    let (sss, sss2, mt) = (row(&rows, "sss"), row(&rows, "sss2"), row(&rows, "mt-sss"));
    assert_eq!(sss2["value"], 3);
    assert_eq!(sss2["best_move"], 0);
    assert_eq!(leaves(sss2), leaves(sss));
    assert_eq!(sss2["stats"]["passes"], mt["stats"]["passes"]);
    assert_eq!(sss2["stats"]["max_open"], 7);
    let run = stockman(&["solve", "--tree", f.arg(), "--algo", "sss2", "--max-open", "5"]);
    assert_eq!(run.code, Some(3), "{run:?}");
    assert_contains(&run.stderr, &["sss2", "--max-open"]);
    let trace = ok(&["trace", "--tree", f.arg(), "--algo", "sss2"]);
    assert_contains(&trace.stdout, &["# sss2 trace", "pass 1: window", "fails high"]);
}

/// GSEARCH and RSEARCH from the command line: `--select` picks the rule
/// (alpha-beta's, SSS*'s and Dual*'s leaves on the textbook tree), RSEARCH
/// with `--memory 0` is alpha-beta searched once depth-first, and bad rules,
/// budgets and limits are refused with what is wrong.
#[test]
fn gsearch_and_rsearch_run_from_the_command_line() {
    let f = TempFile::new("t.tree", TEXTBOOK);
    let rows = solve_json(&["--tree", f.arg(), "--algo", "alphabeta,sss,dual", "--leaves"]);
    for (rule, twin) in [("leftmost", "alphabeta"), ("upper", "sss"), ("lower", "dual")] {
        let g = solve_json(&["--tree", f.arg(), "--algo", "gsearch", "--select", rule, "--leaves"]);
        assert_eq!(g[0]["value"], 3, "{rule}");
        assert_eq!(g[0]["best_move"], 0, "{rule}");
        assert_eq!(leaves(&g[0]), leaves(row(&rows, twin)), "--select {rule} vs {twin}");
    }
    let widest = solve_json(&["--tree", f.arg(), "--algo", "gsearch", "--select", "widest"]);
    assert_eq!(widest[0]["value"], 3);
    let r = solve_json(&["--tree", f.arg(), "--algo", "rsearch", "--memory", "0", "--leaves"]);
    assert_eq!(leaves(&r[0]), leaves(row(&rows, "alphabeta")));
    assert_eq!(
        (r[0]["best_move"].clone(), r[0]["stats"]["passes"].clone()),
        (0.into(), 1.into())
    );
    let bad = fails(&["solve", "--tree", f.arg(), "--algo", "gsearch", "--select", "deepest"]);
    assert_contains(
        &bad.stderr,
        &[
            "--select",
            "unknown selection rule `deepest`",
            "leftmost, upper, lower, widest",
        ],
    );
    let bad = fails(&["solve", "--tree", f.arg(), "--algo", "rsearch", "--memory", "-1"]);
    assert_contains(&bad.stderr, &["--memory", "-1"]);
    let run = stockman(&["solve", "--tree", f.arg(), "--algo", "gsearch", "--max-open", "3"]);
    assert_eq!(run.code, Some(3), "{run:?}");
    assert_contains(&run.stderr, &["gsearch", "--max-open"]);
    // RSEARCH under the same limit searches depth-first instead of failing.
    let r = solve_json(&["--tree", f.arg(), "--algo", "rsearch", "--max-open", "3"]);
    assert_eq!(r[0]["value"], 3);
    let trace = ok(&["trace", "--tree", f.arg(), "--algo", "gsearch", "--select", "leftmost"]);
    assert_contains(
        &trace.stdout,
        &["# gsearch trace", "leaf 1.1 = 3", "value 3, best move 0"],
    );
}

// ---------------------------------------------------------- JSON contract

#[test]
fn json_rows_have_the_contract_fields() {
    let f = TempFile::new("t.tree", TEXTBOOK);
    let rows = solve_json(&["--tree", f.arg(), "--algo", &ALGOS.join(",")]);
    let names: Vec<&str> = rows.iter().map(|r| r["algorithm"].as_str().unwrap()).collect();
    assert_eq!(names, ALGOS, "one row per algorithm, in the order asked");
    assert_all_find(&rows, 3, 0.into());
    for r in &rows {
        let stats = r["stats"].as_object().unwrap_or_else(|| panic!("no stats: {r}"));
        for key in [
            "leaf_evals",
            "nodes_expanded",
            "nodes",
            "max_open",
            "passes",
            "tt_probes",
            "tt_hits",
            "time_us",
        ] {
            assert!(
                stats.get(key).is_some_and(Json::is_u64),
                "{}: stats.{key}: {r}",
                r["algorithm"]
            );
        }
        assert!(r.get("leaves").is_none(), "leaves only with --leaves: {r}");
        assert!(r.get("error").is_none(), "{r}");
        assert!(r["stats"]["passes"].as_u64().unwrap() >= 1, "{r}");
    }
    // Spot checks of the counts on the textbook tree.
    assert_eq!(row(&rows, "minimax")["stats"]["leaf_evals"], 9);
    assert_eq!(row(&rows, "alphabeta")["stats"]["leaf_evals"], 7);
    assert_eq!(row(&rows, "alphabeta")["stats"]["nodes"], 11);
    assert_eq!(row(&rows, "alphabeta")["stats"]["max_open"], 0);
    assert_eq!(row(&rows, "sss")["stats"]["max_open"], 3);
}

#[test]
fn leaves_are_paths_in_evaluation_order() {
    let f = TempFile::new("t.tree", TEXTBOOK);
    let rows = solve_json(&["--tree", f.arg(), "--algo", "all", "--leaves"]);
    assert_eq!(
        leaves(row(&rows, "alphabeta")),
        [[0, 0], [0, 1], [0, 2], [1, 0], [2, 0], [2, 1], [2, 2]]
    );
    assert_eq!(
        leaves(row(&rows, "minimax")),
        [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [2, 0], [2, 1], [2, 2]]
    );
    // SSS* looks at every first leaf before finishing the first subtree.
    assert_eq!(
        leaves(row(&rows, "sss")),
        [[0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [0, 1], [0, 2]]
    );
    for r in &rows {
        assert_eq!(
            leaves(r).len() as u64,
            r["stats"]["leaf_evals"].as_u64().unwrap(),
            "{}",
            r["algorithm"]
        );
    }
}

#[test]
fn bns_reports_a_bound_and_no_value() {
    let f = TempFile::new("t.tree", TEXTBOOK);
    let rows = solve_json(&["--tree", f.arg(), "--algo", "bns"]);
    let r = &rows[0];
    assert_eq!(r["algorithm"], "bns");
    assert_eq!(r["value"], Json::Null);
    assert_eq!(r["best_move"], 0);
    let b = r["bound"].as_array().expect("a bound");
    assert_eq!(b.len(), 2);
    let (lo, hi) = (b[0].as_i64().unwrap(), b[1].as_i64().unwrap());
    assert!(lo <= 3 && 3 < hi, "[{lo}, {hi}) misses 3");
    // Other algorithms carry no bound.
    let rows = solve_json(&["--tree", f.arg(), "--algo", "alphabeta"]);
    assert!(rows[0].get("bound").is_none(), "{}", rows[0]);
}

#[test]
fn the_text_table_shows_value_and_best_move() {
    let f = TempFile::new("t.tree", TEXTBOOK);
    let run = ok(&["solve", "--tree", f.arg(), "--algo", "alphabeta,bns", "--leaves"]);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[0].starts_with("algorithm  value  best  leaves"), "{}", run.stdout);
    let cells: Vec<&str> = lines[2].split_whitespace().collect();
    assert_eq!(cells[..5], ["alphabeta", "3", "0", "7", "4"], "{}", run.stdout);
    assert!(lines[3].starts_with("bns "), "{}", run.stdout);
    assert_contains(&run.stdout, &["alphabeta leaves: 1.1 1.2 1.3 2.1 3.1 3.2 3.3\n"]);
    assert_eq!(run.stderr, "");
}

// ------------------------------------------------------------- --root min

#[test]
fn a_min_root_changes_the_value() {
    let f = TempFile::new("t.tree", TEXTBOOK);
    let rows = solve_json(&["--tree", f.arg(), "--algo", "all", "--root", "min"]);
    // min(max(3,12,8), max(2,4,6), max(14,5,2)) = min(12, 6, 14) = 6.
    assert_all_find(&rows, 6, 1.into());
    let rows = solve_json(&["--tree", f.arg(), "--algo", "all", "--root", "max"]);
    assert_all_find(&rows, 3, 0.into());
    let run = fails(&["solve", "--tree", f.arg(), "--root", "middle"]);
    assert_contains(&run.stderr, &["middle"]);
}

#[test]
fn a_min_root_on_a_random_tree_matches_the_spec_key() {
    let a = solve_json(&["--random", "width=4,depth=4,seed=9", "--root", "min", "--algo", "all"]);
    let b = solve_json(&["--random", "width=4,depth=4,seed=9,root=min", "--algo", "all"]);
    let c = solve_json(&["--random", "width=4,depth=4,seed=9", "--algo", "all"]);
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!((&x["value"], &x["bound"]), (&y["value"], &y["bound"]));
    }
    assert_ne!(row(&a, "alphabeta")["value"], row(&c, "alphabeta")["value"]);
}

// ------------------------------------------------------------------- gen

/// What must agree between a generated file and its spec, per algorithm.
/// What must agree between a random tree and its file: everything, except
/// for the drivers that start from `Game::value_range` (BNS, MTD(bi)): a
/// file knows its actual leaf range, a spec only the range it draws from,
/// so their passes differ; MTD(bi)'s value must still agree.
fn fingerprint(rows: &[Json]) -> Vec<Json> {
    rows.iter()
        .map(|r| {
            if r["algorithm"] == "bns" || r["algorithm"] == "mtd-bi" {
                return serde_json::json!([r["algorithm"], r["value"]]);
            }
            serde_json::json!([
                r["algorithm"],
                r["value"],
                r["bound"],
                r["best_move"],
                r["stats"]["leaf_evals"],
                r["stats"]["nodes"],
                r["leaves"],
            ])
        })
        .collect()
}

#[test]
fn gen_round_trips_through_the_file_format() {
    for spec in [
        "width=3,depth=4,seed=7",
        "width=4,depth=5,seed=3",
        "width=5,depth=4,seed=11,model=incremental",
        "width=6,depth=4,seed=2,variable=true,order=0.9,range=-50..50",
        "width=3,depth=0,seed=1",
    ] {
        let out = TempFile::empty_path("gen.tree");
        ok(&["gen", "--random", spec, "-o", out.arg()]);
        let text = std::fs::read_to_string(out.path()).unwrap();
        assert!(text.starts_with("# stockman gen --random "), "{text}");
        // Standard output gets the same text.
        assert_eq!(ok(&["gen", "--random", spec]).stdout, text);

        let from_file = solve_json(&["--tree", out.arg(), "--algo", "all", "--leaves"]);
        let from_spec = solve_json(&["--random", spec, "--algo", "all", "--leaves"]);
        assert!(from_file.len() >= ALGOS.len());
        assert_eq!(fingerprint(&from_file), fingerprint(&from_spec), "{spec}");
    }
}

#[test]
fn gen_with_a_min_root_round_trips_with_root_min() {
    let spec = "width=3,depth=5,seed=5,root=min";
    let out = TempFile::empty_path("gen-min.tree");
    ok(&["gen", "--random", spec, "--output", out.arg()]);
    let from_file = solve_json(&["--tree", out.arg(), "--root", "min", "--algo", "all", "--leaves"]);
    let from_spec = solve_json(&["--random", spec, "--algo", "all", "--leaves"]);
    assert_eq!(fingerprint(&from_file), fingerprint(&from_spec));
}

#[test]
fn gen_refuses_a_tree_too_large_to_write() {
    let run = fails(&["gen", "--random", "width=8,depth=8,seed=1"]);
    assert_contains(&run.stderr, &["has more than 10000000 nodes", "--max-nodes"]);
    assert_eq!(run.stdout, "");
    let run = fails(&["gen", "--random", "width=3,depth=3,seed=1", "--max-nodes", "10"]);
    assert_contains(&run.stderr, &["has more than 10 nodes"]);
}

// ---------------------------------------------------------------- syntax

#[test]
fn comments_and_white_space_may_stand_anywhere() {
    let text = "# the textbook tree\n[ # root\n  [ 3 ,12\t,8 ]#first\n,[2,4,\n6]\n\n ,  [14,5,2] ] # end\n# bye";
    let rows = solve_text(text, &[]);
    assert_all_find(&rows, 3, 0.into());
    assert_eq!(
        leaves(row(&rows, "alphabeta")),
        [[0, 0], [0, 1], [0, 2], [1, 0], [2, 0], [2, 1], [2, 2]]
    );
    // A number may end at a comment.
    assert_all_find(&solve_text("[4#four\n,2]", &[]), 4, 0.into());
}

#[test]
fn crlf_line_endings_work_and_count_lines() {
    let rows = solve_text("# crlf\r\n[[3,12,8],\r\n [2,4,6],\r\n [14,5,2]]\r\n", &[]);
    assert_all_find(&rows, 3, 0.into());
    assert_bad_tree("[1,\r\n2.5]", 2, 1, "leaf `2.5` is not an integer");
    assert_bad_tree("[1,\r\n\r\n", 3, 1, "1 list(s) still open");
}

#[test]
fn a_byte_order_mark_is_ignored() {
    let rows = solve_text("\u{feff}[[3,12,8],[2,4,6],[14,5,2]]", &[]);
    assert_all_find(&rows, 3, 0.into());
    // Anywhere else it is shown, escaped.
    assert_bad_tree("[1,\u{feff}]", 1, 4, "leaf `\\u{feff}` is not an integer");
}

#[test]
fn a_lone_integer_is_a_root_leaf() {
    let rows = solve_text("  42  \n", &[]);
    assert_all_find(&rows, 42, Json::Null);
    for r in &rows {
        assert_eq!(leaves(r), [Vec::<u64>::new()], "{}", r["algorithm"]);
        assert_eq!(r["stats"]["leaf_evals"], 1, "{r}");
    }
    assert_all_find(&solve_text("-17", &["--root", "min"]), -17, Json::Null);
}

#[test]
fn signs_are_allowed() {
    assert_all_find(&solve_text("+5", &[]), 5, Json::Null);
    assert_all_find(&solve_text("-0", &[]), 0, Json::Null);
    assert_all_find(&solve_text("[+5,-0]", &[]), 5, 0.into());
    assert_all_find(&solve_text("[[-3,+4],[-0,-1]]", &[]), -1, 1.into());
}

// ----------------------------------------------------------------- trace

#[test]
fn trace_prints_sss_steps_and_the_value() {
    let f = TempFile::new("t.tree", TEXTBOOK);
    let run = ok(&["trace", "--algo", "sss", "--tree", f.arg()]);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "# sss trace");
    assert!(lines[1].starts_with("step 1: pop (e, LIVE, +inf)"), "{}", run.stdout);
    let steps = lines.iter().filter(|l| l.starts_with("step ")).count();
    assert_eq!(steps, 18, "{}", run.stdout);
    assert!(
        lines[lines.len() - 3].starts_with("step 18: pop (e, SOLVED, 3)"),
        "{}",
        run.stdout
    );
    assert_eq!(lines[lines.len() - 2..], ["value 3, best move 0", "7 leaves evaluated"]);
}

#[test]
fn trace_json_has_events() {
    let f = TempFile::new("t.tree", TEXTBOOK);
    let run = ok(&["trace", "--algo", "sss", "--tree", f.arg(), "--format", "json"]);
    let t: Json = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", run.stdout));
    assert_eq!(t["algorithm"], "sss");
    assert_eq!(t["value"], 3);
    assert_eq!(t["best_move"], 0);
    let events = t["events"].as_array().expect("an events array");
    let steps: Vec<&Json> = events.iter().filter(|e| e["event"] == "step").collect();
    assert_eq!(steps.len(), 18);
    assert_eq!(steps[0]["step"], 1);
    assert_eq!(steps[0]["popped"]["node"], serde_json::json!([]));
    assert_eq!(steps[0]["popped"]["status"], "LIVE");
}

#[test]
fn trace_takes_exactly_one_algorithm_and_a_good_file() {
    let f = TempFile::new("t.tree", TEXTBOOK);
    let run = fails(&["trace", "--algo", "sss,dual", "--tree", f.arg()]);
    assert_contains(&run.stderr, &["exactly one algorithm", "sss,dual"]);
    let bad = TempFile::new("bad.tree", "[[1,2],\n [3,x]]");
    let run = fails(&["trace", "--algo", "sss", "--tree", bad.arg()]);
    assert_contains(
        &run.stderr,
        &[&format!("{}:2:5: leaf `x` is not an integer", bad.arg())],
    );
    let run = ok(&["trace", "--algo", "mtdf", "--random", "width=3,depth=3,seed=1"]);
    assert_contains(&run.stdout, &["# mtdf trace\n", "pass 1: window"]);
}

// ------------------------------------------- the hand-worked SSS* trace

// `stockman trace --algo sss` on a small ragged tree, checked line by line
// against a trace worked out by hand from Stockman's pseudocode (the Gamma
// operator, cases 1-6). The tree and the trace live in
// `crates/stockman/tests/data/` (`sss_hand_trace.tree`, `sss_hand_trace.txt`;
// `README.md` there explains the derivation). Every line must match exactly:
// the pseudocode does not order the states a purge removes, and both the
// program and the hand trace list them in the order they stood on OPEN.

/// The hand-worked data, read through this crate's manifest directory.
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../stockman/tests/data");

/// Fails with the first differing line (1-based), showing both lines.
#[track_caller]
fn assert_same_trace(golden_name: &str, want: &str, got: &str) {
    let want: Vec<&str> = want.lines().collect();
    let got: Vec<&str> = got.lines().collect();
    for i in 0..want.len().max(got.len()) {
        let (w, g) = (want.get(i), got.get(i));
        let equal = match (w, g) {
            (Some(w), Some(g)) => w == g,
            _ => false,
        };
        assert!(
            equal,
            "trace differs from {golden_name} at line {}:\n  golden:  {}\n  program: {}",
            i + 1,
            w.copied().unwrap_or("<end of file>"),
            g.copied().unwrap_or("<end of output>"),
        );
    }
}

#[test]
fn sss_trace_matches_the_hand_worked_trace() {
    let tree = format!("{DATA}/sss_hand_trace.tree");
    let golden = format!("{DATA}/sss_hand_trace.txt");
    let want = std::fs::read_to_string(&golden).unwrap_or_else(|e| panic!("read {golden}: {e}"));
    let got = ok(&["trace", "--algo", "sss", "--tree", &tree]).stdout;
    assert_same_trace("sss_hand_trace.txt", &want, &got);
}

/// The golden file keeps covering what it was built to cover: every Gamma
/// case, and a case-4 purge below the parent's children.
#[test]
fn the_hand_worked_trace_exercises_every_case() {
    let golden = format!("{DATA}/sss_hand_trace.txt");
    let want = std::fs::read_to_string(&golden).unwrap_or_else(|e| panic!("read {golden}: {e}"));
    for case in 0..=6 {
        assert!(want.contains(&format!(", case {case}: ")), "no case {case} in {golden}");
    }
    // Step 23 solves the root and purges (3.2.2.1, ..), four levels below it.
    assert!(want.contains("  purge (2, SOLVED, 5) (3.2.1, SOLVED, 4) (3.2.2.1, SOLVED, 3)\n"));
}

/// `stockman gen ... | head -c 100`: a reader that goes away early ends the
/// program quietly (SIGPIPE, as any Unix filter), never with a panic.
#[cfg(unix)]
#[test]
fn a_closed_pipe_is_not_a_panic() {
    use std::os::unix::process::ExitStatusExt;
    let mut child = Command::new(env!("CARGO_BIN_EXE_stockman"))
        .args(["gen", "--random", "width=8,depth=6,seed=1"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start stockman");
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut first = [0u8; 100];
    stdout.read_exact(&mut first).expect("some output");
    drop(stdout);
    let out = child.wait_with_output().expect("wait for stockman");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "panicked on a closed pipe:\n{stderr}");
    // SIGPIPE is 13 on every Unix this runs on.
    assert_eq!(out.status.signal(), Some(13), "{:?}: {stderr}", out.status);
}

/// The engine contract of iterative deepening: under a limit, the answer of
/// the last completed depth, exit 0, `depth_completed`, and the limit as the
/// user gave it. Node limits keep it deterministic.
#[test]
fn iterative_deepening_under_a_limit_answers_with_its_last_depth() {
    let args = [
        "--game",
        "connect4",
        "--position",
        "4453",
        "--depth",
        "40",
        "--iterative",
        "--algo",
        "mtdf",
    ];
    let limited = [&args[..], &["--max-nodes", "300000"]].concat();
    let rows = solve_json(&limited);
    let r = row(&rows, "mtdf+id");
    let d = r["depth_completed"].as_u64().expect("depth_completed");
    assert!(d >= 8, "{r}");
    assert!(r["value"].is_i64() && r["best_move"].is_u64(), "{r}");
    assert_eq!(r["stopped_by"], "--max-nodes 300000");
    assert!(r["stats"]["nodes"].as_u64().unwrap() <= 300_000, "{r}");
    // The same value and move as a fixed-depth search to that depth.
    let depth = d.to_string();
    let fixed = [&args[..4], &["--depth", &depth, "--algo", "alphabeta,mtdf"]].concat();
    for f in solve_json(&fixed) {
        assert_eq!(f["value"], r["value"], "{f}");
    }
    let run = stockman(&[&["solve"][..], &limited[..]].concat());
    assert_contains(&run.stderr, &["note: mtdf+id: --max-nodes 300000 stopped depth"]);
    // A time limit: an answer and exit 0 (how deep depends on the machine).
    let timed = solve_json(&[&args[..], &["--time-limit", "1"]].concat());
    assert!(row(&timed, "mtdf+id")["depth_completed"].as_u64().unwrap() >= 1);
    // Not even depth 1: exit 3, and the message names the limit as given.
    let run = stockman(&[
        "solve",
        "--game",
        "connect4",
        "--depth",
        "9",
        "--iterative",
        "--algo",
        "mtdf",
        "--max-nodes",
        "3",
    ]);
    assert_eq!(run.code, Some(3), "{run:?}");
    assert_contains(&run.stderr, &["(--max-nodes 3)"]);
}

/// `play` driven through standard input: a whole tic-tac-toe game against a
/// perfect engine, with a malformed and an illegal move on the way.
#[test]
fn play_reads_moves_from_standard_input_to_the_end_of_the_game() {
    // X: 5, (O answers 1), then junk and a taken cell, then 3, 9, 8 ...
    // Whatever O plays, X's moves below are legal in the game the engine
    // makes (it is deterministic at a fixed depth); the game ends by move 9.
    let moves = "5\nfoo\n5\n3\n7\n8\n6\n2\n4\n9\n";
    let run = stockman_fed(
        &["play", "--game", "tictactoe", "--depth", "9", "--human", "first"],
        Some(moves),
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_contains(
        &run.stdout,
        &[
            "You play X; stockman plays O with mtdf.",
            "stockman (O) plays 1",
            "Illegal move `foo`: `foo` is not a cell: type a number from 1 to 9",
            "Illegal move `5`: cell 5 is already taken",
            "Game over:",
        ],
    );
    // The engine never loses tic-tac-toe.
    assert!(!run.stdout.contains("(you win)"), "{}", run.stdout);
    // Deterministic at a fixed depth: the same transcript again, but for
    // the thinking times (which are the clock's).
    let again = stockman_fed(
        &["play", "--game", "tictactoe", "--depth", "9", "--human", "first"],
        Some(moves),
    );
    let untimed = |s: &str| -> Vec<String> {
        s.lines()
            .map(|l| match l.rfind(", ") {
                Some(i) if l.ends_with(" s]") => l[..i].to_string(),
                _ => l.to_string(),
            })
            .collect()
    };
    assert_eq!(untimed(&again.stdout), untimed(&run.stdout));
}

#[test]
fn play_as_second_and_early_end_of_input() {
    let run = stockman_fed(
        &["play", "--game", "connect4", "--depth", "4", "--human", "second"],
        Some("4\n"),
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_contains(&run.stdout, &["You play O; stockman plays X", "stockman (X) plays"]);
    assert_contains(&run.stderr, &["error: standard input ended before the game did"]);
    let quit = stockman_fed(&["play", "--game", "connect4", "--depth", "2"], Some("quit\n"));
    assert_eq!(quit.code, Some(0), "{quit:?}");
    assert_contains(&quit.stdout, &["You left the game."]);
    let run = fails(&["play", "--game", "connect4", "--algo", "sss", "--depth", "2"]);
    assert_contains(&run.stderr, &["sss is best-first and cannot be deepened"]);
    // minimax keeps no table: refused as UCI refuses it (one rule).
    let run = fails(&["play", "--game", "connect4", "--algo", "minimax", "--depth", "2"]);
    assert_contains(&run.stderr, &["--algo: minimax keeps no transposition table"]);
    let run = fails(&[
        "match",
        "--game",
        "connect4",
        "--engines",
        "minimax,mtdf",
        "--depth",
        "2",
    ]);
    assert_contains(&run.stderr, &["--engines: minimax keeps no transposition table"]);
    let run = fails(&["play", "--game", "connect4", "--position", "44444444"]);
    assert_contains(&run.stderr, &["position `44444444`: move 7 ('4'): column 4 is full"]);
}

/// The `match` contract: one JSON object, results that add up, and the
/// same results for the same command at a fixed depth.
#[test]
fn match_at_a_fixed_depth_is_reproducible() {
    let args = [
        "match",
        "--game",
        "connect4",
        "--engines",
        "mtdf,negascout",
        "--depth",
        "6",
        "--games",
        "4",
        "--format",
        "json",
    ];
    let run = ok(&args);
    let m: Json = serde_json::from_str(&run.stdout).expect("one JSON object");
    assert_eq!(m["game"], "connect4");
    assert_eq!(m["games"], 4);
    let engines = m["engines"].as_array().unwrap();
    assert_eq!(engines.len(), 2);
    assert_eq!(
        (engines[0]["name"].as_str(), engines[1]["name"].as_str()),
        (Some("mtdf"), Some("negascout"))
    );
    for (e, other) in [(&engines[0], &engines[1]), (&engines[1], &engines[0])] {
        let (w, d, l) = (
            e["wins"].as_u64().unwrap(),
            e["draws"].as_u64().unwrap(),
            e["losses"].as_u64().unwrap(),
        );
        assert_eq!(w + d + l, 4, "{e}");
        assert_eq!(w, other["losses"].as_u64().unwrap());
        assert_eq!((e["score"].as_f64().unwrap() * 8.0).round() as u64, 2 * w + d);
        assert!(e["nodes_per_move"].as_f64().unwrap() > 0.0);
        assert!(e["time_us_per_move"].is_number());
    }
    let elo = &m["elo"];
    // A clean sweep leaves one bound open: null.
    let (diff, low, high) = (
        elo["diff"].as_f64().unwrap(),
        elo["low"].as_f64().unwrap_or(f64::NEG_INFINITY),
        elo["high"].as_f64().unwrap_or(f64::INFINITY),
    );
    assert!(low <= diff && diff <= high, "{elo}");
    assert!(low.is_finite() || high.is_finite(), "{elo}");
    // Reproducible apart from the times.
    let strip = |v: &Json| {
        let mut v = v.clone();
        for e in v["engines"].as_array_mut().unwrap() {
            e["time_us_per_move"] = Json::Null;
        }
        v
    };
    let again: Json = serde_json::from_str(&ok(&args).stdout).unwrap();
    assert_eq!(strip(&again), strip(&m));
}

#[test]
fn match_errors_are_named() {
    let run = fails(&["match", "--game", "connect4", "--engines", "mtdf,bogus", "--depth", "2"]);
    assert_contains(&run.stderr, &["unknown algorithm `bogus`"]);
    let run = fails(&["match", "--game", "connect4", "--engines", "mtdf", "--depth", "2"]);
    assert_contains(&run.stderr, &["--engines takes exactly two algorithms"]);
    let run = fails(&["match", "--game", "connect4", "--engines", "mtdf,sss", "--depth", "2"]);
    assert_contains(&run.stderr, &["sss is best-first"]);
    let run = fails(&[
        "match",
        "--game",
        "connect4",
        "--engines",
        "mtdf,alphabeta",
        "--depth",
        "2",
        "--games",
        "0",
    ]);
    assert_contains(&run.stderr, &["--games 0", "positive even number"]);
    let run = fails(&[
        "match",
        "--game",
        "connect4",
        "--engines",
        "mtdf,alphabeta",
        "--depth",
        "2",
        "--games",
        "3",
    ]);
    assert_contains(&run.stderr, &["--games 3"]);
    let f = TempFile::new("openings.txt", "# two openings\n44\n\n4x4\n");
    let run = fails(&[
        "match",
        "--game",
        "connect4",
        "--engines",
        "mtdf,alphabeta",
        "--depth",
        "2",
        "--openings",
        f.arg(),
    ]);
    assert_contains(&run.stderr, &[&format!("{}:4: opening `4x4`: move 2 ('x')", f.arg())]);
    let run = fails(&[
        "match",
        "--game",
        "connect4",
        "--engines",
        "mtdf,alphabeta",
        "--depth",
        "2",
        "--openings",
        "/no/such/file",
    ]);
    assert_contains(&run.stderr, &["cannot read openings file /no/such/file"]);
    // A good openings file is played, pair by pair.
    let f = TempFile::new("openings.txt", "44\n35\n");
    let m: Json = serde_json::from_str(
        &ok(&[
            "match",
            "--game",
            "connect4",
            "--engines",
            "mtdf,alphabeta",
            "--depth",
            "3",
            "--games",
            "4",
            "--openings",
            f.arg(),
            "--format",
            "json",
        ])
        .stdout,
    )
    .unwrap();
    assert_eq!(m["openings"], serde_json::json!(["44", "35"]));
}

/// A deepened search that a node limit stops answers with its last
/// completed depth (anytime), but a grid row is one depth: the row says the
/// search stopped and holds no value (it once held the shallower depth's
/// value, which the grid's value check then reported as a disagreement).
#[test]
fn a_grid_row_stopped_by_a_limit_holds_no_value_of_a_shallower_depth() {
    let set = TempFile::new("c4-limit.txt", "274552224131661 0\n");
    let out = TempFile::empty_path("c4-limit-grid");
    ok(&[
        "experiment",
        "--game",
        "connect4",
        "--positions",
        set.arg(),
        "--depths",
        "12",
        "--algo",
        "negascout,mt-sss",
        "--iterative",
        "--max-nodes",
        "2000",
        "--out",
        out.arg(),
    ]);
    let rows = stockman_lab::games::read_csv(&out.path().join("results.csv")).unwrap();
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_eq!(r.value, None, "{r:?}");
        assert_eq!(r.stats.nodes, 2000, "{r:?}");
        let error = r.error.as_deref().unwrap_or_default();
        assert!(
            error.starts_with("stopped by --max-nodes 2000 after visiting 2000 positions in depth "),
            "{r:?}"
        );
        assert!(error.contains(" completed)"), "{r:?}");
    }
}

/// The game grid of the experiments: one row per position, depth and
/// algorithm in results.csv, all agreeing on the value.
#[test]
fn experiment_on_connect_four_positions_writes_one_row_per_search() {
    let set = TempFile::new("c4.txt", "274552224131661 0\n5455174361263362 -1\n2531276566711153 2\n");
    let out = TempFile::empty_path("c4-grid");
    let run = ok(&[
        "experiment",
        "--game",
        "connect4",
        "--positions",
        set.arg(),
        "--depths",
        "2..6",
        "--algo",
        "negascout,mtdf,mt-sss,bns",
        "--out",
        out.arg(),
    ]);
    assert_contains(
        &run.stdout,
        &["| 6 | mt-sss | 3 |", "leaves / NegaScout", "time / NegaScout"],
    );
    let csv = std::fs::read_to_string(out.path().join("results.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (algo, value, low, high) = (col("algorithm"), col("value"), col("bound_low"), col("bound_high"));
    assert_eq!(col("tt_mb"), 4);
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 3 * 5 * 4);
    for chunk in rows.chunks(4) {
        let values: Vec<&str> = chunk
            .iter()
            .filter(|r| !r[value].is_empty())
            .map(|r| r[value])
            .collect();
        assert_eq!(values.len(), 3, "{chunk:?}");
        assert!(values.iter().all(|v| *v == values[0]), "{chunk:?}");
        let bns = chunk.iter().find(|r| r[algo] == "bns").unwrap();
        let v: i64 = values[0].parse().unwrap();
        assert!(
            bns[low].parse::<i64>().unwrap() <= v && v < bns[high].parse::<i64>().unwrap(),
            "{bns:?}"
        );
        assert!(chunk.iter().all(|r| r[col("tt_mb")] == "64"), "{chunk:?}");
    }
    // (No time plot: these searches take microseconds, below the summary's floor.)
    for plot in ["leaves-vs-negascout.svg", "nodes-vs-negascout.svg"] {
        let svg = std::fs::read_to_string(out.path().join(plot)).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("mt-sss"), "{plot}");
    }
    // A second run refuses to overwrite without --force.
    let again = fails(&[
        "experiment",
        "--game",
        "connect4",
        "--positions",
        set.arg(),
        "--depths",
        "2",
        "--out",
        out.arg(),
    ]);
    assert_contains(&again.stderr, &["results.csv exists: pass --force"]);
    let bad = TempFile::new("bad.txt", "44 1\n4x4 2\n");
    let run = fails(&[
        "experiment",
        "--game",
        "connect4",
        "--positions",
        bad.arg(),
        "--depths",
        "2",
        "--out",
        out.arg(),
        "--force",
    ]);
    assert_contains(&run.stderr, &[&format!("{}:2", bad.arg()), "position `4x4`"]);
    std::fs::remove_dir_all(out.path()).ok();
}

/// `--bns-guess` in a game grid: a row per guess (`bns+id` with Rutko's,
/// `bns-bisect+id` with the midpoint), each bound holding NegaScout's value,
/// the two differing somewhere; a guess it does not know is an error.
#[test]
fn experiment_on_a_game_runs_each_bns_guess() {
    let set = TempFile::new("c4-guess.txt", "4453\n274552224131661\n5455174361263362\n");
    let out = TempFile::empty_path("c4-guess-grid");
    ok(&[
        "experiment",
        "--game",
        "connect4",
        "--positions",
        set.arg(),
        "--depths",
        "3..7",
        "--algo",
        "negascout,bns",
        "--iterative",
        "--bns-guess",
        "rutko,bisect",
        "--tt-mb",
        "1",
        "--threads",
        "1",
        "--out",
        out.arg(),
    ]);
    let csv = std::fs::read_to_string(out.path().join("results.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 3 * 5 * 3);
    let mut differ = false;
    for chunk in rows.chunks(3) {
        let names: Vec<&str> = chunk.iter().map(|r| r[col("algorithm")]).collect();
        assert_eq!(names, ["negascout+id", "bns+id", "bns-bisect+id"], "{chunk:?}");
        let v: i64 = chunk[0][col("value")].parse().unwrap();
        for r in &chunk[1..] {
            let (lo, hi): (i64, i64) = (
                r[col("bound_low")].parse().unwrap(),
                r[col("bound_high")].parse().unwrap(),
            );
            assert!(lo <= v && v < hi, "{r:?} misses {v}");
        }
        differ |= chunk[1][col("leaf_evals")] != chunk[2][col("leaf_evals")];
    }
    assert!(differ, "the two guesses searched alike everywhere");
    let bad = fails(&[
        "experiment",
        "--game",
        "connect4",
        "--positions",
        set.arg(),
        "--bns-guess",
        "median",
        "--out",
        out.arg(),
        "--force",
    ]);
    assert_contains(&bad.stderr, &["--bns-guess: `median` is not a guess (rutko, bisect)"]);
    std::fs::remove_dir_all(out.path()).ok();
}

/// The rows of a game grid's results file with the clock's and the CPU
/// time's columns blanked: what two runs of the same grid must agree on.
fn counts_of(csv: &str) -> Vec<String> {
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let times: Vec<usize> = ["time_us", "cpu_us"]
        .iter()
        .map(|name| header.iter().position(|h| h == name).unwrap())
        .collect();
    csv.lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            for &t in &times {
                f[t] = "";
            }
            f.join(",")
        })
        .collect()
}

/// A table-size sweep with the minimal tree: one row per position, depth,
/// table size and table-using search, one per position and depth for SSS*
/// and the minimal tree; the summary says where the counts settle; shards
/// merged equal one run in every count.
#[test]
fn experiment_on_games_sweeps_tables_computes_minimal_trees_and_shards() {
    let set = TempFile::new("c4s.txt", "274552224131661\n5455174361263362\n2531276566711153\n");
    let out = TempFile::empty_path("c4-sweep");
    let args = |out: &str| -> Vec<String> {
        [
            "experiment",
            "--game",
            "connect4",
            "--positions",
            set.arg(),
            "--depths",
            "2..3",
            "--algo",
            "alphabeta,negascout,mtdf,mt-sss,bns,sss",
            "--iterative",
            "--tt-mb",
            "0.001,1",
            "--minimal",
            "--out",
            out,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let whole = args(out.arg());
    let run = ok(&whole.iter().map(String::as_str).collect::<Vec<_>>());
    assert_contains(
        &run.stdout,
        &[
            "## 0.001 MiB table (48 entries)",
            "## Table size",
            "## The minimal tree",
            "| mtdf+id |",
        ],
    );
    let csv = std::fs::read_to_string(out.path().join("results.csv")).unwrap();
    assert_eq!(csv.lines().count() - 1, 3 * 2 * (1 + 5 * 2 + 1));
    assert!(csv.contains(",minimal-tree,"), "{csv}");
    for f in [
        "leaves-vs-table-size.svg",
        "leaves-vs-minimal.svg",
        "summary.md",
        "command.txt",
    ] {
        assert!(out.path().join(f).exists(), "{f}");
    }
    // Shards, then merge.
    let shards = TempFile::empty_path("c4-shards");
    for k in ["1/2", "2/2"] {
        let mut a = args(shards.arg());
        a.extend(["--shard".to_string(), k.to_string()]);
        let run = ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
        assert_contains(&run.stdout, &["stockman experiment merge"]);
    }
    assert!(!shards.path().join("summary.md").exists(), "a shard writes no summary");
    let merged = TempFile::empty_path("c4-merged");
    let run = ok(&["experiment", "merge", "--out", merged.arg(), shards.arg()]);
    assert_contains(&run.stdout, &["## Table size"]);
    let m = std::fs::read_to_string(merged.path().join("results.csv")).unwrap();
    assert_eq!(counts_of(&m), counts_of(&csv));
    assert!(merged.path().join("leaves-vs-table-size.svg").exists());
    // Only the first shard: the summary says a shard is missing.
    let half = TempFile::empty_path("c4-half");
    let run = ok(&[
        "experiment",
        "merge",
        "--out",
        half.arg(),
        shards.path().join("results-1-of-2.csv").to_str().unwrap(),
    ]);
    assert_contains(&run.stdout, &["job numbers are missing"]);
    // The depths run apart, then joined: the same searches as the whole run.
    let (d2, d3, joined) = (
        TempFile::empty_path("c4-d2"),
        TempFile::empty_path("c4-d3"),
        TempFile::empty_path("c4-joined"),
    );
    for (dir, depth) in [(&d2, "2"), (&d3, "3")] {
        let mut a = args(dir.arg());
        let i = a.iter().position(|x| x == "2..3").unwrap();
        a[i] = depth.to_string();
        ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    }
    let (f2, f3) = (d2.path().join("results.csv"), d3.path().join("results.csv"));
    let (f2, f3) = (f2.to_str().unwrap(), f3.to_str().unwrap());
    // As shards they are refused: each run numbers its jobs from 0.
    let run = fails(&["experiment", "merge", "--out", joined.arg(), f2, f3]);
    assert_contains(&run.stderr, &["the files come from different grids"]);
    // A run's folder stands for its results.csv.
    ok(&["experiment", "merge", "--join", "--out", joined.arg(), d2.arg(), f3]);
    let j = std::fs::read_to_string(joined.path().join("results.csv")).unwrap();
    let searches = |csv: &str| -> Vec<String> {
        let mut v: Vec<String> = counts_of(csv)
            .into_iter()
            .skip(1)
            .map(|l| l.split_once(',').unwrap().1.to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(searches(&j), searches(&csv));
    assert!(j
        .lines()
        .skip(1)
        .enumerate()
        .all(|(i, l)| l.starts_with(&format!("{i},"))));
    // A search given twice is refused, naming it and both files.
    let copy = d3.path().join("copy.csv");
    std::fs::copy(f2, &copy).unwrap();
    let run = fails(&[
        "experiment",
        "merge",
        "--join",
        "--out",
        joined.arg(),
        f2,
        copy.to_str().unwrap(),
    ]);
    let twice = format!(
        "{}: minimal-tree at position 274552224131661 depth 2 is already in {f2}",
        copy.display()
    );
    assert_contains(&run.stderr, &[twice.as_str()]);
    // The same file named twice, and a folder of shards, are not runs to join.
    let run = fails(&["experiment", "merge", "--join", "--out", joined.arg(), f2, d2.arg()]);
    assert_contains(&run.stderr, &["results.csv: named twice"]);
    let run = fails(&["experiment", "merge", "--join", "--out", joined.arg(), shards.arg()]);
    assert_contains(
        &run.stderr,
        &["no results.csv in it (a folder of shards is merged first, without --join)"],
    );
    for d in [
        out.path(),
        shards.path(),
        merged.path(),
        half.path(),
        d2.path(),
        d3.path(),
        joined.path(),
    ] {
        std::fs::remove_dir_all(d).ok();
    }
    // Bad sizes are refused.
    let run = fails(&[
        "experiment",
        "--game",
        "connect4",
        "--positions",
        set.arg(),
        "--tt-mb",
        "1,zero",
    ]);
    assert_contains(&run.stderr, &["--tt-mb: `zero`"]);
}

// ---------------------------------------------------------------- chess

/// Whether `m` is a move in UCI notation (`e2e4`, `e7e8q`).
fn is_uci(m: &str) -> bool {
    let b = m.as_bytes();
    let sq = |i: usize| (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1]);
    (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4]))) && sq(0) && sq(2)
}

/// A chess position searched by every algorithm: one value (BNS: a bound
/// holding it), best moves as UCI strings, legal in the position.
#[test]
fn chess_solve_names_best_moves_in_uci() {
    let rows = solve_json(&[
        "--game",
        "chess",
        "--position",
        "startpos moves e2e4",
        "--depth",
        "2",
        "--algo",
        "all",
    ]);
    for algo in ALGOS {
        row(&rows, algo);
    }
    let value = row(&rows, "alphabeta")["value"].as_i64().expect("a value");
    for r in &rows {
        let best = r["best_move"].as_str().unwrap_or_else(|| panic!("a UCI string: {r}"));
        assert!(is_uci(best), "{r}");
        // Black's moves: from its own half of the board.
        assert!(matches!(&best[1..2], "7" | "8"), "{r}");
        if r["algorithm"] != "bns" {
            assert_eq!(r["value"].as_i64(), Some(value), "{r}");
        }
    }
    // The text table shows the move without JSON quotes.
    let run = ok(&[
        "solve",
        "--game",
        "chess",
        "--depth",
        "1",
        "--algo",
        "alphabeta",
        "--position",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    ]);
    assert_contains(&run.stdout, &["99999", " d1d8 "]);
}

#[test]
fn chess_errors_exit_2_with_the_problem_named() {
    let run = fails(&[
        "solve",
        "--game",
        "chess",
        "--depth",
        "2",
        "--position",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    ]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_contains(
        &run.stderr,
        &["FEN field 2 (side to move) `x`: expected `w` (White to move) or `b` (Black to move)"],
    );
    let run = fails(&[
        "solve",
        "--game",
        "chess",
        "--depth",
        "2",
        "--position",
        "8/8/8/8/8/8/8/8 w - - 0 1",
    ]);
    assert_eq!(run.code, Some(2));
    assert_contains(&run.stderr, &["FEN field 1 (piece placement)", "White has 0 kings"]);
    let run = fails(&[
        "solve",
        "--game",
        "chess",
        "--depth",
        "2",
        "--position",
        "startpos moves e2e4 e7e5 e4e5",
    ]);
    assert_eq!(run.code, Some(2));
    assert_contains(&run.stderr, &["move 3 `e4e5`: the pawn on e4 cannot move to e5"]);
    // Without a depth a chess search would never end: refused.
    let run = fails(&["solve", "--game", "chess"]);
    assert_eq!(run.code, Some(2));
    assert_contains(&run.stderr, &["--game chess needs --depth N"]);
}

/// A batch's JSON output: its position lines, then its summary lines
/// (`{"summary": {...}}`, one per algorithm, after every position line).
fn batch_json(stdout: &str) -> (Vec<Json>, Vec<Json>) {
    let all: Vec<Json> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}")))
        .collect();
    let first = all.iter().position(|l| l.get("summary").is_some()).unwrap_or(all.len());
    let (lines, summaries) = all.split_at(first);
    assert!(summaries.iter().all(|l| l.get("summary").is_some()), "{stdout}");
    (lines.to_vec(), summaries.to_vec())
}

/// A Connect Four batch reports, per algorithm, the mean, median and 99th
/// percentile time per position beside the positions visited: in the text
/// table and in the JSON summary lines. (Only that the figures are there:
/// their values are the clock's.)
#[test]
fn a_batch_summary_has_mean_median_and_p99_times() {
    let set = TempFile::new(
        "c4.txt",
        "2252576253462244111563365343671351441 -1\n\
         7422341735647741166133573473242566 1\n\
         23163416124767223154467471272416755633 0\n",
    );
    let args = [
        "solve",
        "--game",
        "connect4",
        "--algo",
        "mtd-bi,mtdf",
        "--positions",
        set.arg(),
    ];
    let run = ok(&args);
    assert_contains(
        &run.stdout,
        &["mean time", "median time", "p99 time", "mean visited", "positions/s"],
    );
    let mut json = args.to_vec();
    json.extend_from_slice(&["--format", "json"]);
    let run = ok(&json);
    let (lines, summaries) = batch_json(&run.stdout);
    assert_eq!(lines.len(), 6);
    assert_eq!(summaries.len(), 2);
    for (s, algo) in summaries.iter().zip(["mtd-bi", "mtdf"]) {
        let s = &s["summary"];
        assert_eq!(s["algorithm"], algo);
        assert_eq!(s["positions"], 3);
        assert_eq!(s["wrong"], 0);
        assert_eq!(s["failed"], 0);
        for field in ["mean_time_us", "median_time_us", "p99_time_us", "positions_per_s"] {
            assert!(s[field].is_number(), "{field} missing: {s}");
        }
        // The nodes are exact: the summary's total is the lines' sum.
        let nodes: u64 = lines
            .iter()
            .filter(|l| l["algorithm"] == algo)
            .map(|l| l["stats"]["nodes"].as_u64().unwrap())
            .sum();
        assert_eq!(s["stats"]["nodes"], nodes);
        assert_eq!(s["mean_nodes"].as_f64().unwrap(), nodes as f64 / 3.0);
    }
}

/// An EPD file is a chess test set: one position a line, operations ignored.
#[test]
fn chess_positions_files_hold_fen_and_epd_lines() {
    let set = TempFile::new(
        "bk.epd",
        "# two Bratko-Kopec positions and a FEN\n\
         1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";\n\
         2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - bm g6; id \"BK.06\";\n\
         6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\n",
    );
    let run = ok(&[
        "solve",
        "--game",
        "chess",
        "--depth",
        "2",
        "--algo",
        "mtdf,sss",
        "--positions",
        set.arg(),
        "--format",
        "json",
    ]);
    let (lines, summaries) = batch_json(&run.stdout);
    assert_eq!(lines.len(), 6);
    assert_eq!(summaries.len(), 2);
    assert!(
        lines.iter().all(|l| l["best_move"].as_str().is_some_and(is_uci)),
        "{lines:?}"
    );
    assert_eq!(lines[4]["value"], 99_999);
    let bad = TempFile::new("bad.epd", "startpos\n4k3/8/8/8/8/8/8/4K3 w - - c0 \"unterminated\n");
    let run = fails(&["solve", "--game", "chess", "--depth", "1", "--positions", bad.arg()]);
    assert_contains(
        &run.stderr,
        &[":2:", "EPD operation `c0` has an unterminated quoted operand"],
    );
}

#[test]
fn chess_can_be_played_and_matched() {
    let run = stockman_fed(&["play", "--game", "chess", "--depth", "2"], Some("e2e5\ne2e4\nquit\n"));
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_contains(
        &run.stdout,
        &[
            "You play White; stockman plays Black with mtdf.",
            "8  r n b q k b n r",
            "FEN rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "Illegal move `e2e5`: the pawn on e2 cannot move to e5",
            "stockman (Black) plays ",
            "You left the game.",
        ],
    );
    let run = ok(&[
        "match",
        "--game",
        "chess",
        "--engines",
        "mtdf,negascout",
        "--depth",
        "2",
        "--games",
        "2",
        "--format",
        "json",
    ]);
    let m: Json = serde_json::from_str(&run.stdout).expect("one JSON object");
    assert_eq!(m["game"], "chess");
    let openings = m["openings"].as_array().unwrap();
    assert!(openings[0].as_str().unwrap().split(' ').all(is_uci), "{m}");
}

/// The FFO suite's #40 after 11 moves of best play: Black to move wins by
/// 38 with f7 or a8, nine empty squares left.
const OTHELLO_9: &str = "OOXXXXXXXOXXXXXXOOXOXOXXOOXXOXXXOOXOXOXX-OOOOOOXXOOOX--X-X---X-- X";

#[test]
fn othello_solves_an_ffo_board_exactly() {
    let rows = solve_json(&["--game", "othello", "--position", OTHELLO_9, "--algo", "all"]);
    for algo in ALGOS {
        let r = row(&rows, algo);
        if algo != "bns" {
            assert_eq!(r["value"], 38, "{r}");
        }
        let best = r["best_move"].as_str().unwrap_or_else(|| panic!("a square: {r}"));
        assert!(["f7", "a8"].contains(&best), "{r}");
    }
    let bns = row(&rows, "bns");
    let [lo, hi] = [&bns["bound"][0], &bns["bound"][1]].map(|v| v.as_i64().unwrap());
    assert!(lo <= 38 && 38 < hi, "{bns}");
    // A move list from the start: White to move after f5 d6 c3, a fixed-depth search.
    let rows = solve_json(&[
        "--game",
        "othello",
        "--position",
        "F5 d6 C3",
        "--depth",
        "3",
        "--algo",
        "alphabeta,mtdf",
    ]);
    assert_eq!(row(&rows, "alphabeta")["value"], row(&rows, "mtdf")["value"]);
    assert!(row(&rows, "mtdf")["best_move"].as_str().is_some());
}

#[test]
fn othello_defaults_to_mtdf_with_cut_offs_from_12_empty_squares() {
    let rows = solve_json(&["--game", "othello", "--position", OTHELLO_9]);
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    assert_eq!(
        (r["algorithm"].as_str(), r["value"].as_i64()),
        (Some("mtdf"), Some(38)),
        "{r}"
    );
    // The same search as asking for it by name.
    let named = solve_json(&[
        "--game",
        "othello",
        "--position",
        OTHELLO_9,
        "--algo",
        "mtdf",
        "--etc",
        "--etc-min-depth",
        "12",
    ]);
    assert_eq!(named[0]["stats"]["nodes"], r["stats"]["nodes"]);
}

#[test]
fn othello_positions_files_check_values_and_best_moves() {
    // The FFO notation: every move with its score, best first. The second
    // line claims a wrong value; the third a wrong value with a best move.
    let set = TempFile::new(
        "ffo.obf",
        format!(
            "{OTHELLO_9}; F7:+38; A8:+38; C8:+36; G7:+30; D8:+20; A6:-8;\n\
             {OTHELLO_9}; F7:+40; A8:+38;\n\
             {OTHELLO_9}; C8:+39; F7:+38; A8:+38;\n"
        ),
    );
    let run = stockman(&[
        "solve",
        "--game",
        "othello",
        "--positions",
        set.arg(),
        "--algo",
        "mtdf,negascout",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, Some(1), "a wrong line fails the batch: {run:?}");
    let (lines, summaries) = batch_json(&run.stdout);
    assert_eq!(lines.len(), 6);
    assert_eq!(summaries.len(), 2);
    assert_eq!(summaries[0]["summary"]["wrong"], 2);
    assert_eq!(summaries[0]["summary"]["bad_moves"], 1);
    assert_eq!(lines[0]["expected"], 38);
    assert_eq!(lines[0]["best_move_score"], 38);
    assert_eq!(lines[2]["expected"], 40);
    assert_eq!(lines[4]["expected"], 39);
    let run = stockman(&["solve", "--game", "othello", "--positions", set.arg(), "--algo", "mtdf"]);
    assert_eq!(run.code, Some(1));
    // Wrong values: the second and third lines (their first scores, 40 and
    // 39, are not the value); bad moves: the third (f7 or a8 is listed at 38).
    assert!(
        run.stdout
            .lines()
            .any(|l| l.split_whitespace().take(4).collect::<Vec<_>>() == ["mtdf", "3", "2", "1"]),
        "{}",
        run.stdout
    );
    // A malformed score names its line and column.
    let bad = TempFile::new("bad.obf", format!("{OTHELLO_9}; F7:+38;\n{OTHELLO_9}; F7:+3x;\n"));
    let run = fails(&["solve", "--game", "othello", "--positions", bad.arg()]);
    assert_contains(
        &run.stderr,
        &[&format!("{}:2:69: the score of `F7:+3x` is not an integer", bad.arg())],
    );
}

#[test]
fn othello_errors_name_the_problem() {
    let board = "-".repeat(64);
    for (position, message) in [
        ("f5d6z9".to_string(), "move 3 (`z9`, column 5): not a square (a1 to h8)"),
        (
            "f5f5".to_string(),
            "move 2 (`f5`, column 3): not a legal move for White (legal: f4 d6 f6)",
        ),
        (
            format!("{board} Q"),
            "side to move `Q` (column 66): expected X (black) or O (white)",
        ),
        (format!("{}Z{} X", &board[..3], &board[4..]), "board square 4 is 'Z'"),
        (board[..60].to_string(), "the board has 60 squares, not 64"),
    ] {
        let run = fails(&["solve", "--game", "othello", "--position", &position]);
        assert_eq!(run.code, Some(2), "{run:?}");
        assert_contains(&run.stderr, &[message]);
    }
}

#[test]
fn othello_can_be_played() {
    let run = stockman_fed(&["play", "--game", "othello", "--depth", "2"], Some("z9\nd3\nquit\n"));
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_contains(
        &run.stdout,
        &[
            "You play Black (X); stockman plays White (O) with mtdf.",
            "  a b c d e f g h",
            "4 - - - O X - - -",
            "X (Black) to move; X 2, O 2",
            "Your move (Black (X); legal: d3 c4 f5 e6): z9",
            "Illegal move `z9`: `z9` is not a move: type a square a1 to h8 (or pass)",
            "O (White) to move; X 4, O 1",
            "stockman (White (O)) plays ",
            "You left the game.",
        ],
    );
}

/// `experiment --search-threads`: threads inside each search, beside the
/// grid's worker threads. The random-tree grid records it in grid.toml and
/// its searches keep their one-thread values; a game grid names the rows
/// that ran on several threads and they agree with the one-thread rows.
#[test]
fn experiment_search_threads_run_each_search_on_several_threads() {
    let read_rows = |path: std::path::PathBuf| -> (Vec<String>, Vec<Vec<String>>) {
        let csv = std::fs::read_to_string(path).unwrap();
        let mut lines = csv.lines();
        let header = lines.next().unwrap().split(',').map(String::from).collect();
        (
            header,
            lines.map(|l| l.split(',').map(String::from).collect()).collect(),
        )
    };
    let one = TempFile::empty_path("grid-1");
    let two = TempFile::empty_path("grid-2");
    for (out, threads) in [(&one, "1"), (&two, "2")] {
        ok(&[
            "experiment",
            "--preset",
            "quick",
            "--threads",
            "1",
            "--search-threads",
            threads,
            "--out",
            out.arg(),
        ]);
    }
    let toml = std::fs::read_to_string(two.path().join("grid.toml")).unwrap();
    assert_contains(&toml, &["search_threads = 2", "parallel = \"abdada\""]);
    let (header, a) = read_rows(one.path().join("results.csv"));
    let (_, b) = read_rows(two.path().join("results.csv"));
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x[col("algorithm")], y[col("algorithm")]);
        assert_eq!(x[col("value")], y[col("value")], "{x:?} {y:?}");
        assert_eq!(y[col("error")], "", "{y:?}");
    }
    // Parallel SSS* is deterministic: its leaves differ from SSS*'s only by speculation.
    let sss = b.iter().find(|r| r[col("algorithm")] == "sss").unwrap();
    assert!(sss[col("leaf_evals")].parse::<u64>().unwrap() > 0);

    let set = TempFile::new("c4-threads.txt", "274552224131661 0\n5455174361263362 -1\n");
    // The grid of `algos` on 2 search threads shared `how`: its header and rows.
    let grid = |algos: &str, how: &str| {
        let out = TempFile::empty_path(&format!("c4-grid-{how}"));
        ok(&[
            "experiment",
            "--game",
            "connect4",
            "--positions",
            set.arg(),
            "--depths",
            "4",
            "--algo",
            algos,
            "--search-threads",
            "2",
            "--parallel",
            how,
            "--out",
            out.arg(),
        ]);
        read_rows(out.path().join("results.csv"))
    };
    let (header, rows) = grid("negascout,mtdf,sss,recsss", "lazy-smp");
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r[col("algorithm")].as_str()).collect();
    assert_eq!(
        &names[..4],
        ["negascout/lazy-smp-2", "mtdf/lazy-smp-2", "sss", "recsss"],
        "SSS* runs in rounds only when asked for them, RecSSS* has no parallel form: both keep their names"
    );
    let (h, rounds) = grid("sss,mtdf", "rounds");
    let c = |name: &str| h.iter().position(|x| x == name).unwrap();
    let names: Vec<&str> = rounds.iter().map(|r| r[c("algorithm")].as_str()).collect();
    assert_eq!(
        &names[..2],
        ["sss/rounds-2", "mtdf/rounds-2"],
        "asked for, SSS* runs in rounds"
    );
    for pair in rounds.chunks(2) {
        assert_eq!(pair[0][c("value")], pair[1][c("value")], "{pair:?}");
    }
    for chunk in rows.chunks(4) {
        assert!(
            chunk.iter().all(|r| r[col("value")] == chunk[0][col("value")]),
            "{chunk:?}"
        );
    }
    let out = TempFile::empty_path("c4-grid-bad");
    for bad in ["0", "-3", "100000"] {
        let e = fails(&[
            "experiment",
            "--preset",
            "quick",
            "--search-threads",
            bad,
            "--out",
            out.arg(),
        ]);
        assert_contains(&e.stderr, &["--search-threads"]);
    }
}

/// The issue's checks: a Connect Four and an Othello FFO positions file
/// solved exactly on 2 threads (every row right, best moves listed at the
/// best score), and every algorithm on a random tree on 2 threads with its
/// one-thread value, none an error.
#[test]
fn positions_files_and_every_algorithm_on_two_threads() {
    let ffo: String = include_str!("../../stockman/tests/data/othello/fforum-40-59.obf")
        .lines()
        .take(2)
        .map(|l| format!("{l}\n"))
        .collect();
    let c4: String = include_str!("../../stockman/tests/data/connect4/Test_L2_R1")
        .lines()
        .take(20)
        .map(|l| format!("{l}\n"))
        .collect();
    for (game, text, algos, n) in [
        ("othello", ffo, "mtdf,negascout", 2),
        ("connect4", c4, "mtd-bi,alphabeta,negascout", 20),
    ] {
        let set = TempFile::new(&format!("{game}-threads.txt"), text);
        for how in ["abdada", "lazy-smp"] {
            let run = ok(&[
                "solve",
                "--game",
                game,
                "--positions",
                set.arg(),
                "--algo",
                algos,
                "--threads",
                "2",
                "--parallel",
                how,
                "--format",
                "json",
            ]);
            let (lines, summaries) = batch_json(&run.stdout);
            assert_eq!(lines.len(), n * algos.split(',').count(), "{game} {how}");
            for s in &summaries {
                assert_eq!(s["summary"]["wrong"], 0, "{game} {how}: {s}");
                assert_eq!(s["summary"]["bad_moves"], 0, "{game} {how}: {s}");
            }
            for l in &lines {
                assert_eq!(l["value"], l["expected"], "{game} {how}: {l}");
            }
        }
    }
    let tree = [
        "--random",
        "width=5,depth=6,seed=11",
        "--algo",
        "all",
        "--format",
        "json",
    ];
    let one: Json = serde_json::from_str(&ok(&[&["solve"][..], &tree[..]].concat()).stdout).unwrap();
    let two = ok(&[&["solve"][..], &tree[..], &["--threads", "2"][..]].concat());
    assert_contains(
        &two.stderr,
        &["note: minimax, recsss, recdual, sss2, gsearch, rsearch have no parallel form here"],
    );
    let two: Json = serde_json::from_str(&two.stdout).unwrap();
    let (one, two) = (one.as_array().unwrap(), two.as_array().unwrap());
    assert_eq!(one.len(), two.len());
    let value = one.iter().find(|r| r["algorithm"] == "alphabeta").unwrap()["value"]
        .as_i64()
        .unwrap();
    for (a, b) in one.iter().zip(two) {
        assert!(b.get("error").is_none_or(|e| e.is_null()), "{b}");
        assert_eq!(a["algorithm"], b["algorithm"]);
        if b["value"].is_null() {
            // BNS: a bound that holds the value (the threads may prove another one).
            let (lo, hi) = (b["bound"][0].as_i64().unwrap(), b["bound"][1].as_i64().unwrap());
            assert!(lo <= value && value < hi, "{b}");
        } else {
            assert_eq!(b["value"].as_i64(), Some(value), "{b}");
        }
    }
}

/// A positions file without a position is an error (exit 2), not a table of zeros.
#[test]
fn an_empty_positions_file_is_refused() {
    for contents in ["", "# only a comment\n\n   \n"] {
        let empty = TempFile::new("empty-positions.txt", contents);
        for format in ["text", "json"] {
            let run = fails(&[
                "solve",
                "--game",
                "connect4",
                "--positions",
                empty.arg(),
                "--format",
                format,
            ]);
            assert_eq!(run.code, Some(2), "{run:?}");
            assert_contains(
                &run.stderr,
                &[&format!("{}: the positions file holds no positions", empty.arg())],
            );
            assert!(run.stdout.is_empty(), "{}", run.stdout);
        }
    }
}

// ------------------------------------------------------------------ perft

/// `perft --format json` for `args`, parsed.
fn perft_json(args: &[&str]) -> Json {
    let mut all = vec!["perft"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    serde_json::from_str(&ok(&all).stdout).expect("perft JSON")
}

fn per_depth(j: &Json) -> Vec<u64> {
    j["per_depth"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect()
}

/// Checkers from the start, 1 to 9 plies: Aart Bik, "perft for 8x8
/// checkers", TalkChess forum, 8 May 2009 (OEIS A133046, which counts
/// duplicate capture routes apart, as stockman does).
#[test]
fn perft_checkers_matches_the_published_counts() {
    let j = perft_json(&["--game", "checkers", "--depth", "9", "--divide"]);
    assert_eq!(
        per_depth(&j),
        [7, 49, 302, 1469, 7361, 36768, 179_740, 845_931, 3_963_680]
    );
    assert_eq!(
        (j["game"].as_str(), j["position"].as_str(), j["depth"].as_u64()),
        (Some("checkers"), Some(""), Some(9))
    );
    assert_eq!(j["nodes"].as_u64(), Some(3_963_680));
    let divide = j["divide"].as_array().unwrap();
    let moves: Vec<&str> = divide.iter().map(|d| d["move"].as_str().unwrap()).collect();
    assert_eq!(moves, ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]);
    assert_eq!(
        divide.iter().map(|d| d["nodes"].as_u64().unwrap()).sum::<u64>(),
        3_963_680
    );
    // Text: one line per depth, then the total.
    let text = ok(&["perft", "--game", "checkers", "--depth", "3"]).stdout;
    assert_contains(
        &text,
        &["perft checkers from the start", "depth  3             302", "nodes 302"],
    );
    // A FEN with a multi-jump: one move, then White's replies.
    let j = perft_json(&[
        "--game",
        "checkers",
        "--position",
        "B:W14,22,30:B10",
        "--depth",
        "2",
        "--divide",
    ]);
    assert_eq!(j["divide"][0]["move"].as_str(), Some("10x17x26"));
    assert_eq!(per_depth(&j)[0], 1);
}

/// Othello from the start, passes counted as moves: Aart Bik, "Perft for
/// Reversi", 20 February 2009 (aartbik.blogspot.com/2009/02/perft-for-reversi.html);
/// the first passes occur at depth 9.
#[test]
fn perft_othello_matches_the_published_counts() {
    let j = perft_json(&["--game", "othello", "--depth", "9"]);
    assert_eq!(per_depth(&j), [4, 12, 56, 244, 1396, 8200, 55_092, 390_216, 3_005_288]);
}

/// Chess: the start position and "Kiwipete" (chessprogramming wiki,
/// "Perft Results"); tic-tac-toe: of the 255,168 games, 127,872 last nine
/// moves (Henry Bottomley's count, widely quoted); Connect Four: no game
/// ends before ply 7, so 7^d sequences up to depth 6, and 7^7 - 7 at depth
/// 7 (the seven sequences that put a seventh disc in one column are
/// illegal).
#[test]
fn perft_chess_and_the_small_games_match_the_known_counts() {
    let j = perft_json(&["--game", "chess", "--depth", "5"]);
    assert_eq!(per_depth(&j), [20, 400, 8902, 197_281, 4_865_609]);
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let j = perft_json(&["--game", "chess", "--position", kiwipete, "--depth", "3"]);
    assert_eq!(per_depth(&j), [48, 2039, 97_862]);
    assert_eq!(j["position"].as_str(), Some(kiwipete));
    let j = perft_json(&["--game", "tictactoe", "--depth", "9"]);
    assert_eq!(per_depth(&j)[8], 127_872);
    let j = perft_json(&["--game", "connect4", "--depth", "7"]);
    assert_eq!(per_depth(&j), [7, 49, 343, 2401, 16_807, 117_649, 823_536]);
}

#[test]
fn perft_refuses_bad_input_with_exit_2() {
    let cases: [(&[&str], &str); 7] = [
        (
            &["--game", "chess", "--depth", "0"],
            "the perft depth must be 1 to 30, not 0",
        ),
        (
            &["--game", "checkers", "--depth", "31"],
            "the perft depth must be 1 to 30, not 31",
        ),
        (
            &["--game", "checkers", "--position", "11-15 9-13", "--depth", "2"],
            "move 2 (`9-13`, column 7): not a legal move for White",
        ),
        (
            &["--game", "checkers", "--position", "11-15 22-18 9-13", "--depth", "2"],
            "Black must capture: captures are compulsory (legal: 15x22)",
        ),
        (
            &["--game", "checkers", "--position", "W:W21,K33:B1", "--depth", "1"],
            "FEN `K33` (column 7): square 33 is not on the board",
        ),
        (
            &["--game", "othello", "--position", "f5z9", "--depth", "1"],
            "not a square",
        ),
        (&["--game", "go", "--depth", "1"], "invalid value 'go'"),
    ];
    for (args, message) in cases {
        let mut all = vec!["perft"];
        all.extend_from_slice(args);
        let run = fails(&all);
        assert_eq!(run.code, Some(2), "{args:?}: {run:?}");
        assert_contains(&run.stderr, &[message]);
    }
    let run = fails(&["perft", "--game", "chess", "--depth", "x"]);
    assert_eq!(run.code, Some(2));
}

// ------------------------------------------------ stochastic trees (issue 50)

#[test]
fn bernoulli_trees_are_searched_by_the_stochastic_searches() {
    let rows = solve_json(&["--random", "width=3,depth=2,seed=1,model=bernoulli", "--epsilon", "0.1"]);
    let names: Vec<&str> = rows.iter().map(|r| r["algorithm"].as_str().unwrap()).collect();
    assert_eq!(names, ["lucb-mcts", "ugape-mcts", "uniform", "bns-murphy"]);
    for r in &rows {
        assert_eq!(r["correct"], Json::Bool(true), "{r}");
        assert_eq!(r["runs"], 1);
        let leaves: u64 = r["leaf_samples"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .sum();
        assert_eq!(leaves as f64, r["samples"].as_f64().unwrap(), "{r}");
        for field in [
            "best_move",
            "value",
            "best_value",
            "wrong",
            "error_rate",
            "unsure",
            "rounds",
            "tests",
            "delta",
            "epsilon",
            "rate",
        ] {
            assert!(r.get(field).is_some(), "{field} in {r}");
        }
    }
    // The same seeds, the same samples.
    let again = solve_json(&["--random", "width=3,depth=2,seed=1,model=bernoulli", "--epsilon", "0.1"]);
    assert_eq!(rows, again);
    // Many runs: an error rate and sample statistics.
    let many = solve_json(&[
        "--random",
        "width=3,depth=2,seed=1,model=bernoulli",
        "--algo",
        "lucb-mcts,uniform",
        "--epsilon",
        "0.2",
        "--runs",
        "20",
    ]);
    for r in &many {
        assert_eq!(r["runs"], 20);
        assert_eq!(r["wrong"], 0);
        assert!(r["best_move"].is_null() && r["samples_min"].as_u64() <= r["samples_max"].as_u64());
    }
    assert!(many[0]["samples"].as_f64() < many[1]["samples"].as_f64());
    // Murphy's test answers a verdict.
    let test = solve_json(&[
        "--random",
        "width=4,depth=1,seed=2,model=bernoulli,root=min",
        "--threshold",
        "0.5",
    ]);
    assert_eq!(test[0]["algorithm"], "murphy");
    assert_eq!(test[0]["verdict"], "below");
}

#[test]
fn files_of_means_and_gen() {
    let out = ok(&["gen", "--random", "width=2,depth=2,seed=3,model=bernoulli"]);
    assert!(out.stdout.contains("[[0.969,0.858],[0.131,0.769]]"), "{}", out.stdout);
    let file = TempFile::new("means.tree", "# means\n[[0.969, 0.858],\n [0.131, 0.769]]\n");
    let rows = solve_json(&["--tree", file.arg(), "--algo", "bns-murphy,lucb-mcts"]);
    assert_eq!(rows[0]["best_move"], 0);
    assert_eq!(rows[0]["value"], 0.858);
    let bad = TempFile::new("bad.tree", "[[0.5, 0.25],\n [0.5, 1.5]]");
    let e = fails(&["solve", "--tree", bad.arg(), "--algo", "lucb-mcts"]);
    assert_contains(&e.stderr, &[":2:8: leaf `1.5` is not a probability"]);
    // A file of means given to a deterministic search says what it is.
    let e = fails(&["solve", "--tree", file.arg()]);
    assert_contains(&e.stderr, &["leaf `0.969` is not an integer", "lucb-mcts"]);
}

/// Issue 63 item 7: BNS with Murphy's tests ends at its defaults when a
/// threshold equals a move's value (0.5 here, the first threshold: it ran
/// past a minute), with the move LUCB-MCTS names; and on the MIN-root tree
/// whose move 1 is worth 0.5 it is right in every one of 20 runs (it was
/// wrong in all 20, each stopped by the budget).
#[test]
fn bns_murphy_ends_when_a_threshold_is_a_value() {
    let file = TempFile::new("d.tree", "[[0.5,0.7],[0.3,0.4]]\n");
    let text = ok(&["solve", "--tree", file.arg(), "--algo", "lucb-mcts,bns-murphy"]);
    assert!(
        !text.stdout.contains("no guarantee") && !text.stderr.contains("no guarantee"),
        "{text:?}"
    );
    let rows = solve_json(&["--tree", file.arg(), "--algo", "lucb-mcts,bns-murphy"]);
    for r in &rows {
        assert_eq!(
            (r["best_move"].clone(), r["correct"].clone()),
            (Json::from(0), Json::Bool(true)),
            "{r}"
        );
        assert_eq!(r["unsure"], 0, "{r}");
    }
    assert_eq!(row(&rows, "lucb-mcts")["samples_max"], 1752);
    assert_eq!(row(&rows, "bns-murphy")["samples_max"], 4986);
    let tree = TempFile::new("min.tree", "[0.4,[[0.7,0.2],0.5],[0.45,[0.9]],[[[0.3]]]]\n");
    let rows = solve_json(&[
        "--tree",
        tree.arg(),
        "--root",
        "min",
        "--algo",
        "lucb-mcts,bns-murphy",
        "--max-samples",
        "200000",
        "--runs",
        "20",
    ]);
    for r in &rows {
        assert_eq!(
            (r["wrong"].clone(), r["unsure"].clone()),
            (Json::from(0), Json::from(0)),
            "{r}"
        );
    }
    assert_eq!(row(&rows, "bns-murphy")["samples"], 643_172.0 / 20.0);
}

#[test]
fn stochastic_flags_and_names_are_checked() {
    for (args, message) in [
        (
            vec!["--random", "width=2,depth=2,model=bernoulli", "--algo", "sss"],
            "has random leaves",
        ),
        (
            vec!["--random", "width=2,depth=2,model=bernoulli", "--algo", "lucb-mcts,sss"],
            "mixes stochastic searches",
        ),
        (
            vec!["--random", "width=2,depth=2", "--algo", "sss", "--delta", "0.1"],
            "--delta applies to the stochastic",
        ),
        (
            vec!["--random", "width=2,depth=2,model=bernoulli", "--delta", "1.5"],
            "--delta: the error probability delta",
        ),
        (
            vec!["--random", "width=2,depth=2,model=bernoulli", "--epsilon", "-0.1"],
            "--epsilon: the tolerance",
        ),
        (
            vec!["--random", "width=2,depth=2,model=bernoulli", "--algo", "murphy"],
            "--threshold: murphy tests",
        ),
        (
            vec![
                "--random",
                "width=2,depth=2,model=bernoulli",
                "--algo",
                "uniform",
                "--threshold",
                "0.5",
            ],
            "takes no threshold",
        ),
        (
            vec!["--random", "width=2,depth=2,model=bernoulli", "--runs", "0"],
            "--runs: the number of runs",
        ),
        (
            vec!["--random", "width=2,depth=2,model=bernoulli,range=0..2000"],
            "must lie within 0..1000",
        ),
        (
            vec!["--random", "width=2,depth=2", "--runs", "2"],
            "add `model=bernoulli`",
        ),
        (vec!["--game", "connect4", "--algo", "lucb-mcts"], "not on --game"),
        (
            vec!["--random", "width=1,depth=0,model=bernoulli"],
            "--algo: the root is a leaf",
        ),
        (
            vec!["--random", "width=2,depth=2,model=bernoulli", "--max-samples", "0"],
            "--max-samples: the budget",
        ),
        (
            vec!["--random", "width=2,depth=2,model=bernoulli", "--rate", "fast"],
            "known: proven, heuristic",
        ),
        (
            vec!["--random", "width=2,depth=2,model=bernoulli", "--sampling", "greedy"],
            "known: murphy, thompson, lcb, uniform",
        ),
    ] {
        let mut all = vec!["solve"];
        all.extend(args.iter());
        let e = fails(&all);
        assert_contains(&e.stderr, &[message]);
    }
}

/// `trace` follows one stochastic search: its samples are `solve`'s (same
/// seed), the rounds and tests are told, and the JSON holds them as events.
#[test]
fn stochastic_searches_are_traced() {
    let spec = "width=3,depth=2,seed=1,model=bernoulli";
    let row = &solve_json(&["--random", spec, "--algo", "lucb-mcts", "--epsilon", "0.1"])[0];
    let run = ok(&[
        "trace",
        "--algo",
        "lucb-mcts",
        "--random",
        spec,
        "--epsilon",
        "0.1",
        "--format",
        "json",
    ]);
    let t: Json = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", run.stdout));
    assert_eq!(t["best_move"], row["best_move"]);
    assert_eq!(t["samples"].as_f64(), row["samples"].as_f64());
    assert_eq!(t["leaf_samples"], row["leaf_samples"]);
    let events = t["events"].as_array().unwrap();
    let samples = events.iter().filter(|e| e["event"] == "sample").count();
    assert_eq!(samples as f64, row["samples"].as_f64().unwrap());
    let rounds: Vec<&Json> = events.iter().filter(|e| e["event"] == "round").collect();
    assert_eq!(rounds.len() as u64, row["rounds"].as_u64().unwrap() + 1);
    assert_eq!(rounds.last().unwrap()["best"], row["best_move"]);
    assert_eq!(rounds[0]["arms"].as_array().unwrap().len(), 3);
    // Text: the samples under their rounds, and the answer.
    let text = ok(&["trace", "--algo", "lucb-mcts", "--random", spec, "--epsilon", "0.1"]).stdout;
    assert_contains(
        &text,
        &[
            "# lucb-mcts trace (delta 0.1, epsilon 0.1",
            "\n  sample 1.1 -> ",
            "\nround 1: candidate move ",
            &format!("best move {} (worth ", row["best_move"]),
            "stopped by its rule after ",
        ],
    );
    // BNS's tests and passes; murphy's one test of the root.
    let bns = ok(&["trace", "--algo", "bns-murphy", "--random", spec, "--epsilon", "0.1"]).stdout;
    assert_contains(
        &bns,
        &["test 1: is the value of node 1 above ", "\npass 1: threshold 0.500"],
    );
    let murphy = ok(&["trace", "--algo", "murphy", "--random", spec, "--threshold", "0.3"]).stdout;
    assert_contains(
        &murphy,
        &["test 1: is the value of the root above 0.300", "test 1: below, after "],
    );
}

/// `trace --html` puts stochastic searches beside deterministic ones on a
/// tree of means (alpha-beta and SSS* with the default samplers when no
/// `--algo` is given); what cannot be traced is refused by name.
#[test]
fn stochastic_compare_pages_and_refusals() {
    let dir = std::env::temp_dir().join(format!("stockman-stoch-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("cmp.html");
    let data = |args: &[&str]| -> Json {
        let mut all = vec!["trace", "--html", page.to_str().unwrap()];
        all.extend(args);
        ok(&all);
        let html = std::fs::read_to_string(&page).unwrap();
        let start = html.find("id=\"trace-data\">").unwrap() + "id=\"trace-data\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        serde_json::from_str(&html[start..end]).unwrap()
    };
    let v = data(&["--random", "width=3,depth=2,seed=1,model=bernoulli", "--epsilon", "0.1"]);
    let names: Vec<&str> = v["searches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["algorithm"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["lucb-mcts", "ugape-mcts", "uniform", "bns-murphy", "alphabeta", "sss"]
    );
    assert_eq!(v["decimals"], 3);
    assert_eq!(v["searches"][4]["outcome"]["value"], 162);
    let file = TempFile::new("means.tree", "[[0.2, 0.3], [0.7, 0.8], [0.4, 0.9]]");
    let v = data(&["--tree", file.arg(), "--algo", "bns-murphy,alphabeta"]);
    // The deterministic searches read the means in tenths: the value 0.7.
    assert_eq!(v["decimals"], 1);
    assert_eq!(v["searches"][1]["outcome"]["value"], 7);
    assert_eq!(v["searches"][0]["stochastic"], true);
    let answer = v["searches"][0]["outcome"]["text"].as_str().unwrap();
    assert!(answer.starts_with("best move 1 (confident, "), "{answer}");
    let samples = v["searches"][0]["leaves"].as_array().unwrap();
    assert!(samples.iter().all(|l| l["value"] == 0 || l["value"] == 1));
    assert!(!v["searches"][0]["notes"].as_array().unwrap().is_empty());
    std::fs::remove_dir_all(&dir).ok();
    for (args, message) in [
        (vec!["--algo", "lucb-mcts,sss"], "trace it beside lucb-mcts with --html"),
        (vec!["--algo", "lucb-mcts,uniform"], "trace takes exactly one algorithm"),
        (
            vec!["--algo", "lucb-mcts", "--runs", "3"],
            "--runs: a trace follows one run",
        ),
        (
            vec!["--algo", "lucb-mcts", "--delta", "2"],
            "--delta: the error probability",
        ),
        (vec!["--algo", "lucb-mcts,best"], "--algo: unknown algorithm `best`"),
    ] {
        let mut all = vec!["trace", "--random", "width=2,depth=2,model=bernoulli"];
        all.extend(args.iter());
        let e = fails(&all);
        assert_contains(&e.stderr, &[message]);
    }
    let e = fails(&["trace", "--game", "tictactoe", "--algo", "lucb-mcts"]);
    assert_contains(&e.stderr, &["not --game"]);
    let fine = TempFile::new("fine.tree", "[0.1234567, 0.5]");
    let e = fails(&[
        "trace",
        "--tree",
        fine.arg(),
        "--algo",
        "lucb-mcts",
        "--html",
        "/tmp/never.html",
    ]);
    assert_contains(&e.stderr, &["more than six decimals"]);
}

// ------------------------------------------------ shards of a positions batch (issue 49)

/// A batch's JSON lines with the wall-clock times taken out (they differ
/// from run to run; every count is deterministic).
fn without_times(stdout: &str) -> Vec<Json> {
    stdout
        .lines()
        .map(|l| {
            let mut v: Json = serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"));
            let target = v.get_mut("summary").cloned().map_or(v.clone(), |s| s);
            let mut t = target;
            if let Some(stats) = t.get_mut("stats") {
                stats["time_us"] = Json::from(0);
            }
            for k in ["mean_time_us", "median_time_us", "p99_time_us", "positions_per_s"] {
                if t.get(k).is_some() {
                    t[k] = Json::from(0);
                }
            }
            if v.get("summary").is_some() {
                v["summary"] = t;
            } else {
                v = t;
            }
            v
        })
        .collect()
}

/// Shards run side by side as separate processes and merged give exactly
/// the rows and summaries of the whole batch; a merge of shards that do
/// not make one whole batch is refused with what is wrong.
#[test]
fn shards_of_a_batch_run_apart_and_merge_into_the_whole_batch() {
    let set = TempFile::new("ttt-batch.txt", "5\n1\n2 \n15\n51 0\n519\n123\n# a comment\n9\n");
    let common = [
        "solve",
        "--game",
        "tictactoe",
        "--positions",
        set.arg(),
        "--algo",
        "alphabeta,mtdf",
        "--format",
        "json",
    ];
    let whole = ok(&common);
    // Three shards at once, each its own process.
    let outs: Vec<TempFile> = (1..=3)
        .map(|k| TempFile::empty_path(&format!("shard-{k}.jsonl")))
        .collect();
    let children: Vec<_> = (1..=3)
        .map(|k| {
            let shard = format!("{k}/3");
            let mut args: Vec<&str> = common.to_vec();
            args.extend(["--shard", shard.as_str()]);
            std::process::Command::new(env!("CARGO_BIN_EXE_stockman"))
                .args(&args)
                .stdout(std::fs::File::create(outs[k - 1].path()).unwrap())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let first = std::fs::read_to_string(outs[0].path()).unwrap();
    let header: Json = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    assert_eq!(header["shard"]["index"], 1);
    assert_eq!(header["shard"]["positions"], 8);
    assert_eq!(header["shard"]["algorithms"], serde_json::json!(["alphabeta", "mtdf"]));
    let paths: Vec<&str> = outs.iter().map(|o| o.arg()).collect();
    // In any order.
    let merged = ok(&["solve", "--format", "json", "--merge", paths[2], paths[0], paths[1]]);
    assert_eq!(without_times(&merged.stdout), without_times(&whole.stdout));
    let rows = without_times(&merged.stdout);
    assert_eq!(rows.len(), 8 * 2 + 2);
    assert_eq!(rows[0]["line"], 1);
    assert_eq!(rows[4]["line"], 3);
    let text = ok(&["solve", "--merge", paths[0], paths[1], paths[2]]).stdout;
    assert_contains(&text, &["algorithm", "alphabeta          8"]);

    // What is not one whole batch.
    let e = fails(&["solve", "--merge", paths[0], paths[1]]);
    assert_contains(&e.stderr, &["--merge: shard 3 of 3 missing"]);
    let e = fails(&["solve", "--merge", paths[0], paths[0], paths[1], paths[2]]);
    assert_contains(&e.stderr, &["shard 1 of 3 is given twice"]);
    let cut = TempFile::new("cut.jsonl", first.lines().take(3).collect::<Vec<_>>().join("\n"));
    let e = fails(&["solve", "--merge", cut.arg(), paths[1], paths[2]]);
    assert_contains(
        &e.stderr,
        &["cut.jsonl: 2 rows, expected 6 (cut short? run shard 1 of 3 again)"],
    );
    let other_set = TempFile::new("ttt-other.txt", "5\n1\n2\n15\n51\n519\n123\n7\n");
    let other = ok(&[
        "solve",
        "--game",
        "tictactoe",
        "--positions",
        other_set.arg(),
        "--algo",
        "alphabeta,mtdf",
        "--format",
        "json",
        "--shard",
        "2/3",
    ]);
    let other = TempFile::new("other.jsonl", other.stdout);
    let e = fails(&["solve", "--merge", paths[0], other.arg(), paths[2]]);
    assert_contains(
        &e.stderr,
        &[
            "other.jsonl: positions file ",
            "(8 positions) differs from ",
            "the two are shards of different runs",
        ],
    );
    let e = fails(&["solve", "--merge", set.arg()]);
    assert_contains(&e.stderr, &["ttt-batch.txt:1: not a shard's output"]);
    let e = fails(&[
        "solve",
        "--game",
        "tictactoe",
        "--positions",
        set.arg(),
        "--shard",
        "9/9",
    ]);
    assert_contains(
        &e.stderr,
        &["--shard 9/9", "holds 8 position(s), none of them this shard's"],
    );
    let e = fails(&[
        "solve",
        "--game",
        "tictactoe",
        "--positions",
        set.arg(),
        "--shard",
        "0/3",
    ]);
    assert_contains(&e.stderr, &["expected K/N with 1 <= K <= N"]);
    let e = fails(&["solve", "--game", "tictactoe", "--shard", "1/3"]);
    assert_contains(&e.stderr, &["--positions"]);
}

/// A random-tree grid's shards run side by side as separate processes in
/// one output directory, and `experiment merge` gives the rows of the
/// unsharded grid (times aside).
#[test]
fn grid_shards_run_apart_and_merge_into_the_whole_grid() {
    let grid = [
        "experiment",
        "--preset",
        "quick",
        "--seeds",
        "2",
        "--algo",
        "alphabeta,sss,mt-sss",
        "--threads",
        "1",
    ];
    let whole = TempFile::empty_path("grid-whole");
    let mut args = grid.to_vec();
    args.extend(["--out", whole.arg()]);
    ok(&args);
    let shards = TempFile::empty_path("grid-shards");
    let children: Vec<_> = (1..=3)
        .map(|k| {
            let shard = format!("{k}/3");
            let mut args = grid.to_vec();
            args.extend(["--shard", shard.as_str(), "--out", shards.arg()]);
            std::process::Command::new(env!("CARGO_BIN_EXE_stockman"))
                .args(&args)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let merged = TempFile::empty_path("grid-merged");
    ok(&["experiment", "merge", "--out", merged.arg(), shards.arg()]);
    let rows = |dir: &TempFile| -> Vec<Vec<String>> {
        let csv = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        csv.lines()
            .map(|l| {
                l.split(',')
                    .zip(&header)
                    .filter(|(_, h)| !h.contains("time"))
                    .map(|(c, _)| c.to_string())
                    .collect()
            })
            .collect()
    };
    let (m, w) = (rows(&merged), rows(&whole));
    assert!(m.len() > 10, "{} rows", m.len());
    assert_eq!(m, w);
}

#[test]
fn distributed_search_on_threads_gives_the_one_process_answer() {
    // Random trees: every driver on 1 to 4 ranks, the value of one process.
    for seed in 1..=6 {
        let spec = format!("width=4,depth=5,seed={seed},range=0..20");
        let one = solve_json(&["--random", &spec, "--algo", "alphabeta"]);
        let value = one[0]["value"].as_i64().unwrap();
        for (ranks, algo) in [("1", "mtdf"), ("2", "mtd-bi"), ("3", "mt-sss"), ("4", "mtdf")] {
            let spread = ["0", "1", "2", "9"][seed % 4];
            let rows = solve_json(&[
                "--random",
                &spec,
                "--distributed",
                "--ranks",
                ranks,
                "--algo",
                algo,
                "--spread",
                spread,
            ]);
            let what = format!("{spec} on {ranks} ranks, {algo}, spread {spread}");
            assert_eq!(rows.len(), 1, "{what}");
            assert_eq!(rows[0]["value"].as_i64(), Some(value), "{what}");
            assert!(rows[0]["best_move"].is_u64(), "{what}: {}", rows[0]);
            let d = &rows[0]["distributed"];
            assert_eq!(d["ranks"].as_u64(), Some(ranks.parse().unwrap()), "{what}");
            assert_eq!(
                d["per_rank"].as_array().unwrap().len(),
                ranks.parse::<usize>().unwrap(),
                "{what}"
            );
            if ranks == "1" {
                assert_eq!(d["messages"].as_u64(), Some(0), "{what}");
            }
        }
    }
    // A game: the one-process value and move notation.
    let one = solve_json(&[
        "--game",
        "connect4",
        "--position",
        "4453",
        "--depth",
        "8",
        "--algo",
        "mtdf",
    ]);
    let many = solve_json(&[
        "--game",
        "connect4",
        "--position",
        "4453",
        "--depth",
        "8",
        "--distributed",
        "--ranks",
        "3",
    ]);
    assert_eq!(many[0]["value"], one[0]["value"]);
    assert!(
        many[0]["best_move"].as_u64().is_some_and(|m| (1..=7).contains(&m)),
        "{}",
        many[0]
    );
    assert!(many[0]["distributed"]["messages"].as_u64().unwrap() > 0);
    // A batch with exact scores: every position right, a JSON line each.
    let set = TempFile::new(
        "c4-distributed.txt",
        include_str!("../../stockman/tests/data/connect4/Test_L3_R1")
            .lines()
            .take(4)
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let run = ok(&[
        "solve",
        "--game",
        "connect4",
        "--positions",
        set.arg(),
        "--distributed",
        "--ranks",
        "2",
        "--format",
        "json",
    ]);
    let lines: Vec<Json> = run.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 4);
    for l in &lines {
        assert_eq!(l["value"], l["expected"], "{l}");
        assert!(l["line"].as_u64().is_some() && l["position"].is_string(), "{l}");
    }
    // What it refuses, and why.
    let r = fails(&[
        "solve",
        "--random",
        "width=2,depth=2",
        "--distributed",
        "--ranks",
        "2",
        "--algo",
        "sss",
    ]);
    assert_contains(&r.stderr, &["--algo sss", "mtdf, mtd-bi and mt-sss"]);
    let r = fails(&[
        "solve",
        "--random",
        "width=2,depth=2",
        "--distributed",
        "--ranks",
        "2",
        "--iterative",
    ]);
    assert_contains(&r.stderr, &["--iterative does not apply to --distributed"]);
    // A bad line is refused with its place before any position is searched.
    let bad = TempFile::new("c4-distributed-bad.txt", "4453\n44x3\n");
    let r = fails(&[
        "solve",
        "--game",
        "connect4",
        "--positions",
        bad.arg(),
        "--distributed",
        "--ranks",
        "2",
    ]);
    assert_contains(&r.stderr, &["c4-distributed-bad.txt:2:", "not a digit"]);
    assert!(r.stdout.is_empty(), "nothing solved before the refusal: {}", r.stdout);
    // A 20,000-ply chain: the ranks' stacks are sized to the tree.
    let chain = TempFile::new(
        "chain-distributed.tree",
        format!("{}7{}", "[".repeat(20_000), "]".repeat(20_000)),
    );
    let rows = solve_json(&["--tree", chain.arg(), "--distributed", "--ranks", "2"]);
    assert_eq!(rows[0]["value"].as_i64(), Some(7));
    let r = fails(&["solve", "--random", "width=2,depth=2", "--distributed", "--ranks", "0"]);
    assert_contains(&r.stderr, &["--ranks 0: give 1 to 256 ranks"]);
    let r = fails(&["solve", "--random", "width=2,depth=2", "--spread", "2"]);
    assert_contains(&r.stderr, &["--distributed"]);
    if !cfg!(feature = "mpi") {
        let r = fails(&["solve", "--random", "width=2,depth=2", "--distributed"]);
        assert_contains(&r.stderr, &["built without MPI", "--features mpi", "--ranks N"]);
    }
}

#[test]
fn the_root_split_and_the_forecast_of_both_schemes() {
    // The root split: the one-process value on 1 to 4 ranks, named in the row.
    for seed in 1..=4 {
        let spec = format!("width=5,depth=5,seed={seed},range=0..20");
        let one = solve_json(&["--random", &spec, "--algo", "alphabeta"]);
        for ranks in ["1", "2", "3", "4"] {
            let rows = solve_json(&[
                "--random",
                &spec,
                "--distributed",
                "--ranks",
                ranks,
                "--scheme",
                "root-split",
            ]);
            let what = format!("{spec} on {ranks} ranks");
            assert_eq!(rows[0]["value"], one[0]["value"], "{what}");
            let d = &rows[0]["distributed"];
            assert_eq!(d["scheme"], "root-split", "{what}");
            assert!(d["spread"].is_null(), "{what}");
        }
    }
    let rows = solve_json(&["--random", "width=3,depth=3,seed=1", "--distributed", "--ranks", "2"]);
    assert_eq!(rows[0]["distributed"]["scheme"], "tdsab");
    assert_eq!(rows[0]["distributed"]["spread"], 4);
    let r = fails(&[
        "solve",
        "--random",
        "width=2,depth=2",
        "--distributed",
        "--ranks",
        "2",
        "--scheme",
        "root-split",
        "--spread",
        "2",
    ]);
    assert_contains(&r.stderr, &["--spread applies to --scheme tdsab"]);
    let r = fails(&[
        "solve",
        "--random",
        "width=2,depth=2",
        "--distributed",
        "--scheme",
        "split",
    ]);
    assert_contains(&r.stderr, &["unknown scheme 'split'", "tdsab, root-split"]);

    // The forecast: one process, then each scheme on each rank count, the
    // same value everywhere and the same numbers on a second run.
    let args = [
        "simulate",
        "--distributed",
        "--random",
        "width=4,depth=6,seed=3",
        "--ranks",
        "1,3,16",
        "--latency-us",
        "20",
        "--format",
        "json",
    ];
    let run = ok(&args);
    assert_eq!(run.stdout, ok(&args).stdout, "deterministic");
    let rows: Vec<Json> = serde_json::from_str(&run.stdout).unwrap();
    let one = solve_json(&["--random", "width=4,depth=6,seed=3", "--algo", "mtdf"]);
    assert_eq!(rows.len(), 7);
    assert_eq!(rows[0]["scheme"], "one process");
    assert_eq!(rows[0]["speedup"].as_f64(), Some(1.0));
    let schemes: Vec<_> = rows
        .iter()
        .map(|r| (r["scheme"].as_str().unwrap(), r["ranks"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        schemes[1..],
        [
            ("tdsab", 1),
            ("tdsab", 3),
            ("tdsab", 16),
            ("root-split", 1),
            ("root-split", 3),
            ("root-split", 16)
        ]
    );
    for r in &rows {
        assert_eq!(r["value"], one[0]["value"], "{r}");
        for field in [
            "time_us",
            "speedup",
            "work",
            "overhead",
            "messages",
            "bytes",
            "idle",
            "best_index",
        ] {
            assert!(!r[field].is_null(), "{field} in {r}");
        }
        if r["ranks"] == 1 {
            assert_eq!(r["messages"], 0, "{r}");
        }
    }
    assert!(rows[2]["messages"].as_u64().unwrap() > 0);
    // What it refuses, and why.
    let base = ["simulate", "--distributed", "--random", "width=2,depth=2"];
    for (extra, needle) in [
        (&["--ranks", "0"][..], "--ranks: 0 ranks: give 1 to 1024"),
        (&["--ranks", "2,x"][..], "`x` is not a number of ranks"),
        (&["--schemes", "tdsab,ybwc"][..], "unknown scheme 'ybwc'"),
        (&["--latency-us", "-1"][..], "--latency-us -1"),
        (&["--algo", "sss"][..], "--algo sss"),
    ] {
        let r = fails(&[&base[..], extra].concat());
        assert_contains(&r.stderr, &[needle]);
    }
    let r = fails(&["simulate", "--random", "width=2,depth=2", "--schemes", "tdsab"]);
    assert_contains(&r.stderr, &["--distributed"]);
}

#[test]
fn one_thread_through_the_shared_table_is_the_parallel_baseline() {
    // `--shared-table` searches the depth-first algorithms on one thread
    // through the table threads share (two entries a bucket, not three):
    // the same values; best-first ones are not affected.
    let tree = ["--random", "width=6,depth=6,seed=5,range=0..40", "--format", "json"];
    let algos = "alphabeta,negascout,mtdf,mtd-bi,mt-sss,bns,sss";
    let plain = ok(&[&["solve", "--algo", algos][..], &tree[..]].concat());
    let shared = ok(&[&["solve", "--algo", algos, "--shared-table"][..], &tree[..]].concat());
    let again = ok(&[&["solve", "--algo", algos, "--shared-table"][..], &tree[..]].concat());
    let rows = |out: &Run| -> Vec<serde_json::Value> { serde_json::from_str(&out.stdout).unwrap() };
    let (plain, shared, again) = (rows(&plain), rows(&shared), rows(&again));
    assert_eq!(plain.len(), 7);
    for ((p, s), a) in plain.iter().zip(&shared).zip(&again) {
        assert_eq!(p["value"], s["value"], "{p}\n{s}");
        // One thread through it is deterministic.
        assert_eq!(s["stats"]["nodes"], a["stats"]["nodes"], "{s}");
        if p["algorithm"] == "sss" {
            assert_eq!(p["stats"]["leaf_evals"], s["stats"]["leaf_evals"]);
        }
    }
    let mtdf = shared.iter().find(|r| r["algorithm"] == "mtdf").unwrap();
    assert!(mtdf["stats"]["tt_probes"].as_u64().unwrap() > 0, "{mtdf}");
}
