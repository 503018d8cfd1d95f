//! Checkers: every algorithm agreeing on the minimax value at depth 6 (an
//! opening, positions with multi-jumps and crowning), MT-SSS\* = SSS\* on
//! the unfolded checkers tree, and the values of won and drawn positions.

use std::collections::HashMap;
use stockman::games::checkers::{Checkers, WIN};
use stockman::{Algorithm, Game, LeafRecorder, Outcome, Playable, Role, SearchOptions, TableSize, Unfolded, Value};
use stockman::{Enhancements, Limits};

fn game(text: &str) -> Checkers {
    Checkers::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The test positions: the start, an opening after an exchange, Black
/// with a multi-jump and a crowning capture to choose from, and White with
/// multi-jumps that end by crowning (two routes over different pieces).
const POSITIONS: [&str; 4] = [
    "",
    "11-15 22-18 15x22 25x18 8-11 29-25 4-8 25-22",
    "B:W14,22,27,30,K3:B10,23,K5",
    "W:W18,19,26,27,K2:B6,7,14,15,K28",
];

/// The minimax value of `pos` searched `depth` plies deep, computed here
/// without the crate's searches.
fn minimax<G: Game>(g: &G, pos: &G::Position, depth: u32) -> Value {
    let mut moves = Vec::new();
    g.moves(pos, &mut moves);
    if depth == 0 || moves.is_empty() {
        return g.evaluate(pos);
    }
    let values = moves.iter().map(|&m| minimax(g, &g.play(pos, m), depth - 1));
    match g.role(pos) {
        Role::Max => values.max().expect("moves"),
        Role::Min => values.min().expect("moves"),
    }
}

fn depth(d: u32) -> SearchOptions {
    SearchOptions {
        limits: Limits::to_depth(d),
        ..Default::default()
    }
}

/// What a game program runs: a small table, the table's move first,
/// history, killers and enhanced transposition cutoffs.
fn enhanced(d: u32) -> SearchOptions {
    SearchOptions {
        limits: Limits::to_depth(d),
        table: TableSize::Megabytes(8),
        enhancements: Enhancements {
            table_move_first: true,
            history: true,
            killers: true,
            etc: true,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// Every algorithm finds the minimax value `d` plies deep (Best Node
/// Search: a bound that holds it), plain and enhanced, and every best move
/// holds it.
fn every_algorithm_agrees(label: &str, g: &Checkers, d: u32) -> Value {
    let root = g.root();
    let v = minimax(g, &root, d);
    let mut child_values: HashMap<String, Value> = HashMap::new();
    for opts in [depth(d), enhanced(d)] {
        for &a in Algorithm::ALL {
            let out = a
                .search(g, &opts)
                .unwrap_or_else(|e| panic!("{label} depth {d}: {a}: {e}"));
            match out.bound {
                Some((lo, hi)) => assert!(lo <= v && v < hi, "{label} depth {d}: {a}: {lo}..{hi} misses {v}"),
                None => assert_eq!(out.value, Some(v), "{label} depth {d}: {a}"),
            }
            if let Some(m) = out.best_move {
                let text = g.move_text(m);
                let held = *child_values
                    .entry(text.clone())
                    .or_insert_with(|| minimax(g, &g.play(&root, m), d - 1));
                assert_eq!(held, v, "{label} depth {d}: {a}: {text} does not hold {v}");
            } else {
                assert!(g.legal_moves().is_empty(), "{label}: {a} names no move");
            }
        }
    }
    v
}

#[test]
fn every_algorithm_agrees_at_depth_6() {
    for text in POSITIONS {
        let v = every_algorithm_agrees(text, &game(text), 6);
        eprintln!("{text:?}: {v}");
    }
}

fn leaf_paths<G: Game>(a: Algorithm, g: &G, d: u32) -> (Vec<Vec<u32>>, Outcome<G::Move>) {
    let mut rec = LeafRecorder::default();
    let out = a.with_options(&depth(d)).observer(&mut rec).run(g).unwrap();
    (rec.paths(), out)
}

/// The theorem is about the tree: on the unfolded checkers tree (nodes
/// hashed by their path, see `stockman::Unfolded`) MT-SSS\* evaluates
/// exactly SSS\*'s leaves in the same order, and MT-Dual\* Dual\*'s.
#[test]
fn mt_sss_equals_sss_on_the_checkers_tree() {
    for text in POSITIONS {
        let tree = Unfolded(game(text));
        for d in 1..=5 {
            let (sss, a) = leaf_paths(Algorithm::Sss, &tree, d);
            let (mt, b) = leaf_paths(Algorithm::MtSss, &tree, d);
            assert_eq!(a.value, b.value, "{text:?} depth {d}");
            assert_eq!(mt, sss, "{text:?} depth {d}: MT-SSS* vs SSS*");
            let (dual, _) = leaf_paths(Algorithm::Dual, &tree, d);
            let (mt_dual, _) = leaf_paths(Algorithm::MtDual, &tree, d);
            assert_eq!(mt_dual, dual, "{text:?} depth {d}: MT-Dual* vs Dual*");
        }
    }
}

/// A won race: Black's last man is caught. Every algorithm finds the win
/// at the same distance (a faster win scores more).
#[test]
fn wins_are_found_at_their_distance() {
    // White's king on 18 and man on 22 against Black's man on 14: White
    // to move jumps 14 at once and Black has nothing left.
    let g = game("W:WK18,22:B14");
    assert_eq!(
        g.legal_moves().iter().map(|&m| g.move_text(m)).collect::<Vec<_>>(),
        ["18x9"]
    );
    for &a in Algorithm::ALL {
        let out = a.search(&g, &depth(4)).unwrap();
        let won = WIN - 1;
        match out.bound {
            Some((lo, hi)) => assert!(lo <= won && won < hi, "{a}"),
            None => assert_eq!(out.value, Some(won), "{a}"),
        }
    }
}

/// The three-move deck of `tests/data/checkers` (the report's positions):
/// 156 openings, numbered as the ACF list less its 18 barred ballots, each a
/// legal three-move sequence from the start, all different, White to move;
/// and NegaScout finds the minimax value of each three plies deep.
#[test]
fn the_three_move_deck_parses_and_searches() {
    use stockman::games::positions::parse_positions;
    let text = include_str!("data/checkers/acf-3-move.txt");
    let lines = parse_positions(text).expect("the deck parses");
    assert_eq!(lines.len(), 156);
    let barred = [
        3, 13, 26, 35, 44, 45, 48, 52, 77, 88, 94, 109, 114, 137, 145, 156, 168, 171,
    ];
    let numbers: Vec<usize> = lines
        .iter()
        .map(|l| {
            let id = l
                .notes
                .iter()
                .find_map(|n| n.strip_prefix("id \"ACF "))
                .expect("an ACF id");
            id.trim_end_matches('"').parse().expect("a number")
        })
        .collect();
    let expected: Vec<usize> = (1..=174).filter(|n| !barred.contains(n)).collect();
    assert_eq!(numbers, expected);
    let mut fens = std::collections::HashSet::new();
    for l in &lines {
        assert_eq!(l.position.split_whitespace().count(), 3, "{}", l.position);
        let g = game(&l.position);
        assert_eq!(g.to_move_text(), "White", "{}", l.position);
        assert!(fens.insert(g.fen()), "{} repeats an opening", l.position);
        let out = Algorithm::NegaScout.search(&g, &depth(3)).expect("searches");
        assert_eq!(out.value, Some(minimax(&g, &g.root(), 3)), "{}", l.position);
    }
}
