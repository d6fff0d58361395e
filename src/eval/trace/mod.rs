//! The evaluation as a sum over its weights, for tuning them (Texel's method: fit the weights so
//! that a sigmoid of the evaluation predicts game results and search scores).
//!
//! `trace(pos)` records how the evaluation of `pos` uses each number of `params.rs`, so that a
//! tuner can compute the evaluation under any weights without the engine's compiled tables:
//!
//! ```text
//! evaluate(pos) = sum over terms t of count[t] * term[t](w)  +  sum over kings of sign * penalty(w)
//!                 + rounding,   then clamped to EVAL_LIMIT
//! ```
//!
//! - `weights`: the weight vector `w`, every tuned number of `params.rs` (an array entry is one
//!   weight), at its value in `params.rs`.
//! - `terms`: the linear terms (one per weight: a piece's value, a table entry) and the products
//!   of weights the placement tables are built from (`GOLD_GUARD[d] * GUARD_BEHIND_PERCENT / 100`,
//!   `ATTACK_WEIGHT[kind] * ATTACK_BY_DISTANCE[d] / ATTACK_WEIGHT_DIV`, ...); `count[t]` is how many
//!   times the evaluation uses that entry, plus for the side to move and minus for the other.
//! - `king`: king safety, not a sum of terms (a clamped square), traced as the counts it weighs
//!   and computed from them as the evaluation does.
//! - `rounding`: the evaluation computes its tables in integers, each division rounding toward
//!   zero; the difference from the real-valued terms at the current weights is a fixed constant,
//!   so that the sum is the evaluation exactly there (up to the order of floating-point
//!   additions). Under other weights the tuner fits the real-valued sum with that constant;
//!   the integer tables built from those weights round a little differently: by under a point
//!   per table entry used, and for king safety by up to two danger units.
//!
//! Tuned: board and hand values, `TEMPO`, every placement table (guards, rook near king, pawn
//! shield, attack by distance and by kind, knight jump, rook and lance on the king's file, king
//! rank and file), the three percentages, and king safety's units (attackers by kind, attacked
//! squares, zone pieces, defenders, hand attack by kind) and `DANGER_SCALE`.
//! Fixed: `EVAL_LIMIT` (a clamp, never reached by game positions), `ATTACK_WEIGHT_DIV` (a unit:
//! the attack weights are in quarters), and king safety's shape: `HAND_COUNT_CAP`, `HAND_BASE`,
//! `EMPTY_SQUARE_DIV` and `DANGER_MAX`.
//! Piece values also order captures in the reference searches (`game`), so tuning them is a
//! change to more than the evaluation.
//!
//! The `material` build traces its material alone, as it evaluates.

mod king;
mod terms;
mod weights;

pub use king::KingDanger;
pub use terms::{attack, terms, Term, TERM_COUNT};
pub use weights::{current, group_of, group_weights, names, weight, Group, GroupId, GROUPS, WEIGHT_COUNT};

use super::king_safety;
use super::params::*;
use super::Value;
use crate::types::{Color, PieceKind, Square};
use crate::Position;

/// Whether the evaluation has its positional parts: all builds but `material`, whose trace
/// holds the board and hand values alone.
pub const POSITIONAL: bool = !cfg!(feature = "material");

/// How the evaluation of one position uses the weights (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// (term id, count) for each term the evaluation uses a non-zero net number of times, in id
    /// order; counts are from the side to move's point of view.
    pub terms: Vec<(u16, i16)>,
    /// King safety of the Black and White kings.
    pub kings: [KingDanger; 2],
    /// What the integer tables add to the real-valued terms at the current weights.
    pub rounding: f64,
}

impl Trace {
    /// The evaluation under `weights`, before the clamp to `EVAL_LIMIT`; `term_values` holds
    /// each term's value under the same weights (`term_values(&terms(), weights)`).
    pub fn value(&self, weights: &[f64], term_values: &[f64]) -> f64 {
        let terms: f64 = self.terms.iter().map(|&(t, n)| n as f64 * term_values[t as usize]).sum();
        terms + self.kings.iter().map(|k| k.value(weights)).sum::<f64>() + self.rounding
    }
}

/// Each term's value under `weights`, by term id.
pub fn term_values(terms: &[Term], weights: &[f64]) -> Vec<f64> {
    terms.iter().map(|t| t.value(weights)).collect()
}

/// Counts and rounding gathered while walking a position.
struct Builder {
    /// Uses of each term, by term id: positive for the side to move, negative for the opponent.
    counts: [i32; TERM_COUNT],
    /// The sum of what the integer tables hold minus the real formulas, over every rounded use.
    rounding: f64,
}

impl Builder {
    /// Uses `term` `n` times (no rounding).
    fn add(&mut self, term: usize, n: i32) {
        self.counts[term] += n;
    }

    /// Uses `term` `n` times where the evaluation's integer table holds `table`.
    fn add_rounded(&mut self, term: usize, n: i32, table: Value, real: f64) {
        self.counts[term] += n;
        self.rounding += n as f64 * (table as f64 - real);
    }
}

/// The trace of `pos`'s evaluation.
pub fn trace(pos: &Position) -> Trace {
    let us = pos.side_to_move();
    let mut b = Builder { counts: [0; TERM_COUNT], rounding: 0.0 };
    let mut kings = [KingDanger::default(); 2];
    for c in Color::ALL {
        let n = if c == us { 1 } else { -1 };
        for k in PieceKind::HAND {
            b.add(hand_weight(k), n * pos.hand(c).count(k) as i32);
        }
        for sq in pos.pieces_of(c) {
            let kind = pos.piece_on(sq).kind();
            if kind == PieceKind::King {
                continue;
            }
            b.add(board_weight(kind), n);
            if !POSITIONAL {
                continue;
            }
            if pos.has_king(c) {
                let (dx, dy) = offset(c, sq, pos.king_square(c));
                own_king(&mut b, kind, dx, dy, n);
            }
            if pos.has_king(!c) {
                let (dx, dy) = offset(c, sq, pos.king_square(!c));
                enemy_king(&mut b, kind, dx, dy, n);
            }
        }
        if POSITIONAL && pos.has_king(c) {
            let k = pos.king_square(c);
            let seen_as_black = if c == Color::Black { k } else { k.flip() };
            b.add(weight(GroupId::KingRank, seen_as_black.rank() as usize), n);
            b.add(weight(GroupId::KingFile, (seen_as_black.file() as i32 - 4).unsigned_abs() as usize), n);
            kings[c.index()] = king_danger(pos, c, -n, &mut b);
        }
    }
    if POSITIONAL {
        b.add(weight(GroupId::Tempo, 0), 1);
    }
    let terms =
        b.counts.iter().enumerate().filter(|&(_, &n)| n != 0).map(|(t, &n)| (t as u16, n as i16)).collect();
    Trace { terms, kings, rounding: b.rounding }
}

/// The weight of a piece of `kind` on the board.
fn board_weight(kind: PieceKind) -> usize {
    use GroupId as G;
    use PieceKind::*;
    let g = match kind {
        Pawn => G::Pawn,
        Lance => G::Lance,
        Knight => G::Knight,
        Silver => G::Silver,
        Gold => G::Gold,
        Bishop => G::Bishop,
        Rook => G::Rook,
        ProPawn => G::ProPawn,
        ProLance => G::ProLance,
        ProKnight => G::ProKnight,
        ProSilver => G::ProSilver,
        Horse => G::Horse,
        Dragon => G::Dragon,
        King => unreachable!("the king has no value"),
    };
    weight(g, 0)
}

/// The weight of a piece of `kind` in hand.
fn hand_weight(kind: PieceKind) -> usize {
    use GroupId as G;
    use PieceKind::*;
    let g = match kind {
        Pawn => G::HandPawn,
        Lance => G::HandLance,
        Knight => G::HandKnight,
        Silver => G::HandSilver,
        Gold => G::HandGold,
        Bishop => G::HandBishop,
        Rook => G::HandRook,
        _ => unreachable!("only unpromoted kinds are held"),
    };
    weight(g, 0)
}

/// A piece of `c` on `sq` relative to the king on `king`, as `king_relative` sees it: the file
/// distance, and the rank offset from `c`'s side (negative: further toward the enemy).
fn offset(c: Color, sq: Square, king: Square) -> (i32, i32) {
    let dx = (sq.file() as i32 - king.file() as i32).abs();
    let dy = sq.rank() as i32 - king.rank() as i32;
    (dx, if c == Color::Black { dy } else { -dy })
}

/// Chebyshev distance of an offset, as `king_relative` measures it.
fn cheb(dx: i32, dy: i32) -> usize {
    dx.max(dy.abs()) as usize
}

/// `king_relative::own_king_term`, traced: `n` uses of what a piece of `kind` at (`dx`, `dy`) from
/// its own king scores.
fn own_king(b: &mut Builder, kind: PieceKind, dx: i32, dy: i32, n: i32) {
    use GroupId as G;
    use PieceKind::*;
    if dx == 0 && dy == 0 {
        return;
    }
    let d = cheb(dx, dy);
    let behind = dy > 0;
    match kind {
        Gold | Silver => {
            let (table, group, behind_term) = match kind {
                Gold => (&GOLD_GUARD, G::GoldGuard, terms::GOLD_BEHIND),
                _ => (&SILVER_GUARD, G::SilverGuard, terms::SILVER_BEHIND),
            };
            let v = table[d];
            if behind {
                let real = v as f64 * GUARD_BEHIND_PERCENT as f64 / 100.0;
                b.add_rounded(behind_term + d, n, v * GUARD_BEHIND_PERCENT / 100, real);
            } else {
                b.add(weight(group, d), n);
            }
        }
        ProPawn | ProLance | ProKnight | ProSilver => {
            let v = GOLD_GUARD[d];
            let percent = PROMOTED_GUARD_PERCENT as f64 / 100.0;
            let (guard, term, real) = if behind {
                let real = v as f64 * GUARD_BEHIND_PERCENT as f64 / 100.0 * percent;
                (v * GUARD_BEHIND_PERCENT / 100, terms::PROMOTED_BEHIND + d, real)
            } else {
                (v, terms::PROMOTED_FRONT + d, v as f64 * percent)
            };
            b.add_rounded(term, n, guard * PROMOTED_GUARD_PERCENT / 100, real);
        }
        Horse => b.add(weight(G::HorseGuard, d), n),
        Rook => b.add(weight(G::RookNearKing, d), n),
        Pawn if (-3..0).contains(&dy) && dx <= 2 => {
            let ahead = (-dy) as usize;
            if dx == 2 {
                let v = PAWN_SHIELD[ahead];
                let real = v as f64 * PAWN_SHIELD_WIDE_PERCENT as f64 / 100.0;
                b.add_rounded(terms::SHIELD_WIDE + ahead, n, v * PAWN_SHIELD_WIDE_PERCENT / 100, real);
            } else {
                b.add(weight(G::PawnShield, ahead), n);
            }
        }
        _ => {}
    }
}

/// `king_relative::enemy_king_term`, traced.
fn enemy_king(b: &mut Builder, kind: PieceKind, dx: i32, dy: i32, n: i32) {
    use GroupId as G;
    use PieceKind::*;
    if dx == 0 && dy == 0 {
        return;
    }
    let (k, d) = (kind.index(), cheb(dx, dy));
    let product = ATTACK_WEIGHT[k] * ATTACK_BY_DISTANCE[d];
    let real = product as f64 / ATTACK_WEIGHT_DIV as f64;
    b.add_rounded(attack(k, d), n, product / ATTACK_WEIGHT_DIV, real);
    match kind {
        Knight if (1..=3).contains(&dy) && dx <= 2 => b.add(weight(G::KnightJump, 0), n),
        Rook if dx <= 1 => b.add(weight(G::RookOnKingFile, dx as usize), n),
        Lance if dx <= 1 && dy > 0 => b.add(weight(G::LanceOnKingFile, dx as usize), n),
        _ => {}
    }
}

/// The king safety of `c`'s king, whose penalty counts `sign` times from the side to move's
/// view; its rounding goes to `b`.
fn king_danger(pos: &Position, c: Color, sign: i32, b: &mut Builder) -> KingDanger {
    let counts = king_safety::danger_counts(pos, c, pos.king_square(c));
    let pressure: i32 = (0..15).map(|k| ATTACKER_UNITS[k] * counts.attackers[k] as i32).sum::<i32>()
        + ATTACKED_SQUARE_UNITS * counts.attacked_squares as i32
        + ZONE_PIECE_UNITS * counts.zone_pieces as i32;
    let hand: i32 = (0..8).map(|k| HAND_ATTACK_UNITS[k] * counts.hand[k] as i32).sum();
    let (empty, defenders) = (counts.empty as i32, counts.defenders as i32);
    // As `king_safety::danger` computes it, and as `KingDanger::danger` does in reals.
    let danger = pressure * (HAND_BASE + hand) / HAND_BASE + empty * hand / EMPTY_SQUARE_DIV
        - DEFENDER_UNITS * defenders;
    let real = (pressure * (HAND_BASE + hand)) as f64 / HAND_BASE as f64
        + (empty * hand) as f64 / EMPTY_SQUARE_DIV as f64
        - (DEFENDER_UNITS * defenders) as f64;
    let d = danger.clamp(0, DANGER_MAX as i32);
    let penalty = d * d * DANGER_SCALE / 8;
    b.rounding += sign as f64 * (penalty as f64 - (d * d * DANGER_SCALE) as f64 / 8.0);
    KingDanger { sign: sign as i8, counts, offset: (danger as f64 - real) as f32 }
}

/// Tests of the trace of a position.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_is_balanced_but_for_the_tempo() {
        let t = trace(&Position::startpos());
        let w = current();
        let v = t.value(&w, &term_values(&terms(), &w));
        assert_eq!(v, crate::eval::evaluate(&Position::startpos()) as f64);
        if POSITIONAL {
            assert_eq!(t.terms, vec![(weight(GroupId::Tempo, 0) as u16, 1)]);
        }
    }
}
