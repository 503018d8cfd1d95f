//! Running searches and printing their rows: the machinery `solve`,
//! `solve --game`, `trace` and `experiment` share. It imports none of them.

use crate::report::{table, Row};
use crate::Format;
use anyhow::{bail, Result};
use clap::Args;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;
use stockman::run::{no_parallel_form, Request, RunError, Runner, Settings, SourceKind};
use stockman::Control;
use stockman::{Algorithm, Game, Observer, Parallel, Role, SearchOptions, Select, TableSize};

/// Options shared by `solve` and `trace`.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Comma-separated algorithms, or `all` (the list is the capabilities
    /// table's: [`algo_help`], set by `main`'s `command`).
    #[arg(long)]
    pub algo: Option<String>,
    /// Drive each depth-first algorithm by iterative deepening (one table across depths).
    #[arg(long)]
    pub iterative: bool,
    /// The role of the root of a tree file or random tree [default: the
    /// file's `# root:` line or the spec's `root=`, else max; a different
    /// one from those is an error].
    #[arg(long, value_parser = parse_role)]
    pub root: Option<Role>,
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
    /// GSEARCH's and RSEARCH's rule for the next tip to expand: `leftmost`
    /// (alpha-beta's leaves), `upper` (the largest upper bound: SSS*'s),
    /// `lower` (the smallest lower bound: Dual*'s) or `widest` (the widest
    /// interval between the bounds).
    /// [default: upper; only with gsearch or rsearch]
    #[arg(long, value_name = "RULE")]
    pub select: Option<Select>,
    /// RSEARCH's memory: the most nodes it stores before it searches a tip
    /// depth-first inside its window instead of expanding it (0: alpha-beta)
    /// [default: --max-open].
    #[arg(long, value_name = "M", allow_negative_numbers = true, value_parser = parse_memory)]
    pub memory: Option<usize>,
    /// Threads per search: more than 1 runs the depth-first algorithms on
    /// that many threads through one shared table, as --parallel says, and
    /// with `--parallel rounds` SSS*/Dual* in rounds of that many states
    /// while a state's work is worth a meeting of the threads, SSS*'s own
    /// steps while it is not (else they, minimax, RecSSS* and RecDual* stay
    /// on one thread, with a note); 1 keeps the exact one-thread counts.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = parse_threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// How several threads share a search: `abdada` (threads put off the
    /// moves another thread is on: they split the work), `lazy-smp`
    /// (helpers race the main search through the table), or `rounds`
    /// (ABDADA, and SSS*/Dual* in rounds too).
    #[arg(long, value_name = "HOW", default_value_t = Parallel::default())]
    pub parallel: Parallel,
    /// States per round of SSS*/Dual* under `--parallel rounds`: a fixed
    /// number runs the rounds of `simulate --processors P`, the same leaves
    /// on every run; 0 (the default) leaves them to the search: rounds of
    /// one state per thread while a state's work is worth a meeting of the
    /// threads, SSS*'s own steps while it is not.
    #[arg(long, value_name = "P", default_value_t = 0, value_parser = parse_round_states, allow_negative_numbers = true)]
    pub round_states: usize,
    /// Search the depth-first algorithms through the shared table (the one
    /// threads share) even on one thread: the baseline that a parallel
    /// search's speed-up is measured against, the table being the same.
    #[arg(long)]
    pub shared_table: bool,
    #[command(flatten)]
    pub enhance: Enhancements,
}

/// The move-ordering enhancements. With `--iterative` (and in `play` and
/// `match`) the table's move and enhanced transposition cutoffs are on and
/// aspiration windows of width [`DEFAULT_ASPIRATION`](stockman::run::DEFAULT_ASPIRATION) are used, as in
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
    /// Enhanced transposition cutoffs only at nodes with at least this much left below them: their remaining depth, or to the end of the game its moves left (Othello: empty squares; 12 pays on the FFO endgames) [default: 0, everywhere]
    #[arg(long, value_name = "DEPTH")]
    pub etc_min_depth: Option<u32>,
    /// Before a search to the end of the game, solve the game narrowed to its first WIDTH moves (in the game's order) into the same table, so that the search finds a best move stored at most nodes (on the FFO endgames it pays on some boards and costs on others)
    #[arg(long, value_name = "WIDTH", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub presearch: Option<u32>,
    /// Narrow only positions with at least this many moves left (their remaining depth, or the game's moves left: Othello's empty squares) [default: 0, everywhere]
    #[arg(long, value_name = "DEPTH", requires = "presearch")]
    pub presearch_min_depth: Option<u32>,
    /// Aspiration window half-width for alpha-beta and NegaScout under
    /// iterative deepening, in the game's value units [default with --iterative: 10].
    #[arg(long, value_name = "WIDTH", value_parser = clap::value_parser!(i32).range(1..=1_000_000_000), overrides_with = "no_aspiration")]
    pub aspiration: Option<i32>,
    /// Full windows in every iteration.
    #[arg(long, overrides_with = "aspiration")]
    pub no_aspiration: bool,
    /// How a failed aspiration window is searched again: `one-sided` (from the fail-soft bound, on the failing side only) or `full` (the whole window again)
    #[arg(long, value_name = "HOW", default_value = "one-sided")]
    pub aspiration_research: stockman::Research,
    /// Best Node Search's first window under iterative deepening: this half-width around the previous iteration's bound, widened where the passes leave it (0: the game's whole range, as Rutko) [default: the aspiration width]
    #[arg(long, value_name = "WIDTH", value_parser = clap::value_parser!(i32).range(0..=1_000_000_000))]
    pub bns_window: Option<i32>,
    /// Do not try the table's best move first.
    #[arg(long)]
    pub no_table_move: bool,
}

impl Enhancements {
    /// The enhancements as the run layer takes them: `None` where no flag
    /// was given (the run layer's defaults).
    pub fn settings(&self) -> stockman::run::Enhancements {
        let flag = |on: bool, off: bool| match (on, off) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        };
        stockman::run::Enhancements {
            history: flag(self.history, self.no_history),
            killers: flag(self.killers, self.no_killers),
            etc: flag(self.etc, self.no_etc),
            etc_min_depth: self.etc_min_depth,
            presearch: self.presearch.map(|w| stockman::Presearch {
                width: w as usize,
                min_left: self.presearch_min_depth.unwrap_or(0),
            }),
            aspiration: match (self.aspiration, self.no_aspiration) {
                (_, true) => Some(None),
                (Some(w), false) => Some(Some(w)),
                (None, false) => None,
            },
            aspiration_research: Some(self.aspiration_research),
            bns_window: self.bns_window.map(|w| (w > 0).then_some(w)),
            table_move: self.no_table_move.then_some(false),
        }
    }
}

/// `--memory`: a count of nodes, 0 or more (clap's own message for `-1`
/// was "invalid digit found in string").
fn parse_memory(s: &str) -> Result<usize, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of nodes (a whole number, 0 or more)"))
}

pub fn parse_role(s: &str) -> Result<Role, String> {
    s.parse()
}

fn parse_tt_mb(s: &str) -> Result<usize, String> {
    let mb: usize = s.parse().map_err(|_| format!("`{s}` is not a whole number of MiB"))?;
    // Ask for the memory once, untouched, so that a table the machine cannot
    // hold is an error here and not an abort in the middle of a search.
    TableSize::Megabytes(mb).check().map_err(|e| format!("`{s}`: {e}"))?;
    Ok(mb)
}

pub fn parse_threads(s: &str) -> Result<usize, String> {
    let max = stockman::run::MAX_THREADS;
    match s.trim().parse::<i64>() {
        // The range is the library's rule; the flag's words are the CLI's.
        Ok(n) => usize::try_from(n)
            .ok()
            .and_then(|n| stockman::Threads::check_count(n).ok())
            .ok_or_else(|| format!("{n} threads: give 1 to {max}")),
        Err(_) => Err(format!("`{s}` is not a number of threads (1 to {max})")),
    }
}

pub fn parse_round_states(s: &str) -> Result<usize, String> {
    let max = stockman::simulate::MAX_PROCESSORS;
    match s.trim().parse::<i64>() {
        Ok(n) if (0..=max as i64).contains(&n) => Ok(n as usize),
        Ok(n) => Err(format!(
            "{n} states per round: give 1 to {max}, or 0 to leave them to the search"
        )),
        Err(_) => Err(format!("`{s}` is not a number of states per round (0 to {max})")),
    }
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
    /// The run layer's settings for these flags (`--algo` unset: the
    /// source's default algorithms).
    pub fn settings(&self, leaves: bool) -> Result<Settings> {
        if self.round_states > 0 && self.parallel != Parallel::Rounds {
            bail!(
                "--round-states {}: SSS* and Dual* run in rounds only under --parallel rounds (this is --parallel {})",
                self.round_states,
                self.parallel
            );
        }
        Ok(Settings {
            algorithms: match &self.algo {
                Some(list) => Some(Algorithm::parse_list(list)?),
                None => None,
            },
            depth: self.depth,
            iterative: self.iterative,
            max_nodes: self.max_nodes,
            time_limit: self.time_limit,
            max_open: Some(self.max_open),
            tt_mb: self.tt_mb,
            no_horizon_table: self.no_horizon_table,
            first_guess: Some(self.first_guess),
            bns_first_test: None,
            select: self.select,
            memory: self.memory,
            enhancements: self.enhance.settings(),
            leaves,
            eval_cost_ns: self.eval_cost_ns,
            threads: Some(self.threads),
            parallel: Some(self.parallel),
            round_states: Some(self.round_states),
            shared_table: self.shared_table,
        })
    }

    /// The algorithms of `--algo`, or all of them.
    pub fn algorithms(&self) -> Result<Vec<Algorithm>> {
        Ok(Algorithm::parse_list(self.algo.as_deref().unwrap_or("all"))?)
    }

    /// The search options for a tree (what `trace` and `--html` search with).
    pub fn options(&self) -> Result<SearchOptions> {
        Ok(self.request(SourceKind::Tree, false)?.options)
    }

    /// The request for a source of `kind`.
    pub fn request(&self, kind: SourceKind, leaves: bool) -> Result<Request> {
        let request = self.request_quiet(kind, leaves)?;
        if let Some(note) = no_parallel_form(&Runner::single_threaded(&request)) {
            eprintln!("note: {note} (--threads {} applies to the others)", request.threads);
        }
        Ok(request)
    }

    /// [`SearchArgs::request`] without the note.
    fn request_quiet(&self, kind: SourceKind, leaves: bool) -> Result<Request> {
        self.settings(leaves)?.request(kind).map_err(|e| match e {
            RunError::NeedsDepth(g) => anyhow::anyhow!(
                "--game {g} needs --depth N: a {g} game cannot be searched to its end (try --depth 4, or \
                 --iterative with --time-limit; `play` and `match` deepen under a clock)"
            ),
            RunError::Unread { knob, .. } => anyhow::anyhow!("{}", e.unread(&format!("--{}", knob.name()))),
            e => e.into(),
        })
    }
}

/// Runs every algorithm of `request` on `game`; `best` turns a best move
/// (and its index) into its JSON form. `progress` shows the passes of long
/// searches on a terminal.
pub fn rows<G: Game<Position: Send, Move: Send + Sync> + Sync>(
    game: &G,
    request: &Request,
    runner: &mut Runner,
    progress: bool,
    best: &dyn Fn(&G::Move, usize) -> serde_json::Value,
) -> Vec<Row> {
    request
        .algorithms
        .iter()
        .map(|&a| {
            // Recording leaves costs an allocation per leaf: progress only without.
            let show = progress && !request.leaves && !a.is_best_first() && std::io::stderr().is_terminal();
            let s = if show {
                let label = if request.iterative {
                    format!("{a}+id")
                } else {
                    a.to_string()
                };
                let mut p = Progress::new(&label);
                let r = Request {
                    options: SearchOptions {
                        control: Control {
                            progress: Some(p.nodes.clone()),
                            ..request.options.control.clone()
                        },
                        ..request.options.clone()
                    },
                    ..request.clone()
                };
                let s = runner.solve_one_threads(game, a, &r, &mut p);
                p.finish();
                s
            } else {
                runner.solve_one_threads(game, a, request, &mut stockman::NoObserver)
            };
            Row::from_solution(s, best, &crate::report::Flags)
        })
        .collect()
}

/// Shows each finished pass of a null-window driver (MT-SSS\*, MTD(f),
/// MTD(bi), BNS...) on a spinner: the pass, its test, the result and the
/// bounds proved so far, and the leaves evaluated; and, updated while a pass
/// runs, the positions visited so far ([`Control::progress`](stockman::Control::progress), read by
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
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{spinner} {elapsed_precise} {prefix}: {human_pos} positions visited; {msg}",
        ) {
            bar.set_style(style);
        }
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

pub fn print_rows(rows: &[Row], format: Format) -> Result<()> {
    match format {
        Format::Text => print!("{}", table(rows)),
        Format::Json => println!("{}", serde_json::to_string_pretty(rows)?),
    }
    Ok(())
}

/// 0 when every search answered (an iterative search stopped by a limit
/// answers with its last completed depth), 3 when one stopped without one.
/// Notes and errors go to standard error, once each.
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
    let mut failed = false;
    for r in rows {
        if let Some(e) = &r.error {
            failed = true;
            match r.proven_bounds {
                Some([lo, hi]) => eprintln!(
                    "error: {}: {e}; proven by then: {} <= value <= {}{}",
                    r.algorithm,
                    stockman::value::fmt_value(lo),
                    stockman::value::fmt_value(hi),
                    r.best_move.as_ref().map_or(String::new(), |m| format!(
                        ", best move so far {}",
                        crate::report::move_text(m)
                    ))
                ),
                None => eprintln!("error: {}: {e}", r.algorithm),
            }
        }
    }
    if failed {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

/// The help of `solve`'s and `trace`'s `--algo`, read from the tables: every
/// algorithm of [`stockman::algorithms::capabilities::CAPABILITIES`], every
/// stochastic search, and each game's default. Never a hand-kept list.
pub fn algo_help() -> String {
    let names = |it: &mut dyn Iterator<Item = &'static str>| it.collect::<Vec<_>>().join(", ");
    let algorithms = names(&mut Algorithm::ALL.iter().map(|a| a.name()));
    let samplers = names(&mut stockman::stochastic::Sampler::ALL.iter().map(|s| s.name()));
    let mut defaults: Vec<(Algorithm, Vec<&str>)> = Vec::new();
    for g in stockman::run::GameKind::ALL {
        let a = g.defaults().algorithm;
        match defaults.iter_mut().find(|(d, _)| *d == a) {
            Some((_, games)) => games.push(g.name()),
            None => defaults.push((a, vec![g.name()])),
        }
    }
    let defaults = defaults
        .iter()
        .map(|(a, games)| format!("{a} on {}", games.join(", ")))
        .collect::<Vec<_>>()
        .join("; ");
    format!(
        "Comma-separated algorithms, or `all`: {algorithms}; on stochastic trees: {samplers} \
         [default: all; a game its own: {defaults}]"
    )
}

/// The help of an engine's algorithm (`play --algo`, `match --engines`): the
/// algorithms that drive an engine ([`stockman::Engine::accepts`]).
pub fn engine_algo_help(what: &str) -> String {
    format!(
        "{what} (deepened iteratively): one of {}",
        stockman::Engine::algorithm_names()
    )
}
