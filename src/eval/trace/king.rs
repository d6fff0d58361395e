//! King safety as a function of its weights, for tuning.
//!
//! The evaluation turns what it counts around a king into a danger number and the danger into a
//! penalty (`eval::king_safety`):
//!
//! ```text
//! pressure = sum of ATTACKER_UNITS[kind] per attacker + ATTACKED_SQUARE_UNITS * attacked squares
//!            + ZONE_PIECE_UNITS * enemy pieces within two squares
//! hand     = sum of HAND_ATTACK_UNITS[kind] * min(enemy hand count, HAND_COUNT_CAP)
//! danger   = pressure * (HAND_BASE + hand) / HAND_BASE + empty squares * hand / EMPTY_SQUARE_DIV
//!            - DEFENDER_UNITS * defenders
//! penalty  = clamp(danger, 0, DANGER_MAX)^2 * DANGER_SCALE / 8
//! ```
//!
//! in integers, each division rounding toward zero. Neither linear nor a plain product, this
//! part is traced as the counts (`KingDanger`) and the formula is computed here in real numbers,
//! with its derivatives; the tuner follows them through the clamp (no slope outside it).
//! `HAND_COUNT_CAP`, `HAND_BASE`, `EMPTY_SQUARE_DIV` and `DANGER_MAX` stay fixed: they set the
//! formula's shape, not a weight. The integer rounding of the danger at the current weights is
//! kept as a fixed `offset`, so that the formula gives the evaluation's own danger there.

use super::weights::{weight, GroupId};
use crate::eval::king_safety::DangerCounts;
use crate::eval::params::*;

/// What the evaluation counts around one king, with the sign its penalty takes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct KingDanger {
    /// +1 for the king of the side not to move (its penalty is the side to move's gain), -1 for
    /// the side to move's own king, 0 for a side without a king (no penalty).
    pub sign: i8,
    /// What the evaluation counts around the king.
    pub counts: DangerCounts,
    /// The evaluation's danger at the current weights minus this formula's there (integer
    /// rounding; a multiple of 1/32, exact in an `f32`).
    pub offset: f32,
}

/// `HAND_BASE` as a real.
const BASE: f64 = HAND_BASE as f64;
/// `EMPTY_SQUARE_DIV` as a real.
const EMPTY_DIV: f64 = EMPTY_SQUARE_DIV as f64;
/// `DANGER_MAX`, the clamp's top, as a real.
const MAX: f64 = DANGER_MAX as f64;

impl KingDanger {
    /// The attack pressure under `w`: attackers, attacked squares and pieces in the zone, each by its
    /// unit weight.
    fn pressure(&self, w: &[f64]) -> f64 {
        let units = &w[weight(GroupId::AttackerUnits, 0)..];
        let attackers: f64 = self.counts.attackers.iter().zip(units).map(|(&n, &u)| n as f64 * u).sum();
        attackers
            + self.counts.attacked_squares as f64 * w[weight(GroupId::AttackedSquareUnits, 0)]
            + self.counts.zone_pieces as f64 * w[weight(GroupId::ZonePieceUnits, 0)]
    }

    /// The attack power of the attacking side's hand under `w`.
    fn hand_power(&self, w: &[f64]) -> f64 {
        let units = &w[weight(GroupId::HandAttackUnits, 0)..];
        self.counts.hand.iter().zip(units).map(|(&n, &u)| n as f64 * u).sum()
    }

    /// The danger under `w`, before the clamp.
    pub fn danger(&self, w: &[f64]) -> f64 {
        let (pressure, hand) = (self.pressure(w), self.hand_power(w));
        pressure * (BASE + hand) / BASE + self.counts.empty as f64 * hand / EMPTY_DIV
            - self.counts.defenders as f64 * w[weight(GroupId::DefenderUnits, 0)]
            + self.offset as f64
    }

    /// The penalty under `w`, times `sign`: this king's part of the evaluation.
    pub fn value(&self, w: &[f64]) -> f64 {
        if self.sign == 0 {
            return 0.0;
        }
        let d = self.danger(w).clamp(0.0, MAX);
        self.sign as f64 * d * d * w[weight(GroupId::DangerScale, 0)] / 8.0
    }

    /// Adds `g` times the derivative of `value` by each weight to `grad`.
    pub fn add_gradient(&self, w: &[f64], g: f64, grad: &mut [f64]) {
        if self.sign == 0 {
            return;
        }
        let g = g * self.sign as f64;
        let d = self.danger(w);
        let clamped = d.clamp(0.0, MAX);
        grad[weight(GroupId::DangerScale, 0)] += g * clamped * clamped / 8.0;
        if d <= 0.0 || d >= MAX {
            return;
        }
        // d(penalty)/d(danger), then the danger's derivative by each unit.
        let g = g * 2.0 * d * w[weight(GroupId::DangerScale, 0)] / 8.0;
        let (pressure, hand) = (self.pressure(w), self.hand_power(w));
        let by_pressure = g * (BASE + hand) / BASE;
        for (k, &n) in self.counts.attackers.iter().enumerate() {
            grad[weight(GroupId::AttackerUnits, k)] += by_pressure * n as f64;
        }
        grad[weight(GroupId::AttackedSquareUnits, 0)] += by_pressure * self.counts.attacked_squares as f64;
        grad[weight(GroupId::ZonePieceUnits, 0)] += by_pressure * self.counts.zone_pieces as f64;
        let by_hand = g * (pressure / BASE + self.counts.empty as f64 / EMPTY_DIV);
        for (k, &n) in self.counts.hand.iter().enumerate() {
            grad[weight(GroupId::HandAttackUnits, k)] += by_hand * n as f64;
        }
        grad[weight(GroupId::DefenderUnits, 0)] -= g * self.counts.defenders as f64;
    }
}
