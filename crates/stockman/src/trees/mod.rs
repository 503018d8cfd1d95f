//! Trees that implement [`Game`](crate::Game): explicit ones held in memory,
//! and seeded random ones generated lazily.

pub mod explicit;
pub mod random;
