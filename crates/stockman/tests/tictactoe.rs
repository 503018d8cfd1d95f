//! Tic-tac-toe is solved exactly by every algorithm.

use stockman::Enhancements;
use stockman::{Algorithm, Game, SearchOptions, TableSize, TicTacToe};

fn every_algorithm_agrees(moves: &str, want: Option<i32>) {
    let game = TicTacToe::from_moves(moves).unwrap();
    let exact = Algorithm::Minimax.search(&game, &SearchOptions::default()).unwrap();
    if let Some(w) = want {
        assert_eq!(exact.value, Some(w), "minimax on {moves:?}");
    }
    let v = exact.value.unwrap();
    for tt in [TableSize::Unbounded, TableSize::Megabytes(1)] {
        let opts = SearchOptions {
            table: tt,
            enhancements: Enhancements {
                table_move_first: true,
                ..Default::default()
            },
            ..Default::default()
        };
        for &a in Algorithm::ALL {
            let out = a.search(&game, &opts).unwrap();
            match out.bound {
                Some((lo, hi)) => assert!(lo <= v && v < hi, "{a} on {moves:?}: {lo}..{hi}"),
                None => assert_eq!(out.value, Some(v), "{a} on {moves:?}"),
            }
            // The best move really holds the value.
            if let Some(m) = out.best_move {
                let child = game.play(&game.root(), m);
                let after = TicTacToe::from_moves(&format!("{moves}{}", m + 1)).unwrap();
                assert_eq!(after.root(), child);
                let held = Algorithm::Minimax
                    .search(&after, &SearchOptions::default())
                    .unwrap()
                    .value
                    .unwrap();
                // The child's value is from the child's mover's view: the opponent's.
                assert_eq!(-held, v, "{a} on {moves:?}: move {} does not hold {v}", m + 1);
            }
        }
    }
}

#[test]
fn the_empty_board_is_a_draw_for_every_algorithm() {
    every_algorithm_agrees("", Some(0));
}

#[test]
fn known_positions() {
    every_algorithm_agrees("5", Some(0));
    // X in a corner, O on an edge next to it: X wins.
    every_algorithm_agrees("12", Some(1));
    // X: 1, 2; O: 5 — O to move must block 3, then X draws at best... value for O.
    every_algorithm_agrees("152", None);
}

#[test]
fn every_position_after_up_to_three_moves() {
    let mut frontier = vec![String::new()];
    let mut checked = 0;
    for _ in 0..3 {
        let mut next = Vec::new();
        for p in &frontier {
            for c in 1..=9 {
                let q = format!("{p}{c}");
                if TicTacToe::from_moves(&q).is_ok() {
                    every_algorithm_agrees(&q, None);
                    checked += 1;
                    next.push(q);
                }
            }
        }
        frontier = next;
    }
    assert_eq!(checked, 9 + 72 + 504);
}
