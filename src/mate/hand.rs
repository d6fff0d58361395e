//! The attacker's hand packed for fast comparison, and the proof/disproof-hand arithmetic.
//!
//! ```text
//! bit: 29  26 | 25  22 | 21  18 | 17  14 | 13  10 | 9   6 | 5    0
//!      rook   | bishop | gold   | silver | knight | lance | pawn
//! ```
//! Every field has one guard bit above it (pawn: 5 bits + guard, the others 3 bits + guard), so
//! "holds at least as many of every kind" is a single subtraction.

use crate::types::{Hand, PieceKind};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PHand(pub u32);

const GUARDS: u32 = (1 << 5) | (1 << 9) | (1 << 13) | (1 << 17) | (1 << 21) | (1 << 25) | (1 << 29);

impl PHand {
    pub const EMPTY: PHand = PHand(0);

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
        PHand::mask(k)
    }

    /// Every field at its maximum: the disproof hand "any hand at all".
    pub fn full() -> PHand {
        let mut h = PHand::EMPTY;
        for k in PieceKind::HAND {
            h.set(k, PHand::max_count(k));
        }
        h
    }

    #[inline]
    pub fn from_hand(h: Hand) -> PHand {
        let mut v = 0;
        for k in PieceKind::HAND {
            v |= h.count(k).min(PHand::mask(k)) << PHand::shift(k);
        }
        PHand(v)
    }

    #[inline(always)]
    pub const fn count(self, k: PieceKind) -> u32 {
        (self.0 >> PHand::shift(k)) & PHand::mask(k)
    }

    #[inline(always)]
    pub fn set(&mut self, k: PieceKind, n: u32) {
        let s = PHand::shift(k);
        self.0 = (self.0 & !(PHand::mask(k) << s)) | (n.min(PHand::mask(k)) << s);
    }

    /// One more of `k`, saturating at the field's maximum.
    #[inline]
    pub fn plus(self, k: PieceKind) -> PHand {
        let mut h = self;
        h.set(k, self.count(k) + 1);
        h
    }

    /// One fewer of `k`, not below zero.
    #[inline]
    pub fn minus(self, k: PieceKind) -> PHand {
        let mut h = self;
        h.set(k, self.count(k).saturating_sub(1));
        h
    }

    /// The counts without the guard bits, in 23 bits (for the table).
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

    /// The inverse of `pack`.
    #[inline(always)]
    pub const fn unpack(p: u32) -> PHand {
        PHand(
            (p & 0x1f)
                | ((p & (0x7 << 5)) << 1)
                | ((p & (0x7 << 8)) << 2)
                | ((p & (0x7 << 11)) << 3)
                | ((p & (0x7 << 14)) << 4)
                | ((p & (0x7 << 17)) << 5)
                | ((p & (0x7 << 20)) << 6),
        )
    }

    /// Whether this hand holds at least as many of every kind as `o`.
    #[inline(always)]
    pub const fn covers(self, o: PHand) -> bool {
        ((self.0 | GUARDS).wrapping_sub(o.0) & GUARDS) == GUARDS
    }

    /// The larger count of every kind.
    #[inline]
    pub fn max(self, o: PHand) -> PHand {
        let mut h = PHand::EMPTY;
        for k in PieceKind::HAND {
            h.set(k, self.count(k).max(o.count(k)));
        }
        h
    }

    /// The smaller count of every kind.
    #[inline]
    pub fn min(self, o: PHand) -> PHand {
        let mut h = PHand::EMPTY;
        for k in PieceKind::HAND {
            h.set(k, self.count(k).min(o.count(k)));
        }
        h
    }
}

impl std::fmt::Display for PHand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut any = false;
        for k in PieceKind::HAND_SFEN_ORDER {
            let n = self.count(k);
            if n > 0 {
                any = true;
                if n > 1 {
                    write!(f, "{n}")?;
                }
                write!(f, "{}", k.base_letter())?;
            }
        }
        if !any {
            write!(f, "-")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covers_is_per_kind_at_least() {
        let mut a = PHand::EMPTY;
        a.set(PieceKind::Pawn, 18);
        a.set(PieceKind::Gold, 2);
        let mut b = PHand::EMPTY;
        b.set(PieceKind::Pawn, 17);
        b.set(PieceKind::Gold, 2);
        assert!(a.covers(b) && !b.covers(a));
        b.set(PieceKind::Rook, 1);
        assert!(!a.covers(b) && !b.covers(a));
        assert!(a.covers(PHand::EMPTY) && PHand::full().covers(a));
        assert_eq!(a.max(b).count(PieceKind::Rook), 1);
        assert_eq!(a.min(b).count(PieceKind::Pawn), 17);
        assert_eq!(b.plus(PieceKind::Rook).count(PieceKind::Rook), 2);
        assert_eq!(PHand::EMPTY.minus(PieceKind::Rook), PHand::EMPTY);
        for h in [a, b, PHand::full(), PHand::EMPTY] {
            assert_eq!(PHand::unpack(h.pack()), h);
            assert!(h.pack() < 1 << 23);
        }
        for k in PieceKind::HAND {
            let mut x = PHand::full();
            x.set(k, 0);
            assert!(!x.covers(PHand::full()));
            assert!(PHand::full().covers(x));
        }
    }
}
