//! What a search is asked to do: the options, grouped by who reads them.
//!
//! [`SearchOptions`] holds six groups. The [`Limits`] say how far a search
//! may go and the [`Control`] lets another thread watch or stop it: every
//! search reads both. The table's size is read by the searches that keep
//! one; the [`Enhancements`] by the alpha-beta core and the drivers (move
//! ordering, cut-offs, aspiration windows, a presearch); the [`Params`] by
//! one algorithm each (MTD(f)'s first guess, Best Node Search's guess,
//! window and first test); the [`Threads`] by the code that puts a search
//! on threads. A new knob joins the group of the code that reads it.

use crate::table::TableSize;
use crate::value::Value;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::Duration;

/// The default cap on OPEN-list entries of the best-first searches.
///
/// A live OPEN state of SSS\* or Dual\* costs a 32-byte queue entry, at most
/// one arena node above it (88 bytes plus the position) and, in the worst
/// case, four stale 32-byte entries waiting for a sweep: under 250 bytes for
/// the bundled trees and games, so 50 million states stay below 12 GiB. A
/// search that would need more stops with [`SearchError::OpenLimit`](crate::SearchError::OpenLimit) instead
/// of being killed by the operating system on a 24 GiB machine.
pub const DEFAULT_MAX_OPEN: usize = 50_000_000;

/// Options common to every search, in groups by who reads them.
///
/// # Example
/// ```
/// use stockman::{Algorithm, Enhancements, Limits, SearchOptions, TableSize, TicTacToe};
/// let opts = SearchOptions {
///     limits: Limits::to_depth(4),
///     table: TableSize::Megabytes(1),
///     enhancements: Enhancements { table_move_first: true, ..Default::default() },
///     ..Default::default()
/// };
/// let out = Algorithm::Mtdf.search(&TicTacToe::new(), &opts).unwrap();
/// assert_eq!(out.value, Some(0));
/// ```
#[derive(Clone, Debug, Default)]
pub struct SearchOptions {
    /// How far the search may go: depth, positions, time, OPEN size.
    pub limits: Limits,
    /// What another thread sees of the search and how it stops it.
    pub control: Control,
    /// The transposition table of the searches that use one.
    pub table: TableSize,
    /// Move ordering, cut-offs and windows of the alpha-beta core and the drivers.
    pub enhancements: Enhancements,
    /// The parameters of one algorithm each.
    pub params: Params,
    /// How many threads search, and how they share the work.
    pub threads: Threads,
}

/// How far a search may go: any combination, and none at all searches to
/// the end of the game (the default). An [`Engine`](crate::Engine) takes
/// one for every move, as a UCI `go` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The horizon in plies: nodes this deep are evaluated as leaves even if
    /// the game goes on. `None` searches down to terminal positions.
    pub depth: Option<u32>,
    /// Stop with [`SearchError::NodeLimit`](crate::SearchError::NodeLimit) after this many positions
    /// visited (by all threads together).
    pub nodes: Option<u64>,
    /// Stop with [`SearchError::TimeLimit`](crate::SearchError::TimeLimit) after this much wall-clock time.
    pub time: Option<Duration>,
    /// Iterative deepening: no iteration starts once this much time has
    /// passed (the answer is then the last completed iteration's, with
    /// [`Outcome::stopped_by`](crate::Outcome::stopped_by) the time): a game program's soft budget, beside
    /// the hard [`Limits::time`]. `None` (the default): iterations
    /// start until a limit stops one.
    pub soft_time: Option<Duration>,
    /// Stop with [`SearchError::OpenLimit`](crate::SearchError::OpenLimit) when OPEN would hold more entries.
    pub max_open: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            depth: None,
            nodes: None,
            time: None,
            soft_time: None,
            max_open: DEFAULT_MAX_OPEN,
        }
    }
}

impl Limits {
    /// No limit but the horizon: `depth` plies.
    pub fn to_depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
}

/// What another thread sees of a running search, and how it stops it.
#[derive(Clone, Debug, Default)]
pub struct Control {
    /// A flag that another thread raises to stop the search (a user's
    /// interrupt, a UCI `stop`, the end of a parallel search): the search
    /// looks at it every 1,024 positions and stops as at a time limit,
    /// with [`SearchError::Stopped`](crate::SearchError::Stopped) (iterative deepening: with the last
    /// completed depth). `None` (the default): nothing can stop it.
    pub stop: Option<Arc<AtomicBool>>,
    /// Where a search publishes how many positions it has visited so far
    /// (every 1,024 positions), for a progress display in another thread.
    /// `None` (the default): nowhere. Iterative deepening counts each
    /// iteration from 0.
    pub progress: Option<Arc<AtomicU64>>,
}

/// What the alpha-beta core and the drivers do beyond the game's own move
/// order: all off by default, because the theorems about leaf orders and
/// leaf sets assume a fixed left-to-right order (the table at the horizon,
/// on by default, keeps them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Enhancements {
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
    /// [`Enhancements::aspiration_research`] says, only if the value falls
    /// outside. `None`: full windows. In the game's value units (Connect
    /// Four's heuristic: 100 per point of score).
    pub aspiration: Option<Value>,
    /// How an aspiration window that failed is searched again: on the
    /// failing side only, from the fail-soft bound the first search
    /// returned ([`Research::OneSided`], the default, as game programs
    /// do), or with the full window ([`Research::Full`]).
    pub aspiration_research: Research,
}

impl Default for Enhancements {
    fn default() -> Enhancements {
        Enhancements {
            table_move_first: false,
            table_at_horizon: true,
            history: false,
            killers: false,
            etc: false,
            etc_min_depth: 0,
            presearch: None,
            aspiration: None,
            aspiration_research: Research::OneSided,
        }
    }
}

/// The parameters that one algorithm each reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Params {
    /// MTD(f)'s first guess (default 0).
    pub first_guess: Value,
    /// Best Node Search's guess function when it runs through the
    /// algorithm registry: Rutko's (the default) or the midpoint of the
    /// bounds ([`GuessKind`]).
    pub bns_guess: GuessKind,
    /// Best Node Search's first window: `(t - w, t + w)` around its first
    /// separation value `t` ([`Params::bns_first_test`], which
    /// iterative deepening sets to the previous iteration's bound), widened
    /// to the game's whole range on a side the passes leave it. `None`
    /// (the default): the game's whole range from the start, as Rutko.
    /// Gives BNS in a game program the start MTD(f) has (a value near the
    /// previous iteration's) instead of bisecting ±100,000.
    pub bns_window: Option<Value>,
    /// Best Node Search's first separation value, where something outside
    /// the search knows a likely value (Rutko: "an initial guess ...
    /// possibly based on statistical information obtained elsewhere").
    /// `None` (the default): the guess function's. Iterative deepening sets
    /// it to the previous iteration's proven bound, so a best move that
    /// stays best is confirmed in one pass.
    pub bns_first_test: Option<Value>,
    /// GSEARCH's and RSEARCH's rule for the next tip to expand (default
    /// [`Select::Upper`], SSS\*'s).
    pub select: Select,
    /// RSEARCH's memory: the most nodes it stores before it searches a tip
    /// depth-first instead of expanding it. `None` (the default): as many
    /// as [`Limits::max_open`]; never more than that.
    pub memory: Option<usize>,
}

/// How many threads search, and how they share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threads {
    /// Threads per search (default 1: the exact one-thread trees and
    /// counts). Honoured by [`Algorithm::search_shared`](crate::Algorithm::search_shared),
    /// which needs a game the threads can share (the [`run`](crate::run)
    /// layer and the [`Engine`](crate::Engine) take their own counts:
    /// `Request::threads`, `Engine::with_threads`).
    /// [`Algorithm::search`](crate::Algorithm::search), which takes any game
    /// (one that threads cannot share too), refuses more than 1 with
    /// [`SearchError::Unsupported`](crate::SearchError::Unsupported) rather than search on one thread unasked.
    pub count: usize,
    /// How several threads share a depth-first search (default ABDADA).
    pub parallel: Parallel,
    /// States per round of SSS\* and Dual\* in rounds
    /// ([`parallel_sss`](crate::drivers::parallel_sss)): a fixed number
    /// gives the rounds of the simulation, the same leaves on every run;
    /// 0 (the default) leaves them to the search (rounds of one state per
    /// thread while a state's work is worth sharing, SSS\*'s own steps
    /// while it is not).
    pub round_states: usize,
}

/// The most threads one search may use.
pub const MAX_THREADS: usize = 1024;

impl Threads {
    /// The one rule for a thread count, 1 to [`MAX_THREADS`]: the search
    /// drivers, the engine and the run layer's settings ask it, and the
    /// front ends only name their own flag or argument in its error.
    ///
    /// # Example
    /// ```
    /// use stockman::{Threads, MAX_THREADS};
    /// assert_eq!(Threads::check_count(4), Ok(4));
    /// let e = Threads::check_count(0).unwrap_err();
    /// assert_eq!(e.given, 0);
    /// assert_eq!(e.to_string(), format!("the number of threads must be 1 to {MAX_THREADS}, not 0"));
    /// ```
    pub fn check_count(count: usize) -> Result<usize, ThreadCountError> {
        if (1..=MAX_THREADS).contains(&count) {
            Ok(count)
        } else {
            Err(ThreadCountError { given: count })
        }
    }
}

/// A thread count outside 1 to [`MAX_THREADS`] ([`Threads::check_count`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadCountError {
    /// The count asked for.
    pub given: usize,
}

impl std::fmt::Display for ThreadCountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the number of threads must be 1 to {MAX_THREADS}, not {}",
            self.given
        )
    }
}

impl std::error::Error for ThreadCountError {}

impl Default for Threads {
    fn default() -> Threads {
        Threads {
            count: 1,
            parallel: Parallel::Abdada,
            round_states: 0,
        }
    }
}

/// What [`Enhancements::presearch`] solves first: the game narrowed to
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
            table: TableSize::Megabytes(crate::table::DEFAULT_TABLE_MB),
            enhancements: Enhancements {
                table_move_first: true,
                etc: true,
                aspiration,
                ..Default::default()
            },
            params: Params {
                bns_window: aspiration,
                ..Default::default()
            },
            ..SearchOptions::default()
        }
    }
}

/// How iterative deepening searches again after an aspiration window
/// failed ([`Enhancements::aspiration_research`]).
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

/// How a search uses several threads, by name: `lazy-smp` ([`lazy_smp`](crate::drivers::lazy_smp):
/// helpers race the main search through the shared table), `abdada`
/// ([`abdada`](crate::drivers::abdada): every thread also puts off the moves another one is on),
/// or `rounds` (SSS\* and Dual\* too, in rounds: [`parallel_sss`](crate::drivers::parallel_sss); the
/// depth-first searches as under ABDADA). Only `rounds` puts SSS\* and
/// Dual\* on threads ([`Algorithm::runs_parallel`](crate::Algorithm::runs_parallel)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Parallel {
    /// Lazy SMP.
    LazySmp,
    /// ABDADA, Kerrigan's simplification (the default: it splits the work).
    #[default]
    Abdada,
    /// SSS\* and Dual\* in rounds, the depth-first searches under ABDADA.
    Rounds,
}

impl Parallel {
    /// The two ways of the depth-first searches, in the order of their
    /// names ([`Parallel::Rounds`] runs them as [`Parallel::Abdada`] does).
    pub const ALL: [Parallel; 2] = [Parallel::LazySmp, Parallel::Abdada];

    /// Every way, as the command line names them.
    pub const NAMED: [Parallel; 3] = [Parallel::LazySmp, Parallel::Abdada, Parallel::Rounds];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Parallel::LazySmp => "lazy-smp",
            Parallel::Abdada => "abdada",
            Parallel::Rounds => "rounds",
        }
    }
}

impl std::fmt::Display for Parallel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Parallel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        Parallel::NAMED.into_iter().find(|p| p.name() == t).ok_or_else(|| {
            format!(
                "unknown parallel search '{}' (known: lazy-smp, abdada, rounds)",
                s.trim()
            )
        })
    }
}

/// GSEARCH's selection rules ([`Params::select`]): which live tip of the
/// partial tree is expanded next
/// ([`gsearch`](crate::algorithms::gsearch) says what each is expected to be).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Select {
    /// The leftmost live tip: alpha-beta's order.
    Leftmost,
    /// The tip with the largest upper bound, leftmost on ties: SSS\*'s.
    #[default]
    Upper,
    /// The tip with the smallest lower bound, leftmost on ties: Dual\*'s.
    Lower,
    /// The tip with the widest interval between its bounds, leftmost on
    /// ties: none of the above (ours, for comparison).
    Widest,
}

impl Select {
    /// Every rule, in the order of the enum.
    pub const ALL: [Select; 4] = [Select::Leftmost, Select::Upper, Select::Lower, Select::Widest];

    /// `leftmost`, `upper`, `lower` or `widest`.
    pub fn name(self) -> &'static str {
        match self {
            Select::Leftmost => "leftmost",
            Select::Upper => "upper",
            Select::Lower => "lower",
            Select::Widest => "widest",
        }
    }
}

impl std::fmt::Display for Select {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

/// A name that is not one of [`Select::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSelect(pub String);

impl std::fmt::Display for UnknownSelect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = Select::ALL.iter().map(|s| s.name()).collect();
        write!(f, "unknown selection rule `{}` (known: {})", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownSelect {}

impl std::str::FromStr for Select {
    type Err = UnknownSelect;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        Select::ALL
            .into_iter()
            .find(|r| r.name() == t)
            .ok_or_else(|| UnknownSelect(s.trim().to_string()))
    }
}

/// The guess functions of Best Node Search that the options can name
/// ([`Params::bns_guess`]), so that a caller who goes through
/// [`crate::Algorithm`] (iterative deepening, the engine, the command
/// line's grids) can choose one;
/// [`bns::search_with`](crate::algorithms::bns::search_with) takes any
/// [`Guess`](crate::algorithms::bns::Guess).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GuessKind {
    /// [`Rutko`](crate::algorithms::bns::Rutko)'s default guess.
    #[default]
    Rutko,
    /// [`Bisect`](crate::algorithms::bns::Bisect): the midpoint of the bounds (ours, for comparison).
    Bisect,
}

impl GuessKind {
    /// `rutko` or `bisect`.
    pub fn name(self) -> &'static str {
        match self {
            GuessKind::Rutko => "rutko",
            GuessKind::Bisect => "bisect",
        }
    }
}

/// The sentence of a setting that none of the searches asked for reads:
/// `setting` is read only by `readers`, and none of the `kind` asked for
/// (`asked`) reads it. One sentence for the algorithms' settings and the
/// samplers'.
pub(crate) fn unread_sentence<'a>(
    setting: &str,
    readers: impl IntoIterator<Item = &'a str>,
    kind: &str,
    asked: impl IntoIterator<Item = &'a str>,
) -> String {
    let names = |n: &mut dyn Iterator<Item = &'a str>| n.collect::<Vec<_>>().join(", ");
    format!(
        "{setting} is read only by {}; none of the {kind} asked for ({}) reads it",
        names(&mut readers.into_iter()),
        names(&mut asked.into_iter())
    )
}
