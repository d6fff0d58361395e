//! `shomei-train nnue`'s tests, in one binary (each test binary links the whole engine):
//! - `gradient`: the gradient is the loss's slope for every parameter of a tiny net;
//! - `quantised`: the exported network evaluates as the float model does, within bounds;
//! - `factors`: factor weights act the same in every king bucket, in floats and integers;
//! - `training`: the loss falls on synthetic data, identically whatever the thread count and
//!   across a resume;
//! - `augment`: positions derived by random moves, labelled by the hand evaluation;
//! - `cli`: `shomei-train nnue` end to end, and its errors.

mod augment;
mod cli;
mod common;
mod factors;
mod gradient;
mod quantised;
#[path = "../common/mod.rs"]
mod shared;
mod training;
