//! ABDADA on `P` virtual processors: the depth-first searches of the MT
//! family (alpha-beta with a table, MTD(f), MT-SSS\*, MT-Dual\*) with a
//! shared transposition table and Weill's exclusive search, in
//! synchronous rounds in which every processor visits one node.
//!
//! Every processor runs the same pass (alpha-beta with the pass's window,
//! fail-soft, through one table) from the root, on its own stack; a node
//! claims itself while it is expanded, and a younger brother that another
//! processor is expanding is put off until the node's other moves are
//! done, as [`abdada`](crate::drivers::abdada) does on real threads. A
//! pass ends in the round in which the first processor finishes the root;
//! the drivers' passes follow one another, all processors starting the
//! next one at the root. What happens between two node visits (a value
//! going back up the stack, a store, a cutoff) takes no time.
//!
//! Within a round the processors move in order 0, 1, ..., so a run is
//! deterministic; at `P = 1` it is the sequential search, visiting the
//! same nodes and evaluating the same leaves as the crate's own alpha-beta
//! and MT drivers with an exact table (a test checks it). The table here
//! keeps every entry (no replacement) and the processors' claims are
//! counted exactly, so nothing depends on sizes or timing.
//!
//! There is no idle processor in ABDADA (every one searches from the
//! root); its cost shows as work: the nodes all processors visited.
//!
//! Two options bring it nearer a real program and a cluster.
//! [`SimOptions::iterative`] deepens one ply at a time through the one
//! table, as a game program does (and as the real-thread bench measured).
//! [`SimOptions::table_latency`] spreads the table over the processors: a
//! visit whose entry lives on another processor waits that many rounds
//! before it runs (stores and claim releases are messages nobody waits
//! for), which is what a distributed ABDADA pays for one table.
//!
//! # Complexity
//! At `P = 1` the search's own nodes; memory: the table's entries.
//!
//! # Example
//! ```
//! use stockman::simulate::{abdada, SimOptions};
//! use stockman::{Algorithm, RandomSpec, RandomTree};
//! let tree = RandomTree::new(RandomSpec::parse("width=4,depth=6,seed=3").unwrap());
//! let one = abdada::simulate(&tree, Algorithm::AlphaBeta, &SimOptions::default()).unwrap();
//! let eight = abdada::simulate(&tree, Algorithm::AlphaBeta, &SimOptions { processors: 8, ..SimOptions::default() }).unwrap();
//! assert_eq!(one.value, eight.value);
//! assert!(eight.rounds < one.rounds);
//! ```

use super::{SimError, SimOptions, SimReport};
use crate::algorithms::Algorithm;
use crate::game::Game;
use crate::key_map::KeyMap;
use crate::search::checked;
use crate::table::{Entry, NO_MOVE};
use crate::value::{Role, Value, INF, VALUE_MAX, VALUE_MIN};

/// The algorithms simulated here.
pub const ALGORITHMS: [Algorithm; 4] = [
    Algorithm::AlphaBeta,
    Algorithm::Mtdf,
    Algorithm::MtSss,
    Algorithm::MtDual,
];

/// ABDADA with `algo` (one of [`ALGORITHMS`]) on `opts.processors`
/// virtual processors.
///
/// # Errors
/// A bad processor count, an algorithm not simulated, a game without a
/// hash, the work limit, or a game that breaks its contract.
pub fn simulate<G: Game>(game: &G, algo: Algorithm, opts: &SimOptions) -> Result<SimReport, SimError> {
    opts.check()?;
    if !ALGORITHMS.contains(&algo) {
        return Err(SimError::BadGame(format!(
            "{algo} is not simulated under ABDADA (simulated: alphabeta, mtdf, mt-sss, mt-dual)"
        )));
    }
    if game.hash(&game.root()).is_none() {
        return Err(SimError::BadGame(format!(
            "{algo} needs a transposition table: the game gives no hash"
        )));
    }
    let mut m = Machine {
        game,
        horizon: opts.depth.unwrap_or(u32::MAX),
        move_first: opts.table_move_first,
        latency: opts.table_latency,
        table: KeyMap::default(),
        claims: KeyMap::default(),
        report: SimReport {
            processors: opts.processors,
            ..SimReport::default()
        },
        max_work: opts.max_work,
    };
    let value = match opts.depth {
        Some(depth) if opts.iterative => {
            // Depth 0 asks for the root's static value: one pass at depth 0.
            let mut guess = 0;
            for d in depth.min(1)..=depth {
                m.horizon = d;
                guess = m.drive(algo, guess, opts.processors)?;
            }
            guess
        }
        _ => m.drive(algo, 0, opts.processors)?,
    };
    m.report.value = value.clamp(VALUE_MIN, VALUE_MAX);
    Ok(m.report)
}

/// The shared memory: the table and the claims.
struct Machine<'a, G: Game> {
    game: &'a G,
    horizon: u32,
    move_first: bool,
    /// Rounds a visit waits for an entry held by another processor.
    latency: u64,
    table: KeyMap<u64, Entry>,
    /// Processors expanding (key, draft) now.
    claims: KeyMap<(u64, u32), u32>,
    report: SimReport,
    max_work: u64,
}

/// A node on a processor's stack, being expanded.
struct Frame<G: Game> {
    pos: G::Position,
    ply: u32,
    key: u64,
    draft: u32,
    role: Role,
    /// The window after the table narrowed it (what the store compares with).
    alpha: Value,
    beta: Value,
    /// The entry read (at this draft) or an empty one.
    entry: Entry,
    moves: Vec<G::Move>,
    first: usize,
    k: usize,
    later: Vec<usize>,
    j: usize,
    g: Value,
    best: usize,
    searched: usize,
    /// The child being visited: its index, and whether it was asked to be exclusive.
    child: Option<(usize, bool)>,
}

/// What a visit gave back to the parent.
enum Back {
    Value(Value),
    Deferred,
}

/// One virtual processor: its stack and the node it visits next.
struct Processor<G: Game> {
    stack: Vec<Frame<G>>,
    /// (position, ply, alpha, beta, exclusive) of the next visit.
    next: Option<(G::Position, u32, Value, Value, bool)>,
    /// Rounds left to wait for the next visit's remote entry (`None`: not
    /// yet asked).
    wait: Option<u64>,
}

impl<G: Game> Machine<'_, G> {
    /// The passes of `algo` to the current horizon (MTD(f) from `guess`):
    /// the root's value.
    fn drive(&mut self, algo: Algorithm, guess: Value, p: usize) -> Result<Value, SimError> {
        Ok(match algo {
            Algorithm::AlphaBeta => self.pass(-INF, INF, p)?,
            Algorithm::Mtdf => {
                let (mut lower, mut upper, mut g) = (-INF, INF, guess);
                while lower < upper {
                    let beta = if g == lower { g + 1 } else { g };
                    g = self.pass(beta - 1, beta, p)?;
                    if g < beta {
                        upper = g;
                    } else {
                        lower = g;
                    }
                }
                g
            }
            Algorithm::MtSss => {
                let mut g = INF;
                loop {
                    let bound = g;
                    g = self.pass(bound - 1, bound, p)?;
                    if g >= bound {
                        break bound;
                    }
                }
            }
            _ => {
                let mut g = -INF;
                loop {
                    let bound = g;
                    g = self.pass(bound, bound + 1, p)?;
                    if g <= bound {
                        break bound;
                    }
                }
            }
        })
    }

    /// The table's key of `pos` (every position of a game with a table has one).
    fn key(&self, pos: &G::Position) -> Result<u64, SimError> {
        self.game
            .hash(pos)
            .ok_or_else(|| SimError::BadGame("a position without a hash".into()))
    }

    /// One null- or full-window pass on `p` processors: rounds until the
    /// first processor finishes the root; returns its value.
    fn pass(&mut self, alpha: Value, beta: Value, p: usize) -> Result<Value, SimError> {
        let root = self.game.root();
        let mut procs: Vec<Processor<G>> = (0..p)
            .map(|_| Processor {
                stack: Vec::new(),
                next: Some((root.clone(), 0, alpha, beta, false)),
                wait: None,
            })
            .collect();
        self.claims.clear();
        loop {
            self.report.rounds += 1;
            for (i, proc) in procs.iter_mut().enumerate() {
                if let Some(v) = self.advance(proc, i, p)? {
                    return Ok(v);
                }
            }
        }
    }

    /// The processor visits its next node and carries what it learns up its
    /// stack until it has chosen the node to visit next; the root's value
    /// if that finished the root.
    fn advance(&mut self, proc: &mut Processor<G>, me: usize, p: usize) -> Result<Option<Value>, SimError> {
        let Some((pos, ply, alpha, beta, exclusive)) = proc.next.take() else {
            self.report.idle += 1;
            return Ok(None);
        };
        if self.latency > 0 && p > 1 {
            // The partitioned table: the entry of key k lives on processor
            // k mod P, and a visit waits for an entry held elsewhere.
            let wait = match proc.wait {
                Some(w) => w,
                None => {
                    if self.key(&pos)? % p as u64 == me as u64 {
                        0
                    } else {
                        self.latency
                    }
                }
            };
            if wait > 0 {
                proc.wait = Some(wait - 1);
                proc.next = Some((pos, ply, alpha, beta, exclusive));
                self.report.stalled += 1;
                return Ok(None);
            }
            proc.wait = None;
        }
        self.report.work += 1;
        if self.report.work > self.max_work {
            return Err(SimError::WorkLimit(self.max_work));
        }
        let mut back = self.visit(proc, pos, ply, alpha, beta, exclusive)?;
        loop {
            let Some(b) = back else { return Ok(None) };
            let Some(frame) = proc.stack.last_mut() else {
                return match b {
                    Back::Value(v) => Ok(Some(v)),
                    Back::Deferred => Err(SimError::BadGame("the root was put off".into())),
                };
            };
            let (i, _) = frame.child.take().expect("a frame waits for its child");
            match b {
                Back::Deferred => frame.later.push(i),
                Back::Value(v) => {
                    if frame.role.prefers(v, frame.g) || frame.searched == 0 {
                        frame.g = v;
                        frame.best = i;
                    }
                    frame.searched += 1;
                }
            }
            back = self.next_child(proc)?;
        }
    }

    /// Visits a node: settles it at once (table, leaf, put off) or pushes
    /// its frame and picks its first child.
    fn visit(
        &mut self,
        proc: &mut Processor<G>,
        pos: G::Position,
        ply: u32,
        mut alpha: Value,
        mut beta: Value,
        exclusive: bool,
    ) -> Result<Option<Back>, SimError> {
        let draft = if self.horizon == u32::MAX {
            u32::MAX
        } else {
            self.horizon - ply
        };
        let key = self.key(&pos)?;
        let mut entry = Entry::unknown(draft);
        let mut hint = NO_MOVE;
        if ply > 0 {
            let (lo, hi) = self.game.bounds_within(&pos, alpha, beta);
            if lo == hi || lo >= beta {
                return Ok(Some(Back::Value(lo)));
            }
            if hi <= alpha {
                return Ok(Some(Back::Value(hi)));
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
        }
        if let Some(&e) = self.table.get(&key) {
            hint = e.best;
            if e.draft == draft {
                entry = e;
                if e.lower == e.upper || e.lower >= beta {
                    return Ok(Some(Back::Value(e.lower)));
                } else if e.upper <= alpha {
                    return Ok(Some(Back::Value(e.upper)));
                }
                alpha = alpha.max(e.lower);
                beta = beta.min(e.upper);
            }
        }
        let mut moves = Vec::new();
        if ply < self.horizon {
            if exclusive && self.claims.get(&(key, draft)).is_some_and(|&n| n > 0) {
                return Ok(Some(Back::Deferred));
            }
            self.game.moves(&pos, &mut moves);
        }
        if moves.is_empty() {
            self.report.leaf_evals += 1;
            let v = checked(self.game.evaluate(&pos)).map_err(|e| SimError::BadGame(e.to_string()))?;
            entry.lower = v;
            entry.upper = v;
            entry.best = NO_MOVE;
            self.table.insert(key, entry);
            return Ok(Some(Back::Value(v)));
        }
        *self.claims.entry((key, draft)).or_insert(0) += 1;
        let first = if self.move_first && (hint as usize) < moves.len() {
            hint as usize
        } else {
            0
        };
        let role = self.game.role(&pos);
        proc.stack.push(Frame {
            pos,
            ply,
            key,
            draft,
            role,
            alpha,
            beta,
            entry,
            moves,
            first,
            k: 0,
            later: Vec::new(),
            j: 0,
            g: role.worst(),
            best: first,
            searched: 0,
            child: None,
        });
        self.next_child(proc)
    }

    /// The top frame picks its next child to visit (`None` back: one was
    /// chosen), or finishes: stores, releases its claim, and gives its value.
    fn next_child(&mut self, proc: &mut Processor<G>) -> Result<Option<Back>, SimError> {
        let f = proc.stack.last_mut().expect("a frame");
        let cut = match f.role {
            Role::Max => f.g >= f.beta,
            Role::Min => f.g <= f.alpha,
        };
        let n = f.moves.len();
        let pick = if cut {
            None
        } else if f.k < n {
            f.k += 1;
            Some((crate::algorithms::alphabeta::move_at(f.k - 1, f.first), f.k > 1))
        } else if f.j < f.later.len() {
            f.j += 1;
            Some((f.later[f.j - 1], false))
        } else {
            None
        };
        if let Some((i, exclusive)) = pick {
            let (a, b) = match f.role {
                Role::Max => (f.alpha.max(f.g), f.beta),
                Role::Min => (f.alpha, f.beta.min(f.g)),
            };
            let child = self.game.play(&f.pos, f.moves[i]);
            f.child = Some((i, exclusive));
            proc.next = Some((child, f.ply + 1, a, b, exclusive));
            return Ok(None);
        }
        let f = proc.stack.pop().expect("a frame");
        if let Some(c) = self.claims.get_mut(&(f.key, f.draft)) {
            *c -= 1;
        }
        let mut entry = f.entry;
        if f.g <= f.alpha {
            entry.upper = f.g;
        } else if f.g >= f.beta {
            entry.lower = f.g;
        } else {
            entry.lower = f.g;
            entry.upper = f.g;
        }
        entry.best = f.best as u32;
        self.table.insert(f.key, entry);
        Ok(Some(Back::Value(f.g)))
    }
}
