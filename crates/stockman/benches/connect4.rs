//! Connect Four at a fixed depth: stockman's iterative deepening against the
//! `minimax` crate's (0.6) `IterativeSearch`, on the same positions, with the
//! same moves, the same evaluation and the same depth.
//!
//! Run with `cargo bench -p stockman --bench connect4`. Before anything is
//! timed, `check` asserts that both libraries search the same tree: equal
//! root values, best moves worth that value, and our exact node counts.
//!
//! # The `minimax` side
//! [`C4`] implements `minimax::Game` by delegating to stockman's
//! [`ConnectFour`]: its moves (the non-losing ones, in stockman's order),
//! `play`, and `bounds` to tell the positions stockman treats as decided. The
//! evaluator [`Eval`] calls stockman's `Game::evaluate` (MAX's view, MAX =
//! the root's mover) and negates it when MIN is to move, which is the crate's
//! negamax view (the side to move). One difference cannot be bridged: the
//! crate scores a decided position `±i16::MAX` (pulled one point towards 0
//! per ply) where stockman scores it `100 × score`. Both put every win above
//! every heuristic value (`-99..=99`) and both prefer faster wins, so a root
//! whose value is a heuristic value gets exactly the same value from both
//! (proof: by induction, every node has the same value when it is a heuristic
//! or a draw, and a win or a loss in both otherwise); the positions below
//! have such roots. The crate's hash is the SplitMix64 mix of stockman's
//! unique key (the crate indexes its table by the low bits and checks only
//! the high 32, so the raw key, below 2^49, would collide).
//!
//! Both sides search from scratch each time, with a fresh table of 16 MiB,
//! iterative deepening 1, 2, ..., `DEPTH`. Like the crate, which never
//! looks up or stores a position at depth 0, our plain contenders run with
//! [`Enhancements::table_at_horizon`](crate::Enhancements::table_at_horizon) off; the `+leaves` ones keep the
//! library's default (horizon positions in the table, which the MT drivers'
//! equivalence to SSS\* needs). The crate shuffles the root moves
//! at random (`choose_move`), so its node counts vary from run to run.
//!
//! # The clock
//! The machine is shared, so the benchmark times the thread's CPU time
//! (`CLOCK_THREAD_CPUTIME_ID`), not wall-clock time; set `C4_WALL=1` for
//! wall-clock time. After criterion's report it prints the ratio of our best
//! search to the crate's best, per position and overall (geometric mean of
//! the medians); then it times every contender again, once per round, round
//! robin (`C4_ROUNDS`, default 15), and prints the same ratios: criterion
//! times one contender's samples in a block, and on a shared machine a
//! change of load between blocks shows up as a difference between contenders.
//!
//! # Two threads
//! Beside them, on [`THREADS`] threads and timed by the wall clock: our
//! MTD(f) and MTD(bi) under ABDADA (a fresh shared table each search)
//! against the crate's `ParallelSearch` (Young Brothers Wait on a rayon
//! pool, a fresh lock-free table), with their own summary lines. Their
//! values and best moves are checked like the others'; their node counts
//! depend on the threads' timing and are not asserted.

use criterion::{Criterion, SamplingMode};
use minimax::{
    Evaluation, Evaluator, IterativeOptions, IterativeSearch, ParallelOptions, ParallelSearch, Strategy, Winner,
};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use stockman::games::connect4::Board;
use stockman::{
    thread_cpu_time, Algorithm, ConnectFour, Game, Outcome, Parallel, Role, SearchOptions, SharedTable, TableSize,
    Threads, Value,
};
use stockman::{Enhancements, Limits};

/// Plies searched.
const DEPTH: u32 = 16;
/// Transposition table of both sides, in MiB.
const TABLE_MB: usize = 16;
/// One of our contenders: an algorithm driven by `iterative::search`, with
/// or without the table at the horizon ([`Enhancements::table_at_horizon`](crate::Enhancements::table_at_horizon)).
#[derive(Clone, Copy)]
struct Ours {
    algo: Algorithm,
    table_at_horizon: bool,
    name: &'static str,
}

impl Ours {
    const fn new(algo: Algorithm, table_at_horizon: bool, name: &'static str) -> Ours {
        Ours {
            algo,
            table_at_horizon,
            name,
        }
    }
}

/// Our contenders: MTD(f), MTD(bi) and NegaScout, each without the table at
/// the horizon (leaves are evaluated, never looked up or stored) and with it
/// (`+leaves`, the library's default).
const OURS: [Ours; 6] = [
    Ours::new(Algorithm::Mtdf, false, "mtdf"),
    Ours::new(Algorithm::MtdBi, false, "mtd-bi"),
    Ours::new(Algorithm::NegaScout, false, "negascout"),
    Ours::new(Algorithm::Mtdf, true, "mtdf+leaves"),
    Ours::new(Algorithm::MtdBi, true, "mtd-bi+leaves"),
    Ours::new(Algorithm::NegaScout, true, "negascout+leaves"),
];

/// A position, its value at `DEPTH` (root mover's view), and our node counts
/// in the order of [`OURS`].
struct Case {
    moves: &'static str,
    value: Value,
    nodes: [u64; 6],
}

/// Midgame positions (15-18 stones): lines 1, 3, 5 and 9 of `Test_L2_R2`,
/// picked among its first ten for a value at `DEPTH` that is a heuristic
/// value, not a win or a loss, and a tree of 60-130 thousand nodes.
/// (`Test_L2_R1`'s positions are mostly decided within 16 plies.)
const CASES: [Case; 4] = [
    Case {
        moves: "274552224131661",
        value: -18,
        nodes: [73_158, 128_355, 84_546, 73_158, 128_355, 84_546],
    },
    Case {
        moves: "2531276566711153",
        value: 5,
        nodes: [85_564, 125_821, 79_542, 85_564, 125_821, 79_542],
    },
    Case {
        moves: "6614446666373154",
        value: -17,
        nodes: [77_376, 115_017, 84_530, 77_376, 115_017, 84_530],
    },
    Case {
        moves: "165713352355467777",
        value: -5,
        nodes: [79_216, 81_829, 62_876, 79_216, 81_829, 62_876],
    },
];

/// The rules, for the crate's `Game` functions, which take no `self`. Moves
/// and play do not depend on the root; `bounds` is read in this game's view.
#[inline]
fn rules() -> ConnectFour {
    ConnectFour::new().with_heuristic()
}

/// A value from `game`'s MAX view turned to the view of the side to move at `pos`.
#[inline]
fn to_move(game: &ConnectFour, pos: &Board, v: Value) -> Evaluation {
    let v = if game.role(pos) == Role::Max { v } else { -v };
    debug_assert!(v.unsigned_abs() < 10_000, "{v}");
    v as Evaluation
}

/// Connect Four for the `minimax` crate, delegating to stockman.
struct C4;

impl minimax::Game for C4 {
    type S = Board;
    type M = u8;

    #[inline]
    fn generate_moves(s: &Board, moves: &mut Vec<u8>) -> Option<Winner> {
        if let Some(w) = Self::get_winner(s) {
            return Some(w);
        }
        rules().moves(s, moves);
        None
    }

    #[inline]
    fn apply(s: &mut Board, m: u8) -> Option<Board> {
        Some(rules().play(s, m))
    }

    /// The positions stockman decides without search (its bounds meet).
    #[inline]
    fn get_winner(s: &Board) -> Option<Winner> {
        let game = rules();
        let (lo, hi) = game.bounds(s);
        if lo != hi {
            return None;
        }
        Some(match to_move(&game, s, lo) {
            v if v > 0 => Winner::PlayerToMove,
            v if v < 0 => Winner::PlayerJustMoved,
            _ => Winner::Draw,
        })
    }

    #[inline]
    fn zobrist_hash(s: &Board) -> u64 {
        stockman::trees::random::mix(s.key())
    }
}

/// Stockman's heuristic evaluation, from the side to move.
#[derive(Clone)]
struct Eval(ConnectFour);

impl Evaluator for Eval {
    type G = C4;

    #[inline]
    fn evaluate(&self, s: &Board) -> Evaluation {
        to_move(&self.0, s, self.0.evaluate(s))
    }
}

/// The crate's two single-threaded iterative searches: principal variation
/// search (its default) and MTD(f).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Theirs {
    Pvs,
    Mtdf,
}

impl Theirs {
    const ALL: [Theirs; 2] = [Theirs::Pvs, Theirs::Mtdf];

    fn name(self) -> &'static str {
        match self {
            Theirs::Pvs => "minimax-pvs",
            Theirs::Mtdf => "minimax-mtdf",
        }
    }

    /// A fresh searcher, as `choose_move` runs it to `depth` plies.
    fn searcher(self, game: ConnectFour, depth: u32) -> IterativeSearch<Eval> {
        let mut opts = IterativeOptions::new().with_table_byte_size(TABLE_MB << 20);
        if self == Theirs::Mtdf {
            opts = opts.with_mtdf();
        }
        let mut s = IterativeSearch::new(Eval(game), opts);
        s.set_max_depth(u8::try_from(depth).expect("depth fits u8"));
        s
    }
}

/// Threads of the parallel contenders.
const THREADS: usize = 2;

/// Our parallel contenders: ABDADA on [`THREADS`] threads through a fresh
/// shared table of [`TABLE_MB`], iterative deepening as above (no table at
/// the horizon, like the crate).
const OURS_PARALLEL: [(Algorithm, &str); 2] = [
    (Algorithm::Mtdf, "mtdf-abdada-2"),
    (Algorithm::MtdBi, "mtd-bi-abdada-2"),
];

/// The crate's parallel search (Young Brothers Wait on a rayon pool of
/// [`THREADS`] threads, its lock-free table of [`TABLE_MB`]).
const THEIRS_PARALLEL: &str = "minimax-ybw-2";

/// One search by one of [`OURS_PARALLEL`].
fn ours_parallel(g: &ConnectFour, algo: Algorithm) -> Outcome<u8> {
    let table = SharedTable::with_megabytes(TABLE_MB).expect("table");
    let opts = SearchOptions {
        threads: Threads {
            count: THREADS,
            parallel: Parallel::Abdada,
            ..Threads::default()
        },
        ..our_options(DEPTH, false)
    };
    algo.with_options(&opts)
        .deepen()
        .shared_table(&table)
        .run_shared(g)
        .expect("search")
}

/// One search by the crate's parallel search: its move and root value.
fn theirs_parallel(g: &ConnectFour) -> (u8, Value) {
    let opts = IterativeOptions::new().with_table_byte_size(TABLE_MB << 20);
    let mut s = ParallelSearch::new(Eval(*g), opts, ParallelOptions::new().with_num_threads(THREADS));
    s.set_max_depth(u8::try_from(DEPTH).expect("depth fits u8"));
    let mv = s.choose_move(&g.root()).expect("a move");
    (mv, Value::from(s.root_value()))
}

fn game(moves: &str) -> ConnectFour {
    ConnectFour::from_moves(moves).expect("valid moves").with_heuristic()
}

fn our_options(depth: u32, table_at_horizon: bool) -> SearchOptions {
    SearchOptions {
        limits: Limits::to_depth(depth),
        table: TableSize::Megabytes(TABLE_MB),
        enhancements: Enhancements {
            table_at_horizon,
            table_move_first: true,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// The value of `moves` at `depth` from its mover's view, by stockman.
fn value_of(moves: &str, depth: u32) -> Value {
    let g = game(moves);
    let (lo, hi) = g.bounds(&g.root());
    if lo == hi {
        return lo; // decided: stockman's value without search
    }
    let out = Algorithm::NegaScout
        .with_options(&our_options(depth, false))
        .deepen()
        .run(&g)
        .expect("search");
    out.value.expect("a value")
}

/// Whether `mv` (0-based column) is a best move at the root of `moves`:
/// the position after it is worth the root's value at one ply less.
fn assert_best(moves: &str, mv: u8, value: Value, who: &str) {
    let child = format!("{moves}{}", mv + 1);
    let v = -value_of(&child, DEPTH - 1);
    assert_eq!(
        v,
        value,
        "{who} at {moves}: move {} is worth {v}, not the root's {value}",
        mv + 1
    );
}

/// Asserts, before timing, that both libraries agree on every position.
fn check() {
    eprintln!("connect4 bench: depth {DEPTH}, {TABLE_MB} MiB tables; checking values and node counts");
    let mut changed = Vec::new();
    for case in &CASES {
        let g = game(case.moves);
        let (lo, hi) = g.bounds(&g.root());
        assert!(lo < hi, "{}: the root must be undecided", case.moves);
        assert!(
            case.value.abs() < 100,
            "{}: pick roots with heuristic values",
            case.moves
        );
        let mut counted = Vec::new();
        for ours in OURS {
            let out = ours
                .algo
                .with_options(&our_options(DEPTH, ours.table_at_horizon))
                .deepen()
                .run(&g)
                .expect("search");
            assert_eq!(out.value, Some(case.value), "{} at {}", ours.name, case.moves);
            assert_best(case.moves, out.best_move.expect("a best move"), case.value, ours.name);
            counted.push(out.stats.nodes);
        }
        if counted != case.nodes {
            changed.push(format!("{}: nodes {counted:?}, expected {:?}", case.moves, case.nodes));
        }
        for theirs in Theirs::ALL {
            let mut s = theirs.searcher(g, DEPTH);
            let mv = s.choose_move(&g.root()).expect("a move");
            // `root_value` is hidden from the crate's docs but public: the
            // root's value from the side to move (MAX at the root).
            assert_eq!(
                Value::from(s.root_value()),
                case.value,
                "{} at {}",
                theirs.name(),
                case.moves
            );
            assert_best(case.moves, mv, case.value, theirs.name());
            let stats = s.stats(&mut g.root());
            let nodes = stats
                .split("Explored ")
                .nth(1)
                .and_then(|t| t.split(' ').next())
                .unwrap_or("?");
            eprintln!(
                "  {:20} {:13} value {:4}  move {}  {nodes} nodes (varies: random root order)",
                case.moves,
                theirs.name(),
                case.value,
                mv + 1
            );
        }
        for (algo, name) in OURS_PARALLEL {
            let out = ours_parallel(&g, algo);
            assert_eq!(out.value, Some(case.value), "{name} at {}", case.moves);
            assert_best(case.moves, out.best_move.expect("a best move"), case.value, name);
        }
        let (mv, v) = theirs_parallel(&g);
        assert_eq!(v, case.value, "{THEIRS_PARALLEL} at {}", case.moves);
        assert_best(case.moves, mv, case.value, THEIRS_PARALLEL);
        eprintln!(
            "  {:20} stockman      value {:4}  nodes {}",
            case.moves,
            case.value,
            OURS.iter()
                .zip(&counted)
                .map(|(a, n)| format!("{} {n}", a.name))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    assert!(
        changed.is_empty(),
        "our node counts changed (update `CASES` if the search legitimately changed):\n  {}",
        changed.join("\n  ")
    );
}

/// The time source: this thread's CPU time, or wall-clock time with `C4_WALL=1`.
#[derive(Clone, Copy)]
enum Clock {
    Cpu,
    Wall,
}

impl Clock {
    fn from_env() -> Clock {
        match std::env::var("C4_WALL") {
            Ok(v) if v == "1" => Clock::Wall,
            _ if thread_cpu_time().is_some() => Clock::Cpu,
            _ => Clock::Wall,
        }
    }

    /// Runs `f` `iters` times and returns the time taken.
    fn time(self, iters: u64, mut f: impl FnMut()) -> Duration {
        match self {
            Clock::Wall => {
                let start = Instant::now();
                (0..iters).for_each(|_| f());
                start.elapsed()
            }
            Clock::Cpu => {
                let start = thread_cpu_time().expect("thread clock");
                (0..iters).for_each(|_| f());
                thread_cpu_time().expect("thread clock") - start
            }
        }
    }
}

/// Seconds per search of every sample, by position and contender, for the summary.
static SAMPLES: Mutex<BTreeMap<(&'static str, &'static str), Vec<f64>>> = Mutex::new(BTreeMap::new());

fn record(pos: &'static str, who: &'static str, iters: u64, took: Duration) {
    let mut samples = SAMPLES.lock().expect("samples");
    samples
        .entry((pos, who))
        .or_default()
        .push(took.as_secs_f64() / iters.max(1) as f64);
}

fn benches(c: &mut Criterion, clock: Clock) {
    for case in &CASES {
        let g = game(case.moves);
        let mut group = c.benchmark_group(format!("connect4-d{DEPTH}/{}", case.moves));
        // Searches take tens of milliseconds: flat sampling, few samples.
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_millis(1500));
        for ours in OURS {
            let opts = our_options(DEPTH, ours.table_at_horizon);
            group.bench_function(format!("stockman-{}", ours.name), |b| {
                b.iter_custom(|iters| {
                    let took = clock.time(iters, || {
                        let out = ours.algo.with_options(&opts).deepen().run(&g).expect("search");
                        std::hint::black_box(out);
                    });
                    record(case.moves, ours.name, iters, took);
                    took
                })
            });
        }
        for theirs in Theirs::ALL {
            group.bench_function(theirs.name(), |b| {
                b.iter_custom(|iters| {
                    let took = clock.time(iters, || {
                        let mut s = theirs.searcher(g, DEPTH);
                        std::hint::black_box(s.choose_move(&g.root()));
                    });
                    record(case.moves, theirs.name(), iters, took);
                    took
                })
            });
        }
        group.finish();
        // Several threads: wall-clock time (a thread's CPU time would count one of them).
        let mut group = c.benchmark_group(format!("connect4-d{DEPTH}-{THREADS}threads/{}", case.moves));
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_millis(1500));
        for (algo, name) in OURS_PARALLEL {
            group.bench_function(format!("stockman-{name}"), |b| {
                b.iter_custom(|iters| {
                    let took = Clock::Wall.time(iters, || {
                        std::hint::black_box(ours_parallel(&g, algo));
                    });
                    record(case.moves, name, iters, took);
                    took
                })
            });
        }
        group.bench_function(THEIRS_PARALLEL, |b| {
            b.iter_custom(|iters| {
                let took = Clock::Wall.time(iters, || {
                    std::hint::black_box(theirs_parallel(&g));
                });
                record(case.moves, THEIRS_PARALLEL, iters, took);
                took
            })
        });
        group.finish();
    }
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Prints the medians of `samples` and the ratio of our best search to theirs.
fn summary(
    title: &str,
    samples: &BTreeMap<(&'static str, &'static str), Vec<f64>>,
    ours: &[&'static str],
    theirs: &[&'static str],
) {
    println!("\n{title}");
    let mut logs = Vec::new();
    let (our_names, their_names) = (ours, theirs);
    for case in &CASES {
        let get = |who: &str| samples.get(&(case.moves, who)).map(|v| median(v));
        let ours: Vec<(&'static str, f64)> = our_names.iter().filter_map(|&n| Some((n, get(n)?))).collect();
        let theirs: Vec<(&'static str, f64)> = their_names.iter().filter_map(|&n| Some((n, get(n)?))).collect();
        let cells: Vec<String> = ours
            .iter()
            .chain(&theirs)
            .map(|(n, t)| format!("{n} {:.1}", t * 1e3))
            .collect();
        let best = |v: &[(&'static str, f64)]| v.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1));
        if let (Some(o), Some(t)) = (best(&ours), best(&theirs)) {
            let ratio = o.1 / t.1;
            logs.push(ratio.ln());
            println!(
                "  {:20} {}  ->  {} / {} = {ratio:.2}",
                case.moves,
                cells.join(", "),
                o.0,
                t.0
            );
        } else if !cells.is_empty() {
            println!("  {:20} {}", case.moves, cells.join(", "));
        }
    }
    if !logs.is_empty() {
        let geo = (logs.iter().sum::<f64>() / logs.len() as f64).exp();
        println!("  overall (geometric mean of the ratios): {geo:.2}");
    }
}

/// Rounds of the interleaved measurement (`C4_ROUNDS`, default 15; 0 skips it).
fn rounds() -> usize {
    std::env::var("C4_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(15)
}

/// Times every contender once per round, round-robin, so that a change of
/// the machine's load hits every contender alike (criterion times one
/// contender's samples in a block); returns seconds per search.
fn interleaved(clock: Clock, rounds: usize) -> BTreeMap<(&'static str, &'static str), Vec<f64>> {
    let mut out: BTreeMap<(&'static str, &'static str), Vec<f64>> = BTreeMap::new();
    for case in &CASES {
        let g = game(case.moves);
        for _ in 0..rounds {
            for ours in OURS {
                let opts = our_options(DEPTH, ours.table_at_horizon);
                let took = clock.time(1, || {
                    std::hint::black_box(ours.algo.with_options(&opts).deepen().run(&g).expect("search"));
                });
                out.entry((case.moves, ours.name)).or_default().push(took.as_secs_f64());
            }
            for theirs in Theirs::ALL {
                let took = clock.time(1, || {
                    let mut s = theirs.searcher(g, DEPTH);
                    std::hint::black_box(s.choose_move(&g.root()));
                });
                out.entry((case.moves, theirs.name()))
                    .or_default()
                    .push(took.as_secs_f64());
            }
            for (algo, name) in OURS_PARALLEL {
                let took = Clock::Wall.time(1, || {
                    std::hint::black_box(ours_parallel(&g, algo));
                });
                out.entry((case.moves, name)).or_default().push(took.as_secs_f64());
            }
            let took = Clock::Wall.time(1, || {
                std::hint::black_box(theirs_parallel(&g));
            });
            out.entry((case.moves, THEIRS_PARALLEL))
                .or_default()
                .push(took.as_secs_f64());
        }
    }
    out
}

fn main() {
    check();
    let clock = Clock::from_env();
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c, clock);
    c.final_summary();
    let samples = SAMPLES.lock().expect("samples").clone();
    if samples.is_empty() {
        return; // nothing was timed (`--list`, or a filter that matched nothing)
    }
    let what = match clock {
        Clock::Cpu => "thread CPU time",
        Clock::Wall => "wall-clock time",
    };
    let ours: Vec<&'static str> = OURS.iter().map(|a| a.name).collect();
    let theirs: Vec<&'static str> = Theirs::ALL.iter().map(|t| t.name()).collect();
    let ours2: Vec<&'static str> = OURS_PARALLEL.iter().map(|a| a.1).collect();
    let theirs2 = vec![THEIRS_PARALLEL];
    let sets = |rounds: &str| {
        [
            (format!("connect4 depth {DEPTH}: median {what} per search (ms){rounds}; ratio = best stockman / best minimax"), &ours, &theirs),
            (format!("connect4 depth {DEPTH}, {THREADS} threads: median wall-clock time per search (ms){rounds}; ratio = best stockman / minimax's parallel search"), &ours2, &theirs2),
        ]
    };
    for (title, o, t) in sets(" of criterion's samples") {
        summary(&title, &samples, o, t);
    }
    let rounds = rounds();
    if rounds > 0 {
        let measured = interleaved(clock, rounds);
        for (title, o, t) in sets(&format!(", {rounds} interleaved rounds")) {
            summary(&title, &measured, o, t);
        }
    }
}
