//! A set of squares as the low 81 bits of a `u128`, indexed as `Square::index()`.

use super::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares: bit `i` of the low 81 bits is the square of index `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

/// All 81 squares.
const FULL: u128 = (1u128 << 81) - 1;

/// The bit of each square index (and 0 past the board). Reading it is cheaper than shifting a
/// `u128` by a variable amount, which takes several instructions and a branch on x86-64.
const SQUARE_BIT: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const FULL: Bitboard = Bitboard(FULL);

    /// The set of the one square `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(SQUARE_BIT[sq.index()])
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & SQUARE_BIT[sq.index()] != 0
    }

    /// Whether no square is set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether any square is set (the opposite of `is_empty`, read more easily in conditions).
    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0
    }

    /// How many squares are set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square; the set must not be empty.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        Square::from_index_unchecked(self.0.trailing_zeros() as usize)
    }

    /// Removes and returns the lowest square; the set must not be empty.
    #[inline(always)]
    pub fn pop(&mut self) -> Square {
        let sq = self.lsb();
        self.0 &= self.0.wrapping_sub(1);
        sq
    }

    /// The set with `sq` added; usable in `const` contexts, unlike `|`.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | SQUARE_BIT[sq.index()])
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !SQUARE_BIT[sq.index()])
    }

    /// The squares of `self` that are not in `o`.
    #[inline(always)]
    pub const fn and_not(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & !o.0)
    }

    /// Shifts every square one rank toward rank `a` (Black's forward direction).
    /// Only valid for sets with nothing on rank `a`.
    #[inline(always)]
    pub const fn shift_up(self) -> Bitboard {
        Bitboard(self.0 >> 1)
    }

    /// Shifts every square one rank toward rank `i` (White's forward direction).
    /// Only valid for sets with nothing on rank `i`.
    #[inline(always)]
    pub const fn shift_down(self) -> Bitboard {
        Bitboard(self.0 << 1)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(self.pop())
        }
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitand(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & o.0)
    }
}
impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 | o.0)
    }
}
impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitxor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ o.0)
    }
}
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & FULL)
    }
}
impl BitAndAssign for Bitboard {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Bitboard) {
        self.0 &= o.0
    }
}
impl BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Bitboard) {
        self.0 |= o.0
    }
}
impl BitXorAssign for Bitboard {
    #[inline(always)]
    fn bitxor_assign(&mut self, o: Bitboard) {
        self.0 ^= o.0
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in 0..9 {
            for file in (0..9).rev() {
                let on = self.contains(Square::new(file, rank));
                write!(f, "{}", if on { 'x' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
