//! Minimax: the definition itself, every leaf evaluated.
//!
//! The reference every other search is tested against (von Neumann 1928).
//!
//! # Complexity
//! Visits the whole tree: `w^d` leaves on a uniform tree of width `w` and
//! depth `d`; memory `O(d)`.
//!
//! # Example
//! ```
//! use stockman::{Algorithm, ExplicitTree, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let out = Algorithm::Minimax.search(&tree, &SearchOptions::default()).unwrap();
//! assert_eq!((out.value, out.best_index, out.stats.leaf_evals), (Some(3), Some(0), 9));
//! ```

use super::context::{Context, Stop};
use crate::game::Game;
use crate::observe::Observer;
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::value::Value;

/// [`search`], reporting to an observer.
pub(crate) fn search_observed<G: Game, O: Observer>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    let mut cx = Context::new(game, opts, obs);
    let root = game.root();
    let mut best = None;
    let value = node(&mut cx, &root, 0, &mut best)?;
    cx.stats.passes = 1;
    let stats = cx.finish();
    Ok(Outcome::new(
        Some(value),
        best.map(|(_, m)| m),
        best.map(|(i, _)| i),
        None,
        stats,
    ))
}

fn node<G: Game, O: Observer>(
    cx: &mut Context<'_, G, O>,
    pos: &G::Position,
    ply: u32,
    best: &mut Option<(usize, G::Move)>,
) -> Result<Value, Stop> {
    cx.visit()?;
    if cx.at_horizon(ply) {
        return cx.evaluate(pos);
    }
    let start = cx.push_moves(pos, ply);
    let n = cx.stack.len() - start;
    if n == 0 {
        return cx.evaluate(pos);
    }
    cx.stats.nodes_expanded += 1;
    let role = cx.game.role(pos);
    let mut g = role.worst();
    let mut found = None;
    for i in 0..n {
        let m = cx.stack[start + i];
        let child = cx.game.play(pos, m);
        cx.enter(i);
        let v = node(cx, &child, ply + 1, &mut None);
        cx.leave();
        let v = match v {
            Ok(v) => v,
            Err(e) => {
                cx.pop_moves(start);
                return Err(e);
            }
        };
        if found.is_none() || role.prefers(v, g) {
            g = v;
            found = Some((i, m));
        }
    }
    *best = found;
    cx.pop_moves(start);
    Ok(g)
}
