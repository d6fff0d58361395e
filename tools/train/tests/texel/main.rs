//! `shomei-train texel`'s tests, in one binary (each test binary links the whole engine):
//! - `gradient`: the gradient is the error's slope, whatever the thread count;
//! - `synthetic`: known weights are recovered, and early stopping keeps the best epoch;
//! - `cli`: `shomei-train texel` end to end on a tiny gensfen file.

mod cli;
mod common;
mod gradient;
#[path = "../common/mod.rs"]
mod shared;
mod synthetic;
