//! The two sides. Black (sente) moves first and plays up the board toward rank a.

use std::ops::Not;

/// A side: Black (sente, upper case in SFEN) or White (gote, lower case).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Sente: moves first, upper case in SFEN, plays toward rank `a`.
    Black = 0,
    /// Gote: moves second, lower case in SFEN, plays toward rank `i`.
    White = 1,
}

impl Color {
    /// Both sides, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// Index for tables laid out per colour.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The SFEN side-to-move letter.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }

    /// The other side; `!c` says the same.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}
