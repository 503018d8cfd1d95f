//! Watching a stochastic search: every sample, every round's decision and
//! every threshold test, in order ([`Sampler::trace`](super::Sampler::trace)).
//!
//! A deterministic search's trace is its leaf evaluations and OPEN list; a
//! stochastic search's is its samples and the bounds that chose them. The
//! events are recorded where the samples are counted, so a traced run draws
//! exactly the samples of an untraced one with the same seed.

use super::{SampleOutcome, Verdict};
use crate::observe::dewey;
use serde::Serialize;
use std::fmt;

/// One thing a traced stochastic search did.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum SampleEvent {
    /// A leaf was sampled.
    Sample {
        /// The leaf's number, left to right from 0.
        leaf: usize,
        /// 0-based child indices from the root.
        path: Vec<u32>,
        /// The sample: 1 with the leaf's mean as probability.
        one: bool,
    },
    /// A best-arm round's decision, made before its samples (LUCB-MCTS,
    /// UGapE-MCTS, uniform). The last round of a search is the one whose
    /// `gap` is below epsilon: it stops there and samples nothing.
    Round {
        /// 1-based; the first comes after every leaf was sampled once.
        round: u64,
        /// The candidate best move (0-based).
        best: usize,
        /// The other move of largest upper bound.
        challenger: usize,
        /// Every root move's interval and empirical value, in the tree's
        /// values (a MIN root's are not mirrored).
        arms: Vec<Arm>,
        /// `U_c - L_b` from the root mover's side: the search stops when it
        /// is below epsilon.
        gap: f64,
    },
    /// A threshold test begins (`murphy`; each of `bns-murphy`'s tests).
    Test {
        /// 1-based.
        test: u64,
        /// The node tested, as 0-based child indices from the root.
        node: Vec<u32>,
        /// The threshold.
        gamma: f64,
        /// The slack: "above" means above `gamma - eta`, "below" below `gamma + eta`.
        eta: f64,
        /// The error this test may make.
        delta: f64,
    },
    /// A threshold test ended.
    Verdict {
        /// 1-based, as its [`SampleEvent::Test`].
        test: u64,
        /// Its answer; `None` when the search's budget ended it, or its
        /// cap (`bns-murphy`'s tests: the round then tries another threshold).
        verdict: Option<Verdict>,
        /// The samples it drew.
        samples: u64,
    },
    /// A round of `bns-murphy` ended.
    Pass {
        /// 1-based.
        pass: u64,
        /// The round's threshold.
        gamma: f64,
        /// The root moves still candidates (0-based).
        candidates: Vec<usize>,
        /// The bounds on the root's value after the round.
        lower: f64,
        /// See `lower`.
        upper: f64,
    },
}

/// A root move's interval and empirical value, as a [`SampleEvent::Round`]
/// saw it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Arm {
    /// The lower end of its interval.
    pub lower: f64,
    /// The upper end.
    pub upper: f64,
    /// The minimax of its leaves' empirical means.
    pub mean: f64,
}

/// A whole traced stochastic search: what it found and what it did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SampleTrace {
    /// The outcome, as an untraced run with the same seed gives it.
    pub outcome: SampleOutcome,
    /// The events in the order they happened.
    pub events: Vec<SampleEvent>,
}

/// A value in `[0, 1]` with three decimals.
fn p(v: f64) -> String {
    format!("{v:.3}")
}

/// A probability that may be tiny: three decimals, or three digits.
fn small(v: f64) -> String {
    if v >= 0.01 {
        format!("{v:.3}")
    } else {
        format!("{v:.2e}")
    }
}

impl fmt::Display for SampleEvent {
    /// One line, as `stockman trace` prints it (moves 0-based, nodes in
    /// 1-based Dewey notation as in the deterministic traces).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleEvent::Sample { path, one, .. } => write!(f, "sample {} -> {}", dewey(path), u8::from(*one)),
            SampleEvent::Round {
                round,
                best,
                challenger,
                arms,
                gap,
            } => {
                let arm = |a: usize| format!("[{}, {}]", p(arms[a].lower), p(arms[a].upper));
                write!(
                    f,
                    "round {round}: candidate move {best} in {}, challenger move {challenger} in {}; gap {:.4}",
                    arm(*best),
                    arm(*challenger),
                    gap
                )
            }
            SampleEvent::Test {
                test,
                node,
                gamma,
                eta,
                delta,
            } => write!(
                f,
                "test {test}: is the value of {} above {} or below {}? (error at most {})",
                if node.is_empty() {
                    "the root".to_string()
                } else {
                    format!("node {}", dewey(node))
                },
                p(gamma - eta),
                p(gamma + eta),
                small(*delta)
            ),
            SampleEvent::Verdict { test, verdict, samples } => match verdict {
                Some(v) => write!(f, "test {test}: {v}, after {samples} samples"),
                None => write!(
                    f,
                    "test {test}: no verdict after {samples} samples (its cap or the budget ended it)"
                ),
            },
            SampleEvent::Pass {
                pass,
                gamma,
                candidates,
                lower,
                upper,
            } => write!(
                f,
                "pass {pass}: threshold {}; candidates {:?}; value in [{}, {}]",
                p(*gamma),
                candidates,
                p(*lower),
                p(*upper)
            ),
        }
    }
}
