//! The board on bitboards: masks, move generation and flips, and [`Board`].

use super::PASS;
use std::fmt;

/// Every square but the a and h columns.
pub(super) const NOT_EDGE_COLUMNS: u64 = 0x7E7E_7E7E_7E7E_7E7E;
/// Every square but column a.
pub(super) const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
/// Every square but column h.
pub(super) const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
/// Column a, column h, row 1, row 8.
pub(super) const COLUMN_A: u64 = 0x0101_0101_0101_0101;
pub(super) const COLUMN_H: u64 = 0x8080_8080_8080_8080;
pub(super) const ROW_1: u64 = 0x0000_0000_0000_00FF;
pub(super) const ROW_8: u64 = 0xFF00_0000_0000_0000;
/// The outer ring of squares.
pub(super) const EDGES: u64 = COLUMN_A | COLUMN_H | ROW_1 | ROW_8;
/// a1, h1, a8, h8.
pub(super) const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The initial position: d5 and e4 black, d4 and e5 white.
const START_BLACK: u64 = (1 << 28) | (1 << 35);
const START_WHITE: u64 = (1 << 27) | (1 << 36);
/// The four quadrants, for parity.
pub(super) const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// The legal moves of the player with discs `p` against `o`, as a set of squares.
///
/// Along each direction, the runs of opponent discs that start next to a
/// disc of `p` grow by doubling (Kogge-Stone): two more steps, then four,
/// instead of one step at a time, as the fast endgame solvers do.
#[inline]
pub(super) fn move_set(p: u64, o: u64) -> u64 {
    #[inline(always)]
    fn line(p: u64, mo: u64, s: u32) -> u64 {
        // Squares of `mo` whose neighbour `s` back is also in `mo`.
        let pre = mo & (mo << s);
        let mut l = mo & (p << s);
        l |= mo & (l << s);
        l |= pre & (l << (2 * s));
        l |= pre & (l << (2 * s));
        let pre = mo & (mo >> s);
        let mut r = mo & (p >> s);
        r |= mo & (r >> s);
        r |= pre & (r >> (2 * s));
        r |= pre & (r >> (2 * s));
        (l << s) | (r >> s)
    }
    let inner = o & NOT_EDGE_COLUMNS;
    let m = line(p, inner, 1) | line(p, o, 8) | line(p, inner, 7) | line(p, inner, 9);
    m & !(p | o)
}

/// For every square, the squares beyond it in each direction: rays 0-3
/// go towards higher squares (east, south, south-east, south-west), rays
/// 4-7 towards lower ones (west, north, north-west, north-east).
pub(super) const RAYS: [[u64; 8]; 64] = {
    const STEPS: [(i32, i32); 8] = [(0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1)];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = STEPS[d];
            let (mut r, mut c) = (sq as i32 / 8 + dr, sq as i32 % 8 + dc);
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                rays[sq][d] |= 1 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            d += 1;
        }
        sq += 1;
    }
    rays
};

/// The discs of `o` flipped when the player with discs `p` plays on `sq`
/// (empty if the move is illegal).
///
/// Along each ray, the first square that is not the opponent's ends the
/// run: the run flips if that square is the player's. Rays towards higher
/// squares find it with the lowest set bit, the others with the highest.
/// No branch: a run that does not flip is masked out, since which runs
/// flip is as good as random to a branch predictor.
#[inline]
pub(super) fn flips(sq: u8, p: u64, o: u64) -> u64 {
    let rays = &RAYS[sq as usize];
    let mut flipped = 0;
    for &ray in &rays[..4] {
        let stop = ray & !o;
        let first = stop & stop.wrapping_neg();
        let flips = u64::from(first & p != 0).wrapping_neg();
        flipped |= ray & first.wrapping_sub(1) & flips;
    }
    for &ray in &rays[4..] {
        // `| 1`: a ray of opponent discs to the edge finds a1, which is
        // then either off the ray or the opponent's: no flip either way.
        let stop = (ray & !o) | 1;
        let first = 1u64 << (63 - stop.leading_zeros());
        let flips = u64::from(first & p & ray != 0).wrapping_neg();
        flipped |= ray & !(first | (first - 1)) & flips;
    }
    flipped
}

/// Flips and move generation by some code of the processor's: the move
/// ordering is written once over this and compiled once per feature set,
/// like the game's solver ([`Scalar`] anywhere, `simd::Avx2` where the
/// processor has AVX2). A value of the type proves the processor can run it.
pub(super) trait Kernel: Copy {
    /// [`flips`].
    fn flips(self, sq: u8, p: u64, o: u64) -> u64;
    /// [`move_set`].
    fn move_set(self, p: u64, o: u64) -> u64;
}

/// The scalar code, for any processor.
#[derive(Clone, Copy)]
pub(super) struct Scalar;

impl Kernel for Scalar {
    #[inline(always)]
    fn flips(self, sq: u8, p: u64, o: u64) -> u64 {
        flips(sq, p, o)
    }

    #[inline(always)]
    fn move_set(self, p: u64, o: u64) -> u64 {
        move_set(p, o)
    }
}

/// The number of moves in `replies`, a corner counting double: how much
/// room a move leaves the opponent (fastest-first ordering).
#[inline]
pub(super) fn weighted_mobility(replies: u64) -> u32 {
    replies.count_ones() + (replies & CORNERS).count_ones()
}

/// The squares next to any square of `x` (in the eight directions).
#[inline]
pub(super) fn neighbours(x: u64) -> u64 {
    let h = ((x << 1) & NOT_A) | ((x >> 1) & NOT_H);
    let row = x | h;
    h | (row << 8) | (row >> 8)
}

/// The squares next to each square.
pub(super) const NEIGHBOURS: [u64; 64] = {
    let mut n = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq as i32 / 8, sq as i32 % 8);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (rr, cc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && rr >= 0 && rr < 8 && cc >= 0 && cc < 8 {
                    n[sq] |= 1 << (rr * 8 + cc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    n
};

/// The square's name, `a1` to `h8`, or `pass`.
pub fn square_name(sq: u8) -> String {
    if sq >= PASS {
        return "pass".to_string();
    }
    format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1)
}

/// An Othello position: the discs of the side to move (`player`) and of the
/// other side (`opponent`), and whether Black is to move. `Copy`, 24 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub(super) player: u64,
    pub(super) opponent: u64,
    pub(super) black_to_move: bool,
}

impl Default for Board {
    fn default() -> Board {
        Board::new()
    }
}

impl Board {
    /// The initial position, Black to move.
    pub const fn new() -> Board {
        Board {
            player: START_BLACK,
            opponent: START_WHITE,
            black_to_move: true,
        }
    }

    /// A position from the black and white discs and the side to move, or
    /// `None` if a square holds both colours.
    pub fn from_discs(black: u64, white: u64, black_to_move: bool) -> Option<Board> {
        if black & white != 0 {
            return None;
        }
        let (player, opponent) = if black_to_move { (black, white) } else { (white, black) };
        Some(Board {
            player,
            opponent,
            black_to_move,
        })
    }

    /// Black's discs.
    pub fn black(&self) -> u64 {
        if self.black_to_move {
            self.player
        } else {
            self.opponent
        }
    }

    /// White's discs.
    pub fn white(&self) -> u64 {
        if self.black_to_move {
            self.opponent
        } else {
            self.player
        }
    }

    /// Whether Black is to move.
    pub fn black_to_move(&self) -> bool {
        self.black_to_move
    }

    /// Empty squares.
    pub fn empties(&self) -> u32 {
        64 - (self.player | self.opponent).count_ones()
    }

    /// The legal moves of the side to move, as a set of squares (bit `i` = square `i`).
    pub fn legal_set(&self) -> u64 {
        move_set(self.player, self.opponent)
    }

    /// Whether neither side can move.
    pub fn is_over(&self) -> bool {
        self.legal_set() == 0 && move_set(self.opponent, self.player) == 0
    }

    /// The position's 64-bit key: the two bitboards and the side to move,
    /// mixed (SplitMix64's finaliser) so that nearby positions spread over
    /// the table.
    #[inline]
    pub fn key(&self) -> u64 {
        #[inline(always)]
        fn mix(mut z: u64) -> u64 {
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        let side = if self.black_to_move { 0x9E37_79B9_7F4A_7C15 } else { 0 };
        mix(self.player ^ mix(self.opponent ^ side))
    }

    /// The disc on square `sq`: `'X'` black, `'O'` white, `'-'` empty.
    pub fn square(&self, sq: u8) -> char {
        let bit = 1u64 << sq;
        if self.black() & bit != 0 {
            'X'
        } else if self.white() & bit != 0 {
            'O'
        } else {
            '-'
        }
    }

    /// The board in the FFO notation: 64 squares and the side to move.
    pub fn to_ffo(&self) -> String {
        let mut s: String = (0..64).map(|sq| self.square(sq)).collect();
        s.push(' ');
        s.push(if self.black_to_move { 'X' } else { 'O' });
        s
    }

    /// The position after the side to move plays `mv` (a legal square or
    /// [`PASS`]).
    #[inline]
    pub(super) fn play(&self, mv: u8) -> Board {
        if mv >= PASS {
            return Board {
                player: self.opponent,
                opponent: self.player,
                black_to_move: !self.black_to_move,
            };
        }
        let f = flips(mv, self.player, self.opponent);
        debug_assert!(f != 0, "{} is not a legal move", square_name(mv));
        Board {
            player: self.opponent ^ f,
            opponent: self.player | f | (1 << mv),
            black_to_move: !self.black_to_move,
        }
    }
}

impl fmt::Display for Board {
    /// Column letters, then eight rows of `X`, `O` and `-` with their numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  a b c d e f g h")?;
        for row in 0..8u8 {
            write!(f, "{}", row + 1)?;
            for col in 0..8u8 {
                write!(f, " {}", self.square(8 * row + col))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
