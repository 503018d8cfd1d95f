//! The engine behind SSS\* and Dual\*: Stockman's OPEN list of state
//! descriptors and the Gamma operator, for either polarity.
//!
//! Nodes live in an arena with parent links and lists of their live
//! children, so that a purge visits exactly the purged subtree and costs
//! O(1) per purged node. OPEN is a monotone radix queue keyed by (merit,
//! left-to-right position) with lazy deletion ([`super::open_queue`]): the
//! head is the best merit, ties going to the left-most node. A node's
//! left-to-right position is a 128-bit label: child `i` of a node with `n`
//! children appends `i` in `ceil(log2 n)` bits below its parent's bits (an
//! only child adds none), so comparing two nodes that are not ancestors of
//! one another is comparing two integers.
//!
//! Case 3 (a LIVE node of the expanding role is replaced by all its
//! children) does not create the children: it pushes one *batch* entry that
//! stands for all of them, LIVE with the parent's merit, and each child is
//! created only when it reaches the head of OPEN. In Dual\* on random trees
//! half of the states pushed are purged before they are ever popped, so
//! most of them now cost nothing. Counts, traces and the order of
//! evaluation are those of the textbook's one-state-per-child OPEN list.

use super::open_queue::{ordered, Entry, OpenQueue};
use crate::game::Game;
use crate::observe::{Gamma, Observer, State, Status, Step};
use crate::search::{checked, Budget, Outcome, SearchError, SearchOptions};
use crate::stats::Stats;
use crate::value::{Role, Value, INF};

/// Which of the two dual algorithms runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Polarity {
    /// SSS\*: upper bounds, highest merit first, MAX nodes expand all children.
    Sss,
    /// Dual\*: lower bounds, lowest merit first, MIN nodes expand all children.
    Dual,
}

impl Polarity {
    /// The role whose LIVE nodes are replaced by all their children, and
    /// whose SOLVED child solves it at once (case 4).
    fn all_role(self) -> Role {
        match self {
            Polarity::Sss => Role::Max,
            Polarity::Dual => Role::Min,
        }
    }

    /// The OPEN-list key of merit `h`: smaller keys come first.
    fn key(self, h: Value) -> Value {
        match self {
            Polarity::Sss => -h,
            Polarity::Dual => h,
        }
    }

    /// Case 1: a leaf's merit from its bound and its value.
    fn clip(self, h: Value, v: Value) -> Value {
        match self {
            Polarity::Sss => h.min(v),
            Polarity::Dual => h.max(v),
        }
    }

    fn start(self) -> Value {
        match self {
            Polarity::Sss => INF,
            Polarity::Dual => -INF,
        }
    }
}

const NONE: u32 = u32::MAX;

/// Marks a queue entry that stands for the pending children of a node.
const BATCH: u32 = 1 << 31;

/// A node of the arena.
struct Node<P> {
    pos: P,
    parent: u32,
    /// Index among the parent's children.
    index: u32,
    /// Number of children, once the node has been expanded.
    nchildren: u32,
    /// Case 3 only: children `next_child..nchildren` are still pending on
    /// OPEN as one batch, LIVE with merit `h`. Otherwise `nchildren`.
    next_child: u32,
    /// Live (created) children, as a singly linked list.
    first_child: u32,
    next_sibling: u32,
    depth: u32,
    role: Role,
    /// The node's left-to-right label: its child indices, high bits first
    /// (as two halves, so that a node needs no 16-byte alignment).
    label: [u64; 2],
    /// Low bits of the label still free for descendants.
    bits: u8,
    /// The node's status while it is on OPEN, and its merit then (or its
    /// pending children's).
    status: Option<Status>,
    h: Value,
    /// The stamp of the node's entry on OPEN, or of its batch.
    stamp: u64,
}

impl<P> Node<P> {
    fn new(pos: P, parent: u32, index: u32, depth: u32, role: Role, label: u128, bits: u32) -> Self {
        debug_assert!(bits <= 128);
        Node {
            pos,
            parent,
            index,
            nchildren: 0,
            next_child: 0,
            first_child: NONE,
            next_sibling: NONE,
            depth,
            role,
            label: [(label >> 64) as u64, label as u64],
            bits: bits as u8,
            status: None,
            h: 0,
            stamp: 0,
        }
    }

    #[inline]
    fn label(&self) -> u128 {
        (self.label[0] as u128) << 64 | self.label[1] as u128
    }

    #[inline]
    fn state(&self) -> Option<(Status, Value)> {
        self.status.map(|s| (s, self.h))
    }

    #[inline]
    fn take_state(&mut self) -> Option<(Status, Value)> {
        self.status.take().map(|s| (s, self.h))
    }

    /// Bits of label that each of `n` children needs.
    #[inline]
    fn child_bits(n: u32) -> u32 {
        if n == 1 {
            0
        } else {
            u32::BITS - (n - 1).leading_zeros()
        }
    }

    /// The label and free bits of child `i` of `n`: `i` appended in
    /// `ceil(log2 n)` bits; an only child shares its parent's label, so
    /// chains of any length cost nothing. The bits must have been checked.
    #[inline]
    fn child_label(&self, i: u32, n: u32) -> (u128, u32) {
        if n == 1 {
            return (self.label(), self.bits as u32);
        }
        let bits = self.bits as u32 - Self::child_bits(n);
        (self.label() | (i as u128) << bits, bits)
    }
}

pub(crate) struct BestFirst<'a, G: Game, O: Observer> {
    game: &'a G,
    polarity: Polarity,
    horizon: u32,
    max_open: usize,
    nodes: Vec<Node<G::Position>>,
    free: Vec<u32>,
    open: OpenQueue,
    /// Live states on OPEN, pending children included (the queue also holds
    /// stale, purged entries).
    live: usize,
    stamps: u64,
    /// Reused by purges, so that no step allocates.
    stack: Vec<u32>,
    stats: Stats,
    budget: Budget,
    obs: &'a mut O,
    /// The moves of the node whose (label, depth) is `moves_of`.
    moves: Vec<G::Move>,
    moves_of: Option<(u128, u32)>,
    /// The root child that decides the root, and its merit.
    best: Option<(u32, Value)>,
    // Trace bookkeeping (only with `O::STEPS`).
    added: Vec<State>,
    purged: Vec<((u32, u128), State)>,
    steps: u64,
}

impl<'a, G: Game, O: Observer> BestFirst<'a, G, O> {
    pub(crate) fn new(game: &'a G, opts: &SearchOptions, polarity: Polarity, obs: &'a mut O) -> Self {
        BestFirst {
            game,
            polarity,
            horizon: opts.depth.unwrap_or(u32::MAX),
            max_open: opts.max_open,
            nodes: Vec::new(),
            free: Vec::new(),
            open: OpenQueue::new(),
            live: 0,
            stamps: 0,
            stack: Vec::new(),
            stats: Stats::default(),
            budget: Budget::new(opts),
            obs,
            moves: Vec::new(),
            moves_of: None,
            best: None,
            added: Vec::new(),
            purged: Vec::new(),
            steps: 0,
        }
    }

    #[inline]
    fn alloc(&mut self, node: Node<G::Position>) -> u32 {
        if let Some(i) = self.free.pop() {
            self.nodes[i as usize] = node;
            i
        } else {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        }
    }

    /// The path of 0-based child indices from the root to `n`.
    fn path(&self, mut n: u32) -> Vec<u32> {
        let mut p = Vec::with_capacity(self.nodes[n as usize].depth as usize);
        while self.nodes[n as usize].parent != NONE {
            p.push(self.nodes[n as usize].index);
            n = self.nodes[n as usize].parent;
        }
        p.reverse();
        p
    }

    fn state_of(&self, n: u32, status: Status, h: Value) -> State {
        State {
            node: self.path(n),
            status,
            h,
        }
    }

    /// The state of pending child `i` of `p`.
    fn pending_state(&self, p: u32, i: u32) -> State {
        let mut node = self.path(p);
        node.push(i);
        State {
            node,
            status: Status::Live,
            h: self.nodes[p as usize].h,
        }
    }

    #[inline]
    fn key(&self, h: Value) -> u32 {
        ordered(self.polarity.key(h))
    }

    /// Puts `n` on OPEN. Only case 3 makes OPEN longer than before the
    /// step's pop, so only it checks the limit (before pushing).
    #[inline]
    fn push(&mut self, n: u32, status: Status, h: Value) {
        self.stamps += 1;
        let key = self.key(h);
        let node = &mut self.nodes[n as usize];
        node.status = Some(status);
        node.h = h;
        node.stamp = self.stamps;
        self.open.push(Entry {
            label: node.label(),
            stamp: self.stamps,
            key,
            node: n,
        });
        self.live += 1;
        self.stats.open_pushes += 1;
        self.stats.max_open = self.stats.max_open.max(self.live as u64);
        if O::STEPS {
            self.added.push(self.state_of(n, status, h));
        }
    }

    /// Case 3: all `n` children of `j` go on OPEN, LIVE with merit `h`, as one batch.
    fn push_batch(&mut self, j: u32, n: u32, h: Value) -> Result<(), SearchError> {
        if self.live + n as usize > self.max_open {
            self.budget.finish(&mut self.stats);
            return Err(SearchError::OpenLimit {
                limit: self.max_open,
                stats: self.stats,
            });
        }
        self.check_bits(j, n)?;
        self.stamps += 1;
        let key = self.key(h);
        let node = &mut self.nodes[j as usize];
        node.next_child = 0;
        node.h = h;
        node.stamp = self.stamps;
        self.open.push(Entry {
            label: node.child_label(0, n).0,
            stamp: self.stamps,
            key,
            node: j | BATCH,
        });
        self.live += n as usize;
        self.stats.open_pushes += n as u64;
        self.stats.max_open = self.stats.max_open.max(self.live as u64);
        if O::STEPS {
            for i in 0..n {
                let s = self.pending_state(j, i);
                self.added.push(s);
            }
        }
        Ok(())
    }

    /// Fails if the labels of `n` children of `p` would not fit in 128 bits.
    #[inline]
    fn check_bits(&self, p: u32, n: u32) -> Result<(), SearchError> {
        let p = &self.nodes[p as usize];
        if Node::<G::Position>::child_bits(n) > p.bits as u32 {
            return Err(SearchError::Unsupported {
                reason: format!(
                    "the tree is too deep and wide for the OPEN list's left-to-right order \
                     (a node at depth {} has {n} children; the sum of ceil(log2(branching)) \
                     along a path must stay within 128)",
                    p.depth
                ),
            });
        }
        Ok(())
    }

    /// Makes sure `self.moves` holds the moves of `p`.
    #[inline]
    fn moves_of(&mut self, p: u32) {
        let node = &self.nodes[p as usize];
        let id = (node.label(), node.depth);
        if self.moves_of != Some(id) {
            self.moves.clear();
            self.game.moves(&node.pos, &mut self.moves);
            self.moves_of = Some(id);
        }
    }

    /// Creates child `i` of the `n` children of `parent` (whose moves are in
    /// `self.moves`, and whose bits are checked) and links it first in the
    /// parent's live-children list.
    #[inline]
    fn child(&mut self, parent: u32, i: u32, n: u32) -> u32 {
        let p = &self.nodes[parent as usize];
        let pos = self.game.play(&p.pos, self.moves[i as usize]);
        let (label, bits) = p.child_label(i, n);
        let (depth, next) = (p.depth + 1, p.first_child);
        let role = self.game.role(&pos);
        let mut node = Node::new(pos, parent, i, depth, role, label, bits);
        node.next_sibling = next;
        let c = self.alloc(node);
        self.nodes[parent as usize].first_child = c;
        c
    }

    /// Drops the pending children of `c` from OPEN.
    #[inline]
    fn purge_batch(&mut self, c: u32) {
        let node = &self.nodes[c as usize];
        let (from, n) = (node.next_child, node.nchildren);
        if from < n {
            self.live -= (n - from) as usize;
            self.stats.open_purged += (n - from) as u64;
            if O::STEPS {
                let key = self.key(node.h);
                for i in from..n {
                    let label = self.nodes[c as usize].child_label(i, n).0;
                    let s = self.pending_state(c, i);
                    self.purged.push(((key, label), s));
                }
            }
            self.nodes[c as usize].next_child = n;
        }
    }

    /// Removes every descendant of `p` from OPEN and frees it.
    fn purge_below(&mut self, p: u32) {
        self.purge_batch(p);
        let mut stack = std::mem::take(&mut self.stack);
        stack.push(self.nodes[p as usize].first_child);
        self.nodes[p as usize].first_child = NONE;
        while let Some(mut c) = stack.pop() {
            while c != NONE {
                let node = &mut self.nodes[c as usize];
                // Lazy: the queue drops the entry when it meets it.
                if let Some((status, h)) = node.take_state() {
                    self.live -= 1;
                    self.stats.open_purged += 1;
                    if O::STEPS {
                        let key = (self.key(h), self.nodes[c as usize].label());
                        let s = self.state_of(c, status, h);
                        self.purged.push((key, s));
                    }
                }
                self.purge_batch(c);
                let node = &self.nodes[c as usize];
                if node.first_child != NONE {
                    stack.push(node.first_child);
                }
                let next = node.next_sibling;
                self.free.push(c);
                c = next;
            }
        }
        self.stack = stack;
        // Stale entries cost 32 bytes each until they surface; sweep them
        // when they outnumber the live ones four to one (and 64 Ki), which
        // keeps the sweeps amortised O(1) per push.
        if self.open.held() > 4 * self.live + (1 << 16) {
            let nodes = &self.nodes;
            self.open.compact(|e| is_live(nodes, e));
        }
    }

    /// Frees `c`, the only live child of its parent.
    fn release(&mut self, c: u32) {
        let p = self.nodes[c as usize].parent;
        self.nodes[p as usize].first_child = NONE;
        self.free.push(c);
    }

    fn note_root_child(&mut self, j: u32, h: Value) {
        let index = self.nodes[j as usize].index;
        match self.best {
            // Under the sequential role, merits only improve: a change is a new best.
            Some((_, old)) if old == h => {}
            _ => self.best = Some((index, h)),
        }
    }

    /// Pops the head of OPEN: the node, its status and merit. A batch's
    /// next child is created here, and the rest of the batch stays on top.
    #[inline]
    fn pop(&mut self) -> (u32, Status, Value) {
        let nodes = &self.nodes;
        let e = self
            .open
            .pop(|e| is_live(nodes, e))
            .expect("OPEN is never empty before the root is solved");
        self.live -= 1;
        if e.node & BATCH == 0 {
            let (status, h) = self.nodes[e.node as usize]
                .take_state()
                .expect("a node on OPEN has a state");
            return (e.node, status, h);
        }
        let p = e.node & !BATCH;
        let node = &mut self.nodes[p as usize];
        let (i, n, h) = (node.next_child, node.nchildren, node.h);
        node.next_child = i + 1;
        if i + 1 < n {
            // Still the left-most of its key: the popped child's descendants
            // will go on top of it.
            let label = node.child_label(i + 1, n).0;
            self.open.push(Entry { label, ..e });
        }
        self.moves_of(p);
        (self.child(p, i, n), Status::Live, h)
    }

    pub(crate) fn run(mut self) -> Result<Outcome<G::Move>, SearchError> {
        let pos = self.game.root();
        let role = self.game.role(&pos);
        let root = self.alloc(Node::new(pos, NONE, 0, 0, role, 0, u128::BITS));
        self.nodes[root as usize].next_sibling = NONE;
        if self.max_open == 0 {
            self.budget.finish(&mut self.stats);
            return Err(SearchError::OpenLimit {
                limit: 0,
                stats: self.stats,
            });
        }
        self.push(root, Status::Live, self.polarity.start());
        let all_role = self.polarity.all_role();
        let value = loop {
            let (j, status, h) = self.pop();
            if O::STEPS {
                self.added.clear();
                self.purged.clear();
            }
            let popped = if O::STEPS {
                Some(self.state_of(j, status, h))
            } else {
                None
            };
            let case;
            match status {
                Status::Solved if j == root => {
                    self.emit(popped, Gamma::Finish);
                    break h;
                }
                Status::Live => {
                    self.budget.visit(&mut self.stats)?;
                    let node = &self.nodes[j as usize];
                    let n = if node.depth < self.horizon {
                        self.moves_of(j);
                        self.moves.len() as u32
                    } else {
                        0
                    };
                    if n == 0 {
                        case = Gamma::Evaluate;
                        self.stats.leaf_evals += 1;
                        let v = checked(self.game.evaluate(&self.nodes[j as usize].pos))?;
                        if O::PATHS {
                            let path = self.path(j);
                            self.obs.leaf(&path, v);
                        }
                        self.push(j, Status::Solved, self.polarity.clip(h, v));
                    } else {
                        self.stats.nodes_expanded += 1;
                        let node = &mut self.nodes[j as usize];
                        node.nchildren = n;
                        node.next_child = n;
                        if node.role == all_role {
                            case = Gamma::ExpandAll;
                            self.push_batch(j, n, h)?;
                        } else {
                            case = Gamma::ExpandFirst;
                            self.check_bits(j, n)?;
                            let c = self.child(j, 0, n);
                            self.push(c, Status::Live, h);
                        }
                    }
                }
                Status::Solved => {
                    let p = self.nodes[j as usize].parent;
                    let at_root = p == root;
                    if self.nodes[p as usize].role == all_role {
                        case = Gamma::SolveParentPurge;
                        if at_root {
                            self.best = Some((self.nodes[j as usize].index, h));
                        }
                        self.purge_below(p);
                        self.push(p, Status::Solved, h);
                    } else {
                        if at_root {
                            self.note_root_child(j, h);
                        }
                        let next = self.nodes[j as usize].index + 1;
                        let n = self.nodes[p as usize].nchildren;
                        self.release(j);
                        if next == n {
                            case = Gamma::SolveParent;
                            self.push(p, Status::Solved, h);
                        } else {
                            case = Gamma::NextSibling;
                            self.moves_of(p);
                            let c = self.child(p, next, n);
                            self.push(c, Status::Live, h);
                        }
                    }
                }
            }
            self.emit(popped, case);
        };
        self.stats.passes = 1;
        self.budget.finish(&mut self.stats);
        let root_pos = self.nodes[root as usize].pos.clone();
        let best_index = self.best.map(|(i, _)| i as usize);
        let best_move = best_index.map(|i| super::alphabeta::nth_move(self.game, &root_pos, i));
        Ok(Outcome {
            value: Some(value),
            best_move,
            best_index,
            bound: None,
            stats: self.stats,
        })
    }

    fn emit(&mut self, popped: Option<State>, case: Gamma) {
        if !O::STEPS {
            return;
        }
        self.steps += 1;
        let nodes = &self.nodes;
        let mut open: Vec<((u32, u128), State)> = Vec::new();
        for e in self.open.entries().filter(|e| is_live(nodes, e)) {
            if e.node & BATCH == 0 {
                let (s, h) = self.nodes[e.node as usize].state().expect("on OPEN");
                open.push(((e.key, e.label), self.state_of(e.node, s, h)));
            } else {
                let p = e.node & !BATCH;
                let node = &self.nodes[p as usize];
                for i in node.next_child..node.nchildren {
                    let label = node.child_label(i, node.nchildren).0;
                    open.push(((e.key, label), self.pending_state(p, i)));
                }
            }
        }
        open.sort_by_key(|(k, _)| *k);
        // Purged states are listed in the order they stood on OPEN.
        let mut purged = std::mem::take(&mut self.purged);
        purged.sort_by_key(|(k, _)| *k);
        let step = Step {
            step: self.steps,
            popped: popped.expect("traced"),
            case,
            added: std::mem::take(&mut self.added),
            purged: purged.into_iter().map(|(_, s)| s).collect(),
            open: open.into_iter().map(|(_, s)| s).collect(),
        };
        self.obs.step(step);
    }
}

/// Whether a queue entry is current: a node's state not yet popped or
/// purged (nor left behind by a recycled arena slot), or a batch with
/// children still pending.
#[inline]
fn is_live<P>(nodes: &[Node<P>], e: &Entry) -> bool {
    if e.node & BATCH == 0 {
        let n = &nodes[e.node as usize];
        n.stamp == e.stamp && n.status.is_some()
    } else {
        let n = &nodes[(e.node & !BATCH) as usize];
        n.stamp == e.stamp && n.next_child < n.nchildren
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What one node of the arena costs on a random tree (`docs/performance.md`).
    #[test]
    fn node_sizes() {
        assert_eq!(std::mem::size_of::<Node<crate::RandomNode>>(), 80);
        assert_eq!(std::mem::size_of::<Entry>(), 32);
    }
}
