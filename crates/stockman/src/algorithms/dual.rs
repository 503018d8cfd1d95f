//! Dual\*: SSS\* with the roles of the players exchanged (Marsland,
//! Reinefeld and Schaeffer 1987).
//!
//! OPEN holds lower bounds, sorted lowest first (ties to the left-most
//! node), the search starts at `-inf`, a leaf becomes SOLVED with
//! `max(h, value)`, LIVE MIN nodes are replaced by all their children and
//! LIVE MAX nodes by their first child, and a SOLVED child of a MIN node
//! solves its parent and purges all the parent's other descendants. It
//! searches MAX's solution trees, and so does well where SSS\* does badly.
//!
//! # Complexity
//! Never more leaves than alpha-beta; OPEN holds up to `w^⌊d/2⌋` states on
//! a uniform tree of width `w` and depth `d`; `O(log |OPEN|)` per step.
//!
//! # Example
//! ```
//! use stockman::{Algorithm, ExplicitTree, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let out = Algorithm::Dual.search(&tree, &SearchOptions::default()).unwrap();
//! assert_eq!(out.value, Some(3));
//! ```

use super::best_first::{BestFirst, Polarity};
use crate::game::Game;
use crate::observe::Observer;
use crate::search::{Outcome, SearchError, SearchOptions};

/// [`search`], reporting leaves and Gamma steps to an observer.
pub(crate) fn search_observed<G: Game, O: Observer>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    BestFirst::new(game, opts, Polarity::Dual, obs).run()
}
