//! Tic-tac-toe, searched to the end (the whole game tree has 549,946 nodes)
//! or to a fixed depth.
//!
//! # Cells, moves and players
//! Cells are numbered 1 to 9 in reading order in move strings and in the
//! board display:
//! ```text
//! 1 2 3
//! 4 5 6
//! 7 8 9
//! ```
//! A [`Game::Move`] is the cell's **0-based** index, a `u8` in `0..=8`
//! (cell 5, the centre, is move 4); print `m + 1` to show it to people.
//! X moves first. The player to move at the root is MAX whichever mark it
//! plays, and [`Game::role`] alternates from there.
//!
//! # Values
//! Exact at terminal positions, from MAX's (the root mover's) point of view:
//! **+1** if MAX has three in a row, **-1** if MIN has, **0** for a draw
//! (a full board). A non-terminal position at the search horizon is worth
//! **0**: no heuristic, the game is too small to need one. The value of a
//! position is therefore in `-1..=1`, which [`Game::bounds`] reports.
//!
//! Moves are generated in cell order 1 to 9 over the empty cells; a position
//! with three in a row or a full board has none. [`Game::hash`] is the base-3
//! number of the board (empty 0, X 1, O 2), unique and below 3^9.
//!
//! # Example
//! ```
//! use stockman::{games::TicTacToe, Algorithm, SearchOptions};
//! // X: 1, 9; O: 5. X to move: a draw with best play.
//! let game = TicTacToe::from_moves("159").unwrap();
//! let out = Algorithm::AlphaBeta.search(&game, &SearchOptions::default()).unwrap();
//! assert_eq!(out.value, Some(0));
//! // X in 1 and 2, O in 4 and 5: X wins by completing the top row (cell 3, move 2).
//! let game = TicTacToe::from_moves("1425").unwrap();
//! let out = Algorithm::AlphaBeta.search(&game, &SearchOptions::default()).unwrap();
//! assert_eq!((out.value, out.best_move), (Some(1), Some(2)));
//! ```

use super::{GameError, GameErrorKind, GameResult, Playable};
use crate::game::Game;
use crate::value::{Role, Value};
use std::fmt;

/// The eight lines of three, as cell masks (bit `i` = cell `i + 1`).
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// All nine cells.
const FULL: u16 = 0b111_111_111;

/// Whether the stones `bits` hold a line of three.
#[inline]
fn has_line(bits: u16) -> bool {
    LINES.iter().any(|&l| l & !bits == 0)
}

/// A tic-tac-toe position: the cells of X, the cells of O. X moves when the
/// counts are equal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    x: u16,
    o: u16,
}

impl Board {
    /// The empty board.
    pub const fn new() -> Board {
        Board { x: 0, o: 0 }
    }

    /// Stones on the board.
    pub fn moves_played(&self) -> usize {
        (self.x | self.o).count_ones() as usize
    }

    /// Whether X is to move (else O).
    pub fn x_to_move(&self) -> bool {
        self.x.count_ones() == self.o.count_ones()
    }

    /// The mark on the 0-based `cell` (`'X'`, `'O'` or `'.'`); `'.'` outside the board too.
    pub fn cell(&self, cell: u8) -> char {
        let bit = 1u16.checked_shl(u32::from(cell)).unwrap_or(0) & FULL;
        if self.x & bit != 0 {
            'X'
        } else if self.o & bit != 0 {
            'O'
        } else {
            '.'
        }
    }

    /// `Some('X')` or `Some('O')` if that player has three in a row.
    pub fn winner(&self) -> Option<char> {
        if has_line(self.x) {
            Some('X')
        } else if has_line(self.o) {
            Some('O')
        } else {
            None
        }
    }

    /// Whether the game is over: three in a row, or a full board.
    pub fn is_over(&self) -> bool {
        self.winner().is_some() || self.x | self.o == FULL
    }

    /// The board after the player to move takes the 0-based `cell`.
    /// The cell must be empty (as every move [`Game::moves`] lists is).
    #[inline]
    fn play(&self, cell: u8) -> Board {
        debug_assert!(cell < 9 && (self.x | self.o) & (1 << cell) == 0);
        let bit = 1u16 << (cell % 9);
        if self.x_to_move() {
            Board {
                x: self.x | bit,
                ..*self
            }
        } else {
            Board {
                o: self.o | bit,
                ..*self
            }
        }
    }
}

impl fmt::Display for Board {
    /// Three lines of `X`, `O` and `.`, top row first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..3u8 {
            let line: String = (0..3u8).map(|col| self.cell(3 * row + col)).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// Tic-tac-toe from a given position; see the [module documentation](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    root: Board,
}

impl TicTacToe {
    /// The empty board, X (MAX) to move.
    pub fn new() -> TicTacToe {
        TicTacToe::default()
    }

    /// The position after the moves of `moves`: cells `1`-`9` in reading
    /// order, X first (`"159"`: X in 1, O in 5, X in 9). The empty string
    /// is the empty board. No whitespace or separators are allowed.
    ///
    /// # Errors
    /// A [`GameError`] naming the first bad move (1-based index and
    /// character): [`NotADigit`](GameErrorKind::NotADigit),
    /// [`OutOfRange`](GameErrorKind::OutOfRange) (`0`),
    /// [`GameOver`](GameErrorKind::GameOver) (a move after three in a row
    /// or a full board) or [`Occupied`](GameErrorKind::Occupied).
    pub fn from_moves(moves: &str) -> Result<TicTacToe, GameError> {
        let mut board = Board::new();
        for (i, found) in moves.chars().enumerate() {
            let error = |kind| GameError {
                index: i + 1,
                found,
                kind,
            };
            let cell = match found.to_digit(10) {
                None => return Err(error(GameErrorKind::NotADigit { max: 9 })),
                Some(0) => return Err(error(GameErrorKind::OutOfRange { max: 9 })),
                Some(d) => (d - 1) as u8,
            };
            if board.is_over() {
                return Err(error(GameErrorKind::GameOver));
            }
            if board.cell(cell) != '.' {
                return Err(error(GameErrorKind::Occupied));
            }
            board = board.play(cell);
        }
        Ok(TicTacToe { root: board })
    }

    /// The root position.
    pub fn board(&self) -> Board {
        self.root
    }
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.root.fmt(f)
    }
}

impl Game for TicTacToe {
    type Position = Board;
    /// The 0-based cell, `0..=8`.
    type Move = u8;

    fn root(&self) -> Board {
        self.root
    }

    fn role(&self, pos: &Board) -> Role {
        if pos.x_to_move() == self.root.x_to_move() {
            Role::Max
        } else {
            Role::Min
        }
    }

    fn moves(&self, pos: &Board, out: &mut Vec<u8>) {
        if pos.is_over() {
            return;
        }
        let empty = !(pos.x | pos.o) & FULL;
        out.extend((0..9u8).filter(|&c| empty & (1 << c) != 0));
    }

    fn play(&self, pos: &Board, mv: u8) -> Board {
        pos.play(mv)
    }

    fn evaluate(&self, pos: &Board) -> Value {
        match pos.winner() {
            None => 0,
            // The root mover plays X exactly when X was to move at the root.
            Some(w) if (w == 'X') == self.root.x_to_move() => 1,
            Some(_) => -1,
        }
    }

    fn hash(&self, pos: &Board) -> Option<u64> {
        let key = (0..9u32).rev().fold(0u64, |key, c| {
            let digit = u64::from(pos.x >> c & 1) + 2 * u64::from(pos.o >> c & 1);
            3 * key + digit
        });
        Some(key)
    }

    fn bounds(&self, _pos: &Board) -> (Value, Value) {
        (-1, 1)
    }

    /// The cell, and whose mark it is.
    fn move_key(&self, pos: &Board, mv: u8) -> Option<u32> {
        Some(u32::from(mv) + if pos.x_to_move() { 0 } else { 9 })
    }

    fn name(&self) -> &str {
        "tictactoe"
    }
}

impl Playable for TicTacToe {
    type PositionError = GameError;

    /// Cells `1`-`9`, as [`TicTacToe::from_moves`] reads them.
    fn from_position(text: &str) -> Result<TicTacToe, GameError> {
        TicTacToe::from_moves(text)
    }

    /// The digits one after the other (`159`).
    fn line_text(moves: &[String]) -> String {
        moves.concat()
    }

    /// Tic-tac-toe is always searched to the end: the same game.
    fn heuristic(self) -> TicTacToe {
        self
    }

    fn legal_moves(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.moves(&self.root, &mut out);
        out
    }

    fn after(&self, mv: u8) -> TicTacToe {
        TicTacToe {
            root: self.root.play(mv),
        }
    }

    fn parse_move(&self, text: &str) -> Result<u8, String> {
        let cell = super::numbered_move(text, 9, "cell")?;
        if self.root.is_over() {
            return Err("the game is over".to_string());
        }
        if self.root.cell(cell) != '.' {
            return Err(format!("cell {} is already taken", cell + 1));
        }
        Ok(cell)
    }

    fn move_text(&self, mv: u8) -> String {
        (mv + 1).to_string()
    }

    /// X and O, as the board shows them.
    fn player_name(&self, first: bool) -> &'static str {
        super::x_or_o(first)
    }

    fn first_player_to_move(&self) -> bool {
        self.root.x_to_move()
    }

    fn result(&self) -> Option<GameResult> {
        match self.root.winner() {
            Some('X') => Some(GameResult::FirstPlayerWins),
            Some(_) => Some(GameResult::SecondPlayerWins),
            None if self.root.is_over() => Some(GameResult::Draw),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Enhancements;
    use crate::search::SearchOptions;
    use crate::table::TableSize;
    use std::collections::HashSet;

    fn value(moves: &str) -> Value {
        let game = TicTacToe::from_moves(moves).unwrap();
        let v = crate::algorithms::alphabeta::search_observed(&game, &SearchOptions::default(), &mut crate::NoObserver)
            .unwrap()
            .value
            .unwrap();
        assert_eq!(
            crate::algorithms::minimax::search_observed(&game, &SearchOptions::default(), &mut crate::NoObserver)
                .unwrap()
                .value,
            Some(v),
            "{moves}"
        );
        v
    }

    #[test]
    fn empty_board_is_a_draw() {
        let game = TicTacToe::new();
        let opts = SearchOptions::default();
        let ab = crate::algorithms::alphabeta::search_observed(&game, &opts, &mut crate::NoObserver).unwrap();
        let mm = crate::algorithms::minimax::search_observed(&game, &opts, &mut crate::NoObserver).unwrap();
        assert_eq!((ab.value, mm.value), (Some(0), Some(0)));
        // The full tree: 549,946 nodes, 255,168 finished games.
        assert_eq!(mm.stats.nodes, 549_946);
        assert_eq!(mm.stats.leaf_evals, 255_168);
        assert!(ab.stats.nodes < mm.stats.nodes);
        let tt = SearchOptions {
            table: TableSize::Megabytes(1),
            enhancements: Enhancements {
                table_move_first: true,
                ..opts.enhancements
            },
            ..opts
        };
        assert_eq!(
            crate::algorithms::alphabeta::search_observed(&game, &tt, &mut crate::NoObserver)
                .unwrap()
                .value,
            Some(0)
        );
        assert_eq!(
            crate::algorithms::negascout::search_observed(&game, &tt, &mut crate::NoObserver)
                .unwrap()
                .value,
            Some(0)
        );
    }

    #[test]
    fn known_values() {
        assert_eq!(value("1425"), 1); // X completes 1-2-3
        assert_eq!(value("14253"), -1); // game over: X has won, O (MAX) to move has lost
        assert_eq!(value("5"), 0);
        assert_eq!(value("52"), 1); // O answers the centre with an edge: X wins
        assert_eq!(value("51"), 0); // a corner holds
        assert_eq!(value("12"), 1);
        // X: 1, 9; O: 5, 7. X must block 3, which threatens both 2 and 6.
        assert_eq!(value("1597"), 1);
        // X: 1, 9, 3; O: 5, 6. O (MAX) to move completes 4-5-6.
        assert_eq!(value("15963"), 1);
        // A full board without a line: a draw, and no moves.
        assert_eq!(value("123587469"), 0);
        // X completes 3-5-7 on the seventh move: O (MAX) to move has lost.
        assert_eq!(value("1234567"), -1);
    }

    #[test]
    fn roles_and_first_move() {
        let game = TicTacToe::from_moves("15").unwrap();
        let root = game.root();
        assert_eq!(game.role(&root), Role::Max);
        let child = game.play(&root, 8);
        assert_eq!(game.role(&child), Role::Min);
        let mut moves = Vec::new();
        game.moves(&root, &mut moves);
        assert_eq!(moves, vec![1, 2, 3, 5, 6, 7, 8]);
        assert_eq!(game.to_string(), "X..\n.O.\n...\n");
    }

    #[test]
    fn hash_is_unique_and_transposes() {
        let game = TicTacToe::new();
        let a = TicTacToe::from_moves("159").unwrap().board();
        let b = TicTacToe::from_moves("951").unwrap().board();
        assert_eq!(game.hash(&a), game.hash(&b));
        let mut seen = HashSet::new();
        let mut boards = HashSet::new();
        let mut stack = vec![Board::new()];
        let mut moves = Vec::new();
        while let Some(p) = stack.pop() {
            if !boards.insert(p) {
                continue;
            }
            assert!(seen.insert(game.hash(&p).unwrap()));
            moves.clear();
            game.moves(&p, &mut moves);
            stack.extend(moves.iter().map(|&m| game.play(&p, m)));
        }
        assert_eq!(boards.len(), 5478); // the legal positions
    }

    #[test]
    fn errors_name_the_move() {
        let err = |s: &str| TicTacToe::from_moves(s).unwrap_err();
        let e = err("15x");
        assert_eq!(
            (e.index, e.found, e.kind),
            (3, 'x', GameErrorKind::NotADigit { max: 9 })
        );
        let e = err("0");
        assert_eq!(
            (e.index, e.found, e.kind),
            (1, '0', GameErrorKind::OutOfRange { max: 9 })
        );
        let e = err("1591");
        assert_eq!((e.index, e.found, e.kind), (4, '1', GameErrorKind::Occupied));
        let e = err("142536");
        assert_eq!((e.index, e.found, e.kind), (6, '6', GameErrorKind::GameOver));
        let e = err("1 5");
        assert_eq!((e.index, e.found), (2, ' '));
        let e = err("5é");
        assert_eq!((e.index, e.found), (2, 'é'));
        assert_eq!(err("5٣").kind, GameErrorKind::NotADigit { max: 9 });
        assert_eq!(err("1234567895").index, 8);
        assert_eq!(err("1235874691").kind, GameErrorKind::GameOver);
        assert_eq!(e.to_string(), "move 2 ('é'): not a digit (moves are 1 to 9)");
        assert_eq!(err("0").to_string(), "move 1 ('0'): out of range (moves are 1 to 9)");
        assert_eq!(err("142536").to_string(), "move 6 ('6'): the game is already over");
    }
}
