//! The built-in games by kind, and the settings each starts from.

use super::RunError;
use crate::algorithms::Algorithm;
use crate::games::{Checkers, ChessGame, ConnectFour, Othello, Playable, TicTacToe};

/// The built-in games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    /// Tic-tac-toe; a position is the cells played, 1-9 in reading order.
    TicTacToe,
    /// Connect Four, 7x6; a position is the columns played, 1-7.
    Connect4,
    /// Othello, 8x8; a position is the squares played (`f5d6c3`) or an FFO
    /// board and side (`"<64 squares> X"`).
    Othello,
    /// Chess; a position is `startpos`, a FEN or an EPD line, then
    /// optionally `moves` and UCI moves (`e2e4 e7e5`).
    Chess,
    /// English draughts (checkers), 8x8; a position is the moves played
    /// (`11-15 23-19 9x18`), a PDN FEN (`W:W21,22,K30:B1-12`) or a board
    /// diagram, the last two optionally followed by moves.
    Checkers,
}

impl GameKind {
    /// Every built-in game.
    pub const ALL: &'static [GameKind] = &[
        GameKind::TicTacToe,
        GameKind::Connect4,
        GameKind::Othello,
        GameKind::Chess,
        GameKind::Checkers,
    ];

    /// The name on the command line and in Python.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::TicTacToe => "tictactoe",
            GameKind::Connect4 => "connect4",
            GameKind::Othello => "othello",
            GameKind::Chess => "chess",
            GameKind::Checkers => "checkers",
        }
    }

    /// Every game's name, in [`GameKind::ALL`]'s order.
    pub fn names() -> Vec<&'static str> {
        GameKind::ALL.iter().map(|g| g.name()).collect()
    }

    /// Whether a search of this game needs a depth: a chess or checkers
    /// game cannot be searched to its end, so a fixed-depth search refuses
    /// to start without one instead of running forever (iterative
    /// deepening under a limit does not need one).
    pub fn needs_depth(self) -> bool {
        matches!(self, GameKind::Chess | GameKind::Checkers)
    }

    /// What a search of this game uses when the caller does not say: the
    /// best settings measured (docs/guide/games.md gives the figures).
    /// Othello: MTD(f) with enhanced transposition cut-offs from 12 empty
    /// squares, as the FFO endgame figures (FFO #40-#42: 1.7 s, where
    /// MTD(bi) without them took 3.4 s). The others: MTD(bi).
    pub fn defaults(self) -> GameDefaults {
        match self {
            GameKind::Othello => GameDefaults {
                algorithm: Algorithm::Mtdf,
                etc_from: Some(12),
            },
            _ => GameDefaults {
                algorithm: Algorithm::MtdBi,
                etc_from: None,
            },
        }
    }
}

/// A built-in game's default settings ([`GameKind::defaults`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameDefaults {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Enhanced transposition cut-offs at nodes with at least this much
    /// left below them ([`Enhancements::etc_min_depth`](crate::Enhancements::etc_min_depth));
    /// `None`: none (but under iterative deepening, everywhere).
    pub etc_from: Option<u32>,
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for GameKind {
    type Err = RunError;
    fn from_str(s: &str) -> Result<GameKind, RunError> {
        let t = s.trim().to_ascii_lowercase();
        GameKind::ALL
            .iter()
            .copied()
            .find(|g| g.name() == t)
            .ok_or_else(|| RunError::Settings(format!("unknown game `{s}` (known: {})", GameKind::names().join(", "))))
    }
}

/// Something to do with a built-in game of any kind, generic over the
/// game: code names a game once, through [`with_game`], and stays generic
/// over [`Playable`] after that.
pub trait GameTask {
    /// What the task gives back.
    type Output;
    /// Does the task on `game`.
    fn run<G: Playable + Send + Sync + 'static>(self, game: G) -> Self::Output;
}

/// Builds the game `kind` at `position` (in the game's notation; `""` is
/// the start), valued for depth-limited search when `heuristic`, and hands
/// it to `task`.
///
/// # Errors
/// [`RunError::Position`] naming what is wrong with the position.
pub fn with_game<T: GameTask>(kind: GameKind, position: &str, heuristic: bool, task: T) -> Result<T::Output, RunError> {
    fn prepare<G: Playable>(kind: GameKind, position: &str, heuristic: bool) -> Result<G, RunError> {
        let game = G::from_position(position).map_err(|e| RunError::Position {
            game: kind,
            position: position.to_string(),
            message: e.to_string(),
        })?;
        Ok(if heuristic { game.heuristic() } else { game })
    }
    Ok(match kind {
        GameKind::TicTacToe => task.run(prepare::<TicTacToe>(kind, position, heuristic)?),
        GameKind::Connect4 => task.run(prepare::<ConnectFour>(kind, position, heuristic)?),
        GameKind::Othello => task.run(prepare::<Othello>(kind, position, heuristic)?),
        GameKind::Chess => task.run(prepare::<ChessGame>(kind, position, heuristic)?),
        GameKind::Checkers => task.run(prepare::<Checkers>(kind, position, heuristic)?),
    })
}
