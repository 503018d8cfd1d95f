//! The simplest way to share one position among ranks, kept so that TDSAB's
//! extra machinery is measured against something, not assumed to pay.
//!
//! Rank 0 solves the root's eldest move alone (other ranks wait: there is
//! no bound to test against yet). The other root moves are then handed out
//! one at a time, two waiting per rank at most, to whichever rank is free,
//! rank 0 included. A rank tests its move with one null-window alpha-beta
//! search against the bar, the best value so far: under a MAX root, is the
//! move worth more? A move that passes is solved exactly there, by the
//! driver the options name, and a new best value raises the bar, which
//! rank 0 sends to every rank. Each rank keeps its own table for the whole
//! search, so ranks share nothing but the bar: a position met under two
//! root moves on two ranks is searched twice.
//!
//! The value is the minimax value: every root move is either solved
//! exactly or shown no better than a bar that was itself a move's exact
//! value. The best move is a move that holds it; which one, when several
//! do, depends on which rank answered first.
//!
//! # Complexity
//! Per root move after the eldest, a test (a search of the move's subtree
//! with a null window, through its rank's table), plus a solve when it
//! passes. Messages: two per root move handed out, one bar per rank per
//! new best, and the end's reports. Memory: one table per rank.
//!
//! # Example
//! ```
//! use stockman::drivers::tdsab::{LocalWorld, Scheme, TdsabOptions};
//! use stockman::{Algorithm, ConnectFour, Limits, SearchOptions};
//!
//! let game = ConnectFour::from_moves("4453").unwrap().with_heuristic();
//! let opts = TdsabOptions { scheme: Scheme::RootSplit, depth: Some(6), ..Default::default() };
//! let out = LocalWorld::run(3, &game, &opts).unwrap();
//! let one = Algorithm::Mtdf.search(&game, &SearchOptions { limits: Limits::to_depth(6), ..Default::default() }).unwrap();
//! assert_eq!(Some(out.value), one.value);
//! ```

use super::message::Msg;
use super::rooted::Rooted;
use super::{post, take, Distributed, RankReport, TdsabOptions, Transport};
use crate::algorithms::Algorithm;
use crate::drivers::Search;
use crate::game::Game;
use crate::options::{Limits, Params};
use crate::ordering::Heuristics;
use crate::search::{SearchError, SearchOptions};
use crate::table::AnyTable;
use crate::value::{Role, Value, VALUE_MAX, VALUE_MIN};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Root moves handed to a rank and not answered, at most: one it searches,
/// one waiting, so that it need not wait for rank 0 between the two.
const QUEUED: usize = 2;

/// How long a rank with nothing to do waits for a message at a time.
const WAIT: Duration = Duration::from_millis(50);

/// One rank: its table, and how it tests a root move.
struct Worker<'g, G: Game, T: Transport> {
    game: &'g G,
    opts: &'g TdsabOptions,
    net: &'g mut T,
    epoch: u32,
    /// The root's side: the bar is passed by more (MAX) or less (MIN).
    role: Role,
    /// The root, and its moves (none at depth 0), made once for every move
    /// tried: by rank 0 at once, by another rank at its first move (a rank
    /// given none does no work).
    root: G::Position,
    root_moves: Vec<G::Move>,
    listed: bool,
    table: AnyTable,
    heur: Heuristics,
    report: RankReport,
    buf: Vec<u8>,
}

impl<G: Game, T: Transport> Worker<'_, G, T> {
    fn send(&mut self, to: usize, msg: &Msg) -> Result<(), SearchError> {
        post(self.net, &mut self.buf, &mut self.report, to, msg)
    }

    /// The search options of a root move's subtree: the depth below the root.
    fn child_options(&self) -> SearchOptions {
        SearchOptions {
            limits: Limits {
                depth: self.opts.depth.map(|d| d.saturating_sub(1)),
                ..Limits::default()
            },
            table: self.opts.table,
            enhancements: self.opts.enhancements,
            params: Params {
                first_guess: self.opts.first_guess,
                ..Params::default()
            },
            ..SearchOptions::default()
        }
    }

    /// Makes the root's list of moves, once.
    fn list_moves(&mut self) {
        if !self.listed {
            self.listed = true;
            if self.opts.depth != Some(0) {
                self.game.moves(&self.root, &mut self.root_moves);
            }
        }
    }

    /// The tighter of two bars: the higher under MAX, the lower under MIN.
    fn tighter(&self, a: Value, b: Value) -> Value {
        match self.role {
            Role::Max => a.max(b),
            Role::Min => a.min(b),
        }
    }

    /// Root move `child`: worth `(value, true)` exactly if it passes the
    /// bar `gamma` (or if there is no bar), else `(bound, false)` showing
    /// it does not.
    fn try_move(&mut self, child: u32, gamma: Option<Value>) -> Result<(Value, bool), SearchError> {
        self.list_moves();
        let mv = *self.root_moves.get(child as usize).ok_or_else(|| {
            SearchError::Distributed(format!(
                "rank {}: root move {child} does not exist (the ranks disagree on the game)",
                self.net.rank()
            ))
        })?;
        let sub = Rooted {
            game: self.game,
            root: self.game.play(&self.root, mv),
        };
        let mut opts = self.child_options();
        self.report.frames += 1;
        if let Some(gamma) = gamma {
            let test = Search::new(Algorithm::AlphaBeta, &opts)
                .table(&mut self.table)
                .heuristics(&mut self.heur)
                .window(gamma - 1, gamma)
                .run(&sub)?;
            self.count(test.stats, 1);
            let g = test.value.expect("alpha-beta gives a value");
            let passes = match self.role {
                Role::Max => g >= gamma,
                Role::Min => g < gamma,
            };
            if !passes {
                return Ok((g, false));
            }
            // Solved from the test's bound (MTD(f)'s first guess; the
            // table holds the test's entries for all three drivers).
            opts.params.first_guess = g;
        }
        let solved = Search::new(self.opts.algorithm, &opts)
            .table(&mut self.table)
            .heuristics(&mut self.heur)
            .run(&sub)?;
        self.count(solved.stats, solved.stats.passes);
        Ok((solved.value.expect("an MT driver gives a value"), true))
    }

    /// Adds a search's counters to the report, `passes` null-window tests.
    fn count(&mut self, mut s: crate::stats::Stats, passes: u64) {
        s.time_us = 0;
        s.passes = passes;
        self.report.stats += s;
    }
}

/// Searches `game` by root split on every rank of `net` (see the module's
/// text); rank 0's answer, `None` on the others.
pub(super) fn search<G: Game, T: Transport>(
    game: &G,
    opts: &TdsabOptions,
    net: &mut T,
    epoch: u32,
) -> Result<Option<Distributed>, SearchError> {
    let me = net.rank();
    let root = game.root();
    let mut w = Worker {
        game,
        opts,
        epoch,
        role: game.role(&root),
        root,
        root_moves: Vec::new(),
        listed: false,
        // Grown on demand, as TDSAB's ranks' tables are.
        table: AnyTable::try_growing(opts.table)?,
        heur: Heuristics::new(),
        report: RankReport {
            rank: me,
            ..Default::default()
        },
        buf: Vec::new(),
        net,
    };
    // The clock starts once the table is made (its allocation is not search).
    let start = Instant::now();
    if me == 0 {
        drive(&mut w, start).map(Some)
    } else {
        serve(&mut w, start).map(|()| None)
    }
}

/// A rank other than 0: tests the moves it is given until told it is over.
fn serve<G: Game, T: Transport>(w: &mut Worker<'_, G, T>, start: Instant) -> Result<(), SearchError> {
    let mut queue: VecDeque<(u32, Value)> = VecDeque::new();
    let mut bar: Option<Value> = None;
    loop {
        let mut wait = if queue.is_empty() { WAIT } else { Duration::ZERO };
        while let Some((_, msg)) = take(w.net, &mut w.report, wait)? {
            wait = Duration::ZERO;
            if msg.epoch() != w.epoch {
                continue; // left over from an earlier position
            }
            match msg {
                Msg::Test { child, gamma, .. } => queue.push_back((child, gamma)),
                Msg::Bar { gamma, .. } => bar = Some(bar.map_or(gamma, |b| w.tighter(b, gamma))),
                Msg::Done { .. } => {
                    w.report.stats.time_us = start.elapsed().as_micros() as u64;
                    w.report.table_bytes = w.table.bytes() as u64;
                    let report = w.report.clone();
                    let epoch = w.epoch;
                    return w.send(0, &Msg::Report { epoch, report });
                }
                Msg::Abort { reason, .. } => return Err(SearchError::Distributed(reason)),
                _ => return Err(wrong_scheme(w.net.rank())),
            }
        }
        if let Some((child, gamma)) = queue.pop_front() {
            // A bar raised since the move was handed out spares work.
            let gamma = bar.map_or(gamma, |b| w.tighter(b, gamma));
            let (g, exact) = w.try_move(child, Some(gamma))?;
            let epoch = w.epoch;
            w.send(0, &Msg::Tested { epoch, child, g, exact })?;
        }
    }
}

fn wrong_scheme(rank: usize) -> SearchError {
    SearchError::Distributed(format!(
        "rank {rank}: a TDSAB message in a root-split search (the ranks disagree on --scheme)"
    ))
}

/// What rank 0 knows: the best move so far and its value.
struct Best {
    value: Value,
    child: u32,
}

/// Rank 0: solves the eldest move, hands out and tests the rest, and
/// gathers the ranks' reports.
fn drive<G: Game, T: Transport>(w: &mut Worker<'_, G, T>, start: Instant) -> Result<Distributed, SearchError> {
    let ranks = w.net.ranks();
    w.report.stats.nodes += 1;
    w.list_moves();
    let (value, best) = if w.root_moves.is_empty() {
        w.report.stats.leaf_evals += 1;
        let v = w.game.evaluate(&w.root);
        if !(VALUE_MIN..=VALUE_MAX).contains(&v) {
            return Err(SearchError::ValueOutOfRange { value: v });
        }
        (v, None)
    } else {
        w.report.stats.nodes_expanded += 1;
        let b = split(w, w.root_moves.len() as u32, ranks)?;
        (b.value, Some(b.child as usize))
    };
    let epoch = w.epoch;
    for r in 1..ranks {
        w.send(r, &Msg::Done { epoch })?;
    }
    let mut others = Vec::new();
    while others.len() + 1 < ranks {
        match take(w.net, &mut w.report, WAIT)? {
            Some((_, Msg::Report { epoch: e, report })) if e == epoch => others.push(report),
            Some((_, Msg::Abort { reason, .. })) => return Err(SearchError::Distributed(reason)),
            _ => {}
        }
    }
    w.report.stats.time_us = start.elapsed().as_micros() as u64;
    w.report.table_bytes = w.table.bytes() as u64;
    others.sort_by_key(|r| r.rank);
    let mut all = vec![w.report.clone()];
    all.extend(others);
    Ok(Distributed {
        value,
        best_index: best,
        passes: all.iter().map(|r| r.stats.passes).sum(),
        ranks: all,
    })
}

/// The root's `n` moves shared among `ranks`: the best of them.
fn split<G: Game, T: Transport>(w: &mut Worker<'_, G, T>, n: u32, ranks: usize) -> Result<Best, SearchError> {
    let (lo, hi) = w.game.value_range();
    // The eldest alone: its exact value is the first bar.
    let (v, _) = w.try_move(0, None)?;
    let mut best = Best { value: v, child: 0 };
    let mut pending: VecDeque<u32> = (1..n).collect();
    let mut out = vec![0usize; ranks];
    let epoch = w.epoch;
    loop {
        // A move as good as the game allows ends the search.
        if w.bar(best.value, lo, hi).is_none() {
            pending.clear();
        }
        while let Some((from, msg)) = take(w.net, &mut w.report, Duration::ZERO)? {
            answered(w, from, msg, &mut best, &mut out, lo, hi)?;
        }
        for (r, held) in out.iter_mut().enumerate().skip(1) {
            while *held < QUEUED {
                let (Some(gamma), Some(&child)) = (w.bar(best.value, lo, hi), pending.front()) else {
                    break;
                };
                pending.pop_front();
                *held += 1;
                w.send(r, &Msg::Test { epoch, child, gamma })?;
            }
        }
        if let (Some(gamma), Some(child)) = (w.bar(best.value, lo, hi), pending.pop_front()) {
            let (g, exact) = w.try_move(child, Some(gamma))?;
            improve(w, &mut best, child, g, exact, lo, hi)?;
        } else if out.iter().any(|&k| k > 0) {
            if let Some((from, msg)) = take(w.net, &mut w.report, WAIT)? {
                answered(w, from, msg, &mut best, &mut out, lo, hi)?;
            }
        } else {
            return Ok(best);
        }
    }
}

/// A message to rank 0 while it splits the root.
fn answered<G: Game, T: Transport>(
    w: &mut Worker<'_, G, T>,
    from: usize,
    msg: Msg,
    best: &mut Best,
    out: &mut [usize],
    lo: Value,
    hi: Value,
) -> Result<(), SearchError> {
    if msg.epoch() != w.epoch {
        return Ok(());
    }
    match msg {
        Msg::Tested { child, g, exact, .. } => {
            if let Some(k) = out.get_mut(from) {
                *k = k.saturating_sub(1);
            }
            improve(w, best, child, g, exact, lo, hi)
        }
        Msg::Abort { reason, .. } => Err(SearchError::Distributed(reason)),
        _ => Err(wrong_scheme(0)),
    }
}

/// Root move `child` was found worth `g` (exactly if `exact`): a better
/// move becomes the best, and its value the bar of every rank.
fn improve<G: Game, T: Transport>(
    w: &mut Worker<'_, G, T>,
    best: &mut Best,
    child: u32,
    g: Value,
    exact: bool,
    lo: Value,
    hi: Value,
) -> Result<(), SearchError> {
    let better = match w.role {
        Role::Max => g > best.value,
        Role::Min => g < best.value,
    };
    if !(exact && better) {
        return Ok(());
    }
    *best = Best { value: g, child };
    if let Some(gamma) = w.bar(g, lo, hi) {
        let epoch = w.epoch;
        for r in 1..w.net.ranks() {
            w.send(r, &Msg::Bar { epoch, gamma })?;
        }
    }
    Ok(())
}

impl<G: Game, T: Transport> Worker<'_, G, T> {
    /// The bar a move must pass to beat `value`: `value + 1` under MAX
    /// (a test's "at least"), `value` under MIN ("below"); `None` when no
    /// move of a game whose values lie in `lo..=hi` can.
    fn bar(&self, value: Value, lo: Value, hi: Value) -> Option<Value> {
        match self.role {
            Role::Max => (value < hi).then_some(value + 1),
            Role::Min => (value > lo).then_some(value),
        }
    }
}
