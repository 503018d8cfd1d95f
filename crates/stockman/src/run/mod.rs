//! One way to run searches, shared by every front end: the command line,
//! the Python package and library users who want what `stockman solve`
//! does without re-implementing it.
//!
//! A [`Settings`] (what a user asked for, with `None` meaning "the
//! default") becomes a [`Request`] for a kind of source ([`SourceKind`]):
//! the algorithms and the [`SearchOptions`], with one set of defaults for
//! every front end. A [`Runner`] answers a request on any [`Game`] with one
//! [`Solution`] per algorithm: the value or the proven bounds, the best
//! move, the [`Stats`], what stopped the search and why it failed. The
//! runner keeps its transposition table between requests, allocated and
//! committed before any clock starts, so that a search's time is the
//! search's alone. [`batch`] solves a file of test positions with it.
//!
//! The built-in games are named by [`GameKind`]; [`with_game`] hands one,
//! set up at a position, to code that is generic over [`Playable`].
//!
//! # Example
//! ```
//! use stockman::run::{Runner, Settings, SourceKind};
//! use stockman::{Algorithm, ExplicitTree, Role};
//!
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let settings = Settings {
//!     algorithms: Some(vec![Algorithm::Sss, Algorithm::Mtdf]),
//!     ..Settings::default()
//! };
//! let request = settings.request(SourceKind::Tree).unwrap();
//! let mut runner = Runner::new();
//! for s in runner.solve(&tree, &request) {
//!     assert_eq!((s.value, s.best_index), (Some(3), Some(0)), "{}", s.label());
//! }
//! ```

pub mod batch;
pub mod perft;

use crate::algorithms::{alphabeta, Algorithm, Parallel};
use crate::drivers::{lazy_smp, Search};
use crate::game::{CostlyEval, Game};
use crate::games::{Checkers, ChessGame, ConnectFour, Othello, Playable, TicTacToe};
use crate::observe::{LeafRecorder, NoObserver, Observer};
use crate::options::{Limits, Params};
use crate::ordering::Heuristics;
use crate::search::{Limit, Outcome, SearchError, SearchOptions};
use crate::shared_table::SharedTable;
use crate::stats::Stats;
use crate::table::{AnyTable, Table, TableError, TableSize};
use crate::value::Value;
use std::time::Duration;

/// The transposition table of a built-in game unless the caller says
/// otherwise, in MiB: every front end's default.
pub const DEFAULT_GAME_TABLE_MB: usize = 64;

/// The aspiration half-width of alpha-beta and NegaScout under iterative
/// deepening unless the caller says otherwise: on the Connect Four
/// heuristic (-99..99 per position) the narrowest width that does not fail
/// often.
pub const DEFAULT_ASPIRATION: Value = 10;

/// The built-in games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    /// Tic-tac-toe; a position is the cells played, 1-9 in reading order.
    TicTacToe,
    /// Connect Four, 7x6; a position is the columns played, 1-7.
    Connect4,
    /// Othello, 8x8; a position is the squares played (`f5d6c3`) or an FFO
    /// board and side (`"<64 squares> X"`).
    Othello,
    /// Chess; a position is `startpos`, a FEN or an EPD line, then
    /// optionally `moves` and UCI moves (`e2e4 e7e5`).
    Chess,
    /// English draughts (checkers), 8x8; a position is the moves played
    /// (`11-15 23-19 9x18`), a PDN FEN (`W:W21,22,K30:B1-12`) or a board
    /// diagram, the last two optionally followed by moves.
    Checkers,
}

impl GameKind {
    /// Every built-in game.
    pub const ALL: &'static [GameKind] = &[
        GameKind::TicTacToe,
        GameKind::Connect4,
        GameKind::Othello,
        GameKind::Chess,
        GameKind::Checkers,
    ];

    /// The name on the command line and in Python.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::TicTacToe => "tictactoe",
            GameKind::Connect4 => "connect4",
            GameKind::Othello => "othello",
            GameKind::Chess => "chess",
            GameKind::Checkers => "checkers",
        }
    }

    /// Every game's name, in [`GameKind::ALL`]'s order.
    pub fn names() -> Vec<&'static str> {
        GameKind::ALL.iter().map(|g| g.name()).collect()
    }

    /// Whether a search of this game needs a depth: a chess or checkers
    /// game cannot be searched to its end, so a fixed-depth search refuses
    /// to start without one instead of running forever (iterative
    /// deepening under a limit does not need one).
    pub fn needs_depth(self) -> bool {
        matches!(self, GameKind::Chess | GameKind::Checkers)
    }

    /// What a search of this game uses when the caller does not say: the
    /// best settings measured (docs/guide/games.md gives the figures).
    /// Othello: MTD(f) with enhanced transposition cut-offs from 12 empty
    /// squares, as the FFO endgame figures (FFO #40-#42: 1.7 s, where
    /// MTD(bi) without them took 3.4 s). The others: MTD(bi).
    pub fn defaults(self) -> GameDefaults {
        match self {
            GameKind::Othello => GameDefaults {
                algorithm: Algorithm::Mtdf,
                etc_from: Some(12),
            },
            _ => GameDefaults {
                algorithm: Algorithm::MtdBi,
                etc_from: None,
            },
        }
    }
}

/// A built-in game's default settings ([`GameKind::defaults`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameDefaults {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Enhanced transposition cut-offs at nodes with at least this much
    /// left below them ([`Enhancements::etc_min_depth`](crate::Enhancements::etc_min_depth));
    /// `None`: none (but under iterative deepening, everywhere).
    pub etc_from: Option<u32>,
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for GameKind {
    type Err = RunError;
    fn from_str(s: &str) -> Result<GameKind, RunError> {
        let t = s.trim().to_ascii_lowercase();
        GameKind::ALL
            .iter()
            .copied()
            .find(|g| g.name() == t)
            .ok_or_else(|| RunError::Settings(format!("unknown game `{s}` (known: {})", GameKind::names().join(", "))))
    }
}

/// Something to do with a built-in game of any kind, generic over the
/// game: code names a game once, through [`with_game`], and stays generic
/// over [`Playable`] after that.
pub trait GameTask {
    /// What the task gives back.
    type Output;
    /// Does the task on `game`.
    fn run<G: Playable + Send + Sync + 'static>(self, game: G) -> Self::Output;
}

/// Builds the game `kind` at `position` (in the game's notation; `""` is
/// the start), valued for depth-limited search when `heuristic`, and hands
/// it to `task`.
///
/// # Errors
/// [`RunError::Position`] naming what is wrong with the position.
pub fn with_game<T: GameTask>(kind: GameKind, position: &str, heuristic: bool, task: T) -> Result<T::Output, RunError> {
    fn prepare<G: Playable>(kind: GameKind, position: &str, heuristic: bool) -> Result<G, RunError> {
        let game = G::from_position(position).map_err(|e| RunError::Position {
            game: kind,
            position: position.to_string(),
            message: e.to_string(),
        })?;
        Ok(if heuristic { game.heuristic() } else { game })
    }
    Ok(match kind {
        GameKind::TicTacToe => task.run(prepare::<TicTacToe>(kind, position, heuristic)?),
        GameKind::Connect4 => task.run(prepare::<ConnectFour>(kind, position, heuristic)?),
        GameKind::Othello => task.run(prepare::<Othello>(kind, position, heuristic)?),
        GameKind::Chess => task.run(prepare::<ChessGame>(kind, position, heuristic)?),
        GameKind::Checkers => task.run(prepare::<Checkers>(kind, position, heuristic)?),
    })
}

/// What kind of source a request is for: the defaults differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// An explicit or random tree, or a game the caller wrote: every
    /// algorithm, the textbook left-to-right order, an unbounded table for
    /// the searches that need one.
    Tree,
    /// A built-in game: its [`GameKind::defaults`] (MTD(bi), the fastest
    /// exact solver on most of them; Othello: MTD(f) with enhanced
    /// transposition cut-offs from 12 empty squares), a fixed table of
    /// [`DEFAULT_GAME_TABLE_MB`], the table's move first.
    Game(GameKind),
}

/// The move-ordering enhancements as a user sets them; `None` is the
/// default: with iterative deepening the table's move, enhanced
/// transposition cutoffs and aspiration windows of [`DEFAULT_ASPIRATION`]
/// (as [`SearchOptions::engine`]), history and killers only when asked (on
/// Connect Four they cost more than they save); a fixed-depth search keeps
/// the textbook order on trees and the table's move first in games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Enhancements {
    /// The history heuristic.
    pub history: Option<bool>,
    /// Two killer moves per ply.
    pub killers: Option<bool>,
    /// Enhanced transposition cutoffs.
    pub etc: Option<bool>,
    /// Enhanced transposition cutoffs only with this much left below a node
    /// ([`Enhancements::etc_min_depth`](crate::Enhancements::etc_min_depth); default 0, everywhere).
    pub etc_min_depth: Option<u32>,
    /// A presearch of the narrowed game before a search to the end
    /// ([`Enhancements::presearch`](crate::Enhancements::presearch); default none).
    pub presearch: Option<crate::Presearch>,
    /// Aspiration half-width (`Some(None)`: full windows).
    pub aspiration: Option<Option<Value>>,
    /// How a failed aspiration window is searched again (default: on the
    /// failing side only).
    pub aspiration_research: Option<crate::search::Research>,
    /// Best Node Search's first window around the previous iteration's
    /// bound (`Some(None)`: the game's whole range, as Rutko; default: the
    /// aspiration half-width).
    pub bns_window: Option<Option<Value>>,
    /// The table's best move first.
    pub table_move: Option<bool>,
}

/// What a user asks of a search, with `None` for "the default": the
/// command line's flags and the Python keyword arguments both become one.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The algorithms, in order (default: [`SourceKind`]'s).
    pub algorithms: Option<Vec<Algorithm>>,
    /// The horizon in plies (default: to the end of the game).
    pub depth: Option<u32>,
    /// Drive each depth-first algorithm by iterative deepening.
    pub iterative: bool,
    /// Stop after this many positions.
    pub max_nodes: Option<u64>,
    /// Stop after this much time.
    pub time_limit: Option<Duration>,
    /// Cap on OPEN entries of the best-first searches.
    pub max_open: Option<usize>,
    /// A fixed table of this many MiB (default: [`SourceKind`]'s).
    pub tt_mb: Option<usize>,
    /// Keep positions at the depth limit out of the table.
    pub no_horizon_table: bool,
    /// MTD(f)'s first guess.
    pub first_guess: Option<Value>,
    /// Best Node Search's first test.
    pub bns_first_test: Option<Value>,
    /// Move ordering.
    pub enhancements: Enhancements,
    /// Record the evaluated leaves.
    pub leaves: bool,
    /// Spend this long in every evaluation (a costly evaluation function).
    pub eval_cost_ns: u64,
    /// Threads per search (default 1: today's exact trees and counts);
    /// more runs the depth-first algorithms by Lazy SMP
    /// ([`lazy_smp`]) or ABDADA ([`abdada`](crate::drivers::abdada)) through a shared table,
    /// and SSS\* and Dual\* in rounds ([`parallel_sss`](crate::drivers::parallel_sss)).
    pub threads: Option<usize>,
    /// How several threads share a search (default [`Parallel::Abdada`]).
    pub parallel: Option<Parallel>,
}

pub use crate::options::MAX_THREADS;

impl Settings {
    /// The request these settings make for a source of `kind`.
    ///
    /// # Errors
    /// [`RunError::Settings`] for an empty list of algorithms, a time
    /// limit of zero, or a table size out of range; and for a chess search
    /// that could never end (no depth and no iterative deepening under a
    /// limit).
    pub fn request(&self, kind: SourceKind) -> Result<Request, RunError> {
        let game = matches!(kind, SourceKind::Game(_));
        let algorithms = match &self.algorithms {
            Some(a) if a.is_empty() => {
                return Err(RunError::Settings(format!(
                    "no algorithm given (known: {})",
                    Algorithm::ALL.iter().map(|a| a.name()).collect::<Vec<_>>().join(", ")
                )))
            }
            Some(a) => a.clone(),
            None => match kind {
                SourceKind::Game(g) => vec![g.defaults().algorithm],
                SourceKind::Tree => Algorithm::ALL.to_vec(),
            },
        };
        if self.time_limit == Some(Duration::ZERO) {
            return Err(RunError::Settings("the time limit must be positive".into()));
        }
        if let SourceKind::Game(g) = kind {
            let bounded = self.iterative && (self.time_limit.is_some() || self.max_nodes.is_some());
            if g.needs_depth() && self.depth.is_none() && !bounded {
                return Err(RunError::NeedsDepth(g));
            }
        }
        let table = match self.tt_mb {
            Some(mb) => TableSize::Megabytes(mb),
            None if game => TableSize::Megabytes(DEFAULT_GAME_TABLE_MB),
            None => TableSize::Unbounded,
        };
        if let TableSize::Megabytes(mb) = table {
            if !(1..=crate::table::MAX_TABLE_MB).contains(&mb) {
                return Err(RunError::Table(TableError {
                    megabytes: mb,
                    kind: crate::table::TableErrorKind::OutOfRange,
                }));
            }
        }
        let engine = self.iterative;
        let etc_from = match kind {
            SourceKind::Game(g) => g.defaults().etc_from,
            SourceKind::Tree => None,
        };
        let e = &self.enhancements;
        let options = SearchOptions {
            limits: Limits {
                depth: self.depth,
                nodes: self.max_nodes,
                time: self.time_limit,
                max_open: self.max_open.unwrap_or(crate::search::DEFAULT_MAX_OPEN),
                ..Default::default()
            },
            table,
            enhancements: crate::options::Enhancements {
                table_move_first: e.table_move.unwrap_or(engine || game),
                table_at_horizon: !self.no_horizon_table,
                history: e.history.unwrap_or(false),
                killers: e.killers.unwrap_or(false),
                etc: e.etc.unwrap_or(engine || etc_from.is_some()),
                etc_min_depth: e.etc_min_depth.unwrap_or(etc_from.unwrap_or(0)),
                presearch: e.presearch,
                aspiration: e.aspiration.unwrap_or(engine.then_some(DEFAULT_ASPIRATION)),
                aspiration_research: e.aspiration_research.unwrap_or_default(),
            },
            params: Params {
                first_guess: self.first_guess.unwrap_or(0),
                bns_window: e
                    .bns_window
                    .unwrap_or(e.aspiration.unwrap_or(engine.then_some(DEFAULT_ASPIRATION))),
                bns_first_test: self.bns_first_test,
                ..Default::default()
            },
            ..SearchOptions::default()
        };
        let threads = self.threads.unwrap_or(1);
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(RunError::Settings(format!(
                "the number of threads must be 1 to {MAX_THREADS}, not {threads}"
            )));
        }
        Ok(Request {
            algorithms,
            options,
            iterative: self.iterative,
            leaves: self.leaves,
            eval_cost_ns: self.eval_cost_ns,
            threads,
            parallel: self.parallel.unwrap_or_default(),
        })
    }
}

/// What to run: the algorithms and their options, resolved.
#[derive(Clone, Debug)]
pub struct Request {
    /// The algorithms, in order.
    pub algorithms: Vec<Algorithm>,
    /// Their options.
    pub options: SearchOptions,
    /// Drive the depth-first ones by iterative deepening (the best-first
    /// ones run once at the depth).
    pub iterative: bool,
    /// Record the evaluated leaves.
    pub leaves: bool,
    /// Spend this long in every evaluation.
    pub eval_cost_ns: u64,
    /// Threads per search (1: one; more: the depth-first algorithms on that
    /// many threads, shared as `parallel` says, SSS\* and Dual\* in rounds;
    /// see [`Runner::solve_threads`]).
    pub threads: usize,
    /// How several threads share a search.
    pub parallel: Parallel,
}

/// One algorithm's answer, whole: what `stockman solve` prints as a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Whether it was driven by iterative deepening.
    pub deepened: bool,
    /// The minimax value (`None` for BNS and for a search that stopped).
    pub value: Option<Value>,
    /// Best Node Search's final `(alpha, beta)` ([`Outcome::bound`]).
    pub bound: Option<(Value, Value)>,
    /// What a search stopped by a limit had proved: `lower <= value <= upper`.
    pub proven: Option<(Value, Value)>,
    /// The best move at the root (for a stopped search: a move proven to
    /// reach the bound on the root mover's side, if any).
    pub best_move: Option<M>,
    /// Its index in the root's move list.
    pub best_index: Option<usize>,
    /// What the search measured.
    pub stats: Stats,
    /// Iterative deepening: the deepest completed iteration.
    pub depth_completed: Option<u32>,
    /// Iterative deepening: the limit that stopped the next iteration.
    pub stopped_by: Option<Limit>,
    /// The evaluated leaves in evaluation order, if recorded.
    pub leaves: Option<Vec<Vec<u32>>>,
    /// Why the search gave no answer.
    pub error: Option<SearchError>,
}

impl<M> Solution<M> {
    /// The algorithm's name, with `+id` when deepened (`mtdf+id`).
    pub fn label(&self) -> String {
        if self.deepened {
            format!("{}+id", self.algorithm.name())
        } else {
            self.algorithm.name().to_string()
        }
    }

    /// A solution that failed before it searched.
    pub fn failed(algorithm: Algorithm, deepened: bool, error: SearchError) -> Solution<M> {
        Solution {
            algorithm,
            deepened,
            value: None,
            bound: None,
            proven: None,
            best_move: None,
            best_index: None,
            stats: error.stats().copied().unwrap_or_default(),
            depth_completed: None,
            stopped_by: None,
            leaves: None,
            error: Some(error),
        }
    }

    /// The same solution with its move turned into something else (its
    /// notation, a JSON value, a Python object).
    pub fn map_move<N>(self, f: impl FnOnce(M) -> N) -> Solution<N> {
        Solution {
            algorithm: self.algorithm,
            deepened: self.deepened,
            value: self.value,
            bound: self.bound,
            proven: self.proven,
            best_move: self.best_move.map(f),
            best_index: self.best_index,
            stats: self.stats,
            depth_completed: self.depth_completed,
            stopped_by: self.stopped_by,
            leaves: self.leaves,
            error: self.error,
        }
    }

    /// Whether a node or time limit (or a stop request) ended the search
    /// without an answer.
    pub fn hit_limit(&self) -> bool {
        self.error.as_ref().is_some_and(|e| e.limit().is_some())
    }
}

/// Runs requests, keeping one fixed transposition table between them.
///
/// A fixed table is allocated (fallibly) and its memory committed when a
/// request first asks for its size, then cleared before each search: the
/// searches' clocks never include the allocation. Unbounded tables grow
/// with each search and are the search's own.
#[derive(Debug, Default)]
pub struct Runner {
    table: Option<AnyTable>,
    megabytes: usize,
    /// The table of the parallel searches, and its size.
    shared: Option<(usize, SharedTable)>,
}

impl Runner {
    /// A runner with no table yet.
    pub fn new() -> Runner {
        Runner::default()
    }

    /// Makes sure the table of `size` exists (allocated, committed), so
    /// that no search pays for it. Does nothing for an unbounded table.
    ///
    /// # Errors
    /// The table cannot be allocated.
    pub fn prepare(&mut self, size: TableSize) -> Result<(), TableError> {
        if let TableSize::Megabytes(mb) = size {
            if self.table.is_none() || self.megabytes != mb {
                self.table = None; // free the old one before asking for the new
                let mut t = AnyTable::try_new(size)?;
                t.touch();
                self.table = Some(t);
                self.megabytes = mb;
            }
        }
        Ok(())
    }

    /// The runner's fixed table, cleared, if the request asks for one.
    fn table_for(&mut self, size: TableSize) -> Result<Option<&mut AnyTable>, TableError> {
        if let TableSize::Megabytes(_) = size {
            self.prepare(size)?;
            let t = self.table.as_mut().expect("prepared");
            t.clear();
            Ok(Some(t))
        } else {
            Ok(None)
        }
    }

    /// Every algorithm of `request` on `game`, in order.
    pub fn solve<G: Game>(&mut self, game: &G, request: &Request) -> Vec<Solution<G::Move>> {
        request
            .algorithms
            .iter()
            .map(|&a| self.solve_one(game, a, request, &mut NoObserver))
            .collect()
    }

    /// One algorithm on `game` with `request`'s options, `obs` watching.
    pub fn solve_one<G: Game, O: Observer>(
        &mut self,
        game: &G,
        algorithm: Algorithm,
        request: &Request,
        obs: &mut O,
    ) -> Solution<G::Move> {
        if request.eval_cost_ns > 0 {
            let costly = CostlyEval {
                game,
                nanos: request.eval_cost_ns,
            };
            self.solve_plain(&costly, game, algorithm, request, obs)
        } else {
            self.solve_plain(game, game, algorithm, request, obs)
        }
    }

    /// Every algorithm of `request` on `game` on `request.threads`
    /// threads: with more than one, the depth-first algorithms run as
    /// `request.parallel` says ([`Parallel`]) through one shared table (of the request's size;
    /// [`DEFAULT_GAME_TABLE_MB`] when the request's table is unbounded),
    /// SSS\* and Dual\* in rounds ([`parallel_sss`](crate::drivers::parallel_sss)), and the others on one
    /// thread, as [`Runner::solve`] runs them (see [`Runner::single_threaded`]).
    pub fn solve_threads<G: Game + Sync>(&mut self, game: &G, request: &Request) -> Vec<Solution<G::Move>>
    where
        G::Position: Send,
        G::Move: Send,
    {
        request
            .algorithms
            .iter()
            .map(|&a| self.solve_one_threads(game, a, request, &mut NoObserver))
            .collect()
    }

    /// The algorithms of `request` that run on one thread whatever
    /// `request.threads` says (those with no parallel form here: minimax,
    /// RecSSS\* and RecDual\*; SSS\* and Dual\* unless the request asks for
    /// [`Parallel::Rounds`]; see [`Algorithm::runs_parallel`]); empty with one thread.
    pub fn single_threaded(request: &Request) -> Vec<Algorithm> {
        if request.threads <= 1 {
            return Vec::new();
        }
        request
            .algorithms
            .iter()
            .copied()
            .filter(|&a| !Runner::parallel(request, a))
            .collect()
    }

    /// Whether `request` runs `algorithm` on several threads.
    fn parallel(request: &Request, algorithm: Algorithm) -> bool {
        request.threads > 1 && algorithm.runs_parallel(request.parallel)
    }

    /// [`Runner::solve_one`] on `request.threads` threads (see
    /// [`Runner::solve_threads`]).
    pub fn solve_one_threads<G: Game + Sync, O: Observer>(
        &mut self,
        game: &G,
        algorithm: Algorithm,
        request: &Request,
        obs: &mut O,
    ) -> Solution<G::Move>
    where
        G::Position: Send,
        G::Move: Send,
    {
        if !Runner::parallel(request, algorithm) {
            return self.solve_one(game, algorithm, request, obs);
        }
        let deepened = request.iterative && !algorithm.is_best_first();
        // The depth-first searches share a table (kept between searches);
        // SSS* and Dual* in rounds need none.
        let table = if lazy_smp::supports(algorithm) {
            let mb = match request.options.table {
                TableSize::Megabytes(mb) => mb,
                TableSize::Unbounded => DEFAULT_GAME_TABLE_MB,
            };
            if self.shared.as_ref().is_none_or(|(m, _)| *m != mb) {
                self.shared = None;
                match SharedTable::with_megabytes(mb) {
                    Ok(mut t) => {
                        t.touch();
                        self.shared = Some((mb, t));
                    }
                    Err(e) => return Solution::failed(algorithm, deepened, SearchError::Table(e)),
                }
            }
            let table = &mut self.shared.as_mut().expect("made above").1;
            if let Err(e) = table.clear() {
                return Solution::failed(algorithm, deepened, SearchError::Unsupported { reason: e.to_string() });
            }
            Some(&*table)
        } else {
            None
        };
        let opts = SearchOptions {
            threads: crate::options::Threads {
                count: request.threads,
                parallel: request.parallel,
            },
            ..request.options.clone()
        };
        let (result, leaves) = if request.eval_cost_ns > 0 {
            let costly = CostlyEval {
                game,
                nanos: request.eval_cost_ns,
            };
            parallel_recorded(&costly, algorithm, &opts, deepened, table, request.leaves, obs)
        } else {
            parallel_recorded(game, algorithm, &opts, deepened, table, request.leaves, obs)
        };
        finish(result, leaves, algorithm, deepened, game)
    }

    fn solve_plain<G: Game<Move = M>, R: Game<Move = M>, M: Copy, O: Observer>(
        &mut self,
        game: &G,
        root_game: &R,
        algorithm: Algorithm,
        request: &Request,
        obs: &mut O,
    ) -> Solution<M> {
        let deepened = request.iterative && !algorithm.is_best_first();
        let opts = &request.options;
        let table = match self.table_for(opts.table) {
            Ok(t) => t,
            Err(e) => return Solution::failed(algorithm, deepened, SearchError::Table(e)),
        };
        let (result, leaves) = if request.leaves {
            let mut rec = LeafRecorder::default();
            let r = search_with(game, algorithm, opts, deepened, table, &mut (&mut rec, obs));
            let paths = r.is_ok().then(|| rec.paths());
            (r, paths)
        } else {
            (search_with(game, algorithm, opts, deepened, table, obs), None)
        };
        finish(result, leaves, algorithm, deepened, root_game)
    }
}

/// A search's result as a [`Solution`]; a limit's partial result names
/// its best move in `root_game`.
fn finish<R: Game>(
    result: Result<Outcome<R::Move>, SearchError>,
    leaves: Option<Vec<Vec<u32>>>,
    algorithm: Algorithm,
    deepened: bool,
    root_game: &R,
) -> Solution<R::Move> {
    match result {
        Ok(out) => Solution {
            algorithm,
            deepened,
            value: out.value,
            bound: out.bound,
            proven: None,
            best_move: out.best_move,
            best_index: out.best_index,
            stats: out.stats,
            depth_completed: out.depth_completed,
            stopped_by: out.stopped_by,
            leaves,
            error: None,
        },
        Err(e) => {
            let mut s = Solution::failed(algorithm, deepened, e);
            if let Some(p) = s.error.as_ref().and_then(|e| e.partial()).copied() {
                if p.is_known() {
                    s.proven = Some((p.lower, p.upper));
                    s.best_index = p.best_index;
                    s.best_move = p
                        .best_index
                        .and_then(|i| alphabeta::nth_move(root_game, &root_game.root(), i));
                }
            }
            s
        }
    }
}

/// What to tell a user whose `algorithms` stay on one thread
/// ([`Runner::single_threaded`]): "minimax has no parallel form here and
/// runs on one thread", and for SSS\* and Dual\* "sss runs on one thread
/// unless the parallel search is `rounds`"; `None` for an empty list.
pub fn no_parallel_form(algorithms: &[Algorithm]) -> Option<String> {
    let (rounds, none): (Vec<Algorithm>, Vec<Algorithm>) = algorithms
        .iter()
        .partition(|a| crate::drivers::parallel_sss::supports(**a));
    // "{names} has/have {rest}" with the verb of one name or of several.
    let say = |list: &[Algorithm], one: &str, many: &str| {
        let names: Vec<&str> = list.iter().map(|a| a.name()).collect();
        let verb = if names.len() == 1 { one } else { many };
        (!names.is_empty()).then(|| format!("{} {verb}", names.join(", ")))
    };
    let parts: Vec<String> = [
        say(
            &none,
            "has no parallel form here and runs on one thread",
            "have no parallel form here and run on one thread",
        ),
        say(
            &rounds,
            "runs on one thread unless the parallel search is `rounds`",
            "run on one thread unless the parallel search is `rounds`",
        ),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// A search's result and, when asked, the paths of the leaves it evaluated.
type Recorded<M> = (Result<Outcome<M>, SearchError>, Option<Vec<Vec<u32>>>);

/// A search on several threads ([`Algorithm::search_shared_in`]), the
/// calling thread's leaves recorded when `leaves`.
fn parallel_recorded<G: Game + Sync, O: Observer>(
    game: &G,
    algorithm: Algorithm,
    opts: &SearchOptions,
    deepen: bool,
    table: Option<&SharedTable>,
    leaves: bool,
    obs: &mut O,
) -> Recorded<G::Move>
where
    G::Position: Send,
    G::Move: Send,
{
    if leaves {
        let mut rec = LeafRecorder::default();
        let r = algorithm.shared_in(game, opts, deepen, table, &mut (&mut rec, obs), &mut Heuristics::new());
        let paths = r.is_ok().then(|| rec.paths());
        (r, paths)
    } else {
        (
            algorithm.shared_in(game, opts, deepen, table, obs, &mut Heuristics::new()),
            None,
        )
    }
}

/// One search: with the runner's table if there is one, deepened if asked.
fn search_with<G: Game, O: Observer>(
    game: &G,
    a: Algorithm,
    opts: &SearchOptions,
    deepen: bool,
    table: Option<&mut AnyTable>,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    let search = Search::new(a, opts).observer(obs);
    let search = if deepen { search.deepen() } else { search };
    match table {
        Some(t) => search.table(t).run(game),
        None => search.run(game),
    }
}

/// Why a request could not be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// A built-in game's position text is malformed or illegal.
    Position {
        /// The game.
        game: GameKind,
        /// The text as given.
        position: String,
        /// What is wrong with it.
        message: String,
    },
    /// The table cannot be made.
    Table(TableError),
    /// A search of this game could never end: it needs a depth (or
    /// iterative deepening under a time or node limit).
    NeedsDepth(GameKind),
    /// The settings ask for something impossible (the message says what).
    Settings(String),
    /// A bug: code below the front end panicked. The message says where.
    Internal(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Position { position, message, .. } => write!(f, "position `{position}`: {message}"),
            RunError::Table(e) => write!(f, "{e}"),
            RunError::NeedsDepth(g) => write!(
                f,
                "{g} needs a depth: a {g} game cannot be searched to its end (give a depth such as 4, \
                 or iterative deepening under a time or node limit)"
            ),
            RunError::Settings(m) => f.write_str(m),
            RunError::Internal(m) => write!(f, "internal error (a bug in stockman, please report it): {m}"),
        }
    }
}

impl std::error::Error for RunError {}

impl From<TableError> for RunError {
    fn from(e: TableError) -> RunError {
        RunError::Table(e)
    }
}

/// Bytes of stack for a search that recurses `depth` plies deep: the
/// recursive searches take well under 2 KiB a ply (measured by the deep
/// games of the tests), and the stack is only reserved, not touched.
pub fn stack_bytes(depth: u64) -> usize {
    (64usize << 20).saturating_add((depth as usize).saturating_mul(4096))
}

/// Runs `f` on a thread of its own with `stack` bytes of stack, and turns
/// a panic in it into [`RunError::Internal`] so that it never crosses an
/// API: the CLI prints it as an error, Python raises it.
///
/// # Errors
/// The thread cannot be started, or `f` panicked.
pub fn on_stack<T: Send>(stack: usize, f: impl FnOnce() -> T + Send) -> Result<T, RunError> {
    std::thread::scope(|s| {
        let t = std::thread::Builder::new()
            .name("stockman-search".into())
            .stack_size(stack)
            .spawn_scoped(s, f)
            .map_err(|e| {
                RunError::Settings(format!(
                    "cannot start the search thread with a {} MiB stack: {e}",
                    stack >> 20
                ))
            })?;
        t.join().map_err(|p| RunError::Internal(panic_message(&*p)))
    })
}

/// The message of a panic's payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

#[cfg(test)]
mod tests;
