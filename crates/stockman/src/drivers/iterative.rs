//! Iterative deepening: search to depth 1, 2, 3, ... with any depth-first
//! algorithm, keeping one transposition table across the iterations.
//!
//! One table serves every iteration, so with
//! [`Enhancements::table_move_first`](crate::Enhancements::table_move_first) each iteration tries the previous
//! one's best moves first (its principal variation comes first), and MTD(f)
//! starts from the previous iteration's value. [`SearchOptions::engine`]
//! turns on what a game-playing program uses. Deepening stops at `opts.depth`, or,
//! without a depth limit, after the first iteration in which no position was
//! cut off by the depth limit (the whole tree was seen).
//!
//! The search is *anytime*: when the node or time limit stops an iteration,
//! the answer is the last completed iteration's value and best move, with
//! [`Outcome::depth_completed`] saying which and [`Outcome::stopped_by`] the
//! limit (the counters include the unfinished iteration). Only a limit that
//! stops the first iteration is an error. An unfinished iteration's passes
//! are thrown away whole, so no partial MTD(f) bound leaks into the answer.
//!
//! # Complexity
//! The sum of the iterations; on trees of width `w` the last one dominates
//! (about `w/(w-1)` of a single search), and better ordering usually makes
//! the whole cheaper than one deep search.
//!
//! # Example
//! ```
//! use stockman::{Algorithm, ConnectFour, Enhancements, Limits, SearchOptions, TableSize};
//! let game = ConnectFour::from_moves("4453").unwrap().with_heuristic();
//! let opts = SearchOptions { limits: Limits::to_depth(6), table: TableSize::Megabytes(4), enhancements: Enhancements { table_move_first: true, ..Default::default() }, ..Default::default() };
//! let deep = Algorithm::Mtdf.with_options(&opts).deepen().run(&game).unwrap();
//! let flat = Algorithm::AlphaBeta.search(&game, &opts).unwrap();
//! assert_eq!(deep.value, flat.value);
//! ```

use crate::algorithms::Algorithm;
use crate::game::Game;
#[cfg(test)]
use crate::observe::NoObserver;
use crate::observe::{Iteration, Observer};
use crate::options::{Limits, Params};
use crate::ordering::Heuristics;
use crate::search::{Limit, Outcome, Research, SearchError, SearchOptions};
use crate::stats::Stats;
use crate::table::principal_variation;
#[cfg(test)]
use crate::table::AnyTable;
use crate::table::Table;
use crate::value::{Role, Value, INF};

#[cfg(test)]
/// Iterative deepening with `algo` (a depth-first algorithm).
pub(crate) fn search<G: Game>(
    game: &G,
    algo: Algorithm,
    opts: &SearchOptions,
) -> Result<Outcome<G::Move>, SearchError> {
    search_observed(game, algo, opts, &mut NoObserver)
}

#[cfg(test)]
/// [`search`], reporting every iteration's leaves and passes to an observer.
pub(crate) fn search_observed<G: Game, O: Observer>(
    game: &G,
    algo: Algorithm,
    opts: &SearchOptions,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError> {
    // Deepening needs a table to carry the move ordering: the one asked for.
    search_in(game, algo, opts, obs, &mut AnyTable::try_new(opts.table)?)
}

#[cfg(test)]
/// [`search_observed`] with a table the caller keeps (and clears when it likes).
pub(crate) fn search_in<G: Game, O: Observer, T: Table>(
    game: &G,
    algo: Algorithm,
    opts: &SearchOptions,
    obs: &mut O,
    table: &mut T,
) -> Result<Outcome<G::Move>, SearchError> {
    search_kept(game, algo, opts, obs, table, &mut Heuristics::new())
}

/// [`search_in`] with move-ordering heuristics (history, killers) the
/// caller keeps too: the [`Engine`](crate::Engine) keeps both across the
/// moves of a game.
pub(crate) fn search_kept<G: Game, O: Observer, T: Table>(
    game: &G,
    algo: Algorithm,
    opts: &SearchOptions,
    obs: &mut O,
    table: &mut T,
    heur: &mut Heuristics,
) -> Result<Outcome<G::Move>, SearchError> {
    deepen(game, algo, opts, obs, heur, |o, obs, heur, previous| {
        let out = iteration(game, algo, o, obs, &mut *table, heur, previous)?;
        Ok(with_pv::<G, O, _>(game, &mut *table, o, out))
    })
}

/// Iterative deepening with `step` searching each iteration (given its
/// options, with the depth, first guess and what is left of the limits;
/// and the previous iteration's value): one thread's search through one
/// table, or several threads' ([`lazy_smp`](super::lazy_smp)). `step`
/// also returns the iteration's principal variation when the observer
/// listens to iterations ([`Observer::ITERATIONS`]), or nothing.
pub(crate) fn deepen<G: Game, O: Observer>(
    game: &G,
    algo: Algorithm,
    opts: &SearchOptions,
    obs: &mut O,
    heur: &mut Heuristics,
    mut step: impl FnMut(
        &SearchOptions,
        &mut O,
        &mut Heuristics,
        Option<Value>,
    ) -> Result<(Outcome<G::Move>, Vec<u32>), SearchError>,
) -> Result<Outcome<G::Move>, SearchError> {
    if algo.is_best_first() {
        return Err(SearchError::Unsupported {
            reason: format!("iterative deepening drives depth-first searches; {algo} is best-first"),
        });
    }
    let start = std::time::Instant::now();
    let mut total = Stats::default();
    let mut guess = opts.params.first_guess;
    let mut bns_first = opts.params.bns_first_test;
    let root_role = game.role(&game.root());
    let mut last: Option<Outcome<G::Move>> = None;
    // Depth 0 asks for the root's static value: one iteration at depth 0.
    let mut depth = if opts.limits.depth == Some(0) { 0 } else { 1 };
    loop {
        let o = SearchOptions {
            limits: Limits {
                depth: Some(depth),
                nodes: opts.limits.nodes.map(|n| n.saturating_sub(total.nodes)),
                time: opts.limits.time.map(|t| t.saturating_sub(start.elapsed())),
                ..opts.limits
            },
            params: Params {
                first_guess: guess,
                bns_first_test: bns_first,
                ..opts.params
            },
            ..opts.clone()
        };
        let previous = last.as_ref().and_then(|l| l.value);
        let (out, pv) = match step(&o, obs, heur, previous) {
            Ok(done) => done,
            Err(e) => {
                // A limit names the caller's limit (not what was left of it
                // for this iteration) and counts every iteration.
                let e = e.for_caller(opts, total);
                return match (last, e.limit()) {
                    // Anytime: the last completed iteration's answer.
                    (Some(done), Some(limit)) => Ok(Outcome {
                        stats: *e.stats().expect("a limit error carries stats"),
                        stopped_by: Some(limit),
                        ..done
                    }),
                    _ => Err(e),
                };
            }
        };
        total += out.stats;
        if let Some(v) = out.value {
            guess = v;
        }
        // Best Node Search proves a bound, not a value: its next iteration
        // first tests the side of the bound it proved for the root's player
        // (`value >= alpha` for MAX, `value < beta` for MIN).
        if let (None, Some((lo, hi))) = (out.value, out.bound) {
            bns_first = Some(match root_role {
                Role::Max => lo,
                Role::Min => hi,
            });
        }
        let done = match opts.limits.depth {
            Some(max) => depth >= max,
            None => out.stats.horizon_nodes == 0,
        };
        let mut out = Outcome {
            depth_completed: Some(depth),
            stats: total,
            ..out
        };
        out.stats.time_us = start.elapsed().as_micros() as u64;
        if O::ITERATIONS {
            obs.iteration(&Iteration {
                depth,
                value: out.value,
                bound: out.bound,
                pv,
                stats: out.stats,
                time_us: out.stats.time_us,
            });
        }
        if done {
            return Ok(out);
        }
        // A game program's budget: no iteration starts after the soft
        // limit, since it would most likely be cut off unfinished.
        if let Some(soft) = opts.limits.soft_time
            && start.elapsed() >= soft
        {
            return Ok(Outcome {
                stopped_by: Some(Limit::Time(soft)),
                ..out
            });
        }
        last = Some(out);
        depth += 1;
    }
}

/// An iteration's answer with its principal variation from `table`, when
/// the observer listens to iterations (else an empty one, for free).
pub(crate) fn with_pv<G: Game, O: Observer, T: Table>(
    game: &G,
    table: &mut T,
    o: &SearchOptions,
    out: Outcome<G::Move>,
) -> (Outcome<G::Move>, Vec<u32>) {
    let pv = if O::ITERATIONS {
        principal_variation(game, table, out.best_index, o.limits.depth.unwrap_or(0) as usize)
    } else {
        Vec::new()
    };
    (out, pv)
}

/// One iteration. Alpha-beta and NegaScout with an aspiration width first
/// search a window around the previous iteration's value and, if the value
/// falls outside it, again as [`Enhancements::aspiration_research`](crate::Enhancements::aspiration_research) says:
/// the failing side only, from the first search's fail-soft bound, or the
/// full window (the counters add up; each search is a pass).
pub(crate) fn iteration<G: Game, O: Observer, T: Table>(
    game: &G,
    algo: Algorithm,
    o: &SearchOptions,
    obs: &mut O,
    table: &mut T,
    heur: &mut Heuristics,
    previous: Option<Value>,
) -> Result<Outcome<G::Move>, SearchError> {
    let aspire = algo.capabilities().windowed;
    let (Some(w), Some(v), true) = (o.enhancements.aspiration, previous, aspire) else {
        return algo.windowed(game, o, obs, table, heur, (-INF, INF));
    };
    let w = w.max(1);
    let window = (v.saturating_sub(w).max(-INF), v.saturating_add(w).min(INF));
    let start = std::time::Instant::now();
    let mut done = algo.windowed(game, o, obs, &mut *table, heur, window)?;
    let inside = |out: &Outcome<G::Move>, (lo, hi): (Value, Value)| matches!(out.value, Some(g) if lo < g && g < hi);
    if inside(&done, window) {
        return Ok(done);
    }
    // What is left of the limits for a search after `spent`.
    let left = |spent: &Stats| SearchOptions {
        limits: Limits {
            nodes: o.limits.nodes.map(|n| n.saturating_sub(spent.nodes)),
            time: o.limits.time.map(|t| t.saturating_sub(start.elapsed())),
            ..o.limits
        },
        ..o.clone()
    };
    if o.enhancements.aspiration_research == Research::OneSided {
        // A fail-soft result `g` outside the window bounds the value on its
        // side: at most `g` after a fail low, at least `g` after a fail high.
        let g = done.value.expect("alpha-beta and NegaScout give a value");
        let side = if g <= window.0 {
            (-INF, g.saturating_add(1).min(INF))
        } else {
            (g.saturating_sub(1).max(-INF), INF)
        };
        let again = left(&done.stats);
        match algo.windowed(game, &again, obs, &mut *table, heur, side) {
            Ok(mut out) => {
                out.stats += done.stats;
                if inside(&out, side) {
                    return Ok(out);
                }
                // Only a search whose values depend on the path (a
                // repetition seen under one window and not the other) can
                // land here: the full window settles it.
                done = out;
            }
            Err(e) => return Err(e.for_caller(o, done.stats)),
        }
    }
    let again = left(&done.stats);
    match algo.windowed(game, &again, obs, table, heur, (-INF, INF)) {
        Ok(mut out) => {
            out.stats += done.stats;
            Ok(out)
        }
        Err(e) => Err(e.for_caller(o, done.stats)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ConnectFour;
    use crate::search::Limit;
    use crate::table::TableSize;

    fn opts(max_nodes: Option<u64>) -> SearchOptions {
        SearchOptions {
            limits: Limits {
                depth: Some(40),
                nodes: max_nodes,
                ..Default::default()
            },
            table: TableSize::Megabytes(4),
            ..Default::default()
        }
    }

    /// Stopped by a limit, deepening answers with the last completed
    /// iteration: the same value and move as a fixed-depth search to it.
    #[test]
    fn depth_zero_is_the_static_value_of_the_root() {
        let game = ConnectFour::from_moves("4453").unwrap().with_heuristic();
        for algo in [Algorithm::AlphaBeta, Algorithm::Mtdf, Algorithm::Bns] {
            let o = SearchOptions {
                limits: Limits {
                    depth: Some(0),
                    ..opts(None).limits
                },
                ..opts(None)
            };
            let out = search(&game, algo, &o).unwrap();
            assert_eq!(out.depth_completed, Some(0), "{algo}");
            assert_eq!(out.stats.leaf_evals, 1, "{algo}");
            assert_eq!(out.best_move, None, "{algo}");
            let fixed = algo.search(&game, &o).unwrap();
            assert_eq!((out.value, out.bound), (fixed.value, fixed.bound), "{algo}");
        }
    }

    #[test]
    fn a_limit_returns_the_last_completed_iteration() {
        let game = ConnectFour::from_moves("4453").unwrap().with_heuristic();
        for algo in [
            Algorithm::AlphaBeta,
            Algorithm::NegaScout,
            Algorithm::Mtdf,
            Algorithm::MtdBi,
        ] {
            let out = search(&game, algo, &opts(Some(20_000))).unwrap();
            assert_eq!(out.stopped_by, Some(Limit::Nodes(20_000)), "{algo}");
            let d = out.depth_completed.expect("some depth completed");
            assert!(d >= 2, "{algo}: depth {d}");
            assert!(out.stats.nodes <= 20_000, "{algo}");
            let fixed = SearchOptions {
                limits: Limits {
                    depth: Some(d),
                    ..opts(None).limits
                },
                ..opts(None)
            };
            let flat = search(&game, algo, &fixed).unwrap();
            assert_eq!(flat.depth_completed, Some(d));
            assert_eq!(
                (out.value, out.best_move),
                (flat.value, flat.best_move),
                "{algo} depth {d}"
            );
            let plain = Algorithm::AlphaBeta.search(&game, &fixed).unwrap();
            assert_eq!(out.value, plain.value, "{algo} depth {d}");
        }
    }

    /// Only a limit that stops the first iteration is an error, and it
    /// names the caller's limit.
    #[test]
    fn a_limit_before_depth_one_is_an_error_naming_the_given_limit() {
        let game = ConnectFour::new().with_heuristic();
        let e = search(&game, Algorithm::Mtdf, &opts(Some(3))).unwrap_err();
        assert_eq!(e.limit(), Some(Limit::Nodes(3)));
        assert!(e.to_string().contains("(the limit: 3 positions)"), "{e}");
    }

    /// Without a limit, the answer is the last depth's and nothing stopped it.
    #[test]
    fn a_finished_search_reports_its_depth() {
        let game = crate::TicTacToe::new();
        let o = SearchOptions {
            table: TableSize::Megabytes(1),
            ..Default::default()
        };
        let out = search(&game, Algorithm::Mtdf, &o).unwrap();
        assert_eq!(out.value, Some(0));
        assert_eq!(out.stopped_by, None);
        // Depth 9 still stops at full boards as horizon nodes; depth 10 is
        // the first that meets no horizon, so deepening ends there.
        assert_eq!(out.depth_completed, Some(10));
    }

    /// Deepened Best Node Search starts each iteration by testing the bound
    /// the previous one proved (a guess that may be wrong: the value moves
    /// between depths). Every iteration's bound still holds alpha-beta's
    /// value at that depth, and its move is worth that value.
    #[test]
    fn deepened_bns_bounds_hold_after_a_first_test_from_the_previous_iteration() {
        for moves in ["4453", "44536", "274552224131661", "2531276566711153"] {
            let game = ConnectFour::from_moves(moves).unwrap().with_heuristic();
            for d in 1..=8 {
                let o = SearchOptions {
                    limits: Limits::to_depth(d),
                    table: TableSize::Megabytes(4),
                    ..Default::default()
                };
                let deep = search(&game, Algorithm::Bns, &o).unwrap();
                let ab = Algorithm::AlphaBeta.search(&game, &o).unwrap();
                let v = ab.value.unwrap();
                let (lo, hi) = deep.bound.unwrap();
                assert!(lo <= v && v < hi, "{moves} depth {d}: {v} not in {lo}..{hi}");
                let mv = deep.best_move.unwrap();
                let next = crate::games::Playable::after(&game, mv);
                let o1 = SearchOptions {
                    limits: Limits {
                        depth: Some(d - 1),
                        ..o.limits
                    },
                    ..o.clone()
                };
                let child = Algorithm::AlphaBeta.search(&next, &o1).unwrap();
                assert_eq!(child.value.map(|c| -c), Some(v), "{moves} depth {d}: move {mv}");
                // The first iteration has no previous bound: as a plain search.
                if d == 1 {
                    let flat = Algorithm::Bns.search(&game, &o).unwrap();
                    assert_eq!(deep.stats.passes, flat.stats.passes, "{moves}");
                }
            }
        }
    }
}
