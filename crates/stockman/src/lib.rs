//! # stockman
//!
//! Fixed-depth minimax game-tree search built around **SSS\*** (Stockman,
//! 1979) and its family, beside the baselines it is measured against.
//!
//! - One small abstraction, [`Game`], that explicit trees, lazily generated
//!   random trees and real games implement; it knows no algorithm.
//! - One module per algorithm in [`algorithms`], each generic over [`Game`];
//!   [`Algorithm`] names them all.
//! - Shared services: transposition [`table`]s, [`Stats`], and [`observe`]rs
//!   for leaf orders and step-by-step traces.
//! - [`minimal`]: the minimal tree of a position at a depth (Knuth and
//!   Moore 1975), the yardstick of the experiments.
//!
//! ```
//! use stockman::{Algorithm, ExplicitTree, Role, SearchOptions};
//! let tree = ExplicitTree::parse("[[3,12,8],[2,4,6],[14,5,2]]", Role::Max).unwrap();
//! for algo in Algorithm::ALL {
//!     let out = algo.search(&tree, &SearchOptions::default()).unwrap();
//!     if out.value.is_some() {
//!         assert_eq!(out.value, Some(3), "{algo}");
//!     }
//! }
//! ```
#![warn(missing_docs)]
// A `SearchError` carries what the stopped search measured and proved
// (`Stats`, `Partial`): it is returned once per search, and the recursion
// inside a search passes it boxed, so its size costs nothing on a hot path.
#![allow(clippy::result_large_err)]

pub mod algorithms;
pub mod clock;
mod crew;
pub mod drivers;
pub mod engine;
pub mod game;
pub mod games;
mod key_map;
pub mod minimal;
pub mod observe;
pub mod options;
pub mod ordering;
mod pool;
pub mod run;
pub mod search;
pub mod shared_table;
pub mod simulate;
pub mod stats;
pub mod stochastic;
pub mod table;
pub mod trees;
pub mod value;

pub use algorithms::{Algorithm, UnknownAlgorithm};
pub use clock::{Budget, Clock};
pub use drivers::Search;
pub use engine::{Engine, DEFAULT_SHARED_TABLE_MB};
pub use game::{CostlyEval, Game, Narrowed, PathPosition, Unfolded};
pub use games::{Checkers, ChessGame, ConnectFour, GameError, GameErrorKind, GameResult, Othello, Playable, TicTacToe};
pub use minimal::{minimal_tree, MinimalTree};
pub use observe::{
    dewey, Event, Fail, Gamma, Iteration, LeafRecorder, NoObserver, Observer, Pass, State, Status, Step, Tracer,
    WindowRecorder,
};
pub use options::{
    Control, Enhancements, GuessKind, Limits, Parallel, Params, Presearch, Research, SearchOptions, Select,
    ThreadCountError, Threads, UnknownSelect, DEFAULT_MAX_OPEN, MAX_THREADS,
};
pub use ordering::Heuristics;
pub use search::{Limit, Outcome, Partial, SearchError, SettingNames};
pub use shared_table::{SharedHandle, SharedTable, TableInUse};
pub use stats::{thread_cpu_time, Stats};
pub use table::{
    principal_variation, AnyTable, Entry, FixedTable, MapTable, NoTable, Table, TableError, TableErrorKind, TableSize,
    DEFAULT_TABLE_MB, MAX_TABLE_MB,
};
pub use trees::explicit::{declared_root, resolve_root, ExplicitTree, Nested, ParseError, ParseErrorKind};
pub use trees::random::{RandomNode, RandomSpec, RandomTree, SpecError, ValueModel};
pub use value::{Role, Value, INF, VALUE_MAX, VALUE_MIN};

/// The README's and the guide's pages whose Rust examples `cargo test`
/// compiles and runs, so that no example in the documentation can rot.
#[cfg(doctest)]
pub mod guide {
    #[doc = include_str!("../../../README.md")]
    pub struct Readme;
    #[doc = include_str!("../../../docs/guide/getting-started.md")]
    pub struct GettingStarted;
    #[doc = include_str!("../../../docs/guide/algorithms.md")]
    pub struct Algorithms;
    #[doc = include_str!("../../../docs/guide/library.md")]
    pub struct Library;
}
