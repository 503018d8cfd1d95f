//! The bitboard: two 64-bit words, a column of 7 bits each, and what
//! the game reads off them (wins, threats, the evaluation's weights).

use super::Status;
use crate::value::Value;
use std::fmt;

/// Columns of the board.
pub const WIDTH: usize = 7;
/// Rows of the board.
pub const HEIGHT: usize = 6;
/// Heuristic mode multiplies scores by this, keeping heuristics below it.
pub const HEURISTIC_SCALE: Value = 100;

/// Bits per column: `HEIGHT` cells and a sentinel bit on top.
pub(super) const H1: u32 = HEIGHT as u32 + 1;
/// Squares of the board.
pub(super) const CELLS: u8 = (WIDTH * HEIGHT) as u8;
/// The largest heuristic value, below [`HEURISTIC_SCALE`].
pub(super) const HEURISTIC_MAX: Value = HEURISTIC_SCALE - 1;
/// The bottom cell of every column.
pub(super) const BOTTOM: u64 = {
    let mut b = 0;
    let mut c = 0;
    while c < WIDTH as u32 {
        b |= 1 << (c * H1);
        c += 1;
    }
    b
};
/// Every cell of the board (no sentinels).
pub(super) const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);
/// Centre-first column order, for ties of the move ordering.
pub(super) const ORDER: [u8; WIDTH] = [3, 2, 4, 1, 5, 0, 6];
/// [`ORDER`] seen in a mirror: the ties of a position whose mirror image
/// holds its shared key ([`ConnectFour`]'s symmetry).
pub(super) const ORDER_MIRRORED: [u8; WIDTH] = [3, 4, 2, 5, 1, 6, 0];
/// The bits of one column, sentinel included.
pub(super) const COLUMN_BITS: u64 = (1 << H1) - 1;

/// The number of possible fours through each cell, bottom row first.
pub(super) const WEIGHTS: [[u8; WIDTH]; HEIGHT] = [
    [3, 4, 5, 7, 5, 4, 3],
    [4, 6, 8, 10, 8, 6, 4],
    [5, 8, 11, 13, 11, 8, 5],
    [5, 8, 11, 13, 11, 8, 5],
    [4, 6, 8, 10, 8, 6, 4],
    [3, 4, 5, 7, 5, 4, 3],
];

/// The weights in binary: plane `j` holds the cells whose weight has bit `j` set.
pub(super) const WEIGHT_PLANES: [u64; 4] = {
    let mut planes = [0u64; 4];
    let mut row = 0;
    while row < HEIGHT {
        let mut col = 0;
        while col < WIDTH {
            let mut j = 0;
            while j < 4 {
                if WEIGHTS[row][col] >> j & 1 == 1 {
                    planes[j] |= 1 << (col as u32 * H1 + row as u32);
                }
                j += 1;
            }
            col += 1;
        }
        row += 1;
    }
    planes
};

/// The cells of column `col`.
#[inline]
pub(super) const fn column_mask(col: u8) -> u64 {
    ((1 << HEIGHT) - 1) << (col as u32 * H1)
}

/// The top cell of column `col`.
#[inline]
pub(super) const fn top_cell(col: u8) -> u64 {
    1 << (HEIGHT as u32 - 1 + col as u32 * H1)
}

/// The empty cells that would complete a four for `stones`, given the occupied cells `mask`.
#[inline]
pub(super) fn winning_cells(stones: u64, mask: u64) -> u64 {
    // Vertical: three stones right below.
    let mut r = (stones << 1) & (stones << 2) & (stones << 3);
    // Horizontal (shift H1), and the two diagonals (H1 - 1 and H1 + 1).
    for s in [H1, H1 - 1, H1 + 1] {
        let p = (stones << s) & (stones << (2 * s));
        r |= p & (stones << (3 * s));
        r |= p & (stones >> s);
        let p = (stones >> s) & (stones >> (2 * s));
        r |= p & (stones << s);
        r |= p & (stones >> (3 * s));
    }
    r & (BOARD ^ mask)
}

/// A bitboard (or a key: columns never carry into each other) seen in a
/// mirror: column `c` moves to column `6 - c`.
#[inline]
pub(super) fn mirror(x: u64) -> u64 {
    let mut r = 0;
    let mut c = 0;
    while c < WIDTH as u32 {
        r |= (x >> (c * H1) & COLUMN_BITS) << ((WIDTH as u32 - 1 - c) * H1);
        c += 1;
    }
    r
}

/// Whether `stones` hold four in a row.
#[inline]
pub(super) fn has_four(stones: u64) -> bool {
    [1, H1, H1 - 1, H1 + 1].iter().any(|&s| {
        let m = stones & (stones >> s);
        m & (m >> (2 * s)) != 0
    })
}

/// The sum of the weights of `stones`.
#[inline]
pub(super) fn weight(stones: u64) -> i32 {
    WEIGHT_PLANES
        .iter()
        .enumerate()
        .map(|(j, &plane)| ((stones & plane).count_ones() << j) as i32)
        .sum()
}

/// A Connect Four position in Pascal Pons' layout: the stones of the side
/// to move (`current`) and of both sides (`mask`), seven bits per column
/// (six cells and an empty sentinel on top), bottom cell first, plus the
/// number of stones played. `Copy`, 40 bytes.
///
/// It also carries both sides' winning cells (the empty cells that would
/// complete a four), which every search asks for at every position (its
/// bounds, its moves): `Board::play` derives them from the parent's at
/// the cost of one scan for fours (the mover's), where computing them
/// afresh in each question took two per question.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board {
    pub(super) current: u64,
    pub(super) mask: u64,
    /// `winning_cells(current, mask)`: where the side to move connects four.
    pub(super) mine: u64,
    /// `winning_cells(current ^ mask, mask)`: where the opponent would.
    pub(super) theirs: u64,
    pub(super) moves: u8,
    /// The last move connected four: the side to move has lost. Only a root
    /// parsed from a move string can be such a position (searches play
    /// non-losing moves only).
    pub(super) lost: bool,
}

impl Board {
    /// The empty board, first player to move.
    pub const fn new() -> Board {
        Board {
            current: 0,
            mask: 0,
            mine: 0,
            theirs: 0,
            moves: 0,
            lost: false,
        }
    }

    /// Stones on the board.
    pub fn moves_played(&self) -> usize {
        usize::from(self.moves)
    }

    /// Whether the first player (`X`) is to move.
    pub fn first_player_to_move(&self) -> bool {
        self.moves.is_multiple_of(2)
    }

    /// Whether the 0-based column `col` exists and has room.
    pub fn can_play(&self, col: u8) -> bool {
        usize::from(col) < WIDTH && self.mask & top_cell(col) == 0
    }

    /// Whether the game is over: a four was connected, or the board is full.
    pub fn is_over(&self) -> bool {
        self.lost || self.moves == CELLS
    }

    /// The unique key `current + mask` (below 2^49).
    pub fn key(&self) -> u64 {
        self.current + self.mask
    }

    /// The stone at 0-based `col` and `row` (row 0 at the bottom): `'X'`
    /// (first player), `'O'` or `'.'` (empty, or off the board).
    pub fn cell(&self, col: u8, row: u8) -> char {
        if usize::from(col) >= WIDTH || usize::from(row) >= HEIGHT {
            return '.';
        }
        let bit = 1u64 << (u32::from(col) * H1 + u32::from(row));
        let x = if self.first_player_to_move() {
            self.current
        } else {
            self.current ^ self.mask
        };
        if x & bit != 0 {
            'X'
        } else if self.mask & bit != 0 {
            'O'
        } else {
            '.'
        }
    }

    /// The 0-based columns where the side to move connects four at once, in
    /// column order (none if the game is over). Such a position is terminal
    /// for the searches, which therefore report no best move there.
    pub fn winning_moves(&self) -> Vec<u8> {
        if self.is_over() {
            return Vec::new();
        }
        let wins = self.mine & (self.mask + BOTTOM) & BOARD;
        (0..WIDTH as u8).filter(|&col| wins & column_mask(col) != 0).collect()
    }

    /// The board after the side to move drops a stone in the 0-based
    /// column `col`, which must have room (as every listed move has).
    #[inline]
    pub(super) fn play(&self, col: u8) -> Board {
        debug_assert!(self.can_play(col));
        let mask = self.mask | (self.mask + (1 << (u32::from(col) * H1)));
        let cell = mask ^ self.mask;
        Board {
            current: self.current ^ self.mask,
            mask,
            // The opponent, now to move, keeps its winning cells but the one filled.
            mine: self.theirs & !cell,
            // The mover's, with its new stone: the one scan of the move.
            theirs: winning_cells(self.current | cell, mask),
            moves: self.moves + 1,
            // The stone just played completes four: the new side to move has lost.
            // (Searches reach this only from decided positions, which list their
            // winning moves so that the root still names its best move.)
            lost: self.mine & cell != 0,
        }
    }

    /// The key of the board after a stone in column `col` (which must have
    /// room), without the rest of [`Board::play`]'s work.
    #[inline]
    pub(super) fn child_key(&self, col: u8) -> u64 {
        let mask = self.mask | (self.mask + (1 << (u32::from(col) * H1)));
        (self.current ^ self.mask) + mask
    }

    /// Classifies the position for the side to move; see the module docs.
    #[inline]
    pub(super) fn status(&self) -> Status {
        let m = i32::from(self.moves);
        if self.lost {
            // The opponent made the last move and has (m + 1) / 2 stones.
            return Status::Decided(-(22 - (m + 1) / 2));
        }
        if self.moves == CELLS {
            return Status::Decided(0);
        }
        let possible = (self.mask + BOTTOM) & BOARD;
        let (mine, theirs) = (self.mine, self.theirs);
        if mine & possible != 0 {
            return Status::Decided((43 - m) / 2);
        }
        let forced = possible & theirs;
        let candidates = if forced == 0 {
            possible
        } else if forced & (forced - 1) != 0 {
            return Status::Decided(-(42 - m) / 2);
        } else {
            forced
        };
        // Never fill the cell below an opponent's winning cell.
        let nonlosing = candidates & !(theirs >> 1);
        if nonlosing == 0 {
            return Status::Decided(-(42 - m) / 2);
        }
        if self.moves >= CELLS - 2 {
            return Status::Decided(0);
        }
        Status::Open {
            nonlosing,
            mine,
            theirs,
        }
    }

    /// The heuristic value of an open position for the side to move, in `-99..=99`.
    pub(super) fn heuristic(&self, mine: u64, theirs: u64) -> Value {
        let threats = mine.count_ones() as i32 - theirs.count_ones() as i32;
        let weights = weight(self.current) - weight(self.current ^ self.mask);
        (4 * threats + weights / 2).clamp(-HEURISTIC_MAX, HEURISTIC_MAX)
    }
}

impl fmt::Display for Board {
    /// Six lines of `X`, `O` and `.`, top row first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..HEIGHT as u8).rev() {
            let line: String = (0..WIDTH as u8).map(|col| self.cell(col, row)).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}
