//! Shogi as a [`Game`]: the rules of [`crate::shogi`], the engine's static evaluation, captures
//! ordered by the value of what they take. Copy-make clones the position, which suits the
//! reference searches and tests, not speed.

use super::{Game, Status};
use crate::shogi::movegen::MoveList;
use crate::types::Move;
use crate::Position;

impl Game for Position {
    type Move = Move;
    type Moves = MoveList;

    /// The shogi search's mate score, so that both searches' scores compare directly.
    const WIN: i32 = crate::search::value::MATE;

    fn legal_moves(&self) -> MoveList {
        Position::legal_moves(self)
    }

    fn after(&self, m: Move) -> Position {
        let mut next = self.clone();
        next.do_move(m);
        next
    }

    /// A side with no legal move is mated (stalemate loses too in shogi); the rules module's
    /// move generator already refuses a pawn drop that mates.
    fn status(&self) -> Status {
        if Position::legal_moves(self).is_empty() {
            Status::Lost
        } else {
            Status::Ongoing
        }
    }

    fn evaluate(&self) -> i32 {
        crate::eval::evaluate(self)
    }

    /// Captures first, the most valuable victim first; then the rest in generation order.
    fn order_key(&self, m: Move) -> u32 {
        let victim = self.piece_on(m.to());
        if m.is_drop() || victim.is_none() {
            return 10_000;
        }
        10_000 - crate::eval::piece_value(victim.kind()).clamp(0, 9_999) as u32
    }
}
