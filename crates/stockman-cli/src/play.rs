//! `stockman play`: a person against the engine, in the terminal or
//! through standard input.

use crate::games::with_game;
use crate::runner::{parse_seconds, parse_threads, Enhancements};
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;
use stockman::drivers::lazy_smp;
use stockman::run::{no_parallel_form, EngineSettings, GameKind, GameTask};
use stockman::{Algorithm, Engine, GameResult, Limits, Parallel, Playable};

/// Which side the person plays.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The player who moves first in the game (X; Black in Othello; White in chess).
    First,
    /// The other player.
    Second,
}

/// How an engine thinks about each move: shared by `play` and `match`.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Think this many seconds per move (iterative deepening under a clock) [default: 1].
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, conflicts_with = "depth")]
    pub time_per_move: Option<Duration>,
    /// Search every move to this depth (deterministic).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=200))]
    pub depth: Option<u32>,
    /// Transposition table per engine, in MiB.
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub tt_mb: u64,
    /// Threads per engine (1: one thread, deterministic with --depth); in
    /// `match`, `A,B` gives each engine its own count. The engines of a
    /// match take turns, so they never compete for the cores.
    #[arg(long, value_name = "N[,M]", default_value = "1", value_parser = parse_engine_threads, allow_negative_numbers = true)]
    pub threads: EngineThreads,
    /// How an engine's threads share a search: `abdada` or `lazy-smp`.
    #[arg(long, value_name = "HOW", default_value_t = Parallel::default())]
    pub parallel: Parallel,
    #[command(flatten)]
    pub enhance: Enhancements,
}

/// `--threads` of `play` and `match`: one count for every engine, or one each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineThreads {
    /// The first engine's (the only one in `play`).
    pub first: usize,
    /// The second engine's, if given apart.
    pub second: Option<usize>,
}

fn parse_engine_threads(s: &str) -> Result<EngineThreads, String> {
    match s.split_once(',') {
        None => Ok(EngineThreads {
            first: parse_threads(s)?,
            second: None,
        }),
        Some((a, b)) => Ok(EngineThreads {
            first: parse_threads(a)?,
            second: Some(parse_threads(b)?),
        }),
    }
}

impl EngineArgs {
    /// The limits of one move.
    pub fn limits(&self) -> Limits {
        match self.depth {
            Some(d) => Limits {
                depth: Some(d),
                ..Limits::default()
            },
            None => Limits {
                time: Some(self.time_per_move.unwrap_or(Duration::from_secs(1))),
                ..Limits::default()
            },
        }
    }

    /// Engine `which` (0 or 1) for `algo`, with the enhancements a game
    /// program uses, on its threads.
    pub fn engine(&self, algo: Algorithm, which: usize) -> Result<Engine> {
        let threads = match which {
            0 => self.threads.first,
            _ => self.threads.second.unwrap_or(self.threads.first),
        };
        if threads > 1 && !lazy_smp::supports(algo) {
            let note = no_parallel_form(&[algo]).expect("one algorithm");
            eprintln!("note: {note} (--threads {threads})");
        }
        let settings = EngineSettings {
            algorithm: algo,
            tt_mb: self.tt_mb as usize,
            enhancements: self.enhance.settings(),
            threads,
            parallel: self.parallel,
        };
        Ok(settings.build(None)?)
    }
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game.
    #[arg(long, value_parser = crate::games::game_parser())]
    pub game: GameKind,
    /// Start from this position (in the game's notation) instead of the beginning.
    #[arg(long, value_name = "POSITION", default_value = "", allow_hyphen_values = true)]
    pub position: String,
    /// The engine's algorithm (a depth-first one: it is deepened iteratively).
    #[arg(long, default_value = "mtdf")]
    pub algo: String,
    /// Which side you play.
    #[arg(long, value_enum, default_value_t = Side::First)]
    pub human: Side,
    #[command(flatten)]
    pub engine: EngineArgs,
}

pub fn run(args: PlayArgs) -> Result<ExitCode> {
    let algo = engine_algorithm(&args.algo, "--algo")?;
    if args.engine.threads.second.is_some() {
        bail!("--threads: `play` has one engine; give one count (N), not two");
    }
    let task = Play { args: &args, algo };
    with_game(args.game, &args.position, true, task)
}

struct Play<'a> {
    args: &'a PlayArgs,
    algo: Algorithm,
}

impl GameTask for Play<'_> {
    type Output = Result<ExitCode>;

    fn run<G: Playable + Send + Sync + 'static>(self, mut game: G) -> Result<ExitCode> {
        let mut engine = self.args.engine.engine(self.algo, 0)?;
        engine.new_game();
        let limits = self.args.engine.limits();
        let human_first = self.args.human == Side::First;
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut out = std::io::stdout();
        let you = game.player_name(human_first);
        writeln!(
            out,
            "You play {you}; stockman plays {} with {}.",
            game.player_name(!human_first),
            self.algo
        )?;
        writeln!(out, "Type a move, or `quit`.")?;
        // Scripted input is not echoed by a terminal: echo it, so that the
        // transcript reads like a session.
        let echo = !input.is_terminal();
        let mut redraw = true;
        loop {
            if redraw {
                writeln!(out, "\n{game}")?;
            }
            redraw = true;
            if let Some(result) = game.result() {
                writeln!(out, "{}", announce(&game, result, human_first))?;
                return Ok(ExitCode::SUCCESS);
            }
            let mover = game.player_name(game.first_player_to_move());
            if game.first_player_to_move() == human_first {
                let legal: Vec<String> = game.legal_moves().into_iter().map(|m| game.move_text(m)).collect();
                write!(out, "Your move ({mover}; legal: {}): ", legal.join(" "))?;
                out.flush()?;
                // Bytes, not text: a line that is not UTF-8 is an illegal
                // move like any other, not the end of the game.
                let mut bytes = Vec::new();
                if input
                    .read_until(b'\n', &mut bytes)
                    .context("cannot read standard input")?
                    == 0
                {
                    writeln!(out)?;
                    bail!("standard input ended before the game did");
                }
                let line = String::from_utf8_lossy(&bytes);
                let text = line.trim();
                if echo {
                    writeln!(out, "{text}")?;
                }
                if text.is_empty() {
                    redraw = false;
                    continue;
                }
                if text.eq_ignore_ascii_case("quit") {
                    writeln!(out, "You left the game.")?;
                    return Ok(ExitCode::SUCCESS);
                }
                match game.parse_move(text) {
                    Ok(mv) => game = game.after(mv),
                    Err(reason) => {
                        writeln!(out, "Illegal move `{text}`: {reason}")?;
                        redraw = false;
                    }
                }
            } else {
                let found = engine.best_move(&game, &limits)?;
                let mv = found
                    .best_move
                    .or_else(|| game.legal_moves().first().copied())
                    .context("the engine found no move in a game that is not over")?;
                writeln!(
                    out,
                    "stockman ({mover}) plays {}  [value {}, depth {}, {} positions, {:.2} s]",
                    game.move_text(mv),
                    found.value.map_or("-".to_string(), |v| v.to_string()),
                    found.depth_completed.unwrap_or(0),
                    found.stats.nodes,
                    found.stats.time_us as f64 / 1e6
                )?;
                game = game.after(mv);
            }
        }
    }
}

/// The algorithm an engine searches with, from its name: one depth-first
/// algorithm (an engine deepens it iteratively), named in the error with
/// `flag` otherwise.
pub fn engine_algorithm(name: &str, flag: &str) -> Result<Algorithm> {
    let engines = stockman::Engine::algorithm_names;
    if name.trim().eq_ignore_ascii_case("all") || name.contains(',') {
        bail!(
            "{flag} takes one algorithm for the engine, not `{name}` (one of: {})",
            engines()
        );
    }
    let algo: Algorithm = name.parse().map_err(|_| {
        anyhow::anyhow!(
            "{flag}: unknown algorithm `{}` (an engine uses one of: {})",
            name.trim(),
            engines()
        )
    })?;
    stockman::Engine::accepts(algo).map_err(|e| anyhow::anyhow!("{flag}: {e}"))?;
    Ok(algo)
}

/// The end of a game in words.
fn announce<G: Playable>(game: &G, result: GameResult, human_first: bool) -> String {
    let winner_first = match result {
        GameResult::Draw => return "Game over: a draw.".to_string(),
        GameResult::FirstPlayerWins => true,
        GameResult::SecondPlayerWins => false,
    };
    let who = if winner_first == human_first {
        "you win"
    } else {
        "stockman wins"
    };
    format!("Game over: {} wins ({who}).", game.player_name(winner_first))
}
