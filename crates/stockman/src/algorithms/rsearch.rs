//! RSEARCH: [GSEARCH](super::gsearch) in bounded memory (Ibaraki 1986),
//! the search between alpha-beta and SSS\* that the literature argues about.
//!
//! It keeps at most `M` stored nodes ([`Params::memory`]). When the rule's
//! tip would not fit, the tips go left to right, as alpha-beta's would,
//! until a dead or solved subtree frees some memory; the leftmost live tip
//! whose children would not fit is searched depth-first, by fail-soft
//! alpha-beta inside its window `(max(alpha, lower), min(beta, upper))`,
//! and the result becomes its bound (or its value, inside the window).
//! That leaves it dead or solved, so no tip is searched twice. Its elder
//! brothers up the path are dead or solved, so that window lies inside the
//! one full-window left-to-right alpha-beta has there; the rule's own tip
//! may have live elder brothers whose bounds are wider than the values
//! alpha-beta takes from them, and searched depth-first in its window it
//! evaluated leaves alpha-beta skips (issue 63). Under `leftmost`, `upper`
//! and `lower` every tip it takes is one alpha-beta visits, so at every `M`
//! it evaluates a subset of alpha-beta's leaves, each once (a property test
//! in `tests/theorems.rs`; `widest` has no such guarantee). With `M = 0`
//! (the root cannot even be expanded) it is alpha-beta, leaf for leaf; with
//! `M` as large as the search needs it is GSEARCH under the same
//! [`Select`](super::gsearch::Select) rule. Ibaraki's paper could not be
//! read for this crate: the fallback is our reading of "RSEARCH, whose
//! memory is bounded" (`docs/research/seed-systems-reading.md`).
//!
//! [`Stats::passes`](crate::Stats::passes) counts the depth-first searches;
//! [`Stats::max_open`](crate::Stats::max_open) is the peak of stored nodes
//! (the root counts as one even at `M = 0`).
//!
//! # Complexity
//! Time: GSEARCH's steps plus alpha-beta below the tips searched
//! depth-first. Memory: `min(M, limits.max_open)` stored nodes plus the
//! depth-first search's stack.
//!
//! # Example
//! ```
//! use stockman::{Algorithm, ExplicitTree, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let mut opts = SearchOptions::default();
//! opts.params.memory = Some(0);
//! let out = Algorithm::Rsearch.search(&tree, &opts).unwrap();
//! assert_eq!((out.value, out.stats.leaf_evals, out.stats.passes), (Some(3), 7, 1));
//! ```
//!
//! [`Params::memory`]: crate::Params::memory

use super::gsearch::{AtBudget, Gsearch};
use crate::game::Game;
use crate::observe::Observer;
use crate::search::{Outcome, SearchError, SearchOptions};

/// RSEARCH on `game` with `opts.params.memory` stored nodes (default: the
/// OPEN limit), reporting leaves and windows to `obs`.
pub(crate) fn search_observed<G: Game, O: Observer>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    let budget = opts
        .params
        .memory
        .map_or(opts.limits.max_open, |m| m.min(opts.limits.max_open));
    Gsearch::new(game, opts, obs, budget, AtBudget::DepthFirst).run()
}
