//! A move in 16 bits: a board move with optional promotion, or a drop.
//!
//! ```text
//! bit 15: drop   bit 14: promote   bits 7..13: from square, or the dropped kind   bits 0..6: to square
//! ```

use super::{PieceKind, Square};
use std::fmt;

/// A move packed in 16 bits (layout above); `Move::NONE` is the only invalid value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

/// The promotion flag (bit 14).
const PROMOTE: u16 = 1 << 14;
/// The drop flag (bit 15).
const DROP: u16 = 1 << 15;

impl Move {
    /// No move; never legal (from == to == 1a).
    pub const NONE: Move = Move(0);

    /// A board move from `from` to `to` without promotion.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(to.index() as u16 | ((from.index() as u16) << 7))
    }

    /// A board move from `from` to `to` that promotes.
    #[inline(always)]
    pub const fn promoting(from: Square, to: Square) -> Move {
        Move(to.index() as u16 | ((from.index() as u16) << 7) | PROMOTE)
    }

    /// A board move from `from` to `to`, promoting when `promote` is set.
    #[inline(always)]
    pub const fn board(from: Square, to: Square, promote: bool) -> Move {
        Move(to.index() as u16 | ((from.index() as u16) << 7) | if promote { PROMOTE } else { 0 })
    }

    /// A drop of a piece of kind `kind` (from the hand) on `to`.
    #[inline(always)]
    pub const fn drop(kind: PieceKind, to: Square) -> Move {
        Move(to.index() as u16 | ((kind as u16) << 7) | DROP)
    }

    /// The raw 16-bit value (for hashing tables).
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// The move whose raw value is `v` (as `raw` gave it), for tables that store moves.
    #[inline(always)]
    pub const fn from_raw(v: u16) -> Move {
        Move(v)
    }

    /// Whether this is `Move::NONE`.
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// Destination square, of board moves and drops.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 & 0x7f) as usize)
    }

    /// Origin square of a board move; meaningless for drops.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked(((self.0 >> 7) & 0x7f) as usize)
    }

    /// Whether the move drops a piece from the hand.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.0 & DROP != 0
    }

    /// Whether the move promotes the moving piece.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTE != 0
    }

    /// The dropped kind of a drop move.
    #[inline(always)]
    pub const fn dropped_kind(self) -> PieceKind {
        match PieceKind::from_u8(((self.0 >> 7) & 0x7f) as u8) {
            Some(k) => k,
            None => PieceKind::Pawn,
        }
    }

    /// Parses USI move syntax (`7g7f`, `8h2b+`, `P*5e`) without checking it against a position.
    pub fn parse_usi(s: &str) -> Option<Move> {
        let b = s.as_bytes();
        if b.len() == 4 && b[1] == b'*' {
            let kind = PieceKind::from_letter(b[0] as char)?;
            if !b[0].is_ascii_uppercase() || matches!(kind, PieceKind::King) {
                return None;
            }
            let to = Square::parse(&s[2..4])?;
            return Some(Move::drop(kind, to));
        }
        let promote = match b.len() {
            4 => false,
            5 if b[4] == b'+' => true,
            _ => return None,
        };
        let from = Square::parse(s.get(0..2)?)?;
        let to = Square::parse(s.get(2..4)?)?;
        if from == to {
            return None;
        }
        Some(Move::board(from, to, promote))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return write!(f, "none");
        }
        if self.is_drop() {
            write!(f, "{}*{}", self.dropped_kind().base_letter(), self.to())
        } else {
            write!(f, "{}{}{}", self.from(), self.to(), if self.is_promotion() { "+" } else { "" })
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
