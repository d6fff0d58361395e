//! Time management: how long to think on this move, from the clock the GUI sends.
//!
//! Two limits come out: an optimum, checked between iterations and stretched or shrunk by how
//! stable the best move is, and a maximum, checked inside the search, that is never exceeded.

use std::time::Duration;

/// The clock fields of a `go` command, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time_left: Option<u64>,
    pub increment: u64,
    pub byoyomi: u64,
    pub movetime: Option<u64>,
}

/// The options that shape time use.
#[derive(Clone, Copy, Debug)]
pub struct TimeOptions {
    /// Expected delay between our `bestmove` and the GUI stopping our clock.
    pub network_delay: u64,
    /// Think at least this long when the clock allows it.
    pub minimum_thinking: u64,
}

/// The budget for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub optimum: Duration,
    pub maximum: Duration,
    /// Byoyomi time not used is lost: search until `maximum` instead of stopping at the optimum.
    pub use_all: bool,
}

/// Clock values above this (about 35 years) are treated as this.
const MAX_CLOCK_MS: u64 = 1 << 40;

/// Moves still to play that the remaining main time is spread over.
fn moves_to_go(game_ply: u32) -> u64 {
    // Games last roughly 120-160 plies; keep a reserve even late in the game.
    let remaining_own_moves = 80u64.saturating_sub(game_ply as u64 / 2);
    remaining_own_moves.max(20)
}

/// Computes the budget, or `None` when the clock sets no limit (infinite analysis).
pub fn budget(clock: &Clock, opts: &TimeOptions, game_ply: u32) -> Option<TimeBudget> {
    // Clock values come straight from the GUI: bound them so the sums below cannot overflow.
    let clock = &Clock {
        time_left: clock.time_left.map(|t| t.min(MAX_CLOCK_MS)),
        increment: clock.increment.min(MAX_CLOCK_MS),
        byoyomi: clock.byoyomi.min(MAX_CLOCK_MS),
        movetime: clock.movetime.map(|t| t.min(MAX_CLOCK_MS)),
    };
    // The delay never eats more than half of a short byoyomi or move time: a GUI that gives
    // 100 ms per move with a 120 ms delay setting still wants a searched move.
    let per_move_time = clock.movetime.unwrap_or(clock.byoyomi);
    let delay =
        if per_move_time > 0 { opts.network_delay.min(per_move_time / 2) } else { opts.network_delay };
    if let Some(mt) = clock.movetime {
        let t = mt.saturating_sub(delay).max(1);
        let d = Duration::from_millis(t);
        return Some(TimeBudget { optimum: d, maximum: d, use_all: true });
    }
    let left = clock.time_left?;
    let byoyomi = clock.byoyomi;
    let inc = clock.increment;
    // Main time we can still spend without touching the last reserve.
    let reserve = (left / 20).min(2_000);
    let spendable = left.saturating_sub(reserve);
    let mtg = moves_to_go(game_ply);
    let mut optimum = spendable / mtg + inc * 3 / 4;
    let mut maximum = (spendable / 5 + inc).min(spendable + inc);
    let mut use_all = false;
    if byoyomi > 0 {
        // Byoyomi is free time for every move: always use it rather than move at once.
        let per_move = byoyomi.saturating_sub(delay);
        optimum += per_move * 3 / 4;
        maximum = maximum.min(spendable) + per_move;
        if left < byoyomi {
            // Main time is (nearly) gone: spend the whole period.
            optimum = per_move.max(1);
            use_all = true;
        }
    } else {
        // Sudden death or Fischer: the whole remaining time, less a margin, is the hard limit.
        let hard = left.saturating_sub(delay + left / 30 + 50);
        maximum = maximum.min(hard);
    }
    let maximum = maximum.max(1);
    let minimum = opts.minimum_thinking.min(maximum);
    let optimum = optimum.max(minimum).min(maximum);
    Some(TimeBudget {
        optimum: Duration::from_millis(optimum),
        maximum: Duration::from_millis(maximum),
        use_all,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTS: TimeOptions = TimeOptions { network_delay: 120, minimum_thinking: 0 };

    #[test]
    fn byoyomi_only_spends_nearly_the_whole_period() {
        let c = Clock { time_left: Some(0), byoyomi: 10_000, ..Clock::default() };
        let b = budget(&c, &OPTS, 40).unwrap();
        assert_eq!(b.maximum, Duration::from_millis(9_880));
        assert!(b.optimum >= Duration::from_millis(7_000));
    }

    #[test]
    fn sudden_death_never_exceeds_the_clock() {
        for left in [50u64, 500, 5_000, 60_000, 600_000] {
            for ply in [1, 50, 150, 300] {
                let c = Clock { time_left: Some(left), ..Clock::default() };
                let b = budget(&c, &OPTS, ply).unwrap();
                assert!(b.maximum.as_millis() as u64 <= left.saturating_sub(OPTS.network_delay).max(1));
                assert!(b.optimum <= b.maximum);
            }
        }
    }

    #[test]
    fn fischer_uses_the_increment() {
        let c = Clock { time_left: Some(10_000), increment: 1_000, ..Clock::default() };
        let b = budget(&c, &OPTS, 30).unwrap();
        assert!(b.optimum >= Duration::from_millis(750));
        assert!(b.maximum.as_millis() < 10_000);
    }

    #[test]
    fn a_short_byoyomi_is_not_eaten_by_the_delay() {
        let c = Clock { time_left: Some(0), byoyomi: 100, ..Clock::default() };
        let b = budget(&c, &OPTS, 40).unwrap();
        assert_eq!(b.maximum, Duration::from_millis(50));
    }

    #[test]
    fn absurd_clock_values_do_not_overflow() {
        let c = Clock { time_left: Some(u64::MAX), increment: u64::MAX, byoyomi: u64::MAX, movetime: None };
        let b = budget(&c, &OPTS, 1).unwrap();
        assert!(b.optimum <= b.maximum);
    }

    #[test]
    fn movetime_and_infinite() {
        let c = Clock { movetime: Some(1_000), ..Clock::default() };
        assert_eq!(budget(&c, &OPTS, 1).unwrap().maximum, Duration::from_millis(880));
        assert!(budget(&Clock::default(), &OPTS, 1).is_none());
    }
}
