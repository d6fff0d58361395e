//! Legal move generation. Every pseudo-legal move is legal in Dobutsu: moving into capture is
//! allowed, and drops may go on any empty square. A position whose Lion has been captured has
//! no moves. The position's status is here too, since it asks whether a move exists.

use super::position::{
    cell_piece, far_rank, rank_of, Kind, Move, Position, Status, SQUARES, STEPS, WHITE_BIT,
};
use crate::types::Color;

/// Upper bound on legal moves in any position (36 board moves plus at most 33 drops).
pub const MAX_MOVES: usize = 96;

/// A fixed-capacity list of moves.
pub type MoveList = crate::types::MoveList<Move, MAX_MOVES>;

/// The status lives with the move generator: a side without a legal move has lost.
impl Position {
    /// The position's status under Tanaka's rules (see the module docs of `dobutsu`).
    pub fn status(&self) -> Status {
        if self.lion(self.side).is_none() {
            return Status::Lost;
        }
        if self.can_catch() {
            return Status::CanCatch;
        }
        if self.lost_to_try() || legal_moves(self).is_empty() {
            return Status::Lost;
        }
        Status::Ongoing
    }
}

/// Every legal move of the side to move: board moves first (by origin square), then drops.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    let us = pos.side;
    if pos.lion(us).is_none() || pos.lion(!us).is_none() {
        return list;
    }
    let white = us == Color::White;
    let mut own = 0u16;
    for (sq, &c) in pos.board.iter().enumerate() {
        if c != 0 && (c & WHITE_BIT != 0) == white {
            own |= 1 << sq;
        }
    }
    for (from, &c) in pos.board.iter().enumerate() {
        if own & (1 << from) == 0 {
            continue;
        }
        let mut targets = STEPS[c as usize][from] & !own;
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let (_, kind) = cell_piece(c).expect("own square holds a piece");
            let promote = kind == Kind::Chick && rank_of(to) == far_rank(us);
            list.push(Move { from: from as u8, to: to as u8, kind, promote });
        }
    }
    for kind in Kind::HAND {
        if pos.hand_count(us, kind) == 0 {
            continue;
        }
        for to in 0..SQUARES {
            if pos.board[to] == 0 {
                list.push(Move { from: Move::DROP, to: to as u8, kind, promote: false });
            }
        }
    }
    list
}
