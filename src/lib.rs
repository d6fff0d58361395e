//! shomei: a shogi engine speaking USI.
//!
//! `types` holds the vocabulary, `shogi` the rules, `eval` the static evaluation, `search` the
//! alpha-beta search, and `usi` the protocol loop. `bench` is the fixed search signature.

// The one exception is the table prefetch hint in `search::tt`, documented there.
#![deny(unsafe_code)]

pub mod bench;
pub mod dobutsu;
pub mod eval;
pub mod mate;
pub mod search;
pub mod shogi;
pub mod types;
pub mod usi;

pub use shogi::{Position, SfenError};
pub use types::{Bitboard, Color, Hand, Move, Piece, PieceKind, Square};
