//! `shomei-train nnue`: fits the engine's network (`shomei::eval::nnue`) to gensfen data.
//!
//! - `data`: the records as feature lists of both perspectives, split by game;
//! - `model`: the float network (with factor features), its loss, the loss's gradient, clipping;
//! - `export`: merging the factors and quantising into the engine's `Network`;
//! - `checkpoint`: the float state on disk, to resume a run;
//! - `plot`: the loss curve as CSV and SVG;
//! - `train`: the run.

pub mod checkpoint;
pub mod data;
pub mod export;
pub mod model;
pub mod plot;
pub mod train;
