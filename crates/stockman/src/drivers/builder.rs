//! [`Search`]: one search, configured step by step.

use super::iterative;
use crate::algorithms::Algorithm;
use crate::game::Game;
use crate::observe::{NoObserver, Observer};
use crate::ordering::Heuristics;
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::shared_table::SharedTable;
use crate::table::{AnyTable, NoTable, Table};
use crate::value::{Value, INF};

/// One search, configured step by step: the way in for everything beyond
/// [`Algorithm::search`]. Each step says one thing the caller keeps or
/// wants; [`Search::run`] (this thread) or [`Search::run_shared`] (the
/// threads of [`Threads`](crate::Threads)) picks the driver.
///
/// | step | what it does | read by |
/// |---|---|---|
/// | [`deepen`](Search::deepen) | iterative deepening to `opts.limits.depth` | the depth-first algorithms (best-first ones search once) |
/// | [`table`](Search::table) | a table the caller keeps (cleared when it likes) | the algorithms with a table |
/// | [`shared_table`](Search::shared_table) | a shared table the caller keeps | the same, on one or more threads |
/// | [`heuristics`](Search::heuristics) | history and killers the caller keeps | the alpha-beta core |
/// | [`window`](Search::window) | a first root window `(alpha, beta)` | alpha-beta and NegaScout, one search (the drivers choose their own) |
/// | [`observer`](Search::observer) | leaves, steps, passes, iterations | every search |
///
/// # Example
/// ```
/// use stockman::{Algorithm, AnyTable, Heuristics, Limits, Search, SearchOptions, TableSize, TicTacToe};
///
/// let game = TicTacToe::new();
/// let opts = SearchOptions { limits: Limits::to_depth(9), table: TableSize::Megabytes(1), ..Default::default() };
/// // A table and heuristics kept from one search to the next, as a game program keeps them.
/// let mut table = AnyTable::try_new(opts.table).unwrap();
/// let mut heur = Heuristics::new();
/// let first = Search::new(Algorithm::NegaScout, &opts).deepen().table(&mut table).heuristics(&mut heur).run(&game).unwrap();
/// let again = Search::new(Algorithm::NegaScout, &opts).deepen().table(&mut table).heuristics(&mut heur).run(&game).unwrap();
/// assert_eq!((first.value, again.value), (Some(0), Some(0)));
/// assert!(again.stats.nodes < first.stats.nodes); // the table remembers
/// ```
#[must_use = "a Search does nothing until it is run"]
pub struct Search<'a, O = NoObserver, T = NoTable> {
    algorithm: Algorithm,
    options: &'a SearchOptions,
    deepen: bool,
    window: Option<(Value, Value)>,
    table: Option<&'a mut T>,
    shared: Option<&'a SharedTable>,
    heuristics: Option<&'a mut Heuristics>,
    observer: Watcher<'a, O>,
}

/// The observer of a [`Search`]: its own [`NoObserver`] or the caller's,
/// borrowed. The searches see the caller's type itself, never a `&mut` of
/// it: every search is compiled once per observer type, so that `&mut
/// LeafRecorder` and `LeafRecorder` are not two copies of the library.
enum Watcher<'a, O> {
    Own(O),
    Lent(&'a mut O),
}

impl<O> Watcher<'_, O> {
    fn get(&mut self) -> &mut O {
        match self {
            Watcher::Own(o) => o,
            Watcher::Lent(o) => o,
        }
    }
}

impl<'a> Search<'a> {
    /// A search of `algorithm` with `options`, nothing kept by the caller.
    pub fn new(algorithm: Algorithm, options: &'a SearchOptions) -> Search<'a> {
        Search {
            algorithm,
            options,
            deepen: false,
            window: None,
            table: None,
            shared: None,
            heuristics: None,
            observer: Watcher::Own(NoObserver),
        }
    }
}

impl<'a, O: Observer, T: Table> Search<'a, O, T> {
    /// Iterative deepening, one iteration per depth up to
    /// `opts.limits.depth` (to the end of the game without one), each
    /// starting from what the previous left in the table; a limit stops it
    /// with the last completed depth's answer ([`iterative`]). The
    /// best-first algorithms, which cannot be deepened, search once.
    pub fn deepen(mut self) -> Self {
        self.deepen = true;
        self
    }

    /// A first root window `(alpha, beta)` for alpha-beta and NegaScout in
    /// one search (an aspiration window: the value is exact only when it
    /// falls strictly inside); the other algorithms and deepening choose
    /// their own windows and ignore it.
    pub fn window(mut self, alpha: Value, beta: Value) -> Self {
        self.window = Some((alpha, beta));
        self
    }

    /// History and killer tables that the caller keeps across searches
    /// (read when `opts.enhancements` turns them on).
    pub fn heuristics(mut self, heuristics: &'a mut Heuristics) -> Self {
        self.heuristics = Some(heuristics);
        self
    }

    /// A transposition table that the caller keeps (`&mut table`), in place
    /// of the fresh one of `opts.table`. The best-first searches and
    /// minimax keep none and ignore it; alpha-beta and NegaScout use it
    /// whatever `opts.table` says. A table that holds nothing
    /// ([`NoTable`]) is no table: the search makes the one of `opts.table`.
    /// (Borrowed, so that the searches are compiled for the table's own
    /// type, not once more for each `&mut` around it.)
    pub fn table<T2: Table>(self, table: &'a mut T2) -> Search<'a, O, T2> {
        Search {
            algorithm: self.algorithm,
            options: self.options,
            deepen: self.deepen,
            window: self.window,
            table: Some(table),
            shared: self.shared,
            heuristics: self.heuristics,
            observer: self.observer,
        }
    }

    /// A shared table that the caller keeps: the threads of
    /// [`Search::run_shared`] share it, and [`Search::run`] uses it as its
    /// table on this thread.
    pub fn shared_table(mut self, table: &'a SharedTable) -> Self {
        self.shared = Some(table);
        self
    }

    /// Where the search reports its leaves, steps, passes and iterations
    /// (with threads, the calling thread's); the caller keeps it.
    pub fn observer<O2: Observer>(self, observer: &'a mut O2) -> Search<'a, O2, T> {
        Search {
            algorithm: self.algorithm,
            options: self.options,
            deepen: self.deepen,
            window: self.window,
            table: self.table,
            shared: self.shared,
            heuristics: self.heuristics,
            observer: Watcher::Lent(observer),
        }
    }

    /// Runs the search on this thread.
    ///
    /// # Errors
    /// As [`Algorithm::search`]: a limit, a table that cannot be allocated,
    /// a game that breaks its contract, or more than one thread in the
    /// options (use [`Search::run_shared`]).
    pub fn run<G: Game>(self, game: &G) -> Result<Outcome<G::Move>, SearchError> {
        let Search {
            algorithm: algo,
            options: opts,
            deepen,
            window,
            table,
            shared,
            heuristics,
            mut observer,
        } = self;
        let observer = observer.get();
        if opts.threads.count != 1 {
            return algo.observed(game, opts, observer);
        }
        let kept = heuristics.is_some();
        let mut own = Heuristics::new();
        let heur = heuristics.unwrap_or(&mut own);
        let deepen = deepen && !algo.is_best_first();
        let through = Through {
            algo,
            opts,
            deepen,
            window: window.unwrap_or((-INF, INF)),
        };
        // Every search is compiled once per table type it can run with, so
        // the types are kept few: the caller's (not compiled at all for
        // `NoTable`: `T::ENABLED` is a constant), a shared table's handle,
        // and `AnyTable`, which the searches that make their own table use
        // too; each reaches the searches as one `&mut` of itself.
        if T::ENABLED
            && let Some(t) = table
        {
            return through.run(game, observer, t, heur);
        }
        match shared {
            Some(s) => through.run(game, observer, &mut s.handle(), heur),
            // Deepening, a window or heuristics to keep take the table the
            // options ask for; a plain search makes its own.
            None if deepen || window.is_some() || kept => {
                through.run(game, observer, &mut AnyTable::try_new(opts.table)?, heur)
            }
            None => algo.observed(game, opts, observer),
        }
    }

    /// Runs the search on the threads of `opts.threads` (one thread: as
    /// [`Search::run`], but through the [`shared_table`](Search::shared_table)
    /// if one is given, as the baseline of a parallel search), through the
    /// shared table or a fresh one of `opts.table`'s size; see
    /// [`Algorithm::search_shared`] for which algorithm runs how.
    ///
    /// # Errors
    /// As [`Search::run`]; a thread count of 0 or over
    /// [`MAX_THREADS`](crate::options::MAX_THREADS); a [`table`](Search::table) or
    /// [`window`](Search::window) of one thread's with more threads.
    pub fn run_shared<G>(self, game: &G) -> Result<Outcome<G::Move>, SearchError>
    where
        G: Game + Sync,
        G::Position: Send,
        G::Move: Send + Sync,
    {
        let own = self.table.is_some() || self.window.is_some();
        if self.options.threads.count == 1 && (self.shared.is_none() || own) {
            return self.run(game);
        }
        let Search {
            algorithm: algo,
            options: opts,
            deepen,
            window,
            table,
            shared,
            heuristics,
            mut observer,
        } = self;
        if table.is_some() || window.is_some() {
            return Err(SearchError::Unsupported {
                reason: format!(
                    "a table of one thread's and a root window are for one thread, and {} were asked for: \
                     give the threads a shared table",
                    opts.threads.count
                ),
            });
        }
        let mut own = Heuristics::new();
        let heur = heuristics.unwrap_or(&mut own);
        algo.shared_in(game, opts, deepen, shared, observer.get(), heur)
    }
}

/// A search through a table: deepened, or one search with a first root
/// window ([`Search::run`]'s choice, whatever the table's kind).
struct Through<'a> {
    algo: Algorithm,
    opts: &'a SearchOptions,
    deepen: bool,
    window: (Value, Value),
}

impl Through<'_> {
    fn run<G: Game, O: Observer, T: Table>(
        &self,
        game: &G,
        obs: &mut O,
        table: &mut T,
        heur: &mut Heuristics,
    ) -> Result<Outcome<G::Move>, SearchError> {
        if self.deepen {
            iterative::search_kept(game, self.algo, self.opts, obs, table, heur)
        } else {
            self.algo.windowed(game, self.opts, obs, table, heur, self.window)
        }
    }
}

impl Algorithm {
    /// A [`Search`] of this algorithm with `options`, to configure step by
    /// step: `Algorithm::Mtdf.with_options(&opts).deepen().run(&game)` is
    /// `Search::new(Algorithm::Mtdf, &opts).deepen().run(&game)`.
    pub fn with_options(self, options: &SearchOptions) -> Search<'_> {
        Search::new(self, options)
    }
}

/// The entry points that [`Search`] replaces, kept for a release.
impl Algorithm {
    /// [`Algorithm::search`] reporting to `obs`.
    #[deprecated(since = "0.1.0", note = "use `Search::new(algo, opts).observer(obs).run(game)`")]
    pub fn search_observed<G: Game, O: Observer>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
    ) -> Result<Outcome<G::Move>, SearchError> {
        Search::new(self, opts).observer(obs).run(game)
    }

    /// A search through a table the caller keeps.
    #[deprecated(
        since = "0.1.0",
        note = "use `Search::new(algo, opts).observer(obs).table(table).run(game)`"
    )]
    pub fn search_in<G: Game, O: Observer, T: Table>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
        mut table: T,
    ) -> Result<Outcome<G::Move>, SearchError> {
        Search::new(self, opts).observer(obs).table(&mut table).run(game)
    }

    /// A search through a table and heuristics the caller keeps.
    #[deprecated(
        since = "0.1.0",
        note = "use `Search::new(algo, opts).observer(obs).table(table).heuristics(heur).run(game)`"
    )]
    pub fn search_kept<G: Game, O: Observer, T: Table>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
        mut table: T,
        heur: &mut Heuristics,
    ) -> Result<Outcome<G::Move>, SearchError> {
        Search::new(self, opts)
            .observer(obs)
            .table(&mut table)
            .heuristics(heur)
            .run(game)
    }

    /// A search with a first root window.
    #[deprecated(
        since = "0.1.0",
        note = "use `Search::new(algo, opts)...window(alpha, beta).run(game)`"
    )]
    pub fn search_window<G: Game, O: Observer, T: Table>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
        mut table: T,
        heur: &mut Heuristics,
        window: (Value, Value),
    ) -> Result<Outcome<G::Move>, SearchError> {
        Search::new(self, opts)
            .observer(obs)
            .table(&mut table)
            .heuristics(heur)
            .window(window.0, window.1)
            .run(game)
    }

    /// A search on several threads, deepened or not, through a shared table.
    #[deprecated(
        since = "0.1.0",
        note = "use `Search::new(algo, opts).observer(obs)` with `.deepen()` and `.shared_table(t)`, then `.run_shared(game)`"
    )]
    pub fn search_shared_in<G, O>(
        self,
        game: &G,
        opts: &SearchOptions,
        deepen: bool,
        table: Option<&SharedTable>,
        obs: &mut O,
    ) -> Result<Outcome<G::Move>, SearchError>
    where
        G: Game + Sync,
        G::Position: Send,
        G::Move: Send + Sync,
        O: Observer,
    {
        let mut s = Search::new(self, opts).observer(obs);
        s.deepen = deepen;
        s.shared = table;
        s.run_shared(game)
    }
}
