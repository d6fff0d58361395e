//! Time management: how long to think on this move, from the time control the GUI sends, and
//! the `TimeManager` that every decision about time in a running search goes through.
//!
//! Three limits come out of the time control (`budget`): a minimum (time that is lost if not
//! used, such as byoyomi), before which the search never stops between iterations; an optimum,
//! checked between iterations and stretched or shrunk by how stable the best move is; and a
//! maximum, checked inside the search, that is never exceeded. `Lateness` learns how late our
//! answers land, and the margin the next budgets keep back.

use super::params::{
    BEST_CHANGE_DECAY, ONE_MOVE_DEPTH, ROOT_MATE_ANALYSIS, ROOT_MATE_MAX, ROOT_MATE_MIN,
    ROOT_MATE_OPTIMUM_DIVISOR, STABLE_ITERATIONS, TIME_FALLING_MAX, TIME_FALLING_MIN,
    TIME_FALLING_SCORE_SCALE, TIME_MAX_INSTABILITY, TIME_OPTIMUM_SHARE, TIME_OPTIMUM_SHARE_FISCHER,
    TIME_STABLE_FACTOR,
};
use super::value::{is_mate_score, Value, MATE};
use super::Limits;
use crate::shogi::Position;
use crate::types::{Color, Move};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeBudget {
    /// Never stop between iterations before this: byoyomi not used is lost.
    pub minimum: Duration,
    /// Stop between iterations around here (scaled by the stability of the best move).
    pub optimum: Duration,
    /// Never think longer than this.
    pub maximum: Duration,
    /// The share of the scaled optimum after which a finished iteration ends the search.
    pub stop_share: f64,
}

impl TimeBudget {
    /// A budget of these limits that stops past the usual share of the optimum
    /// (`TIME_OPTIMUM_SHARE`); only the Fischer clock changes the share.
    fn new(minimum: Duration, optimum: Duration, maximum: Duration) -> TimeBudget {
        TimeBudget { minimum, optimum, maximum, stop_share: TIME_OPTIMUM_SHARE }
    }
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
    /// How late (ms) each of the last `LATENESS_WINDOW` answers at a hard limit landed, oldest first.
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

/// `t` milliseconds as a `Duration`.
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
            TimeBudget::new(ms(usable), ms(usable), ms(usable))
        }
        TimeControl::Clock(c) => clock_budget(&c, side, opts, game_ply, margin),
    };
    // MinimumThinkingTime raises the floor, within what the clock allows.
    let minimum = b.minimum.max(ms(opts.minimum_thinking).min(b.maximum));
    Some(TimeBudget { minimum, optimum: b.optimum.max(minimum), ..b })
}

/// The budget under a main-time clock (`budget`'s `TimeControl::Clock` case): with byoyomi, all of
/// it every move plus a share of the main time; without, a share of the main time and increment
/// within a hard limit that keeps a margin back.
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
            return TimeBudget::new(all, all, all);
        }
        let optimum = spendable / mtg + inc * 3 / 4 + per_move;
        let maximum = (spendable / 5 + inc).min(spendable) + per_move;
        return TimeBudget::new(ms(per_move), ms(optimum.min(maximum)), ms(maximum));
    }
    // Sudden death or Fischer: the whole remaining time, less a margin, is the hard limit.
    let optimum = spendable / mtg + inc * 3 / 4;
    let hard = left.saturating_sub(opts.network_delay + margin + left / 30 + 35);
    let maximum = (spendable / 5 + inc).min(spendable + inc).min(hard).max(1);
    // With an increment, time not spent is carried to the game's end and often never used: the
    // search runs to the whole optimum, as YaneuraOu's does under this clock.
    let stop_share = if inc > 0 { TIME_OPTIMUM_SHARE_FISCHER } else { TIME_OPTIMUM_SHARE };
    TimeBudget { stop_share, ..TimeBudget::new(Duration::ZERO, ms(optimum.min(maximum)), ms(maximum)) }
}

/// What a budget depends on besides the time control: the side to move, the game ply, the
/// options, and the margin kept back for our own latency (see `Lateness`).
#[derive(Clone, Copy, Debug)]
struct TimeContext {
    /// The side to move, whose clock counts.
    side: Color,
    /// The game ply, which sets how many moves the main time is spread over (`moves_to_go`).
    game_ply: u32,
    /// The network delay and minimum thinking time from the USI options.
    options: TimeOptions,
    /// Milliseconds kept back from every hard limit for our own latency.
    margin_ms: u64,
}

impl TimeContext {
    /// The budget under `tc` in this context.
    fn budget(&self, tc: &TimeControl) -> Option<TimeBudget> {
        budget(tc, self.side, &self.options, self.game_ply, self.margin_ms)
    }
}

/// The one place a running search decides about time. The search threads share it (in
/// `Shared`), and the `Searcher` that started the search tells it of `ponderhit` and `stop`:
///
/// - inside the search, every 1,024 nodes, the main thread asks whether the hard time limit or
///   the node limit is reached (`hard_stop_due`);
/// - between iterations, whether to stop early (`should_stop_after_iteration`): the optimum
///   scaled by how settled the best move is, a single legal move, a proven mate;
/// - before the iterations, how long the root mate search may run (`root_mate_time`);
/// - whether a finished search must hold its answer back (`answer_waits`: `go infinite`, or a
///   ponder not yet hit);
/// - after the search, the hard limit it stopped at, if any (`deadline_reached_ms`): the
///   `Searcher` learns its lateness from it.
///
/// It also keeps the search's one ponder state: set by `go ponder`, ended by `ponderhit`
/// (which starts our clock, with a new time control if one comes) or `stop`.
pub(crate) struct TimeManager {
    /// When the `go` arrived: reported times count from here.
    epoch: Instant,
    /// What a time control sent with `ponderhit` is turned into a budget with.
    context: TimeContext,
    /// `go infinite`: no time limit, and the answer waits for `stop`.
    infinite: bool,
    /// A depth or node limit was given: such searches must stay reproducible, so nothing that
    /// depends on the clock (the root mate search, stopping at a proven mate) shortens them.
    fixed_depth_or_nodes: bool,
    /// Nodes to search at most, all threads together.
    node_limit: Option<u64>,
    /// True while a `go ponder` waits for `ponderhit`: no time limit applies.
    pondering: AtomicBool,
    /// Milliseconds after `epoch` at which our clock started: 0, or the `ponderhit`.
    clock_start_ms: AtomicU64,
    /// The time budget, counted from `clock_start_ms` (`None`: no time limit); `ponderhit` with
    /// a time control replaces it.
    budget: Mutex<Option<TimeBudget>>,
    /// Set when the search stopped because its hard time limit was reached.
    stopped_by_clock: AtomicBool,
}

impl TimeManager {
    /// The time manager of a search of `pos` under `limits`, with `options` and `margin_ms` kept
    /// back for our latency (`Lateness::margin_ms`); time counts from `epoch`, when the `go`
    /// arrived.
    pub(crate) fn new(
        limits: &Limits,
        pos: &Position,
        options: TimeOptions,
        margin_ms: u64,
        epoch: Instant,
    ) -> TimeManager {
        let context = TimeContext { side: pos.side_to_move(), game_ply: pos.game_ply(), options, margin_ms };
        TimeManager::with_context(limits, context, epoch)
    }

    /// No limit at all: for a search to a fixed depth on the calling thread, which never asks.
    pub(crate) fn unlimited(epoch: Instant) -> TimeManager {
        let options = TimeOptions { network_delay: 0, minimum_thinking: 0 };
        let context = TimeContext { side: Color::Black, game_ply: 1, options, margin_ms: 0 };
        TimeManager::with_context(&Limits::default(), context, epoch)
    }

    /// The time manager under `limits` in `context`; `go infinite` has no budget.
    fn with_context(limits: &Limits, context: TimeContext, epoch: Instant) -> TimeManager {
        let budget = if limits.infinite { None } else { context.budget(&limits.time) };
        TimeManager {
            epoch,
            context,
            infinite: limits.infinite,
            fixed_depth_or_nodes: limits.depth.is_some() || limits.nodes.is_some(),
            node_limit: limits.nodes,
            pondering: AtomicBool::new(limits.ponder),
            clock_start_ms: AtomicU64::new(0),
            budget: Mutex::new(budget),
            stopped_by_clock: AtomicBool::new(false),
        }
    }

    /// Time since `go`, as reported in `info time`.
    pub(crate) fn elapsed_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Time on our own clock: since `go`, or since `ponderhit` after pondering.
    fn clock_elapsed_ms(&self) -> u64 {
        self.elapsed_ms().saturating_sub(self.clock_start_ms.load(Ordering::Relaxed))
    }

    /// The time budget of this move (`None`: no time limit).
    fn budget(&self) -> Option<TimeBudget> {
        *self.budget.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the search is a `go ponder` still waiting for `ponderhit` (or `stop`).
    pub(crate) fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// The main thread's question inside the search: whether it must stop now, the node limit
    /// (all threads' nodes, counted by `total_nodes` only when there is a limit) or the hard time
    /// limit being reached. A stop at the hard limit is noted for `deadline_reached_ms`.
    pub(crate) fn hard_stop_due(&self, total_nodes: impl FnOnce() -> u64) -> bool {
        let on_clock = self.clock_elapsed_ms();
        let mut due = self.node_limit.is_some_and(|limit| total_nodes() >= limit);
        if let Some(b) = self.budget() {
            if !self.is_pondering() && on_clock >= b.maximum.as_millis() as u64 {
                self.stopped_by_clock.store(true, Ordering::Relaxed);
                due = true;
            }
        }
        due
    }

    /// The main thread's question after each completed iteration: whether to stop here, with
    /// iteration `depth` done, `best_move` and `best_score` its best line's, among `root_moves`
    /// moves. `trend` learns this iteration first. Stops early when the best move is stable,
    /// later when it keeps changing or the score falls; at once with a single legal move (after a
    /// few plies, for a score to show) or a proven mate that searching deeper will not shorten.
    /// Never under `go infinite` nor while pondering.
    pub(crate) fn should_stop_after_iteration(
        &self,
        depth: i32,
        best_move: Move,
        best_score: Value,
        root_moves: usize,
        trend: &mut BestMoveTrend,
    ) -> bool {
        let factor = trend.record(best_move, best_score);
        let free_to_stop = !self.infinite && !self.is_pondering();
        // Read each time: a `ponderhit` may have brought a new clock.
        let budget = self.budget();
        if let (Some(b), true) = (budget, free_to_stop) {
            let elapsed = self.clock_elapsed_ms() as f64;
            let minimum = b.minimum.as_millis() as f64;
            if elapsed >= minimum && elapsed >= b.optimum.as_millis() as f64 * factor * b.stop_share {
                return true;
            }
        }
        // With one legal move there is nothing to decide; a few plies give a score to show.
        if budget.is_some() && free_to_stop && root_moves == 1 && depth >= ONE_MOVE_DEPTH {
            return true;
        }
        // A proven mate will not get shorter by searching deeper.
        free_to_stop
            && !self.fixed_depth_or_nodes
            && is_mate_score(best_score)
            && depth > 2 * (MATE - best_score.abs()) + 4
    }

    /// Time for the root mate search: an eighth of the optimum, at most half a second; none for
    /// fixed-depth or fixed-node searches (they must stay reproducible) or when time is short.
    pub(crate) fn root_mate_time(&self) -> Option<Duration> {
        if self.fixed_depth_or_nodes {
            return None;
        }
        let t = match self.budget() {
            Some(b) => (b.optimum / ROOT_MATE_OPTIMUM_DIVISOR).min(ROOT_MATE_MAX),
            // Analysis: a fixed slice before the main search starts.
            None => ROOT_MATE_ANALYSIS,
        };
        (t >= ROOT_MATE_MIN).then_some(t)
    }

    /// Whether a search that has finished thinking must hold its answer back until `stop` (or
    /// `ponderhit`): under `go infinite`, or while pondering.
    pub(crate) fn answer_waits(&self) -> bool {
        self.infinite || self.is_pondering()
    }

    /// The ponder move was played: our clock starts now, on the budget of `time` when the GUI
    /// sends a time control with `ponderhit`, else on the one given with `go ponder`.
    pub(crate) fn ponderhit(&self, time: Option<TimeControl>) {
        if let Some(tc) = time {
            *self.budget.lock().unwrap_or_else(|e| e.into_inner()) = self.context.budget(&tc);
        }
        self.clock_start_ms.store(self.elapsed_ms(), Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// `stop`: a ponder ends too (the search then answers as for `stop`).
    pub(crate) fn end_pondering(&self) {
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// The hard limit, in ms after the `go`, if the search stopped there.
    pub(crate) fn deadline_reached_ms(&self) -> Option<u64> {
        if !self.stopped_by_clock.load(Ordering::Relaxed) {
            return None;
        }
        let maximum = self.budget()?.maximum.as_millis() as u64;
        Some(self.clock_start_ms.load(Ordering::Relaxed) + maximum)
    }
}

/// What the main thread has seen of the best move over the iterations, which scales the optimum
/// it stops at: how often the best move changed lately, how long it has held, and whether the
/// best score is falling.
pub(crate) struct BestMoveTrend {
    /// The best move of the last iteration recorded (`Move::NONE` before the first).
    last_best: Move,
    /// Changes of the best move, the count decaying by `BEST_CHANGE_DECAY` each iteration.
    best_changes: f64,
    /// Iterations the best move has held.
    stable_iterations: u32,
    /// A running average of the earlier iterations' best scores (mates left out), to see the
    /// score fall.
    previous_best_score: Option<Value>,
}

impl Default for BestMoveTrend {
    fn default() -> Self {
        BestMoveTrend {
            last_best: Move::NONE,
            best_changes: 0.0,
            stable_iterations: 0,
            previous_best_score: None,
        }
    }
}

impl BestMoveTrend {
    /// Learns an iteration's best move and score; returns the factor the optimum is scaled by:
    /// larger with recent changes of the best move and with a falling score, smaller once the
    /// best move has held a while.
    fn record(&mut self, best: Move, score: Value) -> f64 {
        self.best_changes *= BEST_CHANGE_DECAY;
        if best != self.last_best {
            self.best_changes += 1.0;
            self.stable_iterations = 0;
        } else {
            self.stable_iterations += 1;
        }
        self.last_best = best;
        let falling = falling_score_factor(self.previous_best_score, score);
        if !is_mate_score(score) {
            self.previous_best_score = Some(self.previous_best_score.map_or(score, |p| (p + score) / 2));
        }
        let stability = if self.stable_iterations >= STABLE_ITERATIONS { TIME_STABLE_FACTOR } else { 1.0 };
        (1.0 + self.best_changes).min(TIME_MAX_INSTABILITY) * stability * falling
    }
}

/// More time when the best score falls from one iteration to the next (trouble coming that a
/// deeper search may still avoid), less when it rises; `previous` is a running average of the
/// earlier iterations' best scores.
fn falling_score_factor(previous: Option<Value>, score: Value) -> f64 {
    match previous {
        Some(p) if !is_mate_score(score) => {
            (1.0 + (p - score) as f64 / TIME_FALLING_SCORE_SCALE).clamp(TIME_FALLING_MIN, TIME_FALLING_MAX)
        }
        _ => 1.0,
    }
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
    fn only_a_fischer_clock_runs_to_the_whole_optimum() {
        let share = |tc: TimeControl| budget(&tc, Color::Black, &OPTS, 30, M).unwrap().stop_share;
        assert_eq!(share(clock(10_000, 100, 0)), TIME_OPTIMUM_SHARE_FISCHER);
        assert_eq!(share(clock(10_000, 0, 0)), TIME_OPTIMUM_SHARE);
        assert_eq!(share(clock(10_000, 0, 300)), TIME_OPTIMUM_SHARE);
        assert_eq!(share(clock(0, 0, 300)), TIME_OPTIMUM_SHARE);
        assert_eq!(share(TimeControl::MoveTime(500)), TIME_OPTIMUM_SHARE);
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

    fn manager(limits: &Limits) -> TimeManager {
        let pos = Position::from_sfen(crate::shogi::STARTPOS).unwrap();
        TimeManager::new(limits, &pos, OPTS, M, Instant::now())
    }

    #[test]
    fn a_ponder_has_no_time_limit_until_ponderhit() {
        let limits = Limits { time: TimeControl::MoveTime(1), ponder: true, ..Limits::default() };
        let tm = manager(&limits);
        std::thread::sleep(ms(5));
        assert!(tm.is_pondering() && tm.answer_waits());
        assert!(!tm.hard_stop_due(|| 0), "no hard limit while pondering");
        tm.ponderhit(None);
        assert!(!tm.is_pondering() && !tm.answer_waits());
        std::thread::sleep(ms(5));
        assert!(tm.hard_stop_due(|| 0));
        let deadline = tm.deadline_reached_ms().unwrap();
        assert!(deadline >= 5 && deadline <= tm.elapsed_ms(), "counted from the ponderhit");
    }

    #[test]
    fn the_node_limit_stops_without_a_deadline() {
        let tm = manager(&Limits { nodes: Some(100), ..Limits::default() });
        assert!(!tm.hard_stop_due(|| 99));
        assert!(tm.hard_stop_due(|| 100));
        assert_eq!(tm.deadline_reached_ms(), None);
        assert_eq!(tm.root_mate_time(), None, "a node-limited search stays reproducible");
    }

    #[test]
    fn infinite_analysis_never_stops_by_itself() {
        let tm = manager(&Limits { time: TimeControl::MoveTime(1), infinite: true, ..Limits::default() });
        std::thread::sleep(ms(5));
        assert!(!tm.hard_stop_due(|| 0) && tm.answer_waits());
        let mut trend = BestMoveTrend::default();
        assert!(!tm.should_stop_after_iteration(60, Move::NONE, MATE - 1, 1, &mut trend));
        assert_eq!(tm.root_mate_time(), Some(ROOT_MATE_ANALYSIS));
    }

    #[test]
    fn a_falling_score_buys_time_and_a_rising_one_saves_it() {
        use crate::search::value::mated_in;
        assert_eq!(falling_score_factor(None, 50), 1.0);
        assert!(falling_score_factor(Some(100), -50) > 1.5 - 1e-9);
        assert!(falling_score_factor(Some(100), 60) > 1.0);
        assert!(falling_score_factor(Some(0), 100) < 1.0);
        assert!(falling_score_factor(Some(0), 10_000) >= TIME_FALLING_MIN);
        assert_eq!(falling_score_factor(Some(0), mated_in(5)), 1.0, "a mate is not a falling score");
    }
}
