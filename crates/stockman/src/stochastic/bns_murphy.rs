//! Best Node Search on stochastic trees: Rutko's loop with each
//! null-window test answered by Murphy Sampling's threshold test.
//! **A construction of ours**: the BNS literature names "tree searching
//! with Murphy Sampling" as its extension to random trees, and the Murphy
//! Sampling paper does not cite BNS; how a BNS round calls the test is not
//! published anywhere we could read.
//!
//! The bounds start at `[0, 1]` (means). A round picks `gamma`, the
//! midpoint of the bounds (Rutko's guess assumes whole values), and asks
//! of every candidate root move "is its value above `gamma`?" with the
//! test of [`murphy`](super::murphy) at that move's node. The moves that
//! answer "better" (above at a MAX root, below at a MIN root) stay
//! candidates and move the worse bound to `gamma`; if none does, the better
//! bound moves there. It stops with one candidate, or when the bounds are
//! within `epsilon`.
//!
//! # A threshold at a value (ours)
//! With no slack (`epsilon` 0, the default) a test whose threshold equals
//! the tested move's value never ends: neither answer can be shown. The
//! bisection's thresholds are 0.5, 0.25, 0.75, ..., just the values trees
//! are written with, and one near a value is almost as bad (samples grow
//! as `1 / gap^2`). So a test may draw at most a **cap** of samples: what
//! uniform sampling of its node's leaves needs to narrow every interval to
//! half the bounds plus the slack (`ThresholdTest::budget`), so that the
//! cap holds back only a test whose threshold is near the value (half the
//! bounds measured best of a quarter to a sixteenth on the trees of the
//! tests and the depth-three tree of `docs/experiments/stochastic.md`). A test
//! that reaches its cap answers nothing and gives up its round's try; the
//! round tries again, every candidate, at another threshold of the middle
//! third of the bounds: the one farthest from the thresholds given up and
//! from the candidates' values as their samples estimate them (without
//! estimates 1/3, then 2/3, 5/12, 7/12, ... of the way), with twice the
//! cap. The thresholds move away from the values that stopped them and
//! the caps grow, so some try ends: a round ends whenever Murphy's test
//! ends at a threshold that is not a value, which is the test's own
//! premise. Only the search's budget (`max_samples`) ends a search without
//! confidence. The first try of a round stays at the midpoint.
//!
//! # Why the answer is (epsilon, delta)-correct
//! Test `k` (tests given up included) runs at `delta_k = 6 delta / (pi^2
//! k^2)`, so all tests are right with probability at least `1 - delta`; a
//! test given up claims nothing. With a slack `eta = epsilon / 4`, a move
//! that stays is worth at least `gamma - eta` and one that leaves at most
//! `gamma + eta`, wherever `gamma` lies between the bounds (a test errs
//! only if a leaf's bound fails at some sample count, whatever the
//! threshold, so thresholds chosen from the samples keep this). Every candidate
//! is then worth at least `alpha`; a best move that is still a candidate is
//! worth at most `beta`, and one that left is worth at most `2 eta` more
//! than every candidate. So when one candidate remains, or the bounds are
//! within `epsilon`, every candidate is within `epsilon` of the best. A
//! round leaves at most two thirds of the bounds plus `eta`, so with
//! `epsilon > 0` they get within `3 eta < epsilon`. With `epsilon` 0 the
//! answer is the best move itself, and the search ends soon after the
//! bounds are narrower than the gap between the best two moves (every
//! other move then tests worse at any threshold, and the first threshold
//! below the best value leaves one candidate); only two equal best moves
//! keep it to its budget, as they keep every search. The
//! intervals hold at every sample count, so every test uses every sample
//! drawn before it. The move named is the candidate of highest lower bound
//! (from the root mover's side) over all samples: a leaf never sampled
//! counts as its worst, never as a mean of 0.5.
//!
//! # Complexity
//! About `log2(1 / epsilon)` rounds of one test per candidate (at most
//! `log_{3/2}` when retries move the thresholds); a test's samples grow as
//! `1 / gap^2` where `gap` is the distance from `gamma` to the value
//! tested, up to its cap; a round's retries cost at most as much again as
//! its last try, as the caps double.
//!
//! # Example
//! ```
//! use stockman::stochastic::{BernoulliTree, SampleOptions, Sampler};
//! use stockman::Role;
//! let tree = BernoulliTree::parse("[[0.2, 0.3], [0.7, 0.8], [0.4, 0.9]]", Role::Max).unwrap();
//! let out = Sampler::BnsMurphy.run(&tree, &SampleOptions::default()).unwrap();
//! assert_eq!(out.best_index, Some(1));
//! assert!(out.tests >= 3);
//! ```

use super::best_arm::Summary;
use super::murphy::{Counts, Question, ThresholdTest, Verdict};
use super::trace::{SampleEvent, SampleTrace};
use super::tree::BernoulliTree;
use super::{SampleOptions, SampleOutcome, Sampler};
use crate::value::Role;
use rand::Rng;
use std::f64::consts::PI;

pub(crate) fn search(
    tree: &BernoulliTree,
    opts: &SampleOptions,
    mut counts: Counts,
    rng: &mut impl Rng,
) -> SampleTrace {
    let moves: Vec<u32> = tree.children(0).collect();
    let (mut alpha, mut beta) = (0.0f64, 1.0f64);
    let better = match tree.root_role() {
        Role::Max => Verdict::Above,
        Role::Min => Verdict::Below,
    };
    let mut bns = Rounds {
        tree,
        opts,
        moves: &moves,
        better,
        eta: opts.epsilon / 4.0,
        tests: 0,
    };
    let mut candidates: Vec<usize> = (0..moves.len()).collect();
    let mut rounds = 0u64;
    let mut confident = true;
    while candidates.len() > 1 && beta - alpha > opts.epsilon {
        rounds += 1;
        let Some((gamma, kept)) = bns.round(&candidates, alpha, beta, &mut counts, rng) else {
            confident = false;
            break;
        };
        let raise = kept.is_empty() == (better == Verdict::Below);
        if raise {
            alpha = gamma - bns.eta;
        } else {
            beta = gamma + bns.eta;
        }
        if !kept.is_empty() {
            candidates = kept;
        }
        counts.note(|| SampleEvent::Pass {
            pass: rounds,
            gamma,
            candidates: candidates.clone(),
            lower: alpha.max(0.0),
            upper: beta.min(1.0),
        });
    }
    // Every candidate will do (when confident): the one the samples back most.
    let events = counts.trace.take().unwrap_or_default();
    let best = Summary::new(tree, opts, counts.clone()).surest(&candidates);
    SampleTrace {
        events,
        outcome: SampleOutcome {
            sampler: Sampler::BnsMurphy,
            best_index: best,
            verdict: None,
            samples: counts.samples,
            rounds,
            tests: bns.tests,
            confident,
            bound: Some((alpha.max(0.0), beta.min(1.0))),
            leaf_samples: counts.n,
        },
    }
}

/// What every round of one search shares.
struct Rounds<'a> {
    tree: &'a BernoulliTree,
    opts: &'a SampleOptions,
    moves: &'a [u32],
    better: Verdict,
    eta: f64,
    /// Tests run so far, given up ones included: the `k` of `delta_k`.
    tests: u64,
}

impl Rounds<'_> {
    /// One round: every candidate tested at one threshold. A test that
    /// reaches its cap gives the try up; the next try moves the threshold
    /// ([`threshold`]) and doubles the caps. Returns the threshold and the
    /// candidates that tested better, or `None` when the search's budget
    /// ran out.
    fn round(
        &mut self,
        candidates: &[usize],
        alpha: f64,
        beta: f64,
        counts: &mut Counts,
        rng: &mut impl Rng,
    ) -> Option<(f64, Vec<usize>)> {
        let width = beta - alpha;
        let mut given_up: Vec<f64> = Vec::new();
        loop {
            let at = if given_up.is_empty() {
                0.5
            } else {
                // Where the candidates' values seem to lie, as fractions.
                let seen: Vec<f64> = candidates
                    .iter()
                    .filter_map(|&a| estimate(self.tree, self.moves[a], counts))
                    .map(|v| (v - alpha) / width)
                    .collect();
                threshold(&given_up, &seen)
            };
            let gamma = alpha + width * at;
            // 2^tries, saturating: the caps double at every try.
            let factor = 1u64.checked_shl(given_up.len() as u32).unwrap_or(u64::MAX);
            let mut kept = Vec::new();
            let mut blocked = false;
            for &a in candidates {
                self.tests += 1;
                let q = Question {
                    gamma,
                    eta: self.eta,
                    delta: 6.0 * self.opts.delta / (PI * PI * (self.tests * self.tests) as f64),
                    ln_delta: 6.0f64.ln() + self.opts.delta.ln() - (PI * PI * (self.tests * self.tests) as f64).ln(),
                    rule: self.opts.rule,
                    interval: self.opts.interval,
                    rate: self.opts.rate,
                };
                let mut test = ThresholdTest::new(self.tree, self.moves[a], q, counts);
                let cap = test.budget(width / 2.0 + self.eta).saturating_mul(factor);
                let limit = self.opts.max_samples.min(counts.samples.saturating_add(cap));
                match test.run(self.tests, counts, limit, rng) {
                    Some(v) if v == self.better => kept.push(a),
                    Some(_) => {}
                    None if counts.samples >= self.opts.max_samples => return None,
                    None => {
                        blocked = true;
                        break;
                    }
                }
            }
            if !blocked {
                return Some((gamma, kept));
            }
            given_up.push(at);
        }
    }
}

/// Where a round's retry puts its threshold, as a fraction of the way
/// from `alpha` to `beta`: the point of the middle third farthest from
/// every fraction whose try was given up and from the candidates' values
/// as the samples estimate them (the lower on ties); without estimates
/// 1/3, 2/3, 5/12, 7/12, 3/8, ... A test is fast far from its value, and
/// staying in the middle third keeps a round's shrinking of the bounds to
/// two thirds.
fn threshold(given_up: &[f64], seen: &[f64]) -> f64 {
    const LOW: f64 = 1.0 / 3.0;
    const HIGH: f64 = 2.0 / 3.0;
    let mut marks: Vec<f64> = given_up.iter().chain(seen).copied().collect();
    marks.sort_by(f64::total_cmp);
    let room = |x: f64| marks.iter().map(|m| (x - m).abs()).fold(f64::INFINITY, f64::min);
    let mut options = vec![LOW, HIGH];
    options.extend(
        marks
            .windows(2)
            .map(|w| 0.5 * (w[0] + w[1]))
            .filter(|x| (LOW..=HIGH).contains(x)),
    );
    let mut best = (f64::NEG_INFINITY, HIGH);
    for x in options {
        let r = room(x);
        // Ties within rounding go to the lower point, as documented.
        if r > best.0 + 1e-12 || (r >= best.0 - 1e-12 && x < best.1) {
            best = (r, x);
        }
    }
    best.1
}

/// A node's value as its sampled leaves tell it (the minimax of their
/// empirical means), or `None` when no leaf below it decides it: a leaf
/// never sampled says nothing, rather than a mean of 0.5.
fn estimate(tree: &BernoulliTree, node: u32, counts: &Counts) -> Option<f64> {
    if let Some(l) = tree.leaf_of(node) {
        return (counts.n[l] > 0).then(|| counts.mean(l));
    }
    let max = tree.role(node) == Role::Max;
    tree.children(node)
        .filter_map(|c| estimate(tree, c, counts))
        .reduce(|a, b| if max { a.max(b) } else { a.min(b) })
}

#[cfg(test)]
mod tests {
    use super::threshold;

    /// The retries' thresholds spread over the middle third, each as far
    /// as it can be from those before it.
    #[test]
    fn retries_spread_over_the_middle_third() {
        let mut tried = vec![0.5];
        for _ in 0..5 {
            let next = threshold(&tried, &[]);
            tried.push(next);
        }
        // A value seen at 0.45 of the way moves the first retry up.
        assert_eq!(threshold(&[0.5], &[0.45]), 2.0 / 3.0);
        let want = [0.5, 1.0 / 3.0, 2.0 / 3.0, 5.0 / 12.0, 7.0 / 12.0, 3.0 / 8.0];
        for (got, want) in tried.iter().zip(want) {
            assert!((got - want).abs() < 1e-15, "{tried:?}");
        }
    }
}
