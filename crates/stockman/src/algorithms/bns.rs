//! Best Node Search (Rutko 2011, first published as "fuzzified game tree
//! search"): find the best move without finding the value.
//!
//! Each pass picks a separation value `test` inside the current bounds
//! `(alpha, beta)` and null-window-tests every root move against it. If
//! exactly one move reaches `test` it is the best move and the search
//! stops; if several do, the value is at least `test` (`alpha := test`) and
//! the next pass separates those further; if none does, the value lies below
//! `test` (`beta := test`). It also stops when `beta - alpha < 2`. The tests
//! are the memory-enhanced alpha-beta of the MT framework, so passes share
//! a transposition table.
//!
//! The result is a move whose subtree holds the minimax value, and the final
//! `(alpha, beta)` with `alpha <= value < beta`, not the value itself.
//!
//! ```text
//! nextGuess(α, β, count) = α + (β − α) × (count − 1) / count
//! ```
//! is the default [`Guess`] ([`Rutko`]); any other can be plugged in with
//! [`search_with`]. The first window is what the game proves
//! ([`Game::value_range`]), and a first separation
//! value known from elsewhere goes in
//! [`Params::bns_first_test`](crate::Params::bns_first_test):
//! iterative deepening passes the bound the previous iteration proved.
//!
//! # What is and is not Rutko's
//! The loop and the default guess are the paper's as every public account
//! of it gives them (D. Rutko, "Fuzzified Algorithm for Game Tree Search
//! with Statistical and Analytical Evaluation", *Scientific Papers,
//! University of Latvia* 770, 2011, pp. 90-111,
//! <https://www.bjmc.lu.lv/fileadmin/user_upload/lu_portal/projekti/bjmc/Contents/770_7.pdf>).
//! The paper also describes "statistical" and "analytical" guess functions
//! and evaluates BNS on random trees; its body could not be obtained for
//! this implementation, so those guesses are **not** here and nothing in
//! this crate claims to reproduce them. [`Bisect`], the midpoint of the
//! bounds, is an alternative of ours for comparison, not Rutko's.
//!
//! # Complexity
//! Each pass tests every root move with a null-window search; the number of
//! passes is logarithmic in the value range for the default guess.
//!
//! # Example
//! ```
//! use stockman::{Algorithm, ExplicitTree, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let out = Algorithm::Bns.search(&tree, &SearchOptions::default()).unwrap();
//! assert_eq!(out.best_index, Some(0)); // the first move holds the value 3
//! let (alpha, beta) = out.bound.unwrap();
//! assert!(alpha <= 3 && 3 < beta);
//! ```

use super::mt::Driver;
use crate::game::Game;
#[cfg(test)]
use crate::observe::NoObserver;
use crate::observe::{Fail, Observer, Pass};
use crate::ordering::Heuristics;
use crate::search::{Outcome, Partial, SearchError, SearchOptions};
use crate::table::{AnyTable, Table};
use crate::value::{Role, Value, VALUE_MAX, VALUE_MIN};

/// Chooses the next separation value from the bounds and the number of
/// moves still in contention.
pub trait Guess {
    /// A value strictly between `alpha` and `beta` (it is clamped if not).
    fn next(&mut self, alpha: Value, beta: Value, count: u32) -> Value;
}

/// Rutko's default: `alpha + (beta - alpha) * (count - 1) / count`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rutko;

impl Guess for Rutko {
    fn next(&mut self, alpha: Value, beta: Value, count: u32) -> Value {
        let (a, b, c) = (alpha as i64, beta as i64, count.max(1) as i64);
        (a + (b - a) * (c - 1) / c) as Value
    }
}

/// The midpoint of the bounds, whatever the count: a plain bisection of
/// the value range. **Not Rutko's**: an alternative of this crate's, to
/// tell how much of BNS's cost comes from its default guess.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bisect;

impl Guess for Bisect {
    fn next(&mut self, alpha: Value, beta: Value, _count: u32) -> Value {
        let (a, b) = (alpha as i64, beta as i64);
        (a + (b - a) / 2) as Value
    }
}

impl<F: FnMut(Value, Value, u32) -> Value> Guess for F {
    fn next(&mut self, alpha: Value, beta: Value, count: u32) -> Value {
        self(alpha, beta, count)
    }
}

pub use crate::options::GuessKind;

#[cfg(test)]
/// Best Node Search on `game` with the guess [`Params::bns_guess`](crate::Params::bns_guess)
/// names (Rutko's by default; the game must provide a hash).
pub(crate) fn search<G: Game>(game: &G, opts: &SearchOptions) -> Result<Outcome<G::Move>, SearchError> {
    search_observed(game, opts, &mut NoObserver)
}

/// [`search`], reporting leaves and passes to an observer.
pub(crate) fn search_observed<G: Game, O: Observer>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    match opts.params.bns_guess {
        GuessKind::Rutko => search_with(game, opts, &mut Rutko, obs),
        GuessKind::Bisect => search_with(game, opts, &mut Bisect, obs),
    }
}

/// Best Node Search with a guess function of the caller's.
pub fn search_with<G: Game, O: Observer, F: Guess + ?Sized>(
    game: &G,
    opts: &SearchOptions,
    guess: &mut F,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    // The guess behind a pointer (it is asked once a pass): the search is
    // compiled once, not once per guess function.
    search_in(game, opts, &mut Dyn(guess), obs, &mut AnyTable::try_new(opts.table)?)
}

/// A guess function of any type as a `dyn Guess`.
struct Dyn<'a, F: ?Sized>(&'a mut F);

impl<F: Guess + ?Sized> Guess for Dyn<'_, F> {
    fn next(&mut self, alpha: Value, beta: Value, count: u32) -> Value {
        self.0.next(alpha, beta, count)
    }
}

/// [`search_with`] using `table` (kept by the caller).
pub(crate) fn search_in<G: Game, O: Observer, T: Table>(
    game: &G,
    opts: &SearchOptions,
    guess: &mut dyn Guess,
    obs: &mut O,
    table: T,
) -> Result<Outcome<G::Move>, SearchError> {
    search_kept(game, opts, guess, obs, table, &mut Heuristics::new())
}

/// [`search_in`] with move-ordering heuristics the caller keeps across searches.
pub(crate) fn search_kept<G: Game, O: Observer, T: Table>(
    game: &G,
    opts: &SearchOptions,
    guess: &mut dyn Guess,
    obs: &mut O,
    table: T,
    heur: &mut Heuristics,
) -> Result<Outcome<G::Move>, SearchError> {
    let mut d = Driver::new(game, opts, obs, table, heur, "bns")?;
    let root = d.root.clone();
    let role = game.role(&root);
    let mut moves = Vec::new();
    if opts.limits.depth != Some(0) {
        moves.extend_from_slice(d.e.cx.root_moves(&root));
    }
    d.e.cx.visit()?;
    if moves.is_empty() {
        let v = d.e.cx.evaluate(&root)?;
        d.e.cx.stats.passes = 1;
        return Ok(d.finish(None, Some((v, v + 1))));
    }
    d.e.cx.stats.nodes_expanded += 1;
    let children: Vec<G::Position> = moves.iter().map(|&m| game.play(&root, m)).collect();
    // Invariant: alpha <= value < beta, from the first window the game or
    // tree proves (Rutko starts from the evaluation's range, not infinity).
    let (lo, hi) = game.value_range();
    let (range_lo, range_hi) = (lo.max(VALUE_MIN), hi.min(VALUE_MAX) + 1);
    let (mut alpha, mut beta) = (range_lo, range_hi);
    if beta - alpha < 2 {
        // One possible value: one pass (at that value) still names a move.
        alpha -= 1;
    }
    let (range_lo, range_hi) = (alpha, beta);
    let mut count = children.len() as u32;
    let mut best = 0usize;
    // A move proven to reach the bound on the root mover's side, if any.
    let mut proven: Option<usize> = None;
    // A first test from outside (iterative deepening's previous bound),
    // kept strictly inside the window like any guess (the window is at
    // least two wide here, so it has an inside).
    let mut first = opts.params.bns_first_test.map(|t| t.clamp(alpha + 1, beta - 1));
    // With `bns_window`, the passes start inside `(t - w, t + w)` around the
    // first test: bounds *assumed*, not proven, until a pass proves them or
    // the passes run into one, which then widens by four times the width
    // (as game programs widen a failed aspiration window) up to the game's
    // range.
    let mut assumed = (false, false);
    let mut width = 0;
    if let (Some(w), Some(t)) = (opts.params.bns_window, first) {
        let w = w.max(1);
        width = w;
        let (a, b) = (t.saturating_sub(w).max(alpha), t.saturating_add(w).min(beta));
        assumed = (a > alpha, b < beta);
        (alpha, beta) = (a, b);
    }
    loop {
        let test = match first.take() {
            Some(t) => t,
            None => separation(guess, role, alpha, beta, count),
        };
        let before = d.e.cx.stats.leaf_evals;
        let mut better = 0u32;
        for (i, child) in children.iter().enumerate() {
            d.e.cx.enter(i);
            let r = d.e.node(child, 1, test - 1, test);
            d.e.cx.leave();
            let r = match r {
                Ok(r) => r,
                // What the passes so far proved: `alpha <= value < beta`,
                // and the move of the last pass that had a better child.
                Err(e) => {
                    return Err(e.proving(Partial {
                        lower: if assumed.0 { range_lo } else { alpha },
                        upper: if assumed.1 { range_hi } else { beta } - 1,
                        best_index: proven,
                        best_child: proven.and_then(|i| d.e.cx.game.hash(&children[i])),
                    }))
                }
            };
            // "Better" is at least `test` for MAX, below it for MIN.
            let reaches = r >= test;
            if reaches == (role == Role::Max) {
                better += 1;
                best = i;
            }
        }
        d.e.cx.stats.passes += 1;
        let fail = match (role, better > 0) {
            (Role::Max, true) | (Role::Min, false) => {
                alpha = test;
                assumed.0 = false;
                Fail::High
            }
            _ => {
                beta = test;
                assumed.1 = false;
                Fail::Low
            }
        };
        if better > 0 {
            count = better;
            // `best` reaches the new bound on the root mover's side.
            proven = Some(best);
        }
        if O::STEPS {
            let pass = Pass {
                pass: d.e.cx.stats.passes,
                alpha: test - 1,
                beta: test,
                result: test,
                fail,
                lower: if assumed.0 { range_lo } else { alpha },
                upper: if assumed.1 { range_hi } else { beta } - 1,
                leaf_evals: d.e.cx.stats.leaf_evals - before,
                better_count: Some(better),
            };
            d.e.cx.obs.pass(pass);
        }
        if better == 1 {
            break;
        }
        if beta - alpha < 2 {
            // The passes ran into an assumed bound: the value may lie
            // beyond it, so that side widens.
            // The next test sits at the widened edge, as a failed aspiration
            // window is tried again: if the value lies beyond that too, the
            // window widens again at once, instead of the guess creeping
            // across the widened part from the other side.
            width = width.saturating_mul(4);
            match assumed {
                (true, _) => {
                    alpha = alpha.saturating_sub(width).max(range_lo);
                    assumed.0 = alpha > range_lo;
                    first = Some(alpha + 1);
                }
                (_, true) => {
                    beta = beta.saturating_add(width).min(range_hi);
                    assumed.1 = beta < range_hi;
                    first = Some(beta - 1);
                }
                _ => break,
            }
        }
    }
    // What is proven: a side never proven by a pass is the game's.
    if assumed.0 {
        alpha = range_lo;
    }
    if assumed.1 {
        beta = range_hi;
    }
    d.best = Some(best);
    Ok(d.finish(None, Some((alpha, beta))))
}

/// The next separation value, strictly inside `(alpha, beta)`, asked of the
/// guess from the point of view of the root's player.
///
/// Rutko states BNS in negamax form, where the guess leans towards the bound
/// the mover hopes for (`beta`). For a MIN root the hope is `alpha`, so the
/// bounds are mirrored before asking and the answer mirrored back; asking
/// unmirrored makes a MIN root with one move creep up from `alpha` one value
/// per pass.
fn separation(guess: &mut dyn Guess, role: Role, alpha: Value, beta: Value, count: u32) -> Value {
    match role {
        Role::Max => guess.next(alpha, beta, count).clamp(alpha + 1, beta - 1),
        // v in [alpha, beta)  <=>  -v in [1 - beta, 1 - alpha), and the
        // mirrored MAX's "-v >= t" is MIN's "v < 1 - t".
        Role::Min => {
            let (ma, mb) = (1 - beta, 1 - alpha);
            1 - guess.next(ma, mb, count).clamp(ma + 1, mb - 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{Limits, Params};
    use crate::ExplicitTree;

    /// A MIN root with a single move at the top of the value range: the
    /// unmirrored guess crept up from `alpha` one value per pass (2e9 passes).
    #[test]
    fn min_root_with_one_move_takes_one_pass() {
        for v in [crate::VALUE_MIN, 0, crate::VALUE_MAX] {
            let tree = ExplicitTree::parse(&format!("[{v}]"), Role::Min).unwrap();
            let out = search(&tree, &SearchOptions::default()).unwrap();
            assert_eq!(out.best_index, Some(0));
            assert_eq!(out.stats.passes, 1, "value {v}");
        }
    }

    /// A first test from outside is tried before the guess function: at
    /// the value itself, only the first move reaches it, so one pass names
    /// the move; a MIN root's first test is the upper side. Out of the
    /// window, it is clamped inside like any guess.
    #[test]
    fn a_first_test_from_outside_comes_first() {
        let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
        let opts = SearchOptions {
            params: Params {
                bns_first_test: Some(3),
                ..Default::default()
            },
            ..Default::default()
        };
        let out = search(&tree, &opts).unwrap();
        assert_eq!((out.best_index, out.stats.passes), (Some(0), 1));
        assert_eq!(out.bound, Some((3, 15)));
        // MIN root [[3,12,8],[2,4,6],[14,5,2]]: children 12, 6, 14; value 6.
        let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Min).unwrap();
        let opts = SearchOptions {
            params: Params {
                bns_first_test: Some(7),
                ..Default::default()
            },
            ..Default::default()
        };
        let out = search(&tree, &opts).unwrap();
        assert_eq!((out.best_index, out.stats.passes), (Some(1), 1));
        assert_eq!(out.bound, Some((2, 7)));
        for far in [crate::VALUE_MIN, -1000, 1000, crate::VALUE_MAX] {
            let opts = SearchOptions {
                params: Params {
                    bns_first_test: Some(far),
                    ..Default::default()
                },
                ..Default::default()
            };
            let out = search(&tree, &opts).unwrap();
            assert_eq!(out.best_index, Some(1), "first test {far}");
            let (a, b) = out.bound.unwrap();
            assert!(a <= 6 && 6 < b, "first test {far}: {a}..{b}");
        }
    }

    /// The first window comes from the tree's leaf range, as in Rutko's
    /// setting: the textbook tree (leaves 2..=14) takes five passes, not
    /// the thirty-odd of a window of +-10^9.
    #[test]
    fn first_window_is_the_leaf_range() {
        let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
        let out = search(&tree, &SearchOptions::default()).unwrap();
        assert_eq!(out.best_index, Some(0));
        assert_eq!(out.stats.passes, 5);
        assert_eq!(out.bound, Some((3, 4)));
    }

    /// The midpoint guess (ours) names the same move within the bounds, in
    /// about log2 of the leaf range (2..=14) passes.
    #[test]
    fn bisection_names_the_same_move() {
        let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
        let out = search_with(&tree, &SearchOptions::default(), &mut Bisect, &mut NoObserver).unwrap();
        assert_eq!(out.best_index, Some(0));
        let (alpha, beta) = out.bound.unwrap();
        assert!(alpha <= 3 && 3 < beta);
        assert!(out.stats.passes <= 4, "{}", out.stats.passes);
    }

    /// The registry runs the guess `Params::bns_guess` names: the
    /// same search as `search_with` that guess, alone and under iterative
    /// deepening with a table, and Rutko's by default.
    #[test]
    fn the_registry_runs_the_named_guess() {
        use crate::drivers::iterative;
        use crate::{Algorithm, RandomSpec, RandomTree, TableSize};
        for seed in 1..=20 {
            let tree = RandomTree::new(RandomSpec::parse(&format!("width=4,depth=5,seed={seed}")).unwrap());
            for kind in [GuessKind::Rutko, GuessKind::Bisect] {
                let opts = SearchOptions {
                    params: Params {
                        bns_guess: kind,
                        ..Default::default()
                    },
                    ..SearchOptions::default()
                };
                let direct = match kind {
                    GuessKind::Rutko => search_with(&tree, &opts, &mut Rutko, &mut NoObserver),
                    GuessKind::Bisect => search_with(&tree, &opts, &mut Bisect, &mut NoObserver),
                }
                .unwrap();
                let via = Algorithm::Bns.search(&tree, &opts).unwrap();
                assert_eq!(
                    (via.bound, via.best_index),
                    (direct.bound, direct.best_index),
                    "seed {seed} {kind:?}"
                );
                assert_eq!(via.stats.leaf_evals, direct.stats.leaf_evals, "seed {seed} {kind:?}");
                let deep = SearchOptions {
                    limits: Limits {
                        depth: Some(5),
                        ..opts.limits
                    },
                    table: TableSize::Megabytes(1),
                    ..opts.clone()
                };
                let id = iterative::search(&tree, Algorithm::Bns, &deep).unwrap();
                let (lo, hi) = id.bound.unwrap();
                let v = Algorithm::AlphaBeta
                    .search(&tree, &SearchOptions::default())
                    .unwrap()
                    .value
                    .unwrap();
                assert!(lo <= v && v < hi, "seed {seed} {kind:?}");
            }
            let rutko = Algorithm::Bns.search(&tree, &SearchOptions::default()).unwrap();
            let direct = search_with(&tree, &SearchOptions::default(), &mut Rutko, &mut NoObserver).unwrap();
            assert_eq!(
                rutko.stats.leaf_evals, direct.stats.leaf_evals,
                "seed {seed}: Rutko's by default"
            );
        }
    }

    /// A tree with one leaf value still gets a pass that names a move.
    #[test]
    fn a_single_possible_value_takes_one_pass() {
        for role in [Role::Max, Role::Min] {
            let tree = ExplicitTree::parse("[[7,7],[7]]", role).unwrap();
            let out = search(&tree, &SearchOptions::default()).unwrap();
            assert_eq!(out.stats.passes, 1);
            assert!(out.best_index.is_some());
        }
    }

    /// Mirrored roots take mirrored passes: a MIN root on negated leaves
    /// needs exactly as many passes as the MAX root.
    #[test]
    fn min_and_max_roots_take_the_same_number_of_passes() {
        let max = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
        let min = ExplicitTree::parse("[[-3,-12,-8],[-2,-4,-6],[-14,-5,-2]]", Role::Min).unwrap();
        let a = search(&max, &SearchOptions::default()).unwrap();
        let b = search(&min, &SearchOptions::default()).unwrap();
        assert_eq!(a.best_index, Some(0));
        assert_eq!(b.best_index, Some(0));
        assert_eq!(a.stats.passes, b.stats.passes);
        assert_eq!(a.stats.leaf_evals, b.stats.leaf_evals);
    }
}
