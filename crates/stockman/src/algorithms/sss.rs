//! SSS\*: Stockman's best-first search with an OPEN list (Stockman 1979).
//!
//! SSS\* searches the space of *solution trees*: strategies for MIN that
//! fix one reply at every MIN node and keep every child of a MAX node. Each
//! state `(node, LIVE|SOLVED, h)` on OPEN carries an upper bound `h` on the
//! best strategy through it; OPEN is kept sorted by `h`, highest first, ties
//! going to the left-most node, and the head is refined by the Gamma
//! operator until the root itself is SOLVED at the head:
//!
//! | case | popped state | action |
//! |---|---|---|
//! | 1 | LIVE leaf | push `(leaf, SOLVED, min(h, value))` |
//! | 2 | LIVE MIN node | push its first child, LIVE, `h` |
//! | 3 | LIVE MAX node | push all its children, LIVE, `h` |
//! | 4 | SOLVED child of a MAX node | push the parent SOLVED `h`; purge *every* descendant of the parent |
//! | 5 | SOLVED last child of a MIN node | push the parent SOLVED `h` |
//! | 6 | SOLVED other child of a MIN node | push its next sibling LIVE `h` |
//!
//! Cases 4 to 6 are keyed by the *parent's* role, which is the published
//! rule on alternating trees and stays correct where a player moves twice.
//! Terminals may stand at any depth and be of either role.
//!
//! SSS\* never evaluates a leaf that left-to-right alpha-beta skips
//! (Stockman's dominance theorem), and evaluates the same leaves in the same
//! order as MT-SSS\* (Plaat, Schaeffer, Pijls and de Bruin 1996); both are
//! checked by this crate's property tests.
//!
//! # Complexity
//! Never more leaves than alpha-beta. OPEN holds up to `w^⌈d/2⌉` states on a
//! uniform tree of width `w` and depth `d` (one per leaf of a MIN solution
//! tree); each step costs `O(log |OPEN|)`, a purge `O(1)` amortised per
//! purged state plus the `O(log |OPEN|)` removal.
//!
//! # Example
//! ```
//! use stockman::{Algorithm, ExplicitTree, LeafRecorder, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let mut rec = LeafRecorder::default();
//! let out = Algorithm::Sss.with_options(&SearchOptions::default()).observer(&mut rec).run(&tree).unwrap();
//! assert_eq!(out.value, Some(3));
//! assert_eq!(rec.values(), vec![3, 2, 14, 5, 2, 12, 8]);
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
    BestFirst::new(game, opts, Polarity::Sss, obs).run()
}
