//! `stockman trace`: every step of one search, as text or JSON.

use crate::games::{move_json, with_game};
use crate::input::{random_tree, read_tree};
use crate::runner::SearchArgs;
use crate::{Format, Source};
use anyhow::{bail, Result};
use clap::Args;
use serde::Serialize;
use std::fmt::Write as _;
use std::process::ExitCode;
use stockman::run::{on_stack, stack_bytes, GameTask, SourceKind};
use stockman::value::{fmt_value, fmt_window};
use stockman::Playable;
use stockman::{dewey, Algorithm, Event, Fail, Game, Gamma, SearchOptions, State, Stats, Tracer, Value};

#[derive(Args, Debug)]
pub struct TraceArgs {
    #[command(flatten)]
    pub source: Source,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write a self-contained HTML page that replays the search step by step (trees up to 500 nodes).
    #[arg(long, value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
    /// With --game: the position to search from (the game's notation, as
    /// for `solve`); the start of the game when not given.
    #[arg(long, value_name = "POSITION", requires = "game", allow_hyphen_values = true)]
    pub position: Option<String>,
    #[command(flatten)]
    pub sample: crate::sample::SampleArgs,
}

/// A whole trace as data (the JSON form).
#[derive(Serialize, Debug)]
pub struct Trace {
    pub algorithm: String,
    pub value: Option<Value>,
    /// The root's child index on trees; the move in the game's notation in games.
    pub best_move: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<[Value; 2]>,
    pub stats: Stats,
    pub events: Vec<Event>,
}

/// Runs one traced search; `best` names the best move.
pub fn traced<G: Game>(
    game: &G,
    algo: Algorithm,
    opts: &SearchOptions,
    best: &dyn Fn(&G::Move, usize) -> serde_json::Value,
) -> Result<Trace> {
    let mut tr = Tracer::default();
    let out = algo.with_options(opts).observer(&mut tr).run(game)?;
    Ok(Trace {
        algorithm: algo.name().to_string(),
        value: out.value,
        best_move: out.best_move.as_ref().zip(out.best_index).map(|(m, i)| best(m, i)),
        bound: out.bound.map(|(a, b)| [a, b]),
        stats: out.stats,
        events: tr.events,
    })
}

pub fn run(args: TraceArgs) -> Result<ExitCode> {
    if crate::sample::traced(&args)? {
        return crate::sample::trace(&args);
    }
    let algos = args.search.algorithms()?;
    if let Some(file) = &args.html {
        // Several algorithms: a page that compares them side by side.
        let opts = args.search.options()?;
        return crate::experiment::trace_html(&args.source, &args.search, &algos, &opts, file);
    }
    let [algo] = algos[..] else {
        bail!(
            "trace takes exactly one algorithm with --algo (got `{}`); with --html, several are compared side by side",
            args.search.algo.as_deref().unwrap_or("all")
        );
    };
    let index = |_: &_, i: usize| serde_json::json!(i);
    let trace = if let Some(kind) = args.source.game {
        let request = args.search.request(SourceKind::Game(kind), false)?;
        struct Trace<'a>(Algorithm, &'a SearchOptions);
        impl GameTask for Trace<'_> {
            type Output = Result<self::Trace>;
            fn run<G: Playable + Send + Sync + 'static>(self, game: G) -> Result<self::Trace> {
                traced(&game, self.0, self.1, &|m, _| move_json(&game, m))
            }
        }
        let position = args.position.as_deref().unwrap_or("");
        with_game(
            kind,
            position,
            request.options.limits.depth.is_some(),
            Trace(algo, &request.options),
        )?
    } else if let Some(path) = &args.source.tree {
        let opts = args.search.options()?;
        let tree = read_tree(path, args.search.root)?;
        on_stack(stack_bytes(u64::from(tree.height())), || {
            traced(&tree, algo, &opts, &index)
        })??
    } else {
        let opts = args.search.options()?;
        let tree = random_tree(args.source.random_spec()?, args.search.root)?;
        on_stack(stack_bytes(u64::from(tree.spec().depth)), || {
            traced(&tree, algo, &opts, &index)
        })??
    };
    match args.format {
        Format::Text => print!("{}", text(&trace)),
        Format::Json => println!("{}", serde_json::to_string_pretty(&trace)?),
    }
    Ok(ExitCode::SUCCESS)
}

fn states(list: &[State]) -> String {
    list.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
}

/// The trace as text, one block per step or pass.
pub fn text(t: &Trace) -> String {
    let mut out = String::new();
    let dual = t.algorithm.parse::<Algorithm>().is_ok_and(|a| a.capabilities().dual);
    let steps = t.events.iter().any(|e| matches!(e, Event::Step(_)));
    let _ = writeln!(out, "# {} trace", t.algorithm);
    for e in &t.events {
        match e {
            Event::Step(s) => {
                let _ = writeln!(
                    out,
                    "step {}: pop {}, case {}: {}",
                    s.step,
                    s.popped,
                    s.case.number(),
                    s.case.explain(dual)
                );
                if s.case == Gamma::Finish {
                    continue;
                }
                if !s.purged.is_empty() {
                    let _ = writeln!(out, "  purge {}", states(&s.purged));
                }
                let _ = writeln!(out, "  add   {}", states(&s.added));
                let _ = writeln!(out, "  OPEN  {}", states(&s.open));
            }
            Event::Pass(p) => {
                let fail = match p.fail {
                    Fail::High => "fails high",
                    Fail::Low => "fails low",
                    Fail::Exact => "exact",
                };
                let mut line = format!(
                    "pass {}: window ({}, {}) -> {}, {fail}; value in [{}, {}]; {} leaves",
                    p.pass,
                    fmt_window(p.alpha),
                    fmt_window(p.beta),
                    fmt_value(p.result),
                    fmt_value(p.lower),
                    fmt_value(p.upper),
                    p.leaf_evals
                );
                if let Some(b) = p.better_count {
                    line = format!(
                        "pass {}: test {}: {b} move(s) reach it; value in [{}, {}]; {} leaves",
                        p.pass,
                        fmt_value(p.beta),
                        fmt_value(p.lower),
                        fmt_value(p.upper),
                        p.leaf_evals
                    );
                }
                let _ = writeln!(out, "{line}");
            }
            Event::Leaf { path, value } if !steps => {
                let _ = writeln!(out, "  leaf {} = {value}", dewey(path));
            }
            Event::Leaf { .. } => {}
        }
    }
    match (t.value, t.bound) {
        (Some(v), _) => {
            let _ = writeln!(
                out,
                "value {v}, best move {}",
                t.best_move.as_ref().map_or("-".into(), crate::report::move_text)
            );
        }
        (None, Some([a, b])) => {
            let _ = writeln!(
                out,
                "best move {}, value in [{a}, {b})",
                t.best_move.as_ref().map_or("-".into(), crate::report::move_text)
            );
        }
        _ => {}
    }
    let _ = writeln!(out, "{} leaves evaluated", t.stats.leaf_evals);
    out
}
