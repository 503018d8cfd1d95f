//! The runner of a game grid (`stockman experiment --game`): every
//! algorithm at every depth and table size on every position of a
//! positions file, one [`GameRecord`] per search. The command line reads
//! its flags and files, shows progress and writes the results; this runs
//! the searches.

use super::{GameRecord, MINIMAL};
use crate::{Error, Shard};
use std::time::{Duration, Instant};
use stockman::algorithms::bns::GuessKind;
use stockman::drivers::parallel_sss;
use stockman::games::positions::PositionLine;
use stockman::run::{with_game, Enhancements, GameKind, GameTask};
use stockman::{
    minimal_tree, thread_cpu_time, Algorithm, AnyTable, FixedTable, Limits, Outcome, Parallel, Playable, SearchOptions,
    SettingNames, SharedTable, Stats, Table, TableSize,
};

/// What a game grid runs.
#[derive(Clone, Debug)]
pub struct GameGrid {
    /// The game.
    pub game: GameKind,
    /// The algorithms.
    pub algorithms: Vec<Algorithm>,
    /// The depths.
    pub depths: Vec<u32>,
    /// Iterative deepening for the depth-first algorithms.
    pub iterative: bool,
    /// Table sizes in MiB: every search that uses a table runs at each.
    pub tables: Vec<f64>,
    /// Store positions at the depth limit in the table.
    pub table_at_horizon: bool,
    /// The enhancements as the user gave them.
    pub enhancements: Enhancements,
    /// A node limit per search.
    pub max_nodes: Option<u64>,
    /// Compute each position's minimal tree, visiting at most this many
    /// distinct positions in the full minimax.
    pub minimal: Option<u64>,
    /// The depths of the minimal trees (`None`: every depth).
    pub minimal_depths: Option<Vec<u32>>,
    /// The slice of the jobs this run does.
    pub shard: Option<Shard>,
    /// Threads per search (1: the plain search).
    pub search_threads: usize,
    /// How a search's threads share it.
    pub parallel: Parallel,
    /// Best Node Search's guess functions: a row each (`bns`, `bns-bisect`).
    pub bns_guesses: Vec<GuessKind>,
}

/// Runs `jobs` (of [`jobs`], in their order) on the positions `set`, and
/// returns their records; `names` names the limits in the records' errors
/// as the user gave them, and `done` is called after every search.
///
/// # Errors
/// A position the game cannot read, or a table that cannot be allocated:
/// the message starts with the position's line number and a colon (`12:
/// ...`), for the caller to put its file's name before.
pub fn run_jobs(
    g: &GameGrid,
    set: &[PositionLine],
    jobs: &[Job],
    names: &dyn SettingNames,
    done: &mut dyn FnMut(),
) -> Result<Vec<GameRecord>, Error> {
    let mut tables: Vec<AnyTable> = g.tables.iter().map(|&mb| table_of(mb)).collect();
    let mut shared: Vec<Option<SharedTable>> = g.tables.iter().map(|_| None).collect();
    let mut records = Vec::with_capacity(jobs.len());
    let mut i = 0;
    while i < jobs.len() {
        // The jobs of one position and depth share the game.
        let (p, d) = (jobs[i].position, jobs[i].depth);
        let n = jobs[i..].iter().take_while(|j| (j.position, j.depth) == (p, d)).count();
        let line = &set[p];
        let task = Grid {
            g,
            jobs: &jobs[i..i + n],
            tables: &mut tables,
            shared: &mut shared,
            names,
            done: &mut *done,
        };
        let found = with_game(g.game, &line.position, true, task)
            .map_err(|e| Error::new(format!("{}: {e}", line.line)))?
            .map_err(|e| Error::new(format!("{}: {e}", line.line)))?;
        records.extend(found.into_iter().map(|mut r| {
            r.position = line.position.clone();
            r
        }));
        i += n;
    }
    Ok(records)
}

/// A fixed table of `mb` MiB: the largest power of two of 64-byte buckets
/// that fits, its memory committed now (before any clock starts).
fn table_of(mb: f64) -> AnyTable {
    let buckets = ((mb * (1u64 << 20) as f64) / FixedTable::BUCKET_BYTES as f64).max(1.0) as usize;
    let pow = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
    let mut t = AnyTable::Fixed(FixedTable::with_buckets(pow));
    t.touch();
    t
}

/// Whether `algo` runs once per table size (it uses a table) or once.
fn uses_table(algo: Algorithm) -> bool {
    algo.capabilities().table != stockman::algorithms::capabilities::TableUse::None
}

/// One job of the grid, in the order of the unsharded run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Its place in the unsharded run (what a shard selects by).
    pub index: u64,
    /// The position's index in the positions file.
    pub position: usize,
    /// The depth.
    pub depth: u32,
    /// Index into the table sizes; `None` for searches without a table.
    pub table: Option<usize>,
    /// `None`: the minimal tree.
    pub algorithm: Option<Algorithm>,
    /// Best Node Search's guess (Rutko's for the other algorithms).
    pub guess: GuessKind,
}

/// Every job of `g` over `positions` positions, in the order of the
/// unsharded run: by position, depth, algorithm (the minimal tree first),
/// guess and table size.
pub fn jobs(g: &GameGrid, positions: usize) -> Vec<Job> {
    let mut out = Vec::new();
    let mut push = |position, depth, table, algorithm, guess| {
        let index = out.len() as u64;
        out.push(Job {
            index,
            position,
            depth,
            table,
            algorithm,
            guess,
        })
    };
    let rutko = [GuessKind::Rutko];
    for p in 0..positions {
        for &depth in &g.depths {
            if g.minimal.is_some() && g.minimal_depths.as_ref().is_none_or(|ds| ds.contains(&depth)) {
                push(p, depth, None, None, GuessKind::Rutko);
            }
            for &a in &g.algorithms {
                let guesses: &[GuessKind] = if a == Algorithm::Bns { &g.bns_guesses } else { &rutko };
                for &guess in guesses {
                    if uses_table(a) {
                        for t in 0..g.tables.len() {
                            push(p, depth, Some(t), Some(a), guess);
                        }
                    } else {
                        push(p, depth, None, Some(a), guess);
                    }
                }
            }
        }
    }
    out
}

/// The jobs of one position and depth.
struct Grid<'a> {
    g: &'a GameGrid,
    jobs: &'a [Job],
    tables: &'a mut [AnyTable],
    /// The shared tables of the multi-threaded searches, one per size, made on first use.
    shared: &'a mut [Option<SharedTable>],
    names: &'a dyn SettingNames,
    done: &'a mut dyn FnMut(),
}

impl GameTask for Grid<'_> {
    type Output = Result<Vec<GameRecord>, Error>;

    fn run<G: Playable + Send + Sync + 'static>(self, game: G) -> Result<Vec<GameRecord>, Error> {
        let mut rows = Vec::with_capacity(self.jobs.len());
        for job in self.jobs {
            let mut row = GameRecord {
                job: job.index,
                game: game.name().to_string(),
                position: String::new(),
                depth: job.depth,
                tt_mb: job.table.map(|t| self.g.tables[t]),
                algorithm: String::new(),
                value: None,
                bound: None,
                best_move: None,
                error: None,
                stats: Stats::default(),
                leaf_positions: None,
                minimax_positions: None,
                cpu_us: None,
            };
            let Some(algo) = job.algorithm else {
                row.algorithm = MINIMAL.to_string();
                let start = Instant::now();
                let cpu = thread_cpu_time();
                match minimal_tree(&game, job.depth, self.g.minimal) {
                    Ok(m) => {
                        row.value = Some(m.value);
                        row.stats.leaf_evals = m.leaves;
                        row.stats.nodes = m.nodes;
                        row.leaf_positions = Some(m.leaf_positions);
                        row.minimax_positions = Some(m.positions);
                    }
                    Err(e) => {
                        row.error = Some(format!(
                            "the full minimax would visit more than {} positions (--minimal-cap)",
                            e.stats().map_or(0, |s| s.nodes)
                        ))
                    }
                }
                row.stats.time_us = start.elapsed().as_micros() as u64;
                row.cpu_us = cpu_us_since(cpu);
                rows.push(row);
                (self.done)();
                continue;
            };
            let mut opts = SearchOptions {
                limits: Limits {
                    depth: Some(job.depth),
                    nodes: self.g.max_nodes,
                    ..Default::default()
                },
                table: TableSize::Megabytes(self.g.tables.last().map_or(1, |&mb| mb.ceil() as usize)),
                enhancements: stockman::Enhancements {
                    table_move_first: true,
                    table_at_horizon: self.g.table_at_horizon,
                    ..Default::default()
                },
                ..SearchOptions::default()
            };
            self.g.enhancements.apply(&mut opts, self.g.iterative);
            opts.params.bns_guess = job.guess;
            let deepen = self.g.iterative && !algo.is_best_first();
            let name = match job.guess {
                GuessKind::Bisect => format!("{algo}-bisect"),
                GuessKind::Rutko => algo.name().to_string(),
            };
            row.algorithm = if deepen { format!("{name}+id") } else { name };
            let threads = self.g.search_threads;
            let threaded = threads > 1 && algo.runs_parallel(self.g.parallel);
            if threaded {
                // A row of its own: the one-thread rows keep their name.
                let how = if parallel_sss::supports(algo) {
                    "rounds"
                } else {
                    self.g.parallel.name()
                };
                row.algorithm = format!("{}/{how}-{threads}", row.algorithm);
            }
            let cpu = thread_cpu_time();
            let r = match job.table {
                _ if threaded => {
                    // The depth-first searches share a table per size; SSS* and Dual* need none.
                    let table = match job.table {
                        Some(t) => {
                            let mb = (self.g.tables[t].ceil() as usize).max(1);
                            let table = match &mut self.shared[t] {
                                Some(table) => table,
                                slot => {
                                    let mut table =
                                        SharedTable::with_megabytes(mb).map_err(|e| Error::new(e.to_string()))?;
                                    table.touch();
                                    slot.insert(table)
                                }
                            };
                            table.clear().map_err(|e| Error::new(e.to_string()))?;
                            Some(&*table)
                        }
                        None => None,
                    };
                    let opts = SearchOptions {
                        threads: stockman::Threads {
                            count: threads,
                            parallel: self.g.parallel,
                            ..stockman::Threads::default()
                        },
                        ..opts
                    };
                    let search = algo.with_options(&opts);
                    let search = if deepen { search.deepen() } else { search };
                    match table {
                        Some(t) => search.shared_table(t).run_shared(&game),
                        None => search.run_shared(&game),
                    }
                }
                Some(t) => {
                    // One table per size, cleared (a new generation: the
                    // same counts as a fresh table) before each search.
                    let table = &mut self.tables[t];
                    table.clear();
                    if deepen {
                        algo.with_options(&opts).deepen().table(table).run(&game)
                    } else {
                        algo.with_options(&opts).table(table).run(&game)
                    }
                }
                None => algo.search(&game, &opts),
            };
            // One thread's CPU time would undercount a search on several.
            row.cpu_us = if threaded { None } else { cpu_us_since(cpu) };
            match r {
                // Iterative deepening is anytime: stopped by a limit, it
                // answers with its last completed depth. A grid row is one
                // depth, so that answer is not the row's value: the search
                // stopped, as a flat search does with an error.
                Ok(Outcome {
                    stopped_by: Some(limit),
                    depth_completed,
                    stats,
                    ..
                }) => {
                    // (A stopped deepening answers only after a depth completed.)
                    let done = depth_completed.unwrap_or(0);
                    row.stats = stats;
                    row.error = Some(format!(
                        "stopped by {} after visiting {} positions in depth {} (depth {done} completed)",
                        self.names.limit(&limit),
                        stats.nodes,
                        done + 1
                    ));
                }
                Ok(o) => {
                    row.value = o.value;
                    row.bound = o.bound;
                    row.best_move = o.best_move.map(|m| game.move_text(m));
                    row.stats = o.stats;
                }
                Err(e) => {
                    row.stats = e.stats().copied().unwrap_or_default();
                    row.error = Some(e.describe(self.names));
                }
            }
            rows.push(row);
            (self.done)();
        }
        Ok(rows)
    }
}

/// The calling thread's CPU time since `start` (a [`thread_cpu_time`]
/// reading), in microseconds, where the platform tells it.
fn cpu_us_since(start: Option<Duration>) -> Option<u64> {
    Some(thread_cpu_time()?.saturating_sub(start?).as_micros() as u64)
}
