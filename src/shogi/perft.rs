//! Perft: counting the leaves of the legal move tree, the move generator's exact test.

use super::movegen::{count_legal, generate, GenType, MoveList};
use super::Position;
use crate::types::Move;

/// Leaf count at `depth`, counting the last ply by generating it without making the moves.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return count_legal(pos) as u64;
    }
    let mut list = MoveList::new();
    generate(pos, GenType::Legal, &mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        pos.do_move(m);
        nodes += perft(pos, depth - 1);
        pos.undo_move();
    }
    nodes
}

/// Leaf count making and unmaking every move down to depth 0 (no bulk counting).
pub fn perft_full(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    generate(pos, GenType::Legal, &mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        pos.do_move(m);
        nodes += perft_full(pos, depth - 1);
        pos.undo_move();
    }
    nodes
}

/// Per-root-move counts (the "divide" listing), in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    for &m in pos.legal_moves().iter() {
        pos.do_move(m);
        let n = perft(pos, depth - 1);
        pos.undo_move();
        out.push((m, n));
    }
    out
}

/// The `go perft` / `shomei perft` listing: `<move>: <count>` per legal move, a blank line, then
/// `Nodes searched: <total>`. Returns the text and the total.
pub fn divide_listing(pos: &mut Position, depth: u32) -> (String, u64) {
    let counts = divide(pos, depth);
    let total: u64 = counts.iter().map(|(_, n)| n).sum();
    let mut text = String::new();
    for (m, n) in &counts {
        text.push_str(&format!("{m}: {n}\n"));
    }
    text.push_str(&format!("\nNodes searched: {total}"));
    (text, total)
}
