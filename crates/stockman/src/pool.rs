//! The node limit of a team of threads, shared out in chunks.
//!
//! A service of its own below the tables and the searches: a
//! [`SharedTable`](crate::SharedTable) carries the team's pool to every
//! thread's handle, and each thread's budget takes its positions from it.

use std::sync::atomic::{AtomicU64, Ordering};

/// The most positions one thread takes at a time: as many as a search
/// visits between two looks at the clock.
pub(crate) const MAX_CHUNK: u64 = 1024;

/// The positions a team of threads may still visit together (a node limit
/// of the whole parallel search): every thread takes them in chunks before
/// it visits them, so the team's total never passes the limit, and the
/// chunks shrink as the pool runs dry, so that no thread stops while
/// another sits on a large unused chunk.
#[derive(Debug)]
pub struct NodePool {
    limit: u64,
    left: AtomicU64,
    threads: u64,
}

impl NodePool {
    /// A pool of `limit` positions for `threads` threads.
    pub(crate) fn new(limit: u64, threads: usize) -> NodePool {
        NodePool {
            limit,
            left: AtomicU64::new(limit),
            threads: threads.max(1) as u64,
        }
    }

    /// The team's limit.
    pub(crate) fn limit(&self) -> u64 {
        self.limit
    }

    /// Takes up to [`MAX_CHUNK`] positions (fewer as the pool runs
    /// dry: at most half of what is left per thread, at least one); 0 when
    /// none is left.
    pub(crate) fn take(&self) -> u64 {
        let mut left = self.left.load(Ordering::Relaxed);
        loop {
            if left == 0 {
                return 0;
            }
            let chunk = (left / (2 * self.threads)).clamp(1, MAX_CHUNK);
            match self
                .left
                .compare_exchange_weak(left, left - chunk, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return chunk,
                Err(now) => left = now,
            }
        }
    }
}
