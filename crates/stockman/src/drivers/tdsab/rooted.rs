//! A game seen from another root: the sequential tests below the spread
//! start at the position a message named.

use crate::game::Game;
use crate::value::{Role, Value};

/// A game rooted at another position: the tests below the top plies.
pub(super) struct Rooted<'g, G: Game> {
    pub(super) game: &'g G,
    pub(super) root: G::Position,
}

impl<G: Game> Game for Rooted<'_, G> {
    type Position = G::Position;
    type Move = G::Move;
    fn root(&self) -> G::Position {
        self.root.clone()
    }
    fn role(&self, pos: &G::Position) -> Role {
        self.game.role(pos)
    }
    fn moves(&self, pos: &G::Position, out: &mut Vec<G::Move>) {
        self.game.moves(pos, out)
    }
    fn play(&self, pos: &G::Position, mv: G::Move) -> G::Position {
        self.game.play(pos, mv)
    }
    fn evaluate(&self, pos: &G::Position) -> Value {
        self.game.evaluate(pos)
    }
    fn hash(&self, pos: &G::Position) -> Option<u64> {
        self.game.hash(pos)
    }
    fn child_hash(&self, pos: &G::Position, mv: G::Move) -> Option<u64> {
        self.game.child_hash(pos, mv)
    }
    fn moves_left_hint(&self, pos: &G::Position) -> Option<u32> {
        self.game.moves_left_hint(pos)
    }
    fn bounds(&self, pos: &G::Position) -> (Value, Value) {
        self.game.bounds(pos)
    }
    fn bounds_within(&self, pos: &G::Position, alpha: Value, beta: Value) -> (Value, Value) {
        self.game.bounds_within(pos, alpha, beta)
    }
    fn move_key(&self, pos: &G::Position, mv: G::Move) -> Option<u32> {
        self.game.move_key(pos, mv)
    }
    fn value_range(&self) -> (Value, Value) {
        self.game.value_range()
    }
    fn name(&self) -> &str {
        self.game.name()
    }
}
