//! Seeded random trees, generated lazily: the research models.

use crate::game::Game;
use crate::value::{Role, Value, VALUE_MAX, VALUE_MIN};
use std::fmt;

/// How leaf values are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueModel {
    /// Independent, identically distributed leaves, uniform in `range`.
    Iid,
    /// Every edge adds an increment uniform in `range`; a leaf's value is the
    /// sum along its path (Newborn's dependent model used in the classic
    /// simulations, where sibling subtrees have correlated values).
    Incremental,
}

/// The parameters of a random tree: `width=8,depth=8,seed=1,...`.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomSpec {
    /// Branching factor (the maximum branching when `variable`).
    pub width: u32,
    /// Depth in plies; every leaf lies at this depth.
    pub depth: u32,
    /// The seed: the same spec gives the same tree on every platform and release.
    pub seed: u64,
    /// How leaf values are drawn.
    pub model: ValueModel,
    /// Leaf values (iid) or edge increments (incremental), inclusive.
    pub range: (Value, Value),
    /// Whether each node's branching is drawn uniformly from `1..=width`.
    pub variable: bool,
    /// If set, the probability that a node's best child comes first; values
    /// are then assigned top-down (see [`RandomTree`]).
    pub order: Option<f64>,
    /// The role of the root.
    pub root_role: Role,
}

/// What is wrong with a random-tree spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid random tree spec: {}", self.0)
    }
}

impl std::error::Error for SpecError {}

/// The largest width a random tree may have.
pub const MAX_WIDTH: u32 = 1 << 16;
/// The largest depth a random tree may have.
pub const MAX_DEPTH: u32 = 512;

impl RandomSpec {
    /// A spec with the defaults: iid leaves in `0..=1000`, fixed branching,
    /// random ordering, root MAX.
    pub fn new(width: u32, depth: u32, seed: u64) -> RandomSpec {
        RandomSpec {
            width,
            depth,
            seed,
            model: ValueModel::Iid,
            range: (0, 1000),
            variable: false,
            order: None,
            root_role: Role::Max,
        }
    }

    /// [`RandomSpec::parse`] with the caller's root role (`--root`), if
    /// any: a spec that names its root (`root=min`) and another role asked
    /// is an error, never a silent choice.
    pub fn parse_with_root(spec: &str, asked: Option<Role>) -> Result<RandomSpec, SpecError> {
        let mut s = RandomSpec::parse(spec)?;
        let declares = spec
            .split(',')
            .any(|part| part.split_once('=').is_some_and(|(k, _)| k.trim() == "root"));
        match asked {
            Some(role) if declares && role != s.root_role => {
                return Err(SpecError(format!(
                    "the spec says root={} but a {} root was asked for: drop one of the two",
                    s.root_role.as_str(),
                    role.as_str()
                )))
            }
            Some(role) => s.root_role = role,
            None => {}
        }
        Ok(s)
    }

    /// Parses `key=value` pairs separated by commas. Keys: `width`, `depth`
    /// (required), `seed` (default 0), `model=iid|incremental`,
    /// `range=LO..HI` (default `0..1000` for iid, `-100..100` for incremental),
    /// `variable=true|false`, `order=P` (0 to 1), `root=max|min`.
    pub fn parse(spec: &str) -> Result<RandomSpec, SpecError> {
        let mut width = None;
        let mut depth = None;
        let mut seed = 0u64;
        let mut model = ValueModel::Iid;
        let mut range = None;
        let mut variable = false;
        let mut order = None;
        let mut root_role = Role::Max;
        let mut seen = std::collections::HashSet::new();
        for part in spec.split(',').map(str::trim) {
            if part.is_empty() {
                return Err(SpecError(format!("empty item in `{spec}`")));
            }
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| SpecError(format!("`{part}` is not of the form key=value")))?;
            let (key, value) = (key.trim(), value.trim());
            if !seen.insert(key.to_string()) {
                return Err(SpecError(format!("`{key}` is given twice")));
            }
            let bad = |what: &str| SpecError(format!("`{key}={value}`: {what}"));
            match key {
                "width" => width = Some(value.parse::<u32>().map_err(|_| bad("expected a whole number"))?),
                "depth" => depth = Some(value.parse::<u32>().map_err(|_| bad("expected a whole number"))?),
                "seed" => seed = value.parse::<u64>().map_err(|_| bad("expected a whole number"))?,
                "model" => {
                    model = match value {
                        "iid" => ValueModel::Iid,
                        "incremental" | "inc" => ValueModel::Incremental,
                        _ => return Err(bad("expected `iid` or `incremental`")),
                    }
                }
                "range" => {
                    let (lo, hi) = value
                        .split_once("..")
                        .ok_or_else(|| bad("expected LO..HI, for example 0..1000"))?;
                    let lo = lo.trim().parse::<Value>().map_err(|_| bad("LO is not an integer"))?;
                    let hi = hi.trim().parse::<Value>().map_err(|_| bad("HI is not an integer"))?;
                    if lo > hi {
                        return Err(bad("LO is larger than HI"));
                    }
                    range = Some((lo, hi));
                }
                "variable" => {
                    variable = match value {
                        "true" | "1" | "yes" => true,
                        "false" | "0" | "no" => false,
                        _ => return Err(bad("expected true or false")),
                    }
                }
                "order" => {
                    let p = value.parse::<f64>().map_err(|_| bad("expected a probability"))?;
                    if !(0.0..=1.0).contains(&p) {
                        return Err(bad("a probability lies between 0 and 1"));
                    }
                    order = Some(p);
                }
                "root" => root_role = value.parse().map_err(|e: String| bad(&e))?,
                _ => {
                    return Err(SpecError(format!(
                        "unknown key `{key}` (known: width, depth, seed, model, range, variable, order, root)"
                    )))
                }
            }
        }
        let width = width.ok_or_else(|| SpecError("`width` is missing".into()))?;
        let depth = depth.ok_or_else(|| SpecError("`depth` is missing".into()))?;
        let range = range.unwrap_or(match model {
            ValueModel::Iid => (0, 1000),
            ValueModel::Incremental => (-100, 100),
        });
        let s = RandomSpec {
            width,
            depth,
            seed,
            model,
            range,
            variable,
            order,
            root_role,
        };
        s.validate()?;
        Ok(s)
    }

    /// Checks the bounds: width `1..=65536`, depth `0..=512`, and values that
    /// cannot leave `VALUE_MIN..=VALUE_MAX`.
    pub fn validate(&self) -> Result<(), SpecError> {
        if !(1..=MAX_WIDTH).contains(&self.width) {
            return Err(SpecError(format!("width {} is not in 1..={MAX_WIDTH}", self.width)));
        }
        if self.depth > MAX_DEPTH {
            return Err(SpecError(format!("depth {} is larger than {MAX_DEPTH}", self.depth)));
        }
        let (lo, hi) = self.range;
        if lo < VALUE_MIN || hi > VALUE_MAX || lo > hi {
            return Err(SpecError(format!(
                "range {lo}..{hi} must lie within {VALUE_MIN}..{VALUE_MAX}"
            )));
        }
        if self.model == ValueModel::Incremental {
            let step = (lo as i64).abs().max((hi as i64).abs());
            if step * self.depth as i64 > VALUE_MAX as i64 {
                return Err(SpecError(format!(
                    "increments up to {step} over depth {} could leave the value range; narrow `range`",
                    self.depth
                )));
            }
        }
        Ok(())
    }
}

impl fmt::Display for RandomSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "width={},depth={},seed={},model={},range={}..{}",
            self.width,
            self.depth,
            self.seed,
            match self.model {
                ValueModel::Iid => "iid",
                ValueModel::Incremental => "incremental",
            },
            self.range.0,
            self.range.1
        )?;
        if self.variable {
            write!(f, ",variable=true")?;
        }
        if let Some(p) = self.order {
            write!(f, ",order={p}")?;
        }
        if self.root_role == Role::Min {
            write!(f, ",root=min")?;
        }
        Ok(())
    }
}

/// A random tree that exists only as a function of its seed.
///
/// Nothing is stored: a node is its 64-bit id, its depth and one value, and
/// its children and leaf value are recomputed from the id whenever asked, so
/// a tree of width 8 and depth 10 (10^9 leaves) costs no memory.
///
/// # The generator
/// Everything comes from the SplitMix64 finaliser `mix` (Steele, Lea and
/// Flood 2014), on wrapping 64-bit integer arithmetic only, so every
/// platform and release generates the same tree:
/// - root id `mix(seed ^ 0x53544f434b4d414e)`; the id of child `i` (0-based)
///   of node `n` is `mix(n + (i + 1) * 0x9e3779b97f4a7c15)`;
/// - a node's k-th draw is `mix(id + k * 0xd1b54a32d192ed03)`, and a draw `r`
///   becomes an integer in `lo..=hi` as `lo + floor(r * (hi - lo + 1) / 2^64)`;
/// - draw 1 is the branching (`1..=width` when `variable`), draw 2 a leaf's
///   iid value, draw 3 a node's increment from its parent (incremental);
/// - with `order=P`, draw 4 decides whether the best child is first
///   (`r < P * 2^64`) and otherwise draw 5 picks it among the others; each
///   node knows its own minimax value `v`: the best child gets `v`, every
///   other child of a MAX node a value in `lo..=v` (iid) or `v - |increment|`
///   (incremental), of a MIN node `v..=hi` or `v + |increment|`; the root's
///   value is draw 2 (iid) or 0 (incremental), and a leaf's value is its `v`.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomTree {
    spec: RandomSpec,
    root_id: u64,
}

/// A node of a [`RandomTree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RandomNode {
    /// The node's 64-bit id, from which everything about it is drawn.
    pub id: u64,
    /// Incremental model: the sum of increments down to here; with `order`:
    /// the node's minimax value; iid: unused (0).
    pub value: Value,
    /// Depth (the root has depth 0).
    pub depth: u32,
}

/// The SplitMix64 finaliser: a bijective mixing of 64 bits.
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[inline]
fn draw(id: u64, k: u64) -> u64 {
    mix(id.wrapping_add(k.wrapping_mul(0xd1b5_4a32_d192_ed03)))
}

/// An integer uniform in `lo..=hi` from 64 random bits (Lemire's multiply-shift).
#[inline]
fn uniform(r: u64, lo: i64, hi: i64) -> i64 {
    let span = (hi - lo + 1) as u128;
    lo + ((r as u128 * span) >> 64) as i64
}

impl RandomTree {
    /// The tree of this spec.
    ///
    /// # Panics
    /// If the spec does not pass [`RandomSpec::validate`]; specs from
    /// [`RandomSpec::parse`] always do.
    pub fn new(spec: RandomSpec) -> RandomTree {
        spec.validate().expect("valid random spec");
        let root_id = mix(spec.seed ^ 0x5354_4f43_4b4d_414e);
        RandomTree { spec, root_id }
    }

    /// The spec this tree was generated from.
    pub fn spec(&self) -> &RandomSpec {
        &self.spec
    }

    #[inline]
    fn branching(&self, node: &RandomNode) -> u32 {
        if node.depth >= self.spec.depth {
            0
        } else if self.spec.variable {
            uniform(draw(node.id, 1), 1, self.spec.width as i64) as u32
        } else {
            self.spec.width
        }
    }

    #[inline]
    fn increment(&self, id: u64) -> i64 {
        uniform(draw(id, 3), self.spec.range.0 as i64, self.spec.range.1 as i64)
    }

    /// Ordered mode: the value of child `i` of `parent`, whose value is `parent.value`.
    fn ordered_child_value(&self, parent: &RandomNode, i: u32, child_id: u64) -> Value {
        let b = self.branching(parent);
        let p = self.spec.order.expect("ordered mode");
        let first = (draw(parent.id, 4) as f64) < p * 18_446_744_073_709_551_616.0;
        let best = if first || b == 1 {
            0
        } else {
            uniform(draw(parent.id, 5), 1, b as i64 - 1) as u32
        };
        let v = parent.value as i64;
        if i == best {
            return v as Value;
        }
        let (lo, hi) = (self.spec.range.0 as i64, self.spec.range.1 as i64);
        let max_parent = self.role(parent) == Role::Max;
        let w = match self.spec.model {
            ValueModel::Iid => {
                if max_parent {
                    uniform(draw(child_id, 2), lo, v)
                } else {
                    uniform(draw(child_id, 2), v, hi)
                }
            }
            ValueModel::Incremental => {
                let step = self.increment(child_id).abs();
                if max_parent {
                    v - step
                } else {
                    v + step
                }
            }
        };
        w as Value
    }
}

impl Game for RandomTree {
    type Position = RandomNode;
    type Move = u32;

    fn root(&self) -> RandomNode {
        let value = match (self.spec.order, self.spec.model) {
            (Some(_), ValueModel::Iid) => uniform(
                draw(self.root_id, 2),
                self.spec.range.0 as i64,
                self.spec.range.1 as i64,
            ) as Value,
            _ => 0,
        };
        RandomNode {
            id: self.root_id,
            value,
            depth: 0,
        }
    }

    #[inline]
    fn role(&self, pos: &RandomNode) -> Role {
        if pos.depth.is_multiple_of(2) {
            self.spec.root_role
        } else {
            self.spec.root_role.opponent()
        }
    }

    #[inline]
    fn moves(&self, pos: &RandomNode, out: &mut Vec<u32>) {
        out.extend(0..self.branching(pos));
    }

    #[inline]
    fn play(&self, pos: &RandomNode, mv: u32) -> RandomNode {
        let id = mix(pos.id.wrapping_add((mv as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)));
        let value = if self.spec.order.is_some() {
            self.ordered_child_value(pos, mv, id)
        } else {
            match self.spec.model {
                ValueModel::Iid => 0,
                ValueModel::Incremental => (pos.value as i64 + self.increment(id)) as Value,
            }
        };
        RandomNode {
            id,
            value,
            depth: pos.depth + 1,
        }
    }

    #[inline]
    fn evaluate(&self, pos: &RandomNode) -> Value {
        if self.spec.order.is_none() && self.spec.model == ValueModel::Iid {
            uniform(draw(pos.id, 2), self.spec.range.0 as i64, self.spec.range.1 as i64) as Value
        } else {
            pos.value
        }
    }

    #[inline]
    fn hash(&self, pos: &RandomNode) -> Option<u64> {
        Some(pos.id)
    }

    /// What the spec allows: the leaf range for iid values; for
    /// incremental values, `depth` increments from the root's 0 (ordered
    /// trees step away from the parent by at most the largest increment).
    fn value_range(&self) -> (Value, Value) {
        let (lo, hi) = (self.spec.range.0 as i64, self.spec.range.1 as i64);
        let d = i64::from(self.spec.depth);
        let (lo, hi) = match (self.spec.model, self.spec.order) {
            (ValueModel::Iid, _) => (lo, hi),
            (ValueModel::Incremental, None) => (d * lo, d * hi),
            (ValueModel::Incremental, Some(_)) => {
                let m = lo.abs().max(hi.abs());
                (-d * m, d * m)
            }
        };
        let clamp = |v: i64| v.clamp(crate::VALUE_MIN as i64, crate::VALUE_MAX as i64) as Value;
        (clamp(lo), clamp(hi))
    }

    fn name(&self) -> &str {
        "random tree"
    }
}
