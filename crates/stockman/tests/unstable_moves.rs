//! Games whose move lists are not stable between calls: the same moves in
//! another order each time (iterating a set gives no fixed order, and some
//! programs shuffle for variety), or even a varying number of moves (a
//! broken game).
//!
//! Every algorithm reads a node's list once for as long as it works on
//! the node (SSS\* and Dual\* keep each expanded node's list, RecSSS\* and
//! RecDual\* their grandsons', the depth-first searches a list per visit,
//! and a search the root's list for all its passes), so each must return
//! the minimax value on a shuffling game; none may ever panic.

use std::cell::Cell;
use stockman::{Algorithm, ExplicitTree, Game, RandomSpec, RandomTree, Role, SearchError, SearchOptions, Value};

/// A tree whose `moves()` returns the children in a fresh pseudo-random
/// order on every call (and, when `drop` is set, sometimes leaves one out).
struct Shuffled {
    tree: ExplicitTree,
    rng: Cell<u64>,
    drop: bool,
}

impl Shuffled {
    fn next(&self) -> u64 {
        // xorshift64*: deterministic for a seed, so failures replay.
        let mut x = self.rng.get();
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng.set(x);
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

impl Game for Shuffled {
    type Position = u32;
    type Move = u32;
    fn root(&self) -> u32 {
        self.tree.root()
    }
    fn role(&self, pos: &u32) -> Role {
        self.tree.role(pos)
    }
    fn moves(&self, pos: &u32, out: &mut Vec<u32>) {
        let start = out.len();
        self.tree.moves(pos, out);
        let mine = &mut out[start..];
        for i in (1..mine.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            mine.swap(i, j);
        }
        if self.drop && mine.len() > 1 && self.next().is_multiple_of(3) {
            out.pop();
        }
    }
    fn play(&self, pos: &u32, mv: u32) -> u32 {
        self.tree.play(pos, mv)
    }
    fn evaluate(&self, pos: &u32) -> Value {
        self.tree.evaluate(pos)
    }
    fn hash(&self, pos: &u32) -> Option<u64> {
        self.tree.hash(pos)
    }
    fn value_range(&self) -> (Value, Value) {
        self.tree.value_range()
    }
}

fn trees() -> Vec<ExplicitTree> {
    let mut out = vec![ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap()];
    for seed in 1..=40 {
        for (w, d) in [(3, 4), (4, 3), (2, 6)] {
            let spec = RandomSpec::parse(&format!("width={w},depth={d},seed={seed},range=0..20")).unwrap();
            let role = if seed % 2 == 0 { Role::Min } else { Role::Max };
            let spec = RandomSpec {
                root_role: role,
                ..spec
            };
            out.push(ExplicitTree::from_game(&RandomTree::new(spec), None, 100_000).unwrap());
        }
    }
    out
}

#[test]
fn shuffled_moves_give_every_algorithm_the_minimax_value() {
    for (t, tree) in trees().into_iter().enumerate() {
        let want = Algorithm::Minimax
            .search(&tree, &SearchOptions::default())
            .unwrap()
            .value;
        for seed in 1..=5u64 {
            let game = Shuffled {
                tree: tree.clone(),
                rng: Cell::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) + t as u64),
                drop: false,
            };
            for &algo in Algorithm::ALL {
                let out = algo.search(&game, &SearchOptions::default()).unwrap();
                match out.bound {
                    Some((a, b)) if !algo.finds_value() => {
                        let v = want.unwrap();
                        assert!(a <= v && v < b, "tree {t} seed {seed} {algo}: [{a}, {b}) misses {v}");
                    }
                    _ => assert_eq!(out.value, want, "tree {t} seed {seed} {algo}"),
                }
            }
        }
    }
}

#[test]
fn a_varying_number_of_moves_never_panics() {
    for (t, tree) in trees().into_iter().enumerate() {
        for seed in 1..=3u64 {
            let game = Shuffled {
                tree: tree.clone(),
                rng: Cell::new(seed * 0x2545_F491 + t as u64),
                drop: true,
            };
            for &algo in Algorithm::ALL {
                // Any answer or a clear error: what matters is no panic.
                if let Err(e) = algo.search(&game, &SearchOptions::default()) {
                    assert!(matches!(e, SearchError::BadGame { .. }), "tree {t} {algo}: {e}");
                    assert!(e.to_string().contains("moves()"), "{e}");
                }
            }
        }
    }
}
