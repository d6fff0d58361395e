//! Fixture positions and networks shared by the HalfKP tests.

use shomei::eval::nnue::halfkp::Arch;
use std::path::{Path, PathBuf};

/// The engine's fixture of `arch`: YaneuraOu's evaluations of a seeded random net.
pub fn fixture_path(arch: Arch) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/halfkp").join(format!("{}.tsv", arch.name()))
}

/// A fixture: its network's seed, and per position its SFEN and the evaluations at
/// `FV_SCALE` 16, 24 and 1.
pub struct Fixture {
    pub seed: u64,
    pub rows: Vec<(String, [i32; 3])>,
}

/// The `FV_SCALE`s of a fixture's columns.
pub const FV_SCALES: [i32; 3] = [16, 24, 1];

/// Reads `arch`'s fixture.
pub fn read_fixture(arch: Arch) -> Fixture {
    let path = fixture_path(arch);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut seed = None;
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        if let Some(s) = line.strip_prefix("seed ") {
            seed = Some(s.parse().expect("a seed"));
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 4, "{line}");
        let evals = std::array::from_fn(|i| fields[i].parse().unwrap_or_else(|_| panic!("{line}")));
        rows.push((fields[3].to_string(), evals));
    }
    Fixture { seed: seed.expect("a seed line"), rows }
}
