//! shomei: a shogi engine speaking USI.
//!
//! `types` holds the vocabulary, `shogi` the rules, and `usi` the protocol loop.

#![forbid(unsafe_code)]

pub mod shogi;
pub mod types;
pub mod usi;

pub use shogi::{Position, SfenError};
pub use types::{Bitboard, Color, Hand, Move, Piece, PieceKind, Square};
