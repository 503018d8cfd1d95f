//! Transposition tables: bounds on positions' values, shared by the searches
//! that use memory (the MT drivers, and alpha-beta and NegaScout on request).

use crate::key_map::KeyMap;
use crate::value::{Value, INF};

/// How much memory a transposition table may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableSize {
    /// A hash map that keeps every entry: never loses information, grows
    /// with the search. The right choice for the theorems on trees (the
    /// default).
    #[default]
    Unbounded,
    /// A fixed array of about this many mebibytes, with replacement.
    Megabytes(usize),
}

/// The largest table a [`TableSize::Megabytes`] may ask for: 1 TiB.
pub const MAX_TABLE_MB: usize = 1 << 20;

/// Why a table could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The size asked for, in MiB.
    pub megabytes: usize,
    /// What went wrong.
    pub kind: TableErrorKind,
}

/// What went wrong in making a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableErrorKind {
    /// 0 MiB, or more than [`MAX_TABLE_MB`].
    OutOfRange,
    /// More than the machine's physical memory (in MiB): the table would
    /// be committed page by page until the operating system killed the
    /// process.
    OverPhysicalMemory(u64),
    /// The allocator refused the memory.
    AllocationFailed,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mb = self.megabytes;
        match &self.kind {
            TableErrorKind::OutOfRange => write!(f, "the table size must be 1 to {MAX_TABLE_MB} MiB, not {mb}"),
            TableErrorKind::OverPhysicalMemory(phys) => write!(
                f,
                "cannot allocate a table of {mb} MiB: this machine has {phys} MiB of memory"
            ),
            TableErrorKind::AllocationFailed => write!(f, "cannot allocate a table of {mb} MiB on this machine"),
        }
    }
}

impl std::error::Error for TableError {}

impl TableSize {
    /// Checks that a table of this size can be made here: in range, within
    /// physical memory, and granted by the allocator (the memory is asked
    /// for and given back untouched).
    ///
    /// # Errors
    /// A [`TableError`] saying which.
    pub fn check(self) -> Result<TableSize, TableError> {
        if let TableSize::Megabytes(mb) = self {
            check_megabytes(mb)?;
            drop(zeroed_words(mb.saturating_mul(1 << 17)).ok_or(TableError {
                megabytes: mb,
                kind: TableErrorKind::AllocationFailed,
            })?);
        }
        Ok(self)
    }
}

/// The principal variation a table remembers: from `game`'s root, the move
/// `first` (the search's best move index, or the table's when `None`),
/// then at each position the best move the table holds, as 0-based indices
/// into each position's move list; at most `max_len` moves. It stops where
/// the table knows no move, or at a position the game cannot hash.
///
/// A table service for game programs (the UCI `pv`): it probes, never
/// stores, so the table is the same afterwards.
///
/// # Example
/// ```
/// use stockman::{table::principal_variation, Algorithm, AnyTable, Enhancements, Game, Limits, SearchOptions, TableSize, TicTacToe};
/// let game = TicTacToe::new();
/// let opts = SearchOptions { limits: Limits::to_depth(9), enhancements: Enhancements { table_move_first: true, ..Default::default() }, ..Default::default() };
/// let mut table = AnyTable::try_new(TableSize::Megabytes(1)).unwrap();
/// let out = Algorithm::Mtdf.with_options(&opts).deepen().observer(&mut stockman::NoObserver).table(&mut table).run(&game).unwrap();
/// let pv = principal_variation(&game, &mut table, out.best_index, 9);
/// assert_eq!(pv.first().map(|&i| i as usize), out.best_index);
/// assert!(pv.len() <= 9);
/// ```
pub fn principal_variation<G: crate::Game, T: Table>(
    game: &G,
    table: &mut T,
    first: Option<usize>,
    max_len: usize,
) -> Vec<u32> {
    let mut pv = Vec::new();
    let mut pos = game.root();
    let mut moves = Vec::new();
    while pv.len() < max_len {
        let chosen = match (pv.is_empty(), first) {
            (true, Some(i)) => Some(i),
            _ => game
                .hash(&pos)
                .and_then(|key| table.probe(key))
                .filter(|e| e.best != NO_MOVE)
                .map(|e| e.best as usize),
        };
        let Some(i) = chosen else { break };
        moves.clear();
        game.moves(&pos, &mut moves);
        let Some(&mv) = moves.get(i) else { break };
        pv.push(i as u32);
        pos = game.play(&pos, mv);
    }
    pv
}

pub(crate) fn check_megabytes(mb: usize) -> Result<(), TableError> {
    if !(1..=MAX_TABLE_MB).contains(&mb) {
        return Err(TableError {
            megabytes: mb,
            kind: TableErrorKind::OutOfRange,
        });
    }
    if let Some(phys) = physical_memory_mb() {
        if mb as u64 > phys {
            return Err(TableError {
                megabytes: mb,
                kind: TableErrorKind::OverPhysicalMemory(phys),
            });
        }
    }
    Ok(())
}

/// The machine's physical memory in MiB, where the system tells it.
fn physical_memory_mb() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf only reads system configuration.
        let (pages, size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
        if pages > 0 && size > 0 {
            return Some((pages as u64).saturating_mul(size as u64) >> 20);
        }
    }
    None
}

/// `n` zeroed words, or `None` if the allocator refuses them. A zeroed
/// allocation is lazily committed: untouched pages cost nothing.
fn zeroed_words(n: usize) -> Option<Vec<u64>> {
    if n == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<u64>(n).ok()?;
    // SAFETY: the layout has a non-zero size. A non-null pointer from
    // `alloc_zeroed` with the layout of `[u64; n]` is what `Vec<u64>` with
    // length and capacity `n` owns: the global allocator, that size and
    // alignment, and `n` initialised (zero) words.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut u64;
        if ptr.is_null() {
            None
        } else {
            Some(Vec::from_raw_parts(ptr, n, n))
        }
    }
}

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
    /// Whether [`best`](Entry::best) proves the bound of the side to move:
    /// the search that stored it reached its result through that move (a
    /// fail high or an exact value at a MAX node, so the move's child is
    /// worth at least `lower`; a fail low or an exact value at a MIN node,
    /// at most `upper`). A move stored by a search that failed the other way
    /// is only the most promising one to try first, and the bound beside it
    /// may be another search's: a root takes its best move from an entry
    /// only when this is set.
    pub best_proves: bool,
    /// How much search the bounds cost, as the bit length of the number of
    /// positions visited to find them (1 for one position, 2 for two or
    /// three, ...; 0 when unknown). Only a replacement priority: a
    /// [`FixedTable`] keeps costly entries longer; it never changes what an
    /// entry means.
    pub work: u32,
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
            best_proves: false,
            work: 0,
        }
    }

    /// [`Entry::work`] for a search that visited `positions` positions.
    #[inline]
    pub fn work_of(positions: u64) -> u32 {
        u64::BITS - positions.leading_zeros()
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
    /// Starts loading what a probe of `key` will read, so that work done
    /// before the probe hides the memory's latency. A hint: by default nothing.
    #[inline]
    fn prefetch(&self, _key: u64) {}
    /// Whether the threads searching through this table tell each other
    /// which positions they are searching now (the exclusive search of
    /// Weill's ABDADA; see [`SharedTable::exclusive_handle`](crate::SharedTable::exclusive_handle)).
    /// By default no: a table of one search.
    #[inline]
    fn shares_work(&self) -> bool {
        false
    }
    /// Whether another thread is searching the position `key` at `draft`
    /// now. By default never.
    #[inline]
    fn busy(&self, _key: u64, _draft: u32) -> bool {
        false
    }
    /// Marks the position `key` at `draft` as being searched by this thread
    /// (until [`Table::release`]). By default nothing.
    #[inline]
    fn claim(&self, _key: u64, _draft: u32) {}
    /// Ends a [`Table::claim`]. By default nothing.
    #[inline]
    fn release(&self, _key: u64, _draft: u32) {}
    /// The node limit that the threads searching through this table share
    /// ([`SharedHandle`](crate::SharedHandle)s of one parallel search with
    /// a node limit): a search through it counts its positions against the
    /// team's limit instead of its own. By default none.
    fn node_pool(&self) -> Option<std::sync::Arc<crate::pool::NodePool>> {
        None
    }
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
    #[inline]
    fn prefetch(&self, key: u64) {
        (**self).prefetch(key)
    }
    #[inline]
    fn shares_work(&self) -> bool {
        (**self).shares_work()
    }
    #[inline]
    fn busy(&self, key: u64, draft: u32) -> bool {
        (**self).busy(key, draft)
    }
    #[inline]
    fn claim(&self, key: u64, draft: u32) {
        (**self).claim(key, draft)
    }
    #[inline]
    fn release(&self, key: u64, draft: u32) {
        (**self).release(key, draft)
    }
    fn node_pool(&self) -> Option<std::sync::Arc<crate::pool::NodePool>> {
        (**self).node_pool()
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
    map: KeyMap<u64, Entry>,
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
struct Bucket {
    /// Each slot's full 64-bit key plus one (0 marks an empty slot).
    tags: [u64; SLOTS],
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
    offset: usize,
    mask: usize,
    /// log2 of the number of buckets.
    bits: u32,
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
    /// A size of 0 or over [`MAX_TABLE_MB`], over the machine's physical
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
            generation: 0,
        })
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
    fn bucket(&self, key: u64) -> &Bucket {
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

/// Either kind of table, chosen at run time from a [`TableSize`].
#[derive(Clone, Debug)]
pub enum AnyTable {
    /// Unbounded.
    Map(MapTable),
    /// Fixed memory.
    Fixed(FixedTable),
}

impl AnyTable {
    /// Commits a fixed table's memory now ([`FixedTable::touch`]); a map
    /// table has nothing to commit.
    pub fn touch(&mut self) {
        if let AnyTable::Fixed(t) = self {
            t.touch();
        }
    }

    /// The table a [`TableSize`] asks for.
    ///
    /// # Panics
    /// If a fixed table's memory cannot be allocated; [`AnyTable::try_new`]
    /// says so instead.
    pub fn new(size: TableSize) -> AnyTable {
        AnyTable::try_new(size).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The table a [`TableSize`] asks for, or why it cannot be made here.
    ///
    /// # Errors
    /// See [`FixedTable::try_with_megabytes`].
    pub fn try_new(size: TableSize) -> Result<AnyTable, TableError> {
        Ok(match size {
            TableSize::Unbounded => AnyTable::Map(MapTable::new()),
            TableSize::Megabytes(mb) => AnyTable::Fixed(FixedTable::try_with_megabytes(mb)?),
        })
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
    #[inline]
    fn prefetch(&self, key: u64) {
        if let AnyTable::Fixed(t) = self {
            t.prefetch(key);
        }
    }
}

#[cfg(test)]
mod tests;
