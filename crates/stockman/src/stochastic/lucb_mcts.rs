//! LUCB-MCTS (Kaufmann and Koolen, "Monte-Carlo Tree Search by Best Arm
//! Identification", NIPS 2017): LUCB's rule at the root over intervals
//! summarised from the leaves.
//!
//! Each round takes the root move of best empirical minimax value `b` and
//! the other move of largest upper bound `c`, and samples the
//! representative leaf of each (two samples a round). It stops when
//! `U_c - L_b < epsilon` and answers `b`.
//!
//! # Complexity
//! A sample updates the intervals on one path: `O(depth x width)`.
//!
//! # Example
//! ```
//! use stockman::stochastic::{BernoulliTree, SampleOptions, Sampler};
//! use stockman::Role;
//! let tree = BernoulliTree::parse("[[0.2, 0.3], [0.7, 0.8]]", Role::Max).unwrap();
//! let out = Sampler::LucbMcts.run(&tree, &SampleOptions::default()).unwrap();
//! assert_eq!(out.best_index, Some(1));
//! assert!(out.confident);
//! ```

use super::best_arm::{RoundRule, Summary};
use super::Sampler;
use rand::Rng;

pub(crate) struct Lucb;

impl RoundRule for Lucb {
    const SAMPLER: Sampler = Sampler::LucbMcts;

    fn pair(s: &Summary<'_>) -> (usize, usize) {
        let b = s.empirical_best();
        (b, s.challenger(b))
    }

    fn sample(s: &mut Summary<'_>, b: usize, c: usize, rng: &mut impl Rng) {
        for a in [b, c] {
            let leaf = s.representative(s.move_node(a));
            s.sample(leaf, rng);
        }
    }
}
