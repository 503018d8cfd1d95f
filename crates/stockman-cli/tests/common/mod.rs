//! Helpers shared by the binary's end-to-end tests: running `stockman`
//! (with a watchdog against hangs and a check against panics), temporary
//! files, and reading its JSON rows.
#![allow(dead_code)]

use serde_json::Value as Json;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The textbook tree: value 3 for a MAX root, 6 for a MIN root.
pub const TEXTBOOK: &str = "[[3,12,8],[2,4,6],[14,5,2]]";

/// Every algorithm the contract names.
pub const ALGOS: [&str; 11] = [
    "minimax",
    "alphabeta",
    "negascout",
    "sss",
    "dual",
    "recsss",
    "recdual",
    "mt-sss",
    "mt-dual",
    "mtdf",
    "bns",
];

/// A run that takes longer than this is a hang: far above the slowest run
/// (29 s alone, the SSS* trace of tic-tac-toe, in the test profile's
/// unoptimised binary), so that no load on the machine can reach it.
pub const TIMEOUT: Duration = Duration::from_secs(300);

// ---------------------------------------------------------------- helpers

/// A file (or a directory a command wrote there) under the temporary
/// directory, removed on drop.
pub struct TempFile(PathBuf);

impl TempFile {
    pub fn new(name: &str, contents: impl AsRef<[u8]>) -> TempFile {
        let f = TempFile(temp_path(name));
        std::fs::write(&f.0, contents).expect("write a temporary file");
        f
    }

    /// A path for the program to write to.
    pub fn empty_path(name: &str) -> TempFile {
        TempFile(temp_path(name))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn arg(&self) -> &str {
        self.0.to_str().expect("temporary paths are UTF-8")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        // Grids write a directory of results: remove it with its contents.
        if self.0.is_dir() {
            let _ = std::fs::remove_dir_all(&self.0);
        } else {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

pub fn temp_path(name: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("stockman-cli-test-{}-{n}-{name}", std::process::id()))
}

/// What one run of the binary did.
#[derive(Debug)]
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `stockman ARGS`; fails the test on a panic or a hang.
pub fn stockman(args: &[&str]) -> Run {
    stockman_fed(args, None)
}

/// Runs `stockman ARGS` with `input` on standard input (none: empty).
pub fn stockman_fed(args: &[&str], input: Option<&str>) -> Run {
    stockman_fed_bytes(args, input.map(str::as_bytes))
}

/// Runs `stockman ARGS` with its address space limited to `kib` KiB (the
/// shell's `ulimit -v`): a thread whose stack does not fit cannot start.
pub fn stockman_within(kib: u64, args: &[&str]) -> Run {
    let script = format!("ulimit -v {kib} && exec \"$0\" \"$@\"");
    let mut all = vec!["-c", script.as_str(), env!("CARGO_BIN_EXE_stockman")];
    all.extend_from_slice(args);
    run_program("sh", &all, None)
}

/// Runs `stockman ARGS` with raw bytes on standard input (none: empty).
pub fn stockman_fed_bytes(args: &[&str], input: Option<&[u8]>) -> Run {
    run_program(env!("CARGO_BIN_EXE_stockman"), args, input)
}

/// Runs `program ARGS` as [`stockman_fed_bytes`] runs `stockman`.
fn run_program(program: &str, args: &[&str], input: Option<&[u8]>) -> Run {
    let mut child = Command::new(program)
        .args(args)
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start stockman");
    if let Some(text) = input {
        let mut stdin = child.stdin.take().expect("piped stdin");
        // A program that stops reading early (the game ended) closes the
        // pipe: what it did not read is no error of the test's.
        let _ = stdin.write_all(text);
    }
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
    let run = Run {
        code: status.code(),
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    };
    assert!(
        !run.stderr.contains("panicked") && !run.stderr.contains("RUST_BACKTRACE"),
        "stockman {args:?} panicked:\n{}",
        run.stderr
    );
    assert!(run.code.is_some(), "stockman {args:?} was killed by a signal: {run:?}");
    run
}

/// Runs and expects success.
pub fn ok(args: &[&str]) -> Run {
    let run = stockman(args);
    assert_eq!(run.code, Some(0), "stockman {args:?} failed: {run:?}");
    run
}

/// Runs and expects a non-zero exit with something on standard error.
pub fn fails(args: &[&str]) -> Run {
    let run = stockman(args);
    assert!(
        run.code.is_some_and(|c| c != 0),
        "stockman {args:?} should have failed: {run:?}"
    );
    assert!(
        run.stderr.starts_with("error"),
        "stockman {args:?}: no error message: {run:?}"
    );
    run
}

/// Asserts that `haystack` contains every one of `needles`.
#[track_caller]
pub fn assert_contains(haystack: &str, needles: &[&str]) {
    for n in needles {
        assert!(haystack.contains(n), "expected {n:?} in:\n{haystack}");
    }
}

/// `solve ARGS --format json`, parsed; must succeed.
pub fn solve_json(args: &[&str]) -> Vec<Json> {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let run = ok(&all);
    let json: Json = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", run.stdout));
    json.as_array().expect("a JSON array").clone()
}

/// The row of `algo`.
pub fn row<'a>(rows: &'a [Json], algo: &str) -> &'a Json {
    rows.iter()
        .find(|r| r["algorithm"] == algo)
        .unwrap_or_else(|| panic!("no row for {algo} in {rows:?}"))
}

/// A row's evaluated leaves as paths.
pub fn leaves(row: &Json) -> Vec<Vec<u64>> {
    row["leaves"]
        .as_array()
        .unwrap_or_else(|| panic!("no leaves in {row}"))
        .iter()
        .map(|p| {
            p.as_array()
                .expect("a path")
                .iter()
                .map(|i| i.as_u64().expect("an index"))
                .collect()
        })
        .collect()
}

/// Asserts that every algorithm finds `value` (BNS: a bound around it) and `best`.
#[track_caller]
pub fn assert_all_find(rows: &[Json], value: i64, best: Json) {
    for algo in ALGOS {
        let r = row(rows, algo);
        if algo == "bns" {
            assert_eq!(r["value"], Json::Null, "{r}");
            let b = r["bound"]
                .as_array()
                .unwrap_or_else(|| panic!("bns without a bound: {r}"));
            let (lo, hi) = (b[0].as_i64().unwrap(), b[1].as_i64().unwrap());
            assert!(lo <= value && value < hi, "bns bound [{lo}, {hi}) misses {value}");
        } else {
            assert_eq!(r["value"], value, "{algo}: {r}");
        }
        assert_eq!(r["best_move"], best, "{algo}: {r}");
    }
}

/// Solving a file with these contents must fail at `line:column` with `message`.
#[track_caller]
pub fn assert_bad_tree(contents: impl AsRef<[u8]>, line: usize, column: usize, message: &str) {
    let f = TempFile::new("bad.tree", contents);
    let run = fails(&["solve", "--tree", f.arg(), "--algo", "alphabeta"]);
    assert_contains(
        &run.stderr,
        &[&format!("error: {}:{line}:{column}: ", f.arg()), message],
    );
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(run.stdout, "", "nothing is printed for a bad tree");
}

/// Solves a file with these contents with every algorithm.
pub fn solve_text(contents: impl AsRef<[u8]>, extra: &[&str]) -> Vec<Json> {
    let f = TempFile::new("good.tree", contents);
    let mut args = vec!["--tree", f.arg(), "--algo", "all", "--leaves"];
    args.extend_from_slice(extra);
    solve_json(&args)
}
