//! Golden test: `stockman trace --algo sss` on a small ragged tree, checked
//! line by line against a trace worked out by hand from Stockman's
//! pseudocode (the Gamma operator, cases 1-6).
//!
//! The tree and the hand trace live in `crates/stockman/tests/data/`
//! (`sss_hand_trace.tree`, `sss_hand_trace.txt`; `README.md` there explains
//! the derivation). The text trace is rendered only by the binary, so this
//! test runs it.
//!
//! Every line must match exactly, except that a `purge` line is compared as a
//! set of states: the pseudocode removes "all the states" below the parent
//! without ordering them, and the program lists them in the order its arena
//! walk meets them, which is not OPEN order (on `examples/textbook.tree` it
//! prints `(3.3, ..) (2.1, ..)` while OPEN held 2.1 first). The hand trace
//! lists purged states in OPEN order.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The hand-worked data, read through this crate's manifest directory.
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../stockman/tests/data");

/// A run that takes longer than this is a hang.
const TIMEOUT: Duration = Duration::from_secs(60);

/// Runs `stockman ARGS`, expects success and returns standard output.
fn stockman_ok(args: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stockman"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start stockman");
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            pipe.read_to_end(&mut buf).expect("read a pipe");
            String::from_utf8_lossy(&buf).into_owned()
        })
    };
    let out = reader(Box::new(child.stdout.take().expect("piped stdout")));
    let err = reader(Box::new(child.stderr.take().expect("piped stderr")));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for stockman") {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("stockman {args:?} did not finish within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let (stdout, stderr) = (out.join().expect("stdout reader"), err.join().expect("stderr reader"));
    assert!(
        status.success(),
        "stockman {args:?} failed ({status}):\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(!stderr.contains("panicked"), "stockman {args:?} panicked:\n{stderr}");
    stdout
}

/// The states of a `  purge ...` line, sorted; `None` for any other line.
fn purge_set(line: &str) -> Option<Vec<&str>> {
    let rest = line.strip_prefix("  purge ")?;
    let mut states: Vec<&str> = rest
        .split(") (")
        .map(|s| s.trim_start_matches('(').trim_end_matches(')'))
        .collect();
    states.sort_unstable();
    Some(states)
}

/// Whether two trace lines agree (a `purge` line as a set of states).
fn same_line(want: &str, got: &str) -> bool {
    match (purge_set(want), purge_set(got)) {
        (Some(a), Some(b)) => a == b,
        _ => want == got,
    }
}

/// Fails with the first differing line (1-based), showing both lines.
#[track_caller]
fn assert_same_trace(golden_name: &str, want: &str, got: &str) {
    let want: Vec<&str> = want.lines().collect();
    let got: Vec<&str> = got.lines().collect();
    for i in 0..want.len().max(got.len()) {
        let (w, g) = (want.get(i), got.get(i));
        let equal = match (w, g) {
            (Some(w), Some(g)) => same_line(w, g),
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
    let got = stockman_ok(&["trace", "--algo", "sss", "--tree", &tree]);
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

#[test]
fn purge_lines_compare_as_sets_and_nothing_else_does() {
    assert!(same_line(
        "  purge (2.1, SOLVED, 2) (3.3, SOLVED, 2)",
        "  purge (3.3, SOLVED, 2) (2.1, SOLVED, 2)"
    ));
    assert!(!same_line(
        "  purge (2.1, SOLVED, 2) (3.3, SOLVED, 2)",
        "  purge (2.1, SOLVED, 2)"
    ));
    assert!(!same_line(
        "  OPEN  (2.1, SOLVED, 2) (3.3, SOLVED, 2)",
        "  OPEN  (3.3, SOLVED, 2) (2.1, SOLVED, 2)"
    ));
}
