//! GSEARCH: Ibaraki's generalized search (Ibaraki 1986, "Generalization of
//! Alpha-Beta and SSS\* Search Procedures", Artificial Intelligence 29), one
//! branch-and-bound framework of which alpha-beta and SSS\* are instances.
//!
//! The search keeps a partial tree whose every node carries a lower and an
//! upper bound on its minimax value: `[-inf, +inf]` at a tip not yet
//! expanded, the value at an evaluated leaf, and at an inner node the
//! bounds its children's give (the larger of each at a MAX node, the
//! smaller at a MIN node). A node also has a *window* from its ancestors'
//! other children: `alpha`, the largest lower bound of a brother at a MAX
//! ancestor, and `beta`, the smallest upper bound of a brother at a MIN
//! ancestor. A node whose interval `[max(alpha, lower), min(beta, upper)]`
//! is empty or a point cannot change the root's value any more: it is
//! *dead* (alpha-beta's cut-off, generalised to all brothers, not only the
//! elder ones). Each step takes one live tip, chosen by a [`Select`] rule,
//! and expands it (all its children become tips) or evaluates it, and the
//! bounds are brought up to date on the path to the root; the search ends
//! when the root's bounds meet. The rules:
//!
//! | rule | the tip chosen | expected leaves |
//! |---|---|---|
//! | [`leftmost`](Select::Leftmost) | the leftmost live tip | alpha-beta's |
//! | [`upper`](Select::Upper) | the largest `min(beta, upper)`, leftmost on ties | SSS\*'s, or fewer on ties |
//! | [`lower`](Select::Lower) | the smallest `max(alpha, lower)`, leftmost on ties | Dual\*'s, or fewer on ties |
//! | [`widest`](Select::Widest) | the widest interval, leftmost on ties | none of them |
//!
//! The tests (`tests/theorems.rs`) check the expectations on thousands of
//! random trees: `leftmost` is alpha-beta leaf for leaf; `upper` is SSS\*
//! leaf for leaf when no two leaves are equal, and otherwise evaluates a
//! subsequence of SSS\*'s leaves: its window prunes a node whose upper
//! bound only equals a brother's lower bound at a MAX ancestor, which SSS\*,
//! reading upper bounds alone, refines first (`lower` and Dual\* likewise).
//! `docs/guide/algorithms.md` reports the figures.
//! Only restatements of Ibaraki's paper could be read for this crate (Pijls
//! and de Bruin's 1993 framework among them); the window above and the
//! rules' tie-breaking are our reading (`docs/research/seed-systems-reading.md`).
//!
//! **Memory.** A child that dies or is solved keeps its bounds and drops
//! everything below it, so the stored tree holds the live part and one
//! layer of summaries around it. [`Stats::max_open`] reports the peak of
//! stored nodes, [`Limits::max_open`](crate::Limits::max_open) bounds it
//! (the search fails at the limit), and [`rsearch`](super::rsearch) is the
//! same search that, at its memory budget, takes the tips left to right
//! and searches the leftmost depth-first inside its window instead.
//!
//! # Complexity
//! Each leaf valued costs, under the `leftmost`, `upper` and `lower` rules,
//! whose bounds are tight, the update of the bounds that moved and a walk
//! down from the highest of them (the expansions on the way need none):
//! `O(log w)` a node of it, from a segment tree of each node's children's
//! bounds (a scan of every child made a root of 70,000 moves
//! quadratic, issue 63), and a chain or comb of any depth costs a few nodes
//! a leaf. Under `widest`, whose bounds are not tight, every node caches
//! the best tip below it and a segment tree of its children's (`widest.rs`):
//! a leaf costs the nodes whose bounds or windows it moved and the part of
//! the path that turns, `O(log w)` each, and the subtrees whose cached tip
//! a narrowed window made narrower (asked again, each the same way); a node
//! whose children's windows all narrow asks each of them (a root whose best
//! bound rises at every leaf costs `O(w)` a leaf). A 100,000-level comb
//! takes under a second (it took 108 s). Alpha-beta pays `O(1)` a leaf: GSEARCH
//! is a framework to study, not a fast search. Leaves: alpha-beta's under
//! `leftmost`; under `upper`, SSS\*'s, or fewer where leaves tie. Memory: the
//! stored tree, every child of each expanded node (as many as SSS\*'s OPEN
//! list and the nodes above it, and the dead children beside them).
//!
//! # Example
//! ```
//! use stockman::{Algorithm, ExplicitTree, Role, SearchOptions, Select};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let mut opts = SearchOptions::default();
//! for (rule, leaves) in [(Select::Leftmost, 7), (Select::Upper, 7), (Select::Lower, 7)] {
//!     opts.params.select = rule;
//!     let out = Algorithm::Gsearch.search(&tree, &opts).unwrap();
//!     assert_eq!((out.value, out.stats.leaf_evals), (Some(3), leaves));
//! }
//! ```
//!
//! [`Stats::max_open`]: crate::Stats::max_open

use super::context::{Context, Stop};
use super::kid_bounds::KidBounds;

mod widest;
use crate::game::Game;
use crate::observe::Observer;
pub use crate::options::Select;
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::value::{Role, Value, INF};

/// A node of the partial tree.
struct Node<P> {
    pos: P,
    ply: u32,
    /// Bounds on the node's minimax value.
    lo: Value,
    hi: Value,
    /// `None` until the node is expanded (a tip, or a leaf once valued).
    role: Option<Role>,
    /// Its children, once expanded (dropped again when it dies or is solved).
    kids: Vec<u32>,
    /// The children's bounds, kept up to date by [`Gsearch::update`].
    tree: KidBounds,
    /// The node's parent (`u32::MAX` at the root) and its index there:
    /// `widest` climbs from its tip to the path it keeps.
    parent: u32,
    idx: u32,
    /// `widest`'s best tip below the node and its children's (see [`widest`]).
    wide: widest::Cache,
}

impl<P> Node<P> {
    /// A tip: not expanded, nothing known of its value.
    fn is_open_tip(&self) -> bool {
        self.role.is_none() && self.kids.is_empty()
    }
}

/// What happens when an expansion would pass the memory budget.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum AtBudget {
    /// GSEARCH: the search fails with [`SearchError::OpenLimit`].
    Fail,
    /// RSEARCH: the tip is searched depth-first inside its window.
    DepthFirst,
}

/// The search, over the stored tree.
pub(crate) struct Gsearch<'a, G: Game, O: Observer> {
    cx: Context<'a, G, O>,
    rule: Select,
    nodes: Vec<Node<G::Position>>,
    free: Vec<u32>,
    /// Stored nodes now.
    live: usize,
    /// Stored nodes allowed.
    budget: usize,
    /// The rule in force: `rule`, or `leftmost` while RSEARCH's memory is
    /// full (an expansion was refused and nothing has been freed since).
    current: Select,
    at_budget: AtBudget,
    /// Reused by [`Gsearch::release_below`].
    stack: Vec<u32>,
    /// The path (child indices) to the rule's tip.
    best_path: Vec<u32>,
    best_key: i64,
    /// The nodes of `best_path` from the root to the tip, with their windows.
    best_frames: Vec<(u32, Value, Value)>,
    /// `widest`'s state along `best_path` (see [`widest`]).
    wide: widest::PathBests,
    /// Where the next walk starts, as an index into `best_frames`: the
    /// last step moved no bound above that node.
    resume: usize,
    /// The rule in force changed: the next walk starts at the root.
    restart: bool,
    /// The root's moves, kept from its one expansion (or depth-first
    /// search): the best move is an index into them, and a game may give
    /// another order if asked again.
    root_moves: Vec<G::Move>,
    /// The root's best child when the root itself was searched depth-first.
    root_best: Option<usize>,
    /// Children found dead by [`sweep`], reused.
    dead: Vec<u32>,
}

/// GSEARCH on `game` under the rule `opts.params.select`, reporting leaves
/// (and each chosen tip's window) to `obs`.
pub(crate) fn search_observed<G: Game, O: Observer>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    let budget = opts.limits.max_open;
    Gsearch::new(game, opts, obs, budget, AtBudget::Fail).run()
}

/// What a node's children's windows are made of: the node's own window and
/// the best and second-best bound of its children (lower bounds at a MAX
/// node, upper bounds at a MIN node), so that each child's window, which
/// leaves the child itself out, costs O(1) (see the module's documentation).
struct Brothers {
    role: Role,
    window: (Value, Value),
    best: Value,
    best_at: usize,
    second: Value,
}

impl Brothers {
    /// The brothers of `tree`'s children at a `role` node, in `O(1)`: the
    /// same as a scan of the children would give.
    fn from_tree(tree: &KidBounds, role: Role, window: (Value, Value)) -> Brothers {
        let s = tree.summary();
        let (best, best_at, second) = match role {
            Role::Max => s.lo_best,
            Role::Min => s.hi_best,
        };
        // A scan sets `best_at` at the first bound better than the worst.
        let best_at = if best == role.worst() { usize::MAX } else { best_at };
        Brothers {
            role,
            window,
            best,
            best_at,
            second,
        }
    }

    /// The window of every child but the one of the best bound.
    #[inline]
    fn common(&self) -> (Value, Value) {
        let (alpha, beta) = self.window;
        match self.role {
            Role::Max => (alpha.max(self.best), beta),
            Role::Min => (alpha, beta.min(self.best)),
        }
    }

    /// The window `(alpha, beta)` of child `i`.
    #[inline]
    fn window(&self, i: usize) -> (Value, Value) {
        let other = if i == self.best_at { self.second } else { self.best };
        let (alpha, beta) = self.window;
        match self.role {
            Role::Max => (alpha.max(other), beta),
            Role::Min => (alpha, beta.min(other)),
        }
    }
}

/// The rule's key of a tip (or the bound on the keys of a subtree's tips)
/// with the interval `[lower, upper]` in its window: the larger, the better.
#[inline]
fn key(rule: Select, lower: Value, upper: Value) -> i64 {
    match rule {
        Select::Leftmost => 0,
        Select::Upper => upper as i64,
        Select::Lower => -(lower as i64),
        Select::Widest => upper as i64 - lower as i64,
    }
}

/// Puts out of `tree` every child still in that is dead in its window (each
/// child goes out once: a dead child stays dead), onto `dead`.
fn sweep(tree: &mut KidBounds, brothers: &Brothers, dead: &mut Vec<u32>) {
    // The child of the best bound has a window of its own: it sits out of
    // the search over the others', which share one.
    let at = brothers.best_at;
    let at_in = at != usize::MAX && tree.get(at).2;
    if at_in {
        tree.set_in(at, false);
    }
    let (a, b) = brothers.common();
    while let Some(i) = tree.first_dead(a, b) {
        tree.set_in(i, false);
        dead.push(i as u32);
    }
    if at_in {
        let (lo, hi, _) = tree.get(at);
        let (a, b) = brothers.window(at);
        if is_live(lo, hi, a, b) {
            tree.set_in(at, true);
        } else {
            dead.push(at as u32);
        }
    }
}

/// The live child of the best key under `rule`, leftmost on ties, as
/// `(key, index, alpha, beta)`, once [`sweep`] has left only live children
/// in `tree`: what a scan of [`live_children`] would pick, in `O(log w)`.
/// Only for the tight rules (`leftmost`, `upper`, `lower`).
fn pick(tree: &mut KidBounds, brothers: &Brothers, rule: Select) -> Option<(i64, u32, Value, Value)> {
    let at = brothers.best_at;
    let at_in = at != usize::MAX && tree.get(at).2;
    if at_in {
        tree.set_in(at, false);
    }
    let (a, b) = brothers.common();
    let other = match rule {
        Select::Leftmost => tree.first_in(),
        // Under `upper` every child whose upper bound reaches the largest
        // (or beta) shares the best key; under `lower` likewise.
        Select::Upper => tree
            .in_extremes()
            .and_then(|(max_hi, _)| tree.first_in_hi_at_least(b.min(max_hi))),
        Select::Lower => tree
            .in_extremes()
            .and_then(|(_, min_lo)| tree.first_in_lo_at_most(a.max(min_lo))),
        // `widest` has no tight bound to walk by: it walks with
        // `select_widest`, never through here.
        Select::Widest => unreachable!("pick is for the tight rules"),
    };
    let mut best = other.map(|i| {
        let (lo, hi, _) = tree.get(i);
        (key(rule, a.max(lo), b.min(hi)), i as u32, a, b)
    });
    if at_in {
        tree.set_in(at, true);
        let (lo, hi, _) = tree.get(at);
        let (a, b) = brothers.window(at);
        let k = key(rule, a.max(lo), b.min(hi));
        if best.is_none_or(|(bk, bi, _, _)| k > bk || (k == bk && (at as u32) < bi)) {
            best = Some((k, at as u32, a, b));
        }
    }
    best
}

/// Whether a node with bounds `[lo, hi]` in the window `(alpha, beta)` can
/// still change the root's value.
#[inline]
fn is_live(lo: Value, hi: Value, alpha: Value, beta: Value) -> bool {
    alpha.max(lo) < beta.min(hi)
}

impl<'a, G: Game, O: Observer> Gsearch<'a, G, O> {
    pub(crate) fn new(game: &'a G, opts: &SearchOptions, obs: &'a mut O, budget: usize, at_budget: AtBudget) -> Self {
        Gsearch {
            cx: Context::new(game, opts, obs),
            rule: opts.params.select,
            current: opts.params.select,
            nodes: Vec::new(),
            free: Vec::new(),
            live: 0,
            budget,
            at_budget,
            stack: Vec::new(),
            best_path: Vec::new(),
            best_key: i64::MIN,
            best_frames: Vec::new(),
            wide: widest::PathBests::default(),
            resume: 0,
            restart: false,
            root_moves: Vec::new(),
            root_best: None,
            dead: Vec::new(),
        }
    }

    pub(crate) fn run(mut self) -> Result<Outcome<G::Move>, SearchError> {
        let root_pos = self.cx.game.root();
        let root = self.store(root_pos, 0, u32::MAX, 0);
        loop {
            let r = &self.nodes[root as usize];
            if r.lo >= r.hi {
                break;
            }
            // Under a tight rule the walk starts where the last step left
            // every bound above unmoved: down to there it would take the
            // same children in the same windows, so the path and its frames
            // are kept to there and only the rest is walked (a copy of the
            // kept part per leaf made a 100,000-level comb quadratic).
            // `widest` keeps its path's best tips to there likewise.
            let fresh = self.restart;
            let k = if fresh { 0 } else { self.resume };
            self.restart = false;
            self.best_key = i64::MIN;
            let found = if self.current == Select::Widest {
                self.select_widest(root, fresh)
            } else {
                let (n, alpha, beta) = self.best_frames.get(k).copied().unwrap_or((root, -INF, INF));
                self.best_path.truncate(k);
                self.best_frames.truncate(k);
                self.descend(n, alpha, beta)
            };
            debug_assert!(found, "an unsolved root has a live tip");
            if !found {
                return Err(SearchError::BadGame {
                    reason: "gsearch found no live tip below an unsolved root".into(),
                });
            }
            self.step().map_err(|e| *e)?;
        }
        let r = &self.nodes[root as usize];
        let value = r.lo;
        // The root's best move: the leftmost child whose bound proves the
        // value (a MAX root's child with lower bound = value, a MIN root's
        // with upper bound = value).
        // A root searched depth-first (RSEARCH with no room to expand it)
        // names the child that gave its value.
        let best_index = match r.role {
            Some(role) => r.kids.iter().position(|&k| {
                let c = &self.nodes[k as usize];
                match role {
                    Role::Max => c.lo == value,
                    Role::Min => c.hi == value,
                }
            }),
            None => self.root_best,
        };
        let best_move = best_index.and_then(|i| self.root_moves.get(i).copied());
        Ok(Outcome::new(Some(value), best_move, best_index, None, self.cx.finish()))
    }

    /// Under a tight rule, walks from `n` (window `(alpha, beta)`, at the
    /// end of `best_path`) down to the rule's tip, onto `best_path` and
    /// `best_frames`: at each node the live child of the best key, leftmost
    /// on ties, holds the tip. Under these rules a live node's bound on its
    /// tips' keys is *tight* (one of its live tips has that key: at a MIN
    /// node under `upper` every child shares the key `min(beta, upper)`, at
    /// a MAX node the child of the largest upper bound holds it), so the
    /// walk is one path (a debug assertion checks that the tip's key is the
    /// bound); under `widest` it is not ([`widest`]). A loop, so that a
    /// chain of any depth walks on no stack. Returns whether a tip was found.
    fn descend(&mut self, mut n: u32, mut alpha: Value, mut beta: Value) -> bool {
        let mut bound = None;
        loop {
            self.best_frames.push((n, alpha, beta));
            let node = &self.nodes[n as usize];
            if node.is_open_tip() {
                self.best_key = key(self.current, alpha.max(node.lo), beta.min(node.hi));
                debug_assert!(
                    bound.is_none_or(|b| b == self.best_key),
                    "{}: the bound {bound:?} is not tight",
                    self.rule
                );
                return true;
            }
            let Some(role) = node.role else { return false };
            // The children that died since the last walk here go out of the
            // tree (their subtrees wait for the next update), and the rule's
            // child is found among the rest in `O(log w)`.
            let mut tree = std::mem::take(&mut self.nodes[n as usize].tree);
            let brothers = Brothers::from_tree(&tree, role, (alpha, beta));
            let mut dead = std::mem::take(&mut self.dead);
            dead.clear();
            sweep(&mut tree, &brothers, &mut dead);
            let kids = &self.nodes[n as usize].kids;
            tree.pending.extend(
                dead.iter()
                    .filter(|&&i| !self.nodes[kids[i as usize] as usize].kids.is_empty()),
            );
            self.dead = dead;
            let pick = pick(&mut tree, &brothers, self.current);
            let node = &mut self.nodes[n as usize];
            node.tree = tree;
            let Some((key, i, a, b)) = pick else { return false };
            debug_assert!(
                bound.is_none_or(|b| b == key),
                "{}: the bound {key} is not tight",
                self.rule
            );
            bound = Some(key);
            self.best_path.push(i);
            (n, alpha, beta) = (node.kids[i as usize], a, b);
        }
    }

    /// Walks `best_path` from the root, expands or evaluates the tip at its
    /// end, and brings the bounds up to date on the way back, dropping what
    /// died below. An expansion changes no bound (its children are
    /// `[-inf, +inf]` in the tip's own window, with the tip's key under
    /// every rule, and the first is leftmost): the rule's next tip is then
    /// the first child, expanded at once without a walk from the root, so
    /// that the walks are as many as the leaves valued (one on a chain).
    fn step(&mut self) -> Result<(), Stop> {
        let path = std::mem::take(&mut self.best_path);
        let mut frames = std::mem::take(&mut self.best_frames);
        for &i in &path {
            self.cx.enter(i as usize);
        }
        let (mut n, alpha, beta) = frames.pop().expect("the walk ends at a tip");
        let mut below = 0;
        let result = loop {
            if let Err(e) = self.open(n, alpha, beta) {
                break Err(e);
            }
            let Some(&first) = self.nodes[n as usize].kids.first() else {
                break Ok(());
            };
            frames.push((n, alpha, beta));
            n = first;
            self.cx.enter(0);
            below += 1;
        };
        for _ in 0..path.len() + below {
            self.cx.leave();
        }
        let mut path = path;
        path.resize(path.len() + below, 0);
        self.best_path = path;
        result?;
        // Bounds that do not move stop moving the ones above (and no window
        // above narrows, so nothing above dies).
        self.resume = 0;
        for (j, &(m, a, b)) in frames.iter().enumerate().rev() {
            if !self.update(m, (a, b), self.best_path[j]) {
                self.resume = j;
                break;
            }
        }
        self.best_frames = frames;
        Ok(())
    }

    /// Expands or evaluates the tip `n` (window `(alpha, beta)`).
    fn open(&mut self, n: u32, alpha: Value, beta: Value) -> Result<(), Stop> {
        let ply = self.nodes[n as usize].ply;
        let pos = self.nodes[n as usize].pos.clone();
        let start = if self.cx.at_horizon(ply) {
            None
        } else {
            Some(self.cx.push_moves(&pos, ply)).filter(|&start| start < self.cx.stack.len())
        };
        if let Some(start) = start {
            let full = self.live + (self.cx.stack.len() - start) > self.budget;
            if full && self.at_budget == AtBudget::DepthFirst && self.current != Select::Leftmost {
                // Memory is full: until some is freed, the tips go left to
                // right, as alpha-beta's would, and this one waits for its
                // turn. The rule's tip may have live elder brothers up the
                // path whose lower bounds are below the values alpha-beta
                // would have taken from them, so a depth-first search in
                // its window could evaluate leaves alpha-beta skips; the
                // leftmost live tip's elder brothers are dead or solved, and
                // its window lies inside alpha-beta's (issue 63).
                self.cx.pop_moves(start);
                self.current = Select::Leftmost;
                self.restart = true;
                return Ok(());
            }
        }
        if O::WINDOWS {
            self.cx.obs.window(&self.cx.path, alpha, beta);
        }
        if let Err(e) = self.cx.visit() {
            if let Some(start) = start {
                self.cx.pop_moves(start);
            }
            return Err(e);
        }
        let Some(start) = start else {
            let v = self.cx.evaluate(&pos)?;
            let node = &mut self.nodes[n as usize];
            (node.lo, node.hi) = (v, v);
            return Ok(());
        };
        if self.live + (self.cx.stack.len() - start) > self.budget {
            if self.at_budget == AtBudget::Fail {
                self.cx.pop_moves(start);
                let limit = self.budget;
                return Err(Box::new(SearchError::OpenLimit {
                    limit,
                    stats: self.cx.finish(),
                }));
            }
            let (lo, hi) = (self.nodes[n as usize].lo, self.nodes[n as usize].hi);
            let (a, b) = (alpha.max(lo), beta.min(hi));
            // Searched once: its window only narrows from now on, and the
            // result leaves it dead or solved in it.
            self.cx.stats.passes += 1;
            let g = self.depth_first_children(&pos, ply, start, a, b)?;
            let node = &mut self.nodes[n as usize];
            if g <= a {
                node.hi = g;
            } else if g >= b {
                node.lo = g;
            } else {
                (node.lo, node.hi) = (g, g);
            }
            return Ok(());
        }
        self.cx.stats.nodes_expanded += 1;
        let role = self.cx.game.role(&pos);
        let mut kids = Vec::with_capacity(self.cx.stack.len() - start);
        for k in start..self.cx.stack.len() {
            let child = self.cx.game.play(&pos, self.cx.stack[k]);
            kids.push(self.store(child, ply + 1, n, (k - start) as u32));
        }
        if ply == 0 {
            self.root_moves = self.cx.stack[start..].to_vec();
        }
        self.cx.pop_moves(start);
        let node = &mut self.nodes[n as usize];
        node.role = Some(role);
        node.tree = KidBounds::new(kids.len(), -INF, INF);
        node.kids = kids;
        Ok(())
    }

    /// Brings node `n`'s bounds up to date from its children's, after its
    /// child `changed` moved, and drops the subtrees of children that can
    /// no longer change the root's value: those found dead now, and those a
    /// walk found dead since the last update. Returns whether the node's
    /// bounds moved.
    fn update(&mut self, n: u32, window: (Value, Value), changed: u32) -> bool {
        let node = &self.nodes[n as usize];
        let role = node.role.expect("an expanded node");
        let c = &self.nodes[node.kids[changed as usize] as usize];
        let (clo, chi) = (c.lo, c.hi);
        let mut tree = std::mem::take(&mut self.nodes[n as usize].tree);
        tree.set(changed as usize, clo, chi);
        let s = tree.summary();
        let (lo, hi) = match role {
            Role::Max => (s.lo_best.0, s.max_hi),
            Role::Min => (s.min_lo, s.hi_best.0),
        };
        let brothers = Brothers::from_tree(&tree, role, window);
        let mut dead = std::mem::take(&mut self.dead);
        dead.clear();
        dead.append(&mut tree.pending);
        sweep(&mut tree, &brothers, &mut dead);
        for &i in &dead {
            let k = self.nodes[n as usize].kids[i as usize];
            if !self.nodes[k as usize].kids.is_empty() {
                self.release_below(k);
            }
        }
        self.dead = dead;
        let node = &mut self.nodes[n as usize];
        let moved = (node.lo, node.hi) != (lo, hi);
        (node.lo, node.hi, node.tree) = (lo, hi, tree);
        moved
    }

    /// Fail-soft alpha-beta below a tip, in the natural move order: RSEARCH's
    /// search where memory has run out.
    fn depth_first(&mut self, pos: &G::Position, ply: u32, alpha: Value, beta: Value) -> Result<Value, Stop> {
        self.cx.visit()?;
        if O::WINDOWS {
            self.cx.obs.window(&self.cx.path, alpha, beta);
        }
        if self.cx.at_horizon(ply) {
            return self.cx.evaluate(pos);
        }
        let start = self.cx.push_moves(pos, ply);
        if start == self.cx.stack.len() {
            self.cx.pop_moves(start);
            return self.cx.evaluate(pos);
        }
        self.depth_first_children(pos, ply, start, alpha, beta)
    }

    /// [`Gsearch::depth_first`] over the children of `pos`, whose moves are
    /// on the context's stack from `start` (none empty); drops them.
    fn depth_first_children(
        &mut self,
        pos: &G::Position,
        ply: u32,
        start: usize,
        mut alpha: Value,
        mut beta: Value,
    ) -> Result<Value, Stop> {
        let end = self.cx.stack.len();
        self.cx.stats.nodes_expanded += 1;
        let role = self.cx.game.role(pos);
        let mut g = role.worst();
        let mut best = 0;
        for k in start..end {
            let child = self.cx.game.play(pos, self.cx.stack[k]);
            self.cx.enter(k - start);
            let r = self.depth_first(&child, ply + 1, alpha, beta);
            self.cx.leave();
            let v = match r {
                Ok(v) => v,
                Err(e) => {
                    self.cx.pop_moves(start);
                    return Err(e);
                }
            };
            let better = match role {
                Role::Max => v > g,
                Role::Min => v < g,
            };
            if better {
                (g, best) = (v, k - start);
            }
            match role {
                Role::Max => alpha = alpha.max(g),
                Role::Min => beta = beta.min(g),
            }
            if alpha >= beta {
                break;
            }
        }
        if ply == 0 {
            self.root_best = Some(best);
            self.root_moves = self.cx.stack[start..end].to_vec();
        }
        self.cx.pop_moves(start);
        Ok(g)
    }

    /// Stores a tip, child `idx` of `parent`.
    fn store(&mut self, pos: G::Position, ply: u32, parent: u32, idx: u32) -> u32 {
        self.live += 1;
        self.cx.stats.open_pushes += 1;
        self.cx.stats.max_open = self.cx.stats.max_open.max(self.live as u64);
        let node = Node {
            pos,
            ply,
            lo: -INF,
            hi: INF,
            role: None,
            kids: Vec::new(),
            tree: KidBounds::default(),
            parent,
            idx,
            wide: widest::Cache::default(),
        };
        match self.free.pop() {
            Some(i) => {
                self.nodes[i as usize] = node;
                i
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        }
    }

    /// Drops everything stored below `n` (which keeps its bounds).
    fn release_below(&mut self, n: u32) {
        let mut stack = std::mem::take(&mut self.stack);
        stack.append(&mut self.nodes[n as usize].kids);
        self.nodes[n as usize].tree = KidBounds::default();
        self.nodes[n as usize].wide = widest::Cache::default();
        if !stack.is_empty() && self.current != self.rule {
            // Memory was freed: the rule is back in force.
            self.current = self.rule;
            self.restart = true;
        }
        while let Some(k) = stack.pop() {
            stack.append(&mut self.nodes[k as usize].kids);
            self.nodes[k as usize].tree = KidBounds::default();
            self.nodes[k as usize].wide = widest::Cache::default();
            self.free.push(k);
            self.live -= 1;
            self.cx.stats.open_purged += 1;
        }
        self.stack = stack;
    }
}
