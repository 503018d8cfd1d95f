//! `stockman experiment --game G --positions F`: every algorithm at every
//! depth (and table size) on every position of a test set, as in Plaat et
//! al.'s figures: one CSV row per position, depth, table size and
//! algorithm, a check that they agree on the value, a summary relative to
//! NegaScout and to the minimal tree, and plots. The rows, summary and
//! plots are `stockman_lab::games`, the searches `stockman_lab::games::runner`;
//! this module reads the flags and files, shows progress and writes.

use crate::runner::Enhancements;
use anyhow::{anyhow, bail, Context, Result};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use stockman::algorithms::bns::GuessKind;
use stockman::games::positions::parse_positions;
use stockman::run::GameKind;
use stockman::{Algorithm, FixedTable, Parallel};
use stockman_lab::games::{self as lab, runner};
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

pub fn run(g: GameGrid) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&g.positions)
        .map_err(|e| anyhow!("cannot read positions file {}: {e}", g.positions.display()))?;
    let set = parse_positions(&text)
        .map_err(|e| anyhow!("{}:{}:{}: {}", g.positions.display(), e.line, e.column, e.message))?;
    if set.is_empty() {
        bail!("{}: no positions in the file", g.positions.display());
    }
    let grid = runner::GameGrid {
        game: g.game,
        algorithms: g.algorithms.clone(),
        depths: g.depths.clone(),
        iterative: g.iterative,
        tables: g.tables.clone(),
        table_at_horizon: g.table_at_horizon,
        enhancements: g.enhance.settings(),
        max_nodes: g.max_nodes,
        minimal: g.minimal,
        minimal_depths: g.minimal_depths.clone(),
        shard: g.shard,
        search_threads: g.search_threads,
        parallel: g.parallel,
        bns_guesses: g.bns_guesses.clone(),
    };
    let all = runner::jobs(&grid, set.len());
    let mine: Vec<runner::Job> = all
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
    let records = runner::run_jobs(&grid, &set, &mine, &crate::report::Flags, &mut || bar.inc(1))
        .map_err(|e| anyhow!("{}:{e}", g.positions.display()))?;
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
