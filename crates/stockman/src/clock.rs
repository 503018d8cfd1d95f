//! Time management: from a game clock (time left, increment, moves to the
//! next time control) to one move's budget, a soft limit after which no
//! new iteration starts and a hard limit at which the search stops.
//!
//! The rule is the usual one of game programs, kept simple enough to
//! prove safe: spend the time left (less a reserve of one *overhead*, the
//! moves' transit outside the search, per move still to play, at most ten,
//! and one more) evenly over the moves still to play (`movestogo`, or 30
//! in sudden death), plus three quarters of the increment; stop starting
//! iterations at 60% of that, and stop outright at 2.5 times it, but never
//! past half of what is left (all but a tenth on the last move before a
//! time control). Since the hard limit plus the overhead is always less
//! than the time left, a program that honours it never loses on time, as
//! long as its real overhead (reading the command, answering, the search's
//! reaction time to its stop) stays within the overhead it was given.
//!
//! # Example
//! ```
//! use stockman::clock::Clock;
//! use std::time::Duration;
//! let clock = Clock { remaining: Duration::from_secs(10), increment: Duration::from_millis(100), moves_to_go: None };
//! let budget = clock.budget(Duration::from_millis(50));
//! assert!(budget.soft < budget.hard);
//! assert!(budget.hard + Duration::from_millis(50) < clock.remaining);
//! ```

use std::time::Duration;

/// A player's clock when it is to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves to play before the next time control (`None`: the rest of the game).
    pub moves_to_go: Option<u32>,
}

/// One move's share of the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// No iteration starts after this.
    pub soft: Duration,
    /// The search stops here.
    pub hard: Duration,
}

/// Moves still to play assumed in sudden death.
pub const SUDDEN_DEATH_MOVES: u32 = 30;

/// The shortest hard limit: enough for a first iteration of a cheap game.
pub const MIN_HARD: Duration = Duration::from_millis(1);

impl Clock {
    /// The budget of the move to play now, keeping `overhead` of the time
    /// left for what happens outside the search.
    pub fn budget(&self, overhead: Duration) -> Budget {
        let moves = self.moves_to_go.unwrap_or(SUDDEN_DEATH_MOVES).clamp(1, 100);
        // A reserve of one overhead per move still to play (up to ten),
        // and one more: the moves' transit is paid from it when the
        // clock runs low, instead of from the last search's time.
        let reserve = overhead * (1 + moves.min(10));
        let usable = self.remaining.saturating_sub(reserve);
        let base = usable / moves + self.increment * 3 / 4;
        // Never more than half of what is left, so that the clock lasts
        // whatever the game's length; on the last move before the
        // control, all but a tenth.
        let cap = if moves == 1 { usable * 9 / 10 } else { usable / 2 };
        let hard = (base * 5 / 2).min(cap);
        let soft = (base * 3 / 5).min(hard);
        Budget {
            soft,
            hard: hard.max(MIN_HARD.min(usable)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    /// A whole game played by a program that always spends its whole hard
    /// limit plus `transit` outside the search (at most the overhead it
    /// budgets for): the clock never runs out. Counted, not timed.
    fn never_flags(
        start: Duration,
        increment: Duration,
        control: Option<u32>,
        overhead: Duration,
        transit: Duration,
        moves: u32,
    ) {
        assert!(transit <= overhead);
        let mut remaining = start;
        let mut to_go = control;
        for n in 1..=moves {
            let clock = Clock {
                remaining,
                increment,
                moves_to_go: to_go,
            };
            let b = clock.budget(overhead);
            assert!(b.soft <= b.hard, "move {n}: {b:?}");
            let spent = b.hard + transit;
            assert!(
                spent < remaining,
                "move {n}: lost on time: spent {spent:?} of {remaining:?} ({clock:?})"
            );
            remaining = remaining - spent.min(remaining) + increment;
            to_go = match (to_go, control) {
                (Some(1), Some(c)) => {
                    remaining += start; // the next control's time
                    Some(c)
                }
                (Some(k), _) => Some(k - 1),
                (None, _) => None,
            };
        }
        assert!(remaining > Duration::ZERO);
    }

    #[test]
    fn ten_seconds_plus_a_tenth_never_runs_out_in_a_long_game() {
        never_flags(Duration::from_secs(10), 100 * MS, None, 50 * MS, 50 * MS, 600);
        // Without an increment the clock shrinks move after move; with a
        // transit well under the overhead it lasts a long game all the same
        // (the reserve of 550 ms pays 1 ms of transit for 550 moves).
        never_flags(Duration::from_secs(10), Duration::ZERO, None, 50 * MS, MS, 500);
    }

    #[test]
    fn other_controls_never_run_out() {
        for (secs, inc, control) in [(60, 0, Some(40)), (1, 30, None), (300, 3000, None), (5, 0, Some(1))] {
            never_flags(Duration::from_secs(secs), inc * MS, control, 30 * MS, 30 * MS, 400);
        }
    }

    #[test]
    fn the_budget_follows_the_rule() {
        let c = Clock {
            remaining: Duration::from_secs(10),
            increment: 100 * MS,
            moves_to_go: None,
        };
        // (10,000 - 11 x 50) / 30 + 75 = 390 ms; soft 60%, hard 250%.
        let b = c.budget(50 * MS);
        assert_eq!(b.hard, 975 * MS);
        assert_eq!(b.soft, 234 * MS);
        // With 40 moves to go and no increment.
        let c = Clock {
            remaining: Duration::from_secs(60),
            increment: Duration::ZERO,
            moves_to_go: Some(40),
        };
        assert_eq!(c.budget(Duration::ZERO).hard, Duration::from_millis(3750));
        // Down to the reserve: no time to search.
        let c = Clock {
            remaining: 550 * MS,
            ..Clock::default()
        };
        assert_eq!(c.budget(50 * MS).hard, Duration::ZERO);
        // Just above it: the search still gets a moment.
        let c = Clock {
            remaining: 560 * MS,
            ..Clock::default()
        };
        assert_eq!(c.budget(50 * MS).hard, MS);
    }
}
