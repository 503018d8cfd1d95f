//! The merges of shards (issue 63): `solve --merge` and `experiment merge`
//! refuse what is not one whole run, naming the file and what is missing or
//! mixed; and the Slurm scripts of `cluster/slurm/`, run without Slurm (bash
//! and the `SLURM_*` variables an array sets, a stand-in `sbatch`), give a
//! merge that holds every row once or says which shard is missing.

mod common;

use common::*;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A directory under the temporary directory, removed on drop; its name
/// has a space in it, so that every path the scripts pass is tested quoted.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let d = temp_path(&format!("{name} dir"));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }

    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    fn arg(&self, name: &str) -> String {
        self.join(name).to_str().unwrap().to_string()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The rows (and summaries) of a batch's JSON lines with the wall-clock
/// times taken out: every count is deterministic.
fn without_times(text: &str) -> Vec<Json> {
    text.lines()
        .map(|l| {
            let mut v: Json = serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"));
            let t = if v.get("summary").is_some() {
                &mut v["summary"]
            } else {
                &mut v
            };
            t["stats"]["time_us"] = Json::from(0);
            for k in ["mean_time_us", "median_time_us", "p99_time_us", "positions_per_s"] {
                if t.get(k).is_some() {
                    t[k] = Json::from(0);
                }
            }
            v
        })
        .collect()
}

/// A grid's results.csv without its time columns.
fn grid_rows(path: &Path) -> Vec<Vec<String>> {
    let csv = read(path);
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
}

/// Runs and expects exit 2 (a refused input) and `message` on standard error.
#[track_caller]
fn refused(args: &[&str], message: &str) {
    let run = fails(args);
    assert_eq!(run.code, Some(2), "{args:?}: {run:?}");
    assert_contains(&run.stderr, &[message]);
}

// ------------------------------------------------------- solve --merge

/// Tic-tac-toe positions that are also Connect Four positions (cells and
/// columns 1-7).
const POSITIONS: &str = "5\n1\n2\n15\n51\n7\n";

fn shard_of(file: &str, k: &str, flags: &[&str]) -> String {
    let mut args = vec![
        "solve",
        "--game",
        "tictactoe",
        "--positions",
        file,
        "--algo",
        "alphabeta,mtdf",
        "--format",
        "json",
        "--shard",
        k,
    ];
    args.extend_from_slice(flags);
    ok(&args).stdout
}

/// `solve --merge` refuses a shard of another game or of other settings,
/// naming the setting, both values and both files; and a header written
/// without them.
#[test]
fn a_positions_merge_refuses_other_games_and_settings() {
    let dir = Dir::new("batch");
    std::fs::write(dir.join("pos.txt"), POSITIONS).unwrap();
    let file = dir.arg("pos.txt");
    std::fs::write(dir.join("shard-1-of-2.jsonl"), shard_of(&file, "1/2", &[])).unwrap();
    let one = dir.arg("shard-1-of-2.jsonl");
    let two = |flags: &[&str]| {
        std::fs::write(dir.join("shard-2-of-2.jsonl"), shard_of(&file, "2/2", flags)).unwrap();
        dir.arg("shard-2-of-2.jsonl")
    };
    let merged = ok(&["solve", "--merge", &one, &two(&[]), "--format", "json"]).stdout;
    assert_eq!(merged.lines().count(), 6 * 2 + 2);

    // Connect Four on the same file (to depth 2: it is the game that differs first).
    let c4 = ok(&[
        "solve",
        "--game",
        "connect4",
        "--positions",
        &file,
        "--algo",
        "alphabeta,mtdf",
        "--depth",
        "2",
        "--format",
        "json",
        "--shard",
        "2/2",
    ])
    .stdout;
    std::fs::write(dir.join("shard-2-of-2.jsonl"), c4).unwrap();
    let two_path = dir.arg("shard-2-of-2.jsonl");
    refused(
        &["solve", "--merge", &one, &two_path],
        &format!(
            "--merge: {two_path}: game connect4 differs from tictactoe in {one}: the two are shards of different runs"
        ),
    );
    for (flags, message) in [
        (&["--depth", "3"][..], "depth 3 differs from none"),
        (&["--max-nodes", "100000"], "max nodes 100000 differs from none"),
        (&["--time-limit", "30"], "time limit 30 s differs from none"),
        (&["--max-open", "1000"], "max open 1000 differs from 50000000"),
        (&["--tt-mb", "16"], "table 16 MiB differs from 64 MiB"),
        (&["--threads", "2"], "threads 2 differs from 1"),
        (
            &["--iterative"],
            "algorithms alphabeta+id,mtdf+id differs from alphabeta,mtdf",
        ),
        // What no field names is in the run's digest.
        (&["--first-guess", "3"], "settings digest "),
        (&["--history"], "settings digest "),
    ] {
        let two = two(flags);
        refused(&["solve", "--merge", &one, &two], &format!("--merge: {two}: {message}"));
    }
    // Iterative deepening of a best-first search changes no label: its own setting.
    let sss = |k: &str, flags: &[&str]| {
        let mut args = vec![
            "solve",
            "--game",
            "tictactoe",
            "--positions",
            &file,
            "--algo",
            "sss",
            "--format",
            "json",
            "--shard",
            k,
        ];
        args.extend_from_slice(flags);
        ok(&args).stdout
    };
    std::fs::write(dir.join("sss-1.jsonl"), sss("1/2", &[])).unwrap();
    std::fs::write(dir.join("sss-2.jsonl"), sss("2/2", &["--iterative"])).unwrap();
    refused(
        &["solve", "--merge", &dir.arg("sss-1.jsonl"), &dir.arg("sss-2.jsonl")],
        "sss-2.jsonl: iterative true differs from false",
    );
    // A header without the settings (an older stockman's) is refused, not guessed at.
    let text = read(&dir.join("shard-1-of-2.jsonl"));
    let mut header: Json = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    for k in [
        "game",
        "max_nodes",
        "time_limit_s",
        "max_open",
        "tt_mb",
        "threads",
        "parallel",
        "iterative",
        "run_digest",
    ] {
        header["shard"].as_object_mut().unwrap().remove(k);
    }
    let old: Vec<String> = std::iter::once(header.to_string())
        .chain(text.lines().skip(1).map(str::to_string))
        .collect();
    std::fs::write(dir.join("old.jsonl"), old.join("\n")).unwrap();
    let old = dir.arg("old.jsonl");
    refused(
        &["solve", "--merge", &old, &two(&[])],
        &format!("{old}:1: the shard header does not name the batch's settings (missing field `game`)"),
    );
}

// --------------------------------------------------- experiment merge

const GRID: [&str; 7] = [
    "experiment",
    "--preset",
    "quick",
    "--algo",
    "alphabeta,sss,mt-sss",
    "--threads",
    "1",
];

fn grid_shard(out: &str, k: &str, more: &[&str]) -> Run {
    let mut args = GRID.to_vec();
    args.extend_from_slice(more);
    if !more.contains(&"--seeds") {
        args.extend(["--seeds", "2"]);
    }
    args.extend(["--shard", k, "--out", out]);
    stockman(&args)
}

/// `experiment merge` refuses what `solve --merge` refuses: a shard
/// missing, a shard cut short, a stray shard of another count, a shard of
/// another grid; and a shard of another grid cannot write into a folder of
/// shards (it would rewrite its grid.toml).
#[test]
fn a_grid_merge_refuses_incomplete_and_mixed_grids() {
    let dir = Dir::new("grid");
    let grid = dir.arg("grid");
    for k in ["1/3", "2/3", "3/3"] {
        assert_eq!(grid_shard(&grid, k, &[]).code, Some(0));
    }
    let file = |k: u32| dir.arg(&format!("grid/results-{k}-of-3.csv"));
    let out = dir.arg("merged");
    let merged = ok(&["experiment", "merge", "--out", &out, &file(1), &file(2), &file(3)]);
    assert_contains(&merged.stdout, &["96 searches on 32 trees", "holds on 32/32 trees"]);

    // Only shards 1 and 2.
    refused(
        &["experiment", "merge", "--out", &out, &file(1), &file(2)],
        "error: shard 3 of 3 missing",
    );

    // A third shard with other settings, into the same folder: refused
    // before it runs, the grid.toml untouched.
    let toml = read(&dir.join("grid/grid.toml"));
    for force in [&[][..], &["--force"]] {
        let mut more = vec!["--seeds", "3"];
        more.extend_from_slice(force);
        let run = grid_shard(&grid, "3/3", &more);
        assert_eq!(run.code, Some(2), "{run:?}");
        assert_contains(
            &run.stderr,
            &[
                &format!(
                    "{}: the folder holds the results of another grid (its seeds is 2, this run's 3)",
                    dir.arg("grid/grid.toml")
                ),
                "shard 3/3 would mix with them; use another --out",
            ],
        );
        assert_eq!(read(&dir.join("grid/grid.toml")), toml);
    }
    // Run elsewhere and merged with the others: the grid that differs is named.
    let other = dir.arg("other");
    assert_eq!(grid_shard(&other, "3/3", &["--seeds", "3"]).code, Some(0));
    let other_file = dir.arg("other/results-3-of-3.csv");
    refused(
        &["experiment", "merge", "--out", &out, &file(1), &file(2), &other_file],
        &format!(
            "error: {other_file}: seeds 3 differs from 2 in {}: the two are shards of different runs",
            file(1)
        ),
    );

    // A shard cut to 10 lines (its header and 9 rows), in a copy of the folder.
    let cut = dir.join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    for f in [
        "grid.toml",
        "results-1-of-3.csv",
        "results-2-of-3.csv",
        "results-3-of-3.csv",
    ] {
        std::fs::copy(dir.join("grid").join(f), cut.join(f)).unwrap();
    }
    let two: String = read(&cut.join("results-2-of-3.csv"))
        .lines()
        .take(10)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(cut.join("results-2-of-3.csv"), two).unwrap();
    refused(
        &["experiment", "merge", "--out", &out, &dir.arg("cut")],
        &format!(
            "error: {}: 9 rows, expected 32 (cut short? run shard 2 of 3 again)",
            dir.arg("cut/results-2-of-3.csv")
        ),
    );
    // A row of another shard's job.
    let mut three: Vec<String> = read(&cut.join("results-3-of-3.csv"))
        .lines()
        .map(str::to_string)
        .collect();
    three[1] = read(&cut.join("results-1-of-3.csv"))
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    std::fs::write(cut.join("results-3-of-3.csv"), three.join("\n") + "\n").unwrap();
    std::fs::copy(dir.join("grid/results-2-of-3.csv"), cut.join("results-2-of-3.csv")).unwrap();
    refused(
        &["experiment", "merge", "--out", &out, &dir.arg("cut")],
        &format!(
            "error: {}: row 2: job 0 (alphabeta on",
            dir.arg("cut/results-3-of-3.csv")
        ),
    );

    // A stray shard of another count beside the three (the same grid, so it may write there).
    assert_eq!(grid_shard(&grid, "1/2", &[]).code, Some(0));
    refused(
        &["experiment", "merge", "--out", &out, &grid],
        &format!(
            "error: {}: shard count 2 differs from 3 in {}",
            dir.arg("grid/results-1-of-2.csv"),
            file(1)
        ),
    );
    // A file that does not say which shard it is, and one with no grid beside it.
    std::fs::copy(file(1), dir.join("mine.csv")).unwrap();
    refused(
        &["experiment", "merge", "--out", &out, &dir.arg("mine.csv")],
        "mine.csv: not a shard's results file: shards are named results-K-of-N.csv",
    );
    std::fs::create_dir_all(dir.join("lone")).unwrap();
    std::fs::copy(file(1), dir.join("lone/results-1-of-3.csv")).unwrap();
    refused(
        &[
            "experiment",
            "merge",
            "--out",
            &out,
            &dir.arg("lone/results-1-of-3.csv"),
        ],
        &format!("{}: cannot read the grid its shards ran", dir.arg("lone/grid.toml")),
    );
}

// --------------------------------------------------------- Slurm, faked

fn slurm_script(name: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../cluster/slurm");
    root.join(name).canonicalize().unwrap().to_str().unwrap().to_string()
}

/// What bash did.
#[derive(Debug)]
struct Ran {
    code: Option<i32>,
    stderr: String,
}

/// Runs `bash ARGS` with `env` on top of the test's environment and the
/// test binary as `STOCKMAN`; a run over [`TIMEOUT`] is a hang.
fn bash(args: &[&str], env: &[(&str, String)]) -> Ran {
    let mut cmd = Command::new("bash");
    cmd.args(args)
        .env("STOCKMAN", env!("CARGO_BIN_EXE_stockman"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("start bash");
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut err, &mut s).unwrap();
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            panic!("bash {args:?} did not finish within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Ran {
        code: status.code(),
        stderr: reader.join().unwrap(),
    }
}

/// The variables a Slurm array sets in task `k` of `--array=lo-hi`.
fn array_task(k: u32, lo: u32, hi: u32) -> Vec<(&'static str, String)> {
    vec![
        ("SLURM_ARRAY_JOB_ID", "700".into()),
        ("SLURM_JOB_ID", (700 + k).to_string()),
        ("SLURM_ARRAY_TASK_ID", k.to_string()),
        ("SLURM_ARRAY_TASK_COUNT", (hi - lo + 1).to_string()),
        ("SLURM_ARRAY_TASK_MIN", lo.to_string()),
        ("SLURM_ARRAY_TASK_MAX", hi.to_string()),
    ]
}

/// A stand-in for Slurm's `sbatch`: runs the script at once, each task of
/// `--array=A-B` (or `--array=K`) in turn with the variables Slurm sets,
/// and prints a job id as `--parsable` does; what the tasks print and
/// their exit codes go to `$FAKE_SLURM_LOG`.
const FAKE_SBATCH: &str = r#"#!/usr/bin/env bash
set -u
array=
while [ $# -gt 0 ]; do
  case $1 in
    --array=*) array=${1#--array=} ;;
    -*) ;;
    *) break ;;
  esac
  shift
done
script=$1
shift
id=$(( $(cat "$FAKE_SLURM_LOG.id" 2>/dev/null || echo 100) + 1 ))
echo "$id" >"$FAKE_SLURM_LOG.id"
if [ -n "$array" ]; then
  lo=${array%-*} hi=${array#*-}
  for k in $(seq "$lo" "$hi"); do
    rc=0
    SLURM_ARRAY_JOB_ID=$id SLURM_JOB_ID=$((id * 100 + k)) SLURM_ARRAY_TASK_ID=$k \
      SLURM_ARRAY_TASK_COUNT=$((hi - lo + 1)) SLURM_ARRAY_TASK_MIN=$lo SLURM_ARRAY_TASK_MAX=$hi \
      bash "$script" "$@" >>"$FAKE_SLURM_LOG" 2>&1 || rc=$?
    echo "job $id task $k exit $rc" >>"$FAKE_SLURM_LOG"
  done
else
  rc=0
  SLURM_JOB_ID=$id bash "$script" "$@" >>"$FAKE_SLURM_LOG" 2>&1 || rc=$?
  echo "job $id exit $rc" >>"$FAKE_SLURM_LOG"
fi
echo "$id"
"#;

/// A positions batch through `submit.sh` (the array and the merge, which
/// runs although two shards failed): a shard with a failing position and
/// one with a value that differs from the file move their output into place
/// and fail after; the merge holds every row of the unsharded run once and
/// exits 1. With a shard lost, the merge says which and writes nothing; the
/// shard run again alone from the line submit.sh printed (`--array=2`: an
/// array of one task) is still shard 2 of 3, and the merge is whole again.
#[test]
fn slurm_positions_batch_survives_a_failing_shard_and_a_rerun() {
    let dir = Dir::new("slurm batch");
    // Position 1 fails (--max-nodes 300), position 3's value is not the file's 5.
    std::fs::write(dir.join("pos file.txt"), "5 0\n519 0\n123 5\n1593\n2468\n7539\n3157\n").unwrap();
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("sbatch"), FAKE_SBATCH).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("sbatch"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let log = dir.arg("slurm.log");
    let env = vec![("PATH", path), ("FAKE_SLURM_LOG", log.clone())];
    let out = dir.arg("batch out");
    let submit = slurm_script("submit.sh");
    let ran = bash(
        &[
            &submit,
            "positions",
            "3",
            "tictactoe",
            &dir.arg("pos file.txt"),
            "alphabeta,mtdf",
            &out,
            "--max-nodes",
            "300",
        ],
        &env,
    );
    assert_eq!(ran.code, Some(0), "{ran:?}");
    let log_text = read(Path::new(&log));
    assert_contains(
        &log_text,
        &[
            "job 101 task 1 exit 1",
            "job 101 task 2 exit 0",
            "job 101 task 3 exit 1",
            "job 102 exit 1",
        ],
    );
    let whole = stockman(&[
        "solve",
        "--game",
        "tictactoe",
        "--positions",
        &dir.arg("pos file.txt"),
        "--algo",
        "alphabeta,mtdf",
        "--max-nodes",
        "300",
        "--format",
        "json",
    ]);
    assert_eq!(whole.code, Some(1));
    let expected = without_times(&whole.stdout);
    assert_eq!(expected.len(), 7 * 2 + 2);
    let out_dir = Path::new(&out);
    assert_eq!(without_times(&read(&out_dir.join("merged.jsonl"))), expected);
    assert_contains(
        &read(&out_dir.join("merged.txt")),
        &["alphabeta          7      1         0       1"],
    );
    let mut names: Vec<String> = std::fs::read_dir(out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "merged.jsonl",
            "merged.txt",
            "rerun.txt",
            "shard-1-of-3.jsonl",
            "shard-2-of-3.jsonl",
            "shard-3-of-3.jsonl"
        ]
    );

    // A lost shard: the merge names it and leaves no merged output.
    for f in ["shard-2-of-3.jsonl", "merged.jsonl", "merged.txt"] {
        std::fs::remove_file(out_dir.join(f)).unwrap();
    }
    let merge = slurm_script("merge.sbatch");
    let ran = bash(&[&merge, "positions", "3", &out], &[("SLURM_JOB_ID", "800".into())]);
    assert_eq!(ran.code, Some(2), "{ran:?}");
    assert_contains(&ran.stderr, &["error: --merge: shard 2 of 3 missing"]);
    assert!(!out_dir.join("merged.jsonl").exists() && !out_dir.join(".merged.jsonl.part").exists());

    // Run again as submit.sh says: `--array=K` with K = 2, then the merge.
    let rerun = read(&out_dir.join("rerun.txt"));
    let lines: Vec<&str> = rerun.lines().collect();
    assert_eq!(lines.len(), 3, "{rerun}");
    assert_contains(lines[1], &["--array=K", "positions.sbatch 3 tictactoe"]);
    let ran = bash(&["-c", &lines[1].replace("--array=K", "--array=2")], &env);
    assert_eq!(ran.code, Some(0), "{ran:?}");
    assert_contains(&read(Path::new(&log)), &["job 103 task 2 exit 0"]);
    assert!(out_dir.join("shard-2-of-3.jsonl").exists());
    assert!(!out_dir.join("shard-1-of-1.jsonl").exists() && !out_dir.join("shard-2-of-1.jsonl").exists());
    let ran = bash(&["-c", lines[2]], &env);
    assert_eq!(ran.code, Some(0), "{ran:?}");
    assert_contains(&read(Path::new(&log)), &["job 104 exit 1"]);
    assert_eq!(without_times(&read(&out_dir.join("merged.jsonl"))), expected);

    // A task outside the shards is refused, not run as another slicing.
    let positions = slurm_script("positions.sbatch");
    let pos = dir.arg("pos file.txt");
    let ran = bash(
        &[&positions, "3", "tictactoe", &pos, "alphabeta", &out],
        &array_task(4, 4, 4),
    );
    assert_eq!(ran.code, Some(2));
    assert_contains(&ran.stderr, &["array task 4 is not a shard of 3"]);
}

/// A grid's array run by hand with the variables Slurm sets (its flags
/// with a space in a path): with task 2 lost the merge says so; task 2 run
/// again alone (`--array=2`) and task 3, killed after 9 rows, run again
/// (it resumes its file) give the rows of the unsharded grid, each once.
#[test]
fn slurm_grid_shards_rerun_alone_and_merge_whole() {
    let dir = Dir::new("slurm grid");
    let config = dir.arg("quick grid.toml");
    std::fs::write(
        &config,
        "name = \"quick\"\nalgorithms = [\"alphabeta\", \"sss\", \"mt-sss\"]\nwidths = [3]\ndepths = [2, 3, 4, 5]\n\
         models = [\"iid\", \"incremental\"]\norders = [\"random\", 0.9]\nseeds = 2\n",
    )
    .unwrap();
    let out = dir.arg("grid out");
    let grid = slurm_script("grid.sbatch");
    let merge = slurm_script("merge.sbatch");
    for k in [1, 3] {
        let ran = bash(&[&grid, "3", &out, "--config", &config], &array_task(k, 1, 3));
        assert_eq!(ran.code, Some(0), "{ran:?}");
    }
    let ran = bash(&[&merge, "grid", "3", &out], &[("SLURM_JOB_ID", "900".into())]);
    assert_eq!(ran.code, Some(2), "{ran:?}");
    assert_contains(&ran.stderr, &["error: shard 2 of 3 missing"]);
    assert!(!dir.join("grid out/merged/results.csv").exists());

    // Task 2 alone, as `sbatch --array=2` runs it; task 3 cut short by a kill.
    let ran = bash(&[&grid, "3", &out, "--config", &config], &array_task(2, 2, 2));
    assert_eq!(ran.code, Some(0), "{ran:?}");
    let three = dir.join("grid out/results-3-of-3.csv");
    let cut: String = read(&three).lines().take(10).map(|l| format!("{l}\n")).collect();
    std::fs::write(&three, cut).unwrap();
    let ran = bash(&[&merge, "grid", "3", &out], &[("SLURM_JOB_ID", "901".into())]);
    assert_eq!(ran.code, Some(2), "{ran:?}");
    assert_contains(
        &ran.stderr,
        &[&format!(
            "{}: 9 rows, expected 32 (cut short? run shard 3 of 3 again)",
            three.display()
        )],
    );
    let ran = bash(&[&grid, "3", &out, "--config", &config], &array_task(3, 3, 3));
    assert_eq!(ran.code, Some(0), "{ran:?}");
    let ran = bash(&[&merge, "grid", "3", &out], &[("SLURM_JOB_ID", "902".into())]);
    assert_eq!(ran.code, Some(0), "{ran:?}");

    let whole = dir.arg("whole");
    ok(&["experiment", "--config", &config, "--threads", "1", "--out", &whole]);
    let merged = grid_rows(&dir.join("grid out/merged/results.csv"));
    assert_eq!(merged.len(), 96 + 1);
    assert_eq!(merged, grid_rows(&dir.join("whole/results.csv")));
}
