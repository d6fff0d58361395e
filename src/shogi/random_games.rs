//! Positions from seeded random games, for the tests of the mate search and the move picker:
//! every position reached, moves drawn uniformly from the legal ones, so hands fill up and kings
//! get exposed as the games go on.

use super::Position;
use crate::rng::Rng;

/// Every position after each move of `games` random games of at most `plies` moves each (a game
/// ends early when the side to move has no legal move).
pub(crate) fn random_game_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.do_move(rng.pick(moves.as_slice()));
            out.push(pos.clone());
        }
    }
    out
}
