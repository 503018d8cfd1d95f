//! Parallel SSS\* and Dual\* on `P` virtual processors: in every round the
//! processors take the `P` best states off OPEN and apply the Gamma
//! operator to them together.
//!
//! This is the shape of the parallel SSS\* of Monien and Vornberger (1988)
//! and of Kraas (1990): one OPEN list (theirs distributed, with the best
//! states shared out), several workers each taking a state and applying
//! Gamma. The OPEN list here is the textbook one in its order (states
//! `(J, s, h)`, best merit first, ties to the left-most node), so that at
//! `P = 1` the simulation *is* Stockman's SSS\* (Dual\*): the same leaves
//! in the same order (a test checks it against [`sss`](crate::algorithms::sss)).
//!
//! # The OPEN list
//! The rounds run on the sequential SSS\*'s own engine
//! ([`best_first`](crate::algorithms::sss)): the nodes in an arena with
//! parent links, 128-bit left-to-right labels (child `i` of `n` adds
//! `ceil(log2 n)` bits; an only child none), OPEN as a monotone radix queue
//! of batches of pending children, interior nodes' states and leaves kept
//! without nodes. A round takes its `P` states off the head one after the
//! other; a step may then push a state ahead of one the round took later,
//! which the queue (whose keys never go back) cannot hold, so such pushes
//! wait in a small sorted side list merged with the queue at the next take.
//! Memory is the live search tree's interior nodes; a tree whose labels
//! do not fit in 128 bits is relabelled as in the sequential SSS\*. The
//! rounds are those of the textbook's OPEN list (one ordered set of
//! `(merit, label, node)` with a node for every state, which this module
//! ran before): a test compares the two leaf for leaf and count for count.
//!
//! # What may run out of turn, and why the value stays exact
//! Each state of OPEN stands for a family of solution trees and its merit
//! bounds their values (from above for SSS\*). Cases 1, 2, 3, 5 and 6 of
//! Gamma only move one family forward (evaluate its leaf, extend it by a
//! child or the next sibling, solve a MIN node whose last child is solved)
//! and keep its merit a true bound, so any state may take them, best or
//! not. Only case 4 (a solved MIN node `J` solves its MAX parent and purges
//! every state below the parent) drops other families: it is sound when
//! `J`'s merit is at least the merit of every other state below the parent
//! (then no other family there can do better), which the best state of
//! OPEN always satisfies and which a processor checks before it purges.
//! A state that fails the check waits (its processor idles that round), and
//! so does one purged earlier in the same round. The root's SOLVED state
//! is taken only at the head. The value is therefore the minimax value for
//! every `P`; which leaves are evaluated differs (more leaves: the search
//! overhead of speculation), and the report counts them.
//!
//! Dual\* is the mirror image (lower bounds, lowest merit first, MIN nodes
//! expand all children, case 4 for a solved MAX node).
//!
//! # Complexity
//! At `P = 1` SSS\*'s states and steps, at the sequential SSS\*'s cost a
//! step (without its shortcuts); a case 4 after a round's first state also
//! looks at the states the round pushed so far. Memory: the interior nodes
//! of the live search tree.
//!
//! # Example
//! ```
//! use stockman::simulate::{sss, SimOptions};
//! use stockman::{ExplicitTree, Role};
//! let tree = ExplicitTree::parse("[[[3,12],[8,2]],[[4,6],[14,5]],[[2,9],[1,7]]]", Role::Max).unwrap();
//! let one = sss::simulate(&tree, false, &SimOptions::default()).unwrap();
//! let four = sss::simulate(&tree, false, &SimOptions { processors: 4, ..SimOptions::default() }).unwrap();
//! assert_eq!((one.value, four.value), (8, 8));
//! assert!(four.rounds < one.rounds);
//! ```

use super::{SimError, SimOptions, SimReport};
use crate::algorithms::best_first::{BestFirst, Polarity};
use crate::game::Game;
use crate::observe::{LeafRecorder, NoObserver, Observer};
use crate::options::{Limits, SearchOptions};
use crate::search::SearchError;

/// Parallel SSS\* (`dual`: Dual\*) on `opts.processors` virtual
/// processors; see the module documentation.
///
/// # Errors
/// A bad processor count, the work limit, a tree too deep and wide for the
/// labels, or a game that breaks its contract (a value out of range).
pub fn simulate<G: Game>(game: &G, dual: bool, opts: &SimOptions) -> Result<SimReport, SimError> {
    simulate_recorded(game, dual, opts).map(|(r, _)| r)
}

/// The paths of evaluated leaves, in order.
pub type Leaves = Vec<Vec<u32>>;

/// [`simulate`], with the paths of the evaluated leaves in order when
/// `opts.record_leaves`.
///
/// # Errors
/// As [`simulate`].
pub fn simulate_recorded<G: Game>(
    game: &G,
    dual: bool,
    opts: &SimOptions,
) -> Result<(SimReport, Option<Leaves>), SimError> {
    opts.check()?;
    if opts.iterative {
        return Err(SimError::Options(
            "parallel SSS* and Dual* are best-first and search once: iterative deepening is simulated for the ABDADA searches".into(),
        ));
    }
    if opts.record_leaves {
        let mut rec = LeafRecorder::default();
        let report = run(game, dual, opts, &mut rec)?;
        Ok((report, Some(rec.paths())))
    } else {
        Ok((run(game, dual, opts, &mut NoObserver)?, None))
    }
}

/// The rounds until the root is solved, the leaves told to `obs`.
fn run<G: Game, O: Observer>(game: &G, dual: bool, opts: &SimOptions, obs: &mut O) -> Result<SimReport, SimError> {
    let search = SearchOptions {
        limits: Limits {
            depth: opts.depth,
            max_open: usize::MAX,
            ..Limits::default()
        },
        ..SearchOptions::default()
    };
    let polarity = if dual { Polarity::Dual } else { Polarity::Sss };
    let mut engine = BestFirst::in_rounds(game, &search, polarity, obs);
    engine.begin().map_err(sim_error)?;
    let p = opts.processors;
    let mut report = SimReport {
        processors: p,
        ..SimReport::default()
    };
    let mut taken = Vec::new();
    loop {
        engine.take(p, &mut taken);
        if taken.is_empty() {
            return Err(SimError::BadGame("OPEN emptied before the root was solved".into()));
        }
        report.rounds += 1;
        report.idle += (p - taken.len()) as u64;
        let done = engine.apply(&taken, &mut []).map_err(sim_error)?;
        report.work += done.work;
        report.idle += done.idle;
        if let Some(value) = done.value {
            let stats = engine.stats();
            report.value = value;
            report.leaf_evals = stats.leaf_evals;
            report.max_open = stats.max_open;
            return Ok(report);
        }
        // OPEN lives on processor 0: the others' states went out and their
        // results come back over the network, and the round waits for them.
        let remote = taken.len().saturating_sub(1) as u64;
        if opts.table_latency > 0 && remote > 0 {
            let k = opts.table_latency;
            report.rounds += k;
            report.stalled += remote * k;
            report.idle += (p as u64 - remote) * k;
        }
        if report.work >= opts.max_work {
            return Err(SimError::WorkLimit(opts.max_work));
        }
    }
}

/// The simulator's error for the engine's.
fn sim_error(e: SearchError) -> SimError {
    match e {
        SearchError::Unsupported { reason } => SimError::Unsupported(reason),
        SearchError::BadGame { reason } => SimError::BadGame(reason),
        e => SimError::BadGame(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::reference;
    use super::*;
    use crate::game::Game;
    use crate::value::{Role, Value};
    use crate::{ExplicitTree, RandomSpec, RandomTree};

    #[test]
    fn one_processor_is_stockmans_sss_on_the_textbook_tree() {
        let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
        let opts = SimOptions {
            record_leaves: true,
            ..SimOptions::default()
        };
        let (r, leaves) = simulate_recorded(&tree, false, &opts).unwrap();
        assert_eq!(r.value, 3);
        assert_eq!(r.idle, 0);
        assert_eq!(r.rounds, r.work);
        assert_eq!(leaves.unwrap().len() as u64, r.leaf_evals);
    }

    /// The rounds on the sequential SSS\*'s OPEN list are the textbook's
    /// (the ordered set of the oracle): the same leaves in the same order,
    /// and the same rounds, work, idle and stalled processor-rounds, OPEN
    /// peak and value, for each `P`, on trees full of ties and without.
    #[test]
    fn the_rounds_are_the_textbooks_leaf_for_leaf_and_count_for_count() {
        for seed in 0..120u64 {
            let (spec, tree) = crate::drivers::rounds::reference::tie_tree(seed);
            for dual in [false, true] {
                for p in [1, 2, 3, 5, 8, 64] {
                    let opts = SimOptions {
                        processors: p,
                        record_leaves: true,
                        table_latency: seed % 3,
                        ..SimOptions::default()
                    };
                    let (want, want_leaves, _) = reference::simulate_recorded(&tree, dual, &opts).unwrap();
                    let (got, got_leaves) = simulate_recorded(&tree, dual, &opts).unwrap();
                    let at = format!("{spec} dual {dual} P {p}");
                    assert_eq!(got_leaves, want_leaves, "{at}: leaves");
                    assert_eq!(got, want, "{at}: report");
                }
            }
        }
    }

    /// The same on games: Connect Four, tic-tac-toe, and Othello endgames
    /// searched to the end.
    #[test]
    fn the_rounds_are_the_textbooks_on_games() {
        fn check<G: Game>(game: &G, depth: Option<u32>, what: &str) {
            for dual in [false, true] {
                for p in [1, 2, 4, 16] {
                    let opts = SimOptions {
                        processors: p,
                        depth,
                        record_leaves: true,
                        ..SimOptions::default()
                    };
                    let want = reference::simulate_recorded(game, dual, &opts).unwrap();
                    let got = simulate_recorded(game, dual, &opts).unwrap();
                    assert_eq!(got.1, want.1, "{what} dual {dual} P {p}: leaves");
                    assert_eq!(got.0, want.0, "{what} dual {dual} P {p}: report");
                }
            }
        }
        let c4 = crate::ConnectFour::from_moves("4453445").unwrap().with_heuristic();
        check(&c4, Some(5), "connect four");
        check(&crate::TicTacToe::new(), None, "tic-tac-toe");
        for seed in 0..12usize {
            // A game played out to a few empty squares, move choices by seed.
            let start = crate::Othello::new();
            let mut pos = start.root();
            let mut moves = Vec::new();
            for ply in 0..52 {
                moves.clear();
                start.moves(&pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                pos = start.play(&pos, moves[(seed * 7 + ply * 3) % moves.len()]);
            }
            let game = crate::Othello::from_board(pos);
            check(&game, None, &format!("othello endgame {seed}"));
        }
    }

    /// A chain of `len` plies with two leaves at its end, roles alternating.
    struct Chain {
        len: u32,
    }

    impl Game for Chain {
        type Position = (u32, u32);
        type Move = u32;
        fn root(&self) -> (u32, u32) {
            (0, 0)
        }
        fn role(&self, pos: &(u32, u32)) -> Role {
            if pos.0.is_multiple_of(2) {
                Role::Max
            } else {
                Role::Min
            }
        }
        fn moves(&self, pos: &(u32, u32), out: &mut Vec<u32>) {
            match pos.0.cmp(&self.len) {
                std::cmp::Ordering::Less => out.push(0),
                std::cmp::Ordering::Equal => out.extend([1, 2]),
                std::cmp::Ordering::Greater => {}
            }
        }
        fn play(&self, pos: &(u32, u32), mv: u32) -> (u32, u32) {
            (pos.0 + 1, mv)
        }
        fn evaluate(&self, pos: &(u32, u32)) -> Value {
            10 * pos.1 as Value
        }
    }

    #[test]
    fn a_long_chain_costs_memory_in_its_length_not_its_square() {
        // With Dewey labels kept in every node this took 11.5 GB at 60,000
        // plies; the chain's labels now cost nothing (an only child adds
        // no bits) and OPEN holds a few states.
        let game = Chain { len: 200_000 };
        for p in [1, 2, 4] {
            let opts = SimOptions {
                processors: p,
                ..SimOptions::default()
            };
            let r = simulate(&game, false, &opts).unwrap();
            // The last mover picks the better leaf: MAX at an even length.
            assert_eq!(r.value, 20);
            assert_eq!(r.leaf_evals, 2);
            assert!(r.max_open <= 2, "{}", r.max_open);
        }
    }

    /// The rounds after relabellings of OPEN (with 12 to 20 bits of path
    /// instead of 96, so that every tree runs out of them, with states of a
    /// round held while a step relabels): the textbook's rounds, leaf for
    /// leaf and count for count, as with labels to spare.
    #[test]
    fn the_rounds_are_the_textbooks_after_relabellings() {
        use crate::algorithms::best_first::tests::{held_leaves_relabelled, with_label_room};
        let mut relabels = 0;
        let held = held_leaves_relabelled();
        for seed in 0..60u64 {
            let (spec, tree) = crate::drivers::rounds::reference::tie_tree(seed);
            for dual in [false, true] {
                for p in [2, 3, 8, 64] {
                    let opts = SimOptions {
                        processors: p,
                        record_leaves: true,
                        ..SimOptions::default()
                    };
                    let (want, want_leaves, _) = reference::simulate_recorded(&tree, dual, &opts).unwrap();
                    for room in [44, 48, 52] {
                        let ((got, got_leaves), n) =
                            with_label_room(room, || simulate_recorded(&tree, dual, &opts).unwrap());
                        let at = format!("{spec} dual {dual} P {p} room {room}");
                        assert_eq!(got_leaves, want_leaves, "{at}: leaves");
                        assert_eq!(got, want, "{at}: report");
                        relabels += n;
                    }
                }
            }
        }
        assert!(relabels > 1_000, "{relabels} relabellings");
        // Relabellings met leaves a round held, and moved them too.
        let held = held_leaves_relabelled() - held;
        assert!(held > 0, "no relabelling met a held leaf");
    }

    /// A comb of 3,000 levels (a subtree and a leaf at every level) needs
    /// a bit of label a level: the rounds relabel and give the sequential
    /// search's value, on 1 to 8 processors.
    #[test]
    fn the_rounds_solve_a_comb_deeper_than_the_labels() {
        use crate::algorithms::best_first::tests::comb;
        for role in [Role::Max, Role::Min] {
            let tree = ExplicitTree::parse(&comb(3_000, false), role).unwrap();
            let want = crate::Algorithm::AlphaBeta
                .with_options(&crate::SearchOptions::default())
                .run(&tree)
                .unwrap();
            for dual in [false, true] {
                for p in [1, 2, 8] {
                    let opts = SimOptions {
                        processors: p,
                        ..SimOptions::default()
                    };
                    let r = simulate(&tree, dual, &opts).unwrap();
                    assert_eq!(Some(r.value), want.value, "{role:?} dual {dual} P {p}");
                }
            }
        }
    }

    #[test]
    fn bad_processor_counts_are_refused() {
        let tree = RandomTree::new(RandomSpec::parse("width=2,depth=2,seed=1").unwrap());
        for p in [0, super::super::MAX_PROCESSORS + 1] {
            let e = simulate(
                &tree,
                false,
                &SimOptions {
                    processors: p,
                    ..SimOptions::default()
                },
            )
            .unwrap_err();
            assert_eq!(e, SimError::Processors(p));
        }
    }
}
