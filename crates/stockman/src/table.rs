//! Transposition tables: bounds on positions' values, shared by the searches
//! that use memory (the MT drivers, and alpha-beta and NegaScout on request).

use crate::search::TableSize;
use crate::value::{Value, INF};
use std::collections::HashMap;

/// What a table knows about a position: `lower <= value <= upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// A lower bound on the value (`-INF` if none).
    pub lower: Value,
    /// An upper bound on the value (`+INF` if none).
    pub upper: Value,
    /// The remaining depth the bounds hold for; `u32::MAX` for a search to
    /// terminal positions. Bounds are used only at the same draft, so a
    /// fixed-depth search never mixes in values of another depth.
    pub draft: u32,
    /// Index of the best move found (the one that caused a cutoff), or [`NO_MOVE`].
    pub best: u32,
}

/// [`Entry::best`] when no move is known.
pub const NO_MOVE: u32 = u32::MAX;

impl Entry {
    /// An entry that knows nothing at this draft.
    pub fn unknown(draft: u32) -> Entry {
        Entry {
            lower: -INF,
            upper: INF,
            draft,
            best: NO_MOVE,
        }
    }
}

/// A store of [`Entry`]s keyed by 64-bit position hashes.
///
/// A table may forget or overwrite entries at will: that can cost a search
/// nodes, never change its result, because every entry holds for the full
/// 64-bit key it was stored under.
pub trait Table {
    /// Whether this table can hold anything: searches skip hashing when not.
    const ENABLED: bool = true;
    /// The entry stored under `key`, if any.
    fn probe(&mut self, key: u64) -> Option<Entry>;
    /// Stores `entry` under `key`, replacing what was there.
    fn store(&mut self, key: u64, entry: Entry);
    /// Forgets everything.
    fn clear(&mut self);
}

/// A borrowed table: lets a caller keep one table across several searches
/// (iterative deepening does).
impl<T: Table + ?Sized> Table for &mut T {
    const ENABLED: bool = T::ENABLED;
    #[inline]
    fn probe(&mut self, key: u64) -> Option<Entry> {
        (**self).probe(key)
    }
    #[inline]
    fn store(&mut self, key: u64, entry: Entry) {
        (**self).store(key, entry)
    }
    fn clear(&mut self) {
        (**self).clear()
    }
}

/// No table at all: probes miss, stores vanish. Compiles away.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTable;

impl Table for NoTable {
    const ENABLED: bool = false;
    #[inline]
    fn probe(&mut self, _key: u64) -> Option<Entry> {
        None
    }
    #[inline]
    fn store(&mut self, _key: u64, _entry: Entry) {}
    fn clear(&mut self) {}
}

/// A table that never forgets: a hash map of every entry stored.
///
/// The MT drivers are equivalent to SSS\* and Dual\* only when no entry is
/// lost, so this is the default for them.
#[derive(Clone, Debug, Default)]
pub struct MapTable {
    map: HashMap<u64, Entry>,
}

impl MapTable {
    /// An empty table.
    pub fn new() -> MapTable {
        MapTable::default()
    }
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.map.len()
    }
    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

impl Table for MapTable {
    #[inline]
    fn probe(&mut self, key: u64) -> Option<Entry> {
        self.map.get(&key).copied()
    }
    #[inline]
    fn store(&mut self, key: u64, entry: Entry) {
        self.map.insert(key, entry);
    }
    fn clear(&mut self) {
        self.map.clear();
    }
}

/// A table of fixed memory: buckets of two slots, indexed by the key's mixed low bits.
///
/// # Replacement policy
/// A key already in its bucket is updated in place. Otherwise the first slot
/// is *depth-preferred*: it takes the new entry only if the new draft is at
/// least the draft it holds (deeper searches are costlier to redo), and its
/// old entry moves down to the second slot, which *always* takes what comes.
/// This is the classic two-tier scheme (Breuker, Uiterwijk and van den Herik
/// 1994). The full 64-bit key is kept, so an overwritten or colliding entry
/// is never mistaken for another position's.
///
/// The slots are plain zeroed arrays, so a large table costs nothing until
/// it is written to.
#[derive(Clone, Debug)]
pub struct FixedTable {
    /// Per slot: the key plus one (0 marks an empty slot).
    keys: Vec<u64>,
    entries: Vec<[u32; 4]>,
    mask: usize,
}

impl FixedTable {
    /// A table of about `megabytes` MiB (at least one bucket), rounded down to a power of two buckets.
    pub fn with_megabytes(megabytes: usize) -> FixedTable {
        let bytes = megabytes.max(1) << 20;
        let buckets = (bytes / (2 * Self::SLOT_BYTES)).max(1);
        FixedTable::with_buckets(1 << (usize::BITS - 1 - buckets.leading_zeros()))
    }

    const SLOT_BYTES: usize = 8 + 16;

    /// A table of exactly `buckets` buckets (a power of two) of two slots each.
    ///
    /// # Panics
    /// If `buckets` is not a power of two.
    pub fn with_buckets(buckets: usize) -> FixedTable {
        assert!(buckets.is_power_of_two(), "bucket count must be a power of two");
        FixedTable {
            keys: vec![0; 2 * buckets],
            entries: vec![[0; 4]; 2 * buckets],
            mask: buckets - 1,
        }
    }

    /// Number of slots (two per bucket).
    pub fn capacity(&self) -> usize {
        self.keys.len()
    }

    /// Bytes of memory the slots take.
    pub fn bytes(&self) -> usize {
        self.keys.len() * Self::SLOT_BYTES
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // Mix so that keys that are small integers (explicit trees) spread out.
        (crate::trees::random::mix(key) as usize & self.mask) * 2
    }

    #[inline]
    fn find(&self, key: u64) -> Option<usize> {
        let b = self.bucket(key);
        let tag = key.wrapping_add(1);
        (b..b + 2).find(|&i| self.keys[i] == tag && tag != 0)
    }

    #[inline]
    fn unpack(e: [u32; 4]) -> Entry {
        Entry {
            lower: e[0] as i32,
            upper: e[1] as i32,
            draft: e[2],
            best: e[3],
        }
    }
}

impl Table for FixedTable {
    #[inline]
    fn probe(&mut self, key: u64) -> Option<Entry> {
        self.find(key).map(|i| Self::unpack(self.entries[i]))
    }

    #[inline]
    fn store(&mut self, key: u64, entry: Entry) {
        let tag = key.wrapping_add(1);
        if tag == 0 {
            return; // the one key that cannot be told from an empty slot
        }
        let b = self.bucket(key);
        let i = if let Some(i) = self.find(key) {
            i
        } else if self.keys[b] == 0 || entry.draft >= self.entries[b][2] {
            // The depth-preferred slot's old entry moves down to the always-replace slot.
            self.keys[b + 1] = self.keys[b];
            self.entries[b + 1] = self.entries[b];
            b
        } else {
            b + 1
        };
        self.keys[i] = tag;
        self.entries[i] = [entry.lower as u32, entry.upper as u32, entry.draft, entry.best];
    }

    fn clear(&mut self) {
        self.keys.iter_mut().for_each(|k| *k = 0);
    }
}

/// Either kind of table, chosen at run time from a [`TableSize`].
#[derive(Clone, Debug)]
pub enum AnyTable {
    /// Unbounded.
    Map(MapTable),
    /// Fixed memory.
    Fixed(FixedTable),
}

impl AnyTable {
    /// The table a [`TableSize`] asks for.
    pub fn new(size: TableSize) -> AnyTable {
        match size {
            TableSize::Unbounded => AnyTable::Map(MapTable::new()),
            TableSize::Megabytes(mb) => AnyTable::Fixed(FixedTable::with_megabytes(mb)),
        }
    }
}

impl Table for AnyTable {
    #[inline]
    fn probe(&mut self, key: u64) -> Option<Entry> {
        match self {
            AnyTable::Map(t) => t.probe(key),
            AnyTable::Fixed(t) => t.probe(key),
        }
    }
    #[inline]
    fn store(&mut self, key: u64, entry: Entry) {
        match self {
            AnyTable::Map(t) => t.store(key, entry),
            AnyTable::Fixed(t) => t.store(key, entry),
        }
    }
    fn clear(&mut self) {
        match self {
            AnyTable::Map(t) => t.clear(),
            AnyTable::Fixed(t) => t.clear(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_table_keeps_full_keys_under_collisions() {
        let mut t = FixedTable::with_buckets(1);
        for k in 0..10u64 {
            t.store(
                k,
                Entry {
                    lower: k as Value,
                    upper: k as Value,
                    draft: k as u32,
                    best: 0,
                },
            );
        }
        // Only two slots: whatever survives answers for its own key only.
        let mut found = 0;
        for k in 0..10u64 {
            if let Some(e) = t.probe(k) {
                assert_eq!(e.lower, k as Value);
                found += 1;
            }
        }
        assert_eq!(found, 2);
        // The deepest entry sits in the depth-preferred slot.
        assert!(t.probe(9).is_some());
    }

    #[test]
    fn depth_preferred_slot_keeps_deeper_entry() {
        let mut t = FixedTable::with_buckets(1);
        t.store(
            1,
            Entry {
                lower: 1,
                upper: 1,
                draft: 10,
                best: 0,
            },
        );
        t.store(
            2,
            Entry {
                lower: 2,
                upper: 2,
                draft: 3,
                best: 0,
            },
        );
        t.store(
            3,
            Entry {
                lower: 3,
                upper: 3,
                draft: 2,
                best: 0,
            },
        );
        assert!(t.probe(1).is_some(), "deep entry kept");
        assert!(t.probe(2).is_none(), "shallow entry replaced in the always slot");
        assert!(t.probe(3).is_some());
    }
}
