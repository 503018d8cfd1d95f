//! The messages between ranks, and their bytes (little-endian; a message
//! that does not decode whole is refused, not guessed at).

use super::{RankReport, MAX_SPREAD};
use crate::stats::Stats;
use crate::value::Value;

/// The longest path a `Search` carries: a frame sends only children at its
/// ply plus one, and frames open only above the spread (or at the root).
const MAX_PATH: usize = MAX_SPREAD as usize;

/// The most bytes of a rank's error an `Abort` carries; a longer one is cut
/// (at a character's boundary) and marked.
const MAX_REASON: usize = 1000;

/// The most bytes any message takes: an `Abort` with its longest reason
/// (9 bytes and `MAX_REASON`), more than a `Search` with its longest
/// path (33 and 4 a ply of [`MAX_SPREAD`]: 289) or a `Report` (141). A
/// transport may refuse anything longer: it did not come from this code.
pub const MAX_MESSAGE_BYTES: usize = 9 + MAX_REASON;

const _: () = assert!(33 + 4 * MAX_PATH <= MAX_MESSAGE_BYTES && 5 + 8 * 17 <= MAX_MESSAGE_BYTES);

/// Where a result goes: a rank, a frame there, and which child it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Parent {
    pub(super) rank: u32,
    pub(super) frame: u64,
    pub(super) child: u32,
}

/// The frame id standing for the driver, on rank 0.
pub(super) const DRIVER: u64 = u64::MAX;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Msg {
    /// Test the position at `path`: is its value at least `gamma`?
    Search {
        epoch: u32,
        pass: u32,
        gamma: Value,
        parent: Parent,
        path: Vec<u32>,
    },
    /// The test's answer `g` (at least `gamma` or below it) and the child
    /// that decided it.
    Answer {
        epoch: u32,
        pass: u32,
        frame: u64,
        child: u32,
        g: Value,
        best: u32,
    },
    /// Frame `frame` of rank `rank` no longer needs its children.
    Cancel {
        epoch: u32,
        pass: u32,
        rank: u32,
        frame: u64,
    },
    /// The search is over: report and stop.
    Done { epoch: u32 },
    /// A rank's report, to rank 0.
    Report { epoch: u32, report: RankReport },
    /// A rank failed (its error): every rank stops with it.
    Abort { epoch: u32, reason: String },
    /// Root split: is root move `child` better than the bar `gamma` (at
    /// least `gamma` under a MAX root, below it under a MIN root)? If so,
    /// its exact value.
    Test { epoch: u32, child: u32, gamma: Value },
    /// Root split: root move `child` is worth exactly `g` (`exact`), or
    /// `g` bounds it on the side of no better.
    Tested {
        epoch: u32,
        child: u32,
        g: Value,
        exact: bool,
    },
    /// Root split: the bar rose (MAX) or fell (MIN) to `gamma`.
    Bar { epoch: u32, gamma: Value },
}

impl Msg {
    pub(super) fn epoch(&self) -> u32 {
        match self {
            Msg::Search { epoch, .. }
            | Msg::Answer { epoch, .. }
            | Msg::Cancel { epoch, .. }
            | Msg::Done { epoch }
            | Msg::Report { epoch, .. }
            | Msg::Abort { epoch, .. }
            | Msg::Test { epoch, .. }
            | Msg::Tested { epoch, .. }
            | Msg::Bar { epoch, .. } => *epoch,
        }
    }

    pub(super) fn encode(&self, out: &mut Vec<u8>) {
        out.clear();
        let u32s = |out: &mut Vec<u8>, xs: &[u32]| xs.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        let u64s = |out: &mut Vec<u8>, xs: &[u64]| xs.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        match self {
            Msg::Search {
                epoch,
                pass,
                gamma,
                parent,
                path,
            } => {
                out.push(0);
                u32s(out, &[*epoch, *pass, *gamma as u32, parent.rank, parent.child]);
                u64s(out, &[parent.frame]);
                u32s(out, &[path.len() as u32]);
                u32s(out, path);
            }
            Msg::Answer {
                epoch,
                pass,
                frame,
                child,
                g,
                best,
            } => {
                out.push(1);
                u32s(out, &[*epoch, *pass, *child, *g as u32, *best]);
                u64s(out, &[*frame]);
            }
            Msg::Cancel {
                epoch,
                pass,
                rank,
                frame,
            } => {
                out.push(2);
                u32s(out, &[*epoch, *pass, *rank]);
                u64s(out, &[*frame]);
            }
            Msg::Done { epoch } => {
                out.push(3);
                u32s(out, &[*epoch]);
            }
            Msg::Report { epoch, report: r } => {
                out.push(4);
                u32s(out, &[*epoch]);
                let s = &r.stats;
                u64s(
                    out,
                    &[
                        r.rank as u64,
                        r.messages,
                        r.bytes,
                        r.kept,
                        r.frames,
                        r.joined,
                        r.idle_us,
                        s.leaf_evals,
                        s.nodes_expanded,
                        s.nodes,
                        s.horizon_nodes,
                        s.tt_probes,
                        s.tt_hits,
                        s.tt_stores,
                        s.time_us,
                        s.passes,
                        r.table_bytes,
                    ],
                );
            }
            Msg::Abort { epoch, reason } => {
                out.push(5);
                let text = cut(reason);
                u32s(out, &[*epoch, text.len() as u32]);
                out.extend_from_slice(text.as_bytes());
            }
            Msg::Test { epoch, child, gamma } => {
                out.push(6);
                u32s(out, &[*epoch, *child, *gamma as u32]);
            }
            Msg::Tested { epoch, child, g, exact } => {
                out.push(7);
                u32s(out, &[*epoch, *child, *g as u32, u32::from(*exact)]);
            }
            Msg::Bar { epoch, gamma } => {
                out.push(8);
                u32s(out, &[*epoch, *gamma as u32]);
            }
        }
    }

    pub(super) fn decode(bytes: &[u8]) -> Option<Msg> {
        let mut r = Reader { bytes, at: 1 };
        let msg = match *bytes.first()? {
            0 => {
                let (epoch, pass, gamma, rank, child) = (r.u32()?, r.u32()?, r.u32()? as Value, r.u32()?, r.u32()?);
                let frame = r.u64()?;
                let n = r.u32()? as usize;
                if n > MAX_PATH {
                    return None;
                }
                let path = (0..n).map(|_| r.u32()).collect::<Option<Vec<u32>>>()?;
                Msg::Search {
                    epoch,
                    pass,
                    gamma,
                    parent: Parent { rank, frame, child },
                    path,
                }
            }
            1 => {
                let (epoch, pass, child, g, best) = (r.u32()?, r.u32()?, r.u32()?, r.u32()? as Value, r.u32()?);
                Msg::Answer {
                    epoch,
                    pass,
                    frame: r.u64()?,
                    child,
                    g,
                    best,
                }
            }
            2 => Msg::Cancel {
                epoch: r.u32()?,
                pass: r.u32()?,
                rank: r.u32()?,
                frame: r.u64()?,
            },
            3 => Msg::Done { epoch: r.u32()? },
            4 => {
                let epoch = r.u32()?;
                let mut x = [0u64; 17];
                for v in &mut x {
                    *v = r.u64()?;
                }
                let stats = Stats {
                    leaf_evals: x[7],
                    nodes_expanded: x[8],
                    nodes: x[9],
                    horizon_nodes: x[10],
                    tt_probes: x[11],
                    tt_hits: x[12],
                    tt_stores: x[13],
                    time_us: x[14],
                    passes: x[15],
                    ..Stats::default()
                };
                let report = RankReport {
                    rank: x[0] as usize,
                    stats,
                    messages: x[1],
                    bytes: x[2],
                    kept: x[3],
                    frames: x[4],
                    joined: x[5],
                    idle_us: x[6],
                    table_bytes: x[16],
                };
                Msg::Report { epoch, report }
            }
            5 => {
                let (epoch, n) = (r.u32()?, r.u32()? as usize);
                if n > MAX_REASON {
                    return None;
                }
                let text = bytes.get(r.at..r.at.checked_add(n)?)?;
                r.at += n;
                Msg::Abort {
                    epoch,
                    reason: String::from_utf8_lossy(text).into_owned(),
                }
            }
            6 => Msg::Test {
                epoch: r.u32()?,
                child: r.u32()?,
                gamma: r.u32()? as Value,
            },
            7 => {
                let (epoch, child, g) = (r.u32()?, r.u32()?, r.u32()? as Value);
                let exact = match r.u32()? {
                    0 => false,
                    1 => true,
                    _ => return None,
                };
                Msg::Tested { epoch, child, g, exact }
            }
            8 => Msg::Bar {
                epoch: r.u32()?,
                gamma: r.u32()? as Value,
            },
            _ => return None,
        };
        (r.at == bytes.len()).then_some(msg)
    }
}

/// `reason` within [`MAX_REASON`] bytes: whole, or cut at a character's
/// boundary with an ellipsis.
fn cut(reason: &str) -> std::borrow::Cow<'_, str> {
    if reason.len() <= MAX_REASON {
        return reason.into();
    }
    let mut end = MAX_REASON - '…'.len_utf8();
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &reason[..end]).into()
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u32(&mut self) -> Option<u32> {
        let b = self.bytes.get(self.at..self.at + 4)?;
        self.at += 4;
        Some(u32::from_le_bytes(b.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        let b = self.bytes.get(self.at..self.at + 8)?;
        self.at += 8;
        Some(u64::from_le_bytes(b.try_into().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::NO_MOVE;

    #[test]
    fn messages_round_trip_and_refuse_garbage() {
        let msgs = [
            Msg::Search {
                epoch: 3,
                pass: 2,
                gamma: -7,
                parent: Parent {
                    rank: 1,
                    frame: 99,
                    child: 4,
                },
                path: vec![0, 3, 1],
            },
            Msg::Answer {
                epoch: 1,
                pass: 5,
                frame: DRIVER,
                child: 0,
                g: -40,
                best: NO_MOVE,
            },
            Msg::Cancel {
                epoch: 0,
                pass: 1,
                rank: 2,
                frame: 12,
            },
            Msg::Done { epoch: 9 },
            Msg::Abort {
                epoch: 4,
                reason: "rank 2: the game broke".into(),
            },
            Msg::Report {
                epoch: 2,
                report: RankReport {
                    rank: 3,
                    messages: 5,
                    bytes: 80,
                    idle_us: 7,
                    table_bytes: 4096,
                    stats: Stats {
                        passes: 11,
                        nodes: 12,
                        ..Stats::default()
                    },
                    ..Default::default()
                },
            },
            Msg::Test {
                epoch: 1,
                child: 6,
                gamma: -3,
            },
            Msg::Tested {
                epoch: 1,
                child: 6,
                g: 12,
                exact: true,
            },
            Msg::Tested {
                epoch: 1,
                child: 2,
                g: -64,
                exact: false,
            },
            Msg::Bar { epoch: 2, gamma: -1 },
        ];
        let mut buf = Vec::new();
        for m in msgs {
            m.encode(&mut buf);
            assert_eq!(Msg::decode(&buf), Some(m.clone()));
            assert_eq!(Msg::decode(&buf[..buf.len() - 1]), None);
            let mut longer = buf.clone();
            longer.push(0);
            assert_eq!(Msg::decode(&longer), None);
        }
        assert_eq!(Msg::decode(&[]), None);
        assert_eq!(Msg::decode(&[9, 0, 0, 0, 0]), None);
        // A flag other than 0 or 1 is refused.
        let mut buf = Vec::new();
        Msg::Tested {
            epoch: 0,
            child: 0,
            g: 0,
            exact: true,
        }
        .encode(&mut buf);
        buf[13] = 2;
        assert_eq!(Msg::decode(&buf), None);
    }

    #[test]
    fn every_message_is_bounded() {
        let search = |n: usize| Msg::Search {
            epoch: 1,
            pass: 1,
            gamma: 0,
            parent: Parent {
                rank: 0,
                frame: 1,
                child: 2,
            },
            path: vec![u32::MAX; n],
        };
        let mut buf = Vec::new();
        // The longest path a spread allows goes; one ply more is refused.
        search(MAX_PATH).encode(&mut buf);
        assert_eq!(buf.len(), 33 + 4 * MAX_SPREAD as usize);
        assert!(buf.len() <= MAX_MESSAGE_BYTES);
        assert_eq!(Msg::decode(&buf), Some(search(MAX_PATH)));
        search(MAX_PATH + 1).encode(&mut buf);
        assert_eq!(Msg::decode(&buf), None);
        // A long error is cut, at a character, within the bound.
        let long = "é".repeat(3000);
        Msg::Abort {
            epoch: 0,
            reason: long.clone(),
        }
        .encode(&mut buf);
        assert_eq!(
            buf.len(),
            MAX_MESSAGE_BYTES - 1,
            "2-byte characters: the last one does not fit"
        );
        let Some(Msg::Abort { reason, .. }) = Msg::decode(&buf) else {
            panic!("an abort decodes");
        };
        assert!(reason.ends_with('…') && long.starts_with(reason.trim_end_matches('…')));
        // An abort that claims more than the bound is refused.
        let mut over = vec![5, 0, 0, 0, 0];
        over.extend_from_slice(&(MAX_REASON as u32 + 1).to_le_bytes());
        over.extend(std::iter::repeat_n(b'x', MAX_REASON + 1));
        assert_eq!(Msg::decode(&over), None);
        let mut report = Vec::new();
        Msg::Report {
            epoch: 0,
            report: RankReport::default(),
        }
        .encode(&mut report);
        assert_eq!(report.len(), 141);
    }
}
