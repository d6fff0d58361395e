//! Pieces in hand, packed into one `u32`.
//!
//! ```text
//!  bit: 31   28 27   24 23   20 19   16 15   12 11    8 7     0
//!       | rook | bish |  gold | silv |  kni |  lan | pawn     |
//! ```
//! Each field has spare high bits, so a count never carries into its neighbour.

use super::PieceKind;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Hand(u32);

impl Hand {
    pub const EMPTY: Hand = Hand(0);

    #[inline(always)]
    const fn shift(k: PieceKind) -> u32 {
        match k {
            PieceKind::Pawn => 0,
            PieceKind::Lance => 8,
            PieceKind::Knight => 12,
            PieceKind::Silver => 16,
            PieceKind::Gold => 20,
            PieceKind::Bishop => 24,
            PieceKind::Rook => 28,
            _ => 0,
        }
    }

    #[inline(always)]
    const fn mask(k: PieceKind) -> u32 {
        match k {
            PieceKind::Pawn => 0x1f,
            _ => 0x7,
        }
    }

    /// How many pieces of kind `k` (an unpromoted, non-king kind) the hand holds.
    #[inline(always)]
    pub const fn count(self, k: PieceKind) -> u32 {
        (self.0 >> Hand::shift(k)) & Hand::mask(k)
    }

    #[inline(always)]
    pub const fn has(self, k: PieceKind) -> bool {
        self.count(k) != 0
    }

    #[inline(always)]
    pub fn add(&mut self, k: PieceKind) {
        self.0 += 1 << Hand::shift(k);
    }

    #[inline(always)]
    pub fn remove(&mut self, k: PieceKind) {
        debug_assert!(self.has(k));
        self.0 -= 1 << Hand::shift(k);
    }

    /// Sets the count of kind `k`; counts beyond the field's range are the caller's error.
    pub fn set(&mut self, k: PieceKind, n: u32) {
        self.0 = (self.0 & !(Hand::mask(k) << Hand::shift(k))) | ((n & Hand::mask(k)) << Hand::shift(k));
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the hand holds anything other than pawns.
    #[inline(always)]
    pub const fn has_non_pawn(self) -> bool {
        self.0 & !0x1f != 0
    }

    /// Whether this hand holds at least as many of every kind as `other`.
    pub fn covers(self, other: Hand) -> bool {
        PieceKind::HAND.iter().all(|&k| self.count(k) >= other.count(k))
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k)).sum()
    }
}
