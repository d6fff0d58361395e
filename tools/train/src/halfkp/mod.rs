//! `shomei-train nnue --arch halfkp_...`: fits YaneuraOu's HalfKP networks (the `nn.bin` the
//! field's engines load) to gensfen data, and writes them in that format.
//!
//! - `model`: the float network with factorised inputs, its loss and gradient, clipping;
//! - `grid`: the file's integer units and rounding onto them, shared by `model` and `export`;
//! - `export`: quantising into the file's integers (factors merged) and reading them back;
//! - `train`: the run;
//! - `stream`: positions as packed records, which records are usable, and training positions
//!   read from disk epoch by epoch (`--stream`).

pub mod export;
pub mod grid;
pub mod model;
pub mod stream;
pub mod train;
