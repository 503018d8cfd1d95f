//! NegaScout / Principal Variation Search, in MAX/MIN form, fail-soft,
//! optionally with a transposition table.
//!
//! Reinefeld (1983), after Pearl's Scout: search the first child with the
//! full window, then only *test* each later child with a null window
//! (can it beat the best so far?) and re-search it with a wider window only
//! when the test says yes. Exact values (leaves, exact table entries) are
//! never re-searched.
//!
//! # Complexity
//! Like alpha-beta: `w^⌈d/2⌉ + w^⌊d/2⌋ - 1` leaves when perfectly ordered,
//! `O(w^d)` at worst (re-searches can visit a node twice); memory `O(d)`.
//!
//! # Example
//! ```
//! use stockman::{Algorithm, ExplicitTree, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! let out = Algorithm::NegaScout.search(&tree, &SearchOptions::default()).unwrap();
//! assert_eq!(out.value, Some(3));
//! ```

use super::alphabeta::{root_entry_answers, root_has_moves, Engine};
use super::context::Stop;
use crate::game::Game;
use crate::observe::Observer;
use crate::ordering::Heuristics;
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::table::TableSize;
use crate::table::{AnyTable, NoTable, Table};
use crate::value::{Role, Value, INF};

/// [`search`], reporting to an observer.
pub(crate) fn search_observed<G: Game, O: Observer>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    let heur = &mut Heuristics::new();
    let full = (-INF, INF);
    match opts.table {
        TableSize::Megabytes(_) if game.hash(&game.root()).is_some() => run(
            Engine::new(game, opts, obs, &mut AnyTable::try_new(opts.table)?, heur),
            full,
        ),
        _ => run(Engine::new(game, opts, obs, NoTable, heur), full),
    }
}

/// NegaScout with the root window `window`, using `table` and `heur`
/// (kept by the caller across searches, as iterative deepening does).
pub(crate) fn search_kept<G: Game, O: Observer, T: Table>(
    game: &G,
    opts: &SearchOptions,
    obs: &mut O,
    table: T,
    heur: &mut Heuristics,
    window: (Value, Value),
) -> Result<Outcome<G::Move>, SearchError> {
    run(Engine::new(game, opts, obs, table, heur), window)
}

fn run<G: Game, O: Observer, T: Table>(
    mut e: Engine<'_, G, O, T>,
    window: (Value, Value),
) -> Result<Outcome<G::Move>, SearchError> {
    let root = e.cx.game.root();
    e.root_best = None;
    let g = scout(&mut e, &root, 0, window.0, window.1)?;
    e.cx.stats.passes = 1;
    let best_index = e.root_best;
    let best_move = best_index.and_then(|i| e.cx.root_move(&root, i));
    Ok(Outcome::new(Some(g), best_move, best_index, None, e.cx.finish()))
}

fn scout<G: Game, O: Observer, T: Table>(
    e: &mut Engine<'_, G, O, T>,
    pos: &G::Position,
    ply: u32,
    mut alpha: Value,
    mut beta: Value,
) -> Result<Value, Stop> {
    e.cx.visit()?;
    e.exact = false;
    if O::WINDOWS {
        e.cx.obs.window(&e.cx.path, alpha, beta);
    }
    let p = e.probe(pos, ply, &mut alpha, &mut beta);
    if let Some(v) = p.cut {
        // A root entry answers only with the move that proved its bound
        // (else the root, its window whole, is searched and finds it).
        if ply > 0 || {
            let has_moves = root_has_moves(e.cx.game, pos, e.cx.draft(0));
            root_entry_answers(e.cx.game.role(pos), &p.entry, v, alpha, beta, has_moves)
        } {
            e.exact = p.entry.lower == p.entry.upper;
            if ply == 0 && p.hint != crate::table::NO_MOVE {
                e.root_best = Some(p.hint as usize);
            }
            return Ok(v);
        }
    }
    if e.cx.at_horizon(ply) {
        return e.leaf(pos, &p);
    }
    let start = e.cx.push_moves(pos, ply);
    let n = e.cx.stack.len() - start;
    if n == 0 {
        return e.leaf(pos, &p);
    }
    e.cx.stats.nodes_expanded += 1;
    e.prefetch_children(pos, start, ply);
    let role = e.cx.game.role(pos);
    if let Some((v, i)) = e.etc_cut(pos, start, ply, role, alpha, beta) {
        e.cx.pop_moves(start);
        e.store(&p, v, alpha, beta, i as u32, role);
        return Ok(v);
    }
    let order = e.order(pos, start, p.hint, ply);
    let mut g = role.worst();
    let mut best = order.at(0);
    let mut result = Ok(());
    for k in 0..n {
        let i = order.at(k);
        if (role == Role::Max && g >= beta) || (role == Role::Min && g <= alpha) {
            break;
        }
        let child = e.cx.game.play(pos, e.cx.stack[start + i]);
        e.cx.enter(i);
        let r = if k == 0 {
            scout(e, &child, ply + 1, alpha, beta)
        } else {
            match role {
                // Test: can this child raise the best so far (`a`)?
                Role::Max => {
                    let a = alpha.max(g);
                    scout(e, &child, ply + 1, a, a + 1).and_then(|t| {
                        if t > a && t < beta && !e.exact {
                            scout(e, &child, ply + 1, t, beta)
                        } else {
                            Ok(t)
                        }
                    })
                }
                // Test: can this child lower the best so far (`b`)?
                Role::Min => {
                    let b = beta.min(g);
                    scout(e, &child, ply + 1, b - 1, b).and_then(|t| {
                        if t < b && t > alpha && !e.exact {
                            scout(e, &child, ply + 1, alpha, t)
                        } else {
                            Ok(t)
                        }
                    })
                }
            }
        };
        e.cx.leave();
        match r {
            Ok(v) => {
                if k == 0 || role.prefers(v, g) {
                    g = v;
                    best = i;
                }
            }
            Err(err) => {
                result = Err(err);
                break;
            }
        }
    }
    e.give_order(ply, order);
    if result.is_ok() {
        e.learn(pos, e.cx.stack[start + best], ply, role, g, alpha, beta);
    }
    e.cx.pop_moves(start);
    result?;
    e.exact = false;
    if ply == 0 {
        e.root_best = Some(best);
    }
    e.store(&p, g, alpha, beta, best as u32, role);
    Ok(g)
}
