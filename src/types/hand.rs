//! Pieces in hand, packed into one `u32`.
//!
//! ```text
//! bit: 29  26 | 25  22 | 21  18 | 17  14 | 13  10 | 9   6 | 5    0
//!      rook   | bishop | gold   | silver | knight | lance | pawn
//! ```
//! Every field has one guard bit above it (pawn: 5 bits + guard, the others 3 bits + guard), so
//! "holds at least as many of every kind" ([`Hand::covers`]) is a single subtraction. The guard
//! bits are zero in every hand a position holds.

use super::PieceKind;

/// One side's pieces in hand, a count per kind packed into a `u32` (layout above).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Hand(u32);

/// The guard bit above each field.
const GUARDS: u32 = (1 << 5) | (1 << 9) | (1 << 13) | (1 << 17) | (1 << 21) | (1 << 25) | (1 << 29);

impl Hand {
    /// Nothing in hand.
    pub const EMPTY: Hand = Hand(0);

    /// Where `k`'s count starts in the packed word (0 for a kind never in hand).
    #[inline(always)]
    const fn shift(k: PieceKind) -> u32 {
        match k {
            PieceKind::Pawn => 0,
            PieceKind::Lance => 6,
            PieceKind::Knight => 10,
            PieceKind::Silver => 14,
            PieceKind::Gold => 18,
            PieceKind::Bishop => 22,
            PieceKind::Rook => 26,
            _ => 0,
        }
    }

    /// The bits of `k`'s count field, unshifted: 5 for pawns, 3 for the others.
    #[inline(always)]
    const fn mask(k: PieceKind) -> u32 {
        match k {
            PieceKind::Pawn => 0x1f,
            _ => 0x7,
        }
    }

    /// The largest count a field holds.
    #[inline(always)]
    pub const fn max_count(k: PieceKind) -> u32 {
        Hand::mask(k)
    }

    /// Every field at its maximum: the disproof hand "any hand at all".
    pub fn full() -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h.set(k, Hand::max_count(k));
        }
        h
    }

    /// How many pieces of kind `k` (an unpromoted, non-king kind) the hand holds.
    #[inline(always)]
    pub const fn count(self, k: PieceKind) -> u32 {
        (self.0 >> Hand::shift(k)) & Hand::mask(k)
    }

    /// Whether the hand holds at least one piece of kind `k`.
    #[inline(always)]
    pub const fn has(self, k: PieceKind) -> bool {
        self.count(k) != 0
    }

    /// One more of kind `k` (a capture); the field must not be full.
    #[inline(always)]
    pub fn add(&mut self, k: PieceKind) {
        self.0 += 1 << Hand::shift(k);
    }

    /// One fewer of kind `k` (a drop); the hand must hold one.
    #[inline(always)]
    pub fn remove(&mut self, k: PieceKind) {
        debug_assert!(self.has(k));
        self.0 -= 1 << Hand::shift(k);
    }

    /// Sets the count of kind `k`, saturating at the field's maximum.
    #[inline(always)]
    pub fn set(&mut self, k: PieceKind, n: u32) {
        let s = Hand::shift(k);
        self.0 = (self.0 & !(Hand::mask(k) << s)) | (n.min(Hand::mask(k)) << s);
    }

    /// One more of `k`, saturating at the field's maximum.
    #[inline]
    pub fn plus(self, k: PieceKind) -> Hand {
        let mut h = self;
        h.set(k, self.count(k) + 1);
        h
    }

    /// One fewer of `k`, not below zero.
    #[inline]
    pub fn minus(self, k: PieceKind) -> Hand {
        let mut h = self;
        h.set(k, self.count(k).saturating_sub(1));
        h
    }

    /// Whether the hand holds nothing.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the hand holds a silver, gold, bishop or rook: a piece that may be dropped on any
    /// empty square (so it can always be put between a king and a checker).
    #[inline(always)]
    pub const fn has_any_square_piece(self) -> bool {
        self.has(PieceKind::Silver)
            || self.has(PieceKind::Gold)
            || self.has(PieceKind::Bishop)
            || self.has(PieceKind::Rook)
    }

    /// Whether the hand holds anything other than pawns.
    #[inline(always)]
    pub const fn has_non_pawn(self) -> bool {
        self.0 & !0x1f != 0
    }

    /// Whether this hand holds at least as many of every kind as `o`.
    #[inline(always)]
    pub const fn covers(self, o: Hand) -> bool {
        ((self.0 | GUARDS).wrapping_sub(o.0) & GUARDS) == GUARDS
    }

    /// The larger count of every kind.
    #[inline]
    pub fn max(self, o: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h.set(k, self.count(k).max(o.count(k)));
        }
        h
    }

    /// The smaller count of every kind.
    #[inline]
    pub fn min(self, o: Hand) -> Hand {
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h.set(k, self.count(k).min(o.count(k)));
        }
        h
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k)).sum()
    }

    /// The counts without the guard bits, in 23 bits (for tables that pack a hand with other data).
    #[inline(always)]
    pub const fn pack(self) -> u32 {
        let v = self.0;
        (v & 0x1f)
            | ((v >> 1) & (0x7 << 5))
            | ((v >> 2) & (0x7 << 8))
            | ((v >> 3) & (0x7 << 11))
            | ((v >> 4) & (0x7 << 14))
            | ((v >> 5) & (0x7 << 17))
            | ((v >> 6) & (0x7 << 20))
    }

    /// The inverse of [`Hand::pack`].
    #[inline(always)]
    pub const fn unpack(p: u32) -> Hand {
        Hand(
            (p & 0x1f)
                | ((p & (0x7 << 5)) << 1)
                | ((p & (0x7 << 8)) << 2)
                | ((p & (0x7 << 11)) << 3)
                | ((p & (0x7 << 14)) << 4)
                | ((p & (0x7 << 17)) << 5)
                | ((p & (0x7 << 20)) << 6),
        )
    }
}

/// Tests of the packed hand.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covers_is_per_kind_at_least() {
        let mut a = Hand::EMPTY;
        a.set(PieceKind::Pawn, 18);
        a.set(PieceKind::Gold, 2);
        let mut b = Hand::EMPTY;
        b.set(PieceKind::Pawn, 17);
        b.set(PieceKind::Gold, 2);
        assert!(a.covers(b) && !b.covers(a));
        b.set(PieceKind::Rook, 1);
        assert!(!a.covers(b) && !b.covers(a));
        assert!(a.covers(Hand::EMPTY) && Hand::full().covers(a));
        assert_eq!(a.max(b).count(PieceKind::Rook), 1);
        assert_eq!(a.min(b).count(PieceKind::Pawn), 17);
        assert_eq!(b.plus(PieceKind::Rook).count(PieceKind::Rook), 2);
        assert_eq!(Hand::EMPTY.minus(PieceKind::Rook), Hand::EMPTY);
        for h in [a, b, Hand::full(), Hand::EMPTY] {
            assert_eq!(Hand::unpack(h.pack()), h);
            assert!(h.pack() < 1 << 23);
        }
        for k in PieceKind::HAND {
            let mut x = Hand::full();
            x.set(k, 0);
            assert!(!x.covers(Hand::full()));
            assert!(Hand::full().covers(x));
        }
    }
}
