//! Running searches and printing their rows: the machinery `solve`,
//! `solve --game`, `trace` and `experiment` share. It imports none of them.

use crate::report::{table, Row};
use crate::Format;
use anyhow::Result;
use clap::Args;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;
use stockman::algorithms::iterative;
use stockman::{
    Algorithm, AnyTable, CostlyEval, Game, LeafRecorder, NoObserver, Observer, Role, SearchOptions, Table, TableSize,
};

/// Options shared by `solve` and `trace`.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Comma-separated algorithms, or `all`: minimax, alphabeta, negascout, sss, dual,
    /// recsss, recdual, mt-sss, mt-dual, mtdf, mtd-bi, bns [default: all; mtd-bi for games].
    #[arg(long)]
    pub algo: Option<String>,
    /// Drive each depth-first algorithm by iterative deepening (one table across depths).
    #[arg(long)]
    pub iterative: bool,
    /// The role of the root of a tree file or random tree.
    #[arg(long, default_value = "max", value_parser = parse_role)]
    pub root: Role,
    /// Search only this many plies; deeper nodes are evaluated statically.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Make every leaf evaluation spend about N nanoseconds (a costly evaluation function).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub eval_cost_ns: u64,
    /// Stop a search after visiting N positions.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Stop a search after this many seconds (decimals allowed).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub time_limit: Option<Duration>,
    /// Stop a best-first search whose OPEN list would exceed N entries.
    #[arg(long, value_name = "N", default_value_t = stockman::DEFAULT_MAX_OPEN)]
    pub max_open: usize,
    /// Transposition table of fixed size in MiB (default: an unbounded table
    /// for the MT drivers and none for the baselines).
    #[arg(long, value_name = "MB", value_parser = parse_tt_mb)]
    pub tt_mb: Option<usize>,
    /// Keep positions at the depth limit (--depth) out of the transposition
    /// table: one memory access less per leaf, but the MT drivers then
    /// evaluate a leaf again in every pass that reaches it.
    #[arg(long)]
    pub no_horizon_table: bool,
    /// MTD(f)'s first guess.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub first_guess: i32,
    #[command(flatten)]
    pub enhance: Enhancements,
}

/// The move-ordering enhancements. With `--iterative` (and in `play` and
/// `match`) the table's move and enhanced transposition cutoffs are on and
/// aspiration windows of width [`DEFAULT_ASPIRATION`] are used, as in
/// [`SearchOptions::engine`]; history and killers only when asked (on
/// Connect Four they cost more than they save). A fixed-depth search keeps
/// the textbook left-to-right order unless a flag turns one on.
#[derive(Args, Debug, Clone, Default)]
pub struct Enhancements {
    /// Order moves by the history heuristic (needs a game's move keys).
    #[arg(long, overrides_with = "no_history")]
    pub history: bool,
    /// No history heuristic.
    #[arg(long, overrides_with = "history")]
    pub no_history: bool,
    /// Try two killer moves per ply early (needs a game's move keys).
    #[arg(long, overrides_with = "no_killers")]
    pub killers: bool,
    /// No killer moves.
    #[arg(long, overrides_with = "killers")]
    pub no_killers: bool,
    /// Enhanced transposition cutoffs (default with --iterative).
    #[arg(long, overrides_with = "no_etc")]
    pub etc: bool,
    /// No enhanced transposition cutoffs.
    #[arg(long, overrides_with = "etc")]
    pub no_etc: bool,
    /// Aspiration window half-width for alpha-beta and NegaScout under
    /// iterative deepening, in the game's value units [default with --iterative: 10].
    #[arg(long, value_name = "WIDTH", value_parser = clap::value_parser!(i32).range(1..=1_000_000_000), overrides_with = "no_aspiration")]
    pub aspiration: Option<i32>,
    /// Full windows in every iteration.
    #[arg(long, overrides_with = "aspiration")]
    pub no_aspiration: bool,
    /// Do not try the table's best move first.
    #[arg(long)]
    pub no_table_move: bool,
}

/// The aspiration half-width of `--iterative`, `play` and `match` unless
/// `--aspiration` says otherwise: on the Connect Four heuristic (-99..99
/// per position) it is the narrowest width that does not fail often.
pub const DEFAULT_ASPIRATION: i32 = 10;

impl Enhancements {
    /// Sets the enhancements of `opts`; `engine` turns the defaults on.
    pub fn apply(&self, opts: &mut SearchOptions, engine: bool) {
        let pick = |on: bool, off: bool| on || (engine && !off);
        opts.history = self.history;
        opts.killers = self.killers;
        opts.etc = pick(self.etc, self.no_etc);
        opts.aspiration = match (self.aspiration, self.no_aspiration) {
            (_, true) => None,
            (Some(w), false) => Some(w),
            (None, false) => engine.then_some(DEFAULT_ASPIRATION),
        };
        if self.no_table_move {
            opts.table_move_first = false;
        } else if engine {
            opts.table_move_first = true;
        }
    }
}

fn parse_role(s: &str) -> Result<Role, String> {
    s.parse()
}

/// The largest table `--tt-mb` accepts: 1 TiB.
const MAX_TT_MB: usize = 1 << 20;

fn parse_tt_mb(s: &str) -> Result<usize, String> {
    let mb: usize = s.parse().map_err(|_| format!("`{s}` is not a whole number of MiB"))?;
    if !(1..=MAX_TT_MB).contains(&mb) {
        return Err(format!("`{s}`: the table size must be 1 to {MAX_TT_MB} MiB"));
    }
    // Ask for the memory once, untouched, so that a table the machine cannot
    // hold is an error here and not an abort in the middle of a search.
    let mut probe: Vec<u64> = Vec::new();
    probe
        .try_reserve_exact(mb << 17)
        .map_err(|_| format!("`{s}`: cannot allocate a table of {mb} MiB on this machine"))?;
    Ok(mb)
}

pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .trim_end_matches('s')
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !(secs.is_finite() && secs > 0.0) {
        return Err(format!("`{s}`: the time limit must be a positive number of seconds"));
    }
    Duration::try_from_secs_f64(secs).map_err(|_| format!("`{s}`: the time limit is too large"))
}

impl SearchArgs {
    pub fn algorithms(&self) -> Result<Vec<Algorithm>> {
        Ok(Algorithm::parse_list(self.algo.as_deref().unwrap_or("all"))?)
    }

    /// How to run each algorithm.
    pub fn how(&self, leaves: bool) -> How {
        How {
            eval_cost_ns: self.eval_cost_ns,
            leaves,
            iterative: self.iterative,
            progress: false,
        }
    }

    /// Whether `--algo` was given.
    pub fn algo_given(&self) -> bool {
        self.algo.is_some()
    }

    pub fn options(&self) -> SearchOptions {
        let mut opts = SearchOptions {
            depth: self.depth,
            max_nodes: self.max_nodes,
            time_limit: self.time_limit,
            max_open: self.max_open,
            table: self.tt_mb.map_or(TableSize::Unbounded, TableSize::Megabytes),
            first_guess: self.first_guess,
            table_at_horizon: !self.no_horizon_table,
            ..SearchOptions::default()
        };
        self.enhance.apply(&mut opts, self.iterative);
        opts
    }
}

/// Runs every algorithm on `game`; `best` turns a best move into its JSON form.
pub fn rows<G: Game + Sync>(
    game: &G,
    algos: &[Algorithm],
    opts: &SearchOptions,
    how: &How,
    best: &(dyn Fn(&G::Move, usize) -> serde_json::Value + Sync),
) -> Vec<Row> {
    rows_in(game, algos, opts, how, best, None)
}

/// [`rows`], reusing `table` (cleared before each search) instead of a new
/// table per search: a batch of positions then pays for the table's memory once.
pub fn rows_in<G: Game + Sync>(
    game: &G,
    algos: &[Algorithm],
    opts: &SearchOptions,
    how: &How,
    best: &(dyn Fn(&G::Move, usize) -> serde_json::Value + Sync),
    mut table: Option<&mut AnyTable>,
) -> Vec<Row> {
    let mut out = Vec::new();
    for &a in algos {
        let to_json = |o: &stockman::Outcome<G::Move>| o.best_move.as_ref().zip(o.best_index).map(|(m, i)| best(m, i));
        let table = table.as_deref_mut();
        let row = if how.eval_cost_ns > 0 {
            let g = CostlyEval {
                game,
                nanos: how.eval_cost_ns,
            };
            run_one(&g, a, opts, how, &to_json, table)
        } else {
            run_one(game, a, opts, how, &to_json, table)
        };
        out.push(row);
    }
    out
}

/// How `rows` runs each algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct How {
    /// Spend this long in every leaf evaluation.
    pub eval_cost_ns: u64,
    /// Record the leaves.
    pub leaves: bool,
    /// Drive depth-first algorithms by iterative deepening.
    pub iterative: bool,
    /// Show the passes of the null-window drivers on standard error while
    /// they run (only when it is a terminal): for searches that take minutes.
    pub progress: bool,
}

/// Shows each finished pass of a null-window driver (MT-SSS\*, MTD(f),
/// MTD(bi), BNS...) on a spinner: the pass, its test, the result and the
/// bounds proved so far, and the leaves evaluated; and, updated while a pass
/// runs, the positions visited so far ([`SearchOptions::progress`], read by
/// a thread of its own five times a second).
struct Progress {
    bar: indicatif::ProgressBar,
    leaves: u64,
    nodes: std::sync::Arc<std::sync::atomic::AtomicU64>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    fn new(name: &str) -> Progress {
        use std::sync::atomic::Ordering;
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {elapsed_precise} {prefix}: {human_pos} positions visited; {msg}",
            )
            .expect("a valid template"),
        );
        bar.set_prefix(name.to_string());
        bar.set_message("first pass...");
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        let nodes = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let reader = {
            let (bar, nodes) = (bar.clone(), nodes.clone());
            std::thread::spawn(move || {
                while !bar.is_finished() {
                    bar.set_position(nodes.load(Ordering::Relaxed));
                    std::thread::sleep(std::time::Duration::from_millis(200));
                }
            })
        };
        Progress {
            bar,
            leaves: 0,
            nodes,
            reader: Some(reader),
        }
    }

    fn finish(mut self) {
        self.bar.finish_and_clear();
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }
}

impl Observer for Progress {
    const STEPS: bool = true;
    fn pass(&mut self, p: stockman::Pass) {
        self.leaves += p.leaf_evals;
        let leaves = if self.leaves > 0 {
            format!("; {} leaves so far", self.leaves)
        } else {
            String::new()
        };
        self.bar.set_message(format!(
            "pass {} tested ({}, {}): {}; value in [{}, {}]{leaves}",
            p.pass,
            stockman::value::fmt_window(p.alpha),
            stockman::value::fmt_window(p.beta),
            stockman::value::fmt_value(p.result),
            stockman::value::fmt_value(p.lower),
            stockman::value::fmt_value(p.upper),
        ));
    }
}

fn run_one<G: Game>(
    game: &G,
    a: Algorithm,
    opts: &SearchOptions,
    how: &How,
    best: &dyn Fn(&stockman::Outcome<G::Move>) -> Option<serde_json::Value>,
    table: Option<&mut AnyTable>,
) -> Row {
    let deepen = how.iterative && !a.is_best_first();
    let name = if deepen {
        format!("{}+id", a.name())
    } else {
        a.name().to_string()
    };
    // Recording leaves costs an allocation per leaf: only when asked.
    let show = how.progress && !how.leaves && !a.is_best_first() && std::io::stderr().is_terminal();
    if show {
        let mut p = Progress::new(&name);
        let opts = SearchOptions {
            progress: Some(p.nodes.clone()),
            ..opts.clone()
        };
        let r = search_with(game, a, &opts, deepen, table, &mut p);
        p.finish();
        Row::new(&name, r, best, None)
    } else if how.leaves {
        let mut rec = LeafRecorder::default();
        let r = search_with(game, a, opts, deepen, table, &mut rec);
        let leaves = r.is_ok().then(|| rec.paths());
        Row::new(&name, r, best, leaves)
    } else {
        let r = search_with(game, a, opts, deepen, table, &mut NoObserver);
        Row::new(&name, r, best, None)
    }
}

fn search_with<G: Game, O: Observer>(
    game: &G,
    a: Algorithm,
    opts: &SearchOptions,
    deepen: bool,
    table: Option<&mut AnyTable>,
    obs: &mut O,
) -> Result<stockman::Outcome<G::Move>, stockman::SearchError> {
    match table {
        Some(t) => {
            t.clear();
            if deepen {
                iterative::search_in(game, a, opts, obs, t)
            } else {
                a.search_in(game, opts, obs, t)
            }
        }
        None if deepen => iterative::search_observed(game, a, opts, obs),
        None => a.search_observed(game, opts, obs),
    }
}

pub fn print_rows(rows: &[Row], format: Format) -> Result<()> {
    match format {
        Format::Text => print!("{}", table(rows)),
        Format::Json => println!("{}", serde_json::to_string_pretty(rows)?),
    }
    Ok(())
}

/// 0 when every search answered (an iterative search stopped by a limit
/// answers with its last completed depth), 3 when one stopped without one.
pub fn exit_code(rows: &[Row]) -> ExitCode {
    for r in rows {
        if let (Some(limit), Some(d)) = (&r.stopped_by, r.depth_completed) {
            eprintln!(
                "note: {}: {limit} stopped depth {}; the answer is depth {d}'s",
                r.algorithm,
                d + 1
            );
        }
    }
    if rows.iter().any(|r| r.error.is_some()) {
        for r in rows.iter().filter(|r| r.error.is_some()) {
            eprintln!("error: {}: {}", r.algorithm, r.error.as_deref().unwrap_or_default());
        }
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}
