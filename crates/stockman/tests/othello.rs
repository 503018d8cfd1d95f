//! Othello against the FFO endgame suite (tests/data/othello, see the
//! README there), every algorithm against minimax near the end of the game
//! and at fixed depths, and the SSS\* theorems on Othello's tree.
//!
//! `ffo_40_to_44` solves five positions of 20-23 empty squares exactly:
//! about 20 s in the optimised test profile. The harder ones are the bench's
//! (`cargo bench -p stockman --bench ffo`).

use stockman::games::othello::{MoveOrder, Othello};
use stockman::games::positions::parse_positions;
use stockman::{Algorithm, Game, LeafRecorder, Playable, Presearch, SearchOptions, TableSize, Unfolded, Value};
use stockman::{Enhancements, Limits};

const FFO: &str = include_str!("data/othello/fforum-40-59.obf");

fn table(mb: usize) -> SearchOptions {
    SearchOptions {
        table: TableSize::Megabytes(mb),
        enhancements: Enhancements {
            table_move_first: true,
            ..Default::default()
        },
        ..SearchOptions::default()
    }
}

/// The suite's lines: game, expected score, and the listed scores.
fn suite() -> Vec<(usize, Othello, Value, stockman::games::positions::PositionLine)> {
    parse_positions(FFO)
        .unwrap()
        .into_iter()
        .map(|l| {
            let g = Othello::from_position(&l.position).unwrap();
            (39 + l.line, g, l.expected.unwrap(), l)
        })
        .collect()
}

#[test]
fn the_suite_parses_and_its_moves_are_legal() {
    let set = suite();
    assert_eq!(set.len(), 20);
    let empties: Vec<u32> = set.iter().map(|(_, g, _, _)| g.board().empties()).collect();
    assert_eq!(
        empties,
        [20, 22, 22, 23, 23, 24, 24, 25, 25, 26, 26, 27, 27, 28, 28, 29, 29, 30, 30, 34]
    );
    for (n, g, expected, line) in &set {
        // Every listed move is legal, the first is the best, and the board
        // written back in the FFO notation reads the same.
        let legal: Vec<String> = g.legal_moves().iter().map(|&m| g.move_text(m)).collect();
        for (mv, score) in &line.scores {
            assert!(legal.contains(&mv.to_ascii_lowercase()), "#{n}: {mv} is not legal");
            assert!(score <= expected, "#{n}: {mv}:{score} above the best {expected}");
        }
        assert_eq!(legal.len(), line.scores.len(), "#{n}: every move is listed");
        assert_eq!(Othello::from_position(&g.board().to_ffo()).unwrap(), *g);
    }
}

/// #40-#44 solved exactly, and the best move found is one the suite lists
/// at the best score.
#[test]
fn ffo_40_to_44() {
    for (n, g, expected, line) in suite().into_iter().take(5) {
        let out = Algorithm::Mtdf.search(&g, &table(64)).unwrap();
        assert_eq!(out.value, Some(expected), "#{n}");
        let best = g.move_text(out.best_move.unwrap());
        assert_eq!(line.score_of(&best), Some(expected), "#{n}: {best}");
        eprintln!("#{n}: {expected} ({best}), {} positions", out.stats.nodes);
    }
}

/// The first position with the other fast exact solvers too.
#[test]
fn ffo_40_with_negascout_and_mtd_bi() {
    let (n, g, expected, _) = suite().remove(0);
    for a in [Algorithm::NegaScout, Algorithm::MtdBi, Algorithm::AlphaBeta] {
        let out = a.search(&g, &table(64)).unwrap();
        assert_eq!(out.value, Some(expected), "#{n} {a}");
    }
}

/// Positions a few moves before the end of the suite's games (found by
/// playing each suite position's best line), solved by every algorithm.
fn late_positions(empties: u32) -> Vec<Othello> {
    let mut out = Vec::new();
    for (_, mut g, _, _) in suite().into_iter().take(6) {
        while g.board().empties() > empties && g.result().is_none() {
            let mut moves = Vec::new();
            g.moves(&g.root(), &mut moves);
            // Walk a varied line: the last listed move (the game's order's worst guess).
            g = g.after(*moves.last().unwrap());
        }
        out.push(g);
    }
    out
}

#[test]
fn every_algorithm_solves_late_positions() {
    // Three plies above the positions the game solves itself (SOLVE_EMPTIES).
    for g in late_positions(stockman::games::othello::SOLVE_EMPTIES + 3) {
        let exact = Algorithm::Minimax
            .search(&g, &SearchOptions::default())
            .unwrap()
            .value
            .unwrap();
        for order in [MoveOrder::Squares, MoveOrder::FastestFirst, MoveOrder::BestReply] {
            let g = g.with_order(order);
            for tt in [TableSize::Unbounded, TableSize::Megabytes(1)] {
                let opts = SearchOptions {
                    table: tt,
                    ..SearchOptions::default()
                };
                for &a in Algorithm::ALL {
                    let out = a.search(&g, &opts).unwrap();
                    match out.bound {
                        Some((lo, hi)) => assert!(lo <= exact && exact < hi, "{a}: {lo}..{hi}"),
                        None => assert_eq!(out.value, Some(exact), "{a} {order:?} on {}", g.board().to_ffo()),
                    }
                    // The best move holds the value: the child's value, from the
                    // child's mover's view, is the opposite (or the same after a pass).
                    if let (Some(m), true) = (out.best_move, a.finds_value()) {
                        let child = g.after(m);
                        let v = Algorithm::Minimax
                            .search(&child, &SearchOptions::default())
                            .unwrap()
                            .value
                            .unwrap();
                        let same_mover = child.board().black_to_move() == g.board().black_to_move();
                        assert_eq!(if same_mover { v } else { -v }, exact, "{a}: {}", g.move_text(m));
                    }
                }
            }
        }
    }
}

#[test]
fn fixed_depth_searches_agree_with_minimax() {
    let openings = ["f5d6c3d3c4", "f5f6e6f4", "c4c3d3c5b3", "e6f4c3c4d3", "d3c5f6f5e6e3"];
    for text in openings {
        let g = Othello::from_position(text).unwrap().with_heuristic();
        for d in 1..=3 {
            let opts = SearchOptions {
                limits: Limits::to_depth(d),
                ..SearchOptions::default()
            };
            let want = Algorithm::Minimax.search(&g, &opts).unwrap().value.unwrap();
            for &a in Algorithm::ALL {
                let out = a.search(&g, &opts).unwrap();
                match out.bound {
                    Some((lo, hi)) => assert!(lo <= want && want < hi, "{text} d{d} {a}"),
                    None => assert_eq!(out.value, Some(want), "{text} depth {d}: {a}"),
                }
            }
        }
    }
}

/// On Othello's tree (transpositions unfolded), MT-SSS\* evaluates exactly
/// SSS\*'s leaves in the same order, and MT-Dual\* Dual\*'s.
#[test]
fn mt_sss_equals_sss_on_the_othello_tree() {
    for text in ["f5d6c3d3c4", "c4e3f6e6f5"] {
        let tree = Unfolded(Othello::from_position(text).unwrap().with_heuristic());
        for d in 1..=4 {
            let opts = SearchOptions {
                limits: Limits::to_depth(d),
                ..SearchOptions::default()
            };
            let leaves = |a: Algorithm| {
                let mut rec = LeafRecorder::default();
                let out = a.with_options(&opts).observer(&mut rec).run(&tree).unwrap();
                (out.value, rec.paths())
            };
            assert_eq!(leaves(Algorithm::MtSss), leaves(Algorithm::Sss), "{text} depth {d}");
            assert_eq!(leaves(Algorithm::MtDual), leaves(Algorithm::Dual), "{text} depth {d}");
        }
    }
}

/// Enhanced transposition cutoffs gated by what is left below a node
/// (`etc_min_depth`, Othello's hint being its empty squares): a gate above
/// the root's empty squares turns them off entirely (every count as
/// without them); a gate of 12, as the `ffo` bench uses, keeps the value
/// and the best move and visits fewer positions than no cut-offs at all,
/// here as few as cut-offs everywhere (the game solves 10 empty squares
/// itself, so the search's lowest level is 11, where no cut-off comes on
/// this board; pinned: a change in either is a change in what the search
/// does).
#[test]
fn etc_only_where_enough_is_left() {
    let (n, g, expected, line) = suite().remove(0);
    let run = |etc: bool, min: u32| {
        let o = SearchOptions {
            enhancements: Enhancements {
                etc,
                etc_min_depth: min,
                ..table(16).enhancements
            },
            ..table(16)
        };
        let out = Algorithm::Mtdf.search(&g, &o).unwrap();
        assert_eq!(out.value, Some(expected), "#{n} etc {etc} from {min}");
        let best = g.move_text(out.best_move.unwrap());
        assert_eq!(line.score_of(&best), Some(expected), "#{n}: {best}");
        out.stats.counts()
    };
    let plain = run(false, 0);
    assert_eq!(run(true, 21), plain, "a gate above the root's 20 empty squares");
    let everywhere = run(true, 0);
    let gated = run(true, 12);
    assert_eq!(
        [plain.nodes, gated.nodes, everywhere.nodes],
        [81_322, 77_540, 77_540],
        "positions: no ETC, ETC from 12 empty squares, everywhere"
    );
}

/// A presearch of the game narrowed to its first 4 moves from 12 empty
/// squares (the setting the guide measures; off by default): the same value and a listed best
/// move, fewer positions in all (the presearch's counted in), pinned.
#[test]
fn a_presearch_leaves_its_moves_for_the_full_search() {
    let (n, g, expected, line) = suite().remove(0);
    let run = |presearch: Option<Presearch>| {
        let o = SearchOptions {
            enhancements: Enhancements {
                etc: true,
                etc_min_depth: 12,
                presearch,
                ..table(16).enhancements
            },
            ..table(16)
        };
        let out = Algorithm::Mtdf.search(&g, &o).unwrap();
        assert_eq!(out.value, Some(expected), "#{n} {presearch:?}");
        let best = g.move_text(out.best_move.unwrap());
        assert_eq!(line.score_of(&best), Some(expected), "#{n}: {best}");
        out.stats.nodes
    };
    let without = run(None);
    let with = run(Some(Presearch { width: 4, min_left: 12 }));
    assert_eq!(
        [without, with],
        [77_540, 69_635],
        "positions without and with the presearch"
    );
}

/// A node limit holds for the presearch and the full search together:
/// stopped in either, the error names the caller's limit and counts both;
/// stopped in the presearch, it proves nothing.
#[test]
fn a_presearch_shares_the_node_limit() {
    let (_, g, _, _) = suite().remove(0);
    for limit in [1_000, 60_000] {
        let o = SearchOptions {
            limits: Limits {
                nodes: Some(limit),
                ..table(16).limits
            },
            enhancements: Enhancements {
                presearch: Some(Presearch { width: 4, min_left: 12 }),
                ..table(16).enhancements
            },
            ..table(16)
        };
        match Algorithm::Mtdf.search(&g, &o) {
            Err(stockman::SearchError::NodeLimit {
                limit: l,
                stats,
                partial,
            }) => {
                assert_eq!((l, stats.nodes), (limit, limit), "limit {limit}");
                if limit == 1_000 {
                    // Stopped in the presearch: its bounds are the narrowed
                    // game's, so nothing is claimed about this one.
                    assert_eq!(partial, stockman::Partial::default(), "limit {limit}");
                }
            }
            other => panic!("limit {limit}: {other:?}"),
        }
    }
}
