//! Trees whose leaves are Bernoulli arms with unknown means: the model of
//! Monte-Carlo tree search by best-arm identification.

use crate::trees::explicit::{excerpt, ExplicitTree, ParseError, ParseErrorKind};
use crate::trees::random::{RandomSpec, RandomTree, SpecError, ValueModel};
use crate::value::{Role, Value};
use rand::Rng;

/// A game tree whose leaves are Bernoulli arms: sampling a leaf returns 1
/// with the leaf's mean as probability, else 0, and the tree's value is the
/// minimax of the means. The searches of [`crate::stochastic`] see only
/// samples; the means are kept to score their answers.
///
/// Nodes are numbered breadth first, the root 0, every node's children a
/// contiguous run; leaves are also numbered `0..leaf_count()` left to right.
///
/// # Example
/// ```
/// use stockman::stochastic::BernoulliTree;
/// use stockman::Role;
/// let tree = BernoulliTree::parse("[[0.45, 0.50], [0.35, 0.60]]", Role::Max).unwrap();
/// assert_eq!(tree.leaf_count(), 4);
/// assert_eq!(tree.value(), 0.45);
/// assert_eq!(tree.root_values(), vec![0.45, 0.35]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct BernoulliTree {
    root_role: Role,
    depth: Vec<u32>,
    parent: Vec<u32>,
    first_child: Vec<u32>,
    child_count: Vec<u32>,
    /// Per node: its leaf number, or `NOT_LEAF`.
    leaf: Vec<u32>,
    /// Per leaf: its node.
    leaf_node: Vec<u32>,
    /// Per leaf: the probability that a sample is 1.
    means: Vec<f64>,
}

const NOT_LEAF: u32 = u32::MAX;

/// The most leaves a random Bernoulli tree may have: every leaf is stored
/// with its statistics.
pub const MAX_BERNOULLI_LEAVES: usize = 1 << 22;

impl BernoulliTree {
    /// Parses the nested-list format of [`ExplicitTree`] with means for
    /// leaves: `[[0.45, 0.5], [0.35, 0.6]]`, each a decimal from 0 to 1.
    /// Errors carry the line and column, as for integer trees.
    pub fn parse(text: &str, root_role: Role) -> Result<BernoulliTree, ParseError> {
        let mut means = Vec::new();
        let mut leaf = |word: &str| -> Result<Value, ParseErrorKind> {
            let p = parse_probability(word).ok_or_else(|| ParseErrorKind::NotAProbability(excerpt(word)))?;
            let index = Value::try_from(means.len()).map_err(|_| ParseErrorKind::TooLarge)?;
            means.push(p);
            Ok(index)
        };
        let shape = ExplicitTree::parse_with(text, root_role, &mut leaf)?;
        Ok(BernoulliTree::from_shape(&shape, |i| means[i as usize]))
    }

    /// A seeded random tree with Bernoulli leaves: the spec of
    /// [`RandomSpec::parse`] with `model=bernoulli`, whose leaves' means are
    /// its iid values divided by 1,000 (`range` defaults to `0..1000` and
    /// must lie within it), so that the means are those of `stockman gen`'s
    /// tree and every platform draws the same.
    pub fn random(spec: &str) -> Result<BernoulliTree, SpecError> {
        BernoulliTree::from_spec(&BernoulliTree::parse_spec(spec)?)
    }

    /// Whether a random-tree spec asks for Bernoulli leaves (`model=bernoulli`).
    pub fn names_bernoulli(spec: &str) -> bool {
        spec.split(',').any(|p| {
            p.split_once('=')
                .is_some_and(|(k, v)| k.trim() == "model" && v.trim() == "bernoulli")
        })
    }

    /// The deterministic spec under a `model=bernoulli` spec (the spec
    /// without its model), checked as [`BernoulliTree::from_spec`] takes it.
    pub fn parse_spec(spec: &str) -> Result<RandomSpec, SpecError> {
        let mut rest = Vec::new();
        let mut bernoulli = false;
        for part in spec.split(',') {
            match part.split_once('=').map(|(k, v)| (k.trim(), v.trim())) {
                Some(("model", "bernoulli")) if !bernoulli => bernoulli = true,
                Some(("model", other)) => {
                    return Err(SpecError(format!(
                        "`model={other}`: a Bernoulli tree is `model=bernoulli`, given once"
                    )))
                }
                _ => rest.push(part),
            }
        }
        if !bernoulli {
            return Err(SpecError(format!(
                "`{spec}` is not a Bernoulli tree: add `model=bernoulli`"
            )));
        }
        let parsed = RandomSpec::parse(&rest.join(","))?;
        check_spec(&parsed)?;
        Ok(parsed)
    }

    /// The Bernoulli tree of a parsed spec (its model must be iid, its range
    /// within `0..=1000`: thousandths).
    pub fn from_spec(spec: &RandomSpec) -> Result<BernoulliTree, SpecError> {
        check_spec(spec)?;
        let shape = ExplicitTree::from_game(&RandomTree::new(spec.clone()), None, 4 * MAX_BERNOULLI_LEAVES)
            .filter(|t| t.leaf_count() <= MAX_BERNOULLI_LEAVES)
            .ok_or_else(|| {
                SpecError(format!(
                    "the tree of width {} and depth {} has more than {MAX_BERNOULLI_LEAVES} leaves (every leaf of a Bernoulli tree keeps its statistics)",
                    spec.width, spec.depth
                ))
            })?;
        Ok(BernoulliTree::from_shape(&shape, |v| f64::from(v) / 1000.0))
    }

    /// The uniform tree of this width and depth with these means, left to
    /// right: `means.len()` must be `width^depth`.
    ///
    /// # Panics
    /// If the count does not match or a mean is not in `0..=1`.
    pub fn uniform(width: u32, depth: u32, means: &[f64], root_role: Role) -> BernoulliTree {
        assert!(means.iter().all(|p| (0.0..=1.0).contains(p)), "means lie in 0..=1");
        let index: Vec<Value> = (0..means.len() as Value).collect();
        let shape = ExplicitTree::uniform(width, depth, &index, root_role);
        BernoulliTree::from_shape(&shape, |i| means[i as usize])
    }

    /// Renumbers `shape` breadth first, leaves left to right, with the mean
    /// of each leaf from its value.
    fn from_shape(shape: &ExplicitTree, mean: impl Fn(Value) -> f64) -> BernoulliTree {
        let n = shape.len();
        let mut t = BernoulliTree {
            root_role: shape.root_role(),
            depth: Vec::with_capacity(n),
            parent: Vec::with_capacity(n),
            first_child: Vec::with_capacity(n),
            child_count: Vec::with_capacity(n),
            leaf: Vec::with_capacity(n),
            leaf_node: Vec::new(),
            means: Vec::new(),
        };
        // Breadth first: (node of `shape`, parent in `t`).
        let mut queue = std::collections::VecDeque::from([(0u32, 0u32)]);
        let mut order = Vec::with_capacity(n);
        while let Some((s, p)) = queue.pop_front() {
            let id = t.depth.len() as u32;
            t.depth.push(shape.depth_of(s));
            t.parent.push(p);
            t.first_child.push(0);
            t.child_count.push(shape.children(s).len() as u32);
            t.leaf.push(NOT_LEAF);
            order.push(s);
            for &c in shape.children(s) {
                queue.push_back((c, id));
            }
        }
        // First children: the queue keeps siblings together in order.
        let mut next = 1u32;
        for id in 0..n {
            t.first_child[id] = next;
            next += t.child_count[id];
        }
        // Leaves left to right: depth first over the new numbering.
        let mut stack = vec![0u32];
        while let Some(id) = stack.pop() {
            if t.child_count[id as usize] == 0 {
                t.leaf[id as usize] = t.leaf_node.len() as u32;
                t.leaf_node.push(id);
                t.means.push(mean(shape.leaf_value(order[id as usize])));
            } else {
                stack.extend(t.children(id).rev());
            }
        }
        t
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.depth.len()
    }

    /// Whether the tree has no node (never true).
    pub fn is_empty(&self) -> bool {
        self.depth.is_empty()
    }

    /// The height: the largest depth of any node.
    pub fn height(&self) -> u32 {
        self.depth.iter().copied().max().unwrap_or(0)
    }

    /// Number of leaves (arms).
    pub fn leaf_count(&self) -> usize {
        self.means.len()
    }

    /// The role of the root.
    pub fn root_role(&self) -> Role {
        self.root_role
    }

    /// The role of `node`: the root's on even depths.
    pub fn role(&self, node: u32) -> Role {
        if self.depth[node as usize].is_multiple_of(2) {
            self.root_role
        } else {
            self.root_role.opponent()
        }
    }

    /// The children of `node`, left to right.
    pub fn children(&self, node: u32) -> std::ops::Range<u32> {
        let f = self.first_child[node as usize];
        f..f + self.child_count[node as usize]
    }

    /// The parent of `node` (the root is its own).
    pub fn parent(&self, node: u32) -> u32 {
        self.parent[node as usize]
    }

    /// The depth of `node`.
    pub fn depth_of(&self, node: u32) -> u32 {
        self.depth[node as usize]
    }

    /// The leaf number of `node`, if it is a leaf.
    pub fn leaf_of(&self, node: u32) -> Option<usize> {
        let l = self.leaf[node as usize];
        (l != NOT_LEAF).then_some(l as usize)
    }

    /// The node of leaf number `leaf`.
    pub fn leaf_node(&self, leaf: usize) -> u32 {
        self.leaf_node[leaf]
    }

    /// The mean of every leaf, left to right.
    pub fn means(&self) -> &[f64] {
        &self.means
    }

    /// One sample of leaf `leaf`: 1 with its mean as probability.
    pub fn sample(&self, leaf: usize, rng: &mut impl Rng) -> bool {
        rng.random::<f64>() < self.means[leaf]
    }

    /// The minimax value of every node, in one pass from the leaves up,
    /// with `leaf(l)` the value of leaf number `l` (its mean, or an
    /// estimate of it).
    pub fn minimax(&self, leaf: impl Fn(usize) -> f64) -> Vec<f64> {
        let mut value = vec![0.0; self.len()];
        // Children have larger numbers than their parents.
        for id in (0..self.len()).rev() {
            value[id] = match self.leaf_of(id as u32) {
                Some(l) => leaf(l),
                None => {
                    let vals = self.children(id as u32).map(|c| value[c as usize]);
                    match self.role(id as u32) {
                        Role::Max => vals.fold(f64::NEG_INFINITY, f64::max),
                        Role::Min => vals.fold(f64::INFINITY, f64::min),
                    }
                }
            };
        }
        value
    }

    /// The minimax value of the means below `node`.
    pub fn node_value(&self, node: u32) -> f64 {
        self.minimax(|l| self.means[l])[node as usize]
    }

    /// The tree's value: the minimax of the means.
    pub fn value(&self) -> f64 {
        self.node_value(0)
    }

    /// The value of each root move, left to right (none if the root is a leaf).
    pub fn root_values(&self) -> Vec<f64> {
        let value = self.minimax(|l| self.means[l]);
        self.children(0).map(|c| value[c as usize]).collect()
    }

    /// The root moves whose value is within `epsilon` of the best: the
    /// answers an (epsilon, delta)-correct search may give.
    pub fn good_moves(&self, epsilon: f64) -> Vec<usize> {
        let values = self.root_values();
        let best = self.value();
        values
            .iter()
            .enumerate()
            .filter(|&(_, &v)| match self.root_role {
                Role::Max => v >= best - epsilon,
                Role::Min => v <= best + epsilon,
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// The gap between the best root move's value and the second best's
    /// (0 with one move): how hard the tree is to decide.
    pub fn gap(&self) -> f64 {
        let mut v = self.root_values();
        if v.len() < 2 {
            return 0.0;
        }
        v.sort_by(f64::total_cmp);
        match self.root_role {
            Role::Max => v[v.len() - 1] - v[v.len() - 2],
            Role::Min => v[1] - v[0],
        }
    }

    /// The path (0-based child indices) from the root to leaf number `leaf`.
    pub fn path_of(&self, leaf: usize) -> Vec<u32> {
        self.path_to(self.leaf_node[leaf])
    }

    /// The path (0-based child indices) from the root to node `node`.
    pub fn path_to(&self, mut node: u32) -> Vec<u32> {
        let mut path = Vec::new();
        while node != 0 {
            let p = self.parent(node);
            path.push(node - self.first_child[p as usize]);
            node = p;
        }
        path.reverse();
        path
    }

    /// The tree in the text format, on one line.
    pub fn to_text(&self) -> String {
        self.text_with(format_mean)
    }

    /// The tree of the deterministic searches: every mean as a whole number
    /// of `10^-decimals`, with the fewest decimals (at most 6) that write
    /// every mean exactly; `None` if a mean needs more. Its minimax value is
    /// the tree's value times `10^decimals`, exactly.
    ///
    /// # Example
    /// ```
    /// use stockman::stochastic::BernoulliTree;
    /// use stockman::{Algorithm, Role, SearchOptions};
    /// let tree = BernoulliTree::parse("[[0.45, 0.5], [0.35, 0.6]]", Role::Max).unwrap();
    /// let (values, decimals) = tree.in_decimals().unwrap();
    /// assert_eq!(decimals, 2);
    /// let out = Algorithm::AlphaBeta.search(&values, &SearchOptions::default()).unwrap();
    /// assert_eq!(out.value, Some(45));
    /// // A mean of more than six decimals has no such tree.
    /// assert!(BernoulliTree::parse("[0.1234567, 0.5]", Role::Max).unwrap().in_decimals().is_none());
    /// ```
    pub fn in_decimals(&self) -> Option<(ExplicitTree, u32)> {
        let decimals = (0..=6u32).find(|&k| {
            let scale = 10f64.powi(k as i32);
            self.means.iter().all(|&m| (m * scale).round() / scale == m)
        })?;
        let scale = 10f64.powi(decimals as i32);
        let text = self.text_with(|m| format!("{}", (m * scale).round() as Value));
        let tree = ExplicitTree::parse(&text, self.root_role).ok()?;
        Some((tree, decimals))
    }

    /// The tree in the text format with each mean written by `leaf`.
    fn text_with(&self, leaf: impl Fn(f64) -> String) -> String {
        let mut out = String::new();
        let mut stack: Vec<(u32, u32)> = vec![(0, 0)];
        while let Some(&mut (n, ref mut i)) = stack.last_mut() {
            if let Some(l) = self.leaf_of(n) {
                out.push_str(&leaf(self.means[l]));
                stack.pop();
                continue;
            }
            let len = self.child_count[n as usize];
            if *i == 0 {
                out.push('[');
            } else if *i < len {
                out.push(',');
            }
            if *i == len {
                out.push(']');
                stack.pop();
                continue;
            }
            let c = self.first_child[n as usize] + *i;
            *i += 1;
            stack.push((c, 0));
        }
        out
    }
}

/// What a Bernoulli tree asks of its spec: iid values within `0..=1000`.
fn check_spec(spec: &RandomSpec) -> Result<(), SpecError> {
    if spec.model != ValueModel::Iid {
        return Err(SpecError(
            "a Bernoulli tree draws its means iid: drop `model=incremental`".into(),
        ));
    }
    if spec.range.0 < 0 || spec.range.1 > 1000 {
        return Err(SpecError(format!(
            "range {}..{} must lie within 0..1000: a Bernoulli tree's means are thousandths",
            spec.range.0, spec.range.1
        )));
    }
    Ok(())
}

/// A mean as the shortest decimal that reads back as the same number.
pub fn format_mean(p: f64) -> String {
    let s = format!("{p}");
    if s.contains('.') {
        s
    } else {
        format!("{s}.0")
    }
}

/// A decimal from 0 to 1 (`0.45`, `.5`, `1`, `0`); no exponents, signs or
/// words such as `nan`.
fn parse_probability(word: &str) -> Option<f64> {
    let ok = !word.is_empty()
        && word.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && word.bytes().filter(|&b| b == b'.').count() <= 1
        && word.bytes().any(|b| b.is_ascii_digit());
    let p = word.parse::<f64>().ok().filter(|_| ok)?;
    (0.0..=1.0).contains(&p).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The deterministic tree of a random Bernoulli tree holds its
    /// thousandths (or fewer decimals), and its minimax value is the value of
    /// the means, scaled: the deterministic searches of a compare page solve
    /// the same tree.
    #[test]
    fn the_tree_in_decimals_has_the_same_minimax() {
        for seed in 0..20 {
            let t = BernoulliTree::random(&format!("width=3,depth=3,seed={seed},model=bernoulli")).unwrap();
            let (values, k) = t.in_decimals().unwrap();
            assert!(k <= 3);
            let out = crate::Algorithm::AlphaBeta
                .search(&values, &crate::SearchOptions::default())
                .unwrap();
            assert_eq!(out.value, Some((t.value() * 10f64.powi(k as i32)).round() as Value));
            assert!(t.good_moves(0.0).contains(&out.best_index.unwrap()));
        }
    }

    #[test]
    fn parses_means_and_numbers_leaves_left_to_right() {
        let t = BernoulliTree::parse("[[0.1, [0.2, 0.3]], 0.4]", Role::Max).unwrap();
        assert_eq!(t.means(), &[0.1, 0.2, 0.3, 0.4]);
        assert_eq!(t.path_of(2), vec![0, 1, 1]);
        assert_eq!(t.to_text(), "[[0.1,[0.2,0.3]],0.4]");
        // MAX of (MIN of 0.1 and MAX(0.2, 0.3)) and 0.4.
        assert_eq!(t.value(), 0.4);
        assert_eq!(t.root_values(), vec![0.1, 0.4]);
        assert_eq!(t.role(1), Role::Min);
    }

    #[test]
    fn refuses_what_is_not_a_probability_with_its_place() {
        for (text, col, what) in [
            ("[0.5, 1.5]", 7, "1.5"),
            ("[0.5,\n -0.1]", 2, "-0.1"),
            ("[0.5, 1e-3]", 7, "1e-3"),
            ("[nan]", 2, "nan"),
            ("[0.5, .]", 7, "."),
        ] {
            let e = BernoulliTree::parse(text, Role::Max).unwrap_err();
            assert_eq!(e.column, col, "{text}");
            assert_eq!(e.kind, ParseErrorKind::NotAProbability(what.into()), "{text}");
            assert!(e.to_string().contains("not a probability"), "{e}");
        }
        assert_eq!(
            BernoulliTree::parse("[0.5, 1, 0, .25]", Role::Max).unwrap().means(),
            &[0.5, 1.0, 0.0, 0.25]
        );
    }

    #[test]
    fn random_trees_are_the_generator_s_thousandths() {
        let t = BernoulliTree::random("width=3,depth=2,seed=4,model=bernoulli").unwrap();
        let ints = RandomSpec::parse("width=3,depth=2,seed=4").unwrap();
        let shape = ExplicitTree::from_game(&RandomTree::new(ints), None, 100).unwrap();
        let mut leaves: Vec<f64> = Vec::new();
        for c in shape.children(0) {
            for &l in shape.children(*c) {
                leaves.push(f64::from(shape.leaf_value(l)) / 1000.0);
            }
        }
        assert_eq!(t.means(), &leaves[..]);
        assert_eq!(BernoulliTree::parse(&t.to_text(), Role::Max).unwrap(), t);
        for bad in [
            "width=3,depth=2",
            "width=3,depth=2,model=bernoulli,range=0..2000",
            "width=3,depth=2,model=bernoulli,model=iid",
        ] {
            assert!(BernoulliTree::random(bad).is_err(), "{bad}");
        }
        let e = BernoulliTree::random("width=64,depth=5,model=bernoulli").unwrap_err();
        assert!(e.to_string().contains("leaves"), "{e}");
    }

    #[test]
    fn good_moves_and_gap() {
        let t = BernoulliTree::uniform(3, 1, &[0.5, 0.7, 0.65], Role::Max);
        assert_eq!(t.good_moves(0.0), vec![1]);
        assert_eq!(t.good_moves(0.06), vec![1, 2]);
        assert!((t.gap() - 0.05).abs() < 1e-12);
        let m = BernoulliTree::uniform(3, 1, &[0.5, 0.7, 0.65], Role::Min);
        assert_eq!(m.good_moves(0.0), vec![0]);
    }
}
