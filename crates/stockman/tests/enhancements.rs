//! The move-ordering enhancements (table move first, history, killers,
//! enhanced transposition cutoffs, aspiration windows) change which nodes a
//! search visits, never the value it returns; and the engine keeps and
//! forgets what it learnt as documented.

use proptest::prelude::*;
use stockman::{
    Algorithm, ConnectFour, Engine, Game, Limits, Playable, Presearch, Research, SearchOptions, TableSize, TicTacToe,
};
use stockman::{Enhancements, Params};

/// Every combination of the enhancements, as options at `depth`.
fn combinations(depth: u32) -> Vec<SearchOptions> {
    let mut out = Vec::new();
    for bits in 0..32u32 {
        out.push(SearchOptions {
            limits: Limits::to_depth(depth),
            table: TableSize::Megabytes(2),
            enhancements: Enhancements {
                table_move_first: bits & 1 != 0,
                history: bits & 2 != 0,
                killers: bits & 4 != 0,
                etc: bits & 8 != 0,
                // Half of them look for cut-offs only halfway down.
                etc_min_depth: if bits & 1 != 0 { depth / 2 } else { 0 },
                aspiration: (bits & 16 != 0).then_some(30),
                ..Default::default()
            },
            ..SearchOptions::default()
        });
    }
    out
}

/// `game` after the legal ones of `moves`, in turn, until the game ends
/// (an illegal move is skipped).
fn line<G: Playable>(mut game: G, moves: &[G::Move]) -> G
where
    G::Move: Copy + PartialEq,
{
    for &m in moves {
        if game.result().is_some() {
            break;
        }
        if game.legal_moves().contains(&m) {
            game = game.after(m);
        }
    }
    game
}

const DEPTH_FIRST: [Algorithm; 7] = [
    Algorithm::AlphaBeta,
    Algorithm::NegaScout,
    Algorithm::MtSss,
    Algorithm::MtDual,
    Algorithm::Mtdf,
    Algorithm::MtdBi,
    Algorithm::Bns,
];

/// The value every enhanced search must find, by plain minimax-order alpha-beta.
fn reference<G: Game>(game: &G, depth: u32) -> Option<i32> {
    let o = SearchOptions {
        limits: Limits::to_depth(depth),
        ..SearchOptions::default()
    };
    Algorithm::AlphaBeta.search(game, &o).unwrap().value
}

fn check_all<G: Game>(game: &G, depth: u32) {
    let want = reference(game, depth);
    for o in combinations(depth) {
        for algo in DEPTH_FIRST {
            let flat = algo.search(game, &o).unwrap();
            let deep = algo.with_options(&o).deepen().run(game).unwrap();
            if algo == Algorithm::Bns {
                // BNS proves a move and a bound, not the value.
                let (lo, hi) = deep.bound.unwrap();
                assert!(lo <= want.unwrap() && want.unwrap() < hi, "{algo} {o:?}");
                continue;
            }
            assert_eq!(flat.value, want, "{algo} fixed depth, {o:?}");
            assert_eq!(deep.value, want, "{algo} deepened, {o:?}");
            assert_eq!(deep.depth_completed, Some(depth));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, rng_seed: proptest::test_runner::RngSeed::Fixed(9), ..ProptestConfig::default() })]

    /// Connect Four positions after a few random moves, at depths 1-6.
    #[test]
    fn no_enhancement_changes_a_connect_four_value(moves in proptest::collection::vec(0u8..7, 0..14), depth in 1u32..7) {
        let game = line(ConnectFour::new().with_heuristic(), &moves);
        check_all(&game, depth);
    }

    /// Tic-tac-toe positions, searched to every depth.
    #[test]
    fn no_enhancement_changes_a_tictactoe_value(moves in proptest::collection::vec(0u8..9, 0..5), depth in 1u32..10) {
        let game = line(TicTacToe::new(), &moves);
        check_all(&game, depth);
    }
}

/// Aspiration re-searches (one-sided or full) and BNS's first window, with
/// widths narrow enough to fail often: every deepened search keeps the value
/// (BNS: a bound that holds it).
fn check_windows<G: Game>(game: &G, depth: u32) {
    let want = reference(game, depth).unwrap();
    for width in [1, 3, 30] {
        for research in [Research::OneSided, Research::Full] {
            let o = SearchOptions {
                limits: Limits::to_depth(depth),
                table: TableSize::Megabytes(2),
                enhancements: Enhancements {
                    table_move_first: true,
                    etc: true,
                    aspiration: Some(width),
                    aspiration_research: research,
                    ..Default::default()
                },
                params: Params {
                    bns_window: Some(width),
                    ..Default::default()
                },
                ..SearchOptions::default()
            };
            for algo in [Algorithm::AlphaBeta, Algorithm::NegaScout] {
                let deep = algo.with_options(&o).deepen().run(game).unwrap();
                assert_eq!(deep.value, Some(want), "{algo} {width} {research:?}");
            }
            let bns = Algorithm::Bns.with_options(&o).deepen().run(game).unwrap();
            let (lo, hi) = bns.bound.unwrap();
            assert!(lo <= want && want < hi, "bns window {width}: {lo}..{hi} misses {want}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, rng_seed: proptest::test_runner::RngSeed::Fixed(27), ..ProptestConfig::default() })]

    #[test]
    fn aspiration_research_and_bns_windows_keep_connect_four_values(moves in proptest::collection::vec(0u8..7, 0..14), depth in 1u32..8) {
        let game = line(ConnectFour::new().with_heuristic(), &moves);
        check_windows(&game, depth);
    }
}

/// A one-sided re-search never costs more than a full one: on Connect Four
/// middle games at depth 10 with a window of 1 (most iterations fail),
/// NegaScout's and alpha-beta's positions and passes, pinned. Measured: the
/// same, to the position. The failed search left in the table the bounds
/// that refute every move on the failing side, and the table's move comes
/// first, so the window's far side never cuts anything the table does not
/// (seen also on chess, Othello and other Connect Four positions).
#[test]
fn one_sided_research_costs_no_more_than_full() {
    let mut totals = Vec::new();
    for research in [Research::OneSided, Research::Full] {
        let mut nodes = 0;
        let mut passes = 0;
        for position in ["4453", "44444432", "3344", "436"] {
            let game = ConnectFour::from_moves(position).unwrap().with_heuristic();
            for algo in [Algorithm::AlphaBeta, Algorithm::NegaScout] {
                let o = SearchOptions {
                    limits: Limits {
                        depth: Some(10),
                        ..SearchOptions::engine(Some(1)).limits
                    },
                    enhancements: Enhancements {
                        aspiration: Some(1),
                        aspiration_research: research,
                        ..SearchOptions::engine(Some(1)).enhancements
                    },
                    ..SearchOptions::engine(Some(1))
                };
                let o = SearchOptions {
                    table: TableSize::Megabytes(4),
                    ..o
                };
                let out = algo.with_options(&o).deepen().run(&game).unwrap();
                nodes += out.stats.nodes;
                passes += out.stats.passes;
            }
        }
        totals.push((nodes, passes));
    }
    let (one, full) = (totals[0], totals[1]);
    assert!(one.0 <= full.0, "one-sided {one:?} against full {full:?}");
    assert_eq!((one, full), ((119_058, 134), (119_058, 134)), "pinned counts");
}

/// On trees (no move keys) history and killers change nothing at all.
#[test]
fn without_move_keys_history_and_killers_change_nothing() {
    let tree = stockman::RandomTree::new(stockman::RandomSpec::parse("width=4,depth=6,seed=3").unwrap());
    let plain = SearchOptions {
        limits: Limits::to_depth(6),
        table: TableSize::Megabytes(1),
        enhancements: Enhancements {
            table_move_first: true,
            ..Default::default()
        },
        ..SearchOptions::default()
    };
    let learning = SearchOptions {
        enhancements: Enhancements {
            history: true,
            killers: true,
            ..plain.enhancements
        },
        ..plain.clone()
    };
    for algo in DEPTH_FIRST {
        let a = algo.with_options(&plain).deepen().run(&tree).unwrap();
        let b = algo.with_options(&learning).deepen().run(&tree).unwrap();
        assert_eq!(a.stats.counts(), b.stats.counts(), "{algo}");
    }
}

/// The enhancements are not idle: on a Connect Four middle game each one
/// changes the work done (exact node counts differ from the plain search).
#[test]
fn each_enhancement_changes_the_search() {
    let game = ConnectFour::from_moves("4453").unwrap().with_heuristic();
    let base = SearchOptions {
        limits: Limits::to_depth(9),
        table: TableSize::Megabytes(4),
        enhancements: Enhancements {
            table_move_first: true,
            ..Default::default()
        },
        ..SearchOptions::default()
    };
    let nodes = |o: &SearchOptions| {
        Algorithm::NegaScout
            .with_options(o)
            .deepen()
            .run(&game)
            .unwrap()
            .stats
            .nodes
    };
    let plain = nodes(&base);
    for (name, o) in [
        (
            "history",
            SearchOptions {
                enhancements: Enhancements {
                    history: true,
                    ..base.enhancements
                },
                ..base.clone()
            },
        ),
        (
            "killers",
            SearchOptions {
                enhancements: Enhancements {
                    killers: true,
                    ..base.enhancements
                },
                ..base.clone()
            },
        ),
        (
            "etc",
            SearchOptions {
                enhancements: Enhancements {
                    etc: true,
                    ..base.enhancements
                },
                ..base.clone()
            },
        ),
        (
            "aspiration",
            SearchOptions {
                enhancements: Enhancements {
                    aspiration: Some(10),
                    ..base.enhancements
                },
                ..base.clone()
            },
        ),
    ] {
        assert_ne!(nodes(&o), plain, "{name} changed nothing");
    }
}

/// The engine keeps its heuristics between moves, and `new_game` forgets them.
#[test]
fn new_game_resets_killers_and_history() {
    let learning = SearchOptions {
        enhancements: Enhancements {
            history: true,
            killers: true,
            ..SearchOptions::engine(Some(10)).enhancements
        },
        ..SearchOptions::engine(Some(10))
    };
    let mut engine = Engine::new(Algorithm::NegaScout, learning).unwrap();
    assert!(engine.heuristics().is_empty());
    let game = ConnectFour::from_moves("4453").unwrap().with_heuristic();
    let limits = Limits {
        depth: Some(8),
        ..Limits::default()
    };
    let first = engine.best_move(&game, &limits).unwrap();
    assert!(!engine.heuristics().is_empty());
    // The same position again profits from what the engine kept.
    let again = engine.best_move(&game, &limits).unwrap();
    assert_eq!(again.value, first.value);
    assert!(
        again.stats.nodes < first.stats.nodes,
        "{} vs {}",
        again.stats.nodes,
        first.stats.nodes
    );
    engine.new_game();
    assert!(engine.heuristics().is_empty());
    // After forgetting, the search is exactly the first one again.
    let fresh = engine.best_move(&game, &limits).unwrap();
    assert_eq!(fresh.stats.counts(), first.stats.counts());
}

/// Only the algorithms of the table's engine column drive an engine: the
/// best-first searches cannot be deepened, and minimax keeps no table
/// (issue 64: `Engine::new`, `play` and Python took minimax where UCI
/// refused it). Every front end asks `Engine::accepts`.
#[test]
fn only_the_engine_column_drives_an_engine() {
    for &algo in Algorithm::ALL {
        let made = Engine::new(algo, SearchOptions::engine(None));
        assert_eq!(made.is_ok(), algo.drives_engine(), "{algo}");
        assert_eq!(Engine::accepts(algo).is_ok(), algo.drives_engine(), "{algo}");
        if let Err(e) = made {
            let why = if algo.is_best_first() {
                "cannot be deepened"
            } else {
                "keeps no transposition table"
            };
            let e = e.to_string();
            assert!(
                e.contains(why) && e.contains("an engine uses one of: alphabeta, negascout, mt-sss"),
                "{e}"
            );
        }
    }
    assert!(!Algorithm::Minimax.drives_engine());
}

/// Under a node limit, the engine answers with a completed depth, the
/// same value and move as a fixed-depth engine search to that depth.
#[test]
fn the_anytime_answer_is_the_completed_depth() {
    let game = ConnectFour::from_moves("4453").unwrap().with_heuristic();
    for algo in [
        Algorithm::AlphaBeta,
        Algorithm::NegaScout,
        Algorithm::Mtdf,
        Algorithm::MtdBi,
    ] {
        let mut engine = Engine::new(algo, SearchOptions::engine(Some(50))).unwrap();
        let out = engine
            .best_move(
                &game,
                &Limits {
                    depth: Some(40),
                    nodes: Some(50_000),
                    ..Limits::default()
                },
            )
            .unwrap();
        let d = out.depth_completed.unwrap();
        assert!(out.stopped_by.is_some());
        engine.new_game();
        let fixed = engine
            .best_move(
                &game,
                &Limits {
                    depth: Some(d),
                    ..Limits::default()
                },
            )
            .unwrap();
        assert_eq!(
            (out.value, out.best_move),
            (fixed.value, fixed.best_move),
            "{algo} depth {d}"
        );
    }
}

/// A gate on enhanced transposition cutoffs deeper than the search turns
/// them off (every count as without them); in a search to the end of the
/// game, the game's moves left decide (tic-tac-toe gives none: no gate).
#[test]
fn etc_gate_above_the_depth_turns_it_off() {
    let game = ConnectFour::new();
    let opts = |etc: bool, min: u32| SearchOptions {
        limits: Limits::to_depth(8),
        table: TableSize::Megabytes(2),
        enhancements: Enhancements {
            table_move_first: true,
            etc,
            etc_min_depth: min,
            ..Default::default()
        },
        ..SearchOptions::default()
    };
    for algo in [Algorithm::AlphaBeta, Algorithm::NegaScout, Algorithm::Mtdf] {
        let plain = algo.search(&game, &opts(false, 0)).unwrap();
        let shut = algo.search(&game, &opts(true, 9)).unwrap();
        let half = algo.search(&game, &opts(true, 4)).unwrap();
        let all = algo.search(&game, &opts(true, 0)).unwrap();
        assert_eq!(shut.stats.counts(), plain.stats.counts(), "{algo}");
        assert_eq!(half.value, plain.value, "{algo}");
        assert_ne!(
            all.stats.counts(),
            plain.stats.counts(),
            "{algo}: ETC looks children up"
        );
        // The gate of 4 skips the look-ups at the four plies above the horizon.
        assert!(half.stats.tt_probes < all.stats.tt_probes, "{algo}");
    }
    let ttt = TicTacToe::new();
    let to_end = |min: u32| SearchOptions {
        table: TableSize::Megabytes(2),
        enhancements: Enhancements {
            etc: true,
            etc_min_depth: min,
            ..Default::default()
        },
        ..SearchOptions::default()
    };
    let a = Algorithm::Mtdf.search(&ttt, &to_end(0)).unwrap();
    let b = Algorithm::Mtdf.search(&ttt, &to_end(50)).unwrap();
    assert_eq!(a.stats.counts(), b.stats.counts(), "no hint, no gate");
    assert_eq!(a.value, Some(0));
}

/// The table-using depth-first algorithms, searched to the end of the game
/// with and without a presearch of the narrowed game: the same value (BNS:
/// a bound that holds it), for every width and gate; depth-limited
/// searches ignore the presearch (every count as without it).
fn check_presearch<G: Game>(game: &G) {
    let plain = SearchOptions {
        table: TableSize::Megabytes(2),
        enhancements: Enhancements {
            table_move_first: true,
            ..Default::default()
        },
        ..SearchOptions::default()
    };
    let want = Algorithm::AlphaBeta.search(game, &plain).unwrap().value.unwrap();
    for width in [1, 2, 3] {
        for min_left in [0, 4] {
            let o = SearchOptions {
                enhancements: Enhancements {
                    presearch: Some(Presearch { width, min_left }),
                    ..plain.enhancements
                },
                ..plain.clone()
            };
            for algo in DEPTH_FIRST {
                let out = algo.search(game, &o).unwrap();
                if algo == Algorithm::Bns {
                    let (lo, hi) = out.bound.unwrap();
                    assert!(lo <= want && want < hi, "{algo} presearch {width}/{min_left}");
                } else {
                    assert_eq!(out.value, Some(want), "{algo} presearch {width}/{min_left}");
                }
            }
        }
    }
    let fixed = SearchOptions {
        limits: Limits {
            depth: Some(3),
            ..plain.limits
        },
        ..plain.clone()
    };
    let narrowed = SearchOptions {
        enhancements: Enhancements {
            presearch: Some(Presearch { width: 1, min_left: 0 }),
            ..fixed.enhancements
        },
        ..fixed.clone()
    };
    for algo in DEPTH_FIRST {
        let a = algo.search(game, &fixed).unwrap();
        let b = algo.search(game, &narrowed).unwrap();
        assert_eq!(
            a.stats.counts(),
            b.stats.counts(),
            "{algo}: no presearch at a fixed depth"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, rng_seed: proptest::test_runner::RngSeed::Fixed(31), ..ProptestConfig::default() })]

    /// Connect Four positions 24-30 stones in, solved to the end.
    #[test]
    fn a_presearch_never_changes_a_connect_four_value(moves in proptest::collection::vec(0u8..7, 24..31)) {
        let mut game = ConnectFour::new();
        for m in moves {
            if game.result().is_some() {
                break;
            }
            let legal = game.legal_moves();
            let m = if legal.contains(&m) { m } else { legal[0] };
            game = game.after(m);
        }
        if game.result().is_none() {
            check_presearch(&game);
        }
    }

    /// Tic-tac-toe positions, solved to the end (no moves-left hint: the
    /// narrowed game keeps `width` moves everywhere).
    #[test]
    fn a_presearch_never_changes_a_tictactoe_value(moves in proptest::collection::vec(0u8..9, 0..4)) {
        let game = line(TicTacToe::new(), &moves);
        if game.result().is_none() {
            check_presearch(&game);
        }
    }
}
