//! English draughts (checkers) on the 8 x 8 board, on 32-square
//! bitboards, searched to a fixed depth with a heuristic.
//!
//! # Rules
//! The 32 dark squares are numbered 1 to 32 in reading order, 1-4 on the
//! top row. Black's twelve men start on 1-12, White's on 21-32, and
//! **Black moves first**. A man moves one square diagonally forward (Black
//! down the board, towards 29-32; White up, towards 1-4), a king one
//! square diagonally either way. **Captures are compulsory**: a piece
//! jumps over an adjacent enemy piece to the empty square beyond, and
//! keeps jumping while it can (a multi-jump); when several captures exist
//! the player may choose any of them (not necessarily the longest), but a
//! jump sequence once started is continued to its end. A captured piece is
//! never jumped twice; a king may end a jump on the square it started
//! from. A man reaching the far row is **crowned** king, and that ends its
//! move. A player with no legal move (no pieces, or all blocked) **loses**.
//!
//! **Draw rule** (this program's, for `play` and `match` as inside the
//! search): after 80 plies (40 moves by each side) without a capture or a
//! man's move, the game is drawn ([`DRAW_PLIES`]). A side with no legal
//! move at that point still loses. Repetitions are not detected (the draw
//! rule ends every cycle of king moves within 80 plies).
//!
//! # Positions and moves
//! [`Checkers::parse`] reads
//! - a **move list** from the start in standard notation: `11-15 23-19
//!   9x18`, multi-jumps with every landing square (`9x18x27`), or only the
//!   first and last squares (`9x27`) when that names one capture; move
//!   numbers (`1.`, `1...`) are skipped;
//! - a **PDN FEN**: `W:W21,22,K30:B1,2,3` (the side to move, then each
//!   colour's pieces, kings prefixed `K`, ranges such as `1-12` allowed),
//!   also wrapped as `[FEN "..."]` with an optional final `.`;
//! - a **board diagram**: 64 characters, the top row first (`.`, `-` or
//!   `_` empty, `b`/`B` a black man/king, `w`/`W` a white man/king), then
//!   the side to move, `B` or `W`;
//!
//! and a FEN or a diagram may be followed by moves played from it. A move
//! ([`Move`]) is written `11-15` or `9x18x27` ([`Playable::move_text`]).
//! Every position and move is checked: an error ([`CheckersError`]) names
//! the move or token, its column and the reason: an illegal move (listing
//! the legal ones), a simple move when a capture is compulsory, a jump
//! stopped before its end, a square outside 1-32, a piece on a light
//! square, a man on the row where it would have been crowned.
//!
//! # Values
//! The side to move at the root is MAX; values are from its view.
//! - A side without a legal move at `ply` plies from the root has lost:
//!   `-(WIN - ply)` for it (a faster win scores more, like chess's mates).
//! - A position drawn by the draw rule is worth 0.
//! - At the horizon, a heuristic ([`eval`]) for the side to move:
//!   `100 × men + 160 × kings + 3 × rows advanced by the men + 8 × men on
//!   the own back row + 2 × simple moves available`, each the side to
//!   move's count minus the opponent's: material, kings worth more than
//!   men, advancement towards the crown, the back rank guarding the
//!   crowning squares, and mobility. The weights are this project's, set
//!   by hand; the values lie within ±[`HEURISTIC_MAX`].
//!
//! A search to the end of the game never finishes in practice: search
//! checkers with a depth (the `stockman` command refuses `--game
//! checkers` without one, as for chess).
//!
//! # Move order, hash
//! Captures taking the most pieces first, then crowning moves, then the
//! rest in square order. [`Game::hash`] is a Zobrist key of the pieces and
//! the side to move ([`Board::key`], updated incrementally; [`Game::child_hash`]
//! gives a child's key without playing the move), mixed with the ply from
//! the root (win scores depend on it) and, once it passes 40, with the
//! count of quiet plies (the draw rule cannot strike within 40 plies of a
//! position below it, so the key is exact for searches up to 40 plies).
//!
//! # Example
//! ```
//! use stockman::games::checkers::Checkers;
//! use stockman::{Algorithm, Limits, Playable, SearchOptions};
//!
//! let game = Checkers::parse("11-15 23-19 8-11 22-17").unwrap();
//! assert_eq!(game.fen(), "B:W17,19,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15");
//! let opts = SearchOptions { limits: Limits::to_depth(4), ..Default::default() };
//! assert!(Algorithm::AlphaBeta.search(&game, &opts).unwrap().value.is_some());
//!
//! // After 11-15 22-18 Black must take: 15x22 is compulsory, 9-13 is refused.
//! let game = Checkers::parse("11-15 22-18").unwrap();
//! assert_eq!(game.legal_moves().iter().map(|&m| game.move_text(m)).collect::<Vec<_>>(), ["15x22"]);
//! let err = Checkers::parse("11-15 22-18 9-13").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "move 3 (`9-13`, column 13): Black must capture: captures are compulsory (legal: 15x22)"
//! );
//! let err = Checkers::parse("W:W21,K33:B1").unwrap_err();
//! assert_eq!(err.to_string(), "FEN `K33` (column 7): square 33 is not on the board (squares are 1 to 32)");
//! ```

use super::{GameResult, Playable};
use crate::game::Game;
use crate::value::{Role, Value};
use std::fmt;

mod board;
pub mod eval;
mod notation;
#[cfg(test)]
mod tests;

pub use board::{Board, Move};
pub use eval::HEURISTIC_MAX;
pub use notation::{CheckersError, CheckersErrorKind, MoveProblem};

use board::splitmix;
use eval::{heuristic, ordered_moves};
use notation::{find_move, parse_position, player};

/// The score of winning at the root: a win `ply` moves from the root is
/// worth `WIN - ply` to the winner.
pub const WIN: Value = 100_000;

/// The draw rule: this many plies (40 moves by each side) without a
/// capture or a man's move draw the game.
pub const DRAW_PLIES: u8 = 80;

/// Below this many quiet plies, [`Game::hash`] leaves the count out (the
/// draw rule cannot strike within this many plies below the position).
const QUIET_HASH_FROM: u8 = 40;

/// A node of the search: the board and its distance from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckersPosition {
    /// The board.
    pub board: Board,
    /// Moves played from the root to here.
    pub ply: u32,
}

/// English draughts from a given position; see the [module documentation](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Checkers {
    root: Board,
}

impl Checkers {
    /// The initial position, Black to move.
    pub const fn new() -> Checkers {
        Checkers { root: Board::new() }
    }

    /// The game rooted at `board`.
    pub const fn from_board(board: Board) -> Checkers {
        Checkers { root: board }
    }

    /// Reads a move list, a PDN FEN or a board diagram (each of the last
    /// two optionally followed by moves); see the [module documentation](self).
    ///
    /// # Errors
    /// A [`CheckersError`] naming the bad move or token, its column and why.
    pub fn parse(text: &str) -> Result<Checkers, CheckersError> {
        parse_position(text).map(Checkers::from_board)
    }

    /// The root position.
    pub fn board(&self) -> Board {
        self.root
    }

    /// The root position as a PDN FEN (`B:W21,...:B1,...`).
    pub fn fen(&self) -> String {
        self.root.to_fen()
    }

    /// Who is to move at the root: `"Black"` or `"White"`.
    pub fn to_move_text(&self) -> &'static str {
        player(&self.root)
    }

    /// `score` for the side to move at `pos`, from MAX's view.
    #[inline]
    fn for_max(pos: &CheckersPosition, score: Value) -> Value {
        if pos.ply.is_multiple_of(2) {
            score
        } else {
            -score
        }
    }

    /// The table key of a board with Zobrist key `key` and `quiet` quiet plies at `ply`.
    #[inline]
    fn key(key: u64, quiet: u8, ply: u32) -> u64 {
        let q = if quiet > QUIET_HASH_FROM {
            splitmix(u64::from(quiet) << 40 ^ 0x5155_4945_5400_0000)
        } else {
            0
        };
        key ^ splitmix(u64::from(ply).wrapping_add(0x504C_5900)) ^ q
    }
}

impl fmt::Display for Checkers {
    /// The board (top row first: `b`/`B` black man/king, `w`/`W` white,
    /// `-` an empty dark square), the squares of each row, the side to
    /// move and the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let diagram = self.root.to_diagram();
        for r in 0..8 {
            let row: Vec<String> = diagram[8 * r..8 * r + 8]
                .chars()
                .map(|c| if c == '.' { " ".to_string() } else { c.to_string() })
                .collect();
            let squares = format!("{}-{}", 4 * r + 1, 4 * r + 4);
            writeln!(f, "  {}   {squares:>5}", row.join(" "))?;
        }
        writeln!(f, "{} to move", self.to_move_text())?;
        writeln!(f, "FEN {}", self.fen())
    }
}

impl Game for Checkers {
    type Position = CheckersPosition;
    type Move = Move;

    fn root(&self) -> CheckersPosition {
        CheckersPosition {
            board: self.root,
            ply: 0,
        }
    }

    #[inline]
    fn role(&self, pos: &CheckersPosition) -> Role {
        if pos.ply.is_multiple_of(2) {
            Role::Max
        } else {
            Role::Min
        }
    }

    /// Every legal move in search order; none when the game is over
    /// (no legal move, or the draw rule).
    fn moves(&self, pos: &CheckersPosition, out: &mut Vec<Move>) {
        if pos.board.quiet >= DRAW_PLIES {
            return;
        }
        ordered_moves(&pos.board, out);
    }

    #[inline]
    fn play(&self, pos: &CheckersPosition, mv: Move) -> CheckersPosition {
        CheckersPosition {
            board: pos.board.play(mv),
            ply: pos.ply + 1,
        }
    }

    /// A loss for a side without moves, 0 for a draw, else the heuristic.
    fn evaluate(&self, pos: &CheckersPosition) -> Value {
        let b = &pos.board;
        let score = if !b.has_moves() {
            -(WIN - pos.ply as Value)
        } else if b.quiet >= DRAW_PLIES {
            0
        } else {
            heuristic(b)
        };
        Checkers::for_max(pos, score)
    }

    #[inline]
    fn hash(&self, pos: &CheckersPosition) -> Option<u64> {
        Some(Checkers::key(pos.board.key, pos.board.quiet, pos.ply))
    }

    #[inline]
    fn child_hash(&self, pos: &CheckersPosition, mv: Move) -> Option<u64> {
        let (key, quiet) = pos.board.key_after(mv);
        Some(Checkers::key(key, quiet, pos.ply + 1))
    }

    /// From-square, to-square, whether it captures, and the side.
    #[inline]
    fn move_key(&self, pos: &CheckersPosition, mv: Move) -> Option<u32> {
        let capture = u32::from(mv.is_capture());
        let side = u32::from(pos.board.black_to_move);
        Some(u32::from(mv.origin_bit()) | u32::from(mv.dest_bit()) << 5 | capture << 10 | side << 11)
    }

    /// The side to move at ply `p` at worst loses now, at best wins with
    /// its move: `-(WIN - p) ..= WIN - p - 1` for it.
    #[inline]
    fn bounds(&self, pos: &CheckersPosition) -> (Value, Value) {
        let p = pos.ply as Value;
        super::for_role(self.role(pos), (-(WIN - p), WIN - p - 1))
    }

    fn name(&self) -> &str {
        "checkers"
    }
}

impl Playable for Checkers {
    type PositionError = CheckersError;

    /// A move list, a PDN FEN or a board diagram; see [`Checkers::parse`].
    fn from_position(text: &str) -> Result<Checkers, CheckersError> {
        Checkers::parse(text)
    }

    /// Checkers always values its horizon with the heuristic.
    fn heuristic(self) -> Checkers {
        self
    }

    /// Every legal move at the root, in square order (captures only when
    /// there is one); none when the game is over.
    fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        if self.root.quiet < DRAW_PLIES {
            self.root.generate(&mut out);
        }
        out
    }

    fn after(&self, mv: Move) -> Checkers {
        Checkers {
            root: self.root.play(mv),
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        find_move(&self.root, text).map_err(|p| p.to_string())
    }

    fn move_text(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn first_player_to_move(&self) -> bool {
        self.root.black_to_move
    }

    fn result(&self) -> Option<GameResult> {
        if !self.root.has_moves() {
            Some(if self.root.black_to_move {
                GameResult::SecondPlayerWins
            } else {
                GameResult::FirstPlayerWins
            })
        } else if self.root.quiet >= DRAW_PLIES {
            Some(GameResult::Draw)
        } else {
            None
        }
    }

    fn player_name(&self, first: bool) -> &'static str {
        if first {
            "Black"
        } else {
            "White"
        }
    }
}
