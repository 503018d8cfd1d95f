//! Move-ordering heuristics that learn during a search: the history
//! heuristic and killer moves, a shared service of the depth-first searches.
//!
//! Both need to recognise a move wherever it occurs, so they work only for
//! games that name their moves through [`Game::move_key`](crate::Game::move_key);
//! elsewhere (the trees) they change nothing. A caller that keeps one
//! [`Heuristics`] across searches (iterative deepening, the [`Engine`](crate::Engine)
//! across the moves of a game) lets later searches profit from earlier ones.
//!
//! - **History** (Schaeffer 1983): a move that was best or caused a cutoff
//!   with `d` plies left earns `d²`; the other moves of a node are tried in
//!   decreasing order of their earnings.
//! - **Killers** (two per ply): the last two moves that caused a cutoff at a
//!   ply are tried right after the table's move at other nodes of that ply.
//!
//! Either one changes the order in which children are searched, so the
//! theorems that compare leaf *orders* (MT-SSS\* = SSS\*, MT-Dual\* = Dual\*)
//! and the leaf-set comparisons with left-to-right alpha-beta no longer
//! apply; values never change.

/// Slots of the history table; keys are folded into it.
const HISTORY_SLOTS: usize = 1 << 12;
/// No move.
const NO_KEY: u32 = u32::MAX;
/// Earnings are halved when one passes this, so old knowledge fades.
const HISTORY_CAP: u32 = 1 << 28;

/// History scores and killer moves, kept by the caller across searches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Heuristics {
    history: Vec<u32>,
    killers: Vec<[u32; 2]>,
    /// The root move tried first after the table's (and the rest after it,
    /// wrapping round): 0 but in Lazy SMP's helpers, which start in
    /// different subtrees so as not to walk in the main search's footsteps.
    root_turn: u32,
}

impl Heuristics {
    /// Empty heuristics (nothing allocated until used).
    pub fn new() -> Heuristics {
        Heuristics::default()
    }

    /// Heuristics whose searches try the root's moves from move `turn` on
    /// (after the table's move; wrapping round to the first): a helper of
    /// Lazy SMP.
    pub(crate) fn turned(turn: u32) -> Heuristics {
        Heuristics {
            root_turn: turn,
            ..Heuristics::default()
        }
    }

    /// The root move tried first after the table's ([`Heuristics::turned`]).
    #[inline]
    pub(crate) fn root_turn(&self) -> u32 {
        self.root_turn
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.history.clear();
        self.killers.clear();
    }

    /// Whether nothing has been learnt.
    pub fn is_empty(&self) -> bool {
        self.history.iter().all(|&h| h == 0) && self.killers.iter().all(|k| *k == [NO_KEY; 2])
    }

    /// The history score of the move `key`.
    #[inline]
    pub fn history(&self, key: u32) -> u32 {
        self.history.get(key as usize % HISTORY_SLOTS).copied().unwrap_or(0)
    }

    /// Credits the move `key`, best or cutting off with `draft` plies left.
    pub fn reward(&mut self, key: u32, draft: u32) {
        if self.history.is_empty() {
            self.history = vec![0; HISTORY_SLOTS];
        }
        let d = draft.min(1 << 12);
        let slot = &mut self.history[key as usize % HISTORY_SLOTS];
        *slot = slot.saturating_add(d * d);
        if *slot > HISTORY_CAP {
            self.history.iter_mut().for_each(|h| *h /= 2);
        }
    }

    /// The killer moves of `ply` (either may be absent).
    #[inline]
    pub fn killers(&self, ply: u32) -> [Option<u32>; 2] {
        let k = self.killers.get(ply as usize).copied().unwrap_or([NO_KEY; 2]);
        k.map(|m| (m != NO_KEY).then_some(m))
    }

    /// Records that `key` caused a cutoff at `ply`.
    pub fn add_killer(&mut self, ply: u32, key: u32) {
        let ply = ply as usize;
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [NO_KEY; 2]);
        }
        let k = &mut self.killers[ply];
        if k[0] != key {
            k[1] = k[0];
            k[0] = key;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_rewards_and_fades() {
        let mut h = Heuristics::new();
        assert!(h.is_empty());
        h.reward(3, 4);
        h.reward(3, 2);
        assert_eq!(h.history(3), 20);
        assert_eq!(h.history(4), 0);
        assert!(!h.is_empty());
        for _ in 0..40 {
            h.reward(5, 4096);
        }
        assert!(h.history(5) <= HISTORY_CAP);
        h.clear();
        assert!(h.is_empty());
    }

    #[test]
    fn killers_keep_the_last_two_distinct_moves() {
        let mut h = Heuristics::new();
        assert_eq!(h.killers(2), [None, None]);
        h.add_killer(2, 7);
        h.add_killer(2, 7);
        assert_eq!(h.killers(2), [Some(7), None]);
        h.add_killer(2, 9);
        h.add_killer(2, 1);
        assert_eq!(h.killers(2), [Some(1), Some(9)]);
        assert_eq!(h.killers(0), [None, None]);
    }
}
