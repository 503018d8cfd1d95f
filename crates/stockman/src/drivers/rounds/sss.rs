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
//! # The OPEN list
//! It is built the way the sequential SSS\*'s is
//! ([`best_first`](crate::algorithms::sss)): the nodes live in an arena with
//! parent links and their children's slots, and a node's left-to-right
//! position is a 128-bit label (child `i` of a node with `n` children
//! appends `i` in `ceil(log2 n)` bits; an only child adds none). OPEN is
//! one ordered set of `(merit key, label, node)`, so a round reads its `P`
//! states off the front, a purge walks exactly the subtree it purges, and a
//! solved subtree goes back to the arena's free list. Memory is the live
//! part of the search tree, not every node visited with its whole path (the
//! textbook's Dewey labels, which this engine used before and which cost
//! memory quadratic in the depth on a long chain). Like the sequential
//! SSS\*, it refuses a tree whose labels do not fit in 128 bits.
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
//! plus, for case 4, the nodes below the parent. Memory: the nodes of the
//! live search tree (those on OPEN and their ancestors).
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
use crate::algorithms::best_first::{child_bits, too_deep};
use crate::game::Game;
use crate::search::checked;
use crate::value::{Role, Value, INF};
use std::collections::BTreeSet;

/// A state's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Live,
    Solved,
}

/// No node (a slot of a child freed, or the root's parent).
const NONE: u32 = u32::MAX;

/// A node of the arena: created when a state is pushed for it, freed when
/// it leaves the search for good (purged, or solved and replaced).
struct Node<G: Game> {
    pos: G::Position,
    parent: u32,
    /// Its index among its parent's children.
    index: u32,
    ply: u32,
    role: Role,
    /// Left-to-right label: child indices from the root, high bits first.
    label: u128,
    /// Low bits of the label still free for descendants.
    bits: u32,
    /// Its moves, once asked (empty at a leaf).
    moves: Option<Vec<G::Move>>,
    /// Its children's nodes, in order, once made (`NONE`: freed).
    children: Vec<u32>,
    /// Its state while it is on OPEN.
    state: Option<(Status, Value)>,
    /// Which use of the slot this is (a state taken in a round names it, so
    /// that a slot freed and reused in the same round is not mistaken).
    stamp: u64,
    /// Its value, worked out ahead of its Gamma step ([`Sim::install`]).
    value: Option<Value>,
}

/// The search's state: the live search tree and OPEN. Shared with the
/// real-thread parallel SSS\* of [`parallel_sss`](crate::drivers::parallel_sss),
/// which runs the same rounds with the moves and leaf values of each
/// round's states worked out on several threads first ([`Sim::install`]).
pub(crate) struct Sim<'a, G: Game> {
    game: &'a G,
    dual: bool,
    horizon: u32,
    nodes: Vec<Node<G>>,
    free: Vec<u32>,
    stamps: u64,
    /// Nodes made so far (freed ones included).
    made: u64,
    /// Interior nodes replaced by their children so far (cases 2 and 3).
    expanded: u64,
    /// OPEN in order: (sort key, label, node); the key is `-h` for SSS\*.
    open: BTreeSet<(Value, u128, u32)>,
    /// Reused by the walks below a node, so that a step does not allocate.
    stack: Vec<u32>,
    pub report: SimReport,
    leaves: Option<Leaves>,
    /// The recorded leaves' values, in the same order.
    values: Vec<Value>,
    /// The root child that holds the root's merit, and that merit.
    pub best: Option<(u32, Value)>,
}

/// One round's states, taken off the head of OPEN: `(node, stamp, status, merit)`.
pub(crate) type Taken = Vec<(u32, u64, Status, Value)>;

/// Parallel SSS\* (`dual`: Dual\*) on `opts.processors` virtual
/// processors; see the module documentation.
///
/// # Errors
/// A bad processor count, the work limit, a tree too deep and wide for the
/// labels, or a game that breaks its contract (a value out of range, moves
/// that change between calls).
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
    if opts.iterative {
        return Err(SimError::Options(
            "parallel SSS* and Dual* are best-first and search once: iterative deepening is simulated for the ABDADA searches".into(),
        ));
    }
    let mut sim = Sim::new(game, dual, opts.depth, opts.processors, opts.record_leaves);
    let mut taken = Vec::new();
    loop {
        sim.take_into(opts.processors, &mut taken);
        if let Some(value) = sim.round(&taken)? {
            sim.report.value = value;
            return Ok((sim.report, sim.leaves));
        }
        // OPEN lives on processor 0: the others' states went out and their
        // results come back over the network, and the round waits for them.
        let remote = taken.len().saturating_sub(1) as u64;
        if opts.table_latency > 0 && remote > 0 {
            let k = opts.table_latency;
            sim.report.rounds += k;
            sim.report.stalled += remote * k;
            sim.report.idle += (opts.processors as u64 - remote) * k;
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
            nodes: Vec::new(),
            free: Vec::new(),
            stamps: 0,
            made: 0,
            expanded: 0,
            open: BTreeSet::new(),
            stack: Vec::new(),
            report: SimReport {
                processors,
                ..SimReport::default()
            },
            leaves: record_leaves.then(Vec::new),
            values: Vec::new(),
            best: None,
        };
        let root = sim.alloc(root, NONE, 0, 0, role, 0, u128::BITS);
        let start = if dual { -INF } else { INF };
        sim.push(root, Status::Live, start);
        sim
    }

    /// The (up to) `p` best states of OPEN, for one round, into `taken`.
    pub fn take_into(&self, p: usize, taken: &mut Taken) {
        taken.clear();
        taken.extend(self.open.iter().take(p).map(|&(_, _, n)| {
            let node = &self.nodes[n as usize];
            let (status, h) = node.state.expect("a node on OPEN has a state");
            (n, node.stamp, status, h)
        }));
    }

    /// The LIVE states of `taken` whose moves nobody has asked for yet,
    /// with their positions and whether they are at the horizon: the work
    /// a round can do ahead, on other threads.
    pub fn pending<'s>(
        &'s self,
        taken: &'s [(u32, u64, Status, Value)],
    ) -> impl Iterator<Item = (u32, &'s G::Position, bool)> + 's {
        taken
            .iter()
            .filter(|(n, _, status, _)| *status == Status::Live && self.nodes[*n as usize].moves.is_none())
            .map(|&(n, ..)| {
                let node = &self.nodes[n as usize];
                (n, &node.pos, node.ply >= self.horizon)
            })
    }

    /// The moves of node `n` (none at the horizon) and, for a leaf, its
    /// value, worked out ahead of its Gamma step.
    pub fn install(&mut self, n: u32, moves: Vec<G::Move>, value: Option<Value>) {
        let node = &mut self.nodes[n as usize];
        node.moves = Some(moves);
        node.value = value;
    }

    /// One round: Gamma on each state of `taken` in turn (a state purged or
    /// replaced earlier in the round, or that must wait, idles its
    /// processor). The root's value once it is solved at the head of OPEN.
    pub fn round(&mut self, taken: &[(u32, u64, Status, Value)]) -> Result<Option<Value>, SimError> {
        self.report.rounds += 1;
        self.report.idle += (self.report.processors.saturating_sub(taken.len())) as u64;
        for &(n, stamp, status, h) in taken {
            let node = &self.nodes[n as usize];
            if node.stamp != stamp || node.state != Some((status, h)) {
                self.report.idle += 1; // purged or replaced earlier this round
                continue;
            }
            if node.parent == NONE && status == Status::Solved {
                if self.open.first().map(|f| f.2) != Some(n) {
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
        self.made
    }

    /// Interior nodes expanded so far (cases 2 and 3).
    pub fn expanded(&self) -> u64 {
        self.expanded
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

    #[allow(clippy::too_many_arguments)]
    fn alloc(
        &mut self,
        pos: G::Position,
        parent: u32,
        index: u32,
        ply: u32,
        role: Role,
        label: u128,
        bits: u32,
    ) -> u32 {
        self.stamps += 1;
        self.made += 1;
        let node = Node {
            pos,
            parent,
            index,
            ply,
            role,
            label,
            bits,
            moves: None,
            children: Vec::new(),
            state: None,
            stamp: self.stamps,
            value: None,
        };
        if let Some(i) = self.free.pop() {
            self.nodes[i as usize] = node;
            i
        } else {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        }
    }

    /// Returns a node's slot to the free list (its state must be gone).
    fn release(&mut self, n: u32) {
        let node = &mut self.nodes[n as usize];
        debug_assert!(node.state.is_none());
        node.stamp = 0;
        node.moves = None;
        node.value = None;
        node.children = Vec::new();
        self.free.push(n);
    }

    fn push(&mut self, n: u32, status: Status, h: Value) {
        self.remove(n);
        let key = self.sort_key(h);
        let node = &mut self.nodes[n as usize];
        node.state = Some((status, h));
        self.open.insert((key, node.label, n));
        self.report.max_open = self.report.max_open.max(self.open.len() as u64);
    }

    fn remove(&mut self, n: u32) {
        if let Some((_, h)) = self.nodes[n as usize].state.take() {
            let key = self.sort_key(h);
            self.open.remove(&(key, self.nodes[n as usize].label, n));
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

    /// Child `i` of `n`, made if new (the moves of `n` must be known).
    fn child(&mut self, n: u32, i: u32) -> Result<u32, SimError> {
        if let Some(&c) = self.nodes[n as usize].children.get(i as usize) {
            return if c == NONE {
                Err(SimError::BadGame(
                    "a child was asked for again after it was solved".into(),
                ))
            } else {
                Ok(c)
            };
        }
        let node = &self.nodes[n as usize];
        let count = node.moves.as_ref().map_or(0, Vec::len);
        let need = child_bits(u32::try_from(count).unwrap_or(u32::MAX));
        if need > node.bits {
            return Err(SimError::Unsupported(too_deep(node.ply, count)));
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
            let shift = node.bits - need;
            // An only child's index is 0 and adds nothing (the shift may be 128).
            let label = node.label | (k as u128).wrapping_shl(shift);
            let ply = node.ply + 1;
            let c = self.alloc(pos, n, k as u32, ply, role, label, shift);
            self.nodes[n as usize].children.push(c);
        }
        Ok(self.nodes[n as usize].children[i as usize])
    }

    /// Whether some state below `p` has a better merit than `h`.
    fn better_below(&mut self, p: u32, h: Value) -> bool {
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.extend(self.nodes[p as usize].children.iter().copied().filter(|&c| c != NONE));
        let mut found = false;
        while let Some(c) = stack.pop() {
            let node = &self.nodes[c as usize];
            if let Some((_, m)) = node.state {
                if self.better(m, h) {
                    found = true;
                    break;
                }
            }
            stack.extend(node.children.iter().copied().filter(|&c| c != NONE));
        }
        self.stack = stack;
        found
    }

    /// Removes every state below `p` from OPEN and frees the nodes there.
    fn purge_below(&mut self, p: u32) {
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        stack.extend(self.nodes[p as usize].children.drain(..).filter(|&c| c != NONE));
        while let Some(c) = stack.pop() {
            self.remove(c);
            stack.extend(self.nodes[c as usize].children.drain(..).filter(|&c| c != NONE));
            self.release(c);
        }
        self.stack = stack;
    }

    /// The path of node `n` from the root (child indices).
    fn path(&self, mut n: u32) -> Vec<u32> {
        let mut path = Vec::new();
        while self.nodes[n as usize].parent != NONE {
            path.push(self.nodes[n as usize].index);
            n = self.nodes[n as usize].parent;
        }
        path.reverse();
        path
    }

    /// Gamma on the state `(n, status, h)`, which is on OPEN; `false` if
    /// it must wait (case 4 with a better state below the parent).
    fn step(&mut self, n: u32, status: Status, h: Value) -> Result<bool, SimError> {
        let all = self.all_role();
        let role = self.nodes[n as usize].role;
        match status {
            Status::Live => {
                let count = self.moves(n);
                self.remove(n);
                if count == 0 {
                    // Case 1.
                    self.report.leaf_evals += 1;
                    let v = match self.nodes[n as usize].value.take() {
                        Some(v) => v,
                        None => checked(self.game.evaluate(&self.nodes[n as usize].pos))
                            .map_err(|e| SimError::BadGame(e.to_string()))?,
                    };
                    if self.leaves.is_some() {
                        let path = self.path(n);
                        if let Some(l) = &mut self.leaves {
                            l.push(path);
                        }
                        self.values.push(v);
                    }
                    let clipped = if self.dual { h.max(v) } else { h.min(v) };
                    self.push(n, Status::Solved, clipped);
                } else if role != all {
                    // Case 2.
                    self.expanded += 1;
                    let c = self.child(n, 0)?;
                    self.push(c, Status::Live, h);
                } else {
                    // Case 3.
                    self.expanded += 1;
                    for i in 0..count as u32 {
                        let c = self.child(n, i)?;
                        self.push(c, Status::Live, h);
                    }
                }
            }
            Status::Solved => {
                let p = self.nodes[n as usize].parent;
                let index = self.nodes[n as usize].index;
                if role != all {
                    // Case 4: sound only if no other state below the
                    // parent has a better merit.
                    if self.better_below(p, h) {
                        return Ok(false);
                    }
                    self.purge_below(p);
                    if self.nodes[p as usize].parent == NONE {
                        self.best = Some((index, h));
                    }
                    self.push(p, Status::Solved, h);
                } else {
                    self.remove(n);
                    if self.nodes[p as usize].parent == NONE && self.best.is_none_or(|(_, old)| old != h) {
                        // The root's merit only improves: a change is a new best.
                        self.best = Some((index, h));
                    }
                    // `n` leaves the search (its own descendants left when it was solved).
                    self.purge_below(n);
                    self.nodes[p as usize].children[index as usize] = NONE;
                    self.release(n);
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

    /// A chain of `len` plies with two leaves at its end, roles alternating.
    struct Chain {
        len: u32,
    }

    impl Game for Chain {
        type Position = (u32, u32);
        type Move = u32;
        fn root(&self) -> (u32, u32) {
            (0, 0)
        }
        fn role(&self, pos: &(u32, u32)) -> Role {
            if pos.0.is_multiple_of(2) {
                Role::Max
            } else {
                Role::Min
            }
        }
        fn moves(&self, pos: &(u32, u32), out: &mut Vec<u32>) {
            match pos.0.cmp(&self.len) {
                std::cmp::Ordering::Less => out.push(0),
                std::cmp::Ordering::Equal => out.extend([1, 2]),
                std::cmp::Ordering::Greater => {}
            }
        }
        fn play(&self, pos: &(u32, u32), mv: u32) -> (u32, u32) {
            (pos.0 + 1, mv)
        }
        fn evaluate(&self, pos: &(u32, u32)) -> Value {
            10 * pos.1 as Value
        }
    }

    #[test]
    fn a_long_chain_costs_memory_in_its_length_not_its_square() {
        // With Dewey labels kept in every node this took 11.5 GB at 60,000
        // plies; now the arena holds the chain once and OPEN a few states.
        let len = 200_000;
        let game = Chain { len };
        for p in [1, 2, 4] {
            let mut sim = Sim::new(&game, false, None, p, false);
            let mut taken = Vec::new();
            let value = loop {
                sim.take_into(p, &mut taken);
                if let Some(v) = sim.round(&taken).unwrap() {
                    break v;
                }
            };
            // The last mover picks the better leaf: MAX at an even length.
            assert_eq!(value, 20);
            assert_eq!(sim.made(), len as u64 + 3);
            assert!(sim.nodes.len() <= len as usize + 3);
            assert!(sim.report.max_open <= 2, "{}", sim.report.max_open);
        }
    }

    #[test]
    fn a_tree_too_deep_and_wide_for_the_labels_is_refused() {
        let tree = RandomTree::new(RandomSpec::parse("width=2,depth=140,seed=1").unwrap());
        let e = simulate(&tree, false, &SimOptions::default()).unwrap_err();
        assert!(matches!(&e, SimError::Unsupported(r) if r.contains("128")), "{e}");
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
