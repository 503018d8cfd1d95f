//! Cost per position: one fixed search per game, and what one position
//! costs in it (nanoseconds of the thread's CPU time per position visited,
//! and millions of positions per CPU second), so that a regression in any
//! game's rules or in the engines shows up as one number.
//!
//! ```text
//! cargo bench -p stockman --bench cost          # COST_RUNS=7 by default
//! ```
//!
//! Every search's value and positions visited are asserted first (the
//! counts are deterministic: one thread, fixed options); the time is the
//! median of `COST_RUNS` runs, interleaved game after game, so that a change
//! of the machine's load hits every game alike. The clock is the thread's
//! CPU time where the platform has it, else the wall clock.

use std::time::{Duration, Instant};
use stockman::games::othello::Othello;
use stockman::{
    thread_cpu_time, Algorithm, ChessGame, ConnectFour, Game, Playable, RandomSpec, RandomTree, SearchOptions,
    TableSize, TicTacToe, Value,
};
use stockman::{Enhancements, Limits};

/// One measured search: its name, the search, its value and positions.
struct Case {
    name: &'static str,
    run: Box<dyn Fn() -> (Option<Value>, u64)>,
    value: Value,
    nodes: u64,
}

fn with_table(depth: Option<u32>) -> SearchOptions {
    SearchOptions {
        limits: Limits {
            depth,
            ..Default::default()
        },
        table: TableSize::Megabytes(64),
        enhancements: Enhancements {
            table_move_first: true,
            ..Default::default()
        },
        ..SearchOptions::default()
    }
}

fn case<G: Game + 'static>(
    name: &'static str,
    game: G,
    algo: Algorithm,
    opts: SearchOptions,
    value: Value,
    nodes: u64,
) -> Case {
    Case {
        name,
        run: Box::new(move || {
            let out = algo.search(&game, &opts).expect("search");
            (out.value, out.stats.nodes)
        }),
        value,
        nodes,
    }
}

fn cases() -> Vec<Case> {
    let random = |model: &str| RandomTree::new(RandomSpec::parse(&format!("width=8,depth=8,seed=1{model}")).unwrap());
    let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    vec![
        case(
            "tic-tac-toe, alpha-beta, to the end",
            TicTacToe::new(),
            Algorithm::AlphaBeta,
            SearchOptions::default(),
            0,
            16_811,
        ),
        case(
            "connect4 274552224131661 heuristic, mtdf, d16",
            ConnectFour::from_moves("274552224131661").unwrap().with_heuristic(),
            Algorithm::Mtdf,
            with_table(Some(16)),
            -18,
            45_300,
        ),
        case(
            "connect4 274552224131661, mtd-bi, exact",
            ConnectFour::from_moves("274552224131661").unwrap(),
            Algorithm::MtdBi,
            with_table(None),
            0,
            282_124,
        ),
        case(
            "othello FFO #40, mtdf, exact",
            Othello::from_position(ffo40).unwrap(),
            Algorithm::Mtdf,
            with_table(None),
            38,
            81_321,
        ),
        case(
            "chess start, mtdf, depth 6",
            ChessGame::new(),
            Algorithm::Mtdf,
            with_table(Some(6)),
            0,
            32_052,
        ),
        case(
            "random w8 d8 iid, alpha-beta",
            random(""),
            Algorithm::AlphaBeta,
            SearchOptions::default(),
            194,
            480_980,
        ),
        case(
            "random w8 d8 iid, sss",
            random(""),
            Algorithm::Sss,
            SearchOptions::default(),
            194,
            244_323,
        ),
    ]
}

fn clock() -> impl Fn() -> Duration {
    let start = Instant::now();
    move || thread_cpu_time().unwrap_or_else(|| start.elapsed())
}

fn main() {
    let runs: usize = std::env::var("COST_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(7);
    let cases = cases();
    let mut changed = Vec::new();
    for c in &cases {
        let (value, nodes) = (c.run)();
        if (value, nodes) != (Some(c.value), c.nodes) {
            changed.push(format!(
                "{}: value {value:?}, nodes {nodes} (pinned: {}, {})",
                c.name, c.value, c.nodes
            ));
        }
    }
    assert!(
        changed.is_empty(),
        "values or counts changed (update the pins if the search legitimately changed):\n  {}",
        changed.join("\n  ")
    );
    let now = clock();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); cases.len()];
    for _ in 0..runs {
        for (c, t) in cases.iter().zip(&mut times) {
            let start = now();
            std::hint::black_box((c.run)());
            t.push((now() - start).as_secs_f64());
        }
    }
    println!("cost per position, median of {runs} interleaved runs (thread CPU time):");
    println!(
        "{:48} {:>12} {:>10} {:>9} {:>9}",
        "search", "positions", "ms", "ns/pos", "M pos/s"
    );
    for (c, t) in cases.iter().zip(&mut times) {
        t.sort_by(f64::total_cmp);
        let secs = t[t.len() / 2];
        println!(
            "{:48} {:>12} {:>10.2} {:>9.1} {:>9.2}",
            c.name,
            c.nodes,
            secs * 1e3,
            secs * 1e9 / c.nodes as f64,
            c.nodes as f64 / secs / 1e6
        );
    }
}
