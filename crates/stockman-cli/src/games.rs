//! `solve --game`: single positions and batches of test positions.

use crate::report::{fmt_time, Row};
use crate::runner::{exit_code, print_rows, rows_in, SearchArgs};
use crate::Format;
use anyhow::{anyhow, bail, Context, Result};
use clap::ValueEnum;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::{IsTerminal, Read};
use std::path::Path;
use std::process::ExitCode;
use stockman::games::positions::{parse_positions, PositionLine};
use stockman::{
    Algorithm, AnyTable, ChessGame, ConnectFour, Othello, Playable, SearchOptions, Stats, TableSize, TicTacToe, Value,
};

/// The games the command line knows.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameName {
    /// Tic-tac-toe; a position is the cells played, 1-9 in reading order.
    Tictactoe,
    /// Connect Four, 7x6; a position is the columns played, 1-7.
    Connect4,
    /// Othello, 8x8; a position is the squares played (`f5d6c3`) or an FFO
    /// board and side (`"<64 squares> X"`).
    Othello,
    /// Chess; a position is `startpos`, a FEN or an EPD line, then
    /// optionally `moves` and UCI moves (`e2e4 e7e5`). Needs `--depth`.
    Chess,
}

impl GameName {
    /// Whether a search of this game needs a depth: chess cannot be
    /// searched to the end of the game, so `solve` refuses it without
    /// `--depth` instead of running forever.
    fn needs_depth(self) -> bool {
        self == GameName::Chess
    }

    /// Refuses a search without a depth where the game needs one.
    fn check_depth(self, search: &SearchArgs) -> Result<()> {
        if self.needs_depth() && search.depth.is_none() {
            bail!(
                "--game chess needs --depth N: a chess game cannot be searched to its end (try --depth 4; or use `play`/`match`, which deepen under a clock)"
            );
        }
        Ok(())
    }
}

/// The transposition table games get unless `--tt-mb` says otherwise.
const DEFAULT_GAME_TT_MB: usize = 64;

/// Search options for a game: a fixed table, table moves first.
fn game_options(search: &SearchArgs) -> SearchOptions {
    let mut opts = search.options();
    opts.table = TableSize::Megabytes(search.tt_mb.unwrap_or(DEFAULT_GAME_TT_MB));
    opts.table_move_first = !search.enhance.no_table_move;
    opts
}

/// The algorithms for a game: `--algo`, or MTD(bi) when none was given
/// (`all` would include minimax, which cannot solve Connect Four; MTD(bi)
/// is the fastest exact solver here).
fn game_algorithms(search: &SearchArgs) -> Result<Vec<Algorithm>> {
    if search.algo_given() {
        search.algorithms()
    } else {
        Ok(vec![Algorithm::MtdBi])
    }
}

/// Something to do with a game of any kind. The commands name a game once,
/// through [`with_game`], and stay generic over [`Playable`] after that, so
/// that a new game is one [`GameName`] and one line in `with_game`.
pub trait GameTask {
    /// What the task gives back.
    type Output;
    /// Does the task on `game`.
    fn run<G: Playable + Sync>(self, game: G) -> Result<Self::Output>;
}

/// Builds the game `name` at `position` (in the game's notation), valued
/// for depth-limited search when `heuristic`, and hands it to `task`.
pub fn with_game<T: GameTask>(name: GameName, position: &str, heuristic: bool, task: T) -> Result<T::Output> {
    match name {
        GameName::Tictactoe => task.run(prepare::<TicTacToe>(position, heuristic)?),
        GameName::Connect4 => task.run(prepare::<ConnectFour>(position, heuristic)?),
        GameName::Othello => task.run(prepare::<Othello>(position, heuristic)?),
        GameName::Chess => task.run(prepare::<ChessGame>(position, heuristic)?),
    }
}

fn prepare<G: Playable>(position: &str, heuristic: bool) -> Result<G> {
    let game = G::from_position(position).map_err(|e| anyhow!("position `{position}`: {e}"))?;
    Ok(if heuristic { game.heuristic() } else { game })
}

/// A move of `game`'s root in JSON: a number where the notation is one
/// (Connect Four's columns 1-7, tic-tac-toe's cells 1-9), else the text
/// (chess: UCI, `e2e4`).
pub fn move_json<G: Playable>(game: &G, mv: &G::Move) -> serde_json::Value {
    let text = game.move_text(*mv);
    match text.parse::<u64>() {
        Ok(n) => serde_json::json!(n),
        Err(_) => serde_json::json!(text),
    }
}

/// Runs the algorithms on one position of a game, reusing `table` if given.
fn solve_one(
    name: GameName,
    moves: &str,
    search: &SearchArgs,
    algos: &[Algorithm],
    leaves: bool,
    table: &mut AnyTable,
    progress: bool,
) -> Result<Vec<Row>> {
    struct Solve<'a> {
        search: &'a SearchArgs,
        algos: &'a [Algorithm],
        leaves: bool,
        table: &'a mut AnyTable,
        progress: bool,
    }
    impl GameTask for Solve<'_> {
        type Output = Vec<Row>;
        fn run<G: Playable + Sync>(self, game: G) -> Result<Vec<Row>> {
            let opts = game_options(self.search);
            let mut how = self.search.how(self.leaves);
            how.progress = self.progress;
            let best = |m: &G::Move, _: usize| move_json(&game, m);
            Ok(rows_in(&game, self.algos, &opts, &how, &best, Some(self.table)))
        }
    }
    let task = Solve {
        search,
        algos,
        leaves,
        table,
        progress,
    };
    with_game(name, moves, search.depth.is_some(), task)
}

/// `solve --game NAME [--position MOVES]`.
pub fn solve(
    name: GameName,
    position: Option<&str>,
    search: &SearchArgs,
    format: Format,
    leaves: bool,
) -> Result<ExitCode> {
    name.check_depth(search)?;
    let algos = game_algorithms(search)?;
    // One table for every algorithm, cleared before each search, its memory
    // committed before the first clock starts (as in a batch). A single
    // position may take minutes (the empty board): show the passes.
    let mut table = AnyTable::new(game_options(search).table);
    table.touch();
    let rows = solve_one(name, position.unwrap_or(""), search, &algos, leaves, &mut table, true)?;
    print_rows(&rows, format)?;
    Ok(exit_code(&rows))
}

/// One line of a batch's JSON output.
#[derive(Serialize)]
struct BatchLine<'a> {
    position: &'a str,
    algorithm: &'a str,
    value: Option<Value>,
    best_move: Option<serde_json::Value>,
    stats: Stats,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<Value>,
    /// The score the file lists for the best move found (FFO lines list every move's).
    #[serde(skip_serializing_if = "Option::is_none")]
    best_move_score: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Per-algorithm totals of a batch.
#[derive(Default)]
struct Summary {
    positions: u64,
    wrong: u64,
    /// Best moves whose listed score is below the position's expected score.
    bad_moves: u64,
    failed: u64,
    stats: Stats,
    /// Each position's search time, for the median and the 99th percentile
    /// (a batch's mean hides its few slow positions and its fast majority).
    times_us: Vec<u64>,
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
    wrong: u64,
    bad_moves: u64,
    failed: u64,
    mean_time_us: f64,
    median_time_us: u64,
    p99_time_us: u64,
    mean_nodes: f64,
    positions_per_s: f64,
    /// The batch's totals.
    stats: Stats,
}

impl<'a> SummaryLine<'a> {
    fn new(algorithm: &'a str, s: &Summary) -> SummaryLine<'a> {
        let n = s.positions.max(1) as f64;
        let secs = s.stats.time_us as f64 / 1e6;
        SummaryLine {
            summary: SummaryFigures {
                algorithm,
                positions: s.positions,
                wrong: s.wrong,
                bad_moves: s.bad_moves,
                failed: s.failed,
                mean_time_us: s.stats.time_us as f64 / n,
                median_time_us: quantile(&s.times_us, 0.5),
                p99_time_us: quantile(&s.times_us, 0.99),
                mean_nodes: s.stats.nodes as f64 / n,
                positions_per_s: if secs > 0.0 { s.stats.nodes as f64 / secs } else { 0.0 },
                stats: s.stats,
            },
        }
    }
}

/// The `q`-quantile (0..=1) of `xs` by the nearest-rank method: the
/// smallest value with at least a fraction `q` of the values at or below it.
fn quantile(xs: &[u64], q: f64) -> u64 {
    if xs.is_empty() {
        return 0;
    }
    let mut v = xs.to_vec();
    v.sort_unstable();
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

/// `solve --game NAME --positions FILE`: lines `moves [expected]`.
pub fn batch(name: GameName, path: &Path, search: &SearchArgs, format: Format) -> Result<ExitCode> {
    name.check_depth(search)?;
    let algos = game_algorithms(search)?;
    let lines = read_positions(path)?;
    let bar = if std::io::stderr().is_terminal() && lines.len() > 1 {
        let b = ProgressBar::new((lines.len() * algos.len()) as u64);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {per_sec}, ETA {eta}")
                .expect("valid template"),
        );
        Some(b)
    } else {
        None
    };
    let mut summaries: Vec<Summary> = algos.iter().map(|_| Summary::default()).collect();
    // One table for the whole batch, cleared before each search, its memory
    // committed before the first clock starts.
    let mut table = AnyTable::new(game_options(search).table);
    table.touch();
    for line in &lines {
        let (moves, expected) = (&line.position, &line.expected);
        let rows = solve_one(name, moves, search, &algos, false, &mut table, false)
            .with_context(|| format!("{}:{}", path.display(), line.line))?;
        for (row, sum) in rows.iter().zip(summaries.iter_mut()) {
            sum.positions += 1;
            sum.stats += row.stats;
            sum.times_us.push(row.stats.time_us);
            // The listed score of the move the search chose, where the file lists scores.
            let best_move_score = row.best_move.as_ref().and_then(|m| {
                let text = m.as_str().map_or_else(|| m.to_string(), str::to_string);
                line.score_of(&text)
            });
            if row.error.is_some() {
                sum.failed += 1;
            } else if let (Some(e), Some(v)) = (expected, row.value) {
                if *e != v {
                    sum.wrong += 1;
                }
            }
            if let (Some(e), Some(s)) = (expected, best_move_score) {
                if s < *e {
                    sum.bad_moves += 1;
                }
            }
            if format == Format::Json {
                let line = BatchLine {
                    position: moves,
                    algorithm: &row.algorithm,
                    value: row.value,
                    best_move: row.best_move.clone(),
                    stats: row.stats,
                    expected: *expected,
                    best_move_score,
                    error: row.error.clone(),
                };
                println!("{}", serde_json::to_string(&line)?);
            }
            if let Some(b) = &bar {
                b.inc(1);
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    match format {
        Format::Text => print!("{}", summary_table(&algos, &summaries)),
        // After the position lines, one summary line per algorithm, told
        // apart from them by its `summary` key.
        Format::Json => {
            for (a, s) in algos.iter().zip(&summaries) {
                println!("{}", serde_json::to_string(&SummaryLine::new(a.name(), s))?);
            }
        }
    }
    let bad = summaries.iter().any(|s| s.wrong > 0 || s.bad_moves > 0 || s.failed > 0);
    Ok(if bad { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn summary_table(algos: &[Algorithm], sums: &[Summary]) -> String {
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
    for (a, s) in algos.iter().zip(sums) {
        let n = s.positions.max(1) as f64;
        let secs = s.stats.time_us as f64 / 1e6;
        out.push_str(&format!(
            "{:<10} {:>9} {:>6} {:>9} {:>7} {:>12} {:>12} {:>12} {:>14.1} {:>14.0}\n",
            a.name(),
            s.positions,
            s.wrong,
            s.bad_moves,
            s.failed,
            fmt_time((s.stats.time_us as f64 / n) as u64),
            fmt_time(quantile(&s.times_us, 0.5)),
            fmt_time(quantile(&s.times_us, 0.99)),
            s.stats.nodes as f64 / n,
            if secs > 0.0 { s.stats.nodes as f64 / secs } else { 0.0 },
        ));
    }
    out
}

/// Reads a test set (`-` for standard input): see [`parse_positions`] for the layouts.
fn read_positions(path: &Path) -> Result<Vec<PositionLine>> {
    let mut text = String::new();
    if path == Path::new("-") {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| anyhow!("cannot read positions from standard input: {e}"))?;
    } else {
        let mut f =
            std::fs::File::open(path).map_err(|e| anyhow!("cannot read positions file {}: {e}", path.display()))?;
        f.read_to_string(&mut text)
            .map_err(|e| anyhow!("{}: cannot read: {e}", path.display()))?;
    }
    parse_positions(&text).map_err(|e| anyhow!("{}:{}:{}: {}", path.display(), e.line, e.column, e.message))
}

#[cfg(test)]
mod tests {
    use super::quantile;

    #[test]
    fn quantiles_by_nearest_rank() {
        let xs = [5, 1, 4, 2, 3];
        assert_eq!(quantile(&xs, 0.5), 3);
        assert_eq!(quantile(&xs, 0.99), 5);
        assert_eq!(quantile(&xs, 0.0), 1);
        let many: Vec<u64> = (1..=1000).collect();
        assert_eq!(quantile(&many, 0.5), 500);
        assert_eq!(quantile(&many, 0.99), 990);
        assert_eq!(quantile(&[], 0.5), 0);
    }
}
