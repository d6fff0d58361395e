//! Positions for the tuner's tests: seeded random games, traced.

use shomei::eval::trace::trace;
use shomei::Position;
use shomei_train::data::Dataset;

/// Every position of `games` random games of up to `plies` moves from the start.
pub use shomei::shogi::random_game_positions as random_positions;

/// The positions traced, with neutral labels (score 0, a draw).
pub fn dataset(positions: &[Position]) -> Dataset {
    let mut data = Dataset::new();
    for p in positions {
        data.push(&trace(p), 0.0, 0.5);
    }
    data
}
