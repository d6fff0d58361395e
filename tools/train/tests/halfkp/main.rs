//! `shomei-train nnue --arch halfkp_...`'s tests, in one binary (each test binary links the
//! whole engine):
//! - `export`: quantising and reading back are the identity on the file's integers, and the
//!   seeded fixture nets written through the trainer's exporter evaluate, in shomei's loader,
//!   as YaneuraOu does (`tests/data/halfkp`);
//! - `quantised`: the file's integer evaluation equals the float model within a bound computed
//!   from the weights;
//! - `gradient`: the gradient is the loss's slope, whatever the thread count;
//! - `grid`: on the grid the model computes what its written net computes, bit for bit;
//! - `training`: a run on real self-play lowers the loss, writes a net both loaders read, the
//!   same bytes for any thread count, and `--init` starts from it;
//! - `stream`: `--stream` reads each training position once an epoch, holds out the same games
//!   as a full load, and trains.

mod common;
mod export;
mod gradient;
mod grid;
mod quantised;
#[path = "../common/mod.rs"]
mod shared;
mod stream;
mod training;
