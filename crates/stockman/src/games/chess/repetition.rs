//! Repetitions: the keys of the game and of the search path, and the
//! repetition test inside the search.

use super::{ChessGame, ChessPosition, PATH_MEMORY};
use cozy_chess::Board;

/// Mixes a small number into a hash (splitmix64's finaliser).
#[inline]
pub(super) fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The root's board and the history before it in one word (each history
/// position with its distance from the root).
pub(super) fn game_key(root: &Board, history: &[u64]) -> u64 {
    let n = history.len();
    history
        .iter()
        .enumerate()
        .fold(mix(root.hash() ^ 0xA076_1D64_78BD_642F), |k, (i, &h)| {
            k ^ mix(h ^ ((n - i) as u64).wrapping_mul(0xE703_7ED1_A0B4_28DB))
        })
}

impl ChessGame {
    /// What the value of `pos` depends on besides its board, its ply and
    /// the game: the positions of its search path after the root that a
    /// line below it could repeat (those since the last capture or pawn
    /// move, within the path memory), each with its distance.
    #[inline]
    pub(super) fn path_key(pos: &ChessPosition) -> u64 {
        let ply = pos.ply as usize;
        let window = usize::from(pos.board.halfmove_clock())
            .min(ply.saturating_sub(1))
            .min(PATH_MEMORY);
        let mut key = 0;
        for d in 1..=window {
            let seen = pos.path[(ply - d) % PATH_MEMORY];
            key ^= mix(seen ^ (d as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        }
        key
    }

    /// Whether `pos`, inside the search, is drawn by repetition: with the
    /// same side to move and only reversible moves since (the halfmove
    /// clock covers it), its board occurred at a position of the search
    /// path after the root, or twice at the root or in the game's history
    /// before it. Never at the root itself; positions of the path more
    /// than [`PATH_MEMORY`] plies back (after the root) are not seen.
    #[inline]
    pub(super) fn repeats(&self, pos: &ChessPosition) -> bool {
        let ply = pos.ply as usize;
        let reach = usize::from(pos.board.halfmove_clock()).min(ply + self.history.len());
        // One move of each side cannot bring a position back: 4 plies at least.
        if ply == 0 || reach < 4 {
            return false;
        }
        let h = pos.board.hash();
        let mut before_root = 0;
        let mut j = 4;
        while j <= reach {
            if j < ply {
                // On the search path, after the root.
                if j > PATH_MEMORY {
                    // Out of memory: go on with the root and the history.
                    j = ply + (ply - j) % 2;
                    continue;
                }
                if pos.path[(ply - j) % PATH_MEMORY] == h {
                    return true;
                }
            } else {
                let seen = if j == ply {
                    self.root.hash()
                } else {
                    self.history[self.history.len() - (j - ply)]
                };
                if seen == h {
                    before_root += 1;
                    if before_root == 2 {
                        return true;
                    }
                }
            }
            j += 2;
        }
        false
    }
}
