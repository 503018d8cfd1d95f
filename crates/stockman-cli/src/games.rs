//! `solve --game`: single positions and batches of test positions, on the
//! library's run layer ([`stockman::run`]).

use crate::report::{fmt_time, Row};
use crate::runner::{exit_code, print_rows, rows, SearchArgs};
use crate::Format;
use anyhow::{anyhow, bail, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::{IsTerminal, Read};
use std::path::Path;
use std::process::ExitCode;
use stockman::games::positions::{parse_positions, PositionLine};
use stockman::run::batch::{solve_positions, Summary};
use stockman::run::shards::{self, BatchRow, ShardHeader, ShardOutput};
use stockman::run::{GameKind, GameTask, Request, Runner, SourceKind};
use stockman::{Playable, Stats};
use stockman_lab::Shard;

/// Parses `--game`: one of the library's games, listed in the help.
pub fn game_parser() -> impl clap::builder::TypedValueParser<Value = GameKind> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(GameKind::names())
        .map(|name| name.parse::<GameKind>().expect("clap accepts only the listed names"))
}

/// Builds the game `kind` at `position` (in the game's notation), valued
/// for depth-limited search when `heuristic`, and hands it to `task`.
pub fn with_game<O, T: GameTask<Output = Result<O>>>(
    kind: GameKind,
    position: &str,
    heuristic: bool,
    task: T,
) -> Result<O> {
    stockman::run::with_game(kind, position, heuristic, task)?
}

/// A move of `game`'s root in JSON: a number where the notation is one
/// (Connect Four's columns 1-7, tic-tac-toe's cells 1-9), else the text
/// (chess: UCI, `e2e4`).
pub fn move_json<G: Playable>(game: &G, mv: &G::Move) -> serde_json::Value {
    text_json(game.move_text(*mv))
}

/// A move's text in JSON: a number where it is one.
fn text_json(text: String) -> serde_json::Value {
    match text.parse::<u64>() {
        Ok(n) => serde_json::json!(n),
        Err(_) => serde_json::json!(text),
    }
}

/// `solve --game NAME [--position MOVES]`.
pub fn solve(
    kind: GameKind,
    position: Option<&str>,
    search: &SearchArgs,
    format: Format,
    leaves: bool,
) -> Result<ExitCode> {
    let request = search.request(SourceKind::Game(kind), leaves)?;
    // One table for every algorithm, cleared before each search, its memory
    // committed before the first clock starts (as in a batch). A single
    // position may take minutes (the empty board): show the passes.
    let mut runner = Runner::new();
    runner.prepare(request.options.table)?;
    struct Solve<'a> {
        request: &'a Request,
        runner: &'a mut Runner,
    }
    impl GameTask for Solve<'_> {
        type Output = Result<Vec<Row>>;
        fn run<G: Playable + Send + Sync + 'static>(self, game: G) -> Result<Vec<Row>> {
            let best = |m: &G::Move, _: usize| move_json(&game, m);
            Ok(rows(&game, self.request, self.runner, true, &best))
        }
    }
    let task = Solve {
        request: &request,
        runner: &mut runner,
    };
    let rows = with_game(
        kind,
        position.unwrap_or(""),
        request.options.limits.depth.is_some(),
        task,
    )?;
    print_rows(&rows, format)?;
    Ok(exit_code(&rows))
}

/// The last lines of a batch's JSON output: `{"summary": {...}}`, one per
/// algorithm, with the same figures as the text summary (times in µs).
#[derive(Serialize)]
struct SummaryLine<'a> {
    summary: SummaryFigures<'a>,
}

#[derive(Serialize)]
struct SummaryFigures<'a> {
    algorithm: &'a str,
    positions: u64,
    /// null when the values are not comparable with the file's exact
    /// scores (a depth-limited search).
    wrong: Option<u64>,
    bad_moves: Option<u64>,
    failed: u64,
    stopped: u64,
    mean_time_us: f64,
    median_time_us: u64,
    p99_time_us: u64,
    mean_nodes: f64,
    positions_per_s: f64,
    /// The batch's totals.
    stats: Stats,
}

impl<'a> SummaryLine<'a> {
    fn new(s: &'a Summary) -> SummaryLine<'a> {
        SummaryLine {
            summary: SummaryFigures {
                algorithm: &s.algorithm,
                positions: s.positions,
                wrong: s.wrong,
                bad_moves: s.bad_moves,
                failed: s.failed,
                stopped: s.stopped,
                mean_time_us: s.mean_time_us(),
                median_time_us: s.median_time_us(),
                p99_time_us: s.p99_time_us(),
                mean_nodes: s.mean_nodes(),
                positions_per_s: s.positions_per_s(),
                stats: s.stats,
            },
        }
    }
}

/// `solve --game NAME --positions FILE [--shard K/N]`: lines `moves [expected]`.
pub fn batch(
    kind: GameKind,
    path: &Path,
    search: &SearchArgs,
    format: Format,
    shard: Option<Shard>,
) -> Result<ExitCode> {
    let request = search.request(SourceKind::Game(kind), false)?;
    let text = read_text_of(path, "positions")?;
    let all =
        parse_positions(&text).map_err(|e| anyhow!("{}:{}:{}: {}", path.display(), e.line, e.column, e.message))?;
    let total = all.len();
    let lines: Vec<PositionLine> = match shard {
        Some(s) => all
            .into_iter()
            .enumerate()
            .filter(|(i, _)| s.contains(*i as u64))
            .map(|(_, l)| l)
            .collect(),
        None => all,
    };
    if let Some(s) = shard {
        if lines.is_empty() {
            bail!(
                "--shard {s}: {} holds {total} position(s), none of them this shard's (use at most {total} shards)",
                path.display(),
            );
        }
        if format == Format::Json {
            let header = ShardHeader::new(
                s.index,
                s.count,
                &path.display().to_string(),
                total,
                &text,
                kind,
                &request,
            );
            println!("{}", serde_json::to_string(&header)?);
        } else {
            eprintln!("note: shard {s}'s summary only; `solve --merge` reads the shards' --format json output");
        }
    }
    let bar = if std::io::stderr().is_terminal() && lines.len() > 1 {
        let b = ProgressBar::new((lines.len() * request.algorithms.len()) as u64);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {per_sec}, ETA {eta}") {
            b.set_style(style);
        }
        Some(b)
    } else {
        None
    };
    if request.options.limits.depth.is_some() && lines.iter().any(|l| l.expected.is_some() || !l.scores.is_empty()) {
        eprintln!(
            "note: {}: the listed scores are exact game values; with --depth the values are heuristic, \
             so they are not compared (wrong and bad moves: -)",
            path.display()
        );
    }
    let mut printed: Result<()> = Ok(());
    let mut runner = Runner::new();
    let summaries = solve_positions(kind, &lines, &request, &mut runner, |p| {
        for (s, score) in p.solutions.iter().zip(&p.best_move_scores) {
            if format == Format::Json && printed.is_ok() {
                let row = BatchRow {
                    line: p.line,
                    position: p.position.clone(),
                    algorithm: s.label(),
                    value: s.value,
                    best_move: s.best_move.clone().map(text_json),
                    proven_bounds: s.proven.map(|(a, b)| [a, b]),
                    stats: s.stats,
                    expected: p.expected,
                    best_move_score: *score,
                    stopped_by: s.stopped_by.map(|l| l.to_string()),
                    error: s.error.as_ref().map(|e| e.describe(&crate::report::Flags)),
                };
                printed = serde_json::to_string(&row).map(|l| println!("{l}")).map_err(Into::into);
            }
            if let Some(b) = &bar {
                b.inc(1);
            }
        }
    })
    .map_err(|e| match e.line {
        0 => anyhow!("{}: {}", path.display(), e.error),
        n => anyhow!("{}:{n}: {}", path.display(), e.error),
    })?;
    printed?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    print_summaries(&summaries, format)?;
    if let Some(s) = shard {
        if format == Format::Json {
            eprintln!(
                "shard {s} done; when every shard is, combine their outputs with\n  stockman solve --merge FILE..."
            );
        }
    }
    Ok(batch_exit(&summaries))
}

/// The summary table, or (JSON) one summary line per algorithm after the
/// position lines, told apart from them by its `summary` key.
fn print_summaries(summaries: &[Summary], format: Format) -> Result<()> {
    match format {
        Format::Text => print!("{}", summary_table(summaries)),
        Format::Json => {
            for s in summaries {
                println!("{}", serde_json::to_string(&SummaryLine::new(s))?);
            }
        }
    }
    Ok(())
}

fn batch_exit(summaries: &[Summary]) -> ExitCode {
    if summaries.iter().any(Summary::is_bad) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `solve --merge FILE...`: the shards' JSON outputs of one batch, merged
/// into the rows (JSON) and summaries of the whole batch.
pub fn merge(files: &[std::path::PathBuf], format: Format) -> Result<ExitCode> {
    let mut outputs = Vec::new();
    for f in files {
        outputs.push(read_shard(f)?);
    }
    let merged = shards::merge(outputs).map_err(|e| anyhow!("--merge: {e}"))?;
    if format == Format::Json {
        for r in &merged.rows {
            println!("{}", serde_json::to_string(r)?);
        }
    }
    print_summaries(&merged.summaries, format)?;
    Ok(batch_exit(&merged.summaries))
}

/// One shard's JSON output: its header line, then its rows (its summary
/// lines are skipped: the merge counts again).
fn read_shard(path: &Path) -> Result<ShardOutput> {
    let text = read_text_of(path, "shard output")?;
    let name = path.display().to_string();
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (_, first) = lines.next().ok_or_else(|| {
        anyhow!("{name}: empty: not a shard's output (solve --positions FILE --shard K/N --format json)")
    })?;
    let not_shard = || {
        anyhow!("{name}:1: not a shard's output: its first line is not {{\"shard\": ...}} (solve --positions FILE --shard K/N --format json writes one)")
    };
    let value: serde_json::Value = serde_json::from_str(first).map_err(|_| not_shard())?;
    if value.get("shard").is_none_or(|s| !s.is_object()) {
        return Err(not_shard());
    }
    // A header without the settings and their digest (an older stockman's)
    // cannot say which batch it belongs to: run the shard again.
    let header: ShardHeader = serde_json::from_value(value).map_err(|e| {
        anyhow!("{name}:1: the shard header does not name the batch's settings ({e}): written by an older stockman? run the shard again")
    })?;
    let mut rows = Vec::new();
    for (i, line) in lines {
        let value: serde_json::Value =
            serde_json::from_str(line).map_err(|e| anyhow!("{name}:{}:{}: not JSON: {e}", i + 1, e.column()))?;
        if value.get("summary").is_some() {
            continue;
        }
        rows.push(
            serde_json::from_value::<BatchRow>(value)
                .map_err(|e| anyhow!("{name}:{}: not a position's row: {e}", i + 1))?,
        );
    }
    Ok(ShardOutput { name, header, rows })
}

fn summary_table(sums: &[Summary]) -> String {
    let count = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
    let mut out = format!(
        "{:<10} {:>9} {:>6} {:>9} {:>7} {:>12} {:>12} {:>12} {:>14} {:>14}\n",
        "algorithm",
        "positions",
        "wrong",
        "bad moves",
        "failed",
        "mean time",
        "median time",
        "p99 time",
        "mean visited",
        "positions/s"
    );
    for s in sums {
        out.push_str(&format!(
            "{:<10} {:>9} {:>6} {:>9} {:>7} {:>12} {:>12} {:>12} {:>14.1} {:>14.0}\n",
            s.algorithm,
            s.positions,
            count(s.wrong),
            count(s.bad_moves),
            s.failed,
            fmt_time(s.mean_time_us() as u64),
            fmt_time(s.median_time_us()),
            fmt_time(s.p99_time_us()),
            s.mean_nodes(),
            s.positions_per_s(),
        ));
    }
    out
}

/// The text of a positions file or a shard's output (`what`, for
/// messages); `-` is standard input.
pub fn read_text_of(path: &Path, what: &str) -> Result<String> {
    let mut text = String::new();
    if path == Path::new("-") {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| anyhow!("cannot read {what} from standard input: {e}"))?;
    } else {
        let mut f =
            std::fs::File::open(path).map_err(|e| anyhow!("cannot read {what} file {}: {e}", path.display()))?;
        f.read_to_string(&mut text)
            .map_err(|e| anyhow!("{}: cannot read: {e}", path.display()))?;
    }
    Ok(text)
}
