//! RecSSS\*: SSS\* as a recursion over MAX nodes, each with an OPEN array
//! (Bhattacharya and Bagchi 1990, improved by Reinefeld 1993).
//!
//! ```text
//! RecSSS*(n):
//!   if n is a leaf: SOLVED; return min(eval(n), h(n))
//!   if n is unexpanded: for each child c: insert c if c is a leaf, else c's first child
//!   g := the entry of highest h (ties: left-most)
//!   while h(g) = h(n) and g is not SOLVED:
//!       h(g) := RecSSS*(g)
//!       if g is SOLVED and has a right brother: replace g by (brother, unexpanded, h(g))
//!       g := the entry of highest h
//!   if g is SOLVED: n is SOLVED
//!   return h(g)
//! main: h := +inf; repeat h := RecSSS*(root) until the root is SOLVED
//! ```
//! It evaluates the same set of leaves as SSS\* (checked by this crate's
//! property tests), with no sorted list: each MAX node keeps its own array,
//! with a tournament over it for the best entry.
//! A MIN root is searched under a virtual MAX node with that one child.
//! MAX and MIN must alternate.
//!
//! # Complexity
//! The leaves of SSS\*; the arrays hold up to `w^⌈d/2⌉` entries on a uniform
//! tree of width `w` and depth `d`; a step costs `O(log w)` a node, to replay
//! the tournament above the entry it changed (a scan made a root of 70,000
//! moves quadratic: issue 63).
//!
//! # Example
//! ```
//! use stockman::{Algorithm, ExplicitTree, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let out = Algorithm::RecSss.search(&tree, &SearchOptions::default()).unwrap();
//! assert_eq!((out.value, out.stats.leaf_evals), (Some(3), 7));
//! ```

use super::recursive::{Polarity, Recursive};
use crate::game::Game;
use crate::observe::Observer;
use crate::search::{Outcome, SearchError, SearchOptions};

/// [`search`], reporting leaves and root iterations to an observer.
pub(crate) fn search_observed<G: Game, O: Observer>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    Recursive::new(game, opts, Polarity::Sss, obs).run()
}
