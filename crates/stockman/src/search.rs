//! What every search shares: options, limits, outcome, errors.

use crate::stats::Stats;
use crate::table::TableSize;
use crate::value::Value;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The default cap on OPEN-list entries of the best-first searches.
///
/// A live OPEN state of SSS\* or Dual\* costs a 32-byte queue entry, at most
/// one arena node above it (88 bytes plus the position) and, in the worst
/// case, four stale 32-byte entries waiting for a sweep: under 250 bytes for
/// the bundled trees and games, so 50 million states stay below 12 GiB. A
/// search that would need more stops with [`SearchError::OpenLimit`] instead
/// of being killed by the operating system on a 24 GiB machine.
pub const DEFAULT_MAX_OPEN: usize = 50_000_000;

/// Options common to every search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// The horizon in plies: nodes this deep are evaluated as leaves even if
    /// the game goes on. `None` searches down to terminal positions.
    pub depth: Option<u32>,
    /// Stop with [`SearchError::NodeLimit`] after this many positions visited.
    pub max_nodes: Option<u64>,
    /// Stop with [`SearchError::TimeLimit`] after this much wall-clock time.
    pub time_limit: Option<Duration>,
    /// Stop with [`SearchError::OpenLimit`] when OPEN would hold more entries.
    pub max_open: usize,
    /// The transposition table of the searches that use one.
    pub table: TableSize,
    /// MTD(f)'s first guess (default 0).
    pub first_guess: Value,
    /// Whether searches with a table try the table's best move first.
    /// Off by default: it changes the left-to-right order of children, and
    /// the SSS\* = MT-SSS\* theorem holds for a fixed order.
    pub table_move_first: bool,
    /// Whether positions at the depth limit (`depth`) are looked up in and
    /// stored into the table (default: yes). Their value is one evaluation
    /// away, so leaving them out saves a memory access per leaf; but then
    /// the MT drivers evaluate a leaf again in every pass that reaches it,
    /// and MT-SSS\* evaluates each leaf once, as SSS\* does, only when leaf
    /// values are kept. Searches to terminal positions have no such positions.
    pub table_at_horizon: bool,
    /// The history heuristic ([`crate::ordering`]): moves that were best or
    /// cut off elsewhere are tried first. Needs [`Game::move_key`](crate::Game::move_key).
    /// Suspends the leaf-order theorems (it reorders children); values stay.
    pub history: bool,
    /// Two killer moves per ply ([`crate::ordering`]), tried after the
    /// table's move. Needs [`Game::move_key`](crate::Game::move_key).
    /// Suspends the leaf-order theorems; values stay.
    pub killers: bool,
    /// Enhanced transposition cutoffs (Plaat et al. 1996): before searching
    /// a node's children, look each up in the table and stop at once if one
    /// already proves a cutoff. Visits fewer nodes, and different ones, so
    /// the leaf-set theorems do not apply; values stay.
    pub etc: bool,
    /// Enhanced transposition cutoffs only at nodes with at least this much
    /// left below them: the smaller of their draft (unbounded in a search
    /// to terminal positions) and the game's
    /// [`Game::moves_left_hint`](crate::Game::moves_left_hint). Looking up
    /// every child costs as much at a small subtree as at a large one and
    /// saves far less there (FFO #40-#47 with MTD(f): everywhere, 5% more
    /// time than without; from 12 empty squares up, 11% less). 0 (the
    /// default): everywhere.
    pub etc_min_depth: u32,
    /// A presearch before a search to the end of the game
    /// ([`Presearch`]): the same algorithm first solves the game
    /// [`Narrowed`](crate::Narrowed) to its first few moves, into the same
    /// table, so that the full search finds a best move stored at most of
    /// its nodes. Ignored by depth-limited searches (iterative deepening
    /// already leaves such moves) and by searches without a table. `None`
    /// (the default): none. Its work is counted in the search's statistics,
    /// and the node and time limits hold for both searches together.
    pub presearch: Option<Presearch>,
    /// Aspiration windows for alpha-beta and NegaScout under iterative
    /// deepening: each iteration after the first searches
    /// `(previous - w, previous + w)` first, and again, as
    /// [`SearchOptions::aspiration_research`] says, only if the value falls
    /// outside. `None`: full windows. In the game's value units (Connect
    /// Four's heuristic: 100 per point of score).
    pub aspiration: Option<Value>,
    /// How an aspiration window that failed is searched again: on the
    /// failing side only, from the fail-soft bound the first search
    /// returned ([`Research::OneSided`], the default, as game programs
    /// do), or with the full window ([`Research::Full`]).
    pub aspiration_research: Research,
    /// Best Node Search's first window: `(t - w, t + w)` around its first
    /// separation value `t` ([`SearchOptions::bns_first_test`], which
    /// iterative deepening sets to the previous iteration's bound), widened
    /// to the game's whole range on a side the passes leave it. `None`
    /// (the default): the game's whole range from the start, as Rutko.
    /// Gives BNS in a game program the start MTD(f) has (a value near the
    /// previous iteration's) instead of bisecting ±100,000.
    pub bns_window: Option<Value>,
    /// Where a search publishes how many positions it has visited so far
    /// (every 1,024 positions), for a progress display in another thread.
    /// `None` (the default): nowhere. Iterative deepening counts each
    /// iteration from 0.
    pub progress: Option<Arc<AtomicU64>>,
    /// Best Node Search's first separation value, where something outside
    /// the search knows a likely value (Rutko: "an initial guess ...
    /// possibly based on statistical information obtained elsewhere").
    /// `None` (the default): the guess function's. Iterative deepening sets
    /// it to the previous iteration's proven bound, so a best move that
    /// stays best is confirmed in one pass.
    pub bns_first_test: Option<Value>,
    /// Best Node Search's guess function when it runs through the
    /// algorithm registry: Rutko's (the default) or the midpoint of the
    /// bounds ([`crate::algorithms::bns::GuessKind`]).
    pub bns_guess: crate::algorithms::bns::GuessKind,
    /// A flag that another thread raises to stop the search (a user's
    /// interrupt, a UCI `stop`, the end of a parallel search): the search
    /// looks at it every 1,024 positions and stops as at a time limit,
    /// with [`SearchError::Stopped`] (iterative deepening: with the last
    /// completed depth). `None` (the default): nothing can stop it.
    pub stop: Option<Arc<AtomicBool>>,
    /// Iterative deepening: no iteration starts once this much time has
    /// passed (the answer is then the last completed iteration's, with
    /// [`Outcome::stopped_by`] the time): a game program's soft budget, beside
    /// the hard [`SearchOptions::time_limit`]. `None` (the default): iterations
    /// start until a limit stops one.
    pub soft_time_limit: Option<Duration>,
    /// Threads per search (default 1: the exact one-thread trees and
    /// counts). Honoured by [`Algorithm::search_shared`](crate::Algorithm::search_shared),
    /// which needs a game the threads can share (the [`run`](crate::run)
    /// layer and the [`Engine`](crate::Engine) take their own counts:
    /// `Request::threads`, `Engine::with_threads`).
    /// [`Algorithm::search`](crate::Algorithm::search), which takes any game
    /// (one that threads cannot share too), refuses more than 1 with
    /// [`SearchError::Unsupported`] rather than search on one thread unasked.
    pub threads: usize,
    /// How several threads share a depth-first search (default ABDADA).
    pub parallel: crate::algorithms::Parallel,
}

/// What [`SearchOptions::presearch`] solves first: the game narrowed to
/// its first `width` moves at positions with at least `min_left` moves left
/// ([`Narrowed`](crate::Narrowed)).
///
/// Dedicated Othello solvers do the same with selective searches before
/// the exact one: a narrow tree is cheap to solve and its best moves are
/// often the full tree's. It pays only where the game's own order is good
/// enough for the narrow tree to hold the best moves: on FFO #40-#49 with
/// MTD(f), width 4 from 12 empty squares visits 8.5% fewer positions (the
/// presearch included), but on #50-#52 11.5% more (docs/guide/performance.md),
/// so it is off unless asked for. Its values never reach the full search: the presearch stores
/// its entries at other drafts (a depth-limited search of
/// [`Presearch::DEPTH`] plies), which a search to the end uses for their
/// moves only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Presearch {
    /// Moves kept at a narrowed position (the game's first ones).
    pub width: usize,
    /// Positions with fewer moves left than this keep all their moves.
    pub min_left: u32,
}

impl Presearch {
    /// The presearch's depth limit: more plies than any game here lasts,
    /// and drafts (this minus the ply) that a search to the end, whose
    /// draft is `u32::MAX`, never uses as bounds.
    pub const DEPTH: u32 = 1000;
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            depth: None,
            max_nodes: None,
            time_limit: None,
            max_open: DEFAULT_MAX_OPEN,
            table: TableSize::Unbounded,
            first_guess: 0,
            table_move_first: false,
            table_at_horizon: true,
            history: false,
            killers: false,
            etc: false,
            etc_min_depth: 0,
            presearch: None,
            aspiration: None,
            aspiration_research: Research::OneSided,
            bns_window: None,
            progress: None,
            bns_first_test: None,
            bns_guess: crate::algorithms::bns::GuessKind::Rutko,
            stop: None,
            soft_time_limit: None,
            threads: 1,
            parallel: crate::algorithms::Parallel::Abdada,
        }
    }
}

impl SearchOptions {
    /// What a game-playing program uses with iterative deepening: a fixed
    /// 64 MiB table, the table's move first, enhanced transposition cutoffs
    /// and an aspiration window of `aspiration` for alpha-beta and
    /// NegaScout. History and killers stay off: on Connect Four they
    /// override the game's own threat-first order and cost 1.5-2x the
    /// positions (README, "Move-ordering enhancements"); turn them on for
    /// games whose own order knows less. The default options keep all of
    /// these off, because the theorems about leaf orders and leaf sets
    /// assume a fixed left-to-right order.
    pub fn engine(aspiration: Option<Value>) -> SearchOptions {
        SearchOptions {
            table: TableSize::Megabytes(64),
            table_move_first: true,
            etc: true,
            aspiration,
            bns_window: aspiration,
            ..SearchOptions::default()
        }
    }
}

/// How iterative deepening searches again after an aspiration window
/// failed ([`SearchOptions::aspiration_research`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Research {
    /// The failing side only: after a fail low at `g` (the value is at
    /// most `g`), the window `(-inf, g + 1)`; after a fail high, `(g - 1,
    /// +inf)`. What game programs do, and never more work than `Full`'s
    /// re-search when the first search's bound is fail-soft.
    #[default]
    OneSided,
    /// The full window again, whatever side failed.
    Full,
}

impl Research {
    /// The name the command line uses: `one-sided` or `full`.
    pub fn name(self) -> &'static str {
        match self {
            Research::OneSided => "one-sided",
            Research::Full => "full",
        }
    }
}

impl std::str::FromStr for Research {
    type Err = String;
    fn from_str(s: &str) -> Result<Research, String> {
        match s {
            "one-sided" => Ok(Research::OneSided),
            "full" => Ok(Research::Full),
            _ => Err(format!("unknown re-search `{s}` (one-sided or full)")),
        }
    }
}

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

/// A search limit, as the caller gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// [`SearchOptions::max_nodes`].
    Nodes(u64),
    /// [`SearchOptions::time_limit`].
    Time(Duration),
    /// [`SearchOptions::stop`]: a stop requested from outside.
    Stop,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Limit::Nodes(n) => write!(f, "--max-nodes {n}"),
            Limit::Time(t) => write!(f, "--time-limit {:.3}s", t.as_secs_f64()),
            Limit::Stop => f.write_str("a stop request"),
        }
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
}

impl Default for Partial {
    fn default() -> Partial {
        Partial {
            lower: -crate::INF,
            upper: crate::INF,
            best_index: None,
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
    /// [`SearchOptions::stop`] was raised.
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
                limit: opts.max_nodes.unwrap_or(limit),
                stats: before + stats,
                partial,
            },
            SearchError::TimeLimit { limit, stats, partial } => SearchError::TimeLimit {
                limit: opts.time_limit.unwrap_or(limit),
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
            }
        }
        self
    }
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::NodeLimit { limit, stats, .. } => write!(
                f,
                "node limit reached: stopped after visiting {} positions (--max-nodes {limit})",
                stats.nodes
            ),
            SearchError::TimeLimit { limit, stats, .. } => write!(
                f,
                "time limit reached: stopped after {:.3} s and {} positions (--time-limit {:.3}s)",
                stats.time_us as f64 / 1e6,
                stats.nodes,
                limit.as_secs_f64()
            ),
            SearchError::Stopped { stats, .. } => write!(
                f,
                "stopped on request after {:.3} s and {} positions",
                stats.time_us as f64 / 1e6,
                stats.nodes
            ),
            SearchError::OpenLimit { limit, stats } => write!(
                f,
                "OPEN list limit reached: the OPEN list would exceed {limit} entries \
                 after {} positions (raise --max-open, or use an MT driver, which needs no OPEN list)",
                stats.nodes
            ),
            SearchError::NoHash { algorithm } => write!(
                f,
                "{algorithm} needs a transposition table, and this game provides no position hash"
            ),
            SearchError::Unsupported { reason } => f.write_str(reason),
            SearchError::Table(e) => write!(f, "{e}"),
            SearchError::BadGame { reason } => f.write_str(reason),
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
    /// [`SearchOptions::progress`].
    progress: Option<Arc<AtomicU64>>,
    /// [`SearchOptions::stop`].
    stop: Option<Arc<AtomicBool>>,
    /// The node limit of a team of threads, when this search is one of
    /// them: the positions this one may visit are taken from it in chunks
    /// (`max_nodes` is then unlimited).
    pool: Option<Arc<NodePool>>,
    /// The node count up to which this search has taken positions from `pool`.
    reserved: u64,
}

/// How many positions pass between two looks at the clock.
const CLOCK_INTERVAL: u64 = 1024;

/// The positions a team of threads may still visit together (a node limit
/// of the whole parallel search): every thread takes them in chunks before
/// it visits them, so the team's total never passes the limit, and the
/// chunks shrink as the pool runs dry, so that no thread stops while
/// another sits on a large unused chunk.
#[derive(Debug)]
pub struct NodePool {
    limit: u64,
    left: AtomicU64,
    threads: u64,
}

impl NodePool {
    /// A pool of `limit` positions for `threads` threads.
    pub(crate) fn new(limit: u64, threads: usize) -> NodePool {
        NodePool {
            limit,
            left: AtomicU64::new(limit),
            threads: threads.max(1) as u64,
        }
    }

    /// The team's limit.
    pub(crate) fn limit(&self) -> u64 {
        self.limit
    }

    /// Takes up to [`CLOCK_INTERVAL`] positions (fewer as the pool runs
    /// dry: at most half of what is left per thread, at least one); 0 when
    /// none is left.
    fn take(&self) -> u64 {
        let mut left = self.left.load(Ordering::Relaxed);
        loop {
            if left == 0 {
                return 0;
            }
            let chunk = (left / (2 * self.threads)).clamp(1, CLOCK_INTERVAL);
            match self
                .left
                .compare_exchange_weak(left, left - chunk, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return chunk,
                Err(now) => left = now,
            }
        }
    }
}

impl Budget {
    pub(crate) fn new(opts: &SearchOptions) -> Budget {
        let max_nodes = opts.max_nodes.unwrap_or(u64::MAX);
        Budget {
            start: Instant::now(),
            max_nodes,
            time_limit: opts.time_limit,
            next_clock_check: CLOCK_INTERVAL,
            next_check: CLOCK_INTERVAL.min(max_nodes.saturating_add(1)),
            progress: opts.progress.clone(),
            stop: opts.stop.clone(),
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
        if let Some(pool) = &self.pool {
            if stats.nodes > self.reserved {
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
        }
        if stats.nodes >= self.next_clock_check {
            self.next_clock_check = stats.nodes + CLOCK_INTERVAL;
            if let Some(p) = &self.progress {
                p.store(stats.nodes, Ordering::Relaxed);
            }
            if let Some(limit) = self.time_limit {
                if self.start.elapsed() > limit {
                    stats.time_us = self.elapsed_us();
                    return Err(SearchError::TimeLimit {
                        limit,
                        stats: *stats,
                        partial: Partial::default(),
                    });
                }
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
