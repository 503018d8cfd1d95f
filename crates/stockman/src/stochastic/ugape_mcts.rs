//! UGapE-MCTS (Kaufmann and Koolen 2017): UGapE's rule at the root over
//! intervals summarised from the leaves.
//!
//! Each root move `a` has the index `B_a = max_{b != a} U_b - L_a`; a round
//! takes `b` of smallest index and `c`, the other move of largest upper
//! bound, and samples the representative leaf of whichever of the two has
//! the wider interval (one sample a round). It stops when `B_b = U_c - L_b
//! < epsilon` and answers `b`.
//!
//! # Complexity
//! A round computes every root move's index (`O(width)`) and a sample
//! updates one path.
//!
//! # Example
//! ```
//! use stockman::stochastic::{BernoulliTree, SampleOptions, Sampler};
//! use stockman::Role;
//! let tree = BernoulliTree::parse("[[0.2, 0.3], [0.7, 0.8]]", Role::Max).unwrap();
//! let out = Sampler::UgapeMcts.run(&tree, &SampleOptions::default()).unwrap();
//! assert_eq!(out.best_index, Some(1));
//! ```

use super::best_arm::{RoundRule, Summary};
use super::Sampler;
use rand::Rng;

pub(crate) struct Ugape;

impl RoundRule for Ugape {
    const SAMPLER: Sampler = Sampler::UgapeMcts;

    fn pair(s: &Summary<'_>) -> (usize, usize) {
        let index = |a: usize| s.arm(s.challenger(a)).1 - s.arm(a).0;
        let b = (1..s.moves()).fold(0, |b, a| if index(a) < index(b) { a } else { b });
        (b, s.challenger(b))
    }

    fn sample(s: &mut Summary<'_>, b: usize, c: usize, rng: &mut impl Rng) {
        let width = |a: usize| s.arm(a).1 - s.arm(a).0;
        let a = if width(c) > width(b) { c } else { b };
        let leaf = s.representative(s.move_node(a));
        s.sample(leaf, rng);
    }
}
