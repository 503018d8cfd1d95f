//! How ranks reach each other: the [`Transport`] a distributed search runs
//! over, and [`LocalWorld`], ranks as threads of one process.

use super::{search, Distributed, TdsabOptions};
use crate::game::Game;
use crate::search::SearchError;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

/// How ranks send each other bytes: one-way, asynchronous, in order
/// between any two ranks. A message is at most
/// [`MAX_MESSAGE_BYTES`](super::MAX_MESSAGE_BYTES); a transport may refuse
/// a longer one as not a search's.
pub trait Transport {
    /// This process's rank, `0..ranks()`.
    fn rank(&self) -> usize;
    /// How many ranks search.
    fn ranks(&self) -> usize;
    /// Sends `bytes` to rank `to` (never this rank) without waiting for it:
    /// never for the receiver to take it in, whatever its size, since the
    /// receiver may itself be sending (a send that waits for its match can
    /// deadlock two ranks that send to each other).
    ///
    /// # Errors
    /// The rank is gone.
    fn send(&mut self, to: usize, bytes: &[u8]) -> Result<(), TransportError>;
    /// The next message for this rank and its sender, waiting at most
    /// `wait` for one.
    ///
    /// # Errors
    /// The other ranks are gone.
    fn recv(&mut self, wait: Duration) -> Result<Option<(usize, Vec<u8>)>, TransportError>;
}

/// A transport that failed: what it was doing and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransportError(pub String);

impl std::fmt::Display for TransportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Ranks as threads of this process, joined by channels: the transport for
/// tests, and for a machine without MPI.
pub struct LocalWorld {
    me: usize,
    to: Vec<Sender<(usize, Vec<u8>)>>,
    from: Receiver<(usize, Vec<u8>)>,
}

impl LocalWorld {
    /// `n` ranks' transports, rank `i` at index `i`.
    pub fn new(n: usize) -> Vec<LocalWorld> {
        let (to, from): (Vec<_>, Vec<_>) = (0..n).map(|_| channel()).unzip();
        from.into_iter()
            .enumerate()
            .map(|(me, from)| LocalWorld {
                me,
                to: to.clone(),
                from,
            })
            .collect()
    }

    /// Searches `game` on `n` ranks, one thread each: rank 0's answer.
    ///
    /// # Errors
    /// As [`search`]; the first rank's error.
    pub fn run<G: Game + Sync>(n: usize, game: &G, opts: &TdsabOptions) -> Result<Distributed, SearchError> {
        // Refused once, before any rank starts.
        opts.check()?;
        let worlds = LocalWorld::new(n.max(1));
        let results: Vec<Result<Option<Distributed>, SearchError>> = std::thread::scope(|s| {
            let handles: Vec<_> = worlds
                .into_iter()
                .map(|mut w| {
                    std::thread::Builder::new()
                        .stack_size((64usize << 20) + opts.depth.or(opts.max_plies).unwrap_or(200) as usize * 4096)
                        // A rank's panic is caught by `search`, which tells
                        // the others (as over MPI).
                        .spawn_scoped(s, move || search(game, opts, &mut w, 0))
                        .map_err(|e| SearchError::Distributed(format!("cannot start a rank's thread: {e}")))
                })
                .collect();
            handles
                .into_iter()
                .enumerate()
                .map(|(rank, h)| match h {
                    Ok(h) => h.join().unwrap_or_else(|p| {
                        Err(SearchError::Panicked {
                            rank,
                            message: crate::search::panic_text(&*p),
                        })
                    }),
                    Err(e) => Err(e),
                })
                .collect()
        });
        if let Some(e) = panic_first(&results) {
            return Err(e);
        }
        let mut answer = None;
        for r in results {
            if let Some(d) = r? {
                answer = Some(d);
            }
        }
        answer.ok_or_else(|| SearchError::Distributed("rank 0 gave no answer".into()))
    }
}

/// Of the ranks' results, the error of a rank that panicked
/// ([`SearchError::Panicked`]), if any: its message goes first, since the
/// other ranks' errors only say they were stopped or stalled.
pub fn panic_first<T>(results: &[Result<T, SearchError>]) -> Option<SearchError> {
    results
        .iter()
        .find_map(|r| r.as_ref().err().filter(|e| matches!(e, SearchError::Panicked { .. })))
        .cloned()
}

impl Transport for LocalWorld {
    fn rank(&self) -> usize {
        self.me
    }
    fn ranks(&self) -> usize {
        self.to.len()
    }
    fn send(&mut self, to: usize, bytes: &[u8]) -> Result<(), TransportError> {
        // A rank is gone only once it has finished (an error is announced
        // by an Abort first): what still comes for it is stale.
        let _ = self.to[to].send((self.me, bytes.to_vec()));
        Ok(())
    }
    fn recv(&mut self, wait: Duration) -> Result<Option<(usize, Vec<u8>)>, TransportError> {
        match self.from.recv_timeout(wait) {
            Ok(m) => Ok(Some(m)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(TransportError("every other rank is gone".into())),
        }
    }
}
