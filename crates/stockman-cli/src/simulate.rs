//! `stockman simulate`: the parallel searches on P virtual processors
//! (`stockman::simulate`), a row per algorithm and processor count, with
//! speedup and search overhead against one processor.

use crate::input::{random_tree, read_tree};
use crate::runner::parse_role;
use crate::sim_distributed::SimDistributedArgs;
use crate::{Format, Source};
use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;
use std::process::ExitCode;
use stockman::run::{on_stack, stack_bytes, GameKind, GameTask};
use stockman::simulate::{abdada, sss, SimOptions, SimReport, MAX_PROCESSORS};
use stockman::{Algorithm, Game, Playable, Role};

#[derive(Args, Debug)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub source: Source,
    /// With --game: the position (as `solve --position` reads it).
    #[arg(long, value_name = "POSITION", requires = "game", allow_hyphen_values = true)]
    pub position: Option<String>,
    /// The role of the root of a tree file or random tree [default: the
    /// file's `# root:` line or the spec's `root=`, else max; a different
    /// one from those is an error].
    #[arg(long, value_parser = parse_role)]
    pub root: Option<Role>,
    /// Search only this many plies (needed for chess and Othello's openings).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Parallel algorithms: `sss` and `dual` (parallel SSS*/Dual*, P best
    /// states off OPEN each round), `alphabeta`, `mtdf`, `mt-sss`, `mt-dual`
    /// (ABDADA), or `all` (default `sss,alphabeta`); with --distributed, the driver: `mtdf` (the
    /// default), `mtd-bi` or `mt-sss`.
    #[arg(long, value_name = "LIST")]
    pub algo: Option<String>,
    /// Processor counts: `1,2,4`, `1..64` (every count) or `powers` (1, 2, 4, ..., 64).
    #[arg(long, value_name = "LIST", default_value = "powers")]
    pub processors: String,
    /// Stop a simulation after this much work (Gamma steps or nodes).
    #[arg(long, value_name = "N", default_value_t = 100_000_000)]
    pub max_work: u64,
    /// Rounds a remote access costs, for a cluster's memory: under ABDADA
    /// the table is spread over the processors (key k on processor k mod P)
    /// and a visit whose entry is elsewhere waits K rounds; parallel SSS*'s
    /// OPEN lives on processor 0, and a round another processor worked in
    /// lasts K rounds longer. 0: shared memory.
    #[arg(long, value_name = "K", default_value_t = 0, conflicts_with = "distributed")]
    pub table_latency: u64,
    /// ABDADA under iterative deepening (depth 1, 2, ... --depth, one
    /// table, MTD(f) from the previous depth's value), as `solve --iterative`.
    #[arg(long, requires = "depth", conflicts_with = "distributed")]
    pub iterative: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub distributed: SimDistributedArgs,
}

/// One row: an algorithm at one processor count.
#[derive(Serialize)]
struct Row {
    algorithm: &'static str,
    processors: usize,
    value: i32,
    rounds: u64,
    /// Rounds at P = 1 over rounds here.
    speedup: f64,
    work: u64,
    /// Work here over work at P = 1.
    overhead: f64,
    leaf_evals: u64,
    idle: u64,
    /// Processor-rounds spent waiting for remote accesses (--table-latency).
    stalled: u64,
    max_open: u64,
}

/// The simulated algorithms, parsed from `--algo`.
fn algorithms(list: &str) -> Result<Vec<Algorithm>> {
    const ALL: [Algorithm; 6] = [
        Algorithm::Sss,
        Algorithm::Dual,
        Algorithm::AlphaBeta,
        Algorithm::Mtdf,
        Algorithm::MtSss,
        Algorithm::MtDual,
    ];
    if list.trim().eq_ignore_ascii_case("all") {
        return Ok(ALL.to_vec());
    }
    let mut out = Vec::new();
    for a in Algorithm::parse_list(list)? {
        if !ALL.contains(&a) {
            bail!(
                "--algo: {a} has no simulated parallel form (simulated: sss, dual, alphabeta, mtdf, mt-sss, mt-dual)"
            );
        }
        out.push(a);
    }
    Ok(out)
}

/// The processor counts of `--processors`.
fn processor_counts(list: &str) -> Result<Vec<usize>> {
    let t = list.trim();
    let check = |p: usize| -> Result<usize> {
        if (1..=MAX_PROCESSORS).contains(&p) {
            Ok(p)
        } else {
            bail!("--processors: {p} processors: give 1 to {MAX_PROCESSORS}")
        }
    };
    if t == "powers" {
        return Ok((0..=6).map(|k| 1 << k).collect());
    }
    if let Some((a, b)) = t.split_once("..") {
        let a: usize = a
            .trim()
            .parse()
            .with_context(|| format!("--processors `{t}`: not a range like 1..64"))?;
        let b: usize = b
            .trim()
            .parse()
            .with_context(|| format!("--processors `{t}`: not a range like 1..64"))?;
        if a > b {
            bail!("--processors `{t}`: the range is empty");
        }
        return (check(a)?..=check(b)?).map(Ok).collect();
    }
    let mut out = Vec::new();
    for p in t.split(',') {
        let p: usize = p
            .trim()
            .parse()
            .with_context(|| format!("--processors `{t}`: `{}` is not a number of processors", p.trim()))?;
        out.push(check(p)?);
    }
    Ok(out)
}

/// Every row for `game`.
fn simulate<G: Game>(
    game: &G,
    args: &SimulateArgs,
    algos: &[Algorithm],
    counts: &[usize],
    moves_first: bool,
) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    for &algo in algos {
        let run = |p: usize| -> Result<SimReport> {
            let opts = SimOptions {
                processors: p,
                depth: args.depth,
                max_work: args.max_work,
                record_leaves: false,
                table_move_first: moves_first,
                table_latency: args.table_latency,
                iterative: args.iterative,
            };
            let r = match algo {
                Algorithm::Sss => sss::simulate(game, false, &opts),
                Algorithm::Dual => sss::simulate(game, true, &opts),
                _ => abdada::simulate(game, algo, &opts),
            };
            r.with_context(|| format!("{algo} on {p} processors"))
        };
        let one = run(1)?;
        for &p in counts {
            let r = if p == 1 { one.clone() } else { run(p)? };
            rows.push(Row {
                algorithm: algo.name(),
                processors: p,
                value: r.value,
                rounds: r.rounds,
                speedup: r.speedup_over(&one),
                work: r.work,
                overhead: r.overhead_over(&one),
                leaf_evals: r.leaf_evals,
                idle: r.idle,
                stalled: r.stalled,
                max_open: r.max_open,
            });
        }
    }
    Ok(rows)
}

struct OnGame<'a> {
    args: &'a SimulateArgs,
    algos: &'a [Algorithm],
    counts: &'a [usize],
}

impl GameTask for OnGame<'_> {
    type Output = Result<Vec<Row>>;
    fn run<G: Playable + Send + Sync + 'static>(self, game: G) -> Self::Output {
        simulate(&game, self.args, self.algos, self.counts, true)
    }
}

pub fn run(args: SimulateArgs) -> Result<ExitCode> {
    if args.distributed.distributed {
        crate::sim_distributed::run(&args)?;
        return Ok(ExitCode::SUCCESS);
    }
    let algos = algorithms(args.algo.as_deref().unwrap_or("sss,alphabeta"))?;
    let counts = processor_counts(&args.processors)?;
    let rows = if let Some(kind) = args.source.game {
        // A simulation keeps every node it visits: of the games' starts,
        // only tic-tac-toe's is small enough to simulate to the end (an
        // endgame position is, and --max-work bounds it).
        if kind != GameKind::TicTacToe && args.depth.is_none() && args.position.is_none() {
            bail!(
                "simulating {} to the end would keep billions of nodes: give --depth, or an endgame --position",
                kind.name()
            );
        }
        let task = OnGame {
            args: &args,
            algos: &algos,
            counts: &counts,
        };
        let position = args.position.clone().unwrap_or_default();
        let heuristic = args.depth.is_some();
        let depth = u64::from(args.depth.unwrap_or(64));
        on_stack(stack_bytes(depth), || {
            crate::games::with_game(kind, &position, heuristic, task)
        })??
    } else if let Some(path) = &args.source.tree {
        let tree = read_tree(path, args.root)?;
        let height = u64::from(tree.height());
        on_stack(stack_bytes(height), || simulate(&tree, &args, &algos, &counts, false))??
    } else {
        let tree = random_tree(args.source.random_spec()?, args.root)?;
        simulate(&tree, &args, &algos, &counts, false)?
    };
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&rows)?),
        Format::Text => {
            println!(
                "{:10} {:>5} {:>7} {:>12} {:>8} {:>12} {:>8} {:>10} {:>10} {:>10}",
                "algorithm", "P", "value", "rounds", "speedup", "work", "overhead", "leaves", "idle", "stalled"
            );
            for r in &rows {
                println!(
                    "{:10} {:>5} {:>7} {:>12} {:>8.2} {:>12} {:>8.3} {:>10} {:>10} {:>10}",
                    r.algorithm,
                    r.processors,
                    r.value,
                    r.rounds,
                    r.speedup,
                    r.work,
                    r.overhead,
                    r.leaf_evals,
                    r.idle,
                    r.stalled
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
