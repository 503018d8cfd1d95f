//! Connect Four on the standard 7 x 6 board, on bitboards, either solved
//! exactly or searched to a fixed depth with a heuristic.
//!
//! # Moves and players
//! In move strings columns are digits `1` to `7`, left to right, first
//! player first (`"4453"`). A [`Game::Move`] is the **0-based** column, a
//! `u8` in `0..=6`; print `m + 1` to show it to people. The player to move
//! at the root is MAX, and [`Game::role`] alternates from there; every value
//! is from the root mover's point of view.
//!
//! # Scores
//! The score of a position from the side to move, as in Pascal Pons'
//! solver and its test sets: **0** for a draw; if the side to move wins,
//! **22 minus the number of stones it has played when it connects four**
//! (18 for a win with its 4th stone, 1 for a win with its 21st and last);
//! if it loses, minus the same number for the opponent. Faster wins score
//! more. A position with `m` stones where the side to move wins at once
//! scores `(43 - m) / 2`, one where it loses at the opponent's next move
//! `-(42 - m) / 2` (integer division).
//!
//! # Two scorings
//! - [`Scoring::Exact`] (the default, [`ConnectFour::from_moves`]): a
//!   terminal position is worth its score, so a search to the end (no
//!   `depth`) returns the test sets' numbers exactly. A non-terminal
//!   position at a horizon is worth 0 (unknown); use the heuristic instead
//!   for fixed-depth searches.
//! - [`Scoring::Heuristic`] ([`ConnectFour::with_heuristic`]): for
//!   `depth`-limited searches. A terminal position is worth
//!   [`HEURISTIC_SCALE`]` × score` (so at least 100 in magnitude for a
//!   decided game) and a non-terminal horizon position a heuristic in
//!   `-99..=99`, from the side to move:
//!   `4 × (its winning cells − the opponent's winning cells) + (its cell
//!   weights − the opponent's) / 2`, clamped, where a *winning cell* is an
//!   empty cell that would complete a four for that player (playable or
//!   not) and a stone's *weight* is the number of possible fours through
//!   its cell (3 in the corners, 13 in the middle of the centre column).
//!
//! # Game knowledge, value-exact
//! The searches are generic, so the game carries what Pons' solver knows,
//! in forms that never change a minimax value:
//! - **Early terminals.** A position is terminal (no moves) not only when
//!   the last move connected four or the board is full, but also when the
//!   side to move can connect four at once (it is won: taking the win is
//!   optimal, as no later win scores more), when every move lets the
//!   opponent connect four at once (the opponent has two threats, or its
//!   only threat cannot be blocked without filling the cell below another
//!   of its winning cells: lost in two plies, and no move scores better),
//!   and when 40 or more stones are down and neither applies (after a
//!   non-losing move nobody can connect four any more: a draw). Its value
//!   is the exact score.
//! - **Non-losing moves only.** Otherwise [`Game::moves`] lists only moves
//!   after which the opponent cannot connect four at once: if it has one
//!   threat, only the block; never a move into the cell below one of its
//!   winning cells. A dropped move loses at the next ply with the worst
//!   possible score among the remaining outcomes, so it can never be
//!   strictly better than a kept one and the value is unchanged. (The
//!   heuristic values of fixed-depth searches are then searched over this
//!   pruned tree: every search sees the same tree.)
//! - **Move ordering.** Moves are sorted by the number of winning cells
//!   the mover has after the move, most first, ties broken centre first
//!   (columns 4, 3, 5, 2, 6, 1, 7); the order is deterministic.
//! - **Bounds.** At a non-terminal position with `m` stones the side to
//!   move cannot win before its next-but-one move nor lose before the
//!   opponent's next-but-one move, so its score lies in
//!   `-(40 - m) / 2 ..= (41 - m) / 2`; [`Game::bounds`] returns that
//!   (exact scores at terminals), turned to MAX's view, and in heuristic
//!   mode scaled by 100 and widened to include `-99..=99`.
//! - **Hash.** Pons' key `current + mask`: unique for every position (49
//!   bits), so the table never confuses two positions. When the root is
//!   its own mirror image (the empty board, or any position symmetric
//!   about the centre column), a position and its mirror image have the
//!   same value and share one key, the smaller of their two: the table
//!   then solves each pair once (the first moves 1 and 7, 2 and 6, 3 and 5
//!   lead to mirrored games). The moves of a position whose mirror image
//!   has the smaller key break their ties in mirrored order (4, 5, 3, 6,
//!   2, 7, 1), so that a best move stored as an index in one list names
//!   the mirrored move in the other. Other roots keep plain keys: their
//!   searches meet a position and its mirror image only rarely.
//!
//! # Example
//! ```
//! use stockman::{games::ConnectFour, Algorithm, Enhancements, Limits, SearchOptions, TableSize};
//! // From Test_L3_R1: the side to move loses with the opponent's 21st stone.
//! let game = ConnectFour::from_moves("2252576253462244111563365343671351441").unwrap();
//! let table = TableSize::Megabytes(1);
//! let opts = SearchOptions { table, enhancements: Enhancements { table_move_first: true, ..Default::default() }, ..Default::default() };
//! assert_eq!(Algorithm::AlphaBeta.search(&game, &opts).unwrap().value, Some(-1));
//!
//! // Fixed depth: heuristic values, wins scaled by 100.
//! let game = ConnectFour::from_moves("121212").unwrap().with_heuristic();
//! assert_eq!(game.moves_played(), 6);
//! let opts = SearchOptions { limits: Limits::to_depth(4), ..Default::default() };
//! assert_eq!(Algorithm::AlphaBeta.search(&game, &opts).unwrap().value, Some(1800)); // wins at once: 18
//!
//! let err = ConnectFour::from_moves("4448444").unwrap_err();
//! assert_eq!(err.to_string(), "move 4 ('8'): out of range (moves are 1 to 7)");
//! ```

use super::{GameError, GameErrorKind, GameResult, Playable};
use crate::game::Game;
use crate::value::{Role, Value};
use std::fmt;

mod board;

use board::*;
pub use board::{Board, HEIGHT, HEURISTIC_SCALE, WIDTH};

/// What the game knows about a position before searching it.
#[derive(Clone, Copy, Debug)]
enum Status {
    /// Terminal, with the exact score for the side to move.
    Decided(i32),
    /// Not decided: the non-losing moves (bits of the cells they fill), and
    /// both sides' winning cells.
    Open { nonlosing: u64, mine: u64, theirs: u64 },
}

pub use super::Scoring;

/// Connect Four from a given position; see the [module documentation](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConnectFour {
    root: Board,
    scoring: Scoring,
    /// The root is its own mirror image: positions and their mirror images
    /// share keys (see the module docs, "Hash").
    symmetric: bool,
}

impl Default for ConnectFour {
    fn default() -> ConnectFour {
        ConnectFour::at(Board::new(), Scoring::Exact)
    }
}

impl ConnectFour {
    /// The empty board, first player (MAX) to move, exact scoring.
    pub fn new() -> ConnectFour {
        ConnectFour::default()
    }

    /// The game from `root`.
    fn at(root: Board, scoring: Scoring) -> ConnectFour {
        ConnectFour {
            root,
            scoring,
            symmetric: root.key() == mirror(root.key()),
        }
    }

    /// The position after the columns of `moves` (digits `1`-`7`, first
    /// player first; `""` is the empty board), with exact scoring. No
    /// whitespace or separators are allowed.
    ///
    /// # Errors
    /// A [`GameError`] naming the first bad move (1-based index and
    /// character): [`NotADigit`](GameErrorKind::NotADigit),
    /// [`OutOfRange`](GameErrorKind::OutOfRange) (`0`, `8`, `9`),
    /// [`GameOver`](GameErrorKind::GameOver) (a move after a four was
    /// connected or the board filled up) or
    /// [`ColumnFull`](GameErrorKind::ColumnFull).
    pub fn from_moves(moves: &str) -> Result<ConnectFour, GameError> {
        let mut board = Board::new();
        for (i, found) in moves.chars().enumerate() {
            let error = |kind| GameError {
                index: i + 1,
                found,
                kind,
            };
            let col = match found.to_digit(10) {
                None => return Err(error(GameErrorKind::NotADigit { max: WIDTH as u8 })),
                Some(d) if (1..=WIDTH as u32).contains(&d) => (d - 1) as u8,
                Some(_) => return Err(error(GameErrorKind::OutOfRange { max: WIDTH as u8 })),
            };
            if board.is_over() {
                return Err(error(GameErrorKind::GameOver));
            }
            if !board.can_play(col) {
                return Err(error(GameErrorKind::ColumnFull));
            }
            board = board.play(col);
            // The stones of the player who just moved are `mask ^ current`.
            board.lost = has_four(board.mask ^ board.current);
        }
        Ok(ConnectFour::at(board, Scoring::Exact))
    }

    /// The same position with [`Scoring::Heuristic`], for fixed-depth searches.
    pub fn with_heuristic(self) -> ConnectFour {
        self.with_scoring(Scoring::Heuristic)
    }

    /// The same position with the given scoring.
    pub fn with_scoring(self, scoring: Scoring) -> ConnectFour {
        ConnectFour { scoring, ..self }
    }

    /// How positions are valued.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The root position.
    pub fn board(&self) -> Board {
        self.root
    }

    /// Stones on the board at the root.
    pub fn moves_played(&self) -> usize {
        self.root.moves_played()
    }

    /// The table key of a position whose own key is `key`: itself, or
    /// under a symmetric root the smaller of it and its mirror image's.
    #[inline]
    fn shared_key(&self, key: u64) -> u64 {
        if self.symmetric {
            key.min(mirror(key))
        } else {
            key
        }
    }

    /// A score for the side to move at `pos`, as a value from MAX's view.
    #[inline]
    fn value(&self, pos: &Board, score: i32) -> Value {
        let v = match self.scoring {
            Scoring::Exact => score,
            Scoring::Heuristic => score * HEURISTIC_SCALE,
        };
        if self.role(pos) == Role::Max {
            v
        } else {
            -v
        }
    }
}

impl fmt::Display for ConnectFour {
    /// The board, and the column numbers under it (as moves are typed).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.root.fmt(f)?;
        writeln!(f, "1234567")
    }
}

impl Game for ConnectFour {
    type Position = Board;
    /// The 0-based column, `0..=6`.
    type Move = u8;

    fn root(&self) -> Board {
        self.root
    }

    #[inline]
    fn role(&self, pos: &Board) -> Role {
        if (pos.moves ^ self.root.moves) & 1 == 0 {
            Role::Max
        } else {
            Role::Min
        }
    }

    fn moves(&self, pos: &Board, out: &mut Vec<u8>) {
        let nonlosing = match pos.status() {
            Status::Open { nonlosing, .. } => nonlosing,
            Status::Decided(_) if pos.is_over() => return,
            // Decided but not over: list the moves that realise the score (the
            // winning ones, else every legal one), so that a search of this
            // position still names a best move. Depth-first searches never get
            // here below the root: `bounds` settles the position exactly.
            Status::Decided(_) => {
                let possible = (pos.mask + BOTTOM) & BOARD;
                let wins = pos.mine & possible;
                if wins != 0 {
                    wins
                } else {
                    possible
                }
            }
        };
        // Insertion sort by threats, stable over the centre-first order (as
        // seen in the mirror when the mirror image holds the shared key, so
        // that a stored best move's index names the mirrored move there).
        let order = if self.symmetric && mirror(pos.key()) < pos.key() {
            &ORDER_MIRRORED
        } else {
            &ORDER
        };
        let mut list = [(0u8, 0u32); WIDTH];
        let mut n = 0;
        for &col in order {
            let mv = nonlosing & column_mask(col);
            if mv == 0 {
                continue;
            }
            let score = winning_cells(pos.current | mv, pos.mask | mv).count_ones();
            let mut i = n;
            while i > 0 && list[i - 1].1 < score {
                list[i] = list[i - 1];
                i -= 1;
            }
            list[i] = (col, score);
            n += 1;
        }
        out.extend(list[..n].iter().map(|&(col, _)| col));
    }

    #[inline]
    fn play(&self, pos: &Board, mv: u8) -> Board {
        pos.play(mv)
    }

    fn evaluate(&self, pos: &Board) -> Value {
        match pos.status() {
            Status::Decided(score) => self.value(pos, score),
            Status::Open { mine, theirs, .. } => match self.scoring {
                Scoring::Exact => 0,
                Scoring::Heuristic => {
                    let h = pos.heuristic(mine, theirs);
                    if self.role(pos) == Role::Max {
                        h
                    } else {
                        -h
                    }
                }
            },
        }
    }

    /// The key `current + mask`, shared with the mirror image under a
    /// symmetric root (see the module docs).
    #[inline]
    fn hash(&self, pos: &Board) -> Option<u64> {
        Some(self.shared_key(pos.key()))
    }

    /// The child's key, from two additions: the searches prefetch the
    /// table entries of a node's children with it.
    #[inline]
    fn child_hash(&self, pos: &Board, mv: u8) -> Option<u64> {
        Some(self.shared_key(pos.child_key(mv)))
    }

    /// The empty cells.
    #[inline]
    fn moves_left_hint(&self, pos: &Board) -> Option<u32> {
        Some(42 - u32::from(pos.moves))
    }

    /// The column, and whose stone it is.
    #[inline]
    fn move_key(&self, pos: &Board, mv: u8) -> Option<u32> {
        Some(u32::from(mv) + WIDTH as u32 * u32::from(pos.moves & 1))
    }

    fn bounds(&self, pos: &Board) -> (Value, Value) {
        match pos.status() {
            Status::Decided(score) => {
                let v = self.value(pos, score);
                (v, v)
            }
            Status::Open { .. } => {
                let m = i32::from(pos.moves);
                let (mut lo, mut hi) = (-(40 - m) / 2, (41 - m) / 2);
                if self.scoring == Scoring::Heuristic {
                    lo = (lo * HEURISTIC_SCALE).min(-HEURISTIC_MAX);
                    hi = (hi * HEURISTIC_SCALE).max(HEURISTIC_MAX);
                }
                super::for_role(self.role(pos), (lo, hi))
            }
        }
    }

    fn name(&self) -> &str {
        "connect4"
    }
}

impl Playable for ConnectFour {
    type PositionError = GameError;

    /// Columns `1`-`7`, as [`ConnectFour::from_moves`] reads them.
    fn from_position(text: &str) -> Result<ConnectFour, GameError> {
        ConnectFour::from_moves(text)
    }

    /// The digits one after the other (`4453`).
    fn line_text(moves: &[String]) -> String {
        moves.concat()
    }

    fn heuristic(self) -> ConnectFour {
        self.with_heuristic()
    }

    fn legal_moves(&self) -> Vec<u8> {
        if self.root.is_over() {
            return Vec::new();
        }
        (0..WIDTH as u8).filter(|&c| self.root.can_play(c)).collect()
    }

    fn after(&self, mv: u8) -> ConnectFour {
        ConnectFour::at(self.root.play(mv), self.scoring)
    }

    fn parse_move(&self, text: &str) -> Result<u8, String> {
        let col = super::numbered_move(text, WIDTH as u8, "column")?;
        if self.root.is_over() {
            return Err("the game is over".to_string());
        }
        if !self.root.can_play(col) {
            return Err(format!("column {} is full", col + 1));
        }
        Ok(col)
    }

    fn move_text(&self, mv: u8) -> String {
        (mv + 1).to_string()
    }

    /// X and O, as the board shows them.
    fn player_name(&self, first: bool) -> &'static str {
        super::x_or_o(first)
    }

    fn first_player_to_move(&self) -> bool {
        self.root.first_player_to_move()
    }

    fn result(&self) -> Option<GameResult> {
        if self.root.lost {
            // The player who just moved connected four.
            Some(if self.root.first_player_to_move() {
                GameResult::SecondPlayerWins
            } else {
                GameResult::FirstPlayerWins
            })
        } else if self.root.moves == CELLS {
            Some(GameResult::Draw)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests;
