//! The vocabulary of the game: colours, squares, pieces, hands, moves, move lists, bitboards and
//! the score type. Everything else in the crate stands on these; they import nothing of it.

mod bitboard;
mod color;
mod hand;
mod move_list;
mod mv;
mod piece;
mod square;

pub use bitboard::Bitboard;
pub use color::Color;
pub use hand::Hand;
pub use move_list::MoveList;
pub use mv::Move;
pub use piece::{Piece, PieceKind};
pub use square::Square;

/// A score in centipawn-like units (a pawn on the board is about 90), from the side to move's
/// point of view. Static evaluations stay within `eval::params::EVAL_LIMIT`; the search uses the
/// same type and places its mate scores far above that limit.
pub type Value = i32;
