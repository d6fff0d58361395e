//! `FlippedBook`: a position seen from the other side (board turned 180 degrees, every piece's
//! colour and the hands swapped, the other side to move, the same ply), so that a book entry
//! for one side serves the other too.

use super::BookMove;
use crate::shogi::sfen::{board_sfen, hands_sfen};
use crate::shogi::Position;
use crate::types::{Color, Move, Piece};

/// The colour-flipped twin of `pos`, if it is a position (it always is for one that is).
pub fn flipped_position(pos: &Position) -> Option<Position> {
    let board = board_sfen(|sq| {
        let p = pos.piece_on(sq.flip());
        if p.is_none() {
            p
        } else {
            Piece::new(!p.color(), p.kind())
        }
    });
    // The flipped position's Black holds what White holds here, and the other way round.
    let hands = hands_sfen(pos.hand(Color::White), pos.hand(Color::Black));
    let side = (!pos.side_to_move()).sfen_char();
    Position::from_sfen(&format!("{board} {side} {hands} {}", pos.game_ply())).ok()
}

/// `m` on the turned board.
pub fn flip_move(m: Move) -> Move {
    if m.is_drop() {
        Move::drop(m.dropped_kind(), m.to().flip())
    } else {
        Move::board(m.from().flip(), m.to().flip(), m.is_promotion())
    }
}

/// A book move of the flipped position, as a move of the original one.
pub fn flip_book_move(m: &BookMove) -> BookMove {
    BookMove { mv: flip_move(m.mv), ponder: m.ponder.map(flip_move), ..*m }
}

/// Tests of the colour flip of positions.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flipping_twice_gives_the_position_back() {
        let pos =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2").unwrap();
        let once = flipped_position(&pos).unwrap();
        assert_eq!(once.side_to_move(), Color::Black);
        assert_eq!(once.to_sfen(), "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2");
        assert_eq!(flipped_position(&once).unwrap().to_sfen(), pos.to_sfen());
        let hands =
            Position::from_sfen("lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPP1/7R1/LNSGKGSNL b BPb 9").unwrap();
        let flipped = flipped_position(&hands).unwrap();
        assert_eq!(flipped.to_sfen(), "lnsgkgsnl/1r7/1pppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL w Bbp 9");
        let m = Move::parse_usi("7g7f").unwrap();
        assert_eq!(flip_move(m).to_string(), "3c3d");
        assert_eq!(flip_move(Move::parse_usi("P*5e").unwrap()).to_string(), "P*5e");
        assert_eq!(flip_move(Move::parse_usi("8h2b+").unwrap()).to_string(), "2b8h+");
    }
}
