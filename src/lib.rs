//! shomei: a shogi engine speaking USI.
//!
//! `types` holds the vocabulary, `shogi` the rules, `eval` the static evaluation, `mate` the
//! tsume solver (a mate-in-one test for the search, and df-pn for `go mate` and for the root of
//! timed searches), `search` the alpha-beta search, and `usi` the protocol loop. `book` holds the
//! opening books (read, chosen from, and made by searching: `shomei book`), `bench` the fixed
//! search signature, `learn` the training data (its format and the self-play generator,
//! `shomei gensfen`), `dobutsu` the 3x4 variant, `game` the reference searches both games share
//! (and the move list), `rng` the seeded random generator, `sha256` the checksum of files, and `pages` the large-page advice
//! for the big tables.
//! Dependencies point down that list: `usi`, `book`, `bench` and `learn` use `search`, which
//! uses `mate`, `eval` and `shogi`, which use `types` (and `rng`, for the Zobrist keys). Only
//! `usi`, `main` and the `shomei dobutsu` command line (`dobutsu::cli`) write to stdout.

// The exceptions, each documented where it is: the table prefetch hint in `search::tt`, the
// zeroed allocation in `mate::tt`, the large-page advice in `pages`, and the AVX2 code of the
// network evaluation (`eval::nnue`: the calls into copies compiled for AVX2, and the vector
// loads and stores of `halfkp::layers::avx2`).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod bench;
pub mod book;
pub mod dobutsu;
pub mod eval;
pub mod game;
pub mod learn;
pub mod mate;
mod pages;
pub mod rng;
pub mod search;
pub mod sha256;
pub mod shogi;
pub mod types;
pub mod usi;

pub use shogi::{Position, SfenError};
pub use types::{Bitboard, Color, Hand, Move, Piece, PieceKind, Square};
