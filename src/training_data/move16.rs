//! YaneuraOu's 16-bit move encoding, as the training records store the best move.
//!
//! ```text
//! bits 0..6: to square   bits 7..13: from square, or the dropped kind   bit 14: drop   bit 15: promote
//! ```
//!
//! Squares are numbered as `Square::index` numbers them (`file * 9 + rank`, `1a` = 0) and the
//! dropped kinds as `PieceKind` does (pawn 1, lance 2, knight 3, silver 4, bishop 5, rook 6,
//! gold 7), so the only difference from `types::Move` is that the drop and promotion flags trade
//! places. 0 is "no move"; a few values with from equal to to are YaneuraOu's special moves
//! (null, resign, win) and decode to no move here.

use crate::types::{Move, PieceKind, Square};
use crate::Position;
use std::fmt;

/// The drop flag (bit 14, where `types::Move` has its promotion flag).
const DROP: u16 = 1 << 14;
/// The promotion flag (bit 15, where `types::Move` has its drop flag).
const PROMOTE: u16 = 1 << 15;

/// Why 16 bits are not a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move16Error(pub u16);

impl fmt::Display for Move16Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x{:04x} is not a move in YaneuraOu's 16-bit encoding", self.0)
    }
}

impl std::error::Error for Move16Error {}

/// The 16-bit encoding of `m` (`Move::NONE` encodes as 0).
pub fn encode(m: Move) -> u16 {
    if m.is_none() {
        return 0;
    }
    let to = m.to().index() as u16;
    if m.is_drop() {
        to | (m.dropped_kind() as u16) << 7 | DROP
    } else {
        to | (m.from().index() as u16) << 7 | if m.is_promotion() { PROMOTE } else { 0 }
    }
}

/// The move `v` encodes, checked for form only: squares on the board, from differing from to,
/// a droppable kind, no promoting drop. Whether it is legal somewhere is `decode_legal`'s
/// question.
pub fn decode(v: u16) -> Result<Move, Move16Error> {
    let err = Move16Error(v);
    let to = Square::from_index((v & 0x7f) as usize).ok_or(err)?;
    let middle = ((v >> 7) & 0x7f) as u8;
    if v & DROP != 0 {
        let kind = PieceKind::from_u8(middle).filter(|k| v & PROMOTE == 0 && *k <= PieceKind::Gold);
        return kind.map(|k| Move::drop(k, to)).ok_or(err);
    }
    let from = Square::from_index(middle as usize).filter(|&f| f != to).ok_or(err)?;
    Ok(Move::board(from, to, v & PROMOTE != 0))
}

/// The move `v` encodes, if it is legal in `pos`.
pub fn decode_legal(pos: &Position, v: u16) -> Option<Move> {
    decode(v).ok().filter(|&m| pos.is_legal(m))
}

/// Tests of the 16-bit move decoding.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_and_malformed_values_are_no_moves() {
        // None, YaneuraOu's null (1b1b), resign and win, a square past 9i, a king drop, a
        // promoting drop.
        for v in [0, 129, 258, 387, 81, 8 << 7 | 40 | DROP, 1 << 7 | 40 | DROP | PROMOTE] {
            assert!(decode(v).is_err(), "{v:#x}");
        }
    }
}
