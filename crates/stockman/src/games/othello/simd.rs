//! Flips and move generation four directions at a time, in the 256-bit
//! registers of AVX2, one direction per 64-bit lane, as dedicated endgame
//! solvers (Edax, Egaroucid) do. They serve the copy of the game's solver
//! that [`super::endgame::solve`] picks, and the move ordering of
//! [`super::Othello`]'s `moves` (through [`Kernel`]), when the processor has
//! AVX2 and the bit-manipulation instructions of its generation (Intel since
//! Haswell, 2013, AMD since Excavator, 2015; not every low-end model); other
//! processors run the scalar code of [`super::board`]. Each function computes
//! exactly what its scalar twin does: the tests compare `flips` with the
//! rules and `move_set` with the scalar code on random boards.

use super::board::{Kernel, NOT_EDGE_COLUMNS, RAYS};
use std::arch::x86_64::*;

/// The AVX2 code as a [`Kernel`]; only [`Avx2::detect`] makes one, on a
/// processor with AVX2 and the bit-manipulation instructions of the same
/// generation (`popcnt`, `bmi1`, `lzcnt`), which the code compiled for it uses.
#[derive(Clone, Copy)]
pub(super) struct Avx2(());

impl Avx2 {
    /// The kernel, if this processor can run it.
    #[inline]
    pub(super) fn detect() -> Option<Avx2> {
        use std::arch::is_x86_feature_detected as has;
        (has!("avx2") && has!("popcnt") && has!("bmi1") && has!("lzcnt")).then_some(Avx2(()))
    }
}

impl Kernel for Avx2 {
    #[inline(always)]
    fn flips(self, sq: u8, p: u64, o: u64) -> u64 {
        // SAFETY: an `Avx2` exists only where the processor has AVX2.
        unsafe { flips(sq, p, o) }
    }

    #[inline(always)]
    fn move_set(self, p: u64, o: u64) -> u64 {
        // SAFETY: as above.
        unsafe { move_set(p, o) }
    }
}

/// The OR of the four 64-bit lanes of `v`.
#[inline]
#[target_feature(enable = "avx2")]
fn or_lanes(v: __m256i) -> u64 {
    let x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let x = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
    _mm_cvtsi128_si64(x) as u64
}

/// One step along the lanes' directions: east (1), south (8), south-east
/// (9) and south-west (7) towards higher squares, the opposite four towards
/// lower ones; the order of rays 0-3 and 4-7 of [`RAYS`].
#[inline]
#[target_feature(enable = "avx2")]
fn steps() -> __m256i {
    _mm256_set_epi64x(7, 9, 8, 1)
}

/// [`super::board::flips`]: the opponent's discs that the player with discs
/// `p` flips by moving on the empty square `sq`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn flips(sq: u8, p: u64, o: u64) -> u64 {
    let rays = &RAYS[sq as usize];
    // SAFETY: a row of RAYS holds eight u64s: two unaligned loads of four.
    let (up, down) = unsafe {
        (
            _mm256_loadu_si256(rays.as_ptr().cast()),
            _mm256_loadu_si256(rays.as_ptr().add(4).cast()),
        )
    };
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    let zero = _mm256_setzero_si256();
    // Towards higher squares the first square of a ray that is not the
    // opponent's is the lowest set bit of `ray & !o`; the run before it
    // flips if that square is the player's.
    let stop = _mm256_andnot_si256(oo, up);
    let first = _mm256_and_si256(stop, _mm256_sub_epi64(zero, stop));
    let run = _mm256_and_si256(up, _mm256_add_epi64(first, _mm256_set1_epi64x(-1)));
    let missed = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
    let up_flips = _mm256_andnot_si256(missed, run);
    // Towards lower squares there is no lowest-bit trick: the stops are
    // smeared down the ray by doubling (a ray has at most 7 squares), which
    // marks the first stop and everything beyond it; the run is the rest of
    // the ray, and it flips if the square after it (on the ray) is the player's.
    let step = steps();
    let stop = _mm256_andnot_si256(oo, down);
    let mut smear = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, step));
    smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, _mm256_slli_epi64::<1>(step)));
    smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, _mm256_slli_epi64::<2>(step)));
    let run = _mm256_andnot_si256(smear, down);
    let after = _mm256_and_si256(_mm256_andnot_si256(run, _mm256_srlv_epi64(run, step)), down);
    let missed = _mm256_cmpeq_epi64(_mm256_and_si256(after, pp), zero);
    let down_flips = _mm256_andnot_si256(missed, run);
    or_lanes(_mm256_or_si256(up_flips, down_flips))
}

/// [`super::board::move_set`]: the legal moves of the player with discs `p`
/// against `o`, by the same doubling along the four lines, one per lane.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn move_set(p: u64, o: u64) -> u64 {
    let step = steps();
    let step2 = _mm256_slli_epi64::<1>(step);
    let pp = _mm256_set1_epi64x(p as i64);
    // The opponent's discs a run can hold: along a row or a diagonal not
    // those of the edge columns (a shift would wrap round from them).
    let inner = NOT_EDGE_COLUMNS as i64;
    let mo = _mm256_and_si256(_mm256_set1_epi64x(o as i64), _mm256_set_epi64x(inner, inner, -1, inner));
    let pre = _mm256_and_si256(mo, _mm256_sllv_epi64(mo, step));
    let mut l = _mm256_and_si256(mo, _mm256_sllv_epi64(pp, step));
    l = _mm256_or_si256(l, _mm256_and_si256(mo, _mm256_sllv_epi64(l, step)));
    l = _mm256_or_si256(l, _mm256_and_si256(pre, _mm256_sllv_epi64(l, step2)));
    l = _mm256_or_si256(l, _mm256_and_si256(pre, _mm256_sllv_epi64(l, step2)));
    let pre = _mm256_and_si256(mo, _mm256_srlv_epi64(mo, step));
    let mut r = _mm256_and_si256(mo, _mm256_srlv_epi64(pp, step));
    r = _mm256_or_si256(r, _mm256_and_si256(mo, _mm256_srlv_epi64(r, step)));
    r = _mm256_or_si256(r, _mm256_and_si256(pre, _mm256_srlv_epi64(r, step2)));
    r = _mm256_or_si256(r, _mm256_and_si256(pre, _mm256_srlv_epi64(r, step2)));
    let m = _mm256_or_si256(_mm256_sllv_epi64(l, step), _mm256_srlv_epi64(r, step));
    or_lanes(m) & !(p | o)
}
