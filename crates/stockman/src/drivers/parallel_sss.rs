//! Parallel SSS\* and Dual\* on real threads: Stockman's OPEN list, with
//! several states taken off its head at once.
//!
//! The literature's parallel SSS\* (Monien and Vornberger 1988, Kraas 1990)
//! gives each of `P` processors a state of OPEN and lets them apply the
//! Gamma operator together. This is that search, run in synchronous rounds
//! on `threads` threads: each round takes the `P` best states of OPEN (as
//! [`simulate::sss`](crate::simulate::sss) does, which explains why the
//! value stays exact), the threads work out what those states need from
//! the game (their moves, and a leaf's value: the costly part of a step),
//! and one thread then applies the round's Gamma steps in order. So for a
//! given `P` it evaluates exactly the leaves of the simulation with `P`
//! virtual processors, on any number of threads, on every run: the
//! parallel search is reproducible to the leaf, which no shared-table
//! search is.
//!
//! Which leaves differ from SSS\*'s: a round may expand states that the
//! one-processor search would have purged or never reached (its
//! speculation), so the search may evaluate leaves that full-window
//! alpha-beta skips; the theorems about SSS\*'s leaves hold at `P = 1`
//! (which *is* [`sss`](crate::algorithms::sss) leaf for leaf) and the value at every `P`.
//!
//! What it costs: a round's steps are applied on one thread, and the
//! threads meet twice a round. So the threads share a round's work only
//! when a helper's share is expected to cost more than a meeting (a running
//! average of a state's cost, read off the clock); when a leaf costs little
//! (random trees, a material count) the calling thread works alone, and
//! the rounds' bookkeeping is the cost. A helper whose part of the round is
//! shorter than the calling thread's may be given work for the next states
//! on OPEN ([`LOOK_AHEAD`] rounds down; 1, none, since more measured
//! slower): a state purged before its turn wastes that work, on a thread
//! that would otherwise have waited. Neither choice changes which
//! states a round steps, so the leaves stay those of the rounds. It pays
//! where evaluation dominates, and it is here to measure that claim of the
//! literature, not as the fastest way to search.
//!
//! # Complexity
//! Rounds: SSS\*'s steps over about `P` at best; work as
//! [`simulate::sss`](crate::simulate::sss) counts it; memory: every
//! position visited (kept for the rounds).
//!
//! # Example
//! ```
//! use stockman::drivers::parallel_sss;
//! use stockman::{ExplicitTree, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[[3,12],[8,2]],[[4,6],[14,5]],[[2,9],[1,7]]]", Role::Max).unwrap();
//! let out = parallel_sss::search(&tree, false, &SearchOptions::default(), 2, 4).unwrap();
//! assert_eq!(out.value, Some(8));
//! assert_eq!(out.best_index, Some(0)); // min(max(3,12), max(8,2)) = 8
//! ```

use super::rounds::sss::Sim;
use super::rounds::{SimError, MAX_PROCESSORS};
use crate::game::Game;
use crate::observe::{NoObserver, Observer};
use crate::search::{checked, Budget, Outcome, SearchError, SearchOptions};
use crate::stats::Stats;
use crate::value::Value;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread::Thread;
use std::time::Instant;

/// Whether `algo` runs here on several threads: SSS\* and Dual\* (the
/// other best-first searches, RecSSS\* and RecDual\*, stay on one).
pub fn supports(algo: crate::Algorithm) -> bool {
    algo.capabilities().parallel == crate::algorithms::capabilities::ParallelForm::Rounds
}

/// The states a round takes off OPEN per thread, when the caller leaves
/// it to us ([`search`] with `processors` 0).
pub const STATES_PER_THREAD: usize = 1;

/// Parallel SSS\* (`dual`: Dual\*) taking `processors` states off OPEN per
/// round (0: [`STATES_PER_THREAD`] per thread) on `threads` threads (at
/// most one per core: the leaves do not depend on the threads, and more
/// threads than cores would only wait for one another).
///
/// # Errors
/// The limits of `opts` (nodes, time, stop), a processor count over
/// [`MAX_PROCESSORS`], or a game that breaks its contract.
pub fn search<G>(
    game: &G,
    dual: bool,
    opts: &SearchOptions,
    threads: usize,
    processors: usize,
) -> Result<Outcome<G::Move>, SearchError>
where
    G: Game + Sync,
    G::Position: Send,
    G::Move: Send,
{
    search_observed(game, dual, opts, threads, processors, &mut NoObserver)
}

/// A round's work for one thread: positions (with their nodes) whose moves
/// and, at a leaf, value are needed; `true` marks one at the horizon.
type Work<P> = Vec<(u32, P, bool)>;

/// What a thread found for one node: its moves and a leaf's value.
type Worked<M> = (u32, Vec<M>, Option<Result<Value, SearchError>>);

/// What a thread found: per node, its moves and a leaf's value.
type Found<M> = Vec<Worked<M>>;

/// The moves and leaf values of `work`.
fn work_out<G: Game>(game: &G, work: Work<G::Position>) -> Found<G::Move> {
    work.into_iter()
        .map(|(n, pos, at_horizon)| work_one(game, n, &pos, at_horizon))
        .collect()
}

/// The moves of node `n` at `pos` and, at a leaf, its value.
fn work_one<G: Game>(game: &G, n: u32, pos: &G::Position, at_horizon: bool) -> Worked<G::Move> {
    let mut moves = Vec::new();
    if !at_horizon {
        game.moves(pos, &mut moves);
    }
    let value = moves.is_empty().then(|| checked(game.evaluate(pos)));
    (n, moves, value)
}

/// Whether a round's work is worth sharing with the helpers: a running
/// average of what one state's work costs, read off the clock on the
/// rounds the calling thread works (every one it shares, one in
/// [`SAMPLE_EVERY`] of the others). The clock decides only who works a
/// state out, never which states: the leaves stay those of the rounds.
struct Pace {
    /// Nanoseconds a state, smoothed (0 until measured).
    per_state: f64,
    rounds: u64,
    /// Never measured again (the tests' way to make every round share).
    fixed: bool,
    /// How many rounds down OPEN a shared round looks ([`LOOK_AHEAD`]).
    look_ahead: usize,
}

impl Default for Pace {
    fn default() -> Pace {
        Pace {
            per_state: 0.0,
            rounds: 0,
            fixed: false,
            look_ahead: LOOK_AHEAD,
        }
    }
}

/// A helper's share must be expected to take this long before it is
/// handed over: a meeting (two cache-line round trips, a wake if the
/// helper sleeps) costs about a microsecond on a free core.
const SHARE_NS: f64 = 4_000.0;

/// How far a round looks down OPEN for work to share, in rounds (1: the
/// round's own states only). Four rounds' worth was tried and measured
/// slower on two threads with a 20 µs leaf (width 8 depth 6: 1.33x the
/// sequential SSS\*'s time against 0.70x with 1; depth 7: 0.92x against
/// 0.93x; `docs/experiments/parallel.md`): a helper's work ahead is often
/// for states purged before their turn, and every such round meets.
pub const LOOK_AHEAD: usize = 1;

/// Of the rounds worked out on the calling thread alone, how often one is
/// timed (the clock costs about 20 ns a read, a cheap round about 1 µs).
const SAMPLE_EVERY: u64 = 8;

impl Pace {
    /// Whether a part of `part` states is worth a meeting.
    fn share(&self, part: usize) -> bool {
        self.per_state * part as f64 >= SHARE_NS
    }

    fn sample(&mut self) -> bool {
        self.rounds += 1;
        self.rounds % SAMPLE_EVERY == 1
    }

    /// A pace that shares every round that has two states to work out.
    #[cfg(test)]
    fn always() -> Pace {
        Pace {
            per_state: f64::INFINITY,
            fixed: true,
            ..Pace::default()
        }
    }

    /// This pace, looking `rounds` rounds down OPEN (at least 1).
    #[cfg(test)]
    fn looking(self, rounds: usize) -> Pace {
        Pace {
            look_ahead: rounds.max(1),
            ..self
        }
    }

    fn observe(&mut self, took: std::time::Duration, states: usize) {
        if states == 0 || self.fixed {
            return;
        }
        let each = took.as_nanos() as f64 / states as f64;
        self.per_state = if self.per_state == 0.0 {
            each
        } else {
            self.per_state + (each - self.per_state) / 8.0
        };
    }
}

/// Where the calling thread leaves a helper its share of a round, and the
/// helper what it found.
struct Slot<G: Game> {
    work: Mutex<Option<Work<G::Position>>>,
    found: Mutex<Option<Handed<G::Move>>>,
}

/// A helper's answer: what it found, or the panic of the game it ran
/// (raised again on the calling thread, instead of leaving it waiting).
type Handed<M> = std::thread::Result<Found<M>>;

impl<G: Game> Default for Slot<G> {
    fn default() -> Self {
        Slot {
            work: Mutex::new(None),
            found: Mutex::new(None),
        }
    }
}

/// How the threads meet twice a round: the calling thread moves `round`
/// on when the shares are out; each helper adds one to `done` when its
/// share is worked out. Rounds are short (a few leaves), so a waiting
/// thread spins first; after [`SPINS`] checks it parks and is woken by the
/// thread it waits for, so that a busy machine runs the threads that work
/// instead of those that wait.
#[derive(Default)]
struct Meeting {
    round: AtomicU64,
    done: AtomicUsize,
    closed: AtomicBool,
}

/// Closes the meeting when dropped (the search is over, answered or not),
/// waking every helper so that it sees it.
struct Closing<'a> {
    meet: &'a Meeting,
    helpers: Vec<Thread>,
}

impl Drop for Closing<'_> {
    fn drop(&mut self) {
        self.meet.closed.store(true, Ordering::Release);
        for h in &self.helpers {
            h.unpark();
        }
    }
}

/// Checks of [`wait_until`] before it parks the thread: a round's work
/// takes about as long on a free core, a park and a wake much longer.
const SPINS: u32 = 2048;

/// Spins until `ready`, yielding the core now and then; parks after
/// [`SPINS`] checks. The thread that makes `ready` true unparks the waiter
/// after it (an unpark before the park is kept, so no wake is lost, and a
/// spurious wake only checks again).
fn wait_until(ready: impl Fn() -> bool) {
    for spins in 1..=SPINS {
        if ready() {
            return;
        }
        if spins % 64 == 0 {
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
    while !ready() {
        std::thread::park();
    }
}

/// The machine's cores, read once: `available_parallelism` reads the
/// process's affinity and cgroup files on every call.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// A lock that a panicking thread cannot poison for the others (the data
/// is a plain hand-over).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A helper: waits for each round, works out its share, reports done
/// (waking `caller`, which may be parked waiting for it).
fn helper<G: Game>(game: &G, meet: &Meeting, slot: &Slot<G>, caller: &Thread) {
    let mut seen = 0;
    loop {
        wait_until(|| meet.round.load(Ordering::Acquire) != seen || meet.closed.load(Ordering::Acquire));
        if meet.closed.load(Ordering::Acquire) {
            return;
        }
        seen = meet.round.load(Ordering::Acquire);
        if let Some(work) = lock(&slot.work).take() {
            let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work_out(game, work)));
            *lock(&slot.found) = Some(found);
            meet.done.fetch_add(1, Ordering::Release);
            caller.unpark();
        }
    }
}

/// [`search`], reporting every evaluated leaf (path and value, in the
/// order the rounds apply them) to `obs`.
///
/// # Errors
/// As [`search`].
pub fn search_observed<G, O>(
    game: &G,
    dual: bool,
    opts: &SearchOptions,
    threads: usize,
    processors: usize,
    obs: &mut O,
) -> Result<Outcome<G::Move>, SearchError>
where
    G: Game + Sync,
    G::Position: Send,
    G::Move: Send,
    O: Observer,
{
    rounds(game, dual, opts, threads, processors, obs, Pace::default())
}

/// [`search_observed`], sharing as `pace` decides.
fn rounds<G, O>(
    game: &G,
    dual: bool,
    opts: &SearchOptions,
    threads: usize,
    processors: usize,
    obs: &mut O,
    mut pace: Pace,
) -> Result<Outcome<G::Move>, SearchError>
where
    G: Game + Sync,
    G::Position: Send,
    G::Move: Send,
    O: Observer,
{
    let threads = threads.max(1);
    let processors = if processors == 0 {
        threads.saturating_mul(STATES_PER_THREAD)
    } else {
        processors
    };
    if !(1..=MAX_PROCESSORS).contains(&processors) {
        return Err(SearchError::Unsupported {
            reason: format!("{processors} states per round: give 1 to {MAX_PROCESSORS}"),
        });
    }
    let mut budget = Budget::new(opts);
    let mut stats = Stats::default();
    let mut sim = Sim::new(game, dual, opts.limits.depth, processors, O::PATHS);
    let mut reported = 0;
    // The rounds, and so the leaves, depend on `processors` alone: more
    // threads than cores would only wait for one another.
    let threads = threads.min(cores());
    let slots: Vec<Slot<G>> = (1..threads).map(|_| Slot::default()).collect();
    let meet = Meeting::default();
    let value = std::thread::scope(|s| -> Result<Value, SearchError> {
        let caller = std::thread::current();
        let helpers: Vec<Thread> = slots
            .iter()
            .map(|slot| {
                let (meet, caller) = (&meet, caller.clone());
                s.spawn(move || helper(game, meet, slot, &caller)).thread().clone()
            })
            .collect();
        // Tell the helpers to go home however the search ends.
        let closing = Closing { meet: &meet, helpers };
        let mut window = Vec::new();
        loop {
            // The round's states, and behind them the next ones on OPEN:
            // when the work is worth sharing, the threads also work out
            // what those will need (their moves, a leaf's value), so that
            // a round whose own states need one leaf keeps every thread
            // busy. Which states a round steps does not change, so neither
            // do the leaves; work done for a state purged before its turn
            // is lost time on a thread that would have waited.
            sim.take_into(processors.saturating_mul(pace.look_ahead), &mut window);
            let own = window.len().min(processors);
            let needed = sim.pending(&window[..own]).count();
            // Each thread's part: the round's own states dealt out first,
            // then helpers' parts filled up with the next states' work, so
            // that no part is longer than the calling thread's.
            let part = needed.div_ceil(threads);
            let mut found = if threads > 1 && needed > 0 && pace.share(part) {
                let pending: Work<G::Position> = sim
                    .pending(&window[..own])
                    .chain(sim.pending(&window[own..]).take(part * threads - needed))
                    .map(|(n, pos, h)| (n, pos.clone(), h))
                    .collect();
                let mut chunks = pending.into_iter();
                let mine: Work<G::Position> = chunks.by_ref().take(part).collect();
                // Cleared before any share is out: a helper may take its share
                // as soon as it is in the slot (still waking from the last round).
                meet.done.store(0, Ordering::Release);
                let mut sent = 0;
                for slot in &slots {
                    let chunk: Work<G::Position> = chunks.by_ref().take(part).collect();
                    if chunk.is_empty() {
                        break;
                    }
                    *lock(&slot.work) = Some(chunk);
                    sent += 1;
                }
                if sent > 0 {
                    meet.round.fetch_add(1, Ordering::Release);
                    for h in &closing.helpers[..sent] {
                        h.unpark();
                    }
                }
                let start = Instant::now();
                let count = mine.len();
                let mut found = work_out(game, mine);
                pace.observe(start.elapsed(), count);
                if sent > 0 {
                    wait_until(|| meet.done.load(Ordering::Acquire) >= sent);
                }
                for slot in &slots[..sent] {
                    match lock(&slot.found).take() {
                        Some(Ok(f)) => found.extend(f),
                        Some(Err(panic)) => std::panic::resume_unwind(panic),
                        None => {}
                    }
                }
                found
            } else {
                // Too little to share: the meeting would cost more than the
                // work. The round's own states are worked out here.
                let start = pace.sample().then(Instant::now);
                let found: Found<G::Move> = sim
                    .pending(&window[..own])
                    .map(|(n, pos, h)| work_one(game, n, pos, h))
                    .collect();
                if let Some(start) = start {
                    pace.observe(start.elapsed(), found.len());
                }
                found
            };
            for (n, moves, value) in found.drain(..) {
                let value = match value {
                    Some(Err(e)) if window[..own].iter().any(|t| t.0 == n) => return Err(e),
                    // A bad value met ahead is the round's business only if
                    // its state gets its turn: its step evaluates it again.
                    Some(Err(_)) => None,
                    Some(Ok(v)) => Some(v),
                    None => None,
                };
                sim.install(n, moves, value);
            }
            let done = sim.round(&window[..own]).map_err(|e| match e {
                SimError::Unsupported(reason) => SearchError::Unsupported { reason },
                e => SearchError::BadGame { reason: e.to_string() },
            })?;
            for _ in stats.nodes..sim.made() {
                budget.visit(&mut stats)?;
            }
            if O::PATHS {
                if let Some((paths, values)) = sim.leaves() {
                    for (p, &v) in paths[reported..].iter().zip(&values[reported..]) {
                        obs.leaf(p, v);
                    }
                    reported = paths.len();
                }
            }
            if let Some(v) = done {
                return Ok(v);
            }
        }
    });
    let value = value?;
    // The rounds' leaves and expansions (the same on any number of
    // threads), not the work done ahead for states purged before their turn.
    stats.leaf_evals = sim.report.leaf_evals;
    stats.nodes_expanded = sim.expanded();
    stats.max_open = sim.report.max_open;
    stats.passes = 1;
    budget.finish(&mut stats);
    let best_index = sim.best.map(|(i, _)| i as usize);
    let best_move = best_index.and_then(|i| crate::algorithms::alphabeta::nth_move(game, &game.root(), i));
    Ok(Outcome::new(Some(value), best_move, best_index, None, stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::LeafRecorder;
    use crate::{RandomSpec, RandomTree};

    /// Every round shared, with the look-ahead: the same leaves, in the
    /// same order, values and counts as one thread, for each `P`.
    #[test]
    fn shared_rounds_and_the_look_ahead_keep_the_leaves_of_the_rounds() {
        // Every round meets (a few thousand meetings a search): kept small
        // so that the test stays short on a loaded machine. Look-ahead 4
        // is the path `LOOK_AHEAD` = 1 leaves unused.
        for seed in 0..12 {
            let tree = RandomTree::new(RandomSpec::parse(&format!("width=4,depth=5,seed={seed},range=0..20")).unwrap());
            for dual in [false, true] {
                for p in [1, 2, 3, 8] {
                    let opts = SearchOptions::default();
                    let mut one = LeafRecorder::default();
                    let a = rounds(&tree, dual, &opts, 1, p, &mut one, Pace::default()).unwrap();
                    for ahead in [1, 4] {
                        let mut two = LeafRecorder::default();
                        let b = rounds(&tree, dual, &opts, 2, p, &mut two, Pace::always().looking(ahead)).unwrap();
                        let at = format!("seed {seed} dual {dual} P {p} look-ahead {ahead}");
                        assert_eq!(one.leaves, two.leaves, "{at}");
                        assert_eq!((a.value, a.best_index), (b.value, b.best_index), "{at}");
                        assert_eq!(a.stats.leaf_evals, b.stats.leaf_evals, "{at}");
                        assert_eq!(a.stats.nodes_expanded, b.stats.nodes_expanded, "{at}");
                        assert_eq!(a.stats.nodes, b.stats.nodes, "{at}");
                        assert_eq!(a.stats.leaf_evals, one.leaves.len() as u64, "{at}");
                    }
                }
            }
        }
    }
}
