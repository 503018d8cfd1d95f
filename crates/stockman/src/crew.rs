//! Helper threads kept between parallel searches: a shared service of the
//! drivers, like the tables.
//!
//! A parallel search on `n` threads needs `n - 1` helpers for as long as
//! it runs. Starting them for every search cost more than the search on
//! small trees: 112,000 threaded searches of trees a few plies deep spent
//! 48 of their 70 CPU seconds in the kernel, creating threads and unmapping
//! their stacks. So the helpers of a search are a [`Crew`]: a pool of
//! threads (rayon-core's) hired for the search and handed back after it,
//! kept idle for the next search that needs no more helpers and no deeper
//! stacks.
//!
//! A crew serves one search at a time (it is taken out of the idle list
//! while hired), so every helper of a search has a thread of its own at
//! once, as with threads started for it. A crew hired in a process that
//! has forked since it was made is never used (its threads stayed in the
//! parent): a new one is made. The idle list is only ever tried, never
//! waited for, so that no search blocks on another's bookkeeping.

use std::sync::Mutex;

/// At most this many helpers are kept idle, in all: a search on more
/// threads than that starts its own and lets them go after it.
const KEPT_HELPERS: usize = 64;

/// Crews whose stacks are larger are not kept: a search a million plies
/// deep reserves gigabytes a thread, which the next allocation may need.
const KEPT_STACK: usize = 512 << 20;

/// Stacks are reserved in steps of this size, so that searches whose
/// depths differ by up to 4,096 plies (4 KiB a ply) share a crew; small,
/// so that a process under an address-space limit reserves little more
/// than it asked for.
const STACK_STEP: usize = 16 << 20;

/// The idle crews of this process (of a test's own list, in tests).
static IDLE: Idle = Idle::new();

/// Crews waiting for their next search.
struct Idle {
    crews: Mutex<Vec<Crew>>,
    /// Crews made (for the tests: how many were not found idle).
    #[cfg(test)]
    made: std::sync::atomic::AtomicUsize,
}

/// Threads for the helpers of one parallel search.
pub(crate) struct Crew {
    pool: rayon_core::ThreadPool,
    helpers: usize,
    stack: usize,
    /// The process that made the threads.
    pid: u32,
}

impl Crew {
    /// A crew of at least `helpers` threads with stacks of at least
    /// `stack` bytes: an idle one if one fits, else a new one.
    ///
    /// # Errors
    /// The threads cannot be started (the system's message).
    pub(crate) fn hire(helpers: usize, stack: usize) -> Result<Crew, String> {
        IDLE.hire(helpers, stack)
    }

    /// Runs `f` with a scope whose spawned jobs run on the crew's threads,
    /// each on a thread of its own while there are no more of them than
    /// the crew has; returns when `f` and every job it spawned have ended.
    pub(crate) fn scope<'s, R>(&self, f: impl FnOnce(&rayon_core::Scope<'s>) -> R) -> R {
        self.pool.in_place_scope(f)
    }

    /// Hands the crew back for the next search (see [`Idle::release`]).
    pub(crate) fn release(self) {
        IDLE.release(self)
    }
}

impl Idle {
    const fn new() -> Idle {
        Idle {
            crews: Mutex::new(Vec::new()),
            #[cfg(test)]
            made: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    fn hire(&self, helpers: usize, stack: usize) -> Result<Crew, String> {
        let pid = std::process::id();
        if let Ok(mut idle) = self.crews.try_lock() {
            // A crew made before a fork has no threads here: forgotten,
            // never dropped (its threads, and the locks they may have
            // held at the fork, are the parent's).
            let (mine, theirs): (Vec<Crew>, Vec<Crew>) =
                std::mem::take(&mut *idle).into_iter().partition(|c| c.pid == pid);
            std::mem::forget(theirs);
            *idle = mine;
            // The smallest that fits.
            let fit = (0..idle.len())
                .filter(|&i| idle[i].helpers >= helpers && idle[i].stack >= stack)
                .min_by_key(|&i| (idle[i].helpers, idle[i].stack));
            if let Some(i) = fit {
                return Ok(idle.swap_remove(i));
            }
        }
        #[cfg(test)]
        self.made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let stack = stack.div_ceil(STACK_STEP).saturating_mul(STACK_STEP);
        let pool = rayon_core::ThreadPoolBuilder::new()
            .num_threads(helpers)
            .stack_size(stack)
            .thread_name(|i| format!("stockman-helper-{}", i + 1))
            .build()
            .map_err(|e| e.to_string())?;
        // rayon-core caps a pool's threads (255 on 32-bit targets): a crew
        // short of helpers would leave one waiting for a thread for ever.
        if pool.current_num_threads() < helpers {
            return Err(format!(
                "a pool of {} threads holds at most {}",
                helpers,
                pool.current_num_threads()
            ));
        }
        Ok(Crew {
            pool,
            helpers,
            stack,
            pid,
        })
    }

    /// Keeps `crew` for the next search if the idle crews then hold at
    /// most [`KEPT_HELPERS`] helpers (the largest are kept first) and its
    /// stacks are at most [`KEPT_STACK`]; lets it go otherwise.
    fn release(&self, crew: Crew) {
        if crew.pid != std::process::id() {
            // Made before a fork: see `hire`.
            std::mem::forget(crew);
            return;
        }
        if crew.helpers > KEPT_HELPERS || crew.stack > KEPT_STACK {
            return;
        }
        let Ok(mut idle) = self.crews.try_lock() else {
            return;
        };
        idle.push(crew);
        idle.sort_by_key(|c| std::cmp::Reverse(c.helpers));
        let mut total = 0;
        idle.retain(|c| {
            let keep = total + c.helpers <= KEPT_HELPERS;
            if keep {
                total += c.helpers;
            }
            keep
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn made(idle: &Idle) -> usize {
        idle.made.load(Ordering::Relaxed)
    }

    #[test]
    fn a_released_crew_serves_the_next_search_that_fits_it() {
        let idle = Idle::new();
        let a = idle.hire(3, 1 << 20).unwrap();
        assert_eq!((a.helpers, a.stack), (3, STACK_STEP));
        idle.release(a);
        // Fewer helpers, a smaller stack: the same crew.
        let b = idle.hire(2, 1 << 10).unwrap();
        assert_eq!((made(&idle), b.helpers), (1, 3));
        // More helpers than any idle crew has, or a deeper stack: a new one.
        let c = idle.hire(5, 1 << 20).unwrap();
        let d = idle.hire(1, STACK_STEP + 1).unwrap();
        assert_eq!(made(&idle), 3);
        assert_eq!(d.stack, 2 * STACK_STEP);
        for crew in [b, c, d] {
            idle.release(crew);
        }
        // The smallest that fits.
        assert_eq!(idle.hire(1, 1).unwrap().helpers, 1);
        assert_eq!(idle.hire(4, 1).unwrap().helpers, 5);
        assert_eq!(made(&idle), 3);
    }

    #[test]
    fn every_helper_of_a_crew_runs_at_once() {
        // Each job waits until all have started: on fewer threads than
        // jobs this would never end.
        let crew = Idle::new().hire(4, 1 << 20).unwrap();
        let started = AtomicUsize::new(0);
        crew.scope(|s| {
            for _ in 0..4 {
                s.spawn(|_| {
                    started.fetch_add(1, Ordering::SeqCst);
                    while started.load(Ordering::SeqCst) < 4 {
                        std::thread::yield_now();
                    }
                });
            }
        });
        assert_eq!(started.into_inner(), 4);
    }

    #[test]
    fn at_most_kept_helpers_wait_idle_and_a_forked_process_makes_its_own() {
        let idle = Idle::new();
        let big = idle.hire(KEPT_HELPERS - 1, 1).unwrap();
        let small = idle.hire(2, 1).unwrap();
        let one = idle.hire(1, 1).unwrap();
        idle.release(small);
        idle.release(big);
        // The big crew stays, the small one went; a crew that fits beside
        // the big one stays too.
        let kept = |idle: &Idle| idle.crews.lock().unwrap().iter().map(|c| c.helpers).collect::<Vec<_>>();
        assert_eq!(kept(&idle), [KEPT_HELPERS - 1]);
        idle.release(one);
        assert_eq!(kept(&idle), [KEPT_HELPERS - 1, 1]);
        let _ = idle.hire(KEPT_HELPERS - 1, 1).unwrap();
        let _ = idle.hire(1, 1).unwrap();
        // Stacks over the bound are not kept.
        let deep = idle.hire(1, KEPT_STACK + 1).unwrap();
        idle.release(deep);
        assert!(kept(&idle).is_empty());
        // A crew whose threads were made by another process is never hired.
        let one = idle.hire(1, 1).unwrap();
        idle.release(one);
        idle.crews.lock().unwrap()[0].pid ^= 1;
        let before = made(&idle);
        let fresh = idle.hire(1, 1).unwrap();
        assert_eq!((made(&idle), fresh.helpers), (before + 1, 1));
        assert!(idle.crews.lock().unwrap().is_empty());
    }
}
