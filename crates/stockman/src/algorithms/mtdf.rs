//! MTD(f): null-window tests that home in on the value from a first guess
//! (Plaat, Schaeffer, Pijls and de Bruin 1996).
//!
//! ```text
//! g := f;  lower := -inf;  upper := +inf
//! while lower < upper
//!     beta := (g = lower) ? g + 1 : g
//!     g := MT(root, beta - 1, beta)
//!     if g < beta then upper := g else lower := g
//! ```
//! The closer the guess, the fewer passes: given the exact value it takes
//! two (one fails high at it, one fails low at it). MT-SSS\* and MT-Dual\*
//! are MTD(+inf) and MTD(-inf).
//!
//! # Complexity
//! Each pass is a null-window alpha-beta search (at best the minimal tree);
//! the number of passes depends on the guess; memory is the table.
//!
//! # Example
//! ```
//! use stockman::{Algorithm, ExplicitTree, Params, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let opts = SearchOptions { params: Params { first_guess: 3, ..Default::default() }, ..Default::default() };
//! let out = Algorithm::Mtdf.search(&tree, &opts).unwrap();
//! assert_eq!((out.value, out.stats.passes), (Some(3), 2));
//! ```

use super::mt::Driver;
use crate::game::Game;
use crate::observe::Observer;
use crate::ordering::Heuristics;
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::table::{AnyTable, Table};
use crate::value::{INF, VALUE_MAX, VALUE_MIN};

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
    let mut d = Driver::new(game, opts, obs, table, heur, "mtdf")?;
    let mut g = opts.params.first_guess.clamp(VALUE_MIN, VALUE_MAX);
    let (mut lower, mut upper) = (-INF, INF);
    while lower < upper {
        let beta = if g == lower { g + 1 } else { g };
        g = d.test(beta - 1, beta)?;
        if g < beta {
            upper = g;
        } else {
            lower = g;
        }
    }
    Ok(d.finish(Some(g), None))
}
