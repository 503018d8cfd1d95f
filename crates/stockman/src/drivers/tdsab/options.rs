//! What a distributed search is asked ([`TdsabOptions`]) and what it
//! answers ([`Distributed`], with a [`RankReport`] per rank).

use crate::algorithms::Algorithm;
use crate::options::Enhancements;
use crate::search::SearchError;
use crate::stats::Stats;
use crate::table::TableSize;
use crate::value::Value;

/// How the ranks share one position's search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// Transposition-driven scheduling: every position of the top plies
    /// goes to its home rank, which keeps its slice of one table.
    #[default]
    Tdsab,
    /// The simplest scheme, kept to be measured against: the eldest root
    /// move is solved first, then the other root moves are handed out one
    /// by one to ranks that test them against the best value so far, each
    /// rank with its own table ([`root_split`](super::root_split)).
    RootSplit,
}

impl Scheme {
    /// Every scheme, in the order the command line lists them.
    pub const ALL: [Scheme; 2] = [Scheme::Tdsab, Scheme::RootSplit];

    /// Its name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Tdsab => "tdsab",
            Scheme::RootSplit => "root-split",
        }
    }
}

impl std::fmt::Display for Scheme {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Scheme {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Scheme::ALL.into_iter().find(|x| x.name() == s).ok_or_else(|| {
            let names: Vec<_> = Scheme::ALL.iter().map(|x| x.name()).collect();
            format!("unknown scheme '{s}' (known: {})", names.join(", "))
        })
    }
}

/// The most plies [`TdsabOptions::spread`] may spread: a message names its
/// position by its path from the root, 4 bytes a ply, and only positions
/// of the top `spread` plies are sent, so this bounds every message (at
/// most [`MAX_MESSAGE_BYTES`](super::MAX_MESSAGE_BYTES)). The top plies of
/// any tree of two moves a node or more hold 2^64 nodes long before it, so
/// a larger spread only bloats the messages of a chain.
pub const MAX_SPREAD: u32 = 64;

/// Which MT driver runs the passes, and how the work is spread.
#[derive(Clone, Debug)]
pub struct TdsabOptions {
    /// How the ranks share the work.
    pub scheme: Scheme,
    /// [`Algorithm::Mtdf`], [`Algorithm::MtdBi`] or [`Algorithm::MtSss`].
    pub algorithm: Algorithm,
    /// The search's depth in plies; `None` searches to the end.
    pub depth: Option<u32>,
    /// TDSAB: the plies from the root whose nodes are spread over the
    /// ranks; a node at this ply is searched whole at its home.
    pub spread: u32,
    /// Each rank's table.
    pub table: TableSize,
    /// MTD(f)'s first guess.
    pub first_guess: Value,
    /// The sequential tests' enhancements (a game's best settings:
    /// enhanced transposition cut-offs on Othello, say).
    pub enhancements: Enhancements,
    /// The deepest the tree goes when `depth` is `None` (a tree's height):
    /// [`LocalWorld`](super::LocalWorld) sizes its ranks' stacks by it.
    pub max_plies: Option<u32>,
}

impl Default for TdsabOptions {
    fn default() -> Self {
        TdsabOptions {
            scheme: Scheme::Tdsab,
            algorithm: Algorithm::Mtdf,
            depth: None,
            spread: 4,
            table: TableSize::Megabytes(16),
            first_guess: 0,
            enhancements: Enhancements::default(),
            max_plies: None,
        }
    }
}

impl TdsabOptions {
    /// Whether `algorithm` can drive the passes.
    pub fn drives(algorithm: Algorithm) -> bool {
        matches!(algorithm, Algorithm::Mtdf | Algorithm::MtdBi | Algorithm::MtSss)
    }

    /// Refuses what no distributed search can run: an algorithm that does
    /// not drive MT passes, or a spread over [`MAX_SPREAD`] (which would
    /// make messages grow with the tree's depth). Every way in calls it
    /// ([`search`](super::search), [`LocalWorld::run`](super::LocalWorld::run),
    /// the simulator), so every front end gets the same message.
    ///
    /// # Errors
    /// [`SearchError::Distributed`] naming the option.
    pub fn check(&self) -> Result<(), SearchError> {
        if !TdsabOptions::drives(self.algorithm) {
            return Err(SearchError::Distributed(format!(
                "{} cannot be distributed: the passes of mtdf, mtd-bi or mt-sss can",
                self.algorithm.name()
            )));
        }
        if self.spread > MAX_SPREAD {
            return Err(SearchError::Distributed(format!(
                "a spread of {} plies is more than the {MAX_SPREAD} a distributed search spreads \
                 (a message carries its position's path, 4 bytes a ply)",
                self.spread
            )));
        }
        Ok(())
    }
}

/// What one rank did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RankReport {
    /// The rank.
    pub rank: usize,
    /// Its searches' counters: frames and the tests below them.
    pub stats: Stats,
    /// Messages and bytes it sent to other ranks.
    pub messages: u64,
    /// Bytes it sent.
    pub bytes: u64,
    /// Messages it took from itself without the transport (children whose
    /// home is their parent's).
    pub kept: u64,
    /// TDSAB: frames it opened (nodes of the top plies searched here).
    /// Root split: root moves it was given.
    pub frames: u64,
    /// Positions answered by joining a frame already open for them.
    pub joined: u64,
    /// Microseconds it waited with no work.
    pub idle_us: u64,
    /// Bytes its table held at the end: a rank's table grows on demand up
    /// to the size asked ([`AnyTable::try_growing`](crate::AnyTable::try_growing)),
    /// so a rank that searched little holds little.
    pub table_bytes: u64,
}

/// A distributed search's answer, as rank 0 has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distributed {
    /// The root's minimax value.
    pub value: Value,
    /// The best move's index in the root's move list (`None` at a leaf).
    pub best_index: Option<usize>,
    /// TDSAB: the root's null-window passes. Root split: the null-window
    /// tests of every rank (a root move's test, and the passes that solve
    /// it).
    pub passes: u64,
    /// Every rank's report, rank 0 first.
    pub ranks: Vec<RankReport>,
}

impl Distributed {
    /// The counters of every rank together.
    pub fn stats(&self) -> Stats {
        let mut s = Stats::default();
        for r in &self.ranks {
            s += r.stats;
        }
        s.passes = self.passes;
        s
    }
}
