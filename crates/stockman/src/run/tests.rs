use super::batch::{solve_position, solve_positions};
use super::*;
use crate::games::positions::parse_positions;
use crate::options::{Control, Limits};
use crate::{ExplicitTree, Parallel, Role};
use std::time::Duration;

fn tree() -> ExplicitTree {
    ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap()
}

#[test]
fn defaults_depend_on_the_source() {
    let r = Settings::default().request(SourceKind::Tree).unwrap();
    assert_eq!(r.algorithms, Algorithm::ALL.to_vec());
    assert_eq!(r.options.table, TableSize::Unbounded);
    assert!(!r.options.enhancements.table_move_first);
    let r = Settings::default()
        .request(SourceKind::Game(GameKind::Connect4))
        .unwrap();
    assert_eq!(r.algorithms, vec![Algorithm::MtdBi]);
    assert_eq!(r.options.table, TableSize::Megabytes(DEFAULT_GAME_TABLE_MB));
    assert!(r.options.enhancements.table_move_first);
    let deepened = Settings {
        iterative: true,
        ..Settings::default()
    }
    .request(SourceKind::Tree)
    .unwrap();
    assert!(deepened.options.enhancements.table_move_first && deepened.options.enhancements.etc);
    assert_eq!(deepened.options.enhancements.aspiration, Some(DEFAULT_ASPIRATION));
}

#[test]
fn othello_defaults_to_the_settings_of_the_ffo_figures() {
    let r = Settings::default()
        .request(SourceKind::Game(GameKind::Othello))
        .unwrap();
    assert_eq!(r.algorithms, vec![Algorithm::Mtdf]);
    let e = r.options.enhancements;
    assert!(e.etc && e.table_move_first);
    assert_eq!(e.etc_min_depth, 12);
    // What the user says wins.
    let mut s = Settings::default();
    s.enhancements.etc = Some(false);
    s.algorithms = Some(vec![Algorithm::MtdBi]);
    let r = s.request(SourceKind::Game(GameKind::Othello)).unwrap();
    assert_eq!(r.algorithms, vec![Algorithm::MtdBi]);
    assert!(!r.options.enhancements.etc);
    // The other games keep MTD(bi) without cut-offs.
    for g in [
        GameKind::TicTacToe,
        GameKind::Connect4,
        GameKind::Checkers,
        GameKind::Chess,
    ] {
        assert_eq!(g.defaults().algorithm, Algorithm::MtdBi, "{g}");
        let s = Settings {
            depth: Some(2),
            ..Settings::default()
        };
        let r = s.request(SourceKind::Game(g)).unwrap();
        assert!(!r.options.enhancements.etc, "{g}");
    }
}

#[test]
fn impossible_settings_are_refused_with_a_reason() {
    let empty = Settings {
        algorithms: Some(vec![]),
        ..Settings::default()
    };
    let e = empty.request(SourceKind::Tree).unwrap_err().to_string();
    assert!(e.starts_with("no algorithm given (known: minimax,"), "{e}");
    let e = Settings::default()
        .request(SourceKind::Game(GameKind::Chess))
        .unwrap_err()
        .to_string();
    assert!(e.contains("chess needs a depth"), "{e}");
    let clocked = Settings {
        iterative: true,
        time_limit: Some(Duration::from_millis(10)),
        ..Settings::default()
    };
    assert!(clocked.request(SourceKind::Game(GameKind::Chess)).is_ok());
    let huge = Settings {
        tt_mb: Some(crate::table::MAX_TABLE_MB + 1),
        ..Settings::default()
    };
    let e = huge.request(SourceKind::Tree).unwrap_err().to_string();
    assert!(e.contains("the table size must be 1 to"), "{e}");
    // States per round: within the simulator's range, and only where the
    // threads share the search in rounds.
    let rounds = |p: usize, parallel: Parallel| Settings {
        threads: Some(2),
        parallel: Some(parallel),
        round_states: Some(p),
        ..Settings::default()
    };
    let max = crate::simulate::MAX_PROCESSORS;
    let e = rounds(max + 1, Parallel::Rounds)
        .request(SourceKind::Tree)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!("{} states per round: give 1 to {max}", max + 1)),
        "{e}"
    );
    let e = rounds(3, Parallel::Abdada)
        .request(SourceKind::Tree)
        .unwrap_err()
        .to_string();
    assert!(e.contains("in rounds only") && e.contains("(this is abdada)"), "{e}");
    assert_eq!(
        rounds(max, Parallel::Rounds)
            .request(SourceKind::Tree)
            .unwrap()
            .round_states,
        max
    );
    assert_eq!(
        rounds(0, Parallel::Abdada)
            .request(SourceKind::Tree)
            .unwrap()
            .round_states,
        0
    );
    assert!("draughts"
        .parse::<GameKind>()
        .unwrap_err()
        .to_string()
        .contains("known: tictactoe"));
}

#[test]
fn a_runner_answers_every_algorithm() {
    let request = Settings::default().request(SourceKind::Tree).unwrap();
    let mut runner = Runner::new();
    let out = runner.solve(&tree(), &request);
    assert_eq!(out.len(), Algorithm::ALL.len());
    for s in &out {
        assert!(s.error.is_none(), "{}: {:?}", s.label(), s.error);
        match s.algorithm {
            Algorithm::Bns => {
                let (a, b) = s.bound.unwrap();
                assert!(a <= 3 && 3 < b);
            }
            _ => assert_eq!(s.value, Some(3), "{}", s.label()),
        }
        assert_eq!(s.best_index, Some(0), "{}", s.label());
    }
}

#[test]
fn leaves_are_recorded_on_request() {
    let request = Settings {
        algorithms: Some(vec![Algorithm::Sss, Algorithm::AlphaBeta]),
        leaves: true,
        ..Settings::default()
    }
    .request(SourceKind::Tree)
    .unwrap();
    let out = Runner::new().solve(&tree(), &request);
    let sss = out[0].leaves.as_ref().unwrap();
    assert_eq!(sss.len() as u64, out[0].stats.leaf_evals);
    assert_eq!(sss[0], vec![0, 0]);
}

#[test]
fn a_table_too_large_for_the_machine_is_an_error_not_an_abort() {
    let request = Settings {
        algorithms: Some(vec![Algorithm::Mtdf]),
        tt_mb: Some(crate::table::MAX_TABLE_MB),
        ..Settings::default()
    }
    .request(SourceKind::Tree)
    .unwrap();
    let out = Runner::new().solve(&tree(), &request);
    let e = out[0].error.as_ref().unwrap().to_string();
    assert!(e.starts_with("cannot allocate a table of 1048576 MiB"), "{e}");
}

/// A driver stopped by a node limit answers with what its passes proved:
/// bounds that hold the value, and a move that reaches the bound.
#[test]
fn a_stopped_driver_gives_its_proven_bounds() {
    let kind = GameKind::Connect4;
    let position = "4453331";
    let exact = Settings {
        algorithms: Some(vec![Algorithm::AlphaBeta, Algorithm::MtdBi, Algorithm::Bns]),
        tt_mb: Some(4),
        ..Settings::default()
    }
    .request(SourceKind::Game(kind))
    .unwrap();
    let mut runner = Runner::new();
    let full = solve_position(kind, position, &exact, &mut runner).unwrap();
    let v = full[0].value.unwrap();
    assert_eq!(full[1].value, Some(v));
    let mut proven_any = false;
    for max_nodes in [2_000, 20_000, 60_000] {
        let limited = Request {
            options: SearchOptions {
                limits: Limits {
                    nodes: Some(max_nodes),
                    ..exact.options.limits
                },
                ..exact.options.clone()
            },
            ..exact.clone()
        };
        for s in solve_position(kind, position, &limited, &mut runner).unwrap() {
            if s.error.is_none() {
                continue;
            }
            assert!(s.hit_limit(), "{}: {:?}", s.label(), s.error);
            if let Some((lo, hi)) = s.proven {
                assert!(
                    lo <= v && v <= hi,
                    "{} at {max_nodes}: {lo}..{hi} misses {v}",
                    s.label()
                );
                proven_any |= lo > -crate::INF || hi < crate::INF;
                assert_eq!(s.best_move.is_some(), s.best_index.is_some());
            }
            if s.algorithm == Algorithm::AlphaBeta {
                assert_eq!(s.proven, None, "alpha-beta proves nothing at the root before it ends");
            }
        }
    }
    assert!(proven_any, "some stopped driver proved a bound");
}

#[test]
fn a_stop_request_stops_a_search() {
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let request = Request {
        options: SearchOptions {
            control: Control {
                stop: Some(flag),
                ..Default::default()
            },
            ..SearchOptions::default()
        },
        ..Settings {
            algorithms: Some(vec![
                Algorithm::AlphaBeta,
                Algorithm::Sss,
                Algorithm::RecSss,
                Algorithm::Mtdf,
            ]),
            ..Settings::default()
        }
        .request(SourceKind::Tree)
        .unwrap()
    };
    let big = crate::RandomTree::new(crate::RandomSpec::parse("width=4,depth=8,seed=1").unwrap());
    for s in Runner::new().solve(&big, &request) {
        assert!(
            matches!(s.error, Some(SearchError::Stopped { .. })),
            "{}: {:?}",
            s.label(),
            s.error
        );
        assert_eq!(
            s.stats.nodes,
            1024,
            "{}: the flag is read every 1,024 positions",
            s.label()
        );
    }
}

#[test]
fn batches_compare_exact_scores_only_with_exact_values() {
    let kind = GameKind::TicTacToe;
    // X to move after 1,4,2,5 wins at 3; after 5 the game is a draw.
    let lines = parse_positions("1425 1\n5 0\n1425 0\n").unwrap();
    let exact = Settings {
        algorithms: Some(vec![Algorithm::AlphaBeta, Algorithm::Sss]),
        tt_mb: Some(1),
        ..Settings::default()
    };
    let mut seen = Vec::new();
    let sums = solve_positions(
        kind,
        &lines,
        &exact.request(SourceKind::Game(kind)).unwrap(),
        &mut Runner::new(),
        |p| seen.push((p.line, p.solutions[0].value)),
    )
    .unwrap();
    // The third line expects the wrong value on purpose.
    assert_eq!(seen, vec![(1, Some(1)), (2, Some(0)), (3, Some(1))]);
    assert_eq!(
        sums.iter().map(|s| (s.positions, s.wrong)).collect::<Vec<_>>(),
        vec![(3, Some(1)), (3, Some(1))]
    );
    let shallow = Settings {
        depth: Some(1),
        ..exact
    };
    let sums = solve_positions(
        kind,
        &lines,
        &shallow.request(SourceKind::Game(kind)).unwrap(),
        &mut Runner::new(),
        |_| {},
    )
    .unwrap();
    assert_eq!((sums[0].wrong, sums[0].bad_moves), (None, None));
    assert!(!sums[0].is_bad());
}

#[test]
fn a_batch_names_its_bad_line_and_refuses_an_empty_file() {
    let kind = GameKind::Connect4;
    let request = Settings {
        tt_mb: Some(1),
        ..Settings::default()
    }
    .request(SourceKind::Game(kind))
    .unwrap();
    let lines = parse_positions("4453 \n448\n").unwrap();
    let e = solve_positions(kind, &lines, &request, &mut Runner::new(), |_| {}).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.to_string().starts_with("line 2: position `448`: move 3 ('8')"), "{e}");
    let e = solve_positions(kind, &[], &request, &mut Runner::new(), |_| {}).unwrap_err();
    assert_eq!(e.to_string(), "the positions file holds no positions");
}

#[test]
fn a_panic_becomes_an_internal_error() {
    let e = on_stack(1 << 20, || -> u32 { panic!("boom at {}", 7) }).unwrap_err();
    assert_eq!(e, RunError::Internal("boom at 7".into()));
    assert!(e.to_string().starts_with("internal error (a bug in stockman"));
    assert_eq!(on_stack(1 << 20, || 5).unwrap(), 5);
}
