//! Squares of the 9x9 board, named as USI names them (`1a`..`9i`).
//!
//! Index layout: `file * 9 + rank`, file 0 = USI file 1 (Black's right), rank 0 = rank `a` (White's side).
//! Each file is a run of nine consecutive bits, so vertical moves are +-1 and lance rays are contiguous.

use super::Color;
use std::fmt;

/// A board square, 0..81.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Where a side without a king (a composed problem) keeps its king square: index 81, off the
    /// board, whose attack-table entries are all empty.
    pub const NO_KING: Square = Square(81);

    /// The square on `file` (0..9, USI file minus one) and `rank` (0..9, `a` = 0).
    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 9 && rank < 9);
        Square(file * 9 + rank)
    }

    /// The square with raw index `i`, if it is on the board.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < 81 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Raw index without a range check; callers guarantee `i < 81`.
    #[inline(always)]
    pub const fn from_index_unchecked(i: usize) -> Square {
        Square(i as u8)
    }

    /// The index `file * 9 + rank`, 0..81, for tables laid out per square.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (USI file minus one).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 / 9
    }

    /// Rank 0..9 (`a` = 0).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 % 9
    }

    /// Rank counted from `c`'s own side: 0 is the far rank `c` moves toward (its last rank).
    #[inline(always)]
    pub const fn relative_rank(self, c: Color) -> u8 {
        match c {
            Color::Black => self.rank(),
            Color::White => 8 - self.rank(),
        }
    }

    /// Whether this square is in the promotion zone (the far three ranks) of `c`.
    #[inline(always)]
    pub const fn in_zone(self, c: Color) -> bool {
        self.relative_rank(c) < 3
    }

    /// The square seen from the other side of the board (rotated 180 degrees).
    #[inline(always)]
    pub const fn flip(self) -> Square {
        Square(80 - self.0)
    }

    /// Parses a USI square name such as `7g`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'1');
        let rank = b[1].wrapping_sub(b'a');
        if file < 9 && rank < 9 {
            Some(Square::new(file, rank))
        } else {
            None
        }
    }

    /// Iterates over all 81 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'1' + self.file()) as char, (b'a' + self.rank()) as char)
    }
}
