//! The textbook's rounds, kept as the oracle of the tests: parallel SSS\*
//! and Dual\* on `P` virtual processors with OPEN as one ordered set of
//! `(merit key, label, node)` and a node made for every state, as
//! [`sss`](super::sss) ran them before its rounds moved onto the
//! sequential SSS\*'s OPEN list. A test checks the two leaf for leaf and
//! count for count on trees full of ties.

use super::sss::Leaves;
use super::{SimError, SimOptions, SimReport};
use crate::algorithms::best_first::child_bits;
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

/// Why a node at `depth` with `n` children cannot be labelled (the oracle
/// keeps plain 128-bit labels, with no relabelling).
fn too_deep(depth: u32, n: usize) -> String {
    format!(
        "the tree is too deep and wide for the OPEN list's left-to-right order \
         (a node at depth {depth} has {n} children; the sum of ceil(log2(branching)) \
         along a path must stay within 128)"
    )
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
}

/// The search's state: the live search tree and OPEN.
pub(crate) struct Sim<'a, G: Game> {
    game: &'a G,
    dual: bool,
    horizon: u32,
    nodes: Vec<Node<G>>,
    free: Vec<u32>,
    stamps: u64,
    /// OPEN in order: (sort key, label, node); the key is `-h` for SSS\*.
    open: BTreeSet<(Value, u128, u32)>,
    /// Reused by the walks below a node, so that a step does not allocate.
    stack: Vec<u32>,
    report: SimReport,
    leaves: Option<Leaves>,
    /// The recorded leaves' values, in the same order.
    values: Vec<Value>,
    /// The root child that holds the root's merit, and that merit.
    best: Option<(u32, Value)>,
}

/// One round's states, taken off the head of OPEN: `(node, stamp, status, merit)`.
type Taken = Vec<(u32, u64, Status, Value)>;

/// The textbook's rounds: the report, the paths of the evaluated leaves in
/// order when `opts.record_leaves`, and the root's best child.
pub(crate) fn simulate_recorded<G: Game>(
    game: &G,
    dual: bool,
    opts: &SimOptions,
) -> Result<(SimReport, Option<Leaves>, Option<u32>), SimError> {
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
            return Ok((sim.report, sim.leaves, sim.best.map(|(i, _)| i)));
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
    fn new(game: &'a G, dual: bool, depth: Option<u32>, processors: usize, record_leaves: bool) -> Self {
        let root = game.root();
        let role = game.role(&root);
        let mut sim = Sim {
            game,
            dual,
            horizon: depth.unwrap_or(u32::MAX),
            nodes: Vec::new(),
            free: Vec::new(),
            stamps: 0,
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
    fn take_into(&self, p: usize, taken: &mut Taken) {
        taken.clear();
        taken.extend(self.open.iter().take(p).map(|&(_, _, n)| {
            let node = &self.nodes[n as usize];
            let (status, h) = node.state.expect("a node on OPEN has a state");
            (n, node.stamp, status, h)
        }));
    }

    /// One round: Gamma on each state of `taken` in turn (a state purged or
    /// replaced earlier in the round, or that must wait, idles its
    /// processor). The root's value once it is solved at the head of OPEN.
    fn round(&mut self, taken: &[(u32, u64, Status, Value)]) -> Result<Option<Value>, SimError> {
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
            if let Some((_, m)) = node.state
                && self.better(m, h)
            {
                found = true;
                break;
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
                    let v = checked(self.game.evaluate(&self.nodes[n as usize].pos))
                        .map_err(|e| SimError::BadGame(e.to_string()))?;
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

/// Tree `seed` of the oracle tests' family: width 2 to 6, depth 2 to 6,
/// and on even seeds leaf values in `0..4` (ties everywhere), else `0..100`.
/// Returns its spec (for messages) and the tree.
pub(crate) fn tie_tree(seed: u64) -> (String, crate::RandomTree) {
    let (w, d) = (2 + seed % 5, 2 + (seed / 5) % 5);
    let range = if seed.is_multiple_of(2) { "0..4" } else { "0..100" };
    let spec = format!("width={w},depth={d},seed={seed},range={range}");
    let tree = crate::RandomTree::new(crate::RandomSpec::parse(&spec).expect("a valid spec"));
    (spec, tree)
}
