//! RecDual\*: the recursive Dual\*, RecSSS\* with the players' roles
//! exchanged (Reinefeld 1993): MIN nodes own OPEN arrays of lower bounds,
//! the lowest is refined first, leaves become `max(eval, h)`, the driver
//! starts at `-inf`. A MAX root is searched under a virtual MIN node.
//!
//! # Complexity
//! The leaves of Dual\*; arrays of up to `w^⌊d/2⌋` entries; `O(log w)` a node per step.
//!
//! # Example
//! ```
//! use stockman::{Algorithm, ExplicitTree, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let out = Algorithm::RecDual.search(&tree, &SearchOptions::default()).unwrap();
//! assert_eq!(out.value, Some(3));
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
    Recursive::new(game, opts, Polarity::Dual, obs).run()
}
