//! The endgame: stable discs, final scores, and the exact solver of the
//! last empty squares.

use super::board::{
    flips, move_set, weighted_mobility, Board, COLUMN_A, COLUMN_H, EDGES, NEIGHBOURS, NOT_A, NOT_H, QUADRANTS, RAYS,
    ROW_1, ROW_8,
};
use super::SOLVE_EMPTIES;

/// What the board asks of the endgame solver.
impl Board {
    /// The stable discs of the side to move and of the opponent.
    pub fn stable(&self) -> (u64, u64) {
        let occ = self.player | self.opponent;
        (stable_discs(self.player, occ), stable_discs(self.opponent, occ))
    }

    /// The exact final score for the side to move, fail-soft within the
    /// window `(alpha, beta)` of scores, if at most [`SOLVE_EMPTIES`]
    /// squares are empty (the game solves such positions itself).
    #[inline]
    pub(super) fn solved(&self, alpha: i32, beta: i32) -> Option<i32> {
        let (p, o) = (self.player, self.opponent);
        let empty = !(p | o);
        match empty.count_ones() {
            0 | 1 => Some(last_square(p, o, empty)),
            n if n <= SOLVE_EMPTIES => Some(solve(p, o, alpha, beta, false)),
            _ => None,
        }
    }
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
pub(super) fn stable_discs(me: u64, occ: u64) -> u64 {
    let full_h = full_line(occ, 1, &OFF_H);
    let full_v = full_line(occ, 8, &OFF_V);
    let full_d9 = full_line(occ, 9, &OFF_D9);
    let full_d7 = full_line(occ, 7, &OFF_D7);
    if me & (EDGES | (full_h & full_v & full_d9 & full_d7)) == 0 {
        // The fixed point grows from the edge and from discs whose four
        // lines are full: with neither it is empty.
        return 0;
    }
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
pub(super) fn final_score(p: u64, o: u64) -> i32 {
    let (np, no) = (p.count_ones() as i32, o.count_ones() as i32);
    let empties = 64 - np - no;
    match np.cmp(&no) {
        std::cmp::Ordering::Greater => np - no + empties,
        std::cmp::Ordering::Less => np - no - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// Above this many empty squares the game's solver lists and sorts its
/// moves (fastest first); at this many or fewer it tries the empty squares
/// in parity order without a move list, which costs less than sorting
/// where few moves are left.
pub(super) const PARITY_EMPTIES: u32 = 5;

/// The exact final score, within the window `(alpha, beta)` (fail-soft),
/// for the player with discs `p` against `o` to move: the game's own
/// solver of the last empty squares, at most [`SOLVE_EMPTIES`] of them
/// (its move lists hold no more). `passed`: the opponent just passed.
#[inline]
pub(super) fn solve(p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
    let n = (!(p | o)).count_ones();
    debug_assert!(
        n <= SOLVE_EMPTIES,
        "the solver takes at most {SOLVE_EMPTIES} empty squares"
    );
    #[cfg(target_arch = "x86_64")]
    {
        if super::simd::Avx2::detect().is_some() {
            // SAFETY: the processor has these instructions, checked just above.
            return unsafe { avx2::solve_n(p, o, alpha, beta, passed, n) };
        }
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has the instruction, checked just above.
            return unsafe { popcnt::solve_n(p, o, alpha, beta, passed, n) };
        }
    }
    portable::solve_n(p, o, alpha, beta, passed, n)
}

/// The solver looks for a stability cut-off only when `alpha` is at least
/// this: below it a cut needs 29 or more stable discs of the opponent,
/// which almost never happens, so counting them is mostly wasted work
/// (FFO #41 and #46 about 5% faster with the gate, in interleaved runs).
const STABILITY_ALPHA: i32 = 8;

/// The stability cut-off of the solver: the opponent keeps its stable
/// discs, so the score of the player with discs `p` is at most 64 - 2 x
/// their number; `Some` of that bound when it is at most `alpha` (checked
/// only from [`STABILITY_ALPHA`] on, and only when all the opponent's discs
/// could be stable enough). Always inlined, so that it takes its caller's
/// processor features.
#[inline(always)]
fn stability_cut(p: u64, o: u64, alpha: i32) -> Option<i32> {
    if alpha >= STABILITY_ALPHA && alpha >= 64 - 2 * o.count_ones() as i32 {
        let hi = 64 - 2 * stable_discs(o, p | o).count_ones() as i32;
        if hi <= alpha {
            return Some(hi);
        }
    }
    None
}

/// The quadrant of each square as a bit (`1 << index` in [`QUADRANTS`]).
const QUADRANT_BIT: [u8; 64] = {
    let mut q = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        q[sq] = 1 << (2 * (sq / 32) + (sq % 8) / 4);
        sq += 1;
    }
    q
};

/// For each set of quadrants (bits as in [`QUADRANT_BIT`]), their squares.
const PARITY_SQUARES: [u64; 16] = {
    let mut m = [0u64; 16];
    let mut set = 0;
    while set < 16 {
        let mut i = 0;
        while i < 4 {
            if set >> i & 1 == 1 {
                m[set] |= QUADRANTS[i];
            }
            i += 1;
        }
        set += 1;
    }
    m
};

/// The squares of the quadrants with an odd number of the squares `empty`
/// (parity: moving there first keeps the last move of the region).
#[inline]
pub(super) fn odd_quadrants(empty: u64) -> u64 {
    PARITY_SQUARES[parity_of(empty) as usize]
}

/// The quadrants with an odd number of the squares `empty`, as bits.
#[inline]
fn parity_of(empty: u64) -> u8 {
    let mut parity = 0;
    for (i, q) in QUADRANTS.iter().enumerate() {
        parity |= (((empty & q).count_ones() & 1) as u8) << i;
    }
    parity
}

/// The move loop of the parity layer, shared by its three functions: the
/// empty squares of odd quadrants first, then the others, each in square
/// order (two classes only: putting the C- and X-squares last within each,
/// as a third and fourth class, saved 2% of the instructions but cost 5% of
/// the time in mispredicted loop exits), each legal move searched by
/// `$child` (given the child's discs, its empty squares and parity, and its
/// window); a cut-off ends the loop with its score, else it evaluates to the best score, or,
/// with no legal move, to the final score if the opponent just passed
/// (`$passed`) and else to the opponent's score after a pass (`$pass`).
macro_rules! parity_moves {
    ($p:expr, $o:expr, $empty:expr, $alpha:expr, $beta:expr, $parity:expr, $passed:expr,
     |$np:ident, $no:ident, $rest:ident, $child_parity:ident, $a:ident, $b:ident| $child:expr,
     pass: $pass:expr) => {
        'moves: {
            let (p, o, empty, alpha, beta, parity): (u64, u64, u64, i32, i32, u8) =
                ($p, $o, $empty, $alpha, $beta, $parity);
            let mut best = -65;
            let odd = PARITY_SQUARES[parity as usize];
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
                    let ($np, $no, $rest, $child_parity, $a, $b) = (
                        o ^ f,
                        p | f | (1 << sq),
                        empty ^ (1 << sq),
                        parity ^ QUADRANT_BIT[sq as usize],
                        -beta,
                        -alpha.max(best),
                    );
                    let v = -$child;
                    if v > best {
                        best = v;
                        if v >= beta {
                            // A cut-off.
                            break 'moves v;
                        }
                    }
                }
            }
            if best > -65 {
                best
            } else if $passed {
                // Neither side can move: the game is over.
                final_score(p, o)
            } else {
                -$pass
            }
        }
    };
}

/// The score of a position with the two empty squares `empty` for the
/// player with discs `p` against `o`, fail-soft at `beta` (each move leaves
/// the other square alone, scored by counting), or `$pass` when the player
/// has no move; an expression (no `return`), so that `solve_two` and the
/// moves of `solve_three` and `solve_four` share it without a call.
macro_rules! two_squares {
    ($p:expr, $o:expr, $empty:expr, $beta:expr, $pass:expr) => {{
        let (p, o, empty, beta): (u64, u64, u64, i32) = ($p, $o, $empty, $beta);
        let x1 = empty & empty.wrapping_neg();
        let x2 = empty ^ x1;
        let (s1, s2) = ((x1.trailing_zeros() & 63) as u8, (x2.trailing_zeros() & 63) as u8);
        let mut best = -65;
        if NEIGHBOURS[s1 as usize] & o != 0 {
            let f = flips(s1, p, o);
            if f != 0 {
                best = -last_square_within(o ^ f, p | f | x1, x2, -beta);
            }
        }
        if best < beta && NEIGHBOURS[s2 as usize] & o != 0 {
            let f = flips(s2, p, o);
            if f != 0 {
                best = best.max(-last_square_within(o ^ f, p | f | x2, x1, -beta));
            }
        }
        if best > -65 {
            best
        } else {
            $pass
        }
    }};
}

/// `solve_three`'s body as an expression: its parity loop, each move
/// scored by `two_squares!` in place, so that `solve_four` can write it out
/// inside its own loop instead of calling it. Used inside `solver!` only
/// (it names that module's `solve_two` and `solve_three`).
macro_rules! three_squares {
    ($p:expr, $o:expr, $empty:expr, $alpha:expr, $beta:expr, $passed:expr, $parity:expr) => {{
        let (p3, o3, empty3, alpha3, beta3, parity3): (u64, u64, u64, i32, i32, u8) =
            ($p, $o, $empty, $alpha, $beta, $parity);
        parity_moves!(p3, o3, empty3, alpha3, beta3, parity3, $passed, |np, no, rest, _child_parity, a, b| {
            two_squares!(np, no, rest, b, -solve_two(no, np, rest, -b, -a, true))
        }, pass: solve_three(o3, p3, empty3, -beta3, -alpha3, true, parity3))
    }};
}

/// The game's solver of the last empty squares, defined once and compiled
/// three times: for any processor, with the `popcnt` instruction, and with
/// AVX2 flips and move generation; [`solve`] picks the best one the
/// processor has at run time. Counting discs and moves is about a tenth of
/// the solver's work, and without the instruction each count takes a dozen
/// instructions; flips are a third of it.
macro_rules! solver {
    ($(#[$attr:meta])*) => {
        /// [`solve`] with `n` empty squares.
        $(#[$attr])*
        #[inline]
        pub(super) fn solve_n(p: u64, o: u64, alpha: i32, beta: i32, passed: bool, n: u32) -> i32 {
            if n <= PARITY_EMPTIES {
                solve_parity(p, o, alpha, beta, passed, n, parity_of(!(p | o)))
            } else {
                solve_sorted(p, o, alpha, beta, passed, n)
            }
        }

        /// [`solve`] above [`PARITY_EMPTIES`]: the legal moves sorted fastest first
        /// (the fewest replies for the opponent, a corner reply counting double),
        /// ties to moves into a region with an odd number of empty squares, and a
        /// stability cut-off when the opponent's stable discs already cap the
        /// score at `alpha`.
        $(#[$attr])*
        pub(super) fn solve_sorted(p: u64, o: u64, alpha: i32, beta: i32, passed: bool, empties: u32) -> i32 {
            solve_moves(p, o, move_set(p, o), alpha, beta, passed, empties, parity_of(!(p | o)))
        }

        /// [`solve_sorted`] given the legal moves `set` and the `parity` of the
        /// empty squares: a parent computes the moves anyway to sort its own
        /// (its child's replies), and keeps the parity move by move, so it
        /// passes both on.
        $(#[$attr])*
        #[allow(clippy::too_many_arguments)]
        fn solve_moves(p: u64, o: u64, mut set: u64, alpha: i32, beta: i32, passed: bool, empties: u32, parity: u8) -> i32 {
            if set == 0 {
                return if passed {
                    final_score(p, o)
                } else {
                    -solve_moves(o, p, move_set(o, p), -beta, -alpha, true, empties, parity)
                };
            }
            if let Some(hi) = stability_cut(p, o, alpha) {
                return hi;
            }
            let odd = PARITY_SQUARES[parity as usize];
            // Each move's key (fewest replies first, then odd regions; the
            // move's index, in square order, in the low bits, so that keys
            // are distinct and equal ones keep square order), its flips and
            // its replies. A move fills an empty square, so there are at most
            // as many moves as the solver has empty squares.
            const N: usize = SOLVE_EMPTIES as usize;
            // The index takes the key's low 4 bits.
            const _: () = assert!(N <= 16, "a move's index must fit in 4 bits");
            let (mut keys, mut squares, mut flipped, mut answers) = ([u32::MAX; N], [0u8; N], [0u64; N], [0u64; N]);
            let mut n = 0;
            while set != 0 {
                let sq = set.trailing_zeros() as u8;
                set &= set - 1;
                let f = flips(sq, p, o);
                let np = p | f | (1 << sq);
                let replies = move_set(o ^ f, np);
                let mut key = 4 * weighted_mobility(replies);
                if odd >> sq & 1 == 0 {
                    key += 2;
                }
                keys[n] = key << 4 | n as u32;
                (squares[n], flipped[n], answers[n]) = (sq, f, replies);
                n += 1;
            }
            let mut best = -65;
            // The moves by increasing key, each found when it is needed (a
            // scan for the least key, without branches): most nodes that cut
            // off do so on their first move and never sort the rest.
            for _ in 0..n {
                let least = keys.iter().copied().min().unwrap_or(u32::MAX);
                let i = (least & 15) as usize;
                keys[i] = u32::MAX;
                let (sq, f, replies) = (squares[i], flipped[i], answers[i]);
                let (cp, co) = (o ^ f, p | f | (1 << sq));
                let a = -beta;
                let b = -alpha.max(best);
                let v = if empties - 1 > PARITY_EMPTIES {
                    -solve_moves(cp, co, replies, a, b, false, empties - 1, parity ^ QUADRANT_BIT[sq as usize])
                } else {
                    -solve_parity(cp, co, a, b, false, empties - 1, parity ^ QUADRANT_BIT[sq as usize])
                };
                if v > best {
                    best = v;
                    if v >= beta {
                        return v;
                    }
                }
            }
            best
        }

        /// [`solve`] at [`PARITY_EMPTIES`] or fewer: a plain alpha-beta over the
        /// `n` empty squares, those of quadrants with an odd count (`parity`, kept
        /// up to date move by move instead of counted again) first, without a
        /// move list, which costs less than sorting where few moves are left.
        /// At five empty squares it first tries the stability cut-off, as the
        /// sorted layer does (FFO #48 10% faster; at four it does not pay).
        $(#[$attr])*
        pub(super) fn solve_parity(p: u64, o: u64, alpha: i32, beta: i32, passed: bool, n: u32, parity: u8) -> i32 {
            let empty = !(p | o);
            if n <= 1 {
                return last_square_within(p, o, empty, alpha);
            }
            if n == 2 {
                return solve_two(p, o, empty, alpha, beta, passed);
            }
            if n == 3 {
                return solve_three(p, o, empty, alpha, beta, passed, parity);
            }
            if n == 4 {
                return solve_four(p, o, empty, alpha, beta, passed, parity);
            }
            if let Some(hi) = stability_cut(p, o, alpha) {
                return hi;
            }
            // Parity: the empty squares of regions with an odd count first.
            parity_moves!(p, o, empty, alpha, beta, parity, passed, |np, no, rest, child_parity, a, b| if n == 5 {
                // Four squares left: straight to their solver.
                solve_four(np, no, rest, a, b, false, child_parity)
            } else {
                solve_parity(np, no, a, b, false, n - 1, child_parity)
            }, pass: solve_parity(o, p, -beta, -alpha, true, n, parity))
        }

        /// [`solve_parity`] with four empty squares: the moves of the three
        /// squares left and then of the two are written out inside its own
        /// (the loops of [`solve_three`] and of `two_squares!`), so that the
        /// most numerous positions of the solver cost no call (a tenth fewer
        /// instructions on FFO #40).
        $(#[$attr])*
        pub(super) fn solve_four(p: u64, o: u64, empty: u64, alpha: i32, beta: i32, passed: bool, parity: u8) -> i32 {
            parity_moves!(p, o, empty, alpha, beta, parity, passed, |np, no, rest, child_parity, a, b| {
                three_squares!(np, no, rest, a, b, false, child_parity)
            }, pass: solve_four(o, p, empty, -beta, -alpha, true, parity))
        }

        /// [`solve_parity`] with three empty squares (`empty`), in parity
        /// order, each move scored by `two_squares!` in place: a function of
        /// its own, not a level of the recursion, which saves the general
        /// layer's entry and exit on the most numerous of its positions.
        $(#[$attr])*
        pub(super) fn solve_three(p: u64, o: u64, empty: u64, alpha: i32, beta: i32, passed: bool, parity: u8) -> i32 {
            three_squares!(p, o, empty, alpha, beta, passed, parity)
        }

        /// [`solve_parity`] with two empty squares (`empty`): each move leads to a
        /// position with one square left, scored directly.
        $(#[$attr])*
        #[inline]
        pub(super) fn solve_two(p: u64, o: u64, empty: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
            two_squares!(p, o, empty, beta, if passed {
                final_score(p, o)
            } else {
                -solve_two(o, p, empty, -beta, -alpha, true)
            })
        }
    };
}

/// The solver for any processor.
mod portable {
    use super::*;
    solver!();
}

/// The solver with the `popcnt` instruction (x86-64 processors since 2008).
#[cfg(target_arch = "x86_64")]
mod popcnt {
    use super::*;
    solver!(#[target_feature(enable = "popcnt")]);
}

/// The solver with AVX2 flips and move generation (four directions at a
/// time, [`super::simd`]) and the bit-manipulation instructions of the same
/// processors (Intel since Haswell, 2013, AMD since Excavator, 2015; not
/// every low-end model).
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::simd::{flips, move_set};
    use super::*;
    solver!(#[target_feature(enable = "avx2,popcnt,bmi1,lzcnt")]);
}

/// [`solve`] by the solver for any processor, whatever this one has (tests
/// compare it with the one [`solve`] picks).
#[cfg(test)]
pub(super) fn solve_portable(p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
    portable::solve_n(p, o, alpha, beta, passed, (!(p | o)).count_ones())
}

/// [`solve`] by the `popcnt` copy, if the processor has the instruction
/// (tests compare every copy this processor can run).
#[cfg(test)]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
pub(super) fn solve_popcnt(p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> Option<i32> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has the instruction, checked just above.
        return Some(unsafe { popcnt::solve_n(p, o, alpha, beta, passed, (!(p | o)).count_ones()) });
    }
    None
}

/// [`solve`] by the parity layer alone, whatever the empty squares (tests
/// compare both layers with minimax).
#[cfg(test)]
pub(super) fn solve_small(p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
    let empty = !(p | o);
    portable::solve_parity(p, o, alpha, beta, passed, empty.count_ones(), parity_of(empty))
}

/// For a square at position `pos` (0-7) of a full line, and the discs
/// `line` of the player on that line (bit `k` for position `k`, the square
/// itself empty), how many discs the player flips on the line by moving
/// there: every other square of the line is taken, so the opponent holds
/// exactly the ones the player does not, and the count depends on `line`
/// alone. Positions past the end of a short diagonal read as the
/// opponent's, which is safe: a run that reaches them finds no disc of the
/// player beyond and flips nothing.
const LAST_FLIPS: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut n = 0;
            // Towards higher positions, then lower ones.
            let mut k = pos + 1;
            while k < 8 && line >> k & 1 == 0 {
                k += 1;
            }
            if k < 8 {
                n += k - pos - 1;
            }
            let mut k = pos as i32 - 1;
            while k >= 0 && line >> k & 1 == 0 {
                k -= 1;
            }
            if k >= 0 {
                n += pos - k as usize - 1;
            }
            t[pos][line] = n as u8;
            line += 1;
        }
        pos += 1;
    }
    t
};

/// The two diagonals through each square (`[a1-h8 direction, a8-h1
/// direction]`), from the board's rays (the square itself left out: it is
/// the empty one).
const DIAGONALS: [[u64; 2]; 64] = {
    let mut d = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        d[sq] = [RAYS[sq][2] | RAYS[sq][6], RAYS[sq][3] | RAYS[sq][7]];
        sq += 1;
    }
    d
};

/// How many discs the player with discs `p` flips by moving on `sq`, the
/// only empty square of the board (0: the move is illegal). Counted by
/// lookup along the four lines through the square instead of computing
/// the flipped discs, as dedicated endgame solvers do for the last move:
/// each line is gathered into a byte (a row by a shift, a column and the
/// diagonals by a multiplication that lines their squares up in the top
/// byte without carries, since they hold at most one square per column
/// or per row).
#[inline(always)]
pub(super) fn last_flip_count(sq: u8, p: u64) -> u32 {
    let (r, c) = ((sq / 8) as usize, (sq % 8) as usize);
    let row = (p >> (8 * r)) as u8;
    let column = (((p >> c) & COLUMN_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    let [d9, d7] = DIAGONALS[sq as usize];
    let diag9 = ((p & d9).wrapping_mul(COLUMN_A) >> 56) as u8;
    let diag7 = ((p & d7).wrapping_mul(COLUMN_A) >> 56) as u8;
    u32::from(LAST_FLIPS[c][row as usize])
        + u32::from(LAST_FLIPS[r][column as usize])
        + u32::from(LAST_FLIPS[c][diag9 as usize])
        + u32::from(LAST_FLIPS[c][diag7 as usize])
}

/// The final score for the player with discs `p` against `o` to move
/// when at most the one square `empty` is left: the player takes it if it
/// can, else the opponent does, else nobody. Always inlined, so that it
/// takes its caller's processor features.
#[inline(always)]
pub(super) fn last_square(p: u64, o: u64, empty: u64) -> i32 {
    // Below -64 no score is cut: the opponent's flips are always counted.
    last_square_within(p, o, empty, -65)
}

/// [`last_square`], fail-soft below `alpha`: when the player cannot take
/// the square, the score is at most what it is if nobody can (the
/// opponent's flips only lower it), so the opponent's flips are counted
/// only when that bound lies above `alpha` (as Edax's last-move code does).
#[inline(always)]
pub(super) fn last_square_within(p: u64, o: u64, empty: u64, alpha: i32) -> i32 {
    if empty == 0 {
        return final_score(p, o);
    }
    let sq = empty.trailing_zeros() as u8;
    let mine = p.count_ones() as i32;
    let n = last_flip_count(sq, p) as i32;
    if n != 0 {
        // The board is full: the score is the disc difference.
        return 2 * (mine + n + 1) - 64;
    }
    // Nobody moves (rare): the square goes to the one with more of the 63 discs.
    let nobody = if mine >= 32 { 2 * mine - 62 } else { 2 * mine - 64 };
    if nobody <= alpha {
        return nobody;
    }
    let n = last_flip_count(sq, o) as i32;
    if n != 0 {
        return 2 * (mine - n) - 64;
    }
    nobody
}
