//! The engine's HalfKP fixtures, shared with its tests (`tests/common/halfkp_fixture.rs`).

#[path = "../../../../tests/common/halfkp_fixture.rs"]
mod fixture;

pub use fixture::{Fixture, FV_SCALES};
use shomei::eval::nnue::halfkp::Arch;
use std::path::Path;

/// Reads the engine's fixture of `arch`.
pub fn read_fixture(arch: Arch) -> Fixture {
    fixture::read_fixture(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/halfkp"), arch)
}
