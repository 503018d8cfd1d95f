//! The FFO endgame suite (Othello positions #40-#59, 20-34 empty squares),
//! solved exactly one position at a time, with a report per position.
//!
//! ```text
//! cargo bench -p stockman --bench ffo                      # #40-#49, MTD(f)
//! FFO_FIRST=40 FFO_LAST=59 FFO_ALGOS=mtdf,negascout cargo bench -p stockman --bench ffo
//! ```
//!
//! For each position and algorithm it prints the empty squares, the value
//! found and the suite's, the best move and its listed score, the positions
//! visited, the time and positions per second, and at the end each
//! algorithm's total. It panics on a wrong value or a best move whose listed
//! score is not the best: a benchmark that measures wrong answers measures
//! nothing.
//!
//! Settings (environment): `FFO_FIRST`, `FFO_LAST` (suite numbers, default
//! 40 and 49), `FFO_ALGOS` (default `mtdf`), `FFO_ORDER` (`best-reply`, the
//! default, `fastest-first` or `squares`: the game's move order),
//! `FFO_TT_MB` (default 256), `FFO_ETC` (enhanced transposition cutoffs at
//! nodes with at least this many empty squares, default 12, the fastest
//! measured; `0` everywhere, `off` none), `FFO_PRESEARCH` (`W/E`: a
//! presearch of the game narrowed to its first `W` moves from `E` empty
//! squares; default `off`: `4/12` saves 8.5% of the positions on #40-#49
//! but costs 11.5% more on #50-#52), `FFO_GUESS` (MTD(f)'s first guess: a number, `suite` for
//! the true value, which measures what a perfect guess would save, or
//! `suite+N` / `suite-N`, that far above or below it),
//! `FFO_MAX_NODES` (a budget per search, so that slow
//! algorithms report how far they get instead of running for hours;
//! SSS\* also stops at its OPEN-list cap, `DEFAULT_MAX_OPEN`, and says `OPEN`).
//! One table serves every search: allocated and committed (its memory
//! touched) before the first clock starts, cleared before each search. The
//! clock is the thread's CPU time (`FFO_WALL=1`: wall-clock time), because
//! the machine may be shared.

use std::time::Duration;
use stockman::games::othello::{MoveOrder, Othello};
use stockman::games::positions::parse_positions;
use stockman::{Algorithm, AnyTable, Playable, Presearch, SearchError, SearchOptions, Table, TableSize};
use stockman::{Enhancements, Limits, Params};

const SUITE: &str = include_str!("../tests/data/othello/fforum-40-59.obf");

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(v) => v.parse().unwrap_or_else(|_| panic!("{name}={v} is not valid")),
        Err(_) => default,
    }
}

/// This thread's CPU time, or the wall clock with `FFO_WALL=1`.
fn now() -> Duration {
    if std::env::var_os("FFO_WALL").is_some() {
        use std::sync::OnceLock;
        static START: OnceLock<std::time::Instant> = OnceLock::new();
        return START.get_or_init(std::time::Instant::now).elapsed();
    }
    #[repr(C)]
    struct Timespec {
        sec: i64,
        nsec: i64,
    }
    unsafe extern "C" {
        fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // SAFETY: clock_gettime writes one timespec into the valid `ts`.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime");
    Duration::new(ts.sec as u64, ts.nsec as u32)
}

fn main() {
    let first: usize = env("FFO_FIRST", 40);
    let last: usize = env("FFO_LAST", 49);
    let algos = Algorithm::parse_list(&env("FFO_ALGOS", "mtdf".to_string())).expect("FFO_ALGOS");
    let order = match env("FFO_ORDER", "best-reply".to_string()).as_str() {
        "best-reply" => MoveOrder::BestReply,
        "fastest-first" => MoveOrder::FastestFirst,
        "squares" => MoveOrder::Squares,
        o => panic!("FFO_ORDER={o}: best-reply, fastest-first or squares"),
    };
    let mb: usize = env("FFO_TT_MB", 256);
    let max_nodes: Option<u64> = std::env::var("FFO_MAX_NODES")
        .ok()
        .map(|v| v.parse().expect("FFO_MAX_NODES"));
    let etc: Option<u32> = match env("FFO_ETC", "12".to_string()).as_str() {
        "off" => None,
        n => Some(n.parse().expect("FFO_ETC: a number of empty squares, or off")),
    };
    let presearch: Option<Presearch> = match env("FFO_PRESEARCH", "off".to_string()).as_str() {
        "off" => None,
        v => {
            let (w, e) = v.split_once('/').expect("FFO_PRESEARCH: W/E or off");
            Some(Presearch {
                width: w.parse().expect("FFO_PRESEARCH width"),
                min_left: e.parse().expect("FFO_PRESEARCH empty squares"),
            })
        }
    };
    let opts = SearchOptions {
        limits: Limits {
            nodes: max_nodes,
            ..Default::default()
        },
        table: TableSize::Megabytes(mb),
        enhancements: Enhancements {
            presearch,
            table_move_first: true,
            etc: etc.is_some(),
            etc_min_depth: etc.unwrap_or(0),
            ..Default::default()
        },
        ..SearchOptions::default()
    };
    // `FFO_GUESS=suite`: MTD(f) starts from the true value (`None` here: how
    // much a perfect first guess would save); a number: from that value.
    // `suite+N` / `suite-N`: that far from the true value (what a guess
    // that good would save).
    let (guess, offset): (Option<stockman::Value>, stockman::Value) = match std::env::var("FFO_GUESS").as_deref() {
        Ok("suite") => (None, 0),
        Ok(v) if v.starts_with("suite") => (
            None,
            v["suite".len()..]
                .trim_start_matches('+')
                .parse()
                .expect("FFO_GUESS=suite+N"),
        ),
        Ok(v) => (Some(v.parse().expect("FFO_GUESS")), 0),
        Err(_) => (Some(opts.params.first_guess), 0),
    };
    let mut table = AnyTable::new(opts.table);
    table.touch();
    let set = parse_positions(SUITE).expect("the suite parses");
    let cutoffs = match etc {
        Some(n) => format!("ETC from {n} empty squares"),
        None => "no ETC".to_string(),
    };
    let pre = match presearch {
        Some(p) => format!("presearch {} moves from {} empty squares", p.width, p.min_left),
        None => "no presearch".to_string(),
    };
    println!("FFO #{first}-#{last}, move order {order:?}, {mb} MiB table, {cutoffs}, {pre}, CPU time");
    println!(
        "{:>4} {:>7} {:<10} {:>6} {:>6} {:>5} {:>14} {:>10} {:>12} {:>6}",
        "#", "empties", "algorithm", "value", "suite", "best", "positions", "time", "positions/s", "passes"
    );
    let mut totals = vec![(0u64, Duration::ZERO, 0usize); algos.len()];
    for line in set.iter().filter(|l| (first..=last).contains(&(39 + l.line))) {
        let number = 39 + line.line;
        let game = Othello::from_position(&line.position)
            .expect("an FFO board")
            .with_order(order);
        let expected = line.expected.expect("FFO lines have scores");
        let opts = SearchOptions {
            params: Params {
                first_guess: guess.unwrap_or(expected + offset),
                ..opts.params
            },
            ..opts.clone()
        };
        for (k, &algo) in algos.iter().enumerate() {
            table.clear();
            let start = now();
            let result = algo.with_options(&opts).table(&mut table).run(&game);
            let time = now() - start;
            let (value, best, stats) = match result {
                Ok(out) => {
                    let best = out.best_move.map(|m| game.move_text(m));
                    let shown = match out.value {
                        Some(v) => {
                            assert_eq!(v, expected, "#{number} {algo}: value {v}, the suite says {expected}");
                            v.to_string()
                        }
                        None => {
                            let (lo, hi) = out.bound.expect("BNS gives a bound");
                            assert!(lo <= expected && expected < hi, "#{number} {algo}: bound {lo}..{hi}");
                            format!("[{lo},{hi})")
                        }
                    };
                    if let Some(b) = &best {
                        let listed = line.score_of(b);
                        assert_eq!(
                            listed,
                            Some(expected),
                            "#{number} {algo}: best move {b} is listed at {listed:?}"
                        );
                    }
                    totals[k].2 += 1;
                    (shown, best.unwrap_or_else(|| "-".into()), out.stats)
                }
                // A search stopped by a limit reports how far it got.
                Err(e @ (SearchError::NodeLimit { .. } | SearchError::OpenLimit { .. })) => {
                    let stats = *e.stats().expect("a limit error carries its counters");
                    let what = if matches!(e, SearchError::OpenLimit { .. }) {
                        "OPEN"
                    } else {
                        "limit"
                    };
                    (what.to_string(), "-".to_string(), stats)
                }
                Err(e) => panic!("#{number} {algo}: {e}"),
            };
            totals[k].0 += stats.nodes;
            totals[k].1 += time;
            println!(
                "{:>4} {:>7} {:<10} {:>6} {:>6} {:>5} {:>14} {:>9.2}s {:>12.0} {:>6}",
                number,
                game.board().empties(),
                algo.name(),
                value,
                expected,
                best,
                stats.nodes,
                time.as_secs_f64(),
                stats.nodes as f64 / time.as_secs_f64().max(1e-9),
                stats.passes
            );
        }
    }
    println!("\ntotals (solved positions; positions visited and time include searches stopped by FFO_MAX_NODES)");
    for (algo, (nodes, time, solved)) in algos.iter().zip(&totals) {
        println!(
            "{:<10} solved {:>2}  positions {:>14}  time {:>9.2}s  positions/s {:>12.0}",
            algo.name(),
            solved,
            nodes,
            time.as_secs_f64(),
            *nodes as f64 / time.as_secs_f64().max(1e-9)
        );
    }
}
