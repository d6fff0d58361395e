//! Choosing a move: exact from a solved table when one covers the position, otherwise by a
//! depth-limited alpha-beta search on the same rules.
//!
//! The search is the shared reference search of [`crate::game`]; this module makes Dobutsu a
//! [`Game`] for it. Search scores are from the side to move's point of view: `MATE - d` for a
//! win that ends the game in `d` plies, `-(MATE - d)` for a loss in `d` plies, material and Lion
//! advance otherwise.

use super::movegen::{legal_moves, MoveList};
use super::position::{Kind, Move, Position, Status};
use super::table::{Table, Value};
use crate::game::{self, Game};
use crate::types::Color;

/// The score of a game that is won now; a win in `d` plies scores `MATE - d`.
pub const MATE: i32 = 30_000;
/// Scores at or beyond this magnitude are forced results.
pub const MATE_BOUND: i32 = MATE - game::search::WIN_MARGIN;

/// Why a move was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// From the solved table: the exact value kept by the move, for the side to move.
    Exact(Value),
    /// From the search, at `depth` plies: a score as described in the module docs.
    Search {
        /// The score for the side to move.
        score: i32,
        /// The depth searched, in plies.
        depth: u32,
    },
}

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

    fn status(&self) -> game::Status {
        match Position::status(self) {
            Status::Ongoing => game::Status::Ongoing,
            Status::CanCatch => game::Status::WinsNext,
            Status::Lost => game::Status::Lost,
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

/// The best move by the reference search ([`game::search::search`]) to `depth` plies.
pub fn search(pos: &Position, depth: u32) -> Option<(Move, i32)> {
    game::search::search(pos, depth)
}

/// The move to play: exact from `table` when it covers the position and all its successors,
/// else exact from the embedded second-player book where it covers the position, otherwise
/// from a search to `depth` plies. `None` when there is no legal move.
pub fn choose_move(pos: &Position, table: Option<&Table>, depth: u32) -> Option<(Move, Outcome)> {
    let book = || super::book::embedded().ok().and_then(|b| b.best_move(pos));
    if let Some((m, v)) = table.and_then(|t| t.best_move(pos)).or_else(book) {
        return Some((m, Outcome::Exact(v)));
    }
    search(pos, depth).map(|(m, score)| (m, Outcome::Search { score, depth }))
}
