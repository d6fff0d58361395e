//! Results: what a decided (or over-threshold) frame hands to its parent, with its proof or
//! disproof hand and mate length or disproof depth, and how it is stored and popped.

use super::node::{NodeResult, NO_DEP};
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
            let res = c.hand_before_move(pos, c.res);
            return NodeResult::proven(c.len.saturating_add(1).min(UNLIMITED - 1), res.min(f.hand));
        }
        if dn == 0 {
            let mut res = Hand::full();
            let mut depth = UNLIMITED;
            let mut dep = NO_DEP;
            for c in kids {
                res = res.min(c.hand_before_move(pos, c.res));
                depth = depth.min(c.len);
                dep = dep.min(c.dep);
            }
            // Kinds the attacker lacks would bring new drops: the disproof cannot assume them.
            for k in PieceKind::HAND {
                if f.hand.count(k) == 0 {
                    res.set(k, 0);
                }
            }
            let depth = if depth == UNLIMITED { UNLIMITED } else { depth + 1 };
            return NodeResult::disproven(depth, res.max(f.hand), dep);
        }
        NodeResult { pn, dn, len: 0, res: f.hand, dep: NO_DEP }
    }

    /// The result of an AND frame whose numbers are `pn`, `dn`.
    pub(super) fn result_and(&self, pos: &Position, top: usize, pn: u32, dn: u32) -> NodeResult {
        let f = &self.frames[top];
        let kids = &self.children[f.start..f.end];
        if pn == 0 {
            let mut res = f.req;
            let mut len = 0u16;
            for c in kids {
                res = res.max(c.res);
                len = len.max(c.len);
            }
            return NodeResult::proven(len.saturating_add(1).min(UNLIMITED - 1), res.min(f.hand));
        }
        if dn == 0 {
            // Prefer a refutation that does not depend on the path, then the deepest.
            let c =
                kids.iter().filter(|c| c.dn == 0).max_by_key(|c| (c.dep, c.len)).expect("a disproven child");
            let mut res = c.res;
            if c.mv.is_drop() {
                // The defender must still hold the dropped piece: the attacker at most all but one.
                let k = c.mv.dropped_kind();
                let def = pos.hand(!self.attacker).count(k);
                let cap = (f.hand.count(k) + def).saturating_sub(1);
                res.set(k, res.count(k).min(cap));
            }
            let depth = if c.len == UNLIMITED { UNLIMITED } else { c.len + 1 };
            return NodeResult::disproven(depth, res.max(f.hand), c.dep);
        }
        NodeResult { pn, dn, len: 0, res: f.hand, dep: NO_DEP }
    }

    /// Stores the top frame's result, pops it and passes the result to the parent. Returns the
    /// outcome when the root was popped.
    pub(super) fn finish(&mut self, pos: &mut Position, mut r: NodeResult) -> Option<Outcome> {
        let f = self.frames.pop().expect("a frame");
        self.leave_path(f.key);
        self.children.truncate(f.start);
        let work = self.nodes - f.nodes0 + 1;
        if !f.no_store {
            if r.pn == 0 {
                self.tt.store_proven(f.key, r.res, r.len, work);
            } else if r.dn == 0 {
                if r.dep > f.ply {
                    self.tt.store_disproven(f.key, r.res, r.len, work);
                    r.dep = NO_DEP;
                }
            } else {
                self.tt.store_unknown(f.key, f.hand, r.pn, r.dn, work);
            }
        } else if r.dn == 0 && r.dep != 0 && r.dep > f.ply {
            r.dep = NO_DEP;
        }
        if self.frames.is_empty() {
            return Some(if r.pn == 0 {
                Outcome::Proven { len: r.len, hand: r.res }
            } else if r.dn == 0 {
                Outcome::Disproven { depth: r.len, certain: r.dep != 0 }
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
    let mut res = Hand::full();
    for k in PieceKind::HAND {
        if hand.count(k) == 0 {
            res.set(k, 0);
        }
    }
    res
}
