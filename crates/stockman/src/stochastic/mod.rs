//! Stochastic trees and their searches: leaves that are Bernoulli arms
//! with unknown means, and searches that sample them until they can name
//! the best root move with confidence `1 - delta`.
//!
//! This is a second abstraction beside [`Game`](crate::Game), not an
//! instance of it: a deterministic search evaluates a leaf once and knows
//! its value; here a leaf only yields samples, the tree's value is the
//! minimax of the means, and what a search spends is samples. So these
//! searches have their own registry ([`Sampler`]), options
//! ([`SampleOptions`]) and outcome ([`SampleOutcome`]), and the tree model
//! ([`BernoulliTree`]) reads the tree file format and the random-tree
//! specs of the deterministic trees.
//!
//! | sampler | what it is | source |
//! |---|---|---|
//! | `lucb-mcts` | LUCB at the root over intervals summarised from the leaves | Kaufmann and Koolen 2017 |
//! | `ugape-mcts` | UGapE at the root, the same intervals | Kaufmann and Koolen 2017 |
//! | `uniform` | every leaf each round, LUCB-MCTS's stopping rule: the baseline | ours |
//! | `murphy` | is the root's value below `threshold`? Murphy Sampling's test | Kaufmann, Koolen and Garivier 2018 |
//! | `bns-murphy` | Best Node Search whose tests are Murphy Sampling's | ours, from the two |
//!
//! Every sampler draws from a ChaCha8 generator seeded by
//! [`SampleOptions::seed`]: the same seed gives the same samples and the
//! same outcome on every platform.
//!
//! # Example
//! ```
//! use stockman::stochastic::{BernoulliTree, SampleOptions, Sampler};
//! let tree = BernoulliTree::random("width=3,depth=2,seed=1,model=bernoulli").unwrap();
//! let opts = SampleOptions { delta: 0.1, epsilon: 0.05, ..SampleOptions::default() };
//! for sampler in Sampler::ALL.into_iter().filter(|s| s.finds_a_move()) {
//!     let out = sampler.run(&tree, &opts).unwrap();
//!     assert!(tree.good_moves(0.05).contains(&out.best_index.unwrap()));
//! }
//! ```

mod best_arm;
mod bns_murphy;
pub mod confidence;
mod lucb_mcts;
pub mod murphy;
mod trace;
mod tree;
mod ugape_mcts;
mod uniform;

pub use confidence::{Interval, Rate, UnknownRate};
pub use murphy::{oracle_weights, sampling_proportions, SamplingRule, UnknownSamplingRule};
pub use trace::{Arm, SampleEvent, SampleTrace};
pub use tree::{format_mean, BernoulliTree, MAX_BERNOULLI_LEAVES};

use rand::SeedableRng;
use std::fmt;
use std::str::FromStr;

/// A search of stochastic trees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sampler {
    /// LUCB-MCTS (Kaufmann and Koolen 2017).
    LucbMcts,
    /// UGapE-MCTS (Kaufmann and Koolen 2017).
    UgapeMcts,
    /// Uniform sampling with LUCB-MCTS's stopping rule: the baseline.
    Uniform,
    /// Murphy Sampling's test of the root's value against a threshold
    /// (Kaufmann, Koolen and Garivier 2018).
    Murphy,
    /// Best Node Search with Murphy Sampling's tests (ours).
    BnsMurphy,
}

/// One row of the samplers' table.
#[derive(Clone, Copy, Debug)]
pub struct SamplerInfo {
    /// The sampler.
    pub sampler: Sampler,
    /// Its name on the command line and in Python.
    pub name: &'static str,
    /// Whether it names a root move (else it answers a threshold test).
    pub finds_a_move: bool,
    /// Where it comes from.
    pub source: &'static str,
    /// The settings only some samplers read that this one reads (every
    /// sampler reads delta, epsilon, the budget, the seed, the rate and the
    /// intervals; the threshold has its own rule, [`SampleError::ThresholdUnused`]).
    pub reads: &'static [SampleKnob],
}

/// A setting that only some samplers read: a front end that is given one
/// with no sampler that reads it refuses it ([`check_reads`]) rather than
/// ignore it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SampleKnob {
    /// How a threshold test picks leaves ([`SampleOptions::rule`]).
    Sampling,
}

impl SampleKnob {
    /// Every knob.
    pub const ALL: [SampleKnob; 1] = [SampleKnob::Sampling];

    /// Its name (`sampling`: the CLI's `--sampling`, Python's `sampling=`).
    pub fn name(self) -> &'static str {
        match self {
            SampleKnob::Sampling => "sampling",
        }
    }
}

/// The samplers that read `knob`, from the table.
pub fn readers(knob: SampleKnob) -> Vec<Sampler> {
    SAMPLERS
        .iter()
        .filter(|i| i.reads.contains(&knob))
        .map(|i| i.sampler)
        .collect()
}

/// Refuses a knob given (`(knob, given)`) that none of `samplers` reads.
///
/// # Example
/// ```
/// use stockman::stochastic::{check_reads, SampleKnob, Sampler};
/// assert!(check_reads(&[Sampler::Murphy], [(SampleKnob::Sampling, true)]).is_ok());
/// let e = check_reads(&[Sampler::LucbMcts], [(SampleKnob::Sampling, true)]).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "sampling is read only by murphy, bns-murphy; none of the stochastic searches asked for (lucb-mcts) reads it"
/// );
/// ```
pub fn check_reads(
    samplers: &[Sampler],
    given: impl IntoIterator<Item = (SampleKnob, bool)>,
) -> Result<(), SampleError> {
    for (knob, on) in given {
        let readers = readers(knob);
        if on && !samplers.iter().any(|s| readers.contains(s)) {
            return Err(SampleError::Unread {
                knob,
                readers,
                asked: samplers.to_vec(),
            });
        }
    }
    Ok(())
}

/// The samplers as data: every front end reads this table.
pub const SAMPLERS: [SamplerInfo; 5] = [
    SamplerInfo {
        sampler: Sampler::LucbMcts,
        name: "lucb-mcts",
        finds_a_move: true,
        source: "Kaufmann and Koolen, Monte-Carlo Tree Search by Best Arm Identification, NIPS 2017",
        reads: &[],
    },
    SamplerInfo {
        sampler: Sampler::UgapeMcts,
        name: "ugape-mcts",
        finds_a_move: true,
        source: "Kaufmann and Koolen, Monte-Carlo Tree Search by Best Arm Identification, NIPS 2017",
        reads: &[],
    },
    SamplerInfo {
        sampler: Sampler::Uniform,
        name: "uniform",
        finds_a_move: true,
        source: "the baseline: every leaf each round (ours)",
        reads: &[],
    },
    SamplerInfo {
        sampler: Sampler::Murphy,
        name: "murphy",
        finds_a_move: false,
        source: "Kaufmann, Koolen and Garivier, Sequential Test for the Lowest Mean, NeurIPS 2018",
        reads: &[SampleKnob::Sampling],
    },
    SamplerInfo {
        sampler: Sampler::BnsMurphy,
        name: "bns-murphy",
        finds_a_move: true,
        source: "ours: Rutko's Best Node Search with Murphy Sampling's tests",
        reads: &[SampleKnob::Sampling],
    },
];

impl Sampler {
    /// Every sampler, in the table's order.
    pub const ALL: [Sampler; 5] = [
        Sampler::LucbMcts,
        Sampler::UgapeMcts,
        Sampler::Uniform,
        Sampler::Murphy,
        Sampler::BnsMurphy,
    ];

    /// What the front ends run when no sampler is named: `murphy` alone
    /// given a threshold, else every sampler that finds a move.
    pub fn defaults(threshold: Option<f64>) -> Vec<Sampler> {
        match threshold {
            Some(_) => vec![Sampler::Murphy],
            None => Sampler::ALL.into_iter().filter(|s| s.finds_a_move()).collect(),
        }
    }

    /// Its row of [`SAMPLERS`].
    pub fn info(self) -> &'static SamplerInfo {
        &SAMPLERS[self as usize]
    }

    /// Its name (`lucb-mcts`).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Whether it names a root move.
    pub fn finds_a_move(self) -> bool {
        self.info().finds_a_move
    }

    /// Samples `tree` until the sampler can answer with confidence
    /// `1 - delta`, or its budget is spent.
    pub fn run(self, tree: &BernoulliTree, opts: &SampleOptions) -> Result<SampleOutcome, SampleError> {
        self.search(tree, opts, false).map(|t| t.outcome)
    }

    /// [`Sampler::run`] with every sample, round and test recorded: the
    /// same samples and outcome, and the events that led there.
    ///
    /// # Example
    /// ```
    /// use stockman::stochastic::{BernoulliTree, SampleEvent, SampleOptions, Sampler};
    /// use stockman::Role;
    /// let tree = BernoulliTree::parse("[[0.2, 0.3], [0.7, 0.8]]", Role::Max).unwrap();
    /// let t = Sampler::LucbMcts.trace(&tree, &SampleOptions::default()).unwrap();
    /// let samples = t.events.iter().filter(|e| matches!(e, SampleEvent::Sample { .. })).count();
    /// assert_eq!(samples as u64, t.outcome.samples);
    /// assert_eq!(t.outcome, Sampler::LucbMcts.run(&tree, &SampleOptions::default()).unwrap());
    /// ```
    pub fn trace(self, tree: &BernoulliTree, opts: &SampleOptions) -> Result<SampleTrace, SampleError> {
        self.search(tree, opts, true)
    }

    fn search(self, tree: &BernoulliTree, opts: &SampleOptions, trace: bool) -> Result<SampleTrace, SampleError> {
        opts.validate(self)?;
        if self.finds_a_move() && tree.children(0).is_empty() {
            return Err(SampleError::NoMove);
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(opts.seed);
        let mut counts = murphy::Counts::new(tree.leaf_count());
        if trace {
            counts.trace = Some(Vec::new());
        }
        Ok(match self {
            Sampler::LucbMcts => best_arm::identify::<lucb_mcts::Lucb>(tree, opts, counts, &mut rng),
            Sampler::UgapeMcts => best_arm::identify::<ugape_mcts::Ugape>(tree, opts, counts, &mut rng),
            Sampler::Uniform => best_arm::identify::<uniform::Uniform>(tree, opts, counts, &mut rng),
            Sampler::BnsMurphy => bns_murphy::search(tree, opts, counts, &mut rng),
            Sampler::Murphy => {
                let gamma = opts.threshold.expect("validated");
                let q = murphy::Question {
                    gamma,
                    eta: opts.epsilon,
                    delta: opts.delta,
                    ln_delta: opts.delta.ln(),
                    rule: opts.rule,
                    interval: opts.interval,
                    rate: opts.rate,
                };
                let mut test = murphy::ThresholdTest::new(tree, 0, q, &counts);
                let verdict = test.run(1, &mut counts, opts.max_samples, &mut rng);
                SampleTrace {
                    events: counts.trace.take().unwrap_or_default(),
                    outcome: SampleOutcome {
                        sampler: self,
                        best_index: None,
                        verdict,
                        samples: counts.samples,
                        rounds: counts.samples,
                        tests: 1,
                        confident: verdict.is_some(),
                        bound: None,
                        leaf_samples: counts.n,
                    },
                }
            }
        })
    }
}

impl fmt::Display for Sampler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A sampler name that is none of [`SAMPLERS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSampler(pub String);

impl fmt::Display for UnknownSampler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = SAMPLERS.iter().map(|s| s.name).collect();
        write!(
            f,
            "unknown stochastic search `{}` (known: {})",
            self.0,
            known.join(", ")
        )
    }
}

impl std::error::Error for UnknownSampler {}

impl FromStr for Sampler {
    type Err = UnknownSampler;
    fn from_str(s: &str) -> Result<Sampler, UnknownSampler> {
        SAMPLERS
            .iter()
            .find(|i| i.name == s)
            .map(|i| i.sampler)
            .ok_or_else(|| UnknownSampler(s.to_string()))
    }
}

/// A threshold test's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The value is below the threshold (plus the slack).
    Below,
    /// The value is above the threshold (minus the slack).
    Above,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Below => "below",
            Verdict::Above => "above",
        })
    }
}

/// What a stochastic search is asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleOptions {
    /// The error allowed: the answer is right with probability `1 - delta`
    /// (in `(0, 1)`; default 0.1).
    pub delta: f64,
    /// How far from the best a move may be worth and still be right (the
    /// threshold test's slack; default 0: the best move itself).
    pub epsilon: f64,
    /// The samples a search may draw before it answers without confidence
    /// (checked before each round, so a round may pass it; default 10^7).
    pub max_samples: u64,
    /// The seed of the samples.
    pub seed: u64,
    /// The intervals' exploration rate.
    pub rate: Rate,
    /// The leaves' intervals.
    pub interval: Interval,
    /// How the threshold tests of `murphy` and `bns-murphy` pick leaves.
    pub rule: SamplingRule,
    /// `murphy`'s threshold, in `(0, 1)`.
    pub threshold: Option<f64>,
}

impl Default for SampleOptions {
    fn default() -> SampleOptions {
        SampleOptions {
            delta: 0.1,
            epsilon: 0.0,
            max_samples: 10_000_000,
            seed: 0,
            rate: Rate::default(),
            interval: Interval::default(),
            rule: SamplingRule::default(),
            threshold: None,
        }
    }
}

impl SampleOptions {
    /// Checks the options for `sampler`.
    pub fn validate(&self, sampler: Sampler) -> Result<(), SampleError> {
        if !(self.delta > 0.0 && self.delta < 1.0) {
            return Err(SampleError::Delta(self.delta));
        }
        if !(0.0..1.0).contains(&self.epsilon) {
            return Err(SampleError::Epsilon(self.epsilon));
        }
        if self.max_samples == 0 {
            return Err(SampleError::NoBudget);
        }
        match (sampler, self.threshold) {
            (Sampler::Murphy, None) => Err(SampleError::NoThreshold),
            (Sampler::Murphy, Some(t)) if !(t > 0.0 && t < 1.0) => Err(SampleError::Threshold(t)),
            (s, Some(_)) if s != Sampler::Murphy => Err(SampleError::ThresholdUnused(s)),
            _ => Ok(()),
        }
    }
}

/// Why a stochastic search did not run.
#[derive(Clone, Debug, PartialEq)]
pub enum SampleError {
    /// `delta` is not in `(0, 1)`.
    Delta(f64),
    /// `epsilon` is not in `[0, 1)`.
    Epsilon(f64),
    /// `murphy` without a threshold.
    NoThreshold,
    /// A threshold not in `(0, 1)`.
    Threshold(f64),
    /// A threshold given to a search that finds a move.
    ThresholdUnused(Sampler),
    /// A budget of no sample.
    NoBudget,
    /// A search for a move on a tree whose root is a leaf.
    NoMove,
    /// A setting that none of the samplers asked for reads.
    Unread {
        /// The setting.
        knob: SampleKnob,
        /// The samplers that read it (from the table).
        readers: Vec<Sampler>,
        /// The samplers asked for.
        asked: Vec<Sampler>,
    },
}

impl SampleError {
    /// [`SampleError::Unread`]'s message with the setting named as a front
    /// end names it (`--sampling`, `sampling=`); any other error's own.
    pub fn unread(&self, setting: &str) -> String {
        match self {
            SampleError::Unread { readers, asked, .. } => crate::options::unread_sentence(
                setting,
                readers.iter().map(|s| s.name()),
                "stochastic searches",
                asked.iter().map(|s| s.name()),
            ),
            e => e.to_string(),
        }
    }
}

impl fmt::Display for SampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleError::Delta(d) => write!(
                f,
                "the error probability delta must lie strictly between 0 and 1, not {d}"
            ),
            SampleError::Epsilon(e) => write!(f, "the tolerance epsilon must lie in [0, 1), not {e}"),
            SampleError::NoThreshold => write!(f, "murphy tests the root's value against a threshold: give one"),
            SampleError::Threshold(t) => write!(f, "the threshold must lie strictly between 0 and 1, not {t}"),
            SampleError::ThresholdUnused(s) => write!(f, "{s} finds a move and takes no threshold (only murphy does)"),
            SampleError::NoBudget => write!(f, "the budget of samples must be at least 1"),
            SampleError::NoMove => write!(
                f,
                "the root is a leaf: there is no move to choose (murphy can test its value)"
            ),
            SampleError::Unread { knob, .. } => f.write_str(&self.unread(knob.name())),
        }
    }
}

impl std::error::Error for SampleError {}

/// What a stochastic search found and spent.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SampleOutcome {
    /// The sampler.
    pub sampler: Sampler,
    /// The root move it names (not for `murphy`).
    pub best_index: Option<usize>,
    /// `murphy`'s answer.
    pub verdict: Option<Verdict>,
    /// Samples drawn.
    pub samples: u64,
    /// Rounds: the best-arm searches' rounds (after one sample of every
    /// leaf), BNS's passes, the test's steps.
    pub rounds: u64,
    /// Threshold tests run (`bns-murphy`, `murphy`).
    pub tests: u64,
    /// Whether it stopped by its rule (else the budget stopped it and the
    /// answer carries no guarantee).
    pub confident: bool,
    /// Where it left the root's value, `(lower, upper)` in means: the
    /// best-arm searches' lower bound of their answer and largest upper
    /// bound of any move, BNS's final bounds.
    pub bound: Option<(f64, f64)>,
    /// Samples of each leaf, left to right.
    pub leaf_samples: Vec<u64>,
}

impl serde::Serialize for Sampler {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}
