//! Solving a file of test positions: each position's solutions and, per
//! algorithm, a summary of the set (positions wrong, mean, median and 99th
//! percentile time, positions per second).
//!
//! The positions are lines of a test set ([`parse_positions`](crate::games::positions::parse_positions): move lists
//! with an expected score, FENs, FFO and EPD lines). Expected scores are
//! exact game values: they are compared with what a search to the end
//! finds, never with the heuristic values of a depth-limited search.
//!
//! # Example
//! ```
//! use stockman::games::positions::parse_positions;
//! use stockman::run::{batch, GameKind, Runner, Settings, SourceKind};
//!
//! let lines = parse_positions("1425 1\n5 0\n").unwrap();
//! let kind = GameKind::TicTacToe;
//! let request = Settings { tt_mb: Some(1), ..Settings::default() }.request(SourceKind::Game(kind)).unwrap();
//! let summaries = batch::solve_positions(kind, &lines, &request, &mut Runner::new(), |_| {}).unwrap();
//! assert_eq!((summaries[0].positions, summaries[0].wrong), (2, Some(0)));
//! ```

use super::{with_game, GameKind, GameTask, Request, RunError, Runner, Solution};
use crate::games::positions::PositionLine;
use crate::games::Playable;
use crate::stats::Stats;
use crate::value::Value;

/// One position of a batch, solved by every algorithm of the request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionResult {
    /// The line of the file (1-based).
    pub line: usize,
    /// The position, as the file gives it.
    pub position: String,
    /// The exact score the file expects, if it gives one.
    pub expected: Option<Value>,
    /// One solution per algorithm, in the request's order; moves in the
    /// game's notation.
    pub solutions: Vec<Solution<String>>,
    /// Per algorithm: the score the file lists for the best move found
    /// (FFO and EPD lines list every good move's).
    pub best_move_scores: Vec<Option<Value>>,
}

/// One algorithm's figures over a whole batch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The algorithm's label (`mtdf`, `mtdf+id`).
    pub algorithm: String,
    /// Positions searched.
    pub positions: u64,
    /// Values that differ from the expected score; `None` when the values
    /// are not comparable with the file's exact scores (a depth-limited
    /// search gives heuristic values).
    pub wrong: Option<u64>,
    /// Best moves whose listed score is below the position's expected
    /// score; `None` when not comparable, as `wrong`.
    pub bad_moves: Option<u64>,
    /// Searches that gave no answer (a limit, an error).
    pub failed: u64,
    /// Searches that answered with a shallower depth than asked because a
    /// limit stopped the next iteration (not compared with the file).
    pub stopped: u64,
    /// Every search's counters added up.
    pub stats: Stats,
    /// Each position's search time in microseconds, in file order.
    pub times_us: Vec<u64>,
}

/// What a summary counts of one position's solution (the facts a batch's
/// JSON line keeps, so that shards' lines can be summed again).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted {
    /// The exact score the file expects.
    pub expected: Option<Value>,
    /// The value found.
    pub value: Option<Value>,
    /// The file's score for the move found.
    pub best_move_score: Option<Value>,
    /// The search's counters.
    pub stats: Stats,
    /// The search gave no answer (an error).
    pub failed: bool,
    /// A limit stopped it short of the depth asked.
    pub stopped: bool,
}

impl Summary {
    /// A summary of no position yet; `comparable`: whether the values are
    /// exact game values, comparable with the file's scores.
    pub fn new(algorithm: String, comparable: bool) -> Summary {
        Summary {
            algorithm,
            wrong: comparable.then_some(0),
            bad_moves: comparable.then_some(0),
            ..Summary::default()
        }
    }

    /// Counts one position's solution.
    pub fn record(&mut self, c: &Counted) {
        self.positions += 1;
        self.stats += c.stats;
        self.times_us.push(c.stats.time_us);
        if c.failed {
            self.failed += 1;
            return;
        }
        if c.stopped {
            self.stopped += 1;
            return;
        }
        if let (Some(e), Some(v), Some(w)) = (c.expected, c.value, self.wrong.as_mut()) {
            *w += u64::from(e != v);
        }
        if let (Some(e), Some(sc), Some(b)) = (c.expected, c.best_move_score, self.bad_moves.as_mut()) {
            *b += u64::from(sc < e);
        }
    }

    /// Mean search time per position, in microseconds.
    pub fn mean_time_us(&self) -> f64 {
        self.stats.time_us as f64 / self.positions.max(1) as f64
    }

    /// Median search time (nearest rank).
    pub fn median_time_us(&self) -> u64 {
        quantile(&self.times_us, 0.5)
    }

    /// 99th percentile of the search time (nearest rank).
    pub fn p99_time_us(&self) -> u64 {
        quantile(&self.times_us, 0.99)
    }

    /// Mean positions visited per position solved.
    pub fn mean_nodes(&self) -> f64 {
        self.stats.nodes as f64 / self.positions.max(1) as f64
    }

    /// Positions visited per second of search time.
    pub fn positions_per_s(&self) -> f64 {
        let secs = self.stats.time_us as f64 / 1e6;
        if secs > 0.0 {
            self.stats.nodes as f64 / secs
        } else {
            0.0
        }
    }

    /// Whether anything went wrong: a wrong value, a bad move, a failure.
    pub fn is_bad(&self) -> bool {
        self.wrong.unwrap_or(0) > 0 || self.bad_moves.unwrap_or(0) > 0 || self.failed > 0
    }
}

/// The `q`-quantile (0..=1) of `xs` by the nearest-rank method: the
/// smallest value with at least a fraction `q` of the values at or below it.
pub fn quantile(xs: &[u64], q: f64) -> u64 {
    if xs.is_empty() {
        return 0;
    }
    let mut v = xs.to_vec();
    v.sort_unstable();
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

/// A batch that could not be solved: which line, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchError {
    /// The line of the file (1-based; 0 for the file as a whole).
    pub line: usize,
    /// Why.
    pub error: RunError,
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.error)
        } else {
            write!(f, "{}", self.error)
        }
    }
}

impl std::error::Error for BatchError {}

/// Solves every line of a test set of `kind` with `request`, calling
/// `each` with every position's result as it is solved, and returns the
/// summary per algorithm.
///
/// # Errors
/// No positions at all, or a line whose position the game rejects (the
/// positions before it were solved and handed to `each`).
pub fn solve_positions(
    kind: GameKind,
    lines: &[PositionLine],
    request: &Request,
    runner: &mut Runner,
    mut each: impl FnMut(&PositionResult),
) -> Result<Vec<Summary>, BatchError> {
    if lines.is_empty() {
        return Err(BatchError {
            line: 0,
            error: RunError::Settings("the positions file holds no positions".into()),
        });
    }
    runner.prepare(request.options.table).map_err(|e| BatchError {
        line: 0,
        error: RunError::Table(e),
    })?;
    // Exact scores compare only with exact values: a search to the end.
    let comparable = request.options.limits.depth.is_none();
    let mut sums: Vec<Summary> = Vec::new();
    for line in lines {
        let solutions = solve_position(kind, &line.position, request, runner)
            .map_err(|error| BatchError { line: line.line, error })?;
        if sums.is_empty() {
            sums = solutions.iter().map(|s| Summary::new(s.label(), comparable)).collect();
        }
        let scores: Vec<Option<Value>> = solutions
            .iter()
            .map(|s| s.best_move.as_deref().and_then(|m| line.score_of(m)))
            .collect();
        for ((s, sum), score) in solutions.iter().zip(&mut sums).zip(&scores) {
            sum.record(&Counted {
                expected: line.expected,
                value: s.value,
                best_move_score: *score,
                stats: s.stats,
                failed: s.error.is_some(),
                stopped: s.stopped_by.is_some(),
            });
        }
        each(&PositionResult {
            line: line.line,
            position: line.position.clone(),
            expected: line.expected,
            solutions,
            best_move_scores: scores,
        });
    }
    Ok(sums)
}

/// Every algorithm of `request` on one position of `kind` (valued for a
/// depth-limited search when the request has a depth), moves in the
/// game's notation.
///
/// # Errors
/// The game rejects the position.
pub fn solve_position(
    kind: GameKind,
    position: &str,
    request: &Request,
    runner: &mut Runner,
) -> Result<Vec<Solution<String>>, RunError> {
    struct Solve<'a> {
        request: &'a Request,
        runner: &'a mut Runner,
    }
    impl GameTask for Solve<'_> {
        type Output = Vec<Solution<String>>;
        fn run<G: Playable + Send + Sync + 'static>(self, game: G) -> Vec<Solution<String>> {
            self.runner
                .solve_threads(&game, self.request)
                .into_iter()
                .map(|s| s.map_move(|m| game.move_text(m)))
                .collect()
        }
    }
    let heuristic = request.options.limits.depth.is_some();
    with_game(kind, position, heuristic, Solve { request, runner })
}
