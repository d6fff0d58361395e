//! One search thread's recursive search: the principal-variation alpha-beta and quiescence,
//! and (in `minimax`) the plain negamax it is checked against.

mod minimax;

use crate::eval::params::EVAL_LIMIT;
use crate::eval::Evaluator;
use crate::search::history::History;
use crate::search::ordering::{MovePicker, PickerBuffers, PickerKind};
use crate::search::params::*;
use crate::search::see::{exchange_value, see_ge};
use crate::search::shared::Shared;
use crate::search::stats::SearchStats;
use crate::search::tt::{Bound, TranspositionTable, TtData};
use crate::search::value::*;
use crate::search::{SearchAlgorithm, SearchEvent, SearchOptions};
use crate::shogi::{Declaration, Position, Sennichite};
use crate::types::{Color, Move};
use crossbeam_channel::Sender;
use std::sync::atomic::Ordering;

/// How far back the search looks for a repetition at every node.
const REPETITION_WINDOW: usize = 16;

/// Which parts of the search are switched on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Features {
    /// Null move, futility, razoring, late-move pruning and reductions, SEE pruning, extensions,
    /// mate-distance pruning.
    pub pruning: bool,
    /// Return early on a deep-enough table entry.
    pub tt_cutoffs: bool,
    /// Resolve captures past the horizon instead of evaluating statically.
    pub quiescence: bool,
    pub aspiration: bool,
}

impl Features {
    pub fn of(algorithm: SearchAlgorithm) -> Features {
        let full = algorithm == SearchAlgorithm::Full;
        Features { pruning: full, tt_cutoffs: full, quiescence: full, aspiration: full }
    }
}

/// What only the main thread does: watch the clock and report progress.
pub(crate) struct MainThreadDuties {
    pub events: Sender<SearchEvent>,
    pub node_limit: Option<u64>,
    pub last_progress_ms: u64,
    /// When the last `Pv` event was sent, in ms after the `go` (0 before the first).
    pub last_pv_ms: u64,
    /// The last line sent: shown again, with the nodes and time of the moment, when an
    /// iteration runs `pv_interval_ms` without a new one.
    pub shown_line: Option<super::PvInfo>,
}

pub(crate) struct Worker<'a> {
    pub id: usize,
    /// The position searched. Moves are made and taken back through `make_move` and
    /// `unmake_move` (and the null-move pair), which keep the network's accumulators in step.
    pub pos: Position,
    /// The evaluation the options name, with its accumulators for the current line.
    evaluator: Evaluator,
    pub tt: &'a TranspositionTable,
    pub shared: &'a Shared,
    pub opts: SearchOptions,
    features: Features,
    pub history: History,
    stats: SearchStats,
    pub seldepth: usize,
    pub root_depth: i32,
    pub root_side: Color,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    static_evals: [Value; MAX_PLY + 4],
    /// The move a singular-extension search leaves out at each ply (`Move::NONE` normally).
    excluded: [Move; MAX_PLY + 4],
    lmr: Vec<[i32; 64]>,
    /// Move-picker storage per ply, lent to each node and given back.
    buffers: Vec<PickerBuffers>,
    /// Picker storage for a singular search, which runs at its node's ply while the node's own
    /// picker holds that ply's buffers (without it, each would allocate fresh ones).
    singular_buffers: PickerBuffers,
    pub main: Option<MainThreadDuties>,
}

/// The table bound of a node's result: a fail high is a lower bound, a score inside a PV node's
/// window is exact, anything else an upper bound.
#[inline]
fn result_bound(best: Value, original_alpha: Value, beta: Value, pv: bool) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if pv && best > original_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// A static evaluation refined by the table: a stored value whose bound says the position is at
/// least (or at most) that value is the better guess where it lies on that side of `eval`.
#[inline]
fn refined_by_table(eval: Value, tt_hit: Option<TtData>, ply: usize) -> Value {
    match tt_hit {
        Some(e) if !is_mate_score(e.value) => {
            let v = from_tt(e.value, ply);
            let wanted = if v > eval { Bound::Lower } else { Bound::Upper };
            if e.bound == Bound::Exact || e.bound == wanted {
                v
            } else {
                eval
            }
        }
        _ => eval,
    }
}

fn lmr_table() -> Vec<[i32; 64]> {
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

impl<'a> Worker<'a> {
    pub fn new(
        id: usize,
        pos: Position,
        tt: &'a TranspositionTable,
        shared: &'a Shared,
        opts: SearchOptions,
        history: History,
    ) -> Worker<'a> {
        let root_side = pos.side_to_move();
        let evaluator = Evaluator::new(opts.network.as_ref(), &pos, opts.incremental);
        let features = Features::of(opts.algorithm);
        let mut w = Worker {
            id,
            pos,
            evaluator,
            tt,
            shared,
            opts,
            features,
            history,
            stats: SearchStats::default(),
            seldepth: 0,
            root_depth: 0,
            root_side,
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            static_evals: [0; MAX_PLY + 4],
            excluded: [Move::NONE; MAX_PLY + 4],
            lmr: lmr_table(),
            buffers: (0..MAX_PLY + 1).map(|_| PickerBuffers::default()).collect(),
            singular_buffers: PickerBuffers::default(),
            main: None,
        };
        // Plies 2 and 3 compare their evaluation with the root's.
        w.static_evals[0] = if w.pos.in_check() { -INFINITE } else { w.evaluate() };
        w
    }

    /// Plays the legal move `m`. Every move the search makes goes through here.
    #[inline]
    pub(crate) fn make_move(&mut self, m: Move) {
        self.evaluator.push(&self.pos, m);
        self.pos.do_move(m);
    }

    /// Takes back the move `make_move` made last.
    #[inline]
    pub(crate) fn unmake_move(&mut self) {
        self.pos.undo_move();
        self.evaluator.pop();
    }

    /// Passes the turn (not in check).
    #[inline]
    fn make_null_move(&mut self) {
        self.evaluator.push_null();
        self.pos.do_null_move();
    }

    /// Takes back `make_null_move`.
    #[inline]
    fn unmake_null_move(&mut self) {
        self.pos.undo_null_move();
        self.evaluator.pop();
    }

    /// The static evaluation of the current position, from the side to move's point of view,
    /// within the hand-written evaluation's bounds (a network's may reach beyond them).
    #[inline]
    pub(crate) fn evaluate(&mut self) -> Value {
        self.evaluator.evaluate(&self.pos).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The principal variation below the root move just searched (without that move).
    pub fn root_child_pv(&self) -> &[Move] {
        &self.pv[1][1..self.pv_len[1]]
    }

    /// Whether iterations start with an aspiration window.
    pub fn uses_aspiration(&self) -> bool {
        self.features.aspiration
    }

    /// What this thread has counted so far.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Counts a node, publishes the count, and on the main thread checks limits now and then.
    #[inline]
    pub(crate) fn count_node(&mut self) {
        self.stats.nodes += 1;
        self.shared.nodes[self.id].store(self.stats.nodes, Ordering::Relaxed);
        if self.stats.nodes & 1023 == 0 && self.main.is_some() {
            self.check_limits();
        }
    }

    fn check_limits(&mut self) {
        let shared = self.shared;
        let elapsed = shared.elapsed_ms();
        let on_clock = shared.clock_elapsed_ms();
        let Some(main) = self.main.as_mut() else { return };
        if let Some(limit) = main.node_limit {
            if shared.total_nodes() >= limit {
                shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if let Some(b) = shared.budget() {
            if !shared.pondering.load(Ordering::Relaxed) && on_clock >= b.maximum.as_millis() as u64 {
                shared.stopped_by_clock.store(true, Ordering::Relaxed);
                shared.stop.store(true, Ordering::Relaxed);
            }
        }
        let interval = self.opts.pv_interval_ms;
        if interval > 0 && elapsed >= main.last_pv_ms + interval {
            if let Some(line) = main.shown_line.as_mut() {
                line.nodes = shared.total_nodes();
                line.hashfull = self.tt.hashfull();
                line.time_ms = elapsed;
                main.last_pv_ms = elapsed;
                let _ = main.events.send(SearchEvent::Pv(line.clone()));
            }
        }
        if elapsed >= main.last_progress_ms + 1000 {
            main.last_progress_ms = elapsed;
            let nodes = shared.total_nodes();
            let _ = main.events.send(SearchEvent::Progress(super::ProgressInfo {
                depth: self.root_depth,
                seldepth: self.seldepth,
                nodes,
                hashfull: self.tt.hashfull(),
                time_ms: elapsed,
            }));
        }
    }

    fn take_buffers(&mut self, ply: usize) -> PickerBuffers {
        std::mem::replace(&mut self.buffers[ply], PickerBuffers::EMPTY)
    }

    fn give_back(&mut self, ply: usize, picker: MovePicker) {
        self.buffers[ply] = picker.into_buffers();
    }

    #[inline]
    pub fn stopped(&self) -> bool {
        self.shared.stopped()
    }

    /// Score of a draw for the side to move.
    fn draw_value(&self) -> Value {
        if self.pos.side_to_move() == self.root_side {
            self.opts.draw_value
        } else {
            -self.opts.draw_value
        }
    }

    /// Game-rule results that end the search at this node before any move is tried: repetition,
    /// the move limit and an entering-king declaration. Shared by every algorithm, so they all
    /// see the same tree.
    pub(crate) fn rule_value(&self, ply: usize) -> Option<Value> {
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

    /// The static evaluation of the current position, from the table entry when it has one.
    #[inline]
    fn static_eval(&mut self, tt_hit: Option<crate::search::tt::TtData>) -> Value {
        match tt_hit {
            Some(e) if e.eval != VALUE_NONE => e.eval,
            _ => self.evaluate(),
        }
    }

    /// `raw`, a static evaluation of the current position, plus what the correction history has
    /// learnt about such positions (in the full search only: the reference searches evaluate
    /// plainly).
    #[inline]
    fn corrected(&self, raw: Value) -> Value {
        if self.features.pruning {
            (raw + self.history.correction.correction(&self.pos)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
        } else {
            raw
        }
    }

    /// Whether `eval` at `ply` is better than at our previous move, or at the one before it when
    /// we were in check then; with neither known, it counts as improving.
    #[inline]
    fn improving(&self, ply: usize, eval: Value) -> bool {
        [2, 4]
            .into_iter()
            .filter(|&back| ply >= back)
            .map(|back| self.static_evals[ply - back])
            .find(|&e| e != -INFINITE)
            .is_none_or(|e| eval > e)
    }

    /// Makes `m` followed by the child's line the principal variation at `ply`.
    #[inline]
    pub(crate) fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = if ply < MAX_PLY { self.pv_len[ply + 1] } else { 0 };
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len.max(ply + 1);
    }

    /// Alpha-beta search of a non-root node; `PV` nodes have an open window. The steps are
    /// numbered in comments, as in Stockfish, so that a change can name the step it touches.
    pub fn search<const PV: bool>(
        &mut self,
        depth: i32,
        mut alpha: Value,
        mut beta: Value,
        ply: usize,
    ) -> Value {
        // Step 1. Game-rule results, the horizon, a stop, and the ply limit.
        self.pv_len[ply] = ply;
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
            let margin = tuned!(RFP_MARGIN) * (depth - improving as i32);
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
            let capture = self.pos.is_capture(m);
            let quiet = !capture && !m.is_promotion();
            // Asked for quiet moves while pruning, or once pruning is past.
            let mut gives_check = None;

            // Step 10. Pruning at shallow depth: late quiet moves, futile ones, and moves that
            // lose material by SEE. Futility and SEE look at the depth a late move would be
            // searched to after its reduction.
            if pruning && !PV && moves_tried > 0 && best > -MATE_IN_MAX_PLY && !in_check {
                // Late-move pruning: enough moves picked at a shallow node; no more quiets.
                if depth <= LMP_MAX_DEPTH && move_count >= lmp_limit(depth, improving) {
                    picker.skip_quiets();
                    if quiet {
                        self.stats.lmp_prunes += 1;
                        continue;
                    }
                }
                if quiet {
                    let lmr_depth = (depth - 1 - self.lmr[depth.min(63) as usize][move_count.min(63)]).max(0);
                    let check = self.pos.gives_check(m);
                    gives_check = Some(check);
                    if !check {
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
                } else if depth <= SEE_PRUNE_MAX_DEPTH
                    && !see_ge(&self.pos, m, tuned!(SEE_CAPTURE_MARGIN) * depth)
                {
                    self.stats.see_prunes += 1;
                    continue;
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

            // Step 12. Late-move reduction: quiet moves after the first are searched shallower,
            // more so at non-PV nodes, less when improving or with a good history. (Measured and
            // dropped: less for killers, at the root, for captures and checks.)
            let mut r = 0;
            if pruning && moves_tried > 0 && depth >= LMR_MIN_DEPTH && quiet && !in_check && !gives_check {
                r = self.lmr[depth.min(63) as usize][(moves_tried + 1).min(63)];
                r += (!PV) as i32 - improving as i32;
                r -= self.history.quiet_score(&self.pos, m) / tuned!(LMR_HISTORY_DIVISOR);
                r = r.clamp(0, (new_depth - 1).max(0));
                if r > 0 {
                    self.stats.lmr_reductions += 1;
                }
            }

            // Step 13. Make the move and search it: the first with the full window, the others
            // with a null window (reduced when late), searched again when they beat alpha.
            self.make_move(m);
            self.tt.prefetch(self.pos.key());
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

            // Step 14. A new best move; a beta cutoff updates the quiet history.
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
                        self.update_pv(ply, m);
                    }
                    if v >= beta {
                        self.stats.beta_cutoffs += 1;
                        if moves_tried == 1 {
                            self.stats.first_move_cutoffs += 1;
                        }
                        if quiet {
                            self.history.update_quiet(&self.pos, ply, m, &quiets_tried[..quiet_count], depth);
                        } else {
                            // The quiet moves tried before a capture that cut did not.
                            self.history.penalize_quiets(&self.pos, &quiets_tried[..quiet_count], depth);
                        }
                        let capture_cut = (!quiet).then_some(m);
                        self.history.update_captures(
                            &self.pos,
                            capture_cut,
                            &captures_tried[..capture_count],
                            depth,
                        );
                        break;
                    }
                    alpha = v;
                }
            }
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
    fn mate_in_one_here(
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
            self.update_pv(ply, m);
        }
        self.tt.store(key, m, to_tt(v, ply), eval, tt_depth, Bound::Exact);
        Some(v)
    }

    /// Quiescence: stand pat or capture until the position is quiet (a mate in one ends it); all
    /// evasions in check.
    pub fn qsearch<const PV: bool>(&mut self, mut alpha: Value, beta: Value, ply: usize, qply: i32) -> Value {
        self.count_node();
        self.stats.qnodes += 1;
        if self.stopped() {
            return 0;
        }
        if PV {
            self.pv_len[ply] = ply;
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
            self.make_move(m);
            self.tt.prefetch(self.pos.key());
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
                        self.update_pv(ply, m);
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
