//! MTD(bi): null-window tests that bisect the interval of possible values
//! (Plaat, Schaeffer, Pijls and de Bruin 1996), with the test values of
//! Pons' Connect Four solver (2019).
//!
//! ```text
//! (lower, upper) := the game's value range (Game::value_range)
//! while lower < upper
//!     test := lower + (upper - lower) / 2, pulled towards 0:
//!             lower / 2 if test <= 0 and lower / 2 < test,
//!             upper / 2 if test >= 0 and upper / 2 > test
//!     g := MT(root, test, test + 1)
//!     if g <= test then upper := g else lower := g
//! ```
//! Where MTD(f) walks from a guess, MTD(bi) halves the interval each pass,
//! so it needs only `O(log range)` passes whatever the guess. Pulling the
//! test towards 0 favours cheap tests in games whose bounds shrink as the
//! game goes on (a test near a bound is cut off early everywhere).
//!
//! # Complexity
//! `O(log(upper - lower))` null-window passes; memory is the table.
//!
//! # Example
//! ```
//! use stockman::{algorithms::mtd_bi, ExplicitTree, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! assert_eq!(mtd_bi::search(&tree, &SearchOptions::default()).unwrap().value, Some(3));
//! ```

use super::mt::Driver;
use crate::game::Game;
use crate::observe::{NoObserver, Observer};
use crate::ordering::Heuristics;
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::table::{AnyTable, Table};
use crate::value::{Value, VALUE_MAX, VALUE_MIN};

/// MTD(bi) on `game` (which must provide a hash).
pub fn search<G: Game>(game: &G, opts: &SearchOptions) -> Result<Outcome<G::Move>, SearchError> {
    search_observed(game, opts, &mut NoObserver)
}

/// [`search`], reporting leaves and passes to an observer.
pub fn search_observed<G: Game, O: Observer>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    search_in(game, opts, obs, AnyTable::new(opts.table))
}

/// [`search_observed`] using `table` (kept by the caller).
pub fn search_in<G: Game, O: Observer, T: Table>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
    table: T,
) -> Result<Outcome<G::Move>, SearchError> {
    search_kept(game, opts, obs, table, &mut Heuristics::new())
}

/// [`search_in`] with move-ordering heuristics the caller keeps across searches.
pub fn search_kept<G: Game, O: Observer, T: Table>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
    table: T,
    heur: &mut Heuristics,
) -> Result<Outcome<G::Move>, SearchError> {
    let mut d = Driver::new(game, opts, obs, table, heur, "mtd-bi")?;
    let (lo, hi) = game.value_range();
    let (mut lower, mut upper) = (lo.max(VALUE_MIN), hi.min(VALUE_MAX));
    while lower < upper {
        let test = next_test(lower, upper);
        let g = d.test(test, test + 1)?;
        if g <= test {
            upper = g;
        } else {
            lower = g;
        }
    }
    d.prove_best(lower)?;
    Ok(d.finish(Some(lower), None))
}

/// The midpoint of `lower..upper`, pulled towards 0 as Pons does; always in `lower..upper`.
fn next_test(lower: Value, upper: Value) -> Value {
    let mut test = lower + (upper - lower) / 2;
    if test <= 0 && lower / 2 < test {
        test = lower / 2;
    } else if test >= 0 && upper / 2 > test {
        test = upper / 2;
    }
    test.clamp(lower, upper - 1)
}
