//! What LUCB-MCTS, UGapE-MCTS and uniform sampling share (Kaufmann and
//! Koolen 2017): leaf intervals summarised upwards into intervals on every
//! node's value, a representative leaf below every node, and a best-arm
//! identification step among the root's moves.
//!
//! A MAX node's interval is `[max L_c, max U_c]` and its representative
//! child the one of largest `U_c`; a MIN node's is `[min L_c, min U_c]`
//! with the child of smallest `L_c` (leftmost on ties). When every leaf's
//! interval holds, so does every node's: max and min are monotone.

use super::confidence::{Interval, Rate};
use super::murphy::Counts;
use super::trace::{Arm, SampleEvent, SampleTrace};
use super::tree::BernoulliTree;
use super::{SampleOptions, SampleOutcome, Sampler};
use crate::value::Role;
use rand::Rng;

/// Sample counts, intervals and representatives of a whole tree.
pub(crate) struct Summary<'t> {
    pub(crate) tree: &'t BernoulliTree,
    /// Every leaf's samples.
    counts: Counts,
    /// Per node: interval, empirical minimax value, representative child.
    lo: Vec<f64>,
    hi: Vec<f64>,
    emp: Vec<f64>,
    rep: Vec<u32>,
    rate: Rate,
    interval: Interval,
    /// `ln(delta)`: the levels are computed in log space.
    ln_delta: f64,
}

impl<'t> Summary<'t> {
    pub(crate) fn new(tree: &'t BernoulliTree, opts: &SampleOptions, counts: Counts) -> Summary<'t> {
        let len = tree.len();
        let mut s = Summary {
            tree,
            counts,
            lo: vec![0.0; len],
            hi: vec![1.0; len],
            emp: vec![0.5; len],
            rep: vec![0; len],
            rate: opts.rate,
            interval: opts.interval,
            ln_delta: opts.delta.ln(),
        };
        for node in (0..len as u32).rev() {
            s.refresh(node);
        }
        s
    }

    /// Samples leaf `leaf` once and brings its ancestors' intervals up to date.
    pub(crate) fn sample(&mut self, leaf: usize, rng: &mut impl Rng) {
        self.counts.draw(self.tree, leaf, rng);
        let mut node = self.tree.leaf_node(leaf);
        loop {
            self.refresh(node);
            if node == 0 {
                break;
            }
            node = self.tree.parent(node);
        }
    }

    /// Recomputes one node from its samples or its children.
    fn refresh(&mut self, node: u32) {
        let i = node as usize;
        if let Some(l) = self.tree.leaf_of(node) {
            let (n, mean) = (self.counts.n[l], self.counts.mean(l));
            let level = self.rate.level_ln(n, self.ln_delta, self.tree.leaf_count());
            self.lo[i] = self.interval.lower(mean, n, level);
            self.hi[i] = self.interval.upper(mean, n, level);
            self.emp[i] = mean;
            return;
        }
        let kids = self.tree.children(node);
        let first = kids.start as usize;
        let (mut lo, mut hi, mut emp, mut rep) = (self.lo[first], self.hi[first], self.emp[first], kids.start);
        for c in kids.skip(1) {
            let c_ = c as usize;
            match self.tree.role(node) {
                Role::Max => {
                    if self.hi[c_] > hi {
                        rep = c;
                    }
                    lo = lo.max(self.lo[c_]);
                    hi = hi.max(self.hi[c_]);
                    emp = emp.max(self.emp[c_]);
                }
                Role::Min => {
                    if self.lo[c_] < lo {
                        rep = c;
                    }
                    lo = lo.min(self.lo[c_]);
                    hi = hi.min(self.hi[c_]);
                    emp = emp.min(self.emp[c_]);
                }
            }
        }
        (self.lo[i], self.hi[i], self.emp[i], self.rep[i]) = (lo, hi, emp, rep);
    }

    /// The representative leaf below `node`.
    pub(crate) fn representative(&self, mut node: u32) -> usize {
        loop {
            if let Some(l) = self.tree.leaf_of(node) {
                return l;
            }
            node = self.rep[node as usize];
        }
    }

    /// Root move `a`'s interval and empirical value from the root mover's
    /// side (higher is better): a MIN root's values are mirrored.
    pub(crate) fn arm(&self, a: usize) -> (f64, f64, f64) {
        let c = (self.tree.children(0).start as usize) + a;
        match self.tree.root_role() {
            Role::Max => (self.lo[c], self.hi[c], self.emp[c]),
            Role::Min => (1.0 - self.hi[c], 1.0 - self.lo[c], 1.0 - self.emp[c]),
        }
    }

    /// The root's node of move `a`.
    pub(crate) fn move_node(&self, a: usize) -> u32 {
        self.tree.children(0).start + a as u32
    }

    /// The number of root moves.
    pub(crate) fn moves(&self) -> usize {
        self.tree.children(0).len()
    }

    /// The move of largest upper bound other than `not` (leftmost on ties).
    pub(crate) fn challenger(&self, not: usize) -> usize {
        (0..self.moves())
            .filter(|&a| a != not)
            .fold(None, |best: Option<usize>, a| match best {
                Some(b) if self.arm(b).1 >= self.arm(a).1 => Some(b),
                _ => Some(a),
            })
            .expect("two moves at least")
    }

    /// The move of largest empirical value (leftmost on ties).
    pub(crate) fn empirical_best(&self) -> usize {
        (1..self.moves()).fold(0, |b, a| if self.arm(a).2 > self.arm(b).2 { a } else { b })
    }

    /// The move of `among` whose value the samples guarantee most: the
    /// highest lower bound from the root mover's side (leftmost on ties). A
    /// leaf never sampled has the interval `[0, 1]`, so it counts as the
    /// worst it could be, not as the prior's mean.
    pub(crate) fn surest(&self, among: &[usize]) -> Option<usize> {
        among
            .iter()
            .copied()
            .reduce(|b, a| if self.arm(a).0 > self.arm(b).0 { a } else { b })
    }

    /// Samples every leaf once, left to right.
    pub(crate) fn sample_all(&mut self, rng: &mut impl Rng) {
        for l in 0..self.tree.leaf_count() {
            self.sample(l, rng);
        }
    }

    /// Notes the round's decision in the trace, if one is kept.
    fn note_round(&mut self, round: u64, best: usize, challenger: usize) {
        let arms = (0..self.moves())
            .map(|a| {
                let c = self.move_node(a) as usize;
                Arm {
                    lower: self.lo[c],
                    upper: self.hi[c],
                    mean: self.emp[c],
                }
            })
            .collect::<Vec<_>>();
        let gap = self.arm(challenger).1 - self.arm(best).0;
        self.counts.note(|| SampleEvent::Round {
            round,
            best,
            challenger,
            arms,
            gap,
        });
    }

    /// The outcome once the search picked `best` after `rounds` rounds.
    pub(crate) fn outcome(mut self, sampler: Sampler, best: usize, rounds: u64, confident: bool) -> SampleTrace {
        let (lo, _, _) = self.arm(best);
        let hi = (0..self.moves()).map(|a| self.arm(a).1).fold(lo, f64::max);
        let bound = match self.tree.root_role() {
            Role::Max => (lo, hi),
            Role::Min => (1.0 - hi, 1.0 - lo),
        };
        SampleTrace {
            events: self.counts.trace.take().unwrap_or_default(),
            outcome: SampleOutcome {
                sampler,
                best_index: Some(best),
                verdict: None,
                samples: self.counts.samples,
                rounds,
                tests: 0,
                confident,
                bound: Some(bound),
                leaf_samples: self.counts.n,
            },
        }
    }
}

/// How a best-arm search picks the leaves of one round and its candidate.
pub(crate) trait RoundRule {
    /// The sampler it is.
    const SAMPLER: Sampler;
    /// The round's candidate best move and its challenger.
    fn pair(s: &Summary<'_>) -> (usize, usize);
    /// Samples the round's leaves, given its pair.
    fn sample(s: &mut Summary<'_>, best: usize, challenger: usize, rng: &mut impl Rng);
}

/// The loop every best-arm search runs: sample every leaf once, then
/// rounds until the candidate's lower bound is within `epsilon` of every
/// other move's upper bound (`U_c - L_b < epsilon`), or the budget ends.
pub(crate) fn identify<R: RoundRule>(
    tree: &BernoulliTree,
    opts: &SampleOptions,
    counts: Counts,
    rng: &mut impl Rng,
) -> SampleTrace {
    let mut s = Summary::new(tree, opts, counts);
    if s.moves() < 2 {
        return s.outcome(R::SAMPLER, 0, 0, true);
    }
    s.sample_all(rng);
    let mut rounds = 0;
    loop {
        let (b, c) = R::pair(&s);
        if s.counts.trace.is_some() {
            s.note_round(rounds + 1, b, c);
        }
        if s.arm(c).1 - s.arm(b).0 < opts.epsilon {
            return s.outcome(R::SAMPLER, b, rounds, true);
        }
        if s.counts.samples >= opts.max_samples {
            return s.outcome(R::SAMPLER, b, rounds, false);
        }
        R::sample(&mut s, b, c, rng);
        rounds += 1;
    }
}
