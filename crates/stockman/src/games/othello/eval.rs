//! The heuristic and the static move order.

use super::board::{neighbours, Board, Kernel, CORNERS, EDGES};
use super::endgame::final_score;
use super::{HEURISTIC_SCALE, PASS};
use crate::value::Value;

/// The largest heuristic value, below [`HEURISTIC_SCALE`].
pub(super) const HEURISTIC_MAX: Value = HEURISTIC_SCALE - 1;

/// Static move preference, lower first: corners, then the A- and B-squares
/// of the edges and the centre, C-squares, and X-squares last.
pub(super) const SQUARE_RANK: [u8; 64] = {
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

impl Board {
    /// The best heuristic value the side to move can reach with one move:
    /// the opponent's heuristic after each of its moves, negated (a final
    /// score × [`HEURISTIC_SCALE`] when the game is over). Always inlined,
    /// so that it takes its caller's processor features.
    #[inline(always)]
    pub(super) fn best_reply<K: Kernel>(&self, k: K) -> i32 {
        let (p, o) = (self.player, self.opponent);
        let mut set = k.move_set(p, o);
        if set == 0 {
            let theirs = k.move_set(o, p);
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
            let f = k.flips(sq, p, o);
            let c = Board {
                player: o ^ f,
                opponent: p | f | (1 << sq),
                black_to_move: !self.black_to_move,
            };
            let v = -c.heuristic(k.move_set(c.player, c.opponent), k.move_set(c.opponent, c.player));
            best = best.max(v);
        }
        best
    }

    /// The heuristic value for the side to move, in `-999..=999`.
    #[inline(always)]
    pub(super) fn heuristic(&self, mine: u64, theirs: u64) -> Value {
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
