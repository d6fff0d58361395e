//! Correction history: how far searches have found the static evaluation off, by pawn
//! structure, added to later static evaluations of positions with the same pawns.
//!
//! An evaluation misjudges some kinds of position the same way again and again; a search that
//! ends far from its static evaluation (and whose bound says the difference is real) records
//! the difference, weighted by depth, for the side to move and both sides' pawns. Stockfish
//! keeps several such tables (pawns, minor pieces, continuation); shogi's pawn files, which
//! drops and pawn pushes change slowly, are the most stable key here.

use super::params::{CORRECTION_BONUS_DIVISOR, CORRECTION_GRAIN, CORRECTION_LIMIT, CORRECTION_SIZE};
use super::value::Value;
use crate::shogi::Position;
use crate::types::{Color, PieceKind};

/// Per side to move, `CORRECTION_SIZE` entries in units of 1/`CORRECTION_GRAIN` centipawn.
pub struct CorrectionHistory {
    table: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory { table: vec![0; 2 * CORRECTION_SIZE] }
    }
}

/// Both sides' pawn squares, hashed to a table index.
#[inline]
fn pawn_index(pos: &Position) -> usize {
    let fold = |c: Color| {
        let b = pos.pieces(c, PieceKind::Pawn).0;
        (b as u64) ^ ((b >> 64) as u64).rotate_left(23)
    };
    let h = fold(Color::Black).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ fold(Color::White).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    let slot = (h >> 40) as usize % CORRECTION_SIZE;
    pos.side_to_move().index() * CORRECTION_SIZE + slot
}

impl CorrectionHistory {
    /// What to add to `pos`'s static evaluation.
    #[inline]
    pub fn correction(&self, pos: &Position) -> Value {
        self.table[pawn_index(pos)] / CORRECTION_GRAIN
    }

    /// Records that a search of `depth` found `pos` worth `searched` where its (corrected)
    /// static evaluation said `static_eval`. Entries move towards the difference and stay
    /// within `CORRECTION_LIMIT` (the larger an entry, the less a bonus moves it further).
    pub fn update(&mut self, pos: &Position, depth: i32, searched: Value, static_eval: Value) {
        let limit = CORRECTION_LIMIT;
        let diff = searched - static_eval;
        let bonus = (diff * depth / CORRECTION_BONUS_DIVISOR).clamp(-limit / 4, limit / 4);
        let entry = &mut self.table[pawn_index(pos)];
        *entry += bonus - *entry * bonus.abs() / limit;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_searches_and_stay_bounded() {
        let pos = Position::startpos();
        let mut c = CorrectionHistory::default();
        assert_eq!(c.correction(&pos), 0);
        c.update(&pos, 8, 100, 0);
        let first = c.correction(&pos);
        assert!(first > 0, "a search above the evaluation raises it: {first}");
        for _ in 0..1000 {
            c.update(&pos, 20, 30_000, 0);
        }
        let bound = CORRECTION_LIMIT / CORRECTION_GRAIN;
        assert!(c.correction(&pos) <= bound && c.correction(&pos) > first);
        for _ in 0..1000 {
            c.update(&pos, 20, -30_000, 0);
        }
        assert!(c.correction(&pos) >= -bound && c.correction(&pos) < 0);
        // The other side to move has its own entry.
        let white =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1").unwrap();
        assert_eq!(c.correction(&white), 0);
    }
}
