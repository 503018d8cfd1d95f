//! `stockman solve`: one row per algorithm.

use crate::input::{random_tree, read_tree};
use crate::runner::{exit_code, print_rows, rows, SearchArgs};
use crate::{Format, Source};
use anyhow::Result;
use clap::Args;
use std::process::ExitCode;
use stockman::run::{on_stack, stack_bytes, Runner, SourceKind};
#[derive(Args, Debug)]
// A source is required, unless `--merge` reads shards' outputs instead (checked in `run`).
#[command(mut_group("Source", |g| g.required(false)))]
pub struct SolveArgs {
    #[command(flatten)]
    pub source: Source,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Report the evaluated leaves in evaluation order (paths of 0-based child indices).
    #[arg(long)]
    pub leaves: bool,
    /// With --game: the position (Connect Four: columns played, 1-7; tic-tac-toe: cells played, 1-9;
    /// Othello: squares played, `f5d6`, or an FFO board and side, `"<64 squares> X"`;
    /// chess: `startpos`, a FEN or an EPD line, then optionally `moves e2e4 ...`;
    /// checkers: moves played, `11-15 23-19 9x18`, or a PDN FEN, `W:W21,22,K30:B1-12`).
    /// It may start with `-` (an Othello board's empty a1).
    #[arg(
        long,
        value_name = "POSITION",
        requires = "game",
        conflicts_with = "positions",
        allow_hyphen_values = true
    )]
    pub position: Option<String>,
    #[command(flatten)]
    pub sample: crate::sample::SampleArgs,
    /// With --game: solve every line of FILE (`-`: standard input): `moves [expected]`,
    /// a FEN, or `position; MOVE:SCORE; ...` (FFO, EPD).
    #[arg(long, value_name = "FILE", requires = "game")]
    pub positions: Option<std::path::PathBuf>,
    /// With --positions: solve only shard K of N (the positions whose index i, from 0, has
    /// i % N == K - 1); with --format json its output starts with a `{"shard": ...}` line
    /// and `solve --merge` combines the shards' outputs.
    #[arg(long, value_name = "K/N", requires = "positions")]
    pub shard: Option<stockman_lab::Shard>,
    /// Merge the JSON outputs of every shard of one `--positions` batch into its rows (in file
    /// order) and summaries, as one run would print them.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["game", "tree", "random", "positions"])]
    pub merge: Vec<std::path::PathBuf>,
    #[command(flatten)]
    pub distributed: crate::distributed::DistributedArgs,
}

pub fn run(args: SolveArgs) -> Result<ExitCode> {
    if !args.merge.is_empty() {
        return crate::games::merge(&args.merge, args.format);
    }
    if args.source.game.is_none() && args.source.tree.is_none() && args.source.random.is_none() {
        anyhow::bail!(
            "give what to solve: --tree FILE, --random SPEC or --game NAME (or --merge FILE... to merge shards)"
        );
    }
    if args.distributed.distributed {
        return crate::distributed::run(&args);
    }
    if let Some(kind) = args.source.game {
        if crate::sample::wanted(args.search.algo.as_deref(), None, &args.sample)? {
            let flag = match args.search.algo {
                Some(_) => "--algo",
                None => args.sample.given().unwrap_or("--algo"),
            };
            anyhow::bail!("{flag}: the stochastic searches run on trees of Bernoulli leaves (--tree FILE of means, or --random SPEC,model=bernoulli), not on --game");
        }
        return match &args.positions {
            Some(path) => crate::games::batch(kind, path, &args.search, args.format, args.shard),
            None => crate::games::solve(kind, args.position.as_deref(), &args.search, args.format, args.leaves),
        };
    }
    if crate::sample::wanted(args.search.algo.as_deref(), args.source.random.as_deref(), &args.sample)? {
        return crate::sample::run(
            args.search.algo.as_deref(),
            args.source.tree.as_deref(),
            args.source.random.as_deref(),
            args.search.root,
            &args.sample,
            args.format,
        );
    }
    let request = args.search.request(SourceKind::Tree, args.leaves)?;
    let mut runner = Runner::new();
    let index = |_: &_, i: usize| serde_json::json!(i);
    let rows = if let Some(path) = &args.source.tree {
        let tree = read_tree(path, args.search.root)?;
        let height = u64::from(tree.height());
        on_stack(stack_bytes(height), || {
            rows(&tree, &request, &mut runner, false, &index)
        })?
    } else {
        let tree = random_tree(args.source.random_spec()?, args.search.root)?;
        let depth = u64::from(tree.spec().depth);
        on_stack(stack_bytes(depth), || rows(&tree, &request, &mut runner, false, &index))?
    };
    print_rows(&rows, args.format)?;
    Ok(exit_code(&rows))
}
