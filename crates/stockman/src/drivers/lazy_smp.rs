//! Lazy SMP: the depth-first searches on many threads through one shared
//! transposition table.
//!
//! The calling thread runs the search it was asked for; `threads - 1`
//! helper threads search the same root with the same algorithm at the
//! same time, each through its own [`SharedHandle`] of one
//! [`SharedTable`]. Nothing is split and nothing is sent: the helpers fill
//! the table with bounds (and best moves) that the main search then finds
//! instead of searching, and the main search's answer is the answer. The
//! helpers are diversified so that they do not walk in the main search's
//! footsteps: helper `i` tries the root's moves from move `i` on (after the
//! table's move), every other helper orders its moves with killers as
//! well, and under iterative deepening the odd helpers search one ply
//! deeper than the main search (the next iteration, already). Every thread
//! looks at the root's entry every 1,024 positions: a pass that another
//! thread has answered (an entry at its draft that settles its window, with
//! the move that proves it) ends at once with that answer. When the main
//! search ends (answer, limit or error) the helpers are stopped.
//!
//! Why it stays correct: every entry a thread stores is a true bound on
//! the value of its full 64-bit key at its draft, and the shared table
//! never returns a torn entry (see [`SharedTable`]); a search that reads
//! true bounds returns the value it would have returned without them. Which
//! leaves are evaluated depends on the threads' timing, so counts are not
//! reproducible beyond one thread; values and (for BNS) proven bounds are.
//!
//! The stats of the answer add up every thread's work (nodes, leaves,
//! probes: the search overhead), with the main search's time.
//!
//! # Complexity
//! At most `threads` times one search's nodes in total; the point is that
//! the main search needs fewer of its own.
//!
//! # Example
//! ```
//! use stockman::{Algorithm, Parallel, RandomSpec, RandomTree, SearchOptions, SharedTable, Threads};
//! let tree = RandomTree::new(RandomSpec::parse("width=6,depth=6,seed=3").unwrap());
//! let one = Algorithm::Mtdf.search(&tree, &SearchOptions::default()).unwrap();
//! let table = SharedTable::with_megabytes(4).unwrap();
//! let opts = SearchOptions { threads: Threads { count: 2, parallel: Parallel::LazySmp, ..Threads::default() }, ..Default::default() };
//! let two = Algorithm::Mtdf.with_options(&opts).shared_table(&table).run_shared(&tree).unwrap();
//! assert_eq!(one.value, two.value);
//! ```

use super::iterative;
use crate::algorithms::Algorithm;
use crate::crew::Crew;
use crate::game::Game;
use crate::observe::{NoObserver, Observer};
use crate::ordering::Heuristics;
use crate::pool::NodePool;
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::shared_table::{RootMoves, SharedHandle, SharedTable};
use crate::stats::Stats;
use crate::value::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};

/// Whether the algorithm has a parallel form here (the depth-first ones).
pub fn supports(algo: Algorithm) -> bool {
    matches!(
        algo.capabilities().parallel,
        crate::algorithms::capabilities::ParallelForm::SharedTable { .. }
    )
}

/// The options of helper `i` (from 1): the same search, ordered otherwise
/// when `diversify`, and under iterative deepening (`deepened`) one ply
/// deeper for every other helper.
fn helper_options(
    opts: &SearchOptions,
    i: usize,
    stop: &Arc<AtomicBool>,
    diversify: bool,
    deepened: bool,
) -> SearchOptions {
    let mut o = opts.clone();
    o.control.stop = Some(stop.clone());
    o.control.progress = None;
    o.limits.nodes = None;
    // Every other helper orders moves by the killer heuristic too. (Other
    // first guesses for MTD(f), and the history heuristic, were tried and
    // cost nodes: a helper's pass at another test value overwrites the
    // bounds the main search's passes keep in the same entries.)
    o.enhancements.killers ^= diversify && i.is_multiple_of(2);
    if diversify && deepened && !i.is_multiple_of(2) {
        // The odd helpers search the next iteration already: what they
        // store answers the main search's probes of this one (a deeper
        // draft answers a shallower probe) and starts the next.
        o.limits.depth = o.limits.depth.map(|d| d.saturating_add(1));
    }
    o
}

/// Bytes of stack for a helper thread: as much as the calling thread has
/// (a helper goes as deep as the main search, and the caller sized its
/// stack to the tree: a chain a million plies deep needs ~1 GiB), and at
/// least 256 MiB plus 4 KiB a ply of the depth.
fn helper_stack(opts: &SearchOptions) -> usize {
    let estimate = (256usize << 20).saturating_add((opts.limits.depth.unwrap_or(0) as usize).saturating_mul(4096));
    estimate.max(current_stack_size().unwrap_or(0))
}

/// The size of the calling thread's stack, where the system tells it.
fn current_stack_size() -> Option<usize> {
    #[cfg(target_os = "linux")]
    // SAFETY: `pthread_getattr_np` fills `attr` for the calling thread (a
    // live thread), which is read only after it succeeded and destroyed
    // after use; `pthread_attr_getstack` writes through valid pointers.
    unsafe {
        let mut attr = std::mem::MaybeUninit::<libc::pthread_attr_t>::uninit();
        if libc::pthread_getattr_np(libc::pthread_self(), attr.as_mut_ptr()) != 0 {
            return None;
        }
        let mut attr = attr.assume_init();
        let mut addr = std::ptr::null_mut();
        let mut size = 0usize;
        let ok = libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0;
        libc::pthread_attr_destroy(&mut attr);
        ok.then_some(size)
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// The searches of `algo` on `threads` threads through `table`: Lazy SMP
/// (helpers diversified), or ABDADA when `exclusive` (every thread with an
/// exclusive handle, in the same order). The helpers run on a [`Crew`]
/// (threads kept between searches), each on a thread of its own for the
/// whole search: deepened, every iteration runs on every thread (the
/// helpers keep their heuristics from one to the next); the calling
/// thread's search uses `heur`. Helpers that cannot be started are an
/// error ([`SearchError::Threads`]), never a search on fewer threads.
#[allow(clippy::too_many_arguments)]
pub(crate) fn on_threads<G: Game<Move: Send + Sync> + Sync, O: Observer>(
    game: &G,
    algo: Algorithm,
    opts: &SearchOptions,
    deepen: bool,
    threads: usize,
    table: &SharedTable,
    exclusive: bool,
    obs: &mut O,
    heur: &mut Heuristics,
) -> Result<Outcome<G::Move>, SearchError> {
    let threads = if supports(algo) { threads.max(1) } else { 1 };
    // One root list for every thread and every iteration: the table's
    // root entries name moves by their index in it. It goes to the threads
    // with their table handles (`Table::root_moves`), so that the searches
    // are compiled for `G` alone, not again for a game that pins its root.
    let root: RootMoves = {
        let mut moves = Vec::new();
        game.moves(&game.root(), &mut moves);
        Arc::new(moves)
    };
    let mut team = Team {
        game,
        algo,
        table,
        exclusive,
        threads,
        root,
        jobs: Vec::new(),
        done: None,
    };
    let mut body = move |mut team: Team<'_, G>| {
        if !deepen {
            return team.search(opts, None, obs, heur);
        }
        iterative::deepen(game, algo, opts, obs, heur, |o, obs, heur, previous| {
            let out = team.search(o, Some(previous), obs, heur)?;
            Ok(iterative::with_pv::<_, O, _>(game, &mut table.handle(), o, out))
        })
        // The team goes here (also when a search panics): its helpers'
        // job channels close, the helpers return, and the scope waits for
        // them.
    };
    if threads <= 1 {
        return body(team);
    }
    // On a crew, unless the caller is a rayon worker itself (of a crew, or
    // a pool of the caller's, as the lab's): such a thread waiting for the
    // crew's jobs to end would run its own pool's jobs meanwhile, inside
    // this search. Threads of this search's own, then, as when no crew
    // can be made.
    let stack = helper_stack(opts);
    let crew = match rayon_core::current_thread_index() {
        None => Crew::hire(threads - 1, stack).ok(),
        Some(_) => None,
    };
    let Some(crew) = crew else {
        return std::thread::scope(|s| {
            team.start(|i, helper| {
                std::thread::Builder::new()
                    .name(format!("stockman-helper-{i}"))
                    .stack_size(stack)
                    .spawn_scoped(s, helper)
                    .map(drop)
                    .map_err(|e| e.to_string())
            })?;
            body(team)
        });
    };
    let out = crew.scope(|s| {
        team.start(|_, helper| {
            s.spawn(move |_| helper());
            Ok(())
        })?;
        body(team)
    });
    crew.release();
    out
}

/// A helper's whole work, for [`Team::start`] to run on a thread of its own.
type Helper<'s> = Box<dyn FnOnce() + Send + 's>;

/// What a helper is asked to do: one search (or one iteration, with the
/// previous iteration's value) with these options, through this handle.
struct Job {
    opts: SearchOptions,
    iteration: Option<Option<Value>>,
    handle: SharedHandle,
}

/// What a helper answers: its counters (none if it stopped before it
/// started), or the panic its search raised.
type Done = std::thread::Result<Option<Stats>>;

/// The threads of one parallel search: the calling thread's search and
/// the helpers, started once, each waiting for its next job.
struct Team<'a, G> {
    game: &'a G,
    algo: Algorithm,
    table: &'a SharedTable,
    exclusive: bool,
    /// Threads in all, the calling one included.
    threads: usize,
    /// The root's moves, as every thread reads them.
    root: RootMoves,
    /// Each helper's job channel.
    jobs: Vec<mpsc::Sender<Job>>,
    /// Where the helpers answer.
    done: Option<mpsc::Receiver<Done>>,
}

impl<'a, G: Game + Sync> Team<'a, G> {
    /// Starts the helpers, each with its own heuristics, each handed to
    /// `spawn` (with its number, from 1) to run on a thread of its own,
    /// and waits until every one runs: none is left queued behind another
    /// (a game whose evaluation waits on a rayon pool could otherwise run
    /// a queued helper inside it, and wait for ever). The first that
    /// cannot be started ends the search with [`SearchError::Threads`]
    /// (the others then return at once).
    fn start<'s>(&mut self, mut spawn: impl FnMut(usize, Helper<'s>) -> Result<(), String>) -> Result<(), SearchError>
    where
        'a: 's,
    {
        let (answer, done) = mpsc::channel();
        self.done = Some(done);
        let (running, started) = mpsc::channel::<()>();
        let (game, algo, exclusive) = (self.game, self.algo, self.exclusive);
        for i in 1..self.threads {
            let (jobs, inbox) = mpsc::channel::<Job>();
            let answer = answer.clone();
            let running = running.clone();
            let helper: Helper<'s> = Box::new(move || {
                let _ = running.send(());
                drop(running);
                // Lazy SMP's helpers start at different root moves.
                let mut heur = if exclusive {
                    Heuristics::new()
                } else {
                    Heuristics::turned(i as u32)
                };
                for job in inbox {
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        match run(
                            game,
                            algo,
                            &job.opts,
                            job.iteration,
                            &mut NoObserver,
                            job.handle,
                            &mut heur,
                        ) {
                            Ok(out) => Some(out.stats),
                            Err(e) => e.stats().copied(),
                        }
                    }));
                    if answer.send(r).is_err() {
                        return;
                    }
                }
            });
            spawn(i, helper).map_err(|reason| SearchError::Threads {
                asked: self.threads,
                started: i,
                reason,
            })?;
            self.jobs.push(jobs);
        }
        drop(running);
        for _ in 1..self.threads {
            // Every helper sends once as it starts (a helper's thread that
            // ended before it ran closes its end instead).
            if started.recv().is_err() {
                break;
            }
        }
        Ok(())
    }

    /// One search (a whole one, or with `iteration` the iteration after
    /// one that found that value) on the calling thread and the helpers at
    /// once, each through its own handle, all counting their positions
    /// against the one node limit (`opts.max_nodes`, for the whole team);
    /// the helpers are stopped when the calling thread's search ends, and
    /// their counters added to its answer (or to its error's).
    fn search<O: Observer>(
        &mut self,
        opts: &SearchOptions,
        iteration: Option<Option<Value>>,
        obs: &mut O,
        heur: &mut Heuristics,
    ) -> Result<Outcome<G::Move>, SearchError> {
        let (game, algo, table, exclusive) = (self.game, self.algo, self.table, self.exclusive);
        let Some(done) = &self.done else {
            return run(
                game,
                algo,
                opts,
                iteration,
                obs,
                table.team_handle(exclusive, None, false, Some(self.root.clone())),
                heur,
            );
        };
        let pool = opts.limits.nodes.map(|n| Arc::new(NodePool::new(n, self.threads)));
        let stop = Arc::new(AtomicBool::new(false));
        for (i, jobs) in self.jobs.iter().enumerate() {
            let job = Job {
                opts: helper_options(opts, i + 1, &stop, !exclusive, iteration.is_some()),
                iteration,
                handle: table.team_handle(exclusive, pool.clone(), true, Some(self.root.clone())),
            };
            // A helper whose thread is gone has panicked; its answer (the
            // panic) is already waiting below.
            let _ = jobs.send(job);
        }
        let main = {
            // The helpers stop when the calling thread's search ends, even
            // by a panic (they would otherwise search on, unwaited for).
            let _stop = StopOnDrop(&stop);
            run(
                game,
                algo,
                opts,
                iteration,
                obs,
                table.team_handle(exclusive, pool, true, Some(self.root.clone())),
                heur,
            )
        };
        let mut extra = Stats::default();
        for _ in &self.jobs {
            match done.recv() {
                Ok(Ok(Some(stats))) => extra += stats,
                Ok(Ok(None)) => {}
                // A helper's panic is a bug like the main search's: not hidden.
                Ok(Err(p)) => std::panic::resume_unwind(p),
                Err(_) => unreachable!("the team holds the helpers' answer channel open"),
            }
        }
        extra.time_us = 0;
        match main {
            Ok(mut out) => {
                out.stats += extra;
                Ok(out)
            }
            Err(e) => Err(e.with_counters(extra)),
        }
    }
}

/// Raises a stop flag when dropped.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// One thread's search: the whole search, or one iteration of deepening
/// (`iteration`: the previous iteration's value).
fn run<G: Game, O: Observer>(
    game: &G,
    algo: Algorithm,
    opts: &SearchOptions,
    iteration: Option<Option<Value>>,
    obs: &mut O,
    mut table: SharedHandle,
    heur: &mut Heuristics,
) -> Result<Outcome<G::Move>, SearchError> {
    match iteration {
        None => algo.windowed(game, opts, obs, &mut table, heur, (-crate::INF, crate::INF)),
        Some(previous) => iterative::iteration(game, algo, opts, obs, &mut table, heur, previous),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::LeafRecorder;
    use crate::{ExplicitTree, Role, Search};

    #[test]
    fn a_turned_helper_starts_at_another_root_move_and_finds_the_same_value() {
        let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
        let opts = SearchOptions::default();
        for turn in 0..4u32 {
            let mut heur = Heuristics::turned(turn);
            let mut rec = LeafRecorder::default();
            let out = Search::new(Algorithm::AlphaBeta, &opts)
                .heuristics(&mut heur)
                .observer(&mut rec)
                .run(&tree)
                .unwrap();
            assert_eq!(out.value, Some(3));
            assert_eq!(out.best_index, Some(0));
            // The first leaf lies under root move `turn` (mod 3); below
            // the root the order is the plain one.
            assert_eq!(rec.leaves[0].0, vec![turn % 3, 0], "turn {turn}");
        }
    }

    #[test]
    fn odd_helpers_search_one_ply_deeper_under_deepening_only() {
        let opts = SearchOptions {
            limits: crate::Limits::to_depth(6),
            ..SearchOptions::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let depth = |i, diversify, deepened| helper_options(&opts, i, &stop, diversify, deepened).limits.depth;
        assert_eq!(depth(1, true, true), Some(7));
        assert_eq!(depth(2, true, true), Some(6));
        assert_eq!(depth(3, true, true), Some(7));
        // Not deepened (the answer would be the deeper search's), nor ABDADA.
        assert_eq!(depth(1, true, false), Some(6));
        assert_eq!(depth(1, false, true), Some(6));
    }

    /// A tree whose evaluation panics at every leaf past the first
    /// `calm` (counted over every thread).
    struct Panicky {
        tree: ExplicitTree,
        calm: u64,
        evals: std::sync::atomic::AtomicU64,
    }

    impl Game for Panicky {
        type Position = u32;
        type Move = u32;
        fn root(&self) -> u32 {
            self.tree.root()
        }
        fn role(&self, pos: &u32) -> crate::Role {
            self.tree.role(pos)
        }
        fn moves(&self, pos: &u32, out: &mut Vec<u32>) {
            self.tree.moves(pos, out)
        }
        fn play(&self, pos: &u32, mv: u32) -> u32 {
            self.tree.play(pos, mv)
        }
        fn evaluate(&self, pos: &u32) -> Value {
            if self.evals.fetch_add(1, Ordering::Relaxed) >= self.calm {
                panic!("the game broke");
            }
            self.tree.evaluate(pos)
        }
        fn hash(&self, pos: &u32) -> Option<u64> {
            self.tree.hash(pos)
        }
    }

    #[test]
    fn a_panic_on_any_thread_reaches_the_caller_and_the_next_search_runs() {
        let spec = crate::RandomSpec::parse("width=5,depth=6,seed=9").unwrap();
        let tree = ExplicitTree::from_game(&crate::RandomTree::new(spec), None, 100_000).unwrap();
        let value = Algorithm::AlphaBeta
            .search(&tree, &SearchOptions::default())
            .unwrap()
            .value;
        for how in crate::Parallel::ALL {
            let opts = SearchOptions {
                threads: crate::Threads {
                    count: 4,
                    parallel: how,
                    ..crate::Threads::default()
                },
                ..SearchOptions::default()
            };
            // Early (the main search's first leaves) and late (a helper's,
            // or the main search's after the helpers ran).
            for calm in [0, 1, 50, 400] {
                // A table of its own: nothing found in it, every leaf evaluated.
                let table = SharedTable::with_megabytes(1).unwrap();
                let game = Panicky {
                    tree: tree.clone(),
                    calm,
                    evals: Default::default(),
                };
                let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    Algorithm::Mtdf
                        .with_options(&opts)
                        .shared_table(&table)
                        .run_shared(&game)
                }));
                let message = caught.expect_err("the game panicked");
                assert_eq!(
                    crate::search::panic_text(&*message),
                    "the game broke",
                    "{how}, calm {calm}"
                );
                // The threads are not left waiting: the next search runs.
                let next = Algorithm::Mtdf
                    .with_options(&opts)
                    .shared_table(&table)
                    .run_shared(&tree)
                    .unwrap();
                assert_eq!(next.value, value, "{how}, calm {calm}");
            }
        }
    }
}
