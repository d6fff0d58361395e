//! The terms of the evaluation's sum: products of one to three weights over a fixed divisor.
//!
//! Most of the evaluation adds weights as they are (a pawn's value, a gold's bonus beside its
//! king); those are the linear terms, one per weight, whose id is the weight's index. A few
//! entries of the placement tables are products: a guard bonus behind the king is the guard
//! weight times `GUARD_BEHIND_PERCENT / 100`, an attack bonus is `ATTACK_WEIGHT[kind] *
//! ATTACK_BY_DISTANCE[distance] / ATTACK_WEIGHT_DIV`. Each such product is a term of its own, so
//! the trace counts uses of terms and every factor of a product is tuned through it.

use super::weights::{weight, GroupId, WEIGHT_COUNT};
use crate::eval::params::*;

/// The distances of the guard tables (Chebyshev distance 0..8).
const DISTANCES: usize = GOLD_GUARD.len();
/// The rows of the attack weights (kind index 0..14).
const KINDS: usize = ATTACK_WEIGHT.len();

/// `GOLD_GUARD[d] * GUARD_BEHIND_PERCENT / 100`, by distance: a gold behind its king.
pub const GOLD_BEHIND: usize = WEIGHT_COUNT;
/// `SILVER_GUARD[d] * GUARD_BEHIND_PERCENT / 100`, by distance.
pub const SILVER_BEHIND: usize = GOLD_BEHIND + DISTANCES;
/// `GOLD_GUARD[d] * PROMOTED_GUARD_PERCENT / 100`, by distance: a promoted small piece beside or
/// in front of its king.
pub const PROMOTED_FRONT: usize = SILVER_BEHIND + DISTANCES;
/// `GOLD_GUARD[d] * GUARD_BEHIND_PERCENT * PROMOTED_GUARD_PERCENT / 10000`, by distance.
pub const PROMOTED_BEHIND: usize = PROMOTED_FRONT + DISTANCES;
/// `PAWN_SHIELD[i] * PAWN_SHIELD_WIDE_PERCENT / 100`, by ranks ahead: a shield pawn two files
/// away.
pub const SHIELD_WIDE: usize = PROMOTED_BEHIND + DISTANCES;
/// `ATTACK_WEIGHT[k] * ATTACK_BY_DISTANCE[d] / ATTACK_WEIGHT_DIV`, at `ATTACK + k * 9 + d`.
pub const ATTACK: usize = SHIELD_WIDE + PAWN_SHIELD.len();
/// The number of terms.
pub const TERM_COUNT: usize = ATTACK + KINDS * DISTANCES;

/// The id of the attack term of kind index `kind` at Chebyshev distance `distance`.
#[inline]
pub const fn attack(kind: usize, distance: usize) -> usize {
    ATTACK + kind * DISTANCES + distance
}

/// A product of weights over a fixed divisor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Term {
    /// The weights multiplied, by index; only the first `len` are used.
    pub factors: [u16; 3],
    /// How many factors (1 to 3).
    pub len: u8,
    /// The product is divided by this (a fixed number of `params.rs`, or 100 for a percentage).
    pub divisor: f64,
}

impl Term {
    /// A term of `factors` (1 to 3 weight indices) over `divisor`.
    fn new(factors: &[usize], divisor: f64) -> Term {
        let mut f = [0u16; 3];
        for (slot, &w) in f.iter_mut().zip(factors) {
            *slot = w as u16;
        }
        Term { factors: f, len: factors.len() as u8, divisor }
    }

    /// The weights this term multiplies.
    pub fn factors(&self) -> &[u16] {
        &self.factors[..self.len as usize]
    }

    /// The term's value under `weights`.
    #[inline]
    pub fn value(&self, weights: &[f64]) -> f64 {
        self.factors().iter().map(|&w| weights[w as usize]).product::<f64>() / self.divisor
    }

    /// Adds `g` times the term's derivative by each weight to `grad`.
    pub fn add_gradient(&self, weights: &[f64], g: f64, grad: &mut [f64]) {
        let f = self.factors();
        for (i, &w) in f.iter().enumerate() {
            let others: f64 =
                f.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &o)| weights[o as usize]).product();
            grad[w as usize] += g * others / self.divisor;
        }
    }
}

/// Every term, by id.
pub fn terms() -> Vec<Term> {
    use GroupId::*;
    let mut t: Vec<Term> = (0..WEIGHT_COUNT).map(|w| Term::new(&[w], 1.0)).collect();
    let behind = weight(GuardBehindPercent, 0);
    let promoted = weight(PromotedGuardPercent, 0);
    for d in 0..DISTANCES {
        t.push(Term::new(&[weight(GoldGuard, d), behind], 100.0));
    }
    for d in 0..DISTANCES {
        t.push(Term::new(&[weight(SilverGuard, d), behind], 100.0));
    }
    for d in 0..DISTANCES {
        t.push(Term::new(&[weight(GoldGuard, d), promoted], 100.0));
    }
    for d in 0..DISTANCES {
        t.push(Term::new(&[weight(GoldGuard, d), behind, promoted], 10_000.0));
    }
    for i in 0..PAWN_SHIELD.len() {
        t.push(Term::new(&[weight(PawnShield, i), weight(PawnShieldWidePercent, 0)], 100.0));
    }
    for k in 0..KINDS {
        for d in 0..DISTANCES {
            t.push(Term::new(
                &[weight(AttackWeight, k), weight(AttackByDistance, d)],
                ATTACK_WEIGHT_DIV as f64,
            ));
        }
    }
    debug_assert_eq!(t.len(), TERM_COUNT);
    t
}

/// Tests of the term list and its gradients.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::trace::weights::current;

    #[test]
    fn ids_match_the_list() {
        let t = terms();
        assert_eq!(t.len(), TERM_COUNT);
        let w = current();
        let (gold, behind, promoted) =
            (GOLD_GUARD[1] as f64, GUARD_BEHIND_PERCENT as f64, PROMOTED_GUARD_PERCENT as f64);
        assert_eq!(t[GOLD_BEHIND + 1].value(&w), gold * behind / 100.0);
        assert_eq!(t[PROMOTED_BEHIND + 1].value(&w), gold * behind * promoted / 10_000.0);
        let attack_weight = ATTACK_WEIGHT[14] as f64 * ATTACK_BY_DISTANCE[1] as f64;
        assert_eq!(t[attack(14, 1)].value(&w), attack_weight / ATTACK_WEIGHT_DIV as f64);
        assert_eq!(t[weight(GroupId::Rook, 0)].value(&w), ROOK as f64);
    }

    #[test]
    fn the_gradient_of_a_product_holds_the_other_factors() {
        let t = Term::new(&[0, 1, 2], 10.0);
        let w = [2.0, 3.0, 5.0];
        let mut g = [0.0; 3];
        t.add_gradient(&w, 1.0, &mut g);
        assert_eq!(g, [1.5, 1.0, 0.6]);
    }
}
