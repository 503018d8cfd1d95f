//! Simulated parallel machines: the parallel searches on `P` virtual
//! processors, in synchronous rounds, deterministic to the node.
//!
//! This machine has two cores; the literature's questions (how parallel
//! SSS\* scales against parallel alpha-beta, what a shared table buys at
//! 64 processors) are about many more. The simulations here answer them
//! the way much of that literature measured: time is counted in *rounds*,
//! and in each round every virtual processor does one unit of work (one
//! application of SSS\*'s Gamma operator in [`sss`]; one node visited in
//! [`abdada`]). The same inputs give the same rounds, nodes and idle
//! counts on every run and every machine, so speedup curves for P = 1..64
//! are reproducible to the node.
//!
//! Reported per run ([`SimReport`]): the value, the rounds (simulated
//! time; speedup is rounds at P = 1 over rounds at P), the work done (the
//! search overhead is work at P over work at P = 1), the leaves evaluated,
//! and the processor-rounds spent idle (no work to take, or work that had
//! to wait).
//!
//! [`distributed`] is of another kind: the distributed searches' own code
//! on simulated ranks, with a network's latency, in virtual nanoseconds.

pub mod abdada;
pub mod distributed;
pub use crate::drivers::rounds::sss;
pub use crate::drivers::rounds::{SimError, SimOptions, SimReport, MAX_PROCESSORS};
