//! The engine behind RecSSS\* and RecDual\*: Bhattacharya and Bagchi's
//! recursive SSS\*, with Reinefeld's OPEN arrays (1993).
//!
//! Every expanded node of the *expanding* role (MAX for RecSSS\*, MIN for
//! RecDual\*) owns an OPEN array with one entry per child: the child itself
//! if it is a leaf, otherwise the child's current child (a grandson of the
//! same role), explored one after the other. The recursion refines the best
//! entry while its bound equals the node's own; a solved grandson hands its
//! bound to its next brother. Arrays of solved nodes are recycled, so after
//! warm-up no step allocates.

pub(crate) use super::polarity::Polarity;
use crate::game::Game;
use crate::observe::{Fail, Observer, Pass};
use crate::search::{checked, Budget, Outcome, SearchError, SearchOptions};
use crate::stats::Stats;
use crate::value::{Value, INF};

const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Unexpanded,
    Live,
    Solved,
}

/// One entry of an OPEN array.
#[derive(Clone, Debug)]
struct Entry<P> {
    /// The node the entry stands for: the child, or the child's current child.
    pos: P,
    ply: u32,
    /// Index of the child among the owner's children (unused for the virtual root).
    child: u32,
    /// Index of the grandson among the child's children, or `NONE` if the entry is the child.
    grand: u32,
    /// Number of the child's children (when `grand != NONE`).
    brothers: u32,
    /// The child itself when the entry stands for one of its children
    /// (`grand != NONE`): the next brother is played from it.
    parent: Option<P>,
    /// Where the child's moves start in the array's move pool (when
    /// `grand != NONE`). The moves are generated once, when the child is
    /// expanded, and kept: the next brother is the next move of that same
    /// list, never of a list generated again (a game whose move order is
    /// not stable between calls cannot send the search back to a brother
    /// it already solved).
    first: u32,
    status: Status,
    h: Value,
    /// The OPEN array of this entry's node once it is expanded, or `NONE`.
    array: u32,
}

pub(crate) struct Recursive<'a, G: Game, O: Observer> {
    game: &'a G,
    polarity: Polarity,
    horizon: u32,
    max_open: usize,
    arrays: Vec<Vec<Entry<G::Position>>>,
    /// Per OPEN array, the moves of its entries' children (`Entry::first`).
    pools: Vec<Vec<G::Move>>,
    /// Per OPEN array, a tournament over its entries (see [`Tournament`]),
    /// so that the best entry after a step costs `O(log w)`, not a scan of
    /// the array (a root of 70,000 moves took 26 s: issue 63).
    trees: Vec<Tournament>,
    free: Vec<u32>,
    /// Reused by [`Recursive::release`].
    stack: Vec<u32>,
    open: usize,
    stats: Stats,
    budget: Budget,
    obs: &'a mut O,
    path: Vec<u32>,
    moves: Vec<G::Move>,
    /// The root's moves, kept from the one time they are generated: the
    /// best move is named from the list its index was taken in, not from
    /// one generated again (a game whose order changes between calls).
    root_moves: Vec<G::Move>,
    /// The root's position, for the virtual root that stands above a root
    /// of the other role.
    root: G::Position,
    virtual_root: bool,
    /// Under a virtual root: the root child solved with the best merit so far.
    root_best: Option<(u32, Value)>,
}

impl<'a, G: Game, O: Observer> Recursive<'a, G, O> {
    pub(crate) fn new(game: &'a G, opts: &SearchOptions, polarity: Polarity, obs: &'a mut O) -> Self {
        let root = game.root();
        Recursive {
            game,
            polarity,
            horizon: opts.limits.depth.unwrap_or(u32::MAX),
            max_open: opts.limits.max_open,
            arrays: Vec::new(),
            pools: Vec::new(),
            trees: Vec::new(),
            free: Vec::new(),
            stack: Vec::new(),
            open: 0,
            stats: Stats::default(),
            budget: Budget::new(opts),
            obs,
            path: Vec::new(),
            moves: Vec::new(),
            root_moves: Vec::new(),
            virtual_root: game.role(&root) != polarity.expanding(),
            root,
            root_best: None,
        }
    }

    fn unsupported(&self, what: &str) -> SearchError {
        SearchError::Unsupported {
            reason: format!("recursive SSS* needs MAX and MIN to alternate, but {what}"),
        }
    }

    /// The moves of `pos` at `ply` into `self.moves` (none at the horizon);
    /// the root's (asked for once, at ply 0) are kept.
    fn generate(&mut self, pos: &G::Position, ply: u32) {
        self.moves.clear();
        if ply < self.horizon {
            self.game.moves(pos, &mut self.moves);
        }
        if ply == 0 {
            self.root_moves.clone_from(&self.moves);
        }
    }

    /// The entry for child `i` (at `pos`, `ply`) of an expanding node:
    /// the child if it is a leaf, else its first child.
    fn entry_for(
        &mut self,
        child: G::Position,
        ply: u32,
        i: u32,
        h: Value,
        pool: &mut Vec<G::Move>,
    ) -> Result<Entry<G::Position>, SearchError> {
        self.generate(&child, ply);
        if self.moves.is_empty() {
            return Ok(Entry {
                pos: child,
                ply,
                child: i,
                grand: NONE,
                brothers: 0,
                parent: None,
                first: 0,
                status: Status::Unexpanded,
                h,
                array: NONE,
            });
        }
        self.budget.visit(&mut self.stats)?;
        self.stats.nodes_expanded += 1;
        if self.game.role(&child) == self.polarity.expanding() {
            return Err(self.unsupported("a node has a child of its own role"));
        }
        let brothers = self.moves.len() as u32;
        let first = pool.len() as u32;
        pool.extend_from_slice(&self.moves);
        let grand = self.game.play(&child, self.moves[0]);
        Ok(Entry {
            pos: grand,
            ply: ply + 1,
            child: i,
            grand: 0,
            brothers,
            parent: Some(child),
            first,
            status: Status::Unexpanded,
            h,
            array: NONE,
        })
    }

    fn alloc(
        &mut self,
        entries: Vec<Entry<G::Position>>,
        pool: Vec<G::Move>,
        mut tree: Tournament,
    ) -> Result<u32, SearchError> {
        self.open += entries.len();
        if self.open > self.max_open {
            self.budget.finish(&mut self.stats);
            return Err(SearchError::OpenLimit {
                limit: self.max_open,
                stats: self.stats,
            });
        }
        self.stats.open_pushes += entries.len() as u64;
        self.stats.max_open = self.stats.max_open.max(self.open as u64);
        tree.build(&entries, self.polarity);
        Ok(if let Some(i) = self.free.pop() {
            self.arrays[i as usize] = entries;
            self.pools[i as usize] = pool;
            self.trees[i as usize] = tree;
            i
        } else {
            self.arrays.push(entries);
            self.pools.push(pool);
            self.trees.push(tree);
            (self.arrays.len() - 1) as u32
        })
    }

    /// Frees an OPEN array and every array below it.
    fn release(&mut self, a: u32) {
        // A stack kept between calls, so that releasing allocates nothing.
        let mut stack = std::mem::take(&mut self.stack);
        stack.push(a);
        while let Some(a) = stack.pop() {
            let arr = std::mem::take(&mut self.arrays[a as usize]);
            self.open -= arr.len();
            stack.extend(arr.iter().filter(|e| e.array != NONE).map(|e| e.array));
            let mut arr = arr;
            arr.clear();
            self.arrays[a as usize] = arr;
            self.pools[a as usize].clear();
            self.trees[a as usize].clear();
            self.free.push(a);
        }
        self.stack = stack;
    }

    /// Builds the OPEN array of the expanding node `pos`.
    fn expand(&mut self, pos: &G::Position, ply: u32, h: Value, is_virtual: bool) -> Result<u32, SearchError> {
        let (mut entries, mut pool, tree) = if self.free.is_empty() {
            (Vec::new(), Vec::new(), Tournament::default())
        } else {
            // Reuse a recycled buffer's capacity.
            let i = *self.free.last().expect("non-empty") as usize;
            (
                std::mem::take(&mut self.arrays[i]),
                std::mem::take(&mut self.pools[i]),
                std::mem::take(&mut self.trees[i]),
            )
        };
        entries.clear();
        pool.clear();
        if is_virtual {
            let root = pos.clone();
            entries.push(self.entry_for(root, 0, 0, h, &mut pool)?);
        } else {
            self.stats.nodes_expanded += 1;
            let moves = std::mem::take(&mut self.moves);
            for (i, m) in moves.iter().enumerate() {
                let child = self.game.play(pos, *m);
                if self.game.role(&child) == self.polarity.expanding() {
                    self.moves = moves;
                    return Err(self.unsupported("a node has a child of its own role"));
                }
                entries.push(self.entry_for(child, ply + 1, i as u32, h, &mut pool)?);
            }
            self.moves = moves;
        }
        self.alloc(entries, pool, tree)
    }

    /// The best entry of an OPEN array: best merit, ties to the left-most.
    #[inline]
    fn best(&self, a: u32) -> usize {
        self.trees[a as usize].best()
    }

    /// RecSSS\*(n): refines node `pos` whose entry has merit `h`; returns
    /// its new merit and updates its status and array.
    fn rec(
        &mut self,
        pos: &G::Position,
        ply: u32,
        h: Value,
        status: &mut Status,
        array: &mut u32,
        is_virtual: bool,
    ) -> Result<Value, SearchError> {
        if *status == Status::Unexpanded {
            if !is_virtual {
                self.budget.visit(&mut self.stats)?;
                self.generate(pos, ply);
                if self.moves.is_empty() {
                    // A leaf: evaluate once, solved for good.
                    self.stats.leaf_evals += 1;
                    let v = checked(self.game.evaluate(pos))?;
                    if O::PATHS {
                        self.obs.leaf(&self.path, v);
                    }
                    *status = Status::Solved;
                    return Ok(self.polarity.clip(h, v));
                }
            }
            *status = Status::Live;
            *array = self.expand(pos, ply, h, is_virtual)?;
        }
        let a = *array;
        let mut g = self.best(a);
        loop {
            let e = &self.arrays[a as usize][g];
            if e.h != h || e.status == Status::Solved {
                break;
            }
            let (epos, eply, eh, mut est, mut earr) = (e.pos.clone(), e.ply, e.h, e.status, e.array);
            let (child, grand) = (e.child, e.grand);
            if O::PATHS {
                if !is_virtual {
                    self.path.push(child);
                }
                if grand != NONE {
                    self.path.push(grand);
                }
            }
            let r = self.rec(&epos, eply, eh, &mut est, &mut earr, false);
            if O::PATHS {
                if grand != NONE {
                    self.path.pop();
                }
                if !is_virtual {
                    self.path.pop();
                }
            }
            let nh = r?;
            if est == Status::Solved && earr != NONE {
                self.release(earr);
                earr = NONE;
            }
            if is_virtual && est == Status::Solved && grand != NONE {
                // The root's children are solved one after the other, each
                // bounded by the last: a strictly better merit is a new best.
                if self.root_best.is_none_or(|(_, old)| self.polarity.before(old, nh)) {
                    self.root_best = Some((grand, nh));
                }
            }
            let e = &mut self.arrays[a as usize][g];
            e.h = nh;
            e.status = est;
            e.array = earr;
            if nh != eh {
                self.trees[a as usize].update(&self.arrays[a as usize], g, self.polarity);
            }
            let e = &mut self.arrays[a as usize][g];
            if est == Status::Solved && e.grand != NONE && e.grand + 1 < e.brothers {
                // Replace the solved grandson by its next brother, bounded by its value.
                let next = e.grand + 1;
                let mv = self.pools[a as usize][(e.first + next) as usize];
                let brother = self.game.play(e.parent.as_ref().expect("a grandson's parent"), mv);
                let e = &mut self.arrays[a as usize][g];
                e.pos = brother;
                e.grand = next;
                e.status = Status::Unexpanded;
            }
            // An entry that kept the node's merit is still the best (no entry
            // has a better merit, and none left of it the same): only a
            // changed merit needs the array scanned again.
            if nh != eh {
                g = self.best(a);
            }
        }
        let e = &self.arrays[a as usize][g];
        let result = e.h;
        if e.status == Status::Solved {
            *status = Status::Solved;
        }
        Ok(result)
    }

    pub(crate) fn run(mut self) -> Result<Outcome<G::Move>, SearchError> {
        let root = self.root.clone();
        let is_virtual = self.virtual_root;
        let mut h = self.polarity.start();
        let mut status = Status::Unexpanded;
        let mut array = NONE;
        loop {
            let before = self.stats.leaf_evals;
            let bound = h;
            h = self.rec(&root, 0, bound, &mut status, &mut array, is_virtual)?;
            self.stats.passes += 1;
            if O::STEPS {
                let solved = status == Status::Solved;
                let (lower, upper) = match (self.polarity, solved) {
                    (_, true) => (h, h),
                    (Polarity::Sss, false) => (-INF, h),
                    (Polarity::Dual, false) => (h, INF),
                };
                let pass = Pass {
                    pass: self.stats.passes,
                    alpha: bound,
                    beta: bound,
                    result: h,
                    fail: if solved {
                        Fail::Exact
                    } else if self.polarity == Polarity::Sss {
                        Fail::Low
                    } else {
                        Fail::High
                    },
                    lower,
                    upper,
                    leaf_evals: self.stats.leaf_evals - before,
                    better_count: None,
                };
                self.obs.pass(pass);
            }
            if status == Status::Solved {
                break;
            }
        }
        // The best move: the root's entry that solved it, or under a virtual
        // root the root child that was solved with the root's value.
        let best_index = if is_virtual {
            self.root_best.map(|(i, _)| i as usize)
        } else if array == NONE {
            None
        } else {
            Some(self.arrays[array as usize][self.best(array)].child as usize)
        };
        let best_move = best_index.and_then(|i| self.root_moves.get(i).copied());
        self.budget.finish(&mut self.stats);
        Ok(Outcome::new(Some(h), best_move, best_index, None, self.stats))
    }
}

/// A tournament (a winner tree) over an OPEN array's entries: each inner
/// node holds the better of its two children's winners, the left one on
/// equal merits, so that the root is the array's best entry, leftmost on
/// ties, exactly the entry a scan would take, and a changed merit replays
/// only its `log w` matches.
#[derive(Default)]
struct Tournament {
    /// `win[size + i]` is entry `i` (`NONE` past the array's end);
    /// `win[k]` the winner of `win[2k]` and `win[2k + 1]`.
    win: Vec<u32>,
}

impl Tournament {
    /// The winner of a match between entries `x` (left) and `y` (right).
    #[inline]
    fn play<P>(arr: &[Entry<P>], polarity: Polarity, x: u32, y: u32) -> u32 {
        if y == NONE {
            return x;
        }
        if x == NONE {
            return y;
        }
        let (hx, hy) = (arr[x as usize].h, arr[y as usize].h);
        let right = match polarity {
            Polarity::Sss => hy > hx,
            Polarity::Dual => hy < hx,
        };
        if right {
            y
        } else {
            x
        }
    }

    fn build<P>(&mut self, arr: &[Entry<P>], polarity: Polarity) {
        let size = arr.len().next_power_of_two();
        self.win.clear();
        self.win.resize(2 * size, NONE);
        for i in 0..arr.len() {
            self.win[size + i] = i as u32;
        }
        for k in (1..size).rev() {
            self.win[k] = Self::play(arr, polarity, self.win[2 * k], self.win[2 * k + 1]);
        }
    }

    /// Replays the matches above entry `i`, whose merit changed.
    fn update<P>(&mut self, arr: &[Entry<P>], i: usize, polarity: Polarity) {
        let mut k = (self.win.len() / 2 + i) / 2;
        while k >= 1 {
            self.win[k] = Self::play(arr, polarity, self.win[2 * k], self.win[2 * k + 1]);
            k /= 2;
        }
    }

    #[inline]
    fn best(&self) -> usize {
        // An array of one entry is its own winner, at `win[1]`.
        self.win[1] as usize
    }

    fn clear(&mut self) {
        self.win.clear();
    }
}
