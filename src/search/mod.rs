//! The search: iterative-deepening principal-variation alpha-beta with a shared transposition
//! table, run on its own threads.
//!
//! The protocol layer starts a search with a position, limits and options, and receives
//! `SearchEvent`s over a channel. The search never prints.
//!
//! Inside, dependencies point one way, from the entry points down: `searcher` (the `Searcher`,
//! which owns the tables between searches and runs each on its own thread, and `search_value`)
//! calls `driver` (root moves, iterative deepening, helper threads, when to stop), which runs
//! `node::Worker` (the recursive search, and `minimax` to check it), which uses `ordering`,
//! `see`, `history`, `tt`, `stats`, `params` and `value`. `shared` is the state the threads
//! share; `time` turns a time control into a budget. This file holds only the types the rest
//! of the crate uses.

mod driver;
mod history;
mod node;
mod ordering;
mod params;
mod searcher;
mod see;
mod shared;
mod stats;
pub mod time;
mod tt;
pub mod value;

pub use searcher::{search_value, Searcher};
pub use stats::SearchStats;
pub use time::{Clock, Lateness, TimeBudget, TimeControl, TimeOptions};
pub use tt::Bound;
pub use value::{Score, Value};

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
    pub const NAMES: [&'static str; 3] = ["Full", "AlphaBeta", "Minimax"];

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
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Search until `stop`, and answer only then.
    pub infinite: bool,
    /// Think on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Only these root moves (all legal moves when empty).
    pub searchmoves: Vec<Move>,
}

/// Options that shape the search.
#[derive(Clone, Copy, Debug)]
pub struct SearchOptions {
    pub threads: usize,
    pub multipv: usize,
    pub algorithm: SearchAlgorithm,
    pub time: TimeOptions,
    /// Score of a draw for the side that started the search (negative avoids draws).
    pub draw_value: Value,
    /// Draw once the game passes this ply (0: no limit).
    pub max_moves_to_draw: u32,
    pub entering_king_rule: EnteringKingRule,
    /// Resign when the best score is at or below minus this.
    pub resign_value: Value,
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
        }
    }
}

/// One principal variation, reported after an iteration (or a failed aspiration window).
#[derive(Clone, Debug, PartialEq)]
pub struct PvInfo {
    pub depth: i32,
    pub seldepth: usize,
    /// 1-based line number when several lines are searched.
    pub multipv: usize,
    pub score: Score,
    /// `Exact`, or the bound a failed aspiration window gives (`Lower`: failed high).
    pub bound: Bound,
    pub nodes: u64,
    pub hashfull: u32,
    pub time_ms: u64,
    pub pv: Vec<Move>,
}

/// Progress during a long iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgressInfo {
    pub depth: i32,
    pub seldepth: usize,
    pub nodes: u64,
    pub hashfull: u32,
    pub time_ms: u64,
}

/// Statistics after a completed iteration.
#[derive(Clone, Debug)]
pub struct IterationStats {
    pub depth: i32,
    pub stats: SearchStats,
    /// Nodes of this iteration divided by nodes of the previous one.
    pub branching_factor: f64,
}

/// The search's final answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMove {
    Move(Move),
    Resign,
    Win,
}

#[derive(Clone, Debug)]
pub enum SearchEvent {
    Pv(PvInfo),
    Progress(ProgressInfo),
    Stats(IterationStats),
    /// Sent exactly once per search, last.
    Done {
        best: BestMove,
        ponder: Option<Move>,
        nodes: u64,
        /// When the search stopped at its hard time limit: that limit, in ms after the `go`
        /// was read. How late the answer lands after it is the machine's latency.
        deadline_ms: Option<u64>,
    },
}
