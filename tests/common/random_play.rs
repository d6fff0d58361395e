//! Positions for evaluation tests: SFEN parsing that accepts composed positions, and seeded
//! random games that fill hands and promote pieces.

use shomei::rng::Rng;
use shomei::shogi::SfenMode;
use shomei::{Move, Position};

/// The position of `sfen` (composed positions allowed); panics on a bad SFEN.
pub fn pos(sfen: &str) -> Position {
    Position::from_sfen_mode(sfen, SfenMode::Composed).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// Random games from `start`: half of the moves are captures or promotions when there are any,
/// so the positions fill up with hand pieces and promoted pieces. Returns every position reached.
pub fn random_play(start: &str, seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = pos(start);
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let sharp: Vec<Move> =
                moves.iter().copied().filter(|&m| p.is_capture(m) || m.is_promotion()).collect();
            let m = if !sharp.is_empty() && rng.next_u64() & 1 == 0 {
                sharp[rng.below(sharp.len())]
            } else {
                moves.as_slice()[rng.below(moves.len())]
            };
            p.do_move(m);
            out.push(p.clone());
        }
    }
    out
}
