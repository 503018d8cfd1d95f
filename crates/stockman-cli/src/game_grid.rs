//! `stockman experiment --game G --positions F`: every algorithm at every
//! depth (and table size) on every position of a test set, as in Plaat et
//! al.'s figures: one CSV row per position, depth, table size and
//! algorithm, a check that they agree on the value, a summary relative to
//! NegaScout and to the minimal tree, and plots. The rows, summary and
//! plots are `stockman_lab::games`; this module runs the searches.

use crate::games::with_game;
use crate::runner::Enhancements;
use anyhow::{anyhow, bail, Context, Result};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use stockman::algorithms::bns::GuessKind;
use stockman::drivers::parallel_sss;
use stockman::games::positions::parse_positions;
use stockman::run::{GameKind, GameTask};
use stockman::{
    minimal_tree, thread_cpu_time, Algorithm, AnyTable, FixedTable, Outcome, Parallel, Playable, SearchOptions,
    SharedTable, Stats, Table, TableSize,
};
use stockman::{Limits, SettingNames};
use stockman_lab::games::{self as lab, GameRecord, MINIMAL};
use stockman_lab::Shard;

/// What a game grid runs.
pub struct GameGrid {
    pub game: GameKind,
    pub positions: PathBuf,
    pub algorithms: Vec<Algorithm>,
    pub depths: Vec<u32>,
    pub iterative: bool,
    /// Table sizes in MiB: every search that uses a table runs at each.
    pub tables: Vec<f64>,
    /// Store positions at the depth limit in the table (`--no-horizon-table`
    /// turns it off).
    pub table_at_horizon: bool,
    pub enhance: Enhancements,
    pub max_nodes: Option<u64>,
    /// Compute each position's minimal tree, visiting at most this many
    /// distinct positions in the full minimax.
    pub minimal: Option<u64>,
    /// The depths of the minimal trees (`None`: every depth).
    pub minimal_depths: Option<Vec<u32>>,
    pub shard: Option<Shard>,
    pub out: PathBuf,
    pub force: bool,
    pub dry_run: bool,
    /// Threads per search (1: the plain search).
    pub search_threads: usize,
    /// How a search's threads share it.
    pub parallel: Parallel,
    /// Best Node Search's guess functions: a row each (`bns`, `bns-bisect`).
    pub bns_guesses: Vec<GuessKind>,
}

/// Parses `--tt-mb`: sizes in MiB, `16` or `0.25,1,4,16,64`.
pub fn parse_tables(s: &str) -> Result<Vec<f64>> {
    let mut out: Vec<f64> = Vec::new();
    for part in s.split(',') {
        let t = part.trim();
        let mb: f64 = t
            .parse()
            .map_err(|_| anyhow!("--tt-mb: `{t}` is not a size in MiB (e.g. 16 or 0.25,1,4)"))?;
        if !(mb.is_finite() && mb * ((1u64 << 20) as f64) >= FixedTable::BUCKET_BYTES as f64 && mb <= 65536.0) {
            bail!("--tt-mb: `{t}`: a table holds at least one 64-byte bucket and at most 65536 MiB");
        }
        if !out.contains(&mb) {
            out.push(mb);
        }
    }
    out.sort_by(f64::total_cmp);
    Ok(out)
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
#[derive(Clone, Copy, Debug)]
struct Job {
    index: u64,
    position: usize,
    depth: u32,
    /// Index into the table sizes; `None` for searches without a table.
    table: Option<usize>,
    /// `None`: the minimal tree.
    algorithm: Option<Algorithm>,
    /// Best Node Search's guess (Rutko's for the other algorithms).
    guess: GuessKind,
}

fn jobs(g: &GameGrid, positions: usize) -> Vec<Job> {
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

pub fn run(g: GameGrid) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&g.positions)
        .map_err(|e| anyhow!("cannot read positions file {}: {e}", g.positions.display()))?;
    let set = parse_positions(&text)
        .map_err(|e| anyhow!("{}:{}:{}: {}", g.positions.display(), e.line, e.column, e.message))?;
    if set.is_empty() {
        bail!("{}: no positions in the file", g.positions.display());
    }
    let all = jobs(&g, set.len());
    let mine: Vec<Job> = all
        .iter()
        .copied()
        .filter(|j| g.shard.is_none_or(|s| s.contains(j.index)))
        .collect();
    if g.dry_run {
        println!(
            "{} searches in the grid ({} positions, depths {:?}, tables {:?} MiB{}), {} in this run",
            all.len(),
            set.len(),
            g.depths,
            g.tables,
            if g.minimal.is_some() { ", minimal trees" } else { "" },
            mine.len()
        );
        return Ok(ExitCode::SUCCESS);
    }
    std::fs::create_dir_all(&g.out).with_context(|| format!("cannot create {}", g.out.display()))?;
    let results = g.out.join(g.shard.map_or("results.csv".to_string(), |s| s.file_name()));
    if results.exists() && !g.force {
        bail!("{} exists: pass --force to replace it", results.display());
    }
    let command: Vec<String> = std::env::args().collect();
    std::fs::write(g.out.join("command.txt"), format!("{}\n", command.join(" ")))
        .with_context(|| format!("cannot write {}", g.out.display()))?;

    let bar = if std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new(mine.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {pos}/{len} searches, {eta} left")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut tables: Vec<AnyTable> = g.tables.iter().map(|&mb| table_of(mb)).collect();
    let mut shared: Vec<Option<SharedTable>> = g.tables.iter().map(|_| None).collect();
    let mut records = Vec::with_capacity(mine.len());
    let mut i = 0;
    while i < mine.len() {
        // The jobs of one position and depth share the game.
        let (p, d) = (mine[i].position, mine[i].depth);
        let n = mine[i..].iter().take_while(|j| (j.position, j.depth) == (p, d)).count();
        let line = &set[p];
        let task = Grid {
            g: &g,
            jobs: &mine[i..i + n],
            tables: &mut tables,
            shared: &mut shared,
            bar: &bar,
        };
        let found = with_game(g.game, &line.position, true, task)
            .with_context(|| format!("{}:{}", g.positions.display(), line.line))?;
        records.extend(found.into_iter().map(|mut r| {
            r.position = line.position.clone();
            r
        }));
        i += n;
    }
    bar.finish_and_clear();
    lab::write_csv(&results, &records)?;
    println!("wrote {}", results.display());
    let disagreements = lab::check_agreement(&records);
    if let Some(s) = g.shard {
        println!(
            "shard {s} done; when every shard is, combine them with\n  stockman experiment merge --out {} {}",
            g.out.display(),
            g.out.join(format!("results-*-of-{}.csv", s.count)).display()
        );
    } else {
        let files = lab::write_report(&records, &g.out)?;
        print!("{}", lab::summarize(&records).markdown());
        for f in files {
            println!("wrote {}", f.display());
        }
    }
    if !disagreements.is_empty() {
        for d in &disagreements {
            eprintln!("error: {d}");
        }
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// The jobs of one position and depth.
struct Grid<'a> {
    g: &'a GameGrid,
    jobs: &'a [Job],
    tables: &'a mut [AnyTable],
    /// The shared tables of the multi-threaded searches, one per size, made on first use.
    shared: &'a mut [Option<SharedTable>],
    bar: &'a indicatif::ProgressBar,
}

impl GameTask for Grid<'_> {
    type Output = Result<Vec<GameRecord>>;

    fn run<G: Playable + Send + Sync + 'static>(self, game: G) -> Result<Vec<GameRecord>> {
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
                self.bar.inc(1);
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
            self.g.enhance.apply(&mut opts, self.g.iterative);
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
                                    let mut table = SharedTable::with_megabytes(mb)?;
                                    table.touch();
                                    slot.insert(table)
                                }
                            };
                            table.clear()?;
                            Some(&*table)
                        }
                        None => None,
                    };
                    let opts = SearchOptions {
                        threads: stockman::Threads {
                            count: threads,
                            parallel: self.g.parallel,
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
                        crate::report::Flags.limit(&limit),
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
                    row.error = Some(e.describe(&crate::report::Flags));
                }
            }
            rows.push(row);
            self.bar.inc(1);
        }
        Ok(rows)
    }
}

/// The calling thread's CPU time since `start` (a [`thread_cpu_time`]
/// reading), in microseconds, where the platform tells it.
fn cpu_us_since(start: Option<Duration>) -> Option<u64> {
    Some(thread_cpu_time()?.saturating_sub(start?).as_micros() as u64)
}

#[cfg(test)]
mod tests {
    use super::parse_tables;

    #[test]
    fn table_lists() {
        assert_eq!(parse_tables("16").unwrap(), vec![16.0]);
        assert_eq!(parse_tables("64, 1,0.25,1").unwrap(), vec![0.25, 1.0, 64.0]);
        assert!(parse_tables("0").is_err());
        assert!(parse_tables("x").is_err());
        assert!(parse_tables("1e9").is_err());
    }
}
