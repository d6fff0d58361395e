//! Quiescence search: past the horizon, only captures (and every evasion in check) are searched
//! until the position is quiet, so that the static evaluation is never taken in the middle of
//! an exchange. Apart from the main search because it has its own, much simpler steps.

use super::alpha_beta::result_bound;
use super::evaluation::refined_by_table;
use super::Worker;
use crate::search::ordering::{MovePicker, PickerKind};
use crate::search::params::*;
use crate::search::see::{exchange_value, see_ge};
use crate::search::value::*;
use crate::types::Move;

impl Worker<'_> {
    /// Quiescence: stand pat or capture until the position is quiet (a mate in one ends it); all
    /// evasions in check.
    pub(super) fn qsearch<const PV: bool>(
        &mut self,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        qply: i32,
    ) -> Value {
        self.count_node();
        self.stats.qnodes += 1;
        if self.stopped() {
            return 0;
        }
        if PV {
            self.pv.clear(ply);
        }
        self.seldepth = self.seldepth.max(ply + 1);
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        let in_check = self.pos.in_check();
        // Checks are answered only for a few plies, so drop-and-check sequences cannot go on.
        if in_check && qply >= QS_CHECK_PLIES {
            return self.evaluate();
        }
        let key = self.pos.key();
        // Quiescence entries sit below every main-search depth, deeper plies lower still.
        let tt_depth = -1 - qply.min(8);
        self.stats.tt_probes += 1;
        let tt_hit = self.tt.probe(key);
        let mut tt_move = Move::NONE;
        if let Some(e) = tt_hit {
            self.stats.tt_hits += 1;
            let v = from_tt(e.value, ply);
            if !PV && e.bound.cuts(v, alpha, beta) {
                self.stats.tt_cutoffs += 1;
                return v;
            }
            if self.pos.is_legal(e.mv) && (in_check || self.pos.is_capture(e.mv)) {
                tt_move = e.mv;
            }
        }
        let original_alpha = alpha;
        let mut best;
        let (eval, raw_eval);
        if in_check {
            best = -INFINITE;
            (eval, raw_eval) = (VALUE_NONE, VALUE_NONE);
        } else {
            raw_eval = self.static_eval(tt_hit);
            eval = refined_by_table(self.corrected(raw_eval), tt_hit, ply);
            best = eval;
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            // A mate in one outranks any capture. Looked for only when standing pat did not cut (a
            // mate would cut too) and without a table entry (a node stored before was tested then).
            if self.features.pruning && tt_hit.is_none() {
                if let Some(v) = self.mate_in_one_here(key, ply, raw_eval, tt_depth, PV) {
                    return v;
                }
            }
        }
        let buffers = self.take_buffers(ply);
        let mut picker =
            MovePicker::new(PickerKind::Quiescence, &self.pos, &self.history, ply, tt_move, buffers);
        let mut best_move = Move::NONE;
        let mut moves = 0;
        while let Some(m) = picker.next(&self.pos, &self.history) {
            moves += 1;
            if !in_check && !m.is_promotion() && self.features.pruning {
                // Futility: even winning the victim outright leaves us below alpha.
                let victim = self.pos.piece_on(m.to());
                if victim.is_some() {
                    let futile = eval + tuned!(QS_FUTILITY_MARGIN) + exchange_value(victim.kind());
                    if futile <= alpha && !self.pos.gives_check(m) {
                        best = best.max(futile);
                        continue;
                    }
                }
            }
            if !in_check && !see_ge(&self.pos, m, QS_SEE_MARGIN) {
                continue;
            }
            // Fetch the child's table entry while the move is made.
            self.tt.prefetch(self.pos.key_after(m));
            self.make_move(m);
            let v = -self.qsearch::<PV>(-beta, -alpha, ply + 1, qply + 1);
            self.unmake_move();
            if self.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if PV {
                        self.pv.update(ply, m);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        self.give_back(ply, picker);
        if in_check && moves == 0 {
            return mated_in(ply);
        }
        let bound = result_bound(best, original_alpha, beta, PV);
        self.tt.store(key, best_move, to_tt(best, ply), raw_eval, tt_depth, bound);
        best
    }
}
