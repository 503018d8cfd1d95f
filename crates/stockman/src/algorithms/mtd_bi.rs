//! MTD(bi): null-window tests that bisect the interval of possible values
//! (Plaat, Schaeffer, Pijls and de Bruin 1996), with the test values of
//! Pons' Connect Four solver (2019).
//!
//! ```text
//! (lower, upper) := the game's value range (Game::value_range)
//! (l, u) := (lower - 1, upper + 1) if upper - lower >= 14, else (lower, upper)
//! while lower < upper
//!     test := l + (u - l) / 2, pulled towards 0:
//!             l / 2 if test <= 0 and l / 2 < test,
//!             u / 2 if test >= 0 and u / 2 > test;
//!             then clamped into lower..upper
//!     g := MT(root, test, test + 1)
//!     if g <= test then upper := u := g else lower := l := g
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
//! use stockman::{Algorithm, ExplicitTree, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! assert_eq!(Algorithm::MtdBi.search(&tree, &SearchOptions::default()).unwrap().value, Some(3));
//! ```

use super::mt::Driver;
use crate::game::Game;
use crate::observe::Observer;
use crate::ordering::Heuristics;
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::table::{AnyTable, Table};
use crate::value::{Value, VALUE_MAX, VALUE_MIN};

/// [`search`], reporting leaves and passes to an observer.
pub(crate) fn search_observed<G: Game, O: Observer>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    search_in(game, opts, obs, &mut AnyTable::try_new(opts.table)?)
}

/// [`search_observed`] using `table` (kept by the caller).
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
    let mut d = Driver::new(game, opts, obs, table, heur, "mtd-bi")?;
    let (lo, hi) = game.value_range();
    let (mut lower, mut upper) = (lo.max(VALUE_MIN), hi.min(VALUE_MAX));
    // The interval the tests bisect: on a wide range, one value wider on
    // each side than proven, as Pons' solver bisects (its root bounds
    // include an immediate win or loss); on a narrow one, the proven range.
    let (mut bis_lo, mut bis_hi) = if i64::from(upper) - i64::from(lower) >= WIDE_RANGE {
        (lower - 1, upper + 1)
    } else {
        (lower, upper)
    };
    while lower < upper {
        let test = next_test(bis_lo, bis_hi).clamp(lower, upper - 1);
        let g = d.test(test, test + 1)?;
        if g <= test {
            upper = g;
            bis_hi = g;
        } else {
            lower = g;
            bis_lo = g;
        }
    }
    d.prove_best(lower)?;
    Ok(d.finish(Some(lower), None))
}

/// From how wide a proven range MTD(bi) bisects one value beyond it on each
/// side. Measured on Pons' Connect Four sets (mean positions per position):
/// never widening gives 47.1 / 444.4 / 4,357 on Test_L3_R1 / L2_R1 / L1_R1,
/// always widening 48.9 / 420.3 / 3,275; widening from a range of 14 up
/// (the first 26 moves of Connect Four) keeps the best of both, 47.1 /
/// 419.8 / 3,275 (the reference solver: 51 / 449 / 3,296). A narrow range
/// is an end game, where the extra value costs a pass more than it saves.
const WIDE_RANGE: i64 = 14;

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
