//! Time management: how long to think on this move, from the time control the GUI sends.
//!
//! Three limits come out: a minimum (time that is lost if not used, such as byoyomi), before
//! which the search never stops between iterations; an optimum, checked between iterations and
//! stretched or shrunk by how stable the best move is; and a maximum, checked inside the search,
//! that is never exceeded.

use crate::types::Color;
use std::time::Duration;

/// Both sides' clocks as a `go` command gives them, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Main time left (`btime`, `wtime`), indexed by colour; a side not given has 0.
    pub time_left: [u64; 2],
    /// Fischer increment (`binc`, `winc`), indexed by colour.
    pub increment: [u64; 2],
    /// Time per move once the main time is spent (`byoyomi`), the same for both sides.
    pub byoyomi: u64,
    /// Moves until the next time control (`movestogo`), when the GUI says.
    pub moves_to_go: Option<u32>,
}

/// The time limit of one `go`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeControl {
    /// No time field at all (or `infinite`): think until `stop`, or a depth or node limit.
    #[default]
    Unbounded,
    /// `movetime N` (or `rtime`): think this many milliseconds.
    MoveTime(u64),
    /// Main time, increment and byoyomi: a game clock.
    Clock(Clock),
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
    /// Never stop between iterations before this: byoyomi not used is lost.
    pub minimum: Duration,
    /// Stop between iterations around here (scaled by the stability of the best move).
    pub optimum: Duration,
    /// Never think longer than this.
    pub maximum: Duration,
}

/// Clock values above this (about 35 years) are treated as this.
const MAX_CLOCK_MS: u64 = 1 << 40;

/// The least margin in milliseconds kept back from every hard limit for our own latency: the
/// search notices the clock every 1,024 nodes, then joins its helpers and writes `bestmove`.
pub const MIN_SAFETY_MARGIN_MS: u64 = 10;

/// How many recent late answers the margin is learnt from.
const LATENESS_WINDOW: usize = 16;

/// The margin until a few answers have been measured: a fresh process is slower to answer
/// (its memory is not yet touched), and one late first move loses the game.
pub const COLD_START_MARGIN_MS: u64 = 30;

/// Measured answers needed before the learnt margin replaces the cold-start one.
const WARM_SAMPLES: usize = 4;

/// How late our answers have landed on this machine. On a loaded machine the search thread may
/// wait for a core just when it should stop, so the answer comes after the hard limit; the
/// margin kept back from the next limits is the worst of the recent cases, so an engine that
/// shares its cores backs off by itself (YaneuraOu leaves this to the user's `NetworkDelay`).
#[derive(Clone, Debug, Default)]
pub struct Lateness {
    recent: std::collections::VecDeque<u64>,
}

impl Lateness {
    /// Records that an answer due at its hard limit was written `late_ms` after it.
    pub fn record(&mut self, late_ms: u64) {
        if self.recent.len() == LATENESS_WINDOW {
            self.recent.pop_front();
        }
        self.recent.push_back(late_ms);
    }

    /// The margin for the next search, in milliseconds.
    pub fn margin_ms(&self) -> u64 {
        let worst = self.recent.iter().copied().max().unwrap_or(0);
        // A few milliseconds on top: the lateness we cannot see (the GUI's side of the pipe).
        let learnt = MIN_SAFETY_MARGIN_MS.max(worst + 5);
        if self.recent.len() < WARM_SAMPLES {
            learnt.max(COLD_START_MARGIN_MS)
        } else {
            learnt
        }
    }
}

/// When the main time left is below this many byoyomi periods, spend it all on this move.
const FINAL_PUSH_PERIODS: f64 = 1.2;

/// Moves still to play that the remaining main time is spread over.
fn moves_to_go(game_ply: u32, told: Option<u32>) -> u64 {
    // Games last roughly 120-160 plies; keep a reserve even late in the game.
    let remaining_own_moves = 80u64.saturating_sub(game_ply as u64 / 2).max(20);
    match told {
        Some(n) if n > 0 => remaining_own_moves.min(n as u64),
        _ => remaining_own_moves,
    }
}

/// The part of the network delay taken from a per-move time: never more than half of it, so a
/// GUI that gives 100 ms per move with a 120 ms delay setting still gets a searched move.
fn delay_within(per_move: u64, network_delay: u64) -> u64 {
    network_delay.min(per_move / 2)
}

fn ms(t: u64) -> Duration {
    Duration::from_millis(t)
}

/// Computes the budget of the side `side` to move, keeping `margin` ms back from every hard
/// limit for our own latency (see `Lateness`), or `None` when nothing limits the time.
pub fn budget(
    tc: &TimeControl,
    side: Color,
    opts: &TimeOptions,
    game_ply: u32,
    margin: u64,
) -> Option<TimeBudget> {
    let b = match *tc {
        TimeControl::Unbounded => return None,
        TimeControl::MoveTime(t) => {
            let t = t.min(MAX_CLOCK_MS);
            let usable = t.saturating_sub(delay_within(t, opts.network_delay + margin)).max(1);
            TimeBudget { minimum: ms(usable), optimum: ms(usable), maximum: ms(usable) }
        }
        TimeControl::Clock(c) => clock_budget(&c, side, opts, game_ply, margin),
    };
    // MinimumThinkingTime raises the floor, within what the clock allows.
    let minimum = b.minimum.max(ms(opts.minimum_thinking).min(b.maximum));
    Some(TimeBudget { minimum, optimum: b.optimum.max(minimum), maximum: b.maximum })
}

fn clock_budget(c: &Clock, side: Color, opts: &TimeOptions, game_ply: u32, margin: u64) -> TimeBudget {
    // Clock values come straight from the GUI: bound them so the sums below cannot overflow.
    let left = c.time_left[side.index()].min(MAX_CLOCK_MS);
    let inc = c.increment[side.index()].min(MAX_CLOCK_MS);
    let byoyomi = c.byoyomi.min(MAX_CLOCK_MS);
    // Main time we can still spend without touching the last reserve.
    let reserve = (left / 20).min(2_000);
    let spendable = left.saturating_sub(reserve);
    let mtg = moves_to_go(game_ply, c.moves_to_go);
    if byoyomi > 0 {
        // Byoyomi is free time for every move: always use all of it. Main time on top of it is
        // spread over the game, and spent whole when little is left.
        let per_move = byoyomi.saturating_sub(delay_within(byoyomi, opts.network_delay + margin)).max(1);
        if (left as f64) < byoyomi as f64 * FINAL_PUSH_PERIODS {
            let all = ms(left + per_move);
            return TimeBudget { minimum: all, optimum: all, maximum: all };
        }
        let optimum = spendable / mtg + inc * 3 / 4 + per_move;
        let maximum = (spendable / 5 + inc).min(spendable) + per_move;
        return TimeBudget { minimum: ms(per_move), optimum: ms(optimum.min(maximum)), maximum: ms(maximum) };
    }
    // Sudden death or Fischer: the whole remaining time, less a margin, is the hard limit.
    let optimum = spendable / mtg + inc * 3 / 4;
    let hard = left.saturating_sub(opts.network_delay + margin + left / 30 + 35);
    let maximum = (spendable / 5 + inc).min(spendable + inc).min(hard).max(1);
    TimeBudget { minimum: Duration::ZERO, optimum: ms(optimum.min(maximum)), maximum: ms(maximum) }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTS: TimeOptions = TimeOptions { network_delay: 120, minimum_thinking: 0 };
    const NO_DELAY: TimeOptions = TimeOptions { network_delay: 0, minimum_thinking: 0 };
    /// The margin kept for our own latency.
    const M: u64 = MIN_SAFETY_MARGIN_MS;

    fn clock(left: u64, inc: u64, byoyomi: u64) -> TimeControl {
        TimeControl::Clock(Clock { time_left: [left; 2], increment: [inc; 2], byoyomi, moves_to_go: None })
    }

    #[test]
    fn byoyomi_only_spends_the_whole_period_less_the_delay() {
        let b = budget(&clock(0, 0, 10_000), Color::Black, &OPTS, 40, M).unwrap();
        let expected = ms(10_000 - 120 - M);
        assert_eq!((b.minimum, b.optimum, b.maximum), (expected, expected, expected));
        let b = budget(&clock(0, 0, 300), Color::White, &NO_DELAY, 40, M).unwrap();
        assert_eq!(b.minimum, ms(300 - M));
    }

    #[test]
    fn main_time_with_byoyomi_never_stops_before_the_byoyomi() {
        let b = budget(&clock(60_000, 0, 1_000), Color::Black, &OPTS, 40, M).unwrap();
        assert_eq!(b.minimum, ms(1_000 - 120 - M));
        assert!(b.optimum > b.minimum && b.maximum > b.optimum);
        assert!(b.maximum <= ms(60_000 + 1_000));
    }

    #[test]
    fn little_main_time_left_is_spent_with_the_byoyomi() {
        let b = budget(&clock(1_100, 0, 1_000), Color::Black, &NO_DELAY, 40, M).unwrap();
        assert_eq!(b.maximum, ms(1_100 + 1_000 - M));
        assert_eq!(b.minimum, b.maximum);
    }

    #[test]
    fn sudden_death_never_exceeds_the_clock() {
        for left in [0u64, 50, 500, 5_000, 60_000, 600_000] {
            for ply in [1, 50, 150, 300] {
                let b = budget(&clock(left, 0, 0), Color::Black, &OPTS, ply, M).unwrap();
                assert!(b.maximum.as_millis() as u64 <= left.saturating_sub(OPTS.network_delay).max(1));
                assert!(b.minimum <= b.optimum && b.optimum <= b.maximum);
            }
        }
    }

    #[test]
    fn fischer_uses_the_increment_and_the_side_to_move_clock() {
        let tc = TimeControl::Clock(Clock {
            time_left: [10_000, 0],
            increment: [1_000, 0],
            byoyomi: 0,
            moves_to_go: None,
        });
        let b = budget(&tc, Color::Black, &OPTS, 30, M).unwrap();
        assert!(b.optimum >= ms(750));
        assert!(b.maximum.as_millis() < 10_000);
        // White's clock is empty: it still moves, at once.
        let w = budget(&tc, Color::White, &OPTS, 30, M).unwrap();
        assert_eq!(w.maximum, ms(1));
    }

    #[test]
    fn moves_to_go_spreads_the_time_over_fewer_moves() {
        let mut c = Clock { time_left: [60_000; 2], ..Clock::default() };
        let spread = budget(&TimeControl::Clock(c), Color::Black, &OPTS, 10, M).unwrap();
        c.moves_to_go = Some(5);
        let few = budget(&TimeControl::Clock(c), Color::Black, &OPTS, 10, M).unwrap();
        assert!(few.optimum > spread.optimum);
    }

    #[test]
    fn a_short_byoyomi_is_not_eaten_by_the_delay() {
        let b = budget(&clock(0, 0, 100), Color::Black, &OPTS, 40, M).unwrap();
        assert_eq!(b.maximum, ms(50));
    }

    #[test]
    fn absurd_clock_values_do_not_overflow() {
        let b = budget(&clock(u64::MAX, u64::MAX, u64::MAX), Color::Black, &OPTS, 1, M).unwrap();
        assert!(b.optimum <= b.maximum);
        let b = budget(&TimeControl::MoveTime(u64::MAX), Color::Black, &OPTS, 1, M).unwrap();
        assert!(b.optimum <= b.maximum);
    }

    #[test]
    fn minimum_thinking_time_raises_the_floor_within_the_clock() {
        let opts = TimeOptions { network_delay: 0, minimum_thinking: 5_000 };
        let b = budget(&clock(600_000, 0, 0), Color::Black, &opts, 30, M).unwrap();
        assert_eq!(b.minimum, ms(5_000));
        let b = budget(&clock(1_000, 0, 0), Color::Black, &opts, 30, M).unwrap();
        assert!(b.minimum <= b.maximum && b.maximum < ms(1_000));
    }

    #[test]
    fn movetime_and_unbounded() {
        let b = budget(&TimeControl::MoveTime(1_000), Color::Black, &OPTS, 1, M).unwrap();
        assert_eq!(b.maximum, ms(1_000 - 120 - M));
        assert!(budget(&TimeControl::Unbounded, Color::Black, &OPTS, 1, M).is_none());
    }

    #[test]
    fn the_margin_is_the_worst_recent_lateness_and_forgets_old_cases() {
        let mut l = Lateness::default();
        assert_eq!(l.margin_ms(), COLD_START_MARGIN_MS);
        for _ in 0..WARM_SAMPLES {
            l.record(2);
        }
        assert_eq!(l.margin_ms(), MIN_SAFETY_MARGIN_MS);
        l.record(40);
        assert_eq!(l.margin_ms(), 45);
        for _ in 0..LATENESS_WINDOW {
            l.record(1);
        }
        assert_eq!(l.margin_ms(), MIN_SAFETY_MARGIN_MS);
        // The learnt margin never takes more than half of a byoyomi, with NetworkDelay.
        l.record(500);
        let b = budget(&clock(0, 0, 300), Color::Black, &NO_DELAY, 40, l.margin_ms()).unwrap();
        assert_eq!(b.maximum, ms(150));
    }
}
