//! Perft: leaf counts of the legal move tree. Moving into capture counts, a Try does not end
//! the tree, and a position whose Lion has just been captured has no moves.

use super::movegen::legal_moves;
use super::position::Position;
use super::sfen::move_to_usi;

/// Leaf count at `depth`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|&m| perft(&pos.play(m), depth - 1)).sum()
}

/// Per-move leaf counts at `depth` (≥ 1) in USI notation, in generation order, and the total.
pub fn divide(pos: &Position, depth: u32) -> (Vec<(String, u64)>, u64) {
    let rows: Vec<(String, u64)> = legal_moves(pos)
        .iter()
        .map(|&m| (move_to_usi(m), perft(&pos.play(m), depth.saturating_sub(1))))
        .collect();
    let total = rows.iter().map(|r| r.1).sum();
    (rows, total)
}

/// Leaf count at `depth` when a successful Try ends the game (the side to move, whose opponent's
/// Lion stands uncapturable on its far rank, has no moves). This is how Fairy-Stockfish's
/// `go perft` counts dobutsu from the start: 71,677 at depth 6.
pub fn perft_try_ends(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.lost_to_try() {
        return 0;
    }
    let moves = legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|&m| perft_try_ends(&pos.play(m), depth - 1)).sum()
}
