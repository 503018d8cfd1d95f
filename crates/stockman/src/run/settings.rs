//! What a user asks for (the command line's flags, Python's keyword
//! arguments) and the request it resolves to, with every default filled
//! in: one resolver for every front end.

use super::{GameKind, RunError, DEFAULT_ASPIRATION, DEFAULT_GAME_TABLE_MB};
use crate::algorithms::capabilities::Knob;
use crate::algorithms::{Algorithm, Parallel};
use crate::engine::Engine;
use crate::options::{Limits, Params, Select};
use crate::search::{SearchError, SearchOptions};
use crate::table::{TableError, TableSize};
use crate::value::Value;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

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
    /// GSEARCH's and RSEARCH's selection rule (default [`Select::Upper`]).
    pub select: Option<Select>,
    /// RSEARCH's memory in stored nodes (default: the OPEN limit).
    pub memory: Option<usize>,
    /// Move ordering.
    pub enhancements: Enhancements,
    /// Record the evaluated leaves.
    pub leaves: bool,
    /// Spend this long in every evaluation (a costly evaluation function).
    pub eval_cost_ns: u64,
    /// Threads per search (default 1: today's exact trees and counts);
    /// more runs the depth-first algorithms by Lazy SMP
    /// ([`lazy_smp`](crate::drivers::lazy_smp)) or ABDADA ([`abdada`](crate::drivers::abdada)) through a shared table,
    /// and SSS\* and Dual\* in rounds ([`parallel_sss`](crate::drivers::parallel_sss)).
    pub threads: Option<usize>,
    /// How several threads share a search (default [`Parallel::Abdada`]).
    pub parallel: Option<Parallel>,
    /// States per round of SSS\* and Dual\* in rounds
    /// ([`Threads::round_states`](crate::options::Threads::round_states);
    /// default 0: left to the search).
    pub round_states: Option<usize>,
    /// Search the depth-first algorithms through the shared table even on
    /// one thread: the baseline a parallel search's speed-up is measured
    /// against (the same table, one thread).
    pub shared_table: bool,
}

pub use crate::options::MAX_THREADS;

impl Settings {
    /// Whether this asks for `knob` (a match, so that a new knob is read
    /// here or does not compile).
    fn gives(&self, knob: Knob) -> bool {
        match knob {
            Knob::Select => self.select.is_some(),
            Knob::Memory => self.memory.is_some(),
        }
    }

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
        for knob in Knob::ALL {
            let readers = crate::algorithms::capabilities::readers(knob);
            if self.gives(knob) && !algorithms.iter().any(|a| readers.contains(a)) {
                return Err(RunError::Unread {
                    knob,
                    readers,
                    asked: algorithms,
                });
            }
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
        if let TableSize::Megabytes(mb) = table
            && !(1..=crate::table::MAX_TABLE_MB).contains(&mb)
        {
            return Err(RunError::Table(TableError {
                megabytes: mb,
                kind: crate::table::TableErrorKind::OutOfRange,
            }));
        }
        let engine = self.iterative;
        let etc_from = match kind {
            SourceKind::Game(g) => g.defaults().etc_from,
            SourceKind::Tree => None,
        };
        let mut options = SearchOptions {
            limits: Limits {
                depth: self.depth,
                nodes: self.max_nodes,
                time: self.time_limit,
                max_open: self.max_open.unwrap_or(crate::search::DEFAULT_MAX_OPEN),
                ..Default::default()
            },
            table,
            enhancements: crate::options::Enhancements {
                // The game's own defaults, before the user's and the
                // engine's ([`Enhancements::apply`]).
                table_move_first: game,
                table_at_horizon: !self.no_horizon_table,
                etc: etc_from.is_some(),
                etc_min_depth: etc_from.unwrap_or(0),
                ..Default::default()
            },
            params: Params {
                first_guess: self.first_guess.unwrap_or(0),
                bns_first_test: self.bns_first_test,
                select: self.select.unwrap_or_default(),
                memory: self.memory,
                ..Default::default()
            },
            ..SearchOptions::default()
        };
        self.enhancements.apply(&mut options, engine);
        let threads = crate::options::Threads::check_count(self.threads.unwrap_or(1))
            .map_err(|e| RunError::Settings(e.to_string()))?;
        let round_states = self.round_states.unwrap_or(0);
        let max = crate::simulate::MAX_PROCESSORS;
        if round_states > max {
            return Err(RunError::Settings(format!(
                "{round_states} states per round: give 1 to {max}, or 0 to leave them to the search"
            )));
        }
        let parallel = self.parallel.unwrap_or_default();
        if round_states > 0 && parallel != Parallel::Rounds {
            return Err(RunError::Settings(format!(
                "{round_states} states per round: SSS* and Dual* run in rounds only when the threads share \
                 the search in rounds (this is {parallel})"
            )));
        }
        Ok(Request {
            algorithms,
            options,
            iterative: self.iterative,
            leaves: self.leaves,
            eval_cost_ns: self.eval_cost_ns,
            threads,
            parallel,
            round_states,
            shared_table: self.shared_table,
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
    /// see [`Runner::solve_threads`](super::Runner::solve_threads)).
    pub threads: usize,
    /// How several threads share a search.
    pub parallel: Parallel,
    /// States per round of SSS\* and Dual\* in rounds (0: left to the search).
    pub round_states: usize,
    /// The depth-first algorithms through the shared table even on one thread.
    pub shared_table: bool,
}

impl Enhancements {
    /// Sets `opts`'s enhancements to these, and where one is not given to
    /// the default: a game program's (as [`SearchOptions::engine`]) when
    /// `engine`, else none (history, killers and windows off; the table's
    /// move and the cut-offs as `opts` has them, a game's own defaults).
    pub fn apply(&self, opts: &mut SearchOptions, engine: bool) {
        let o = &mut opts.enhancements;
        o.history = self.history.unwrap_or(false);
        o.killers = self.killers.unwrap_or(false);
        o.etc = self.etc.unwrap_or(engine || o.etc);
        o.etc_min_depth = self.etc_min_depth.unwrap_or(o.etc_min_depth);
        o.presearch = self.presearch;
        o.aspiration = self.aspiration.unwrap_or(engine.then_some(DEFAULT_ASPIRATION));
        o.aspiration_research = self.aspiration_research.unwrap_or_default();
        o.table_move_first = self.table_move.unwrap_or(engine || o.table_move_first);
        opts.params.bns_window = self.bns_window.unwrap_or(opts.enhancements.aspiration);
    }
}

/// A game program's engine as a user sets it up: the one resolver of
/// engine defaults that `play`, `match`, `uci` and Python's `Engine` share.
///
/// # Example
/// ```
/// use stockman::run::EngineSettings;
/// use stockman::{Algorithm, Limits, TicTacToe};
/// let settings = EngineSettings { algorithm: Algorithm::NegaScout, tt_mb: 1, ..EngineSettings::default() };
/// let mut engine = settings.build(None).unwrap();
/// let out = engine.best_move(&TicTacToe::new(), &Limits::to_depth(9)).unwrap();
/// assert_eq!(out.value, Some(0));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// The algorithm (default MTD(f)); one that [drives an engine](Algorithm::drives_engine).
    pub algorithm: Algorithm,
    /// The table's size in MiB (default [`DEFAULT_GAME_TABLE_MB`]).
    pub tt_mb: usize,
    /// The enhancements; those not given are a game program's (the
    /// table's move, cut-offs, aspiration windows of [`DEFAULT_ASPIRATION`]).
    pub enhancements: Enhancements,
    /// Threads (default 1).
    pub threads: usize,
    /// How several threads share the search (default ABDADA).
    pub parallel: Parallel,
}

impl Default for EngineSettings {
    fn default() -> EngineSettings {
        EngineSettings {
            algorithm: Algorithm::Mtdf,
            tt_mb: DEFAULT_GAME_TABLE_MB,
            enhancements: Enhancements::default(),
            threads: 1,
            parallel: Parallel::default(),
        }
    }
}

impl EngineSettings {
    /// The options of every move's search (the limits come with each move).
    pub fn options(&self) -> SearchOptions {
        let mut opts = SearchOptions::engine(Some(DEFAULT_ASPIRATION));
        opts.table = TableSize::Megabytes(self.tt_mb);
        self.enhancements.apply(&mut opts, true);
        opts
    }

    /// The engine, its searches stoppable through `stop` when given.
    ///
    /// # Errors
    /// A best-first algorithm, a thread count out of range, a table that
    /// cannot be allocated.
    pub fn build(&self, stop: Option<Arc<AtomicBool>>) -> Result<Engine, SearchError> {
        let mut opts = self.options();
        opts.control.stop = stop;
        Engine::new(self.algorithm, opts)?.with_threads(self.threads, self.parallel)
    }
}
