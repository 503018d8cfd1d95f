//! MT-Dual\*: Dual\* as a sequence of null-window alpha-beta tests with a
//! transposition table (Plaat, Schaeffer, Pijls and de Bruin 1996).
//!
//! ```text
//! g := -inf
//! repeat  G := g;  g := MT(root, G, G + 1)  until g = G
//! ```
//! Each pass fails high and raises the lower bound, until the last one
//! fails low at the value. Evaluates the same leaves in the same order as
//! Dual\* when the table loses nothing.
//!
//! # Complexity
//! The leaves of Dual\*, interior nodes re-traversed once per pass; memory
//! is the table.
//!
//! # Example
//! ```
//! use stockman::{Algorithm, ExplicitTree, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let out = Algorithm::MtDual.search(&tree, &SearchOptions::default()).unwrap();
//! assert_eq!(out.value, Some(3));
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
    let mut d = Driver::new(game, opts, obs, table, heur, "mt-dual")?;
    let mut g = -INF;
    loop {
        let bound = g;
        g = d.test(bound, bound + 1)?;
        if g <= bound {
            return Ok(d.finish(Some(bound), None));
        }
    }
}
