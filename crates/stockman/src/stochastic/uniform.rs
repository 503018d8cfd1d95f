//! Uniform sampling: the baseline the best-arm searches are measured
//! against. Every round samples every leaf once; it stops by LUCB-MCTS's
//! rule (the move of best empirical value `b`, the other of largest upper
//! bound `c`, `U_c - L_b < epsilon`), so that only the choice of leaves
//! differs.
//!
//! # Complexity
//! A round is one sample of each leaf, each updating one path.
//!
//! # Example
//! ```
//! use stockman::stochastic::{BernoulliTree, SampleOptions, Sampler};
//! use stockman::Role;
//! let tree = BernoulliTree::parse("[[0.2, 0.3], [0.7, 0.8]]", Role::Max).unwrap();
//! let out = Sampler::Uniform.run(&tree, &SampleOptions::default()).unwrap();
//! assert_eq!(out.best_index, Some(1));
//! assert_eq!(out.leaf_samples.iter().min(), out.leaf_samples.iter().max());
//! ```

use super::best_arm::{RoundRule, Summary};
use super::lucb_mcts::Lucb;
use super::Sampler;
use rand::Rng;

pub(crate) struct Uniform;

impl RoundRule for Uniform {
    const SAMPLER: Sampler = Sampler::Uniform;

    fn pair(s: &Summary<'_>) -> (usize, usize) {
        Lucb::pair(s)
    }

    fn sample(s: &mut Summary<'_>, _: usize, _: usize, rng: &mut impl Rng) {
        s.sample_all(rng);
    }
}
