//! Real games that implement [`Game`]: [`TicTacToe`],
//! [`ConnectFour`], [`Othello`], [`ChessGame`] and [`Checkers`]; [`perft`]
//! counts any of their trees.
//!
//! Tic-tac-toe and Connect Four are built from the string of moves played
//! so far (`"159"`, `"4453"`), chess from a FEN and UCI moves
//! ([`chess`]); all make the player to move at that position MAX: every
//! value a search returns is from the root mover's point of view. Bad move
//! strings are rejected with a [`GameError`] that names the offending move
//! (chess: a [`ChessError`]).
//!
//! # Example
//! ```
//! use stockman::games::{GameErrorKind, TicTacToe};
//! use stockman::{Algorithm, SearchOptions};
//! // X in 1 and 2, O in 4 and 5, X to move: X completes the top row.
//! let game = TicTacToe::from_moves("1425").unwrap();
//! assert_eq!(Algorithm::AlphaBeta.search(&game, &SearchOptions::default()).unwrap().value, Some(1));
//!
//! let err = TicTacToe::from_moves("155").unwrap_err();
//! assert_eq!((err.index, err.found, err.kind), (3, '5', GameErrorKind::Occupied));
//! assert_eq!(err.to_string(), "move 3 ('5'): cell 5 is already taken");
//! ```

pub mod checkers;
pub mod chess;
pub mod connect4;
pub mod othello;
pub mod perft;
pub mod positions;
pub mod tictactoe;

pub use checkers::{Checkers, CheckersError};
pub use chess::{ChessError, ChessGame};
pub use connect4::ConnectFour;
pub use othello::Othello;
pub use tictactoe::TicTacToe;

use crate::game::Game;
use crate::value::{Role, Value};
use std::fmt;

/// How a game values positions: exactly, for searches to the end, or with
/// a heuristic at the horizon, for fixed-depth searches. Each game's module
/// documents its scale ([`connect4`], [`othello`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// The game's exact score at the end, 0 at a horizon.
    #[default]
    Exact,
    /// Exact scores scaled above every heuristic value at the end, a
    /// heuristic at the horizon (Connect Four: score x 100 and `-99..=99`;
    /// Othello: disc difference x 1000 and `-999..=999`).
    Heuristic,
}

/// Bounds `(lo, hi)` stated for the side to move, seen from MAX's side:
/// unchanged when MAX moves, negated and swapped when MIN does.
#[inline]
pub(crate) fn for_role(role: Role, (lo, hi): (Value, Value)) -> (Value, Value) {
    match role {
        Role::Max => (lo, hi),
        Role::Min => (-hi, -lo),
    }
}

/// How a finished game ended, from the players' side (not MAX's or MIN's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// The player who moved first in the game (X, Black in Othello, White in chess) won.
    FirstPlayerWins,
    /// The other player won.
    SecondPlayerWins,
    /// Nobody won.
    Draw,
}

/// A real game played move by move: what game programs (`stockman play`,
/// `stockman match`, an engine loop) need beyond the search abstraction.
///
/// A value of the game is rooted at one position, and the side to move
/// there is MAX (every value a search returns is from the root mover's
/// view). Playing a move at the root gives the game rooted at the next
/// position, so a game loop is `game = game.after(mv)`. [`Game::moves`]
/// may leave out moves a search never needs (Connect Four drops moves that
/// lose at once); [`Playable::legal_moves`] lists every legal move.
///
/// # Example
/// ```
/// use stockman::games::{GameResult, Playable, TicTacToe};
/// let mut game = TicTacToe::from_position("1425").unwrap();
/// let mv = game.parse_move("3").unwrap();
/// assert_eq!(game.move_text(mv), "3");
/// game = game.after(mv);
/// assert_eq!(game.result(), Some(GameResult::FirstPlayerWins));
/// assert!(game.parse_move("9").is_err()); // the game is over
/// ```
pub trait Playable: Game<Position: Send + Sync, Move: Send + Sync> + Clone + fmt::Display + Sized {
    /// Why a position text was rejected.
    type PositionError: std::error::Error + Send + Sync + 'static;

    /// The game at a position in the game's notation (a move list, a board,
    /// a FEN...); `""` is the start of the game.
    fn from_position(text: &str) -> Result<Self, Self::PositionError>;

    /// The same position valued for depth-limited searches: a heuristic at
    /// the horizon, exact endings ranked above every heuristic value.
    fn heuristic(self) -> Self;

    /// Every legal move at the root (none when the game is over).
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// The game after `mv` (a legal move) is played at the root.
    fn after(&self, mv: Self::Move) -> Self;

    /// Reads a move typed in the game's notation, checking that it is legal
    /// at the root; the error is a one-line reason for a person.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;

    /// A move of the root in the game's notation (what `parse_move` reads).
    fn move_text(&self, mv: Self::Move) -> String;

    /// Whether the player who moved first in the game is to move at the root.
    fn first_player_to_move(&self) -> bool;

    /// How the game ended, if it is over at the root.
    fn result(&self) -> Option<GameResult>;

    /// The position reached from the start of the game by `moves` (each in
    /// [`Playable::move_text`]'s notation at its own position), written as
    /// [`Playable::from_position`] reads it: by default the moves
    /// separated by spaces (`f5 d6`, `e2e4 e7e5`).
    fn line_text(moves: &[String]) -> String {
        moves.join(" ")
    }

    /// What the players are called: the first player when `first`.
    fn player_name(&self, first: bool) -> &'static str {
        if first {
            "first player"
        } else {
            "second player"
        }
    }
}

/// Reads a move numbered `1..=max` as typed by a person (a Connect Four
/// column, a tic-tac-toe cell): the 0-based number, or a one-line reason
/// naming `what` is numbered.
pub(crate) fn numbered_move(text: &str, max: u8, what: &str) -> Result<u8, String> {
    let t = text.trim();
    match t.parse::<u8>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n - 1),
        _ => Err(format!("`{t}` is not a {what}: type a number from 1 to {max}")),
    }
}

/// The names X and O of the players of the games drawn with X and O.
pub(crate) fn x_or_o(first: bool) -> &'static str {
    if first {
        "X"
    } else {
        "O"
    }
}

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
