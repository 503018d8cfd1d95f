//! Golden test: `stockman trace --algo sss` on a small ragged tree, checked
//! line by line against a trace worked out by hand from Stockman's
//! pseudocode (the Gamma operator, cases 1-6).
//!
//! The tree and the hand trace live in `crates/stockman/tests/data/`
//! (`sss_hand_trace.tree`, `sss_hand_trace.txt`; `README.md` there explains
//! the derivation). The text trace is rendered only by the binary, so this
//! test runs it.
//!
//! Every line must match exactly. The pseudocode removes "all the states"
//! below the parent without ordering them; the program and the hand trace
//! both list purged states in the order they stood on OPEN.

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
