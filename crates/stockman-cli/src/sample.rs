//! `stockman solve` on Bernoulli trees: the stochastic searches' flags,
//! and their rows (thin: the runs and their summary are the run layer's).

use crate::input::{placed, read_text};
use crate::trace::TraceArgs;
use crate::Format;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::Path;
use std::process::ExitCode;
use stockman::run::stochastic::{
    sample_rows, sample_trace, BernoulliSource, SampleRow, SampleRunError, SampleTraceRow,
};
use stockman::run::{on_stack, stack_bytes};
use stockman::stochastic::{
    check_reads, BernoulliTree, Interval, Rate, SampleError, SampleEvent, SampleKnob, SampleOptions, Sampler,
    SamplingRule,
};
use stockman::{Algorithm, Role};

/// The stochastic searches' options (`--algo lucb-mcts,ugape-mcts,uniform,murphy,bns-murphy`
/// on a tree of Bernoulli means or a `model=bernoulli` random tree).
#[derive(Args, Debug, Clone, Default)]
pub struct SampleArgs {
    /// Stochastic searches: the probability of a wrong answer allowed, in (0, 1) [default: 0.1].
    #[arg(long, value_name = "P", allow_negative_numbers = true)]
    pub delta: Option<f64>,
    /// Stochastic searches: a move within this much of the best is right (murphy: the test's slack) [default: 0].
    #[arg(long, value_name = "E", allow_negative_numbers = true)]
    pub epsilon: Option<f64>,
    /// Stochastic searches: the samples a run may draw before it answers without confidence [default: 10000000].
    #[arg(long, value_name = "N")]
    pub max_samples: Option<u64>,
    /// Stochastic searches: the seed of the samples (run i uses seed + i) [default: 0].
    #[arg(long, value_name = "SEED")]
    pub sample_seed: Option<u64>,
    /// Stochastic searches: `proven` (every interval holds with probability 1 - delta) or
    /// `heuristic` (no union over the leaves, as Kaufmann and Koolen's experiments) [default: proven].
    #[arg(long, value_name = "RATE")]
    pub rate: Option<Rate>,
    /// Stochastic searches: the leaves' intervals, `kl` or `hoeffding` [default: kl].
    #[arg(long, value_name = "KIND")]
    pub interval: Option<Interval>,
    /// murphy and bns-murphy: how the threshold test picks leaves: `murphy`, `thompson`, `lcb`
    /// or `uniform` [default: murphy].
    #[arg(long, value_name = "RULE")]
    pub sampling: Option<SamplingRule>,
    /// murphy: the threshold the root's value is tested against, in (0, 1).
    #[arg(long, value_name = "GAMMA", allow_negative_numbers = true)]
    pub threshold: Option<f64>,
    /// Stochastic searches: repeat each search this many times (run i: sample seed + i, and for
    /// --random the tree of seed + i) and report the error rate and the samples [default: 1].
    #[arg(long, value_name = "N")]
    pub runs: Option<u64>,
}

impl SampleArgs {
    /// The first stochastic flag given, by name.
    pub fn given(&self) -> Option<&'static str> {
        [
            (self.delta.is_some(), "--delta"),
            (self.epsilon.is_some(), "--epsilon"),
            (self.max_samples.is_some(), "--max-samples"),
            (self.sample_seed.is_some(), "--sample-seed"),
            (self.rate.is_some(), "--rate"),
            (self.interval.is_some(), "--interval"),
            (self.sampling.is_some(), "--sampling"),
            (self.threshold.is_some(), "--threshold"),
            (self.runs.is_some(), "--runs"),
        ]
        .into_iter()
        .find(|(on, _)| *on)
        .map(|(_, name)| name)
    }

    /// Whether each knob that only some samplers read was given.
    fn knobs(&self) -> impl Iterator<Item = (SampleKnob, bool)> + '_ {
        SampleKnob::ALL.into_iter().map(|k| {
            let given = match k {
                SampleKnob::Sampling => self.sampling.is_some(),
            };
            (k, given)
        })
    }

    /// Refuses a knob none of `samplers` reads, naming its flag and readers.
    fn check_reads(&self, samplers: &[Sampler]) -> Result<()> {
        check_reads(samplers, self.knobs()).map_err(|e| flagged(SampleRunError::Options(e)))
    }

    fn options(&self) -> SampleOptions {
        let d = SampleOptions::default();
        SampleOptions {
            delta: self.delta.unwrap_or(d.delta),
            epsilon: self.epsilon.unwrap_or(d.epsilon),
            max_samples: self.max_samples.unwrap_or(d.max_samples),
            seed: self.sample_seed.unwrap_or(d.seed),
            rate: self.rate.unwrap_or(d.rate),
            interval: self.interval.unwrap_or(d.interval),
            rule: self.sampling.unwrap_or(d.rule),
            threshold: self.threshold,
        }
    }
}

/// Whether `solve` should run the stochastic searches: every `--algo` name
/// is a sampler's, the random tree is `model=bernoulli`, or a stochastic
/// flag is given without `--algo`. A mixture is
/// an error that says which names belong where.
pub fn wanted(algo: Option<&str>, random: Option<&str>, args: &SampleArgs) -> Result<bool> {
    let bernoulli = random.is_some_and(BernoulliTree::names_bernoulli);
    let names = names(algo);
    let sampled = names.iter().filter(|n| n.parse::<Sampler>().is_ok()).count();
    if sampled > 0 && sampled < names.len() {
        let other: Vec<&&str> = names.iter().filter(|n| n.parse::<Sampler>().is_err()).collect();
        bail!(
            "--algo mixes stochastic searches with others ({}): a tree has either Bernoulli leaves (lucb-mcts, \
             ugape-mcts, uniform, murphy, bns-murphy) or values",
            other.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
        );
    }
    // A stochastic flag without --algo asks for the stochastic searches too.
    let stochastic = sampled > 0 || bernoulli || (names.is_empty() && args.given().is_some());
    if bernoulli && !names.is_empty() && sampled == 0 {
        bail!(
            "a `model=bernoulli` tree has random leaves: search it with --algo lucb-mcts, ugape-mcts, uniform, \
             murphy or bns-murphy, not `{}`",
            names.join(",")
        );
    }
    if !stochastic {
        if let Some(flag) = args.given() {
            bail!(
                "{flag} applies to the stochastic searches (--algo lucb-mcts, ugape-mcts, uniform, murphy, bns-murphy)"
            );
        }
    }
    Ok(stochastic)
}

/// Runs the stochastic searches on a tree file of means or a random spec.
pub fn run(
    algo: Option<&str>,
    tree: Option<&Path>,
    random: Option<&str>,
    root: Option<Role>,
    args: &SampleArgs,
    format: Format,
) -> Result<ExitCode> {
    let samplers: Vec<Sampler> = match algo {
        Some(_) => names(algo).into_iter().map(str::parse).collect::<Result<_, _>>()?,
        None => Sampler::defaults(args.threshold),
    };
    args.check_reads(&samplers)?;
    let source = source(tree, random, root)?;
    let rows = sample_rows(&source, &samplers, &args.options(), args.runs.unwrap_or(1)).map_err(flagged)?;
    match format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&rows)?),
        Format::Text => print!("{}", table(&rows)),
    }
    let unsure = rows.iter().any(|r| r.unsure > 0);
    if unsure {
        eprintln!(
            "note: some runs reached --max-samples before their rule stopped them: their answers carry no guarantee"
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The tree (or random trees) of a series of runs: a file of means or a `model=bernoulli` spec.
fn source(tree: Option<&Path>, random: Option<&str>, root: Option<Role>) -> Result<BernoulliSource> {
    Ok(match (tree, random) {
        (Some(path), _) => BernoulliSource::Tree(read_means(path, root)?),
        (None, Some(spec)) => {
            BernoulliSource::random(spec, root.unwrap_or(Role::Max)).with_context(|| format!("in --random `{spec}`"))?
        }
        (None, None) => bail!("give a tree: --tree FILE or --random SPEC,model=bernoulli"),
    })
}

/// The one tree of a traced run, built once.
fn one_tree(tree: Option<&Path>, random: Option<&str>, root: Option<Role>) -> Result<BernoulliTree> {
    Ok(match (tree, random) {
        (Some(path), _) => read_means(path, root)?,
        (None, Some(spec)) => BernoulliSource::random_tree(spec, root.unwrap_or(Role::Max))
            .with_context(|| format!("in --random `{spec}`"))?,
        (None, None) => bail!("give a tree: --tree FILE or --random SPEC,model=bernoulli"),
    })
}

/// A file of means, its root's role the one it declares or `--root`;
/// errors carry `FILE:LINE:COLUMN`.
fn read_means(path: &Path, root: Option<Role>) -> Result<BernoulliTree> {
    let text = read_text(path)?;
    let root = stockman::resolve_root(&text, root).map_err(|e| placed(path, e))?;
    BernoulliTree::parse(&text, root).map_err(|e| placed(path, e))
}

/// The library's words, with the flag that sets the value.
fn flagged(e: SampleRunError) -> anyhow::Error {
    if let SampleRunError::Options(u @ SampleError::Unread { knob, .. }) = &e {
        return anyhow::anyhow!("{}", u.unread(&format!("--{}", knob.name())));
    }
    let flag = match &e {
        SampleRunError::Options(SampleError::Delta(_)) => "--delta",
        SampleRunError::Options(SampleError::Epsilon(_)) => "--epsilon",
        SampleRunError::Options(SampleError::NoThreshold | SampleError::Threshold(_)) => "--threshold",
        SampleRunError::Options(SampleError::ThresholdUnused(_)) => "--threshold",
        SampleRunError::Options(SampleError::NoBudget) => "--max-samples",
        SampleRunError::Options(SampleError::NoMove | SampleError::Unread { .. }) => "--algo",
        SampleRunError::NoRuns => "--runs",
        SampleRunError::Spec(_) => "--random",
        SampleRunError::Internal(_) => "internal error",
    };
    anyhow::anyhow!("{flag}: {e}")
}

/// Whether `trace` follows a stochastic search: an `--algo` name is a
/// sampler's, the random tree is `model=bernoulli`, or a stochastic flag
/// is given. Unlike `solve`, `trace --html` may put deterministic searches
/// beside them (on the means).
pub fn traced(args: &TraceArgs) -> Result<bool> {
    let names = names(args.search.algo.as_deref());
    let bernoulli = args
        .source
        .random
        .as_deref()
        .is_some_and(BernoulliTree::names_bernoulli);
    let stochastic = names.iter().any(|n| n.parse::<Sampler>().is_ok()) || bernoulli || args.sample.given().is_some();
    if !stochastic {
        return Ok(false);
    }
    if args.source.game.is_some() {
        bail!(
            "the stochastic searches sample trees of Bernoulli means (--tree FILE of means, or --random \
             SPEC,model=bernoulli), not --game"
        );
    }
    if args.sample.runs.is_some() {
        bail!("--runs: a trace follows one run (solve --runs repeats them)");
    }
    Ok(true)
}

fn names(algo: Option<&str>) -> Vec<&str> {
    algo.map(|a| a.split(',').map(str::trim).collect()).unwrap_or_default()
}

/// `stockman trace` of a stochastic search: every sample, round and test
/// as text or JSON; with `--html`, the comparison page, where deterministic
/// searches may stand beside the stochastic ones (alpha-beta and SSS\* when
/// no `--algo` is given).
pub fn trace(args: &TraceArgs) -> Result<ExitCode> {
    let (mut samplers, mut algos) = (Vec::new(), Vec::new());
    for name in names(args.search.algo.as_deref()) {
        match name.parse::<Sampler>() {
            Ok(s) => samplers.push(s),
            Err(_) => algos.push(name.parse::<Algorithm>().map_err(|e| {
                anyhow::anyhow!(
                    "--algo: {e}; the stochastic searches: lucb-mcts, ugape-mcts, uniform, murphy, bns-murphy"
                )
            })?),
        }
    }
    if samplers.is_empty() && algos.is_empty() {
        samplers = Sampler::defaults(args.sample.threshold);
        if args.html.is_some() {
            algos = vec![Algorithm::AlphaBeta, Algorithm::Sss];
        }
    }
    args.sample.check_reads(&samplers)?;
    let opts = args.sample.options();
    let tree = one_tree(
        args.source.tree.as_deref(),
        args.source.random.as_deref(),
        args.search.root,
    )?;
    if let Some(file) = &args.html {
        for &s in &samplers {
            opts.validate(s).map_err(|e| flagged(SampleRunError::Options(e)))?;
        }
        let names: Vec<&str> = samplers
            .iter()
            .map(|s| s.name())
            .chain(algos.iter().map(|a| a.name()))
            .collect();
        let on = match (&args.source.tree, &args.source.random) {
            (Some(path), _) => path.display().to_string(),
            (None, Some(spec)) => format!("the random tree {spec}"),
            _ => String::new(),
        };
        let title = format!("{} on {on}", names.join(", "));
        // The deterministic searches' options, from their names alone.
        let mut deterministic = args.search.clone();
        deterministic.algo =
            Some(algos.iter().map(|a| a.name()).collect::<Vec<_>>().join(",")).filter(|a| !a.is_empty());
        let search = deterministic.options()?;
        let page = on_stack(stack_bytes(u64::from(tree.height())), || {
            stockman_lab::html::sample_compare_page(&tree, &algos, &search, &samplers, &opts, &title)
        })??;
        std::fs::write(file, page).with_context(|| format!("cannot write {}", file.display()))?;
        eprintln!("wrote {}", file.display());
        return Ok(ExitCode::SUCCESS);
    }
    let [sampler] = samplers[..] else {
        bail!(
            "trace takes exactly one algorithm with --algo (got `{}`); with --html, several are compared side by side",
            args.search.algo.as_deref().unwrap_or("the stochastic searches")
        );
    };
    if let Some(algo) = algos.first() {
        bail!(
            "{algo} reads leaf values, not Bernoulli means: trace it beside {sampler} with --html (on the means), \
             or alone on a tree of values"
        );
    }
    let trace = sample_trace(&tree, sampler, &opts).map_err(flagged)?;
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&trace)?),
        Format::Text => print!("{}", trace_text(&tree, sampler, &opts, &trace)),
    }
    Ok(ExitCode::SUCCESS)
}

/// A stochastic trace as text: a line per event, samples indented under
/// their round or test, and the answer.
fn trace_text(tree: &BernoulliTree, sampler: Sampler, opts: &SampleOptions, o: &SampleTraceRow) -> String {
    let mut out = format!(
        "# {sampler} trace (delta {}, epsilon {}, rate {}, interval {}, sample seed {})\n",
        opts.delta,
        opts.epsilon,
        opts.rate.name(),
        opts.interval,
        opts.seed
    );
    for e in &o.events {
        let indent = if matches!(e, SampleEvent::Sample { .. }) {
            "  "
        } else {
            ""
        };
        out.push_str(&format!("{indent}{e}\n"));
    }
    let answer = match (o.best_move, o.verdict) {
        (Some(m), _) => format!("best move {m} (worth {:.3})", tree.root_values()[m]),
        (None, Some(v)) => format!("{v} the threshold"),
        (None, None) => "no verdict".into(),
    };
    let how = if o.confident {
        "by its rule"
    } else {
        "by the budget (no guarantee)"
    };
    out.push_str(&format!(
        "{answer}; the tree's value {:.3}; stopped {how} after {} samples\n",
        tree.value(),
        o.samples
    ));
    out
}

fn table(rows: &[SampleRow]) -> String {
    let mut out = String::new();
    let many = rows.first().is_some_and(|r| r.runs > 1);
    if many {
        out.push_str(&format!(
            "{:<12} {:>6} {:>6} {:>10} {:>12} {:>10} {:>10} {:>7}\n",
            "algorithm", "runs", "wrong", "error_rate", "samples", "min", "max", "unsure"
        ));
        for r in rows {
            out.push_str(&format!(
                "{:<12} {:>6} {:>6} {:>10.4} {:>12.1} {:>10} {:>10} {:>7}\n",
                r.algorithm, r.runs, r.wrong, r.error_rate, r.samples, r.samples_min, r.samples_max, r.unsure
            ));
        }
        return out;
    }
    out.push_str(&format!(
        "{:<12} {:>9} {:>8} {:>10} {:>8} {:>6} {:>10} {:>8}\n",
        "algorithm", "best_move", "correct", "samples", "rounds", "tests", "value", "stopped"
    ));
    for r in rows {
        let answer = match (r.best_move, r.verdict) {
            (Some(m), _) => m.to_string(),
            (None, Some(v)) => v.to_string(),
            _ => "-".into(),
        };
        out.push_str(&format!(
            "{:<12} {:>9} {:>8} {:>10} {:>8} {:>6} {:>10.4} {:>8}\n",
            r.algorithm,
            answer,
            r.correct
                .map_or("-".into(), |c| if c { "yes" } else { "no" }.to_string()),
            r.samples as u64,
            r.rounds,
            r.tests,
            r.value.unwrap_or(f64::NAN),
            if r.unsure == 0 { "rule" } else { "budget" }
        ));
    }
    out
}
