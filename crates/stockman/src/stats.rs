//! What a search measures: the public [`Stats`] value type.

use serde::{Deserialize, Serialize};
use std::ops::AddAssign;
use std::time::Duration;

/// Counters of one search (or, added up, of many).
///
/// Every field is a plain number so that callers, tests and experiment
/// scripts can read them directly. Adding two `Stats` sums every counter
/// except `max_open`, which keeps the larger peak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stats {
    /// Leaf evaluations, repeats included (an MT pass that re-visits a leaf
    /// whose value is not in the table evaluates it again).
    pub leaf_evals: u64,
    /// Interior nodes whose moves were generated.
    pub nodes_expanded: u64,
    /// Positions visited: every node a search entered, leaf or interior,
    /// including those answered from the transposition table.
    pub nodes: u64,
    /// Positions the depth limit turned into leaves (0: the search saw the
    /// whole tree below the root). Counted by the depth-first searches.
    pub horizon_nodes: u64,
    /// The largest number of entries the OPEN list (or OPEN array) held at
    /// once; for SSS-2, GSEARCH and RSEARCH, the peak of their stored nodes.
    pub max_open: u64,
    /// States pushed onto OPEN over the whole search (SSS-2, GSEARCH and
    /// RSEARCH: nodes stored).
    pub open_pushes: u64,
    /// States removed from OPEN by purges (SSS\*'s case 4 and its dual;
    /// GSEARCH and RSEARCH: stored nodes dropped below a dead or solved one).
    pub open_purged: u64,
    /// Searches of the root: null-window passes of the MT drivers, BNS and
    /// SSS-2, iterations of RecSSS\*'s driver, 1 for single-pass searches;
    /// GSEARCH makes none (0), and RSEARCH counts its depth-first searches of
    /// tips that did not fit in memory.
    pub passes: u64,
    /// Transposition-table look-ups.
    pub tt_probes: u64,
    /// Look-ups that found an entry for the position.
    pub tt_hits: u64,
    /// Entries written to the table.
    pub tt_stores: u64,
    /// Wall-clock time of the search in microseconds.
    pub time_us: u64,
}

impl Stats {
    /// The counters without the wall-clock time: equal for equal searches.
    pub fn counts(&self) -> Stats {
        Stats { time_us: 0, ..*self }
    }
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.leaf_evals += o.leaf_evals;
        self.nodes_expanded += o.nodes_expanded;
        self.nodes += o.nodes;
        self.horizon_nodes += o.horizon_nodes;
        self.max_open = self.max_open.max(o.max_open);
        self.open_pushes += o.open_pushes;
        self.open_purged += o.open_purged;
        self.passes += o.passes;
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.tt_stores += o.tt_stores;
        self.time_us += o.time_us;
    }
}

impl std::ops::Add for Stats {
    type Output = Stats;
    fn add(mut self, o: Stats) -> Stats {
        self += o;
        self
    }
}

impl std::iter::Sum for Stats {
    fn sum<I: Iterator<Item = Stats>>(iter: I) -> Stats {
        iter.fold(Stats::default(), |a, b| a + b)
    }
}

/// The CPU time the calling thread has used so far, where the platform tells
/// it (Linux's `CLOCK_THREAD_CPUTIME_ID`; `None` elsewhere). Timing a search
/// by its own thread's CPU time keeps other work on a shared machine out of
/// the measurement, which the wall clock does not.
#[cfg(target_os = "linux")]
pub fn thread_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

/// The CPU time the calling thread has used so far: not known here.
#[cfg(not(target_os = "linux"))]
pub fn thread_cpu_time() -> Option<Duration> {
    None
}
