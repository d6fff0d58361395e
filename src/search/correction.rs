//! Correction history: how far searches have found the static evaluation off, by pawn
//! structure, by hands and by the last move, added to later static evaluations of positions
//! that share them.
//!
//! An evaluation misjudges some kinds of position the same way again and again; a search that
//! ends far from its static evaluation (and whose bound says the difference is real) records
//! the difference, weighted by depth, under each of four keys of the position. Stockfish keeps
//! several such tables (pawns, minor pieces, continuation); here the pawns (which drops and
//! pushes change slowly), the hands (material that the board does not show, where shogi's
//! evaluations err most), the opponent's last move (a threat the evaluation may not see) and
//! that move paired with ours before it (an exchange or plan under way).

use super::params::{CORRECTION_BONUS_DIVISOR, CORRECTION_GRAIN, CORRECTION_LIMIT, CORRECTION_SIZE};
use super::value::Value;
use crate::shogi::Position;
use crate::types::{Color, Piece, PieceKind, Square};

/// Four tables, each per side to move with `CORRECTION_SIZE` entries in units of
/// 1/`CORRECTION_GRAIN` centipawn, keyed by: both sides' pawns; both hands; the opponent's last
/// move (the piece it put down and where); our previous move with that reply. A position's
/// correction is the sum of its entries.
pub struct CorrectionHistory {
    /// By both sides' pawn squares (`pawn_index`).
    pawns: Vec<i32>,
    /// By both hands (`hands_index`).
    hands: Vec<i32>,
    /// By the opponent's last move, one entry per (piece, destination) (`move_indices`).
    last_move: Vec<i32>,
    /// By our previous move and the opponent's reply to it, hashed (`move_indices`).
    move_pair: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        let table = || vec![0; 2 * CORRECTION_SIZE];
        CorrectionHistory { pawns: table(), hands: table(), last_move: table(), move_pair: table() }
    }
}

const _: () = assert!(Piece::COUNT * 81 <= CORRECTION_SIZE, "last-move entries must fit");

/// A 64-bit hash folded to a slot of the side to move's half of a table.
#[inline]
fn slot(pos: &Position, h: u64) -> usize {
    pos.side_to_move().index() * CORRECTION_SIZE + (h >> 40) as usize % CORRECTION_SIZE
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
    slot(pos, h)
}

/// Both hands, from the position's hash keys (the full key less the board's).
#[inline]
fn hands_index(pos: &Position) -> usize {
    slot(pos, (pos.key() ^ pos.board_key()).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// A (piece, destination) as one slot below `Piece::COUNT * 81`.
#[inline]
fn piece_square_slot(piece: Piece, to: Square) -> usize {
    piece.index() * 81 + to.index()
}

/// The opponent's last move as a (piece now on its destination, destination) slot below
/// `Piece::COUNT * 81`; `None` at the root or after a null move. The last-move table and the
/// move history's counter-moves are both keyed by it.
#[inline]
pub(super) fn last_move_slot(pos: &Position) -> Option<usize> {
    let reply = pos.last_move()?;
    Some(piece_square_slot(pos.piece_on(reply.to()), reply.to()))
}

/// The entries of the two move-keyed tables, worked out together because both start from the
/// opponent's last move:
/// - the last move's: the piece now on its destination, and the destination; every (piece,
///   square) has its own entry, unhashed;
/// - the pair's: our previous move (the piece that made it, its destination) with that reply,
///   hashed.
///
/// Neither exists at the root or after a null move; the pair also needs a move of ours before.
#[inline]
fn move_indices(pos: &Position) -> (Option<usize>, Option<usize>) {
    let Some(reply_slot) = last_move_slot(pos) else { return (None, None) };
    let last_move = pos.side_to_move().index() * CORRECTION_SIZE + reply_slot;
    let move_pair = pos.own_previous_move().map(|(own, own_piece)| {
        let own_slot = piece_square_slot(own_piece, own.to());
        // Distinct pairs stay distinct before hashing: every (piece, square) slot is below 4096.
        const _: () = assert!(Piece::COUNT * 81 <= 4096);
        slot(pos, ((own_slot * 4096 + reply_slot) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
    });
    (Some(last_move), move_pair)
}

impl CorrectionHistory {
    /// What to add to `pos`'s static evaluation.
    #[inline]
    pub fn correction(&self, pos: &Position) -> Value {
        let (last_move, move_pair) = move_indices(pos);
        let last = last_move.map_or(0, |i| self.last_move[i]);
        let pair = move_pair.map_or(0, |i| self.move_pair[i]);
        (self.pawns[pawn_index(pos)] + self.hands[hands_index(pos)] + last + pair) / CORRECTION_GRAIN
    }

    /// Records that a search of `depth` found `pos` worth `searched` where its (corrected)
    /// static evaluation said `static_eval`. Entries move towards the difference and stay
    /// within `CORRECTION_LIMIT` (the larger an entry, the less a bonus moves it further).
    pub fn update(&mut self, pos: &Position, depth: i32, searched: Value, static_eval: Value) {
        let limit = CORRECTION_LIMIT;
        let diff = searched - static_eval;
        let bonus = (diff * depth / CORRECTION_BONUS_DIVISOR).clamp(-limit / 4, limit / 4);
        let nudge = |entry: &mut i32| *entry += bonus - *entry * bonus.abs() / limit;
        nudge(&mut self.pawns[pawn_index(pos)]);
        nudge(&mut self.hands[hands_index(pos)]);
        let (last_move, move_pair) = move_indices(pos);
        if let Some(i) = last_move {
            nudge(&mut self.last_move[i]);
        }
        if let Some(i) = move_pair {
            nudge(&mut self.move_pair[i]);
        }
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
        // The same pawns with a silver in hand instead of on the board: the pawn table's share
        // carries over, the hands table's does not.
        let silver_in_hand =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LN1GKGSNL b S 1").unwrap();
        let shared = c.correction(&silver_in_hand);
        assert!(shared > 0 && shared < first, "{shared} against {first}");
        for _ in 0..1000 {
            c.update(&pos, 20, 30_000, 0);
        }
        let bound = 4 * CORRECTION_LIMIT / CORRECTION_GRAIN;
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

    #[test]
    fn the_move_pair_entry_belongs_to_our_move_and_the_reply_together() {
        let after = |moves: &str| {
            let args: Vec<&str> = ["startpos", "moves"].into_iter().chain(moves.split(' ')).collect();
            Position::from_usi_args(&args).unwrap()
        };
        // One move played: no move of ours before the opponent's last, so no pair.
        assert!(move_indices(&after("7g7f")).1.is_none());
        let learnt = after("7g7f 3c3d");
        assert!(move_indices(&learnt).1.is_some());
        let mut c = CorrectionHistory::default();
        c.update(&learnt, 8, 100, 0);
        // The same reply to another move of ours, with other pawns: only the hands and the
        // last-move entries carry over, not the pair's (nor the pawns').
        let other = after("2g2f 3c3d");
        assert_ne!(move_indices(&other).1, move_indices(&learnt).1);
        let shared = c.correction(&other);
        assert!(shared > 0 && shared < c.correction(&learnt), "{shared} against {}", c.correction(&learnt));
    }
}
