//! Positions for evaluation tests: SFEN parsing that accepts composed positions, and seeded
//! random games that fill hands and promote pieces.

use shomei::rng::Rng;
use shomei::shogi::{random_game, MoveDraw, SfenMode};
use shomei::Position;

/// The position of `sfen` (composed positions allowed); panics on a bad SFEN.
pub fn pos(sfen: &str) -> Position {
    Position::from_sfen_mode(sfen, SfenMode::Composed).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// Random games from `start`: half of the moves are captures or promotions when there are any
/// (`MoveDraw::Sharp`), so the positions fill up with hand pieces and promoted pieces. Returns
/// every position reached.
pub fn random_play(start: &str, seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let start = pos(start);
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        out.extend(random_game(&start, &mut rng, plies, MoveDraw::Sharp).into_iter().skip(1));
    }
    out
}
