//! The fixed-size table: buckets of three entries in one cache line,
//! replacement by draft and age, and the memory it lives in (aligned,
//! huge pages where the system gives them).

use super::{check_megabytes, zeroed_words, Entry, Table, TableError, TableErrorKind, NO_MOVE};

/// Slots per bucket of a [`FixedTable`].
pub const SLOTS: usize = 3;

/// [`FixedTable`]'s stored best move when none is known (or the index does not fit a byte).
const NO_BEST: u8 = 0xFF;

/// The bit of a [`FixedTable`] slot's work byte that holds [`Entry::best_proves`].
const PROVES: u8 = 0x80;

/// [`FixedTable`]'s stored draft for `u32::MAX` (a search to the end).
const DRAFT_END: u16 = u16::MAX;

/// One bucket of a [`FixedTable`]: a 64-byte cache line of [`SLOTS`] entries.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Bucket {
    /// Each slot's full 64-bit key plus one (0 marks an empty slot).
    pub(super) tags: [u64; SLOTS],
    /// Each slot's lower bound (low half) and upper bound (high half), as `i32`.
    bounds: [u64; SLOTS],
    /// Each slot's draft ([`DRAFT_END`] for `u32::MAX`).
    drafts: [u16; SLOTS],
    /// Each slot's best move index ([`NO_BEST`] for none).
    best: [u8; SLOTS],
    /// Each slot's [`Entry::work`] (at most 64) in the low 7 bits, and
    /// [`Entry::best_proves`] in the top one ([`PROVES`]).
    work: [u8; SLOTS],
    /// The generation the bucket was last written in.
    generation: u8,
    spare: [u8; 3],
}

/// 64-bit words per bucket.
const WORDS: usize = std::mem::size_of::<Bucket>() / 8;

const _: () = assert!(std::mem::size_of::<Bucket>() == 64 && std::mem::align_of::<Bucket>() == 64);

impl Bucket {
    /// The entry in `slot`.
    #[inline]
    fn entry(&self, slot: usize) -> Entry {
        let best = self.best[slot];
        Entry {
            lower: self.bounds[slot] as u32 as i32,
            upper: (self.bounds[slot] >> 32) as u32 as i32,
            draft: match self.drafts[slot] {
                DRAFT_END => u32::MAX,
                d => u32::from(d),
            },
            best: if best == NO_BEST { NO_MOVE } else { u32::from(best) },
            best_proves: self.work[slot] & PROVES != 0,
            work: u32::from(self.work[slot] & !PROVES),
        }
    }

    /// Writes `entry` (whose draft is `draft` as stored) into `slot` under `tag`.
    #[inline]
    fn write(&mut self, slot: usize, tag: u64, draft: u16, entry: &Entry) {
        self.tags[slot] = tag;
        self.bounds[slot] = u64::from(entry.lower as u32) | u64::from(entry.upper as u32) << 32;
        self.drafts[slot] = draft;
        self.best[slot] = if entry.best < u32::from(NO_BEST) {
            entry.best as u8
        } else {
            NO_BEST
        };
        self.work[slot] = entry.work.min(64) as u8 | if entry.best_proves { PROVES } else { 0 };
    }

    /// Copies slot `from` to slot `to`.
    #[inline]
    fn move_slot(&mut self, from: usize, to: usize) {
        self.tags[to] = self.tags[from];
        self.bounds[to] = self.bounds[from];
        self.drafts[to] = self.drafts[from];
        self.best[to] = self.best[from];
        self.work[to] = self.work[from];
    }

    /// What keeping `slot` is worth: its draft, then its work.
    #[inline]
    fn keep(&self, slot: usize) -> (u16, u8) {
        (self.drafts[slot], self.work[slot] & !PROVES)
    }
}

/// A table of fixed memory: buckets of one 64-byte cache line, each holding
/// three entries, indexed by the top bits of the key times 2^64 / phi.
///
/// # Layout
/// A bucket is 64 bytes on a 64-byte boundary, so a probe or a store
/// touches exactly one cache line: the three slots' full 64-bit keys (plus
/// one: 0 marks an empty slot), their bounds (two `i32` each), their drafts
/// (16 bits), best-move indices and work (a byte each), and the bucket's
/// generation.
///
/// A best-move index of 255 or more is not kept (the entry then has no
/// move hint, which can only cost nodes), nor an entry whose draft is
/// 65,535 or more but not `u32::MAX` (a search to the end). The key
/// `u64::MAX`, which cannot be told from an empty slot, is never stored.
///
/// # Replacement policy
/// A key already in its bucket is updated in place (keeping the larger
/// work of the two). A new key always goes in, at slot 0, the slots before
/// the victim each moving down one, so the slots stay in order of
/// insertion, newest first. The victim is an empty slot if there is one,
/// else the entry of the *smallest draft* (the cheapest to recompute at a
/// fixed depth), among equal drafts the one of *least work*
/// ([`Entry::work`]: the fewest positions searched to find it), and among
/// equals the one inserted longest ago. In a search to the end, where every
/// draft is the same, a bucket thus keeps the two costliest positions that
/// reached it and the newest one (Tromp's Fhourstones keeps work the same
/// way); a deep entry survives at a fixed depth until deeper ones come.
///
/// # Correctness under collisions
/// Every slot keeps the full 64-bit key it was stored under, and a probe
/// answers only for an exactly equal key: positions that share a bucket
/// evict each other, which can cost a search nodes, never change its
/// result. (Distinct positions with equal 64-bit hashes are the game's
/// concern: Connect Four's key is unique.)
///
/// The table is a zeroed allocation, so a large table costs nothing until
/// it is written to. [`Table::clear`] costs nothing either: it starts a new
/// generation, and a bucket stamped with an older one reads as empty (every
/// 256th clear rewrites the whole table, so that old stamps never come back).
#[derive(Debug)]
pub struct FixedTable {
    /// The buckets' words, starting at `offset` (the first 64-byte boundary;
    /// the crate's tests write to them to check `touch`).
    pub(crate) words: Vec<u64>,
    pub(super) offset: usize,
    mask: usize,
    /// log2 of the number of buckets.
    bits: u32,
    /// log2 of the most buckets the table may grow to ([`FixedTable::try_growing`]);
    /// `bits` for a table made at its full size.
    max_bits: u32,
    /// The current generation: buckets stamped otherwise are empty.
    generation: u8,
}

impl FixedTable {
    /// A table of about `megabytes` MiB (at least one bucket), rounded down
    /// to a power of two buckets of 64 bytes.
    ///
    /// # Panics
    /// If the memory cannot be allocated; [`FixedTable::try_with_megabytes`]
    /// says so instead.
    pub fn with_megabytes(megabytes: usize) -> FixedTable {
        FixedTable::try_with_megabytes(megabytes.max(1)).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`FixedTable::with_megabytes`], or why the table cannot be made here.
    ///
    /// # Errors
    /// A size of 0 or over [`MAX_TABLE_MB`](super::MAX_TABLE_MB), over the machine's physical
    /// memory, or refused by the allocator.
    pub fn try_with_megabytes(megabytes: usize) -> Result<FixedTable, TableError> {
        check_megabytes(megabytes)?;
        let bytes = megabytes.saturating_mul(1 << 20);
        let buckets = (bytes / Self::BUCKET_BYTES).max(1);
        FixedTable::try_with_buckets(1 << (usize::BITS - 1 - buckets.leading_zeros())).ok_or(TableError {
            megabytes,
            kind: TableErrorKind::AllocationFailed,
        })
    }

    /// Bytes per bucket: one cache line.
    pub const BUCKET_BYTES: usize = WORDS * 8;

    /// Touches every page of the table's memory, so that the operating
    /// system commits it now and not during the first searches (a fresh
    /// table is a lazily zeroed allocation: the first search to reach a
    /// page pays for it, which once made a 41-node search take 831 us).
    /// Changes no entry.
    pub fn touch(&mut self) {
        // One word per 4 KiB page is written back unchanged; `black_box`
        // keeps the compiler from dropping the store.
        for i in (0..self.words.len()).step_by(512) {
            self.words[i] = std::hint::black_box(self.words[i]);
        }
    }

    /// A table of exactly `buckets` buckets (a power of two) of [`SLOTS`] slots each.
    ///
    /// # Panics
    /// If `buckets` is not a power of two.
    pub fn with_buckets(buckets: usize) -> FixedTable {
        FixedTable::try_with_buckets(buckets).expect("memory for the table")
    }

    /// [`FixedTable::with_buckets`], or `None` if the allocator refuses the memory.
    ///
    /// # Panics
    /// If `buckets` is not a power of two.
    fn try_with_buckets(buckets: usize) -> Option<FixedTable> {
        assert!(buckets.is_power_of_two(), "bucket count must be a power of two");
        // Spare words let the buckets start on an aligned boundary wherever
        // the allocator puts the vector (`vec![0; n]` is a zeroed, lazily
        // committed allocation, so the spare costs address space only).
        let bytes = buckets * Self::BUCKET_BYTES;
        let align = table_alignment(bytes);
        let words = zeroed_words((bytes + align) / 8 - 1)?;
        let offset = place_table(&words, bytes, align);
        Some(FixedTable {
            words,
            offset,
            mask: buckets - 1,
            bits: buckets.trailing_zeros(),
            max_bits: buckets.trailing_zeros(),
            generation: 0,
        })
    }

    /// A table of about `megabytes` MiB, as [`FixedTable::try_with_megabytes`]
    /// makes, that starts at one bucket and doubles when a new key meets a
    /// full bucket, up to that size: its memory is what it holds, for the
    /// many ranks of one process a simulated cluster runs (each asked for a
    /// full table, most of which would hold a handful of positions).
    ///
    /// It answers every probe and store exactly as the full-size table
    /// would: a bucket at a smaller size holds the keys of the buckets it
    /// splits into at the full size, newest first, and since it doubles
    /// instead of evicting, none of those buckets ever held more than its
    /// slots; at the full size it is that table. Should the memory for a
    /// doubling be refused, it stays at its size and evicts from then on
    /// (a table may always forget; never a panic mid-search).
    ///
    /// # Errors
    /// As [`FixedTable::try_with_megabytes`]: a size out of range or over
    /// the machine's memory (the full size is not allocated here).
    pub fn try_growing(megabytes: usize) -> Result<FixedTable, TableError> {
        check_megabytes(megabytes)?;
        let buckets = (megabytes.saturating_mul(1 << 20) / Self::BUCKET_BYTES).max(1);
        FixedTable::growing_to(1 << (usize::BITS - 1 - buckets.leading_zeros())).ok_or(TableError {
            megabytes,
            kind: TableErrorKind::AllocationFailed,
        })
    }

    /// A table of one bucket that grows to `buckets` (a power of two), or
    /// `None` if the allocator refuses its first bucket.
    pub(crate) fn growing_to(buckets: usize) -> Option<FixedTable> {
        assert!(buckets.is_power_of_two(), "bucket count must be a power of two");
        let mut t = FixedTable::try_with_buckets(1)?;
        t.max_bits = buckets.trailing_zeros();
        Some(t)
    }

    /// Doubles the buckets, each bucket's entries going in order (newest
    /// first) to the two it splits into; if the memory is refused, the
    /// table stops growing instead.
    #[cold]
    fn grow(&mut self) {
        let Some(mut next) = FixedTable::try_with_buckets(2 << self.bits) else {
            self.max_bits = self.bits;
            return;
        };
        next.max_bits = self.max_bits;
        let generation = self.generation;
        next.generation = generation;
        for b in 0..=self.mask {
            let start = self.offset + b * WORDS;
            let words: &[u64; WORDS] = self.words[start..start + WORDS].try_into().expect("a whole bucket");
            // SAFETY: as in `bucket`.
            let old = unsafe { &*(words.as_ptr() as *const Bucket) };
            if old.generation != self.generation {
                continue; // stored before the last clear: empty
            }
            for slot in (0..SLOTS).filter(|&s| old.tags[s] != 0) {
                let to = next.bucket_mut(old.tags[slot].wrapping_sub(1));
                if to.generation != generation {
                    *to = Bucket {
                        generation,
                        ..Bucket::default()
                    };
                }
                let free = (0..SLOTS).find(|&s| to.tags[s] == 0).expect("a split bucket has room");
                to.tags[free] = old.tags[slot];
                to.bounds[free] = old.bounds[slot];
                to.drafts[free] = old.drafts[slot];
                to.best[free] = old.best[slot];
                to.work[free] = old.work[slot];
            }
        }
        *self = next;
    }

    /// Number of slots ([`SLOTS`] per bucket).
    pub fn capacity(&self) -> usize {
        (self.mask + 1) * SLOTS
    }

    /// Bytes of memory the buckets take.
    pub fn bytes(&self) -> usize {
        (self.mask + 1) * Self::BUCKET_BYTES
    }

    /// Where the words of the bucket of `key` start.
    #[inline]
    fn bucket_start(&self, key: u64) -> usize {
        // Fibonacci hashing: the top bits of the key times 2^64 / phi, so
        // that keys that differ in any bits (small integers from explicit
        // trees, bitboards) spread out, at the cost of one multiplication on
        // the way to the memory access. (Two shifts: one bucket shifts by 64.)
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 1 >> (63 - self.bits);
        self.offset + (h as usize & self.mask) * WORDS
    }

    /// The bucket of `key`.
    #[inline]
    pub(super) fn bucket(&self, key: u64) -> &Bucket {
        let b = self.bucket_start(key);
        let words: &[u64; WORDS] = self.words[b..b + WORDS].try_into().expect("a whole bucket");
        // SAFETY: the words are 64 bytes on a 64-byte boundary (`offset` is
        // the first one, and buckets are 64 bytes), and every bit pattern
        // is a valid `Bucket` (integers only).
        unsafe { &*(words.as_ptr() as *const Bucket) }
    }

    #[inline]
    fn bucket_mut(&mut self, key: u64) -> &mut Bucket {
        let b = self.bucket_start(key);
        let words: &mut [u64; WORDS] = (&mut self.words[b..b + WORDS]).try_into().expect("a whole bucket");
        // SAFETY: as in `bucket`; the borrow is exclusive.
        unsafe { &mut *(words.as_mut_ptr() as *mut Bucket) }
    }
}

/// The size of a transparent huge page on x86-64 and most 64-bit Linux systems.
const HUGE_PAGE: usize = 2 << 20;

/// How a table of `bytes` (in 64-byte buckets) is aligned: on a huge page
/// when it fills one, else on a cache line. Allocate `(bytes + align) / 8 - 1`
/// words, so that an aligned start is always among them.
pub(crate) fn table_alignment(bytes: usize) -> usize {
    if bytes >= HUGE_PAGE {
        HUGE_PAGE
    } else {
        FixedTable::BUCKET_BYTES
    }
}

/// Where the table's `bytes` start in `words` (allocated as
/// [`table_alignment`] says): the first word on an `align` boundary. Huge
/// pages are asked for when `align` is one.
pub(crate) fn place_table<T>(words: &[T], bytes: usize, align: usize) -> usize {
    let size = std::mem::size_of::<T>();
    let offset = (align - words.as_ptr() as usize % align) % align / size;
    if align == HUGE_PAGE {
        advise_huge_pages(&words[offset..offset + bytes / size]);
    }
    offset
}

/// Asks the operating system to back `memory` (2 MiB-aligned) with huge
/// pages: a probe lands anywhere in a table of hundreds of megabytes, and
/// with 4 KiB pages nearly every probe also misses the TLB. Only a hint,
/// which Linux honours when transparent huge pages are enabled (`always`,
/// or `madvise` as on most distributions); elsewhere it does nothing.
fn advise_huge_pages<T>(memory: &[T]) {
    #[cfg(target_os = "linux")]
    // SAFETY: the range is memory this process owns (a live allocation);
    // MADV_HUGEPAGE changes how it is backed, never its contents.
    unsafe {
        libc::madvise(
            memory.as_ptr() as *mut libc::c_void,
            std::mem::size_of_val(memory),
            libc::MADV_HUGEPAGE,
        );
    }
    #[cfg(not(target_os = "linux"))]
    let _ = memory;
}

impl Clone for FixedTable {
    /// A copy with its own 64-byte alignment.
    fn clone(&self) -> FixedTable {
        let mut t = FixedTable::with_buckets(self.mask + 1);
        t.max_bits = self.max_bits;
        let n = self.bytes() / 8;
        let (dst, src) = (t.offset, self.offset);
        t.words[dst..dst + n].copy_from_slice(&self.words[src..src + n]);
        t.generation = self.generation;
        t
    }
}

impl Table for FixedTable {
    #[inline]
    fn probe(&mut self, key: u64) -> Option<Entry> {
        let tag = key.wrapping_add(1);
        let b = self.bucket(key);
        if b.generation != self.generation {
            return None; // stored before the last clear
        }
        let slot = (0..SLOTS).find(|&s| b.tags[s] == tag && tag != 0)?;
        Some(b.entry(slot))
    }

    #[inline]
    fn store(&mut self, key: u64, entry: Entry) {
        let tag = key.wrapping_add(1);
        if tag == 0 {
            return; // the one key that cannot be told from an empty slot
        }
        let draft = match entry.draft {
            u32::MAX => DRAFT_END,
            d if d < u32::from(DRAFT_END) => d as u16,
            _ => return, // a draft the slot cannot hold: forget the entry
        };
        let generation = self.generation;
        let (bits, max_bits) = (self.bits, self.max_bits);
        let b = self.bucket_mut(key);
        if b.generation != generation {
            *b = Bucket {
                generation,
                ..Bucket::default()
            };
        }
        if let Some(slot) = (0..SLOTS).find(|&s| b.tags[s] == tag) {
            let work = b.work[slot] & !PROVES;
            b.write(slot, tag, draft, &entry);
            let new = b.work[slot];
            b.work[slot] = (new & PROVES) | (new & !PROVES).max(work);
            return;
        }
        // A growing table doubles rather than evict (see `try_growing`);
        // one whose doubling was refused has stopped growing and evicts.
        if b.tags[SLOTS - 1] != 0 && bits < max_bits {
            self.grow();
            return self.store(key, entry);
        }
        // The victim: an empty slot, else the smallest draft, then the least
        // work, the oldest (highest slot) among equals. Empty slots are
        // always the last ones.
        let mut victim = SLOTS - 1;
        if b.tags[victim] != 0 {
            for s in (0..SLOTS - 1).rev() {
                if b.keep(s) < b.keep(victim) {
                    victim = s;
                }
            }
        }
        for s in (1..=victim).rev() {
            b.move_slot(s - 1, s);
        }
        b.write(0, tag, draft, &entry);
    }

    /// Asks the processor to load the bucket's cache line (x86-64 only).
    #[inline]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let b: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is only a hint and never faults; the
            // address is that of a live bucket anyway.
            unsafe { std::arch::x86_64::_mm_prefetch(b as *const i8, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.words.iter_mut().for_each(|k| *k = 0);
        }
    }
}
