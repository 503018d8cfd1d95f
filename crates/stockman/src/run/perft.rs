//! Perft of a built-in game at a position ([`crate::games::perft`]),
//! checked and named: what `stockman perft` prints.
//!
//! # Example
//! ```
//! use stockman::run::{perft::perft, GameKind};
//! let report = perft(GameKind::Checkers, "", 3, true).unwrap();
//! assert_eq!(report.per_depth, [7, 49, 302]);
//! assert_eq!(report.nodes, 302);
//! assert_eq!(report.divide.as_ref().unwrap()[0], ("9-13".to_string(), 48));
//! assert!(perft(GameKind::Chess, "", 0, false).is_err());
//! ```

use super::{with_game, GameKind, GameTask, RunError};
use crate::games::perft::{divide, perft as count, MAX_PERFT_DEPTH};
use crate::games::Playable;

/// Perft counts from one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftReport {
    /// The game.
    pub game: GameKind,
    /// The position as given (`""`: the start).
    pub position: String,
    /// The deepest count.
    pub depth: u32,
    /// The count at `depth`: move sequences of that many plies.
    pub nodes: u64,
    /// The counts at depths `1..=depth`.
    pub per_depth: Vec<u64>,
    /// When asked: each root move (in the game's notation, in the order of
    /// its legal moves) and the count at `depth` below it.
    pub divide: Option<Vec<(String, u64)>>,
}

/// Counts the move sequences of `kind` at `position` up to `depth` plies,
/// and per root move when `per_move`.
///
/// # Errors
/// [`RunError::Settings`] for a depth outside `1..=`[`MAX_PERFT_DEPTH`];
/// [`RunError::Position`] for a bad position.
pub fn perft(kind: GameKind, position: &str, depth: u32, per_move: bool) -> Result<PerftReport, RunError> {
    if !(1..=MAX_PERFT_DEPTH).contains(&depth) {
        return Err(RunError::Settings(format!(
            "the perft depth must be 1 to {MAX_PERFT_DEPTH}, not {depth}"
        )));
    }
    struct Count {
        depth: u32,
        per_move: bool,
    }
    impl GameTask for Count {
        type Output = (Vec<u64>, Option<Vec<(String, u64)>>);
        fn run<G: Playable + Send + Sync + 'static>(self, game: G) -> Self::Output {
            let per_depth = count(&game, self.depth);
            let split = self.per_move.then(|| {
                divide(&game, self.depth)
                    .into_iter()
                    .map(|(m, n)| (game.move_text(m), n))
                    .collect()
            });
            (per_depth, split)
        }
    }
    let (per_depth, divide) = with_game(kind, position, false, Count { depth, per_move })?;
    Ok(PerftReport {
        game: kind,
        position: position.to_string(),
        depth,
        nodes: per_depth.last().copied().unwrap_or(0),
        per_depth,
        divide,
    })
}
