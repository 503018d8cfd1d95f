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

use crate::algorithms::{iterative, Algorithm};
use crate::game::Game;
use crate::observe::NoObserver;
use crate::ordering::Heuristics;
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::table::{AnyTable, Table};
use std::time::Duration;

/// How far one [`Engine::best_move`] may search; any combination, and
/// none at all searches to the end of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// Wall-clock time for the move.
    pub time: Option<Duration>,
    /// Positions visited for the move.
    pub nodes: Option<u64>,
}

/// Iterative deepening with one algorithm, keeping its table and move-ordering
/// heuristics between the moves of a game.
#[derive(Debug)]
pub struct Engine {
    algorithm: Algorithm,
    options: SearchOptions,
    table: AnyTable,
    heuristics: Heuristics,
}

impl Engine {
    /// An engine searching with `algorithm` and `options` (their depth and
    /// limits are replaced by each move's [`Limits`]; see
    /// [`SearchOptions::engine`] for the usual enhancements).
    ///
    /// # Errors
    /// [`SearchError::Unsupported`] for the best-first searches (SSS\*,
    /// Dual\*, RecSSS\*, RecDual\*), which cannot be deepened;
    /// [`SearchError::Table`] if the table cannot be allocated.
    pub fn new(algorithm: Algorithm, options: SearchOptions) -> Result<Engine, SearchError> {
        if algorithm.is_best_first() {
            return Err(SearchError::Unsupported {
                reason: format!(
                    "{algorithm} is best-first and cannot be deepened iteratively; an engine needs a depth-first algorithm"
                ),
            });
        }
        Ok(Engine {
            algorithm,
            table: AnyTable::try_new(options.table)?,
            options,
            heuristics: Heuristics::new(),
        })
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
        self.table.clear();
        self.heuristics.clear();
    }

    /// The best move at `game`'s root within `limits`: the answer of the
    /// deepest iteration that completed ([`Outcome::depth_completed`]).
    ///
    /// # Errors
    /// A limit that stops even the first iteration, or what the algorithm
    /// reports (for example [`SearchError::NoHash`]).
    pub fn best_move<G: Game>(&mut self, game: &G, limits: &Limits) -> Result<Outcome<G::Move>, SearchError> {
        let opts = SearchOptions {
            depth: limits.depth,
            time_limit: limits.time,
            max_nodes: limits.nodes,
            ..self.options.clone()
        };
        iterative::search_kept(
            game,
            self.algorithm,
            &opts,
            &mut NoObserver,
            &mut self.table,
            &mut self.heuristics,
        )
    }
}
