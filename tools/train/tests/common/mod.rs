//! What both of the tuner's test binaries use: scratch folders and a tiny gensfen file.

use shomei::training_data::gensfen::{self, GameConfig, RunConfig};
use std::path::{Path, PathBuf};

/// An empty scratch folder for the test `name`.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shomei-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Four self-play games at depth 1, written to `dir/tiny.bin`.
pub fn tiny_data(dir: &Path) -> PathBuf {
    let out = dir.join("tiny.bin");
    let game = GameConfig { seed: 3, depth: Some(1), hash_mb: 4, ..GameConfig::default() };
    let config = RunConfig {
        out: out.clone(),
        game,
        first_game: 0,
        games: Some(4),
        positions: None,
        threads: 1,
        progress: false,
    };
    let summary = gensfen::run(&config).unwrap();
    assert!(summary.positions > 50, "{summary:?}");
    out
}
