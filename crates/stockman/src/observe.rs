//! Watching a search: leaf recording and step-by-step traces.
//!
//! Searches are generic over an [`Observer`]. Its associated constants tell a
//! search at compile time whether anyone listens, so that with
//! [`NoObserver`] the bookkeeping for paths and trace steps compiles away.

use crate::stats::Stats;
use crate::value::{fmt_value, Value};
use serde::{Deserialize, Serialize};

/// Receives what a search does. Every method has an empty default body.
pub trait Observer {
    /// Whether the search should track the path to each leaf (for [`Observer::leaf`]).
    const PATHS: bool = false;
    /// Whether the search should build [`Step`]s and [`Pass`]es.
    const STEPS: bool = false;
    /// Whether the depth-first searches should report each node's window.
    const WINDOWS: bool = false;
    /// Whether iterative deepening should report each completed iteration
    /// (with its principal variation read from the table, which costs a
    /// few probes per iteration).
    const ITERATIONS: bool = false;

    /// A leaf was evaluated: `path` lists 0-based child indices from the root.
    fn leaf(&mut self, _path: &[u32], _value: Value) {}
    /// One Gamma step of a best-first search (SSS\*, Dual\*).
    fn step(&mut self, _step: Step) {}
    /// One pass of a driver (MT-SSS\*, MT-Dual\*, MTD(f), BNS, RecSSS\*).
    fn pass(&mut self, _pass: Pass) {}
    /// A depth-first search (alpha-beta, NegaScout, and the MT drivers'
    /// tests) entered the node at `path` with the window `(alpha, beta)`.
    fn window(&mut self, _path: &[u32], _alpha: Value, _beta: Value) {}
    /// Iterative deepening completed an iteration (a game program prints
    /// its UCI `info` line here).
    fn iteration(&mut self, _done: &Iteration) {}
}

/// One completed iteration of iterative deepening, as
/// [`Observer::iteration`] hears it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Iteration {
    /// The iteration's depth.
    pub depth: u32,
    /// The root's value at this depth (`None` for Best Node Search).
    pub value: Option<Value>,
    /// Best Node Search's proven bound (see [`Outcome::bound`](crate::Outcome::bound)).
    pub bound: Option<(Value, Value)>,
    /// The principal variation as 0-based move indices from the root (each
    /// in its position's move list): the best move, then the best moves the
    /// table holds below it, at most `depth` long. Below the root it is
    /// what the table remembers, so it may be shorter than the depth.
    pub pv: Vec<u32>,
    /// Every iteration's counters so far, this one's included.
    pub stats: Stats,
    /// Microseconds since the deepening began.
    pub time_us: u64,
}

/// Records the evaluated leaves with the window of every node on the path
/// to each (the alpha-beta windows a student follows down the tree).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowRecorder {
    /// Each evaluated leaf, in evaluation order.
    pub leaves: Vec<WindowedLeaf>,
    /// The windows of the nodes on the current path.
    #[serde(skip)]
    stack: Vec<(Value, Value)>,
}

/// A leaf as [`WindowRecorder`] saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowedLeaf {
    /// 0-based child indices from the root.
    pub path: Vec<u32>,
    /// The value the evaluation returned.
    pub value: Value,
    /// The windows `(alpha, beta)` from the root down to the leaf (empty
    /// for the best-first searches, which have none).
    pub windows: Vec<(Value, Value)>,
}

impl Observer for WindowRecorder {
    const PATHS: bool = true;
    const WINDOWS: bool = true;
    fn leaf(&mut self, path: &[u32], value: Value) {
        let windows = if self.stack.len() == path.len() + 1 {
            self.stack.clone()
        } else {
            Vec::new()
        };
        self.leaves.push(WindowedLeaf {
            path: path.to_vec(),
            value,
            windows,
        });
    }
    fn window(&mut self, path: &[u32], alpha: Value, beta: Value) {
        self.stack.truncate(path.len());
        self.stack.push((alpha, beta));
    }
}

/// Listens to nothing; searches with it pay nothing for observation.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;
impl Observer for NoObserver {}

/// A borrowed observer: the caller keeps it after the search.
impl<O: Observer + ?Sized> Observer for &mut O {
    const PATHS: bool = O::PATHS;
    const STEPS: bool = O::STEPS;
    const WINDOWS: bool = O::WINDOWS;
    const ITERATIONS: bool = O::ITERATIONS;
    #[inline]
    fn leaf(&mut self, path: &[u32], value: Value) {
        (**self).leaf(path, value)
    }
    #[inline]
    fn step(&mut self, step: Step) {
        (**self).step(step)
    }
    #[inline]
    fn pass(&mut self, pass: Pass) {
        (**self).pass(pass)
    }
    #[inline]
    fn window(&mut self, path: &[u32], alpha: Value, beta: Value) {
        (**self).window(path, alpha, beta)
    }
    #[inline]
    fn iteration(&mut self, done: &Iteration) {
        (**self).iteration(done)
    }
}

/// Two observers watching one search: each hears everything it asks for.
impl<A: Observer, B: Observer> Observer for (A, B) {
    const PATHS: bool = A::PATHS || B::PATHS;
    const STEPS: bool = A::STEPS || B::STEPS;
    const WINDOWS: bool = A::WINDOWS || B::WINDOWS;
    const ITERATIONS: bool = A::ITERATIONS || B::ITERATIONS;
    fn leaf(&mut self, path: &[u32], value: Value) {
        if A::PATHS {
            self.0.leaf(path, value);
        }
        if B::PATHS {
            self.1.leaf(path, value);
        }
    }
    fn step(&mut self, step: Step) {
        if A::STEPS && B::STEPS {
            self.0.step(step.clone());
            self.1.step(step);
        } else if A::STEPS {
            self.0.step(step);
        } else if B::STEPS {
            self.1.step(step);
        }
    }
    fn pass(&mut self, pass: Pass) {
        if A::STEPS && B::STEPS {
            self.0.pass(pass.clone());
            self.1.pass(pass);
        } else if A::STEPS {
            self.0.pass(pass);
        } else if B::STEPS {
            self.1.pass(pass);
        }
    }
    fn window(&mut self, path: &[u32], alpha: Value, beta: Value) {
        if A::WINDOWS {
            self.0.window(path, alpha, beta);
        }
        if B::WINDOWS {
            self.1.window(path, alpha, beta);
        }
    }
    fn iteration(&mut self, done: &Iteration) {
        if A::ITERATIONS {
            self.0.iteration(done);
        }
        if B::ITERATIONS {
            self.1.iteration(done);
        }
    }
}

/// Records the evaluated leaves in evaluation order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeafRecorder {
    /// Each evaluated leaf: its path (0-based child indices) and its value.
    pub leaves: Vec<(Vec<u32>, Value)>,
}

impl Observer for LeafRecorder {
    const PATHS: bool = true;
    fn leaf(&mut self, path: &[u32], value: Value) {
        self.leaves.push((path.to_vec(), value));
    }
}

impl LeafRecorder {
    /// The leaf values in evaluation order.
    pub fn values(&self) -> Vec<Value> {
        self.leaves.iter().map(|(_, v)| *v).collect()
    }
    /// The leaf paths in evaluation order.
    pub fn paths(&self) -> Vec<Vec<u32>> {
        self.leaves.iter().map(|(p, _)| p.clone()).collect()
    }
}

/// Records everything: leaves, steps and passes, in order.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Tracer {
    /// The events in the order they happened.
    pub events: Vec<Event>,
}

/// One thing a traced search did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A leaf evaluation.
    Leaf {
        /// 0-based child indices from the root.
        path: Vec<u32>,
        /// The value the evaluation returned.
        value: Value,
    },
    /// A Gamma step of SSS\* or Dual\*.
    Step(Step),
    /// A pass of a driver.
    Pass(Pass),
}

impl Observer for Tracer {
    const PATHS: bool = true;
    const STEPS: bool = true;
    fn leaf(&mut self, path: &[u32], value: Value) {
        self.events.push(Event::Leaf {
            path: path.to_vec(),
            value,
        });
    }
    fn step(&mut self, step: Step) {
        self.events.push(Event::Step(step));
    }
    fn pass(&mut self, pass: Pass) {
        self.events.push(Event::Pass(pass));
    }
}

/// LIVE or SOLVED, as in Stockman's state descriptors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Status {
    /// Not yet solved: `h` is a bound (upper for SSS\*, lower for Dual\*).
    Live,
    /// Solved: `h` is the node's value (within the current bound).
    Solved,
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Status::Live => "LIVE",
            Status::Solved => "SOLVED",
        })
    }
}

/// A state descriptor `(node, status, h)` of the OPEN list.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    /// The node as 0-based child indices from the root (empty for the root).
    pub node: Vec<u32>,
    /// LIVE or SOLVED.
    pub status: Status,
    /// The merit: a bound or value.
    pub h: Value,
}

impl State {
    /// The node in 1-based Dewey notation as in the literature: `e` for the root, `1.3.2` below.
    pub fn dewey(&self) -> String {
        dewey(&self.node)
    }
}

impl std::fmt::Display for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {}, {})", self.dewey(), self.status, fmt_value(self.h))
    }
}

/// A path of 0-based child indices in 1-based Dewey notation (`e` for the root).
pub fn dewey(path: &[u32]) -> String {
    if path.is_empty() {
        return "e".to_string();
    }
    let parts: Vec<String> = path.iter().map(|i| (i + 1).to_string()).collect();
    parts.join(".")
}

/// Which case of Stockman's Gamma operator a step applied.
///
/// Numbered as in the encyclopedia's pseudocode (`../shared/seeds/000`): 1
/// evaluates a leaf, 2 and 3 expand, 4 to 6 back up a solved node. Dual\* uses
/// the same cases with MAX and MIN exchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gamma {
    /// Case 1: a LIVE terminal is evaluated and becomes SOLVED with `min(h, value)` (Dual\*: max).
    Evaluate,
    /// Case 2: a LIVE MIN node (Dual\*: MAX) is replaced by its first child.
    ExpandFirst,
    /// Case 3: a LIVE MAX node (Dual\*: MIN) is replaced by all its children.
    ExpandAll,
    /// Case 4: a SOLVED child of a MAX node (Dual\*: MIN) solves its parent;
    /// every other descendant of the parent leaves OPEN.
    SolveParentPurge,
    /// Case 5: the SOLVED last child of a MIN node (Dual\*: MAX) solves its parent.
    SolveParent,
    /// Case 6: a SOLVED child of a MIN node (Dual\*: MAX) hands its bound to its next sibling.
    NextSibling,
    /// The root is SOLVED at the head of OPEN: the search ends.
    Finish,
}

impl Gamma {
    /// Stockman's case number (1-6), 0 for the final step.
    pub fn number(self) -> u8 {
        match self {
            Gamma::Evaluate => 1,
            Gamma::ExpandFirst => 2,
            Gamma::ExpandAll => 3,
            Gamma::SolveParentPurge => 4,
            Gamma::SolveParent => 5,
            Gamma::NextSibling => 6,
            Gamma::Finish => 0,
        }
    }

    /// One sentence on what the case does, for traces and the HTML viewer.
    pub fn explain(self, dual: bool) -> &'static str {
        match (self, dual) {
            (Gamma::Evaluate, false) => "A LIVE leaf is evaluated; it becomes SOLVED with the smaller of its bound and its value.",
            (Gamma::Evaluate, true) => "A LIVE leaf is evaluated; it becomes SOLVED with the larger of its bound and its value.",
            (Gamma::ExpandFirst, false) => "A LIVE MIN node is replaced by its first child, which inherits its upper bound.",
            (Gamma::ExpandFirst, true) => "A LIVE MAX node is replaced by its first child, which inherits its lower bound.",
            (Gamma::ExpandAll, false) => "A LIVE MAX node is replaced by all its children, each inheriting its upper bound.",
            (Gamma::ExpandAll, true) => "A LIVE MIN node is replaced by all its children, each inheriting its lower bound.",
            (Gamma::SolveParentPurge, false) => "A SOLVED node under a MAX parent has the highest bound in OPEN, so it solves its parent; every other descendant of the parent leaves OPEN.",
            (Gamma::SolveParentPurge, true) => "A SOLVED node under a MIN parent has the lowest bound in OPEN, so it solves its parent; every other descendant of the parent leaves OPEN.",
            (Gamma::SolveParent, false) => "The last child of a MIN parent is SOLVED, so the parent is SOLVED with the same value.",
            (Gamma::SolveParent, true) => "The last child of a MAX parent is SOLVED, so the parent is SOLVED with the same value.",
            (Gamma::NextSibling, false) => "A child of a MIN parent is SOLVED; its next sibling becomes LIVE with that value as its upper bound.",
            (Gamma::NextSibling, true) => "A child of a MAX parent is SOLVED; its next sibling becomes LIVE with that value as its lower bound.",
            (Gamma::Finish, _) => "The root is SOLVED at the head of OPEN: its h is the minimax value.",
        }
    }
}

/// One Gamma step of SSS\* or Dual\*: what was popped, what was done, and OPEN after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// 1-based step number.
    pub step: u64,
    /// The state popped from the head of OPEN.
    pub popped: State,
    /// The case applied.
    pub case: Gamma,
    /// States pushed onto OPEN by this step.
    pub added: Vec<State>,
    /// States removed from OPEN by a purge in this step.
    pub purged: Vec<State>,
    /// OPEN after the step, head first.
    pub open: Vec<State>,
}

/// How a null-window pass ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fail {
    /// The value is at least the test value: a new lower bound.
    High,
    /// The value is below the test value: a new upper bound.
    Low,
    /// A full-window pass or a pass that ended with the exact value.
    Exact,
}

/// One pass of a driver over the root.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pass {
    /// 1-based pass number.
    pub pass: u64,
    /// The window searched: (alpha, beta), exclusive.
    pub alpha: Value,
    /// Upper end of the window.
    pub beta: Value,
    /// The value returned by the pass (fail-soft).
    pub result: Value,
    /// Whether the pass failed high or low.
    pub fail: Fail,
    /// The bounds on the root's value after the pass: (lower, upper).
    pub lower: Value,
    /// Upper bound after the pass.
    pub upper: Value,
    /// Leaves evaluated in this pass.
    pub leaf_evals: u64,
    /// For BNS: how many root children reached the test value.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub better_count: Option<u32>,
}

#[cfg(test)]
mod window_tests {
    use super::*;
    use crate::{Algorithm, ExplicitTree, Role, SearchOptions, INF};

    /// Alpha-beta's windows on the textbook tree, by hand: the second
    /// subtree is searched with alpha = 3, learnt from the first.
    #[test]
    fn alpha_beta_windows_on_the_textbook_tree() {
        let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
        let mut rec = WindowRecorder::default();
        Algorithm::AlphaBeta
            .with_options(&SearchOptions::default())
            .observer(&mut rec)
            .run(&tree)
            .unwrap();
        let full = (-INF, INF);
        let leaf = |path: Vec<u32>, value, windows| WindowedLeaf { path, value, windows };
        assert_eq!(rec.leaves[0], leaf(vec![0, 0], 3, vec![full, full, full]));
        assert_eq!(rec.leaves[1], leaf(vec![0, 1], 12, vec![full, full, (-INF, 3)]));
        assert_eq!(rec.leaves[3], leaf(vec![1, 0], 2, vec![full, (3, INF), (3, INF)]));
        assert_eq!(rec.leaves.len(), 7);
        // Best-first searches have no windows.
        let mut rec = WindowRecorder::default();
        Algorithm::Sss
            .with_options(&SearchOptions::default())
            .observer(&mut rec)
            .run(&tree)
            .unwrap();
        assert!(rec.leaves.iter().all(|l| l.windows.is_empty()));
        assert_eq!(rec.leaves.len(), 7);
    }
}
