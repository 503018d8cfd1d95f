//! `solve --distributed`: each position searched by every rank together
//! (TDSAB, `stockman::drivers::tdsab`): the ranks of an MPI job
//! (`mpirun -np N stockman solve --distributed ...`, in a build with the
//! `mpi` feature), or `--ranks N` threads of this process. Every rank reads
//! the same arguments and files; rank 0 prints.

use crate::games::move_json;
use crate::input::{random_tree, read_tree};
use crate::solve::SolveArgs;
use crate::Format;
use anyhow::{anyhow, bail, Result};
use clap::Args;
use serde_json::json;
use std::process::ExitCode;
use stockman::drivers::tdsab::{self, Distributed, LocalWorld, Scheme, TdsabOptions};
use stockman::games::positions::parse_positions;
use stockman::run::{on_stack, stack_bytes, with_game, GameTask, SourceKind};
use stockman::{Algorithm, Game, Playable, TableSize};

/// The flags of a distributed search.
#[derive(Args, Debug, Default)]
pub struct DistributedArgs {
    /// Search each position with every rank of an MPI job (`mpirun -np N stockman solve
    /// --distributed ...`, a build with `--features mpi`), or with --ranks N, N ranks as threads
    /// of this process; the ranks share the work and the table by transposition-driven scheduling
    /// (TDSAB) under --algo mtdf (the default), mtd-bi or mt-sss.
    #[arg(long)]
    pub distributed: bool,
    /// With --distributed: N ranks as threads of this process instead of an MPI job's.
    #[arg(long, value_name = "N", requires = "distributed")]
    pub ranks: Option<usize>,
    /// With --distributed: how many plies from the root are spread over the ranks (default 4, at
    /// most 64: a message carries its position's path); a position below is searched by its home
    /// rank alone.
    #[arg(long, value_name = "PLIES", requires = "distributed")]
    pub spread: Option<u32>,
    /// With --distributed: how the ranks share a position: tdsab (the default) or root-split (the
    /// eldest root move solved first, the other root moves tested by free ranks against the best
    /// value so far, each rank with its own table: the simplest scheme, to measure TDSAB against).
    #[arg(long, value_name = "SCHEME", requires = "distributed")]
    pub scheme: Option<Scheme>,
}

/// The ranks a search runs on.
enum World {
    /// Threads of this process.
    Threads(usize),
    /// This process's MPI job.
    #[cfg(feature = "mpi")]
    Mpi(mpi_world::MpiWorld),
}

impl World {
    fn rank(&self) -> usize {
        match self {
            World::Threads(_) => 0,
            #[cfg(feature = "mpi")]
            World::Mpi(w) => stockman::drivers::tdsab::Transport::rank(w),
        }
    }

    /// Searches `game` (the `epoch`-th position of the run) on every rank:
    /// rank 0's answer, `None` on the others.
    fn search<G: Game + Sync>(
        &mut self,
        game: &G,
        opts: &TdsabOptions,
        epoch: u32,
    ) -> Result<Option<Distributed>, stockman::SearchError> {
        match self {
            // One process: every position starts its ranks afresh (epoch 0).
            World::Threads(n) => {
                let _ = epoch;
                LocalWorld::run(*n, game, opts).map(Some)
            }
            #[cfg(feature = "mpi")]
            World::Mpi(w) => tdsab::search(game, opts, w, epoch),
        }
    }
}

/// The most ranks `--ranks` starts as threads.
const MAX_RANKS: usize = 256;

/// The MT driver of `--algo` for a distributed search (`solve --distributed`
/// and `simulate --distributed`): MTD(f) when none is given.
pub fn driver(algo: Option<&str>) -> Result<Algorithm> {
    let Some(name) = algo else {
        return Ok(Algorithm::Mtdf);
    };
    let a: Algorithm = name.parse().map_err(|e| anyhow!("--algo: {e}"))?;
    if !TdsabOptions::drives(a) {
        bail!("--algo {name}: a distributed search runs the passes of one of mtdf, mtd-bi and mt-sss");
    }
    Ok(a)
}

/// `solve --distributed`.
pub fn run(args: &SolveArgs) -> Result<ExitCode> {
    let d = &args.distributed;
    let s = &args.search;
    let algorithm = driver(s.algo.as_deref())?;
    for (given, flag) in [
        (s.iterative, "--iterative"),
        (s.max_nodes.is_some(), "--max-nodes"),
        (s.time_limit.is_some(), "--time-limit"),
        (s.threads > 1, "--threads"),
        (args.leaves, "--leaves"),
        (args.shard.is_some(), "--shard"),
        (s.enhance.presearch.is_some(), "--presearch"),
    ] {
        if given {
            bail!(
                "{flag} does not apply to --distributed (a rank searches on one thread, to the depth, without limits)"
            );
        }
    }
    let scheme = d.scheme.unwrap_or_default();
    if scheme == Scheme::RootSplit && d.spread.is_some() {
        bail!("--spread applies to --scheme tdsab (root-split spreads the root's moves only)");
    }
    let mut world = match d.ranks {
        Some(n) if !(1..=MAX_RANKS).contains(&n) => bail!("--ranks {n}: give 1 to {MAX_RANKS} ranks"),
        Some(n) => World::Threads(n),
        None => mpi_world()?,
    };
    let table = TableSize::Megabytes(s.tt_mb.unwrap_or(stockman::run::DEFAULT_GAME_TABLE_MB));
    table.check().map_err(|e| anyhow!("--tt-mb: {e}"))?;
    // The game's best settings for the sequential tests, as `solve` takes them.
    let kind = args.source.game.map_or(SourceKind::Tree, SourceKind::Game);
    let enhancements = s.request(kind, false)?.options.enhancements;
    let opts = TdsabOptions {
        scheme,
        algorithm,
        depth: s.depth,
        spread: d.spread.unwrap_or(4),
        table,
        first_guess: s.first_guess,
        enhancements,
        // Games: to the end, with room as `solve` gives (chess's quiescence).
        max_plies: Some(400),
    };
    // The library's bounds (the spread's, which bounds every message), as
    // every front end gets them, before any rank searches.
    opts.check().map_err(|e| anyhow!("--spread: {e}"))?;
    let format = args.format;
    // JSON: an array of the row, as `solve` prints; a batch, a line per position.
    let batch = args.positions.is_some();
    let mut out = Printer {
        format,
        lead: world.rank() == 0,
        batch,
    };
    if let Some(kind) = args.source.game {
        let positions: Vec<(usize, String, Option<i32>)> = match &args.positions {
            Some(path) => {
                let text = crate::games::read_text_of(path, "positions")?;
                parse_positions(&text)
                    .map_err(|e| anyhow!("{}:{}:{}: {}", path.display(), e.line, e.column, e.message))?
                    .into_iter()
                    .map(|l| (l.line, l.position, l.expected))
                    .collect()
            }
            None => vec![(0, args.position.clone().unwrap_or_default(), None)],
        };
        // Every position is read before any is searched: a bad line is
        // refused with its place, not after hours of the lines above it.
        struct Check;
        impl GameTask for Check {
            type Output = ();
            fn run<G: Playable + Send + Sync + 'static>(self, _: G) {}
        }
        for (line, position, _) in &positions {
            with_game(kind, position, opts.depth.is_some(), Check).map_err(|e| match &args.positions {
                Some(path) => anyhow!("{}:{line}: {e}", path.display()),
                None => anyhow!("{e}"),
            })?;
        }
        let mut wrong = 0;
        for (epoch, (line, position, expected)) in positions.iter().enumerate() {
            let task = Solve {
                world: &mut world,
                opts: &opts,
                epoch: epoch as u32,
            };
            let Some((value, best, d)) = with_game(kind, position, opts.depth.is_some(), task)?? else {
                continue;
            };
            let exact = opts.depth.is_none();
            if exact && expected.is_some_and(|e| e != value) {
                wrong += 1;
            }
            let mut row = row(algorithm, &opts, value, best, &d);
            if args.positions.is_some() {
                row["line"] = json!(line);
                row["position"] = json!(position);
                row["expected"] = json!(expected);
            }
            out.print(&row, &format!("{position} "))?;
        }
        if wrong > 0 {
            eprintln!("error: {wrong} position(s) solved to a value other than the file's");
            return Ok(ExitCode::from(1));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let answer = if let Some(path) = &args.source.tree {
        let tree = read_tree(path, s.root)?;
        let opts = TdsabOptions {
            max_plies: Some(tree.height()),
            ..opts
        };
        let height = u64::from(tree.height());
        on_stack(stack_bytes(height), || world.search(&tree, &opts, 0))?
    } else {
        let tree = random_tree(args.source.random_spec()?, s.root)?;
        let opts = TdsabOptions {
            max_plies: Some(tree.spec().depth),
            ..opts
        };
        let depth = u64::from(tree.spec().depth);
        on_stack(stack_bytes(depth), || world.search(&tree, &opts, 0))?
    };
    if let Some(d) = answer? {
        let best = d.best_index.map(|i| json!(i));
        out.print(&row(algorithm, &opts, d.value, best, &d), "")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One position of a game, searched by every rank: (value, best move, report) on rank 0.
struct Solve<'a> {
    world: &'a mut World,
    opts: &'a TdsabOptions,
    epoch: u32,
}

type Answer = Option<(i32, Option<serde_json::Value>, Distributed)>;

impl GameTask for Solve<'_> {
    type Output = Result<Answer>;
    fn run<G: Playable + Send + Sync + 'static>(self, game: G) -> Result<Answer> {
        let depth = u64::from(self.opts.depth.unwrap_or(200)) + 200;
        let world = self.world;
        let (opts, epoch) = (self.opts, self.epoch);
        let got = on_stack(stack_bytes(depth), || world.search(&game, opts, epoch))??;
        Ok(got.map(|d| {
            let best = d.best_index.map(|i| {
                let mut moves = Vec::new();
                game.moves(&game.root(), &mut moves);
                move_json(&game, &moves[i])
            });
            (d.value, best, d)
        }))
    }
}

/// The JSON row of a distributed search: `solve`'s fields and what the ranks did.
fn row(
    algorithm: Algorithm,
    opts: &TdsabOptions,
    value: i32,
    best: Option<serde_json::Value>,
    d: &Distributed,
) -> serde_json::Value {
    let per_rank: Vec<_> = d
        .ranks
        .iter()
        .map(|r| {
            json!({
                "rank": r.rank, "messages": r.messages, "bytes": r.bytes, "kept": r.kept,
                "frames": r.frames, "joined": r.joined, "idle_us": r.idle_us, "table_bytes": r.table_bytes,
                "nodes": r.stats.nodes, "leaf_evals": r.stats.leaf_evals, "time_us": r.stats.time_us,
            })
        })
        .collect();
    let sum = |f: fn(&tdsab::RankReport) -> u64| d.ranks.iter().map(f).sum::<u64>();
    let mut stats = d.stats();
    stats.time_us = d.ranks.first().map_or(0, |r| r.stats.time_us);
    json!({
        "algorithm": algorithm.name(),
        "value": value,
        "best_move": best,
        "stats": stats,
        "distributed": {
            "scheme": opts.scheme.name(),
            "ranks": d.ranks.len(),
            "spread": (opts.scheme == Scheme::Tdsab).then_some(opts.spread),
            "messages": sum(|r| r.messages),
            "bytes": sum(|r| r.bytes),
            "idle_us": sum(|r| r.idle_us),
            "per_rank": per_rank,
        },
    })
}

struct Printer {
    format: Format,
    /// Rank 0 prints; the others stay quiet.
    lead: bool,
    /// A batch's rows are JSON lines (with `line` and `position`).
    batch: bool,
}

impl Printer {
    fn print(&mut self, row: &serde_json::Value, prefix: &str) -> Result<()> {
        if !self.lead {
            return Ok(());
        }
        match self.format {
            Format::Json if self.batch => println!("{}", serde_json::to_string(row)?),
            Format::Json => println!("{}", serde_json::to_string(&[row])?),
            Format::Text => {
                let dist = &row["distributed"];
                println!(
                    "{prefix}{} ({}): value {}, best move {}, {} passes, {} positions on {} ranks, {} messages ({} bytes)",
                    row["algorithm"].as_str().unwrap_or(""),
                    dist["scheme"].as_str().unwrap_or(""),
                    row["value"],
                    row["best_move"],
                    row["stats"]["passes"],
                    row["stats"]["nodes"],
                    dist["ranks"],
                    dist["messages"],
                    dist["bytes"],
                );
            }
        }
        Ok(())
    }
}

#[cfg(not(feature = "mpi"))]
fn mpi_world() -> Result<World> {
    bail!(
        "--distributed: this stockman was built without MPI; build it with `cargo build --release -p stockman-cli \
         --features mpi` (OpenMPI's libopenmpi-dev and libclang-dev) and run it under mpirun, or give --ranks N \
         for N ranks as threads of this process"
    )
}

#[cfg(feature = "mpi")]
fn mpi_world() -> Result<World> {
    mpi_world::MpiWorld::new().map(World::Mpi)
}

#[cfg(feature = "mpi")]
mod mpi_world {
    //! The ranks of an MPI job, through the `mpi` crate.
    //!
    //! Sends are immediate (`MPI_Isend`): a send returns at once, its bytes
    //! kept until MPI says it completed, and every receive (and the world's
    //! close) first moves the pending sends on. A blocking `MPI_Send` of a
    //! message past the eager limit waits for its receiver, and two ranks
    //! that send each other one wait for each other forever; MPI does not
    //! promise any message goes eagerly. (A search's messages are small by
    //! design too: at most `tdsab::MAX_MESSAGE_BYTES`.)

    use anyhow::{anyhow, bail, Result};
    use mpi::environment::Threading;
    use mpi::point_to_point::MatchedReceiveVec;
    use mpi::request::{Request, StaticScope};
    use mpi::traits::*;
    use std::time::{Duration, Instant};
    use stockman::drivers::tdsab::{Transport, TransportError, MAX_MESSAGE_BYTES};

    /// A send MPI has not completed, and the bytes it reads (leaked from a
    /// box for the request's `'static` borrow, freed once it completes).
    type Pending = Request<'static, [u8], StaticScope>;

    /// How long the world's close waits for the other ranks to take in its
    /// last messages (and to reach the close) before it stops the job.
    const CLOSE_WAIT: Duration = Duration::from_secs(60);

    /// MPI's world communicator, initialised once per process.
    pub struct MpiWorld {
        world: mpi::topology::SimpleCommunicator,
        /// Sends not yet complete: completed before MPI is finalised.
        pending: Vec<Pending>,
        _universe: mpi::environment::Universe,
    }

    // SAFETY: MPI is initialised at the `Serialized` level (checked in
    // `new`): any thread may call it, one at a time. The world moves to the
    // thread that searches (a stack sized to the search) while the main
    // thread waits for it, so no two threads ever call MPI together; the
    // pending requests and their buffers go with it.
    unsafe impl Send for MpiWorld {}

    impl MpiWorld {
        pub fn new() -> Result<MpiWorld> {
            let (universe, level) = mpi::initialize_with_threading(Threading::Serialized)
                .ok_or_else(|| anyhow!("--distributed: MPI was initialised already"))?;
            if level < Threading::Serialized {
                bail!("--distributed: this MPI gives threading level {level:?}; stockman needs Serialized");
            }
            let world = universe.world();
            Ok(MpiWorld {
                world,
                pending: Vec::new(),
                _universe: universe,
            })
        }

        /// Moves every pending send on, freeing the bytes of those done.
        fn progress(&mut self) {
            for request in std::mem::take(&mut self.pending) {
                match request.test_with_data() {
                    // SAFETY: the bytes were leaked from a `Box<[u8]>` in
                    // `send` and MPI is done with them; nothing else holds them.
                    Ok((_, bytes)) => drop(unsafe { Box::from_raw(bytes as *const [u8] as *mut [u8]) }),
                    Err(request) => self.pending.push(request),
                }
            }
        }

        /// The next message waiting, received (or `None`).
        fn take(&mut self) -> Result<Option<(usize, Vec<u8>)>, TransportError> {
            let Some((msg, status)) = self.world.any_process().immediate_matched_probe() else {
                return Ok(None);
            };
            let from = status.source_rank() as usize;
            let len = status.count(u8::equivalent_datatype());
            let (bytes, _) = (msg, status).matched_receive_vec::<u8>();
            if bytes.len() > MAX_MESSAGE_BYTES {
                return Err(TransportError(format!(
                    "rank {}: a message of {len} bytes from rank {from} is over the {MAX_MESSAGE_BYTES} a search's \
                     message takes (do the ranks run the same stockman?)",
                    self.world.rank()
                )));
            }
            Ok(Some((from, bytes)))
        }
    }

    impl Transport for MpiWorld {
        fn rank(&self) -> usize {
            self.world.rank() as usize
        }
        fn ranks(&self) -> usize {
            self.world.size() as usize
        }
        fn send(&mut self, to: usize, bytes: &[u8]) -> Result<(), TransportError> {
            if bytes.len() > MAX_MESSAGE_BYTES {
                return Err(TransportError(format!(
                    "rank {}: a message of {} bytes is over the {MAX_MESSAGE_BYTES} a message may take",
                    self.world.rank(),
                    bytes.len()
                )));
            }
            let kept: &'static [u8] = Box::leak(bytes.to_vec().into_boxed_slice());
            let request = self.world.process_at_rank(to as i32).immediate_send(StaticScope, kept);
            self.pending.push(request);
            self.progress();
            Ok(())
        }
        fn recv(&mut self, wait: Duration) -> Result<Option<(usize, Vec<u8>)>, TransportError> {
            let start = Instant::now();
            let mut pause = Duration::from_micros(1);
            loop {
                // Sends move on while this rank waits: a large one
                // completes once its receiver takes it, whoever sends.
                self.progress();
                if let Some(got) = self.take()? {
                    return Ok(Some(got));
                }
                if start.elapsed() >= wait {
                    return Ok(None);
                }
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_micros(200));
            }
        }
    }

    impl Drop for MpiWorld {
        /// Completes this rank's sends before MPI is finalised, taking in
        /// (and dropping: every search is over) what the others still send,
        /// until every rank is here (a non-blocking barrier, entered once
        /// this rank's sends are done), so that no rank waits on another's
        /// last message.
        fn drop(&mut self) {
            let start = Instant::now();
            let mut barrier: Option<Request<'static, ()>> = None;
            loop {
                self.progress();
                while let Ok(Some(_)) = self.take() {}
                if barrier.is_none() && self.pending.is_empty() {
                    barrier = Some(self.world.immediate_barrier());
                }
                if let Some(b) = barrier.take() {
                    match b.test() {
                        Ok(_) => return,
                        Err(b) => barrier = Some(b),
                    }
                }
                if start.elapsed() > CLOSE_WAIT {
                    eprintln!(
                        "error: rank {}: the other ranks did not finish in {} s ({} message(s) not delivered): \
                         stopping the job",
                        self.world.rank(),
                        CLOSE_WAIT.as_secs(),
                        self.pending.len()
                    );
                    self.world.abort(3);
                }
                std::thread::sleep(Duration::from_micros(100));
            }
        }
    }
}
