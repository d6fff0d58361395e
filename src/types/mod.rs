//! The vocabulary of the game: colours, squares, pieces, hands, moves and bitboards.

mod bitboard;
mod color;
mod hand;
mod mv;
mod piece;
mod square;

pub use bitboard::Bitboard;
pub use color::Color;
pub use hand::Hand;
pub use mv::Move;
pub use piece::{Piece, PieceKind};
pub use square::Square;
