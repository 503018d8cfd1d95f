//! A distributed search in virtual time: the ranks of
//! [`drivers::tdsab`](crate::drivers::tdsab), either scheme, run their
//! real code over a simulated network, so that a cluster of 16 to 256
//! machines is forecast on this one.
//!
//! Every rank is a thread, but only one runs at a time: the one whose
//! virtual clock is earliest. A rank's clock advances by
//! [`NetCost::node_ns`] for every position it expands or leaf it evaluates
//! (counted by the game it searches), by [`NetCost::overhead_ns`] for every
//! message it sends or takes in, and, when it waits with nothing to do, to
//! the arrival of its next message. A message sent at time `t` arrives at
//! `t +` [`NetCost::latency_ns`]. Because the rank that runs is always the
//! earliest, every message that arrives before a rank looks for one has
//! been sent by then, as on a real network; and because the order of turns
//! depends on the clocks alone, the same inputs give the same answer, the
//! same messages and the same times on every run.
//!
//! The model's assumptions: one core per rank; a network without
//! contention (every message takes the latency, however many are in
//! flight); a table access costs nothing beyond the position's work; the
//! rank's table is as large as asked whatever the rank count. (Each
//! rank's table grows on demand up to that size and answers as the full
//! table would, so the simulation's memory is what the ranks hold: 1,024
//! ranks of a small search fit this machine.)
//!
//! # Complexity
//! The search's own work, run on one core, plus a switch of threads each
//! time a rank looks for a message.
//!
//! # Example
//! ```
//! use stockman::drivers::tdsab::{Scheme, TdsabOptions};
//! use stockman::simulate::distributed::{simulate, NetCost};
//! use stockman::ConnectFour;
//!
//! let game = ConnectFour::from_moves("4453").unwrap().with_heuristic();
//! let opts = TdsabOptions { scheme: Scheme::Tdsab, depth: Some(8), spread: 2, ..Default::default() };
//! let cost = NetCost { node_ns: 1_000, latency_ns: 5_000, overhead_ns: 1_000 };
//! let one = simulate(1, &game, &opts, cost).unwrap();
//! let four = simulate(4, &game, &opts, cost).unwrap();
//! assert_eq!(one.value, four.value);
//! assert_eq!(four, simulate(4, &game, &opts, cost).unwrap()); // to the nanosecond
//! ```

use crate::algorithms::Algorithm;
use crate::drivers::tdsab::{self, TdsabOptions, Transport, TransportError};
use crate::game::{metered_work, Game, Metered};
use crate::options::SearchOptions;
use crate::search::{Outcome, SearchError};
use crate::value::Value;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// What the simulated machines and network cost, in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetCost {
    /// A position expanded or a leaf evaluated.
    pub node_ns: u64,
    /// From a message's send to its arrival.
    pub latency_ns: u64,
    /// A rank's own time to send a message, and to take one in.
    pub overhead_ns: u64,
}

/// The most any one [`NetCost`] may be: 1,000 s. A cost beyond it is a
/// typo (`1e300` microseconds), and would overflow the simulated clocks.
pub const MAX_COST_NS: u64 = 1_000_000_000_000;

impl NetCost {
    /// Refuses a cost above [`MAX_COST_NS`], naming it.
    ///
    /// # Errors
    /// [`SearchError::Distributed`] naming the first cost out of range.
    pub fn check(&self) -> Result<(), SearchError> {
        for (name, ns) in [
            ("a node cost", self.node_ns),
            ("a latency", self.latency_ns),
            ("an overhead", self.overhead_ns),
        ] {
            if ns > MAX_COST_NS {
                return Err(SearchError::Distributed(format!(
                    "simulation: {name} of {ns} ns is more than the {MAX_COST_NS} ns (1,000 s) a simulated event may cost"
                )));
            }
        }
        Ok(())
    }
}

/// What one simulated rank did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimRank {
    /// The rank.
    pub rank: usize,
    /// Positions expanded and leaves evaluated.
    pub work: u64,
    /// Messages it sent.
    pub messages: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Virtual nanoseconds it waited with nothing to do.
    pub idle_ns: u64,
    /// Its clock when it finished.
    pub end_ns: u64,
    /// Bytes its table held at the end ([`RankReport::table_bytes`](tdsab::RankReport::table_bytes)):
    /// a rank's table grows with what it holds, so a thousand ranks that
    /// search little fit one machine.
    pub table_bytes: u64,
}

/// A simulated distributed search's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimDistributed {
    /// The root's value.
    pub value: Value,
    /// The best move's index in the root's move list.
    pub best_index: Option<usize>,
    /// When the last rank finished: the search's time on the simulated machine.
    pub makespan_ns: u64,
    /// Every rank, rank 0 first.
    pub ranks: Vec<SimRank>,
}

impl SimDistributed {
    /// The work of all ranks together.
    pub fn work(&self) -> u64 {
        self.ranks.iter().map(|r| r.work).sum()
    }

    /// The messages of all ranks together.
    pub fn messages(&self) -> u64 {
        self.ranks.iter().map(|r| r.messages).sum()
    }
}

/// A rank's state in the turn-taking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    /// It runs, or will, at its clock (it has work of its own).
    Run,
    /// It waits for a message.
    Message,
    /// It has finished.
    Done,
}

/// A message in flight: arrival, a sequence number (ties in order sent),
/// the sender, the bytes.
type InFlight = Reverse<(u64, u64, usize, Vec<u8>)>;

struct World {
    clock: Vec<u64>,
    want: Vec<Want>,
    inbox: Vec<BinaryHeap<InFlight>>,
    ranks: Vec<SimRank>,
    /// The rank whose turn it is.
    turn: usize,
    sent: u64,
    /// Every rank that has not finished waits for a message none will send.
    stalled: bool,
}

impl World {
    /// When rank `r` acts next (`u64::MAX`: not until a message comes).
    fn next_time(&self, r: usize) -> u64 {
        match self.want[r] {
            Want::Run => self.clock[r],
            Want::Message => self.inbox[r].peek().map_or(u64::MAX, |m| m.0 .0.max(self.clock[r])),
            Want::Done => u64::MAX,
        }
    }

    /// Gives the turn to the earliest rank (the lowest-numbered of equals).
    fn pass_turn(&mut self) {
        let next = (0..self.clock.len())
            .min_by_key(|&r| (self.next_time(r), r))
            .unwrap_or(0);
        if self.next_time(next) == u64::MAX {
            self.stalled = self.want.iter().any(|&w| w != Want::Done);
        }
        self.turn = next;
    }
}

struct Shared {
    world: Mutex<World>,
    /// One per rank: its turn came.
    turns: Vec<Condvar>,
    cost: NetCost,
}

/// One rank's end of the simulated network.
struct SimNet<'s> {
    me: usize,
    shared: &'s Shared,
    /// The work counted on this rank's thread when its clock last moved.
    seen: u64,
}

impl<'s> SimNet<'s> {
    fn lock(&self) -> MutexGuard<'s, World> {
        self.shared.world.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Moves this rank's clock by the work it did since it last moved.
    fn charge(&mut self, w: &mut World) {
        let now = metered_work();
        let done = now - self.seen;
        self.seen = now;
        // Saturating: a clock that reaches u64::MAX (584 years) is refused
        // at the end of the run, never wrapped.
        w.clock[self.me] = w.clock[self.me].saturating_add(done.saturating_mul(self.shared.cost.node_ns));
        w.ranks[self.me].work += done;
    }

    /// Waits for this rank's turn; `false` if the simulation stalled.
    fn wait_turn<'g>(&self, mut w: MutexGuard<'g, World>) -> (MutexGuard<'g, World>, bool) {
        while w.turn != self.me && !w.stalled {
            w = self.shared.turns[self.me].wait(w).unwrap_or_else(|e| e.into_inner());
        }
        let ok = !w.stalled;
        (w, ok)
    }

    fn hand_over(&self, w: &mut World) {
        w.pass_turn();
        if w.stalled {
            self.shared.turns.iter().for_each(Condvar::notify_one);
        } else {
            self.shared.turns[w.turn].notify_one();
        }
    }

    /// This rank's first turn; `false` if the simulation stopped first.
    fn start(&mut self) -> bool {
        self.seen = metered_work();
        let w = self.lock();
        self.wait_turn(w).1
    }

    /// This rank has finished: its clock stops, and the next rank runs.
    fn finish(&mut self) {
        let mut w = self.lock();
        self.charge(&mut w);
        let me = self.me;
        w.want[me] = Want::Done;
        w.ranks[me].end_ns = w.clock[me];
        self.hand_over(&mut w);
    }
}

impl Transport for SimNet<'_> {
    fn rank(&self) -> usize {
        self.me
    }
    fn ranks(&self) -> usize {
        self.shared.turns.len()
    }
    fn send(&mut self, to: usize, bytes: &[u8]) -> Result<(), TransportError> {
        let mut w = self.lock();
        self.charge(&mut w);
        let me = self.me;
        w.clock[me] = w.clock[me].saturating_add(self.shared.cost.overhead_ns);
        w.ranks[me].messages += 1;
        w.ranks[me].bytes += bytes.len() as u64;
        let arrival = w.clock[me].saturating_add(self.shared.cost.latency_ns);
        w.sent += 1;
        let seq = w.sent;
        w.inbox[to].push(Reverse((arrival, seq, me, bytes.to_vec())));
        Ok(())
    }
    fn recv(&mut self, wait: Duration) -> Result<Option<(usize, Vec<u8>)>, TransportError> {
        let mut w = self.lock();
        self.charge(&mut w);
        let me = self.me;
        // Every rank behind this one catches up first: what reaches this
        // rank by its clock has then been sent.
        w.want[me] = if wait.is_zero() { Want::Run } else { Want::Message };
        self.hand_over(&mut w);
        let (mut w, ok) = self.wait_turn(w);
        w.want[me] = Want::Run;
        if !ok {
            return Err(TransportError(format!(
                "simulation: rank {me} waits for a message that no rank will send"
            )));
        }
        let now = w.clock[me];
        let due = w.inbox[me].peek().is_some_and(|m| m.0 .0 <= now || !wait.is_zero());
        if !due {
            return Ok(None);
        }
        let Reverse((arrival, _, from, bytes)) = w.inbox[me].pop().expect("a message");
        if arrival > now {
            w.ranks[me].idle_ns += arrival - now;
            w.clock[me] = arrival;
        }
        w.clock[me] = w.clock[me].saturating_add(self.shared.cost.overhead_ns);
        Ok(Some((from, bytes)))
    }
}

/// Searches `game` on `n` simulated ranks (see the module's text).
///
/// # Errors
/// As [`tdsab::search`]: the first failing rank's error.
pub fn simulate<G: Game + Sync>(
    n: usize,
    game: &G,
    opts: &TdsabOptions,
    cost: NetCost,
) -> Result<SimDistributed, SearchError> {
    cost.check()?;
    opts.check()?;
    let n = n.max(1);
    let shared = Shared {
        world: Mutex::new(World {
            clock: vec![0; n],
            want: vec![Want::Run; n],
            inbox: (0..n).map(|_| BinaryHeap::new()).collect(),
            ranks: (0..n)
                .map(|rank| SimRank {
                    rank,
                    ..SimRank::default()
                })
                .collect(),
            turn: 0,
            sent: 0,
            stalled: false,
        }),
        turns: (0..n).map(|_| Condvar::new()).collect(),
        cost,
    };
    let metered = Metered { game };
    let stack = (64usize << 20) + opts.depth.or(opts.max_plies).unwrap_or(200) as usize * 4096;
    let results: Vec<Result<Option<tdsab::Distributed>, SearchError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|me| {
                let (shared, metered) = (&shared, &metered);
                std::thread::Builder::new()
                    .stack_size(stack)
                    .spawn_scoped(s, move || {
                        let mut net = SimNet { me, shared, seen: 0 };
                        let out = if net.start() {
                            // A rank that panics stops every rank with its
                            // message: the others would wait for its turn forever.
                            let run = std::panic::AssertUnwindSafe(|| tdsab::search(metered, opts, &mut net, 0));
                            std::panic::catch_unwind(run).unwrap_or_else(|p| {
                                let mut w = shared.world.lock().unwrap_or_else(|e| e.into_inner());
                                w.stalled = true;
                                shared.turns.iter().for_each(Condvar::notify_one);
                                Err(SearchError::Panicked {
                                    rank: me,
                                    message: crate::search::panic_text(&*p),
                                })
                            })
                        } else {
                            Err(SearchError::Distributed(format!(
                                "simulation: rank {me} was stopped before it began"
                            )))
                        };
                        net.finish();
                        out
                    })
                    .map_err(|e| {
                        // The ranks started wait for this one: they stop.
                        let mut w = shared.world.lock().unwrap_or_else(|e| e.into_inner());
                        w.stalled = true;
                        shared.turns.iter().for_each(Condvar::notify_one);
                        SearchError::Threads {
                            asked: n,
                            started: me,
                            reason: e.to_string(),
                        }
                    })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.and_then(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))))
            .collect()
    });
    if let Some(e) = tdsab::panic_first(&results) {
        return Err(e);
    }
    let mut answer = None;
    for r in results {
        if let Some(d) = r? {
            answer = Some(d);
        }
    }
    let d = answer.ok_or_else(|| SearchError::Distributed("simulation: rank 0 gave no answer".into()))?;
    let mut w = shared.world.into_inner().unwrap_or_else(|e| e.into_inner());
    for r in &d.ranks {
        if let Some(s) = w.ranks.get_mut(r.rank) {
            s.table_bytes = r.table_bytes;
        }
    }
    if w.ranks.iter().any(|r| r.end_ns == u64::MAX) {
        return Err(SearchError::Distributed(
            "simulation: the simulated time passed 2^64 ns (584 years): give smaller costs".into(),
        ));
    }
    Ok(SimDistributed {
        value: d.value,
        best_index: d.best_index,
        makespan_ns: w.ranks.iter().map(|r| r.end_ns).max().unwrap_or(0),
        ranks: w.ranks,
    })
}

/// The one-process baseline of a forecast: `algorithm` on `game` with
/// `opts`, on this thread, and its work counted as a simulated rank's is.
///
/// # Errors
/// As [`Algorithm::search`].
pub fn sequential<G: Game>(
    algorithm: Algorithm,
    game: &G,
    opts: &SearchOptions,
) -> Result<(Outcome<G::Move>, u64), SearchError> {
    let before = metered_work();
    let out = algorithm.search(&Metered { game }, opts)?;
    Ok((out, metered_work() - before))
}
