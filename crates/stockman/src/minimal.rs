//! The minimal tree of a fixed-depth search (Knuth and Moore 1975): the
//! fewest leaves any search must evaluate to prove the root's minimax value.
//!
//! A proof that the root is worth exactly `v` needs, at the root, one best
//! child proven exactly and every other child *refuted* (proven no better
//! than `v`). Below a refuted MAX node every child must be refuted; below a
//! refuted MIN node one child at most `v` suffices; and symmetrically for the
//! lower bounds under MIN. [`minimal_tree`] finds the cheapest such proof
//! from a full minimax of the depth-limited tree: where several children
//! qualify it takes the one whose proof has the fewest leaves, so the count
//! is the minimum over all proof trees, ties among equal values included.
//!
//! On a uniform tree of width `w` and depth `d` every proof has exactly
//! `w^ceil(d/2) + w^floor(d/2) - 1` leaves, whatever the values.
//!
//! The counts are of the *tree*: a position reached by two move orders is
//! two nodes, as in Knuth and Moore's analysis. A search with a
//! transposition table may evaluate such a position once, so on a game with
//! transpositions it can evaluate fewer leaves than the minimal tree; the
//! minimal tree's distinct leaf positions ([`MinimalTree::leaf_positions`])
//! show how much of that saving is there to take. [`Game::bounds`] is not
//! used: the minimal tree proves every bound by evaluating leaves, while the
//! searches may also cut a node off on what the game proves without search.
//!
//! The full minimax shares work between transpositions (it keys positions
//! by [`Game::hash`] and the remaining depth, or by their path in a game
//! without a hash), so its cost is the number of distinct positions, which
//! `max_positions` caps.
//!
//! # Example
//! ```
//! use stockman::{minimal::minimal_tree, ExplicitTree, Role};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let m = minimal_tree(&tree, 2, None).unwrap();
//! // 3^1 + 3^1 - 1: the best child's three leaves, one refuting leaf in each other child.
//! assert_eq!((m.value, m.leaves, m.nodes), (3, 5, 9));
//! ```

use crate::game::Game;
use crate::key_map::KeyMap;
use crate::search::{checked, SearchError};
use crate::stats::Stats;
use crate::value::{Role, Value};
use std::collections::HashSet;

/// The minimal tree of one position at one depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinimalTree {
    /// The root's minimax value at this depth.
    pub value: Value,
    /// Leaves of the minimal tree (tree nodes: transpositions counted apart).
    pub leaves: u64,
    /// All nodes of the minimal tree, interior and leaves.
    pub nodes: u64,
    /// Distinct positions (with their remaining depth) among those leaves:
    /// what a search that shares transpositions perfectly would evaluate
    /// along this tree. An upper bound on the leaves of the minimal
    /// *graph*, whose proof may choose other children to share more.
    pub leaf_positions: u64,
    /// Distinct positions (with their remaining depth) the full minimax
    /// visited: what the computation cost.
    pub positions: u64,
}

/// What a node's proof must show about its value `w` against the root's `v`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Proof {
    /// `w == v`: one best child exact, the others refuted.
    Exact,
    /// `w <= v`.
    Upper,
    /// `w >= v`.
    Lower,
}

type Key = (u64, u32);

/// The cheapest proof of a node: its leaves, nodes and the child it relies
/// on (the best child for [`Proof::Exact`], the one child of a "some child
/// suffices" node), or `None` where every child takes part or at a leaf.
#[derive(Clone, Copy, Debug)]
struct Cost {
    leaves: u64,
    nodes: u64,
    choice: Option<usize>,
}

struct Minimal<'a, G: Game> {
    game: &'a G,
    cap: u64,
    values: KeyMap<Key, Value>,
    costs: KeyMap<(Key, Proof), Cost>,
    moves: Vec<G::Move>,
}

/// The key of a child: the game's hash, or the path's in a game without one.
fn child_key<G: Game>(game: &G, parent: u64, index: usize, child: &G::Position) -> u64 {
    game.hash(child).unwrap_or_else(|| {
        let mut z = parent
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(index as u64 + 1);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    })
}

impl<G: Game> Minimal<'_, G> {
    /// The children of `pos` with their keys, or none at a leaf.
    fn children(&mut self, pos: &G::Position, key: u64, draft: u32) -> Vec<(G::Position, u64)> {
        if draft == 0 {
            return Vec::new();
        }
        self.moves.clear();
        self.game.moves(pos, &mut self.moves);
        let moves = std::mem::take(&mut self.moves);
        let out = moves
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let c = self.game.play(pos, m);
                let k = child_key(self.game, key, i, &c);
                (c, k)
            })
            .collect();
        self.moves = moves;
        out
    }

    /// The minimax value of `pos` with `draft` plies to the horizon.
    fn value(&mut self, pos: &G::Position, key: u64, draft: u32) -> Result<Value, SearchError> {
        if let Some(&v) = self.values.get(&(key, draft)) {
            return Ok(v);
        }
        if self.values.len() as u64 >= self.cap {
            return Err(SearchError::NodeLimit {
                limit: self.cap,
                stats: Stats {
                    nodes: self.values.len() as u64,
                    ..Stats::default()
                },
                partial: crate::search::Partial::default(),
            });
        }
        let children = self.children(pos, key, draft);
        let v = if children.is_empty() {
            checked(self.game.evaluate(pos))?
        } else {
            let role = self.game.role(pos);
            let mut best = role.worst();
            for (c, k) in &children {
                let w = self.value(c, *k, draft - 1)?;
                if role.prefers(w, best) {
                    best = w;
                }
            }
            best
        };
        self.values.insert((key, draft), v);
        Ok(v)
    }

    /// The cheapest proof of `proof` at `pos` against the root's value `v`
    /// (the node's value must allow it).
    fn cost(&mut self, pos: &G::Position, key: u64, draft: u32, proof: Proof, v: Value) -> Cost {
        if let Some(&c) = self.costs.get(&((key, draft), proof)) {
            return c;
        }
        let children = self.children(pos, key, draft);
        let cost = if children.is_empty() {
            Cost {
                leaves: 1,
                nodes: 1,
                choice: None,
            }
        } else {
            let role = self.game.role(pos);
            let values: Vec<Value> = children.iter().map(|(_, k)| self.values[&(*k, draft - 1)]).collect();
            // A MAX node refuted (<= v), a MIN node proven >= v: every child.
            let all = match (role, proof) {
                (Role::Max, Proof::Upper) | (Role::Min, Proof::Lower) => Some(proof),
                _ => None,
            };
            let mut c = Cost {
                leaves: 0,
                nodes: 1,
                choice: None,
            };
            match (all, proof) {
                (Some(p), _) => {
                    for (child, k) in &children {
                        let x = self.cost(child, *k, draft - 1, p, v);
                        c.leaves = c.leaves.saturating_add(x.leaves);
                        c.nodes = c.nodes.saturating_add(x.nodes);
                    }
                }
                (None, Proof::Exact) => {
                    // One best child exact, the others refuted: a MAX
                    // node's others proven <= v, a MIN node's >= v.
                    let other = if role == Role::Max { Proof::Upper } else { Proof::Lower };
                    let mut rest = Vec::with_capacity(children.len());
                    for (child, k) in &children {
                        rest.push(self.cost(child, *k, draft - 1, other, v));
                    }
                    let (sum_l, sum_n) = rest.iter().fold((0u64, 0u64), |(l, n), x| {
                        (l.saturating_add(x.leaves), n.saturating_add(x.nodes))
                    });
                    let mut best: Option<(u64, u64, usize)> = None;
                    for (i, (child, k)) in children.iter().enumerate() {
                        if values[i] != v {
                            continue;
                        }
                        let e = self.cost(child, *k, draft - 1, Proof::Exact, v);
                        let l = sum_l - rest[i].leaves + e.leaves;
                        let n = sum_n - rest[i].nodes + e.nodes;
                        if best.is_none_or(|(bl, bn, _)| (l, n) < (bl, bn)) {
                            best = Some((l, n, i));
                        }
                    }
                    let (l, n, i) = best.expect("a node worth v has a child worth v");
                    c.leaves = l;
                    c.nodes = c.nodes.saturating_add(n);
                    c.choice = Some(i);
                }
                (None, p) => {
                    // A MAX node proven >= v, a MIN node refuted <= v: one child.
                    let mut best: Option<(u64, u64, usize)> = None;
                    for (i, (child, k)) in children.iter().enumerate() {
                        let fits = if p == Proof::Lower {
                            values[i] >= v
                        } else {
                            values[i] <= v
                        };
                        if !fits {
                            continue;
                        }
                        let x = self.cost(child, *k, draft - 1, p, v);
                        if best.is_none_or(|(bl, bn, _)| (x.leaves, x.nodes) < (bl, bn)) {
                            best = Some((x.leaves, x.nodes, i));
                        }
                    }
                    let (l, n, i) = best.expect("a node with this bound has a child with it");
                    c.leaves = l;
                    c.nodes = c.nodes.saturating_add(n);
                    c.choice = Some(i);
                }
            }
            c
        };
        self.costs.insert(((key, draft), proof), cost);
        cost
    }

    /// Collects the distinct leaves of the chosen proof tree.
    fn walk(
        &mut self,
        pos: &G::Position,
        key: u64,
        draft: u32,
        proof: Proof,
        seen: &mut HashSet<(Key, Proof)>,
        leaves: &mut HashSet<Key>,
    ) {
        if !seen.insert(((key, draft), proof)) {
            return;
        }
        let choice = self.costs[&((key, draft), proof)].choice;
        let children = self.children(pos, key, draft);
        if children.is_empty() {
            leaves.insert((key, draft));
            return;
        }
        let role = self.game.role(pos);
        for (i, (child, k)) in children.iter().enumerate() {
            let p = match proof {
                Proof::Exact if choice == Some(i) => Proof::Exact,
                Proof::Exact if role == Role::Max => Proof::Upper,
                Proof::Exact => Proof::Lower,
                _ if choice.is_some_and(|b| b != i) => continue,
                p => p,
            };
            self.walk(child, *k, draft - 1, p, seen, leaves);
        }
    }
}

/// The minimal tree of `game`'s root searched to `depth` plies, from a full
/// minimax of that tree. Fails with [`SearchError::NodeLimit`] when the
/// minimax would visit more than `max_positions` distinct positions.
pub fn minimal_tree<G: Game>(game: &G, depth: u32, max_positions: Option<u64>) -> Result<MinimalTree, SearchError> {
    let mut m = Minimal {
        game,
        cap: max_positions.unwrap_or(u64::MAX),
        values: KeyMap::default(),
        costs: KeyMap::default(),
        moves: Vec::new(),
    };
    let root = game.root();
    const ROOT: u64 = 0x4D49_4E5F_5452_4545; // "MIN_TREE"
    let key = game.hash(&root).unwrap_or(ROOT);
    let value = m.value(&root, key, depth)?;
    let cost = m.cost(&root, key, depth, Proof::Exact, value);
    let (mut seen, mut leaves) = (HashSet::new(), HashSet::new());
    m.walk(&root, key, depth, Proof::Exact, &mut seen, &mut leaves);
    Ok(MinimalTree {
        value,
        leaves: cost.leaves,
        nodes: cost.nodes,
        leaf_positions: leaves.len() as u64,
        positions: m.values.len() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ExplicitTree, Role};

    #[test]
    fn a_leaf_root_is_its_own_minimal_tree() {
        let tree = ExplicitTree::parse("7", Role::Max).unwrap();
        let m = minimal_tree(&tree, 3, None).unwrap();
        assert_eq!((m.value, m.leaves, m.nodes, m.leaf_positions), (7, 1, 1, 1));
    }

    /// Ties: proving `>= v` at a MAX node takes the cheapest child worth at
    /// least `v`, a leaf rather than a subtree.
    #[test]
    fn the_cheapest_qualifying_child_is_chosen() {
        // MIN root, value 5. Child 0 (MAX) is worth 5 via a deep subtree,
        // child 1 is the leaf 5: proving exactly 5 takes the leaf and
        // refutes child 0 (>= 5) with one of its children.
        let tree = ExplicitTree::parse("[[[5,5],[1,1]],5]", Role::Min).unwrap();
        let m = minimal_tree(&tree, 3, None).unwrap();
        assert_eq!(m.value, 5);
        // The leaf 5 (exact), and under child 0 (MAX, >= 5): child [5,5]
        // (MIN, >= 5): both leaves. 3 leaves.
        assert_eq!(m.leaves, 3);
    }

    #[test]
    fn the_cap_stops_the_minimax() {
        let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
        let e = minimal_tree(&tree, 2, Some(5)).unwrap_err();
        assert!(matches!(e, SearchError::NodeLimit { limit: 5, .. }), "{e}");
        assert!(minimal_tree(&tree, 2, Some(13)).is_ok());
    }
}
