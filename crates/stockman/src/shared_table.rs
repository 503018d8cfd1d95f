//! A transposition table that many threads probe and store at once,
//! without a lock on the hot path: the table of the parallel searches.
//!
//! # Layout
//! A bucket is one 64-byte cache line of eight atomic words: a version
//! (a per-bucket sequence lock) and two entries of three words each (the
//! full 64-bit key plus one, 0 marking an empty slot; the two bounds as
//! `i32`s; the draft, best move, work and generation), and a spare word.
//!
//! # Why a sequence lock and not Hyatt and Mann's XOR check
//! The XOR trick (store `key ^ data` beside `data`) makes a torn entry
//! unreadable except when two entries' check words happen to collide: a
//! wrong value with probability about 2^-64 per torn read. Our entries are
//! three words, and the issue asks that a raced entry *never* produce a
//! wrong value, so each bucket carries a version instead: a reader reads
//! the version, the words, and the version again, and uses the entry only
//! if the version was even and unchanged; a writer takes the bucket by
//! moving its version from even to odd with one compare-and-swap, and if
//! another writer holds it, **drops its store** rather than wait. Readers
//! never wait either (a probe that races a write misses). Nothing blocks,
//! and a validated entry is exactly one that some thread stored: a true
//! bound for its full key. Dropped stores and missed probes can only cost
//! nodes.
//!
//! # Replacement
//! A key already in its bucket is updated in place. A new key goes into
//! slot 0 if its draft and work are at least slot 0's (slot 0's entry moves
//! to slot 1), else into slot 1: slot 0 keeps the deepest, costliest entry
//! ("depth-preferred"), slot 1 the newest ("always replace"), the two-tier
//! scheme of Breuker, Uiterwijk and van den Herik.
//!
//! # Who searches what (ABDADA)
//! Beside the entries the table keeps a small array of the positions
//! (key and draft) that threads are searching now, for the exclusive
//! search of Weill's ABDADA: a handle from [`SharedTable::exclusive_handle`]
//! claims a position when it starts expanding it, releases it when done, and
//! tells a search whether some other thread is on a position now, so that
//! the search can put that move off and take a sibling instead. A slot
//! holds one position; two that share a slot overwrite each other, which
//! can only make a thread put off a move it did not need to, or search one
//! that another thread is on: the order changes, never a value.
//!
//! # Clearing
//! [`SharedTable::clear`] (which needs no search to be running: it takes
//! `&mut self`) starts a new generation; entries of another generation
//! read as empty. A [`SharedHandle`]'s [`Table::clear`] does nothing, so
//! that one thread's search cannot wipe what the others found.

use crate::pool::NodePool;
use crate::table::{check_megabytes, place_table, table_alignment, Entry, Table, TableError, TableErrorKind, NO_MOVE};
use crate::value::Value;
use std::sync::atomic::{fence, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

/// Words per bucket (one cache line).
const WORDS: usize = 8;

/// Entries per bucket.
pub const SHARED_SLOTS: usize = 2;

/// The draft stored for a search to the end (`u32::MAX`).
const NO_BEST16: u64 = 0xFFFF;

const _: () = assert!(std::mem::size_of::<AtomicU64>() == 8 && std::mem::align_of::<AtomicU64>() == 8);
const _: () = assert!(std::mem::align_of::<u64>() == std::mem::align_of::<AtomicU64>());

/// The table's memory, shared by every handle.
#[derive(Debug)]
struct Inner {
    words: Vec<AtomicU64>,
    offset: usize,
    mask: usize,
    bits: u32,
    /// The current generation (never 0, so that zeroed slots are empty).
    generation: AtomicU8,
    /// The positions being searched now (see "Who searches what").
    busy: Box<[AtomicU64]>,
}

/// Slots of the array of positions being searched: a few times more than
/// the positions a few threads have open at once, small enough to stay in
/// a core's cache.
const BUSY_SLOTS: usize = 1 << 14;

/// A lockless transposition table for many threads; see the module
/// documentation. Searches use it through [`SharedTable::handle`].
///
/// # Example
/// ```
/// use stockman::{Entry, SharedTable, Table};
/// let table = SharedTable::with_megabytes(1).unwrap();
/// std::thread::scope(|s| {
///     for t in 0..4u64 {
///         let mut h = table.handle();
///         s.spawn(move || h.store(t, Entry { lower: t as i32, upper: t as i32, draft: 3, best: 0, best_proves: true, work: 1 }));
///     }
/// });
/// assert_eq!(table.handle().probe(2).map(|e| e.lower), Some(2));
/// ```
#[derive(Clone, Debug)]
pub struct SharedTable {
    inner: Arc<Inner>,
}

/// One thread's access to a [`SharedTable`]: a [`Table`] (whose `clear`
/// does nothing; see the module documentation).
#[derive(Clone, Debug)]
pub struct SharedHandle {
    inner: Arc<Inner>,
    /// Whether it claims the positions it searches and reports the others' ([`Table::shares_work`]).
    exclusive: bool,
    /// The node limit of the team this handle's search belongs to ([`Table::node_pool`]).
    pool: Option<Arc<NodePool>>,
    /// Whether its search is one of several on the same root ([`Table::syncs_root`]).
    team: bool,
    /// The root's move list of the team this handle's search belongs to
    /// ([`Table::root_moves`]), and whether it is shown.
    root: Option<RootMoves>,
    root_shown: bool,
}

/// A team's root move list, its type erased (a `Vec<G::Move>`).
pub(crate) type RootMoves = Arc<dyn std::any::Any + Send + Sync>;

/// [`SharedTable::clear`] refused: other clones or handles of the table
/// live, so a search may be using it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableInUse {
    /// How many clones and handles besides the one asked to clear.
    pub others: usize,
}

impl std::fmt::Display for TableInUse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the shared table cannot be cleared while {} other clone(s) or handle(s) of it may be searching",
            self.others
        )
    }
}

impl std::error::Error for TableInUse {}

impl SharedTable {
    /// A table of about `megabytes` MiB (a power of two of 64-byte buckets).
    ///
    /// # Errors
    /// A size of 0 or over [`MAX_TABLE_MB`](crate::MAX_TABLE_MB), over the machine's memory, or
    /// refused by the allocator.
    pub fn with_megabytes(megabytes: usize) -> Result<SharedTable, TableError> {
        check_megabytes(megabytes)?;
        let buckets = (megabytes.saturating_mul(1 << 20) / (WORDS * 8)).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        // Aligned as the one-thread table is: on a huge page when it fills
        // one, so that a probe does not also miss the TLB.
        let bytes = buckets * WORDS * 8;
        let align = table_alignment(bytes);
        let n = (bytes + align) / 8 - 1;
        let fail = TableError {
            megabytes,
            kind: TableErrorKind::AllocationFailed,
        };
        let layout = std::alloc::Layout::array::<AtomicU64>(n).map_err(|_| fail.clone())?;
        // SAFETY: a non-zero layout of `[AtomicU64; n]`; zeroed memory is a
        // valid `AtomicU64` (0), and the vector owns exactly that
        // allocation (pointer, length and capacity `n`, the global allocator).
        let words = unsafe {
            let ptr = std::alloc::alloc_zeroed(layout) as *mut AtomicU64;
            if ptr.is_null() {
                return Err(fail);
            }
            Vec::from_raw_parts(ptr, n, n)
        };
        let offset = place_table(&words, bytes, align);
        Ok(SharedTable {
            inner: Arc::new(Inner {
                words,
                offset,
                mask: buckets - 1,
                bits: buckets.trailing_zeros(),
                generation: AtomicU8::new(1),
                busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            }),
        })
    }

    /// A handle for one thread's searches.
    pub fn handle(&self) -> SharedHandle {
        SharedHandle {
            inner: self.inner.clone(),
            exclusive: false,
            pool: None,
            team: false,
            root: None,
            root_shown: true,
        }
    }

    /// A handle for one thread of an ABDADA search: it also claims the
    /// positions its search expands and tells it which ones other threads
    /// are on ([`Table::shares_work`]).
    pub fn exclusive_handle(&self) -> SharedHandle {
        SharedHandle {
            inner: self.inner.clone(),
            exclusive: true,
            pool: None,
            team: false,
            root: None,
            root_shown: true,
        }
    }

    /// A handle for one thread of a parallel search ([`SharedTable::exclusive_handle`]
    /// when `exclusive`, else [`SharedTable::handle`]) whose search counts its
    /// positions against `pool`, the node limit of the whole team; `team`
    /// when other threads search the same root ([`Table::syncs_root`]);
    /// `root`, the team's list of the root's moves ([`Table::root_moves`]).
    pub(crate) fn team_handle(
        &self,
        exclusive: bool,
        pool: Option<Arc<NodePool>>,
        team: bool,
        root: Option<RootMoves>,
    ) -> SharedHandle {
        SharedHandle {
            inner: self.inner.clone(),
            exclusive,
            pool,
            team,
            root,
            root_shown: true,
        }
    }

    /// Number of entries it can hold.
    pub fn capacity(&self) -> usize {
        (self.inner.mask + 1) * SHARED_SLOTS
    }

    /// Forgets every entry (a new generation), between searches.
    ///
    /// # Errors
    /// [`TableInUse`] while a clone of this table or a handle of it lives
    /// (a search may be running through it: clearing it under the search
    /// could tear the entries it reads); the table is left as it was.
    pub fn clear(&mut self) -> Result<(), TableInUse> {
        let others = Arc::strong_count(&self.inner) - 1;
        if others > 0 {
            return Err(TableInUse { others });
        }
        let g = self.inner.generation.load(Ordering::Relaxed);
        let next = if g == u8::MAX { 1 } else { g + 1 };
        if next == 1 {
            // Old stamps would come back: wipe the memory instead.
            for w in &self.inner.words {
                w.store(0, Ordering::Relaxed);
            }
        }
        self.inner.generation.store(next, Ordering::Release);
        Ok(())
    }

    /// Commits the table's memory now (see [`FixedTable::touch`](crate::FixedTable::touch)).
    pub fn touch(&mut self) {
        // A write to one word per 4 KiB page. Not `fetch_add(0)`: an
        // increment known to be zero is an idempotent read-modify-write,
        // which LLVM rewrites as an atomic load, and a load maps the
        // shared zero page (a huge one here) instead of committing memory:
        // the first search's stores then paid for zeroing the table.
        // `black_box` hides the zero, so the add is a real (locked) write.
        for w in self.inner.words.iter().step_by(512) {
            w.fetch_add(std::hint::black_box(0), Ordering::Relaxed);
        }
    }
}

impl Inner {
    /// The slot of the position `key` at `draft` in the busy array, and
    /// the word that marks it (never 0, which marks a free slot).
    #[inline]
    fn busy_slot(&self, key: u64, draft: u32) -> (&AtomicU64, u64) {
        let mark = (key ^ u64::from(draft).wrapping_mul(0xD6E8_FEB8_6659_FD93)).max(1);
        let i = (mark.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 50) as usize & (BUSY_SLOTS - 1);
        (&self.busy[i], mark)
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64] {
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 1 >> (63 - self.bits);
        let start = self.offset + (h as usize & self.mask) * WORDS;
        &self.words[start..start + WORDS]
    }
}

/// The third word of an entry: draft (bits 0-31), best move (32-47), work
/// (48-54), whether the move proves the bound (55), generation (56-63).
#[inline]
fn meta(entry: &Entry, generation: u8) -> u64 {
    let best = if entry.best < NO_BEST16 as u32 {
        u64::from(entry.best)
    } else {
        NO_BEST16
    };
    let work = u64::from(entry.work.min(127)) | u64::from(entry.best_proves) << 7;
    u64::from(entry.draft) | best << 32 | work << 48 | u64::from(generation) << 56
}

#[inline]
fn decode(bounds: u64, meta: u64) -> Entry {
    let best = (meta >> 32) & 0xFFFF;
    Entry {
        lower: bounds as u32 as i32 as Value,
        upper: (bounds >> 32) as u32 as i32 as Value,
        draft: meta as u32,
        best: if best == NO_BEST16 { NO_MOVE } else { best as u32 },
        best_proves: (meta >> 55) & 1 == 1,
        work: ((meta >> 48) & 0x7F) as u32,
    }
}

#[inline]
fn generation_of(meta: u64) -> u8 {
    (meta >> 56) as u8
}

impl Table for SharedHandle {
    #[inline]
    fn probe(&mut self, key: u64) -> Option<Entry> {
        let tag = key.wrapping_add(1);
        if tag == 0 {
            return None;
        }
        let b = self.inner.bucket(key);
        let generation = self.inner.generation.load(Ordering::Relaxed);
        let v1 = b[0].load(Ordering::Acquire);
        if v1 & 1 == 1 {
            return None; // a write is under way: miss rather than wait
        }
        let mut found = None;
        for s in 0..SHARED_SLOTS {
            let w = 1 + 3 * s;
            if b[w].load(Ordering::Relaxed) == tag {
                found = Some((b[w + 1].load(Ordering::Relaxed), b[w + 2].load(Ordering::Relaxed)));
                break;
            }
        }
        fence(Ordering::Acquire);
        if b[0].load(Ordering::Relaxed) != v1 {
            return None; // raced a write: the words may be torn
        }
        let (bounds, meta) = found?;
        (generation_of(meta) == generation).then(|| decode(bounds, meta))
    }

    #[inline]
    fn store(&mut self, key: u64, entry: Entry) {
        let tag = key.wrapping_add(1);
        if tag == 0 {
            return;
        }
        let b = self.inner.bucket(key);
        let generation = self.inner.generation.load(Ordering::Relaxed);
        let v = b[0].load(Ordering::Relaxed);
        if v & 1 == 1
            || b[0]
                .compare_exchange(v, v + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return; // another thread is writing this bucket: drop the store
        }
        fence(Ordering::Release);
        let live = |s: usize| {
            let w = 1 + 3 * s;
            let m = b[w + 2].load(Ordering::Relaxed);
            (b[w].load(Ordering::Relaxed), m, generation_of(m) == generation)
        };
        let write = |s: usize, tag: u64, bounds: u64, meta: u64| {
            let w = 1 + 3 * s;
            b[w].store(tag, Ordering::Relaxed);
            b[w + 1].store(bounds, Ordering::Relaxed);
            b[w + 2].store(meta, Ordering::Relaxed);
        };
        let bounds = u64::from(entry.lower as u32) | u64::from(entry.upper as u32) << 32;
        let m = meta(&entry, generation);
        let (t0, m0, live0) = live(0);
        let (t1, _, live1) = live(1);
        if live0 && t0 == tag {
            write(0, tag, bounds, m);
        } else if live1 && t1 == tag {
            write(1, tag, bounds, m);
        } else {
            let keep = |meta: u64| (meta as u32, (meta >> 48) & 0x7F);
            if !live0 || keep(m) >= keep(m0) {
                if live0 {
                    let b0 = b[2].load(Ordering::Relaxed);
                    write(1, t0, b0, m0);
                }
                write(0, tag, bounds, m);
            } else {
                write(1, tag, bounds, m);
            }
        }
        b[0].store(v + 2, Ordering::Release);
    }

    /// Does nothing: one search must not wipe the others' entries (clear
    /// the [`SharedTable`] itself between searches).
    fn clear(&mut self) {}

    #[inline]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let b = self.inner.bucket(key).as_ptr();
            // SAFETY: a prefetch is only a hint and never faults.
            unsafe { std::arch::x86_64::_mm_prefetch(b as *const i8, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    fn node_pool(&self) -> Option<Arc<NodePool>> {
        self.pool.clone()
    }

    fn root_moves(&self) -> Option<&(dyn std::any::Any + Send + Sync)> {
        self.root.as_deref().filter(|_| self.root_shown)
    }

    fn show_root_moves(&mut self, show: bool) {
        self.root_shown = show;
    }

    #[inline]
    fn syncs_root(&self) -> bool {
        self.exclusive || self.team
    }

    #[inline]
    fn shares_work(&self) -> bool {
        self.exclusive
    }

    #[inline]
    fn busy(&self, key: u64, draft: u32) -> bool {
        let (slot, mark) = self.inner.busy_slot(key, draft);
        self.exclusive && slot.load(Ordering::Relaxed) == mark
    }

    #[inline]
    fn claim(&self, key: u64, draft: u32) {
        if self.exclusive {
            let (slot, mark) = self.inner.busy_slot(key, draft);
            slot.store(mark, Ordering::Relaxed);
        }
    }

    #[inline]
    fn release(&self, key: u64, draft: u32) {
        if self.exclusive {
            let (slot, mark) = self.inner.busy_slot(key, draft);
            // Only our own mark: another position may hold the slot now.
            let _ = slot.compare_exchange(mark, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Page faults of the calling thread so far (minor: memory the kernel
    /// maps or zeroes on first touch).
    #[cfg(target_os = "linux")]
    fn minor_faults() -> libc::c_long {
        // SAFETY: getrusage writes into the zeroed struct it is given.
        unsafe {
            let mut u: libc::rusage = std::mem::zeroed();
            assert_eq!(libc::getrusage(libc::RUSAGE_THREAD, &mut u), 0);
            u.ru_minflt
        }
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_touched_fixed_table_takes_stores_without_faults() {
        let mut t = crate::FixedTable::with_megabytes(16);
        t.touch();
        let before = minor_faults();
        for i in (0..t.words.len()).step_by(512) {
            t.words[i] = std::hint::black_box(t.words[i]);
        }
        let faults = minor_faults() - before;
        assert!(faults <= 4, "{faults} page faults writing touched pages");
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn touch_commits_the_memory_so_that_no_store_faults_later() {
        let mut t = SharedTable::with_megabytes(16).unwrap();
        let pages = t.inner.words.len() / 512;
        t.touch();
        let before = minor_faults();
        // A write to every page: none may fault once touch has committed it
        // (a touch that only read left the zero page mapped: 1,038 faults
        // here, each zeroing a page, when `touch` used `fetch_add(0)`; at
        // least 8, one per huge page, on any kernel). A few are allowed for
        // what the kernel may do meanwhile (NUMA hinting, khugepaged).
        for w in t.inner.words.iter().step_by(512) {
            w.store(std::hint::black_box(w.load(Ordering::Relaxed)), Ordering::Relaxed);
        }
        let faults = minor_faults() - before;
        assert!(faults <= 4, "{faults} page faults writing {pages} touched pages");
    }

    /// The entry every thread stores for `key`: derived from the key, so
    /// that any entry a probe returns can be checked.
    fn entry_of(key: u64) -> Entry {
        let v = (key % 2001) as Value - 1000;
        Entry {
            lower: v,
            upper: v + (key % 7) as Value,
            draft: (key % 13) as u32,
            best: (key % 5) as u32,
            best_proves: key.is_multiple_of(3),
            work: (key % 40) as u32,
        }
    }

    #[test]
    fn stores_are_read_back_and_clear_forgets_them() {
        let mut t = SharedTable::with_megabytes(1).unwrap();
        let mut h = t.handle();
        for k in 0..1000 {
            h.store(k, entry_of(k));
        }
        let hits = (0..1000).filter(|&k| h.probe(k) == Some(entry_of(k))).count();
        assert!(hits > 900, "{hits}");
        let end = Entry {
            draft: u32::MAX,
            best: NO_MOVE,
            ..entry_of(5)
        };
        h.store(5, end);
        assert_eq!(h.probe(5), Some(end));
        h.clear(); // a handle's clear keeps everything
        assert_eq!(h.probe(5), Some(end));
        // The table is not cleared while a handle (a search) or a clone lives.
        assert_eq!(t.clear(), Err(TableInUse { others: 1 }));
        let clone = t.clone();
        assert_eq!(t.clear(), Err(TableInUse { others: 2 }));
        assert_eq!(h.probe(5), Some(end));
        assert!(t
            .clear()
            .unwrap_err()
            .to_string()
            .contains("2 other clone(s) or handle(s)"));
        drop(clone);
        drop(h);
        t.clear().unwrap();
        let mut h = t.handle();
        assert_eq!(h.probe(5), None);
        assert_eq!(h.probe(u64::MAX), None);
    }

    #[test]
    fn a_full_bucket_keeps_the_deepest_entry() {
        let t = SharedTable::with_megabytes(1).unwrap();
        let mut h = t.handle();
        // Keys that share a bucket: search for three.
        let first = 17u64;
        let same: Vec<u64> = (0..1_000_000u64)
            .filter(|&k| std::ptr::eq(t.inner.bucket(k).as_ptr(), t.inner.bucket(first).as_ptr()))
            .take(3)
            .collect();
        let deep = Entry {
            draft: 9,
            ..entry_of(same[0])
        };
        h.store(same[0], deep);
        h.store(
            same[1],
            Entry {
                draft: 2,
                ..entry_of(same[1])
            },
        );
        h.store(
            same[2],
            Entry {
                draft: 3,
                ..entry_of(same[2])
            },
        );
        assert_eq!(h.probe(same[0]), Some(deep));
        assert_eq!(h.probe(same[1]), None);
        assert_eq!(h.probe(same[2]).map(|e| e.draft), Some(3));
    }

    /// What one exclusive handle claims, another sees as busy (at that
    /// draft only) until it is released; plain handles share nothing.
    #[test]
    fn exclusive_handles_see_each_others_claims() {
        let t = SharedTable::with_megabytes(1).unwrap();
        let (a, b, plain) = (t.exclusive_handle(), t.exclusive_handle(), t.handle());
        assert!(a.shares_work() && !plain.shares_work());
        assert!(!b.busy(42, 7));
        a.claim(42, 7);
        assert!(b.busy(42, 7));
        assert!(!b.busy(42, 6) && !b.busy(43, 7));
        assert!(!plain.busy(42, 7));
        plain.claim(43, 7);
        assert!(!b.busy(43, 7), "a plain handle claims nothing");
        // A release of what another claimed since leaves that claim alone.
        b.release(42, 6);
        assert!(b.busy(42, 7));
        a.release(42, 7);
        assert!(!b.busy(42, 7));
    }

    /// Eight threads hammer a tiny table (16 buckets) with stores and
    /// probes of overlapping keys: every entry a probe returns is exactly
    /// the one stored for its key, never a torn mix.
    #[test]
    fn racing_threads_never_read_a_torn_entry() {
        let t = SharedTable::with_megabytes(1).unwrap();
        // A 1 KiB table: every bucket is contended.
        let small = SharedTable {
            inner: Arc::new(Inner {
                words: (0..16 * WORDS + WORDS).map(|_| AtomicU64::new(0)).collect(),
                offset: 0,
                mask: 15,
                bits: 4,
                generation: AtomicU8::new(1),
                busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            }),
        };
        for table in [&t, &small] {
            let hits = std::sync::atomic::AtomicU64::new(0);
            std::thread::scope(|s| {
                for th in 0..8u64 {
                    let mut h = table.handle();
                    let hits = &hits;
                    s.spawn(move || {
                        let mut x = th.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                        for _ in 0..200_000 {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            let key = x % 200;
                            if (x >> 40) & 1 == 0 {
                                h.store(key, entry_of(key));
                            } else if let Some(e) = h.probe(key) {
                                assert_eq!(e, entry_of(key), "key {key}: a torn or foreign entry");
                                hits.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    });
                }
            });
            assert!(hits.load(Ordering::Relaxed) > 1000);
        }
    }
}
