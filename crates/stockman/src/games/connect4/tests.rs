use super::*;
use crate::options::{Enhancements, Limits};
use crate::search::SearchOptions;
use crate::table::TableSize;

fn game(moves: &str) -> ConnectFour {
    ConnectFour::from_moves(moves).unwrap()
}

fn solve(moves: &str) -> Value {
    let opts = SearchOptions {
        table: TableSize::Megabytes(4),
        enhancements: Enhancements {
            table_move_first: true,
            ..Default::default()
        },
        ..Default::default()
    };
    crate::algorithms::alphabeta::search_observed(&game(moves), &opts, &mut crate::NoObserver)
        .unwrap()
        .value
        .unwrap()
}

fn listed(g: &ConnectFour) -> Vec<u8> {
    let mut out = Vec::new();
    g.moves(&g.root(), &mut out);
    out
}

#[test]
fn layout_constants() {
    assert_eq!(BOTTOM.count_ones(), 7);
    assert_eq!(BOARD.count_ones(), 42);
    let total: i32 = WEIGHTS.iter().flatten().map(|&w| i32::from(w)).sum();
    assert_eq!(total, 69 * 4); // 69 possible fours of four cells
    assert_eq!(weight(BOARD), total);
    assert_eq!(std::mem::size_of::<Board>(), 40);
}

#[test]
fn parsing_and_display() {
    let g = game("4453");
    assert_eq!(g.moves_played(), 4);
    assert_eq!(
        g.board().to_string(),
        ".......\n.......\n.......\n.......\n...O...\n..OXX..\n"
    );
    assert_eq!(
        g.to_string(),
        ".......\n.......\n.......\n.......\n...O...\n..OXX..\n1234567\n"
    );
    assert_eq!(g.board().cell(3, 0), 'X');
    assert_eq!(g.board().cell(9, 9), '.');
    assert_eq!(game(""), ConnectFour::new());
    assert_eq!(game("").board(), Board::new());
    assert!(game("444444").board().can_play(2) && !game("444444").board().can_play(3));
}

#[test]
fn errors_name_the_move() {
    let err = |s: &str| ConnectFour::from_moves(s).unwrap_err();
    let e = err("44a");
    assert_eq!(
        (e.index, e.found, e.kind),
        (3, 'a', GameErrorKind::NotADigit { max: 7 })
    );
    for (s, c) in [("0", '0'), ("448", '8'), ("4449", '9')] {
        let e = err(s);
        assert_eq!(
            (e.index, e.found, e.kind),
            (s.len(), c, GameErrorKind::OutOfRange { max: 7 })
        );
    }
    let e = err("4444444");
    assert_eq!((e.index, e.found, e.kind), (7, '4', GameErrorKind::ColumnFull));
    assert_eq!(e.to_string(), "move 7 ('4'): column 4 is full");
    // The first player connects four in column 1 with move 7.
    let e = err("12121213");
    assert_eq!((e.index, e.found, e.kind), (8, '3', GameErrorKind::GameOver));
    assert_eq!(e.to_string(), "move 8 ('3'): the game is already over");
    // Character positions, not bytes.
    let e = err("4é4");
    assert_eq!((e.index, e.found), (2, 'é'));
    assert_eq!(err("4 4").found, ' ');
    assert_eq!(err("4\n").to_string(), "move 2 ('\\n'): not a digit (moves are 1 to 7)");
    // A full board without a four: a draw, and no more moves.
    let full = "547125662261271266215743771576315353334444";
    assert_eq!(solve(full), 0);
    assert!(game(full).board().is_over());
    let e = err(&format!("{full}1"));
    assert_eq!((e.index, e.kind), (43, GameErrorKind::GameOver));
}

#[test]
fn score_convention_by_hand() {
    // First player has three in column 1 and is to move: wins with its 4th stone.
    assert_eq!(solve("121212"), 18);
    // Decided but not over: only the winning column is listed.
    assert_eq!(listed(&game("121212")), vec![0]);
    assert_eq!(game("121212").board().winning_moves(), vec![0]);
    assert_eq!(game("1212121").board().winning_moves(), Vec::<u8>::new());
    assert_eq!(game("4455").board().winning_moves(), Vec::<u8>::new());
    // The first player connected four with its 4th stone; the second player to move has lost.
    assert_eq!(solve("1212121"), -18);
    // First player holds 2, 3, 4 on the bottom row, both ends open: the second player,
    // to move, cannot stop a win with the first player's 4th stone.
    assert_eq!(solve("22334"), -18);
    // Lost but not over: every legal column is listed (each loses at once).
    assert_eq!(listed(&game("22334")).len(), 7);
    // The second player holds 2, 3, 4 on the bottom row, the first player 1:
    // the only move is the block in column 5 (move 4).
    assert_eq!(listed(&game("127374")), vec![4]);
    // Test_L3_R1, first lines.
    assert_eq!(solve("2252576253462244111563365343671351441"), -1);
    assert_eq!(solve("7422341735647741166133573473242566"), 1);
    assert_eq!(solve("23163416124767223154467471272416755633"), 0);
}

#[test]
fn roles_and_values_follow_the_root_mover() {
    let g = game("22334").with_heuristic();
    assert_eq!(g.role(&g.root()), Role::Max);
    assert_eq!(g.evaluate(&g.root()), -1800);
    assert_eq!(g.bounds(&g.root()), (-1800, -1800));
    // One ply later the second player (now MIN) ...
    let g = game("2233").with_heuristic();
    let child = g.play(&g.root(), 3); // first player: 2, 3, 4 on the bottom row
    assert_eq!(g.role(&child), Role::Min);
    assert_eq!(g.evaluate(&child), 1800); // ... has lost: good for MAX
    let exact = game("2233");
    assert_eq!(exact.evaluate(&exact.play(&exact.root(), 3)), 18);
}

#[test]
fn bounds_hold_and_scale() {
    let g = game("4453");
    // 4 stones, first player (MAX) to move: -(36/2) ..= 37/2.
    assert_eq!(g.bounds(&g.root()), (-18, 18));
    let child = g.play(&g.root(), 3);
    assert_eq!(g.bounds(&child), (-18, 17)); // MIN to move: -(35/2) ..= 36/2, negated
    let h = g.with_heuristic();
    assert_eq!(h.bounds(&h.root()), (-1800, 1800));
    // 39 stones, not decided: the mover cannot lose any more, but a heuristic
    // value may be negative, so the heuristic bounds widen to -99.
    let late = game("547125662261271266215743771576315353334");
    assert_eq!(late.moves_played(), 39);
    assert!(!listed(&late).is_empty());
    assert_eq!(late.bounds(&late.root()), (0, 1));
    let late = late.with_heuristic();
    assert_eq!(late.bounds(&late.root()), (-99, 100));
    let v = crate::algorithms::minimax::search_observed(
        &late,
        &SearchOptions {
            limits: Limits::to_depth(1),
            ..Default::default()
        },
        &mut crate::NoObserver,
    );
    let v = v.unwrap().value.unwrap();
    assert!((-99..=100).contains(&v), "{v}");
}

#[test]
fn move_order_prefers_threats_then_centre() {
    assert_eq!(listed(&ConnectFour::new()), vec![3, 2, 4, 1, 5, 0, 6]);
    // First player holds 4 and 5 on the bottom row (second player on top of them):
    // playing 3 or 6 makes two winning cells, the others fewer.
    let order = listed(&game("4455"));
    assert_eq!(&order[..2], &[2, 5]);
}

#[test]
fn mirror_images_share_keys_under_a_symmetric_root() {
    let root = ConnectFour::new();
    assert!(root.symmetric && game("44").symmetric && !game("1").symmetric);
    // Play a game and its mirror image from the empty board.
    let (mut a, mut b) = (root.root(), root.root());
    for col in [0, 1, 3, 3, 2, 5, 6, 2, 4] {
        a = root.play(&a, col);
        b = root.play(&b, 6 - col);
        assert_eq!(mirror(a.key()), b.key());
        assert_eq!(root.hash(&a), root.hash(&b));
        let (mut la, mut lb) = (Vec::new(), Vec::new());
        root.moves(&a, &mut la);
        root.moves(&b, &mut lb);
        // The same list seen in a mirror: index i names mirrored moves.
        assert_eq!(la.iter().map(|&c| 6 - c).collect::<Vec<_>>(), lb);
    }
    // An asymmetric root keeps every position's own key.
    let g = game("1");
    let (a, b) = (g.play(&g.root(), 2), g.play(&g.root(), 4));
    assert_eq!((g.hash(&a), g.hash(&b)), (Some(a.key()), Some(b.key())));
    // Mirrored games have the same value.
    assert_eq!(solve("4455321"), solve("4433567"));
}

#[test]
fn hash_is_unique_on_a_small_tree() {
    use std::collections::HashMap;
    let g = ConnectFour::new();
    let mut seen: HashMap<u64, Board> = HashMap::new();
    let mut frontier = vec![g.root()];
    for _ in 0..6 {
        let mut next = Vec::new();
        for p in frontier {
            for col in 0..7 {
                let c = p.play(col);
                // The winning cells play derives are those of a fresh scan.
                assert_eq!(c.mine, winning_cells(c.current, c.mask));
                assert_eq!(c.theirs, winning_cells(c.current ^ c.mask, c.mask));
                assert_eq!(g.child_hash(&p, col), g.hash(&c));
                if let Some(old) = seen.insert(c.key(), c) {
                    assert_eq!((old.current, old.mask), (c.current, c.mask));
                } else {
                    next.push(c);
                }
            }
        }
        frontier = next;
    }
    assert!(seen.len() > 10_000);
}
