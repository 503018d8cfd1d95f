//! `stockman experiment`: grids of searches on random trees (CSV, Markdown
//! summary, SVG plots); `stockman experiment merge`: combine shards. Also the
//! page behind `stockman trace --html`. The work is done by `stockman_lab`.

use crate::input::{random_tree, read_tree};
use crate::runner::SearchArgs;
use crate::Source;
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use stockman::{Algorithm, SearchOptions};
use stockman_lab::{grid, Grid, Overrides, Plan, Shard};

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ExperimentArgs {
    #[command(subcommand)]
    pub command: Option<ExperimentCommand>,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Subcommand, Debug)]
pub enum ExperimentCommand {
    /// Combine the results files of shards into one results file, summary and plots.
    Merge(MergeArgs),
    /// The practical-claims report's figures (verdicts, tables) from the committed game grids:
    /// print them, write them into a report's generated blocks, or check that they are there.
    Claims(ClaimsArgs),
}

#[derive(Args, Debug)]
pub struct ClaimsArgs {
    /// The folder holding the game grids (`connect4/results.csv`, `othello/`, `chess/`,
    /// `chess-depth6/`, `checkers/`).
    #[arg(long, value_name = "DIR", default_value = "docs/experiments/games")]
    pub grids: PathBuf,
    /// The random-tree grid of Best Node Search (a folder with its `results.csv`).
    #[arg(long, value_name = "DIR", default_value = "docs/experiments/bns-random")]
    pub random: PathBuf,
    /// The report whose `<!-- begin generated NAME -->` blocks to rewrite (without it, the
    /// blocks are printed).
    #[arg(long, value_name = "FILE")]
    pub doc: Option<PathBuf>,
    /// With --doc: change nothing; exit 1 naming every block that differs from the data.
    #[arg(long, requires = "doc")]
    pub check: bool,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Write results.csv, summary.md and the plots into this directory.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The shards' results files, or directories holding `results-K-of-N.csv` files
    /// (of a random-tree grid or of a game grid).
    #[arg(required = true, value_name = "CSV|DIR")]
    pub inputs: Vec<PathBuf>,
    /// Join separate runs of one game grid instead (other depths or positions, run apart;
    /// a run's folder stands for its results.csv): their rows in the order given, jobs
    /// numbered again; a search given twice is an error.
    #[arg(long)]
    pub join: bool,
}

/// Runs a grid: algorithms x widths x depths x models x orderings x seeds.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// A bundled grid (default when no --config): `default`, `quick`, `wide`; see --list-presets.
    #[arg(long, value_name = "NAME", conflicts_with = "config")]
    pub preset: Option<String>,
    /// A grid in a TOML file (keys: algorithms, widths, depths, models, orders, seeds, seed,
    /// max_nodes, time_limit, bns_guesses, memories, search_threads, parallel).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Replace the grid's algorithms: comma-separated names, or `all`.
    #[arg(long, value_name = "LIST")]
    pub algo: Option<String>,
    /// Replace the widths: `4`, `2,4,8` or `2..8`.
    #[arg(long, value_name = "LIST")]
    pub widths: Option<String>,
    /// Replace the depths: `6`, `2,4,6` or `2..8`.
    #[arg(long, value_name = "LIST")]
    pub depths: Option<String>,
    /// Replace the value models: `iid`, `incremental` or `iid,incremental`.
    #[arg(long, value_name = "LIST")]
    pub models: Option<String>,
    /// Replace the orderings: `random` and/or probabilities of the best child first, e.g. `random,0.9`.
    #[arg(long, value_name = "LIST")]
    pub orders: Option<String>,
    /// Trees (seeds) per combination.
    #[arg(long, value_name = "N")]
    pub seeds: Option<u64>,
    /// The first seed (the trees use SEED, SEED+1, ...).
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,
    /// Stop a search after visiting N positions (recorded as an error row).
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Stop a search after this many seconds (recorded as an error row).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Best Node Search's separation values: `rutko` (his default), `bisect`
    /// (the midpoint of the bounds: ours, for comparison) or `rutko,bisect`
    /// (one row each: `bns`, `bns-bisect`; in a game grid `bns+id`, `bns-bisect+id`).
    #[arg(long, value_name = "LIST")]
    pub bns_guess: Option<String>,
    /// RSEARCH's memories in stored nodes, one row each (`rsearch-mM`):
    /// `0,64,4096` or `A..B`; the report plots its leaves against them.
    #[arg(long, value_name = "LIST")]
    pub memories: Option<String>,
    /// Output directory: results.csv (or results-K-of-N.csv), grid.toml, summary.md, plots.
    #[arg(long, value_name = "DIR", default_value = "experiment")]
    pub out: PathBuf,
    /// Run only the K-th of N disjoint slices of the grid (K from 1), e.g. for a job array;
    /// combine the slices with `stockman experiment merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Worker threads, each running whole searches (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Threads inside each search (1: the exact one-thread counts): the
    /// depth-first algorithms through a shared table as --parallel says,
    /// SSS* and Dual* in rounds; a game grid names such rows `ALGO/HOW-N`
    /// (HOW: abdada, lazy-smp or rounds).
    /// Give --threads 1 with it to keep the searches off each other's cores.
    #[arg(long, value_name = "N", value_parser = crate::runner::parse_threads, allow_negative_numbers = true)]
    pub search_threads: Option<usize>,
    /// How a search's threads share it: `abdada` or `lazy-smp` (with --search-threads).
    #[arg(long, value_name = "HOW", requires = "search_threads")]
    pub parallel: Option<stockman::Parallel>,
    /// Keep the rows of an existing results file and run only the missing searches.
    #[arg(long, conflicts_with = "force")]
    pub resume: bool,
    /// Replace an existing results file.
    #[arg(long)]
    pub force: bool,
    /// Print the grid (as TOML) and its size, and run nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// List the bundled grids.
    #[arg(long)]
    pub list_presets: bool,
    /// A game grid instead of random trees: every algorithm at every depth
    /// (--depths, default 2..6) on every position of --positions.
    #[arg(long, value_parser = crate::games::game_parser(), requires = "positions")]
    pub game: Option<stockman::run::GameKind>,
    /// With --game: the test positions, `position [expected]` lines.
    #[arg(long, value_name = "FILE", requires = "game")]
    pub positions: Option<PathBuf>,
    /// With --game: drive the depth-first algorithms by iterative deepening.
    #[arg(long, requires = "game")]
    pub iterative: bool,
    /// With --game: the transposition table in MiB, or a list of sizes
    /// (`0.25,1,4,16,64`): every search that uses a table runs at each.
    #[arg(long, value_name = "MB[,MB...]", default_value = "64", requires = "game")]
    pub tt_mb: String,
    /// With --game: keep positions at the depth limit out of the
    /// transposition table (as `solve --no-horizon-table`): the MT drivers
    /// then evaluate a leaf again in every pass that reaches it.
    #[arg(long, requires = "game")]
    pub no_horizon_table: bool,
    /// With --game: also compute each position's minimal tree at each depth
    /// (a full minimax; see --minimal-cap) and report leaves relative to it.
    #[arg(long, requires = "game")]
    pub minimal: bool,
    /// With --minimal: give up a position's minimal tree when the full
    /// minimax would visit more than N distinct positions.
    #[arg(long, value_name = "N", default_value_t = 2_000_000, requires = "minimal")]
    pub minimal_cap: u64,
    /// With --minimal: compute the minimal trees at these depths only
    /// (`2..6`; default: every depth of the grid).
    #[arg(long, value_name = "LIST", requires = "minimal")]
    pub minimal_depths: Option<String>,
    #[command(flatten)]
    pub enhance: crate::runner::Enhancements,
}

pub fn run(args: ExperimentArgs) -> Result<ExitCode> {
    match args.command {
        Some(ExperimentCommand::Merge(m)) => merge(m),
        Some(ExperimentCommand::Claims(c)) => claims(c),
        None => experiment(args.run),
    }
}

fn grid_of(a: &RunArgs) -> Result<Grid> {
    let mut g = match &a.config {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            Grid::from_toml(&text).with_context(|| path.display().to_string())?
        }
        None => grid::preset(a.preset.as_deref().unwrap_or("default"))?,
    };
    g.apply(&Overrides {
        algorithms: a.algo.clone(),
        widths: a.widths.clone(),
        depths: a.depths.clone(),
        models: a.models.clone(),
        orders: a.orders.clone(),
        seeds: a.seeds,
        first_seed: a.seed,
        max_nodes: a.max_nodes,
        time_limit: a.time_limit,
        bns_guesses: a.bns_guess.clone(),
        memories: a.memories.clone(),
        search_threads: a.search_threads,
        parallel: a.parallel,
    })?;
    Ok(g)
}

/// `--bns-guess` for a game grid: `rutko`, `bisect` or both.
fn parse_guesses(s: &str) -> Result<Vec<stockman::algorithms::bns::GuessKind>> {
    use stockman::algorithms::bns::GuessKind;
    let mut out = Vec::new();
    for part in s.split(',') {
        let g = match part.trim() {
            "rutko" => GuessKind::Rutko,
            "bisect" => GuessKind::Bisect,
            other => bail!("--bns-guess: `{other}` is not a guess (rutko, bisect)"),
        };
        if !out.contains(&g) {
            out.push(g);
        }
    }
    Ok(out)
}

fn experiment(a: RunArgs) -> Result<ExitCode> {
    if let (Some(game), Some(positions)) = (a.game, a.positions.clone()) {
        if a.resume {
            bail!("--resume is for random-tree grids; a game grid's shards (--shard K/N) run apart instead");
        }
        let algorithms = Algorithm::parse_list(a.algo.as_deref().unwrap_or("negascout,mtdf,mt-sss,bns"))?;
        let depths = grid::parse_numbers(a.depths.as_deref().unwrap_or("2..6"))?;
        return crate::game_grid::run(crate::game_grid::GameGrid {
            game,
            positions,
            algorithms,
            depths,
            iterative: a.iterative,
            tables: crate::game_grid::parse_tables(&a.tt_mb)?,
            table_at_horizon: !a.no_horizon_table,
            enhance: a.enhance.clone(),
            max_nodes: a.max_nodes,
            minimal: a.minimal.then_some(a.minimal_cap),
            minimal_depths: a.minimal_depths.as_deref().map(grid::parse_numbers).transpose()?,
            shard: a.shard,
            out: a.out.clone(),
            force: a.force,
            dry_run: a.dry_run,
            search_threads: a.search_threads.unwrap_or(1),
            parallel: a.parallel.unwrap_or_default(),
            bns_guesses: parse_guesses(a.bns_guess.as_deref().unwrap_or("rutko"))?,
        });
    }
    if a.list_presets {
        for p in grid::PRESETS {
            println!("{:8} {}", p.name, p.about);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let grid = grid_of(&a)?;
    let plan = Plan {
        grid,
        shard: a.shard,
        out: a.out.clone(),
        threads: a.threads,
        resume: a.resume,
        force: a.force,
    };
    if a.dry_run {
        print!("{}", plan.grid.to_toml());
        println!(
            "# {} searches in the grid, {} in this run",
            plan.grid.job_count(),
            plan.jobs().len()
        );
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(note) = plan.repair()? {
        eprintln!("note: {note}");
    }
    let (todo, old) = plan.prepare()?;
    let total = todo.len() as u64;

    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            // Wait for a row being written, then leave at once.
            let _guard = stockman_lab::record::OUTPUT_LOCK.lock();
            eprintln!("\ninterrupted again: stopping now; the finished rows are in the results file");
            std::process::exit(130);
        }
        eprintln!("\ninterrupted: finishing the running searches (Ctrl-C again to stop at once)");
    })
    .context("cannot install the Ctrl-C handler")?;

    let bar = if std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new(total);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{wide_bar}] {pos}/{len} searches, {eta} left  {msg}",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let done = plan.execute_prepared(todo, old, &stop, &|r| {
        bar.set_message(format!("{} d={} {}", r.algorithm, r.depth, r.model));
        bar.inc(1);
    })?;
    bar.finish_and_clear();

    if done.interrupted {
        eprintln!(
            "interrupted after {} of {} searches; the rows are in {}; run the same command with --resume to finish",
            done.records.len(),
            done.planned,
            plan.results_path().display()
        );
        return Ok(ExitCode::from(130));
    }
    report(&done.records, &done.files);
    if let Some(s) = plan.shard {
        println!(
            "shard {s} done; when every shard is, combine them with\n  stockman experiment merge --out {} {}",
            plan.out.display(),
            plan.out.join(format!("results-*-of-{}.csv", s.count)).display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn report(records: &[stockman_lab::Record], files: &[PathBuf]) {
    let s = stockman_lab::summarize(records);
    println!("{} searches on {} trees", s.searches, s.trees);
    if s.errors > 0 {
        println!("{} searches stopped at a limit", s.errors);
    }
    for c in &s.claims {
        let verdict = if c.held == c.trees { "holds" } else { "FAILS" };
        println!("  {verdict} on {}/{} trees: {}", c.held, c.trees, c.claim);
    }
    for f in files {
        println!("wrote {}", f.display());
    }
}

fn merge(m: MergeArgs) -> Result<ExitCode> {
    let files = if m.join {
        m.inputs.clone()
    } else {
        stockman_lab::run::shard_files(&m.inputs)?
    };
    if m.join || files.iter().any(|f| stockman_lab::games::is_game_csv(f)) {
        // A game grid's shards, or separate runs of one.
        let (records, written) = if m.join {
            stockman_lab::games::join_files(&files, &m.out)?
        } else {
            stockman_lab::games::merge_files(&files, &m.out)?
        };
        let s = stockman_lab::games::summarize(&records);
        print!("{}", s.markdown());
        for f in written {
            println!("wrote {}", f.display());
        }
        if !s.disagreements.is_empty() {
            for d in &s.disagreements {
                eprintln!("error: {d}");
            }
            return Ok(ExitCode::from(1));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let (records, files) = stockman_lab::merge_files(&files, &m.out)?;
    report(&records, &files);
    Ok(ExitCode::SUCCESS)
}

fn claims(c: ClaimsArgs) -> Result<ExitCode> {
    // The document first: a wrong path is named before the grids are read.
    let text = match &c.doc {
        Some(doc) => Some(std::fs::read_to_string(doc).with_context(|| format!("reading {}", doc.display()))?),
        None => None,
    };
    let blocks = stockman_lab::games::claims::report_blocks_with_random(&c.grids, &c.random)?;
    let (Some(doc), Some(text)) = (c.doc, text) else {
        for (name, text) in &blocks {
            println!("<!-- begin generated {name} -->\n{text}<!-- end generated {name} -->\n");
        }
        return Ok(ExitCode::SUCCESS);
    };
    let (new, changed) = stockman_lab::games::claims::fill_blocks(&text, &blocks)
        .map_err(|e| anyhow::anyhow!("{}: {e}", doc.display()))?;
    if c.check {
        if changed.is_empty() {
            println!("{}: every generated block matches the data", doc.display());
            return Ok(ExitCode::SUCCESS);
        }
        eprintln!(
            "error: {}: these generated blocks differ from the data: {} (run `stockman experiment claims --doc {}`)",
            doc.display(),
            changed.join(", "),
            doc.display()
        );
        return Ok(ExitCode::from(1));
    }
    if new != text {
        std::fs::write(&doc, new).with_context(|| format!("writing {}", doc.display()))?;
    }
    println!("{}: {} blocks rewritten", doc.display(), changed.len());
    Ok(ExitCode::SUCCESS)
}

/// `stockman trace --html FILE`: writes the step-by-step page of one search.
pub fn trace_html(
    source: &Source,
    search: &SearchArgs,
    algos: &[Algorithm],
    opts: &SearchOptions,
    file: &Path,
) -> Result<ExitCode> {
    let names = algos.iter().map(|a| a.name()).collect::<Vec<_>>().join(", ");
    // One search: the step-by-step page; several: the comparison page.
    let page = if let Some(path) = &source.tree {
        let tree = read_tree(path, search.root)?;
        let title = format!("{names} on {}", path.display());
        match algos {
            [algo] => stockman_lab::html::page(&tree, *algo, opts, &title)?,
            _ => stockman_lab::html::compare_page(&tree, algos, opts, &title)?,
        }
    } else if let Some(spec) = &source.random {
        let tree = random_tree(spec, search.root)?;
        let title = format!("{names} on the random tree {}", tree.spec());
        match algos {
            [algo] => stockman_lab::html::page(&tree, *algo, opts, &title)?,
            _ => stockman_lab::html::compare_page(&tree, algos, opts, &title)?,
        }
    } else {
        bail!("--html draws tree files and random trees (--tree or --random)");
    };
    std::fs::write(file, page).with_context(|| format!("cannot write {}", file.display()))?;
    eprintln!("wrote {}", file.display());
    Ok(ExitCode::SUCCESS)
}
