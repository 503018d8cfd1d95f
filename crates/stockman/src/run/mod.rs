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
//! set up at a position, to code that is generic over [`Playable`](crate::Playable).
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
mod games;
pub mod perft;
mod row;
mod settings;
pub mod shards;
pub mod stochastic;

pub use games::{with_game, GameDefaults, GameKind, GameTask};
pub use row::Row;
pub use settings::{EngineSettings, Enhancements, Request, Settings, SourceKind, MAX_THREADS};

use crate::algorithms::{alphabeta, Algorithm};
use crate::drivers::{lazy_smp, Search};
use crate::game::{CostlyEval, Game};
use crate::observe::{LeafRecorder, NoObserver, Observer};
use crate::ordering::Heuristics;
use crate::search::{Limit, Outcome, SearchError, SearchOptions};
use crate::shared_table::SharedTable;
use crate::stats::Stats;
use crate::table::{AnyTable, Table, TableError, TableSize};
use crate::value::Value;

/// The transposition table of a built-in game unless the caller says
/// otherwise, in MiB: every front end's default (the library's
/// [`DEFAULT_TABLE_MB`](crate::table::DEFAULT_TABLE_MB)).
pub const DEFAULT_GAME_TABLE_MB: usize = crate::table::DEFAULT_TABLE_MB;

/// The aspiration half-width of alpha-beta and NegaScout under iterative
/// deepening unless the caller says otherwise: on the Connect Four
/// heuristic (-99..99 per position) the narrowest width that does not fail
/// often.
pub const DEFAULT_ASPIRATION: Value = 10;

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

/// An algorithm's name in rows, with `+id` when deepened (`mtdf+id`).
fn label(algorithm: Algorithm, deepened: bool) -> String {
    if deepened {
        format!("{}+id", algorithm.name())
    } else {
        algorithm.name().to_string()
    }
}

impl Request {
    /// Whether `algorithm` runs under iterative deepening in this request
    /// (asked for, and not a best-first search, which has no iterations).
    pub fn deepens(&self, algorithm: Algorithm) -> bool {
        self.iterative && !algorithm.is_best_first()
    }

    /// The labels of its algorithms, as its solutions' rows name them.
    pub fn labels(&self) -> Vec<String> {
        self.algorithms.iter().map(|&a| label(a, self.deepens(a))).collect()
    }
}

impl<M> Solution<M> {
    /// The algorithm's name, with `+id` when deepened (`mtdf+id`).
    pub fn label(&self) -> String {
        label(self.algorithm, self.deepened)
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
        if let TableSize::Megabytes(mb) = size
            && (self.table.is_none() || self.megabytes != mb)
        {
            self.table = None; // free the old one before asking for the new
            let mut t = AnyTable::try_new(size)?;
            t.touch();
            self.table = Some(t);
            self.megabytes = mb;
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
        // Always wrapped (free when the cost is 0): one game type to compile
        // every search for, not two.
        let costly = CostlyEval {
            game,
            nanos: request.eval_cost_ns,
        };
        self.solve_plain(&costly, game, algorithm, request, obs)
    }

    /// Every algorithm of `request` on `game` on `request.threads`
    /// threads: with more than one, the depth-first algorithms run as
    /// `request.parallel` says ([`Parallel`](crate::Parallel)) through one shared table (of the request's size;
    /// [`DEFAULT_GAME_TABLE_MB`] when the request's table is unbounded),
    /// SSS\* and Dual\* in rounds ([`parallel_sss`](crate::drivers::parallel_sss)), and the others on one
    /// thread, as [`Runner::solve`] runs them (see [`Runner::single_threaded`]).
    pub fn solve_threads<G: Game + Sync>(&mut self, game: &G, request: &Request) -> Vec<Solution<G::Move>>
    where
        G::Position: Send,
        G::Move: Send + Sync,
    {
        request
            .algorithms
            .iter()
            .map(|&a| self.solve_one_threads(game, a, request, &mut NoObserver))
            .collect()
    }

    /// The algorithms of `request` that run on one thread whatever
    /// `request.threads` says (those with no parallel form here: minimax,
    /// RecSSS\*, RecDual\*, SSS-2, GSEARCH and RSEARCH; SSS\* and Dual\* unless the request asks for
    /// [`Parallel::Rounds`](crate::Parallel::Rounds); see [`Algorithm::runs_parallel`]); empty with one thread.
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
        let shared = request.threads > 1 || (request.shared_table && lazy_smp::supports(algorithm));
        shared && algorithm.runs_parallel(request.parallel)
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
        G::Move: Send + Sync,
    {
        if !Runner::parallel(request, algorithm) {
            return self.solve_one(game, algorithm, request, obs);
        }
        let deepened = request.deepens(algorithm);
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
                round_states: request.round_states,
            },
            ..request.options.clone()
        };
        let costly = CostlyEval {
            game,
            nanos: request.eval_cost_ns,
        };
        let (result, leaves) = parallel_recorded(&costly, algorithm, &opts, deepened, table, request.leaves, obs);
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
        let deepened = request.deepens(algorithm);
        let opts = &request.options;
        let table = match self.table_for(opts.table) {
            Ok(t) => t,
            Err(e) => return Solution::failed(algorithm, deepened, SearchError::Table(e)),
        };
        let (result, leaves) = if request.leaves {
            let mut rec = LeafRecorder::default();
            // An observer that hears nothing is left out, so that the
            // searches are compiled for the recorder alone, not for a pair.
            let r = if const { silent::<O>() } {
                search_with(game, algorithm, opts, deepened, table, &mut rec)
            } else {
                search_with(game, algorithm, opts, deepened, table, &mut (&mut rec, obs))
            };
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
            if let Some(p) = s.error.as_ref().and_then(|e| e.partial()).copied()
                && p.is_known()
            {
                s.proven = Some((p.lower, p.upper));
                (s.best_index, s.best_move) = partial_move(root_game, &p);
            }
            s
        }
    }
}

/// The root move a partial result proves, as `root_game` lists the root's
/// moves now: found by its child's hash where the game hashes (the list
/// may be in another order than the search's), else by its index.
fn partial_move<R: Game>(root_game: &R, p: &crate::search::Partial) -> (Option<usize>, Option<R::Move>) {
    let root = root_game.root();
    match p.best_child {
        Some(child) => {
            let mut moves = Vec::new();
            root_game.moves(&root, &mut moves);
            let at = moves
                .iter()
                .position(|&mv| root_game.hash(&root_game.play(&root, mv)) == Some(child));
            (at, at.map(|i| moves[i]))
        }
        None => (
            p.best_index,
            p.best_index.and_then(|i| alphabeta::nth_move(root_game, &root, i)),
        ),
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

/// Whether `O` asks to hear nothing (as [`NoObserver`]).
const fn silent<O: Observer>() -> bool {
    !O::PATHS && !O::STEPS && !O::WINDOWS && !O::ITERATIONS
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
    G::Move: Send + Sync,
{
    if leaves {
        let mut rec = LeafRecorder::default();
        let r = if const { silent::<O>() } {
            algorithm.shared_in(game, opts, deepen, table, &mut rec, &mut Heuristics::new())
        } else {
            algorithm.shared_in(game, opts, deepen, table, &mut (&mut rec, obs), &mut Heuristics::new())
        };
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
    /// A setting that none of the algorithms asked for reads (`select`
    /// with SSS\* alone): an error, not an option silently ignored. A front
    /// end names its own flag for [`Knob::name`](crate::algorithms::capabilities::Knob::name).
    Unread {
        /// The setting.
        knob: crate::algorithms::capabilities::Knob,
        /// The algorithms that read it (from the capabilities table).
        readers: Vec<Algorithm>,
        /// The algorithms asked for.
        asked: Vec<Algorithm>,
    },
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
            RunError::Unread { knob, .. } => f.write_str(&self.unread(knob.name())),
            RunError::Internal(m) => write!(f, "internal error (a bug in stockman, please report it): {m}"),
        }
    }
}

impl RunError {
    /// [`RunError::Unread`]'s message with the setting named as a front end
    /// names it (`--select`, `select=`); any other error's own message.
    pub fn unread(&self, setting: &str) -> String {
        match self {
            RunError::Unread { readers, asked, .. } => crate::options::unread_sentence(
                setting,
                readers.iter().map(|a| a.name()),
                "algorithms",
                asked.iter().map(|a| a.name()),
            ),
            e => e.to_string(),
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
    crate::search::panic_text(payload)
}

#[cfg(test)]
mod tests;
