//! The searches, one module each, all generic over [`Game`].
//!
//! | name | module | kind |
//! |---|---|---|
//! | `minimax` | [`minimax`] | depth-first, every leaf |
//! | `alphabeta` | [`alphabeta`] | depth-first, fail-soft |
//! | `negascout` | [`negascout`] | depth-first, null-window tests |
//! | `sss` | [`sss`] | best-first, OPEN list of upper bounds |
//! | `dual` | [`dual`] | best-first, OPEN list of lower bounds |
//! | `recsss` | [`recsss`] | recursive SSS\*, OPEN arrays |
//! | `recdual` | [`recdual`] | recursive Dual\*, OPEN arrays |
//! | `mt-sss` | [`mt_sss`] | null-window passes from +inf, table |
//! | `mt-dual` | [`mt_dual`] | null-window passes from -inf, table |
//! | `mtdf` | [`mtdf`] | null-window passes from a guess, table |
//! | `mtd-bi` | [`mtd_bi`] | null-window passes bisecting the bounds, table |
//! | `bns` | [`bns`] | best move by separation tests, table |
//!
//! [`iterative`] deepens any depth-first one of them. What each one is and
//! needs (family, order, table, answer, parallel form) is data, one row per
//! algorithm in [`capabilities`], which every predicate reads.

pub mod abdada;
pub mod alphabeta;
mod best_first;
pub mod bns;
pub mod capabilities;
pub(crate) mod context;
pub mod dual;
pub mod iterative;
pub mod lazy_smp;
pub mod minimax;
mod mt;
pub mod mt_dual;
pub mod mt_sss;
pub mod mtd_bi;
pub mod mtdf;
pub mod negascout;
mod open_queue;
pub mod parallel_sss;
pub mod recdual;
pub mod recsss;
mod recursive;
pub(crate) mod rounds;
pub mod sss;

use crate::options::{Enhancements, Limits};
pub use capabilities::Capabilities;
use capabilities::{Answer, Order, ParallelForm, TableUse};

use crate::game::Game;
use crate::observe::{NoObserver, Observer};
pub use crate::options::Parallel;
use crate::ordering::Heuristics;
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::shared_table::SharedTable;
use crate::table::{AnyTable, Table};
use crate::value::{Value, INF};

/// Every search of the crate, by name: the registry the CLI and the
/// experiments draw from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Algorithm {
    /// [`minimax`]
    Minimax,
    /// [`alphabeta`]
    AlphaBeta,
    /// [`negascout`]
    NegaScout,
    /// [`sss`]
    Sss,
    /// [`dual`]
    Dual,
    /// [`recsss`]
    RecSss,
    /// [`recdual`]
    RecDual,
    /// [`mt_sss`]
    MtSss,
    /// [`mt_dual`]
    MtDual,
    /// [`mtdf`]
    Mtdf,
    /// [`mtd_bi`]
    MtdBi,
    /// [`bns`]
    Bns,
}

impl Algorithm {
    /// Every algorithm, baselines first.
    pub const ALL: &'static [Algorithm] = &[
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::NegaScout,
        Algorithm::Sss,
        Algorithm::Dual,
        Algorithm::RecSss,
        Algorithm::RecDual,
        Algorithm::MtSss,
        Algorithm::MtDual,
        Algorithm::Mtdf,
        Algorithm::MtdBi,
        Algorithm::Bns,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        self.capabilities().name
    }

    /// What it is and needs: its row of [`CAPABILITIES`](capabilities::CAPABILITIES).
    pub fn capabilities(self) -> &'static Capabilities {
        &capabilities::CAPABILITIES[self as usize]
    }

    /// Searches `game` with this algorithm.
    pub fn search<G: Game>(self, game: &G, opts: &SearchOptions) -> Result<Outcome<G::Move>, SearchError> {
        self.search_observed(game, opts, &mut NoObserver)
    }

    /// Whether it has a parallel form here: the depth-first algorithms but
    /// minimax, through a shared table ([`lazy_smp`], [`abdada`]), and
    /// SSS\* and Dual\* in rounds ([`parallel_sss`]).
    pub fn has_parallel_form(self) -> bool {
        self.capabilities().parallel != ParallelForm::None
    }

    /// Whether it runs on several threads when asked for them `how`: the
    /// depth-first algorithms but minimax always; SSS\* and Dual\* only in
    /// rounds ([`Parallel::Rounds`]: on free leaves their rounds cost more
    /// wall time than one thread, so no other way sends them there).
    pub fn runs_parallel(self, how: Parallel) -> bool {
        match self.capabilities().parallel {
            ParallelForm::SharedTable { .. } => true,
            ParallelForm::Rounds => how == Parallel::Rounds,
            ParallelForm::None => false,
        }
    }

    /// [`Algorithm::search`] on [`Threads::count`](crate::Threads::count) threads, for a
    /// game the threads can share: the depth-first algorithms as
    /// [`Threads::parallel`](crate::Threads::parallel) says through a fresh [`SharedTable`]
    /// (of `opts.table`'s size; [`DEFAULT_SHARED_TABLE_MB`](crate::DEFAULT_SHARED_TABLE_MB) for an unbounded
    /// one), SSS\* and Dual\* in rounds ([`parallel_sss`]); minimax, RecSSS\*
    /// and RecDual\*, which have no parallel form, on one thread. One thread
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
        G::Move: Send,
    {
        self.search_shared_in(game, opts, false, None, &mut NoObserver)
    }

    /// [`Algorithm::search_shared`], deepened when `deepen` (the depth-first
    /// algorithms), through `table` when the caller keeps one (else, if the
    /// search needs one, a fresh one), reporting the calling thread's search
    /// to `obs`. The one place that decides how a search runs on threads:
    /// the run layer, the experiments and [`Algorithm::search_shared`] call it.
    ///
    /// # Errors
    /// As [`Algorithm::search_shared`].
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
        G::Move: Send,
        O: Observer,
    {
        let threads = opts.threads.count;
        let max = crate::options::MAX_THREADS;
        if !(1..=max).contains(&threads) {
            return Err(SearchError::Unsupported {
                reason: format!("threads = {threads}: give 1 to {max}"),
            });
        }
        let one = SearchOptions {
            threads: crate::options::Threads {
                count: 1,
                ..opts.threads
            },
            ..opts.clone()
        };
        if threads == 1 || !self.runs_parallel(opts.threads.parallel) {
            return if deepen && !self.is_best_first() {
                iterative::search_observed(game, self, &one, obs)
            } else {
                self.search_observed(game, &one, obs)
            };
        }
        if parallel_sss::supports(self) {
            return parallel_sss::search_observed(game, self == Algorithm::Dual, &one, threads, 0, obs);
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
            .search_observed(game, self, &one, deepen, threads, table, obs)
    }

    /// Searches `game`, reporting leaves, steps and passes to `obs`.
    pub fn search_observed<G: Game, O: Observer>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
    ) -> Result<Outcome<G::Move>, SearchError> {
        if opts.threads.count != 1 {
            return Err(SearchError::Unsupported {
                reason: format!(
                    "threads = {}: a search on several threads needs a game the threads can share; \
                     call Algorithm::search_shared",
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
                return self.search_in(game, opts, obs, AnyTable::try_new(opts.table)?);
            }
        }
        self.observed_plain(game, opts, obs)
    }

    /// [`Algorithm::search_observed`] without a presearch.
    fn observed_plain<G: Game, O: Observer>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
    ) -> Result<Outcome<G::Move>, SearchError> {
        match self {
            Algorithm::Minimax => minimax::search_observed(game, opts, obs),
            Algorithm::AlphaBeta => alphabeta::search_observed(game, opts, obs),
            Algorithm::NegaScout => negascout::search_observed(game, opts, obs),
            Algorithm::Sss => sss::search_observed(game, opts, obs),
            Algorithm::Dual => dual::search_observed(game, opts, obs),
            Algorithm::RecSss => recsss::search_observed(game, opts, obs),
            Algorithm::RecDual => recdual::search_observed(game, opts, obs),
            Algorithm::MtSss => mt_sss::search_observed(game, opts, obs),
            Algorithm::MtDual => mt_dual::search_observed(game, opts, obs),
            Algorithm::Mtdf => mtdf::search_observed(game, opts, obs),
            Algorithm::MtdBi => mtd_bi::search_observed(game, opts, obs),
            Algorithm::Bns => bns::search_observed(game, opts, obs),
        }
    }

    /// Searches `game` using `table`, which the caller keeps (for example
    /// across the iterations of [`iterative`] deepening). The best-first
    /// searches and minimax keep no table and ignore it; alpha-beta and
    /// NegaScout use it whatever `opts.table` says.
    pub fn search_in<G: Game, O: Observer, T: Table>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
        table: T,
    ) -> Result<Outcome<G::Move>, SearchError> {
        self.search_kept(game, opts, obs, table, &mut Heuristics::new())
    }

    /// [`Algorithm::search_in`] with move-ordering heuristics (history,
    /// killers) that the caller also keeps across searches. The best-first
    /// searches and minimax ignore both.
    pub fn search_kept<G: Game, O: Observer, T: Table>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
        table: T,
        heur: &mut Heuristics,
    ) -> Result<Outcome<G::Move>, SearchError> {
        self.search_window(game, opts, obs, table, heur, (-INF, INF))
    }

    /// [`Algorithm::search_kept`] with a first root window for the
    /// full-window searches (alpha-beta, NegaScout: an aspiration window;
    /// the value is exact only if it falls strictly inside). The drivers,
    /// which choose their own windows, ignore it.
    pub fn search_window<G: Game, O: Observer, T: Table>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
        table: T,
        heur: &mut Heuristics,
        window: (Value, Value),
    ) -> Result<Outcome<G::Move>, SearchError> {
        if let Some(p) = opts.enhancements.presearch {
            if opts.limits.depth.is_none() && T::ENABLED && self.capabilities().table != TableUse::None {
                return self.presearched(game, opts, obs, table, heur, window, p);
            }
        }
        self.dispatch(game, opts, obs, table, heur, window)
    }

    /// [`Algorithm::search_window`] without a presearch.
    fn dispatch<G: Game, O: Observer, T: Table>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
        table: T,
        heur: &mut Heuristics,
        window: (Value, Value),
    ) -> Result<Outcome<G::Move>, SearchError> {
        match self {
            Algorithm::AlphaBeta => alphabeta::search_kept(game, opts, obs, table, heur, window),
            Algorithm::NegaScout => negascout::search_kept(game, opts, obs, table, heur, window),
            Algorithm::MtSss => mt_sss::search_kept(game, opts, obs, table, heur),
            Algorithm::MtDual => mt_dual::search_kept(game, opts, obs, table, heur),
            Algorithm::Mtdf => mtdf::search_kept(game, opts, obs, table, heur),
            Algorithm::MtdBi => mtd_bi::search_kept(game, opts, obs, table, heur),
            Algorithm::Bns => match opts.params.bns_guess {
                bns::GuessKind::Rutko => bns::search_kept(game, opts, &mut bns::Rutko, obs, table, heur),
                bns::GuessKind::Bisect => bns::search_kept(game, opts, &mut bns::Bisect, obs, table, heur),
            },
            _ => self.observed_plain(game, opts, obs),
        }
    }

    /// [`Enhancements::presearch`](crate::Enhancements::presearch): the narrowed game first, into the same
    /// table (its counts added to the search's), then the game itself.
    #[allow(clippy::too_many_arguments)]
    fn presearched<G: Game, O: Observer, T: Table>(
        self,
        game: &G,
        opts: &SearchOptions,
        obs: &mut O,
        mut table: T,
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
        let pre = self
            .dispatch(&narrow, &first, &mut crate::NoObserver, &mut table, heur, window)
            .map_err(SearchError::unproven)?;
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

    /// Whether the algorithm keeps an OPEN list (or OPEN arrays).
    pub fn is_best_first(self) -> bool {
        self.capabilities().order() == Order::BestFirst
    }

    /// Whether the algorithm needs a transposition table (and so a hash).
    pub fn needs_table(self) -> bool {
        self.capabilities().table == TableUse::Required
    }

    /// Whether the algorithm returns the root's value (all but BNS, which
    /// returns a best move and a bound).
    pub fn finds_value(self) -> bool {
        self.capabilities().answer == Answer::Value
    }

    /// Whether it can drive a game-playing [`Engine`](crate::Engine)
    /// (depth-first, with a table): what `play`, `match`, UCI and Python
    /// engines accept.
    pub fn drives_engine(self) -> bool {
        self.capabilities().engine()
    }
}

impl std::fmt::Display for Algorithm {
    /// The `--algo` name; honours width and alignment (`{algo:<10}`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

/// An algorithm name that is not in [`Algorithm::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAlgorithm(pub String);

impl std::fmt::Display for UnknownAlgorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        write!(
            f,
            "unknown algorithm `{}` (known: {}, or `all`)",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownAlgorithm {}

impl std::str::FromStr for Algorithm {
    type Err = UnknownAlgorithm;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        Algorithm::ALL
            .iter()
            .copied()
            .find(|a| a.name() == t)
            .ok_or_else(|| UnknownAlgorithm(s.trim().to_string()))
    }
}

impl Algorithm {
    /// Parses a comma-separated list of names, or `all`.
    pub fn parse_list(list: &str) -> Result<Vec<Algorithm>, UnknownAlgorithm> {
        if list.trim().eq_ignore_ascii_case("all") {
            return Ok(Algorithm::ALL.to_vec());
        }
        let mut out = Vec::new();
        for name in list.split(',') {
            if name.trim().is_empty() {
                return Err(UnknownAlgorithm(String::new()));
            }
            let a: Algorithm = name.parse()?;
            if !out.contains(&a) {
                out.push(a);
            }
        }
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
    /// (see [`lazy_smp::search_observed`] and [`abdada::search_observed`]).
    ///
    /// # Errors
    /// What the calling thread's search reports.
    #[allow(clippy::too_many_arguments)]
    pub fn search_observed<G: Game + Sync, O: Observer>(
        self,
        game: &G,
        algo: Algorithm,
        opts: &SearchOptions,
        deepen: bool,
        threads: usize,
        table: &crate::SharedTable,
        obs: &mut O,
    ) -> Result<Outcome<G::Move>, SearchError> {
        let heur = &mut Heuristics::new();
        self.search_kept(game, algo, opts, deepen, threads, table, obs, heur)
    }

    /// [`Parallel::search_observed`] with the calling thread's heuristics
    /// kept by the caller (the [`Engine`](crate::Engine) keeps them across moves).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search_kept<G: Game + Sync, O: Observer>(
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

#[cfg(test)]
mod tests {
    use super::Algorithm;

    #[test]
    fn display_is_the_name_and_honours_width() {
        assert_eq!(format!("{}", Algorithm::MtSss), "mt-sss");
        assert_eq!(format!("[{:<8}]", Algorithm::Sss), "[sss     ]");
        assert_eq!(format!("[{:>6}]", Algorithm::Mtdf), "[  mtdf]");
    }
}
