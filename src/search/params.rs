//! Every tunable number of the search, named, in one place.
//!
//! The numbers declared with `tunable!` are constants, except in a build with the `tune` feature
//! (`cargo build --release --features tune`): there each is a USI spin option of its own name
//! and range, so that a tuner (ShogiArena's SPSA) can set it between games. The search reads
//! them through `tuned!`, which is the constant itself in a normal build.
//!
//! The values are SPSA's (run 1, at the `tunable!` values of 0b5cab1): the recipe in `docs/training.md`,
//! `setup.py /tmp/spsa/run1 --engine target/tune/release/shomei --nodes 10000 --updates 2000`
//! with the material tune build (`--features tune,material`), 8,000 games, setup's defaults
//! otherwise (its seed included); then accepted by `shomei-arena` against the previous values,
//! 3,000 games at 10,000 nodes per move, random 8-ply openings: +15.2 +/- 12.3 Elo.

use std::time::Duration;

/// Declares a tunable parameter: `tunable!(NAME = default, min..=max);`.
#[cfg(not(feature = "tune"))]
macro_rules! tunable {
    ($name:ident = $default:literal, $min:literal..=$max:literal) => {
        pub const $name: i32 = $default;
    };
}

/// Declares a tunable parameter: `tunable!(NAME = default, min..=max);`.
#[cfg(feature = "tune")]
macro_rules! tunable {
    ($name:ident = $default:literal, $min:literal..=$max:literal) => {
        pub static $name: Tuned =
            Tuned::new(Tunable { name: stringify!($name), default: $default, min: $min, max: $max });
    };
}

/// The current value of a parameter declared with `tunable!`.
#[cfg(not(feature = "tune"))]
macro_rules! tuned {
    ($name:ident) => {
        $crate::search::params::$name
    };
}

/// The current value of a parameter declared with `tunable!`.
#[cfg(feature = "tune")]
macro_rules! tuned {
    ($name:ident) => {
        $crate::search::params::$name.get()
    };
}
pub(crate) use tuned;

/// A tunable parameter's name (its USI option's in a `tune` build), value here, and the range a
/// tuner may move it in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    /// The constant's name in this file, and the option's.
    pub name: &'static str,
    /// Its value in every build but a tuned one's.
    pub default: i32,
    /// The least value a tuner may set.
    pub min: i32,
    /// The greatest value a tuner may set.
    pub max: i32,
}

/// A tunable parameter's current value in a `tune` build.
#[cfg(feature = "tune")]
pub struct Tuned {
    /// The declaration: name, default and range.
    pub spec: Tunable,
    /// The value set last; atomic because the parameter is a `static` that `setoption` changes.
    value: std::sync::atomic::AtomicI32,
}

#[cfg(feature = "tune")]
impl Tuned {
    /// A parameter at its default value.
    const fn new(spec: Tunable) -> Tuned {
        Tuned { spec, value: std::sync::atomic::AtomicI32::new(spec.default) }
    }

    /// The value set last (the default until an option sets it).
    #[inline]
    pub fn get(&self) -> i32 {
        self.value.load(std::sync::atomic::Ordering::Relaxed)
    }
}

// Aspiration window: first half-width, and how it grows after a fail.
tunable!(ASPIRATION_DELTA = 26, 8..=80);
/// Aspiration windows start from this depth; shallower iterations search the full window.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Null-move pruning: allowed from this depth; reduction = base + depth / divisor.
pub const NULL_MIN_DEPTH: i32 = 3;
tunable!(NULL_REDUCTION_BASE = 3, 1..=6);
tunable!(NULL_REDUCTION_DIVISOR = 4, 2..=8);
// The further the evaluation is above beta, the more the null move is reduced: one ply per
// this much, at most `NULL_EVAL_MAX` plies.
tunable!(NULL_EVAL_DIVISOR = 195, 80..=400);
/// The most plies the evaluation's margin over beta adds to the null move's reduction.
pub const NULL_EVAL_MAX: i32 = 3;

// Reverse futility (static null move): eval - margin * depth >= beta at shallow depth.
tunable!(RFP_MAX_DEPTH = 7, 3..=12);
tunable!(RFP_MARGIN = 122, 40..=250);
/// Percent of the correction history's correction added to the reverse-futility margin: an
/// evaluation the history moves far is one to trust less (docs/strength.md, twenty-first screen).
pub const RFP_CORRECTION_PERCENT: i32 = 75;

/// Razoring: hopeless shallow nodes drop straight into quiescence.
pub const RAZOR_MAX_DEPTH: i32 = 2;
tunable!(RAZOR_MARGIN = 410, 150..=800);

/// Futility pruning of quiet moves: eval + base + per-depth margin cannot reach alpha.
pub const FUTILITY_MAX_DEPTH: i32 = 7;
tunable!(FUTILITY_BASE = 121, 30..=300);
tunable!(FUTILITY_PER_DEPTH = 110, 40..=250);

/// Late-move pruning: at depth d, once this many moves (of any kind, pruned ones included) have
/// been picked, the remaining quiet moves are skipped; half as many when not improving.
pub const LMP_MAX_DEPTH: i32 = 8;
/// How many moves may be picked at `depth` before the remaining quiet moves are skipped:
/// 3 + depth², halved when the position is not improving.
pub const fn lmp_limit(depth: i32, improving: bool) -> usize {
    let base = 3 + depth * depth;
    (if improving { base } else { base / 2 }) as usize
}

// Pruning by history: a late quiet move that gives no check is pruned when its ordering score
// (butterfly plus both continuation histories, within three times `HISTORY_MAX`) is below
// -HISTORY_PRUNE_PER_DEPTH x depth; and the depth at which futility and SEE prune it moves one ply
// for each `HISTORY_DEPTH_DIVISOR` of that score. Both as YaneuraOu does on its own scale. With
// capture futility below, against YaneuraOu at 50,000 nodes: +43 Elo with the same net, +66 at
// material (docs/strength.md, twenty-seventh screen).
tunable!(HISTORY_PRUNE_PER_DEPTH = 3_000, 1_000..=8_000);
tunable!(HISTORY_DEPTH_DIVISOR = 3_000, 1_000..=10_000);

// Futility for captures: a late capture that gives no check and does not promote is skipped when
// the static evaluation + base + per-depth margin (at its reduced depth) + the victim's exchange
// value + its capture history / `CAPTURE_FUTILITY_HISTORY_DIVISOR` cannot reach alpha.
tunable!(CAPTURE_FUTILITY_BASE = 218, 50..=500);
tunable!(CAPTURE_FUTILITY_PER_DEPTH = 223, 50..=500);
/// Captures are futility-pruned only below this reduced depth.
pub const CAPTURE_FUTILITY_MAX_DEPTH: i32 = 7;
/// The capture history is divided by this before it joins the capture's futility value.
pub const CAPTURE_FUTILITY_HISTORY_DIVISOR: i32 = 8;

// SEE pruning thresholds at shallow depth (per depth unit), and the deepest depth it applies to.
tunable!(SEE_QUIET_MARGIN = -60, -150..=-10);
tunable!(SEE_CAPTURE_MARGIN = -148, -300..=-40);
/// SEE pruning applies at this depth and below (for quiet moves, the depth after reduction).
pub const SEE_PRUNE_MAX_DEPTH: i32 = 6;

/// Singular extension: from this depth, with a table entry at most `SINGULAR_TT_DEPTH_MARGIN`
/// plies shallower, the other moves are searched to half depth against the table value less
/// this margin per ply.
pub const SINGULAR_MIN_DEPTH: i32 = 6;
/// How much shallower than the node the table entry of a singular candidate may be.
pub const SINGULAR_TT_DEPTH_MARGIN: i32 = 3;
tunable!(SINGULAR_MARGIN_PER_DEPTH = 2, 0..=8);

// Late-move reductions: reduction = LMR_BASE_CENTI / 100 + ln(depth) * ln(moves) /
// (LMR_DIVISOR_CENTI / 100), in hundredths so that they can be tuned as integers.
tunable!(LMR_BASE_CENTI = 46, 0..=150);
tunable!(LMR_DIVISOR_CENTI = 222, 140..=400);
/// Late-move reductions apply from this depth.
pub const LMR_MIN_DEPTH: i32 = 3;
// A quiet move's history score (butterfly plus both continuations, together within three times
// `HISTORY_MAX`) divided by this is taken off its reduction: at most three plies either way.
tunable!(LMR_HISTORY_DIVISOR = 17_126, 6000..=40000);
/// A capture's or promotion's capture-history score (within `HISTORY_MAX`) divided by this is taken
/// off its reduction: one ply less from half the cap up, one more from half the cap down.
pub const CAPTURE_LMR_HISTORY_DIVISOR: i32 = HISTORY_MAX / 2;

/// History: bonus cap and the gravity limit that keeps scores bounded.
pub const HISTORY_MAX: i32 = 16_384;
/// The most one update moves a history score by, either way.
pub const HISTORY_BONUS_CAP: i32 = 4_000;
/// The history bonus per ply of depth (`history_bonus`).
pub const HISTORY_BONUS_PER_DEPTH: i32 = 700;
/// Taken off the per-depth bonus, so that a depth-1 cutoff moves a score by only 200.
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

/// Correction history (`correction.rs`): entries per side to move in each of its four tables;
/// an entry's units per centipawn of correction and its bound (so at most `LIMIT / GRAIN`
/// centipawns a table, four times that in all); a search's
/// bonus is its difference from the static evaluation times depth over the divisor, at most a
/// quarter of the bound.
pub const CORRECTION_SIZE: usize = 16_384;
/// Units of an entry per centipawn of correction.
pub const CORRECTION_GRAIN: i32 = 16;
/// Bound on an entry, in its units (`CORRECTION_GRAIN` per centipawn).
pub const CORRECTION_LIMIT: i32 = 1_024;
/// A search's bonus is (searched - static) * depth / this, at most a quarter of the bound.
pub const CORRECTION_BONUS_DIVISOR: i32 = 8;

/// Capture ordering: victim value times this weight dominates, so the most valuable victim
/// comes first; promotions add a bonus; the attacker's value, divided down, breaks ties
/// towards the cheaper attacker.
pub const CAPTURE_VICTIM_WEIGHT: i32 = 8;
/// Bonus of a capture that promotes (or a non-capturing promotion) over its victim's value.
pub const CAPTURE_PROMOTION_BONUS: i32 = 300;
/// The attacker's exchange value is divided by this before it is taken off.
pub const CAPTURE_ATTACKER_DIVISOR: i32 = 64;

// Quiet-move ordering: a quiet move that gives check, and whose checking piece survives by
// static exchange (SEE at least `QUIET_CHECK_SEE_MARGIN`), is scored this much above its history
// (butterfly plus two continuations, within +-49,152). The search extends such checks, so
// they are often what refutes a move; ordering them early gave +73.2 +/- 34.2 Elo at 50,000
// nodes a move (issue 43).
tunable!(QUIET_CHECK_BONUS = 12_000, 0..=30_000);
/// The SEE a checking quiet move needs for `QUIET_CHECK_BONUS`, in exchange units (a pawn is
/// 200): a check that loses a little material can still start an attack.
pub const QUIET_CHECK_SEE_MARGIN: i32 = -160;

/// Quiescence: captures losing more than this by SEE are skipped.
pub const QS_SEE_MARGIN: i32 = 0;
// Quiescence futility: a capture is skipped when the static evaluation plus this margin plus the
// victim's exchange value cannot reach alpha (promotions and checks are always tried).
tunable!(QS_FUTILITY_MARGIN = 141, 50..=400);
/// How many plies of quiescence may answer checks before only captures remain.
pub const QS_CHECK_PLIES: i32 = 6;

/// Time between iterations: the iteration stops once the clock passes `TIME_OPTIMUM_SHARE` of
/// the optimum times a factor that grows with recent best-move changes (each iteration halves
/// the count by `BEST_CHANGE_DECAY`; the factor is capped at `TIME_MAX_INSTABILITY`) and shrinks
/// to `TIME_STABLE_FACTOR` once the best move has held for `STABLE_ITERATIONS` iterations.
pub const BEST_CHANGE_DECAY: f64 = 0.5;
/// Iterations in a row with the same best move after which the position counts as stable.
pub const STABLE_ITERATIONS: u32 = 4;
/// Factor on the thinking time once the best move is stable.
pub const TIME_STABLE_FACTOR: f64 = 0.7;
/// Cap of the best-move-change factor (1 + decayed changes).
pub const TIME_MAX_INSTABILITY: f64 = 2.5;
/// Searching stops after an iteration once this share of the optimum (times the factors) has passed.
pub const TIME_OPTIMUM_SHARE: f64 = 0.6;
/// `TIME_OPTIMUM_SHARE` under a Fischer clock (an increment, no byoyomi), where the time saved
/// piles up unspent: at 10 s + 100 ms, the share of 0.6 ended games with a median 2.4 s left
/// (docs/strength.md, sixteenth and eighteenth screens).
pub const TIME_OPTIMUM_SHARE_FISCHER: f64 = 1.0;
/// A best score falling by this much below the running average of earlier iterations doubles the
/// time to think; the factor stays within `TIME_FALLING_MIN..=TIME_FALLING_MAX`.
pub const TIME_FALLING_SCORE_SCALE: f64 = 200.0;
/// Least factor a rising score may bring the thinking time down to.
pub const TIME_FALLING_MIN: f64 = 0.75;
/// Most factor a falling score may raise the thinking time to.
pub const TIME_FALLING_MAX: f64 = 1.5;
/// With a single legal move, searching stops at this depth (enough for a score to show).
pub const ONE_MOVE_DEPTH: i32 = 4;

/// The root mate search of a timed `go` gets the optimum divided by this, at most
/// `ROOT_MATE_MAX`; analysis gets `ROOT_MATE_ANALYSIS`; below `ROOT_MATE_MIN` it is skipped
/// (too short to find anything the main search would not).
pub const ROOT_MATE_OPTIMUM_DIVISOR: u32 = 8;
/// Cap on the root mate search's time in a timed `go`.
pub const ROOT_MATE_MAX: Duration = Duration::from_millis(500);
/// The root mate search's time in analysis (no clock to divide).
pub const ROOT_MATE_ANALYSIS: Duration = Duration::from_millis(300);
/// (At 100 ms the root search would take an eighth of every move under a byoyomi below about a
/// second, where alpha-beta alone finds the mates that matter; the review of the search measured
/// 22 ms of a 300 ms byoyomi spent there before depth 1.)
pub const ROOT_MATE_MIN: Duration = Duration::from_millis(100);

/// Lists the parameters declared with `tunable!`: their specifications in a `tune` build.
macro_rules! tunable_list {
    ($($name:ident),* $(,)?) => {
        /// The names of the parameters declared with `tunable!`, in the order they are declared.
        pub const TUNABLE_NAMES: &[&str] = &[$(stringify!($name)),*];

        /// Every tunable parameter with its range, as a `tune` build declares its options.
        #[cfg(feature = "tune")]
        pub fn tunables() -> Vec<Tunable> {
            vec![$($name.spec),*]
        }

        /// Sets the tunable parameter `name` (a `tune` build's option) to `value`, within its range.
        #[cfg(feature = "tune")]
        pub fn set_tunable(name: &str, value: i32) -> Result<(), String> {
            let all: &[&Tuned] = &[$(&$name),*];
            let t = all.iter().find(|t| t.spec.name == name).ok_or_else(|| format!("unknown parameter {name}"))?;
            if !(t.spec.min..=t.spec.max).contains(&value) {
                return Err(format!("option {name}: {value} is not from {} to {}", t.spec.min, t.spec.max));
            }
            t.value.store(value, std::sync::atomic::Ordering::Relaxed);
            Ok(())
        }
    };
}

tunable_list!(
    ASPIRATION_DELTA,
    NULL_REDUCTION_BASE,
    NULL_REDUCTION_DIVISOR,
    NULL_EVAL_DIVISOR,
    RFP_MAX_DEPTH,
    RFP_MARGIN,
    RAZOR_MARGIN,
    FUTILITY_BASE,
    FUTILITY_PER_DEPTH,
    HISTORY_PRUNE_PER_DEPTH,
    HISTORY_DEPTH_DIVISOR,
    CAPTURE_FUTILITY_BASE,
    CAPTURE_FUTILITY_PER_DEPTH,
    SEE_QUIET_MARGIN,
    SEE_CAPTURE_MARGIN,
    SINGULAR_MARGIN_PER_DEPTH,
    LMR_BASE_CENTI,
    LMR_DIVISOR_CENTI,
    LMR_HISTORY_DIVISOR,
    QUIET_CHECK_BONUS,
    QS_FUTILITY_MARGIN
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_is_listed_once() {
        // Each `tunable!(NAME = ...)` line of this file, against the list the options are made from.
        let source = include_str!("params.rs");
        let declared: Vec<&str> = source
            .lines()
            .filter_map(|l| l.strip_prefix("tunable!("))
            .filter_map(|rest| rest.split(' ').next())
            .collect();
        assert_eq!(declared, TUNABLE_NAMES, "tunable! declarations and tunable_list! differ");
    }

    #[cfg(feature = "tune")]
    #[test]
    fn tunables_take_values_in_their_range_only() {
        let specs = tunables();
        assert_eq!(specs.iter().map(|t| t.name).collect::<Vec<_>>(), TUNABLE_NAMES);
        for t in specs {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
            // Out of range is refused and the value kept; the default itself is accepted (other
            // tests search at the same time, so no value is changed for real).
            assert!(set_tunable(t.name, t.max + 1).is_err() && set_tunable(t.name, t.min - 1).is_err());
            assert!(set_tunable(t.name, t.default).is_ok());
        }
        assert_eq!(RFP_MARGIN.get(), RFP_MARGIN.spec.default);
        assert!(set_tunable("NO_SUCH_PARAMETER", 0).is_err());
    }
}
