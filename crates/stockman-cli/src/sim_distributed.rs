//! `stockman simulate --distributed`: the distributed schemes' own code on
//! simulated ranks (`stockman::simulate::distributed`), a row per scheme
//! and rank count, with the forecast time, speed-up and overhead against
//! one process charged at the same cost per position.

use crate::input::{random_tree, read_tree};
use crate::simulate::SimulateArgs;
use crate::Format;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use serde::Serialize;
use stockman::drivers::tdsab::{Scheme, TdsabOptions};
use stockman::run::{on_stack, stack_bytes, GameTask, Settings, SourceKind};
use stockman::simulate::distributed::{self, NetCost};
use stockman::{Algorithm, Game, Limits, Playable, SearchOptions, TableSize};

/// The flags of `simulate --distributed`.
#[derive(Args, Debug, Default)]
pub struct SimDistributedArgs {
    /// Forecast a distributed search (`solve --distributed`) on simulated ranks: the schemes' own
    /// code, each rank charged --node-ns per position and --overhead-ns per message, each message
    /// arriving --latency-us after it is sent.
    #[arg(long)]
    pub distributed: bool,
    /// With --distributed: the schemes, `tdsab`, `root-split` or both (comma-separated).
    #[arg(
        long,
        value_name = "LIST",
        default_value = "tdsab,root-split",
        requires = "distributed"
    )]
    pub schemes: String,
    /// With --distributed: the rank counts, comma-separated (1 to 1024).
    #[arg(
        long,
        value_name = "LIST",
        default_value = "1,2,4,16,64,256",
        requires = "distributed"
    )]
    pub ranks: String,
    /// With --distributed: microseconds from a message's send to its arrival.
    #[arg(
        long,
        value_name = "US",
        default_value_t = 5.0,
        requires = "distributed",
        allow_hyphen_values = true
    )]
    pub latency_us: f64,
    /// With --distributed: nanoseconds a rank spends per position expanded or leaf evaluated.
    #[arg(long, value_name = "NS", default_value_t = 1000, requires = "distributed")]
    pub node_ns: u64,
    /// With --distributed: nanoseconds a rank spends to send a message, and to take one in.
    #[arg(long, value_name = "NS", default_value_t = 1000, requires = "distributed")]
    pub overhead_ns: u64,
    /// With --distributed: TDSAB's spread (as `solve --spread`: at most 64).
    #[arg(long, value_name = "PLIES", default_value_t = 4, requires = "distributed")]
    pub spread: u32,
    /// With --distributed: each rank's table in MiB.
    #[arg(long, value_name = "MB", default_value_t = 16, requires = "distributed")]
    pub tt_mb: usize,
}

/// The most ranks simulated.
const MAX_RANKS: usize = 1024;

/// One row: a scheme on a rank count (or the one-process baseline).
#[derive(Serialize)]
struct Row {
    scheme: &'static str,
    ranks: usize,
    value: i32,
    best_index: Option<usize>,
    /// The forecast time of the search, in microseconds.
    time_us: f64,
    /// One process's time over this one's.
    speedup: f64,
    /// Positions expanded and leaves evaluated, by all ranks.
    work: u64,
    /// This work over one process's.
    overhead: f64,
    messages: u64,
    bytes: u64,
    /// The ranks' idle time over their time together (ranks x time).
    idle: f64,
    /// The bytes the ranks' tables held at the end, together (each grows
    /// on demand up to --tt-mb); 0 for one process's row.
    table_bytes: u64,
}

fn parse_ranks(list: &str) -> Result<Vec<usize>> {
    list.split(',')
        .map(|p| {
            let n: usize = p
                .trim()
                .parse()
                .with_context(|| format!("--ranks `{list}`: `{}` is not a number of ranks", p.trim()))?;
            if !(1..=MAX_RANKS).contains(&n) {
                bail!("--ranks: {n} ranks: give 1 to {MAX_RANKS}");
            }
            Ok(n)
        })
        .collect()
}

fn parse_schemes(list: &str) -> Result<Vec<Scheme>> {
    list.split(',')
        .map(|s| s.trim().parse::<Scheme>().map_err(|e| anyhow!("--schemes: {e}")))
        .collect()
}

/// Every row for `game`.
fn forecast<G: Game + Sync>(
    game: &G,
    args: &SimulateArgs,
    algorithm: Algorithm,
    max_plies: Option<u32>,
    kind: SourceKind,
) -> Result<Vec<Row>> {
    let d = &args.distributed;
    // The game's best settings, as `solve` and `solve --distributed` take them.
    let settings = Settings {
        depth: args.depth,
        ..Settings::default()
    };
    let enhancements = settings.request(kind)?.options.enhancements;
    let (schemes, counts) = (parse_schemes(&d.schemes)?, parse_ranks(&d.ranks)?);
    let table = TableSize::Megabytes(d.tt_mb);
    table.check().map_err(|e| anyhow!("--tt-mb: {e}"))?;
    if !d.latency_us.is_finite() || d.latency_us < 0.0 {
        bail!(
            "--latency-us {}: give a latency of 0 or more microseconds",
            d.latency_us
        );
    }
    // The float saturates into u64; the library's one range check refuses it.
    let cost = NetCost {
        node_ns: d.node_ns,
        latency_ns: (d.latency_us * 1000.0).round() as u64,
        overhead_ns: d.overhead_ns,
    };
    cost.check()
        .map_err(|e| anyhow!("--node-ns, --latency-us, --overhead-ns: {e}"))?;
    let opts = SearchOptions {
        limits: Limits {
            depth: args.depth,
            ..Limits::default()
        },
        table,
        enhancements,
        ..SearchOptions::default()
    };
    // The library's bounds on the options, before the baseline is searched.
    TdsabOptions {
        spread: d.spread,
        algorithm,
        ..TdsabOptions::default()
    }
    .check()
    .map_err(|e| anyhow!("--spread: {e}"))?;
    let (one, work) = distributed::sequential(algorithm, game, &opts)?;
    let one_ns = work.saturating_mul(cost.node_ns).max(1) as f64;
    let mut rows = vec![Row {
        scheme: "one process",
        ranks: 1,
        value: one.value.unwrap_or_default(),
        best_index: one.best_index,
        time_us: one_ns / 1000.0,
        speedup: 1.0,
        work,
        overhead: 1.0,
        messages: 0,
        bytes: 0,
        idle: 0.0,
        table_bytes: 0,
    }];
    for scheme in schemes {
        for &n in &counts {
            let topts = TdsabOptions {
                scheme,
                algorithm,
                depth: args.depth,
                spread: d.spread,
                table,
                max_plies,
                enhancements,
                ..TdsabOptions::default()
            };
            let r = distributed::simulate(n, game, &topts, cost).with_context(|| format!("{scheme} on {n} ranks"))?;
            let span = r.makespan_ns.max(1) as f64;
            rows.push(Row {
                scheme: scheme.name(),
                ranks: n,
                value: r.value,
                best_index: r.best_index,
                time_us: span / 1000.0,
                speedup: one_ns / span,
                work: r.work(),
                overhead: r.work() as f64 / work.max(1) as f64,
                messages: r.messages(),
                bytes: r.ranks.iter().map(|x| x.bytes).sum(),
                idle: r.ranks.iter().map(|x| x.idle_ns).sum::<u64>() as f64 / (span * n as f64),
                table_bytes: r.ranks.iter().map(|x| x.table_bytes).sum(),
            });
        }
    }
    Ok(rows)
}

struct OnGame<'a> {
    args: &'a SimulateArgs,
    algorithm: Algorithm,
    kind: SourceKind,
}

impl GameTask for OnGame<'_> {
    type Output = Result<Vec<Row>>;
    fn run<G: Playable + Send + Sync + 'static>(self, game: G) -> Self::Output {
        forecast(&game, self.args, self.algorithm, Some(400), self.kind)
    }
}

/// `simulate --distributed`.
pub fn run(args: &SimulateArgs) -> Result<()> {
    let algorithm = crate::distributed::driver(args.algo.as_deref())?;
    let rows = if let Some(kind) = args.source.game {
        let task = OnGame {
            args,
            algorithm,
            kind: SourceKind::Game(kind),
        };
        let position = args.position.clone().unwrap_or_default();
        let depth = u64::from(args.depth.unwrap_or(200)) + 200;
        on_stack(stack_bytes(depth), || {
            crate::games::with_game(kind, &position, args.depth.is_some(), task)
        })??
    } else if let Some(path) = &args.source.tree {
        let tree = read_tree(path, args.root)?;
        let height = tree.height();
        on_stack(stack_bytes(u64::from(height)), || {
            forecast(&tree, args, algorithm, Some(height), SourceKind::Tree)
        })??
    } else {
        let tree = random_tree(args.source.random_spec()?, args.root)?;
        let depth = tree.spec().depth;
        on_stack(stack_bytes(u64::from(depth)), || {
            forecast(&tree, args, algorithm, Some(depth), SourceKind::Tree)
        })??
    };
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&rows)?),
        Format::Text => {
            println!(
                "{:12} {:>5} {:>7} {:>5} {:>12} {:>8} {:>12} {:>8} {:>9} {:>6}",
                "scheme", "ranks", "value", "best", "time us", "speedup", "work", "overhead", "messages", "idle"
            );
            for r in &rows {
                let best = r.best_index.map_or("-".to_string(), |b| b.to_string());
                println!(
                    "{:12} {:>5} {:>7} {:>5} {:>12.0} {:>8.2} {:>12} {:>8.3} {:>9} {:>6.3}",
                    r.scheme, r.ranks, r.value, best, r.time_us, r.speedup, r.work, r.overhead, r.messages, r.idle
                );
            }
        }
    }
    Ok(())
}
