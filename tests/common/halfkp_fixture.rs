//! The HalfKP fixtures (`tests/data/halfkp/<arch>.tsv`): YaneuraOu's evaluations of a seeded
//! random net of each size, read by the engine's tests and the trainer's alike.

use shomei::eval::nnue::halfkp::Arch;
use std::path::{Path, PathBuf};

/// The `FV_SCALE`s each position is recorded at: the default, the one some published nets
/// need, and 1 (outputs beyond the evaluation limit get clamped).
pub const FV_SCALES: [i32; 3] = [16, 24, 1];

/// The fixture of `arch` in the folder `dir` (`tests/data/halfkp` of the repository).
pub fn fixture_path(dir: &Path, arch: Arch) -> PathBuf {
    dir.join(format!("{}.tsv", arch.name()))
}

/// A fixture: the network's seed, and per position its SFEN and one evaluation per `FV_SCALE`.
pub struct Fixture {
    pub seed: u64,
    pub rows: Vec<(String, [i32; 3])>,
}

/// Reads `arch`'s fixture from `dir`.
pub fn read_fixture(dir: &Path, arch: Arch) -> Fixture {
    let path = fixture_path(dir, arch);
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
