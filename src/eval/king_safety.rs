//! King safety: how much the enemy aims at the squares around each king.
//!
//! For each king a danger count adds up the enemy pieces that attack squares next to it, the
//! number of those squares attacked, and the enemy pieces within two squares; it is multiplied up
//! by what the enemy holds in hand (drops join an attack at once), increased for empty squares next
//! to the king (where those drops land), and reduced for own golds and silvers beside the king. A
//! table turns danger into a penalty growing with its square: a few points for a safe king, a
//! piece or more when mate is near.

use super::params::*;
use super::Value;
use crate::shogi::attacks;
use crate::types::{Bitboard, Color, Hand, PieceKind, Square};
use crate::Position;

/// The squares with file in `f0..=f1` and rank in `r0..=r1`, clipped to the board.
const fn rect(f0: i32, f1: i32, r0: i32, r1: i32) -> u128 {
    let mut bb = 0u128;
    let mut f = 0;
    while f < 9 {
        let mut r = 0;
        while r < 9 {
            if f >= f0 && f <= f1 && r >= r0 && r <= r1 {
                bb |= 1u128 << (f * 9 + r);
            }
            r += 1;
        }
        f += 1;
    }
    bb
}

/// Per-square masks around a king square; `which` selects the mask (see the statics below).
const fn masks(which: u8) -> [Bitboard; 81] {
    let mut t = [Bitboard::EMPTY; 81];
    let mut i = 0;
    while i < 81 {
        let (f, r) = ((i / 9) as i32, (i % 9) as i32);
        let bits = match which {
            // the 5x5 box without the king
            0 => rect(f - 2, f + 2, r - 2, r + 2) & !(1u128 << i),
            // Black king: the box plus the rank three ahead (toward rank a), where enemy knights
            // stand that jump next to the king
            1 => rect(f - 2, f + 2, r - 3, r + 2),
            // White king: the same, ahead being toward rank i
            2 => rect(f - 2, f + 2, r - 2, r + 3),
            // the three files and three ranks through the 3x3 box: where a rook, dragon or lance
            // may stand to reach a square next to the king
            3 => rect(f - 1, f + 1, 0, 8) | rect(0, 8, r - 1, r + 1),
            // the diagonals through the 3x3 box, for bishops and horses
            _ => {
                let mut bb = 0u128;
                let mut s = 0;
                while s < 81 {
                    let (sf, sr) = (s / 9, s % 9);
                    if ((sf - sr) - (f - r)).abs() <= 2 || ((sf + sr) - (f + r)).abs() <= 2 {
                        bb |= 1u128 << s;
                    }
                    s += 1;
                }
                bb
            }
        };
        t[i] = Bitboard(bits);
        i += 1;
    }
    t
}

/// The 5x5 box around the king, without the king.
static ZONE: [Bitboard; 81] = masks(0);
/// Where an enemy piece of any kind may stand to attack a square next to the king, by king colour.
static NEAR: [[Bitboard; 81]; 2] = [masks(1), masks(2)];
/// The three files and three ranks through the 3x3 box around the king: where a rook, dragon or
/// lance may stand to reach a square next to it.
static ROOK_REACH: [Bitboard; 81] = masks(3);
/// The diagonals through the 3x3 box around the king: where a bishop or horse may stand to reach
/// a square next to it.
static BISHOP_REACH: [Bitboard; 81] = masks(4);

/// Penalty by danger: quadratic, so a few points of danger cost little and a lot costs a piece.
static PENALTY: [Value; DANGER_MAX + 1] = {
    let mut t = [0; DANGER_MAX + 1];
    let mut d = 0;
    while d <= DANGER_MAX {
        t[d] = (d * d) as Value * DANGER_SCALE / 8;
        d += 1;
    }
    t
};

/// How much a hand feeds an attack on the king of its opponent.
#[inline(always)]
fn hand_power(hand: Hand) -> i32 {
    let mut p = 0;
    for k in PieceKind::HAND {
        p += HAND_ATTACK_UNITS[k.index()] * hand.count(k).min(HAND_COUNT_CAP) as i32;
    }
    p
}

/// The number of squares in `bb`, which must lie within two files of `king`. Shifted down to the
/// king's five files the set fits in 64 bits, which halves the cost of counting on targets without
/// a popcount instruction (the default x86-64 target counts in software).
#[inline(always)]
fn count_near(bb: Bitboard, king: Square) -> i32 {
    ((bb.0 >> (king.file().saturating_sub(2) as u32 * 9)) as u64).count_ones() as i32
}

/// The danger count of `us`'s king (on `king`), before the penalty table; may be negative.
pub fn danger(pos: &Position, us: Color, king: Square) -> i32 {
    let them = !us;
    let around = attacks::king_attacks(king);
    let enemy = pos.pieces_of(them);
    // Sliders see through the king: the square behind it on their line is no escape.
    let occ = pos.occupied().without(king);
    let rook_like = pos.pieces(them, PieceKind::Rook) | pos.pieces(them, PieceKind::Dragon);
    let bishop_like = pos.pieces(them, PieceKind::Bishop) | pos.pieces(them, PieceKind::Horse);
    let sliders = ((rook_like | pos.pieces(them, PieceKind::Lance)) & ROOK_REACH[king.index()])
        | (bishop_like & BISHOP_REACH[king.index()]);
    let candidates = (enemy & NEAR[us.index()][king.index()]) | sliders;

    let mut pressure = 0;
    let mut attacked = Bitboard::EMPTY;
    for sq in candidates {
        let kind = pos.piece_on(sq).kind();
        let hits = attacks::attacks(them, kind, sq, occ) & around;
        if hits.is_some() {
            pressure += ATTACKER_UNITS[kind.index()];
            attacked |= hits;
        }
    }
    pressure += ATTACKED_SQUARE_UNITS * count_near(attacked, king);
    pressure += ZONE_PIECE_UNITS * count_near(enemy & ZONE[king.index()], king);

    let hand = hand_power(pos.hand(them));
    let empty = count_near(around & !pos.occupied(), king);
    let defenders = count_near(around & (pos.golds(us) | pos.pieces(us, PieceKind::Silver)), king);
    pressure * (HAND_BASE + hand) / HAND_BASE + empty * hand / EMPTY_SQUARE_DIV - DEFENDER_UNITS * defenders
}

/// What `danger` counts around `us`'s king (on `king`) before the numbers in `params` weigh it.
/// The evaluation trace (`eval::trace`) rebuilds the danger from these counts to tune those
/// numbers; the walk repeats `danger`'s so that the search's copy stays as it is, and the trace
/// test checks that the two agree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DangerCounts {
    /// Enemy pieces that attack a square next to the king, by kind index.
    pub attackers: [u8; 15],
    /// Squares next to the king that the enemy attacks.
    pub attacked_squares: u8,
    /// Enemy pieces within two squares of the king.
    pub zone_pieces: u8,
    /// Empty squares next to the king.
    pub empty: u8,
    /// Own golds, gold-movers and silvers next to the king.
    pub defenders: u8,
    /// The enemy's hand by kind index, each count capped at `HAND_COUNT_CAP`.
    pub hand: [u8; 8],
}

/// The counts behind `danger(pos, us, king)`.
pub(super) fn danger_counts(pos: &Position, us: Color, king: Square) -> DangerCounts {
    let them = !us;
    let around = attacks::king_attacks(king);
    let enemy = pos.pieces_of(them);
    let occ = pos.occupied().without(king);
    let mut counts = DangerCounts::default();
    let mut attacked = Bitboard::EMPTY;
    for sq in enemy {
        let kind = pos.piece_on(sq).kind();
        let hits = attacks::attacks(them, kind, sq, occ) & around;
        if hits.is_some() {
            counts.attackers[kind.index()] += 1;
            attacked |= hits;
        }
    }
    counts.attacked_squares = attacked.count() as u8;
    counts.zone_pieces = (enemy & ZONE[king.index()]).count() as u8;
    counts.empty = (around & !pos.occupied()).count() as u8;
    counts.defenders = (around & (pos.golds(us) | pos.pieces(us, PieceKind::Silver))).count() as u8;
    for k in PieceKind::HAND {
        counts.hand[k.index()] = pos.hand(them).count(k).min(HAND_COUNT_CAP) as u8;
    }
    counts
}

/// The penalty for `us`'s king; none for a side without a king.
#[inline]
pub fn penalty(pos: &Position, us: Color) -> Value {
    if !pos.has_king(us) {
        return 0;
    }
    let d = danger(pos, us, pos.king_square(us)).clamp(0, DANGER_MAX as i32);
    PENALTY[d as usize]
}

/// King safety balance, from Black's point of view.
#[inline]
pub fn king_safety(pos: &Position) -> Value {
    penalty(pos, Color::White) - penalty(pos, Color::Black)
}

/// Tests of the king-safety masks, penalty and attacker candidates.
#[cfg(test)]
mod tests {
    use super::*;

    /// The square of a USI name such as `5e`.
    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn masks_have_the_expected_sizes() {
        assert_eq!(ZONE[sq("5e").index()].count(), 24);
        assert_eq!(ZONE[sq("1a").index()].count(), 8);
        assert_eq!(NEAR[0][sq("5e").index()].count(), 30);
        assert!(NEAR[0][sq("5e").index()].contains(sq("4b")));
        assert!(NEAR[1][sq("5e").index()].contains(sq("4h")));
        assert_eq!(ROOK_REACH[sq("5e").index()].count(), 45);
        assert!(BISHOP_REACH[sq("5e").index()].contains(sq("1a")));
        assert!(BISHOP_REACH[sq("5e").index()].contains(sq("9b")));
        assert!(BISHOP_REACH[sq("5e").index()].contains(sq("9a")));
        assert!(!BISHOP_REACH[sq("5e").index()].contains(sq("9e")));
        assert!(!BISHOP_REACH[sq("5e").index()].contains(sq("5a")));
    }

    #[test]
    fn penalty_grows_with_danger() {
        assert_eq!(PENALTY[0], 0);
        assert!(PENALTY.windows(2).all(|w| w[0] <= w[1]));
        assert!(PENALTY[DANGER_MAX] > 1000);
    }

    #[test]
    fn every_attacker_of_the_kings_surroundings_is_a_candidate() {
        // Attack sets only shrink as the board fills, so checking on an empty board covers every
        // occupancy: each piece that can hit a square next to the king must pass the masks.
        for king in Square::all() {
            let around = attacks::king_attacks(king);
            for c in Color::ALL {
                for s in Square::all() {
                    for kind in PieceKind::ALL {
                        if (attacks::attacks(!c, kind, s, Bitboard::EMPTY) & around).is_empty() {
                            continue;
                        }
                        let reach = match kind {
                            PieceKind::Rook | PieceKind::Dragon | PieceKind::Lance => {
                                ROOK_REACH[king.index()]
                            }
                            PieceKind::Bishop | PieceKind::Horse => BISHOP_REACH[king.index()],
                            _ => Bitboard::EMPTY,
                        };
                        let near = NEAR[c.index()][king.index()];
                        assert!(near.contains(s) || reach.contains(s), "{kind:?} on {s} hits around {king}");
                    }
                }
            }
        }
    }
}
