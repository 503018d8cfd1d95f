//! `stockman perft`: the number of move sequences of each length from a
//! position (the library's [`stockman::run::perft`]), to check a game's
//! move generation against published counts.

use crate::Format;
use anyhow::Result;
use clap::Args;
use std::process::ExitCode;
use stockman::games::perft::MAX_PERFT_DEPTH;
use stockman::run::perft::{perft, PerftReport};
use stockman::run::{on_stack, stack_bytes, GameKind};

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game.
    #[arg(long, value_parser = crate::games::game_parser())]
    pub game: GameKind,
    /// The position, in the game's notation (as `solve --position`); the start if omitted.
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Count move sequences of 1 to N plies.
    #[arg(long, value_name = "N")]
    pub depth: u32,
    /// Also count, for each legal move of the position, the sequences of N plies that start with it.
    #[arg(long)]
    pub divide: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(args: PerftArgs) -> Result<ExitCode> {
    let position = args.position.as_deref().unwrap_or("");
    let depth = args.depth;
    let report = on_stack(stack_bytes(u64::from(depth.min(MAX_PERFT_DEPTH))), || {
        perft(args.game, position, depth, args.divide)
    })??;
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&json(&report))?),
        Format::Text => print!("{}", text(&report)),
    }
    Ok(ExitCode::SUCCESS)
}

/// `{"game", "position", "depth", "nodes", "per_depth", ["divide": [{"move", "nodes"}]]}`.
fn json(r: &PerftReport) -> serde_json::Value {
    let mut out = serde_json::json!({
        "game": r.game.name(),
        "position": r.position,
        "depth": r.depth,
        "nodes": r.nodes,
        "per_depth": r.per_depth,
    });
    if let Some(d) = &r.divide {
        out["divide"] = d
            .iter()
            .map(|(mv, n)| serde_json::json!({"move": mv, "nodes": n}))
            .collect();
    }
    out
}

/// One line per depth, then (with --divide) one per root move, then the total.
fn text(r: &PerftReport) -> String {
    let mut s = String::new();
    let from = if r.position.trim().is_empty() {
        "the start".to_string()
    } else {
        format!("`{}`", r.position)
    };
    s.push_str(&format!("perft {} from {from}\n", r.game));
    for (d, n) in r.per_depth.iter().enumerate() {
        s.push_str(&format!("depth {:>2}  {n:>14}\n", d + 1));
    }
    if let Some(d) = &r.divide {
        s.push_str(&format!("divide at depth {}\n", r.depth));
        let width = d.iter().map(|(m, _)| m.len()).max().unwrap_or(0);
        for (mv, n) in d {
            s.push_str(&format!("{mv:<width$}  {n:>14}\n"));
        }
    }
    s.push_str(&format!("nodes {}\n", r.nodes));
    s
}
