//! Static evaluation for the alpha-beta search. `evaluate` is the hand-written evaluation,
//! computed from scratch on every call; `nnue` holds the networks (shomei's own and YaneuraOu's
//! HalfKP), whose accumulators are updated move by move; `Evaluator` chooses between them.
//!
//! The hand-written evaluation has three parts, each from Black's point of view, added and
//! turned toward the side to move:
//! - material: a value per kind on the board and a higher one in hand (`shogi::material`: the
//!   position keeps the sum move by move, `Position::material`);
//! - `king_relative`: each piece's placement relative to its own king (defence) and the enemy
//!   king (attack), and the king's own square;
//! - `king_safety`: a penalty growing with the square of the danger around each king.
//!
//! Every term treats the colours alike (White's squares are Black's rotated 180 degrees) and
//! depends on files only through their distance, so a position, its colour-swapped rotation and its
//! left-right mirror all score the same for the side to move. A side without a king (composed
//! problems) gets no king terms. The numbers live in `params`; `trace` writes the evaluation as a
//! sum over them, for tuning (`shomei-train texel`).
// The `material` build leaves the positional terms unused; they stay compiled and tested.
#![cfg_attr(feature = "material", allow(dead_code))]

pub mod evaluator;
mod king_relative;
mod king_safety;
pub mod nnue;
pub mod params;
pub mod trace;

pub use crate::shogi::material::{hand_value, piece_value};
pub use evaluator::Evaluator;

use crate::types::Color;
use crate::Position;

pub use crate::types::Value;

/// The evaluation from the side to move's point of view.
#[cfg(not(feature = "material"))]
#[inline]
pub fn evaluate(pos: &Position) -> Value {
    let black = pos.material() + king_relative::placement(pos) + king_safety::king_safety(pos);
    let v = if pos.side_to_move() == Color::Black { black } else { -black };
    (v + params::TEMPO).clamp(-params::EVAL_LIMIT, params::EVAL_LIMIT)
}

/// The `material` build's evaluation: board and hand material alone, from the side to move's
/// point of view, so that its search can be compared with other engines' material editions at
/// equal knowledge.
#[cfg(feature = "material")]
#[inline]
pub fn evaluate(pos: &Position) -> Value {
    let black = pos.material();
    let v = if pos.side_to_move() == Color::Black { black } else { -black };
    v.clamp(-params::EVAL_LIMIT, params::EVAL_LIMIT)
}

/// The evaluation's parts, for debugging and tuning. The three board parts are from Black's point
/// of view; `tempo` goes to the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// Board and hand material.
    pub material: Value,
    /// Piece placement relative to both kings, and the kings' own squares.
    pub placement: Value,
    /// White's king penalty minus Black's.
    pub king_safety: Value,
    /// Penalties of the Black and White kings before they are subtracted (0 without a king).
    pub king_penalty: [Value; 2],
    /// The side to move's bonus for having the move.
    pub tempo: Value,
    /// What `evaluate` returns: the sum seen from the side to move, clamped.
    pub total: Value,
}

/// The parts `evaluate` adds up.
pub fn breakdown(pos: &Position) -> Breakdown {
    let king_penalty = [king_safety::penalty(pos, Color::Black), king_safety::penalty(pos, Color::White)];
    Breakdown {
        material: pos.material(),
        placement: king_relative::placement(pos),
        king_safety: king_penalty[1] - king_penalty[0],
        king_penalty,
        tempo: params::TEMPO,
        total: evaluate(pos),
    }
}
