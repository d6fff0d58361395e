//! Positions for the tuner's tests: seeded random games, traced.

use shomei::eval::trace::trace;
use shomei::rng::Rng;
use shomei::Position;
use shomei_train::data::Dataset;

/// Every position of `games` random games of up to `plies` moves from the start.
pub fn random_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Position::startpos();
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.do_move(rng.pick(moves.as_slice()));
            out.push(p.clone());
        }
    }
    out
}

/// The positions traced, with neutral labels (score 0, a draw).
pub fn dataset(positions: &[Position]) -> Dataset {
    let mut data = Dataset::new();
    for p in positions {
        data.push(&trace(p), 0.0, 0.5);
    }
    data
}
