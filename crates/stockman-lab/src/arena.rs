//! Matches between two engines: openings, the games, and the Elo
//! difference with its interval. `stockman match` parses its flags, calls
//! [`play_match`] and prints the [`MatchResult`].

use crate::Error;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use stockman::{Algorithm, Engine, GameResult, Limits, Playable, SearchOptions};

/// One engine's results (the JSON contract).
#[derive(Serialize, Debug, Clone, Default, PartialEq)]
pub struct EngineResult {
    /// The engine's name (its algorithm).
    pub name: String,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Points per game: (wins + draws / 2) / games, in 0..=1.
    pub score: f64,
    /// Positions visited per move, on average.
    pub nodes_per_move: f64,
    /// Microseconds per move, on average.
    pub time_us_per_move: f64,
    /// Moves this engine made.
    pub moves: u64,
}

/// The first engine's Elo difference over the second, with its 95% interval.
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct Elo {
    /// The estimate.
    pub diff: f64,
    /// The interval's lower end (minus infinity, JSON `null`, when there is none).
    pub low: f64,
    /// Its upper end (infinity, JSON `null`, when there is none).
    pub high: f64,
}

/// The whole match (the JSON contract).
#[derive(Serialize, Debug)]
pub struct MatchResult {
    /// The game's name.
    pub game: String,
    /// Games played.
    pub games: u32,
    /// Each engine's results, in the order given.
    pub engines: Vec<EngineResult>,
    /// The first engine's Elo difference over the second.
    pub elo: Elo,
    /// The openings played, one per pair, in the game's notation.
    pub openings: Vec<String>,
}

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchPlan {
    /// The engines' names, as the result reports them.
    pub names: [String; 2],
    /// Every move's limits.
    pub limits: Limits,
    /// A game this long is a draw.
    pub max_plies: u32,
}

/// Plays every opening twice, each engine moving first once, between
/// `engines` (each forgets its table and heuristics before every game),
/// and reports the results; `after_game` sees the first engine's results
/// so far after every game (a progress display).
///
/// # Errors
/// An engine's search failing, or finding no move in a game that is not over.
pub fn play_match<G: Playable + Sync>(
    start: &G,
    openings: Vec<(String, G)>,
    engines: &mut [Engine; 2],
    plan: &MatchPlan,
    after_game: &mut dyn FnMut(&EngineResult),
) -> Result<MatchResult, Error> {
    let mut results: Vec<EngineResult> = plan
        .names
        .iter()
        .map(|n| EngineResult {
            name: n.clone(),
            ..EngineResult::default()
        })
        .collect();
    let (mut nodes, mut time) = ([0u64; 2], [0u64; 2]);
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
                if plies >= plan.max_plies {
                    break GameResult::Draw;
                }
                let side = if game.first_player_to_move() {
                    first_player_engine
                } else {
                    1 - first_player_engine
                };
                let found = engines[side]
                    .best_move(&game, &plan.limits)
                    .map_err(|e| Error::new(format!("{}: {e}", plan.names[side])))?;
                nodes[side] += found.stats.nodes;
                time[side] += found.stats.time_us;
                results[side].moves += 1;
                let mv = found
                    .best_move
                    .or_else(|| game.legal_moves().first().copied())
                    .ok_or_else(|| Error::new("an engine found no move in a game that is not over"))?;
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
            after_game(&results[0]);
        }
    }
    let games = 2 * openings.len() as u32;
    for (i, r) in results.iter_mut().enumerate() {
        r.score = (f64::from(r.wins) + f64::from(r.draws) / 2.0) / f64::from(games.max(1));
        let moves = r.moves.max(1) as f64;
        r.nodes_per_move = nodes[i] as f64 / moves;
        r.time_us_per_move = time[i] as f64 / moves;
    }
    let elo = elo(results[0].wins, results[0].draws, results[0].losses);
    Ok(MatchResult {
        game: start.name().to_string(),
        games,
        engines: results,
        elo,
        openings: openings.into_iter().map(|(t, _)| t).collect(),
    })
}

/// `pairs` random openings of `plies` legal moves each, from a seeded
/// generator (the same seed, the same openings), written in the game's
/// notation (as `stockman match --openings` and `--position` read them). An opening is kept when the game is not over
/// and it is balanced (`balanced`: solved a draw, or a shallow value near 0); otherwise it is drawn again, up to
/// 1000 times.
pub fn random_openings<G: Playable>(start: &G, pairs: usize, plies: u32, seed: u64) -> Result<Vec<(String, G)>, Error> {
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
            Error::new(format!(
                "found no balanced opening of {plies} plies in 1000 tries; ask for fewer plies"
            ))
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
