//! The board on 32-square bitboards: geometry, Zobrist keys, [`Move`],
//! move generation and [`Board`].
//!
//! Bit `i` is square `i + 1` of the standard numbering: squares 1-4 on the
//! top row (Black's back row), 29-32 on the bottom row (White's).

use std::fmt;

/// No square: the edge of the board.
const NONE: u8 = 32;

/// The row (0 at the top, 7 at the bottom) and column (0 at the left) of
/// bit `i`: the dark squares, column `2k + 1` on even rows and `2k` on odd
/// rows for the `k`-th square of the row.
pub(super) const fn row_col(i: usize) -> (usize, usize) {
    let (r, k) = (i / 4, i % 4);
    if r % 2 == 0 {
        (r, 2 * k + 1)
    } else {
        (r, 2 * k)
    }
}

/// The bit of the square at `(row, col)`, if it is a dark square on the board.
pub(super) const fn bit_at(r: i32, c: i32) -> Option<usize> {
    if r < 0 || r > 7 || c < 0 || c > 7 || (r + c) % 2 == 0 {
        None
    } else {
        Some((r * 4 + c / 2) as usize)
    }
}

/// Diagonal directions: up-left, up-right (White's forward moves),
/// down-left, down-right (Black's).
const DIRS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// `STEP[i][d]`: the square next to bit `i` in direction `d`, or [`NONE`].
const STEP: [[u8; 4]; 32] = neighbours(1);
/// `JUMP[i][d]`: the square two steps from bit `i` in direction `d`, or [`NONE`].
const JUMP: [[u8; 4]; 32] = neighbours(2);

const fn neighbours(dist: i32) -> [[u8; 4]; 32] {
    let mut t = [[NONE; 4]; 32];
    let mut i = 0;
    while i < 32 {
        let (r, c) = row_col(i);
        let mut d = 0;
        while d < 4 {
            if let Some(b) = bit_at(r as i32 + dist * DIRS[d].0, c as i32 + dist * DIRS[d].1) {
                t[i][d] = b as u8;
            }
            d += 1;
        }
        i += 1;
    }
    t
}

/// Black's back row (squares 1-4), where White's men are crowned.
pub(super) const TOP_ROW: u32 = 0x0000_000F;
/// White's back row (squares 29-32), where Black's men are crowned.
pub(super) const BOTTOM_ROW: u32 = 0xF000_0000;

/// Zobrist keys: `ZOBRIST[piece][bit]` for a black man, black king, white
/// man, white king (SplitMix64 from a fixed seed), and the side key.
const ZOBRIST: [[u64; 32]; 4] = {
    let mut t = [[0u64; 32]; 4];
    let mut state: u64 = 0x4348_4543_4B45_5253; // "CHECKERS"
    let mut p = 0;
    while p < 4 {
        let mut i = 0;
        while i < 32 {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            t[p][i] = splitmix(state);
            i += 1;
        }
        p += 1;
    }
    t
};
/// Mixed in when White is to move.
const WHITE_TO_MOVE: u64 = 0x8A5C_D789_635D_2DFF;

/// SplitMix64's finaliser.
#[inline]
pub(super) const fn splitmix(x: u64) -> u64 {
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A move: the starting square and the squares the piece lands on, in
/// order (one for a simple move or a single jump), and the pieces it
/// captures. Two jump sequences that capture the same pieces by different
/// routes are different moves (as in the published perft counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    /// The landing squares' bits, 5 bits each, first in the low bits.
    path: u64,
    /// How many landing squares (at most 12: one per captured piece).
    len: u8,
    /// The captured pieces' bits.
    captures: u32,
}

impl Move {
    /// The starting square, 1 to 32.
    pub fn from(&self) -> u8 {
        self.from + 1
    }

    /// The destination square, 1 to 32.
    pub fn to(&self) -> u8 {
        self.bit_at(self.len as usize - 1) + 1
    }

    /// The squares the piece lands on, 1 to 32, in order.
    pub fn landings(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.len as usize).map(|k| self.bit_at(k) + 1)
    }

    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        self.captures != 0
    }

    /// The captured pieces, as a set of bits (bit `i` is square `i + 1`).
    pub fn captures(&self) -> u32 {
        self.captures
    }

    #[inline]
    fn bit_at(&self, k: usize) -> u8 {
        (self.path >> (5 * k) & 31) as u8
    }

    #[inline]
    pub(super) fn dest_bit(&self) -> u8 {
        self.bit_at(self.len as usize - 1)
    }

    #[inline]
    pub(super) fn origin_bit(&self) -> u8 {
        self.from
    }
}

impl fmt::Display for Move {
    /// Standard notation: `11-15`, `9x18`, `9x18x27`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from())?;
        let sep = if self.is_capture() { 'x' } else { '-' };
        for sq in self.landings() {
            write!(f, "{sep}{sq}")?;
        }
        Ok(())
    }
}

/// A position: the pieces, the side to move, and the plies played since
/// the last capture or man's move (for the draw rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub(super) black: u32,
    pub(super) white: u32,
    pub(super) kings: u32,
    pub(super) black_to_move: bool,
    /// Plies since the last capture or move of a man (saturating).
    pub(super) quiet: u8,
    /// The Zobrist key of the pieces and the side to move.
    pub(super) key: u64,
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    /// The initial position: Black's men on 1-12, White's on 21-32, Black to move.
    pub const fn new() -> Board {
        Board::from_pieces(0x0000_0FFF, 0xFFF0_0000, 0, true)
    }

    /// A board with these pieces (bit `i` is square `i + 1`; `kings` marks
    /// the kings among them), with no quiet plies. The caller keeps the
    /// sets disjoint.
    pub const fn from_pieces(black: u32, white: u32, kings: u32, black_to_move: bool) -> Board {
        let mut b = Board {
            black,
            white,
            kings,
            black_to_move,
            quiet: 0,
            key: 0,
        };
        b.key = b.compute_key();
        b
    }

    /// Black's pieces, Black's kings, White's pieces, White's kings (bit `i` is square `i + 1`).
    pub fn pieces(&self) -> (u32, u32, u32, u32) {
        (self.black, self.black & self.kings, self.white, self.white & self.kings)
    }

    /// Whether Black is to move.
    pub fn black_to_move(&self) -> bool {
        self.black_to_move
    }

    /// Plies played since the last capture or move of a man.
    pub fn quiet_plies(&self) -> u8 {
        self.quiet
    }

    /// The Zobrist key of the pieces and the side to move.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key computed from scratch.
    pub(super) const fn compute_key(&self) -> u64 {
        let mut k = if self.black_to_move { 0 } else { WHITE_TO_MOVE };
        let mut i = 0;
        while i < 32 {
            let king = self.kings >> i & 1 == 1;
            if self.black >> i & 1 == 1 {
                k ^= ZOBRIST[king as usize][i];
            } else if self.white >> i & 1 == 1 {
                k ^= ZOBRIST[2 + king as usize][i];
            }
            i += 1;
        }
        k
    }

    /// The pieces of the side to move and of the other side.
    #[inline]
    pub(super) fn sides(&self) -> (u32, u32) {
        if self.black_to_move {
            (self.black, self.white)
        } else {
            (self.white, self.black)
        }
    }

    /// The directions a piece on `bit` of the side to move may go.
    #[inline]
    fn dirs(&self, bit: u8) -> &'static [usize] {
        if self.kings >> bit & 1 == 1 {
            &[0, 1, 2, 3]
        } else if self.black_to_move {
            &[2, 3]
        } else {
            &[0, 1]
        }
    }

    /// The row where the side to move's men are crowned.
    #[inline]
    fn crown_row(&self) -> u32 {
        if self.black_to_move {
            BOTTOM_ROW
        } else {
            TOP_ROW
        }
    }

    /// Appends every legal move to `out`: the captures if there is one
    /// (captures are compulsory; every complete jump sequence is a move),
    /// else the simple moves; in square order, then direction order.
    pub fn generate(&self, out: &mut Vec<Move>) {
        let before = out.len();
        self.generate_captures(out);
        if out.len() == before {
            self.generate_simple(out);
        }
    }

    /// Appends the capture sequences of the side to move.
    pub(super) fn generate_captures(&self, out: &mut Vec<Move>) {
        let (mine, theirs) = self.sides();
        let mut set = mine;
        while set != 0 {
            let from = set.trailing_zeros() as u8;
            set &= set - 1;
            let empty = !(self.black | self.white) | 1 << from;
            let start = Move {
                from,
                path: 0,
                len: 0,
                captures: 0,
            };
            self.extend_jumps(start, from, self.dirs(from), theirs, empty, out);
        }
    }

    /// Continues the jump sequence `mv` from `at`: pushes it when no jump
    /// goes on (or the man was just crowned), else every continuation.
    fn extend_jumps(&self, mv: Move, at: u8, dirs: &[usize], theirs: u32, empty: u32, out: &mut Vec<Move>) {
        let mut any = false;
        if mv.len == 0 || self.kings >> mv.from & 1 == 1 || (1u32 << at) & self.crown_row() == 0 {
            for &d in dirs {
                let (over, land) = (STEP[at as usize][d], JUMP[at as usize][d]);
                if land == NONE || theirs >> over & 1 == 0 || empty >> land & 1 == 0 {
                    continue;
                }
                any = true;
                let next = Move {
                    from: mv.from,
                    path: mv.path | u64::from(land) << (5 * mv.len),
                    len: mv.len + 1,
                    captures: mv.captures | 1 << over,
                };
                // A captured piece is never jumped again; its square can
                // never be a landing square (landings keep the parity of
                // the start), so removing it at once changes nothing else.
                self.extend_jumps(next, land, dirs, theirs & !(1 << over), empty, out);
            }
        }
        if !any && mv.len > 0 {
            out.push(mv);
        }
    }

    /// Appends the simple (non-capturing) moves of the side to move.
    pub(super) fn generate_simple(&self, out: &mut Vec<Move>) {
        let (mine, _) = self.sides();
        let empty = !(self.black | self.white);
        let mut set = mine;
        while set != 0 {
            let from = set.trailing_zeros() as u8;
            set &= set - 1;
            for &d in self.dirs(from) {
                let to = STEP[from as usize][d];
                if to != NONE && empty >> to & 1 == 1 {
                    out.push(Move {
                        from,
                        path: u64::from(to),
                        len: 1,
                        captures: 0,
                    });
                }
            }
        }
    }

    /// How many simple moves the side `black` could make (captures aside).
    pub(super) fn simple_moves(&self, black: bool) -> u32 {
        let (mine, dirs): (u32, [usize; 2]) = if black {
            (self.black, [2, 3])
        } else {
            (self.white, [0, 1])
        };
        let empty = !(self.black | self.white);
        let mut n = 0;
        let mut set = mine;
        while set != 0 {
            let from = set.trailing_zeros() as usize;
            set &= set - 1;
            let all = [0, 1, 2, 3];
            let ds: &[usize] = if self.kings >> from & 1 == 1 { &all } else { &dirs };
            for &d in ds {
                let to = STEP[from][d];
                n += u32::from(to != NONE && empty >> to & 1 == 1);
            }
        }
        n
    }

    /// Whether the side to move can capture.
    pub(super) fn can_capture(&self) -> bool {
        let (mine, theirs) = self.sides();
        let empty = !(self.black | self.white);
        let mut set = mine;
        while set != 0 {
            let from = set.trailing_zeros() as u8;
            set &= set - 1;
            for &d in self.dirs(from) {
                let (over, land) = (STEP[from as usize][d], JUMP[from as usize][d]);
                if land != NONE && theirs >> over & 1 == 1 && empty >> land & 1 == 1 {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the side to move has a legal move.
    pub fn has_moves(&self) -> bool {
        self.simple_moves(self.black_to_move) > 0 || self.can_capture()
    }

    /// The piece index for Zobrist keys of the piece on `bit`.
    #[inline]
    fn zobrist_piece(&self, bit: u8) -> usize {
        let colour = if self.black >> bit & 1 == 1 { 0 } else { 2 };
        colour + (self.kings >> bit & 1) as usize
    }

    /// Whether the piece moved by `mv` is crowned by it.
    #[inline]
    pub(super) fn crowns(&self, mv: Move) -> bool {
        self.kings >> mv.from & 1 == 0 && (1u32 << mv.dest_bit()) & self.crown_row() != 0
    }

    /// The key and the quiet plies of the board after `mv`, without playing it.
    #[inline]
    pub(super) fn key_after(&self, mv: Move) -> (u64, u8) {
        let (from, to) = (mv.from, mv.dest_bit());
        let piece = self.zobrist_piece(from);
        let moved = if self.crowns(mv) { piece + 1 } else { piece };
        let mut k = self.key ^ WHITE_TO_MOVE ^ ZOBRIST[piece][from as usize] ^ ZOBRIST[moved][to as usize];
        let mut caps = mv.captures;
        while caps != 0 {
            let c = caps.trailing_zeros() as u8;
            caps &= caps - 1;
            k ^= ZOBRIST[self.zobrist_piece(c)][c as usize];
        }
        (k, self.quiet_after(mv))
    }

    /// The quiet plies after `mv`: 0 after a capture or a man's move.
    #[inline]
    fn quiet_after(&self, mv: Move) -> u8 {
        if mv.captures != 0 || self.kings >> mv.from & 1 == 0 {
            0
        } else {
            self.quiet.saturating_add(1)
        }
    }

    /// The board after `mv` (a legal move of this board).
    pub fn play(&self, mv: Move) -> Board {
        let (from, to) = (u32::from(mv.from), u32::from(mv.dest_bit()));
        let (key, quiet) = self.key_after(mv);
        let king = self.kings >> from & 1 == 1 || self.crowns(mv);
        let mut b = *self;
        let mine = if self.black_to_move { &mut b.black } else { &mut b.white };
        *mine = (*mine & !(1 << from)) | 1 << to;
        b.kings &= !(1 << from);
        if king {
            b.kings |= 1 << to;
        }
        // Captured squares are never the destination (see `extend_jumps`).
        b.black &= !mv.captures;
        b.white &= !mv.captures;
        b.kings &= !mv.captures;
        b.black_to_move = !self.black_to_move;
        b.quiet = quiet;
        b.key = key;
        b
    }
}
