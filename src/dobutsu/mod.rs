//! Dobutsu shogi (どうぶつしょうぎ): the 3×4 game, its rules, perft, and its complete solution.
//!
//! Rules as Tanaka (2009) analysed them: Lion, Giraffe, Elephant and Chick (promoting to Hen on
//! reaching the far rank by a move); drops on any empty square, a Chick dropped on the far rank
//! does not promote and cannot move; a captured Hen returns as a Chick; moving into capture is
//! legal. A player wins by capturing the opposing Lion, or by a Try: their Lion reaches the far
//! rank and cannot be captured on the next move. A side with no legal move loses. Repetition is
//! not counted here: a position that perfect play never resolves is a draw.
//!
//! The API, for the protocol layer and tools:
//! - [`Position`]: `startpos`, `from_sfen` / `to_sfen` (Fairy-Stockfish's SFEN, errors as
//!   [`SfenError`]), `play(Move) -> Position` (copy-make), `status() -> Status` (`Ongoing`,
//!   `CanCatch` = won in 1, `Lost` = Lion captured, safe Try against, or no move).
//! - [`legal_moves`] (every legal move, moving into capture included), [`parse_move`] /
//!   [`move_to_usi`] (`2c2b`, `2b2a+`, `C*2b`; errors as [`MoveError`]).
//! - [`perft()`] and `perft::divide` (Tanaka's rules: the tree ends only when a Lion is
//!   captured), `perft::perft_try_ends` (a Try ends it too, as in Fairy-Stockfish).
//! - [`solve()`] → ([`Table`], [`SolveStats`]): enumeration and retrograde analysis from any
//!   root; `Table::save` / `Table::load`; `Table::probe(&Position) -> Option<Value>` (exact
//!   value and distance in plies for the side to move, `None` where the table does not reach);
//!   `Table::best_move` (fastest win, else a draw, else the slowest loss).
//! - [`player::choose_move`]: the table's move when it covers the position, else the embedded
//!   book's, else an alpha-beta
//!   search to a given depth, with the [`player::Outcome`] it is based on.
//! - [`book`]: the second player's book embedded in the binary (`book::embedded()`,
//!   `Book::best_move`): one optimal move for every position the second player meets from the
//!   start, so the engine never loses as the second player without the full table.
//! - [`player::Player`]: the board behind the protocol's Dobutsu variant: the game so far, the
//!   table in use, and `go` / `go mate` as jobs that report [`player::DobutsuEvent`]s.
//! - `cli::run`: the `shomei dobutsu solve|perft|probe|book` command line.

pub mod book;
pub mod cli;
pub mod index;
pub mod movegen;
pub mod perft;
pub mod play;
pub mod player;
pub mod position;
pub mod sfen;
pub mod solve;
pub mod table;

pub use movegen::{legal_moves, MoveList};
pub use perft::perft;
pub use player::{choose_move, Outcome};
pub use position::{Kind, Move, Position, Status};
pub use sfen::{move_to_usi, parse_move, MoveError, SfenError, START_SFEN};
pub use solve::{solve, SolveOptions, SolveStats};
pub use table::{Table, Value};
