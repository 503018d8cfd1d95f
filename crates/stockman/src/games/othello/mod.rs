//! Othello (Reversi) on the standard 8 x 8 board, on bitboards: solved
//! exactly to the end of the game, or searched to a fixed depth with a
//! heuristic.
//!
//! # Squares, moves and players
//! Squares are named `a1` to `h8`: a letter for the column (`a` to `h`,
//! left to right) and a digit for the row (`1` to `8`, top to bottom), as in
//! the FFO test suite and Othello transcripts. A [`Game::Move`] is the
//! square's index `8 × row + column` (`a1` = 0, `h1` = 7, `h8` = 63), or
//! [`PASS`] (64) when the side to move has no legal move but the opponent
//! has: a pass is a move of the tree like any other (one ply). Black (`X`)
//! moves first. The player to move at the root is MAX, whatever its colour;
//! every value is from its point of view.
//!
//! # Positions
//! [`Othello::from_position`] reads either
//! - a **move list** from the initial position, squares run together or
//!   separated by white space, case free (`f5d6c3d3c4`, `F5 D6`); a forced
//!   pass may be written `pass` or left out (the next square is then the
//!   other player's), or
//! - a **board** in the FFO notation: 64 squares `a1 b1 ... h1 a2 ... h8`
//!   (`X` or `*` black, `O` white, `-` or `.` empty), white space, and the
//!   side to move (`X` black, `O` white); text from a `;` on (an FFO line's
//!   `move:score` list) is ignored.
//!
//! Malformed text is an [`OthelloError`] naming the move or character, its
//! column, and the reason (an illegal move lists the legal ones).
//!
//! # Values
//! - [`Scoring::Exact`] (the default): a finished game (neither side can
//!   move) is worth its **final disc difference** from the root mover's
//!   view, the empty squares going to the winner (the FFO convention), so
//!   every final score is even and lies in `-64..=64`. A search to the end
//!   (no depth) returns the FFO suite's scores exactly. A non-terminal
//!   position at a horizon is worth 0 (unknown), or the nearest value the
//!   stable discs allow: use the heuristic for fixed-depth searches.
//! - [`Scoring::Heuristic`] ([`Othello::with_heuristic`]): a finished game is
//!   worth [`HEURISTIC_SCALE`]` × score` (so at least 2,000 in magnitude for a
//!   decided game: every win ranks above every heuristic value) and a
//!   position at the horizon a heuristic in `-999..=999` from the side to
//!   move, turned to MAX's view:
//!   `40 × corners + 12 × mobility + 4 × potential mobility −
//!   20 × X-squares + 2 × edge discs`, each term the side to move's count minus the
//!   opponent's, where *mobility* counts legal moves, *potential mobility*
//!   the empty squares next to an opponent's disc (where one could later
//!   play), *X-squares* the discs on b2, g2, b7, g7 next to an empty corner
//!   (they give the corner away), and *edge discs* the discs on the outer
//!   ring but the corners. Corners and mobility are the two features every
//!   Othello program since Rosenbloom's IAGO (1982) weighs most; the weights
//!   are this project's, set by hand. A drawn ending (0) lies inside the
//!   heuristic range, as in Connect Four.
//!
//! # Game knowledge, value-exact
//! The searches are generic, so the game carries what an endgame solver
//! knows, in forms that never change a minimax value:
//! - **The last empty squares.** A position with at most [`SOLVE_EMPTIES`]
//!   empty squares is solved by the game itself, with a plain alpha-beta
//!   over the empty squares (parity order, no move lists, no table), as a
//!   chess program's quiescence search runs inside its evaluation: below
//!   the root such a position is a **leaf** of the tree every algorithm
//!   sees (no moves; [`Game::evaluate`] is its exact score), and its
//!   [`Game::bounds_within`] is the exact score, or a fail-soft bound
//!   outside the search's window, so that depth-first searches settle it
//!   with a null-window solve instead of a full one (best-first searches,
//!   which do not ask for bounds, evaluate it). The positions the solver
//!   visits are not counted in the searches' statistics, as quiescence
//!   positions are not. The root lists its moves whatever its empties.
//! - **Stability.** A disc that can never be flipped (on a full line, or
//!   next to the board's edge or a stable disc of its colour in each of the
//!   four directions) stays its owner's to the end, so the side to move
//!   scores at most `64 − 2 × (opponent's stable discs)` and at least
//!   `2 × (own stable discs) − 64`. [`Game::bounds_within`] counts stable
//!   discs at most [`STABILITY_EMPTIES`] empty squares, and only when the
//!   discs on the board could prove a cut-off of the window.
//! - **Move ordering** ([`MoveOrder`], [`Othello::with_order`]): moves are
//!   listed in search order. By default ([`MoveOrder::BestReply`]), above
//!   [`BEST_REPLY_EMPTIES`] empty squares the moves after which the
//!   opponent's best heuristic reply is worst come first; below, *fastest
//!   first*: the moves leaving the opponent the fewest replies (a corner
//!   counting double) and the least potential mobility; ties go to moves
//!   into a region (quadrant) with an odd number of empty squares
//!   (*parity*: the last move of a region is an advantage), then to a static
//!   square order (corners first, X-squares last). The bench
//!   (`cargo bench -p stockman --bench ffo`, `FFO_ORDER`) measures each.
//! - **Hash.** A 64-bit mix of the two bitboards and the side to move
//!   ([`Board::key`]): equal positions hash equally; the table stores the
//!   whole key, so only a 64-bit collision could mislead it.
//!
//! # Example
//! ```
//! use stockman::games::othello::{Othello, Scoring};
//! use stockman::{algorithms::alphabeta, Algorithm, Playable, SearchOptions};
//!
//! // The FFO suite's #40 after 11 more moves of best play: Black to move
//! // wins by 38 discs, nine squares left.
//! let board = "OOXXXXXXXOXXXXXXOOXOXOXXOOXXOXXXOOXOXOXX-OOOOOOXXOOOX--X-X---X-- X";
//! let game = Othello::from_position(board).unwrap();
//! let out = Algorithm::Mtdf.search(&game, &SearchOptions::default()).unwrap();
//! assert_eq!(out.value, Some(38));
//!
//! // A fixed-depth search of an opening: heuristic values.
//! let game = Othello::from_position("f5d6c3d3c4").unwrap().with_heuristic();
//! assert_eq!((game.to_move_text(), game.scoring()), ("White", Scoring::Heuristic));
//! let opts = SearchOptions { depth: Some(4), ..Default::default() };
//! let v = alphabeta::search(&game, &opts).unwrap().value.unwrap();
//! assert!((-999..=999).contains(&v));
//!
//! let err = Othello::from_position("f5d6z9").unwrap_err();
//! assert_eq!(err.to_string(), "move 3 (`z9`, column 5): not a square (a1 to h8)");
//! let err = Othello::from_position("f5f5").unwrap_err();
//! assert_eq!(err.to_string(), "move 2 (`f5`, column 3): not a legal move for White (legal: f4 d6 f6)");
//! ```

use super::{GameResult, Playable};
use crate::game::Game;
use crate::value::{Role, Value};
use std::fmt;

/// The pass move: the side to move has no legal move, the opponent has.
pub const PASS: u8 = 64;
/// Heuristic mode multiplies final scores by this, keeping heuristics below it.
pub const HEURISTIC_SCALE: Value = 1000;
/// Positions with this many empty squares or fewer are solved by the game
/// itself ([`Game::bounds_within`] is exact there).
pub const SOLVE_EMPTIES: u32 = 6;
/// Above this many empty squares, [`MoveOrder::BestReply`] orders moves by
/// a one-reply search of the heuristic; fastest first below.
pub const BEST_REPLY_EMPTIES: u32 = 12;
/// Stable discs are counted for bounds at this many empty squares or fewer
/// (earlier in the game they are rare and never decide a window).
pub const STABILITY_EMPTIES: u32 = 12;

/// The largest heuristic value, below [`HEURISTIC_SCALE`].
const HEURISTIC_MAX: Value = HEURISTIC_SCALE - 1;
/// Every square but the a and h columns.
const NOT_EDGE_COLUMNS: u64 = 0x7E7E_7E7E_7E7E_7E7E;
/// Every square but column a.
const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
/// Every square but column h.
const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
/// Column a, column h, row 1, row 8.
const COLUMN_A: u64 = 0x0101_0101_0101_0101;
const COLUMN_H: u64 = 0x8080_8080_8080_8080;
const ROW_1: u64 = 0x0000_0000_0000_00FF;
const ROW_8: u64 = 0xFF00_0000_0000_0000;
/// The outer ring of squares.
const EDGES: u64 = COLUMN_A | COLUMN_H | ROW_1 | ROW_8;
/// a1, h1, a8, h8.
const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The initial position: d5 and e4 black, d4 and e5 white.
const START_BLACK: u64 = (1 << 28) | (1 << 35);
const START_WHITE: u64 = (1 << 27) | (1 << 36);
/// The four quadrants, for parity.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Static move preference, lower first: corners, then the A- and B-squares
/// of the edges and the centre, C-squares, and X-squares last.
const SQUARE_RANK: [u8; 64] = {
    // Rows 1-4 of one quadrant (a1..d4), mirrored to the other three.
    const Q: [[u8; 4]; 4] = [[0, 6, 2, 2], [6, 7, 4, 4], [2, 4, 3, 3], [2, 4, 3, 1]];
    let mut r = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let (row, col) = (sq / 8, sq % 8);
        let qr = if row < 4 { row } else { 7 - row };
        let qc = if col < 4 { col } else { 7 - col };
        r[sq] = Q[qr][qc];
        sq += 1;
    }
    r
};

/// The legal moves of the player with discs `p` against `o`, as a set of squares.
#[inline]
fn move_set(p: u64, o: u64) -> u64 {
    #[inline(always)]
    fn line(p: u64, mo: u64, s: u32) -> u64 {
        let mut l = mo & (p << s);
        l |= mo & (l << s);
        l |= mo & (l << s);
        l |= mo & (l << s);
        l |= mo & (l << s);
        l |= mo & (l << s);
        let mut r = mo & (p >> s);
        r |= mo & (r >> s);
        r |= mo & (r >> s);
        r |= mo & (r >> s);
        r |= mo & (r >> s);
        r |= mo & (r >> s);
        (l << s) | (r >> s)
    }
    let inner = o & NOT_EDGE_COLUMNS;
    let m = line(p, inner, 1) | line(p, o, 8) | line(p, inner, 7) | line(p, inner, 9);
    m & !(p | o)
}

/// For every square, the squares beyond it in each direction: rays 0-3
/// go towards higher squares (east, south, south-east, south-west), rays
/// 4-7 towards lower ones (west, north, north-west, north-east).
const RAYS: [[u64; 8]; 64] = {
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
#[inline]
fn flips(sq: u8, p: u64, o: u64) -> u64 {
    let rays = &RAYS[sq as usize];
    let mut flipped = 0;
    for &ray in &rays[..4] {
        let stop = ray & !o;
        let first = stop & stop.wrapping_neg();
        if first & p != 0 {
            flipped |= ray & (first - 1);
        }
    }
    for &ray in &rays[4..] {
        let stop = ray & !o;
        if stop != 0 {
            let first = 1u64 << (63 - stop.leading_zeros());
            if first & p != 0 {
                flipped |= ray & !(first | (first - 1));
            }
        }
    }
    flipped
}

/// The squares next to any square of `x` (in the eight directions).
#[inline]
fn neighbours(x: u64) -> u64 {
    let h = ((x << 1) & NOT_A) | ((x >> 1) & NOT_H);
    let row = x | h;
    h | (row << 8) | (row >> 8)
}

/// The squares whose neighbour `k` steps along `(dr, dc)` is off the board.
const fn off_board(dr: i32, dc: i32, k: i32) -> u64 {
    let mut m = 0u64;
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8 + dr * k, sq % 8 + dc * k);
        if r < 0 || r > 7 || c < 0 || c > 7 {
            m |= 1 << sq;
        }
        sq += 1;
    }
    m
}

/// The occupied squares of `occ` whose whole line along the direction
/// `shift` (a square `s` and `s + shift` are neighbours) is occupied.
/// `off[j]` are the squares whose neighbour `2^j` steps away, forwards
/// (`off[j]`) or backwards (`off[3 + j]`), is off the board.
#[inline(always)]
fn full_line(occ: u64, shift: u32, off: &[u64; 6]) -> u64 {
    // Forwards: every square from here to the edge is occupied, by doubling.
    let mut f = occ & ((occ >> shift) | off[0]);
    f &= (f >> (2 * shift)) | off[1];
    f &= (f >> (4 * shift)) | off[2];
    let mut b = occ & ((occ << shift) | off[3]);
    b &= (b << (2 * shift)) | off[4];
    b &= (b << (4 * shift)) | off[5];
    f & b
}

/// [`off_board`] masks for [`full_line`], for a direction.
const fn line_offs(dr: i32, dc: i32) -> [u64; 6] {
    [
        off_board(dr, dc, 1),
        off_board(dr, dc, 2),
        off_board(dr, dc, 4),
        off_board(-dr, -dc, 1),
        off_board(-dr, -dc, 2),
        off_board(-dr, -dc, 4),
    ]
}
const OFF_H: [u64; 6] = line_offs(0, 1);
const OFF_V: [u64; 6] = line_offs(1, 0);
const OFF_D9: [u64; 6] = line_offs(1, 1);
const OFF_D7: [u64; 6] = line_offs(1, -1);

/// The discs of `me` that can never be flipped, given the occupied squares `occ`.
///
/// A disc is stable if, in each of the four line directions, its line is
/// full or it touches the board's edge or a stable disc of its own colour:
/// flipping it along a line would flip that neighbour too. The fixed point
/// of that rule is computed from the corners inwards. (It finds most stable
/// discs, not all; every disc it finds is stable, which is what a bound needs.)
fn stable_discs(me: u64, occ: u64) -> u64 {
    if me & EDGES == 0 {
        // The fixed point grows from the edge: with no disc there it is empty.
        return 0;
    }
    let full_h = full_line(occ, 1, &OFF_H);
    let full_v = full_line(occ, 8, &OFF_V);
    let full_d9 = full_line(occ, 9, &OFF_D9);
    let full_d7 = full_line(occ, 7, &OFF_D7);
    let mut stable = 0u64;
    loop {
        let h = full_h | COLUMN_A | COLUMN_H | ((stable << 1) & NOT_A) | ((stable >> 1) & NOT_H);
        let v = full_v | ROW_1 | ROW_8 | (stable << 8) | (stable >> 8);
        let d1 = full_d9 | EDGES | ((stable << 9) & NOT_A) | ((stable >> 9) & NOT_H);
        let d2 = full_d7 | EDGES | ((stable << 7) & NOT_H) | ((stable >> 7) & NOT_A);
        let next = stable | (me & h & v & d1 & d2);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The FFO score of a finished game for the player with `p` discs against
/// `o`: the disc difference, the empty squares going to the winner.
#[inline]
fn final_score(p: u64, o: u64) -> i32 {
    let (np, no) = (p.count_ones() as i32, o.count_ones() as i32);
    let empties = 64 - np - no;
    match np.cmp(&no) {
        std::cmp::Ordering::Greater => np - no + empties,
        std::cmp::Ordering::Less => np - no - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The exact final score, within the window `(alpha, beta)` (fail-soft),
/// for the player with discs `p` against `o` to move, by a plain
/// alpha-beta over the empty squares: for the last few empty squares,
/// where it costs less than a move list. `passed`: the opponent just passed.
fn solve_small(p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
    let empty = !(p | o);
    let n = empty.count_ones();
    if n <= 1 {
        return last_square(p, o, empty);
    }
    if n == 2 {
        return solve_two(p, o, empty, alpha, beta, passed);
    }
    let mut best = -65;
    {
        // Parity: the empty squares of regions with an odd count first.
        let mut odd = 0;
        for q in QUADRANTS {
            if (empty & q).count_ones() & 1 == 1 {
                odd |= q;
            }
        }
        for set in [empty & odd, empty & !odd] {
            let mut e = set;
            while e != 0 {
                let sq = e.trailing_zeros() as u8;
                e &= e - 1;
                // No opponent disc next to the square: nothing to flip.
                if NEIGHBOURS[sq as usize] & o == 0 {
                    continue;
                }
                let f = flips(sq, p, o);
                if f == 0 {
                    continue;
                }
                let v = -solve_small(o ^ f, p | f | (1 << sq), -beta, -alpha.max(best), false);
                if v > best {
                    best = v;
                    if v >= beta {
                        return v;
                    }
                }
            }
        }
    }
    if best > -65 {
        best
    } else if passed {
        final_score(p, o)
    } else {
        -solve_small(o, p, -beta, -alpha, true)
    }
}

/// [`solve_small`] with two empty squares (`empty`): each move leads to a
/// position with one square left, scored directly.
#[inline]
fn solve_two(p: u64, o: u64, empty: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
    let first = empty & empty.wrapping_neg();
    let mut best = -65;
    for (x, y) in [(first, empty ^ first), (empty ^ first, first)] {
        let sq = x.trailing_zeros() as u8;
        if NEIGHBOURS[sq as usize] & o == 0 {
            continue;
        }
        let f = flips(sq, p, o);
        if f != 0 {
            let v = -last_square(o ^ f, p | f | x, y);
            if v > best {
                best = v;
                if v >= beta {
                    return v;
                }
            }
        }
    }
    if best > -65 {
        best
    } else if passed {
        final_score(p, o)
    } else {
        -solve_two(o, p, empty, -beta, -alpha, true)
    }
}

/// The final score for the player with discs `p` against `o` to move
/// when at most the one square `empty` is left: the player takes it if it
/// can, else the opponent does, else nobody.
#[inline]
fn last_square(p: u64, o: u64, empty: u64) -> i32 {
    if empty == 0 {
        return final_score(p, o);
    }
    let sq = empty.trailing_zeros() as u8;
    let near = NEIGHBOURS[sq as usize];
    if near & o != 0 {
        let f = flips(sq, p, o);
        if f != 0 {
            // The board is full: the score is the disc difference.
            return 2 * (p.count_ones() + f.count_ones() + 1) as i32 - 64;
        }
    }
    if near & p != 0 {
        let f = flips(sq, o, p);
        if f != 0 {
            return 64 - 2 * (o.count_ones() + f.count_ones() + 1) as i32;
        }
    }
    final_score(p, o)
}

/// The squares next to each square.
const NEIGHBOURS: [u64; 64] = {
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
    player: u64,
    opponent: u64,
    black_to_move: bool,
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
    fn play(&self, mv: u8) -> Board {
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

    /// The stable discs of the side to move and of the opponent.
    pub fn stable(&self) -> (u64, u64) {
        let occ = self.player | self.opponent;
        (stable_discs(self.player, occ), stable_discs(self.opponent, occ))
    }

    /// The exact final score for the side to move, fail-soft within the
    /// window `(alpha, beta)` of scores, if at most [`SOLVE_EMPTIES`]
    /// squares are empty (the game solves such positions itself).
    #[inline]
    fn solved(&self, alpha: i32, beta: i32) -> Option<i32> {
        let (p, o) = (self.player, self.opponent);
        let empty = !(p | o);
        match empty.count_ones() {
            0 | 1 => Some(last_square(p, o, empty)),
            n if n <= SOLVE_EMPTIES => Some(solve_small(p, o, alpha, beta, false)),
            _ => None,
        }
    }

    /// The best heuristic value the side to move can reach with one move:
    /// the opponent's heuristic after each of its moves, negated (a final
    /// score × [`HEURISTIC_SCALE`] when the game is over).
    fn best_reply(&self) -> i32 {
        let (p, o) = (self.player, self.opponent);
        let mut set = move_set(p, o);
        if set == 0 {
            let theirs = move_set(o, p);
            if theirs == 0 {
                return final_score(p, o) * HEURISTIC_SCALE;
            }
            // A forced pass: the opponent is to move again.
            return -self.play(PASS).heuristic(theirs, 0);
        }
        let mut best = i32::MIN;
        while set != 0 {
            let sq = set.trailing_zeros() as u8;
            set &= set - 1;
            let c = self.play(sq);
            let v = -c.heuristic(move_set(c.player, c.opponent), move_set(c.opponent, c.player));
            best = best.max(v);
        }
        best
    }

    /// The heuristic value for the side to move, in `-999..=999`.
    fn heuristic(&self, mine: u64, theirs: u64) -> Value {
        let (p, o) = (self.player, self.opponent);
        let empty = !(p | o);
        let count = |x: u64| x.count_ones() as i32;
        let corners = count(p & CORNERS) - count(o & CORNERS);
        let mobility = count(mine) - count(theirs);
        let potential = count(neighbours(o) & empty) - count(neighbours(p) & empty);
        // X-squares whose corner is empty: b2 (a1), g2 (h1), b7 (a8), g7 (h8).
        let mut x_open = 0u64;
        for (x, corner) in [(9, 0), (14, 7), (49, 56), (54, 63)] {
            if empty >> corner & 1 == 1 {
                x_open |= 1 << x;
            }
        }
        let xs = count(p & x_open) - count(o & x_open);
        let edges = count(p & EDGES & !CORNERS) - count(o & EDGES & !CORNERS);
        (40 * corners + 12 * mobility + 4 * potential - 20 * xs + 2 * edges).clamp(-HEURISTIC_MAX, HEURISTIC_MAX)
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

pub use super::Scoring;

/// How [`Othello`] orders the moves it lists (the order every search sees);
/// see the [module documentation](self) for the measured effect.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MoveOrder {
    /// Parity first (moves into regions with an odd number of empty
    /// squares), then a static square order (corners first, X-squares last).
    Squares,
    /// Fastest first: the moves leaving the opponent the fewest replies (a
    /// corner reply counting double) and the least potential mobility, then
    /// as [`MoveOrder::Squares`].
    FastestFirst,
    /// Above [`BEST_REPLY_EMPTIES`] empty squares, the moves after which the
    /// opponent's best reply scores worst by the heuristic (a one-reply
    /// search); fastest first below.
    #[default]
    BestReply,
}

/// Why an Othello position text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OthelloError {
    /// 1-based column (in characters) of the offending text.
    pub column: usize,
    /// What is wrong.
    pub kind: OthelloErrorKind,
}

/// What is wrong with an Othello position text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OthelloErrorKind {
    /// Move `index` (1-based) of a move list, `text`, is not a square name.
    NotASquare {
        /// The move's number in the list.
        index: usize,
        /// The text found.
        text: String,
    },
    /// Move `index` is a square, but not a legal move there.
    Illegal {
        /// The move's number in the list.
        index: usize,
        /// The square.
        text: String,
        /// Who was to move: `"Black"` or `"White"`.
        player: &'static str,
        /// The legal moves, named.
        legal: Vec<String>,
    },
    /// Move `index` came after the end of the game.
    GameOver {
        /// The move's number in the list.
        index: usize,
        /// The text found.
        text: String,
    },
    /// A board has a character that is not a square.
    BadSquare {
        /// The character.
        found: char,
    },
    /// A board has the wrong number of squares.
    BoardLength {
        /// The squares found.
        found: usize,
    },
    /// The side to move is missing.
    MissingSide,
    /// The side to move is not `X` or `O`.
    BadSide {
        /// The text found.
        found: String,
    },
    /// Something follows the side to move.
    Trailing {
        /// The text found.
        found: String,
    },
}

impl fmt::Display for OthelloError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.column;
        match &self.kind {
            OthelloErrorKind::NotASquare { index, text } => {
                write!(f, "move {index} (`{text}`, column {c}): not a square (a1 to h8)")
            }
            OthelloErrorKind::Illegal {
                index,
                text,
                player,
                legal,
            } => {
                let legal = if legal.is_empty() {
                    "none".to_string()
                } else {
                    legal.join(" ")
                };
                write!(
                    f,
                    "move {index} (`{text}`, column {c}): not a legal move for {player} (legal: {legal})"
                )
            }
            OthelloErrorKind::GameOver { index, text } => {
                write!(f, "move {index} (`{text}`, column {c}): the game is already over")
            }
            OthelloErrorKind::BadSquare { found } => write!(
                f,
                "board square {c} is {found:?}: squares are X or * (black), O (white), - or . (empty)"
            ),
            OthelloErrorKind::BoardLength { found } => {
                write!(f, "the board has {found} squares, not 64 (a1 to h8, row by row)")
            }
            OthelloErrorKind::MissingSide => {
                write!(f, "the side to move is missing after the board (column {c}): X or O")
            }
            OthelloErrorKind::BadSide { found } => {
                write!(
                    f,
                    "side to move `{found}` (column {c}): expected X (black) or O (white)"
                )
            }
            OthelloErrorKind::Trailing { found } => {
                write!(f, "unexpected `{found}` (column {c}) after the side to move")
            }
        }
    }
}

impl std::error::Error for OthelloError {}

/// Othello from a given position; see the [module documentation](self).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Othello {
    root: Board,
    scoring: Scoring,
    order: MoveOrder,
}

impl Othello {
    /// The initial position, Black (MAX) to move, exact scoring.
    pub const fn new() -> Othello {
        Othello {
            root: Board::new(),
            scoring: Scoring::Exact,
            order: MoveOrder::BestReply,
        }
    }

    /// The game rooted at `board`, exact scoring.
    pub const fn from_board(board: Board) -> Othello {
        Othello {
            root: board,
            scoring: Scoring::Exact,
            order: MoveOrder::BestReply,
        }
    }

    /// Reads a move list or an FFO board; see the [module documentation](self).
    pub fn parse(text: &str) -> Result<Othello, OthelloError> {
        let text = text.split(';').next().unwrap_or("");
        let lead = text.len() - text.trim_start().len();
        let first = text.trim_start().chars().next();
        let board = match first {
            Some('X' | 'x' | '*' | 'O' | 'o' | '0' | '-' | '.') => parse_board(text, lead)?,
            _ => parse_moves(text, lead)?,
        };
        Ok(Othello::from_board(board))
    }

    /// The same position with [`Scoring::Heuristic`], for fixed-depth searches.
    pub fn with_heuristic(self) -> Othello {
        self.with_scoring(Scoring::Heuristic)
    }

    /// The same position with the given scoring.
    pub fn with_scoring(self, scoring: Scoring) -> Othello {
        Othello { scoring, ..self }
    }

    /// How positions are valued.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The same position with moves listed in the given order.
    pub fn with_order(self, order: MoveOrder) -> Othello {
        Othello { order, ..self }
    }

    /// How moves are ordered.
    pub fn order(&self) -> MoveOrder {
        self.order
    }

    /// The root position.
    pub fn board(&self) -> Board {
        self.root
    }

    /// Who is to move at the root: `"Black"` or `"White"`.
    pub fn to_move_text(&self) -> &'static str {
        if self.root.black_to_move {
            "Black"
        } else {
            "White"
        }
    }

    /// A score for the side to move at `pos`, as a value from MAX's view.
    #[inline]
    fn value(&self, pos: &Board, score: i32) -> Value {
        let v = match self.scoring {
            Scoring::Exact => score,
            Scoring::Heuristic => score * HEURISTIC_SCALE,
        };
        if pos.black_to_move == self.root.black_to_move {
            v
        } else {
            -v
        }
    }
}

/// Reads a move list starting at byte `lead` of `text` (columns count characters).
fn parse_moves(text: &str, lead: usize) -> Result<Board, OthelloError> {
    let mut board = Board::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = text[..lead].chars().count();
    let mut index = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        index += 1;
        let column = i + 1;
        // A move is two characters, or the word `pass`.
        let four: String = chars[i..chars.len().min(i + 4)].iter().collect();
        let len = if four.eq_ignore_ascii_case("pass") { 4 } else { 2 };
        let word: String = chars[i..chars.len().min(i + len)].iter().collect();
        i += len;
        let mv = match word.as_bytes() {
            _ if len == 4 => Some(PASS),
            &[c, r] if (b'a'..=b'h').contains(&c.to_ascii_lowercase()) && (b'1'..=b'8').contains(&r) => {
                Some((r - b'1') * 8 + (c.to_ascii_lowercase() - b'a'))
            }
            _ => None,
        };
        let Some(mv) = mv else {
            return Err(OthelloError {
                column,
                kind: OthelloErrorKind::NotASquare { index, text: word },
            });
        };
        if board.is_over() {
            return Err(OthelloError {
                column,
                kind: OthelloErrorKind::GameOver { index, text: word },
            });
        }
        // A forced pass may be left out: the square is then the other player's.
        if mv != PASS && board.legal_set() == 0 {
            board = board.play(PASS);
        }
        let legal = Othello::from_board(board).legal_moves();
        if !legal.contains(&mv) {
            let othello = Othello::from_board(board);
            return Err(OthelloError {
                column,
                kind: OthelloErrorKind::Illegal {
                    index,
                    text: word.to_ascii_lowercase(),
                    player: othello.to_move_text(),
                    legal: legal.into_iter().map(square_name).collect(),
                },
            });
        }
        board = board.play(mv);
    }
    Ok(board)
}

/// Reads an FFO board and side starting at byte `lead` of `text`.
fn parse_board(text: &str, lead: usize) -> Result<Board, OthelloError> {
    let (mut black, mut white) = (0u64, 0u64);
    let mut squares = 0usize;
    let mut chars = text.char_indices().skip_while(|&(i, _)| i < lead).peekable();
    let mut column = text[..lead].chars().count();
    while let Some(&(_, c)) = chars.peek() {
        if c.is_whitespace() {
            break;
        }
        chars.next();
        column += 1;
        if squares >= 64 {
            // Too long: counted for the error below, never stored.
            squares += 1;
            continue;
        }
        match c {
            'X' | 'x' | '*' => black |= 1 << squares,
            'O' | 'o' | '0' => white |= 1 << squares,
            '-' | '.' => {}
            found => {
                return Err(OthelloError {
                    column,
                    kind: OthelloErrorKind::BadSquare { found },
                })
            }
        }
        squares += 1;
    }
    if squares != 64 {
        let found = text[lead..].split_whitespace().next().map_or(0, |w| w.chars().count());
        return Err(OthelloError {
            column: text[..lead].chars().count() + 1,
            kind: OthelloErrorKind::BoardLength { found },
        });
    }
    let rest: String = chars.map(|(_, c)| c).collect();
    let skipped = rest.len() - rest.trim_start().len();
    let side_column = column + rest[..skipped].chars().count() + 1;
    let mut words = rest.split_whitespace();
    let black_to_move = match words.next() {
        None => {
            return Err(OthelloError {
                column: side_column,
                kind: OthelloErrorKind::MissingSide,
            })
        }
        Some("X" | "x" | "B" | "b" | "*") => true,
        Some("O" | "o" | "W" | "w" | "0") => false,
        Some(found) => {
            return Err(OthelloError {
                column: side_column,
                kind: OthelloErrorKind::BadSide {
                    found: found.to_string(),
                },
            })
        }
    };
    if let Some(found) = words.next() {
        let at = rest.find(found).unwrap_or(0);
        return Err(OthelloError {
            column: column + rest[..at].chars().count() + 1,
            kind: OthelloErrorKind::Trailing {
                found: found.to_string(),
            },
        });
    }
    Ok(Board::from_discs(black, white, black_to_move).expect("a square holds one character"))
}

impl fmt::Display for Othello {
    /// The board, the side to move and the disc count.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.root.fmt(f)?;
        let (b, w) = (self.root.black().count_ones(), self.root.white().count_ones());
        let side = if self.root.black_to_move { "X" } else { "O" };
        writeln!(f, "{side} ({}) to move; X {b}, O {w}", self.to_move_text())
    }
}

impl Game for Othello {
    type Position = Board;
    /// A square `0..=63` (`a1` = 0, `h8` = 63) or [`PASS`].
    type Move = u8;

    fn root(&self) -> Board {
        self.root
    }

    #[inline]
    fn role(&self, pos: &Board) -> Role {
        if pos.black_to_move == self.root.black_to_move {
            Role::Max
        } else {
            Role::Min
        }
    }

    fn moves(&self, pos: &Board, out: &mut Vec<u8>) {
        // The game solves its last empty squares itself: below the root,
        // such a position is a leaf (its value is exact). The root lists
        // its moves, so that a search of it still names a best move.
        if pos.empties() <= SOLVE_EMPTIES && *pos != self.root {
            return;
        }
        let (p, o) = (pos.player, pos.opponent);
        let mut set = move_set(p, o);
        if set == 0 {
            if move_set(o, p) != 0 {
                out.push(PASS);
            }
            return;
        }
        let empty = !(p | o);
        let odd = QUADRANTS
            .iter()
            .filter(|&&q| (empty & q).count_ones() & 1 == 1)
            .fold(0, |acc, &q| acc | q);
        let n_empty = empty.count_ones();
        let order = match self.order {
            _ if n_empty <= SOLVE_EMPTIES => MoveOrder::Squares,
            MoveOrder::BestReply if n_empty <= BEST_REPLY_EMPTIES => MoveOrder::FastestFirst,
            order => order,
        };
        // Insertion sort on a small key; equal keys keep square order.
        let mut list = [(0u8, 0u32); 32];
        let mut n = 0;
        while set != 0 {
            let sq = set.trailing_zeros() as u8;
            set &= set - 1;
            let mut key = u32::from(SQUARE_RANK[sq as usize]);
            if odd >> sq & 1 == 0 {
                key += 8;
            }
            if order != MoveOrder::Squares {
                let f = flips(sq, p, o);
                let np = p | f | (1 << sq);
                let no = o ^ f;
                let replies = move_set(no, np);
                if order == MoveOrder::BestReply {
                    let child = Board {
                        player: no,
                        opponent: np,
                        black_to_move: !pos.black_to_move,
                    };
                    // Lower is better for the mover; the rest breaks ties.
                    key += 16 * (child.best_reply() + 100 * HEURISTIC_SCALE) as u32;
                } else {
                    // The opponent's replies, a corner counting double, and
                    // its potential mobility (empty squares next to ours).
                    let mobility = replies.count_ones() + (replies & CORNERS).count_ones();
                    key += 16 * mobility + 8 * (neighbours(np) & !(np | no)).count_ones();
                }
            }
            let mut i = n;
            while i > 0 && list[i - 1].1 > key {
                list[i] = list[i - 1];
                i -= 1;
            }
            list[i] = (sq, key);
            n += 1;
        }
        out.extend(list[..n].iter().map(|&(sq, _)| sq));
    }

    #[inline]
    fn play(&self, pos: &Board, mv: u8) -> Board {
        pos.play(mv)
    }

    fn evaluate(&self, pos: &Board) -> Value {
        if let Some(score) = pos.solved(-65, 65) {
            return self.value(pos, score);
        }
        let mine = move_set(pos.player, pos.opponent);
        let theirs = move_set(pos.opponent, pos.player);
        if mine == 0 && theirs == 0 {
            return self.value(pos, final_score(pos.player, pos.opponent));
        }
        match self.scoring {
            // Unknown: 0, or the nearest value the stable discs allow, so
            // that the value always lies within `bounds`.
            Scoring::Exact => {
                let (lo, hi) = self.bounds(pos);
                0.clamp(lo, hi)
            }
            Scoring::Heuristic => {
                let h = pos.heuristic(mine, theirs);
                if self.role(pos) == Role::Max {
                    h
                } else {
                    -h
                }
            }
        }
    }

    #[inline]
    fn hash(&self, pos: &Board) -> Option<u64> {
        Some(pos.key())
    }

    /// The square, and whose disc it is.
    #[inline]
    fn move_key(&self, pos: &Board, mv: u8) -> Option<u32> {
        Some(u32::from(mv) + 65 * u32::from(pos.black_to_move))
    }

    fn bounds(&self, pos: &Board) -> (Value, Value) {
        self.bounds_within(pos, -crate::INF, crate::INF)
    }

    /// Exact at most [`SOLVE_EMPTIES`] empty squares (fail-soft within the
    /// window, in exact scoring); else what stable discs prove, computed
    /// only when the discs on the board could prove a cut-off.
    fn bounds_within(&self, pos: &Board, alpha: Value, beta: Value) -> (Value, Value) {
        let scale = match self.scoring {
            Scoring::Exact => 1,
            Scoring::Heuristic => HEURISTIC_SCALE,
        };
        // The window from the side to move's view, in its units.
        let role = self.role(pos);
        let (a, b) = super::for_role(role, (alpha, beta));
        // ... as final scores: a fail-soft result outside them settles the window.
        let (sa, sb) = if scale == 1 {
            (a.clamp(-65, 65), b.clamp(-65, 65))
        } else {
            (-65, 65)
        };
        let (lo, hi) = match pos.solved(sa, sb) {
            Some(v) => {
                let (lo, hi) = if v <= sa {
                    (-64, v)
                } else if v >= sb {
                    (v, 64)
                } else {
                    (v, v)
                };
                (lo * scale, hi * scale)
            }
            None => {
                let (mut lo, mut hi) = (-64, 64);
                if pos.empties() <= STABILITY_EMPTIES {
                    let occ = pos.player | pos.opponent;
                    // A player's stable discs are at most its discs.
                    let (np, no) = (pos.player.count_ones() as i32, pos.opponent.count_ones() as i32);
                    if (64 - 2 * no) * scale <= a {
                        hi = 64 - 2 * stable_discs(pos.opponent, occ).count_ones() as i32;
                    }
                    if (2 * np - 64) * scale >= b {
                        lo = 2 * stable_discs(pos.player, occ).count_ones() as i32 - 64;
                    }
                }
                if scale > 1 {
                    // Horizon values are heuristics within -999..=999.
                    ((lo * scale).min(-HEURISTIC_MAX), (hi * scale).max(HEURISTIC_MAX))
                } else {
                    (lo, hi)
                }
            }
        };
        super::for_role(role, (lo, hi))
    }

    fn name(&self) -> &str {
        "othello"
    }
}

impl Playable for Othello {
    type PositionError = OthelloError;

    /// A move list (`f5d6c3`) or an FFO board (`"<64 squares> X"`).
    fn from_position(text: &str) -> Result<Othello, OthelloError> {
        Othello::parse(text)
    }

    fn heuristic(self) -> Othello {
        self.with_heuristic()
    }

    /// The legal squares in square order, or [`PASS`] alone when the side to
    /// move has none but the opponent has; none when the game is over.
    fn legal_moves(&self) -> Vec<u8> {
        let mut set = self.root.legal_set();
        if set == 0 {
            return if self.root.is_over() { Vec::new() } else { vec![PASS] };
        }
        let mut out = Vec::new();
        while set != 0 {
            out.push(set.trailing_zeros() as u8);
            set &= set - 1;
        }
        out
    }

    fn after(&self, mv: u8) -> Othello {
        Othello {
            root: self.root.play(mv),
            ..*self
        }
    }

    fn parse_move(&self, text: &str) -> Result<u8, String> {
        let t = text.trim();
        let legal = self.legal_moves();
        if legal.is_empty() {
            return Err("the game is over".to_string());
        }
        let named: Vec<String> = legal.iter().map(|&m| square_name(m)).collect();
        let lower = t.to_ascii_lowercase();
        match named.iter().position(|n| *n == lower) {
            Some(i) => Ok(legal[i]),
            None => {
                let b = lower.as_bytes();
                let is_square = b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]);
                if is_square || lower == "pass" {
                    Err(format!(
                        "{lower} is not a legal move for {} (legal: {})",
                        self.to_move_text(),
                        named.join(" ")
                    ))
                } else {
                    Err(format!("`{t}` is not a move: type a square a1 to h8 (or pass)"))
                }
            }
        }
    }

    fn move_text(&self, mv: u8) -> String {
        square_name(mv)
    }

    fn first_player_to_move(&self) -> bool {
        self.root.black_to_move
    }

    fn result(&self) -> Option<GameResult> {
        if !self.root.is_over() {
            return None;
        }
        Some(
            match self.root.black().count_ones().cmp(&self.root.white().count_ones()) {
                std::cmp::Ordering::Greater => GameResult::FirstPlayerWins,
                std::cmp::Ordering::Less => GameResult::SecondPlayerWins,
                std::cmp::Ordering::Equal => GameResult::Draw,
            },
        )
    }

    /// Black (`X`) and White (`O`).
    fn player_name(&self, first: bool) -> &'static str {
        if first {
            "Black (X)"
        } else {
            "White (O)"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::{alphabeta, minimax};
    use crate::search::SearchOptions;

    /// A tiny deterministic generator (SplitMix64) for random playouts.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Flips by walking each direction square by square: the rules, plainly.
    fn naive_flips(sq: u8, p: u64, o: u64) -> u64 {
        if (p | o) >> sq & 1 == 1 {
            return 0;
        }
        let (r0, c0) = (i32::from(sq / 8), i32::from(sq % 8));
        let mut all = 0;
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1)] {
            let (mut r, mut c, mut run) = (r0 + dr, c0 + dc, 0u64);
            while (0..8).contains(&r) && (0..8).contains(&c) && o >> (r * 8 + c) & 1 == 1 {
                run |= 1 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            if (0..8).contains(&r) && (0..8).contains(&c) && p >> (r * 8 + c) & 1 == 1 {
                all |= run;
            }
        }
        all
    }

    /// Random positions reached by random legal play from the start,
    /// `plies` moves deep (passes included), with their empties.
    fn random_positions(seed: u64, count: usize, plies: usize) -> Vec<Board> {
        let mut rng = Rng(seed);
        let game = Othello::new();
        let mut out = Vec::new();
        while out.len() < count {
            let mut b = Board::new();
            for _ in 0..plies {
                let mut moves = Vec::new();
                game.moves(&b, &mut moves);
                if moves.is_empty() {
                    break;
                }
                b = b.play(moves[rng.below(moves.len())]);
            }
            out.push(b);
        }
        out
    }

    fn perft(game: &Othello, b: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        game.moves(b, &mut moves);
        if moves.is_empty() {
            return 1;
        }
        moves.iter().map(|&m| perft(game, &game.play(b, m), depth - 1)).sum()
    }

    #[test]
    fn perft_through_the_game_trait() {
        // The published Othello perft counts (passes count as moves).
        let game = Othello::new();
        let counts = [4, 12, 56, 244, 1396, 8200, 55092, 390_216, 3_005_288];
        for (d, &n) in counts.iter().enumerate() {
            assert_eq!(perft(&game, &game.root(), d as u32 + 1), n, "depth {}", d + 1);
        }
    }

    #[test]
    fn flips_and_moves_follow_the_rules() {
        for b in random_positions(1, 400, 30)
            .into_iter()
            .chain(random_positions(2, 200, 55))
        {
            let (p, o) = (b.player, b.opponent);
            let mut legal = 0;
            for sq in 0..64u8 {
                let want = naive_flips(sq, p, o);
                if (p | o) >> sq & 1 == 0 {
                    assert_eq!(flips(sq, p, o), want, "{} {}", b.to_ffo(), square_name(sq));
                }
                if want != 0 {
                    legal |= 1 << sq;
                }
            }
            assert_eq!(move_set(p, o), legal, "{}", b.to_ffo());
        }
    }

    #[test]
    fn stable_discs_are_never_flipped() {
        let mut rng = Rng(7);
        for b in random_positions(3, 300, 48) {
            let (mine, theirs) = b.stable();
            assert_eq!(mine & !b.player, 0);
            assert_eq!(theirs & !b.opponent, 0);
            // Random playouts to the end never flip them.
            let black_stable = if b.black_to_move { mine } else { theirs };
            let white_stable = if b.black_to_move { theirs } else { mine };
            for _ in 0..20 {
                let mut c = b;
                loop {
                    assert_eq!(c.black() & black_stable, black_stable, "{}", b.to_ffo());
                    assert_eq!(c.white() & white_stable, white_stable, "{}", b.to_ffo());
                    // Every legal move, to the very end of the game.
                    let moves = Othello::from_board(c).legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    c = c.play(moves[rng.below(moves.len())]);
                }
            }
        }
        // A full board: every disc is stable.
        let full = Board::from_discs(0x00FF_00FF_00FF_00FF, !0x00FF_00FF_00FF_00FF, true).unwrap();
        assert_eq!(full.stable(), (full.player, full.opponent));
        // A corner disc is stable, and so is an edge disc next to it; an
        // edge disc with empty squares on both sides is not.
        let b = Board::from_discs(1 | 1 << 1, 1 << 9, true).unwrap();
        assert_eq!(b.stable().0, 0b11);
        let b = Board::from_discs(1 | 1 << 2, 1 << 9, true).unwrap();
        assert_eq!(b.stable().0, 1);
    }

    #[test]
    fn the_game_solver_agrees_with_minimax() {
        let game = Othello::new();
        for b in random_positions(4, 60, 52) {
            let g = Othello::from_board(b);
            let exact = minimax::search(&g, &SearchOptions::default()).unwrap().value.unwrap();
            // solve_small is exact with a full window, fail-soft with any other.
            let score = if g.role(&b) == Role::Max { exact } else { -exact };
            assert_eq!(
                solve_small(b.player, b.opponent, -65, 65, false),
                score,
                "{}",
                b.to_ffo()
            );
            for (a, c) in [
                (score - 1, score + 1),
                (score, score + 1),
                (score - 1, score),
                (-65, score - 3),
            ] {
                let v = solve_small(b.player, b.opponent, a, c, false);
                if v <= a {
                    assert!(score <= v, "{}: {v} in ({a}, {c})", b.to_ffo());
                } else if v >= c {
                    assert!(score >= v, "{}: {v} in ({a}, {c})", b.to_ffo());
                } else {
                    assert_eq!(v, score);
                }
            }
            // The bounds hold the value, whatever the window.
            for (a, c) in [
                (-crate::INF, crate::INF),
                (exact, exact + 1),
                (exact - 1, exact),
                (-64, 64),
            ] {
                let (lo, hi) = g.bounds_within(&b, a, c);
                assert!(lo <= exact && exact <= hi, "{}: {exact} not in {lo}..={hi}", b.to_ffo());
            }
            let _ = &game;
        }
    }

    #[test]
    fn bounds_hold_before_the_last_squares() {
        for b in random_positions(5, 40, 48) {
            let g = Othello::from_board(b);
            let opts = SearchOptions {
                table: crate::TableSize::Megabytes(4),
                ..Default::default()
            };
            let v = alphabeta::search(&g, &opts).unwrap().value.unwrap();
            let (lo, hi) = g.bounds(&b);
            assert!(lo <= v && v <= hi, "{}: {v} not in {lo}..={hi}", b.to_ffo());
            // Heuristic scoring: the same bounds, scaled and widened.
            let h = g.with_heuristic();
            let (hlo, hhi) = h.bounds(&b);
            assert!(hlo <= v * HEURISTIC_SCALE && v * HEURISTIC_SCALE <= hhi);
            assert!(hlo <= -HEURISTIC_MAX && hhi >= HEURISTIC_MAX);
        }
    }

    #[test]
    fn move_orders_list_the_same_moves() {
        for b in random_positions(6, 200, 20)
            .into_iter()
            .chain(random_positions(7, 200, 45))
        {
            let mut lists = Vec::new();
            for order in [MoveOrder::Squares, MoveOrder::FastestFirst, MoveOrder::BestReply] {
                let g = Othello::from_board(b).with_order(order);
                let mut moves = Vec::new();
                g.moves(&b, &mut moves);
                let mut sorted = moves.clone();
                sorted.sort_unstable();
                lists.push(sorted);
                assert_eq!(g.legal_moves().len(), moves.len());
            }
            assert!(lists.windows(2).all(|w| w[0] == w[1]));
        }
        // Corners first in the static order; fastest first prefers the move
        // that leaves the opponent fewer replies.
        assert_eq!(SQUARE_RANK[0], 0);
        assert_eq!(SQUARE_RANK[9], 7);
    }

    #[test]
    fn parsing_boards_and_move_lists() {
        let start = Othello::from_position("").unwrap();
        assert_eq!(start, Othello::new());
        let ffo = start.board().to_ffo();
        assert_eq!(
            ffo,
            format!("{}OX{}XO{} X", "-".repeat(27), "-".repeat(6), "-".repeat(27))
        );
        assert_eq!(Othello::from_position(&ffo).unwrap(), start);
        // Case free, surrounding white space, `*` and `.` squares, a trailing `;` list.
        let moves = Othello::from_position(" F5d6C3 ").unwrap();
        let again = Othello::from_position(&format!("{}; f4:+2;", moves.board().to_ffo())).unwrap();
        assert_eq!(again.board(), moves.board());
        let stars = moves.board().to_ffo().replace('X', "*").replace('-', ".");
        assert_eq!(Othello::from_position(&stars).unwrap().board(), moves.board());
        assert_eq!(moves.to_move_text(), "White");
        assert_eq!(
            moves.to_string().lines().next().unwrap(),
            "  a b c d e f g h",
            "the display starts with the column letters"
        );
        assert!(moves.to_string().ends_with("O (White) to move; X 5, O 2\n"));
    }

    #[test]
    fn move_lists_with_spaces_and_passes() {
        // Random games written three ways read back to the same position:
        // squares run together, separated by spaces with `pass` written out,
        // and with forced passes left out.
        let mut rng = Rng(11);
        let mut passes = 0;
        for _ in 0..300 {
            let mut g = Othello::new();
            let (mut joined, mut spaced, mut implied) = (String::new(), Vec::new(), String::new());
            while g.result().is_none() {
                let legal = g.legal_moves();
                let mv = legal[rng.below(legal.len())];
                let text = g.move_text(mv);
                spaced.push(if rng.below(2) == 0 {
                    text.to_uppercase()
                } else {
                    text.clone()
                });
                if mv == PASS {
                    passes += 1;
                } else {
                    implied.push_str(&text);
                }
                joined.push_str(&text);
                g = g.after(mv);
            }
            assert_eq!(Othello::from_position(&joined).unwrap(), g);
            assert_eq!(Othello::from_position(&spaced.join(" ")).unwrap(), g);
            assert_eq!(Othello::from_position(&implied).unwrap(), g);
            // One move more: the game is over.
            let e = Othello::from_position(&format!("{implied}a1")).unwrap_err();
            assert!(matches!(e.kind, OthelloErrorKind::GameOver { .. }), "{e}");
        }
        assert!(passes > 0, "some random games pass");
        // A pass where the side to move has a move is illegal.
        let e = Othello::from_position("f5 pass").unwrap_err();
        assert_eq!(
            e.to_string(),
            "move 2 (`pass`, column 4): not a legal move for White (legal: f4 d6 f6)"
        );
    }

    #[test]
    fn errors_say_where_and_why() {
        let err = |s: &str| Othello::from_position(s).unwrap_err().to_string();
        assert_eq!(err("f5d"), "move 2 (`d`, column 3): not a square (a1 to h8)");
        assert_eq!(err("  f5i1"), "move 2 (`i1`, column 5): not a square (a1 to h8)");
        assert_eq!(
            err("f5a1"),
            "move 2 (`a1`, column 3): not a legal move for White (legal: f4 d6 f6)"
        );
        let b = "-".repeat(64);
        assert_eq!(
            err(&format!("{b} Z")),
            "side to move `Z` (column 66): expected X (black) or O (white)"
        );
        assert_eq!(
            err(&b),
            "the side to move is missing after the board (column 65): X or O"
        );
        assert_eq!(
            err(&format!("{b} X 7")),
            "unexpected `7` (column 68) after the side to move"
        );
        assert_eq!(
            err(&format!("{} X", &b[..63])),
            "the board has 63 squares, not 64 (a1 to h8, row by row)"
        );
        assert_eq!(
            err(&format!("{}- X", &b)),
            "the board has 65 squares, not 64 (a1 to h8, row by row)"
        );
        // Far too long, with discs past the 64th square (a fuzzer's find).
        assert_eq!(
            err(&format!("{} X", "O".repeat(66))),
            "the board has 66 squares, not 64 (a1 to h8, row by row)"
        );
        let bad = format!("{}Q{} X", &b[..10], &b[11..]);
        assert_eq!(
            err(&bad),
            "board square 11 is 'Q': squares are X or * (black), O (white), - or . (empty)"
        );
        // A game that is over takes no more moves.
        let over = format!("{} X", "X".repeat(64));
        assert!(Othello::from_position(&over).unwrap().board().is_over());
    }

    #[test]
    fn passes_are_moves() {
        // Black has a1, b1; White has c1... build a position where White cannot move.
        // X X O - ... : Black to move plays d1, then White has no disc: game over.
        let b = Board::from_discs(0b011, 0b100, true).unwrap();
        let g = Othello::from_board(b);
        assert_eq!(g.legal_moves(), vec![3]);
        let after = g.after(3);
        assert_eq!(after.result(), Some(GameResult::FirstPlayerWins));
        assert!(after.legal_moves().is_empty());
        assert_eq!(after.parse_move("d1").unwrap_err(), "the game is over");
        // White to move with no move while Black has one: a pass.
        let w = Othello::from_board(Board::from_discs(0b011, 0b100, false).unwrap());
        assert_eq!(w.legal_moves(), vec![PASS]);
        assert_eq!(w.parse_move("PASS"), Ok(PASS));
        assert_eq!(w.move_text(PASS), "pass");
        assert!(w.parse_move("d1").unwrap_err().contains("legal: pass"));
        assert!(w.parse_move("zz").unwrap_err().contains("type a square"));
        // A move list goes through the forced pass: after d1 by Black it is
        // Black again... here the game simply ends.
        let mut moves = Vec::new();
        w.moves(&w.root(), &mut moves);
        assert_eq!(moves, vec![PASS]);
    }

    #[test]
    fn values_are_final_disc_differences() {
        // A full board: the disc difference; empty squares go to the winner.
        assert_eq!(final_score(!0 >> 20, (!0u64) << 44), 44 - 20);
        assert_eq!(final_score(0b1, 0b110), -62); // 1 disc against 2: the winner takes the 61 empty squares
        assert_eq!(final_score(0b11, 0b1100), 0);
        let b = Board::from_discs(0b011, 0b100, true).unwrap();
        let g = Othello::from_board(b);
        // Black plays d1 and wipes White out: 4 discs, 60 empty squares to the winner.
        assert_eq!(
            alphabeta::search(&g, &SearchOptions::default()).unwrap().value,
            Some(64)
        );
        assert_eq!(g.with_heuristic().evaluate(&g.play(&b, 3)), 64 * HEURISTIC_SCALE);
    }

    #[test]
    fn keys_tell_positions_and_sides_apart() {
        let mut seen = std::collections::HashMap::new();
        for b in random_positions(8, 3000, 12) {
            if let Some(old) = seen.insert(b.key(), b) {
                assert_eq!(old, b);
            }
            let other = Board {
                black_to_move: !b.black_to_move,
                ..b
            };
            assert_ne!(b.key(), other.key());
        }
        assert!(seen.len() > 1000);
    }

    #[test]
    fn heuristic_values_stay_in_range() {
        for b in random_positions(9, 500, 30) {
            let g = Othello::from_board(b).with_heuristic();
            let v = g.evaluate(&b);
            assert!(v.abs() <= HEURISTIC_MAX || v % HEURISTIC_SCALE == 0, "{v}");
        }
    }
}
