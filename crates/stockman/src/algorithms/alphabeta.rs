//! Alpha-beta: fail-soft, left to right, in MAX/MIN form, optionally with a
//! transposition table.
//!
//! Knuth and Moore (1975). The same engine, run with a null window and a
//! table of lower and upper bounds, is Plaat et al.'s memory-enhanced test
//! (MT) that the MT-SSS\*, MT-Dual\*, MTD(f) and BNS drivers call pass after
//! pass, so it lives here once and is shared.
//!
//! # Complexity
//! At best (perfect ordering) `w^⌈d/2⌉ + w^⌊d/2⌋ - 1` leaves on a uniform tree
//! of width `w` and depth `d`, at worst all `w^d`; memory `O(d)` plus the table.
//!
//! # Example
//! ```
//! use stockman::{Algorithm, ExplicitTree, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let out = Algorithm::AlphaBeta.search(&tree, &SearchOptions::default()).unwrap();
//! assert_eq!(out.value, Some(3));
//! assert_eq!(out.stats.leaf_evals, 7); // 4 and 6 are cut off
//! ```

use super::context::{Context, Stop};
use crate::game::Game;
use crate::observe::Observer;
use crate::ordering::Heuristics;
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::table::{AnyTable, Entry, NoTable, Table, NO_MOVE};
use crate::value::{Role, Value, INF};

/// [`search`], reporting to an observer.
pub(crate) fn search_observed<G: Game, O: Observer>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    search_window(game, opts, -INF, INF, obs)
}

/// Alpha-beta with the window `(alpha, beta)`: the result `g` is the value if
/// `alpha < g < beta`, an upper bound if `g <= alpha`, a lower bound if `g >= beta`.
pub(crate) fn search_window<G: Game, O: Observer>(
    game: &G,
    opts: &SearchOptions,
    alpha: Value,
    beta: Value,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    let heur = &mut Heuristics::new();
    match opts.table {
        crate::TableSize::Megabytes(_) if game.hash(&game.root()).is_some() => {
            Engine::new(game, opts, obs, &mut AnyTable::try_new(opts.table)?, heur).run(alpha, beta)
        }
        _ => Engine::new(game, opts, obs, NoTable, heur).run(alpha, beta),
    }
}

/// Alpha-beta with the window `window`, using `table` and `heur` (kept by
/// the caller across searches, as iterative deepening and the engine do).
pub(crate) fn search_kept<G: Game, O: Observer, T: Table>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
    table: T,
    heur: &mut Heuristics,
    window: (Value, Value),
) -> Result<Outcome<G::Move>, SearchError> {
    Engine::new(game, opts, obs, table, heur).run(window.0, window.1)
}

/// The fail-soft alpha-beta engine, generic over its table.
pub(crate) struct Engine<'a, G: Game, O: Observer, T: Table> {
    pub cx: Context<'a, G, O>,
    pub table: T,
    /// Try the table's best move first.
    pub move_first: bool,
    /// Use the table at draft 0 (the depth limit).
    pub table_at_horizon: bool,
    /// Index of the root move that gave the root its value in the last call.
    pub root_best: Option<usize>,
    /// Whether the last value returned is exact (a leaf, or an exact table entry).
    pub exact: bool,
    /// History scores and killers, kept by the caller across searches.
    pub heur: &'a mut Heuristics,
    /// Which of them order moves, and whether to try enhanced transposition cutoffs.
    history: bool,
    killers: bool,
    etc: bool,
    etc_min_depth: u32,
    /// The children's keys while enhanced transposition cutoffs look them up.
    etc_keys: Vec<u64>,
    /// Reusable move orders, one per ply (used only when a heuristic reorders).
    orders: Vec<Vec<u32>>,
    /// (history score, move) of the moves being ordered ([`by_history`]).
    scored: Vec<(u32, u32)>,
    /// Whether the table shares work among threads (ABDADA): then a node
    /// claims itself while expanded, and puts off the moves other threads
    /// are on until its other moves are done.
    abdada: bool,
    /// Set by a node that another thread is searching, when its parent
    /// asked it to return at once in that case; the parent puts it off.
    deferred: bool,
    /// Reusable lists of put-off moves, one per ply.
    later: Vec<Vec<u32>>,
    /// Whether other threads search the same root ([`Table::syncs_root`]):
    /// then a pass looks at the root's entry now and then.
    root_sync: bool,
    /// The window the root is being searched with and the root's key
    /// (hashed once a pass), while [`Engine::search`] runs in a team (for
    /// [`Engine::root_settled`]; drivers that search below the root, like
    /// BNS, never give up).
    root_window: Option<(Value, Value, u64, Role)>,
    /// The root's value found in the table when another thread's search
    /// settled this one's window, while this one was still under way.
    superseded: Option<(Value, u32)>,
}

/// In a team (ABDADA, Lazy SMP), a search looks at the root's table entry once every this
/// many positions (a power of two), to give up a pass that another thread
/// has already answered.
const SYNC_EVERY: u64 = 1 << 10;

impl<'a, G: Game, O: Observer, T: Table> Engine<'a, G, O, T> {
    pub fn new(game: &'a G, opts: &SearchOptions, obs: &'a mut O, table: T, heur: &'a mut Heuristics) -> Self {
        let mut cx = Context::new(game, opts, obs);
        if let Some(pool) = table.node_pool() {
            // One thread of a parallel search: the node limit is the team's.
            cx.budget.share(pool);
        }
        if let Some(moves) = table.root_moves().and_then(|m| m.downcast_ref::<Vec<G::Move>>()) {
            // And so is the root's move list.
            cx.pin_root(moves.clone());
        }
        Engine {
            cx,
            move_first: opts.enhancements.table_move_first,
            table_at_horizon: opts.enhancements.table_at_horizon,
            root_best: None,
            exact: false,
            heur,
            history: opts.enhancements.history,
            killers: opts.enhancements.killers,
            etc: opts.enhancements.etc && T::ENABLED,
            etc_min_depth: opts.enhancements.etc_min_depth,
            etc_keys: Vec::new(),
            orders: Vec::new(),
            scored: Vec::new(),
            abdada: T::ENABLED && table.shares_work(),
            root_sync: T::ENABLED && table.syncs_root(),
            deferred: false,
            later: Vec::new(),
            root_window: None,
            superseded: None,
            table,
        }
    }

    /// The order to try the moves of `pos` in: the table's move first (if
    /// enabled), then, when a learning heuristic is on and the game names
    /// its moves, the killers of `ply` and the rest by history score; else
    /// the rest left to right. The moves are `cx.stack[start..]`. Give it
    /// back with [`Engine::give_order`].
    #[inline]
    pub fn order(&mut self, pos: &G::Position, start: usize, hint: u32, ply: u32) -> Order {
        let moves = &self.cx.stack[start..];
        let n = moves.len();
        let first = if self.move_first && (hint as usize) < n {
            hint as usize
        } else {
            0
        };
        let turn = self.heur.root_turn() as usize;
        if ply == 0 && turn != 0 && n > 1 {
            // A Lazy SMP helper: the table's move, then the others from
            // move `turn` on, wrapping round.
            let mut list = self.orders.first_mut().map(std::mem::take).unwrap_or_default();
            list.clear();
            if self.move_first && (hint as usize) < n {
                list.push(hint);
            }
            let start = turn % n;
            list.extend(
                (start..n)
                    .chain(0..start)
                    .map(|i| i as u32)
                    .filter(|&i| !(self.move_first && i == hint)),
            );
            return Order::Listed(list);
        }
        if !(self.history || self.killers) || self.cx.game.move_key(pos, moves[0]).is_none() {
            return Order::Plain(first);
        }
        let mut list = self
            .orders
            .get_mut(ply as usize)
            .map(std::mem::take)
            .unwrap_or_default();
        list.clear();
        let game = self.cx.game;
        let key = |i: usize| game.move_key(pos, moves[i]).unwrap_or(u32::MAX);
        if self.move_first && (hint as usize) < n {
            list.push(hint);
        }
        if self.killers {
            for k in self.heur.killers(ply).into_iter().flatten() {
                if let Some(i) = (0..n).find(|&i| key(i) == k)
                    && !list.contains(&(i as u32))
                {
                    list.push(i as u32);
                }
            }
        }
        let front = list.len();
        for i in 0..n as u32 {
            if !list[..front].contains(&i) {
                list.push(i);
            }
        }
        if self.history {
            let heur = &*self.heur;
            let mut scored = std::mem::take(&mut self.scored);
            scored.clear();
            scored.extend(list[front..].iter().map(|&i| (heur.history(key(i as usize)), i)));
            by_history(&mut scored, &mut list[front..]);
            self.scored = scored;
        }
        Order::Listed(list)
    }

    /// Returns a move order's buffer for reuse.
    #[inline]
    pub fn give_order(&mut self, ply: u32, order: Order) {
        if let Order::Listed(list) = order {
            let ply = ply as usize;
            if self.orders.len() <= ply {
                self.orders.resize_with(ply + 1, Vec::new);
            }
            self.orders[ply] = list;
        }
    }

    /// Teaches the heuristics what a searched node found: its best move
    /// `best` cut off (`g` outside the window) or was exact.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn learn(&mut self, pos: &G::Position, mv: G::Move, ply: u32, role: Role, g: Value, alpha: Value, beta: Value) {
        if !(self.history || self.killers) {
            return;
        }
        let Some(key) = self.cx.game.move_key(pos, mv) else {
            return;
        };
        let cutoff = match role {
            Role::Max => g >= beta,
            Role::Min => g <= alpha,
        };
        if cutoff && self.killers {
            self.heur.add_killer(ply, key);
        }
        if self.history && (cutoff || (alpha < g && g < beta)) {
            self.heur.reward(key, self.cx.draft(ply).min(64));
        }
    }

    /// Enhanced transposition cutoff: a child whose stored bound (at the
    /// children's draft) already refutes the window settles `pos` without
    /// searching (its moves are `cx.stack[start..]`). Returns the bound and
    /// the child's index. Only where at least
    /// [`Enhancements::etc_min_depth`](crate::Enhancements::etc_min_depth) is left below `pos`; the children's
    /// keys are all computed, and their entries asked for, before the first
    /// is probed, so that the probes wait on memory once, not once a child.
    #[inline]
    pub fn etc_cut(
        &mut self,
        pos: &G::Position,
        start: usize,
        ply: u32,
        role: Role,
        alpha: Value,
        beta: Value,
    ) -> Option<(Value, usize)> {
        if !self.etc || ply == 0 {
            return None;
        }
        let draft = self.cx.draft(ply + 1);
        if draft == 0 && !self.table_at_horizon {
            return None;
        }
        if self.etc_min_depth > 0 {
            let hint = self.cx.game.moves_left_hint(pos).unwrap_or(u32::MAX);
            let left = self.cx.draft(ply).min(hint);
            if left < self.etc_min_depth {
                return None;
            }
        }
        self.etc_keys.clear();
        for &mv in &self.cx.stack[start..] {
            let k = match self.cx.game.child_hash(pos, mv) {
                Some(k) => k,
                None => self.cx.game.hash(&self.cx.game.play(pos, mv))?,
            };
            self.table.prefetch(k);
            self.etc_keys.push(k);
        }
        for (i, &k) in self.etc_keys.iter().enumerate() {
            self.cx.stats.tt_probes += 1;
            let Some(e) = self.table.probe(k) else { continue };
            self.cx.stats.tt_hits += 1;
            if e.draft != draft {
                continue;
            }
            match role {
                Role::Max if e.lower >= beta => return Some((e.lower, i)),
                Role::Min if e.upper <= alpha => return Some((e.upper, i)),
                _ => {}
            }
        }
        None
    }

    /// Asks the table to start loading the entries of the children of
    /// `pos` (its moves are `cx.stack[start..]`), if the game can name their
    /// keys without playing the moves ([`Game::child_hash`]). The ordering
    /// and the first moves' searches then overlap the memory's latency
    /// instead of waiting for it at each child's probe.
    #[inline]
    pub fn prefetch_children(&self, pos: &G::Position, start: usize, ply: u32) {
        if !T::ENABLED || (self.cx.draft(ply + 1) == 0 && !self.table_at_horizon) {
            return;
        }
        for &mv in &self.cx.stack[start..] {
            match self.cx.game.child_hash(pos, mv) {
                Some(k) => self.table.prefetch(k),
                None => return,
            }
        }
    }

    /// One full search of the root with a window, as a one-pass outcome.
    fn run(mut self, alpha: Value, beta: Value) -> Result<Outcome<G::Move>, SearchError> {
        let root = self.cx.game.root();
        let g = self.search(&root, alpha, beta)?;
        self.cx.stats.passes = 1;
        let best_index = self.root_best;
        let best_move = best_index.and_then(|i| self.cx.root_move(&root, i));
        Ok(Outcome::new(Some(g), best_move, best_index, None, self.cx.finish()))
    }

    /// Searches the root with `(alpha, beta)`; sets `root_best`.
    pub(crate) fn search(&mut self, root: &G::Position, alpha: Value, beta: Value) -> Result<Value, Stop> {
        self.root_best = None;
        self.root_window = if self.root_sync {
            let role = self.cx.game.role(root);
            self.cx.game.hash(root).map(|key| (alpha, beta, key, role))
        } else {
            None
        };
        self.superseded = None;
        let r = self.node(root, 0, alpha, beta);
        self.root_window = None;
        match r {
            Err(_) if self.superseded.is_some() => {
                let (v, best) = self.superseded.take().unwrap_or_default();
                self.exact = false;
                self.root_best = (best != NO_MOVE).then_some(best as usize);
                Ok(v)
            }
            r => r,
        }
    }

    /// In a team (ABDADA, Lazy SMP): the root's value, if another thread's search has
    /// stored a root entry that settles this search's window (the search
    /// then has nothing left to find), with the move that proved it.
    /// Threads whose passes drift apart would otherwise each finish their
    /// own pass, and put off each other's nodes that do not answer theirs.
    /// An entry that settles the window on the root mover's side but does
    /// not name the move that proves it settles nothing (see
    /// [`root_entry_answers`]): the search goes on and finds the move.
    #[cold]
    fn root_settled(&mut self) -> Option<(Value, u32)> {
        let (alpha, beta, key, role) = self.root_window?;
        let e = self.table.probe(key)?;
        if e.draft != self.cx.draft(0) {
            return None;
        }
        let v = if e.lower == e.upper || e.lower >= beta {
            e.lower
        } else if e.upper <= alpha {
            e.upper
        } else {
            return None;
        };
        // Only asked below the root: the root has moves.
        root_entry_answers(role, &e, v, alpha, beta, true).then_some((v, e.best))
    }

    /// Looks `pos` up: either a value that settles the node, or what is
    /// needed to search it, with the window narrowed by the stored bounds.
    #[inline]
    pub fn probe(&mut self, pos: &G::Position, ply: u32, alpha: &mut Value, beta: &mut Value) -> Probe {
        let draft = self.cx.draft(ply);
        let mut p = Probe {
            key: None,
            entry: Entry::unknown(draft),
            hint: NO_MOVE,
            cut: None,
            nodes: self.cx.stats.nodes,
        };
        let use_table = T::ENABLED && (draft > 0 || self.table_at_horizon);
        if use_table {
            p.key = self.cx.game.hash(pos);
            // Start loading the entry: the game's bounds below hide the wait.
            if let Some(k) = p.key {
                self.table.prefetch(k);
            }
        }
        // What the game itself can prove about the value (nothing, for
        // trees). The root is always searched, so that it names a best move.
        if ply > 0 {
            let (lo, hi) = self.cx.game.bounds_within(pos, *alpha, *beta);
            if lo == hi {
                // The exact value: as good as an exact table entry.
                p.entry.lower = lo;
                p.entry.upper = hi;
                p.cut = Some(lo);
                return p;
            }
            if lo >= *beta {
                p.cut = Some(lo);
                return p;
            }
            if hi <= *alpha {
                p.cut = Some(hi);
                return p;
            }
            *alpha = (*alpha).max(lo);
            *beta = (*beta).min(hi);
        }
        let Some(k) = p.key else { return p };
        self.cx.stats.tt_probes += 1;
        if let Some(e) = self.table.probe(k) {
            self.cx.stats.tt_hits += 1;
            p.hint = e.best;
            if e.draft == draft {
                p.entry = e;
                if e.lower == e.upper || e.lower >= *beta {
                    p.cut = Some(e.lower);
                } else if e.upper <= *alpha {
                    p.cut = Some(e.upper);
                } else {
                    *alpha = (*alpha).max(e.lower);
                    *beta = (*beta).min(e.upper);
                }
            }
        }
        p
    }

    /// Records the result `g` of a search with window `(alpha, beta)` of a
    /// node where `role` moves, reached through move `best`.
    #[inline]
    pub fn store(&mut self, p: &Probe, g: Value, alpha: Value, beta: Value, best: u32, role: Role) {
        let Some(k) = p.key else { return };
        let mut entry = p.entry;
        if g <= alpha {
            entry.upper = g;
        } else if g >= beta {
            entry.lower = g;
        } else {
            entry.lower = g;
            entry.upper = g;
        }
        entry.best = best;
        // The move proves the mover's bound when the search reached it on
        // the mover's side; a fail the other way leaves beside it a bound
        // it did not prove (possibly another pass's, or another thread's).
        entry.best_proves = best != NO_MOVE
            && match role {
                Role::Max => g > alpha,
                Role::Min => g < beta,
            };
        // The positions visited since this node's own visit, itself included.
        entry.work = Entry::work_of(self.cx.stats.nodes - p.nodes + 1);
        self.table.store(k, entry);
        self.cx.stats.tt_stores += 1;
    }

    /// Evaluates a leaf and stores its value exactly, whatever the window.
    #[inline]
    pub fn leaf(&mut self, pos: &G::Position, p: &Probe) -> Result<Value, Stop> {
        let v = self.cx.evaluate(pos)?;
        self.store(p, v, -INF, INF, NO_MOVE, Role::Max);
        self.exact = true;
        Ok(v)
    }

    /// Searches the node `pos` at `ply` (used by drivers that work below the root, like BNS).
    pub fn node(&mut self, pos: &G::Position, ply: u32, alpha: Value, beta: Value) -> Result<Value, Stop> {
        self.node_shared(pos, ply, alpha, beta, false)
    }

    /// [`Engine::node`]; when `exclusive` (ABDADA's exclusive search of a
    /// younger brother) and another thread is expanding `pos` now, returns
    /// at once with [`Engine::deferred`] set, for the parent to come back later.
    fn node_shared(
        &mut self,
        pos: &G::Position,
        ply: u32,
        mut alpha: Value,
        mut beta: Value,
        exclusive: bool,
    ) -> Result<Value, Stop> {
        self.cx.visit()?;
        self.exact = false;
        if self.root_sync
            && ply > 0
            && self.cx.stats.nodes.is_multiple_of(SYNC_EVERY)
            && let Some(settled) = self.root_settled()
        {
            // Unwind without storing anything (the error path stores
            // nothing and releases every claim); `search` answers.
            self.superseded = Some(settled);
            return Err(Box::new(crate::search::SearchError::Stopped {
                stats: Default::default(),
                partial: Default::default(),
            }));
        }
        if O::WINDOWS {
            self.cx.obs.window(&self.cx.path, alpha, beta);
        }
        let p = self.probe(pos, ply, &mut alpha, &mut beta);
        if let Some(v) = p.cut {
            // A root entry (another thread's, or one kept between searches)
            // answers only with the move that proved its bound; without it
            // the root is searched (its window is still whole: a cut
            // narrows nothing), which finds the move.
            if ply > 0 || {
                let has_moves = root_has_moves(self.cx.game, pos, self.cx.draft(0));
                root_entry_answers(self.cx.game.role(pos), &p.entry, v, alpha, beta, has_moves)
            } {
                self.exact = p.entry.lower == p.entry.upper;
                if ply == 0 && p.hint != NO_MOVE {
                    self.root_best = Some(p.hint as usize);
                }
                return Ok(v);
            }
        }
        if self.cx.at_horizon(ply) {
            return self.leaf(pos, &p);
        }
        let draft = self.cx.draft(ply);
        // A claim names the position, its draft and, for a null-window
        // test, the test: a thread on another test is not doing this work.
        let claim = match p.key {
            Some(k) if self.abdada => Some(k ^ test_mark(alpha, beta)),
            _ => None,
        };
        if let Some(k) = claim
            && exclusive
            && self.table.busy(k, draft)
        {
            self.deferred = true;
            return Ok(0);
        }
        let start = self.cx.push_moves(pos, ply);
        let n = self.cx.stack.len() - start;
        if n == 0 {
            return self.leaf(pos, &p);
        }
        if let Some(k) = claim {
            self.table.claim(k, draft);
        }
        self.cx.stats.nodes_expanded += 1;
        self.prefetch_children(pos, start, ply);
        let role = self.cx.game.role(pos);
        if let Some((v, i)) = self.etc_cut(pos, start, ply, role, alpha, beta) {
            if let Some(k) = claim {
                self.table.release(k, draft);
            }
            self.cx.pop_moves(start);
            self.store(&p, v, alpha, beta, i as u32, role);
            return Ok(v);
        }
        let order = self.order(pos, start, p.hint, ply);
        let mut later = match claim {
            Some(_) => self.later.get_mut(ply as usize).map(std::mem::take).unwrap_or_default(),
            None => Vec::new(),
        };
        later.clear();
        let mut g = role.worst();
        let mut best = order.at(0);
        let mut searched = 0usize;
        let mut result = Ok(());
        // The moves in order, then the ones put off (searched without
        // asking: nothing is put off twice).
        let (mut k, mut j) = (0, 0);
        loop {
            let (i, excl) = if k < n {
                k += 1;
                (order.at(k - 1), claim.is_some() && k > 1)
            } else if j < later.len() {
                j += 1;
                (later[j - 1] as usize, false)
            } else {
                break;
            };
            let (a, b) = match role {
                Role::Max => {
                    if g >= beta {
                        break;
                    }
                    (alpha.max(g), beta)
                }
                Role::Min => {
                    if g <= alpha {
                        break;
                    }
                    (alpha, beta.min(g))
                }
            };
            let child = self.cx.game.play(pos, self.cx.stack[start + i]);
            self.cx.enter(i);
            let r = self.node_shared(&child, ply + 1, a, b, excl);
            self.cx.leave();
            match r {
                Ok(_) if self.deferred => {
                    self.deferred = false;
                    later.push(i as u32);
                }
                Ok(v) => {
                    if role.prefers(v, g) || searched == 0 {
                        g = v;
                        best = i;
                    }
                    searched += 1;
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.give_order(ply, order);
        if let Some(k) = claim {
            self.table.release(k, draft);
            let ply = ply as usize;
            if self.later.len() <= ply {
                self.later.resize_with(ply + 1, Vec::new);
            }
            self.later[ply] = later;
        }
        if result.is_ok() {
            self.learn(pos, self.cx.stack[start + best], ply, role, g, alpha, beta);
        }
        self.cx.pop_moves(start);
        result?;
        self.exact = false;
        if ply == 0 {
            self.root_best = Some(best);
        }
        self.store(&p, g, alpha, beta, best as u32, role);
        Ok(g)
    }
}

/// What a claim adds to a position's key for the window `(alpha, beta)`:
/// the test of a null window, nothing for a wider one (whose bounds move
/// as the search goes, while its work stays the same).
#[inline]
fn test_mark(alpha: Value, beta: Value) -> u64 {
    if i64::from(beta) - i64::from(alpha) == 1 {
        (beta as u32 as u64 | 1 << 32).wrapping_mul(0xA076_1D64_78BD_642F)
    } else {
        0
    }
}

/// The order a node tries its moves in (see [`Engine::order`]).
pub(crate) enum Order {
    /// Move `first` first, the others left to right.
    Plain(usize),
    /// An explicit list of move indices.
    Listed(Vec<u32>),
}

impl Order {
    /// The index of the `k`-th move to try.
    #[inline]
    pub fn at(&self, k: usize) -> usize {
        match self {
            Order::Plain(first) => move_at(k, *first),
            Order::Listed(list) => list[k] as usize,
        }
    }
}

/// What a table look-up found, for [`Engine::probe`].
pub(crate) struct Probe {
    /// The position's hash, if there is a table and the game hashes.
    pub key: Option<u64>,
    /// The stored entry at this draft (or an empty one).
    pub entry: Entry,
    /// The stored best move, from any draft.
    pub hint: u32,
    /// A value that settles the node without search.
    pub cut: Option<Value>,
    /// The positions visited before this node (its own visit counted), for
    /// the work of its entry.
    pub nodes: u64,
}

/// The `k`-th move to try when move `first` goes first and the rest keep their order.
#[inline]
pub(crate) fn move_at(k: usize, first: usize) -> usize {
    if k == 0 {
        first
    } else if k <= first {
        k - 1
    } else {
        k
    }
}

/// Puts `moves` in the order of `scored` (each move's history score and
/// the move, in the moves' order) sorted by descending score, equal scores
/// keeping their order: a stable sort. Not generic and never inlined, so
/// that it is compiled once, not once per game, observer and table type
/// the engine is compiled for (the sort inside the engine was 14% of the
/// command's code).
#[inline(never)]
fn by_history(scored: &mut [(u32, u32)], moves: &mut [u32]) {
    scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
    for (m, &(_, i)) in moves.iter_mut().zip(scored.iter()) {
        *m = i;
    }
}

/// The `i`-th move of `pos` (`None` only from a game whose move list
/// shrank since the search read it).
pub(crate) fn nth_move<G: Game>(game: &G, pos: &G::Position, i: usize) -> Option<G::Move> {
    let mut moves = Vec::new();
    game.moves(pos, &mut moves);
    moves.get(i).copied()
}

/// Whether a root entry that settles the window `(alpha, beta)` with the
/// value `v` may answer the root's search: when `v` fails on the side the
/// root's mover does not want (no move has to prove it: every move is worth
/// no more, at MAX), when the entry's move proves `v` ([`Entry::best_proves`]),
/// or when the root has no move to name (a root at the horizon, or without
/// moves: `has_moves` false). An entry that names no move at a root with
/// moves answers nothing, whatever its flag says: its move did not fit the
/// table ([`Entry::lost_move`]: a root of more moves than the table's slot
/// holds), or a pass that failed the other way stored none beside a bound
/// another pass proved; the root is searched and finds the move. An entry
/// whose bound on the mover's
/// side came from another pass or another thread than its move (a MAX
/// root's lower bound from a fail high, its move from a later fail low)
/// would otherwise name a move worth less than the root.
#[inline]
pub(crate) fn root_entry_answers(role: Role, e: &Entry, v: Value, alpha: Value, beta: Value, has_moves: bool) -> bool {
    let mover_side = match role {
        Role::Max => v > alpha,
        Role::Min => v < beta,
    };
    !mover_side
        || if has_moves {
            e.best != NO_MOVE && e.best_proves
        } else {
            true
        }
}

/// Whether the root `pos` is searched through its moves (it has some and
/// lies above the horizon): then only a table entry that names the move
/// proving its bound answers it ([`root_entry_answers`]). Asked only when
/// a root entry would cut, so the list it makes costs nothing on the hot path.
pub(crate) fn root_has_moves<G: Game>(game: &G, pos: &G::Position, draft: u32) -> bool {
    if draft == 0 {
        return false;
    }
    let mut moves = Vec::new();
    game.moves(pos, &mut moves);
    !moves.is_empty()
}
