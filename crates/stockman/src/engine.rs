//! A game-playing engine: iterative deepening under a clock or a node
//! budget, with a transposition table and move-ordering heuristics that it
//! keeps between the moves of one game.
//!
//! Game programs search one position after another, and most of what a
//! search learns (table entries, history scores, killers) still holds a move
//! later; [`Engine::new_game`] forgets it all.
//!
//! # Example
//! A game loop: the engine plays both sides of tic-tac-toe to the end.
//! ```
//! use stockman::{Algorithm, Engine, GameResult, Limits, Playable, SearchOptions, TicTacToe};
//!
//! let mut engine = Engine::new(Algorithm::Mtdf, SearchOptions::engine(None)).unwrap();
//! engine.new_game();
//! let mut game = TicTacToe::new();
//! while game.result().is_none() {
//!     let out = engine.best_move(&game, &Limits { depth: Some(9), ..Limits::default() }).unwrap();
//!     game = game.after(out.best_move.expect("a move while the game goes on"));
//! }
//! assert_eq!(game.result(), Some(GameResult::Draw)); // perfect play draws
//! ```

use crate::algorithms::{Algorithm, Parallel};
use crate::game::Game;
use crate::observe::{NoObserver, Observer};
use crate::ordering::Heuristics;
use crate::search::{Limits, Outcome, SearchError, SearchOptions};
use crate::shared_table::SharedTable;
use crate::table::{AnyTable, Table, TableSize};

/// Iterative deepening with one algorithm, keeping its table and move-ordering
/// heuristics between the moves of a game.
#[derive(Debug)]
pub struct Engine {
    algorithm: Algorithm,
    options: SearchOptions,
    table: EngineTable,
    heuristics: Heuristics,
}

/// An engine's table: its own on one thread; on several, one shared table.
#[derive(Debug)]
enum EngineTable {
    One(AnyTable),
    Shared {
        threads: usize,
        how: Parallel,
        table: SharedTable,
    },
}

/// The table of an engine on several threads when its options ask for
/// an unbounded one (a shared table has a size): 64 MiB, the
/// [`DEFAULT_TABLE_MB`](crate::table::DEFAULT_TABLE_MB).
pub const DEFAULT_SHARED_TABLE_MB: usize = crate::table::DEFAULT_TABLE_MB;

impl Engine {
    /// Whether `algorithm` can drive an engine
    /// ([`Algorithm::drives_engine`]: depth-first, deepened iteratively,
    /// with a table): the one rule [`Engine::new`], `play`, `match`, UCI
    /// and Python apply.
    ///
    /// # Errors
    /// [`SearchError::Unsupported`] saying why not and naming the
    /// algorithms that can.
    pub fn accepts(algorithm: Algorithm) -> Result<(), SearchError> {
        if algorithm.drives_engine() {
            return Ok(());
        }
        let why = if algorithm.is_best_first() {
            "is best-first and cannot be deepened iteratively"
        } else {
            "keeps no transposition table to carry from one depth to the next"
        };
        Err(SearchError::Unsupported {
            reason: format!(
                "{algorithm} {why}; an engine uses one of: {}",
                Engine::algorithm_names()
            ),
        })
    }

    /// The algorithms [`Engine::accepts`], in the order of
    /// [`Algorithm::ALL`]: what every front end lists for an engine.
    pub fn algorithms() -> impl Iterator<Item = Algorithm> {
        Algorithm::ALL.iter().copied().filter(|a| a.drives_engine())
    }

    /// Their names, `, `-separated: the list an error or a help text gives.
    pub fn algorithm_names() -> String {
        Engine::algorithms().map(|a| a.name()).collect::<Vec<_>>().join(", ")
    }

    /// An engine searching with `algorithm` and `options` (their depth and
    /// limits are replaced by each move's [`Limits`]; see
    /// [`SearchOptions::engine`] for the usual enhancements).
    ///
    /// # Errors
    /// [`SearchError::Unsupported`] for an algorithm that cannot drive an
    /// engine ([`Engine::accepts`]: the best-first searches and minimax);
    /// [`SearchError::Table`] if the table cannot be allocated.
    pub fn new(algorithm: Algorithm, options: SearchOptions) -> Result<Engine, SearchError> {
        Engine::accepts(algorithm)?;
        // A fresh table's first touch costs real time: pay it here, not in
        // the first move's clock.
        let mut table = AnyTable::try_new(options.table)?;
        table.touch();
        Ok(Engine {
            algorithm,
            table: EngineTable::One(table),
            options,
            heuristics: Heuristics::new(),
        })
    }

    /// The same engine searching on `threads` threads, shared as `parallel`
    /// says, through one [`SharedTable`] of the options' size
    /// ([`DEFAULT_SHARED_TABLE_MB`] if they ask for an unbounded one). One
    /// thread is the engine as it was; minimax searches on one thread
    /// whatever the count.
    ///
    /// # Errors
    /// [`SearchError::Unsupported`] for 0 threads or more than
    /// [`MAX_THREADS`](crate::options::MAX_THREADS); [`SearchError::Table`]
    /// if the shared table cannot be allocated.
    ///
    /// # Example
    /// ```
    /// use stockman::{Algorithm, ConnectFour, Engine, Limits, Parallel, SearchOptions, TableSize};
    /// let options = SearchOptions { table: TableSize::Megabytes(8), ..SearchOptions::engine(None) };
    /// let mut engine = Engine::new(Algorithm::MtdBi, options).unwrap().with_threads(2, Parallel::Abdada).unwrap();
    /// let game = ConnectFour::from_moves("4453").unwrap().with_heuristic();
    /// let out = engine.best_move(&game, &Limits { depth: Some(8), ..Limits::default() }).unwrap();
    /// assert_eq!(out.depth_completed, Some(8));
    /// ```
    pub fn with_threads(mut self, threads: usize, parallel: Parallel) -> Result<Engine, SearchError> {
        crate::options::Threads::check_count(threads)
            .map_err(|e| SearchError::Unsupported { reason: e.to_string() })?;
        if threads == 1 {
            // One thread: the engine's own table (kept if it has one).
            if matches!(self.table, EngineTable::Shared { .. }) {
                let mut table = AnyTable::try_new(self.options.table)?;
                table.touch();
                self.table = EngineTable::One(table);
            }
            return Ok(self);
        }
        let mb = match self.options.table {
            TableSize::Megabytes(mb) => mb,
            TableSize::Unbounded => DEFAULT_SHARED_TABLE_MB,
        };
        let mut table = SharedTable::with_megabytes(mb)?;
        table.touch();
        self.table = EngineTable::Shared {
            threads,
            how: parallel,
            table,
        };
        Ok(self)
    }

    /// The threads it searches on, and how they share a search (one thread: `None`).
    pub fn threads(&self) -> Option<(usize, Parallel)> {
        match &self.table {
            EngineTable::One(_) => None,
            EngineTable::Shared { threads, how, .. } => Some((*threads, *how)),
        }
    }

    /// The algorithm it searches with.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// What the move-ordering heuristics have learnt so far this game.
    pub fn heuristics(&self) -> &Heuristics {
        &self.heuristics
    }

    /// Forgets everything learnt in the game so far: the table, the
    /// history scores and the killers.
    pub fn new_game(&mut self) {
        match &mut self.table {
            EngineTable::One(table) => table.clear(),
            // The engine's own table: its searches' handles end with them,
            // so nothing else holds it between moves and the clear holds.
            // (Were it refused, the entries would stay: true bounds all,
            // which cost no value, only counts.)
            EngineTable::Shared { table, .. } => {
                let _ = table.clear();
            }
        }
        self.heuristics.clear();
    }

    /// The best move at `game`'s root within `limits`: the answer of the
    /// deepest iteration that completed ([`Outcome::depth_completed`]), on
    /// the engine's threads ([`Engine::with_threads`]).
    ///
    /// # Errors
    /// A limit that stops even the first iteration, or what the algorithm
    /// reports (for example [`SearchError::NoHash`]).
    pub fn best_move<G: Game<Move: Send + Sync> + Sync>(
        &mut self,
        game: &G,
        limits: &Limits,
    ) -> Result<Outcome<G::Move>, SearchError> {
        self.best_move_observed(game, limits, &mut NoObserver)
    }

    /// [`Engine::best_move`] reporting to an observer: a game program
    /// listens to [`Observer::iteration`] to print each completed
    /// iteration (depth, score, principal variation) while it thinks.
    ///
    /// # Errors
    /// As [`Engine::best_move`].
    ///
    /// # Example
    /// ```
    /// use stockman::{observe::Iteration, Algorithm, Engine, Limits, Observer, SearchOptions, TicTacToe};
    /// #[derive(Default)]
    /// struct Depths(Vec<u32>);
    /// impl Observer for Depths {
    ///     const ITERATIONS: bool = true;
    ///     fn iteration(&mut self, done: &Iteration) { self.0.push(done.depth) }
    /// }
    /// let mut engine = Engine::new(Algorithm::Mtdf, SearchOptions::engine(None)).unwrap();
    /// let mut seen = Depths::default();
    /// engine.best_move_observed(&TicTacToe::new(), &Limits { depth: Some(3), ..Limits::default() }, &mut seen).unwrap();
    /// assert_eq!(seen.0, [1, 2, 3]);
    /// ```
    pub fn best_move_observed<G: Game<Move: Send + Sync> + Sync, O: Observer>(
        &mut self,
        game: &G,
        limits: &Limits,
        obs: &mut O,
    ) -> Result<Outcome<G::Move>, SearchError> {
        let opts = self.options_for(limits);
        let algo = self.algorithm;
        let heur = &mut self.heuristics;
        match &mut self.table {
            EngineTable::Shared { threads, how, table } => {
                how.search_kept(game, algo, &opts, true, *threads, table, obs, heur)
            }
            EngineTable::One(table) => algo
                .with_options(&opts)
                .deepen()
                .observer(obs)
                .table(table)
                .heuristics(heur)
                .run(game),
        }
    }

    /// The options every move's search starts from (the limits aside).
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// [`Engine::best_move`] on the calling thread alone, whatever the
    /// engine's thread count: for a game that cannot be shared between
    /// threads (one that is not `Sync`), through the engine's table.
    ///
    /// # Errors
    /// As [`Engine::best_move`].
    pub fn best_move_single<G: Game>(&mut self, game: &G, limits: &Limits) -> Result<Outcome<G::Move>, SearchError> {
        let opts = self.options_for(limits);
        let (algo, heur) = (self.algorithm, &mut self.heuristics);
        match &mut self.table {
            EngineTable::One(table) => algo
                .with_options(&opts)
                .deepen()
                .table(table)
                .heuristics(heur)
                .run(game),
            EngineTable::Shared { table, .. } => algo
                .with_options(&opts)
                .deepen()
                .table(&mut table.handle())
                .heuristics(heur)
                .run(game),
        }
    }

    /// The options of one move's search.
    fn options_for(&self, limits: &Limits) -> SearchOptions {
        SearchOptions {
            limits: *limits,
            ..self.options.clone()
        }
    }
}
