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
//! one another is comparing two integers. The low 32 bits are kept for a
//! leaf's index. A path that needs more bits (a comb of a subtree and a
//! leaf at every level: one bit a level) does not fit, and when a node's
//! children would not, the states below one of its ancestors are
//! relabelled ([`BestFirst::relabel`], module `relabel`): packed left to
//! right, each in the room it needs, with room to grow for the children
//! still to come. Left-to-right order is kept and nothing else changes; on
//! a 100,000-level comb that is about 2,000 relabellings.
//!
//! Children are not created when they are pushed. Case 3 (a LIVE node of
//! the expanding role is replaced by all its children) pushes one *batch*
//! entry that stands for all of them, and cases 2 and 6 a batch of one; a
//! child is created when it reaches the head of OPEN, and only if it is an
//! interior node: a leaf is evaluated at once and goes back on OPEN as a
//! bare entry (its parent, its label and its merit in the key), with no
//! node in the arena. Most states of SSS\* and Dual\* are leaves, so the
//! arena holds little more than the interior nodes of the current solution
//! tree. Counts, traces and the order of evaluation are those of the
//! textbook's one-state-per-node OPEN list.
//!
//! A state pushed with the key of the state just popped is the next head
//! (the queue's order of ties puts it left of every other state with that
//! key), and about nine pushes in ten are such: they skip the queue and are
//! handed straight to the next step. Two more round trips are loops in
//! `visit_child`: a leaf child of a node of the sequential role that keeps
//! its parent's merit hands the head to its next sibling, and after a leaf
//! child of a node of the expanding role whose merit changes, the batch's
//! next child is taken from the top of the queue in place. Traced searches,
//! which list OPEN after every step, keep all of them on the queue.

mod node;
mod relabel;
mod rounds;
mod trace;

pub(crate) use super::polarity::Polarity;
use node::Node;
use rounds::Ahead;
pub(crate) use rounds::{Prepared, Taken};

use super::open_queue::{ordered, unordered, Entry, OpenQueue};
use crate::game::Game;
use crate::observe::{Gamma, Observer, State, Status};
use crate::search::{checked, Budget, Outcome, SearchError, SearchOptions};
use crate::stats::Stats;
use crate::value::{Role, Value};

const NONE: u32 = u32::MAX;
/// The low bits of a label that hold a leaf child's index
/// ([`node::Node::leaf_label`]); a place in the label order is a multiple of
/// `1 << INDEX_BITS`.
pub(crate) const INDEX_BITS: u32 = 32;
/// A key no state has (merits lie within `-INF..=INF`): no push matches it.
const NO_KEY: u32 = u32::MAX;
/// The root's slot in the arena (the first node made).
const ROOT: u32 = 0;

/// Bits of label that each of `n` children needs (an only child none):
/// the left-to-right labels of this OPEN list and of the rounds'
/// ([`crate::drivers::rounds::sss`]).
#[inline]
pub(crate) fn child_bits(n: u32) -> u32 {
    if n <= 1 {
        0
    } else {
        u32::BITS - (n - 1).leading_zeros()
    }
}

/// Marks a queue entry that stands for the pending children of a node.
const BATCH: u32 = 1 << 31;
/// Marks a queue entry that is a SOLVED leaf child of a node, kept without
/// a node of its own: its index is in its label, its merit in its key.
const LEAF: u32 = 1 << 30;
const ID: u32 = LEAF - 1;

/// What the head of OPEN was.
#[derive(Clone, Copy)]
enum Head {
    /// A node's own state.
    Node(u32, Status, Value),
    /// Child `i` of a node, LIVE, not created yet.
    Pending(u32, u32, Value),
    /// Child `i` of a node, a SOLVED leaf.
    Leaf(u32, u32, Value),
}

impl Head {
    /// The node whose stamp the state's entry carries: its own, or for a
    /// child without a node (pending, or a leaf) its parent's.
    #[inline]
    fn owner(self) -> u32 {
        match self {
            Head::Node(j, ..) => j,
            Head::Pending(p, ..) | Head::Leaf(p, ..) => p,
        }
    }
}

pub(crate) struct BestFirst<'a, G: Game, O: Observer> {
    game: &'a G,
    polarity: Polarity,
    horizon: u32,
    max_open: usize,
    nodes: Vec<Node<G::Position>>,
    /// The nodes' move lists, node `j`'s `nchildren` from `Node::first`:
    /// generated once, when the node is expanded, and read for each of its
    /// children and the root's best move (a list generated again may name
    /// other moves at the same indices: a game whose order changes between
    /// calls). A list takes a range of `2^child_bits(n)` slots, one vector
    /// for all, so that a search allocates a few times, not once a node.
    lists: Vec<G::Move>,
    /// Ranges of `lists` freed with their nodes, by size class
    /// (`child_bits` of the length), for the next lists of their class.
    spare: Vec<Vec<u32>>,
    free: Vec<u32>,
    open: OpenQueue,
    /// Live states on OPEN, pending children and leaves included (the
    /// queue also holds stale, purged entries).
    live: usize,
    stamps: u64,
    /// Reused by purges, so that no step allocates.
    stack: Vec<u32>,
    /// The key of the last head popped from the queue.
    head_key: u32,
    /// A state pushed with the head's key: it would be the next head (it
    /// lies left of every other state with that key), so it skips the queue.
    /// About nine pushes in ten are such (not with traces, which list OPEN).
    carry: Option<Head>,
    stats: Stats,
    budget: Budget,
    obs: &'a mut O,
    /// The moves of a child just created, until it proves interior (then
    /// they are copied to its list).
    child_moves: Vec<G::Move>,
    /// The root child that decides the root, and its merit.
    best: Option<(u32, Value)>,
    // Trace bookkeeping (only with `O::STEPS`).
    added: Vec<State>,
    purged: Vec<((u32, u128), State)>,
    steps: u64,
    // Rounds ([`BestFirst::in_rounds`]): off for the sequential search.
    rounds: bool,
    /// Entries pushed in a round that the queue cannot take: below its
    /// floor, or at it but right of its top tie. Best first.
    side: std::collections::BinaryHeap<Ahead>,
    /// States of the round taken off OPEN and not yet stepped (still on
    /// OPEN in the textbook's count).
    held_back: usize,
    /// Whether a round's steps are being applied (the shortcuts are off).
    in_round: bool,
    /// Whether the pushes are recorded for case 4's check, and they.
    applying: bool,
    round_pushes: Vec<Entry>,
    /// The states of the round being applied, and the step at: those after
    /// it are still held, and a relabelling must keep their places.
    round_taken: Vec<Taken>,
    round_at: usize,
    /// Relabellings so far ([`Self::relabel`]); after the first, each
    /// node's last label is `last[node]` (before it, the end of the node's
    /// aligned range).
    relabels: u64,
    last: Vec<u128>,
    /// The bits of label this search has ([`relabel::label_room`]).
    room: u32,
}

impl<'a, G: Game, O: Observer> BestFirst<'a, G, O> {
    pub(crate) fn new(game: &'a G, opts: &SearchOptions, polarity: Polarity, obs: &'a mut O) -> Self {
        BestFirst {
            game,
            polarity,
            horizon: opts.limits.depth.unwrap_or(u32::MAX),
            max_open: opts.limits.max_open,
            nodes: Vec::new(),
            lists: Vec::new(),
            spare: Vec::new(),
            free: Vec::new(),
            open: OpenQueue::new(),
            live: 0,
            stamps: 0,
            stack: Vec::new(),
            head_key: NO_KEY,
            carry: None,
            stats: Stats::default(),
            budget: Budget::new(opts),
            obs,
            child_moves: Vec::new(),
            best: None,
            added: Vec::new(),
            purged: Vec::new(),
            steps: 0,
            rounds: false,
            side: std::collections::BinaryHeap::new(),
            held_back: 0,
            in_round: false,
            applying: false,
            round_pushes: Vec::new(),
            round_taken: Vec::new(),
            round_at: 0,
            relabels: 0,
            last: Vec::new(),
            room: relabel::label_room(),
        }
    }

    /// Puts an entry on OPEN. In rounds, a step may push below the key of
    /// a state taken after it, or at the queue's floor but right of its top
    /// tie (the order of ties that only the sequential search keeps): such
    /// entries wait in a small heap that [`Self::pop_any`] merges with the
    /// queue.
    #[inline]
    fn enqueue(&mut self, e: Entry) {
        if !self.rounds {
            self.open.push(e);
            return;
        }
        if self.applying {
            self.round_pushes.push(e);
        }
        if self.open.takes(&e) {
            self.open.push(e);
        } else {
            self.side.push(Ahead(e));
        }
    }

    #[inline]
    fn alloc(&mut self, node: Node<G::Position>) -> Result<u32, SearchError> {
        if let Some(i) = self.free.pop() {
            self.nodes[i as usize] = node;
            Ok(i)
        } else if self.nodes.len() < ID as usize {
            self.nodes.push(node);
            Ok((self.nodes.len() - 1) as u32)
        } else {
            Err(SearchError::Unsupported {
                reason: format!("the best-first search needs more than {ID} interior nodes at once"),
            })
        }
    }

    /// Keeps `moves` (not empty) as node `j`'s list, in a spare range of
    /// their class or at the end of `lists`.
    #[inline]
    fn keep_list(&mut self, j: u32, moves: &[G::Move]) -> Result<(), SearchError> {
        let class = child_bits(moves.len().try_into().unwrap_or(u32::MAX)) as usize;
        let first = match self.spare.get_mut(class).and_then(Vec::pop) {
            Some(first) => {
                let f = first as usize;
                self.lists[f..f + moves.len()].copy_from_slice(moves);
                first
            }
            None => {
                let f = self.lists.len();
                let end = f + (1usize << class);
                if end > u32::MAX as usize {
                    return Err(SearchError::Unsupported {
                        reason: format!("the best-first search keeps more than {} moves at once", u32::MAX),
                    });
                }
                self.lists.extend_from_slice(moves);
                self.lists.resize(end, moves[0]);
                f as u32
            }
        };
        self.nodes[j as usize].first = first;
        Ok(())
    }

    /// Frees `c` and its list, killing every entry that names it.
    #[inline]
    fn free_node(&mut self, c: u32) {
        let node = &mut self.nodes[c as usize];
        node.stamp = 0;
        if node.nchildren > 0 {
            let class = child_bits(node.nchildren) as usize;
            if self.spare.len() <= class {
                self.spare.resize_with(class + 1, Vec::new);
            }
            self.spare[class].push(node.first);
        }
        self.free.push(c);
    }

    /// The path of 0-based child indices from the root to `n`.
    fn path(&self, mut n: u32) -> Vec<u32> {
        let mut p = Vec::with_capacity(self.nodes[n as usize].depth as usize + 1);
        while self.nodes[n as usize].parent != NONE {
            p.push(self.nodes[n as usize].index);
            n = self.nodes[n as usize].parent;
        }
        p.reverse();
        p
    }

    /// The path of child `i` of `p`.
    fn child_path(&self, p: u32, i: u32) -> Vec<u32> {
        let mut path = self.path(p);
        path.push(i);
        path
    }

    fn state_of(&self, n: u32, status: Status, h: Value) -> State {
        State {
            node: self.path(n),
            status,
            h,
        }
    }

    #[inline]
    fn key(&self, h: Value) -> u32 {
        ordered(self.polarity.key(h))
    }

    /// The merit whose key is `key` (the polarity's key is its own inverse).
    #[inline]
    fn merit(&self, key: u32) -> Value {
        self.polarity.key(unordered(key))
    }

    #[inline]
    fn note_push(&mut self, n: usize) {
        self.live += n;
        self.stats.open_pushes += n as u64;
        self.stats.max_open = self.stats.max_open.max((self.live + self.held_back) as u64);
    }

    /// Puts node `n`'s state on OPEN. Only case 3 makes OPEN longer than
    /// before the step's pop, so only it checks the limit (before pushing).
    #[inline]
    fn push(&mut self, n: u32, status: Status, h: Value) {
        self.stamps += 1;
        let key = self.key(h);
        if !O::STEPS && key == self.head_key {
            debug_assert!(self.carry.is_none());
            // Popped at once: the node keeps no state, only the new stamp
            // that kills the entries of its purged children.
            self.nodes[n as usize].stamp = self.stamps;
            self.carry = Some(Head::Node(n, status, h));
            self.note_push(1);
            return;
        }
        let node = &mut self.nodes[n as usize];
        node.status = Some(status);
        node.h = h;
        node.stamp = self.stamps;
        let label = node.label();
        self.enqueue(Entry {
            label,
            stamp: self.stamps,
            key,
            node: n,
        });
        self.note_push(1);
        if O::STEPS {
            self.added.push(self.state_of(n, status, h));
        }
    }

    /// Children `from..to` of `p` go on OPEN, LIVE with merit `h`, as one
    /// batch: all of them in case 3, one in cases 2 and 6.
    #[inline]
    fn push_batch(&mut self, p: u32, from: u32, to: u32, h: Value) {
        self.stamps += 1;
        let key = self.key(h);
        let node = &mut self.nodes[p as usize];
        node.batch_end = to;
        node.h = h;
        node.stamp = self.stamps;
        if !O::STEPS && key == self.head_key {
            // What popping the batch would do: child `from` is the head,
            // the rest of the batch stays on top of OPEN.
            debug_assert!(self.carry.is_none());
            node.next_child = from + 1;
            if from + 1 < to {
                let label = node.child_label(from + 1).0;
                self.enqueue(Entry {
                    label,
                    stamp: self.stamps,
                    key,
                    node: p | BATCH,
                });
            }
            self.carry = Some(Head::Pending(p, from, h));
            self.note_push((to - from) as usize);
            return;
        }
        node.next_child = from;
        let label = node.child_label(from).0;
        self.enqueue(Entry {
            label,
            stamp: self.stamps,
            key,
            node: p | BATCH,
        });
        self.note_push((to - from) as usize);
        if O::STEPS {
            for i in from..to {
                let node = self.child_path(p, i);
                self.added.push(State {
                    node,
                    status: Status::Live,
                    h,
                });
            }
        }
    }

    /// Leaf child `i` of `p` goes on OPEN, SOLVED with merit `h`.
    #[inline]
    fn push_leaf(&mut self, p: u32, i: u32, h: Value) {
        self.push_leaf_at(p, i, h, None);
    }

    /// [`Self::push_leaf`] with the label it had, if any (a leaf a round
    /// puts back); without one, on its parent's formula (worked out only
    /// if the leaf goes on the queue).
    #[inline]
    fn push_leaf_at(&mut self, p: u32, i: u32, h: Value, label: Option<u128>) {
        let key = self.key(h);
        if !O::STEPS && key == self.head_key {
            debug_assert!(self.carry.is_none());
            self.carry = Some(Head::Leaf(p, i, h));
            self.note_push(1);
            return;
        }
        let node = &mut self.nodes[p as usize];
        node.leaves += 1;
        let stamp = node.stamp;
        let label = label.unwrap_or_else(|| node.leaf_label(i));
        self.enqueue(Entry {
            label,
            stamp,
            key,
            node: p | LEAF,
        });
        self.note_push(1);
        if O::STEPS {
            let node = self.child_path(p, i);
            self.added.push(State {
                node,
                status: Status::Solved,
                h,
            });
        }
    }

    /// Drops the pending children and the leaves of `c` from OPEN.
    #[inline]
    fn purge_children(&mut self, c: u32) {
        let node = &self.nodes[c as usize];
        let (from, to, leaves) = (node.next_child, node.batch_end, node.leaves);
        let gone = (to.saturating_sub(from) + leaves) as usize;
        if gone == 0 {
            return;
        }
        self.live -= gone;
        self.stats.open_purged += gone as u64;
        if O::STEPS {
            let key = self.key(node.h);
            for i in from..to {
                let label = self.nodes[c as usize].child_label(i).0;
                let s = State {
                    node: self.child_path(c, i),
                    status: Status::Live,
                    h: self.nodes[c as usize].h,
                };
                self.purged.push(((key, label), s));
            }
            // The leaves have no node: find their entries (traces only).
            let nodes = &self.nodes;
            let found: Vec<Entry> = self
                .open
                .entries()
                .filter(|e| e.node == c | LEAF && is_live(nodes, e))
                .copied()
                .collect();
            debug_assert_eq!(found.len(), leaves as usize);
            for e in found {
                let i = self.nodes[c as usize].child_index(e.label);
                let s = State {
                    node: self.child_path(c, i),
                    status: Status::Solved,
                    h: self.merit(e.key),
                };
                self.purged.push(((e.key, e.label), s));
            }
        }
        let node = &mut self.nodes[c as usize];
        node.next_child = node.batch_end;
        node.leaves = 0;
    }

    /// Removes every descendant of `p` from OPEN and frees it.
    fn purge_below(&mut self, p: u32) {
        self.purge_children(p);
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
                self.purge_children(c);
                let node = &self.nodes[c as usize];
                if node.first_child != NONE {
                    stack.push(node.first_child);
                }
                let next = node.next_sibling;
                self.free_node(c);
                c = next;
            }
        }
        self.stack = stack;
        // Stale entries cost 32 bytes each until they surface (or their
        // bucket is refilled); sweep them when they outnumber the live ones
        // two to one (and 16 Ki), which keeps the sweeps amortised O(1) per
        // push and OPEN's memory small enough to stay in cache (with 4 to 1
        // and 64 Ki, SSS* ran ~8% slower on w8 d8). Not when the root is
        // solved: the search is over.
        let is_root = self.nodes[p as usize].parent == NONE;
        if !is_root && self.open.held() > 2 * self.live + (1 << 14) {
            let nodes = &self.nodes;
            self.open.compact(|e| is_live(nodes, e));
            self.side.retain(|e| is_live(nodes, &e.0));
        }
    }

    fn note_root_child(&mut self, index: u32, h: Value) {
        match self.best {
            // Under the sequential role, merits only improve: a change is a new best.
            Some((_, old)) if old == h => {}
            _ => self.best = Some((index, h)),
        }
    }

    /// Pops the head of OPEN. A batch gives up its next child, and the rest
    /// of the batch stays on top.
    #[inline(always)]
    fn pop(&mut self) -> Head {
        if let Some(head) = self.carry.take() {
            self.live -= 1;
            return head;
        }
        // Between rounds ([`Self::steps`]) the side heap may hold the head.
        let e = self.pop_any().expect("OPEN is never empty before the root is solved");
        self.head_key = e.key;
        self.head_of(e)
    }

    /// Takes the best live entry of the queue and the side heap off OPEN
    /// (`None`: OPEN is empty); the heap stays empty outside rounds.
    fn pop_any(&mut self) -> Option<Entry> {
        let nodes = &self.nodes;
        while self.side.peek().is_some_and(|e| !is_live(nodes, &e.0)) {
            self.side.pop();
        }
        let Some(side) = self.side.peek() else {
            return self.open.pop(|e| is_live(nodes, e));
        };
        match self.open.peek(|e| is_live(nodes, e)) {
            Some(q) if (q.key, q.label) < (side.0.key, side.0.label) => self.open.pop(|e| is_live(nodes, e)),
            _ => self.side.pop().map(|e| e.0),
        }
    }

    /// The head that entry `e`, just taken off OPEN, stands for.
    #[inline(always)]
    fn head_of(&mut self, e: Entry) -> Head {
        self.live -= 1;
        if e.node & (BATCH | LEAF) == 0 {
            let (status, h) = self.nodes[e.node as usize]
                .take_state()
                .expect("a node on OPEN has a state");
            return Head::Node(e.node, status, h);
        }
        let p = e.node & ID;
        if e.node & LEAF != 0 {
            let node = &mut self.nodes[p as usize];
            node.leaves -= 1;
            return Head::Leaf(p, node.child_index(e.label), self.merit(e.key));
        }
        let node = &mut self.nodes[p as usize];
        let (i, h) = (node.next_child, node.h);
        node.next_child = i + 1;
        if i + 1 < node.batch_end {
            // Still the left-most of its key: the popped child's descendants
            // will go on top of it.
            let label = node.child_label(i + 1).0;
            self.enqueue(Entry { label, ..e });
        }
        Head::Pending(p, i, h)
    }

    /// Cases 2 and 3: node `j`, LIVE with merit `h` and with its `n` moves
    /// kept as its list, is replaced by its children.
    fn expand(&mut self, j: u32, n: u32, h: Value, all_role: Role) -> Result<Gamma, SearchError> {
        self.stats.nodes_expanded += 1;
        self.label_children(j, n)?;
        let node = &self.nodes[j as usize];
        if node.role == all_role {
            if self.live + n as usize > self.max_open {
                self.budget.finish(&mut self.stats);
                return Err(SearchError::OpenLimit {
                    limit: self.max_open,
                    stats: self.stats,
                });
            }
            self.push_batch(j, 0, n, h);
            Ok(Gamma::ExpandAll)
        } else {
            self.push_batch(j, 0, 1, h);
            Ok(Gamma::ExpandFirst)
        }
    }

    /// Case 1's evaluation: counts it and tells the observer the leaf's path.
    #[inline]
    fn evaluate(&mut self, pos: &G::Position, path: impl FnOnce(&Self) -> Vec<u32>) -> Result<Value, SearchError> {
        self.stats.leaf_evals += 1;
        let v = checked(self.game.evaluate(pos))?;
        Ok(self.evaluated(v, path))
    }

    /// Case 1's evaluation done (here or ahead, on another thread):
    /// counted, and the leaf's path told to the observer.
    #[inline]
    fn evaluated(&mut self, v: Value, path: impl FnOnce(&Self) -> Vec<u32>) -> Value {
        if O::PATHS {
            let path = path(self);
            self.obs.leaf(&path, v);
        }
        v
    }

    /// Child `i` of `p`, LIVE with merit `h`, reached the head: it is
    /// evaluated if it is a leaf (case 1), or created and expanded.
    ///
    /// A leaf child of a node of the sequential role that keeps the merit
    /// `h` would come straight back as the head, solve, and hand the head to
    /// its next sibling with the same merit (cases 1, 5 and the pop of the
    /// next sibling): without traces that round trip is a loop here, with
    /// the same counts and the same order of evaluation. So is a leaf child
    /// of a node of the expanding role whose merit changes: it goes behind
    /// the head, and the next pending child of the same batch, if any, is
    /// the head.
    #[inline(always)]
    fn visit_child(
        &mut self,
        p: u32,
        mut i: u32,
        h: Value,
        all_role: Role,
        prepared: &mut Option<Prepared<G::Position, G::Move>>,
    ) -> Result<Gamma, SearchError> {
        let (pos, depth, kids) = loop {
            self.budget.visit(&mut self.stats)?;
            let depth = self.nodes[p as usize].depth + 1;
            let (pos, kids, value) = match prepared.take() {
                Some(ready) => (ready.pos, ready.kids, ready.value),
                None => {
                    let pos = self.child_position(p, i);
                    let mut kids = std::mem::take(&mut self.child_moves);
                    kids.clear();
                    if depth < self.horizon {
                        self.game.moves(&pos, &mut kids);
                    }
                    (pos, kids, None)
                }
            };
            if !kids.is_empty() {
                break (pos, depth, kids);
            }
            self.child_moves = kids;
            let v = match value {
                Some(v) => {
                    self.stats.leaf_evals += 1;
                    let v = v?;
                    self.evaluated(v, |me| me.child_path(p, i))
                }
                None => self.evaluate(&pos, |me| me.child_path(p, i))?,
            };
            let merit = self.polarity.clip(h, v);
            let parent = &self.nodes[p as usize];
            let expanding = parent.role == all_role;
            if O::STEPS || self.in_round || merit != h || expanding || i + 1 == parent.nchildren {
                self.push_leaf(p, i, merit);
                // Under the expanding role a changed merit puts the leaf
                // behind the head; the next head is the batch's next child,
                // if any, on top of the queue.
                if !O::STEPS && !self.in_round && merit != h && expanding && self.take_from_batch(p) {
                    i += 1;
                    debug_assert_eq!(self.nodes[p as usize].next_child, i + 1);
                    continue;
                }
                return Ok(Gamma::Evaluate);
            }
            let at_root = parent.parent == NONE;
            // Case 1 pushes the leaf with the head's key: it is the next head.
            self.note_push(1);
            self.live -= 1;
            // Case 5: its next sibling, LIVE with the same merit, is the head after it.
            if at_root {
                self.note_root_child(i, h);
            }
            self.stamps += 1;
            let node = &mut self.nodes[p as usize];
            node.batch_end = i + 2;
            node.next_child = i + 2;
            node.stamp = self.stamps;
            self.note_push(1);
            self.live -= 1;
            i += 1;
        };
        let parent = &self.nodes[p as usize];
        let (label, bits) = parent.child_label(i);
        let role = self.game.role(&pos);
        let mut node = Node::new(pos, p, i, depth, role, label, bits);
        node.next_sibling = parent.first_child;
        let c = self.alloc(node)?;
        self.nodes[p as usize].first_child = c;
        if self.relabels > 0 {
            self.note_last(c, label, bits);
        }
        let kept = self.keep_list(c, &kids);
        let n = kids.len() as u32;
        self.child_moves = kids;
        kept?;
        self.expand(c, n, h, all_role)
    }

    /// The position of child `i` of `p` (one of its `nchildren`), played
    /// from `p`'s kept list.
    #[inline(always)]
    fn child_position(&self, p: u32, i: u32) -> G::Position {
        let node = &self.nodes[p as usize];
        debug_assert!(i < node.nchildren);
        self.game.play(&node.pos, self.lists[(node.first + i) as usize])
    }

    /// What [`BestFirst::pop`] would do if the head of OPEN is the next
    /// pending child of `p`'s batch, found on top of the queue; false (and
    /// nothing done) if it is not. The batch's entry stays on top with its
    /// next child's label (still left of every other state with its key),
    /// instead of being popped and pushed again.
    #[inline]
    fn take_from_batch(&mut self, p: u32) -> bool {
        // `pop` would hand out a carried state first: there is none here
        // (the leaf just pushed has another key than the head's).
        debug_assert!(self.carry.is_none());
        let head_key = self.head_key;
        let node = &mut self.nodes[p as usize];
        let Some(top) = self.open.top_mut() else {
            return false;
        };
        if top.node != p | BATCH || top.stamp != node.stamp || top.key != head_key || node.next_child >= node.batch_end
        {
            return false;
        }
        node.next_child += 1;
        self.live -= 1;
        if node.next_child < node.batch_end {
            top.label = node.child_label(node.next_child).0;
        } else {
            self.open.remove_top();
        }
        true
    }

    /// Cases 4, 5 and 6: child `i` of `p` is SOLVED with merit `h`; `j` is
    /// its node, if it has one.
    #[inline(always)]
    fn solved(&mut self, p: u32, i: u32, j: Option<u32>, h: Value, root: u32, all_role: Role) -> Gamma {
        let at_root = p == root;
        if self.nodes[p as usize].role == all_role {
            if at_root {
                self.best = Some((i, h));
            }
            if let Some(j) = j {
                // Already popped: it leaves with its siblings.
                debug_assert!(self.nodes[j as usize].status.is_none());
            }
            self.purge_below(p);
            self.push(p, Status::Solved, h);
            return Gamma::SolveParentPurge;
        }
        if at_root {
            self.note_root_child(i, h);
        }
        if let Some(j) = j {
            // The only created child of a node of the sequential role.
            self.nodes[p as usize].first_child = NONE;
            self.free_node(j);
        }
        let next = i + 1;
        if next == self.nodes[p as usize].nchildren {
            self.push(p, Status::Solved, h);
            Gamma::SolveParent
        } else {
            self.push_batch(p, next, next + 1, h);
            Gamma::NextSibling
        }
    }

    /// The root, LIVE with the merit that bounds nothing, on OPEN.
    fn start(&mut self) -> Result<u32, SearchError> {
        let pos = self.game.root();
        let role = self.game.role(&pos);
        let root = self.alloc(Node::new(pos, NONE, 0, 0, role, 0, self.room))?;
        debug_assert_eq!(root, ROOT);
        if self.max_open == 0 {
            self.budget.finish(&mut self.stats);
            return Err(SearchError::OpenLimit {
                limit: 0,
                stats: self.stats,
            });
        }
        self.push(root, Status::Live, self.polarity.start());
        Ok(root)
    }

    /// Gamma on `head`, which is not the root's SOLVED state; `ready`:
    /// what a pending child's step needs, worked out ahead. Always inlined
    /// into the sequential loops ([`Self::run`], [`Self::steps`]): they are
    /// the hot path.
    #[inline(always)]
    fn gamma(&mut self, head: Head, ready: &mut Option<Prepared<G::Position, G::Move>>) -> Result<Gamma, SearchError> {
        let all_role = self.polarity.expanding();
        Ok(match head {
            Head::Node(j, Status::Live, h) => {
                // The root: the only node pushed LIVE with a node of its own.
                self.budget.visit(&mut self.stats)?;
                // Popped LIVE once: its list is generated here, once.
                let mut list = std::mem::take(&mut self.child_moves);
                list.clear();
                let node = &self.nodes[j as usize];
                if node.depth < self.horizon {
                    self.game.moves(&node.pos, &mut list);
                }
                let kept = if list.is_empty() {
                    Ok(())
                } else {
                    self.keep_list(j, &list)
                };
                let n = list.len() as u32;
                self.child_moves = list;
                kept?;
                if n == 0 {
                    let pos = self.nodes[j as usize].pos.clone();
                    let v = self.evaluate(&pos, |me| me.path(j))?;
                    self.push(j, Status::Solved, self.polarity.clip(h, v));
                    Gamma::Evaluate
                } else {
                    self.expand(j, n, h, all_role)?
                }
            }
            Head::Node(j, Status::Solved, h) => {
                let node = &self.nodes[j as usize];
                let (p, i) = (node.parent, node.index);
                self.solved(p, i, Some(j), h, ROOT, all_role)
            }
            Head::Pending(p, i, h) => self.visit_child(p, i, h, all_role, ready)?,
            Head::Leaf(p, i, h) => self.solved(p, i, None, h, ROOT, all_role),
        })
    }

    pub(crate) fn run(mut self) -> Result<Outcome<G::Move>, SearchError> {
        let root = self.start()?;
        let value = loop {
            let head = self.pop();
            if O::STEPS {
                self.added.clear();
                self.purged.clear();
            }
            let popped = if O::STEPS {
                Some(match head {
                    Head::Node(j, status, h) => self.state_of(j, status, h),
                    Head::Pending(p, i, h) => State {
                        node: self.child_path(p, i),
                        status: Status::Live,
                        h,
                    },
                    Head::Leaf(p, i, h) => State {
                        node: self.child_path(p, i),
                        status: Status::Solved,
                        h,
                    },
                })
            } else {
                None
            };
            if let Head::Node(j, Status::Solved, h) = head
                && j == root
            {
                self.emit(popped, Gamma::Finish);
                break h;
            }
            let case = self.gamma(head, &mut None)?;
            self.emit(popped, case);
        };
        Ok(self.outcome(value))
    }

    /// The search's answer, once the root is solved with `value`.
    fn outcome(mut self, value: Value) -> Outcome<G::Move> {
        self.stats.passes = 1;
        self.budget.finish(&mut self.stats);
        let best_index = self.best.map(|(i, _)| i as usize);
        // From the list the root's children were played from, not one
        // generated again.
        let root = &self.nodes[ROOT as usize];
        let best_move = best_index
            .filter(|&i| i < root.nchildren as usize)
            .map(|i| self.lists[root.first as usize + i]);
        Outcome::new(Some(value), best_move, best_index, None, self.stats)
    }
}

/// Whether a queue entry is current: a node's state not yet popped or
/// purged (nor left behind by a freed or recycled arena slot), a batch with
/// children still pending, or a leaf whose parent's children were not purged.
#[inline]
fn is_live<P>(nodes: &[Node<P>], e: &Entry) -> bool {
    let n = &nodes[(e.node & ID) as usize];
    if n.stamp != e.stamp {
        return false;
    }
    if e.node & BATCH != 0 {
        n.next_child < n.batch_end
    } else if e.node & LEAF != 0 {
        true
    } else {
        n.status.is_some()
    }
}

#[cfg(test)]
pub(crate) mod tests;
