//! Dobutsu shogi (どうぶつしょうぎ): the 3×4 game, its rules, perft, and its complete solution.
//!
//! Rules as Tanaka (2009) analysed them: Lion, Giraffe, Elephant and Chick (promoting to Hen on
//! reaching the far rank by a move); drops on any empty square, a Chick dropped on the far rank
//! does not promote and cannot move; a captured Hen returns as a Chick; moving into capture is
//! legal. A player wins by capturing the opposing Lion, or by a Try: their Lion reaches the far
//! rank and cannot be captured on the next move. A side with no legal move loses. Repetition is
//! not counted here: a position that perfect play never resolves is a draw.
//!
//! - [`Position`]: the board, copy-make (`play`), and [`Status`] (catch / try / no-move).
//! - [`legal_moves`]: every legal move (moving into capture included).
//! - [`perft()`]: leaf counts; a captured Lion ends the tree, a Try does not.
//! - `sfen`: Fairy-Stockfish-compatible SFEN and USI move text.

pub mod cli;
pub mod index;
pub mod movegen;
pub mod perft;
pub mod play;
pub mod position;
pub mod sfen;
pub mod solve;
pub mod table;

pub use movegen::{legal_moves, MoveList};
pub use perft::perft;
pub use position::{Kind, Move, Position, Status};
pub use sfen::{move_to_usi, parse_move, MoveError, SfenError, START_SFEN};
pub use solve::{solve, SolveOptions, SolveStats};
pub use table::{Table, Value};
