//! SSS\*'s OPEN list as a monotone radix queue with lazy deletion.
//!
//! Pearl and Reinefeld found SSS\* spending most of its time keeping OPEN
//! sorted. Two facts make that bookkeeping almost free:
//!
//! * **OPEN is monotone.** Every state SSS\* pushes has a merit no better
//!   than the state just popped (the Gamma cases copy `h` or clip it with
//!   `min(h, v)`), so the head's key never goes back. A radix heap (Ahuja,
//!   Mehlhorn, Orlin and Tarjan 1990) exploits exactly that: an entry sits in
//!   the bucket named by the highest bit in which its key differs from the
//!   last key popped, and moves only towards bucket 0, at most once per bit,
//!   so push is O(1) and pop amortised O(log C) for C the key range, with no
//!   comparisons of whole keys except inside bucket 0.
//! * **Ties go left-most, and SSS\* pushes its ties in order.** Bucket 0
//!   holds the entries whose key equals the head's, as a stack with the
//!   left-most on top: when it is refilled from a higher bucket the new ties
//!   are sorted once, and afterwards every state pushed with the head's key
//!   lies left of all of them, so it simply goes on top. That holds because
//!   the head `j` was the left-most tie, OPEN never holds a node together
//!   with its ancestor, and each Gamma case pushes with an unchanged key
//!   only `j` itself, `j`'s children (pushed right to left), `j`'s next
//!   sibling (nothing live lies between the two) or `j`'s parent (whose
//!   other descendants are gone from OPEN).
//!
//! Purges are lazy: a purged node just loses its state, and its entry is
//! dropped when it surfaces or when its bucket is redistributed; each entry
//! carries the stamp of its push, so a recycled arena slot is never confused
//! with the node that used it before. When stale entries outnumber live ones
//! the queue is compacted, so memory stays proportional to the live OPEN
//! list. Nothing is allocated per step once the buckets have grown.
//!
//! # Complexity
//! Push O(1); pop amortised O(32 + log t) for t the ties sorted at a
//! refill; 32 bytes per entry.

/// One state on OPEN: the node, its key (smaller first), its left-to-right
/// label (smaller first among equal keys) and the stamp of the push.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub label: u128,
    pub stamp: u64,
    pub key: u32,
    pub node: u32,
}

/// Maps an `i32` key onto `u32` preserving order.
#[inline]
pub(crate) fn ordered(key: i32) -> u32 {
    (key as u32) ^ 0x8000_0000
}

/// The inverse of [`ordered`].
#[inline]
pub(crate) fn unordered(key: u32) -> i32 {
    (key ^ 0x8000_0000) as i32
}

/// A monotone min-queue of [`Entry`] keyed by `(key, label)`, for pushes
/// that respect SSS\*'s order of ties (see the module documentation).
pub(crate) struct OpenQueue {
    /// The key of the last refill of bucket 0: no entry has a smaller key.
    last: u32,
    /// Entries whose key equals `last`, left-most last.
    zero: Vec<Entry>,
    /// `buckets[i]`, `i >= 1`: entries whose key first differs from `last` in bit `i - 1`.
    buckets: [Vec<Entry>; 33],
    /// Bit `i` set when `buckets[i]` may be non-empty.
    nonempty: u64,
    /// Entries held, stale ones included.
    held: usize,
}

impl OpenQueue {
    pub(crate) fn new() -> Self {
        OpenQueue {
            last: 0,
            zero: Vec::new(),
            buckets: std::array::from_fn(|_| Vec::new()),
            nonempty: 0,
            held: 0,
        }
    }

    #[inline]
    fn bucket(&self, key: u32) -> usize {
        (32 - (key ^ self.last).leading_zeros()) as usize
    }

    /// Adds an entry. Its key must not be smaller than the last popped one,
    /// and if equal its label must be smaller than every live entry's with
    /// that key.
    #[inline]
    pub(crate) fn push(&mut self, e: Entry) {
        debug_assert!(
            e.key >= self.last,
            "OPEN is monotone: key {} after {}",
            e.key,
            self.last
        );
        self.held += 1;
        self.place(e);
    }

    /// Files an entry in the bucket of its key.
    #[inline]
    fn place(&mut self, e: Entry) {
        let b = self.bucket(e.key);
        if b == 0 {
            self.zero.push(e);
        } else {
            self.buckets[b].push(e);
            self.nonempty |= 1 << b;
        }
    }

    /// Removes and returns the live entry with the smallest `(key, label)`,
    /// dropping the stale ones it meets.
    #[inline]
    pub(crate) fn pop(&mut self, live: impl Fn(&Entry) -> bool) -> Option<Entry> {
        loop {
            while let Some(e) = self.zero.pop() {
                self.held -= 1;
                if live(&e) {
                    return Some(e);
                }
            }
            if !self.refill(&live) {
                // Empty: a stale minimum may have raised `last`; nothing
                // held constrains the next push any more.
                self.last = 0;
                return None;
            }
        }
    }

    /// The live entry [`OpenQueue::pop`] would return, left in place
    /// (stale entries met on the way are dropped).
    #[inline]
    pub(crate) fn peek(&mut self, live: impl Fn(&Entry) -> bool) -> Option<Entry> {
        loop {
            while let Some(&e) = self.zero.last() {
                if live(&e) {
                    return Some(e);
                }
                self.zero.pop();
                self.held -= 1;
            }
            if !self.refill(&live) {
                self.last = 0;
                return None;
            }
        }
    }

    /// Whether a push of `e` keeps the queue's order: a key above the last
    /// one popped, or equal to it and left of the top tie (bucket 0 is a
    /// stack sorted left-most on top, stale entries included).
    #[inline]
    pub(crate) fn takes(&self, e: &Entry) -> bool {
        e.key > self.last || (e.key == self.last && self.zero.last().is_none_or(|top| e.label < top.label))
    }

    /// Moves the live entries of the smallest key into bucket 0; false if
    /// empty.
    ///
    /// Stale entries are dropped on the way: they would otherwise move
    /// down bucket after bucket, and pile up until a sweep.
    fn refill(&mut self, live: &impl Fn(&Entry) -> bool) -> bool {
        if self.nonempty == 0 {
            return false;
        }
        let i = self.nonempty.trailing_zeros() as usize;
        self.nonempty &= !(1 << i);
        let mut b = std::mem::take(&mut self.buckets[i]);
        let held = b.len();
        b.retain(live);
        self.held -= held - b.len();
        if let Some(min) = b.iter().map(|e| e.key).min() {
            // Every entry of bucket i moves to a lower bucket: they share
            // bits above i - 1 with `min`, and differ from it below.
            self.last = min;
            for e in b.drain(..) {
                self.place(e);
            }
            // Bucket 0 was empty: sort the new ties once, left-most on top.
            self.zero.sort_unstable_by_key(|e| std::cmp::Reverse(e.label));
        }
        self.buckets[i] = b;
        true
    }

    /// The entry a pop would look at first (the left-most of the ties with
    /// the last key popped), to be changed in place; only a change that
    /// keeps its key (every entry of bucket 0 has the last key) and keeps
    /// it left of the other ties keeps the queue's order.
    #[inline]
    pub(crate) fn top_mut(&mut self) -> Option<&mut Entry> {
        self.zero.last_mut()
    }

    /// Removes the entry [`OpenQueue::top_mut`] gives.
    #[inline]
    pub(crate) fn remove_top(&mut self) {
        if self.zero.pop().is_some() {
            self.held -= 1;
        }
    }

    /// Entries held, stale ones included.
    pub(crate) fn held(&self) -> usize {
        self.held
    }

    /// Drops the stale entries among the ties on top, which must stay
    /// sorted with the live ones (the other buckets drop theirs when they
    /// are refilled).
    pub(crate) fn compact_top(&mut self, live: impl Fn(&Entry) -> bool) {
        let before = self.zero.len();
        self.zero.retain(live);
        self.held -= before - self.zero.len();
    }

    /// Drops every stale entry.
    pub(crate) fn compact(&mut self, live: impl Fn(&Entry) -> bool) {
        debug_assert_eq!(
            self.held,
            self.zero.len() + self.buckets.iter().map(Vec::len).sum::<usize>(),
            "entries held"
        );
        self.zero.retain(&live);
        self.held = self.zero.len();
        for (i, b) in self.buckets.iter_mut().enumerate() {
            b.retain(&live);
            if b.is_empty() {
                self.nonempty &= !(1 << i);
            }
            self.held += b.len();
        }
    }

    /// Every entry held, in no particular order (for traces).
    pub(crate) fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.zero.iter().chain(self.buckets.iter().flatten())
    }

    /// Every entry held, to change its label (a relabelling of OPEN, which
    /// keeps the order of labels: the ties on top stay sorted).
    pub(crate) fn entries_mut(&mut self) -> impl Iterator<Item = &mut Entry> {
        self.zero.iter_mut().chain(self.buckets.iter_mut().flatten())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    proptest! {
        /// Against an ordered set: pushes never below the last pop (and at
        /// the last pop's key, left of everything), random lazy deletions,
        /// pops in (key, label) order.
        #[test]
        fn pops_in_key_then_label_order(ops in prop::collection::vec((0u8..4, 0u32..64, 0u128..16, 0u32..1000), 1..400)) {
            let mut q = OpenQueue::new();
            let mut model = BTreeSet::new();
            let mut dead = BTreeSet::new();
            let mut last = 0u32;
            let mut stamp = 0u64;
            for (op, dk, label, pick) in ops {
                match op {
                    0 | 1 => {
                        stamp += 1;
                        // Distinct labels; at the head's key, ever further left.
                        let label = if dk == 0 { (u64::MAX - stamp) as u128 } else { (label + 1) << 70 | stamp as u128 };
                        let e = Entry { label, stamp, key: last + dk, node: stamp as u32 };
                        q.push(e);
                        model.insert((e.key, e.label, e.stamp));
                    }
                    2 => {
                        if !model.is_empty() {
                            let k = *model.iter().nth(pick as usize % model.len()).unwrap();
                            model.remove(&k);
                            dead.insert(k.2);
                        }
                    }
                    _ => {
                        let got = q.pop(|e| !dead.contains(&e.stamp));
                        let want = model.pop_first();
                        prop_assert_eq!(got.map(|e| (e.key, e.label, e.stamp)), want);
                        if let Some(w) = want {
                            last = w.0;
                        }
                    }
                }
                if stamp.is_multiple_of(17) {
                    q.compact(|e| !dead.contains(&e.stamp));
                    prop_assert_eq!(q.held(), model.len());
                }
            }
            while let Some(w) = model.pop_first() {
                let got = q.pop(|e| !dead.contains(&e.stamp));
                prop_assert_eq!(got.map(|e| (e.key, e.label, e.stamp)), Some(w));
            }
            prop_assert!(q.pop(|e| !dead.contains(&e.stamp)).is_none());
        }
    }

    /// The top of the ties changed in place and removed: pops and the count
    /// of entries held follow.
    #[test]
    fn the_top_changes_in_place() {
        let mut q = OpenQueue::new();
        for (key, label, stamp) in [(5, 10, 1), (5, 20, 2), (5, 30, 3), (9, 1, 4)] {
            q.push(Entry {
                label,
                stamp,
                key,
                node: stamp as u32,
            });
        }
        assert_eq!(q.pop(|_| true).map(|e| e.stamp), Some(1));
        let top = q.top_mut().expect("ties left");
        assert_eq!(top.stamp, 2);
        // Still left of the other tie (label 30).
        top.label = 25;
        assert_eq!(q.pop(|_| true).map(|e| (e.label, e.stamp)), Some((25, 2)));
        assert_eq!(q.top_mut().map(|e| e.stamp), Some(3));
        q.remove_top();
        assert_eq!(q.held(), 1);
        q.compact(|_| true);
        assert_eq!(q.pop(|_| true).map(|e| e.stamp), Some(4));
        assert!(q.pop(|_| true).is_none());
        assert_eq!(q.held(), 0);
    }

    #[test]
    fn ordered_keeps_order() {
        let ks = [i32::MIN, -1_000_000_001, -5, -1, 0, 1, 7, 1_000_000_001, i32::MAX];
        for w in ks.windows(2) {
            assert!(ordered(w[0]) < ordered(w[1]));
        }
    }
}
