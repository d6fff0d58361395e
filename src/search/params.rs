//! Every tunable number of the search, named, in one place.

use super::value::Value;

/// Aspiration window: first half-width, and how it grows after a fail.
pub const ASPIRATION_DELTA: Value = 24;
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Null-move pruning: allowed from this depth; reduction = base + depth / divisor.
pub const NULL_MIN_DEPTH: i32 = 3;
pub const NULL_REDUCTION_BASE: i32 = 3;
pub const NULL_REDUCTION_DIVISOR: i32 = 4;

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

/// Late-move pruning: at depth d, quiet moves after this many are skipped.
pub const LMP_MAX_DEPTH: i32 = 6;
pub const fn lmp_limit(depth: i32, improving: bool) -> usize {
    let base = 4 + depth * depth;
    (if improving { base + base / 2 } else { base }) as usize
}

/// SEE pruning thresholds at shallow depth (per depth unit).
pub const SEE_QUIET_MARGIN: i32 = -60;
pub const SEE_CAPTURE_MARGIN: i32 = -140;

/// Late-move reductions: reduction = LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR.
pub const LMR_BASE: f64 = 0.5;
pub const LMR_DIVISOR: f64 = 2.2;
pub const LMR_MIN_DEPTH: i32 = 3;

/// History: bonus cap and the gravity limit that keeps scores bounded.
pub const HISTORY_MAX: i32 = 16_384;
pub const HISTORY_BONUS_CAP: i32 = 1_600;

/// Quiescence: captures losing more than this by SEE are skipped.
pub const QS_SEE_MARGIN: i32 = 0;
/// How many plies of quiescence may answer checks before only captures remain.
pub const QS_CHECK_PLIES: i32 = 6;
