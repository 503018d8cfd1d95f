//! The state a depth-first search carries: the game, counters, limits,
//! observer, the path to the current node and the move lists along it.

use crate::game::Game;
use crate::observe::Observer;
use crate::search::{checked, Budget, SearchError, SearchOptions};
use crate::stats::Stats;
use crate::value::Value;

/// Why a depth-first search stopped, boxed: the searches return it from
/// every node, and a `Result<Value, Stop>` fits in two registers where a
/// `Result<Value, SearchError>` (which carries the counters) is returned
/// through memory. `?` turns it back into a [`SearchError`].
pub(crate) type Stop = Box<SearchError>;

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
    /// The move lists of the nodes from the root to the current one, one
    /// after the other: a node's list starts where its parent's ends
    /// ([`Context::push_moves`]), so no search allocates per node.
    pub stack: Vec<G::Move>,
    /// The root's moves as this search first generated them: every visit
    /// of the root (each pass, each re-search) reads this list rather than
    /// asking the game again, so that a root move index (the table's, the
    /// one the search answers with) names the same move all search long,
    /// even for a game whose [`Game::moves`] order changes between calls.
    /// `None` until the root is first expanded.
    root_moves: Option<Vec<G::Move>>,
}

impl<'a, G: Game, O: Observer> Context<'a, G, O> {
    pub fn new(game: &'a G, opts: &SearchOptions, obs: &'a mut O) -> Self {
        Context {
            game,
            horizon: opts.limits.depth.unwrap_or(u32::MAX),
            stats: Stats::default(),
            budget: Budget::new(opts),
            obs,
            path: Vec::new(),
            stack: Vec::new(),
            root_moves: None,
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
    pub fn visit(&mut self) -> Result<(), Stop> {
        self.budget.visit(&mut self.stats).map_err(Box::new)
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

    /// Appends the moves of `pos` (below the horizon) to [`Context::stack`]
    /// and returns where they start: they are `stack[start..]`, none at a
    /// terminal. Drop them with [`Context::pop_moves`] before returning.
    #[inline]
    pub fn push_moves(&mut self, pos: &G::Position, ply: u32) -> usize {
        debug_assert!(ply < self.horizon, "ask at_horizon first");
        let start = self.stack.len();
        if ply == 0 {
            let Context {
                root_moves,
                stack,
                game,
                ..
            } = self;
            stack.extend_from_slice(Self::pinned(root_moves, *game, pos));
        } else {
            self.game.moves(pos, &mut self.stack);
        }
        start
    }

    /// Makes `moves` the root's list (a team's, shared by its threads)
    /// before the search first expands the root.
    pub fn pin_root(&mut self, moves: Vec<G::Move>) {
        debug_assert!(self.root_moves.is_none(), "the root is pinned before it is expanded");
        self.root_moves = Some(moves);
    }

    /// The root's moves, `root` being the root: the list every visit of
    /// the root reads ([`Context::push_moves`] at ply 0).
    pub fn root_moves(&mut self, root: &G::Position) -> &[G::Move] {
        Self::pinned(&mut self.root_moves, self.game, root)
    }

    fn pinned<'m>(slot: &'m mut Option<Vec<G::Move>>, game: &G, root: &G::Position) -> &'m [G::Move] {
        slot.get_or_insert_with(|| {
            let mut moves = Vec::new();
            game.moves(root, &mut moves);
            moves
        })
    }

    /// The root's move `i`, as the search's list has it (the one
    /// [`Context::push_moves`] keeps; a root never expanded is listed now).
    pub fn root_move(&mut self, root: &G::Position, i: usize) -> Option<G::Move> {
        self.root_moves(root).get(i).copied()
    }

    /// Drops the move lists from `start` on (a node's, and any left above it).
    #[inline]
    pub fn pop_moves(&mut self, start: usize) {
        self.stack.truncate(start);
    }

    /// Evaluates a leaf, counting it and telling the observer.
    #[inline]
    pub fn evaluate(&mut self, pos: &G::Position) -> Result<Value, Stop> {
        self.stats.leaf_evals += 1;
        let v = checked(self.game.evaluate(pos)).map_err(Box::new)?;
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
