//! `stockman`: solve, trace and generate game trees with the SSS* family.
// `stockman::SearchError` carries the stopped search's `Stats` and what it
// proved; it is returned once per search, so its size costs nothing here.
#![allow(clippy::result_large_err)]

mod arena;
mod distributed;
mod experiment;
mod game_grid;
mod games;
mod input;
mod perft;
mod play;
mod report;
mod runner;
mod sample;
mod sim_distributed;
mod simulate;
mod solve;
mod trace;
mod uci;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "stockman",
    version,
    about = "Fixed-depth minimax search: SSS*, Dual*, RecSSS*, MT-SSS*, MTD(f), BNS and the baselines"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Search a tree or game position with one or more algorithms.
    Solve(solve::SolveArgs),
    /// Print every step of one search (SSS*, Dual*: Gamma steps; drivers: passes).
    Trace(trace::TraceArgs),
    /// Write a random tree in the tree file format.
    Gen(GenArgs),
    /// Run a grid of searches on random trees (CSV, summary, plots), or merge shards.
    Experiment(Box<experiment::ExperimentArgs>),
    /// Play a game against the engine (moves typed, or read from standard input).
    Play(play::PlayArgs),
    /// Engine against engine: colour-swapped pairs of games, score and Elo difference.
    Match(arena::MatchArgs),
    /// Parallel SSS*/Dual* and ABDADA on P simulated processors: rounds, speedup, search overhead.
    Simulate(simulate::SimulateArgs),
    /// A chess engine speaking UCI on standard input and output (for GUIs and python-chess).
    Uci,
    /// Count the move sequences of 1..N plies from a position (move-generation check).
    Perft(perft::PerftArgs),
    /// The UCI engine loop for any built-in game (`position startpos|fen TEXT [moves ...]`, `go`, ...).
    Engine(EngineArgs),
}

#[derive(Args, Debug)]
struct EngineArgs {
    /// The game the engine plays.
    #[arg(long, value_parser = games::game_parser())]
    game: stockman::run::GameKind,
}

/// Where the tree comes from.
#[derive(Args, Debug, Clone)]
#[group(required = true, multiple = false)]
pub struct Source {
    /// A tree file: nested lists of integers, `#` comments.
    #[arg(long, value_name = "FILE")]
    pub tree: Option<PathBuf>,
    /// A seeded random tree, e.g. `width=8,depth=8,seed=1,model=iid` (`model=bernoulli`: leaves
    /// that are Bernoulli arms, for the stochastic searches).
    #[arg(long, value_name = "SPEC")]
    pub random: Option<String>,
    /// A built-in game, from its start or from --position (chess and checkers need
    /// --depth, or --iterative under a limit).
    #[arg(long, value_parser = games::game_parser())]
    pub game: Option<stockman::run::GameKind>,
}

impl Source {
    /// The random tree's spec; an error if another source was given.
    pub fn random_spec(&self) -> anyhow::Result<&str> {
        self.random
            .as_deref()
            .ok_or_else(|| anyhow::anyhow!("give a tree: --tree FILE, --random SPEC or --game NAME"))
    }
}

/// Output format.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A readable table.
    Text,
    /// JSON.
    Json,
}

#[derive(Args, Debug)]
struct GenArgs {
    /// The random tree spec, e.g. `width=3,depth=4,seed=7`.
    #[arg(long, value_name = "SPEC")]
    random: String,
    /// Write here instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Refuse trees with more nodes than this.
    #[arg(long, default_value_t = 10_000_000)]
    max_nodes: usize,
}

fn main() -> ExitCode {
    reset_sigpipe();
    report_panics_as_bugs();
    let cli = match Cli::from_arg_matches(&command().get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let result = match cli.command {
        Command::Solve(a) => solve::run(a),
        Command::Trace(a) => trace::run(a),
        Command::Gen(a) => gen(a),
        Command::Experiment(a) => experiment::run(*a),
        Command::Play(a) => play::run(a),
        Command::Match(a) => arena::run(a),
        Command::Simulate(a) => simulate::run(a),
        Command::Uci => uci::run(stockman::run::GameKind::Chess),
        Command::Engine(a) => uci::run(a.game),
        Command::Perft(a) => perft::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// A panic is a bug in stockman: say so in one line that names where it
/// happened and how to report it, and exit with 101 as Rust does, instead
/// of Rust's "thread panicked" message and backtrace hint.
fn report_panics_as_bugs() {
    std::panic::set_hook(Box::new(|info| {
        let message = stockman::run::panic_message(info.payload());
        let place = info
            .location()
            .map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
        eprintln!(
            "error: internal error (a bug in stockman, please report it with the command line): {message}{place}"
        );
    }));
}

/// Lets `stockman ... | head` end quietly, like any Unix filter: Rust
/// ignores SIGPIPE, so a closed pipe would otherwise make `println!` panic.
fn reset_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any thread exists;
    // restoring the default disposition of SIGPIPE has no other effect.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The command line, with the help texts that list algorithms read from
/// the tables (a new algorithm is listed without a word changed here).
fn command() -> clap::Command {
    let algo = runner::algo_help();
    Cli::command()
        .mut_subcommand("solve", |c| c.mut_arg("algo", |a| a.help(algo.clone())))
        .mut_subcommand("trace", |c| c.mut_arg("algo", |a| a.help(algo.clone())))
        .mut_subcommand("play", |c| {
            c.mut_arg("algo", |a| a.help(runner::engine_algo_help("The engine's algorithm")))
        })
        .mut_subcommand("match", |c| {
            c.mut_arg("engines", |a| {
                a.help(runner::engine_algo_help("The two engines' algorithms, `A,B`"))
            })
        })
}

fn gen(a: GenArgs) -> anyhow::Result<ExitCode> {
    if stockman::stochastic::BernoulliTree::names_bernoulli(&a.random) {
        // A tree of Bernoulli means, from the same generator.
        let t = stockman::stochastic::BernoulliTree::random(&a.random)
            .map_err(|e| anyhow::anyhow!("in --random `{}`: {e}", a.random))?;
        if t.len() > a.max_nodes {
            anyhow::bail!(
                "the tree `{}` has more than {} nodes (raise --max-nodes)",
                a.random,
                a.max_nodes
            );
        }
        let text = format!(
            "# stockman gen --random {}\n{}{}\n",
            a.random,
            root_line(t.root_role()),
            t.to_text()
        );
        return write_out(a.output.as_deref(), &text);
    }
    let spec = stockman::RandomSpec::parse(&a.random)?;
    let tree = stockman::RandomTree::new(spec.clone());
    let t = stockman::ExplicitTree::from_game(&tree, None, a.max_nodes).ok_or_else(|| {
        anyhow::anyhow!(
            "the tree `{spec}` has more than {} nodes (raise --max-nodes)",
            a.max_nodes
        )
    })?;
    let text = format!(
        "# stockman gen --random {spec}\n{}{}\n",
        root_line(t.root_role()),
        t.to_text()
    );
    write_out(a.output.as_deref(), &text)
}

/// The declaration of a MIN root in a written tree (`# root: min`, which
/// `solve --tree` reads back); a MAX root, the default, needs none.
fn root_line(role: stockman::Role) -> &'static str {
    match role {
        stockman::Role::Min => "# root: min\n",
        stockman::Role::Max => "",
    }
}

fn write_out(output: Option<&std::path::Path>, text: &str) -> anyhow::Result<ExitCode> {
    match output {
        Some(p) => std::fs::write(p, text).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", p.display()))?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
