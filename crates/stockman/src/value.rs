//! Minimax values, their range, and the two roles a node can have.

use serde::{Deserialize, Serialize};

/// A minimax value, always seen from MAX's point of view.
///
/// Leaf values lie in [`VALUE_MIN`]`..=`[`VALUE_MAX`]; the searches use
/// `-`[`INF`] and `+`[`INF`] as the infinities, which lie just outside that
/// range so that `g - 1`, `g + 1` and negation never overflow.
pub type Value = i32;

/// The smallest value a leaf may have: -1,000,000,000.
pub const VALUE_MIN: Value = -1_000_000_000;
/// The largest value a leaf may have: 1,000,000,000.
pub const VALUE_MAX: Value = 1_000_000_000;
/// Plus infinity for the searches: larger than every leaf value.
pub const INF: Value = VALUE_MAX + 1;

/// Whose turn it is at a node: MAX maximises the value, MIN minimises it.
///
/// SSS\* is defined on MAX/MIN trees, not on negamax trees, so every node
/// carries its role explicitly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The maximising player moves here.
    Max,
    /// The minimising player moves here.
    Min,
}

impl Role {
    /// Its name in specs, files and options: `max` or `min`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Max => "max",
            Role::Min => "min",
        }
    }

    /// The other role.
    #[inline]
    pub fn opponent(self) -> Role {
        match self {
            Role::Max => Role::Min,
            Role::Min => Role::Max,
        }
    }

    /// Whether `a` is better than `b` for this role (strictly).
    #[inline]
    pub fn prefers(self, a: Value, b: Value) -> bool {
        match self {
            Role::Max => a > b,
            Role::Min => a < b,
        }
    }

    /// The worst value this role could end up with: -INF for MAX, +INF for MIN.
    #[inline]
    pub fn worst(self) -> Value {
        match self {
            Role::Max => -INF,
            Role::Min => INF,
        }
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Role::Max => "MAX",
            Role::Min => "MIN",
        })
    }
}

impl std::str::FromStr for Role {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "max" => Ok(Role::Max),
            "min" => Ok(Role::Min),
            _ => Err(format!("unknown role `{s}` (expected `max` or `min`)")),
        }
    }
}

/// A window bound for a trace: like [`fmt_value`], and the null windows
/// next to an infinity (MT-SSS\*'s first pass tests `(+inf-1, +inf)`,
/// MT-Dual\*'s `(-inf, -inf+1)`) say so instead of printing 10^9.
pub fn fmt_window(v: Value) -> String {
    match v {
        v if v == INF - 1 => "+inf-1".to_string(),
        v if v == -INF + 1 => "-inf+1".to_string(),
        v => fmt_value(v),
    }
}

/// Formats a search value, writing the infinities as `+inf` and `-inf`.
pub fn fmt_value(v: Value) -> String {
    if v >= INF {
        "+inf".to_string()
    } else if v <= -INF {
        "-inf".to_string()
    } else {
        v.to_string()
    }
}
