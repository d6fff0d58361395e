//! Material: a value per kind on the board and a separate, higher value per kind in hand. The
//! position keeps the sum over both sides move by move (`Position::material`), so the values
//! live here with the rules rather than in the evaluation above them. They are part of the
//! evaluation's tuned numbers all the same (`eval::params` names them too, and
//! `shomei-train texel` writes their declarations with the others).

use crate::types::{PieceKind, Value};

// ---- material on the board ----

/// The unit: the weakest piece, and the one every side has most of.
pub const PAWN: Value = 82;
/// Slides forward only; strong on an open file, stuck once blocked.
pub const LANCE: Value = 272;
/// Jumps forward only and can never retreat, so it is often lost when it advances.
pub const KNIGHT: Value = 326;
/// Attacks well (retreats diagonally) but leaves holes beside itself.
pub const SILVER: Value = 514;
/// The best defender next to a king; cannot retreat diagonally.
pub const GOLD: Value = 571;
/// Long diagonal range, but covers only half the board's squares.
pub const BISHOP: Value = 807;
/// The strongest unpromoted piece: ranks and files.
pub const ROOK: Value = 982;
/// A tokin moves like a gold, and when captured the opponent only gets a pawn back.
pub const PRO_PAWN: Value = 503;
/// Promoted lance, knight and silver all move like a gold.
pub const PRO_LANCE: Value = 478;
/// Promoted knight: as a gold (see `PRO_LANCE`).
pub const PRO_KNIGHT: Value = 484;
/// Promoted silver: as a gold (see `PRO_LANCE`).
pub const PRO_SILVER: Value = 479;
/// A bishop that can also step one square orthogonally: a strong defender and attacker.
pub const HORSE: Value = 1005;
/// A rook that can also step diagonally: usually decisive near the enemy king.
pub const DRAGON: Value = 1426;

// ---- material in hand ----
// A piece in hand can be dropped on almost any empty square, so it is worth more than the same
// piece committed to one square. Small pieces gain the most: their value on the board depends on
// where they stand, and drops of them (pawn taps, knight forks, silver and gold drops next to the
// king) are the typical attacking and defending moves.

/// A pawn in hand can tap a piece, block a check or start an attack anywhere.
pub const HAND_PAWN: Value = 109;
/// A lance dropped on a file is at full range at once.
pub const HAND_LANCE: Value = 420;
/// A dropped knight can fork, and can be placed where it is safe from pawns.
pub const HAND_KNIGHT: Value = 461;
/// A dropped silver defends or attacks diagonally as well as straight ahead.
pub const HAND_SILVER: Value = 624;
/// Gold drops are the standard mating and defending move.
pub const HAND_GOLD: Value = 686;
/// Majors gain less relative to their size: they already reach far from wherever they stand.
pub const HAND_BISHOP: Value = 917;
/// A dropped rook reaches a whole rank and file behind the enemy's lines at once.
pub const HAND_ROOK: Value = 1097;

/// Board values by `PieceKind::index()`; the king has none (it is never captured).
const BOARD: [Value; 15] = [
    0, PAWN, LANCE, KNIGHT, SILVER, BISHOP, ROOK, GOLD, 0, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER,
    HORSE, DRAGON,
];

/// Hand values by `PieceKind::index()` of the unpromoted kind.
const HAND: [Value; 15] = [
    0,
    HAND_PAWN,
    HAND_LANCE,
    HAND_KNIGHT,
    HAND_SILVER,
    HAND_BISHOP,
    HAND_ROOK,
    HAND_GOLD,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
];

/// Value of a piece of `kind` standing on the board (0 for the king).
#[inline(always)]
pub const fn piece_value(kind: PieceKind) -> Value {
    BOARD[kind.index()]
}

/// Value of the piece a capture of `kind` puts into the capturer's hand: promoted kinds are held
/// unpromoted (0 for the king).
#[inline(always)]
pub const fn hand_value(kind: PieceKind) -> Value {
    HAND[kind.unpromoted().index()]
}

/// Tests of the material values: promoting and holding never lose value.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promoting_and_holding_never_lose_value() {
        for k in PieceKind::HAND {
            assert!(hand_value(k) >= piece_value(k), "{k:?}");
            // The silver trades its backward diagonals for a gold's steps: the Texel fit values
            // a promoted silver a little below a silver (see params.rs), so no order there.
            if k.can_promote() && k != PieceKind::Silver {
                assert!(piece_value(k.promoted()) > piece_value(k), "{k:?}");
            }
            if k.can_promote() {
                assert_eq!(hand_value(k.promoted()), hand_value(k));
            }
        }
        assert_eq!(piece_value(PieceKind::King), 0);
        assert_eq!(hand_value(PieceKind::King), 0);
    }
}
