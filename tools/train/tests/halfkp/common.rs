//! The engine's HalfKP fixtures, shared with its tests (`tests/common/halfkp_fixture.rs`), and
//! labelled positions built from them.

#[path = "../../../../tests/common/halfkp_fixture.rs"]
mod fixture;

pub use fixture::{Fixture, FV_SCALES};
use shomei::eval::nnue::halfkp::Arch;
use shomei::Position;
use shomei_train::halfkp::model::{Features, Samples};
use std::path::Path;

/// Reads the engine's fixture of `arch`.
pub fn read_fixture(arch: Arch) -> Fixture {
    fixture::read_fixture(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/halfkp"), arch)
}

/// Positions with targets, to take losses and gradients on.
pub struct Labelled(pub Vec<(Features, f32)>);

impl Labelled {
    /// The fixture positions of `arch` that `pick` keeps, each with the target `target(i)` (`i`
    /// counting the kept ones).
    pub fn from_fixture(arch: Arch, pick: impl Fn(usize) -> bool, target: impl Fn(usize) -> f32) -> Labelled {
        let fixture = read_fixture(arch);
        let kept = fixture.rows.iter().enumerate().filter(|(i, _)| pick(*i)).map(|(_, row)| row);
        Labelled(
            kept.enumerate()
                .map(|(i, (sfen, _))| (Features::of(&Position::from_sfen(sfen).unwrap()), target(i)))
                .collect(),
        )
    }
}

impl Samples for Labelled {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn features(&self, i: usize) -> Features {
        self.0[i].0.clone()
    }
    fn target(&self, i: usize) -> f32 {
        self.0[i].1
    }
}
