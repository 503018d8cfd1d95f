//! Transposition tables: bounds on positions' values, shared by the searches
//! that use memory (the MT drivers, and alpha-beta and NegaScout on request).

mod fixed;

pub(crate) use fixed::{place_table, table_alignment};
pub use fixed::{FixedTable, SLOTS};

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

/// The one default size of a bounded table, in MiB: a built-in game's
/// table in every front end, an engine's
/// ([`SearchOptions::engine`](crate::SearchOptions::engine)) and a shared
/// table asked for without a size all read it.
pub const DEFAULT_TABLE_MB: usize = 64;

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
/// let out = Algorithm::Mtdf.with_options(&opts).deepen().table(&mut table).run(&game).unwrap();
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
    if let Some(phys) = physical_memory_mb()
        && mb as u64 > phys
    {
        return Err(TableError {
            megabytes: mb,
            kind: TableErrorKind::OverPhysicalMemory(phys),
        });
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
pub(crate) fn zeroed_words(n: usize) -> Option<Vec<u64>> {
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
    /// only when this is set. A table whose slot cannot hold the move's
    /// index keeps this flag and reads the move as [`NO_MOVE`]: a bound a
    /// move proved, with the move lost ([`Entry::lost_move`]), which answers
    /// no root (a leaf's entry names no move and proves nothing).
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
    /// Whether a move proved this entry's bound but the table could not keep
    /// its index (a [`FixedTable`] keeps 255 moves, a [`SharedTable`](crate::SharedTable) 65,535):
    /// the entry still bounds the value, but names no move a root could play.
    #[inline]
    pub fn lost_move(&self) -> bool {
        self.best == NO_MOVE && self.best_proves
    }

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
    /// Whether other threads search the same root through this table, so
    /// that a search looks at the root's entry now and then and gives up a
    /// pass that another thread has already answered (ABDADA's threads, and
    /// Lazy SMP's). By default no.
    #[inline]
    fn syncs_root(&self) -> bool {
        self.shares_work()
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

    /// The root's moves, as a `Vec` of the game's moves, that every thread
    /// of one parallel search reads instead of asking the game: the threads
    /// name root moves by their index in one list (a table entry written by
    /// one and read by another, the answer's move), even for a game whose
    /// [`Game::moves`](crate::Game::moves) order changes between calls. Its
    /// type is erased so that the searches are compiled once per game, not
    /// once more for a game wrapped to pin its root. By default none.
    #[doc(hidden)]
    fn root_moves(&self) -> Option<&(dyn std::any::Any + Send + Sync)> {
        None
    }

    /// Hides [`Table::root_moves`] (`false`) or shows it again: a search
    /// of a narrowed game (the presearch), whose root has fewer moves,
    /// lists them itself.
    #[doc(hidden)]
    fn show_root_moves(&mut self, _show: bool) {}
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
    fn syncs_root(&self) -> bool {
        (**self).syncs_root()
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
    fn root_moves(&self) -> Option<&(dyn std::any::Any + Send + Sync)> {
        (**self).root_moves()
    }
    fn show_root_moves(&mut self, show: bool) {
        (**self).show_root_moves(show)
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

    /// The table a [`TableSize`] asks for, growing on demand up to its size
    /// ([`FixedTable::try_growing`]): every probe and store as
    /// [`AnyTable::try_new`]'s table answers them, in the memory of what it
    /// holds.
    ///
    /// # Errors
    /// As [`FixedTable::try_growing`].
    pub fn try_growing(size: TableSize) -> Result<AnyTable, TableError> {
        Ok(match size {
            TableSize::Unbounded => AnyTable::Map(MapTable::new()),
            TableSize::Megabytes(mb) => AnyTable::Fixed(FixedTable::try_growing(mb)?),
        })
    }

    /// The bytes its entries take now: a fixed table's buckets, or a map
    /// table's entries (their keys and values, without the map's spare room).
    pub fn bytes(&self) -> usize {
        match self {
            AnyTable::Map(t) => t.len() * std::mem::size_of::<(u64, Entry)>(),
            AnyTable::Fixed(t) => t.bytes(),
        }
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
