//! Running the searches of a grid in parallel, and the whole experiment:
//! results file, resuming, summary and plots.

use crate::grid::{BnsGuess, Grid, Job, Shard};
use crate::record::{drop_torn_tail, merge, read_csv, write_atomic, CsvSink, Record};
use crate::{report, Error};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use stockman::algorithms::bns;
use stockman::drivers::lazy_smp;
use stockman::run::shards::rules::{check, digest, share, Part};
use stockman::{
    Algorithm, NoObserver, RandomTree, SearchError, SearchOptions, SharedTable, TableSize, DEFAULT_SHARED_TABLE_MB,
};
use stockman::{Limits, Threads};

/// The search options of a grid's searches: an unbounded table for the
/// drivers (no replacement, so MT-SSS\* = SSS\* holds), the grid's limits
/// and threads per search.
pub fn options(grid: &Grid) -> SearchOptions {
    SearchOptions {
        limits: Limits {
            nodes: grid.max_nodes,
            time: grid.time_limit.map(Duration::from_secs_f64),
            ..Limits::default()
        },
        table: TableSize::Unbounded,
        threads: Threads {
            count: grid.search_threads,
            parallel: grid.parallel,
            ..Threads::default()
        },
        ..SearchOptions::default()
    }
}

/// Runs one search and records it.
pub fn run_job(job: &Job, opts: &SearchOptions) -> Record {
    run_job_on(job, opts, &mut None)
}

/// [`run_job`] on `opts.threads.count` threads ([`Algorithm::search_shared_in`]);
/// a depth-first search on several threads goes through `table`, the
/// worker's shared table (the engine's default size: a grid's own table is
/// unbounded, which threads cannot share), made on first use and cleared
/// before each search.
fn run_job_on(job: &Job, opts: &SearchOptions, table: &mut Option<SharedTable>) -> Record {
    let tree = RandomTree::new(job.tree.spec());
    let with_memory;
    let opts = match job.memory {
        Some(m) => {
            with_memory = SearchOptions {
                params: stockman::Params {
                    memory: Some(m),
                    ..opts.params
                },
                ..opts.clone()
            };
            &with_memory
        }
        None => opts,
    };
    let mut r = Record::new(job);
    let out = match (job.algorithm, job.bns_guess) {
        (Algorithm::Bns, BnsGuess::Bisect) => bns::search_with(&tree, opts, &mut bns::Bisect, &mut NoObserver),
        (a, _) => {
            let shared = if opts.threads.count > 1 && lazy_smp::supports(a) {
                if table.is_none() {
                    match SharedTable::with_megabytes(DEFAULT_SHARED_TABLE_MB) {
                        Ok(mut t) => {
                            t.touch();
                            *table = Some(t);
                        }
                        Err(e) => {
                            r.error = Some(SearchError::Table(e).to_string());
                            return r;
                        }
                    }
                }
                let t = table.as_mut().expect("made above");
                if let Err(e) = t.clear() {
                    r.error = Some(e.to_string());
                    return r;
                }
                Some(&*t)
            } else {
                None
            };
            match shared {
                Some(t) => a.with_options(opts).shared_table(t).run_shared(&tree),
                None => a.with_options(opts).run_shared(&tree),
            }
        }
    };
    match out {
        Ok(out) => {
            r.value = out.value;
            r.best_move = out.best_index;
            r.stats = out.stats;
        }
        Err(e) => {
            r.stats = e.stats().copied().unwrap_or_default();
            r.error = Some(e.to_string());
        }
    }
    r
}

/// Runs `jobs` on `threads` threads (0: one per core), in job order: each
/// thread takes the next job not yet started. Every finished record goes to
/// `done` at once. Once `stop` is set no new search starts; the running ones
/// finish and are reported. Returns how many searches ran.
pub fn run_jobs(
    jobs: &[Job],
    opts: &SearchOptions,
    threads: usize,
    stop: &AtomicBool,
    done: &(dyn Fn(Record) + Sync),
) -> Result<usize, Error> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        // Deep trees recurse; the stack is reserved, not touched.
        .stack_size(64 << 20)
        .thread_name(|i| format!("stockman-lab-{i}"))
        .build()
        .map_err(|e| Error::new(format!("cannot start the worker threads: {e}")))?;
    let next = AtomicUsize::new(0);
    let ran = AtomicUsize::new(0);
    pool.scope(|s| {
        for _ in 0..pool.current_num_threads() {
            s.spawn(|_| {
                let mut table = None;
                loop {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(job) = jobs.get(i) else { return };
                    done(run_job_on(job, opts, &mut table));
                    ran.fetch_add(1, Ordering::SeqCst);
                }
            });
        }
    });
    Ok(ran.into_inner())
}

/// What an experiment run writes, and how.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The grid.
    pub grid: Grid,
    /// Only this slice of the grid.
    pub shard: Option<Shard>,
    /// The output directory (created if needed).
    pub out: PathBuf,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Keep the rows of an existing results file and run only the missing searches.
    pub resume: bool,
    /// Replace an existing results file.
    pub force: bool,
}

/// How a run went.
#[derive(Clone, Debug)]
pub struct Finished {
    /// Every record of the results file, sorted by job.
    pub records: Vec<Record>,
    /// The jobs of this run (the shard's, or the whole grid's).
    pub planned: usize,
    /// Searches run now (the others came from the resumed file).
    pub ran: usize,
    /// Whether `stop` ended the run early.
    pub interrupted: bool,
    /// The files written.
    pub files: Vec<PathBuf>,
}

impl Plan {
    /// The results file: `results.csv`, or `results-K-of-N.csv` for a shard.
    pub fn results_path(&self) -> PathBuf {
        self.out
            .join(self.shard.map_or("results.csv".to_string(), |s| s.file_name()))
    }

    /// The jobs this run is responsible for.
    pub fn jobs(&self) -> Vec<Job> {
        self.grid.shard_jobs(self.shard)
    }

    /// When resuming, drops a torn last record from the results file (see
    /// [`drop_torn_tail`]) and returns a note that says so; the job of that
    /// record then runs again. `None` when there was nothing to drop.
    pub fn repair(&self) -> Result<Option<String>, Error> {
        let path = self.results_path();
        if !(self.resume && path.exists()) {
            return Ok(None);
        }
        Ok(drop_torn_tail(&path)?.map(|torn| {
            format!(
                "{}: dropped a torn last record (no newline at its end: {} bytes, `{}`); its search runs again",
                path.display(),
                torn.len(),
                torn.chars().take(60).collect::<String>()
            )
        }))
    }

    /// Prepares the output directory and finds the jobs still to run:
    /// returns them with the records already on disk (when resuming, after
    /// [`Plan::repair`]).
    pub fn prepare(&self) -> Result<(Vec<Job>, Vec<Record>), Error> {
        std::fs::create_dir_all(&self.out).map_err(|e| Error::io(&self.out, e))?;
        let path = self.results_path();
        let jobs = self.jobs();
        self.claim_folder()?;
        let exists = path.exists();
        if exists && !self.resume && !self.force {
            return Err(Error::new(format!(
                "{} exists: pass --resume to run only its missing searches, or --force to start over",
                path.display()
            )));
        }
        let mut old = Vec::new();
        if exists && self.resume {
            self.repair()?;
            old = read_csv(&path)?;
            let by_index: std::collections::HashMap<u64, &Job> = jobs.iter().map(|j| (j.index, j)).collect();
            for r in &old {
                if !by_index.get(&r.job).is_some_and(|j| r.matches(j)) {
                    return Err(Error::new(format!(
                        "{}: job {} ({} on {:?}) is not in this grid or shard: resume with the same grid, or use another --out",
                        path.display(),
                        r.job,
                        r.algorithm,
                        r.tree_key()
                    )));
                }
            }
            old = merge(vec![old])?;
        }
        let have: std::collections::HashSet<u64> = old.iter().map(|r| r.job).collect();
        let todo = jobs.into_iter().filter(|j| !have.contains(&j.index)).collect();
        Ok((todo, old))
    }

    /// Writes the grid to the folder's `grid.toml`, or checks that the one
    /// there is this grid: the shards beside it ran that grid, and the merge
    /// reads it, so a shard of another grid is refused rather than rewriting
    /// it (only a whole run with `--force`, which starts over, replaces it).
    fn claim_folder(&self) -> Result<(), Error> {
        let path = self.out.join("grid.toml");
        let ours = self.grid.to_toml();
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let differs = match Grid::from_toml(&text) {
                    Ok(theirs) => first_difference(&theirs.to_toml(), &ours),
                    Err(e) => Some(format!("it is not a grid ({e})")),
                };
                match differs {
                    None => return Ok(()),
                    Some(_) if self.force && self.shard.is_none() => {}
                    Some(what) => {
                        let run = self.shard.map_or("this run".to_string(), |s| format!("shard {s}"));
                        return Err(Error::new(format!(
                            "{}: the folder holds the results of another grid ({what}): {run} would mix with them; \
                             use another --out (or run the whole grid with --force to start over)",
                            path.display()
                        )));
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(&path, e)),
        }
        // Shards of one array start at once: each writes its own temporary
        // file, so that none reads another's half-written grid.
        let tmp = self.out.join(format!(".grid.toml.{}.tmp", std::process::id()));
        std::fs::write(&tmp, &ours).map_err(|e| Error::io(&tmp, e))?;
        std::fs::rename(&tmp, &path).map_err(|e| Error::io(&path, e))
    }

    /// Runs the experiment: rows are appended and flushed to the results
    /// file as searches finish; `progress` hears of each. At the end the file
    /// is rewritten sorted by job (so equal grids give equal files, apart
    /// from the `time_us` column) and, for a whole grid, the summary and
    /// plots are written beside it. An interrupted run keeps its rows, in
    /// finishing order; `--resume` completes it.
    pub fn execute(&self, stop: &AtomicBool, progress: &(dyn Fn(&Record) + Sync)) -> Result<Finished, Error> {
        let (todo, old) = self.prepare()?;
        self.execute_prepared(todo, old, stop, progress)
    }

    /// [`Plan::execute`] once [`Plan::prepare`] has run (so that a caller can
    /// size a progress bar in between).
    pub fn execute_prepared(
        &self,
        todo: Vec<Job>,
        old: Vec<Record>,
        stop: &AtomicBool,
        progress: &(dyn Fn(&Record) + Sync),
    ) -> Result<Finished, Error> {
        let path = self.results_path();
        let planned = self.jobs().len();
        let sink = CsvSink::open(&path, self.resume)?;
        let new = std::sync::Mutex::new(Vec::with_capacity(todo.len()));
        let failed = std::sync::Mutex::new(None);
        let opts = options(&self.grid);
        let ran = run_jobs(&todo, &opts, self.threads, stop, &|r| {
            if let Err(e) = sink.write(&r) {
                failed.lock().unwrap().get_or_insert(e);
                stop.store(true, Ordering::SeqCst);
            }
            progress(&r);
            new.lock().unwrap().push(r);
        })?;
        drop(sink);
        if let Some(e) = failed.into_inner().unwrap() {
            return Err(e);
        }
        let records = merge(vec![old, new.into_inner().unwrap()])?;
        let interrupted = records.len() < planned;
        let mut files = vec![path.clone()];
        if !interrupted {
            let mut buf = Vec::new();
            {
                let mut w = csv::Writer::from_writer(&mut buf);
                w.write_record(crate::record::header())
                    .map_err(|e| Error::csv(&path, e))?;
                for r in &records {
                    w.write_record(crate::record::fields(r))
                        .map_err(|e| Error::csv(&path, e))?;
                }
                w.flush().map_err(|e| Error::io(&path, e))?;
            }
            let _guard = crate::record::OUTPUT_LOCK.lock().unwrap_or_else(|p| p.into_inner());
            write_atomic(&path, &buf)?;
        }
        if self.shard.is_none() && !interrupted {
            files.extend(report::write_report(&records, &self.out)?);
        }
        Ok(Finished {
            records,
            planned,
            ran,
            interrupted,
            files,
        })
    }
}

/// The results files named by `inputs`: files as given, and the
/// `results-*.csv` files of directories (sorted).
pub fn shard_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut files = Vec::new();
    for p in inputs {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| Error::io(p, e))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| {
                    f.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("results-") && n.ends_with(".csv"))
                })
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(Error::new(format!("{}: no results-*.csv files in it", p.display())));
            }
            files.extend(found);
        } else {
            files.push(p.clone());
        }
    }
    if files.is_empty() {
        return Err(Error::new(
            "nothing to merge: name the shards' CSV files or their directories",
        ));
    }
    Ok(files)
}

/// The settings of a grid's TOML, key by key (`seeds`, `2`), in its order.
fn grid_settings(toml_text: &str) -> Vec<(String, String)> {
    toml_text
        .lines()
        .filter_map(|l| l.split_once(" = "))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

/// The first setting in which two grids' TOML differ, as `seeds 3, not 2`.
fn first_difference(theirs: &str, ours: &str) -> Option<String> {
    let (t, o) = (grid_settings(theirs), grid_settings(ours));
    let value = |list: &[(String, String)], key: &str| {
        list.iter()
            .find(|(k, _)| k == key)
            .map_or("(none)".to_string(), |(_, v)| v.clone())
    };
    let keys = t.iter().chain(&o).map(|(k, _)| k.clone());
    keys.into_iter()
        .find(|k| value(&t, k) != value(&o, k))
        .map(|k| format!("its {k} is {}, this run's {}", value(&t, &k), value(&o, &k)))
        .or_else(|| (theirs != ours).then(|| "its text differs".to_string()))
}

/// `results-K-of-N.csv`: the shard a results file's name says it is.
fn shard_of_name(file: &Path) -> Option<Shard> {
    let name = file.file_name()?.to_str()?;
    let (k, n) = name
        .strip_prefix("results-")?
        .strip_suffix(".csv")?
        .split_once("-of-")?;
    let s: Shard = format!("{k}/{n}").parse().ok()?;
    (s.file_name() == name).then_some(s)
}

/// One shard's results file, with the grid of its folder.
struct ShardFile {
    path: PathBuf,
    shard: Shard,
    grid: Grid,
    toml: String,
    records: Vec<Record>,
}

impl ShardFile {
    fn read(path: &Path) -> Result<ShardFile, Error> {
        let shard = shard_of_name(path).ok_or_else(|| {
            Error::new(format!(
                "{}: not a shard's results file: shards are named results-K-of-N.csv (experiment --shard K/N writes them)",
                path.display()
            ))
        })?;
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let toml_path = dir.join("grid.toml");
        let text = std::fs::read_to_string(&toml_path).map_err(|e| {
            Error::new(format!(
                "{}: cannot read the grid its shards ran ({e}): experiment --shard writes it beside them",
                toml_path.display()
            ))
        })?;
        let grid = Grid::from_toml(&text).map_err(|e| Error::new(format!("{}: {e}", toml_path.display())))?;
        let toml = grid.to_toml();
        let records = read_csv(path)?;
        Ok(ShardFile {
            path: path.to_path_buf(),
            shard,
            grid,
            toml,
            records,
        })
    }

    /// What the merge rules need of it (the same rules as a positions batch's).
    fn part(&self) -> Part {
        Part {
            name: self.path.display().to_string(),
            index: self.shard.index,
            count: self.shard.count,
            settings: grid_settings(&self.toml),
            digest: digest(self.toml.as_bytes()),
            owed: share(self.grid.job_count(), self.shard.index, self.shard.count),
            rows: self.records.len() as u64,
        }
    }

    /// Every row is a job of its shard of its grid, once.
    fn check_rows(&self) -> Result<(), Error> {
        let jobs = self.grid.shard_jobs(Some(self.shard));
        let by_index: std::collections::HashMap<u64, &Job> = jobs.iter().map(|j| (j.index, j)).collect();
        let mut seen = std::collections::HashSet::new();
        for (i, r) in self.records.iter().enumerate() {
            let fits = by_index.get(&r.job).is_some_and(|j| r.matches(j));
            if !fits || !seen.insert(r.job) {
                let why = if fits {
                    "a second time"
                } else {
                    "which is not a job of this shard of its grid.toml"
                };
                return Err(Error::new(format!(
                    "{}: row {}: job {} ({} on {:?}) {why}",
                    self.path.display(),
                    i + 2,
                    r.job,
                    r.algorithm,
                    r.tree_key()
                )));
            }
        }
        Ok(())
    }
}

/// Combines shard results (files, or directories holding `results-*.csv`)
/// into `out`: the merged `results.csv`, the summary and the plots. Returns
/// the merged records and the files written.
///
/// The shards answer to the rules a positions batch's do
/// ([`stockman::run::shards::rules`]): every shard `1..=N` of one grid
/// (the `grid.toml` beside each file: one digest of every setting), once,
/// each with every row its share owes; then every row must be a job of its
/// shard.
pub fn merge_files(inputs: &[PathBuf], out: &Path) -> Result<(Vec<Record>, Vec<PathBuf>), Error> {
    let files = shard_files(inputs)?;
    let shards = files
        .iter()
        .map(|f| ShardFile::read(f))
        .collect::<Result<Vec<_>, _>>()?;
    let parts: Vec<Part> = shards.iter().map(ShardFile::part).collect();
    check(&parts).map_err(|e| Error::new(e.to_string()))?;
    for s in &shards {
        s.check_rows()?;
    }
    let records = merge(shards.into_iter().map(|s| s.records).collect())?;
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let path = out.join("results.csv");
    crate::record::write_csv(&path, &records)?;
    let mut written = vec![path];
    written.extend(report::write_report(&records, out)?);
    Ok((records, written))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::summarize;

    fn grid() -> Grid {
        Grid::from_toml(
            r#"
            name = "t"
            algorithms = ["alphabeta", "sss", "dual", "mt-sss", "mt-dual", "mtdf"]
            widths = [3]
            depths = [2, 3, 4]
            models = ["iid", "incremental"]
            orders = ["random", 0.9]
            seeds = 3
            "#,
        )
        .unwrap()
    }

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("stockman-lab-{name}-{}", std::process::id()));
        std::fs::remove_dir_all(&d).ok();
        d
    }

    fn plan(out: &Path, shard: Option<Shard>) -> Plan {
        Plan {
            grid: grid(),
            shard,
            out: out.to_path_buf(),
            threads: 2,
            resume: false,
            force: false,
        }
    }

    /// The records with a time that depends on the counts only: 100 us
    /// plus one per position visited (every search then passes the summary's
    /// 0.1 ms floor, so the time section is exercised, and deterministically).
    fn injected_times(rs: &[Record]) -> Vec<Record> {
        rs.iter()
            .map(|r| {
                let mut r = r.clone();
                r.stats.time_us = 100 + r.stats.nodes;
                r
            })
            .collect()
    }

    #[test]
    fn the_time_section_reports_injected_times() {
        let stop = AtomicBool::new(false);
        let dir = tmp("times");
        let run = plan(&dir, None).execute(&stop, &|_| {}).unwrap();
        let s = summarize(&injected_times(&run.records));
        let md = s.markdown("t");
        assert!(md.contains("Time relative to alpha-beta"), "{md}");
        // Alpha-beta against itself is exactly 1 on every tree.
        for cells in s.panels.values() {
            for ((algo, _), cell) in cells {
                if s.algorithms[*algo] == "alphabeta" {
                    let t = cell.time_vs_alphabeta.expect("alpha-beta took >= 0.1 ms");
                    assert_eq!((t.min, t.max), (1.0, 1.0));
                } else {
                    assert!(cell.time_vs_alphabeta.is_some(), "{}", s.algorithms[*algo]);
                }
            }
        }
        std::fs::remove_dir_all(dir).ok();
    }

    fn counts(rs: &[Record]) -> Vec<Record> {
        rs.iter()
            .map(|r| Record {
                stats: r.stats.counts(),
                ..r.clone()
            })
            .collect()
    }

    #[test]
    fn shards_merge_to_the_unsharded_run() {
        let stop = AtomicBool::new(false);
        let whole_dir = tmp("whole");
        let whole = plan(&whole_dir, None).execute(&stop, &|_| {}).unwrap();
        assert!(!whole.interrupted);
        assert_eq!(whole.records.len() as u64, grid().job_count());
        assert!(whole_dir.join("summary.md").exists());
        assert!(whole.files.iter().any(|f| f.extension().is_some_and(|e| e == "svg")));
        // The file on disk is sorted and complete.
        let on_disk = read_csv(&whole_dir.join("results.csv")).unwrap();
        assert_eq!(on_disk, whole.records);
        // Deterministic apart from time.
        let again = plan(&whole_dir, None);
        assert!(again.execute(&stop, &|_| {}).is_err(), "refuses to overwrite");
        let again = Plan { force: true, ..again }.execute(&stop, &|_| {}).unwrap();
        assert_eq!(counts(&again.records), counts(&whole.records));

        let shard_dir = tmp("shards");
        for k in 1..=3 {
            let s = Shard { index: k, count: 3 };
            let f = plan(&shard_dir, Some(s)).execute(&stop, &|_| {}).unwrap();
            assert!(f.records.iter().all(|r| s.contains(r.job)));
        }
        assert!(!shard_dir.join("summary.md").exists(), "a shard writes no summary");
        let merged_dir = tmp("merged");
        let (merged, files) = merge_files(std::slice::from_ref(&shard_dir), &merged_dir).unwrap();
        // The counts agree exactly; the measured times of two runs never do,
        // so nothing below compares them: each summary is checked against its
        // own records, and the two summaries against each other with the same
        // injected times.
        assert_eq!(counts(&merged), counts(&whole.records));
        // (`again` rewrote the unsharded directory.)
        for (dir, records) in [(&whole_dir, &again.records), (&merged_dir, &merged)] {
            let on_disk = std::fs::read_to_string(dir.join("summary.md")).unwrap();
            let from_csv = read_csv(&dir.join("results.csv")).unwrap();
            assert_eq!(&from_csv, records);
            assert_eq!(on_disk, summarize(records).markdown("Experiment summary"));
        }
        let (a, b) = (injected_times(&merged), injected_times(&whole.records));
        assert_eq!(summarize(&a), summarize(&b));
        assert_eq!(
            summarize(&a).markdown("Experiment summary"),
            summarize(&b).markdown("Experiment summary")
        );
        assert_eq!(files.len(), whole.files.len());
        for d in [whole_dir, shard_dir, merged_dir] {
            std::fs::remove_dir_all(d).ok();
        }
    }

    /// A shard of another grid is refused in a folder of shards rather than
    /// rewriting its grid.toml; the merge then refuses a folder that lacks
    /// a shard, and a shard whose rows were cut, naming the file.
    #[test]
    fn a_folder_of_shards_holds_one_grid_and_the_merge_checks_it() {
        let stop = AtomicBool::new(false);
        let dir = tmp("one-grid");
        let shard = |k| Some(Shard { index: k, count: 3 });
        for k in 1..=2 {
            plan(&dir, shard(k)).execute(&stop, &|_| {}).unwrap();
        }
        let mut other = plan(&dir, shard(3));
        other.grid.seeds = 4;
        let e = other.execute(&stop, &|_| {}).unwrap_err().to_string();
        assert!(e.contains("grid.toml: the folder holds the results of another grid (its seeds is 3, this run's 4): shard 3/3 would mix with them"), "{e}");
        assert_eq!(
            Grid::from_toml(&std::fs::read_to_string(dir.join("grid.toml")).unwrap()).unwrap(),
            grid()
        );
        let merged = tmp("one-grid-merged");
        let e = merge_files(std::slice::from_ref(&dir), &merged)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "shard 3 of 3 missing");
        plan(&dir, shard(3)).execute(&stop, &|_| {}).unwrap();
        let path = dir.join("results-2-of-3.csv");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(
            &path,
            text.lines().take(11).map(|l| format!("{l}\n")).collect::<String>(),
        )
        .unwrap();
        let e = merge_files(std::slice::from_ref(&dir), &merged)
            .unwrap_err()
            .to_string();
        let owed = grid().job_count() / 3;
        assert_eq!(
            e,
            format!(
                "{}: 10 rows, expected {owed} (cut short? run shard 2 of 3 again)",
                path.display()
            )
        );
        std::fs::remove_dir_all(dir).ok();
        std::fs::remove_dir_all(merged).ok();
    }

    /// A kill, a crash or a full disk in the middle of a write leaves a
    /// torn last line: resuming drops it, says so, runs its job again and
    /// ends with the rows of an uninterrupted run.
    #[test]
    fn a_torn_last_line_is_dropped_and_its_search_run_again() {
        let dir = tmp("torn");
        let stop = AtomicBool::new(false);
        let whole = plan(&dir, None).execute(&stop, &|_| {}).unwrap();
        let path = dir.join("results.csv");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // Keep the header and five whole records, then half of the sixth.
        let sixth = lines[6];
        let torn = format!("{}\n{}", lines[..6].join("\n"), &sixth[..sixth.len() / 2]);
        std::fs::write(&path, &torn).unwrap();
        let p = Plan {
            resume: true,
            ..plan(&dir, None)
        };
        let note = p.repair().unwrap().expect("a torn line is reported");
        assert!(note.contains("dropped a torn last record"), "{note}");
        assert_eq!(p.repair().unwrap(), None, "the file now ends with a whole line");
        assert_eq!(read_csv(&path).unwrap().len(), 5);
        std::fs::write(&path, &torn).unwrap();
        let resumed = p.execute(&stop, &|_| {}).unwrap();
        assert_eq!(resumed.ran, grid().job_count() as usize - 5);
        assert_eq!(counts(&resumed.records), counts(&whole.records));
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn an_interrupted_run_keeps_its_rows_and_resumes() {
        let dir = tmp("resume");
        let stop = AtomicBool::new(false);
        let seen = AtomicUsize::new(0);
        let first = plan(&dir, None)
            .execute(&stop, &|_| {
                if seen.fetch_add(1, Ordering::SeqCst) + 1 >= 10 {
                    stop.store(true, Ordering::SeqCst);
                }
            })
            .unwrap();
        assert!(first.interrupted);
        assert!(first.records.len() >= 10 && first.records.len() < grid().job_count() as usize);
        assert_eq!(read_csv(&dir.join("results.csv")).unwrap().len(), first.records.len());
        assert!(!dir.join("summary.md").exists());
        let stop = AtomicBool::new(false);
        let p = Plan {
            resume: true,
            ..plan(&dir, None)
        };
        let second = p.execute(&stop, &|_| {}).unwrap();
        assert!(!second.interrupted);
        assert_eq!(second.ran + first.records.len(), grid().job_count() as usize);
        let whole = plan(&tmp("resume-ref"), None).execute(&stop, &|_| {}).unwrap();
        assert_eq!(counts(&second.records), counts(&whole.records));
        // Resuming with another grid is refused.
        let mut other = plan(&dir, None);
        other.grid.seeds = 1;
        other.resume = true;
        assert!(other.execute(&stop, &|_| {}).is_err());
        std::fs::remove_dir_all(dir).ok();
        std::fs::remove_dir_all(tmp("resume-ref")).ok();
    }
}
