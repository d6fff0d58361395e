//! The main search: principal-variation alpha-beta with the table, pruning, extensions and
//! reductions, at every node below the root. Its steps are numbered, as in Stockfish, so that a
//! change can name the step it touches; what the steps share with quiescence (the table bound of
//! a result, the mate-in-one test) lives here too.

use super::evaluation::refined_by_table;
use super::Worker;
use crate::search::ordering::{MovePicker, PickerKind};
use crate::search::params::*;
use crate::search::see::{exchange_value, see_ge};
use crate::search::tt::Bound;
use crate::search::value::*;
use crate::types::Move;

/// The table bound of a node's result: a fail high is a lower bound, a score inside a PV node's
/// window is exact, anything else an upper bound.
#[inline]
pub(super) fn result_bound(best: Value, original_alpha: Value, beta: Value, pv: bool) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if pv && best > original_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// The late-move reductions by depth and move number.
pub(super) fn lmr_table() -> Vec<[i32; 64]> {
    let mut t = vec![[0i32; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let (base, divisor) =
                (tuned!(LMR_BASE_CENTI) as f64 / 100.0, tuned!(LMR_DIVISOR_CENTI) as f64 / 100.0);
            *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
        }
    }
    t
}

impl Worker<'_> {
    /// Alpha-beta search of a non-root node; `PV` nodes have an open window. The steps are
    /// numbered in comments, as in Stockfish, so that a change can name the step it touches.
    pub(crate) fn search<const PV: bool>(
        &mut self,
        depth: i32,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
    ) -> Value {
        // Step 1. Game-rule results, the horizon, a stop, and the ply limit.
        self.pv.clear(ply);
        if let Some(v) = self.rule_value(ply) {
            return v;
        }
        if depth <= 0 {
            return if self.features.quiescence {
                self.qsearch::<PV>(alpha, beta, ply, 0)
            } else {
                self.count_node();
                self.evaluate()
            };
        }
        self.count_node();
        if self.stopped() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply + 1);
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        let pruning = self.features.pruning;
        let in_check = self.pos.in_check();
        // A singular-extension search of this node without its table move: no cutoffs from the
        // table, no pruning of the node, nothing stored.
        let excluded = self.excluded[ply];
        let singular_search = !excluded.is_none();

        // Step 2. Mate-distance pruning: no line from here beats a mate already found nearer the root.
        if pruning {
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 3. Transposition table: the table move, and a cutoff at non-PV nodes.
        let key = self.pos.key();
        self.stats.tt_probes += 1;
        let tt_hit = self.tt.probe(key);
        let mut tt_move = Move::NONE;
        if let Some(e) = tt_hit {
            self.stats.tt_hits += 1;
            if self.pos.is_legal(e.mv) {
                tt_move = e.mv;
            }
            if self.features.tt_cutoffs && !PV && !singular_search && e.depth >= depth {
                let v = from_tt(e.value, ply);
                if e.bound.cuts(v, alpha, beta) {
                    self.stats.tt_cutoffs += 1;
                    return v;
                }
            }
        }

        // Step 4. A mate in one ends the search of this node: nothing scores higher. A table
        // entry from the main search means the node was searched before, and its mate in one
        // would have been stored (quiescence looks for one too, but its entries are tested again).
        if pruning && !in_check && !singular_search && tt_hit.is_none_or(|e| e.depth < 0) {
            // Stored as deep as a table entry goes: a mate in one holds at any depth.
            let mate_depth = depth.max(MAX_PLY as i32 - 1);
            if let Some(v) = self.mate_in_one_here(key, ply, VALUE_NONE, mate_depth, true) {
                return v;
            }
        }

        // Step 5. Static evaluation, and whether it improved on our previous move's (four plies
        // back when we were in check two plies ago; unknown counts as improving).
        // The table keeps the raw evaluation; the search prunes by the corrected one.
        let raw_eval = if in_check { VALUE_NONE } else { self.static_eval(tt_hit) };
        let static_eval = if in_check { -INFINITE } else { self.corrected(raw_eval) };
        self.static_evals[ply] = static_eval;
        let improving = !in_check && self.improving(ply, static_eval);
        // A table value whose bound says the position is better (or worse) than the static
        // evaluation is the better guess for the pruning decisions below; `improving` and the
        // correction history keep comparing static evaluations.
        let eval = if in_check { static_eval } else { refined_by_table(static_eval, tt_hit, ply) };

        if pruning && !PV && !in_check && !singular_search && !is_mate_score(beta) {
            // Step 6. Razoring: far below alpha at the frontier, only captures could save it.
            if depth <= RAZOR_MAX_DEPTH && eval + tuned!(RAZOR_MARGIN) * depth < alpha {
                let v = self.qsearch::<false>(alpha, alpha + 1, ply, 0);
                if v <= alpha {
                    self.stats.razor_prunes += 1;
                    return v;
                }
            }
            // Step 7. Reverse futility: so far above beta that a quiet reply will not bring it back.
            // A position whose evaluation the correction history moves far is one the
            // evaluation misjudges: the margin widens by the size of the correction.
            let uncertainty = (static_eval - raw_eval).abs() * RFP_CORRECTION_PERCENT / 100;
            let margin = tuned!(RFP_MARGIN) * (depth - improving as i32) + uncertainty;
            if depth <= tuned!(RFP_MAX_DEPTH) && eval - margin >= beta {
                self.stats.rfp_prunes += 1;
                return eval;
            }
            // Step 8. Null move: if passing still fails high, a real move surely does.
            if depth >= NULL_MIN_DEPTH && eval >= beta && self.pos.last_move().is_some() {
                self.stats.null_tries += 1;
                let r = tuned!(NULL_REDUCTION_BASE)
                    + depth / tuned!(NULL_REDUCTION_DIVISOR)
                    + ((eval - beta) / tuned!(NULL_EVAL_DIVISOR)).min(NULL_EVAL_MAX);
                self.make_null_move();
                let v = -self.search::<false>(depth - 1 - r, -beta, -beta + 1, ply + 1);
                self.unmake_null_move();
                if self.stopped() {
                    return 0;
                }
                if v >= beta {
                    self.stats.null_cutoffs += 1;
                    return if is_mate_score(v) { beta } else { v };
                }
            }
        }

        // Step 9. The move loop, in the picker's order.
        let buffers = self.take_buffers(ply);
        let mut picker = MovePicker::new(PickerKind::Main, &self.pos, &self.history, ply, tt_move, buffers);
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut moves_tried = 0usize;
        // Every move the picker gave, pruned ones included.
        let mut move_count = 0usize;
        let mut quiets_tried = [Move::NONE; 64];
        let mut quiet_count = 0usize;
        let mut captures_tried = [Move::NONE; 32];
        let mut capture_count = 0usize;
        let original_alpha = alpha;

        while let Some(m) = picker.next(&self.pos, &self.history) {
            if m == excluded {
                continue;
            }
            move_count += 1;
            // Start fetching the child's table entry now: the probe after making the move would
            // otherwise wait on memory. Fetched this early, before the pruning below, the search
            // ran about 2% faster at fixed nodes than fetching only for the moves searched.
            self.tt.prefetch(self.pos.key_after(m));
            let quiet = self.pos.is_quiet(m);
            // Asked while pruning when it decides (a check is neither futile nor history-pruned),
            // or once pruning is past.
            let mut gives_check = None;
            // A quiet move's history score, when pruning asked for it; late-move reduction uses it too.
            let mut quiet_history = None;

            // Step 10. Pruning at shallow depth: late quiet moves, quiet moves with a poor
            // history, futile quiet moves and captures, and moves that lose material by SEE.
            // Futility and SEE look at the depth a late move would be searched to after its
            // reduction (for a quiet move, one ply deeper per `HISTORY_DEPTH_DIVISOR` of its
            // history). PV nodes are pruned too, as in Stockfish and YaneuraOu: their late moves
            // are as unlikely to matter, and pruning them takes 39% off the bench's nodes, 44%
            // with the network (docs/strength.md, tenth screen).
            if pruning && moves_tried > 0 && best > -MATE_IN_MAX_PLY && !in_check {
                // Late-move pruning: enough moves picked at a shallow node; no more quiets.
                if depth <= LMP_MAX_DEPTH && move_count >= lmp_limit(depth, improving) {
                    picker.skip_quiets();
                    if quiet {
                        self.stats.lmp_prunes += 1;
                        continue;
                    }
                }
                let lmr_depth = depth - 1 - self.lmr[depth.min(63) as usize][move_count.min(63)];
                if quiet {
                    let check = self.pos.gives_check(m);
                    gives_check = Some(check);
                    if !check {
                        // A quiet move that has failed often in such places is not tried; one
                        // that has done well is pruned as if it were searched deeper.
                        let history = self.history.quiet_score(&self.pos, m);
                        quiet_history = Some(history);
                        if history < -tuned!(HISTORY_PRUNE_PER_DEPTH) * depth {
                            self.stats.history_prunes += 1;
                            continue;
                        }
                        let lmr_depth = (lmr_depth.max(0) + history / tuned!(HISTORY_DEPTH_DIVISOR)).max(0);
                        // Futility: even a good positional gain cannot reach alpha.
                        if lmr_depth <= FUTILITY_MAX_DEPTH
                            && eval + tuned!(FUTILITY_BASE) + tuned!(FUTILITY_PER_DEPTH) * lmr_depth <= alpha
                        {
                            self.stats.futility_prunes += 1;
                            continue;
                        }
                        if lmr_depth <= SEE_PRUNE_MAX_DEPTH
                            && !see_ge(&self.pos, m, tuned!(SEE_QUIET_MARGIN) * lmr_depth)
                        {
                            self.stats.see_prunes += 1;
                            continue;
                        }
                    }
                } else {
                    // Futility for captures: not even the victim and a margin reach alpha.
                    let victim = self.pos.piece_on(m.to());
                    if lmr_depth < CAPTURE_FUTILITY_MAX_DEPTH && victim.is_some() && !m.is_promotion() {
                        let check = self.pos.gives_check(m);
                        gives_check = Some(check);
                        let futile = eval
                            + tuned!(CAPTURE_FUTILITY_BASE)
                            + tuned!(CAPTURE_FUTILITY_PER_DEPTH) * lmr_depth.max(0)
                            + exchange_value(victim.kind())
                            + self.history.capture_score(&self.pos, m) / CAPTURE_FUTILITY_HISTORY_DIVISOR;
                        if !check && futile <= alpha {
                            self.stats.futility_prunes += 1;
                            continue;
                        }
                    }
                    if depth <= SEE_PRUNE_MAX_DEPTH
                        && !see_ge(&self.pos, m, tuned!(SEE_CAPTURE_MARGIN) * depth)
                    {
                        self.stats.see_prunes += 1;
                        continue;
                    }
                }
            }
            let gives_check = gives_check.unwrap_or_else(|| self.pos.gives_check(m));

            // Step 11. Extensions. Singular: when every move but the table move fails well below
            // the table's value, that move is forced and searched a ply deeper; when even
            // without it the node fails high, it is cut at once (multi-cut); when the table move
            // is merely one of several good ones, it is searched a ply shallower. Otherwise,
            // checks that do not simply lose the checking piece are extended.
            let deep_enough = ply < 2 * self.root_depth as usize;
            let mut extension = 0;
            if let Some(e) = tt_hit.filter(|e| {
                pruning
                    && m == tt_move
                    && !singular_search
                    && ply > 0
                    && depth >= SINGULAR_MIN_DEPTH
                    && e.depth >= depth - SINGULAR_TT_DEPTH_MARGIN
                    && matches!(e.bound, Bound::Lower | Bound::Exact)
                    && !is_mate_score(e.value)
            }) {
                let tt_value = from_tt(e.value, ply);
                let singular_beta = tt_value - tuned!(SINGULAR_MARGIN_PER_DEPTH) * depth;
                self.excluded[ply] = m;
                std::mem::swap(&mut self.buffers[ply], &mut self.singular_buffers);
                let v = self.search::<false>((depth - 1) / 2, singular_beta - 1, singular_beta, ply);
                std::mem::swap(&mut self.buffers[ply], &mut self.singular_buffers);
                self.excluded[ply] = Move::NONE;
                if self.stopped() {
                    self.give_back(ply, picker);
                    return 0;
                }
                if v < singular_beta {
                    self.stats.singular_extensions += 1;
                    extension = deep_enough as i32;
                } else if singular_beta >= beta {
                    self.stats.multi_cuts += 1;
                    self.give_back(ply, picker);
                    return singular_beta;
                } else if tt_value >= beta {
                    extension = -1;
                }
            }
            if extension == 0 && pruning && gives_check && deep_enough && see_ge(&self.pos, m, 0) {
                self.stats.check_extensions += 1;
                extension = 1;
            }
            let new_depth = depth - 1 + extension;

            // Step 12. Late-move reduction: every move after the first is searched shallower
            // (captures, promotions and moves out of check too; only checks that were extended
            // are not), more so at non-PV nodes, less when improving or with a good history.
            // Captures and promotions are reduced a ply less than quiet moves and steered by
            // their capture history. (Measured and dropped: less for killers, at the root.)
            let mut r = 0;
            if pruning && moves_tried > 0 && depth >= LMR_MIN_DEPTH && (!gives_check || extension <= 0) {
                r = self.lmr[depth.min(63) as usize][(moves_tried + 1).min(63)];
                r += (!PV) as i32 - improving as i32;
                r -= if quiet {
                    quiet_history.unwrap_or_else(|| self.history.quiet_score(&self.pos, m))
                        / tuned!(LMR_HISTORY_DIVISOR)
                } else {
                    1 + self.history.capture_score(&self.pos, m) / CAPTURE_LMR_HISTORY_DIVISOR
                };
                r = r.clamp(0, (new_depth - 1).max(0));
                if r > 0 {
                    self.stats.lmr_reductions += 1;
                }
            }

            // Step 13. Make the move and search it: the first with the full window, the others
            // with a null window (reduced when late), searched again when they beat alpha.
            self.make_move(m);
            moves_tried += 1;
            let mut v;
            if moves_tried == 1 {
                v = -self.search::<PV>(new_depth, -beta, -alpha, ply + 1);
            } else {
                v = -self.search::<false>(new_depth - r, -alpha - 1, -alpha, ply + 1);
                if r > 0 && v > alpha {
                    self.stats.lmr_researches += 1;
                    v = -self.search::<false>(new_depth, -alpha - 1, -alpha, ply + 1);
                }
                if PV && v > alpha && v < beta {
                    v = -self.search::<true>(new_depth, -beta, -alpha, ply + 1);
                }
            }
            self.unmake_move();
            if self.stopped() {
                return 0;
            }

            // Step 14. A new best move, and a beta cutoff.
            if quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = m;
                quiet_count += 1;
            } else if !quiet && capture_count < captures_tried.len() {
                captures_tried[capture_count] = m;
                capture_count += 1;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    if PV {
                        self.pv.update(ply, m);
                    }
                    if v >= beta {
                        self.stats.beta_cutoffs += 1;
                        if moves_tried == 1 {
                            self.stats.first_move_cutoffs += 1;
                        }
                        break;
                    }
                    alpha = v;
                }
            }
        }

        // Step 14b. The history learns from the best move, whether it cut the node off or only
        // raised alpha at a PV node: it is rewarded and the other moves tried are penalised. A
        // node where nothing reached alpha rewards instead the opponent's last move, as
        // YaneuraOu and Stockfish do (docs/strength.md, nineteenth screen).
        if !best_move.is_none() {
            let quiet_best = self.pos.is_quiet(best_move);
            if quiet_best {
                self.history.update_quiet(&self.pos, ply, best_move, &quiets_tried[..quiet_count], depth);
            } else {
                // The quiet moves tried beside a capture that was best were not.
                self.history.penalize_quiets(&self.pos, &quiets_tried[..quiet_count], depth);
            }
            let capture_best = (!quiet_best).then_some(best_move);
            self.history.update_captures(&self.pos, capture_best, &captures_tried[..capture_count], depth);
        } else if pruning && moves_tried > 0 && !singular_search {
            self.history.reward_previous_quiet(&self.pos, depth);
        }

        self.give_back(ply, picker);
        if moves_tried == 0 {
            // Step 15. No legal move (or all pruned, which cannot happen: the first move is never
            // pruned), or none but the move a singular search leaves out.
            return if singular_search { alpha } else { mated_in(ply) };
        }
        if singular_search {
            return best;
        }

        // Step 16. Store the result in the table.
        let bound = result_bound(best, original_alpha, beta, PV);
        self.tt.store(key, best_move, to_tt(best, ply), raw_eval, depth, bound);

        // Step 17. Teach the correction history how far the static evaluation was off, where
        // the bound says the difference is real and no capture decided it.
        if pruning
            && !in_check
            && (best_move.is_none() || !self.pos.is_capture(best_move))
            && !is_mate_score(best)
            && match bound {
                // A fail high says only "at least best": a correction upwards; a fail low, downwards.
                Bound::Lower => best > static_eval,
                Bound::Upper => best < static_eval,
                _ => true,
            }
        {
            self.history.correction.update(&self.pos, depth, best, static_eval);
        }
        best
    }

    /// The mate-in-one test shared by the main search and quiescence: when the side to move mates
    /// at once, the mate is stored as an exact entry of `tt_depth` (with `eval`), put on the
    /// principal variation when `on_pv`, and its value returned.
    pub(super) fn mate_in_one_here(
        &mut self,
        key: u64,
        ply: usize,
        eval: Value,
        tt_depth: i32,
        on_pv: bool,
    ) -> Option<Value> {
        let m = crate::mate::mate_in_one(&mut self.pos)?;
        let v = mate_in(ply + 1);
        if on_pv {
            self.pv.update(ply, m);
        }
        self.tt.store(key, m, to_tt(v, ply), eval, tt_depth, Bound::Exact);
        Some(v)
    }
}
