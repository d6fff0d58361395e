//! Plain negamax over every legal move: the reference the alpha-beta search is checked against.

use super::Worker;
use crate::search::value::*;

impl Worker<'_> {
    /// The negamax value of the current position searched `depth` plies deep, with the same
    /// leaf evaluation and game rules as the alpha-beta search. Fills the PV at `ply`.
    pub(crate) fn minimax(&mut self, depth: i32, ply: usize) -> Value {
        self.pv.clear(ply);
        if let Some(v) = self.rule_value(ply) {
            return v;
        }
        self.count_node();
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        self.seldepth = self.seldepth.max(ply + 1);
        let moves = self.pos.legal_moves();
        if moves.is_empty() {
            return mated_in(ply);
        }
        let mut best = -INFINITE;
        for &m in moves.iter() {
            self.make_move(m);
            let v = -self.minimax(depth - 1, ply + 1);
            self.unmake_move();
            if self.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                self.pv.update(ply, m);
            }
        }
        best
    }
}
