//! MT-SSS\*: SSS\* as a sequence of null-window alpha-beta tests with a
//! transposition table (Plaat, Schaeffer, Pijls and de Bruin 1996).
//!
//! ```text
//! g := +inf
//! repeat  G := g;  g := MT(root, G - 1, G)  until g = G
//! ```
//! Each pass fails low and lowers the upper bound, until the last one fails
//! high at the value. With a table that loses nothing and stores leaf
//! values exactly, it evaluates the same leaves in the same order as SSS\*
//! (checked by this crate's property tests) without any OPEN list.
//!
//! # Complexity
//! The leaves of SSS\*, with each pass re-traversing interior nodes; memory
//! is the table, `O(nodes visited)` with the default unbounded one.
//!
//! # Example
//! ```
//! use stockman::{Algorithm, ExplicitTree, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let out = Algorithm::MtSss.search(&tree, &SearchOptions::default()).unwrap();
//! assert_eq!((out.value, out.stats.leaf_evals), (Some(3), 7));
//! ```

use super::mt::Driver;
use crate::game::Game;
use crate::observe::Observer;
use crate::ordering::Heuristics;
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::table::{AnyTable, Table};
use crate::value::INF;

/// [`search`], reporting leaves and passes to an observer.
pub(crate) fn search_observed<G: Game, O: Observer>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    search_in(game, opts, obs, &mut AnyTable::try_new(opts.table)?)
}

/// [`search_observed`] using `table` (kept by the caller, for example across
/// the iterations of iterative deepening).
pub(crate) fn search_in<G: Game, O: Observer, T: Table>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
    table: T,
) -> Result<Outcome<G::Move>, SearchError> {
    search_kept(game, opts, obs, table, &mut Heuristics::new())
}

/// [`search_in`] with move-ordering heuristics the caller keeps across searches.
pub(crate) fn search_kept<G: Game, O: Observer, T: Table>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
    table: T,
    heur: &mut Heuristics,
) -> Result<Outcome<G::Move>, SearchError> {
    let mut d = Driver::new(game, opts, obs, table, heur, "mt-sss")?;
    let mut g = INF;
    loop {
        let bound = g;
        g = d.test(bound - 1, bound)?;
        if g >= bound {
            return Ok(d.finish(Some(bound), None));
        }
    }
}
