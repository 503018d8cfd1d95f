//! The heuristic at the horizon, and the order moves are searched in.

use super::board::{Board, Move, BOTTOM_ROW, TOP_ROW};
use crate::value::Value;

/// A man's worth.
pub const MAN: Value = 100;
/// A king's worth.
pub const KING: Value = 160;
/// Per man, per row it has advanced from its own back row.
pub const ADVANCE: Value = 3;
/// Per man still on its own back row (guarding the squares where the
/// opponent's men are crowned).
pub const BACK_RANK: Value = 8;
/// Per simple move available, the side to move's count minus the opponent's.
pub const MOBILITY: Value = 2;
/// Heuristic values lie in `-HEURISTIC_MAX..=HEURISTIC_MAX`, far below
/// every win score.
pub const HEURISTIC_MAX: Value = 50_000;

/// The squares of row `r` (0 at the top).
#[inline]
const fn row(r: u32) -> u32 {
    0xF << (4 * r)
}

/// How far the men of `men` have advanced, in rows, summed: Black's
/// forward is down (rows counted from the top), White's up.
fn advancement(men: u32, black: bool) -> Value {
    (0..8)
        .map(|r| {
            let n = (men & row(r)).count_ones() as Value;
            let ahead = if black { r } else { 7 - r };
            n * ahead as Value
        })
        .sum()
}

/// One side's static terms (material, advancement, back rank), from its view.
fn side_score(b: &Board, black: bool) -> Value {
    let (pieces, back) = if black {
        (b.black, TOP_ROW)
    } else {
        (b.white, BOTTOM_ROW)
    };
    let kings = pieces & b.kings;
    let men = pieces & !b.kings;
    MAN * men.count_ones() as Value
        + KING * kings.count_ones() as Value
        + ADVANCE * advancement(men, black)
        + BACK_RANK * (men & back).count_ones() as Value
}

/// The heuristic for the side to move at `b`:
/// `100 × men + 160 × kings + 3 × rows advanced by the men + 8 × men on
/// the own back row + 2 × simple moves`, each term the side to move's
/// minus the opponent's, clamped to [`HEURISTIC_MAX`].
pub(super) fn heuristic(b: &Board) -> Value {
    let me = b.black_to_move;
    let statics = side_score(b, me) - side_score(b, !me);
    let mobility = b.simple_moves(me) as Value - b.simple_moves(!me) as Value;
    (statics + MOBILITY * mobility).clamp(-HEURISTIC_MAX, HEURISTIC_MAX)
}

/// The search order of `b`'s moves (appended to `out`): captures taking
/// the most pieces first, then moves that crown, then the rest, each group
/// in generation order (square order, then direction).
pub(super) fn ordered_moves(b: &Board, out: &mut Vec<Move>) {
    let start = out.len();
    b.generate(out);
    out[start..].sort_by_key(|&m| {
        let crown = u32::from(b.crowns(m));
        (std::cmp::Reverse(m.captures().count_ones()), std::cmp::Reverse(crown))
    });
}
