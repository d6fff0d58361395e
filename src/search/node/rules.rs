//! Game-rule results that end the search at a node before any move is tried: repetition, the
//! move limit and an entering-king declaration. Apart from the search because every algorithm
//! (the full search, and the plain ones that check it) asks them the same way.

use super::Worker;
use crate::search::value::*;
use crate::shogi::{Declaration, Sennichite};

/// How far back the search looks for a repetition at every node.
const REPETITION_WINDOW: usize = 16;

impl Worker<'_> {
    /// Score of a draw for the side to move.
    fn draw_value(&self) -> Value {
        if self.pos.side_to_move() == self.root_side {
            self.opts.draw_value
        } else {
            -self.opts.draw_value
        }
    }

    /// The game-rule result at this node, if the rules end the game here: shared by every
    /// algorithm, so they all see the same tree.
    pub(super) fn rule_value(&self, ply: usize) -> Option<Value> {
        match self.pos.repetition(REPETITION_WINDOW, ply) {
            Sennichite::Draw => return Some(self.draw_value()),
            Sennichite::PerpetualCheck(c) => {
                return Some(if c == self.pos.side_to_move() { mated_in(ply) } else { mate_in(ply) })
            }
            Sennichite::None => {}
        }
        if self.opts.max_moves_to_draw > 0 && self.pos.game_ply() > self.opts.max_moves_to_draw {
            return Some(self.draw_value());
        }
        if self.pos.declaration(self.opts.entering_king_rule) == Declaration::Win {
            return Some(mate_in(ply + 1));
        }
        None
    }
}
