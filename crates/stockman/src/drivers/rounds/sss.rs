//! Parallel SSS\* and Dual\* on `P` virtual processors: in every round the
//! processors take the `P` best states off OPEN and apply the Gamma
//! operator to them together.
//!
//! This is the shape of the parallel SSS\* of Monien and Vornberger (1988)
//! and of Kraas (1990): one OPEN list (theirs distributed, with the best
//! states shared out), several workers each taking a state and applying
//! Gamma. The OPEN list here is the textbook one (states `(J, s, h)` with
//! Dewey labels, best merit first, ties to the left-most node), so that at
//! `P = 1` the simulation *is* Stockman's SSS\* (Dual\*): the same leaves
//! in the same order (a test checks it against [`sss`](crate::algorithms::sss)).
//!
//! # What may run out of turn, and why the value stays exact
//! Each state of OPEN stands for a family of solution trees and its merit
//! bounds their values (from above for SSS\*). Cases 1, 2, 3, 5 and 6 of
//! Gamma only move one family forward (evaluate its leaf, extend it by a
//! child or the next sibling, solve a MIN node whose last child is solved)
//! and keep its merit a true bound, so any state may take them, best or
//! not. Only case 4 (a solved MIN node `J` solves its MAX parent and purges
//! every state below the parent) drops other families: it is sound when
//! `J`'s merit is at least the merit of every other state below the parent
//! (then no other family there can do better), which the best state of
//! OPEN always satisfies and which a processor checks before it purges.
//! A state that fails the check waits (its processor idles that round), and
//! so does one purged earlier in the same round. The root's SOLVED state
//! is taken only at the head. The value is therefore the minimax value for
//! every `P`; which leaves are evaluated differs (more leaves: the search
//! overhead of speculation), and the report counts them.
//!
//! Dual\* is the mirror image (lower bounds, lowest merit first, MIN nodes
//! expand all children, case 4 for a solved MAX node).
//!
//! # Complexity
//! At `P = 1` SSS\*'s states and steps; each step costs `O(log |OPEN|)`
//! plus, for case 4, the states below the parent. Memory: every node
//! visited (the simulation keeps them all).
//!
//! # Example
//! ```
//! use stockman::simulate::{sss, SimOptions};
//! use stockman::{ExplicitTree, Role};
//! let tree = ExplicitTree::parse("[[[3,12],[8,2]],[[4,6],[14,5]],[[2,9],[1,7]]]", Role::Max).unwrap();
//! let one = sss::simulate(&tree, false, &SimOptions::default()).unwrap();
//! let four = sss::simulate(&tree, false, &SimOptions { processors: 4, ..SimOptions::default() }).unwrap();
//! assert_eq!((one.value, four.value), (8, 8));
//! assert!(four.rounds < one.rounds);
//! ```

use super::{SimError, SimOptions, SimReport};
use crate::game::Game;
use crate::search::checked;
use crate::value::{Role, Value, INF};
use std::collections::{BTreeMap, BTreeSet};

/// A state's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Live,
    Solved,
}

/// A node of the tree, kept once visited.
struct Node<G: Game> {
    pos: G::Position,
    parent: u32,
    /// Its index among its parent's children.
    index: u32,
    ply: u32,
    role: Role,
    /// Dewey label: child indices from the root.
    path: Vec<u32>,
    /// Its moves, once asked (empty at a leaf).
    moves: Option<Vec<G::Move>>,
    /// Its children's nodes, once made.
    children: Vec<u32>,
}

/// The search's state: the tree so far and OPEN, indexed twice. Shared
/// with the real-thread parallel SSS\* of
/// [`parallel_sss`](crate::drivers::parallel_sss), which runs the same
/// rounds with the moves and leaf values of each round's states worked
/// out on several threads first ([`Sim::install`]).
pub(crate) struct Sim<'a, G: Game> {
    game: &'a G,
    dual: bool,
    horizon: u32,
    nodes: Vec<Node<G>>,
    /// OPEN in order: (sort key, label) -> nothing; the key is `-h` for SSS\*.
    order: BTreeSet<(Value, Vec<u32>)>,
    /// OPEN by label (for purges): label -> (node, status, merit).
    by_label: BTreeMap<Vec<u32>, (u32, Status, Value)>,
    pub report: SimReport,
    leaves: Option<Leaves>,
    /// The recorded leaves' values, in the same order.
    values: Vec<Value>,
    /// Leaf values worked out ahead of their Gamma step ([`Sim::install`]).
    evaluated: std::collections::HashMap<u32, Value>,
    /// The root child that holds the root's merit, and that merit.
    pub best: Option<(u32, Value)>,
}

/// One round's states, taken off the head of OPEN: `(label, (node, status, merit))`.
pub(crate) type Taken = Vec<(Vec<u32>, (u32, Status, Value))>;

/// Parallel SSS\* (`dual`: Dual\*) on `opts.processors` virtual
/// processors; see the module documentation.
///
/// # Errors
/// A bad processor count, the work limit, or a game that breaks its
/// contract (a value out of range, moves that change between calls).
pub fn simulate<G: Game>(game: &G, dual: bool, opts: &SimOptions) -> Result<SimReport, SimError> {
    simulate_recorded(game, dual, opts).map(|(r, _)| r)
}

/// The paths of evaluated leaves, in order.
pub type Leaves = Vec<Vec<u32>>;

/// [`simulate`], with the paths of the evaluated leaves in order when
/// `opts.record_leaves`.
///
/// # Errors
/// As [`simulate`].
pub fn simulate_recorded<G: Game>(
    game: &G,
    dual: bool,
    opts: &SimOptions,
) -> Result<(SimReport, Option<Leaves>), SimError> {
    opts.check()?;
    let mut sim = Sim::new(game, dual, opts.depth, opts.processors, opts.record_leaves);
    loop {
        let taken = sim.take(opts.processors);
        if let Some(value) = sim.round(taken)? {
            sim.report.value = value;
            return Ok((sim.report, sim.leaves));
        }
        if sim.report.work >= opts.max_work {
            return Err(SimError::WorkLimit(opts.max_work));
        }
    }
}

impl<'a, G: Game> Sim<'a, G> {
    /// The search's start: the root LIVE with the merit that bounds nothing.
    pub fn new(game: &'a G, dual: bool, depth: Option<u32>, processors: usize, record_leaves: bool) -> Self {
        let root = game.root();
        let role = game.role(&root);
        let mut sim = Sim {
            game,
            dual,
            horizon: depth.unwrap_or(u32::MAX),
            nodes: vec![Node {
                pos: root,
                parent: u32::MAX,
                index: 0,
                ply: 0,
                role,
                path: Vec::new(),
                moves: None,
                children: Vec::new(),
            }],
            order: BTreeSet::new(),
            by_label: BTreeMap::new(),
            report: SimReport {
                processors,
                ..SimReport::default()
            },
            leaves: record_leaves.then(Vec::new),
            values: Vec::new(),
            evaluated: std::collections::HashMap::new(),
            best: None,
        };
        let start = if dual { -INF } else { INF };
        sim.push(0, Status::Live, start);
        sim
    }

    /// The (up to) `p` best states of OPEN, for one round.
    pub fn take(&self, p: usize) -> Taken {
        self.order
            .iter()
            .take(p)
            .map(|(_, l)| (l.clone(), self.by_label[l]))
            .collect()
    }

    /// The LIVE states of `taken` whose moves nobody has asked for yet,
    /// with their positions and whether they are at the horizon: the work
    /// a round can do ahead, on other threads.
    pub fn pending(&self, taken: &Taken) -> Vec<(u32, &G::Position, bool)> {
        taken
            .iter()
            .filter(|(_, (n, status, _))| *status == Status::Live && self.nodes[*n as usize].moves.is_none())
            .map(|(_, (n, _, _))| {
                let node = &self.nodes[*n as usize];
                (*n, &node.pos, node.ply >= self.horizon)
            })
            .collect()
    }

    /// The moves of node `n` (none at the horizon) and, for a leaf, its
    /// value, worked out ahead of its Gamma step.
    pub fn install(&mut self, n: u32, moves: Vec<G::Move>, value: Option<Value>) {
        self.nodes[n as usize].moves = Some(moves);
        if let Some(v) = value {
            self.evaluated.insert(n, v);
        }
    }

    /// One round: Gamma on each state of `taken` in turn (a state purged or
    /// replaced earlier in the round, or that must wait, idles its
    /// processor). The root's value once it is solved at the head of OPEN.
    pub fn round(&mut self, taken: Taken) -> Result<Option<Value>, SimError> {
        self.report.rounds += 1;
        self.report.idle += (self.report.processors.saturating_sub(taken.len())) as u64;
        for (label, state) in taken {
            if self.by_label.get(&label) != Some(&state) {
                self.report.idle += 1; // purged or replaced earlier this round
                continue;
            }
            let (n, status, h) = state;
            if n == 0 && status == Status::Solved {
                if self.order.first().map(|f| &f.1) != Some(&label) {
                    self.report.idle += 1;
                    continue;
                }
                self.report.work += 1;
                return Ok(Some(h));
            }
            if !self.step(n, status, h)? {
                self.report.idle += 1;
                continue;
            }
            self.report.work += 1;
        }
        Ok(None)
    }

    /// Positions made so far (the root and every child), as searches count nodes.
    pub fn made(&self) -> u64 {
        self.nodes.len() as u64
    }

    /// The leaves evaluated so far (paths and values, in order), if recorded.
    pub fn leaves(&self) -> Option<(&Leaves, &[Value])> {
        self.leaves.as_ref().map(|l| (l, &self.values[..]))
    }

    /// The OPEN order's key of merit `h`: best first.
    fn sort_key(&self, h: Value) -> Value {
        if self.dual {
            h
        } else {
            -h
        }
    }

    /// The role whose LIVE nodes are replaced by all their children.
    fn all_role(&self) -> Role {
        if self.dual {
            Role::Min
        } else {
            Role::Max
        }
    }

    /// Whether merit `a` is better than `b` (higher for SSS\*).
    fn better(&self, a: Value, b: Value) -> bool {
        if self.dual {
            a < b
        } else {
            a > b
        }
    }

    fn push(&mut self, n: u32, status: Status, h: Value) {
        let label = self.nodes[n as usize].path.clone();
        if let Some((_, _, old)) = self.by_label.insert(label.clone(), (n, status, h)) {
            let k = self.sort_key(old);
            self.order.remove(&(k, label.clone()));
        }
        self.order.insert((self.sort_key(h), label));
        self.report.max_open = self.report.max_open.max(self.order.len() as u64);
    }

    fn remove(&mut self, label: &[u32]) {
        if let Some((_, _, h)) = self.by_label.remove(label) {
            let k = self.sort_key(h);
            self.order.remove(&(k, label.to_vec()));
        }
    }

    /// The moves of node `n` (none at the horizon or a terminal).
    fn moves(&mut self, n: u32) -> usize {
        if self.nodes[n as usize].moves.is_none() {
            let node = &self.nodes[n as usize];
            let mut m = Vec::new();
            if node.ply < self.horizon {
                self.game.moves(&node.pos, &mut m);
            }
            self.nodes[n as usize].moves = Some(m);
        }
        self.nodes[n as usize].moves.as_ref().map_or(0, Vec::len)
    }

    /// Child `i` of `n`, made if new.
    fn child(&mut self, n: u32, i: u32) -> Result<u32, SimError> {
        if let Some(&c) = self.nodes[n as usize].children.get(i as usize) {
            return Ok(c);
        }
        // Children are made in order (case 3 makes them all; 2 and 6 one after the other).
        while self.nodes[n as usize].children.len() <= i as usize {
            let k = self.nodes[n as usize].children.len();
            let node = &self.nodes[n as usize];
            let mv = *node
                .moves
                .as_ref()
                .and_then(|m| m.get(k))
                .ok_or_else(|| SimError::BadGame("a child past the end of a position's moves".into()))?;
            let pos = self.game.play(&node.pos, mv);
            let role = self.game.role(&pos);
            let mut path = node.path.clone();
            path.push(k as u32);
            let ply = node.ply + 1;
            let c = self.nodes.len() as u32;
            self.nodes.push(Node {
                pos,
                parent: n,
                index: k as u32,
                ply,
                role,
                path,
                moves: None,
                children: Vec::new(),
            });
            self.nodes[n as usize].children.push(c);
        }
        Ok(self.nodes[n as usize].children[i as usize])
    }

    /// Gamma on the state `(n, status, h)`, which is on OPEN; `false` if
    /// it must wait (case 4 with a better state below the parent).
    fn step(&mut self, n: u32, status: Status, h: Value) -> Result<bool, SimError> {
        let all = self.all_role();
        let role = self.nodes[n as usize].role;
        match status {
            Status::Live => {
                let count = self.moves(n);
                let label = self.nodes[n as usize].path.clone();
                self.remove(&label);
                if count == 0 {
                    // Case 1.
                    self.report.leaf_evals += 1;
                    let v = match self.evaluated.remove(&n) {
                        Some(v) => v,
                        None => checked(self.game.evaluate(&self.nodes[n as usize].pos))
                            .map_err(|e| SimError::BadGame(e.to_string()))?,
                    };
                    if let Some(l) = &mut self.leaves {
                        l.push(label);
                        self.values.push(v);
                    }
                    let clipped = if self.dual { h.max(v) } else { h.min(v) };
                    self.push(n, Status::Solved, clipped);
                } else if role != all {
                    // Case 2.
                    let c = self.child(n, 0)?;
                    self.push(c, Status::Live, h);
                } else {
                    // Case 3.
                    for i in 0..count as u32 {
                        let c = self.child(n, i)?;
                        self.push(c, Status::Live, h);
                    }
                }
            }
            Status::Solved => {
                let p = self.nodes[n as usize].parent;
                if role != all {
                    // Case 4: sound only if no other state below the
                    // parent has a better merit.
                    let prefix = self.nodes[p as usize].path.clone();
                    let below: Vec<(Vec<u32>, Value)> = self
                        .by_label
                        .range(prefix.clone()..)
                        .take_while(|(l, _)| l.starts_with(&prefix))
                        .map(|(l, &(_, _, m))| (l.clone(), m))
                        .collect();
                    if below.iter().any(|(_, m)| self.better(*m, h)) {
                        return Ok(false);
                    }
                    for (l, _) in &below {
                        self.remove(l);
                    }
                    if p == 0 {
                        self.best = Some((self.nodes[n as usize].index, h));
                    }
                    self.push(p, Status::Solved, h);
                } else {
                    let label = self.nodes[n as usize].path.clone();
                    self.remove(&label);
                    let index = self.nodes[n as usize].index;
                    if p == 0 && self.best.is_none_or(|(_, old)| old != h) {
                        // The root's merit only improves: a change is a new best.
                        self.best = Some((index, h));
                    }
                    let count = self.moves(p);
                    if index as usize + 1 == count {
                        // Case 5.
                        self.push(p, Status::Solved, h);
                    } else {
                        // Case 6.
                        let c = self.child(p, index + 1)?;
                        self.push(c, Status::Live, h);
                    }
                }
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ExplicitTree, RandomSpec, RandomTree};

    #[test]
    fn one_processor_is_stockmans_sss_on_the_textbook_tree() {
        let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
        let opts = SimOptions {
            record_leaves: true,
            ..SimOptions::default()
        };
        let (r, leaves) = simulate_recorded(&tree, false, &opts).unwrap();
        assert_eq!(r.value, 3);
        assert_eq!(r.idle, 0);
        assert_eq!(r.rounds, r.work);
        assert_eq!(leaves.unwrap().len() as u64, r.leaf_evals);
    }

    #[test]
    fn bad_processor_counts_are_refused() {
        let tree = RandomTree::new(RandomSpec::parse("width=2,depth=2,seed=1").unwrap());
        for p in [0, super::super::MAX_PROCESSORS + 1] {
            let e = simulate(
                &tree,
                false,
                &SimOptions {
                    processors: p,
                    ..SimOptions::default()
                },
            )
            .unwrap_err();
            assert_eq!(e, SimError::Processors(p));
        }
    }
}
