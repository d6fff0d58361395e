//! A position in 32 bytes: the bit-packed form YaneuraOu calls `PackedSfen`, which its trainers
//! (and those of projects that read its data) expect.
//!
//! # The format
//!
//! The 32 bytes are a stream of 256 bits. Bit `i` of the stream is bit `i % 8` (counting from
//! the least significant) of byte `i / 8`, and a field of several bits is written from its least
//! significant bit on. In order:
//!
//! 1. the side to move, 1 bit: 0 Black, 1 White;
//! 2. Black's king square, then White's, 7 bits each: `file * 9 + rank`, file 0 being USI file
//!    1 and rank 0 rank `a` (`1a` is 0, `1b` is 1, `2a` is 9, `9i` is 80), as `Square::index`;
//! 3. the 81 squares in that index order, the two king squares left out, each as a code below;
//! 4. the pieces in hand, Black's then White's, each kind in the order pawn, lance, knight,
//!    silver, gold, bishop, rook, one code per piece held;
//! 5. the pieces that are neither on the board nor in a hand (a "piece box", for handicap and
//!    endgame positions), in the same kind order, until the 256 bits are full.
//!
//! Codes are a prefix code over the kind, then a promotion bit (absent for golds), then a colour
//! bit (0 Black, 1 White). The hand code of each kind, bits in stream order:
//!
//! ```text
//! pawn 0    lance 100    knight 101    silver 110    gold 1110    bishop 11110    rook 11111
//! ```
//!
//! - A board square: an empty square is the single bit `0`; an occupied one is `1`, the hand
//!   code of its unpromoted kind, the promotion bit, the colour bit (a white dragon:
//!   `1 11111 1 1`).
//! - A piece in hand: the hand code, a promotion bit of 0, the colour bit (a gold: the hand
//!   code and the colour bit only).
//! - A piece in the box: the hand code, a promotion bit of 1, a colour bit of 0. A gold has no
//!   promotion bit, so a gold in the box is written as a box silver with colour bit 1
//!   (`110 1 1`). Readers skip every code whose promotion bit is 1.
//!
//! Every piece costs one bit more on the board than in a hand or the box, and its square then
//! costs nothing, so a position with both kings and the pieces of one set always takes exactly
//! 256 bits. A position with a side's king missing, or with more pieces than a set, does not fit
//! and is refused.

use crate::shogi::{SfenError, SfenMode};
use crate::types::{Color, Hand, Piece, PieceKind, Square};
use crate::Position;
use std::fmt;

/// Bytes of a packed position.
pub const PACKED_SIZE: usize = 32;
/// Bits of a packed position.
const BITS: usize = PACKED_SIZE * 8;

/// The kinds in the order hands and the box are written: the numbering order, pawn to rook.
const WRITE_ORDER: [PieceKind; 7] = PieceKind::HAND;

/// The hand code of `kind` (unpromoted, not the king): its bits in stream order, first bit in
/// bit 0, and its length.
const fn hand_code(kind: PieceKind) -> (u32, usize) {
    match kind {
        PieceKind::Pawn => (0b0, 1),
        PieceKind::Lance => (0b001, 3),
        PieceKind::Knight => (0b101, 3),
        PieceKind::Silver => (0b011, 3),
        PieceKind::Gold => (0b0111, 4),
        PieceKind::Bishop => (0b01111, 5),
        _ => (0b11111, 5),
    }
}

/// Why a position cannot be packed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackError {
    /// A side has no king (a composed problem): the format has no room for the extra square.
    MissingKing(Color),
    /// More pieces of a kind than one set holds.
    TooManyPieces {
        /// The kind's SFEN letter.
        kind: char,
        /// How many the position has, board and hands together.
        count: u32,
    },
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::MissingKing(c) => write!(f, "{c:?} has no king; a packed position needs both"),
            PackError::TooManyPieces { kind, count } => {
                write!(f, "{count} pieces of kind {kind}, more than a set holds")
            }
        }
    }
}

impl std::error::Error for PackError {}

/// Why 32 bytes are not a packed position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnpackError {
    /// A king square field is 81 or more (81 marks a missing king, which shomei does not read:
    /// such a position cannot fill exactly 256 bits).
    KingSquare {
        /// Whose king.
        color: Color,
        /// The field's value.
        index: u8,
    },
    /// Both king fields name the same square.
    KingsOnOneSquare(Square),
    /// The board's codes run past the 256th bit; this square's code was cut off.
    BoardOverrun(Square),
    /// A hand or box code is cut off by the end of the 256 bits.
    HandOverrun,
    /// The bits decode, but not to a position a game can have.
    Position(SfenError),
}

impl fmt::Display for UnpackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnpackError::KingSquare { color, index } => {
                write!(f, "{color:?}'s king square field is {index}, not a square (0-80)")
            }
            UnpackError::KingsOnOneSquare(sq) => write!(f, "both kings are on {sq}"),
            UnpackError::BoardOverrun(sq) => write!(f, "the board's codes run past 256 bits at {sq}"),
            UnpackError::HandOverrun => write!(f, "a piece code in the hands runs past 256 bits"),
            UnpackError::Position(e) => write!(f, "the decoded position is invalid: {e}"),
        }
    }
}

impl std::error::Error for UnpackError {}

/// Writes a packed position bit by bit, bit 0 of byte 0 first.
struct BitWriter {
    /// The bytes written so far, zero beyond `at`.
    bytes: [u8; PACKED_SIZE],
    /// The number of bits written.
    at: usize,
}

impl BitWriter {
    /// Writes the low `len` bits of `value`, bit 0 first. The caller has checked the position
    /// fits, so running past the end is a bug in this module.
    fn write(&mut self, value: u32, len: usize) {
        for i in 0..len {
            assert!(self.at < BITS, "a checked position overflows 256 bits");
            if value >> i & 1 != 0 {
                self.bytes[self.at / 8] |= 1 << (self.at % 8);
            }
            self.at += 1;
        }
    }
}

/// Reads a packed position bit by bit, in the order `BitWriter` writes it; every read is `None`
/// past the 256th bit.
struct BitReader<'a> {
    /// The packed position.
    bytes: &'a [u8; PACKED_SIZE],
    /// The number of bits read.
    at: usize,
}

impl BitReader<'_> {
    /// The next bit.
    fn bit(&mut self) -> Option<u32> {
        if self.at >= BITS {
            return None;
        }
        let b = (self.bytes[self.at / 8] >> (self.at % 8)) & 1;
        self.at += 1;
        Some(b as u32)
    }

    /// The next `len` bits, the first read as bit 0.
    fn bits(&mut self, len: usize) -> Option<u32> {
        (0..len).try_fold(0, |v, i| Some(v | self.bit()? << i))
    }

    /// A hand code: the kind it names.
    fn kind(&mut self) -> Option<PieceKind> {
        let mut code = 0;
        for len in 1..=5 {
            code |= self.bit()? << (len - 1);
            if let Some(&k) = WRITE_ORDER.iter().find(|&&k| hand_code(k) == (code, len)) {
                return Some(k);
            }
        }
        unreachable!("the hand codes are a complete prefix code of at most 5 bits")
    }

    /// One board square's code: the piece on it, or `Piece::NONE`.
    fn board_piece(&mut self) -> Option<Piece> {
        if self.bit()? == 0 {
            return Some(Piece::NONE);
        }
        let kind = self.kind()?;
        let promoted = kind != PieceKind::Gold && self.bit()? == 1;
        let color = self.color()?;
        Some(Piece::new(color, if promoted { kind.promoted() } else { kind }))
    }

    /// One hand or box code: the kind and owner of a piece in hand, or `None` inside for a box
    /// piece.
    fn hand_piece(&mut self) -> Option<Option<(Color, PieceKind)>> {
        let kind = self.kind()?;
        let boxed = kind != PieceKind::Gold && self.bit()? == 1;
        let color = self.color()?;
        Some((!boxed).then_some((color, kind)))
    }

    /// A colour bit: 0 Black, 1 White.
    fn color(&mut self) -> Option<Color> {
        Some(if self.bit()? == 0 { Color::Black } else { Color::White })
    }
}

/// Packs a position (see the module documentation). Positions of a game always pack; a composed
/// one with a king missing or a surplus of pieces is refused.
pub fn pack(pos: &Position) -> Result<[u8; PACKED_SIZE], PackError> {
    for c in Color::ALL {
        if !pos.has_king(c) {
            return Err(PackError::MissingKing(c));
        }
    }
    // What is left for the box once the board and hands are counted.
    let mut boxed = [0i64; 15];
    for k in WRITE_ORDER {
        boxed[k.index()] = k.set_count() as i64;
    }
    for sq in Square::all() {
        let p = pos.piece_on(sq);
        if p.is_some() && p.kind() != PieceKind::King {
            boxed[p.kind().unpromoted().index()] -= 1;
        }
    }
    for c in Color::ALL {
        for k in WRITE_ORDER {
            boxed[k.index()] -= pos.hand(c).count(k) as i64;
        }
    }
    if let Some(&k) = WRITE_ORDER.iter().find(|k| boxed[k.index()] < 0) {
        let count = (k.set_count() as i64 - boxed[k.index()]) as u32;
        return Err(PackError::TooManyPieces { kind: k.base_letter(), count });
    }

    let mut w = BitWriter { bytes: [0; PACKED_SIZE], at: 0 };
    w.write(pos.side_to_move() as u32, 1);
    for c in Color::ALL {
        w.write(pos.king_square(c).index() as u32, 7);
    }
    for sq in Square::all() {
        let p = pos.piece_on(sq);
        if p.is_none() {
            w.write(0, 1);
        } else if p.kind() != PieceKind::King {
            let kind = p.kind().unpromoted();
            let (code, len) = hand_code(kind);
            w.write(1, 1);
            w.write(code, len);
            if kind != PieceKind::Gold {
                w.write(p.kind().is_promoted() as u32, 1);
            }
            w.write(p.color() as u32, 1);
        }
    }
    for c in Color::ALL {
        for k in WRITE_ORDER {
            let (code, len) = hand_code(k);
            for _ in 0..pos.hand(c).count(k) {
                w.write(code, len);
                if k != PieceKind::Gold {
                    w.write(0, 1);
                }
                w.write(c as u32, 1);
            }
        }
    }
    for k in WRITE_ORDER {
        for _ in 0..boxed[k.index()] {
            if k == PieceKind::Gold {
                let (code, len) = hand_code(PieceKind::Silver);
                w.write(code, len);
                w.write(0b11, 2);
            } else {
                let (code, len) = hand_code(k);
                w.write(code, len);
                w.write(0b01, 2);
            }
        }
    }
    debug_assert_eq!(w.at, BITS, "a full set always takes 256 bits");
    Ok(w.bytes)
}

/// Unpacks a position at game ply 1 (the format does not hold the ply); see `unpack_at`.
pub fn unpack(bytes: &[u8; PACKED_SIZE]) -> Result<Position, UnpackError> {
    unpack_at(bytes, 1)
}

/// Unpacks a position and gives it the game ply `game_ply` (0 is read as 1). Malformed bytes
/// (a king square off the board, codes running past 256 bits) and positions no game can have
/// (as an SFEN of the same position would be refused) are errors.
pub fn unpack_at(bytes: &[u8; PACKED_SIZE], game_ply: u32) -> Result<Position, UnpackError> {
    let mut r = BitReader { bytes, at: 0 };
    // The first 15 bits always exist.
    let side = r.color().expect("in range");
    let mut kings = [Square::NO_KING; 2];
    for c in Color::ALL {
        let index = r.bits(7).expect("in range") as u8;
        kings[c.index()] =
            Square::from_index(index as usize).ok_or(UnpackError::KingSquare { color: c, index })?;
    }
    if kings[0] == kings[1] {
        return Err(UnpackError::KingsOnOneSquare(kings[0]));
    }
    let mut board = [Piece::NONE; 81];
    for c in Color::ALL {
        board[kings[c.index()].index()] = Piece::new(c, PieceKind::King);
    }
    for sq in Square::all() {
        if !kings.contains(&sq) {
            board[sq.index()] = r.board_piece().ok_or(UnpackError::BoardOverrun(sq))?;
        }
    }
    let mut hands = [Hand::EMPTY; 2];
    while r.at < BITS {
        if let Some((c, k)) = r.hand_piece().ok_or(UnpackError::HandOverrun)? {
            // Saturating: a count past the field's maximum is past the set's too, and refused.
            hands[c.index()] = hands[c.index()].plus(k);
        }
    }
    Position::from_checked_parts(board, hands, side, game_ply, SfenMode::Game).map_err(UnpackError::Position)
}

/// Tests of the packed format's codes and the refusal of impossible bytes.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hand_codes_are_a_prefix_code_and_fill_the_set_exactly() {
        for a in WRITE_ORDER {
            for b in WRITE_ORDER {
                let ((ca, la), (cb, lb)) = (hand_code(a), hand_code(b));
                if a != b && la <= lb {
                    assert_ne!(cb & ((1 << la) - 1), ca, "{a:?} is a prefix of {b:?}");
                }
            }
        }
        // Complete, too: every bit sequence starts with a code, so reading never gets stuck.
        let kraft: f64 = WRITE_ORDER.iter().map(|&k| 0.5f64.powi(hand_code(k).1 as i32)).sum();
        assert_eq!(kraft, 1.0);
        // 15 header bits, 79 non-king squares at one bit each, and each piece of the set at
        // its hand cost (code, promotion bit unless gold, colour bit).
        let pieces: usize = WRITE_ORDER
            .iter()
            .map(|&k| (hand_code(k).1 + 1 + (k != PieceKind::Gold) as usize) * k.set_count() as usize)
            .sum();
        assert_eq!(15 + 79 + pieces, BITS);
    }

    #[test]
    fn all_ones_and_all_zeros_are_refused() {
        assert!(matches!(
            unpack(&[0xff; 32]),
            Err(UnpackError::KingSquare { color: Color::Black, index: 127 })
        ));
        assert!(matches!(unpack(&[0; 32]), Err(UnpackError::KingsOnOneSquare(_))));
    }
}
