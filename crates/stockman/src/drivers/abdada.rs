//! ABDADA (Weill 1996): the depth-first searches on many threads, which
//! share the work through the transposition table.
//!
//! Every thread searches the same root with the same algorithm, like
//! [Lazy SMP](super::lazy_smp), through one [`SharedTable`](crate::SharedTable); in addition
//! each thread *claims* the positions it expands, and a node searches its
//! younger brothers (every move after the first) *exclusively*: a child
//! another thread is expanding now is put off, the node takes its next
//! move instead, and it comes back to the put-off ones at the end, by when
//! the other thread has usually stored their values in the table. The
//! eldest brother is always searched at once, as in Young Brothers Wait:
//! its bound is what makes the younger ones cheap. The threads thus split
//! a node's moves among themselves without a split point, a message or a
//! copied position, and every algorithm on the MT engine (alpha-beta,
//! MTD(f), MTD(bi), MT-SSS\*, MT-Dual\*, BNS) gets it unchanged. We use the
//! simplification of Kerrigan: a small array of the positions being
//! searched beside the table (see [`SharedTable`](crate::SharedTable)), instead of a counter
//! in every entry.
//!
//! Why ABDADA and not Young Brothers Wait (Feldmann 1993): YBWC splits a
//! node's moves among idle threads at a split point, which needs the node's
//! window, position and move list shared between threads, a helping master
//! and a way to abort the workers of a cut; each algorithm's recursion would
//! have to be rewritten around it. ABDADA needs only the shared table we
//! already have, keeps every search's code and order, and is the scheme the
//! table-driven MT family was made for. (NegaScout, whose engine is its
//! own, runs under Lazy SMP in this mode.)
//!
//! Values are exact for the same reason as under Lazy SMP (every entry is a
//! true bound; putting a move off changes the order, never the value).
//! Counts depend on the threads' timing.
//!
//! # Complexity
//! At most `threads` times one search's nodes in total; a put-off move costs
//! one probe.
//!
//! # Example
//! ```
//! use stockman::{Algorithm, Parallel, RandomSpec, RandomTree, SearchOptions, SharedTable, Threads};
//! let tree = RandomTree::new(RandomSpec::parse("width=6,depth=6,seed=3").unwrap());
//! let one = Algorithm::MtdBi.search(&tree, &SearchOptions::default()).unwrap();
//! let table = SharedTable::with_megabytes(4).unwrap();
//! let opts = SearchOptions { threads: Threads { count: 2, parallel: Parallel::Abdada, ..Threads::default() }, ..Default::default() };
//! let two = Algorithm::MtdBi.with_options(&opts).shared_table(&table).run_shared(&tree).unwrap();
//! assert_eq!(one.value, two.value);
//! ```

use crate::algorithms::Algorithm;

/// Whether a search of `algo` shares work under ABDADA (the others run
/// as [`lazy_smp`](super::lazy_smp) does).
pub fn shares_work(algo: Algorithm) -> bool {
    algo.capabilities().parallel == crate::algorithms::capabilities::ParallelForm::SharedTable { shares_work: true }
}
