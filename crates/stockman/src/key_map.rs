//! Hash maps keyed by positions' hashes, for the searches and simulations
//! that keep every entry (the unbounded table, the ABDADA simulation, the
//! minimal tree).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hash map keyed by positions' hashes (maybe with a draft).
pub(crate) type KeyMap<K, V> = HashMap<K, V, BuildHasherDefault<KeyHasher>>;

/// Hashes keys that are hashes already (a game's 64-bit position key, maybe
/// with a draft): a multiply per word and a finish of two folds and a
/// multiply, where the standard map's SipHash (made to resist chosen keys)
/// took a tenth of a simulated parallel search. A product's low bits depend
/// only on its factors' low bits: the finish folds the high bits down, so
/// that keys differing only in their high bits still spread over the
/// buckets (a test checks low, middle and high bits, and drafts).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KeyHasher(u64);

impl KeyHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(26) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        let x = (self.0 ^ (self.0 >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        x ^ (x >> 32)
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }
    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    /// Distinct bucket indices (low 12 bits) of 4,096 keys.
    fn spread(keys: impl Iterator<Item = u64>) -> usize {
        let b = BuildHasherDefault::<KeyHasher>::default();
        let mut seen = std::collections::HashSet::new();
        for k in keys {
            seen.insert(b.hash_one(k) & 4095);
        }
        seen.len()
    }

    #[test]
    fn keys_spread_over_the_buckets_whichever_bits_differ() {
        // Random keys fill about 1 - 1/e of 4,096 buckets (2,589): so must
        // keys that differ in their low bits only, their high bits only,
        // or one bit-pattern of a draft.
        for (what, n) in [
            ("low bits", spread(0..4096)),
            ("high bits", spread((0..4096u64).map(|i| i << 52))),
            ("middle bits", spread((0..4096u64).map(|i| i << 26))),
        ] {
            assert!(n >= 2400, "{what}: {n} of 4,096 buckets");
        }
        let b = BuildHasherDefault::<KeyHasher>::default();
        let drafts: std::collections::HashSet<u64> = (0..4096u32).map(|d| b.hash_one((7u64, d)) & 4095).collect();
        assert!(drafts.len() >= 2400, "drafts: {}", drafts.len());
    }
}
