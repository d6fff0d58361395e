//! The 40-byte training record, YaneuraOu's `PackedSfenValue`: what `shomei gensfen` writes and
//! trainers read. A data file is these records back to back, nothing else.
//!
//! ```text
//! bytes  0..32  the position, packed (see `packed`)
//! bytes 32..34  score: i16, the search score in centipawns for the side to move
//! bytes 34..36  move: u16, the best move in YaneuraOu's 16-bit encoding (see `move16`)
//! bytes 36..38  game ply: u16, the position's ply in its game (1 for the start position)
//! byte  38      game result: i8, 1 if the side to move went on to win, -1 to lose, 0 a draw
//! byte  39      padding, written as 0 and not read
//! ```
//!
//! Numbers are little-endian, as YaneuraOu writes its structure on the machines it runs on.

use super::move16;
use super::packed::{self, UnpackError, PACKED_SIZE};
use crate::types::Move;
use crate::Position;
use std::io::{self, Read, Write};

/// Bytes of a record.
pub const RECORD_SIZE: usize = 40;

/// One training position (layout in the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedSfenValue {
    /// The packed position.
    pub sfen: [u8; PACKED_SIZE],
    /// The search score for the side to move, in centipawns.
    pub score: i16,
    /// The best move, 16-bit encoded (`move16::encode`).
    pub mv: u16,
    /// The position's ply in its game, 1 for the start position.
    pub game_ply: u16,
    /// 1: the side to move won the game; -1: it lost; 0: a draw.
    pub game_result: i8,
}

impl PackedSfenValue {
    /// The record of `pos` with its search score and best move; the game ply is the position's,
    /// saturated at `u16::MAX`. The position must pack (a game position always does).
    pub fn new(pos: &Position, score: i16, best: Move, game_result: i8) -> Result<Self, packed::PackError> {
        Ok(PackedSfenValue {
            sfen: packed::pack(pos)?,
            score,
            mv: move16::encode(best),
            game_ply: pos.game_ply().min(u16::MAX as u32) as u16,
            game_result,
        })
    }

    /// The 40 bytes of the record.
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut b = [0u8; RECORD_SIZE];
        b[..32].copy_from_slice(&self.sfen);
        b[32..34].copy_from_slice(&self.score.to_le_bytes());
        b[34..36].copy_from_slice(&self.mv.to_le_bytes());
        b[36..38].copy_from_slice(&self.game_ply.to_le_bytes());
        b[38] = self.game_result as u8;
        b
    }

    /// The record these 40 bytes hold (any bytes are a record; `position` checks the packed
    /// position, `best_move` the move).
    pub fn from_bytes(b: &[u8; RECORD_SIZE]) -> Self {
        let mut sfen = [0u8; PACKED_SIZE];
        sfen.copy_from_slice(&b[..32]);
        PackedSfenValue {
            sfen,
            score: i16::from_le_bytes([b[32], b[33]]),
            mv: u16::from_le_bytes([b[34], b[35]]),
            game_ply: u16::from_le_bytes([b[36], b[37]]),
            game_result: b[38] as i8,
        }
    }

    /// The position, at its game ply.
    pub fn position(&self) -> Result<Position, UnpackError> {
        packed::unpack_at(&self.sfen, self.game_ply as u32)
    }

    /// The best move, if it is legal in `pos` (this record's position).
    pub fn best_move(&self, pos: &Position) -> Option<Move> {
        move16::decode_legal(pos, self.mv)
    }
}

/// Writes records back to back.
pub fn write_records(w: &mut impl Write, records: &[PackedSfenValue]) -> io::Result<()> {
    let mut buf = Vec::with_capacity(records.len() * RECORD_SIZE);
    for r in records {
        buf.extend_from_slice(&r.to_bytes());
    }
    w.write_all(&buf)
}

/// Reads the next record: `None` at the end of the data, an error if it ends inside a record.
pub fn read_record(r: &mut impl Read) -> io::Result<Option<PackedSfenValue>> {
    let mut b = [0u8; RECORD_SIZE];
    let mut filled = 0;
    while filled < RECORD_SIZE {
        match r.read(&mut b[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    match filled {
        0 => Ok(None),
        RECORD_SIZE => Ok(Some(PackedSfenValue::from_bytes(&b))),
        n => Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!("the data ends {n} bytes into a {RECORD_SIZE}-byte record"),
        )),
    }
}

/// Reads every record to the end of the data.
pub fn read_records(r: &mut impl Read) -> io::Result<Vec<PackedSfenValue>> {
    let mut out = Vec::new();
    while let Some(rec) = read_record(r)? {
        out.push(rec);
    }
    Ok(out)
}

/// Tests of the record layout.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_sit_at_their_offsets_little_endian() {
        let rec = PackedSfenValue { sfen: [7; 32], score: -2, mv: 0x1234, game_ply: 300, game_result: -1 };
        let b = rec.to_bytes();
        assert_eq!(&b[32..], &[0xfe, 0xff, 0x34, 0x12, 0x2c, 0x01, 0xff, 0]);
        assert_eq!(PackedSfenValue::from_bytes(&b), rec);
        let mut data = b.to_vec();
        assert_eq!(read_records(&mut data.as_slice()).unwrap(), vec![rec]);
        data.pop();
        assert!(read_records(&mut data.as_slice()).is_err(), "a cut record is an error");
    }
}
