//! `shomei-train`: tunes shomei's evaluations on the positions `shomei gensfen` writes.
//!
//! `shomei-train texel` fits every weight of the hand-written evaluation (`eval/params.rs`) by
//! Texel's method: the evaluation of each position, through a sigmoid, should predict a blend of
//! its game's result and its search score. The evaluation under any weights comes from its trace
//! (`shomei::eval::trace`), computed once per position.
//!
//! - `data`: reads the records, traces each position, splits off a validation share by game.
//! - `logistic`: the sigmoid that maps evaluations to expected scores, and each position's
//!   target (shared by every trainer).
//! - `parallel`: work over the cores whose result does not depend on the thread count.
//! - `model`: the error of a set of weights over a data set and its gradient, on all cores.
//! - `adam`: the optimiser.
//! - `texel`: the run: fit the sigmoid's scale, then epochs of Adam, reporting both errors.
//! - `output`: the tuned weights as `NAME = value` text and as Rust for `params.rs`.
//! - `cli`: the command line.
//!
//! `shomei-train nnue` fits the engine's neural network (`shomei::eval::nnue`) to the same data:
//! see the `nnue` module; with `--arch halfkp_...` it fits YaneuraOu's HalfKP nets and writes
//! their `nn.bin` instead: see the `halfkp` module.

#![warn(missing_docs)]

pub mod adam;
pub mod cli;
pub mod data;
pub mod halfkp;
pub mod logistic;
pub mod model;
pub mod nnue;
pub mod output;
pub mod parallel;
pub mod texel;
