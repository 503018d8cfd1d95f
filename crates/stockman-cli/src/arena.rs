//! `stockman match`: engine against engine, in colour-swapped pairs of
//! games from varied openings, with the Elo difference and its interval.

use crate::games::with_game;
use crate::play::{engine_algorithm, EngineArgs};
use crate::Format;
use anyhow::{anyhow, bail, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use stockman::run::{GameKind, GameTask};
use stockman::{Algorithm, Playable};
use stockman_lab::arena::{play_match, random_openings, MatchPlan};

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game.
    #[arg(long, value_parser = crate::games::game_parser())]
    pub game: GameKind,
    /// The two engines, as algorithm names: `A,B` (depth-first algorithms).
    #[arg(long, value_name = "A,B")]
    pub engines: String,
    /// Games to play: an even number (pairs with colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Openings, one position per line in the game's notation (`#` comments);
    /// pair k plays the k-th (cycling).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["opening_plies"])]
    pub openings: Option<PathBuf>,
    /// Random balanced openings of this many plies (seeded by --seed).
    #[arg(long, value_name = "K", default_value_t = 2)]
    pub opening_plies: u32,
    /// The seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game longer than this many plies is adjudicated a draw.
    #[arg(long, default_value_t = 1000)]
    pub max_plies: u32,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub use stockman_lab::arena::MatchResult;

pub fn run(args: MatchArgs) -> Result<ExitCode> {
    let names: Vec<&str> = args.engines.split(',').map(str::trim).collect();
    let [a, b] = names[..] else {
        bail!("--engines takes exactly two algorithms, `A,B` (got `{}`)", args.engines);
    };
    let algos = [engine_algorithm(a, "--engines")?, engine_algorithm(b, "--engines")?];
    if args.games == 0 || !args.games.is_multiple_of(2) {
        bail!(
            "--games {}: a match is played in pairs of games with colours swapped, so --games must be a positive even number",
            args.games
        );
    }
    let openings = match &args.openings {
        Some(path) => Some(read_openings(path)?),
        None => None,
    };
    let task = Match {
        args: &args,
        algos,
        names: [a.to_string(), b.to_string()],
        openings,
    };
    let result = with_game(args.game, "", true, task)?;
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&result)?),
        Format::Text => print!("{}", text(&result)),
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads `--openings`: one position per line, blank lines and `#` comments skipped.
fn read_openings(path: &PathBuf) -> Result<Vec<(usize, String)>> {
    let text =
        std::fs::read_to_string(path).map_err(|e| anyhow!("cannot read openings file {}: {e}", path.display()))?;
    let lines: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim().to_string()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    if lines.is_empty() {
        bail!("{}: no openings in the file", path.display());
    }
    Ok(lines)
}

struct Match<'a> {
    args: &'a MatchArgs,
    algos: [Algorithm; 2],
    names: [String; 2],
    openings: Option<Vec<(usize, String)>>,
}

impl GameTask for Match<'_> {
    type Output = Result<MatchResult>;

    fn run<G: Playable + Send + Sync + 'static>(self, start: G) -> Result<MatchResult> {
        let pairs = (self.args.games / 2) as usize;
        let openings: Vec<(String, G)> = match &self.openings {
            Some(lines) => {
                let path = self
                    .args
                    .openings
                    .as_ref()
                    .expect("openings came from a file")
                    .display();
                let mut out = Vec::new();
                for (lineno, text) in lines {
                    let g = G::from_position(text)
                        .map_err(|e| anyhow!("{path}:{lineno}: opening `{text}`: {e}"))?
                        .heuristic();
                    if g.result().is_some() {
                        bail!("{path}:{lineno}: opening `{text}`: the game is already over");
                    }
                    out.push((text.clone(), g));
                }
                (0..pairs).map(|k| out[k % out.len()].clone()).collect()
            }
            None => random_openings(&start, pairs, self.args.opening_plies, self.args.seed)
                .map_err(|e| anyhow!("{e} (--opening-plies {})", self.args.opening_plies))?,
        };
        let mut engines = [
            self.args.engine.engine(self.algos[0], 0)?,
            self.args.engine.engine(self.algos[1], 1)?,
        ];
        let plan = MatchPlan {
            names: self.names.clone(),
            limits: self.args.engine.limits(),
            max_plies: self.args.max_plies,
        };
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = ProgressBar::new(u64::from(self.args.games));
            b.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} games, ETA {eta} {msg}").expect("valid template"),
            );
            b
        });
        let result = play_match(&start, openings, &mut engines, &plan, &mut |first| {
            if let Some(b) = &bar {
                b.set_message(format!(
                    "{} {}-{}-{}",
                    first.name, first.wins, first.draws, first.losses
                ));
                b.inc(1);
            }
        });
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        Ok(result?)
    }
}

fn text(m: &MatchResult) -> String {
    let mut out = format!("{} games of {}\n", m.games, m.game);
    out.push_str(&format!(
        "{:<12} {:>5} {:>5} {:>6} {:>6} {:>14} {:>14}\n",
        "engine", "wins", "draws", "losses", "score", "nodes/move", "time/move"
    ));
    for e in &m.engines {
        out.push_str(&format!(
            "{:<12} {:>5} {:>5} {:>6} {:>6.3} {:>14.0} {:>14}\n",
            e.name,
            e.wins,
            e.draws,
            e.losses,
            e.score,
            e.nodes_per_move,
            crate::report::fmt_time(e.time_us_per_move as u64)
        ));
    }
    let (a, b) = (&m.engines[0].name, &m.engines[1].name);
    let interval = match (m.elo.low.is_finite(), m.elo.high.is_finite()) {
        (true, true) => format!("95% interval {:+.0} to {:+.0}", m.elo.low, m.elo.high),
        (true, false) => format!(
            "a clean sweep: at least {:+.0} with 95% confidence, no upper bound",
            m.elo.low
        ),
        (false, true) => format!(
            "a clean sweep: at most {:+.0} with 95% confidence, no lower bound",
            m.elo.high
        ),
        (false, false) => "no interval".to_string(),
    };
    out.push_str(&format!(
        "Elo difference of {a} over {b}: {:+.0} ({interval})\n",
        m.elo.diff
    ));
    out
}
