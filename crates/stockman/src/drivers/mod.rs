//! The drivers: what runs around an algorithm's own search (a presearch,
//! iterative deepening, threads under Lazy SMP or ABDADA, SSS\* in rounds),
//! and the one way in to all of them.
//!
//! [`Algorithm::search`] is the simple case: one search, on this thread,
//! with the table the options ask for. Everything else goes through the
//! [`Search`] builder: deepening, a table or move-ordering heuristics the
//! caller keeps across searches, a first root window, an observer, threads.
//! The builder picks the driver; the algorithms' own modules are the
//! engines the drivers run.
//!
//! # Example
//! ```
//! use stockman::{Algorithm, AnyTable, ConnectFour, LeafRecorder, Limits, Search, SearchOptions, TableSize};
//!
//! let game = ConnectFour::from_moves("4453").unwrap().with_heuristic();
//! let opts = SearchOptions { limits: Limits::to_depth(6), table: TableSize::Megabytes(4), ..Default::default() };
//! let plain = Algorithm::Mtdf.search(&game, &opts).unwrap();
//!
//! // Deepened, through a table kept for the next search, with the leaves recorded.
//! let mut table = AnyTable::try_new(opts.table).unwrap();
//! let mut leaves = LeafRecorder::default();
//! let deep = Search::new(Algorithm::Mtdf, &opts).deepen().table(&mut table).observer(&mut leaves).run(&game).unwrap();
//! assert_eq!(deep.value, plain.value);
//! assert_eq!(deep.depth_completed, Some(6));
//! assert!(!leaves.leaves.is_empty());
//! ```

pub mod abdada;
pub mod iterative;
pub mod lazy_smp;
pub mod parallel_sss;
pub(crate) mod rounds;
pub mod tdsab;

use crate::algorithms::capabilities::TableUse;
use crate::algorithms::Algorithm;
use crate::game::Game;
use crate::observe::{NoObserver, Observer};
use crate::options::{Enhancements, Limits, Parallel};
use crate::ordering::Heuristics;
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::shared_table::SharedTable;
use crate::table::{AnyTable, Table};
use crate::value::{Value, INF};

mod builder;
pub use builder::Search;

impl Algorithm {
    /// Searches `game` with this algorithm: one search, on this thread,
    /// with the table `opts.table` asks for (and a presearch first when
    /// `opts.enhancements.presearch` asks for one). [`Search`] does the rest.
    ///
    /// # Errors
    /// A limit of `opts.limits`, a table that cannot be allocated, a game
    /// that breaks its contract, more than one thread (see
    /// [`Algorithm::search_shared`]).
    pub fn search<G: Game>(self, game: &G, opts: &SearchOptions) -> Result<Outcome<G::Move>, SearchError> {
        self.observed(game, opts, &mut NoObserver)
    }

    /// [`Algorithm::search`] on [`Threads::count`](crate::Threads::count) threads, for a
    /// game the threads can share: the depth-first algorithms as
    /// [`Threads::parallel`](crate::Threads::parallel) says through a fresh [`SharedTable`]
    /// (of `opts.table`'s size; [`DEFAULT_SHARED_TABLE_MB`](crate::DEFAULT_SHARED_TABLE_MB) for an unbounded
    /// one), SSS\* and Dual\* in rounds ([`parallel_sss`]); minimax, RecSSS\*,
    /// RecDual\*, SSS-2, GSEARCH and RSEARCH, which have no parallel form, on
    /// one thread. One thread
    /// is exactly [`Algorithm::search`].
    ///
    /// # Errors
    /// As [`Algorithm::search`]; a thread count of 0 or over
    /// [`MAX_THREADS`](crate::options::MAX_THREADS), or a table that cannot be allocated.
    ///
    /// # Example
    /// ```
    /// use stockman::{Algorithm, RandomSpec, RandomTree, SearchOptions, Threads};
    /// let tree = RandomTree::new(RandomSpec::parse("width=6,depth=6,seed=3").unwrap());
    /// let one = Algorithm::Mtdf.search(&tree, &SearchOptions::default()).unwrap();
    /// let opts = SearchOptions { threads: Threads { count: 2, ..Default::default() }, ..SearchOptions::default() };
    /// let two = Algorithm::Mtdf.search_shared(&tree, &opts).unwrap();
    /// assert_eq!(one.value, two.value);
    /// assert!(Algorithm::Mtdf.search(&tree, &opts).is_err()); // say search_shared
    /// ```
    pub fn search_shared<G>(self, game: &G, opts: &SearchOptions) -> Result<Outcome<G::Move>, SearchError>
    where
        G: Game + Sync,
        G::Position: Send,
        G::Move: Send + Sync,
    {
        self.shared_in(game, opts, false, None, &mut NoObserver, &mut Heuristics::new())
    }

    /// [`Algorithm::search_shared`], deepened when `deepen` (the depth-first
    /// algorithms), through `table` when the caller keeps one (else, if the
    /// search needs one, a fresh one), reporting the calling thread's search
    /// to `obs`: the one place that decides how a search runs on threads.
    pub(crate) fn shared_in<G, O>(
        self,
        game: &G,
        opts: &SearchOptions,
        deepen: bool,
        table: Option<&SharedTable>,
        obs: &mut O,
        heur: &mut Heuristics,
    ) -> Result<Outcome<G::Move>, SearchError>
    where
        G: Game + Sync,
        G::Position: Send,
        G::Move: Send + Sync,
        O: Observer,
    {
        let threads = crate::options::Threads::check_count(opts.threads.count)
            .map_err(|e| SearchError::Unsupported { reason: e.to_string() })?;
        let one = SearchOptions {
            threads: crate::options::Threads {
                count: 1,
                ..opts.threads
            },
            ..opts.clone()
        };
        // One thread searches alone, unless the caller gave it a shared
        // table to search through (the baseline a parallel search is
        // measured against: the same table, one thread).
        let alone = threads == 1 && (table.is_none() || !lazy_smp::supports(self));
        if alone || !self.runs_parallel(opts.threads.parallel) {
            return if deepen && !self.is_best_first() {
                iterative::search_kept(game, self, &one, obs, &mut AnyTable::try_new(one.table)?, heur)
            } else {
                self.observed(game, &one, obs)
            };
        }
        if parallel_sss::supports(self) {
            let states = opts.threads.round_states;
            return parallel_sss::search_observed(game, self == Algorithm::Dual, &one, threads, states, obs);
        }
        let fresh;
        let table = match table {
            Some(t) => t,
            None => {
                let mb = match opts.table {
                    crate::TableSize::Megabytes(mb) => mb,
                    crate::TableSize::Unbounded => crate::DEFAULT_SHARED_TABLE_MB,
                };
                fresh = SharedTable::with_megabytes(mb).map_err(SearchError::Table)?;
                &fresh
            }
        };
        opts.threads
            .parallel
            .search_kept(game, self, &one, deepen, threads, table, obs, heur)
    }

    /// One search on this thread, reporting leaves, steps and passes to
    /// `obs` (with a presearch first, when the options ask for one).
    pub(crate) fn observed<G: Game, O: Observer>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
    ) -> Result<Outcome<G::Move>, SearchError> {
        if opts.threads.count != 1 {
            return Err(SearchError::Unsupported {
                reason: format!(
                    "threads = {}: a search on several threads needs a game the threads can share; \
                     call Algorithm::search_shared or Search::run_shared",
                    opts.threads.count
                ),
            });
        }
        if opts.enhancements.presearch.is_some() && opts.limits.depth.is_none() && game.hash(&game.root()).is_some() {
            // A presearch leaves its moves in the table the search then uses.
            let tabled = match self.capabilities().table {
                TableUse::Required => true,
                TableUse::Optional => matches!(opts.table, crate::TableSize::Megabytes(_)),
                TableUse::None => false,
            };
            if tabled {
                return self.windowed(
                    game,
                    opts,
                    obs,
                    &mut AnyTable::try_new(opts.table)?,
                    &mut Heuristics::new(),
                    (-INF, INF),
                );
            }
        }
        self.observed_plain(game, opts, obs)
    }

    /// One search through `table` (kept by the caller), with `heur`, and a
    /// first root window for the full-window searches (alpha-beta, NegaScout: an aspiration window;
    /// the value is exact only if it falls strictly inside). The drivers,
    /// which choose their own windows, ignore it.
    pub(crate) fn windowed<G: Game, O: Observer, T: Table>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
        table: &mut T,
        heur: &mut Heuristics,
        window: (Value, Value),
    ) -> Result<Outcome<G::Move>, SearchError> {
        // `T::ENABLED` alone, a constant, so that no presearch is compiled
        // for a search without a table (the build instantiates every
        // algorithm once per table type: fewer types, a faster build).
        if T::ENABLED
            && let Some(p) = opts.enhancements.presearch
            && opts.limits.depth.is_none()
            && self.capabilities().table != TableUse::None
        {
            return self.presearched(game, opts, obs, table, heur, window, p);
        }
        self.dispatch(game, opts, obs, table, heur, window)
    }

    /// [`Enhancements::presearch`](crate::Enhancements::presearch): the narrowed game first, into the same
    /// table (its counts added to the search's), then the game itself.
    #[allow(clippy::too_many_arguments)]
    fn presearched<G: Game, O: Observer, T: Table>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
        table: &mut T,
        heur: &mut Heuristics,
        window: (Value, Value),
        p: crate::Presearch,
    ) -> Result<Outcome<G::Move>, SearchError> {
        let narrow = crate::Narrowed {
            game,
            width: p.width,
            min_left: p.min_left,
        };
        let first = SearchOptions {
            limits: Limits {
                depth: Some(crate::Presearch::DEPTH),
                ..opts.limits
            },
            enhancements: Enhancements {
                presearch: None,
                ..opts.enhancements
            },
            ..opts.clone()
        };
        let start = std::time::Instant::now();
        // The narrowed root lists its own (fewer) moves, not a team's list
        // of the game's (the presearch's root entry is only a hint).
        table.show_root_moves(false);
        let pre = self.dispatch(&narrow, &first, &mut crate::NoObserver, &mut *table, heur, window);
        table.show_root_moves(true);
        let pre = pre.map_err(SearchError::unproven)?;
        // The limits hold for both searches together.
        let rest = SearchOptions {
            limits: Limits {
                nodes: opts.limits.nodes.map(|n| n.saturating_sub(pre.stats.nodes)),
                time: opts.limits.time.map(|t| t.saturating_sub(start.elapsed())),
                ..opts.limits
            },
            ..opts.clone()
        };
        // A limit that stops the full search is reported as the caller's,
        // with both searches' work (best-first searches, whose OPEN limit
        // this leaves alone, never presearch).
        let mut out = self
            .dispatch(game, &rest, obs, table, heur, window)
            .map_err(|e| e.for_caller(opts, pre.stats))?;
        out.stats += pre.stats;
        Ok(out)
    }
}

impl Parallel {
    /// Whether `algo` runs with exclusive handles this way: under ABDADA
    /// (and rounds), except NegaScout (see [`abdada::shares_work`]); never
    /// under Lazy SMP.
    fn exclusive(self, algo: Algorithm) -> bool {
        self != Parallel::LazySmp && abdada::shares_work(algo)
    }

    /// One search of `algo` on `threads` threads through `table` this way
    /// ([`lazy_smp`], [`abdada`]), with the calling thread's heuristics
    /// kept by the caller (the [`Engine`](crate::Engine) keeps them across moves).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search_kept<G: Game<Move: Send + Sync> + Sync, O: Observer>(
        self,
        game: &G,
        algo: Algorithm,
        opts: &SearchOptions,
        deepen: bool,
        threads: usize,
        table: &crate::SharedTable,
        obs: &mut O,
        heur: &mut Heuristics,
    ) -> Result<Outcome<G::Move>, SearchError> {
        let exclusive = self.exclusive(algo);
        lazy_smp::on_threads(game, algo, opts, deepen, threads, table, exclusive, obs, heur)
    }
}
