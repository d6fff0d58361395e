//! shomei: a shogi engine speaking USI.
//!
//! The modules stand in layers. A module uses only modules on its own line or below it, never
//! one above (`tests/layering.rs` reads this list and the `crate::` paths of every file in `src/`
//! and fails when a module reaches up):
//!
//! - `usi`: the protocol loop: parses commands, holds the protocol's state, formats replies.
//! - `book`, `bench`, `training_data`, `dobutsu`: what the protocol and the command line start besides
//!   a search: the opening books (`shomei book`), the fixed search signature, the training data
//!   (`shomei gensfen`), and the 3x4 variant with its solved table and player.
//! - `reference`: the small, obviously correct searches written once for any two-player game
//!   (minimax, alpha-beta, iterative deepening): Dobutsu plays with them, and the tests check the
//!   shogi search against them.
//! - `search`: the alpha-beta search and its time manager.
//! - `mate`: the tsume solver (a mate-in-one test for the search, df-pn for `go mate` and for the
//!   root of timed searches).
//! - `eval`: the static evaluation: hand-written terms and the networks.
//! - `shogi`: the rules: attacks, positions, moves, SFEN and CSA, material, repetition, declaration.
//! - `types`, `job`, `rng`, `sha256`, `large_pages`: the vocabulary (colours, squares, pieces,
//!   moves, move lists, scores); the one shape of everything that thinks (the search, `go mate`,
//!   perft and bench, the Dobutsu player: a thread that is asked to stop, reporting typed events);
//!   the seeded random generator; the checksum of files; the large-page advice for the big tables.
//!
//! Only `usi`, `main` and the command lines (`book::cli`, `dobutsu::cli`, `training_data::gensfen`)
//! write to stdout; the search and the solvers never print.

// The exceptions, each documented where it is: the table prefetch hint in `search::tt`, the
// zeroed allocation in `mate::tt`, the large-page advice in `large_pages`, and the AVX2 code of the
// network evaluation (`eval::nnue`: the calls into copies compiled for AVX2, and the vector
// loads and stores of `halfkp::layers::avx2`).
#![deny(unsafe_code)]
#![deny(missing_docs)]
// Private items too: a newcomer reads every module, not just the public surface.
#![deny(clippy::missing_docs_in_private_items)]

pub mod bench;
pub mod book;
pub mod dobutsu;
pub mod eval;
pub mod job;
mod large_pages;
pub mod mate;
pub mod reference;
pub mod rng;
pub mod search;
pub mod sha256;
pub mod shogi;
pub mod training_data;
pub mod types;
pub mod usi;

pub use shogi::{Position, SfenError};
pub use types::{Bitboard, Color, Hand, Move, Piece, PieceKind, Square};
