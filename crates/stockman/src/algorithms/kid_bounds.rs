//! The bounds of a GSEARCH node's children as a segment tree, so that a step
//! costs `O(log w)` per node of its path instead of a scan of every child
//! (a root of 70,000 moves took over 30 s: issue 63).
//!
//! Each leaf is a child's `[lower, upper]` and whether the child is still
//! *in*: not yet found dead or solved. A child found dead stays dead (its
//! bounds are frozen, and the windows around it only narrow), so it leaves
//! the in-set for good, each child once, and what is in is live. Each inner
//! node sums its two halves: over all children, the largest lower bound and
//! the smallest upper bound with where they are (leftmost) and the runner-up
//! (a node's bounds and its children's windows: GSEARCH's `Brothers`),
//! and over the children in, the extremes of each bound and the narrowest
//! interval (which children died, and which holds the rule's tip).

use crate::value::Value;

/// One node of the tree: see the module's documentation.
#[derive(Clone, Copy, Debug)]
struct Sum {
    lo_best: Value,
    lo_at: u32,
    lo_second: Value,
    hi_best: Value,
    hi_at: u32,
    hi_second: Value,
    max_hi: Value,
    min_lo: Value,
    in_min_hi: Value,
    in_max_hi: Value,
    in_min_lo: Value,
    in_max_lo: Value,
    /// The narrowest `upper - lower` of a child in; `i64::MAX` when none is.
    in_gap: i64,
}

/// Nothing: the padding past the last child, and the sums' neutral element.
const EMPTY: Sum = Sum {
    lo_best: Value::MIN,
    lo_at: u32::MAX,
    lo_second: Value::MIN,
    hi_best: Value::MAX,
    hi_at: u32::MAX,
    hi_second: Value::MAX,
    max_hi: Value::MIN,
    min_lo: Value::MAX,
    in_min_hi: Value::MAX,
    in_max_hi: Value::MIN,
    in_min_lo: Value::MAX,
    in_max_lo: Value::MIN,
    in_gap: i64::MAX,
};

impl Sum {
    fn leaf(i: usize, lo: Value, hi: Value, is_in: bool) -> Sum {
        let mut s = Sum {
            lo_best: lo,
            lo_at: i as u32,
            lo_second: Value::MIN,
            hi_best: hi,
            hi_at: i as u32,
            hi_second: Value::MAX,
            max_hi: hi,
            min_lo: lo,
            ..EMPTY
        };
        if is_in {
            (s.in_min_hi, s.in_max_hi, s.in_min_lo, s.in_max_lo) = (hi, hi, lo, lo);
            s.in_gap = i64::from(hi) - i64::from(lo);
        }
        s
    }

    /// `l` and `r` side by side (`l` on the left wins ties, as a scan would).
    fn merge(l: &Sum, r: &Sum) -> Sum {
        let (lo_best, lo_at, lo_second) = if r.lo_best > l.lo_best {
            (r.lo_best, r.lo_at, l.lo_best.max(r.lo_second))
        } else {
            (l.lo_best, l.lo_at, l.lo_second.max(r.lo_best))
        };
        let (hi_best, hi_at, hi_second) = if r.hi_best < l.hi_best {
            (r.hi_best, r.hi_at, l.hi_best.min(r.hi_second))
        } else {
            (l.hi_best, l.hi_at, l.hi_second.min(r.hi_best))
        };
        Sum {
            lo_best,
            lo_at,
            lo_second,
            hi_best,
            hi_at,
            hi_second,
            max_hi: l.max_hi.max(r.max_hi),
            min_lo: l.min_lo.min(r.min_lo),
            in_min_hi: l.in_min_hi.min(r.in_min_hi),
            in_max_hi: l.in_max_hi.max(r.in_max_hi),
            in_min_lo: l.in_min_lo.min(r.in_min_lo),
            in_max_lo: l.in_max_lo.max(r.in_max_lo),
            in_gap: l.in_gap.min(r.in_gap),
        }
    }

    fn any_in(&self) -> bool {
        self.in_gap != i64::MAX
    }
}

/// The children's bounds of one expanded node (empty for a tip).
#[derive(Default, Debug)]
pub(crate) struct KidBounds {
    /// `sums[size + i]` is child `i`; `sums[k]` sums `sums[2k]` and `sums[2k + 1]`.
    sums: Vec<Sum>,
    /// Children found dead by a walk, with subtrees the next update drops
    /// (a walk frees nothing, so that RSEARCH's stored count, which decides
    /// its fallback, moves only where it always did).
    pub(crate) pending: Vec<u32>,
}

/// What the children of a node hold, from [`KidBounds::summary`].
pub(crate) struct Summary {
    /// The largest lower bound, its leftmost child and the largest of the others'.
    pub(crate) lo_best: (Value, usize, Value),
    /// The smallest upper bound, its leftmost child and the smallest of the others'.
    pub(crate) hi_best: (Value, usize, Value),
    pub(crate) max_hi: Value,
    pub(crate) min_lo: Value,
}

impl KidBounds {
    /// `n` children, each `[-inf, +inf]` and in.
    pub(crate) fn new(n: usize, lo: Value, hi: Value) -> KidBounds {
        let size = n.next_power_of_two();
        let mut sums = vec![EMPTY; 2 * size];
        for (i, s) in sums[size..size + n].iter_mut().enumerate() {
            *s = Sum::leaf(i, lo, hi, true);
        }
        for k in (1..size).rev() {
            sums[k] = Sum::merge(&sums[2 * k], &sums[2 * k + 1]);
        }
        KidBounds {
            sums,
            pending: Vec::new(),
        }
    }

    fn size(&self) -> usize {
        self.sums.len() / 2
    }

    /// Child `i`'s bounds and whether it is in.
    pub(crate) fn get(&self, i: usize) -> (Value, Value, bool) {
        let s = &self.sums[self.size() + i];
        (s.lo_best, s.hi_best, s.any_in())
    }

    fn put(&mut self, i: usize, lo: Value, hi: Value, is_in: bool) {
        let mut k = self.size() + i;
        self.sums[k] = Sum::leaf(i, lo, hi, is_in);
        k /= 2;
        while k >= 1 {
            self.sums[k] = Sum::merge(&self.sums[2 * k], &self.sums[2 * k + 1]);
            k /= 2;
        }
    }

    /// Child `i`'s new bounds.
    pub(crate) fn set(&mut self, i: usize, lo: Value, hi: Value) {
        let (_, _, is_in) = self.get(i);
        self.put(i, lo, hi, is_in);
    }

    /// Puts child `i` in or out.
    pub(crate) fn set_in(&mut self, i: usize, is_in: bool) {
        let (lo, hi, _) = self.get(i);
        self.put(i, lo, hi, is_in);
    }

    pub(crate) fn summary(&self) -> Summary {
        let s = &self.sums[1];
        Summary {
            lo_best: (s.lo_best, s.lo_at as usize, s.lo_second),
            hi_best: (s.hi_best, s.hi_at as usize, s.hi_second),
            max_hi: s.max_hi,
            min_lo: s.min_lo,
        }
    }

    /// The leftmost child in whose subtree's sum passes `pred` (which must
    /// hold of a sum exactly when it holds of one of its leaves).
    fn leftmost(&self, pred: impl Fn(&Sum) -> bool) -> Option<usize> {
        if !pred(&self.sums[1]) {
            return None;
        }
        let size = self.size();
        let mut k = 1;
        while k < size {
            k = if pred(&self.sums[2 * k]) { 2 * k } else { 2 * k + 1 };
        }
        Some(k - size)
    }

    /// The leftmost child in that is dead in the window `(a, b)`: its
    /// interval `[max(a, lower), min(b, upper)]` is empty or a point.
    pub(crate) fn first_dead(&self, a: Value, b: Value) -> Option<usize> {
        self.leftmost(|s| s.any_in() && (a >= b || s.in_min_hi <= a || s.in_max_lo >= b || s.in_gap <= 0))
    }

    /// The leftmost child in.
    pub(crate) fn first_in(&self) -> Option<usize> {
        self.leftmost(Sum::any_in)
    }

    /// The largest upper bound of a child in, and the smallest lower bound.
    pub(crate) fn in_extremes(&self) -> Option<(Value, Value)> {
        let s = &self.sums[1];
        s.any_in().then_some((s.in_max_hi, s.in_min_lo))
    }

    /// The leftmost child in whose upper bound is at least `t`.
    pub(crate) fn first_in_hi_at_least(&self, t: Value) -> Option<usize> {
        self.leftmost(|s| s.any_in() && s.in_max_hi >= t)
    }

    /// The leftmost child in whose lower bound is at most `t`.
    pub(crate) fn first_in_lo_at_most(&self, t: Value) -> Option<usize> {
        self.leftmost(|s| s.any_in() && s.in_min_lo <= t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_agree_with_a_scan() {
        let mut t = KidBounds::new(5, -10, 10);
        let bounds = [(1, 4), (3, 3), (-2, 7), (3, 9), (0, 1)];
        for (i, &(lo, hi)) in bounds.iter().enumerate() {
            t.set(i, lo, hi);
        }
        let s = t.summary();
        assert_eq!(
            (s.lo_best, s.hi_best, s.max_hi, s.min_lo),
            ((3, 1, 3), (1, 4, 3), 9, -2)
        );
        assert_eq!(t.first_dead(2, 8), Some(1));
        t.set_in(1, false);
        assert_eq!(t.first_dead(2, 8), Some(4));
        t.set_in(4, false);
        assert_eq!(t.first_dead(2, 8), None);
        assert_eq!(t.in_extremes(), Some((9, -2)));
        assert_eq!(t.first_in_hi_at_least(8), Some(3));
        assert_eq!(t.first_in_lo_at_most(1), Some(0));
        assert_eq!(t.first_in(), Some(0));
        assert_eq!(t.get(1), (3, 3, false));
    }
}
