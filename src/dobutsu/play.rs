//! Dobutsu as a [`Game`] for the reference searches, and the depth-limited search on its rules
//! (the player, `super::player`, chooses between it, the table and the book).
//!
//! The search is the shared reference search of [`crate::reference`]; this module makes Dobutsu a
//! [`Game`] for it. Search scores are from the side to move's point of view: `MATE - d` for a
//! win that ends the game in `d` plies, `-(MATE - d)` for a loss in `d` plies, material and Lion
//! advance otherwise.

use super::movegen::{legal_moves, MoveList};
use super::position::{Kind, Move, Position, Status};
use crate::reference::{self, Game};
use crate::types::Color;

/// The score of a game that is won now; a win in `d` plies scores `MATE - d`.
pub const MATE: i32 = 30_000;
/// Scores at or beyond this magnitude are forced results.
pub const MATE_BOUND: i32 = MATE - reference::search::WIN_MARGIN;

/// A heuristic score for the side to move: material (in hand counts a little more) and how far
/// each Lion has advanced.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = 0;
    for sq in 0..12 {
        if let Some((color, kind)) = pos.piece_at(sq) {
            let v = match kind {
                Kind::Chick => 100,
                Kind::Hen => 300,
                Kind::Elephant => 250,
                Kind::Giraffe => 300,
                Kind::Lion => {
                    // Ranks advanced from the own back rank, 0..3.
                    let adv = if color == Color::Black { 3 - sq / 3 } else { sq / 3 };
                    20 * adv as i32
                }
            };
            score += if color == pos.side_to_move() { v } else { -v };
        }
    }
    for kind in Kind::HAND {
        let v = match kind {
            Kind::Chick => 110,
            Kind::Elephant => 270,
            _ => 320,
        };
        let us = pos.hand_count(pos.side_to_move(), kind) as i32;
        let them = pos.hand_count(!pos.side_to_move(), kind) as i32;
        score += v * (us - them);
    }
    score
}

impl Game for Position {
    type Move = Move;
    type Moves = MoveList;
    const WIN: i32 = MATE;

    fn legal_moves(&self) -> MoveList {
        legal_moves(self)
    }

    fn after(&self, m: Move) -> Position {
        self.play(m)
    }

    fn status(&self) -> reference::Status {
        match Position::status(self) {
            Status::Ongoing => reference::Status::Ongoing,
            Status::CanCatch => reference::Status::WinsNext,
            Status::Lost => reference::Status::Lost,
        }
    }

    fn evaluate(&self) -> i32 {
        evaluate(self)
    }

    /// A Lion capture above all, then other captures, then the rest in generation order.
    fn order_key(&self, m: Move) -> u32 {
        match self.piece_at(m.to as usize) {
            Some((_, Kind::Lion)) => 0,
            Some(_) if !m.is_drop() => 1,
            _ => 2,
        }
    }
}

/// The best move by the reference search ([`reference::search::search`]) to `depth` plies.
pub fn search(pos: &Position, depth: u32) -> Option<(Move, i32)> {
    reference::search::search(pos, depth)
}
