//! SSS\* in rounds ([`crate::drivers::parallel_sss`],
//! [`crate::drivers::rounds::sss`]): each round takes up to `P` states off
//! the head of OPEN and applies Gamma to each in turn, on the sequential
//! search's own OPEN list. A later step may push ahead of a state the round
//! already took, which the monotone queue cannot hold: such pushes wait in a
//! small side heap ([`Ahead`]) merged with the queue at the next take.

use super::{is_live, BestFirst, Head, Polarity, BATCH, ID, LEAF, NO_KEY, ROOT};
use crate::algorithms::open_queue::Entry;
use crate::game::Game;
use crate::observe::{Gamma, Observer, Status};
use crate::search::{Outcome, SearchError, SearchOptions};
use crate::stats::Stats;
use crate::value::Value;

/// An entry of the rounds' side heap, ordered so that the best (smallest
/// key, then label) is the heap's greatest.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Ahead(pub(super) Entry);

impl Ord for Ahead {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (other.0.key, other.0.label).cmp(&(self.0.key, self.0.label))
    }
}

impl PartialOrd for Ahead {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Child `i` of a node, worked out ahead of its step (on another thread):
/// its position, its moves (none at the horizon) and, at a leaf, its value.
pub(crate) struct Prepared<P, M> {
    pub pos: P,
    pub kids: Vec<M>,
    pub value: Option<Result<Value, SearchError>>,
}

/// A state a round took off OPEN, with the stamp that tells whether an
/// earlier step of the round purged it.
#[derive(Clone, Copy)]
pub(crate) struct Taken {
    pub(super) head: Head,
    pub(super) stamp: u64,
    /// Its label on OPEN, for a SOLVED leaf that must wait and go back
    /// ([`BestFirst::put_back`]) where it was, which a relabelling may have
    /// moved off its parent's formula.
    pub(super) label: u128,
}

impl Taken {
    /// Whether the state is a LIVE child not created yet: its step needs
    /// the game (the child's moves and, at a leaf, its value).
    pub(crate) fn is_live_child(&self) -> bool {
        matches!(self.head, Head::Pending(..))
    }
}

/// What a round's steps did.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RoundDone {
    /// The root's value, once it is solved at the head of OPEN.
    pub value: Option<Value>,
    /// Steps applied.
    pub work: u64,
    /// States of the round that were purged before their turn, or that
    /// had to wait (case 4 with a better state below the parent).
    pub idle: u64,
}

impl<'a, G: Game, O: Observer> BestFirst<'a, G, O> {
    /// The search in rounds ([`crate::drivers::parallel_sss`]): each
    /// round takes up to `P` states off the head of OPEN ([`Self::take`])
    /// and applies Gamma to each in turn ([`Self::apply`]), as the rounds
    /// of [`crate::drivers::rounds::sss`] do, on this engine's OPEN list.
    /// The shortcuts of the sequential search (a push handed straight to
    /// the next step, the loops of `visit_child`) assume one state a step,
    /// and are off.
    pub(crate) fn in_rounds(game: &'a G, opts: &SearchOptions, polarity: Polarity, obs: &'a mut O) -> Self {
        BestFirst {
            rounds: true,
            ..BestFirst::new(game, opts, polarity, obs)
        }
    }

    /// Rounds: the search's start (the root on OPEN).
    pub(crate) fn begin(&mut self) -> Result<(), SearchError> {
        debug_assert!(self.rounds);
        self.start().map(|_| ())
    }

    /// Rounds: takes up to `p` states off the head of OPEN, best first,
    /// into `taken`: one round's states.
    pub(crate) fn take(&mut self, p: usize, taken: &mut Vec<Taken>) {
        debug_assert!(self.rounds);
        taken.clear();
        self.applying = false;
        // No push of the round's steps is handed straight to a next step.
        self.head_key = NO_KEY;
        if let Some(head) = self.carry.take() {
            // Left by the sequential steps ([`Self::steps`]): the head.
            self.live -= 1;
            let owner = &self.nodes[head.owner() as usize];
            // Just pushed by a step of `steps`: on its parent's formula.
            let label = match head {
                Head::Leaf(_, i, _) => owner.leaf_label(i),
                _ => 0,
            };
            taken.push(Taken {
                head,
                stamp: owner.stamp,
                label,
            });
        }
        while taken.len() < p {
            let Some(e) = self.pop_any() else { break };
            // A live entry's stamp is its node's (a batch's or a leaf's: the parent's).
            let head = self.head_of(e);
            taken.push(Taken {
                head,
                stamp: e.stamp,
                label: e.label,
            });
        }
        self.held_back = taken.len();
        self.round_pushes.clear();
        // A round of one state steps the head of OPEN: nothing to check.
        self.applying = taken.len() > 1;
    }

    /// Rounds: the positions of the round's LIVE children (index in
    /// `taken`, position, whether it is at the horizon): the work that
    /// other threads can do ahead of the steps (the child's moves and, at
    /// a leaf, its value).
    pub(crate) fn pending(&self, taken: &[Taken], out: &mut Vec<(usize, G::Position, bool)>) {
        out.clear();
        for (k, t) in taken.iter().enumerate() {
            if let Head::Pending(p, i, _) = t.head {
                let pos = self.child_position(p, i);
                let at_horizon = self.nodes[p as usize].depth + 1 >= self.horizon;
                out.push((k, pos, at_horizon));
            }
        }
    }

    /// Whether state `t` of the round is still on OPEN: no earlier step of
    /// the round purged it (a purge frees its node, or gives its parent a
    /// new state, and so a new stamp).
    #[inline]
    fn still_open(&self, t: &Taken) -> bool {
        self.nodes[t.head.owner() as usize].stamp == t.stamp
    }

    /// Whether a state pushed in this round lies below `p` with a key
    /// smaller (a merit better) than `key`. The states that were on OPEN
    /// when the round began all come after its states, so only those can.
    fn better_pushed_below(&self, p: u32, key: u32) -> bool {
        let parent = &self.nodes[p as usize];
        let free = parent.bits as u32;
        let mask = if free >= 128 { 0 } else { !((1u128 << free) - 1) };
        let prefix = parent.label() & mask;
        // After a relabelling, ranges are not aligned: from the label to
        // the last one kept.
        let below = |label: u128| {
            if self.relabels == 0 {
                label & mask == prefix
            } else {
                parent.label() <= label && label <= self.last[p as usize]
            }
        };
        self.round_pushes.iter().any(|e| {
            if e.key >= key || !is_live(&self.nodes, e) {
                return false;
            }
            let owner = &self.nodes[(e.node & ID) as usize];
            let depth = if e.node & (BATCH | LEAF) != 0 {
                owner.depth + 1
            } else {
                owner.depth
            };
            depth > parent.depth && below(e.label)
        })
    }

    /// Puts a state of the round that must wait back on OPEN, as it was.
    fn put_back(&mut self, t: Taken) {
        match t.head {
            Head::Node(j, status, h) => self.push(j, status, h),
            Head::Leaf(p, i, h) => self.push_leaf_at(p, i, h, Some(t.label)),
            Head::Pending(..) => unreachable!("only a SOLVED state waits"),
        }
        // Not a push of the search's: the state never left OPEN.
        self.stats.open_pushes -= 1;
    }

    /// Rounds: Gamma on each state of `taken` in turn, as
    /// [`crate::drivers::rounds::sss`]'s rounds apply it: a state purged by
    /// an earlier step of the round is skipped, case 4 waits while a state
    /// pushed in the round below the parent has a better merit, and the
    /// root's SOLVED state ends the search. `ready[k]`: what the step of
    /// `taken[k]` needs, if it was worked out ahead.
    pub(crate) fn apply(
        &mut self,
        taken: &[Taken],
        ready: &mut [Option<Prepared<G::Position, G::Move>>],
    ) -> Result<RoundDone, SearchError> {
        self.in_round = true;
        self.round_taken.clear();
        self.round_taken.extend_from_slice(taken);
        let done = self.apply_steps(ready);
        self.in_round = false;
        done
    }

    fn apply_steps(&mut self, ready: &mut [Option<Prepared<G::Position, G::Move>>]) -> Result<RoundDone, SearchError> {
        let all_role = self.polarity.expanding();
        let mut done = RoundDone::default();
        for k in 0..self.round_taken.len() {
            // A relabelling in an earlier step may have moved its label.
            let t = self.round_taken[k];
            self.round_at = k;
            if !self.still_open(&t) {
                done.idle += 1;
                continue;
            }
            self.held_back -= 1;
            let case4 = match t.head {
                Head::Node(j, Status::Solved, h) => {
                    if j == ROOT {
                        done.work += 1;
                        done.value = Some(h);
                        return Ok(done);
                    }
                    Some((self.nodes[j as usize].parent, h))
                }
                Head::Leaf(p, _, h) => Some((p, h)),
                _ => None,
            };
            if let Some((p, h)) = case4
                && k > 0
                && self.nodes[p as usize].role == all_role
                && self.better_pushed_below(p, self.key(h))
            {
                self.put_back(t);
                done.idle += 1;
                continue;
            }
            let case = match ready.get_mut(k) {
                Some(ready) => self.gamma(t.head, ready)?,
                None => self.gamma(t.head, &mut None)?,
            };
            done.work += 1;
            if case == Gamma::SolveParentPurge {
                // The purge may have taken states of this round with it.
                let left = self.round_taken[k + 1..].iter().filter(|t| self.still_open(t)).count();
                self.stats.open_purged += (self.held_back - left) as u64;
                self.held_back = left;
            }
        }
        Ok(done)
    }

    /// Rounds: up to `n` steps of the sequential SSS\* (one state at a
    /// time, with its shortcuts) between rounds, for when a round's work
    /// is not worth sharing. The root's value once it is solved.
    pub(crate) fn steps(&mut self, n: usize) -> Result<Option<Value>, SearchError> {
        debug_assert!(self.rounds && !self.in_round);
        self.held_back = 0;
        self.applying = false;
        for _ in 0..n {
            let head = self.pop();
            if let Head::Node(ROOT, Status::Solved, h) = head {
                return Ok(Some(h));
            }
            self.gamma(head, &mut None)?;
        }
        Ok(None)
    }

    /// Rounds: the counts so far (positions visited, leaves, ...).
    pub(crate) fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Rounds: the answer, once [`Self::apply`] solved the root.
    pub(crate) fn finish(self, value: Value) -> Outcome<G::Move> {
        self.outcome(value)
    }
}
