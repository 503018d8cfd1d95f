//! The step-by-step trace of SSS\* and Dual\* (only with an observer that
//! asks for steps): after each step, the state popped, the case of Gamma,
//! the states added and purged, and OPEN in its order.

use super::{is_live, BestFirst, BATCH, ID, LEAF};
use crate::game::Game;
use crate::observe::{Gamma, Observer, State, Status, Step};

impl<G: Game, O: Observer> BestFirst<'_, G, O> {
    pub(super) fn emit(&mut self, popped: Option<State>, case: Gamma) {
        if !O::STEPS {
            return;
        }
        self.steps += 1;
        let nodes = &self.nodes;
        let mut open: Vec<((u32, u128), State)> = Vec::new();
        for e in self.open.entries().filter(|e| is_live(nodes, e)) {
            let p = e.node & ID;
            if e.node & (BATCH | LEAF) == 0 {
                let (s, h) = self.nodes[p as usize].state().expect("on OPEN");
                open.push(((e.key, e.label), self.state_of(p, s, h)));
            } else if e.node & LEAF != 0 {
                let i = self.nodes[p as usize].child_index(e.label);
                let s = State {
                    node: self.child_path(p, i),
                    status: Status::Solved,
                    h: self.merit(e.key),
                };
                open.push(((e.key, e.label), s));
            } else {
                let node = &self.nodes[p as usize];
                for i in node.next_child..node.batch_end {
                    let s = State {
                        node: self.child_path(p, i),
                        status: Status::Live,
                        h: node.h,
                    };
                    open.push(((e.key, node.child_label(i).0), s));
                }
            }
        }
        open.sort_by_key(|(k, _)| *k);
        // Purged states are listed in the order they stood on OPEN.
        let mut purged = std::mem::take(&mut self.purged);
        purged.sort_by_key(|(k, _)| *k);
        let step = Step {
            step: self.steps,
            popped: popped.expect("traced"),
            case,
            added: std::mem::take(&mut self.added),
            purged: purged.into_iter().map(|(_, s)| s).collect(),
            open: open.into_iter().map(|(_, s)| s).collect(),
        };
        self.obs.step(step);
    }
}
