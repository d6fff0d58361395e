//! Every tunable number of the search, named, in one place.

use super::value::Value;
use std::time::Duration;

/// Aspiration window: first half-width, and how it grows after a fail.
pub const ASPIRATION_DELTA: Value = 24;
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Null-move pruning: allowed from this depth; reduction = base + depth / divisor.
pub const NULL_MIN_DEPTH: i32 = 3;
pub const NULL_REDUCTION_BASE: i32 = 3;
pub const NULL_REDUCTION_DIVISOR: i32 = 4;
/// The further the evaluation is above beta, the more the null move is reduced: one ply per
/// this much, at most `NULL_EVAL_MAX` plies.
pub const NULL_EVAL_DIVISOR: Value = 200;
pub const NULL_EVAL_MAX: i32 = 3;

/// Reverse futility (static null move): eval - margin * depth >= beta at shallow depth.
pub const RFP_MAX_DEPTH: i32 = 7;
pub const RFP_MARGIN: Value = 110;

/// Razoring: hopeless shallow nodes drop straight into quiescence.
pub const RAZOR_MAX_DEPTH: i32 = 2;
pub const RAZOR_MARGIN: Value = 400;

/// Futility pruning of quiet moves: eval + base + per-depth margin cannot reach alpha.
pub const FUTILITY_MAX_DEPTH: i32 = 7;
pub const FUTILITY_BASE: Value = 120;
pub const FUTILITY_PER_DEPTH: Value = 110;

/// Late-move pruning: at depth d, once this many moves (of any kind, pruned ones included) have
/// been picked, the remaining quiet moves are skipped; half as many when not improving.
pub const LMP_MAX_DEPTH: i32 = 8;
pub const fn lmp_limit(depth: i32, improving: bool) -> usize {
    let base = 3 + depth * depth;
    (if improving { base } else { base / 2 }) as usize
}

/// SEE pruning thresholds at shallow depth (per depth unit), and the deepest depth it applies to.
pub const SEE_QUIET_MARGIN: i32 = -60;
pub const SEE_CAPTURE_MARGIN: i32 = -140;
pub const SEE_PRUNE_MAX_DEPTH: i32 = 6;

/// Singular extension: from this depth, with a table entry at most `SINGULAR_TT_DEPTH_MARGIN`
/// plies shallower, the other moves are searched to half depth against the table value less
/// this margin per ply.
pub const SINGULAR_MIN_DEPTH: i32 = 6;
pub const SINGULAR_TT_DEPTH_MARGIN: i32 = 3;
pub const SINGULAR_MARGIN_PER_DEPTH: Value = 2;

/// Late-move reductions: reduction = LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR.
pub const LMR_BASE: f64 = 0.5;
pub const LMR_DIVISOR: f64 = 2.2;
pub const LMR_MIN_DEPTH: i32 = 3;
/// A quiet move's history score (butterfly plus both continuations, together within three times
/// `HISTORY_MAX`) divided by this is taken off its reduction: at most three plies either way.
pub const LMR_HISTORY_DIVISOR: i32 = 16_384;

/// History: bonus cap and the gravity limit that keeps scores bounded.
pub const HISTORY_MAX: i32 = 16_384;
pub const HISTORY_BONUS_CAP: i32 = 4_000;
pub const HISTORY_BONUS_PER_DEPTH: i32 = 700;
pub const HISTORY_BONUS_OFFSET: i32 = 500;
/// A cutoff's history bonus (and the others' malus) at `depth`: linear in depth up to the cap,
/// so that deep cutoffs say more while a shallow one still moves a score by about a percent of
/// its range (a bonus of 16 x depth squared, learnt too slowly: this is +27 Elo at 12,000 nodes).
pub const fn history_bonus(depth: i32) -> i32 {
    let b = HISTORY_BONUS_PER_DEPTH * depth - HISTORY_BONUS_OFFSET;
    if b > HISTORY_BONUS_CAP {
        HISTORY_BONUS_CAP
    } else {
        b
    }
}

/// Correction history (`correction.rs`): entries per side to move in each of its three tables;
/// an entry's units per centipawn of correction and its bound (so at most `LIMIT / GRAIN`
/// centipawns a table, three times that in all); a search's
/// bonus is its difference from the static evaluation times depth over the divisor, at most a
/// quarter of the bound.
pub const CORRECTION_SIZE: usize = 16_384;
pub const CORRECTION_GRAIN: i32 = 16;
pub const CORRECTION_LIMIT: i32 = 1_024;
pub const CORRECTION_BONUS_DIVISOR: i32 = 8;

/// Capture ordering: victim value times this weight dominates, so the most valuable victim
/// comes first; promotions add a bonus; the attacker's value, divided down, breaks ties
/// towards the cheaper attacker.
pub const CAPTURE_VICTIM_WEIGHT: i32 = 8;
pub const CAPTURE_PROMOTION_BONUS: i32 = 300;
pub const CAPTURE_ATTACKER_DIVISOR: i32 = 64;

/// Quiescence: captures losing more than this by SEE are skipped.
pub const QS_SEE_MARGIN: i32 = 0;
/// Quiescence futility: a capture is skipped when the static evaluation plus this margin plus the
/// victim's exchange value cannot reach alpha (promotions and checks are always tried).
pub const QS_FUTILITY_MARGIN: Value = 150;
/// How many plies of quiescence may answer checks before only captures remain.
pub const QS_CHECK_PLIES: i32 = 6;

/// Time between iterations: the iteration stops once the clock passes `TIME_OPTIMUM_SHARE` of
/// the optimum times a factor that grows with recent best-move changes (each iteration halves
/// the count by `BEST_CHANGE_DECAY`; the factor is capped at `TIME_MAX_INSTABILITY`) and shrinks
/// to `TIME_STABLE_FACTOR` once the best move has held for `STABLE_ITERATIONS` iterations.
pub const BEST_CHANGE_DECAY: f64 = 0.5;
pub const STABLE_ITERATIONS: u32 = 4;
pub const TIME_STABLE_FACTOR: f64 = 0.7;
pub const TIME_MAX_INSTABILITY: f64 = 2.5;
pub const TIME_OPTIMUM_SHARE: f64 = 0.6;
/// A best score falling by this much below the running average of earlier iterations doubles the
/// time to think; the factor stays within `TIME_FALLING_MIN..=TIME_FALLING_MAX`.
pub const TIME_FALLING_SCORE_SCALE: f64 = 200.0;
pub const TIME_FALLING_MIN: f64 = 0.75;
pub const TIME_FALLING_MAX: f64 = 1.5;
/// With a single legal move, searching stops at this depth (enough for a score to show).
pub const ONE_MOVE_DEPTH: i32 = 4;

/// The root mate search of a timed `go` gets the optimum divided by this, at most
/// `ROOT_MATE_MAX`; analysis gets `ROOT_MATE_ANALYSIS`; below `ROOT_MATE_MIN` it is skipped
/// (too short to find anything the main search would not).
pub const ROOT_MATE_OPTIMUM_DIVISOR: u32 = 8;
pub const ROOT_MATE_MAX: Duration = Duration::from_millis(500);
pub const ROOT_MATE_ANALYSIS: Duration = Duration::from_millis(300);
/// (At 100 ms the root search would take an eighth of every move under a byoyomi below about a
/// second, where alpha-beta alone finds the mates that matter; the review of the search measured
/// 22 ms of a 300 ms byoyomi spent there before depth 1.)
pub const ROOT_MATE_MIN: Duration = Duration::from_millis(100);
