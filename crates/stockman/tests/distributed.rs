//! One position searched by several ranks (TDSAB and the root split of
//! `drivers::tdsab`), the ranks as threads of this process ([`LocalWorld`]):
//! on any number of ranks and any spread, the one-process value, and a best
//! move whose child holds it. (The MPI transport runs the same code;
//! `.ci/run` checks it with `mpirun`.)

use super::{child_value, value_of};
use stockman::drivers::tdsab::{LocalWorld, Scheme, TdsabOptions};
use stockman::{Algorithm, ConnectFour, Playable, RandomSpec, RandomTree, SearchOptions, TableSize};

const DRIVERS: [Algorithm; 3] = [Algorithm::Mtdf, Algorithm::MtdBi, Algorithm::MtSss];

#[test]
fn both_schemes_find_the_value_and_a_best_move_on_random_trees() {
    let mut runs = 0;
    for (seed, scheme) in (0..240u64).flat_map(|s| Scheme::ALL.map(|x| (s, x))) {
        let (w, d) = (2 + seed % 4, 2 + seed % 5);
        let spec = format!("width={w},depth={d},seed={seed},range=0..12");
        let tree = RandomTree::new(RandomSpec::parse(&spec).unwrap());
        let value = value_of(&tree);
        let ranks = 1 + (seed % 4) as usize;
        for (k, &algorithm) in DRIVERS.iter().enumerate() {
            let spread = [0, 1, 2, 9][(seed as usize + k) % 4];
            // Half of them on 1 MiB tables, the smallest: replacements.
            let table = if seed % 2 == 0 {
                TableSize::Megabytes(1)
            } else {
                TableSize::Unbounded
            };
            let opts = TdsabOptions {
                scheme,
                algorithm,
                spread,
                table,
                ..Default::default()
            };
            let out = LocalWorld::run(ranks, &tree, &opts).unwrap();
            let what = format!(
                "{spec}, {scheme} on {ranks} ranks, spread {spread}, {}",
                algorithm.name()
            );
            assert_eq!(out.value, value, "{what}");
            let best = out.best_index.unwrap_or_else(|| panic!("{what}: no best move"));
            assert_eq!(child_value(&tree, best), value, "{what}: best move {best}");
            assert_eq!(out.ranks.len(), ranks, "{what}");
            let sent: u64 = out.ranks.iter().map(|r| r.messages).sum();
            if ranks == 1 {
                assert_eq!(sent, 0, "{what}: one rank sends nothing");
            }
            runs += 1;
        }
    }
    assert_eq!(runs, 1440);
}

#[test]
fn both_schemes_solve_connect_four_positions_exactly() {
    let text = include_str!("data/connect4/Test_L2_R1");
    let lines = text.lines().take(24).enumerate();
    for ((i, line), scheme) in lines.flat_map(|l| Scheme::ALL.map(|x| (l, x))) {
        let mut parts = line.split_whitespace();
        let moves = parts.next().unwrap();
        let score: i32 = parts.next().unwrap().parse().unwrap();
        let game = ConnectFour::from_moves(moves).unwrap();
        let ranks = 1 + i % 4;
        let algorithm = DRIVERS[i % 3];
        let opts = TdsabOptions {
            scheme,
            algorithm,
            spread: 3,
            table: TableSize::Megabytes(4),
            ..Default::default()
        };
        let out = LocalWorld::run(ranks, &game, &opts).unwrap();
        let what = format!("{moves}, {scheme} on {ranks} ranks, {}", algorithm.name());
        assert_eq!(out.value, score, "{what}");
        let best = out.best_index.unwrap_or_else(|| panic!("{what}: no best move"));
        let mut list = Vec::new();
        stockman::Game::moves(&game, &stockman::Game::root(&game), &mut list);
        let child = game.after(list[best]);
        let opts = SearchOptions {
            table: TableSize::Megabytes(4),
            ..Default::default()
        };
        let child_value = -Algorithm::MtdBi.search(&child, &opts).unwrap().value.unwrap();
        assert_eq!(child_value, score, "{what}: best move {best}");
        let sent: u64 = out.ranks.iter().map(|r| r.messages).sum();
        if ranks > 1 {
            assert!(sent > 0, "{what}: the ranks shared the work");
        } else {
            assert_eq!(sent, 0, "{what}: one rank sends nothing");
        }
    }
}

#[test]
fn tdsab_refuses_what_it_cannot_distribute() {
    let tree = RandomTree::new(RandomSpec::parse("width=2,depth=2,seed=1").unwrap());
    for scheme in Scheme::ALL {
        let opts = TdsabOptions {
            scheme,
            algorithm: Algorithm::Sss,
            ..Default::default()
        };
        let e = LocalWorld::run(2, &tree, &opts).unwrap_err();
        assert!(e.to_string().contains("sss cannot be distributed"), "{e}");
    }
    assert_eq!("root-split".parse::<Scheme>(), Ok(Scheme::RootSplit));
    let e = "split".parse::<Scheme>().unwrap_err();
    assert!(e.contains("unknown scheme 'split' (known: tdsab, root-split)"), "{e}");
}

/// A uniform tree of width 3 and depth 4 whose leaf at `bad` is worth more
/// than any value may be.
struct Broken {
    bad: Vec<u32>,
}

impl stockman::Game for Broken {
    type Position = Vec<u32>;
    type Move = u32;
    fn root(&self) -> Vec<u32> {
        Vec::new()
    }
    fn role(&self, p: &Vec<u32>) -> stockman::Role {
        if p.len().is_multiple_of(2) {
            stockman::Role::Max
        } else {
            stockman::Role::Min
        }
    }
    fn moves(&self, p: &Vec<u32>, out: &mut Vec<u32>) {
        if p.len() < 4 {
            out.extend(0..3);
        }
    }
    fn play(&self, p: &Vec<u32>, m: u32) -> Vec<u32> {
        let mut c = p.clone();
        c.push(m);
        c
    }
    fn evaluate(&self, p: &Vec<u32>) -> i32 {
        if *p == self.bad {
            2_000_000_000
        } else {
            p.iter().fold(7, |h, &m| (h * 31 + m as i32) % 97)
        }
    }
    fn hash(&self, p: &Vec<u32>) -> Option<u64> {
        Some(p.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &m| {
            (h ^ u64::from(m) ^ 0x100).wrapping_mul(0x0100_0000_01b3)
        }))
    }
}

#[test]
fn a_rank_that_fails_stops_every_rank_with_its_error() {
    // TDSAB: the first leaf is evaluated by whichever rank is its home, in
    // a frame (spread 9) or in a test below it (spread 1). Root split: the
    // eldest move's first leaf on rank 0, while the others wait, or the
    // third move's, tested by another rank. Every rank stops, none waits
    // for the failed one, and the error says what went wrong.
    let cases = [
        (Scheme::Tdsab, 1, vec![0, 0, 0, 0]),
        (Scheme::Tdsab, 9, vec![0, 0, 0, 0]),
        (Scheme::RootSplit, 0, vec![0, 0, 0, 0]),
        (Scheme::RootSplit, 0, vec![2, 0, 0, 0]),
    ];
    for (scheme, spread, bad) in cases {
        for ranks in 1..=4 {
            let game = Broken { bad: bad.clone() };
            let opts = TdsabOptions {
                scheme,
                spread,
                ..Default::default()
            };
            let e = LocalWorld::run(ranks, &game, &opts).unwrap_err();
            assert!(
                e.to_string().contains("2000000000"),
                "{scheme} on {ranks} ranks, spread {spread}, bad leaf {bad:?}: {e}"
            );
        }
    }
}

#[test]
fn simulated_ranks_find_the_value_and_repeat_to_the_nanosecond() {
    use stockman::simulate::distributed::{simulate, NetCost};
    let cost = NetCost {
        node_ns: 1_000,
        latency_ns: 20_000,
        overhead_ns: 2_000,
    };
    let mut runs = 0;
    for seed in 0..40u64 {
        let spec = format!("width={},depth={},seed={seed},range=0..12", 2 + seed % 4, 3 + seed % 4);
        let tree = RandomTree::new(RandomSpec::parse(&spec).unwrap());
        let value = value_of(&tree);
        for scheme in Scheme::ALL {
            let ranks = [1, 2, 3, 5, 16][seed as usize % 5];
            let opts = TdsabOptions {
                scheme,
                algorithm: DRIVERS[seed as usize % 3],
                spread: 2,
                table: TableSize::Megabytes(1),
                ..Default::default()
            };
            let what = format!("{spec}, {scheme} on {ranks} simulated ranks");
            let out = simulate(ranks, &tree, &opts, cost).unwrap();
            assert_eq!(out.value, value, "{what}");
            let best = out.best_index.unwrap_or_else(|| panic!("{what}: no best move"));
            assert_eq!(child_value(&tree, best), value, "{what}: best move {best}");
            assert_eq!(
                out,
                simulate(ranks, &tree, &opts, cost).unwrap(),
                "{what}: a second run"
            );
            assert_eq!(out.ranks.len(), ranks, "{what}");
            for r in &out.ranks {
                // A rank's time is its work, its messages' overheads and its waits.
                assert!(r.idle_ns + r.work * cost.node_ns <= r.end_ns, "{what}: rank {}", r.rank);
                assert!(r.end_ns <= out.makespan_ns, "{what}");
            }
            if ranks == 1 {
                assert_eq!(out.messages(), 0, "{what}");
                assert_eq!(
                    out.makespan_ns,
                    out.work() * cost.node_ns,
                    "{what}: one rank is its work"
                );
            }
            runs += 1;
        }
    }
    assert_eq!(runs, 80);
}

#[test]
fn a_simulated_rank_that_fails_stops_every_rank() {
    use stockman::simulate::distributed::{simulate, NetCost};
    let cost = NetCost {
        node_ns: 1,
        latency_ns: 10,
        overhead_ns: 1,
    };
    for scheme in Scheme::ALL {
        for ranks in [1, 3] {
            let opts = TdsabOptions {
                scheme,
                spread: 1,
                ..Default::default()
            };
            let e = simulate(ranks, &Broken { bad: vec![2, 0, 0, 0] }, &opts, cost).unwrap_err();
            assert!(e.to_string().contains("2000000000"), "{scheme} on {ranks}: {e}");
        }
    }
}

/// A game that panics when it evaluates one leaf (a bug in a user's game),
/// to see every rank stop instead of waiting for the one that died.
struct PanicsAt {
    tree: RandomTree,
    leaf: u64,
    seen: std::sync::atomic::AtomicU64,
}

impl stockman::Game for PanicsAt {
    type Position = <RandomTree as stockman::Game>::Position;
    type Move = <RandomTree as stockman::Game>::Move;
    fn root(&self) -> Self::Position {
        self.tree.root()
    }
    fn role(&self, pos: &Self::Position) -> stockman::Role {
        self.tree.role(pos)
    }
    fn moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>) {
        self.tree.moves(pos, out)
    }
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position {
        self.tree.play(pos, mv)
    }
    fn evaluate(&self, pos: &Self::Position) -> i32 {
        if self.seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == self.leaf {
            panic!("the user's evaluation broke");
        }
        self.tree.evaluate(pos)
    }
    fn hash(&self, pos: &Self::Position) -> Option<u64> {
        self.tree.hash(pos)
    }
}

#[test]
fn a_rank_that_panics_stops_every_rank_with_its_message() {
    for ranks in [2, 3, 4] {
        for scheme in Scheme::ALL {
            let game = PanicsAt {
                tree: RandomTree::new(RandomSpec::parse("width=4,depth=6,seed=3").unwrap()),
                leaf: 150,
                seen: Default::default(),
            };
            let opts = TdsabOptions {
                scheme,
                ..Default::default()
            };
            let e = LocalWorld::run(ranks, &game, &opts).unwrap_err().to_string();
            assert!(
                e.contains("panicked: the user's evaluation broke"),
                "{scheme} on {ranks}: {e}"
            );
            let game = PanicsAt {
                seen: Default::default(),
                ..game
            };
            let cost = stockman::simulate::distributed::NetCost {
                node_ns: 1_000,
                latency_ns: 5_000,
                overhead_ns: 1_000,
            };
            let e = stockman::simulate::distributed::simulate(ranks, &game, &opts, cost)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("panicked: the user's evaluation broke"),
                "simulated {scheme} on {ranks}: {e}"
            );
        }
    }
}

#[test]
fn simulated_costs_out_of_range_are_refused_and_never_wrap() {
    use stockman::simulate::distributed::{simulate, NetCost, MAX_COST_NS};
    let tree = RandomTree::new(RandomSpec::parse("width=3,depth=4,seed=1").unwrap());
    let opts = TdsabOptions::default();
    let ok = NetCost {
        node_ns: MAX_COST_NS,
        latency_ns: MAX_COST_NS,
        overhead_ns: MAX_COST_NS,
    };
    let r = simulate(2, &tree, &opts, ok).unwrap();
    assert_eq!(r.value, value_of(&tree));
    // Dear but in range: the clocks grow with the work, none wrapped.
    assert!(r.makespan_ns >= r.work() / 2 * MAX_COST_NS, "{r:?}");
    for (name, cost) in [
        (
            "a node cost",
            NetCost {
                node_ns: MAX_COST_NS + 1,
                ..ok
            },
        ),
        (
            "a latency",
            NetCost {
                latency_ns: u64::MAX,
                ..ok
            },
        ),
        (
            "an overhead",
            NetCost {
                overhead_ns: u64::MAX,
                ..ok
            },
        ),
    ] {
        let e = simulate(2, &tree, &opts, cost).unwrap_err().to_string();
        assert!(e.contains(&format!("{name} of")), "{e}");
    }
}

/// A chain of `plies` single-child nodes above a leaf worth 7.
fn chain(plies: usize) -> stockman::ExplicitTree {
    let text = format!("{}7{}", "[".repeat(plies), "]".repeat(plies));
    stockman::ExplicitTree::parse(&text, stockman::Role::Max).unwrap()
}

#[test]
fn the_spread_is_bounded_and_so_is_every_message() {
    use stockman::drivers::tdsab::{self, MAX_MESSAGE_BYTES, MAX_SPREAD};
    use stockman::simulate::distributed::{simulate, NetCost};
    stockman::run::on_stack(stockman::run::stack_bytes(10_000), || {
        // The case: a 3,000-ply chain, spread as far as allowed.
        let tree = chain(3_000);
        let cost = NetCost {
            node_ns: 1_000,
            latency_ns: 5_000,
            overhead_ns: 1_000,
        };
        let opts = TdsabOptions {
            spread: MAX_SPREAD,
            max_plies: Some(tree.height()),
            ..Default::default()
        };
        for ranks in 1..=3 {
            let out = LocalWorld::run(ranks, &tree, &opts).unwrap();
            assert_eq!((out.value, out.best_index), (7, Some(0)), "{ranks} ranks");
            for r in &out.ranks {
                assert!(r.bytes <= r.messages * MAX_MESSAGE_BYTES as u64, "{ranks} ranks: {r:?}");
            }
        }
        // Simulated, the messages repeat exactly: a pass sends a position
        // per ply of the spread (bar those whose home is their parent's),
        // each with its path, and no more (at --spread 5,000 the issue
        // counted 12,003 messages and 36 MB).
        let got: Vec<(u64, u64)> = (2..=3)
            .map(|ranks| {
                let out = simulate(ranks, &tree, &opts, cost).unwrap();
                assert_eq!(out.value, 7);
                (out.messages(), out.ranks.iter().map(|r| r.bytes).sum())
            })
            .collect();
        assert_eq!(got, PINNED_CHAIN);
        // One ply more is refused by every way in, with the bound named.
        let over = TdsabOptions {
            spread: MAX_SPREAD + 1,
            ..opts.clone()
        };
        let want = format!("a spread of {} plies is more than the {MAX_SPREAD}", MAX_SPREAD + 1);
        for scheme in Scheme::ALL {
            let over = TdsabOptions { scheme, ..over.clone() };
            let e = LocalWorld::run(2, &tree, &over).unwrap_err().to_string();
            assert!(e.contains(&want), "{e}");
            let e = simulate(2, &tree, &over, cost).unwrap_err().to_string();
            assert!(e.contains(&want), "{e}");
            let mut one = LocalWorld::new(1);
            let e = tdsab::search(&tree, &over, &mut one[0], 0).unwrap_err().to_string();
            assert!(e.contains(&want), "{e}");
        }
    })
    .unwrap();
}

/// The messages and bytes of the 3,000-ply chain at the largest spread, on
/// 2 and 3 simulated ranks.
const PINNED_CHAIN: [(u64, u64); 2] = [(134, 12_694), (140, 13_924)];

#[test]
fn a_thousand_simulated_ranks_hold_what_they_search() {
    use stockman::simulate::distributed::{simulate, NetCost};
    let cost = NetCost {
        node_ns: 1_000,
        latency_ns: 5_000,
        overhead_ns: 1_000,
    };
    // 1,024 ranks, each asked for a 16 MiB table, on a one-leaf tree: each
    // table is one bucket (64 bytes), not 16 MiB a rank (the issue: 6.7 GB).
    let leaf = stockman::ExplicitTree::parse("5", stockman::Role::Max).unwrap();
    for scheme in Scheme::ALL {
        let opts = TdsabOptions {
            scheme,
            table: TableSize::Megabytes(16),
            ..Default::default()
        };
        let out = simulate(1024, &leaf, &opts, cost).unwrap();
        assert_eq!(out.value, 5, "{scheme}");
        assert_eq!(out.ranks.len(), 1024);
        assert!(
            out.ranks.iter().all(|r| r.table_bytes == 64),
            "{scheme}: {:?}",
            &out.ranks[..4]
        );
    }
    // A rank given no root move does no work: 1,024 ranks on a root of one
    // move cost what one rank does, not a move list a rank (1,027 before).
    let one = stockman::ExplicitTree::parse("[5]", stockman::Role::Max).unwrap();
    for scheme in Scheme::ALL {
        let opts = TdsabOptions {
            scheme,
            ..Default::default()
        };
        let alone = simulate(1, &one, &opts, cost).unwrap();
        let out = simulate(1024, &one, &opts, cost).unwrap();
        assert_eq!((out.value, out.best_index), (5, Some(0)), "{scheme}");
        assert!(
            out.work() <= alone.work() + 8,
            "{scheme}: {} units on 1,024 ranks, {} on one",
            out.work(),
            alone.work()
        );
    }
    // A search: each rank's table holds its share, far below the 16 MiB
    // asked, with the same answers as full tables would give (the counts
    // of the other tests are unchanged).
    let tree = RandomTree::new(RandomSpec::parse("width=4,depth=6,seed=3").unwrap());
    let opts = TdsabOptions {
        spread: 2,
        table: TableSize::Megabytes(16),
        ..Default::default()
    };
    let out = simulate(16, &tree, &opts, cost).unwrap();
    assert_eq!(out.value, value_of(&tree));
    let tables: Vec<u64> = out.ranks.iter().map(|r| r.table_bytes).collect();
    assert_eq!(tables, PINNED_TABLES);
    // Threads of one process too.
    let local = LocalWorld::run(4, &tree, &opts).unwrap();
    assert!(
        local.ranks.iter().all(|r| r.table_bytes > 0 && r.table_bytes < 1 << 20),
        "{:?}",
        local.ranks
    );
}

/// The table bytes of the 16 simulated ranks of width 4, depth 6, seed 3.
const PINNED_TABLES: [u64; 16] = [
    16_384, 64, 32_768, 64, 64, 64, 64, 64, 8_192, 64, 64, 16_384, 16_384, 64, 65_536, 64,
];
