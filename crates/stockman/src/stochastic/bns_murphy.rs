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
//! # Why the answer is (epsilon, delta)-correct
//! Test `k` runs at `delta_k = 6 delta / (pi^2 k^2)`, so all tests are right
//! with probability at least `1 - delta`. With a slack `eta = epsilon / 4`,
//! a move that stays is worth at least `gamma - eta` and one that leaves at
//! most `gamma + eta`. Every candidate is then worth at least `alpha`; a
//! best move that is still a candidate is worth at most `beta`, and one
//! that left is worth at most `2 eta` more than every candidate. So when
//! one candidate remains, or the bounds are within `epsilon`, every
//! candidate is within `epsilon` of the best. A round halves the bounds
//! and adds `eta`, so they get there. The intervals hold at every sample
//! count, so every test uses every sample drawn before it.
//!
//! # Complexity
//! About `log2(1 / epsilon)` rounds of one test per candidate; a test's
//! samples grow as `1 / gap^2` where `gap` is the distance from `gamma` to
//! the value tested.
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
    let eta = opts.epsilon / 4.0;
    let better = match tree.root_role() {
        Role::Max => Verdict::Above,
        Role::Min => Verdict::Below,
    };
    let mut candidates: Vec<usize> = (0..moves.len()).collect();
    let (mut tests, mut rounds) = (0u64, 0u64);
    let mut confident = true;
    while candidates.len() > 1 && beta - alpha > opts.epsilon {
        let gamma = 0.5 * (alpha + beta);
        rounds += 1;
        let mut kept = Vec::new();
        for &a in &candidates {
            tests += 1;
            let delta_k = 6.0 * opts.delta / (PI * PI * (tests * tests) as f64);
            let q = Question {
                gamma,
                eta,
                delta: delta_k,
                rule: opts.rule,
                interval: opts.interval,
                rate: opts.rate,
            };
            let mut test = ThresholdTest::new(tree, moves[a], q, &counts);
            let r = test.run(tests, &mut counts, opts.max_samples, rng);
            match r {
                Some(v) if v == better => kept.push(a),
                Some(_) => {}
                None => {
                    confident = false;
                    break;
                }
            }
        }
        if !confident {
            break;
        }
        let raise = kept.is_empty() == (better == Verdict::Below);
        if raise {
            alpha = gamma - eta;
        } else {
            beta = gamma + eta;
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
    // Every candidate will do: the one of best empirical value.
    let estimates = tree.minimax(|l| counts.mean(l));
    let empirical = |a: usize| estimates[moves[a] as usize];
    let best = candidates
        .iter()
        .copied()
        .reduce(|b, a| {
            let (va, vb) = (empirical(a), empirical(b));
            let prefer = match tree.root_role() {
                Role::Max => va > vb,
                Role::Min => va < vb,
            };
            if prefer {
                a
            } else {
                b
            }
        })
        .unwrap_or(0);
    SampleTrace {
        events: counts.trace.take().unwrap_or_default(),
        outcome: SampleOutcome {
            sampler: Sampler::BnsMurphy,
            best_index: (!moves.is_empty()).then_some(best),
            verdict: None,
            samples: counts.samples,
            rounds,
            tests,
            confident,
            bound: Some((alpha.max(0.0), beta.min(1.0))),
            leaf_samples: counts.n,
        },
    }
}
