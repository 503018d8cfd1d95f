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

/// A node of the arena.
struct Node<P> {
    pos: P,
    parent: u32,
    /// Index among the parent's children.
    index: u32,
    /// Number of children, once the node has been expanded.
    nchildren: u32,
    /// Live children, as a singly linked list.
    first_child: u32,
    next_sibling: u32,
    depth: u32,
    role: Role,
    /// The node's left-to-right label: its child indices, high bits first.
    label: u128,
    /// Low bits of `label` still free for descendants.
    bits: u32,
    /// The node's state while it is on OPEN, and the stamp of that push.
    state: Option<(Status, Value)>,
    stamp: u64,
}

pub(crate) struct BestFirst<'a, G: Game, O: Observer> {
    game: &'a G,
    polarity: Polarity,
    horizon: u32,
    max_open: usize,
    nodes: Vec<Node<G::Position>>,
    free: Vec<u32>,
    open: OpenQueue,
    /// Live states on OPEN (the queue also holds stale, purged ones).
    live: usize,
    stamps: u64,
    /// Reused by purges, so that no step allocates.
    stack: Vec<u32>,
    kids: Vec<u32>,
    stats: Stats,
    budget: Budget,
    obs: &'a mut O,
    moves: Vec<G::Move>,
    /// The root child that decides the root, and its merit.
    best: Option<(u32, Value)>,
    // Trace bookkeeping (only with `O::STEPS`).
    added: Vec<State>,
    purged: Vec<State>,
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
            kids: Vec::new(),
            stats: Stats::default(),
            budget: Budget::new(opts),
            obs,
            moves: Vec::new(),
            best: None,
            added: Vec::new(),
            purged: Vec::new(),
            steps: 0,
        }
    }

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

    fn push(&mut self, n: u32, status: Status, h: Value) -> Result<(), SearchError> {
        if self.live >= self.max_open {
            self.budget.finish(&mut self.stats);
            return Err(SearchError::OpenLimit {
                limit: self.max_open,
                stats: self.stats,
            });
        }
        self.stamps += 1;
        let node = &mut self.nodes[n as usize];
        node.state = Some((status, h));
        node.stamp = self.stamps;
        self.open.push(Entry {
            label: node.label,
            stamp: self.stamps,
            key: ordered(self.polarity.key(h)),
            node: n,
        });
        self.live += 1;
        self.stats.open_pushes += 1;
        self.stats.max_open = self.stats.max_open.max(self.live as u64);
        if O::STEPS {
            self.added.push(self.state_of(n, status, h));
        }
        Ok(())
    }

    /// Creates child `i` of `parent` (whose moves are in `self.moves`) and links it first
    /// in the parent's live-children list.
    fn child(&mut self, parent: u32, i: u32, n: u32) -> Result<u32, SearchError> {
        let p = &self.nodes[parent as usize];
        let pos = self.game.play(&p.pos, self.moves[i as usize]);
        // Child i of n appends i in ceil(log2 n) bits; an only child shares
        // its parent's label, so chains of any length cost nothing.
        let (label, bits) = if n == 1 {
            (p.label, p.bits)
        } else {
            let need = u32::BITS - (n - 1).leading_zeros();
            if need > p.bits {
                return Err(SearchError::Unsupported {
                    reason: format!(
                        "the tree is too deep and wide for the OPEN list's left-to-right order \
                         (a node at depth {} has {n} children; the sum of ceil(log2(branching)) \
                         along a path must stay within 128)",
                        p.depth
                    ),
                });
            }
            let bits = p.bits - need;
            (p.label | (i as u128) << bits, bits)
        };
        let (depth, next) = (p.depth + 1, p.first_child);
        let role = self.game.role(&pos);
        let c = self.alloc(Node {
            pos,
            parent,
            index: i,
            nchildren: 0,
            first_child: NONE,
            next_sibling: next,
            depth,
            role,
            label,
            bits,
            state: None,
            stamp: 0,
        });
        self.nodes[parent as usize].first_child = c;
        Ok(c)
    }

    /// Removes every descendant of `p` from OPEN and frees it.
    fn purge_below(&mut self, p: u32) {
        let mut stack = std::mem::take(&mut self.stack);
        stack.push(self.nodes[p as usize].first_child);
        self.nodes[p as usize].first_child = NONE;
        while let Some(mut c) = stack.pop() {
            while c != NONE {
                let node = &mut self.nodes[c as usize];
                // Lazy: the queue drops the entry when it meets it.
                if let Some((status, h)) = node.state.take() {
                    self.live -= 1;
                    self.stats.open_purged += 1;
                    if O::STEPS {
                        let s = self.state_of(c, status, h);
                        self.purged.push(s);
                    }
                }
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
        if self.open.held() > 2 * self.live + 1024 {
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

    pub(crate) fn run(mut self) -> Result<Outcome<G::Move>, SearchError> {
        let pos = self.game.root();
        let role = self.game.role(&pos);
        let root = self.alloc(Node {
            pos,
            parent: NONE,
            index: 0,
            nchildren: 0,
            first_child: NONE,
            next_sibling: NONE,
            depth: 0,
            role,
            label: 0,
            bits: u128::BITS,
            state: None,
            stamp: 0,
        });
        self.push(root, Status::Live, self.polarity.start())?;
        let all_role = self.polarity.all_role();
        let value = loop {
            let nodes = &self.nodes;
            let j = self
                .open
                .pop(|e| is_live(nodes, e))
                .expect("OPEN is never empty before the root is solved")
                .node;
            self.live -= 1;
            let (status, h) = self.nodes[j as usize].state.take().expect("a node on OPEN has a state");
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
                    self.moves.clear();
                    if node.depth < self.horizon {
                        self.game.moves(&node.pos, &mut self.moves);
                    }
                    let n = self.moves.len() as u32;
                    if n == 0 {
                        case = Gamma::Evaluate;
                        self.stats.leaf_evals += 1;
                        let v = checked(self.game.evaluate(&self.nodes[j as usize].pos))?;
                        if O::PATHS {
                            let path = self.path(j);
                            self.obs.leaf(&path, v);
                        }
                        self.push(j, Status::Solved, self.polarity.clip(h, v))?;
                    } else {
                        self.stats.nodes_expanded += 1;
                        self.nodes[j as usize].nchildren = n;
                        if self.nodes[j as usize].role == all_role {
                            case = Gamma::ExpandAll;
                            if self.live + n as usize > self.max_open {
                                self.budget.finish(&mut self.stats);
                                return Err(SearchError::OpenLimit {
                                    limit: self.max_open,
                                    stats: self.stats,
                                });
                            }
                            // Link right to left so the live-children list reads left to right.
                            let mut kids = std::mem::take(&mut self.kids);
                            kids.clear();
                            for i in (0..n).rev() {
                                kids.push(self.child(j, i, n)?);
                            }
                            // Pushed right to left, so the left-most tie is on top of OPEN.
                            for &c in &kids {
                                self.push(c, Status::Live, h)?;
                            }
                            self.kids = kids;
                            if O::STEPS {
                                self.added.reverse();
                            }
                        } else {
                            case = Gamma::ExpandFirst;
                            let c = self.child(j, 0, n)?;
                            self.push(c, Status::Live, h)?;
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
                        self.push(p, Status::Solved, h)?;
                    } else {
                        if at_root {
                            self.note_root_child(j, h);
                        }
                        let next = self.nodes[j as usize].index + 1;
                        let n = self.nodes[p as usize].nchildren;
                        self.release(j);
                        if next == n {
                            case = Gamma::SolveParent;
                            self.push(p, Status::Solved, h)?;
                        } else {
                            case = Gamma::NextSibling;
                            self.moves.clear();
                            self.game.moves(&self.nodes[p as usize].pos, &mut self.moves);
                            let c = self.child(p, next, n)?;
                            self.push(c, Status::Live, h)?;
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
        let mut live: Vec<&Entry> = self.open.entries().filter(|e| is_live(nodes, e)).collect();
        live.sort_by_key(|e| (e.key, e.label));
        let open = live
            .into_iter()
            .map(|e| {
                let (s, h) = self.nodes[e.node as usize].state.expect("on OPEN");
                self.state_of(e.node, s, h)
            })
            .collect();
        let step = Step {
            step: self.steps,
            popped: popped.expect("traced"),
            case,
            added: std::mem::take(&mut self.added),
            purged: std::mem::take(&mut self.purged),
            open,
        };
        self.obs.step(step);
    }
}

/// Whether a queue entry is the current state of its node (not popped,
/// purged, or left behind by a recycled arena slot).
#[inline]
fn is_live<P>(nodes: &[Node<P>], e: &Entry) -> bool {
    let n = &nodes[e.node as usize];
    n.stamp == e.stamp && n.state.is_some()
}
