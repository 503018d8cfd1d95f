//! Perft: the number of move sequences of each length from a position,
//! the classic check of a move generator against published counts.
//!
//! The counts walk [`Playable::legal_moves`] and [`Playable::after`]: every
//! legal move, as `play` and `match` see them, not the search's
//! [`Game::moves`](crate::Game::moves) (which may leave moves out: Connect
//! Four drops moves that lose at once, Othello solves its last empty
//! squares itself). A position where the game is over is a leaf that
//! counts nothing below it. An Othello pass is a move like any other (one
//! ply); a checkers multi-jump is one move, and two routes capturing the
//! same pieces are two moves (as in the published counts); chess counts
//! the positions after its claimed draws (threefold, fifty moves) and dead
//! positions as finished.
//!
//! # Example
//! ```
//! use stockman::games::perft::{divide, perft};
//! use stockman::{Checkers, Playable, TicTacToe};
//! assert_eq!(perft(&TicTacToe::from_position("").unwrap(), 2), vec![9, 72]);
//! assert_eq!(perft(&Checkers::new(), 3), vec![7, 49, 302]);
//! let per_move = divide(&Checkers::new(), 2);
//! assert_eq!(per_move.len(), 7);
//! assert_eq!(per_move.iter().map(|(_, n)| n).sum::<u64>(), 49);
//! ```

use super::Playable;

/// The deepest perft the front ends accept: deeper counts of these games
/// run for days.
pub const MAX_PERFT_DEPTH: u32 = 30;

/// The number of move sequences of each length `1..=depth` from `game`'s
/// root: `counts[d - 1]` for length `d` (positions `d` plies below the
/// root, reached by different sequences counted apart). Empty for depth 0.
pub fn perft<G: Playable>(game: &G, depth: u32) -> Vec<u64> {
    let mut counts = vec![0; depth as usize];
    if depth > 0 {
        walk(game, 0, &mut counts);
    }
    counts
}

/// Adds the moves of `game` (at `level` plies below the root) to
/// `counts[level]`, and those below them to the deeper counts.
fn walk<G: Playable>(game: &G, level: usize, counts: &mut [u64]) {
    let moves = game.legal_moves();
    counts[level] += moves.len() as u64;
    if level + 1 < counts.len() {
        for mv in moves {
            walk(&game.after(mv), level + 1, counts);
        }
    }
}

/// For each legal move of the root, in [`Playable::legal_moves`]'s order,
/// the number of move sequences of length `depth` that start with it (1
/// each at depth 1); empty at depth 0.
pub fn divide<G: Playable>(game: &G, depth: u32) -> Vec<(G::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    game.legal_moves()
        .into_iter()
        .map(|mv| {
            let below = if depth == 1 {
                1
            } else {
                perft(&game.after(mv), depth - 1).last().copied().unwrap_or(0)
            };
            (mv, below)
        })
        .collect()
}
