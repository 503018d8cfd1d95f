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

/// Columns of the board.
pub const WIDTH: usize = 7;
/// Rows of the board.
pub const HEIGHT: usize = 6;
/// Heuristic mode multiplies scores by this, keeping heuristics below it.
pub const HEURISTIC_SCALE: Value = 100;

/// Bits per column: `HEIGHT` cells and a sentinel bit on top.
const H1: u32 = HEIGHT as u32 + 1;
/// Squares of the board.
const CELLS: u8 = (WIDTH * HEIGHT) as u8;
/// The largest heuristic value, below [`HEURISTIC_SCALE`].
const HEURISTIC_MAX: Value = HEURISTIC_SCALE - 1;
/// The bottom cell of every column.
const BOTTOM: u64 = {
    let mut b = 0;
    let mut c = 0;
    while c < WIDTH as u32 {
        b |= 1 << (c * H1);
        c += 1;
    }
    b
};
/// Every cell of the board (no sentinels).
const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);
/// Centre-first column order, for ties of the move ordering.
const ORDER: [u8; WIDTH] = [3, 2, 4, 1, 5, 0, 6];
/// [`ORDER`] seen in a mirror: the ties of a position whose mirror image
/// holds its shared key ([`ConnectFour`]'s symmetry).
const ORDER_MIRRORED: [u8; WIDTH] = [3, 4, 2, 5, 1, 6, 0];
/// The bits of one column, sentinel included.
const COLUMN_BITS: u64 = (1 << H1) - 1;

/// The number of possible fours through each cell, bottom row first.
const WEIGHTS: [[u8; WIDTH]; HEIGHT] = [
    [3, 4, 5, 7, 5, 4, 3],
    [4, 6, 8, 10, 8, 6, 4],
    [5, 8, 11, 13, 11, 8, 5],
    [5, 8, 11, 13, 11, 8, 5],
    [4, 6, 8, 10, 8, 6, 4],
    [3, 4, 5, 7, 5, 4, 3],
];

/// The weights in binary: plane `j` holds the cells whose weight has bit `j` set.
const WEIGHT_PLANES: [u64; 4] = {
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
const fn column_mask(col: u8) -> u64 {
    ((1 << HEIGHT) - 1) << (col as u32 * H1)
}

/// The top cell of column `col`.
#[inline]
const fn top_cell(col: u8) -> u64 {
    1 << (HEIGHT as u32 - 1 + col as u32 * H1)
}

/// The empty cells that would complete a four for `stones`, given the occupied cells `mask`.
#[inline]
fn winning_cells(stones: u64, mask: u64) -> u64 {
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
fn mirror(x: u64) -> u64 {
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
fn has_four(stones: u64) -> bool {
    [1, H1, H1 - 1, H1 + 1].iter().any(|&s| {
        let m = stones & (stones >> s);
        m & (m >> (2 * s)) != 0
    })
}

/// The sum of the weights of `stones`.
#[inline]
fn weight(stones: u64) -> i32 {
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
    current: u64,
    mask: u64,
    /// `winning_cells(current, mask)`: where the side to move connects four.
    mine: u64,
    /// `winning_cells(current ^ mask, mask)`: where the opponent would.
    theirs: u64,
    moves: u8,
    /// The last move connected four: the side to move has lost. Only a root
    /// parsed from a move string can be such a position (searches play
    /// non-losing moves only).
    lost: bool,
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
    fn play(&self, col: u8) -> Board {
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
    fn child_key(&self, col: u8) -> u64 {
        let mask = self.mask | (self.mask + (1 << (u32::from(col) * H1)));
        (self.current ^ self.mask) + mask
    }

    /// Classifies the position for the side to move; see the module docs.
    #[inline]
    fn status(&self) -> Status {
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
    fn heuristic(&self, mine: u64, theirs: u64) -> Value {
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
mod tests {
    use super::*;
    use crate::options::{Enhancements, Limits};
    use crate::search::SearchOptions;
    use crate::table::TableSize;

    fn game(moves: &str) -> ConnectFour {
        ConnectFour::from_moves(moves).unwrap()
    }

    fn solve(moves: &str) -> Value {
        let opts = SearchOptions {
            table: TableSize::Megabytes(4),
            enhancements: Enhancements {
                table_move_first: true,
                ..Default::default()
            },
            ..Default::default()
        };
        crate::algorithms::alphabeta::search_observed(&game(moves), &opts, &mut crate::NoObserver)
            .unwrap()
            .value
            .unwrap()
    }

    fn listed(g: &ConnectFour) -> Vec<u8> {
        let mut out = Vec::new();
        g.moves(&g.root(), &mut out);
        out
    }

    #[test]
    fn layout_constants() {
        assert_eq!(BOTTOM.count_ones(), 7);
        assert_eq!(BOARD.count_ones(), 42);
        let total: i32 = WEIGHTS.iter().flatten().map(|&w| i32::from(w)).sum();
        assert_eq!(total, 69 * 4); // 69 possible fours of four cells
        assert_eq!(weight(BOARD), total);
        assert_eq!(std::mem::size_of::<Board>(), 40);
    }

    #[test]
    fn parsing_and_display() {
        let g = game("4453");
        assert_eq!(g.moves_played(), 4);
        assert_eq!(
            g.board().to_string(),
            ".......\n.......\n.......\n.......\n...O...\n..OXX..\n"
        );
        assert_eq!(
            g.to_string(),
            ".......\n.......\n.......\n.......\n...O...\n..OXX..\n1234567\n"
        );
        assert_eq!(g.board().cell(3, 0), 'X');
        assert_eq!(g.board().cell(9, 9), '.');
        assert_eq!(game(""), ConnectFour::new());
        assert_eq!(game("").board(), Board::new());
        assert!(game("444444").board().can_play(2) && !game("444444").board().can_play(3));
    }

    #[test]
    fn errors_name_the_move() {
        let err = |s: &str| ConnectFour::from_moves(s).unwrap_err();
        let e = err("44a");
        assert_eq!(
            (e.index, e.found, e.kind),
            (3, 'a', GameErrorKind::NotADigit { max: 7 })
        );
        for (s, c) in [("0", '0'), ("448", '8'), ("4449", '9')] {
            let e = err(s);
            assert_eq!(
                (e.index, e.found, e.kind),
                (s.len(), c, GameErrorKind::OutOfRange { max: 7 })
            );
        }
        let e = err("4444444");
        assert_eq!((e.index, e.found, e.kind), (7, '4', GameErrorKind::ColumnFull));
        assert_eq!(e.to_string(), "move 7 ('4'): column 4 is full");
        // The first player connects four in column 1 with move 7.
        let e = err("12121213");
        assert_eq!((e.index, e.found, e.kind), (8, '3', GameErrorKind::GameOver));
        assert_eq!(e.to_string(), "move 8 ('3'): the game is already over");
        // Character positions, not bytes.
        let e = err("4é4");
        assert_eq!((e.index, e.found), (2, 'é'));
        assert_eq!(err("4 4").found, ' ');
        assert_eq!(err("4\n").to_string(), "move 2 ('\\n'): not a digit (moves are 1 to 7)");
        // A full board without a four: a draw, and no more moves.
        let full = "547125662261271266215743771576315353334444";
        assert_eq!(solve(full), 0);
        assert!(game(full).board().is_over());
        let e = err(&format!("{full}1"));
        assert_eq!((e.index, e.kind), (43, GameErrorKind::GameOver));
    }

    #[test]
    fn score_convention_by_hand() {
        // First player has three in column 1 and is to move: wins with its 4th stone.
        assert_eq!(solve("121212"), 18);
        // Decided but not over: only the winning column is listed.
        assert_eq!(listed(&game("121212")), vec![0]);
        assert_eq!(game("121212").board().winning_moves(), vec![0]);
        assert_eq!(game("1212121").board().winning_moves(), Vec::<u8>::new());
        assert_eq!(game("4455").board().winning_moves(), Vec::<u8>::new());
        // The first player connected four with its 4th stone; the second player to move has lost.
        assert_eq!(solve("1212121"), -18);
        // First player holds 2, 3, 4 on the bottom row, both ends open: the second player,
        // to move, cannot stop a win with the first player's 4th stone.
        assert_eq!(solve("22334"), -18);
        // Lost but not over: every legal column is listed (each loses at once).
        assert_eq!(listed(&game("22334")).len(), 7);
        // The second player holds 2, 3, 4 on the bottom row, the first player 1:
        // the only move is the block in column 5 (move 4).
        assert_eq!(listed(&game("127374")), vec![4]);
        // Test_L3_R1, first lines.
        assert_eq!(solve("2252576253462244111563365343671351441"), -1);
        assert_eq!(solve("7422341735647741166133573473242566"), 1);
        assert_eq!(solve("23163416124767223154467471272416755633"), 0);
    }

    #[test]
    fn roles_and_values_follow_the_root_mover() {
        let g = game("22334").with_heuristic();
        assert_eq!(g.role(&g.root()), Role::Max);
        assert_eq!(g.evaluate(&g.root()), -1800);
        assert_eq!(g.bounds(&g.root()), (-1800, -1800));
        // One ply later the second player (now MIN) ...
        let g = game("2233").with_heuristic();
        let child = g.play(&g.root(), 3); // first player: 2, 3, 4 on the bottom row
        assert_eq!(g.role(&child), Role::Min);
        assert_eq!(g.evaluate(&child), 1800); // ... has lost: good for MAX
        let exact = game("2233");
        assert_eq!(exact.evaluate(&exact.play(&exact.root(), 3)), 18);
    }

    #[test]
    fn bounds_hold_and_scale() {
        let g = game("4453");
        // 4 stones, first player (MAX) to move: -(36/2) ..= 37/2.
        assert_eq!(g.bounds(&g.root()), (-18, 18));
        let child = g.play(&g.root(), 3);
        assert_eq!(g.bounds(&child), (-18, 17)); // MIN to move: -(35/2) ..= 36/2, negated
        let h = g.with_heuristic();
        assert_eq!(h.bounds(&h.root()), (-1800, 1800));
        // 39 stones, not decided: the mover cannot lose any more, but a heuristic
        // value may be negative, so the heuristic bounds widen to -99.
        let late = game("547125662261271266215743771576315353334");
        assert_eq!(late.moves_played(), 39);
        assert!(!listed(&late).is_empty());
        assert_eq!(late.bounds(&late.root()), (0, 1));
        let late = late.with_heuristic();
        assert_eq!(late.bounds(&late.root()), (-99, 100));
        let v = crate::algorithms::minimax::search_observed(
            &late,
            &SearchOptions {
                limits: Limits::to_depth(1),
                ..Default::default()
            },
            &mut crate::NoObserver,
        );
        let v = v.unwrap().value.unwrap();
        assert!((-99..=100).contains(&v), "{v}");
    }

    #[test]
    fn move_order_prefers_threats_then_centre() {
        assert_eq!(listed(&ConnectFour::new()), vec![3, 2, 4, 1, 5, 0, 6]);
        // First player holds 4 and 5 on the bottom row (second player on top of them):
        // playing 3 or 6 makes two winning cells, the others fewer.
        let order = listed(&game("4455"));
        assert_eq!(&order[..2], &[2, 5]);
    }

    #[test]
    fn mirror_images_share_keys_under_a_symmetric_root() {
        let root = ConnectFour::new();
        assert!(root.symmetric && game("44").symmetric && !game("1").symmetric);
        // Play a game and its mirror image from the empty board.
        let (mut a, mut b) = (root.root(), root.root());
        for col in [0, 1, 3, 3, 2, 5, 6, 2, 4] {
            a = root.play(&a, col);
            b = root.play(&b, 6 - col);
            assert_eq!(mirror(a.key()), b.key());
            assert_eq!(root.hash(&a), root.hash(&b));
            let (mut la, mut lb) = (Vec::new(), Vec::new());
            root.moves(&a, &mut la);
            root.moves(&b, &mut lb);
            // The same list seen in a mirror: index i names mirrored moves.
            assert_eq!(la.iter().map(|&c| 6 - c).collect::<Vec<_>>(), lb);
        }
        // An asymmetric root keeps every position's own key.
        let g = game("1");
        let (a, b) = (g.play(&g.root(), 2), g.play(&g.root(), 4));
        assert_eq!((g.hash(&a), g.hash(&b)), (Some(a.key()), Some(b.key())));
        // Mirrored games have the same value.
        assert_eq!(solve("4455321"), solve("4433567"));
    }

    #[test]
    fn hash_is_unique_on_a_small_tree() {
        use std::collections::HashMap;
        let g = ConnectFour::new();
        let mut seen: HashMap<u64, Board> = HashMap::new();
        let mut frontier = vec![g.root()];
        for _ in 0..6 {
            let mut next = Vec::new();
            for p in frontier {
                for col in 0..7 {
                    let c = p.play(col);
                    // The winning cells play derives are those of a fresh scan.
                    assert_eq!(c.mine, winning_cells(c.current, c.mask));
                    assert_eq!(c.theirs, winning_cells(c.current ^ c.mask, c.mask));
                    assert_eq!(g.child_hash(&p, col), g.hash(&c));
                    if let Some(old) = seen.insert(c.key(), c) {
                        assert_eq!((old.current, old.mask), (c.current, c.mask));
                    } else {
                        next.push(c);
                    }
                }
            }
            frontier = next;
        }
        assert!(seen.len() > 10_000);
    }
}
