//! What every search shares: its outcome, its errors, and the budget that
//! holds its limits. The options are in [`crate::options`], re-exported
//! here.

use crate::stats::Stats;
use crate::value::Value;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use crate::options::{
    Control, Enhancements, GuessKind, Limits, Parallel, Params, Presearch, Research, SearchOptions, Threads,
    DEFAULT_MAX_OPEN,
};
pub use crate::pool::NodePool;

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome<M> {
    /// The minimax value of the root, `None` for Best Node Search (which
    /// proves a best move and a bound instead).
    pub value: Option<Value>,
    /// The best move at the root, `None` when the root is a leaf.
    pub best_move: Option<M>,
    /// Its index in the root's move list (0-based, search order).
    pub best_index: Option<usize>,
    /// Best Node Search's final `(alpha, beta)`: the root's value `v`
    /// satisfies `alpha <= v < beta` (the invariant of
    /// [`crate::algorithms::bns`], which the theorem tests check).
    pub bound: Option<(Value, Value)>,
    /// Iterative deepening: the deepest iteration that completed, whose
    /// value and best move these are. `None` for a single search.
    pub depth_completed: Option<u32>,
    /// Iterative deepening: the limit that stopped the next iteration
    /// (the answer is then the last completed one's); `None` if no limit did.
    pub stopped_by: Option<Limit>,
    /// What the search measured (for iterative deepening: every
    /// iteration's counters, the unfinished one's included).
    pub stats: Stats,
}

impl<M> Outcome<M> {
    /// A single search's outcome (no deepening, no limit hit).
    pub fn new(
        value: Option<Value>,
        best_move: Option<M>,
        best_index: Option<usize>,
        bound: Option<(Value, Value)>,
        stats: Stats,
    ) -> Outcome<M> {
        Outcome {
            value,
            best_move,
            best_index,
            bound,
            depth_completed: None,
            stopped_by: None,
            stats,
        }
    }
}

/// A panic's message (its `&str` or `String` payload), for the errors that
/// carry a panic across a thread: a rank's, a search thread's.
pub fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// A search limit, as the caller gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// [`Limits::nodes`](crate::Limits::nodes).
    Nodes(u64),
    /// [`Limits::time`](crate::Limits::time).
    Time(Duration),
    /// [`Control::stop`](crate::Control::stop): a stop requested from outside.
    Stop,
}

impl std::fmt::Display for Limit {
    /// In the library's words: `the node limit (5 positions)`, `the time
    /// limit (0.100 s)`, `a stop request`. A front end names the setting
    /// its user typed instead, through [`SettingNames`].
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Nodes(n) => write!(f, "the node limit ({n} positions)"),
            Limit::Time(t) => write!(f, "the time limit ({:.3} s)", t.as_secs_f64()),
            Limit::Stop => f.write_str("a stop request"),
        }
    }
}

/// How a front end names the settings behind a search's limits, so that
/// its messages point at what its user typed: the command line's
/// `--max-nodes 5`, Python's `max_nodes=5`. The library's own messages
/// ([`Limit`]'s and [`SearchError`]'s `Display`) name the limits
/// themselves and no front end's settings;
/// [`SearchError::describe`] puts a front end's names in.
///
/// # Example
/// ```
/// use stockman::{Algorithm, Limit, Limits, RandomSpec, RandomTree, SearchOptions, SettingNames};
///
/// struct Flags;
/// impl SettingNames for Flags {
///     fn limit(&self, limit: &Limit) -> String {
///         match limit {
///             Limit::Nodes(n) => format!("--max-nodes {n}"),
///             Limit::Time(t) => format!("--time-limit {:.3}s", t.as_secs_f64()),
///             Limit::Stop => "a stop request".to_string(),
///         }
///     }
///     fn max_open(&self) -> String {
///         "--max-open".to_string()
///     }
/// }
///
/// let tree = RandomTree::new(RandomSpec::parse("width=8,depth=8,seed=1").unwrap());
/// let opts = SearchOptions { limits: Limits { nodes: Some(5), ..Limits::default() }, ..SearchOptions::default() };
/// let e = Algorithm::AlphaBeta.search(&tree, &opts).unwrap_err();
/// assert_eq!(e.to_string(), "node limit reached: stopped after visiting 5 positions (the limit: 5 positions)");
/// assert_eq!(e.describe(&Flags), "node limit reached: stopped after visiting 5 positions (--max-nodes 5)");
/// ```
pub trait SettingNames {
    /// The setting a limit came from, with its value (`--max-nodes 5`).
    fn limit(&self, limit: &Limit) -> String;
    /// The setting that caps the OPEN list of the best-first searches
    /// (`--max-open`).
    fn max_open(&self) -> String;
}

/// The library's own words, for [`SearchError`]'s `Display`.
struct OwnWords;

impl SettingNames for OwnWords {
    fn limit(&self, limit: &Limit) -> String {
        match limit {
            Limit::Nodes(n) => format!("the limit: {n} positions"),
            Limit::Time(t) => format!("the limit: {:.3} s", t.as_secs_f64()),
            Limit::Stop => "a stop request".to_string(),
        }
    }
    fn max_open(&self) -> String {
        "the OPEN list limit (Limits::max_open)".to_string()
    }
}

/// What a search that stopped at a limit had proved by then: bounds on
/// the root's value and, where one is proven, a move that reaches them.
///
/// The null-window drivers (MT-SSS\*, MT-Dual\*, MTD(f), MTD(bi)) and Best
/// Node Search narrow the bounds pass by pass, so a search of minutes that
/// a clock stops still says something true; the other searches prove
/// nothing at the root before they finish (`lower = -INF`, `upper = INF`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Partial {
    /// `lower <= value`.
    pub lower: Value,
    /// `value <= upper`.
    pub upper: Value,
    /// The index of a root move proven to reach the bound on the root
    /// mover's side (`lower` for MAX, `upper` for MIN), if one is known.
    pub best_index: Option<usize>,
    /// The [`Game::hash`](crate::Game::hash) of that move's child, if the
    /// game hashes: it names the move for a caller that lists the root's
    /// moves again after the search, whatever order the game gives them
    /// in then ([`Game::moves`](crate::Game::moves) may change it).
    pub best_child: Option<u64>,
}

impl Default for Partial {
    fn default() -> Partial {
        Partial {
            lower: -crate::INF,
            upper: crate::INF,
            best_index: None,
            best_child: None,
        }
    }
}

impl Partial {
    /// Whether anything is proven.
    pub fn is_known(&self) -> bool {
        self.lower > -crate::INF || self.upper < crate::INF || self.best_index.is_some()
    }
}

/// Why a search stopped without an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// More positions than `max_nodes` would have been visited.
    NodeLimit {
        /// The limit.
        limit: u64,
        /// What the search had done when it stopped.
        stats: Stats,
        /// What it had proved by then.
        partial: Partial,
    },
    /// The search ran past `time_limit`.
    TimeLimit {
        /// The limit.
        limit: Duration,
        /// What the search had done when it stopped.
        stats: Stats,
        /// What it had proved by then.
        partial: Partial,
    },
    /// [`Control::stop`](crate::Control::stop) was raised.
    Stopped {
        /// What the search had done when it stopped.
        stats: Stats,
        /// What it had proved by then.
        partial: Partial,
    },
    /// The OPEN list would have grown past `max_open` entries.
    OpenLimit {
        /// The limit.
        limit: usize,
        /// What the search had done when it stopped.
        stats: Stats,
    },
    /// The algorithm needs a transposition table and the game has no hash.
    NoHash {
        /// The algorithm's name.
        algorithm: &'static str,
    },
    /// The algorithm cannot search this tree (the reason says why).
    Unsupported {
        /// Why not.
        reason: String,
    },
    /// The game returned a value outside `VALUE_MIN..=VALUE_MAX`.
    ValueOutOfRange {
        /// The value.
        value: Value,
    },
    /// The transposition table could not be allocated.
    Table(crate::table::TableError),
    /// The game broke a rule of [`Game`](crate::Game) that the search
    /// relies on (for example a move list that changed between two calls
    /// for the same position); the reason says which.
    BadGame {
        /// What the game did.
        reason: String,
    },
    /// A thread of a parallel search could not be started (the system
    /// refused it: too many threads, or no memory for its stack). The
    /// search did not run: none runs on fewer threads than asked without
    /// saying so.
    Threads {
        /// The threads asked for, the calling one included.
        asked: usize,
        /// The threads running when the next one could not be started.
        started: usize,
        /// What the system said.
        reason: String,
    },
    /// A distributed search failed: a rank or the transport between the
    /// ranks (the message says which, and what happened).
    Distributed(String),
    /// A rank of a distributed search panicked (a bug, in the game or the
    /// search): every rank was stopped, and this is the panic's message.
    Panicked {
        /// The rank that panicked.
        rank: usize,
        /// What it said.
        message: String,
    },
}

impl SearchError {
    /// The limit that stopped the search, if a node or time limit did.
    pub fn limit(&self) -> Option<Limit> {
        match self {
            SearchError::NodeLimit { limit, .. } => Some(Limit::Nodes(*limit)),
            SearchError::TimeLimit { limit, .. } => Some(Limit::Time(*limit)),
            SearchError::Stopped { .. } => Some(Limit::Stop),
            _ => None,
        }
    }

    /// What the search had done when it stopped, if it started.
    pub fn stats(&self) -> Option<&Stats> {
        match self {
            SearchError::NodeLimit { stats, .. }
            | SearchError::TimeLimit { stats, .. }
            | SearchError::Stopped { stats, .. }
            | SearchError::OpenLimit { stats, .. } => Some(stats),
            _ => None,
        }
    }

    /// What a search stopped by a limit had proved, if a limit stopped it.
    pub fn partial(&self) -> Option<&Partial> {
        match self {
            SearchError::NodeLimit { partial, .. }
            | SearchError::TimeLimit { partial, .. }
            | SearchError::Stopped { partial, .. } => Some(partial),
            _ => None,
        }
    }

    /// A limit error of a search that is one part of the caller's (an
    /// iteration of deepening, the full search after a presearch) as the
    /// caller sees it: the caller's own limit, and the counters of the
    /// earlier parts, `before`, added.
    pub(crate) fn for_caller(self, opts: &SearchOptions, before: Stats) -> SearchError {
        match self {
            SearchError::NodeLimit { limit, stats, partial } => SearchError::NodeLimit {
                limit: opts.limits.nodes.unwrap_or(limit),
                stats: before + stats,
                partial,
            },
            SearchError::TimeLimit { limit, stats, partial } => SearchError::TimeLimit {
                limit: opts.limits.time.unwrap_or(limit),
                stats: before + stats,
                partial,
            },
            SearchError::Stopped { stats, partial } => SearchError::Stopped {
                stats: before + stats,
                partial,
            },
            other => other,
        }
    }

    /// The same error with `extra` counters added to what it says was done
    /// (a parallel search's helpers' work, added to the calling thread's).
    pub(crate) fn with_counters(mut self, extra: Stats) -> SearchError {
        if let SearchError::NodeLimit { stats, .. }
        | SearchError::TimeLimit { stats, .. }
        | SearchError::Stopped { stats, .. }
        | SearchError::OpenLimit { stats, .. } = &mut self
        {
            let time_us = stats.time_us;
            *stats += extra;
            stats.time_us = time_us;
        }
        self
    }

    /// The same error with nothing proved: for a search of another game
    /// than the caller's (a [presearch](Presearch)'s narrowed game), whose
    /// bounds and best move say nothing about the caller's.
    pub(crate) fn unproven(mut self) -> SearchError {
        if let SearchError::NodeLimit { partial, .. }
        | SearchError::TimeLimit { partial, .. }
        | SearchError::Stopped { partial, .. } = &mut self
        {
            *partial = Partial::default();
        }
        self
    }

    /// Records what the stopped search had proved (a driver's bounds),
    /// keeping the narrower of what is there and `p`.
    pub(crate) fn proving(mut self, p: Partial) -> SearchError {
        if let SearchError::NodeLimit { partial, .. }
        | SearchError::TimeLimit { partial, .. }
        | SearchError::Stopped { partial, .. } = &mut self
        {
            partial.lower = partial.lower.max(p.lower);
            partial.upper = partial.upper.min(p.upper);
            if p.best_index.is_some() {
                partial.best_index = p.best_index;
                partial.best_child = p.best_child;
            }
        }
        self
    }
}

impl SearchError {
    /// The message, with the settings behind the limits named as a front
    /// end names them (see [`SettingNames`]); `Display` gives the
    /// library's own words.
    pub fn describe(&self, names: &dyn SettingNames) -> String {
        match self {
            SearchError::NodeLimit { limit, stats, .. } => format!(
                "node limit reached: stopped after visiting {} positions ({})",
                stats.nodes,
                names.limit(&Limit::Nodes(*limit))
            ),
            SearchError::TimeLimit { limit, stats, .. } => format!(
                "time limit reached: stopped after {:.3} s and {} positions ({})",
                stats.time_us as f64 / 1e6,
                stats.nodes,
                names.limit(&Limit::Time(*limit))
            ),
            SearchError::OpenLimit { limit, stats } => format!(
                "OPEN list limit reached: the OPEN list would exceed {limit} entries after {} positions \
                 (raise {}, or use an MT driver, which needs no OPEN list, or rsearch, which searches \
                 depth-first where its memory runs out; for SSS-2 and GSEARCH the entries are the \
                 stored nodes)",
                stats.nodes,
                names.max_open()
            ),
            other => other.to_string(),
        }
    }
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::NodeLimit { .. } | SearchError::TimeLimit { .. } | SearchError::OpenLimit { .. } => {
                f.write_str(&self.describe(&OwnWords))
            }
            SearchError::Stopped { stats, .. } => write!(
                f,
                "stopped on request after {:.3} s and {} positions",
                stats.time_us as f64 / 1e6,
                stats.nodes
            ),
            SearchError::NoHash { algorithm } => write!(
                f,
                "{algorithm} needs a transposition table, and this game provides no position hash"
            ),
            SearchError::Unsupported { reason } => f.write_str(reason),
            SearchError::Table(e) => write!(f, "{e}"),
            SearchError::BadGame { reason } => f.write_str(reason),
            SearchError::Distributed(reason) => write!(f, "distributed search: {reason}"),
            SearchError::Panicked { rank, message } => {
                write!(f, "distributed search: rank {rank} panicked: {message}")
            }
            SearchError::Threads { asked, started, reason } => write!(
                f,
                "could not start thread {} of the {asked} asked for: {reason}",
                started + 1
            ),
            SearchError::ValueOutOfRange { value } => write!(
                f,
                "the game evaluated a position to {value}, outside the value range {}..={}",
                crate::VALUE_MIN,
                crate::VALUE_MAX
            ),
        }
    }
}

impl std::error::Error for SearchError {}

impl From<crate::table::TableError> for SearchError {
    fn from(e: crate::table::TableError) -> SearchError {
        SearchError::Table(e)
    }
}

/// The searches pass a boxed error up their recursion (a small return
/// value on every node); `?` unboxes it at the surface.
impl From<Box<SearchError>> for SearchError {
    fn from(e: Box<SearchError>) -> SearchError {
        *e
    }
}

/// Enforces the node and time limits; shared by every search.
#[derive(Debug)]
pub(crate) struct Budget {
    start: Instant,
    max_nodes: u64,
    time_limit: Option<Duration>,
    next_clock_check: u64,
    /// The next node count at which [`Budget::check`] must look: the
    /// earlier of the clock's next turn and the node limit's excess.
    next_check: u64,
    /// [`Control::progress`](crate::Control::progress).
    progress: Option<Arc<AtomicU64>>,
    /// [`Control::stop`](crate::Control::stop).
    stop: Option<Arc<AtomicBool>>,
    /// The node limit of a team of threads, when this search is one of
    /// them: the positions this one may visit are taken from it in chunks
    /// (`max_nodes` is then unlimited).
    pool: Option<Arc<NodePool>>,
    /// The node count up to which this search has taken positions from `pool`.
    reserved: u64,
}

/// How many positions pass between two looks at the clock: one chunk of
/// a team's [`NodePool`] at most.
const CLOCK_INTERVAL: u64 = crate::pool::MAX_CHUNK;

impl Budget {
    pub(crate) fn new(opts: &SearchOptions) -> Budget {
        let max_nodes = opts.limits.nodes.unwrap_or(u64::MAX);
        Budget {
            start: Instant::now(),
            max_nodes,
            time_limit: opts.limits.time,
            next_clock_check: CLOCK_INTERVAL,
            next_check: CLOCK_INTERVAL.min(max_nodes.saturating_add(1)),
            progress: opts.control.progress.clone(),
            stop: opts.control.stop.clone(),
            pool: None,
            reserved: 0,
        }
    }

    /// Makes this search one of a team that shares `pool` as its node
    /// limit (instead of its own `max_nodes`). Call before the first visit.
    pub(crate) fn share(&mut self, pool: Arc<NodePool>) {
        self.max_nodes = u64::MAX;
        self.pool = Some(pool);
        self.reserved = 0;
        self.next_check = 1;
    }

    /// Counts a visited position; fails once a limit is passed. One
    /// comparison per position; the limits themselves are looked at only
    /// when one may be due.
    #[inline]
    pub(crate) fn visit(&mut self, stats: &mut Stats) -> Result<(), SearchError> {
        stats.nodes += 1;
        if stats.nodes >= self.next_check {
            return self.check(stats);
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn check(&mut self, stats: &mut Stats) -> Result<(), SearchError> {
        if stats.nodes > self.max_nodes {
            stats.nodes -= 1;
            stats.time_us = self.elapsed_us();
            return Err(SearchError::NodeLimit {
                limit: self.max_nodes,
                stats: *stats,
                partial: Partial::default(),
            });
        }
        if let Some(pool) = &self.pool
            && stats.nodes > self.reserved
        {
            match pool.take() {
                0 => {
                    stats.nodes -= 1;
                    stats.time_us = self.elapsed_us();
                    return Err(SearchError::NodeLimit {
                        limit: pool.limit(),
                        stats: *stats,
                        partial: Partial::default(),
                    });
                }
                chunk => self.reserved += chunk,
            }
        }
        if stats.nodes >= self.next_clock_check {
            self.next_clock_check = stats.nodes + CLOCK_INTERVAL;
            if let Some(p) = &self.progress {
                p.store(stats.nodes, Ordering::Relaxed);
            }
            if let Some(limit) = self.time_limit
                && self.start.elapsed() > limit
            {
                stats.time_us = self.elapsed_us();
                return Err(SearchError::TimeLimit {
                    limit,
                    stats: *stats,
                    partial: Partial::default(),
                });
            }
            if self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
                stats.time_us = self.elapsed_us();
                return Err(SearchError::Stopped {
                    stats: *stats,
                    partial: Partial::default(),
                });
            }
        }
        self.next_check = self.next_clock_check.min(self.max_nodes.saturating_add(1));
        if self.pool.is_some() {
            self.next_check = self.next_check.min(self.reserved + 1);
        }
        Ok(())
    }

    pub(crate) fn elapsed_us(&self) -> u64 {
        self.start.elapsed().as_micros() as u64
    }

    /// Stamps the elapsed time on `stats`.
    pub(crate) fn finish(&self, stats: &mut Stats) {
        stats.time_us = self.elapsed_us();
    }
}

/// Checks a value from [`Game::evaluate`](crate::Game::evaluate).
#[inline]
pub(crate) fn checked(value: Value) -> Result<Value, SearchError> {
    if (crate::VALUE_MIN..=crate::VALUE_MAX).contains(&value) {
        Ok(value)
    } else {
        Err(SearchError::ValueOutOfRange { value })
    }
}
