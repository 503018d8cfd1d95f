//! The Memory-enhanced Test framework (Plaat, Schaeffer, Pijls and de Bruin
//! 1996): drivers that call alpha-beta with a transposition table, pass after
//! pass, with null windows. MT-SSS\*, MT-Dual\*, MTD(f) and BNS are built on
//! the [`Driver`] here; the null-window test itself is the shared fail-soft
//! engine of [`alphabeta`](super::alphabeta), whose table stores lower and
//! upper bounds, and every leaf's value exactly.

use super::alphabeta::Engine;
use crate::game::Game;
use crate::observe::{Fail, Observer, Pass};
use crate::ordering::Heuristics;
use crate::search::{Outcome, Partial, SearchError, SearchOptions};
use crate::table::Table;
use crate::value::{Role, Value, INF};

/// A driver's state: the engine with its table, and what the passes proved.
pub(crate) struct Driver<'a, G: Game, O: Observer, T: Table> {
    pub e: Engine<'a, G, O, T>,
    pub root: G::Position,
    role: Role,
    /// Proven bounds on the root's value.
    pub lower: Value,
    pub upper: Value,
    /// The root move that holds the best value proven so far.
    pub best: Option<usize>,
}

impl<'a, G: Game, O: Observer, T: Table> Driver<'a, G, O, T> {
    pub fn new(
        game: &'a G,
        opts: &SearchOptions,
        obs: &'a mut O,
        table: T,
        heur: &'a mut Heuristics,
        name: &'static str,
    ) -> Result<Self, SearchError> {
        let root = game.root();
        if game.hash(&root).is_none() {
            return Err(SearchError::NoHash { algorithm: name });
        }
        let role = game.role(&root);
        Ok(Driver {
            e: Engine::new(game, opts, obs, table, heur),
            root,
            role,
            lower: -INF,
            upper: INF,
            best: None,
        })
    }

    /// One pass over the root with the window `(alpha, beta)`.
    pub fn test(&mut self, alpha: Value, beta: Value) -> Result<Value, SearchError> {
        let before = self.e.cx.stats.leaf_evals;
        let root = self.root.clone();
        let g = match self.e.search(&root, alpha, beta) {
            Ok(g) => g,
            Err(e) => return Err(self.stopped(*e)),
        };
        self.e.cx.stats.passes += 1;
        let fail = if g >= beta {
            self.lower = self.lower.max(g);
            Fail::High
        } else if g <= alpha {
            self.upper = self.upper.min(g);
            Fail::Low
        } else {
            self.lower = g;
            self.upper = g;
            Fail::Exact
        };
        // The root's best move is known when the pass proved the root's own
        // side can reach `g`: a fail high at MAX, a fail low at MIN.
        let proves = matches!(
            (self.role, fail),
            (_, Fail::Exact) | (Role::Max, Fail::High) | (Role::Min, Fail::Low)
        );
        if proves && self.e.root_best.is_some() {
            self.best = self.e.root_best;
        }
        if O::STEPS {
            let pass = Pass {
                pass: self.e.cx.stats.passes,
                alpha,
                beta,
                result: g,
                fail,
                lower: self.lower,
                upper: self.upper,
                leaf_evals: self.e.cx.stats.leaf_evals - before,
                better_count: None,
            };
            self.e.cx.obs.pass(pass);
        }
        Ok(g)
    }

    /// A limit error with what the passes so far have proved: the bounds
    /// (within the game's value range) and the move of the last pass that
    /// proved the bound on the root mover's side.
    pub fn stopped(&mut self, e: SearchError) -> SearchError {
        let game = self.e.cx.game;
        let (lo, hi) = game.value_range();
        let best_child = self
            .best
            .and_then(|i| self.e.cx.root_move(&self.root, i))
            .and_then(|mv| game.hash(&game.play(&self.root, mv)));
        e.proving(Partial {
            lower: self.lower.max(lo),
            upper: self.upper.min(hi),
            best_index: self.best,
            best_child,
        })
    }

    /// Makes sure a best move is known for the root's value `v`: if no pass
    /// proved the root's side can reach it (every pass failed the other way,
    /// or none was needed), one more null-window pass at `v` does.
    pub fn prove_best(&mut self, v: Value) -> Result<(), SearchError> {
        if self.best.is_none() {
            match self.role {
                Role::Max => self.test(v - 1, v)?,
                Role::Min => self.test(v, v + 1)?,
            };
        }
        Ok(())
    }

    /// The outcome of a driver that found `value`.
    pub fn finish(mut self, value: Option<Value>, bound: Option<(Value, Value)>) -> Outcome<G::Move> {
        let best_index = self.best;
        let best_move = best_index.and_then(|i| self.e.cx.root_move(&self.root, i));
        Outcome::new(value, best_move, best_index, bound, self.e.cx.finish())
    }
}
