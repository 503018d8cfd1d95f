//! Real games that implement [`Game`](crate::Game): [`TicTacToe`] and
//! [`ConnectFour`].
//!
//! Both are built from the string of moves played so far (`"159"`,
//! `"4453"`), and both make the player to move at that position MAX: every
//! value a search returns is from the root mover's point of view. Bad move
//! strings are rejected with a [`GameError`] that names the offending move.
//!
//! # Example
//! ```
//! use stockman::games::{GameErrorKind, TicTacToe};
//! use stockman::{algorithms::alphabeta, SearchOptions};
//! // X in 1 and 2, O in 4 and 5, X to move: X completes the top row.
//! let game = TicTacToe::from_moves("1425").unwrap();
//! assert_eq!(alphabeta::search(&game, &SearchOptions::default()).unwrap().value, Some(1));
//!
//! let err = TicTacToe::from_moves("155").unwrap_err();
//! assert_eq!((err.index, err.found, err.kind), (3, '5', GameErrorKind::Occupied));
//! assert_eq!(err.to_string(), "move 3 ('5'): cell 5 is already taken");
//! ```

pub mod connect4;
pub mod tictactoe;

pub use connect4::ConnectFour;
pub use tictactoe::TicTacToe;

use std::fmt;

/// Why a move string was rejected: which move, and what is wrong with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameError {
    /// The offending move's position in the string, counting characters from 1.
    pub index: usize,
    /// The offending character.
    pub found: char,
    /// What is wrong with it.
    pub kind: GameErrorKind,
}

/// What is wrong with a move of a move string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameErrorKind {
    /// The character is not a decimal digit; moves are digits `1..=max`.
    NotADigit {
        /// The largest move number of the game (9 cells, 7 columns).
        max: u8,
    },
    /// A digit outside `1..=max`.
    OutOfRange {
        /// The largest move number of the game (9 cells, 7 columns).
        max: u8,
    },
    /// Tic-tac-toe: the cell is already taken.
    Occupied,
    /// Connect Four: the column is full.
    ColumnFull,
    /// The game was already over (won, or the board full) before this move.
    GameOver,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} ({:?}): ", self.index, self.found)?;
        match self.kind {
            GameErrorKind::NotADigit { max } => write!(f, "not a digit (moves are 1 to {max})"),
            GameErrorKind::OutOfRange { max } => write!(f, "out of range (moves are 1 to {max})"),
            GameErrorKind::Occupied => write!(f, "cell {} is already taken", self.found),
            GameErrorKind::ColumnFull => write!(f, "column {} is full", self.found),
            GameErrorKind::GameOver => f.write_str("the game is already over"),
        }
    }
}

impl std::error::Error for GameError {}
