//! SSS-2: SSS\* as two recursive procedures over one max solution tree
//! (Pijls and de Bruin 1990, "Another view on the SSS\* algorithm").
//!
//! The search keeps one *max solution tree* `T`: every child of a stored
//! MAX node, one child of a stored MIN node. Its value `g` (the largest of
//! its leaves) is an upper bound on the root's value. `expand` builds `T`
//! below a node under a test value; `diminish` tries to lower `T`'s value
//! below the value it has, top-down, where `T` reaches it:
//!
//! ```text
//! expand(n, v):     build a max solution tree under n of value < v (null-window
//!                   alpha-beta at v that keeps what it proves); fail if there is none
//!   leaf:  g := eval(n); fail if g >= v
//!   MAX:   expand every child left to right; fail at the first that fails
//!          (n >= v); else g := the largest child value
//!   MIN:   expand the children left to right; the first that succeeds is
//!          n's chosen child and g := its value; fail if none does
//! diminish(n, v):   g(n) = v; make T's value under n < v, or show f(n) = v
//!   leaf:  fail
//!   MAX:   diminish the children whose value is v, left to right; fail at the
//!          first that fails; else g := the largest child value
//!   MIN:   diminish the chosen child; if it fails, expand the children right
//!          of it, left to right, until one succeeds (the new chosen child)
//! SSS-2:  expand(root, +inf); repeat v := g(root) until diminish(root, v) fails
//! ```
//!
//! It has no OPEN list and no LIVE/SOLVED states: a node's state is its
//! value and, at a MIN node, which child is chosen. The published paper
//! could not be read for this crate; this is a reconstruction from its
//! abstract and the MT papers (`docs/research/seed-systems-reading.md`),
//! and the tests carry its claims: the minimax value, SSS\*'s leaves in
//! SSS\*'s order, and memory within one max solution tree.
//!
//! **Memory.** A node that fails is dropped at once (nothing ever returns
//! to it: its failure goes up to a MIN ancestor that moves right, or ends
//! the search), so the stored nodes always lie within one max solution
//! tree, the one being built included. [`Stats::max_open`] reports their
//! peak count, and [`Limits::max_open`](crate::Limits::max_open) bounds it.
//!
//! # Complexity
//! The leaves of SSS\*; each `diminish` re-traverses the stored tree where
//! it has the root's value. Memory: at most the nodes of one max solution
//! tree, `1 + w + w^2 + ... ` with `⌈d/2⌉` MAX levels fully present on a
//! uniform tree of width `w` and depth `d` (a MAX root).
//!
//! # Example
//! ```
//! use stockman::{Algorithm, ExplicitTree, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let out = Algorithm::Sss2.search(&tree, &SearchOptions::default()).unwrap();
//! assert_eq!((out.value, out.stats.leaf_evals, out.stats.passes), (Some(3), 7, 4));
//! ```
//!
//! [`Stats::max_open`]: crate::Stats::max_open

use super::context::{Context, Stop};
use crate::game::Game;
use crate::observe::{Fail, Observer, Pass};
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::value::{Role, Value, INF};

const NONE: u32 = u32::MAX;

/// A stored node of the max solution tree.
struct Node<P, M> {
    pos: P,
    ply: u32,
    /// `None` for a leaf (a terminal or a node at the horizon).
    role: Option<Role>,
    /// The value of the stored tree below: an upper bound on the node's.
    g: Value,
    /// A MAX node's children, all of them; a MIN node's chosen child
    /// (none once the node failed and was given up).
    kids: Vec<u32>,
    /// A MIN node's moves and the root's: a MIN node's children right of
    /// the chosen one are played from this list, generated once, and the
    /// root's best move is named from it (a list generated again may name
    /// other moves at the same indices).
    moves: Vec<M>,
    /// A MIN node's chosen child, as an index into `moves`.
    chosen: u32,
}

struct Sss2<'a, G: Game, O: Observer> {
    cx: Context<'a, G, O>,
    nodes: Vec<Node<G::Position, G::Move>>,
    free: Vec<u32>,
    /// Stored nodes now.
    live: usize,
    max_live: usize,
    /// Reused by [`Sss2::release`].
    stack: Vec<u32>,
}

/// SSS-2 on `game`, reporting leaves and passes to `obs`.
pub(crate) fn search_observed<G: Game, O: Observer>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    let mut s = Sss2 {
        cx: Context::new(game, opts, obs),
        nodes: Vec::new(),
        free: Vec::new(),
        live: 0,
        max_live: opts.limits.max_open,
        stack: Vec::new(),
    };
    s.run().map_err(|e| *e)
}

impl<G: Game, O: Observer> Sss2<'_, G, O> {
    fn run(&mut self) -> Result<Outcome<G::Move>, Stop> {
        let root_pos = self.cx.game.root();
        let before = self.cx.stats.leaf_evals;
        // Every value lies below +inf: the first expansion cannot fail.
        let root = match self.expand(root_pos, 0, INF)? {
            Some(r) => r,
            None => unreachable!("a leaf's value is checked to lie below +inf"),
        };
        let mut upper = self.nodes[root as usize].g;
        self.pass(INF, upper, Fail::Low, -INF, upper, before);
        loop {
            let v = upper;
            let before = self.cx.stats.leaf_evals;
            if self.diminish(root, v)? {
                upper = self.nodes[root as usize].g;
                self.pass(v, upper, Fail::Low, -INF, upper, before);
            } else {
                self.pass(v, v, Fail::High, v, v, before);
                break;
            }
        }
        // The root's best move: at a MAX root, the child whose diminish
        // failed last (kept as the node's `chosen`, see `diminish`); at a
        // MIN root, its chosen child.
        let r = &self.nodes[root as usize];
        let best_index = (r.role.is_some()).then_some(r.chosen as usize);
        let best_move = best_index.and_then(|i| r.moves.get(i).copied());
        Ok(Outcome::new(Some(upper), best_move, best_index, None, self.cx.finish()))
    }

    /// Tells the observer of a pass at the test value `v` (the window
    /// `(v - 1, v)`, as MT-SSS\*'s passes are).
    fn pass(&mut self, v: Value, result: Value, fail: Fail, lower: Value, upper: Value, before: u64) {
        self.cx.stats.passes += 1;
        if O::STEPS {
            let pass = Pass {
                pass: self.cx.stats.passes,
                alpha: v - 1,
                beta: v,
                result,
                fail,
                lower,
                upper,
                leaf_evals: self.cx.stats.leaf_evals - before,
                better_count: None,
            };
            self.cx.obs.pass(pass);
        }
    }

    /// Stores a node; fails when memory would pass the limit.
    fn alloc(&mut self, node: Node<G::Position, G::Move>) -> Result<u32, Stop> {
        self.live += 1;
        if self.live > self.max_live {
            let limit = self.max_live;
            return Err(Box::new(SearchError::OpenLimit {
                limit,
                stats: self.cx.finish(),
            }));
        }
        self.cx.stats.open_pushes += 1;
        self.cx.stats.max_open = self.cx.stats.max_open.max(self.live as u64);
        Ok(match self.free.pop() {
            Some(i) => {
                self.nodes[i as usize] = node;
                i
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        })
    }

    /// Drops node `n` and everything stored below it.
    fn release(&mut self, n: u32) {
        let mut stack = std::mem::take(&mut self.stack);
        stack.push(n);
        while let Some(n) = stack.pop() {
            let node = &mut self.nodes[n as usize];
            stack.append(&mut node.kids);
            node.moves.clear();
            self.free.push(n);
            self.live -= 1;
        }
        self.stack = stack;
    }

    /// Builds a max solution tree of value below `v` under `pos`: the node,
    /// or `None` (nothing stored) when the node's value is at least `v`.
    fn expand(&mut self, pos: G::Position, ply: u32, v: Value) -> Result<Option<u32>, Stop> {
        self.cx.visit()?;
        let mut moves = Vec::new();
        if !self.cx.at_horizon(ply) {
            self.cx.game.moves(&pos, &mut moves);
        }
        if moves.is_empty() {
            let g = self.cx.evaluate(&pos)?;
            if g >= v {
                return Ok(None);
            }
            let leaf = Node {
                pos,
                ply,
                role: None,
                g,
                kids: Vec::new(),
                moves,
                chosen: NONE,
            };
            return self.alloc(leaf).map(Some);
        }
        self.cx.stats.nodes_expanded += 1;
        let role = self.cx.game.role(&pos);
        let id = self.alloc(Node {
            pos,
            ply,
            role: Some(role),
            g: -INF,
            kids: Vec::new(),
            moves: Vec::new(),
            chosen: NONE,
        })?;
        match role {
            Role::Max => {
                let mut g = -INF;
                for (i, m) in moves.iter().enumerate() {
                    let child = self.cx.game.play(&self.nodes[id as usize].pos, *m);
                    self.cx.enter(i);
                    let c = self.expand(child, ply + 1, v);
                    self.cx.leave();
                    match c? {
                        Some(c) => {
                            g = g.max(self.nodes[c as usize].g);
                            self.nodes[id as usize].kids.push(c);
                        }
                        None => {
                            self.release(id);
                            return Ok(None);
                        }
                    }
                }
                let node = &mut self.nodes[id as usize];
                node.g = g;
                if ply == 0 {
                    node.moves = moves;
                }
                Ok(Some(id))
            }
            Role::Min => {
                self.nodes[id as usize].moves = moves;
                if self.choose(id, 0, v)? {
                    Ok(Some(id))
                } else {
                    self.release(id);
                    Ok(None)
                }
            }
        }
    }

    /// Lowers the value of the stored tree under `id` (which is `v`) below
    /// `v`: `true` if it could, `false` if the node's value is `v` itself.
    /// A node that fails keeps nothing below it (nothing returns to it),
    /// only its value and, at a MIN node and the root, the child that held it.
    fn diminish(&mut self, id: u32, v: Value) -> Result<bool, Stop> {
        self.cx.visit()?;
        let Some(role) = self.nodes[id as usize].role else {
            return Ok(false);
        };
        match role {
            Role::Max => {
                let kids = std::mem::take(&mut self.nodes[id as usize].kids);
                let mut result = Ok(true);
                for (i, &c) in kids.iter().enumerate() {
                    if self.nodes[c as usize].g < v {
                        continue;
                    }
                    self.cx.enter(i);
                    let r = self.diminish(c, v);
                    self.cx.leave();
                    match r {
                        Ok(true) => {}
                        Ok(false) => {
                            self.nodes[id as usize].chosen = i as u32;
                            result = Ok(false);
                            break;
                        }
                        Err(e) => {
                            result = Err(e);
                            break;
                        }
                    }
                }
                let g = kids.iter().map(|&c| self.nodes[c as usize].g).max().unwrap_or(-INF);
                let node = &mut self.nodes[id as usize];
                node.kids = kids;
                if matches!(result, Ok(true)) {
                    node.g = g;
                }
                result
            }
            Role::Min => {
                let (c, chosen) = {
                    let node = &self.nodes[id as usize];
                    (node.kids[0], node.chosen)
                };
                self.cx.enter(chosen as usize);
                let ok = self.diminish(c, v);
                self.cx.leave();
                if ok? {
                    self.nodes[id as usize].g = self.nodes[c as usize].g;
                    return Ok(true);
                }
                // The chosen child's value is v: drop it and try the
                // children right of it under v. If none goes below, the
                // node stays in its parent with the value v and its chosen
                // child named, nothing stored below it: its parent fails
                // in turn, and is dropped or ends the search.
                self.nodes[id as usize].kids.clear();
                self.release(c);
                self.choose(id, chosen + 1, v)
            }
        }
    }

    /// Expands MIN node `id`'s children from index `from` on, left to
    /// right, until one's value is below `v`: it becomes the chosen child
    /// and the node takes its value. `false` if none does (nothing of them
    /// is stored).
    fn choose(&mut self, id: u32, from: u32, v: Value) -> Result<bool, Stop> {
        let (ply, n) = {
            let node = &self.nodes[id as usize];
            (node.ply, node.moves.len() as u32)
        };
        for i in from..n {
            let node = &self.nodes[id as usize];
            let child = self.cx.game.play(&node.pos, node.moves[i as usize]);
            self.cx.enter(i as usize);
            let c = self.expand(child, ply + 1, v);
            self.cx.leave();
            if let Some(c) = c? {
                let g = self.nodes[c as usize].g;
                let node = &mut self.nodes[id as usize];
                node.kids.push(c);
                node.chosen = i;
                node.g = g;
                return Ok(true);
            }
        }
        Ok(false)
    }
}
