//! The `widest` rule's selection, in time near what changed since the last.
//!
//! The rule takes the live tip of the widest interval, leftmost on ties,
//! and its bound on a subtree's tips is not tight (a subtree whose bounds
//! are wide may hold only narrow tips), so no single walk from the root
//! finds it: a search of the stored tree from the root per leaf made a
//! comb of 100,000 levels take 108 s (issue 63). Instead every stored node
//! keeps the best tip below it in its window (its key, the tip, and the
//! tip's interval as seen from the node, so that its key in any narrower
//! window is `min(beta, hi) - max(alpha, lo)`), and every expanded node a
//! segment tree of its children's best tips, leftmost first on ties. Along
//! the path to the last tip, whose subtrees change, nothing is cached:
//! instead each node of it keeps the best tip left of the path and right of
//! it (two queries of its segment tree), folded into prefix bests from the
//! root, so that the whole tree's best is one comparison of three.
//!
//! After a step only what it moved is looked at again: the path's nodes
//! from where the bounds stopped moving ([`Gsearch::step`]'s `resume`)
//! down, whose other children's windows may have narrowed. A narrowed
//! window keeps a cached best if that tip's key did not change (every
//! other tip's key only fell); otherwise the node's children are asked
//! again, each the same way. A new tip off the path makes the path turn
//! where it hangs: the part given up is folded back into its nodes'
//! caches, and the new part is read by climbing from the tip.

use super::{is_live, key, Brothers, Gsearch, Select};
use crate::game::Game;
use crate::observe::Observer;
use crate::value::{Role, Value, INF};

/// A best tip below a node: its key in the node's window (`> 0`, or it
/// would not be live), the tip, and its interval `[lo, hi]` as seen from
/// the node (its own bounds narrowed by the windows its brothers below the
/// node give it, and by the bounds of the nodes between).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Best {
    key: i64,
    tip: u32,
    lo: Value,
    hi: Value,
}

impl Best {
    /// Its key in the node's window `(a, b)`.
    fn key_in(&self, (a, b): (Value, Value)) -> i64 {
        key(Select::Widest, a.max(self.lo), b.min(self.hi))
    }
}

/// No key: nothing live.
const NONE: (i64, u32) = (i64::MIN, u32::MAX);

/// What a node keeps for `widest`.
#[derive(Default)]
pub(super) struct Cache {
    /// The best tip below the node, exact in the window `win` while
    /// `res_epoch` is the search's (never while the node is on the path).
    res: Option<Best>,
    win: (Value, Value),
    res_epoch: u32,
    /// Each child's best tip as the node sees it, `(tip, lo, hi)`, and a
    /// segment tree of their keys in the children's windows, `(key, child)`
    /// (`seg[size + i]` is child `i`), computed from the brothers `ent_key`.
    tips: Vec<(u32, Value, Value)>,
    seg: Vec<(i64, u32)>,
    ent_key: (Value, Value, Value, usize, Value),
    ent_epoch: u32,
}

/// A best tip found left or right of the path, with the depth of the path's
/// node it hangs from: `(key, tip, depth)`.
type Side = (i64, u32, u32);

const NO_SIDE: Side = (i64::MIN, u32::MAX, u32::MAX);

/// The search's `widest` state along `best_path`: `left[i]` is the best tip
/// left of the path at its nodes `0..i` (the shallowest on ties: it is the
/// leftmost), `right[i]` the best right of it (the deepest on ties).
#[derive(Default)]
pub(super) struct PathBests {
    left: Vec<Side>,
    right: Vec<Side>,
    /// Bumped when every cache must be recomputed (the first selection,
    /// and RSEARCH's return to the rule after searching left to right).
    epoch: u32,
    /// Reused by the climb from a new tip.
    chain: Vec<u32>,
}

/// The better of two keys, `(key, child)`, `l` on the left (leftmost on ties).
#[inline]
fn better(l: (i64, u32), r: (i64, u32)) -> (i64, u32) {
    if r.0 > l.0 {
        r
    } else {
        l
    }
}

/// The best of `seg`'s children `lo..hi`.
fn range(seg: &[(i64, u32)], lo: usize, hi: usize) -> (i64, u32) {
    let size = seg.len() / 2;
    let (mut l, mut r) = (lo + size, hi + size);
    let (mut bl, mut br) = (NONE, NONE);
    while l < r {
        if l & 1 == 1 {
            bl = better(bl, seg[l]);
            l += 1;
        }
        if r & 1 == 1 {
            r -= 1;
            br = better(seg[r], br);
        }
        l /= 2;
        r /= 2;
    }
    better(bl, br)
}

/// Sets child `i`'s key in `seg`.
fn put(seg: &mut [(i64, u32)], i: usize, key: i64) {
    let size = seg.len() / 2;
    let mut k = size + i;
    seg[k] = if key == i64::MIN { NONE } else { (key, i as u32) };
    k /= 2;
    while k >= 1 {
        seg[k] = better(seg[2 * k], seg[2 * k + 1]);
        k /= 2;
    }
}

/// A brothers' summary as a cache key: the node's window and its children's
/// best bound, where, and the runner-up decide every child's window.
fn brothers_key(b: &Brothers) -> (Value, Value, Value, usize, Value) {
    (b.window.0, b.window.1, b.best, b.best_at, b.second)
}

impl<G: Game, O: Observer> Gsearch<'_, G, O> {
    /// The brothers of expanded node `n`'s children in the window `win`.
    fn brothers(&self, n: u32, win: (Value, Value)) -> Brothers {
        let node = &self.nodes[n as usize];
        Brothers::from_tree(&node.tree, node.role.expect("an expanded node"), win)
    }

    /// Finds the `widest` rule's tip, onto `best_path` and `best_frames`:
    /// the live tip of the widest interval in its window, leftmost on ties.
    /// `fresh`: nothing kept from the last selection holds. Returns whether
    /// there is a live tip.
    pub(super) fn select_widest(&mut self, root: u32, fresh: bool) -> bool {
        let mut st = std::mem::take(&mut self.wide);
        let found = self.select_with(&mut st, root, fresh);
        self.wide = st;
        found
    }

    fn select_with(&mut self, st: &mut PathBests, root: u32, fresh: bool) -> bool {
        let j = if fresh || self.best_frames.is_empty() || st.left.is_empty() {
            st.epoch += 1;
            self.best_path.clear();
            self.best_frames.clear();
            self.best_frames.push((root, -INF, INF));
            0
        } else {
            // Above the node where the last step's bounds stopped moving
            // (and above the tip it took) nothing changed.
            self.resume.min(st.left.len() - 1)
        };
        let d = self.best_path.len();
        st.left.truncate(j + 1);
        st.right.truncate(j + 1);
        if st.left.is_empty() {
            st.left.push(NO_SIDE);
            st.right.push(NO_SIDE);
        }
        // Down the path from there: each node's window again (its parent's
        // brothers may have moved), its other children's tips, and its sides.
        let epoch = st.epoch;
        let mut m = d;
        let mut center = None;
        for i in j..=d {
            if i > j {
                let (p, a, b) = self.best_frames[i - 1];
                let k = self.best_path[i - 1] as usize;
                if i == self.best_frames.len() {
                    // A step keeps the frames above the node it ended at.
                    let n = self.nodes[p as usize].kids[k];
                    self.best_frames.push((n, a, b));
                }
                let w = self.brothers(p, (a, b)).window(k);
                (self.best_frames[i].1, self.best_frames[i].2) = w;
            }
            let (n, a, b) = self.best_frames[i];
            let node = &self.nodes[n as usize];
            if !is_live(node.lo, node.hi, a, b) {
                m = i;
                break;
            }
            if i == d {
                center = self.res_of(n, (a, b), epoch);
                self.nodes[n as usize].wide.res_epoch = 0;
                break;
            }
            let k = self.best_path[i] as usize;
            self.refresh(n, (a, b), k, epoch);
            self.push_sides(st, n, k, i);
        }
        self.best_path.truncate(m);
        self.best_frames.truncate(m + 1);
        // The best of the three, leftmost on ties: left of the path, below
        // its end, right of it.
        let mut best = st.left[m];
        let mut turn = true;
        if let Some(c) = center
            && c.key > best.0
        {
            (best, turn) = ((c.key, c.tip, m as u32), false);
        }
        if st.right[m].0 > best.0 {
            (best, turn) = (st.right[m], true);
        }
        let (key, tip, at) = best;
        if key == i64::MIN {
            return false;
        }
        let at = at as usize;
        if turn {
            // The path turns at depth `at`: what it gives up below is folded
            // back into its nodes' caches and children's entries.
            let mut below = center;
            for i in (at..m).rev() {
                let (n, a, b) = self.best_frames[i];
                self.set_entry(n, (a, b), self.best_path[i] as usize, below);
                if i > at {
                    below = self.top(n);
                    let w = &mut self.nodes[n as usize].wide;
                    (w.res, w.win, w.res_epoch) = (below, (a, b), epoch);
                }
            }
            self.best_path.truncate(at);
            self.best_frames.truncate(at + 1);
            st.left.truncate(at + 1);
            st.right.truncate(at + 1);
        }
        // The new part of the path, from the tip up to where it hangs.
        let mut chain = std::mem::take(&mut st.chain);
        chain.clear();
        let mut x = tip;
        while self.nodes[x as usize].ply as usize > at {
            chain.push(x);
            x = self.nodes[x as usize].parent;
        }
        debug_assert_eq!(x, self.best_frames[at].0, "the tip hangs from the path");
        for &q in chain.iter().rev() {
            let depth = self.best_frames.len() - 1;
            let (p, a, b) = self.best_frames[depth];
            let idx = self.nodes[q as usize].idx as usize;
            if depth > at {
                self.refresh(p, (a, b), idx, epoch);
            }
            self.push_sides(st, p, idx, depth);
            let (qa, qb) = self.brothers(p, (a, b)).window(idx);
            self.best_path.push(idx as u32);
            self.best_frames.push((q, qa, qb));
            self.nodes[q as usize].wide.res_epoch = 0;
        }
        st.chain = chain;
        debug_assert_eq!(self.best_frames.last().map(|f| f.0), Some(tip));
        self.best_key = key;
        true
    }

    /// Pushes the path's sides at its node `n` (depth `i`, the path taking
    /// child `k`) onto the prefix bests.
    fn push_sides(&self, st: &mut PathBests, n: u32, k: usize, i: usize) {
        let w = &self.nodes[n as usize].wide;
        let kids = self.nodes[n as usize].kids.len();
        let side = |(key, c): (i64, u32)| {
            if key == i64::MIN {
                NO_SIDE
            } else {
                (key, w.tips[c as usize].0, i as u32)
            }
        };
        let l = side(range(&w.seg, 0, k));
        let r = side(range(&w.seg, k + 1, kids));
        let last_l = *st.left.last().expect("the root's entry");
        let last_r = *st.right.last().expect("the root's entry");
        st.left.push(if l.0 > last_l.0 { l } else { last_l });
        st.right
            .push(if r.0 >= last_r.0 && r.0 != i64::MIN { r } else { last_r });
    }

    /// Makes path node `n`'s children's entries exact in the window `win`,
    /// all but the path's child `skip` (whose subtree is changing).
    fn refresh(&mut self, n: u32, win: (Value, Value), skip: usize, epoch: u32) {
        let br = self.brothers(n, win);
        let w = &self.nodes[n as usize].wide;
        if w.ent_epoch != epoch || w.ent_key != brothers_key(&br) {
            self.fill(n, &br, Some(skip), epoch);
        }
    }

    /// Computes expanded node `n`'s children's entries under the brothers
    /// `br` (all but `skip`'s).
    fn fill(&mut self, n: u32, br: &Brothers, skip: Option<usize>, epoch: u32) {
        let mut w = std::mem::take(&mut self.nodes[n as usize].wide);
        let kids = self.nodes[n as usize].kids.len();
        if w.tips.len() != kids || w.ent_epoch != epoch {
            w.tips = vec![(u32::MAX, 0, 0); kids];
            w.seg = vec![NONE; 2 * kids.next_power_of_two()];
        }
        // Each child as the node sees it: the window its brothers give it
        // from outside the node's own.
        let rel = Brothers {
            window: (-INF, INF),
            ..*br
        };
        let size = w.seg.len() / 2;
        for i in (0..kids).filter(|&i| Some(i) != skip) {
            let kid = self.nodes[n as usize].kids[i];
            let r = self.res_of(kid, br.window(i), epoch);
            let (ra, rb) = rel.window(i);
            w.seg[size + i] = match r {
                Some(b) => {
                    w.tips[i] = (b.tip, b.lo.max(ra), b.hi.min(rb));
                    (b.key, i as u32)
                }
                None => NONE,
            };
        }
        for k in (1..size).rev() {
            w.seg[k] = better(w.seg[2 * k], w.seg[2 * k + 1]);
        }
        (w.ent_key, w.ent_epoch) = (brothers_key(br), epoch);
        self.nodes[n as usize].wide = w;
    }

    /// Sets path node `n`'s (window `win`) entry for child `k` to its best
    /// tip `r` (as the child sees it).
    fn set_entry(&mut self, n: u32, win: (Value, Value), k: usize, r: Option<Best>) {
        let br = self.brothers(n, win);
        let (ra, rb) = Brothers {
            window: (-INF, INF),
            ..br
        }
        .window(k);
        let w = &mut self.nodes[n as usize].wide;
        let key = match r {
            Some(b) => {
                w.tips[k] = (b.tip, b.lo.max(ra), b.hi.min(rb));
                b.key
            }
            None => i64::MIN,
        };
        put(&mut w.seg, k, key);
    }

    /// The best tip of node `n`'s entries, as `n` sees it.
    fn top(&self, n: u32) -> Option<Best> {
        let w = &self.nodes[n as usize].wide;
        let (key, c) = w.seg[1];
        (key != i64::MIN).then(|| {
            let (tip, lo, hi) = w.tips[c as usize];
            Best { key, tip, lo, hi }
        })
    }

    /// The best tip below node `c` (off the path) in the window `win`: from
    /// its cache if its window is the same, or narrower and the cached tip's
    /// key did not move; otherwise from its children, asked the same way.
    fn res_of(&mut self, c: u32, win: (Value, Value), epoch: u32) -> Option<Best> {
        let node = &self.nodes[c as usize];
        if node.is_open_tip() {
            let key = key(Select::Widest, win.0.max(node.lo), win.1.min(node.hi));
            return (key > 0).then_some(Best {
                key,
                tip: c,
                lo: node.lo,
                hi: node.hi,
            });
        }
        if node.kids.is_empty() || !is_live(node.lo, node.hi, win.0, win.1) {
            return None;
        }
        let w = &node.wide;
        if w.res_epoch == epoch {
            let narrower = win.0 >= w.win.0 && win.1 <= w.win.1;
            let holds = match w.res {
                _ if w.win == win => true,
                None => narrower,
                Some(b) => narrower && b.key_in(win) == b.key,
            };
            if holds {
                self.nodes[c as usize].wide.win = win;
                return self.nodes[c as usize].wide.res;
            }
        }
        let role: Role = node.role.expect("an expanded node");
        let br = Brothers::from_tree(&node.tree, role, win);
        self.fill(c, &br, None, epoch);
        let res = self.top(c);
        let w = &mut self.nodes[c as usize].wide;
        (w.res, w.win, w.res_epoch) = (res, win, epoch);
        res
    }
}
