//! The arena's node: what SSS\*'s OPEN list needs to know of an interior
//! node (its place left to right, its pending children, its state on OPEN),
//! in 104 bytes on a random tree.

use super::{child_bits, INDEX_BITS, NONE};
use crate::observe::Status;
use crate::value::{Role, Value};

/// A node of the arena (an interior node, or the root).
pub(super) struct Node<P> {
    pub(super) pos: P,
    pub(super) parent: u32,
    /// Index among the parent's children.
    pub(super) index: u32,
    /// Number of children, once the node has been expanded.
    pub(super) nchildren: u32,
    /// Where its list of moves starts in the engine's `lists`, once
    /// expanded (kept for as long as the node lives).
    pub(super) first: u32,
    /// Children `next_child..batch_end` are pending on OPEN as one batch,
    /// LIVE with merit `h`.
    pub(super) next_child: u32,
    pub(super) batch_end: u32,
    /// SOLVED leaf children on OPEN, kept as bare entries.
    pub(super) leaves: u32,
    /// Created children not yet solved, as a singly linked list.
    pub(super) first_child: u32,
    pub(super) next_sibling: u32,
    pub(super) depth: u32,
    pub(super) role: Role,
    /// The node's left-to-right label, where its range of labels starts:
    /// its child indices, high bits first, until a relabelling
    /// ([`super::BestFirst::relabel`]) moves it (as two halves, so that a
    /// node needs no 16-byte alignment).
    pub(super) label: [u64; 2],
    /// Child `i`'s label is `base + (i << shift)`: the node's own label
    /// until a relabelling packs its earlier children and moves the rest.
    pub(super) base: [u64; 2],
    /// Low bits of the label still free for descendants (the last
    /// [`INDEX_BITS`] hold a leaf's index).
    pub(super) bits: u8,
    /// Where a child's index goes in its label once the node is expanded:
    /// `bits - ceil(log2 nchildren)` (`bits` for an only child, which adds
    /// none), computed once instead of at every child's label.
    pub(super) shift: u8,
    /// The node's status while it is on OPEN, and its merit then (or its
    /// pending children's).
    pub(super) status: Option<Status>,
    pub(super) h: Value,
    /// The stamp of the node's entry on OPEN, or of its batch and leaves;
    /// 0 once the node is freed.
    pub(super) stamp: u64,
}

impl<P> Node<P> {
    pub(super) fn new(pos: P, parent: u32, index: u32, depth: u32, role: Role, label: u128, bits: u32) -> Self {
        debug_assert!(bits <= 128);
        Node {
            pos,
            parent,
            index,
            nchildren: 0,
            first: 0,
            next_child: 0,
            batch_end: 0,
            leaves: 0,
            first_child: NONE,
            next_sibling: NONE,
            depth,
            role,
            label: halves(label),
            base: halves(label),
            bits: bits as u8,
            shift: bits as u8,
            status: None,
            h: 0,
            stamp: 0,
        }
    }

    #[inline]
    pub(super) fn label(&self) -> u128 {
        whole(self.label)
    }

    #[inline]
    pub(super) fn base(&self) -> u128 {
        whole(self.base)
    }

    /// Moves the node's range to start at `label`, and the labels of its
    /// children to come to `base + (i << shift)` (a relabelling).
    pub(super) fn place(&mut self, label: u128, base: u128, shift: u32) {
        self.label = halves(label);
        self.base = halves(base);
        self.shift = shift as u8;
    }

    #[inline]
    pub(super) fn state(&self) -> Option<(Status, Value)> {
        self.status.map(|s| (s, self.h))
    }

    #[inline]
    pub(super) fn take_state(&mut self) -> Option<(Status, Value)> {
        self.status.take().map(|s| (s, self.h))
    }

    /// The label and free bits of child `i` of the node's `nchildren`: `i`
    /// appended in `ceil(log2 n)` bits; an only child shares its parent's
    /// label, so chains of any length cost nothing. The bits must have
    /// been checked.
    #[inline]
    pub(super) fn child_label(&self, i: u32) -> (u128, u32) {
        // An only child's index is 0 and adds nothing, even where `shift`
        // is 128 (an only child of the root): the wrapping shift is exact
        // for every shift below 128, and 0 shifted stays 0. Wrapping: after
        // a relabelling `base` may lie below the node's range, where the
        // children before `next_child` were packed.
        let shift = self.shift as u32;
        (self.base().wrapping_add((i as u128).wrapping_shl(shift)), shift)
    }

    /// The label of child `i` as a SOLVED leaf without a node: its place,
    /// and its index in the low [`INDEX_BITS`] bits (which no place uses).
    #[inline]
    pub(super) fn leaf_label(&self, i: u32) -> u128 {
        self.child_label(i).0 | i as u128
    }

    /// Records that the node has `n` children (their label bits must have
    /// been checked).
    #[inline]
    pub(super) fn set_children(&mut self, n: u32) {
        self.nchildren = n;
        self.shift = (self.bits as u32 - child_bits(n)) as u8;
    }

    /// The index of the leaf child whose label is `label`
    /// ([`Self::leaf_label`]).
    #[inline]
    pub(super) fn child_index(&self, label: u128) -> u32 {
        const _: () = assert!(INDEX_BITS == u32::BITS);
        label as u32
    }
}

#[inline]
fn halves(x: u128) -> [u64; 2] {
    [(x >> 64) as u64, x as u64]
}

#[inline]
fn whole(h: [u64; 2]) -> u128 {
    (h[0] as u128) << 64 | h[1] as u128
}
