//! Zobrist keys for board squares, hand counts and the side to move, fixed at compile time.
//!
//! The board part is XORed piece by piece; the hand part is a wrapping sum of one key per piece
//! held, so adding or removing a piece from a hand is a single add or subtract.

use crate::rng::splitmix64 as splitmix;
use crate::types::{Color, Piece, PieceKind, Square};

/// The keys, all with bit 0 clear but the side key's.
struct Keys {
    /// One key per piece and square, XORed in and out.
    board: [[u64; 81]; Piece::COUNT],
    /// One key per colour and hand kind (by `PieceKind::index()`), added once per piece held.
    hand: [[u64; 16]; 2],
    /// XORed in when White is to move; its bit 0 is set.
    side: u64,
}

/// Draws the keys from a fixed seed with SplitMix64, then clears bit 0 of every key but the side's.
const fn make_keys() -> Keys {
    let mut keys = Keys { board: [[0; 81]; Piece::COUNT], hand: [[0; 16]; 2], side: 0 };
    let mut state = 0x5348_4f4d_4549_u64; // "SHOMEI"
    let mut p = 0;
    while p < Piece::COUNT {
        let mut sq = 0;
        while sq < 81 {
            let (s, v) = splitmix(state);
            state = s;
            keys.board[p][sq] = v;
            sq += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 16 {
            let (s, v) = splitmix(state);
            state = s;
            keys.hand[c][k] = v;
            k += 1;
        }
        c += 1;
    }
    // Bit 0 of the side key is set and every other key has it clear, so the key's low bit
    // tells the side to move: table entries of the two sides can never be confused.
    let (_, v) = splitmix(state);
    keys.side = v | 1;
    let mut p = 0;
    while p < Piece::COUNT {
        let mut sq = 0;
        while sq < 81 {
            keys.board[p][sq] &= !1;
            sq += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 16 {
            keys.hand[c][k] &= !1;
            k += 1;
        }
        c += 1;
    }
    keys
}

/// The keys, made at compile time.
static KEYS: Keys = make_keys();

/// Key of piece `p` on `sq`, XORed into the board key.
#[inline(always)]
pub fn piece_square(p: Piece, sq: Square) -> u64 {
    KEYS.board[p.index()][sq.index()]
}

/// Key of one piece of kind `k` in `c`'s hand; a hand's key is this times the count.
#[inline(always)]
pub fn hand_piece(c: Color, k: PieceKind) -> u64 {
    KEYS.hand[c.index()][k.index()]
}

/// XORed in when White is to move.
#[inline(always)]
pub fn side() -> u64 {
    KEYS.side
}
