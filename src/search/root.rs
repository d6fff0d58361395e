//! Runs one search at the root: the root moves, the short mate search before the iterations,
//! helper threads (Lazy SMP), iterative deepening with aspiration windows and MultiPV, the lines
//! reported, and the final answer. When to stop between iterations is the time manager's
//! question (`time::TimeManager`), asked here after each iteration.

use super::history::History;
use super::node::{MainThreadDuties, Worker};
use super::params::*;
use super::shared::Shared;
use super::time::BestMoveTrend;
use super::tt::{Bound, TranspositionTable};
use super::value::*;
use super::{BestMove, IterationStats, Limits, PvInfo, SearchAlgorithm, SearchEvent, SearchOptions};
use crate::job::{hold_until, EventSink};
use crate::mate::{MateLimits, MateResult, MateSolver};
use crate::shogi::{Declaration, EnteringKingRule, Position};
use crate::types::Move;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// A legal root move with what the iterations have found of it; each thread keeps its own list,
/// sorted best first.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    /// The move, legal in the root position (and one of `searchmoves` if any were given).
    pub mv: Move,
    /// Its value in the running iteration, from the root side's point of view; `-INFINITE` until
    /// searched, or when it failed low behind the first move.
    pub score: Value,
    /// Its `score` when the previous iteration ended: the centre of the next aspiration window, and
    /// what it shows until searched again.
    pub prev_score: Value,
    /// The iteration that gave `score`, and whether the score is exact or only a bound (the
    /// root's window failed on it).
    pub scored_depth: i32,
    /// Whether `score` is exact or a bound.
    pub score_bound: Bound,
    /// The deepest ply its last scored search reached.
    pub seldepth: usize,
    /// Its principal variation, starting with `mv`.
    pub pv: Vec<Move>,
    /// The line that gave `prev_score`, and its seldepth: in consideration mode, what a line
    /// reported before its iteration ends shows.
    pub prev_pv: Vec<Move>,
    /// The seldepth of `prev_pv`.
    pub prev_seldepth: usize,
}

impl RootMove {
    /// `mv` not yet searched: no score, and a line of the move alone.
    fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITE,
            prev_score: -INFINITE,
            scored_depth: 0,
            score_bound: Bound::Exact,
            seldepth: 0,
            pv: vec![mv],
            prev_pv: vec![mv],
            prev_seldepth: 0,
        }
    }

    /// Keeps this move's line from the iteration just ended, before the next one scores it.
    fn start_iteration(&mut self) {
        self.prev_score = self.score;
        self.prev_pv.clone_from(&self.pv);
        self.prev_seldepth = self.seldepth;
    }

    /// The score a line with `bound` shows: a move not searched yet in this iteration shows its
    /// previous score.
    fn shown_score(&self, bound: Bound) -> Value {
        if bound != Bound::Exact || self.score > -INFINITE {
            self.score
        } else {
            self.prev_score
        }
    }

    /// This move's line as line `multipv` of iteration `depth`: the one place a `PvInfo` is
    /// built.
    fn info(
        &self,
        depth: i32,
        multipv: usize,
        bound: Bound,
        nodes: u64,
        tt: &TranspositionTable,
        shared: &Shared,
    ) -> PvInfo {
        PvInfo {
            depth,
            seldepth: self.seldepth.max(1),
            multipv,
            score: Score::from_value(self.shown_score(bound)),
            bound,
            nodes,
            hashfull: tt.hashfull(),
            time_ms: shared.elapsed_ms(),
            pv: self.pv.clone(),
        }
    }

    /// This move's last complete line, from the iteration before `depth + 1`, as an exact line
    /// `multipv`; `None` when it has none (no exact score then, or `depth` 0).
    fn previous_info(
        &self,
        depth: i32,
        multipv: usize,
        nodes: u64,
        tt: &TranspositionTable,
        shared: &Shared,
    ) -> Option<PvInfo> {
        if depth < 1 || self.prev_score == -INFINITE {
            return None;
        }
        Some(PvInfo {
            seldepth: self.prev_seldepth.max(1),
            score: Score::from_value(self.prev_score),
            pv: self.prev_pv.clone(),
            ..self.info(depth, multipv, Bound::Exact, nodes, tt, shared)
        })
    }
}

/// The root moves to search: every legal move, or those of `searchmoves` that are legal.
fn root_moves(pos: &Position, limits: &Limits) -> Vec<RootMove> {
    pos.legal_moves()
        .iter()
        .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        .map(|&m| RootMove::new(m))
        .collect()
}

/// The answer that wins at once by the entering-king rule, if any: a declaration (`bestmove
/// win`), or under the try rule the king's move onto the try square, which is played as a move.
fn rule_win(pos: &Position, rule: EnteringKingRule) -> Option<BestMove> {
    if rule == EnteringKingRule::Try {
        return pos.try_move().map(BestMove::Move);
    }
    (pos.declaration(rule) == Declaration::Win).then_some(BestMove::Win)
}

/// The memory a search works with: the shared table, and the size of the root mate search's
/// with the solver kept from the last search (reused while its size is right).
pub(crate) struct Tables {
    /// The search's transposition table, shared by all threads.
    pub tt: Arc<TranspositionTable>,
    /// Size in MB of the root mate search's table; 0 skips that search.
    pub root_mate_mb: usize,
    /// The solver kept from the last search; `None` at first, or after the table was freed.
    pub root_mate: Option<MateSolver>,
}

/// Entry point of the search thread. Returns the threads' histories and the root mate solver,
/// for the next search.
pub(crate) fn run(
    pos: Position,
    limits: Limits,
    opts: SearchOptions,
    tables: Tables,
    shared: Arc<Shared>,
    mut histories: Vec<History>,
    events: EventSink<SearchEvent>,
) -> (Vec<History>, Option<MateSolver>) {
    let Tables { tt, root_mate_mb, mut root_mate } = tables;
    let rms = root_moves(&pos, &limits);
    let rule_win = rule_win(&pos, opts.entering_king_rule);
    if rms.is_empty() || rule_win.is_some() {
        wait_for_release(&shared);
        let best = rule_win.unwrap_or(BestMove::Resign);
        events.send(SearchEvent::Done { best, ponder: None, nodes: 0 });
        return (histories, root_mate);
    }
    // A short proof-number search first: it finds mates far beyond the alpha-beta horizon.
    if opts.algorithm == SearchAlgorithm::Full && limits.searchmoves.is_empty() {
        let root_table = (root_mate_mb, &mut root_mate);
        if let Some((line, nodes)) = root_mate_search(&pos, root_table, &shared) {
            let mut rm = RootMove::new(line[0]);
            rm.score = mate_in(line.len());
            rm.pv = line;
            rm.seldepth = rm.pv.len();
            let info = rm.info(rm.pv.len() as i32, 1, Bound::Exact, nodes, &tt, &shared);
            events.send(SearchEvent::Pv(info));
            wait_for_release(&shared);
            let ponder = rm.pv.get(1).copied();
            let done = SearchEvent::Done { best: BestMove::Move(rm.mv), ponder, nodes };
            events.send(done);
            return (histories, root_mate);
        }
    }

    let threads = opts.threads.max(1);
    let mut helper_histories: Vec<History> = histories.drain(1..).collect();
    let main_history = histories.pop().unwrap_or_default();
    let mut result_rms = Vec::new();
    let mut main_history_back = None;
    let mut nodes = 0;
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for id in 1..threads {
            let history = helper_histories.pop().unwrap_or_default();
            let (pos, rms, limits, tt, shared) = (pos.clone(), rms.clone(), &limits, &*tt, &*shared);
            let opts = opts.clone();
            let builder = std::thread::Builder::new().name(format!("search-{id}")).stack_size(64 << 20);
            let handle = builder
                .spawn_scoped(scope, move || {
                    let mut w = Worker::new(id, pos, tt, shared, opts, history);
                    let mut rms = rms;
                    iterate(&mut w, &mut rms, limits);
                    w.into_history()
                })
                .expect("a helper thread starts");
            handles.push(handle);
        }
        let mut w = Worker::new(0, pos.clone(), &tt, &shared, opts.clone(), main_history);
        w.become_main(MainThreadDuties::new(events.clone()));
        let mut rms = rms.clone();
        iterate(&mut w, &mut rms, &limits);
        // The main thread is done: in analysis or pondering, wait for the GUI before answering.
        wait_for_release(&shared);
        shared.stop.store(true, Ordering::Relaxed);
        for h in handles {
            if let Ok(hist) = h.join() {
                helper_histories.push(hist);
            }
        }
        nodes = shared.total_nodes();
        result_rms = rms;
        main_history_back = Some(w.into_history());
    });

    let best = &result_rms[0];
    let resign = best.score <= -opts.resign_value && best.score > -INFINITE;
    // A strength level plays one of its best lines, by its own choice.
    let played = match opts.skill {
        Some(skill) => &result_rms[skill.choose(pos.key(), &skill_candidates(&result_rms, opts.multipv))],
        None => best,
    };
    let answer = if resign { BestMove::Resign } else { BestMove::Move(played.mv) };
    let ponder = played.pv.get(1).copied();
    events.send(SearchEvent::Done { best: answer, ponder, nodes });
    let mut out = vec![main_history_back.unwrap_or_default()];
    out.extend(helper_histories);
    (out, root_mate)
}

/// The first `lines` root moves with their scores, best first, for a strength level to choose
/// from. A move the last, interrupted iteration had not scored yet keeps its previous score;
/// one never scored is left out.
fn skill_candidates(rms: &[RootMove], lines: usize) -> Vec<(Move, Value)> {
    rms.iter()
        .take(lines.max(1))
        .map(|rm| (rm.mv, if rm.score > -INFINITE { rm.score } else { rm.prev_score }))
        .take_while(|&(_, v)| v > -INFINITE)
        .collect()
}

/// Runs the df-pn solver on the root for as long as the time manager allows (`root_mate_time`);
/// returns a mating line if it proves one, with the nodes searched. `table` is the table's size
/// in MB and the solver kept from the last search, reused when it has that size (allocated
/// otherwise). The solver returns only lines it has played through (`mate::verify_line`:
/// non-empty, every move legal), and the protocol checks every `bestmove` before sending it, so
/// the first move is not checked again here.
fn root_mate_search(
    pos: &Position,
    table: (usize, &mut Option<MateSolver>),
    shared: &Shared,
) -> Option<(Vec<Move>, u64)> {
    let time = shared.time.root_mate_time()?;
    let (table_mb, kept) = table;
    if table_mb == 0 {
        return None;
    }
    if kept.as_ref().is_none_or(|s| s.hash_mb() != table_mb) {
        *kept = None;
        *kept = Some(MateSolver::try_new(table_mb)?);
    }
    let solver = kept.as_mut()?;
    let mate_limits = MateLimits { time: Some(time), nodes: None };
    match solver.solve(pos, mate_limits, &shared.stop, &mut |_| {}) {
        MateResult::Mate(line) => Some((line, solver.stats().nodes)),
        _ => None,
    }
}

/// Under `go infinite` or `go ponder`, the answer waits for `stop` (or `ponderhit`).
fn wait_for_release(shared: &Shared) {
    hold_until(|| shared.stopped() || !shared.time.answer_waits());
}

/// After a stop in the middle of iteration `depth`: the lines as they stand, so that the last
/// `info` a GUI sees carries the nodes and time of the whole search (as YaneuraOu's and
/// Stockfish's do). A line whose move was scored in this iteration shows this depth and that
/// score's bound (in consideration mode, a bound gives way to the previous iteration's line);
/// the others show the previous iteration's depth and score.
fn report_interrupted(w: &mut Worker, rms: &[RootMove], depth: i32, multipv: usize) {
    for (i, rm) in rms.iter().take(multipv).enumerate() {
        let (d, bound) = if rm.scored_depth == depth && rm.score > -INFINITE {
            (depth, rm.score_bound)
        } else {
            (depth - 1, Bound::Exact)
        };
        if bound != Bound::Exact {
            report_unsettled(w, rm, d, i + 1, bound, Urgency::Now);
        } else if d >= 1 && rm.shown_score(bound) > -INFINITE {
            report_pv(w, rm, d, i + 1, bound);
        }
    }
}

/// Sends `info` from the main thread (helpers report nothing), noting when.
fn send_pv(w: &mut Worker, info: PvInfo) {
    if let Some(main) = w.main_duties_mut() {
        main.send_pv(info);
    }
}

/// Reports `rm` as line `multipv` of iteration `depth`, with `bound`.
fn report_pv(w: &mut Worker, rm: &RootMove, depth: i32, multipv: usize, bound: Bound) {
    if w.is_main() {
        let info = rm.info(depth, multipv, bound, w.shared().total_nodes(), w.tt(), w.shared());
        send_pv(w, info);
    }
}

/// When an unsettled line is sent: at once (a stop), or only if `pv_interval_ms` has passed
/// since the last line, else kept for the main thread's next periodic showing.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Urgency {
    /// Send it at once: the search is stopping.
    Now,
    /// Send it only if a line is due (`pv_due`); otherwise keep it for the next periodic showing.
    WhenDue,
}

/// Reports a line of iteration `depth` before its window has settled, with `bound`; in
/// consideration mode the move's last complete line instead (nothing if it has none).
fn report_unsettled(
    w: &mut Worker,
    rm: &RootMove,
    depth: i32,
    multipv: usize,
    bound: Bound,
    urgency: Urgency,
) {
    if !w.is_main() {
        return;
    }
    let (tt, shared) = (w.tt(), w.shared());
    let nodes = shared.total_nodes();
    let info = if w.options().consideration_mode {
        let Some(info) = rm.previous_info(depth - 1, multipv, nodes, tt, shared) else { return };
        info
    } else {
        rm.info(depth, multipv, bound, nodes, tt, shared)
    };
    if urgency == Urgency::Now || pv_due(w) {
        send_pv(w, info);
    } else if let Some(main) = w.main_duties_mut() {
        // Not now: the periodic showing (`Worker::check_limits`) sends the newest line.
        main.keep_for_showing(info);
    }
}

/// Whether the main thread may report a line before its iteration ends: `pv_interval_ms` has
/// passed since its last `Pv` event. Never on a helper.
fn pv_due(w: &Worker) -> bool {
    w.main_duties().is_some_and(|m| m.pv_due(w.shared().elapsed_ms(), w.options().pv_interval_ms))
}

/// Searches every root move from `pv_idx` on at `depth` in the window; returns the best value.
fn search_root(
    w: &mut Worker,
    rms: &mut [RootMove],
    pv_idx: usize,
    depth: i32,
    mut alpha: Value,
    beta: Value,
) -> Value {
    let minimax = w.options().algorithm == SearchAlgorithm::Minimax;
    let mut best = -INFINITE;
    w.count_node();
    #[allow(clippy::needless_range_loop)] // `i` also tells the first move (full window) apart
    for i in pv_idx..rms.len() {
        let m = rms[i].mv;
        w.make_move(m);
        let v = if minimax {
            -w.minimax(depth - 1, 1)
        } else if i == pv_idx {
            -w.search::<true>(depth - 1, -beta, -alpha, 1)
        } else {
            let mut v = -w.search::<false>(depth - 1, -alpha - 1, -alpha, 1);
            if v > alpha && v < beta {
                v = -w.search::<true>(depth - 1, -beta, -alpha, 1);
            }
            v
        };
        w.unmake_move();
        if w.stopped() {
            break;
        }
        let rm = &mut rms[i];
        if i == pv_idx || v > alpha || minimax {
            rm.score = v;
            rm.scored_depth = depth;
            rm.score_bound = if minimax {
                Bound::Exact
            } else if v <= alpha {
                Bound::Upper
            } else if v >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            rm.seldepth = w.seldepth();
            rm.pv.clear();
            rm.pv.push(m);
            rm.pv.extend_from_slice(w.root_child_pv());
        } else {
            rm.score = -INFINITE;
        }
        let mut improved = false;
        if v > best {
            best = v;
            if v > alpha && !minimax {
                alpha = v;
                if v >= beta {
                    break;
                }
                improved = true;
            }
        }
        // While moves remain, a new best line is a lower bound (a fail high is `iterate`'s).
        if improved && i + 1 < rms.len() {
            report_unsettled(w, &rms[i], depth, pv_idx + 1, Bound::Lower, Urgency::WhenDue);
        }
    }
    best
}

/// Iterative deepening. The main thread reports, and asks the time manager after each iteration
/// whether to stop.
fn iterate(w: &mut Worker, rms: &mut [RootMove], limits: &Limits) {
    let max_depth = limits.depth.unwrap_or(MAX_PLY as i32 - 8).clamp(1, MAX_PLY as i32 - 8);
    let multipv = w.options().multipv.clamp(1, rms.len());
    let is_main = w.is_main();
    let mut trend = BestMoveTrend::default();
    let mut prev_iteration_nodes = 0u64;
    // Helpers start one ply deeper on odd ids so threads spread over depths.
    let first_depth = if is_main { 1 } else { 1 + (w.id() as i32 & 1) };
    for depth in first_depth..=max_depth {
        w.start_iteration(depth);
        let iteration_start_nodes = w.stats().nodes;
        for rm in rms.iter_mut() {
            rm.start_iteration();
        }
        for pv_idx in 0..multipv {
            w.reset_seldepth();
            let prev = rms[pv_idx].prev_score;
            let mut delta = tuned!(ASPIRATION_DELTA);
            let (mut alpha, mut beta) = if w.uses_aspiration()
                && depth >= ASPIRATION_MIN_DEPTH
                && prev > -INFINITE
                && !is_mate_score(prev)
            {
                ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
            } else {
                (-INFINITE, INFINITE)
            };
            loop {
                let v = search_root(w, rms, pv_idx, depth, alpha, beta);
                rms[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if w.stopped() {
                    break;
                }
                let report_fail = w.options().output_fail_lh_pv;
                if v <= alpha {
                    if report_fail {
                        report_unsettled(w, &rms[pv_idx], depth, pv_idx + 1, Bound::Upper, Urgency::WhenDue);
                    }
                    beta = (alpha + beta) / 2;
                    alpha = (v - delta).max(-INFINITE);
                } else if v >= beta {
                    if report_fail {
                        report_unsettled(w, &rms[pv_idx], depth, pv_idx + 1, Bound::Lower, Urgency::WhenDue);
                    }
                    beta = (v + delta).min(INFINITE);
                } else {
                    break;
                }
                delta += delta / 2;
            }
            rms[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if w.stopped() {
                break;
            }
        }
        if w.stopped() {
            if is_main {
                report_interrupted(w, rms, depth, multipv);
            }
            break;
        }
        if !is_main {
            continue;
        }
        for (i, rm) in rms.iter().take(multipv).enumerate() {
            report_pv(w, rm, depth, i + 1, Bound::Exact);
        }
        let iteration_nodes = w.stats().nodes - iteration_start_nodes;
        if let Some(main) = w.main_duties() {
            let bf = if prev_iteration_nodes > 0 {
                iteration_nodes as f64 / prev_iteration_nodes as f64
            } else {
                0.0
            };
            main.send(SearchEvent::Stats(IterationStats { depth, stats: w.stats(), branching_factor: bf }));
        }
        prev_iteration_nodes = iteration_nodes;

        // Stop early when the best move is stable, think longer when it keeps changing.
        let best = &rms[0];
        if w.shared().time.should_stop_after_iteration(depth, best.mv, best.score, rms.len(), &mut trend) {
            break;
        }
    }
}
