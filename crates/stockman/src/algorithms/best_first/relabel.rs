//! Relabelling OPEN when a node's children do not fit below its label.
//!
//! A label spends `ceil(log2 n)` bits a level on a node of `n` children, so
//! 96 bits (the low 32 hold a leaf's index) run out after 96 binary levels:
//! a comb, a subtree and a leaf at every level, of 100 levels. The path is
//! deep, but OPEN holds few states at a time. A relabelling gives the
//! states below an ancestor `a` of the node `j` that ran out new labels
//! within `a`'s range, in the same left-to-right order, packed by the room
//! each needs: a node's own state one place, a SOLVED leaf one, a created
//! child the room of its subtree, and the children still to come (pending,
//! or not yet pushed by a node of the sequential role) slots of what is
//! left: half of it for `j`'s children, where the search grows next, and
//! half for all the others.
//!
//! `a` is the nearest ancestor (at 1, 2, 4, ... levels up) whose range
//! gives `j`'s children at least [`GROW`] bits of room to grow; the first
//! relabelling of a search, and the last resort, is the root's. On a
//! 100,000-level comb that is about 2,000 relabellings (one every 50
//! levels), most of which move the last 64 to 256 levels only.
//!
//! # Complexity
//! `O(s log s + e)` for `s` the states below the ancestors tried and `e`
//! the entries on OPEN (scanned for the ones in `a`'s range), each time a
//! node's children do not fit.

use super::rounds::Taken;
use super::{child_bits, is_live, BestFirst, Head, BATCH, ID, INDEX_BITS, LEAF, NONE, ROOT};
use crate::game::Game;
use crate::observe::Observer;
use crate::search::SearchError;

/// One place of the label order: what a node's own state or a leaf takes.
const UNIT: u128 = 1 << INDEX_BITS;

/// The bits of growth (binary levels) a relabelling below the root must
/// give the children of the node that ran out: many, since each
/// relabelling scans OPEN (fewer in this crate's tests, whose searches
/// have fewer bits of label).
const GROW: u32 = 64;

/// The bits of label a search has: 128, and fewer in this crate's tests,
/// so that small trees run out of them and relabel
/// ([`super::tests::with_label_room`]).
#[cfg(not(test))]
#[inline]
pub(super) fn label_room() -> u32 {
    u128::BITS
}

#[cfg(test)]
thread_local! {
    pub(super) static LABEL_ROOM: std::cell::Cell<u32> = const { std::cell::Cell::new(u128::BITS) };
    pub(super) static RELABELS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// The leaves held by a round that a relabelling gave new labels.
    pub(super) static HELD_LEAVES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
pub(super) fn label_room() -> u32 {
    LABEL_ROOM.with(|r| r.get())
}

/// Where the states below an ancestor go: the slots' shifts, for `j`'s
/// children and for the others'.
struct Plan {
    order: Vec<u32>,
    held: Vec<(u32, u32)>,
    shift_j: u32,
    shift_other: u32,
}

impl<G: Game, O: Observer> BestFirst<'_, G, O> {
    /// Gives node `j` its `n` children's labels: below its own, or, if they
    /// do not fit there, after a relabelling of OPEN.
    #[inline]
    pub(super) fn label_children(&mut self, j: u32, n: u32) -> Result<(), SearchError> {
        let node = &mut self.nodes[j as usize];
        if child_bits(n) + INDEX_BITS <= node.bits as u32 {
            node.set_children(n);
            return Ok(());
        }
        self.relabel(j, n)?;
        self.nodes[j as usize].nchildren = n;
        Ok(())
    }

    /// Gives the states below an ancestor of node `j` (created, not yet
    /// expanded) new labels, in the same left-to-right order, so that `j`
    /// can label its `n` children: see the module documentation. Sets
    /// `j`'s base and shift (the caller sets its `nchildren`). Fails only
    /// if OPEN holds more than about `2^94` states.
    pub(super) fn relabel(&mut self, j: u32, n: u32) -> Result<(), SearchError> {
        debug_assert!(self.carry.is_none(), "a carried state has no label to keep");
        let nodes = &self.nodes;
        // The ties on top must stay sorted, stale ones included: drop
        // those (the other stale entries keep their old labels until their
        // buckets drop them).
        self.open.compact_top(|e| is_live(nodes, e));
        if self.last.len() < self.nodes.len() {
            self.last.resize(self.nodes.len(), 0);
        }
        let mut a = j;
        let mut up = 1;
        let plan = loop {
            for _ in 0..up {
                if a != ROOT {
                    a = self.nodes[a as usize].parent;
                }
            }
            up *= 2;
            // The first relabelling is the root's: it gives every node its
            // last label (`last`), which the later ones read.
            if self.relabels == 0 {
                a = ROOT;
            }
            if let Some(plan) = self.plan(a, j, n)? {
                break plan;
            }
        };
        self.relabels += 1;
        #[cfg(test)]
        RELABELS.with(|r| r.set(r.get() + 1));
        self.place_below(a, j, n, plan);
        Ok(())
    }

    /// The range of labels below `a`, first and last, before this
    /// relabelling (the root's is all of them).
    fn range(&self, a: u32) -> (u128, u128) {
        if a == ROOT {
            let last = if self.room >= u128::BITS {
                u128::MAX
            } else {
                (1u128 << self.room) - 1
            };
            (0, last)
        } else {
            (self.nodes[a as usize].label(), self.last[a as usize])
        }
    }

    /// The states held by the round being applied, after the step at.
    fn held(&self) -> &[Taken] {
        if self.in_round {
            &self.round_taken[(self.round_at + 1).min(self.round_taken.len())..]
        } else {
            &[]
        }
    }

    /// The first child of `p` still to come: its next pending child, or an
    /// earlier one the round holds.
    fn zone(&self, p: u32, j: u32, n: u32, held: &[(u32, u32)]) -> (u32, u32) {
        let node = &self.nodes[p as usize];
        if p == j {
            return (0, n);
        }
        if node.status.is_some() {
            return (node.nchildren, node.nchildren);
        }
        let k = held.partition_point(|h| h.0 < p);
        let from = match held.get(k) {
            Some(&(q, i)) if q == p => i.min(node.next_child),
            _ => node.next_child,
        };
        (from.min(node.nchildren), node.nchildren)
    }

    /// The SOLVED leaves the round holds with labels from `lo` to `last`.
    fn held_leaves(&self, lo: u128, last: u128) -> Vec<(u32, u32)> {
        self.held()
            .iter()
            .filter_map(|t| match t.head {
                Head::Leaf(p, i, _) if self.nodes[p as usize].stamp == t.stamp && lo <= t.label && t.label <= last => {
                    Some((p, i))
                }
                _ => None,
            })
            .collect()
    }

    /// The held pending children, by parent and index.
    fn held_pending(&self) -> Vec<(u32, u32)> {
        let mut v: Vec<(u32, u32)> = self
            .held()
            .iter()
            .filter(|t| self.nodes[t.head.owner() as usize].stamp == t.stamp)
            .filter_map(|t| match t.head {
                Head::Pending(p, i, _) => Some((p, i)),
                _ => None,
            })
            .collect();
        v.sort_unstable();
        v
    }

    /// Whether the states below `a` fit its range with room for `j`'s
    /// children to grow, and how: `None` if they do not (below the root),
    /// an error if they do not fit even the root's.
    fn plan(&self, a: u32, j: u32, n: u32) -> Result<Option<Plan>, SearchError> {
        let (lo, last) = self.range(a);
        let nodes = &self.nodes;
        let mut order = Vec::new();
        let mut stack = vec![a];
        while let Some(p) = stack.pop() {
            order.push(p);
            let mut c = nodes[p as usize].first_child;
            while c != NONE {
                stack.push(c);
                c = nodes[c as usize].next_sibling;
            }
        }
        // The leaves below `a`: on OPEN (each node counts its own), and in
        // the round's hand.
        let on_open: u128 = order.iter().map(|&p| nodes[p as usize].leaves as u128).sum();
        let held_leaves = self.held_leaves(lo, last).len() as u128;
        let held = self.held_pending();
        let places = order.len() as u128 + on_open + held_leaves;
        let others: u128 = order
            .iter()
            .filter(|&&p| p != j)
            .map(|&p| self.zone(p, j, n, &held))
            .map(|(f, t)| (t - f) as u128)
            .sum();
        let Some(free) = (last - lo).checked_sub(places * UNIT) else {
            return if a == ROOT { Err(too_many(places)) } else { Ok(None) };
        };
        let n = n as u128;
        let log2 = |x: u128| (x > 0).then(|| (u128::BITS - 1 - x.leading_zeros()).min(u128::BITS - 1));
        // Half the room for `j`'s children (all of it if there is no other
        // child to come), half for the others'; at the root, if that leaves
        // too little, equal slots for all.
        let (shift_j, shift_other) = match (free / 2).checked_div(others) {
            None => (log2(free / n), Some(u128::BITS - 1)),
            Some(each) => (log2(free / 2 / n), log2(each)),
        };
        let grow = GROW.min((self.room - INDEX_BITS) / 2);
        let need = if a == ROOT { INDEX_BITS } else { INDEX_BITS + grow };
        let fits = |s: Option<u32>, need: u32| s.filter(|&s| s >= need);
        let (shift_j, shift_other) = match (fits(shift_j, need), fits(shift_other, INDEX_BITS)) {
            (Some(sj), Some(so)) => (sj, so),
            _ if a != ROOT => return Ok(None),
            _ => match fits(log2(free / (n + others)), INDEX_BITS) {
                Some(s) => (s, s),
                None => return Err(too_many(places + n + others)),
            },
        };
        Ok(Some(Plan {
            order,
            held,
            shift_j,
            shift_other,
        }))
    }

    /// Carries out `plan` below `a`: each node's room, then places parents
    /// first (the node's own state, its created children and leaves by
    /// index, the slots of its children to come), then every entry below
    /// `a`, and every leaf the round holds there, to its new label.
    fn place_below(&mut self, a: u32, j: u32, n: u32, plan: Plan) {
        let (lo_a, last_a) = self.range(a);
        let Plan {
            order,
            held,
            shift_j,
            shift_other,
        } = plan;
        let inside = |label: u128| lo_a <= label && label <= last_a;
        // The leaves below `a`, on OPEN and in the round's hand, by parent
        // and index.
        let mut leaves: Vec<(u32, u32, u128)> = Vec::new();
        let nodes = &self.nodes;
        for e in self.open.entries().chain(self.side.iter().map(|a| &a.0)) {
            if e.node & LEAF != 0 && inside(e.label) && is_live(nodes, e) {
                leaves.push((e.node & ID, e.label as u32, 0));
            }
        }
        leaves.extend(self.held_leaves(lo_a, last_a).into_iter().map(|(p, i)| (p, i, 0)));
        leaves.sort_unstable();
        debug_assert_eq!(
            leaves.len(),
            order
                .iter()
                .map(|&p| self.nodes[p as usize].leaves as usize)
                .sum::<usize>()
                + self.held_leaves(lo_a, last_a).len()
        );
        let shift_of = |p: u32| if p == j { shift_j } else { shift_other };
        // Each node's room, children first, kept in `last` until placed.
        let mut width = std::mem::take(&mut self.last);
        for &p in &order {
            let (f, t) = self.zone(p, j, n, &held);
            let own = 1 + count(&leaves, p) as u128;
            width[p as usize] = own * UNIT + ((t - f) as u128) * (1u128 << shift_of(p));
        }
        for &p in order.iter().rev() {
            if p != a {
                let parent = self.nodes[p as usize].parent as usize;
                width[parent] += width[p as usize];
            }
        }
        debug_assert!(width[a as usize] - 1 <= last_a - lo_a);
        let mut kids = Vec::new();
        for &p in &order {
            let lo = if p == a { lo_a } else { self.nodes[p as usize].label() };
            let mut at = lo + UNIT;
            kids.clear();
            let mut c = self.nodes[p as usize].first_child;
            while c != NONE {
                kids.push(c);
                c = self.nodes[c as usize].next_sibling;
            }
            kids.reverse();
            let first = leaves.partition_point(|l| l.0 < p);
            let end = first + count(&leaves[first..], p);
            let (mut k, mut l) = (0, first);
            while k < kids.len() || l < end {
                let kid_first = l == end || (k < kids.len() && self.nodes[kids[k] as usize].index < leaves[l].1);
                if kid_first {
                    let c = kids[k];
                    self.nodes[c as usize].place(at, at, shift_other);
                    at += width[c as usize];
                    k += 1;
                } else {
                    leaves[l].2 = at;
                    at += UNIT;
                    l += 1;
                }
            }
            let (from, to) = self.zone(p, j, n, &held);
            let shift = shift_of(p);
            debug_assert_eq!(at + ((to - from) as u128) * (1u128 << shift), lo + width[p as usize]);
            let base = at.wrapping_sub((from as u128) << shift);
            self.nodes[p as usize].place(lo, base, shift);
            width[p as usize] = lo + (width[p as usize] - 1);
        }
        if a != ROOT {
            // Its range stays what it was, room to spare included.
            width[a as usize] = last_a;
        }
        self.last = width;

        // Every entry below `a`, and every leaf the round holds there, to
        // its new label.
        let nodes = &self.nodes;
        let label_of = |node: u32, label: u128| -> u128 {
            let p = node & ID;
            if node & LEAF != 0 {
                let i = label as u32;
                let k = leaves
                    .binary_search_by(|l| (l.0, l.1).cmp(&(p, i)))
                    .expect("every leaf on OPEN below the ancestor was placed");
                leaves[k].2 | i as u128
            } else if node & BATCH != 0 {
                let n = &nodes[p as usize];
                n.child_label(n.next_child).0
            } else {
                nodes[p as usize].label()
            }
        };
        for e in self.open.entries_mut().filter(|e| inside(e.label) && is_live(nodes, e)) {
            e.label = label_of(e.node, e.label);
        }
        let mut side = std::mem::take(&mut self.side).into_vec();
        for e in side
            .iter_mut()
            .map(|a| &mut a.0)
            .filter(|e| inside(e.label) && is_live(nodes, e))
        {
            e.label = label_of(e.node, e.label);
        }
        self.side = side.into();
        for e in &mut self.round_pushes {
            if is_live(nodes, e) && inside(e.label) {
                e.label = label_of(e.node, e.label);
            }
        }
        if self.in_round {
            let from = (self.round_at + 1).min(self.round_taken.len());
            for t in &mut self.round_taken[from..] {
                if let Head::Leaf(p, i, _) = t.head
                    && nodes[p as usize].stamp == t.stamp
                    && inside(t.label)
                {
                    t.label = label_of(p | LEAF, i as u128);
                    #[cfg(test)]
                    HELD_LEAVES.with(|r| r.set(r.get() + 1));
                }
            }
        }
    }

    /// Records the last label of node `c`, created after a relabelling at
    /// `label` with `bits` free bits (the rounds' test of descent and the
    /// next relabellings read it).
    #[inline]
    pub(super) fn note_last(&mut self, c: u32, label: u128, bits: u32) {
        debug_assert!(bits < u128::BITS, "a relabelling leaves no slot of 2^128");
        if self.last.len() <= c as usize {
            self.last.resize(c as usize + 1, 0);
        }
        self.last[c as usize] = label + ((1u128 << bits) - 1);
    }
}

/// The error of a relabelling that finds no room: more states and
/// children to come than the labels have places.
fn too_many(states: u128) -> SearchError {
    SearchError::Unsupported {
        reason: format!(
            "the best-first search holds {states} states and children to come at once, \
             more than its 128-bit left-to-right labels can order"
        ),
    }
}

/// How many of the leaves `(parent, index, place)` (sorted) at or after the
/// first of `p` are `p`'s: the leaves of `p` when `leaves` starts at them.
fn count(leaves: &[(u32, u32, u128)], p: u32) -> usize {
    let from = leaves.partition_point(|l| l.0 < p);
    leaves[from..].partition_point(|l| l.0 == p)
}
