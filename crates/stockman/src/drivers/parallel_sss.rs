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
//! fixed `P` it evaluates exactly the leaves of the simulation with `P`
//! virtual processors, on any number of threads, on every run: the
//! parallel search is reproducible to the leaf, which no shared-table
//! search is (with `P` left to the search, see below, only where the
//! clock does not switch between rounds and sequential steps).
//!
//! Which leaves differ from SSS\*'s: a round may expand states that the
//! one-processor search would have purged or never reached (its
//! speculation), so the search may evaluate leaves that full-window
//! alpha-beta skips; the theorems about SSS\*'s leaves hold at `P = 1`
//! (which *is* [`sss`](crate::algorithms::sss) leaf for leaf) and the value at every `P`.
//!
//! The rounds run on the sequential SSS\*'s own OPEN list
//! ([`best_first`](crate::algorithms::sss): the arena, the radix queue,
//! batches of pending children and leaves kept without nodes), with a
//! small heap for what a round's steps push ahead of a state the round
//! took later (the queue only takes keys that never go back). A round's
//! steps are the sequential search's without its shortcuts (a push handed
//! straight to the next step, a leaf's siblings in a loop), which assume
//! one state a step; the leaves are still those of the simulation (a test
//! compares the two engines leaf for leaf).
//!
//! What it costs: a round's steps are applied on one thread, and the
//! threads meet twice a round. So the threads share a round's work only
//! when a helper's share is expected to cost more than a meeting (a running
//! average of a state's cost, read off the clock). With a fixed number of
//! states a round the clock decides only who works a state out, never which
//! states a round steps: the leaves stay those of the rounds, and where a
//! leaf costs little (random trees, a material count) the rounds'
//! bookkeeping is the cost, about three times the sequential SSS\*'s
//! time. Left to the search (`processors` 0, what the command line and
//! Python ask for), the rounds run only while a state's work is worth a
//! meeting; in between, the sequential SSS\* steps on the same OPEN list
//! at its own speed, shortcuts included (a round may hold any number of
//! states, one included, without losing the value: see
//! [`simulate::sss`](crate::simulate::sss)). It pays where evaluation
//! dominates.
//!
//! # Complexity
//! Rounds: SSS\*'s steps over about `P` at best; work as
//! [`simulate::sss`](crate::simulate::sss) counts it; a step costs what it
//! costs in the sequential SSS\*, and a case 4 after the round's first
//! state also a look at the states the round pushed so far. Memory: the
//! sequential SSS\*'s (the interior nodes of the live search tree).
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

use super::rounds::MAX_PROCESSORS;
use crate::algorithms::best_first::{BestFirst, Polarity, Prepared, Taken};
use crate::game::Game;
use crate::observe::{NoObserver, Observer};
use crate::search::{checked, Outcome, SearchError, SearchOptions};
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
/// the rounds to the search ([`search`] with `processors` 0).
pub const STATES_PER_THREAD: usize = 1;

/// Parallel SSS\* (`dual`: Dual\*) taking `processors` states off OPEN per
/// round on `threads` threads (at most one per core: the leaves do not
/// depend on the threads, and more threads than cores would only wait for
/// one another).
///
/// `processors` 0 leaves the rounds to the search: rounds of
/// [`STATES_PER_THREAD`] states per thread while a state's work is worth a
/// meeting of the threads, and the sequential SSS\*'s steps (one state at
/// a time, at its speed) while it is not, judged by the clock every
/// [`STRETCH`] steps. The value and the best move are exact either way; the
/// leaves are SSS\*'s where the leaves stay cheap, and may differ from run
/// to run where the clock switches. A fixed `processors` gives the rounds
/// of [`simulate::sss`](crate::simulate::sss), the same leaves on every
/// run and any number of threads.
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

/// A round's work for one thread: the positions of the round's LIVE
/// children (with their index in the round), whose moves and, at a leaf,
/// value are needed; `true` marks one at the horizon.
type Work<P> = Vec<(usize, P, bool)>;

/// What a thread found for one child: its position (handed back), its
/// moves and a leaf's value.
type Worked<P, M> = (usize, Prepared<P, M>);

/// What a thread found, child by child.
type Found<P, M> = Vec<Worked<P, M>>;

/// The moves and leaf values of `work`.
fn work_out<G: Game>(game: &G, work: Work<G::Position>) -> Found<G::Position, G::Move> {
    work.into_iter()
        .map(|(k, pos, at_horizon)| work_one(game, k, pos, at_horizon))
        .collect()
}

/// The moves of the child at `pos` and, at a leaf, its value.
fn work_one<G: Game>(game: &G, k: usize, pos: G::Position, at_horizon: bool) -> Worked<G::Position, G::Move> {
    let mut kids = Vec::new();
    if !at_horizon {
        game.moves(&pos, &mut kids);
    }
    let value = kids.is_empty().then(|| checked(game.evaluate(&pos)));
    (k, Prepared { pos, kids, value })
}

/// Whether a round's work is worth sharing with the helpers: a running
/// average of what one state's work costs, read off the clock on the
/// rounds the calling thread works (every one it shares, one in
/// [`SAMPLE_EVERY`] of the others, where the round's steps are timed
/// whole). The clock decides only who works a state out, never which
/// states: the leaves stay those of the rounds.
#[derive(Default)]
struct Pace {
    /// Nanoseconds a state, smoothed (0 until measured).
    per_state: f64,
    rounds: u64,
    /// Never measured again (the tests' way to make every round share).
    fixed: bool,
    /// Tests only: with the rounds left to the search, switch between
    /// sequential steps and rounds at every look, `stretch` steps apart.
    #[cfg(test)]
    alternate: Option<(usize, u64)>,
    /// Tests only: every share handed out is waited for, never taken back
    /// (so that a helper works one out however busy the machine is).
    #[cfg(test)]
    hand_over: bool,
}

/// A helper's share must be expected to take this long before it is
/// handed over: a meeting (two cache-line round trips, a wake if the
/// helper sleeps) costs about a microsecond on a free core.
const SHARE_NS: f64 = 4_000.0;

/// The sequential steps between two looks at the clock, when the rounds
/// are left to the search and a round's work is not worth sharing: two
/// clock reads (about 40 ns) against 256 steps (about 15 µs with free leaves).
pub const STRETCH: usize = 256;

/// Of the rounds worked out on the calling thread alone, how often one is
/// timed (the clock costs about 20 ns a read, a round of two cheap states
/// about 200 ns).
const SAMPLE_EVERY: u64 = 32;

impl Pace {
    /// Whether a part of `part` states is worth a meeting.
    fn share(&self, part: usize) -> bool {
        self.per_state * part as f64 >= SHARE_NS
    }

    /// With the rounds left to the search, whether the next stretch is
    /// rounds of `p` states on `threads` threads (else sequential steps).
    fn rounds_pay(&mut self, p: usize, threads: usize) -> bool {
        #[cfg(test)]
        if let Some((_, looks)) = &mut self.alternate {
            *looks += 1;
            return *looks % 2 == 0;
        }
        threads > 1 && self.share(p.div_ceil(threads))
    }

    /// The sequential steps of a stretch.
    fn stretch(&self) -> usize {
        #[cfg(test)]
        if let Some((stretch, _)) = self.alternate {
            return stretch;
        }
        STRETCH
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

    /// As [`Pace::always`], every share waited for in a helper's hands.
    #[cfg(test)]
    fn handing_over() -> Pace {
        Pace {
            hand_over: true,
            ..Pace::always()
        }
    }

    /// Whether the calling thread may work out a share no helper has taken.
    fn takes_back(&self) -> bool {
        #[cfg(test)]
        if self.hand_over {
            return false;
        }
        true
    }

    /// With the rounds left to the search: `stretch` sequential steps and
    /// a round in turn, every round shared.
    #[cfg(test)]
    fn alternating(stretch: usize) -> Pace {
        Pace {
            alternate: Some((stretch, 0)),
            ..Pace::always()
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
    found: Mutex<Option<Handed<G::Position, G::Move>>>,
}

/// A helper's answer: what it found, or the panic of the game it ran
/// (raised again on the calling thread, instead of leaving it waiting).
type Handed<P, M> = std::thread::Result<Found<P, M>>;

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
    let auto = processors == 0;
    let processors = if auto {
        threads.saturating_mul(STATES_PER_THREAD)
    } else {
        processors
    };
    if !(1..=MAX_PROCESSORS).contains(&processors) {
        return Err(SearchError::Unsupported {
            reason: format!("{processors} states per round: give 1 to {MAX_PROCESSORS}"),
        });
    }
    let polarity = if dual { Polarity::Dual } else { Polarity::Sss };
    let mut engine = BestFirst::in_rounds(game, opts, polarity, obs);
    engine.begin()?;
    // The rounds, and so the leaves, depend on `processors` alone: more
    // threads than cores would only wait for one another.
    let threads = threads.min(cores());
    let slots: Vec<Slot<G>> = (1..threads).map(|_| Slot::default()).collect();
    let meet = Meeting::default();
    let value = std::thread::scope(|s| -> Result<Value, SearchError> {
        let caller = std::thread::current();
        // Tell the helpers to go home however the search ends: also when
        // the next helper cannot be started, an error, never a search on
        // fewer threads.
        let mut closing = Closing {
            meet: &meet,
            helpers: Vec::new(),
        };
        for (i, slot) in slots.iter().enumerate() {
            let (meet, caller) = (&meet, caller.clone());
            let started = std::thread::Builder::new()
                .name(format!("stockman-rounds-{}", i + 1))
                .spawn_scoped(s, move || helper(game, meet, slot, &caller))
                .map_err(|e| SearchError::Threads {
                    asked: threads,
                    started: i + 1,
                    reason: e.to_string(),
                })?;
            closing.helpers.push(started.thread().clone());
        }
        let mut taken: Vec<Taken> = Vec::new();
        let mut work: Work<G::Position> = Vec::new();
        let mut ready: Vec<Option<Prepared<G::Position, G::Move>>> = Vec::new();
        loop {
            if auto && !pace.rounds_pay(processors, threads) {
                // Not worth a meeting: the sequential SSS*'s steps, timed.
                let before = engine.stats().nodes;
                let start = Instant::now();
                if let Some(v) = engine.steps(pace.stretch())? {
                    return Ok(v);
                }
                pace.observe(start.elapsed(), (engine.stats().nodes - before) as usize);
                continue;
            }
            engine.take(processors, &mut taken);
            if taken.is_empty() {
                return Err(SearchError::BadGame {
                    reason: "OPEN emptied before the root was solved".into(),
                });
            }
            let needed = taken.iter().filter(|t| t.is_live_child()).count();
            // Each thread's part of the round's LIVE children.
            let part = needed.div_ceil(threads);
            let done = if threads > 1 && needed > 1 && pace.share(part) {
                engine.pending(&taken, &mut work);
                let mut chunks = work.drain(..);
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
                drop(chunks);
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
                // A share no helper has taken yet (its helper is not running:
                // the machine is busy, or it is still waking) is worked out
                // here rather than waited for: only the shares in a running
                // helper's hands are. The found states are keyed by their
                // place in the round, so who works a share out changes
                // nothing but the time.
                let mut theirs = sent;
                if pace.takes_back() {
                    for slot in &slots[..sent] {
                        let back = lock(&slot.work).take();
                        if let Some(work) = back {
                            theirs -= 1;
                            found.extend(work_out(game, work));
                        }
                    }
                }
                if theirs > 0 {
                    wait_until(|| meet.done.load(Ordering::Acquire) >= theirs);
                }
                for slot in &slots[..sent] {
                    match lock(&slot.found).take() {
                        Some(Ok(f)) => found.extend(f),
                        Some(Err(panic)) => std::panic::resume_unwind(panic),
                        None => {}
                    }
                }
                ready.clear();
                ready.resize_with(taken.len(), || None);
                for (k, prepared) in found {
                    ready[k] = Some(prepared);
                }
                engine.apply(&taken, &mut ready)?
            } else {
                // Too little to share: the meeting would cost more than the
                // work. The round's steps work their states out themselves.
                let start = pace.sample().then(Instant::now);
                let done = engine.apply(&taken, &mut [])?;
                if let Some(start) = start {
                    pace.observe(start.elapsed(), needed);
                }
                done
            };
            if let Some(v) = done.value {
                return Ok(v);
            }
        }
    });
    Ok(engine.finish(value?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::LeafRecorder;
    use crate::value::Value;
    use crate::{RandomSpec, RandomTree};

    /// The threads' rounds are the textbook's (the oracle's ordered set):
    /// the same leaves in the same order, the same value, best move and
    /// OPEN peak, for each `P`, on trees with many ties and without.
    #[test]
    fn the_rounds_are_the_textbooks_leaf_for_leaf() {
        use crate::drivers::rounds::reference;
        use crate::simulate::SimOptions;
        for seed in 0..80u64 {
            let (spec, tree) = crate::drivers::rounds::reference::tie_tree(seed);
            for dual in [false, true] {
                for p in [1, 2, 3, 5, 8, 64] {
                    let sim_opts = SimOptions {
                        processors: p,
                        record_leaves: true,
                        ..SimOptions::default()
                    };
                    let (report, paths, best) = reference::simulate_recorded(&tree, dual, &sim_opts).unwrap();
                    let mut rec = LeafRecorder::default();
                    let out = rounds(&tree, dual, &SearchOptions::default(), 1, p, &mut rec, Pace::default()).unwrap();
                    let at = format!("{spec} dual {dual} P {p}");
                    assert_eq!(rec.paths(), paths.unwrap(), "{at}: leaves");
                    assert_eq!(out.value, Some(report.value), "{at}");
                    assert_eq!(out.best_index, best.map(|i| i as usize), "{at}: best move");
                    assert_eq!(out.stats.leaf_evals, report.leaf_evals, "{at}");
                    assert_eq!(out.stats.max_open, report.max_open, "{at}: OPEN peak");
                }
            }
        }
    }

    /// `game` from `pos` on.
    struct Rooted<'a, G: Game>(&'a G, G::Position);

    impl<G: Game> Game for Rooted<'_, G> {
        type Position = G::Position;
        type Move = G::Move;
        fn root(&self) -> G::Position {
            self.1.clone()
        }
        fn role(&self, pos: &G::Position) -> crate::Role {
            self.0.role(pos)
        }
        fn moves(&self, pos: &G::Position, out: &mut Vec<G::Move>) {
            self.0.moves(pos, out)
        }
        fn play(&self, pos: &G::Position, mv: G::Move) -> G::Position {
            self.0.play(pos, mv)
        }
        fn evaluate(&self, pos: &G::Position) -> Value {
            self.0.evaluate(pos)
        }
    }

    /// The rounds left to the search, switching between the sequential
    /// SSS\*'s steps (its shortcuts included) and rounds at every look, 1,
    /// 2 and 5 steps apart, on 1 to 3 threads (rounds of 1 to 3 states):
    /// the minimax value, and a best move whose child holds it; leaves
    /// counted as evaluated.
    #[test]
    fn sequential_steps_and_rounds_mixed_keep_the_value_and_the_best_move() {
        for seed in 0..90u64 {
            let (spec, tree) = crate::drivers::rounds::reference::tie_tree(seed);
            let opts = SearchOptions::default();
            let value = crate::Algorithm::Minimax.search(&tree, &opts).unwrap().value;
            let root = tree.root();
            let mut moves = Vec::new();
            tree.moves(&root, &mut moves);
            for dual in [false, true] {
                for stretch in [1, 2, 5] {
                    for threads in [1, 2, 3] {
                        let mut rec = LeafRecorder::default();
                        let out = rounds(&tree, dual, &opts, threads, 0, &mut rec, Pace::alternating(stretch)).unwrap();
                        let at = format!("{spec} dual {dual} stretch {stretch} threads {threads}");
                        assert_eq!(out.value, value, "{at}");
                        let best = out.best_index.expect("a best move");
                        let child = Rooted(&tree, tree.play(&root, moves[best]));
                        let held = crate::Algorithm::Minimax.search(&child, &opts).unwrap().value;
                        assert_eq!(held, value, "{at}: best move {best}");
                        assert_eq!(out.stats.leaf_evals, rec.leaves.len() as u64, "{at}");
                    }
                }
            }
        }
    }

    /// Left to the search on one thread, the rounds never pay: the search
    /// is the sequential SSS\*, leaf for leaf and count for count.
    #[test]
    fn rounds_left_to_the_search_on_one_thread_are_sss() {
        for seed in 0..40u64 {
            let spec = format!("width={},depth={},seed={seed}", 2 + seed % 6, 2 + seed % 5);
            let tree = RandomTree::new(RandomSpec::parse(&spec).unwrap());
            for (dual, algo) in [(false, crate::Algorithm::Sss), (true, crate::Algorithm::Dual)] {
                let opts = SearchOptions::default();
                let mut seq = LeafRecorder::default();
                let a = algo.with_options(&opts).observer(&mut seq).run(&tree).unwrap();
                let mut ours = LeafRecorder::default();
                let b = rounds(&tree, dual, &opts, 1, 0, &mut ours, Pace::default()).unwrap();
                assert_eq!(seq.leaves, ours.leaves, "{spec} {}", algo.name());
                assert_eq!((a.value, a.best_index), (b.value, b.best_index), "{spec}");
                let (mut x, mut y) = (a.stats, b.stats);
                x.time_us = 0;
                y.time_us = 0;
                assert_eq!(x, y, "{spec} {}", algo.name());
            }
        }
    }

    /// A game that panics at its leaves on a helper thread: the search
    /// raises the panic on the calling thread instead of waiting for the
    /// dead helper forever. Every round is shared (`Pace::always`): left to
    /// the clock, cheap leaves would never leave the calling thread, and the
    /// test would depend on the machine's speed.
    #[test]
    fn a_games_panic_on_a_helper_is_passed_on_instead_of_hanging() {
        struct Panicky(RandomTree);
        impl Game for Panicky {
            type Position = <RandomTree as Game>::Position;
            type Move = <RandomTree as Game>::Move;
            fn root(&self) -> Self::Position {
                self.0.root()
            }
            fn role(&self, pos: &Self::Position) -> crate::Role {
                self.0.role(pos)
            }
            fn moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>) {
                self.0.moves(pos, out)
            }
            fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position {
                self.0.play(pos, mv)
            }
            fn evaluate(&self, _pos: &Self::Position) -> Value {
                // Only on the helpers (by their threads' name): the calling
                // thread's part of a round goes on, and would wait for the
                // dead helper if nothing passed its panic on.
                if std::thread::current()
                    .name()
                    .is_some_and(|n| n.starts_with("stockman-rounds-"))
                {
                    panic!("a leaf this game cannot value");
                }
                0
            }
        }
        let game = Panicky(RandomTree::new(RandomSpec::parse("width=4,depth=4,seed=2").unwrap()));
        for threads in [2, 4] {
            let r = std::panic::catch_unwind(|| {
                let mut rec = LeafRecorder::default();
                rounds(
                    &game,
                    false,
                    &SearchOptions::default(),
                    threads,
                    16,
                    &mut rec,
                    Pace::handing_over(),
                )
                .is_ok()
            });
            if cores() > 1 {
                assert!(r.is_err(), "{threads} threads");
            } else {
                // One core: no helper is started, every leaf is the caller's.
                assert!(matches!(r, Ok(true)), "{threads} threads on one core");
            }
        }
    }

    /// Every round shared: the same leaves, in the same order, values and
    /// counts as one thread, for each `P`.
    #[test]
    fn shared_rounds_keep_the_leaves_of_the_rounds() {
        // Every round meets (a few thousand meetings a search): kept small
        // so that the test stays short on a loaded machine.
        for seed in 0..12 {
            let tree = RandomTree::new(RandomSpec::parse(&format!("width=4,depth=5,seed={seed},range=0..20")).unwrap());
            for dual in [false, true] {
                for p in [1, 2, 3, 8] {
                    let opts = SearchOptions::default();
                    let mut one = LeafRecorder::default();
                    let a = rounds(&tree, dual, &opts, 1, p, &mut one, Pace::default()).unwrap();
                    {
                        let mut two = LeafRecorder::default();
                        let b = rounds(&tree, dual, &opts, 2, p, &mut two, Pace::always()).unwrap();
                        let at = format!("seed {seed} dual {dual} P {p}");
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
