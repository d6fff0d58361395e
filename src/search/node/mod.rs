//! One search thread's recursive search. This file holds the `Worker` (a thread's state:
//! position, evaluation, tables, histories) with what the root search (`search::root`) asks
//! of it; the search itself is split by concern:
//!
//! - `alpha_beta`: the main search, in numbered steps;
//! - `quiescence`: captures past the horizon;
//! - `minimax`: the plain negamax the alpha-beta search is checked against;
//! - `evaluation`: the static evaluation as the search uses it;
//! - `rules`: game-rule results (repetition, move limit, declaration);
//! - `pv`: the principal variation of every ply;
//! - `limits`: node counting, and the main thread's limit checks and periodic reports.

mod alpha_beta;
mod evaluation;
mod limits;
mod minimax;
mod pv;
mod quiescence;
mod rules;

pub(crate) use limits::MainThreadDuties;

use crate::eval::Evaluator;
use crate::search::history::History;
use crate::search::ordering::{MovePicker, PickerBuffers};
use crate::search::shared::Shared;
use crate::search::stats::SearchStats;
use crate::search::tt::TranspositionTable;
use crate::search::value::*;
use crate::search::{SearchAlgorithm, SearchOptions};
use crate::shogi::Position;
use crate::types::{Color, Move};
use pv::PvTable;

/// Which parts of the search are switched on.
#[derive(Clone, Copy, Debug)]
struct Features {
    /// Null move, futility, razoring, late-move pruning and reductions, SEE pruning, extensions,
    /// mate-distance pruning.
    pruning: bool,
    /// Return early on a deep-enough table entry.
    tt_cutoffs: bool,
    /// Resolve captures past the horizon instead of evaluating statically.
    quiescence: bool,
    /// Start iterations with a window around the last score.
    aspiration: bool,
}

impl Features {
    /// Everything on for `Full`; everything off for the plain searches the full one is checked against.
    fn of(algorithm: SearchAlgorithm) -> Features {
        let full = algorithm == SearchAlgorithm::Full;
        Features { pruning: full, tt_cutoffs: full, quiescence: full, aspiration: full }
    }
}

/// One search thread: the main thread (with `MainThreadDuties`) or a helper.
pub(crate) struct Worker<'a> {
    /// This thread's number: 0 for the main thread; indexes `Shared::nodes`.
    id: usize,
    /// The position searched. Moves are made and taken back through `make_move` and
    /// `unmake_move` (and the null-move pair), which keep the network's accumulators in step.
    pos: Position,
    /// The evaluation the options name, with its accumulators for the current line.
    evaluator: Evaluator,
    /// The transposition table all threads share.
    tt: &'a TranspositionTable,
    /// The stop flag, node counters and time manager all threads share.
    shared: &'a Shared,
    /// The options of this search (algorithm, evaluation, reporting).
    opts: SearchOptions,
    /// The parts of the search switched on, from `opts.algorithm`.
    features: Features,
    /// This thread's move-ordering scores and evaluation corrections, handed back by `into_history`.
    history: History,
    /// This thread's node and pruning counters.
    stats: SearchStats,
    /// The deepest ply reached since `reset_seldepth`.
    seldepth: usize,
    /// The iteration running.
    root_depth: i32,
    /// The side to move at the root: draws are scored for it.
    root_side: Color,
    /// The principal variation of every ply of the current line.
    pv: PvTable,
    /// The corrected static evaluation of each ply of the current line (`-INFINITE` in check), for
    /// `improving`.
    static_evals: [Value; MAX_PLY + 4],
    /// The move a singular-extension search leaves out at each ply (`Move::NONE` normally).
    excluded: [Move; MAX_PLY + 4],
    /// Late-move reductions in plies, by depth and move number (each capped at 63): `lmr_table`.
    lmr: Vec<[i32; 64]>,
    /// Move-picker storage per ply, lent to each node and given back.
    buffers: Vec<PickerBuffers>,
    /// Picker storage for a singular search, which runs at its node's ply while the node's own
    /// picker holds that ply's buffers (without it, each would allocate fresh ones).
    singular_buffers: PickerBuffers,
    /// Reporting and limit checks: `Some` only on the main thread (`become_main`).
    main: Option<MainThreadDuties>,
}

impl<'a> Worker<'a> {
    /// Thread `id` (0 for the main thread) searching `pos` with the shared `tt` and `shared`,
    /// learning into `history`. A helper until `become_main`.
    pub(crate) fn new(
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
            pv: PvTable::new(),
            static_evals: [0; MAX_PLY + 4],
            excluded: [Move::NONE; MAX_PLY + 4],
            lmr: alpha_beta::lmr_table(),
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

    /// Lends the move-picker storage of `ply` to a node there.
    fn take_buffers(&mut self, ply: usize) -> PickerBuffers {
        std::mem::replace(&mut self.buffers[ply], PickerBuffers::EMPTY)
    }

    /// Takes back the storage a node's `picker` was lent.
    fn give_back(&mut self, ply: usize, picker: MovePicker) {
        self.buffers[ply] = picker.into_buffers();
    }

    // What the root search (`search::root`) asks of a worker.

    /// This thread's number: 0 for the main thread, 1 and up for helpers.
    pub(crate) fn id(&self) -> usize {
        self.id
    }

    /// Makes this the main thread, which reports and watches the limits.
    pub(crate) fn become_main(&mut self, duties: MainThreadDuties) {
        self.main = Some(duties);
    }

    /// Whether this is the main thread.
    pub(crate) fn is_main(&self) -> bool {
        self.main.is_some()
    }

    /// The main thread's duties (`None` on a helper).
    pub(crate) fn main_duties(&self) -> Option<&MainThreadDuties> {
        self.main.as_ref()
    }

    /// The main thread's duties, to report through (`None` on a helper).
    pub(crate) fn main_duties_mut(&mut self) -> Option<&mut MainThreadDuties> {
        self.main.as_mut()
    }

    /// Starts iteration `depth`: the depth progress reports show, and that bounds extensions.
    pub(crate) fn start_iteration(&mut self, depth: i32) {
        self.root_depth = depth;
    }

    /// Forgets the deepest ply reached, before a line's search.
    pub(crate) fn reset_seldepth(&mut self) {
        self.seldepth = 0;
    }

    /// The deepest ply reached since `reset_seldepth`.
    pub(crate) fn seldepth(&self) -> usize {
        self.seldepth
    }

    /// The principal variation below the root move just searched (without that move).
    pub(crate) fn root_child_pv(&self) -> &[Move] {
        self.pv.root_child()
    }

    /// Whether iterations start with an aspiration window.
    pub(crate) fn uses_aspiration(&self) -> bool {
        self.features.aspiration
    }

    /// What this thread has counted so far.
    pub(crate) fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The options of this search.
    pub(crate) fn options(&self) -> &SearchOptions {
        &self.opts
    }

    /// The state all threads of this search share.
    pub(crate) fn shared(&self) -> &'a Shared {
        self.shared
    }

    /// The transposition table all threads share.
    pub(crate) fn tt(&self) -> &'a TranspositionTable {
        self.tt
    }

    /// Ends this thread's search, giving back what it learnt for the next search.
    pub(crate) fn into_history(self) -> History {
        self.history
    }
}
