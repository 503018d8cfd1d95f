//! `stockman match`: engine against engine, in colour-swapped pairs of
//! games from varied openings, with the Elo difference and its interval.

use crate::games::with_game;
use crate::play::{engine_algorithm, EngineArgs};
use crate::Format;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use stockman::run::{GameKind, GameTask};
use stockman::Limits;
use stockman::{Algorithm, GameResult, Playable, SearchOptions};

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

/// One engine's results (the JSON contract).
#[derive(Serialize, Debug, Clone, Default, PartialEq)]
pub struct EngineResult {
    pub name: String,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Points per game: (wins + draws / 2) / games, in 0..=1.
    pub score: f64,
    pub nodes_per_move: f64,
    pub time_us_per_move: f64,
    /// Moves this engine made.
    pub moves: u64,
}

/// The first engine's Elo difference over the second, with its 95% interval.
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct Elo {
    pub diff: f64,
    pub low: f64,
    pub high: f64,
}

/// The whole match (the JSON contract).
#[derive(Serialize, Debug)]
pub struct MatchResult {
    pub game: String,
    pub games: u32,
    pub engines: Vec<EngineResult>,
    pub elo: Elo,
    /// The openings played, one per pair, in the game's notation.
    pub openings: Vec<String>,
}

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
            None => random_openings(&start, pairs, self.args.opening_plies, self.args.seed)?,
        };
        let mut engines = [
            self.args.engine.engine(self.algos[0], 0)?,
            self.args.engine.engine(self.algos[1], 1)?,
        ];
        let limits = self.args.engine.limits();
        let mut results: Vec<EngineResult> = self
            .names
            .iter()
            .map(|n| EngineResult {
                name: n.clone(),
                ..EngineResult::default()
            })
            .collect();
        let (mut nodes, mut time) = ([0u64; 2], [0u64; 2]);
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = ProgressBar::new(u64::from(self.args.games));
            b.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} games, ETA {eta} {msg}").expect("valid template"),
            );
            b
        });
        for (_, opening) in &openings {
            for first in [0usize, 1] {
                // Engine `first` moves first in the game from this opening.
                let first_player_engine = if opening.first_player_to_move() {
                    first
                } else {
                    1 - first
                };
                for e in engines.iter_mut() {
                    e.new_game();
                }
                let mut game = opening.clone();
                let mut plies = 0;
                let result = loop {
                    if let Some(r) = game.result() {
                        break r;
                    }
                    if plies >= self.args.max_plies {
                        break GameResult::Draw;
                    }
                    let side = if game.first_player_to_move() {
                        first_player_engine
                    } else {
                        1 - first_player_engine
                    };
                    let found = engines[side].best_move(&game, &limits)?;
                    nodes[side] += found.stats.nodes;
                    time[side] += found.stats.time_us;
                    results[side].moves += 1;
                    let mv = found
                        .best_move
                        .or_else(|| game.legal_moves().first().copied())
                        .context("an engine found no move in a game that is not over")?;
                    game = game.after(mv);
                    plies += 1;
                };
                let winner = match result {
                    GameResult::Draw => None,
                    GameResult::FirstPlayerWins => Some(first_player_engine),
                    GameResult::SecondPlayerWins => Some(1 - first_player_engine),
                };
                for (i, r) in results.iter_mut().enumerate() {
                    match winner {
                        None => r.draws += 1,
                        Some(w) if w == i => r.wins += 1,
                        Some(_) => r.losses += 1,
                    }
                }
                if let Some(b) = &bar {
                    b.set_message(format!(
                        "{} {}-{}-{}",
                        self.names[0], results[0].wins, results[0].draws, results[0].losses
                    ));
                    b.inc(1);
                }
            }
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        let games = f64::from(self.args.games);
        for (i, r) in results.iter_mut().enumerate() {
            r.score = (f64::from(r.wins) + f64::from(r.draws) / 2.0) / games;
            let moves = r.moves.max(1) as f64;
            r.nodes_per_move = nodes[i] as f64 / moves;
            r.time_us_per_move = time[i] as f64 / moves;
        }
        let elo = elo(results[0].wins, results[0].draws, results[0].losses);
        Ok(MatchResult {
            game: start.name().to_string(),
            games: self.args.games,
            engines: results,
            elo,
            openings: openings.into_iter().map(|(t, _)| t).collect(),
        })
    }
}

/// `pairs` random openings of `plies` legal moves each, from a seeded
/// generator (the same seed, the same openings), written as `--openings`
/// and `--position` read them. An opening is kept when the game is not over
/// and it is balanced ([`balanced`]); otherwise it is drawn again, up to
/// 1000 times.
fn random_openings<G: Playable>(start: &G, pairs: usize, plies: u32, seed: u64) -> Result<Vec<(String, G)>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..pairs {
        let mut found = None;
        for _ in 0..1000 {
            let mut g = start.clone();
            let mut text = Vec::new();
            for _ in 0..plies {
                let legal = g.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mv = legal[(rng.next_u64() % legal.len() as u64) as usize];
                text.push(g.move_text(mv));
                g = g.after(mv);
            }
            if g.result().is_none() && balanced(&g) {
                found = Some((G::line_text(&text), g));
                break;
            }
        }
        out.push(found.ok_or_else(|| {
            anyhow!("found no balanced opening of {plies} plies in 1000 tries; try fewer --opening-plies")
        })?);
    }
    Ok(out)
}

/// Whether an opening leaves the game open: solved exactly when a search
/// of at most [`SOLVE_NODES`] positions can (tic-tac-toe, late Connect Four
/// positions), a draw with best play; otherwise a 4-ply alpha-beta value
/// within a tenth of the root's bounds from 0 (for Connect Four's
/// heuristic, no forced result in sight).
fn balanced<G: Playable>(g: &G) -> bool {
    let exact = SearchOptions {
        limits: Limits {
            nodes: Some(SOLVE_NODES),
            ..Default::default()
        },
        ..SearchOptions::default()
    };
    match Algorithm::AlphaBeta.search(g, &exact) {
        Ok(o) => return o.value == Some(0),
        Err(e) if e.limit().is_some() => {}
        Err(_) => return false,
    }
    let (lo, hi) = g.bounds(&g.root());
    let opts = SearchOptions {
        limits: Limits::to_depth(4),
        ..SearchOptions::default()
    };
    match Algorithm::AlphaBeta.search(g, &opts).ok().and_then(|o| o.value) {
        Some(v) => {
            let width = (i64::from(hi) - i64::from(lo)).max(1);
            10 * i64::from(v).abs() < width
        }
        None => false,
    }
}

/// The largest search [`balanced`] spends on solving an opening exactly.
const SOLVE_NODES: u64 = 200_000;

/// The Elo difference of a player who scored `w` wins, `d` draws and `l`
/// losses, with a 95% interval: the score fraction `s` and its standard
/// error over games give `s ± 1.96 se`, each turned into Elo by
/// `-400 log10(1/s - 1)`. The point estimate of a score of 0 or 1
/// (infinite Elo) is clamped to half a game from the edge, `1/(2n)` and
/// `1 - 1/(2n)`. A clean sweep has no spread to measure, so its interval
/// is one-sided: the exact binomial bound (`p^n = 0.05`: the score a player
/// who wins all `n` games can still have with 95% confidence) on one side,
/// infinite on the other (JSON `null`). Where every game was drawn, the
/// spread of a win-or-loss score, `s(1 - s)`, stands in for the zero one.
pub fn elo(w: u32, d: u32, l: u32) -> Elo {
    let n = f64::from(w + d + l);
    if n == 0.0 {
        return Elo {
            diff: 0.0,
            low: 0.0,
            high: 0.0,
        };
    }
    let s = (f64::from(w) + f64::from(d) / 2.0) / n;
    let edge = 1.0 / (2.0 * n);
    let to_elo = |x: f64| {
        let x = x.clamp(edge, 1.0 - edge);
        -400.0 * (1.0 / x - 1.0).log10()
    };
    let exact = |x: f64| -400.0 * (1.0 / x - 1.0).log10();
    if w + d == 0 || l + d == 0 {
        // A clean sweep: one-sided.
        let bound = 0.05f64.powf(1.0 / n);
        let (low, high) = if l == 0 {
            (exact(bound), f64::INFINITY)
        } else {
            (f64::NEG_INFINITY, exact(1.0 - bound))
        };
        return Elo {
            diff: to_elo(s) + 0.0,
            low: low + 0.0,
            high: high + 0.0,
        };
    }
    let mut var = (f64::from(w) * (1.0 - s).powi(2) + f64::from(d) * (0.5 - s).powi(2) + f64::from(l) * s.powi(2)) / n;
    if var == 0.0 {
        var = s * (1.0 - s);
    }
    let se = (var / n).sqrt();
    // (`+ 0.0` turns an even score's -0 into 0.)
    Elo {
        diff: to_elo(s) + 0.0,
        low: to_elo(s - 1.96 * se) + 0.0,
        high: to_elo(s + 1.96 * se) + 0.0,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_and_lopsided_scores() {
        let even = elo(3, 4, 3);
        assert_eq!(even.diff, 0.0);
        assert!(even.low < 0.0 && even.high > 0.0);
        assert!((even.low + even.high).abs() < 1e-9, "symmetric: {even:?}");
        // 75%: about +191 Elo.
        let e = elo(3, 0, 1);
        assert!((e.diff - 190.85).abs() < 0.01, "{e:?}");
        assert!(e.low < e.diff && e.diff < e.high);
        // A clean sweep: the estimate clamped at half a game from the edge,
        // the interval one-sided (0.05^(1/2) = 0.2236...: 2-0 proves only
        // a score above 22.4%, about -216 Elo).
        let sweep = elo(4, 0, 0);
        assert!(sweep.diff.is_finite() && sweep.diff > 0.0);
        assert!((sweep.diff - (-400.0 * (1.0f64 / (1.0 - 1.0 / 8.0) - 1.0).log10())).abs() < 1e-9);
        assert_eq!(sweep.high, f64::INFINITY);
        assert!(sweep.low < sweep.diff);
        let two = elo(2, 0, 0);
        assert!(
            (two.low - (-400.0 * (1.0 / 0.05f64.sqrt() - 1.0).log10())).abs() < 1e-9,
            "{two:?}"
        );
        assert_eq!(two.low.round(), -216.0);
        let lost = elo(0, 0, 4);
        assert!(lost.diff < 0.0);
        assert_eq!(lost.low, f64::NEG_INFINITY);
        assert!((lost.high + sweep.low).abs() < 1e-9, "{lost:?} {sweep:?}");
        assert_eq!(elo(0, 0, 0).diff, 0.0);
        // All draws: no spread between the games, but not a point either.
        let draws = elo(0, 6, 0);
        assert_eq!(draws.diff, 0.0);
        assert!(draws.low < -100.0 && draws.high > 100.0, "{draws:?}");
        // JSON writes the missing bound as null.
        assert_eq!(serde_json::to_string(&sweep.high).unwrap(), "null");
    }
}
