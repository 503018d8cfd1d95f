//! The merge rules every kind of shard answers to: a positions batch's
//! JSON outputs here, an experiment grid's results files in
//! `stockman-lab`. One piece of code, so that the two merges refuse the
//! same things with the same words.
//!
//! A run cut into `N` shards is whole again when every shard `1..=N` is
//! there once, all of them say `N`, all of them ran the same thing (one
//! digest of everything that changes a row: the input, the game, the
//! algorithms, the depth, the limits, the table, the threads, iterative
//! deepening) and each holds every row its round-robin share owes.
//!
//! # Example
//! ```
//! use stockman::run::shards::rules::{check, share, Part};
//! let part = |index: u32, rows: u64| Part {
//!     name: format!("results-{index}-of-3.csv"),
//!     index,
//!     count: 3,
//!     settings: vec![("seeds".into(), "2".into())],
//!     digest: "d".into(),
//!     owed: share(7, index, 3),
//!     rows,
//! };
//! assert!(check(&[part(1, 3), part(2, 2), part(3, 2)]).is_ok());
//! let e = check(&[part(1, 3), part(2, 2)]).unwrap_err();
//! assert_eq!(e.to_string(), "shard 3 of 3 missing");
//! let e = check(&[part(1, 3), part(2, 1), part(3, 2)]).unwrap_err();
//! assert_eq!(e.to_string(), "results-2-of-3.csv: 1 rows, expected 2 (cut short? run shard 2 of 3 again)");
//! ```

use std::fmt;

/// What the merge rules need to know of one shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Where it was read from (every message names it).
    pub name: String,
    /// `K`, from 1.
    pub index: u32,
    /// `N`.
    pub count: u32,
    /// What it ran, setting by setting (`game`, `tictactoe`): the message
    /// of a mixed merge names the first setting that differs.
    pub settings: Vec<(String, String)>,
    /// A digest of everything that changes a row (the settings above and
    /// any the list leaves out): shards of one run have the same.
    pub digest: String,
    /// The rows its share owes ([`share`] times the rows per item).
    pub owed: u64,
    /// The rows it holds.
    pub rows: u64,
}

/// The items (positions, grid jobs) that shard `index` of `count` owns of
/// `items`: those of number `i` (from 0) with `i % count == index - 1`.
pub fn share(items: u64, index: u32, count: u32) -> u64 {
    let (k, n) = (u64::from(index), u64::from(count.max(1)));
    items / n + u64::from(items % n >= k)
}

/// A digest of `bytes` (FNV-1a, 64 bits, in hex): every platform and
/// release computes it alike, so shards run on different machines compare.
pub fn digest(bytes: &[u8]) -> String {
    let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{h:016x}")
}

/// Why shards cannot be merged. Every message names the file and what is
/// missing or mixed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// No shard given.
    Nothing,
    /// Two shards of different runs (shard count, input, settings).
    Mismatch {
        /// The shard the others are held to.
        first: String,
        /// The one that differs.
        other: String,
        /// What differs (`shard count`, `game`, `other settings`).
        what: String,
        /// Its value in `other`.
        theirs: String,
        /// Its value in `first`.
        ours: String,
    },
    /// A shard given twice.
    Twice {
        /// `K of N`.
        shard: String,
        /// The two files.
        files: [String; 2],
    },
    /// Shards missing.
    Missing {
        /// Their `K`.
        shards: Vec<u32>,
        /// `N`.
        count: u32,
    },
    /// A shard with fewer or more rows than it owes (stopped early, or cut).
    Incomplete {
        /// Its file.
        name: String,
        /// `K of N`.
        shard: String,
        /// The rows it has.
        rows: u64,
        /// The rows it owes.
        owed: u64,
    },
    /// A row that is not one its shard owes, or out of order.
    Stray {
        /// Its file.
        name: String,
        /// Which row, in the words of the kind of shard (`a row for line 4`).
        row: String,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Nothing => f.write_str("no shard to merge"),
            MergeError::Mismatch {
                first,
                other,
                what,
                theirs,
                ours,
            } => write!(
                f,
                "{other}: {what} {theirs} differs from {ours} in {first}: the two are shards of different runs"
            ),
            MergeError::Twice { shard, files } => {
                write!(f, "shard {shard} is given twice: {} and {}", files[0], files[1])
            }
            MergeError::Missing { shards, count } => {
                let list: Vec<String> = shards.iter().map(u32::to_string).collect();
                let s = if shards.len() == 1 { "" } else { "s" };
                write!(f, "shard{s} {} of {count} missing", list.join(", "))
            }
            MergeError::Incomplete {
                name,
                shard,
                rows,
                owed,
            } => write!(
                f,
                "{name}: {rows} rows, expected {owed} (cut short? run shard {shard} again)"
            ),
            MergeError::Stray { name, row } => {
                write!(f, "{name}: {row} is not its shard's, or comes out of order")
            }
        }
    }
}

impl std::error::Error for MergeError {}

/// Checks that `parts` are every shard of one run, once, each complete.
/// The shard count most of them give is the run's (a stray file of
/// another count is the one named); the first part of that count is the
/// one the others' settings are held to.
///
/// # Errors
/// The first rule broken, in this order: no part, a shard count, a
/// setting or the digest that differs, a shard given twice, shards
/// missing, a shard with other than the rows it owes.
pub fn check(parts: &[Part]) -> Result<(), MergeError> {
    if parts.is_empty() {
        return Err(MergeError::Nothing);
    }
    // The most common count (the first to reach it on a tie).
    let votes = |n: u32| parts.iter().filter(|p| p.count == n).count();
    let count = parts
        .iter()
        .map(|p| p.count)
        .fold(parts[0].count, |best, n| if votes(n) > votes(best) { n } else { best });
    let first = parts
        .iter()
        .find(|p| p.count == count)
        .expect("the count is one of theirs");
    let mismatch = |other: &Part, what: &str, theirs: &str, ours: &str| MergeError::Mismatch {
        first: first.name.clone(),
        other: other.name.clone(),
        what: what.to_string(),
        theirs: theirs.to_string(),
        ours: ours.to_string(),
    };
    for p in parts {
        if p.count != count {
            return Err(mismatch(p, "shard count", &p.count.to_string(), &count.to_string()));
        }
    }
    for p in parts {
        for (what, ours) in &first.settings {
            let theirs = p
                .settings
                .iter()
                .find(|(w, _)| w == what)
                .map_or("(none)", |(_, v)| v.as_str());
            if theirs != ours {
                return Err(mismatch(p, what, theirs, ours));
            }
        }
        if let Some((what, theirs)) = p
            .settings
            .iter()
            .find(|(w, _)| !first.settings.iter().any(|(o, _)| o == w))
        {
            return Err(mismatch(p, what, theirs, "(none)"));
        }
        if p.digest != first.digest {
            return Err(mismatch(p, "settings digest", &p.digest, &first.digest));
        }
    }
    let mut by_index: Vec<&Part> = parts.iter().collect();
    by_index.sort_by_key(|p| p.index);
    for w in by_index.windows(2) {
        if w[0].index == w[1].index {
            return Err(MergeError::Twice {
                shard: format!("{} of {count}", w[0].index),
                files: [w[0].name.clone(), w[1].name.clone()],
            });
        }
    }
    let missing: Vec<u32> = (1..=count)
        .filter(|k| !by_index.iter().any(|p| p.index == *k))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing { shards: missing, count });
    }
    for p in by_index {
        if p.rows != p.owed {
            return Err(MergeError::Incomplete {
                name: p.name.clone(),
                shard: format!("{} of {count}", p.index),
                rows: p.rows,
                owed: p.owed,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(name: &str, index: u32, count: u32, game: &str) -> Part {
        Part {
            name: name.into(),
            index,
            count,
            settings: vec![("game".into(), game.into())],
            digest: format!("{game}-digest"),
            owed: share(5, index, count),
            rows: share(5, index, count),
        }
    }

    /// A stray file of another count is the one named, not the run's
    /// majority; a mixed setting is named with both values.
    #[test]
    fn the_odd_one_out_is_named() {
        let three = || {
            (1..=3)
                .map(|k| part(&format!("{k}-of-3"), k, 3, "tictactoe"))
                .collect::<Vec<_>>()
        };
        let mut parts = vec![part("1-of-2", 1, 2, "tictactoe")];
        parts.extend(three());
        assert_eq!(
            check(&parts).unwrap_err().to_string(),
            "1-of-2: shard count 2 differs from 3 in 1-of-3: the two are shards of different runs"
        );
        let mut mixed = three();
        mixed[1] = part("2-of-3", 2, 3, "connect4");
        assert_eq!(
            check(&mixed).unwrap_err().to_string(),
            "2-of-3: game connect4 differs from tictactoe in 1-of-3: the two are shards of different runs"
        );
        let mut hidden = three();
        hidden[2].digest = "other".into();
        assert!(matches!(check(&hidden), Err(MergeError::Mismatch { what, .. }) if what == "settings digest"));
        let mut twice = three();
        twice.push(part("again", 2, 3, "tictactoe"));
        assert_eq!(
            check(&twice).unwrap_err().to_string(),
            "shard 2 of 3 is given twice: 2-of-3 and again"
        );
        assert_eq!(
            check(&three()[..1]).unwrap_err().to_string(),
            "shards 2, 3 of 3 missing"
        );
        assert_eq!(check(&[]), Err(MergeError::Nothing));
        assert_eq!(check(&three()), Ok(()));
    }

    /// Round robin: of 7 items in 3 shards, the first owes 3 and the others 2.
    #[test]
    fn every_shard_owes_its_round_robin_share() {
        assert_eq!((1..=3).map(|k| share(7, k, 3)).collect::<Vec<_>>(), [3, 2, 2]);
        assert_eq!(share(3, 5, 5), 0);
    }
}
