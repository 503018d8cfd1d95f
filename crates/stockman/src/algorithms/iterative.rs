//! Iterative deepening: search to depth 1, 2, 3, ... with any depth-first
//! algorithm, keeping one transposition table across the iterations.
//!
//! Each iteration tries the table's best move first at every node (the
//! previous iteration's principal variation comes first), and MTD(f) starts
//! from the previous iteration's value. Deepening stops at `opts.depth`, or,
//! without a depth limit, after the first iteration in which no position was
//! cut off by the depth limit (the whole tree was seen).
//!
//! # Complexity
//! The sum of the iterations; on trees of width `w` the last one dominates
//! (about `w/(w-1)` of a single search), and better ordering usually makes
//! the whole cheaper than one deep search.
//!
//! # Example
//! ```
//! use stockman::{algorithms::iterative, Algorithm, ConnectFour, SearchOptions, TableSize};
//! let game = ConnectFour::from_moves("4453").unwrap().with_heuristic();
//! let opts = SearchOptions { depth: Some(6), table: TableSize::Megabytes(4), ..Default::default() };
//! let deep = iterative::search(&game, Algorithm::Mtdf, &opts).unwrap();
//! let flat = Algorithm::AlphaBeta.search(&game, &opts).unwrap();
//! assert_eq!(deep.value, flat.value);
//! ```

use super::Algorithm;
use crate::game::Game;
use crate::observe::{NoObserver, Observer};
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::stats::Stats;
use crate::table::{AnyTable, Table};

/// Iterative deepening with `algo` (a depth-first algorithm).
pub fn search<G: Game>(game: &G, algo: Algorithm, opts: &SearchOptions) -> Result<Outcome<G::Move>, SearchError> {
    search_observed(game, algo, opts, &mut NoObserver)
}

/// [`search`], reporting every iteration's leaves and passes to an observer.
pub fn search_observed<G: Game, O: Observer>(
    game: &G,
    algo: Algorithm,
    opts: &SearchOptions,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    // Deepening needs a table to carry the move ordering: the one asked for.
    search_in(game, algo, opts, obs, &mut AnyTable::new(opts.table))
}

/// [`search_observed`] with a table the caller keeps (and clears when it likes).
pub fn search_in<G: Game, O: Observer, T: Table>(
    game: &G,
    algo: Algorithm,
    opts: &SearchOptions,
    obs: &mut O,
    mut table: T,
) -> Result<Outcome<G::Move>, SearchError> {
    if algo.is_best_first() {
        return Err(SearchError::Unsupported {
            reason: format!("iterative deepening drives depth-first searches; {algo} is best-first"),
        });
    }
    let start = std::time::Instant::now();
    let mut total = Stats::default();
    let mut guess = opts.first_guess;
    let mut depth = 1;
    loop {
        let o = SearchOptions {
            depth: Some(depth),
            first_guess: guess,
            table_move_first: true,
            max_nodes: opts.max_nodes.map(|n| n.saturating_sub(total.nodes)),
            time_limit: opts.time_limit.map(|t| t.saturating_sub(start.elapsed())),
            ..opts.clone()
        };
        let out = algo
            .search_in(game, &o, obs, &mut table)
            .map_err(|e| add_stats(e, total))?;
        total += out.stats;
        if let Some(v) = out.value {
            guess = v;
        }
        let done = match opts.depth {
            Some(max) => depth >= max,
            None => out.stats.horizon_nodes == 0,
        };
        if done {
            total.max_open = out.stats.max_open;
            total.time_us = start.elapsed().as_micros() as u64;
            return Ok(Outcome { stats: total, ..out });
        }
        depth += 1;
    }
}

/// A limit error carries the counters of every iteration, not just the last.
fn add_stats(e: SearchError, before: Stats) -> SearchError {
    match e {
        SearchError::NodeLimit { limit, stats } => SearchError::NodeLimit {
            limit,
            stats: before + stats,
        },
        SearchError::TimeLimit { limit, stats } => SearchError::TimeLimit {
            limit,
            stats: before + stats,
        },
        other => other,
    }
}
