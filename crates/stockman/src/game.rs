//! The game abstraction every search is generic over.

use crate::value::{Role, Value};
use std::fmt::Debug;

/// A two-player, zero-sum, perfect-information game tree rooted at one position.
///
/// Explicit trees, lazily generated random trees and real games all implement
/// this one trait; the searches know nothing else about them. The trait is
/// *copy-make*: [`Game::play`] returns the child position and leaves the parent
/// untouched, so "undo" is simply dropping the child. Positions here are small
/// (an index, a 24-byte random-tree node, two bitboards), and best-first
/// searches must keep thousands of positions alive in their OPEN list anyway.
///
/// Moves are generated in *search order*: the `i`-th move of
/// [`Game::moves`] leads to the `i`-th child, and "left-most" in SSS\*'s
/// tie-breaking means "smallest index in this order". Generation must be
/// deterministic: the same position always yields the same list. SSS\* and
/// Dual\* rely on it (they generate a node's list again for each child
/// they create); the other searches read each list once, and a list that
/// changes length between calls is reported as
/// [`SearchError::BadGame`](crate::SearchError::BadGame) where it is seen,
/// never a panic.
///
/// # Example
/// A game of "take 1 or 2 from a pile; whoever takes the last wins":
/// ```
/// use stockman::{Game, Role, Value};
///
/// struct Nim(u8);
///
/// impl Game for Nim {
///     type Position = (u8, bool); // (pile, MAX to move)
///     type Move = u8;
///     fn root(&self) -> (u8, bool) { (self.0, true) }
///     fn role(&self, p: &(u8, bool)) -> Role { if p.1 { Role::Max } else { Role::Min } }
///     fn moves(&self, p: &(u8, bool), out: &mut Vec<u8>) {
///         out.extend((1..=2).filter(|&t| t <= p.0));
///     }
///     fn play(&self, p: &(u8, bool), m: u8) -> (u8, bool) { (p.0 - m, !p.1) }
///     fn evaluate(&self, p: &(u8, bool)) -> Value {
///         // The player to move at an empty pile has lost.
///         if p.1 { -1 } else { 1 }
///     }
/// }
///
/// let out = stockman::Algorithm::Sss.search(&Nim(4), &stockman::SearchOptions::default()).unwrap();
/// assert_eq!(out.value, Some(1)); // 4 is not a multiple of 3: the first player wins
/// ```
pub trait Game {
    /// A node of the tree: everything needed to generate its moves and evaluate it.
    type Position: Clone + Debug;
    /// A move; `moves` lists them in search order.
    /// (`'static`: a parallel search hands one root list to its threads
    /// with its type erased, see [`Table`](crate::Table).)
    type Move: Copy + PartialEq + Debug + 'static;

    /// The root position of the search.
    fn root(&self) -> Self::Position;

    /// Whether MAX or MIN moves at `pos`.
    fn role(&self, pos: &Self::Position) -> Role;

    /// Appends the moves of `pos` to `out`, in search order. No move means
    /// `pos` is terminal. `out` may already hold other moves (the depth-first
    /// searches keep the move lists of a whole path in one vector): only
    /// push or extend, never clear it or read what was there.
    ///
    /// The same position should list the same moves in the same order each
    /// call. A game whose order changes between calls (one that iterates a
    /// hash set) still gets right values and best moves from the searches
    /// on one machine, on any number of threads: each reads a node's list
    /// once for as long as it works on the node (the tree-building
    /// searches, SSS\* and its relatives, keep each expanded node's list
    /// while the node lives), and a search reads the
    /// root's list once for all its passes and threads (the table's root
    /// entries and the answer name moves by their index in it; the best
    /// move so far of a search stopped by a limit is named by its child's
    /// [`Game::hash`]). What needs the same order each call: a trace's
    /// paths and a principal variation (named again from their indices
    /// after the search), a stopped search's move in a game without a
    /// hash, and the distributed schemes, whose ranks name a position by
    /// the move indices of its path.
    fn moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>);

    /// The position reached by playing `mv` at `pos` (copy-make).
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position;

    /// The static value of `pos` from MAX's point of view: exact at a terminal
    /// position, a heuristic estimate at the search horizon. Must lie in
    /// [`VALUE_MIN`](crate::VALUE_MIN)`..=`[`VALUE_MAX`](crate::VALUE_MAX).
    fn evaluate(&self, pos: &Self::Position) -> Value;

    /// A hash of `pos` for transposition tables, or `None` if the game has none.
    ///
    /// Equal positions must hash equally; distinct positions should differ.
    /// Searches that need a table (the MT family) report an error when it is
    /// missing instead of guessing.
    fn hash(&self, _pos: &Self::Position) -> Option<u64> {
        None
    }

    /// The [`Game::hash`] of the position `mv` leads to from `pos`, if the
    /// game can tell it without playing the move (an incremental key), or
    /// `None` (the default).
    ///
    /// Depth-first searches with a fixed table ask it for every move of a
    /// node they expand, before they order and search the moves, and ask the
    /// table to start loading those children's entries: by the time a child
    /// is probed its entry is usually in cache, where a probe of a large
    /// table otherwise waits on main memory at nearly every node. Must equal
    /// `self.hash(&self.play(pos, mv))`; a game whose key is not cheaper than
    /// playing the move should leave the default.
    fn child_hash(&self, _pos: &Self::Position, _mv: Self::Move) -> Option<u64> {
        None
    }

    /// Roughly how many moves are left to play from `pos` to the end of the
    /// game (Othello: its empty squares), or `None` (the default).
    ///
    /// A search to terminal positions has no remaining depth to tell a
    /// large subtree from a small one; it takes this instead where it
    /// spends work only on large subtrees
    /// ([`Enhancements::etc_min_depth`](crate::Enhancements::etc_min_depth)).
    /// Only a hint: it never decides a value or a cut-off, so a wrong one
    /// costs time, not correctness.
    fn moves_left_hint(&self, _pos: &Self::Position) -> Option<u32> {
        None
    }

    /// Bounds the game can prove on the value of `pos` without searching
    /// it, as `(lower, upper)`; by default nothing is known. Depth-first
    /// searches cut a node off when its bounds lie outside their window
    /// (Connect Four knows that nobody can win faster than the stones left
    /// allow); trees never narrow them, so the searches stay textbook there.
    fn bounds(&self, _pos: &Self::Position) -> (Value, Value) {
        (-crate::INF, crate::INF)
    }

    /// What the game can prove about the value of `pos` for a depth-first
    /// search whose window is `(alpha, beta)` (MAX's view): bounds
    /// `(lower, upper)` on the value, as [`Game::bounds`] gives them, except
    /// that the game may stop short once its answer settles the window.
    ///
    /// A game that proves its bounds by some work of its own (Othello
    /// solves its last few empty squares itself and counts stable discs)
    /// uses the window the way alpha-beta does: it may return a fail-soft
    /// bound (`lower >= beta`, or `upper <= alpha`) instead of the exact
    /// value, and skip a proof that could not reach outside the window.
    /// The searches call this, never [`Game::bounds`], on every node but
    /// the root. By default: [`Game::bounds`], whatever the window.
    fn bounds_within(&self, pos: &Self::Position, _alpha: Value, _beta: Value) -> (Value, Value) {
        self.bounds(pos)
    }

    /// A small number naming `mv` at `pos` the same wherever it is played
    /// (a column, a cell, a from-to pair), or `None` (the default: trees).
    ///
    /// The learning move-ordering heuristics ([`crate::ordering`]: history,
    /// killers) recognise moves by it; without it they change nothing.
    fn move_key(&self, _pos: &Self::Position, _mv: Self::Move) -> Option<u32> {
        None
    }

    /// A range that holds every value a search of this game can return:
    /// the known leaf range of a tree, or what the game proves at the root.
    ///
    /// Drivers that start from a window rather than from infinity (Best
    /// Node Search, MTD(bi)) start here, as their authors did: a first
    /// window of `VALUE_MIN..VALUE_MAX` costs BNS some thirty passes on a
    /// tree whose leaves lie in `2..=14`. Unlike [`Game::bounds`] it says
    /// nothing about inner nodes, so alpha-beta never cuts on it and the
    /// textbook leaf counts stay as they are. By default: the root's
    /// [`Game::bounds`], within the value range.
    fn value_range(&self) -> (Value, Value) {
        let (lo, hi) = self.bounds(&self.root());
        (lo.max(crate::VALUE_MIN), hi.min(crate::VALUE_MAX))
    }

    /// A short name for messages and reports; searches never depend on it.
    fn name(&self) -> &str {
        "game"
    }
}

/// Lets a reference to a game be searched as the game itself.
impl<G: Game + ?Sized> Game for &G {
    type Position = G::Position;
    type Move = G::Move;
    #[inline]
    fn root(&self) -> Self::Position {
        (**self).root()
    }
    #[inline]
    fn role(&self, pos: &Self::Position) -> Role {
        (**self).role(pos)
    }
    #[inline]
    fn moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>) {
        (**self).moves(pos, out)
    }
    #[inline]
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position {
        (**self).play(pos, mv)
    }
    #[inline]
    fn evaluate(&self, pos: &Self::Position) -> Value {
        (**self).evaluate(pos)
    }
    #[inline]
    fn hash(&self, pos: &Self::Position) -> Option<u64> {
        (**self).hash(pos)
    }
    #[inline]
    fn child_hash(&self, pos: &Self::Position, mv: Self::Move) -> Option<u64> {
        (**self).child_hash(pos, mv)
    }
    #[inline]
    fn moves_left_hint(&self, pos: &Self::Position) -> Option<u32> {
        (**self).moves_left_hint(pos)
    }
    #[inline]
    fn bounds(&self, pos: &Self::Position) -> (Value, Value) {
        (**self).bounds(pos)
    }
    #[inline]
    fn bounds_within(&self, pos: &Self::Position, alpha: Value, beta: Value) -> (Value, Value) {
        (**self).bounds_within(pos, alpha, beta)
    }
    #[inline]
    fn move_key(&self, pos: &Self::Position, mv: Self::Move) -> Option<u32> {
        (**self).move_key(pos, mv)
    }
    fn value_range(&self) -> (Value, Value) {
        (**self).value_range()
    }
    fn name(&self) -> &str {
        (**self).name()
    }
}

/// The [`Game`] methods of a wrapper with a `game` field that passes them
/// on unchanged: all but [`Game::moves`] and [`Game::evaluate`], which the
/// wrappers below each write (one of them their own), so that a method
/// added to the trait is forwarded by every wrapper from one place.
macro_rules! forward_to_game {
    () => {
        type Position = G::Position;
        type Move = G::Move;
        #[inline]
        fn root(&self) -> Self::Position {
            self.game.root()
        }
        #[inline]
        fn role(&self, pos: &Self::Position) -> Role {
            self.game.role(pos)
        }
        #[inline]
        fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position {
            self.game.play(pos, mv)
        }
        #[inline]
        fn hash(&self, pos: &Self::Position) -> Option<u64> {
            self.game.hash(pos)
        }
        #[inline]
        fn child_hash(&self, pos: &Self::Position, mv: Self::Move) -> Option<u64> {
            self.game.child_hash(pos, mv)
        }
        #[inline]
        fn moves_left_hint(&self, pos: &Self::Position) -> Option<u32> {
            self.game.moves_left_hint(pos)
        }
        #[inline]
        fn bounds(&self, pos: &Self::Position) -> (Value, Value) {
            self.game.bounds(pos)
        }
        #[inline]
        fn bounds_within(&self, pos: &Self::Position, alpha: Value, beta: Value) -> (Value, Value) {
            self.game.bounds_within(pos, alpha, beta)
        }
        #[inline]
        fn move_key(&self, pos: &Self::Position, mv: Self::Move) -> Option<u32> {
            self.game.move_key(pos, mv)
        }
        fn value_range(&self) -> (Value, Value) {
            self.game.value_range()
        }
        fn name(&self) -> &str {
            self.game.name()
        }
    };
}

/// Wraps a game so that every evaluation spends about `nanos` nanoseconds,
/// modelling the costly evaluation functions of real programs.
///
/// The delay is a busy wait on a monotonic clock, so it costs CPU like a real
/// evaluation function would instead of yielding the core.
#[derive(Clone, Debug)]
pub struct CostlyEval<G> {
    /// The wrapped game.
    pub game: G,
    /// Nanoseconds each evaluation spends.
    pub nanos: u64,
}

impl<G: Game> Game for CostlyEval<G> {
    forward_to_game!();
    #[inline]
    fn moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>) {
        self.game.moves(pos, out)
    }
    #[inline]
    fn evaluate(&self, pos: &Self::Position) -> Value {
        // Free with no cost to add: the run layer wraps every game, so that
        // the searches are compiled for one game type, not two.
        if self.nanos == 0 {
            return self.game.evaluate(pos);
        }
        let start = std::time::Instant::now();
        let v = self.game.evaluate(pos);
        let budget = std::time::Duration::from_nanos(self.nanos);
        while start.elapsed() < budget {
            std::hint::spin_loop();
        }
        v
    }
}

std::thread_local! {
    /// The work [`Metered`] counted on this thread.
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Wraps a game so that its positions expanded and leaves evaluated are
/// counted on the thread that does them ([`metered_work`]): how the
/// simulated ranks of [`crate::simulate::distributed`] charge each rank
/// for the work its real code did, whichever search did it.
pub(crate) struct Metered<'g, G> {
    pub(crate) game: &'g G,
}

/// The positions expanded plus leaves evaluated through [`Metered`] on
/// this thread so far.
pub(crate) fn metered_work() -> u64 {
    WORK.with(|w| w.get())
}

impl<G: Game> Game for Metered<'_, G> {
    forward_to_game!();
    #[inline]
    fn moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>) {
        WORK.with(|w| w.set(w.get() + 1));
        self.game.moves(pos, out)
    }
    #[inline]
    fn evaluate(&self, pos: &Self::Position) -> Value {
        WORK.with(|w| w.set(w.get() + 1));
        self.game.evaluate(pos)
    }
}

/// A game narrowed to its first `width` moves, in the game's own order, at
/// every position with at least `min_left` moves left
/// ([`Game::moves_left_hint`]; a game without the hint is narrowed
/// everywhere): the tree a [presearch](crate::Presearch) solves to leave its
/// best moves in the table for the full search.
///
/// Its values are those of a smaller game, estimates of the real one's: the
/// wrapped game's bounds are passed on as they are (proved for the full
/// game, they need not hold here), so nothing but its moves should be
/// trusted.
///
/// # Example
///
/// ```
/// use stockman::{Game, Narrowed, TicTacToe};
///
/// let narrow = Narrowed { game: TicTacToe::new(), width: 2, min_left: 0 };
/// let mut moves = Vec::new();
/// narrow.moves(&narrow.root(), &mut moves);
/// assert_eq!(moves.len(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct Narrowed<G> {
    /// The wrapped game.
    pub game: G,
    /// How many of a position's moves are kept (the first ones).
    pub width: usize,
    /// Positions with fewer moves left than this keep all their moves.
    pub min_left: u32,
}

impl<G: Game> Game for Narrowed<G> {
    forward_to_game!();
    #[inline]
    fn moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>) {
        let start = out.len();
        self.game.moves(pos, out);
        if out.len() - start > self.width && self.game.moves_left_hint(pos).unwrap_or(u32::MAX) >= self.min_left {
            out.truncate(start + self.width);
        }
    }
    #[inline]
    fn evaluate(&self, pos: &Self::Position) -> Value {
        self.game.evaluate(pos)
    }
}

/// A game's *tree*: the game with its transpositions unfolded, so that a
/// transposition table sees every node of the tree as its own position.
///
/// A real game's [`Game::hash`] merges transpositions: the same position
/// reached by two move orders shares one table entry, so a search with a
/// table (MT-SSS\*, MTD(f)) may reuse a bound found under one path where a
/// tree search (SSS\*) walks the other path again. That is what a game
/// program wants, but the theorems of the SSS\* family (MT-SSS\* evaluates
/// exactly SSS\*'s leaves, in the same order) are about trees. `Unfolded`
/// hashes a node by its *path* instead: the parent's key mixed with the
/// index of the move in the parent's move list, so two nodes share a key
/// only if they are the same node of the tree (or in a 64-bit collision).
/// Everything else (moves, values, bounds, move keys) is the game's own.
///
/// It also gives a table to a game of your own that has no hash (the
/// explicit and random trees hash their nodes already). It costs one extra move generation per move played (to find the
/// move's index): a tool for tests and experiments, not for play.
///
/// # Example
/// ```
/// use stockman::{Algorithm, Game, SearchOptions, TicTacToe, Unfolded};
/// let game = Unfolded(TicTacToe::from_moves("15").unwrap());
/// let (a, b) = (game.play(&game.root(), 1), game.play(&game.root(), 2));
/// assert_ne!(game.hash(&a), game.hash(&b));
/// let out = Algorithm::MtSss.search(&game, &SearchOptions::default()).unwrap();
/// assert_eq!(out.value, Some(0));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unfolded<G>(pub G);

/// A node of an [`Unfolded`] game: the game's position and the key of the
/// path from the root to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathPosition<P> {
    /// The game's position.
    pub position: P,
    /// The hash of the path from the root (the root's is a constant).
    pub path: u64,
}

/// The path key of the root of an [`Unfolded`] game.
const ROOT_PATH: u64 = 0x5353_535F_5452_4545; // "SSS_TREE" in ASCII

/// Mixes a move index into a parent's path key (splitmix64's finaliser of
/// an odd multiple of the key plus the index).
#[inline]
fn path_key(parent: u64, index: u64) -> u64 {
    let mut z = parent
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index.wrapping_add(1));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<G: Game> Game for Unfolded<G> {
    type Position = PathPosition<G::Position>;
    type Move = G::Move;
    fn root(&self) -> Self::Position {
        PathPosition {
            position: self.0.root(),
            path: ROOT_PATH,
        }
    }
    #[inline]
    fn role(&self, pos: &Self::Position) -> Role {
        self.0.role(&pos.position)
    }
    #[inline]
    fn moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>) {
        self.0.moves(&pos.position, out)
    }
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position {
        let mut moves = Vec::new();
        self.0.moves(&pos.position, &mut moves);
        // A move that is not in the list (a caller's mistake) still gets a
        // key of its own: the list's length.
        let index = moves.iter().position(|&m| m == mv).unwrap_or(moves.len());
        PathPosition {
            position: self.0.play(&pos.position, mv),
            path: path_key(pos.path, index as u64),
        }
    }
    #[inline]
    fn evaluate(&self, pos: &Self::Position) -> Value {
        self.0.evaluate(&pos.position)
    }
    /// The path's key, never the game's own hash.
    #[inline]
    fn hash(&self, pos: &Self::Position) -> Option<u64> {
        Some(pos.path)
    }
    #[inline]
    fn bounds(&self, pos: &Self::Position) -> (Value, Value) {
        self.0.bounds(&pos.position)
    }
    #[inline]
    fn move_key(&self, pos: &Self::Position, mv: Self::Move) -> Option<u32> {
        self.0.move_key(&pos.position, mv)
    }
    fn value_range(&self) -> (Value, Value) {
        self.0.value_range()
    }
    fn name(&self) -> &str {
        self.0.name()
    }
}
