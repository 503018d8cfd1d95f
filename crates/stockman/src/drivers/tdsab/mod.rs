//! One position solved by several processes: transposition-driven
//! scheduling for alpha-beta (TDSAB; Kishimoto and Schaeffer 2002, after
//! Romein, Plaat, Bal and Schaeffer's TDS of 1999), driven by the
//! null-window passes of MTD(f), MTD(bi) or MT-SSS\*.
//!
//! Every position has a *home* rank, picked by its hash, and only its home
//! keeps its table entry: instead of fetching an entry, a rank sends the
//! position (the work) to its home. The home answers from its table, or
//! searches the position: the top [`TdsabOptions::spread`] plies of the
//! tree are searched by *frames* whose children are sent to their own
//! homes (the eldest child first, then the rest at once, as Young Brothers
//! Wait), and the positions below by an ordinary alpha-beta test at home,
//! with the home's table. All messages are one-way and asynchronous: a
//! node whose children were sent away waits in its frame while its rank
//! serves other work, and a child that makes its parent cut off cancels the
//! brothers still out. Equal positions meet at their home, so a position
//! reached twice in one pass is searched once (the second parent waits on
//! the first one's frame).
//!
//! [`TdsabOptions::scheme`] = [`Scheme::RootSplit`] runs the simplest
//! scheme instead ([`root_split`]: root moves handed out to ranks with
//! tables of their own), over the same transport, so that what TDSAB's
//! machinery buys is measured.
//!
//! A message names a position by its path of move indices from the root,
//! so that any [`Game`] can be sent; the home replays it. The transport is
//! a [`Transport`]: MPI in the command line's `mpi` build, or threads of
//! one process ([`LocalWorld`]) for tests and for machines without MPI.
//!
//! # Complexity
//! Per pass, the nodes of the top `spread` plies that the test visits each
//! cost one message out and one back (a node whose home is its parent's
//! costs none), plus a cancel per rank that holds children of a node that
//! cut off; below, a sequential MT test. Memory per rank: its table, and
//! one frame per node of the top plies being searched there.
//!
//! # Example
//! ```
//! use stockman::drivers::tdsab::{self, LocalWorld, TdsabOptions};
//! use stockman::{Algorithm, ConnectFour, Limits, SearchOptions};
//!
//! let game = ConnectFour::from_moves("4453").unwrap().with_heuristic();
//! let opts = TdsabOptions { algorithm: Algorithm::Mtdf, depth: Some(6), spread: 2, ..Default::default() };
//! let out = LocalWorld::run(3, &game, &opts).unwrap();
//! let one = Algorithm::Mtdf.search(&game, &SearchOptions { limits: Limits::to_depth(6), ..Default::default() }).unwrap();
//! assert_eq!(Some(out.value), one.value);
//! assert_eq!(out.ranks.len(), 3);
//! ```

use crate::algorithms::alphabeta;
use crate::algorithms::Algorithm;
use crate::game::Game;
use crate::observe::NoObserver;
use crate::options::Limits;
use crate::ordering::Heuristics;
use crate::search::{SearchError, SearchOptions};
use crate::table::{AnyTable, Entry, Table, NO_MOVE};
use crate::value::{Role, Value, INF, VALUE_MAX, VALUE_MIN};
use std::collections::{HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

mod message;
mod options;
pub mod root_split;
mod rooted;
mod transport;

pub use message::MAX_MESSAGE_BYTES;
use message::{Msg, Parent, DRIVER};
pub use options::{Distributed, RankReport, Scheme, TdsabOptions, MAX_SPREAD};
use rooted::Rooted;
pub use transport::{panic_first, LocalWorld, Transport, TransportError};

/// The rank a position's key lives at: the high bits of the key mixed by
/// a multiplication (a game's key need not look random: Connect Four's is
/// its board's bits, and its high bits alone put nearly every position of
/// a search on one rank of two), so the table's buckets, which take the
/// low bits, and the homes do not follow each other.
fn home(key: u64, ranks: usize) -> usize {
    ((key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) % ranks as u64) as usize
}

/// A node of the top plies being searched here, waiting for its children.
struct Frame<G: Game> {
    key: u64,
    draft: u32,
    gamma: Value,
    role: Role,
    path: Vec<u32>,
    /// The position and its moves, kept so that the brothers sent after
    /// the eldest need no replay of the path.
    pos: G::Position,
    moves: Vec<G::Move>,
    /// The children's indices in the order they are tried.
    order: Vec<u32>,
    /// How many of `order` were sent.
    sent: usize,
    /// The children sent and not answered, with their homes (a map: a
    /// root of 70,000 moves gets 70,000 answers, each found at once).
    out: HashMap<u32, usize>,
    /// Who waits for this node's answer.
    waiting: Vec<Parent>,
    /// The best answer so far (the highest at MAX, the lowest at MIN) and
    /// its child.
    best: Value,
    best_child: u32,
}

/// One rank's state.
struct Rank<'g, G: Game, T: Transport> {
    game: &'g G,
    net: &'g mut T,
    opts: &'g TdsabOptions,
    me: usize,
    ranks: usize,
    epoch: u32,
    pass: u32,
    table: AnyTable,
    heur: Heuristics,
    frames: HashMap<u64, Frame<G>>,
    /// Open frames by (key, draft, gamma): a position sent twice joins.
    open: HashMap<(u64, u32, Value), u64>,
    /// The frames here waiting for each parent (rank, frame), so that a
    /// cancel finds them without a look at every open frame (some may have
    /// resolved since: they are skipped).
    waiters: HashMap<(u32, u64), Vec<u64>>,
    next_frame: u64,
    /// Messages to handle: from itself, and those taken from the transport.
    mine: VecDeque<Msg>,
    /// The parents (rank, frame) cancelled in this pass.
    cancelled: HashSet<(u32, u64)>,
    /// The driver's answer for the current pass (rank 0).
    answer: Option<(Value, u32)>,
    report: RankReport,
    buf: Vec<u8>,
    moves: Vec<G::Move>,
    /// The positions along the last path replayed, with their moves: the
    /// brothers a frame sends (and their children) arrive one after
    /// another, and a root of 70,000 moves would otherwise be listed once
    /// for every position below it.
    replayed: Replayed<G>,
    done: bool,
    reports: Vec<RankReport>,
}

/// The last parent path [`Rank::replay`] followed: `levels[k]` is the
/// position after its first `k` moves, and that position's moves.
struct Replayed<G: Game> {
    path: Vec<u32>,
    levels: Vec<(G::Position, Vec<G::Move>)>,
}

impl<G: Game> Replayed<G> {
    /// The position at `path` (see [`Rank::replay`]); the ply and index of
    /// a move that does not exist.
    fn follow(&mut self, game: &G, path: &[u32]) -> Result<G::Position, (usize, u32)> {
        let Some((&last, parent)) = path.split_last() else {
            return Ok(game.root());
        };
        if self.levels.is_empty() {
            let root = game.root();
            let mut moves = Vec::new();
            game.moves(&root, &mut moves);
            self.levels.push((root, moves));
        }
        let shared = self.path.iter().zip(parent).take_while(|(a, b)| a == b).count();
        self.path.truncate(shared);
        self.levels.truncate(shared + 1);
        for (ply, &i) in parent.iter().enumerate().skip(shared) {
            let (pos, moves) = self.levels.last().expect("the root's level");
            let &m = moves.get(i as usize).ok_or((ply, i))?;
            let pos = game.play(pos, m);
            let mut moves = Vec::new();
            game.moves(&pos, &mut moves);
            self.path.push(i);
            self.levels.push((pos, moves));
        }
        let (pos, moves) = self.levels.last().expect("the parent's level");
        let &m = moves.get(last as usize).ok_or((parent.len(), last))?;
        Ok(game.play(pos, m))
    }
}

fn transport_error(e: TransportError) -> SearchError {
    SearchError::Distributed(e.0)
}

/// Sends `msg` to rank `to` (not this one), counted in `report`.
fn post<T: Transport>(
    net: &mut T,
    buf: &mut Vec<u8>,
    report: &mut RankReport,
    to: usize,
    msg: &Msg,
) -> Result<(), SearchError> {
    msg.encode(buf);
    if buf.len() > MAX_MESSAGE_BYTES {
        // Bounded by design (the spread and the error's cut): a message
        // over it is this code's fault, said as such rather than sent.
        return Err(SearchError::Distributed(format!(
            "rank {}: a message of {} bytes is over the {MAX_MESSAGE_BYTES} a message may take",
            net.rank(),
            buf.len()
        )));
    }
    report.messages += 1;
    report.bytes += buf.len() as u64;
    net.send(to, buf).map_err(transport_error)
}

/// The next message from another rank, and the rank, waiting up to `wait` for one (the
/// wait counted as idle time in `report`); a message that does not decode
/// is an error that names its sender.
fn take<T: Transport>(
    net: &mut T,
    report: &mut RankReport,
    wait: Duration,
) -> Result<Option<(usize, Msg)>, SearchError> {
    let t = Instant::now();
    let got = net.recv(wait).map_err(transport_error)?;
    if !wait.is_zero() {
        // With nothing of its own to do, the rank waits: idle time.
        report.idle_us += t.elapsed().as_micros() as u64;
    }
    let Some((from, bytes)) = got else {
        return Ok(None);
    };
    Msg::decode(&bytes).map(|m| Some((from, m))).ok_or_else(|| {
        SearchError::Distributed(format!(
            "rank {}: a malformed message of {} bytes from rank {from}",
            net.rank(),
            bytes.len()
        ))
    })
}

/// Tells every other rank that this one failed with `e` (as far as the
/// transport still can), so that none waits for it.
fn abort_all<T: Transport>(net: &mut T, epoch: u32, e: &SearchError) {
    let reason = match e {
        SearchError::Distributed(r) => r.clone(),
        SearchError::Panicked { rank, message } => format!("rank {rank} panicked: {message}"),
        e => format!("rank {}: {e}", net.rank()),
    };
    let mut buf = Vec::new();
    Msg::Abort { epoch, reason }.encode(&mut buf);
    let me = net.rank();
    for to in (0..net.ranks()).filter(|&r| r != me) {
        let _ = net.send(to, &buf);
    }
}

impl<'g, G: Game, T: Transport> Rank<'g, G, T> {
    fn new(game: &'g G, opts: &'g TdsabOptions, net: &'g mut T, epoch: u32) -> Result<Self, SearchError> {
        let (me, ranks) = (net.rank(), net.ranks());
        Ok(Rank {
            game,
            opts,
            me,
            ranks,
            epoch,
            pass: 0,
            // Grown on demand: a rank's memory is what it holds, however
            // many ranks share the machine (threads, or the simulator's).
            table: AnyTable::try_growing(opts.table)?,
            heur: Heuristics::new(),
            frames: HashMap::new(),
            waiters: HashMap::new(),
            open: HashMap::new(),
            next_frame: 0,
            mine: VecDeque::new(),
            cancelled: HashSet::new(),
            answer: None,
            report: RankReport {
                rank: me,
                ..Default::default()
            },
            buf: Vec::new(),
            moves: Vec::new(),
            replayed: Replayed {
                path: Vec::new(),
                levels: Vec::new(),
            },
            done: false,
            reports: Vec::new(),
            net,
        })
    }

    fn send(&mut self, to: usize, msg: Msg) -> Result<(), SearchError> {
        if to == self.me {
            self.report.kept += 1;
            // Answers and cancels first: a cut-off found here stops the
            // brothers still queued here before they are searched.
            match msg {
                Msg::Search { .. } => self.mine.push_back(msg),
                _ => self.mine.push_front(msg),
            }
            return Ok(());
        }
        post(self.net, &mut self.buf, &mut self.report, to, &msg)
    }

    /// Sends rank `to` the test of the position at `path` against `gamma`,
    /// for `parent`, in this pass.
    fn ask(&mut self, to: usize, gamma: Value, parent: Parent, path: Vec<u32>) -> Result<(), SearchError> {
        let (epoch, pass) = (self.epoch, self.pass);
        self.send(
            to,
            Msg::Search {
                epoch,
                pass,
                gamma,
                parent,
                path,
            },
        )
    }

    /// Handles one message, waiting up to `wait` for one.
    fn step(&mut self, wait: Duration) -> Result<(), SearchError> {
        self.drain(wait)?;
        let Some(msg) = self.mine.pop_front() else {
            return Ok(());
        };
        if msg.epoch() != self.epoch {
            return Ok(()); // left over from an earlier position
        }
        match msg {
            Msg::Search {
                pass,
                gamma,
                parent,
                path,
                ..
            } => {
                if pass < self.pass {
                    return Ok(());
                }
                self.new_pass(pass);
                self.search(gamma, parent, path)
            }
            Msg::Answer {
                pass,
                frame,
                child,
                g,
                best,
                ..
            } => {
                if pass != self.pass {
                    return Ok(());
                }
                if frame == DRIVER && self.me == 0 {
                    self.answer = Some((g, best));
                    return Ok(());
                }
                self.answered(frame, child, g)
            }
            Msg::Cancel { pass, rank, frame, .. } => {
                if pass == self.pass {
                    self.cancel(rank, frame)?;
                }
                Ok(())
            }
            Msg::Done { .. } => {
                self.done = true;
                Ok(())
            }
            Msg::Report { report, .. } => {
                self.reports.push(report);
                Ok(())
            }
            Msg::Abort { reason, .. } => Err(SearchError::Distributed(reason)),
            Msg::Test { .. } | Msg::Tested { .. } | Msg::Bar { .. } => Err(SearchError::Distributed(format!(
                "rank {}: a root-split message in a TDSAB search (the ranks disagree on --scheme)",
                self.me
            ))),
        }
    }

    /// Takes in every message the transport holds, waiting up to `wait` for
    /// one when there is nothing else to do. Answers and cancels go before
    /// the searches waiting here, and a cancel is noted at once, so that
    /// the brothers of a child that cut off, still queued, are never
    /// searched.
    fn drain(&mut self, wait: Duration) -> Result<(), SearchError> {
        let mut wait = if self.mine.is_empty() { wait } else { Duration::ZERO };
        loop {
            let got = take(self.net, &mut self.report, wait)?;
            wait = Duration::ZERO;
            let Some((_, msg)) = got else {
                return Ok(());
            };
            match msg {
                Msg::Search { .. } => self.mine.push_back(msg),
                Msg::Cancel {
                    epoch,
                    pass,
                    rank,
                    frame,
                } => {
                    if epoch == self.epoch && pass == self.pass {
                        self.cancelled.insert((rank, frame));
                    }
                    self.mine.push_front(msg);
                }
                _ => self.mine.push_front(msg),
            }
        }
    }

    /// A newer pass makes every frame of the older ones useless.
    fn new_pass(&mut self, pass: u32) {
        if pass > self.pass {
            self.pass = pass;
            self.clear_pass();
        }
    }

    /// Forgets the frames of the passes before and what indexes them.
    fn clear_pass(&mut self) {
        self.frames.clear();
        self.waiters.clear();
        self.open.clear();
        self.cancelled.clear();
    }

    /// Frame `id` waits here for `parent` too (its list, and the index a
    /// cancel reads).
    fn wait_for(&mut self, id: u64, parent: Parent) {
        self.frames.get_mut(&id).expect("an open frame").waiting.push(parent);
        self.waiters.entry((parent.rank, parent.frame)).or_default().push(id);
    }

    /// The position at `path`, played from the deepest position it
    /// shares with the last path replayed (whose positions and moves are
    /// kept), so that brothers and cousins cost one move each.
    fn replay(&mut self, path: &[u32]) -> Result<G::Position, SearchError> {
        self.replayed
            .follow(self.game, path)
            .map_err(|(ply, i)| self.no_move(ply, i))
    }

    fn no_move(&self, ply: usize, i: u32) -> SearchError {
        SearchError::Distributed(format!(
            "rank {}: move {i} at ply {ply} of a path does not exist (the ranks disagree on the game)",
            self.me
        ))
    }

    fn draft(&self, ply: usize) -> u32 {
        self.opts.depth.map_or(u32::MAX, |d| d.saturating_sub(ply as u32))
    }

    fn reply(&mut self, to: Parent, g: Value, best: u32) -> Result<(), SearchError> {
        let (epoch, pass) = (self.epoch, self.pass);
        let msg = Msg::Answer {
            epoch,
            pass,
            frame: to.frame,
            child: to.child,
            g,
            best,
        };
        self.send(to.rank as usize, msg)
    }

    /// A test of the position at `path` for its parent.
    fn search(&mut self, gamma: Value, parent: Parent, path: Vec<u32>) -> Result<(), SearchError> {
        let gone =
            parent.rank as usize == self.me && parent.frame != DRIVER && !self.frames.contains_key(&parent.frame);
        if gone || self.cancelled.contains(&(parent.rank, parent.frame)) {
            return Ok(()); // its parent cut off or was given up meanwhile
        }
        let pos = self.replay(&path)?;
        let draft = self.draft(path.len());
        let root = path.is_empty();
        self.report.stats.nodes += 1;
        self.moves.clear();
        if draft > 0 {
            self.game.moves(&pos, &mut self.moves);
        }
        if self.moves.is_empty() {
            self.report.stats.leaf_evals += 1;
            let v = self.game.evaluate(&pos);
            if !(VALUE_MIN..=VALUE_MAX).contains(&v) {
                return Err(SearchError::ValueOutOfRange { value: v });
            }
            return self.reply(parent, v, NO_MOVE);
        }
        let Some(key) = self.game.hash(&pos) else {
            return Err(SearchError::NoHash {
                algorithm: self.opts.algorithm.name(),
            });
        };
        if !root {
            let (lo, hi) = self.game.bounds_within(&pos, gamma - 1, gamma);
            if lo >= gamma || hi < gamma || lo == hi {
                let g = if lo >= gamma { lo } else { hi };
                return self.reply(parent, g, NO_MOVE);
            }
        }
        self.report.stats.tt_probes += 1;
        let entry = self.table.probe(key).filter(|e| e.draft == draft);
        if let Some(e) = entry {
            self.report.stats.tt_hits += 1;
            // The root always searches its children, so that it names a
            // move it proved.
            if !root && (e.lower >= gamma || e.upper < gamma) {
                let g = if e.lower >= gamma { e.lower } else { e.upper };
                return self.reply(parent, g, e.best);
            }
        }
        if path.len() as u32 >= self.opts.spread && !root {
            return self.test_here(pos, draft, gamma, parent);
        }
        if let Some(&f) = self.open.get(&(key, draft, gamma)) {
            self.report.joined += 1;
            self.wait_for(f, parent);
            return Ok(());
        }
        let n = self.moves.len() as u32;
        let hint = entry.map_or(NO_MOVE, |e| e.best);
        let mut order = Vec::with_capacity(n as usize);
        if hint < n {
            order.push(hint);
        }
        order.extend((0..n).filter(|&i| i != hint));
        let role = self.game.role(&pos);
        let id = self.next_frame;
        self.next_frame += 1;
        self.report.frames += 1;
        self.report.stats.nodes_expanded += 1;
        self.frames.insert(
            id,
            Frame {
                key,
                draft,
                gamma,
                role,
                path,
                pos,
                moves: self.moves.clone(),
                order,
                sent: 0,
                out: HashMap::new(),
                waiting: Vec::new(),
                best: if role == Role::Max { -INF } else { INF },
                best_child: NO_MOVE,
            },
        );
        self.open.insert((key, draft, gamma), id);
        self.wait_for(id, parent);
        // The eldest child first; its brothers once it failed to cut off.
        self.send_children(id, 1)
    }

    /// Sends the next `count` children of frame `id` to their homes.
    fn send_children(&mut self, id: u64, count: usize) -> Result<(), SearchError> {
        let (path, children, gamma) = {
            let f = self.frames.get_mut(&id).expect("a frame");
            let end = (f.sent + count).min(f.order.len());
            let children: Vec<(u32, G::Position)> = f.order[f.sent..end]
                .iter()
                .map(|&i| (i, self.game.play(&f.pos, f.moves[i as usize])))
                .collect();
            f.sent = end;
            (f.path.clone(), children, f.gamma)
        };
        for (i, child) in children {
            let key = self.game.hash(&child).unwrap_or(0);
            let to = home(key, self.ranks);
            let mut p = path.clone();
            p.push(i);
            self.frames.get_mut(&id).expect("a frame").out.insert(i, to);
            let parent = Parent {
                rank: self.me as u32,
                frame: id,
                child: i,
            };
            self.ask(to, gamma, parent, p)?;
        }
        Ok(())
    }

    /// An ordinary null-window test of `pos`, here, with this rank's table.
    fn test_here(&mut self, pos: G::Position, draft: u32, gamma: Value, parent: Parent) -> Result<(), SearchError> {
        let sub = Rooted {
            game: self.game,
            root: pos,
        };
        let opts = SearchOptions {
            limits: Limits {
                depth: (draft != u32::MAX).then_some(draft),
                ..Limits::default()
            },
            table: self.opts.table,
            enhancements: self.opts.enhancements,
            ..SearchOptions::default()
        };
        let out = alphabeta::search_kept(
            &sub,
            &opts,
            &mut NoObserver,
            &mut self.table,
            &mut self.heur,
            (gamma - 1, gamma),
        )?;
        // The test's root is counted above, as a message's node.
        let mut s = out.stats;
        s.nodes = s.nodes.saturating_sub(1);
        s.time_us = 0;
        self.report.stats += s;
        let g = out.value.expect("alpha-beta gives a value");
        self.reply(parent, g, out.best_index.map_or(NO_MOVE, |i| i as u32))
    }

    /// Child `child` of frame `id` answered `g`.
    fn answered(&mut self, id: u64, child: u32, g: Value) -> Result<(), SearchError> {
        let Some(f) = self.frames.get_mut(&id) else {
            return Ok(()); // a frame that cut off or was cancelled
        };
        if f.out.remove(&child).is_none() {
            return Ok(());
        }
        let better = match f.role {
            Role::Max => g > f.best,
            Role::Min => g < f.best,
        };
        if better || f.best_child == NO_MOVE {
            f.best = g;
            f.best_child = child;
        }
        let cut = match f.role {
            Role::Max => g >= f.gamma,
            Role::Min => g < f.gamma,
        };
        if cut || (f.out.is_empty() && f.sent == f.order.len()) {
            return self.resolve(id);
        }
        if f.sent == 1 && f.out.is_empty() {
            let rest = f.order.len() - 1;
            return self.send_children(id, rest);
        }
        Ok(())
    }

    /// Frame `id` has its answer: store it, tell who waits, cancel the rest.
    fn resolve(&mut self, id: u64) -> Result<(), SearchError> {
        let f = self.frames.remove(&id).expect("a frame");
        self.open.remove(&(f.key, f.draft, f.gamma));
        let g = f.best;
        let mut entry = self
            .table
            .probe(f.key)
            .filter(|e| e.draft == f.draft)
            .unwrap_or_else(|| Entry::unknown(f.draft));
        if g >= f.gamma {
            entry.lower = g;
        } else {
            entry.upper = g;
        }
        entry.best = f.best_child;
        entry.best_proves = match f.role {
            Role::Max => g >= f.gamma,
            Role::Min => g < f.gamma,
        };
        self.table.store(f.key, entry);
        self.report.stats.tt_stores += 1;
        for w in &f.waiting {
            self.reply(*w, g, f.best_child)?;
        }
        self.cancel_children(id, &f.out)
    }

    fn cancel_children(&mut self, id: u64, out: &HashMap<u32, usize>) -> Result<(), SearchError> {
        let mut homes: Vec<usize> = out.values().copied().collect();
        homes.sort_unstable();
        homes.dedup();
        let (epoch, pass, rank) = (self.epoch, self.pass, self.me as u32);
        for to in homes {
            self.send(
                to,
                Msg::Cancel {
                    epoch,
                    pass,
                    rank,
                    frame: id,
                },
            )?;
        }
        Ok(())
    }

    /// Frame `frame` of rank `rank` stops waiting here; a frame nobody
    /// waits for any more is given up, and its own children cancelled.
    fn cancel(&mut self, rank: u32, frame: u64) -> Result<(), SearchError> {
        let mut waiting = self.waiters.remove(&(rank, frame)).unwrap_or_default();
        // In the order they were opened, so that the cancels go out alike
        // on every run (the simulator's times repeat to the nanosecond).
        waiting.sort_unstable();
        waiting.dedup();
        let doomed: Vec<u64> = waiting
            .into_iter()
            .filter(|id| {
                self.frames.get_mut(id).is_some_and(|f| {
                    let before = f.waiting.len();
                    f.waiting.retain(|w| (w.rank, w.frame) != (rank, frame));
                    f.waiting.is_empty() && before > 0
                })
            })
            .collect();
        for id in doomed {
            let f = self.frames.remove(&id).expect("a frame");
            self.open.remove(&(f.key, f.draft, f.gamma));
            self.cancel_children(id, &f.out)?;
        }
        Ok(())
    }

    /// Rank 0: one pass, the root tested against `gamma`.
    fn drive_pass(&mut self, gamma: Value) -> Result<(Value, u32), SearchError> {
        self.pass += 1;
        self.clear_pass();
        self.answer = None;
        let key = self.game.hash(&self.game.root()).unwrap_or(0);
        let to = home(key, self.ranks);
        let parent = Parent {
            rank: 0,
            frame: DRIVER,
            child: 0,
        };
        self.ask(to, gamma, parent, Vec::new())?;
        while self.answer.is_none() {
            self.step(Duration::from_millis(50))?;
        }
        Ok(self.answer.take().expect("answered"))
    }
}

/// Searches `game` on every rank of `net`: each rank calls this with the
/// same game and options (and `epoch`, the number of the position among
/// those the ranks solve in turn). Rank 0 drives the passes and returns
/// the answer; the other ranks serve until rank 0 is done and return
/// `None`.
///
/// # Errors
/// Options [`TdsabOptions::check`] refuses, a table that cannot be
/// allocated, a game without a hash, ranks that disagree on the game, a
/// transport that fails.
pub fn search<G: Game, T: Transport>(
    game: &G,
    opts: &TdsabOptions,
    net: &mut T,
    epoch: u32,
) -> Result<Option<Distributed>, SearchError> {
    opts.check()?;
    if game.hash(&game.root()).is_none() {
        return Err(SearchError::NoHash {
            algorithm: opts.algorithm.name(),
        });
    }
    let me = net.rank();
    // A panic (a bug in the game, or here) is this rank's error like any
    // other, so the others hear of it below instead of waiting for a rank
    // that is gone (over MPI the process would otherwise die alone).
    let run = std::panic::AssertUnwindSafe(|| match opts.scheme {
        Scheme::Tdsab => Rank::new(game, opts, net, epoch).and_then(|mut rank| {
            // The clock starts once the table is made (its allocation is not search).
            let start = Instant::now();
            serve_or_drive(game, opts, &mut rank, start)
        }),
        Scheme::RootSplit => root_split::search(game, opts, net, epoch),
    });
    let out = std::panic::catch_unwind(run).unwrap_or_else(|p| {
        Err(SearchError::Panicked {
            rank: me,
            message: crate::search::panic_text(&*p),
        })
    });
    if let Err(e) = &out {
        // An error that came as another rank's Abort is already known to
        // all; the others are told, so that no rank waits for this one.
        abort_all(net, epoch, e);
    }
    out
}

fn serve_or_drive<G: Game, T: Transport>(
    game: &G,
    opts: &TdsabOptions,
    rank: &mut Rank<'_, G, T>,
    start: Instant,
) -> Result<Option<Distributed>, SearchError> {
    let epoch = rank.epoch;
    if rank.me != 0 {
        while !rank.done {
            rank.step(Duration::from_millis(50))?;
        }
        rank.report.stats.time_us = start.elapsed().as_micros() as u64;
        rank.report.table_bytes = rank.table.bytes() as u64;
        let report = rank.report.clone();
        rank.send(0, Msg::Report { epoch, report })?;
        return Ok(None);
    }
    let root_role = game.role(&game.root());
    let (lo, hi) = game.value_range();
    let (mut lower, mut upper) = (-INF, INF);
    let mut g = opts.first_guess.clamp(VALUE_MIN, VALUE_MAX);
    let (mut best, mut last) = (None, NO_MOVE);
    let mut passes = 0u64;
    while lower < upper {
        let gamma = match opts.algorithm {
            Algorithm::MtSss => upper.min(hi.saturating_add(1)),
            Algorithm::MtdBi => {
                let (l, u) = (lower.max(lo), upper.min(hi.saturating_add(1)));
                l + (u - l + 1) / 2
            }
            _ => {
                if g == lower {
                    g + 1
                } else {
                    g
                }
            }
        };
        let (answer, child) = rank.drive_pass(gamma)?;
        passes += 1;
        g = answer;
        let high = g >= gamma;
        if high {
            lower = g;
        } else {
            upper = g;
        }
        last = child;
        let proves = match root_role {
            Role::Max => high,
            Role::Min => !high,
        };
        if proves && child != NO_MOVE {
            best = Some(child as usize);
        }
    }
    if best.is_none() && last != NO_MOVE {
        best = Some(last as usize);
    }
    for r in 1..rank.ranks {
        rank.send(r, Msg::Done { epoch })?;
    }
    while rank.reports.len() + 1 < rank.ranks {
        rank.step(Duration::from_millis(50))?;
    }
    rank.report.stats.time_us = start.elapsed().as_micros() as u64;
    rank.report.table_bytes = rank.table.bytes() as u64;
    let mut ranks = vec![rank.report.clone()];
    let mut others = std::mem::take(&mut rank.reports);
    others.sort_by_key(|r| r.rank);
    ranks.extend(others);
    Ok(Some(Distributed {
        value: lower,
        best_index: best,
        passes,
        ranks,
    }))
}
