//! The search: iterative-deepening principal-variation alpha-beta with a shared transposition
//! table, run on its own threads.
//!
//! The protocol layer starts a search with a position, limits and options, and receives
//! `SearchEvent`s over a channel. The search never prints.
//!
//! Inside, dependencies point one way, from the entry points down: `searcher` (the `Searcher`,
//! which owns the tables between searches and runs each search on its own thread, and
//! `search_value`, which runs a `node::Worker` on the calling thread) calls `root` (one search:
//! root moves, the root mate search, helper threads, iterative deepening, the lines reported,
//! the answer), which runs `node::Worker` (the recursive search, and `minimax` to check it),
//! which uses `ordering`, `see`, `history` (with `correction`), `tt`, `stats`, `params` and
//! `value`. `shared` is the state the threads share; in it, `time::TimeManager` makes every
//! decision about time (the budget from the clock, the hard stop inside the search, the stop
//! between iterations, pondering). This file holds only the types the rest of the crate uses.

mod correction;
mod history;
mod node;
mod ordering;
mod params;
mod root;
mod searcher;
mod see;
mod shared;
pub mod skill;
mod stats;
pub mod time;
mod tt;
pub mod value;

#[cfg(feature = "tune")]
pub use params::{set_tunable, tunables};
pub use params::{Tunable, TUNABLE_NAMES};
pub use searcher::{search_value, search_value_with, Searcher};
pub use skill::Skill;
pub use stats::SearchStats;
pub use time::{Clock, Lateness, TimeBudget, TimeControl, TimeOptions};
pub use tt::Bound;
pub use value::{Score, Value};

use crate::eval::nnue::AnyNetwork;
use crate::shogi::EnteringKingRule;
use crate::types::Move;

/// Which search the engine runs; the simpler two exist to check the full one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchAlgorithm {
    /// Everything: pruning, reductions, extensions, quiescence, table cutoffs.
    Full,
    /// Plain alpha-beta with move ordering; leaves are evaluated statically.
    AlphaBeta,
    /// Plain negamax over every move; leaves evaluated like `AlphaBeta`.
    Minimax,
}

impl SearchAlgorithm {
    /// The names `parse` accepts, as the `SearchAlgorithm` option lists them.
    pub const NAMES: [&'static str; 3] = ["Full", "AlphaBeta", "Minimax"];

    /// The algorithm named `s` (one of `NAMES`).
    pub fn parse(s: &str) -> Option<SearchAlgorithm> {
        match s {
            "Full" => Some(SearchAlgorithm::Full),
            "AlphaBeta" => Some(SearchAlgorithm::AlphaBeta),
            "Minimax" => Some(SearchAlgorithm::Minimax),
            _ => None,
        }
    }
}

/// What ends a search besides `stop`.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The time control: unbounded, a fixed time per move, or a game clock.
    pub time: TimeControl,
    /// Iterations to run at most (`go depth`).
    pub depth: Option<i32>,
    /// Nodes to search at most, all threads together (`go nodes`).
    pub nodes: Option<u64>,
    /// Search until `stop`, and answer only then.
    pub infinite: bool,
    /// Think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Only these root moves (all legal moves when empty).
    pub searchmoves: Vec<Move>,
}

/// Options that shape the search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Search threads (Lazy SMP): the main thread and helpers.
    pub threads: usize,
    /// How many best lines to search and report.
    pub multipv: usize,
    /// The full search, or one of the simpler ones that check it.
    pub algorithm: SearchAlgorithm,
    /// How the time budget is computed from the clock.
    pub time: TimeOptions,
    /// Score of a draw for the side that started the search (negative avoids draws).
    pub draw_value: Value,
    /// Draw once the game passes this ply (0: no limit).
    pub max_moves_to_draw: u32,
    /// Which entering-king rule wins: a declaration (`bestmove win`), or under the try rule the
    /// king's move onto the try square.
    pub entering_king_rule: EnteringKingRule,
    /// Resign when the best score is at or below minus this.
    pub resign_value: Value,
    /// The network that evaluates positions; `None`: the hand-written evaluation. By default
    /// the network built into the binary (`eval::nnue::embedded`), if there is one.
    pub network: Option<AnyNetwork>,
    /// Whether the network's accumulators are updated move by move (the default) or computed
    /// from scratch at every evaluation: a slow reference the updates are checked against.
    pub incremental: bool,
    /// Least time in ms between two `Pv` events for lines reported before an iteration ends:
    /// aspiration fail-high / fail-low lines, and the best line so far after a root move raises
    /// it (0: every such update). The lines ending an iteration are always reported.
    pub pv_interval_ms: u64,
    /// Whether lines from a failed aspiration window are reported at all.
    pub output_fail_lh_pv: bool,
    /// Analysis mode: a line reported before its iteration ends shows that move's last complete
    /// line (the previous iteration's, exact) instead of a bound, so every line shown is exact.
    pub consideration_mode: bool,
    /// A strength level below full strength (`SkillLevel`, or `UCI_Elo` with
    /// `UCI_LimitStrength`): a node-bounded search on one thread, then a choice among its best
    /// lines. `None`: full strength.
    pub skill: Option<Skill>,
}

impl SearchOptions {
    /// How many lines the search searches and reports: `multipv`, and under a strength level at
    /// least the lines it chooses among.
    pub fn lines_searched(&self) -> usize {
        match self.skill {
            Some(_) => self.multipv.max(skill::CANDIDATES),
            None => self.multipv,
        }
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            threads: 1,
            multipv: 1,
            algorithm: SearchAlgorithm::Full,
            time: TimeOptions { network_delay: 120, minimum_thinking: 0 },
            draw_value: 0,
            max_moves_to_draw: 0,
            entering_king_rule: EnteringKingRule::Csa27,
            resign_value: 99_999,
            network: crate::eval::nnue::embedded::network().map(AnyNetwork::Shomei),
            incremental: true,
            pv_interval_ms: 300,
            output_fail_lh_pv: true,
            consideration_mode: false,
            skill: None,
        }
    }
}

/// One principal variation, reported after an iteration, or before its end: after a failed
/// aspiration window, or when a root move has raised the best score (see `pv_interval_ms`).
#[derive(Clone, Debug, PartialEq)]
pub struct PvInfo {
    /// The iteration this line comes from.
    pub depth: i32,
    /// The deepest ply reached in it.
    pub seldepth: usize,
    /// 1-based line number when several lines are searched.
    pub multipv: usize,
    /// The score for the side to move.
    pub score: Score,
    /// `Exact`, or the bound a line reported before its iteration ends gives (`Lower`: failed
    /// high, or the best so far with root moves still to search; `Upper`: failed low).
    pub bound: Bound,
    /// Nodes searched so far, all threads together.
    pub nodes: u64,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// Milliseconds since the `go` was read.
    pub time_ms: u64,
    /// The line, starting with the root move.
    pub pv: Vec<Move>,
}

/// Progress during a long iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgressInfo {
    /// The iteration running.
    pub depth: i32,
    /// The deepest ply reached in it so far.
    pub seldepth: usize,
    /// Nodes searched so far, all threads together.
    pub nodes: u64,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// Milliseconds since the `go` was read.
    pub time_ms: u64,
}

/// Statistics after a completed iteration.
#[derive(Clone, Debug)]
pub struct IterationStats {
    /// The iteration completed.
    pub depth: i32,
    /// The main thread's counters so far.
    pub stats: SearchStats,
    /// Nodes of this iteration divided by nodes of the previous one.
    pub branching_factor: f64,
}

/// The search's final answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMove {
    /// Play this move.
    Move(Move),
    /// No legal move, or the score is below the resign threshold.
    Resign,
    /// Declare a win by the entering-king rule.
    Win,
}

/// What a running search reports to whoever started it, in the order it happens.
#[derive(Clone, Debug)]
pub enum SearchEvent {
    /// A principal variation, after an iteration, a failed aspiration window or a new best root
    /// move within an iteration.
    Pv(PvInfo),
    /// About once a second during a long iteration.
    Progress(ProgressInfo),
    /// After each completed iteration.
    Stats(IterationStats),
    /// Sent exactly once per search, last.
    Done {
        /// The answer.
        best: BestMove,
        /// The expected reply, to ponder on.
        ponder: Option<Move>,
        /// Nodes searched, all threads together.
        nodes: u64,
    },
}
