//! The rules of shogi: attack tables, positions, SFEN, legal moves, repetition and declaration.

pub mod attacks;
pub mod csa;
mod display;
pub mod material;
pub mod movegen;
pub mod perft;
mod position;
pub mod random_games;
pub mod rules;
pub mod sfen;
mod zobrist;

pub use movegen::{generate, GenType, MoveList, MAX_MOVES};
pub use position::Position;
pub use random_games::{random_game, random_game_positions, MoveDraw};
pub use rules::{Declaration, EnteringKingRule, Sennichite};
pub use sfen::{MoveError, PositionError, SfenError, SfenMode, STARTPOS};
