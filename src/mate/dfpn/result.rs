//! Results: what a decided (or over-threshold) frame hands to its parent, with its proof or
//! disproof hand and mate length or disproof depth, and how it is stored and popped.

use super::node::{NodeResult, NO_DEPENDENCY};
use super::{Outcome, Solver};
use crate::mate::tt::UNLIMITED;
use crate::shogi::Position;
use crate::types::{Hand, PieceKind};

impl Solver<'_> {
    /// The result of an OR frame whose numbers are `pn`, `dn`.
    pub(super) fn result_or(&self, pos: &Position, top: usize, pn: u32, dn: u32) -> NodeResult {
        let f = &self.frames[top];
        let kids = &self.children[f.start..f.end];
        if pn == 0 {
            let c = kids.iter().filter(|c| c.pn == 0).min_by_key(|c| c.len).expect("a proven child");
            let proof_hand = c.hand_before_move(pos, c.result_hand);
            return NodeResult::proven(c.len.saturating_add(1).min(UNLIMITED - 1), proof_hand.min(f.hand));
        }
        if dn == 0 {
            let mut disproof_hand = Hand::full();
            let mut depth = UNLIMITED;
            let mut depends_on = NO_DEPENDENCY;
            for c in kids {
                disproof_hand = disproof_hand.min(c.hand_before_move(pos, c.result_hand));
                depth = depth.min(c.len);
                depends_on = depends_on.min(c.depends_on);
            }
            // Kinds the attacker lacks would bring new drops: the disproof cannot assume them.
            for k in PieceKind::HAND {
                if f.hand.count(k) == 0 {
                    disproof_hand.set(k, 0);
                }
            }
            let depth = if depth == UNLIMITED { UNLIMITED } else { depth + 1 };
            return NodeResult::disproven(depth, disproof_hand.max(f.hand), depends_on);
        }
        NodeResult { pn, dn, len: 0, result_hand: f.hand, depends_on: NO_DEPENDENCY }
    }

    /// The result of an AND frame whose numbers are `pn`, `dn`.
    pub(super) fn result_and(&self, pos: &Position, top: usize, pn: u32, dn: u32) -> NodeResult {
        let f = &self.frames[top];
        let kids = &self.children[f.start..f.end];
        if pn == 0 {
            let mut proof_hand = f.interposition_hand;
            let mut len = 0u16;
            for c in kids {
                proof_hand = proof_hand.max(c.result_hand);
                len = len.max(c.len);
            }
            return NodeResult::proven(len.saturating_add(1).min(UNLIMITED - 1), proof_hand.min(f.hand));
        }
        if dn == 0 {
            // Prefer a refutation that does not depend on the path, then the deepest.
            let c = kids
                .iter()
                .filter(|c| c.dn == 0)
                .max_by_key(|c| (c.depends_on, c.len))
                .expect("a disproven child");
            let mut disproof_hand = c.result_hand;
            if c.mv.is_drop() {
                // The defender must still hold the dropped piece: the attacker at most all but one.
                let k = c.mv.dropped_kind();
                let defender_count = pos.hand(!self.attacker).count(k);
                let attacker_most = (f.hand.count(k) + defender_count).saturating_sub(1);
                disproof_hand.set(k, disproof_hand.count(k).min(attacker_most));
            }
            let depth = if c.len == UNLIMITED { UNLIMITED } else { c.len + 1 };
            return NodeResult::disproven(depth, disproof_hand.max(f.hand), c.depends_on);
        }
        NodeResult { pn, dn, len: 0, result_hand: f.hand, depends_on: NO_DEPENDENCY }
    }

    /// Stores the top frame's result, pops it and passes the result to the parent. Returns the
    /// outcome when the root was popped.
    pub(super) fn finish(&mut self, pos: &mut Position, mut r: NodeResult) -> Option<Outcome> {
        let f = self.frames.pop().expect("a frame");
        self.leave_path(f.key);
        self.children.truncate(f.start);
        let work = self.nodes - f.nodes_at_entry + 1;
        if !f.no_store {
            if r.pn == 0 {
                self.tt.store_proven(f.key, r.result_hand, r.len, work);
            } else if r.dn == 0 {
                if r.depends_on > f.ply {
                    self.tt.store_disproven(f.key, r.result_hand, r.len, work);
                    r.depends_on = NO_DEPENDENCY;
                }
            } else {
                self.tt.store_unknown(f.key, f.hand, r.pn, r.dn, work);
            }
        } else if r.dn == 0 && r.depends_on != 0 && r.depends_on > f.ply {
            r.depends_on = NO_DEPENDENCY;
        }
        if self.frames.is_empty() {
            return Some(if r.pn == 0 {
                Outcome::Proven { len: r.len, hand: r.result_hand }
            } else if r.dn == 0 {
                Outcome::Disproven { depth: r.len, certain: r.depends_on != 0 }
            } else {
                // Thresholds at the root are infinite: only a decided root is popped.
                Outcome::Aborted
            });
        }
        pos.undo_move();
        let parent = self.frames.last().expect("a parent");
        let i = parent.current;
        self.children[i].set(r);
        None
    }
}

/// Disproof hand of an OR node without any check: more pieces of kinds already held add no new
/// move, a kind not held could.
pub(super) fn no_move_disproof_hand(hand: Hand) -> Hand {
    let mut disproof_hand = Hand::full();
    for k in PieceKind::HAND {
        if hand.count(k) == 0 {
            disproof_hand.set(k, 0);
        }
    }
    disproof_hand
}
