//! shomei-arena: engine-vs-engine matches between USI shogi engines.
//!
//! Each module has one job:
//! - [`config`]: what a match is configured with ([`config::MatchConfig`]): engines, openings,
//!   the game and its options;
//! - [`cli`]: command-line arguments into a [`config::MatchConfig`];
//! - [`engine`]: one engine process, its pipes, and waiting on it with deadlines;
//! - [`clock`]: time controls, `go` commands and each side's clock;
//! - [`openings`]: opening lines (file, built-in, random) checked with the shomei rules;
//! - [`rules`]: the game played (shogi or Dobutsu) from the shomei rules, how games end, and
//!   adjudication;
//! - [`game`]: one game from handshake to its end;
//! - [`record`]: CSA records, USI `position` lines, the results table;
//! - [`stats`]: Elo, interval, LOS, pentanomial counts and SPRT;
//! - [`runner`]: the match: engines probed, games scheduled over workers, output and summary.

#![forbid(unsafe_code)]

pub mod cli;
pub mod clock;
pub mod config;
pub mod engine;
pub mod game;
pub mod openings;
pub mod record;
pub mod rules;
pub mod runner;
pub mod stats;
