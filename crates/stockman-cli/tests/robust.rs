//! The defects a new user found from outside (issue 26), each pinned by a
//! test that failed before its fix, and a table-driven sweep of every
//! subcommand with every source kind that asserts no panic and a
//! documented exit code.

mod common;
use common::*;
use serde_json::Value as Json;

/// `trace --game` without `--position` starts from the initial position,
/// as `solve` does (it used to panic with "clap requires a source").
#[test]
fn trace_of_a_game_without_a_position_starts_from_the_beginning() {
    let run = ok(&["trace", "--algo", "sss", "--game", "tictactoe"]);
    assert_contains(&run.stdout, &["value 0, best move", "leaves evaluated"]);
    let json: Json =
        serde_json::from_str(&ok(&["trace", "--algo", "mtdf", "--game", "tictactoe", "--format", "json"]).stdout)
            .expect("JSON trace");
    assert_eq!(json["value"], 0, "{json}");
}

/// A depth-limited search of a file of exact scores is not compared with
/// them: heuristic values at depth 6 are not wrong answers.
#[test]
fn a_batch_at_a_fixed_depth_is_not_judged_against_exact_scores() {
    let set = TempFile::new(
        "c4-exact.txt",
        "274552224131661 0\n5455174361263362 -1\n2531276566711153 2\n",
    );
    let run = ok(&[
        "solve",
        "--game",
        "connect4",
        "--positions",
        set.arg(),
        "--depth",
        "6",
        "--format",
        "json",
    ]);
    assert_contains(&run.stderr, &["note: ", "not compared"]);
    let found = summaries(&run.stdout);
    assert!(!found.is_empty(), "{}", run.stdout);
    for s in found {
        assert!(s["wrong"].is_null(), "compared at a fixed depth: {s}");
        assert!(s["bad_moves"].is_null(), "compared at a fixed depth: {s}");
    }
    // Searched to the end, the same file is compared (and right).
    let run = ok(&[
        "solve",
        "--game",
        "connect4",
        "--positions",
        set.arg(),
        "--format",
        "json",
    ]);
    for s in summaries(&run.stdout) {
        assert_eq!(s["wrong"], 0, "{s}");
    }
}

/// The summary objects of a batch's JSON lines.
fn summaries(stdout: &str) -> Vec<Json> {
    stdout
        .lines()
        .map(|l| serde_json::from_str::<Json>(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}")))
        .filter_map(|l| l.get("summary").cloned())
        .collect()
}

/// A search stopped by a limit shows what it had proved (bounds and best
/// move) and prints its error once.
#[test]
fn a_stopped_search_shows_its_proven_bounds_and_one_error() {
    let args = [
        "solve",
        "--game",
        "connect4",
        "--position",
        "4",
        "--max-nodes",
        "1000000",
    ];
    let run = stockman(&args);
    assert_eq!(run.code, Some(3), "{run:?}");
    assert_contains(&run.stdout, &["[-9,10]"]);
    assert_eq!(run.stderr.matches("error").count(), 1, "{}", run.stderr);
    assert_contains(&run.stderr, &["proven by then: -9 <= value <= 10, best move so far 4"]);
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let run = stockman(&json_args);
    assert_eq!(run.code, Some(3), "{run:?}");
    let rows: Json = serde_json::from_str(&run.stdout).expect("JSON");
    let row = &rows[0];
    assert_eq!(row["value"], Json::Null, "{row}");
    assert_eq!(row["proven_bounds"], serde_json::json!([-9, 10]), "{row}");
    assert_eq!(row["best_move"], 4, "{row}");
}

/// `match` lists its openings in the game's own notation, which
/// `--position` reads back; tic-tac-toe openings called balanced are draws.
#[test]
fn match_openings_read_back_and_tictactoe_openings_are_draws() {
    for (game, depth) in [("tictactoe", "3"), ("connect4", "2")] {
        let run = ok(&[
            "match",
            "--game",
            game,
            "--engines",
            "mtdf,alphabeta",
            "--games",
            "6",
            "--depth",
            depth,
            "--format",
            "json",
        ]);
        let json: Json = serde_json::from_str(&run.stdout).expect("JSON");
        let openings = json["openings"].as_array().expect("openings");
        assert_eq!(openings.len(), 3, "{json}");
        for opening in openings {
            let line = opening.as_str().expect("a string");
            let mut args = vec!["--game", game, "--position", line];
            if game == "connect4" {
                args.extend(["--depth", "4"]);
            }
            let rows = solve_json(&args);
            if game == "tictactoe" {
                assert_eq!(rows[0]["value"], 0, "opening {line} is not balanced: {rows:?}");
            }
        }
    }
}

/// A results file cut in the middle of its last line (a kill during a
/// write) is repaired by `--resume`: the torn row is dropped, said so, run
/// again, and the file ends with the rows of an uninterrupted run.
#[test]
fn resume_after_a_torn_last_line_finishes_with_the_same_rows() {
    let grid = |out: &str, resume: bool| {
        let mut args = vec![
            "experiment",
            "--algo",
            "alphabeta,sss,mtdf",
            "--widths",
            "2,3",
            "--depths",
            "3",
            "--seeds",
            "3",
            "--threads",
            "1",
            "--out",
            out,
        ];
        if resume {
            args.push("--resume");
        }
        ok(&args)
    };
    let whole = TempFile::empty_path("grid-whole");
    grid(whole.arg(), false);
    let cut = TempFile::empty_path("grid-cut");
    grid(cut.arg(), false);
    let csv = std::fs::read_to_string(cut.path().join("results.csv")).unwrap();
    // Keep 40 whole lines and half of the 41st.
    let lines: Vec<&str> = csv.lines().collect();
    let mut torn: String = lines[..41].iter().map(|l| format!("{l}\n")).collect();
    torn.push_str(&lines[41][..lines[41].len() / 2]);
    std::fs::write(cut.path().join("results.csv"), torn).unwrap();
    let run = grid(cut.arg(), true);
    assert_contains(&run.stderr, &["note: ", "dropped a torn last record"]);
    let rows = |dir: &TempFile| -> Vec<String> {
        let csv = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        let time = header.iter().position(|h| *h == "time_us").unwrap();
        let mut rows: Vec<String> = csv
            .lines()
            .map(|l| {
                let mut f: Vec<&str> = l.split(',').collect();
                f.remove(time);
                f.join(",")
            })
            .collect();
        rows.sort();
        rows
    };
    assert_eq!(rows(&cut), rows(&whole));
    let _ = std::fs::remove_dir_all(whole.path());
    let _ = std::fs::remove_dir_all(cut.path());
}

/// `play --algo all` says plainly that the engine takes one algorithm.
#[test]
fn play_takes_one_algorithm() {
    let run = fails(&["play", "--game", "tictactoe", "--algo", "all"]);
    assert_contains(
        &run.stderr,
        &["--algo takes one algorithm for the engine, not `all`", "mtdf"],
    );
    let run = fails(&["match", "--game", "tictactoe", "--engines", "all,mtdf", "--depth", "2"]);
    assert_contains(&run.stderr, &["not `all`"]);
}

/// A line of input that is not UTF-8 is an illegal move, not the end of
/// the game.
#[test]
fn play_survives_input_that_is_not_utf8() {
    let mut input = b"\xff\xfe\n".to_vec();
    input.extend_from_slice(b"5\n3\n7\n8\n6\n2\n4\n9\n");
    let run = stockman_fed_bytes(&["play", "--game", "tictactoe", "--depth", "9"], Some(&input));
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_contains(&run.stdout, &["Illegal move", "is not a cell", "Game over:"]);
}

/// The help names every game, and says which need a depth.
#[test]
fn help_lists_every_game() {
    for cmd in ["solve", "trace", "play", "match", "experiment"] {
        let run = ok(&[cmd, "--help"]);
        assert_contains(&run.stdout, &["tictactoe", "connect4", "othello", "chess", "checkers"]);
    }
    let run = ok(&["solve", "--help"]);
    assert_contains(&run.stdout, &["chess and checkers need"]);
}

/// Every subcommand with every kind of source and a spread of options:
/// no panic (the helper asserts it), no signal, and only the documented
/// exit codes (0 answered, 1 wrong answers in a batch, 2 bad input, 3 a
/// limit stopped a search).
#[test]
fn no_subcommand_panics_on_any_source() {
    let tree = TempFile::new("t.tree", TEXTBOOK);
    let bad = TempFile::new("bad.tree", "[[1,2],[3,");
    let c4 = TempFile::new("c4.txt", "4453 \n274552224131661 0\n");
    let empty = TempFile::new("empty.txt", "");
    let sources: Vec<Vec<&str>> = vec![
        vec!["--tree", tree.arg()],
        vec!["--tree", bad.arg()],
        vec!["--tree", "/no/such/file"],
        vec!["--random", "width=3,depth=4,seed=7"],
        vec!["--random", "width=0,depth=4"],
        vec!["--game", "tictactoe"],
        vec!["--game", "tictactoe", "--position", "5"],
        vec!["--game", "tictactoe", "--position", "55"],
        vec!["--game", "connect4", "--position", "4453", "--depth", "3"],
        vec!["--game", "connect4", "--positions", c4.arg(), "--depth", "2"],
        vec!["--game", "connect4", "--positions", empty.arg()],
        vec!["--game", "othello", "--depth", "2"],
        vec!["--game", "chess", "--depth", "2"],
        vec!["--game", "chess"],
        vec!["--game", "chess", "--position", "not a fen", "--depth", "1"],
    ];
    let options: Vec<Vec<&str>> = vec![
        vec![],
        vec!["--algo", "all"],
        vec!["--algo", "sss"],
        vec!["--algo", "recdual"],
        vec!["--algo", "bns", "--iterative", "--max-nodes", "50"],
        vec!["--algo", "mtdf", "--tt-mb", "0"],
        vec!["--algo", "mt-sss", "--tt-mb", "100000"],
        vec!["--max-nodes", "1"],
        vec!["--max-open", "1", "--algo", "dual"],
        vec!["--root", "min"],
        vec!["--depth", "0"],
        vec!["--format", "json", "--leaves"],
    ];
    let mut runs = 0;
    for cmd in ["solve", "trace"] {
        for source in &sources {
            for opts in &options {
                let mut args = vec![cmd];
                args.extend(source.iter().copied());
                args.extend(opts.iter().copied());
                let run = stockman(&args);
                runs += 1;
                exits_as_documented(&args, &run);
            }
        }
    }
    for line in [
        "play --game connect4 --depth 1",
        "play --game othello --depth 1 --algo bns",
        "play --game chess --depth 1 --human second",
        "play --game tictactoe --algo sss",
        "play --game tictactoe --tt-mb 100000",
        "match --game tictactoe --engines bns,mt-dual --games 2 --depth 2",
        "match --game othello --engines mtdf,negascout --games 2 --depth 1",
        "match --game connect4 --engines mtdf --games 2 --depth 1",
        "match --game chess --engines mtdf,mtd-bi --games 0 --depth 1",
        "gen --random width=2,depth=2,seed=1",
        "gen --random width=1000,depth=1000",
        "experiment --dry-run",
        "experiment --config /no/such.toml",
        "experiment --game connect4 --dry-run",
    ] {
        let args: Vec<&str> = line.split_whitespace().collect();
        let run = stockman_fed(&args, Some("junk\n1\n2\n3\nquit\n"));
        runs += 1;
        exits_as_documented(&args, &run);
    }
    assert!(runs > 300, "{runs}");
}

/// Only the documented exit codes, no internal error, and bad input
/// (exit 2) said on standard error.
#[track_caller]
fn exits_as_documented(args: &[&str], run: &Run) {
    let code = run.code.expect("an exit code");
    assert!(matches!(code, 0..=3), "stockman {args:?} exited {code}: {run:?}");
    assert!(!run.stderr.contains("internal error"), "stockman {args:?}: {run:?}");
    if code == 2 {
        assert!(run.stderr.starts_with("error"), "stockman {args:?}: {run:?}");
    }
}

/// `--threads`: every algorithm keeps its one-thread value (BNS its
/// bound), the ones without a parallel form say so in a note, Connect Four
/// positions are solved exactly, and bad counts are one clear line, exit 2.
#[test]
fn threads_keep_every_value_and_bad_counts_are_refused() {
    let spec = "width=5,depth=6,seed=21";
    let one = solve_json(&["--random", spec, "--algo", "all"]);
    let run = ok(&[
        "solve",
        "--random",
        spec,
        "--algo",
        "all",
        "--threads",
        "2",
        "--format",
        "json",
    ]);
    assert_contains(
        &run.stderr,
        &[
            "note: minimax, recsss, recdual, sss2, gsearch, rsearch have no parallel form here and run on one thread",
            "sss, dual run on one thread unless the parallel search is `rounds`",
        ],
    );
    // Asked for, SSS* and Dual* run in rounds (the same value), and the
    // note names only the algorithms without a parallel form.
    let rounds = ok(&[
        "solve",
        "--random",
        spec,
        "--algo",
        "sss,dual,minimax",
        "--threads",
        "2",
        "--parallel",
        "rounds",
    ]);
    assert_contains(&rounds.stderr, &["note: minimax has no parallel form here"]);
    assert!(!rounds.stderr.contains("sss"), "{}", rounds.stderr);
    let two: Vec<Json> = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(one.len(), two.len());
    for (a, b) in one.iter().zip(&two) {
        assert_eq!(a["algorithm"], b["algorithm"]);
        assert!(b["error"].is_null(), "{b}");
        assert_eq!((&a["value"], &a["bound"]), (&b["value"], &b["bound"]), "{b}");
    }
    let set = TempFile::new(
        "c4-threads.txt",
        "5554224333234511764415115 4\n52753311433677442422121 8\n1233722555341451114725221333 -1\n",
    );
    let run = ok(&[
        "solve",
        "--game",
        "connect4",
        "--positions",
        set.arg(),
        "--threads",
        "2",
        "--format",
        "json",
    ]);
    for s in summaries(&run.stdout) {
        assert_eq!((&s["wrong"], &s["failed"]), (&Json::from(0), &Json::from(0)), "{s}");
    }
    for bad in ["0", "-1", "100000", "two"] {
        let run = fails(&["solve", "--random", spec, "--threads", bad]);
        assert_eq!(run.code, Some(2), "{run:?}");
        assert_contains(&run.stderr, &["--threads"]);
    }
}

/// Helper threads get the stack of the search that starts them: a chain
/// nearly as deep as a tree file may nest is searched on two threads
/// (the helpers' fixed 256 MiB once overflowed and aborted the process).
#[test]
fn threads_search_a_chain_almost_a_million_deep() {
    let n = 999_000;
    let f = TempFile::new("deep-threads.tree", format!("{}1{}", "[".repeat(n), "]".repeat(n)));
    let rows = solve_json(&[
        "--tree",
        f.arg(),
        "--algo",
        "alphabeta,negascout,mtdf",
        "--threads",
        "2",
    ]);
    for r in &rows {
        assert_eq!((&r["value"], &r["best_move"]), (&Json::from(1), &Json::from(0)), "{r}");
    }
}

/// SSS* and Dual* in rounds on a chain 200,000 plies deep: the rounds'
/// OPEN list used to keep every node's whole path (24 GB reached and
/// killed at this depth); now it holds the live tree once.
#[test]
fn rounds_search_a_chain_200000_deep() {
    let n = 200_000;
    let f = TempFile::new("deep-rounds.tree", format!("{}[1,2]{}", "[".repeat(n), "]".repeat(n)));
    let rows = solve_json(&[
        "--tree",
        f.arg(),
        "--algo",
        "sss,dual",
        "--threads",
        "2",
        "--parallel",
        "rounds",
    ]);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        // The pair's node is 200,000 plies down: MAX chooses.
        assert_eq!(r["value"], Json::from(2), "{r}");
        assert_eq!(r["best_move"], Json::from(0), "{r}");
    }
}

/// A helper thread that cannot be started (here: its 256 MiB stack does
/// not fit the address space left) is an error that says so, never a
/// search on fewer threads than asked; the same limit lets one thread run.
#[test]
fn a_thread_that_cannot_start_is_an_error_not_a_quieter_search() {
    let args = |threads: &'static str| {
        [
            "solve",
            "--random",
            "width=3,depth=3,seed=1",
            "--algo",
            "mtdf",
            "--tt-mb",
            "1",
            "--threads",
            threads,
        ]
    };
    // About 120 MiB run one thread here; a helper needs 256 MiB more.
    let kib = 250 * 1024;
    let one = stockman_within(kib, &args("1"));
    assert_eq!(one.code, Some(0), "one thread within {kib} KiB: {}", one.stderr);
    let two = stockman_within(kib, &args("2"));
    assert_ne!(two.code, Some(0), "{}", two.stdout);
    let all = format!("{}{}", two.stdout, two.stderr);
    assert!(all.contains("could not start thread 2 of the 2 asked for"), "{all}");
}

/// `stockman simulate`: exact, reproducible rows; bad counts and
/// algorithms are one clear line and exit 2.
#[test]
fn simulate_reports_rounds_and_refuses_bad_input() {
    let args = [
        "simulate",
        "--random",
        "width=4,depth=6,seed=5",
        "--algo",
        "sss,alphabeta",
        "--processors",
        "1,4",
        "--format",
        "json",
    ];
    let out = ok(&args);
    let rows: Json = serde_json::from_str(&out.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 4);
    let value = solve_json(&["--random", "width=4,depth=6,seed=5", "--algo", "alphabeta"])[0]["value"].clone();
    for r in rows {
        assert_eq!(r["value"], value);
    }
    assert_eq!(rows[0]["speedup"], 1.0);
    assert!(rows[1]["rounds"].as_u64().unwrap() < rows[0]["rounds"].as_u64().unwrap());
    assert_eq!(out.stdout, ok(&args).stdout, "deterministic to the node");
    for (bad, message) in [
        (&["--processors", "0"][..], "0 processors: give 1 to"),
        (&["--processors", "5000"][..], "5000 processors: give 1 to"),
        (&["--processors", "8..2"][..], "the range is empty"),
        (&["--processors", "x"][..], "is not a number of processors"),
        (&["--algo", "negascout"][..], "negascout has no simulated parallel form"),
    ] {
        let mut a = vec!["simulate", "--random", "width=2,depth=2,seed=1"];
        a.extend_from_slice(bad);
        let run = fails(&a);
        assert_eq!(run.code, Some(2), "{bad:?}: {run:?}");
        assert_contains(&run.stderr, &[message]);
    }
    let run = fails(&["simulate", "--game", "connect4"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_contains(&run.stderr, &["give --depth"]);
    // An endgame position may be simulated to the end; the work limit
    // bounds one that is not small.
    let run = fails(&[
        "simulate",
        "--game",
        "connect4",
        "--position",
        "4453",
        "--max-work",
        "1000",
    ]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_contains(&run.stderr, &["stopped after 1000 units of work"]);
    ok(&[
        "simulate",
        "--game",
        "tictactoe",
        "--algo",
        "sss",
        "--processors",
        "1,2",
    ]);
}

/// `simulate --table-latency` and `--iterative`: a remote access costs
/// rounds (pinned), one processor never waits, the value stays; the
/// options that do not fit are refused.
#[test]
fn simulate_table_latency_and_iterative_deepening() {
    let args = [
        "simulate",
        "--random",
        "width=4,depth=6,seed=5",
        "--algo",
        "sss,alphabeta",
        "--processors",
        "1,4",
        "--table-latency",
        "3",
        "--format",
        "json",
    ];
    let rows: Json = serde_json::from_str(&ok(&args).stdout).unwrap();
    let got: Vec<(String, u64, u64, u64)> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["algorithm"].as_str().unwrap().to_string(),
                r["processors"].as_u64().unwrap(),
                r["rounds"].as_u64().unwrap(),
                r["stalled"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got[1], ("sss".to_string(), 4, 2554, 5742), "{got:?}");
    assert_eq!(got[3], ("alphabeta".to_string(), 4, 1556, 4304), "{got:?}");
    assert_eq!((got[0].3, got[2].3), (0, 0), "one processor never waits");
    let deep = ok(&[
        "simulate",
        "--game",
        "connect4",
        "--position",
        "4453",
        "--depth",
        "6",
        "--iterative",
        "--algo",
        "mtdf,alphabeta",
        "--processors",
        "1,2",
        "--format",
        "json",
    ]);
    let rows: Json = serde_json::from_str(&deep.stdout).unwrap();
    let value = solve_json(&[
        "--game",
        "connect4",
        "--position",
        "4453",
        "--depth",
        "6",
        "--algo",
        "alphabeta",
    ])[0]["value"]
        .clone();
    for r in rows.as_array().unwrap() {
        assert_eq!(r["value"], value, "{r}");
    }
    for (bad, message) in [
        (&["--iterative"][..], "--depth"),
        (&["--iterative", "--depth", "2", "--algo", "sss"][..], "best-first"),
        (&["--table-latency", "2", "--distributed"][..], "cannot be used with"),
        (&["--table-latency", "x"][..], "invalid value 'x' for '--table-latency"),
    ] {
        let mut a = vec!["simulate", "--random", "width=2,depth=2,seed=1"];
        a.extend_from_slice(bad);
        let run = fails(&a);
        assert_eq!(run.code, Some(2), "{bad:?}: {run:?}");
        assert_contains(&run.stderr, &[message]);
    }
}

/// `solve --parallel rounds --round-states P`: the rounds of `simulate
/// --processors P` on real threads (the same leaves counted, on every
/// run), the value of SSS*; left to the search (0, the default) the value
/// too. A count without `--parallel rounds`, or out of range, is refused.
#[test]
fn solve_in_rounds_of_a_fixed_number_of_states_is_the_simulation() {
    let tree = "width=5,depth=6,seed=11,range=0..10";
    let value = solve_json(&["--random", tree, "--algo", "sss"])[0]["value"].clone();
    let sim: Json = serde_json::from_str(
        &ok(&[
            "simulate",
            "--random",
            tree,
            "--algo",
            "sss,dual",
            "--processors",
            "3",
            "--format",
            "json",
        ])
        .stdout,
    )
    .unwrap();
    for states in ["3", "0"] {
        let rows = solve_json(&[
            "--random",
            tree,
            "--algo",
            "sss,dual",
            "--threads",
            "2",
            "--parallel",
            "rounds",
            "--round-states",
            states,
        ]);
        for (r, s) in rows.iter().zip(sim.as_array().unwrap()) {
            assert_eq!(r["value"], value, "{states}: {r}");
            if states == "3" {
                assert_eq!(r["algorithm"], s["algorithm"]);
                assert_eq!(r["stats"]["leaf_evals"], s["leaf_evals"], "{r} against {s}");
            }
        }
    }
    for (bad, message) in [
        (&["--round-states", "2"][..], "only under --parallel rounds"),
        (
            &["--parallel", "rounds", "--round-states", "5000"][..],
            "5000 states per round: give 1 to 4096",
        ),
        (
            &["--parallel", "rounds", "--round-states", "x"][..],
            "is not a number of states per round",
        ),
        (
            &["--parallel", "rounds", "--round-states", "-1"][..],
            "-1 states per round: give 1 to 4096",
        ),
    ] {
        let mut a = vec![
            "solve",
            "--random",
            "width=2,depth=2,seed=1",
            "--algo",
            "sss",
            "--threads",
            "2",
        ];
        a.extend_from_slice(bad);
        let run = fails(&a);
        assert_eq!(run.code, Some(2), "{bad:?}: {run:?}");
        assert_contains(&run.stderr, &[message]);
    }
}

/// Issue 63, items 5 and 6: `--spread` is bounded (so is every message of
/// a distributed search), and a simulated rank's table holds what it
/// searches (1,024 ranks of a one-leaf tree used to take 6.7 GB).
#[test]
fn the_spread_is_bounded_and_simulated_ranks_hold_what_they_search() {
    let n = 3_000;
    let chain = TempFile::new("chain-3000.tree", format!("{}7{}", "[".repeat(n), "]".repeat(n)));
    for extra in [
        &["solve", "--distributed", "--ranks", "2"][..],
        &["simulate", "--distributed", "--ranks", "2"][..],
    ] {
        let mut a = extra.to_vec();
        a.extend_from_slice(&["--tree", chain.arg(), "--spread", "65"]);
        let run = fails(&a);
        assert_eq!(run.code, Some(2), "{a:?}: {run:?}");
        assert_contains(&run.stderr, &["--spread: ", "a spread of 65 plies is more than the 64"]);
    }
    // At the bound, the chain ends on 3 ranks, every message within 1,009 bytes.
    let rows = solve_json(&["--tree", chain.arg(), "--distributed", "--ranks", "3", "--spread", "64"]);
    assert_eq!(
        (&rows[0]["value"], &rows[0]["best_move"]),
        (&Json::from(7), &Json::from(0))
    );
    let d = &rows[0]["distributed"];
    assert!(
        d["bytes"].as_u64().unwrap() <= 1_009 * d["messages"].as_u64().unwrap(),
        "{d}"
    );
    for r in d["per_rank"].as_array().unwrap() {
        assert!(r["table_bytes"].as_u64().unwrap() < 1 << 20, "{r}");
    }
    let leaf = TempFile::new("one-leaf.tree", "5");
    let run = ok(&[
        "simulate",
        "--distributed",
        "--tree",
        leaf.arg(),
        "--ranks",
        "1024",
        "--format",
        "json",
    ]);
    let rows: Json = serde_json::from_str(&run.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3, "one process and both schemes: {rows:?}");
    assert!(rows.iter().all(|r| r["value"] == 5), "{rows:?}");
    // Each rank's table one bucket of 64 bytes, not 16 MiB.
    for r in &rows[1..] {
        assert_eq!(r["table_bytes"], 1024 * 64, "{r}");
    }
}

/// Issue 63, item 11 (stochastic half): `--sampling` with samplers that do
/// not read it is refused naming its readers (it was ignored), and
/// `--delta 5e-324` ends by the rule (its exploration level overflowed, so
/// every run went to its budget).
#[test]
fn an_unread_sampling_rule_is_refused_and_the_smallest_delta_ends_by_its_rule() {
    let means = TempFile::new("means.tree", "[[0.1, 0.2], [0.8, 0.9]]");
    for algo in ["lucb-mcts", "lucb-mcts,ugape-mcts,uniform"] {
        let run = fails(&["solve", "--tree", means.arg(), "--algo", algo, "--sampling", "thompson"]);
        assert_eq!(run.code, Some(2), "{algo}: {run:?}");
        assert_contains(
            &run.stderr,
            &[&format!(
                "--sampling is read only by murphy, bns-murphy; none of the stochastic searches asked for ({})",
                algo.replace(',', ", ")
            )],
        );
    }
    let run = fails(&[
        "trace",
        "--tree",
        means.arg(),
        "--algo",
        "ugape-mcts",
        "--sampling",
        "lcb",
    ]);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_contains(&run.stderr, &["--sampling is read only by murphy, bns-murphy"]);
    let rows = solve_json(&[
        "--tree",
        means.arg(),
        "--algo",
        "lucb-mcts,bns-murphy",
        "--sampling",
        "thompson",
    ]);
    assert_eq!(rows.len(), 2);
    for delta in ["5e-324", "0.999999"] {
        let rows = solve_json(&[
            "--tree",
            means.arg(),
            "--algo",
            "lucb-mcts,ugape-mcts,uniform,bns-murphy",
            "--delta",
            delta,
        ]);
        for r in &rows {
            assert_eq!(
                (&r["best_move"], &r["unsure"]),
                (&Json::from(1), &Json::from(0)),
                "--delta {delta}: {r}"
            );
        }
    }
    for delta in ["0", "1"] {
        let run = fails(&["solve", "--tree", means.arg(), "--algo", "lucb-mcts", "--delta", delta]);
        assert_eq!(run.code, Some(2), "{run:?}");
        assert_contains(
            &run.stderr,
            &["--delta: the error probability delta must lie strictly between 0 and 1"],
        );
    }
}
