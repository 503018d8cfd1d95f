//! `go`: its arguments, and the time management that turns a clock into
//! limits for one move ([`stockman::clock`] does the arithmetic).

use super::*;

/// What `go` asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Go {
    pub(super) depth: Option<u32>,
    pub(super) nodes: Option<u64>,
    pub(super) movetime: Option<u64>,
    pub(super) wtime: Option<u64>,
    pub(super) btime: Option<u64>,
    pub(super) winc: u64,
    pub(super) binc: u64,
    pub(super) movestogo: Option<u32>,
    pub(super) infinite: bool,
}

impl Go {
    /// Reads `go`'s arguments; the problems found are returned beside it
    /// (each an `info string`), and the rest of the command still counts.
    pub(super) fn parse(words: &[&str]) -> (Go, Vec<String>) {
        let mut go = Go::default();
        let mut problems = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            let number = |i: usize| -> Result<u64, String> {
                let Some(v) = words.get(i + 1) else {
                    return Err(format!("go {w}: a number is missing"));
                };
                match v.parse::<i64>() {
                    Ok(n) if n < 0 => Err(format!("go {w} {v}: negative, taken as 0")),
                    Ok(n) => Ok(n as u64),
                    Err(_) => Err(format!("go {w} `{v}`: not a whole number, ignored")),
                }
            };
            if GO_NUMBERS.contains(&w) {
                let n = match number(i) {
                    Ok(n) => Some(n),
                    Err(p) => {
                        let negative = p.contains("negative");
                        problems.push(p);
                        negative.then_some(0)
                    }
                };
                if let Some(n) = n {
                    match w {
                        "depth" => go.depth = Some(n.clamp(1, u64::from(MAX_DEPTH)) as u32),
                        "nodes" => go.nodes = Some(n.max(1)),
                        "movetime" => go.movetime = Some(n),
                        "wtime" => go.wtime = Some(n),
                        "btime" => go.btime = Some(n),
                        "winc" => go.winc = n,
                        "binc" => go.binc = n,
                        "movestogo" => go.movestogo = Some(n.clamp(1, 1000) as u32),
                        _ => problems.push(format!("go mate {n}: mate search is not supported; searching normally")),
                    }
                }
                // Skip the value unless it is missing (a keyword follows).
                if words.get(i + 1).is_some_and(|v| !is_go_keyword(v)) {
                    i += 1;
                }
            } else {
                match w {
                    "infinite" => go.infinite = true,
                    "ponder" => problems.push("go ponder: pondering is not supported; searching now".to_string()),
                    "searchmoves" => {
                        problems.push("go searchmoves: not supported; searching every move".to_string());
                        // Skip the moves themselves.
                        while words.get(i + 1).is_some_and(|v| !is_go_keyword(v)) {
                            i += 1;
                        }
                    }
                    _ => problems.push(format!("go: unknown argument `{w}` ignored")),
                }
            }
            i += 1;
        }
        (go, problems)
    }

    /// Whether the search runs until `stop`.
    pub(super) fn until_stopped(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.wtime.is_none()
                && self.btime.is_none())
    }

    /// The limits of the search, for the side to move (`first`: the first player).
    pub(super) fn limits(&self, first: bool, overhead: Duration) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            ..Limits::default()
        };
        if self.infinite {
            return limits;
        }
        let (time, inc) = if first {
            (self.wtime, self.winc)
        } else {
            (self.btime, self.binc)
        };
        if let Some(ms) = time {
            let budget = Clock {
                remaining: Duration::from_millis(ms),
                increment: Duration::from_millis(inc),
                moves_to_go: self.movestogo,
            }
            .budget(overhead);
            limits.time = Some(budget.hard);
            limits.soft_time = Some(budget.soft);
        }
        if let Some(ms) = self.movetime {
            let t = Duration::from_millis(ms)
                .saturating_sub(overhead)
                .max(Duration::from_millis(1));
            limits.time = Some(limits.time.map_or(t, |h| h.min(t)));
        }
        limits
    }
}

/// `go`'s arguments that take a number, and those that stand alone.
pub(super) const GO_NUMBERS: [&str; 9] = [
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "mate",
];
pub(super) const GO_FLAGS: [&str; 3] = ["infinite", "ponder", "searchmoves"];

pub(super) fn is_go_keyword(w: &str) -> bool {
    GO_NUMBERS.contains(&w) || GO_FLAGS.contains(&w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_its_arguments_and_names_the_bad_ones() {
        let (go, p) = Go::parse(&["wtime", "1000", "btime", "-5", "winc", "x", "depth", "3", "foo"]);
        assert_eq!(go.wtime, Some(1000));
        assert_eq!(go.btime, Some(0));
        assert_eq!(go.depth, Some(3));
        assert_eq!(go.winc, 0);
        assert_eq!(
            p,
            [
                "go btime -5: negative, taken as 0",
                "go winc `x`: not a whole number, ignored",
                "go: unknown argument `foo` ignored"
            ]
        );
        let (go, p) = Go::parse(&["depth"]);
        assert_eq!((go.depth, p.len()), (None, 1));
        assert!(Go::parse(&[]).0.until_stopped());
        assert!(!Go::parse(&["movetime", "10"]).0.until_stopped());
    }

    #[test]
    fn the_clock_gives_the_side_to_move_its_budget() {
        let (go, _) = Go::parse(&["wtime", "10000", "btime", "20", "winc", "100", "binc", "0"]);
        let white = go.limits(true, Duration::from_millis(50));
        assert_eq!(white.time, Some(Duration::from_millis(975)));
        assert!(white.soft_time < white.time);
        let black = go.limits(false, Duration::from_millis(50));
        assert_eq!(black.time, Some(Duration::ZERO));
        let (go, _) = Go::parse(&["movetime", "500"]);
        assert_eq!(
            go.limits(true, Duration::from_millis(50)).time,
            Some(Duration::from_millis(450))
        );
    }
}
