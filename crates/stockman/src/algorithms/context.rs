//! The state a depth-first search carries: the game, counters, limits,
//! observer, the path to the current node and reusable move buffers.

use crate::game::Game;
use crate::observe::Observer;
use crate::search::{checked, Budget, SearchError, SearchOptions};
use crate::stats::Stats;
use crate::value::Value;

/// Shared machinery of the depth-first searches.
pub(crate) struct Context<'a, G: Game, O: Observer> {
    pub game: &'a G,
    /// Plies to the horizon (`u32::MAX`: none).
    pub horizon: u32,
    pub stats: Stats,
    pub budget: Budget,
    pub obs: &'a mut O,
    /// 0-based child indices from the root to the current node (kept only if `O::PATHS`).
    pub path: Vec<u32>,
    /// One move list per ply, reused so that no search allocates per node.
    buffers: Vec<Vec<G::Move>>,
}

impl<'a, G: Game, O: Observer> Context<'a, G, O> {
    pub fn new(game: &'a G, opts: &SearchOptions, obs: &'a mut O) -> Self {
        Context {
            game,
            horizon: opts.depth.unwrap_or(u32::MAX),
            stats: Stats::default(),
            budget: Budget::new(opts),
            obs,
            path: Vec::new(),
            buffers: Vec::new(),
        }
    }

    /// The draft (remaining depth) at `ply`, as the table records it.
    #[inline]
    pub fn draft(&self, ply: u32) -> u32 {
        if self.horizon == u32::MAX {
            u32::MAX
        } else {
            self.horizon - ply
        }
    }

    /// Counts a visited position against the limits.
    #[inline]
    pub fn visit(&mut self) -> Result<(), SearchError> {
        self.budget.visit(&mut self.stats)
    }

    /// Whether `ply` is at the horizon, where a node is a leaf whatever its
    /// moves; counts it as a horizon node if so. Every search asks this
    /// before [`Context::moves`], so that no move list is built at leaves.
    #[inline]
    pub fn at_horizon(&mut self, ply: u32) -> bool {
        let at = ply >= self.horizon;
        if at {
            self.stats.horizon_nodes += 1;
        }
        at
    }

    /// The moves at `pos` (below the horizon), empty at a terminal.
    /// Give the list back with [`Context::give_back`].
    #[inline]
    pub fn moves(&mut self, pos: &G::Position, ply: u32) -> Vec<G::Move> {
        debug_assert!(ply < self.horizon, "ask at_horizon first");
        let mut list = if (ply as usize) < self.buffers.len() {
            std::mem::take(&mut self.buffers[ply as usize])
        } else {
            Vec::new()
        };
        list.clear();
        self.game.moves(pos, &mut list);
        list
    }

    /// Returns a move list to the pool of `ply`.
    #[inline]
    pub fn give_back(&mut self, ply: u32, list: Vec<G::Move>) {
        let ply = ply as usize;
        if ply >= self.buffers.len() {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        self.buffers[ply] = list;
    }

    /// Evaluates a leaf, counting it and telling the observer.
    #[inline]
    pub fn evaluate(&mut self, pos: &G::Position) -> Result<Value, SearchError> {
        self.stats.leaf_evals += 1;
        let v = checked(self.game.evaluate(pos))?;
        if O::PATHS {
            self.obs.leaf(&self.path, v);
        }
        Ok(v)
    }

    #[inline]
    pub fn enter(&mut self, i: usize) {
        if O::PATHS {
            self.path.push(i as u32);
        }
    }

    #[inline]
    pub fn leave(&mut self) {
        if O::PATHS {
            self.path.pop();
        }
    }

    /// Stamps the time and hands back the counters.
    pub fn finish(&mut self) -> Stats {
        self.budget.finish(&mut self.stats);
        self.stats
    }
}
