//! Which of a dual pair runs: SSS\* or Dual\*, RecSSS\* or RecDual\*. The
//! two engines behind them ([`super::best_first`], [`super::recursive`])
//! are written once, and read the direction of their bounds from here.

use crate::value::{Role, Value, INF};

/// Which of the two dual algorithms runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Polarity {
    /// SSS\* and RecSSS\*: upper bounds, highest merit first; MAX nodes
    /// expand all their children (RecSSS\*: own the OPEN arrays).
    Sss,
    /// Dual\* and RecDual\*: lower bounds, lowest merit first; MIN nodes
    /// expand all their children (RecDual\*: own the OPEN arrays).
    Dual,
}

impl Polarity {
    /// The expanding role: the role whose LIVE nodes are replaced by all
    /// their children, and whose SOLVED child solves it at once (case 4).
    #[inline]
    pub(crate) fn expanding(self) -> Role {
        match self {
            Polarity::Sss => Role::Max,
            Polarity::Dual => Role::Min,
        }
    }

    /// Whether merit `a` comes before merit `b` (strictly).
    #[inline]
    pub(crate) fn before(self, a: Value, b: Value) -> bool {
        match self {
            Polarity::Sss => a > b,
            Polarity::Dual => a < b,
        }
    }

    /// The OPEN-list key of merit `h`: smaller keys come first.
    #[inline]
    pub(crate) fn key(self, h: Value) -> Value {
        match self {
            Polarity::Sss => -h,
            Polarity::Dual => h,
        }
    }

    /// Case 1: a leaf's merit from its bound and its value.
    #[inline]
    pub(crate) fn clip(self, h: Value, v: Value) -> Value {
        match self {
            Polarity::Sss => h.min(v),
            Polarity::Dual => h.max(v),
        }
    }

    /// The root's first merit: no bound yet.
    #[inline]
    pub(crate) fn start(self) -> Value {
        match self {
            Polarity::Sss => INF,
            Polarity::Dual => -INF,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two polarities mirror each other: keys order merits best
    /// first, `before` agrees with the keys, and a clip never improves a
    /// bound.
    #[test]
    fn the_polarities_mirror_each_other() {
        for p in [Polarity::Sss, Polarity::Dual] {
            for (a, b) in [(3, 5), (5, 3), (-2, -2), (0, 7)] {
                assert_eq!(p.before(a, b), p.key(a) < p.key(b), "{p:?} {a} {b}");
                let c = p.clip(a, b);
                assert!(c == a || !p.before(c, a), "{p:?} {a} {b}");
            }
            assert!(p.before(p.start(), 0), "{p:?}");
        }
        assert_eq!(Polarity::Sss.expanding(), Role::Max);
        assert_eq!(Polarity::Dual.expanding(), Role::Min);
        assert_eq!(Polarity::Sss.start(), -Polarity::Dual.start());
    }
}
