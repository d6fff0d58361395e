//! The search: iterative-deepening principal-variation alpha-beta with a shared transposition
//! table, run on its own threads.
//!
//! The protocol layer starts a search with a position, limits and options, and receives
//! `SearchEvent`s over a channel. The search never prints.

mod driver;
mod history;
mod minimax;
mod node;
mod ordering;
pub mod params;
pub mod see;
mod stats;
pub mod time;
pub mod tt;
pub mod value;

pub use stats::SearchStats;
pub use time::{Clock, Lateness, TimeBudget, TimeControl, TimeOptions};
pub use value::{Score, Value};

use crate::shogi::{EnteringKingRule, Position};
use crate::types::{Color, Move};
use crossbeam_channel::Sender;
use history::History;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;
use tt::TranspositionTable;

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
    /// `Some(true)` lower bound (failed high), `Some(false)` upper bound, `None` exact.
    pub lower_bound: Option<bool>,
    pub nodes: u64,
    pub nps: u64,
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
    pub nps: u64,
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

/// State the search threads share with each other and with the controller.
pub(crate) struct Shared {
    pub stop: AtomicBool,
    /// True while a `go ponder` waits for `ponderhit`: no time limit applies.
    pub pondering: AtomicBool,
    /// When the `go` arrived: reported times count from here.
    pub epoch: Instant,
    /// Milliseconds after `epoch` at which our clock started: 0, or the `ponderhit`.
    pub clock_start_ms: AtomicU64,
    pub nodes: Vec<AtomicU64>,
    /// The time budget, counted from `clock_start_ms`; `ponderhit` with times replaces it.
    budget: Mutex<Option<TimeBudget>>,
    /// Set when the search stopped because its hard time limit was reached.
    pub stopped_by_clock: AtomicBool,
}

impl Shared {
    fn new(threads: usize, epoch: Instant, budget: Option<TimeBudget>) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            epoch,
            clock_start_ms: AtomicU64::new(0),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            budget: Mutex::new(budget),
            stopped_by_clock: AtomicBool::new(false),
        }
    }

    /// The hard limit, in ms after `epoch`, if the search stopped there.
    pub fn deadline_reached_ms(&self) -> Option<u64> {
        if !self.stopped_by_clock.load(Ordering::Relaxed) {
            return None;
        }
        let maximum = self.budget()?.maximum.as_millis() as u64;
        Some(self.clock_start_ms.load(Ordering::Relaxed) + maximum)
    }

    /// The time budget of this move (`None`: no time limit).
    pub fn budget(&self) -> Option<TimeBudget> {
        *self.budget.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Time since `go`, as reported in `info time`.
    pub fn elapsed_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Time on our own clock: since `go`, or since `ponderhit` after pondering.
    pub fn clock_elapsed_ms(&self) -> u64 {
        self.elapsed_ms().saturating_sub(self.clock_start_ms.load(Ordering::Relaxed))
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Owns the transposition table and the per-thread histories between searches, and runs one
/// search at a time on background threads.
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    /// The memory budget (`USI_Hash`, MB) the tables are sized for.
    budget_mb: usize,
    /// Whether the search table's memory is lent to `go mate`; `resize` allocates it again.
    released: bool,
    histories: Vec<History>,
    shared: Option<Arc<Shared>>,
    handle: Option<JoinHandle<Vec<History>>>,
    /// What the running search's time budget depends on besides the clock, for `ponderhit`.
    time_context: TimeContext,
    /// How late answers have landed after their hard limit.
    lateness: Lateness,
}

/// The side to move, game ply, options and latency margin a time budget is computed from.
#[derive(Clone, Copy, Debug)]
struct TimeContext {
    side: Color,
    game_ply: u32,
    options: TimeOptions,
    margin_ms: u64,
}

impl TimeContext {
    fn budget(&self, tc: &TimeControl) -> Option<TimeBudget> {
        time::budget(tc, self.side, &self.options, self.game_ply, self.margin_ms)
    }
}

/// The part of the memory budget (`USI_Hash`, in MB) that the short df-pn search at the root of a
/// timed `go` uses for its table: a 64th, at most 8 MB, none below 64 MB (that search is then
/// skipped). The search table gets the rest.
pub fn root_mate_mb(budget_mb: usize) -> usize {
    (budget_mb / 64).min(8)
}

/// The search table's share of the memory budget, in MB.
fn search_table_mb(budget_mb: usize) -> usize {
    budget_mb - root_mate_mb(budget_mb)
}

impl Searcher {
    /// A searcher whose tables fit in `budget_mb` megabytes (see `root_mate_mb`). Panics if
    /// memory runs out; `resize` reports it instead.
    pub fn new(budget_mb: usize) -> Searcher {
        Searcher {
            tt: Arc::new(TranspositionTable::new(search_table_mb(budget_mb))),
            budget_mb,
            released: false,
            histories: Vec::new(),
            shared: None,
            handle: None,
            time_context: TimeContext {
                side: Color::Black,
                game_ply: 1,
                options: SearchOptions::default().time,
                margin_ms: time::MIN_SAFETY_MARGIN_MS,
            },
            lateness: Lateness::default(),
        }
    }

    /// Sizes the tables for a budget of `budget_mb` megabytes, allocating the search table again
    /// if it was released. Waits for a running search to end. If the memory cannot be had, keeps
    /// the old budget and says so.
    pub fn resize(&mut self, budget_mb: usize) -> Result<(), String> {
        self.wait();
        if budget_mb == self.budget_mb && !self.released {
            return Ok(());
        }
        let old = self.budget_mb;
        // Free the old table first, so the new one may use its memory.
        self.tt = Arc::new(TranspositionTable::new(0));
        self.released = true;
        let (table, result) = match TranspositionTable::try_new(search_table_mb(budget_mb)) {
            Some(t) => (Some(t), Ok(budget_mb)),
            None => (
                TranspositionTable::try_new(search_table_mb(old)),
                Err(format!("cannot allocate {budget_mb} MB for the hash table; keeping {old} MB")),
            ),
        };
        if let Some(t) = table {
            self.tt = Arc::new(t);
            self.released = false;
        }
        result.map(|mb| self.budget_mb = mb)
    }

    /// Frees the search table so that `go mate` can have the whole budget (no game search runs
    /// meanwhile), and returns that budget in MB. The next `resize` allocates the table again,
    /// empty.
    pub fn release_table(&mut self) -> usize {
        self.wait();
        self.tt = Arc::new(TranspositionTable::new(0));
        self.released = true;
        self.budget_mb
    }

    /// The memory budget in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.budget_mb
    }

    /// Forgets everything learnt: table and histories (a new game).
    pub fn clear(&mut self) {
        self.wait();
        self.tt.clear();
        self.histories.clear();
    }

    /// Starts searching `pos`. Events, ending with exactly one `Done`, go to `events`. Time
    /// counts from `received`, when the `go` arrived.
    pub fn start(
        &mut self,
        pos: Position,
        limits: Limits,
        options: SearchOptions,
        received: Instant,
        events: Sender<SearchEvent>,
    ) {
        self.stop();
        self.wait();
        let threads = options.threads.max(1);
        self.time_context = TimeContext {
            side: pos.side_to_move(),
            game_ply: pos.game_ply(),
            options: options.time,
            margin_ms: self.lateness.margin_ms(),
        };
        let budget = if limits.infinite { None } else { self.time_context.budget(&limits.time) };
        let shared = Arc::new(Shared::new(threads, received, budget));
        shared.pondering.store(limits.ponder, Ordering::Relaxed);
        self.tt.new_search();
        let mut histories = std::mem::take(&mut self.histories);
        histories.resize_with(threads, History::new);
        let tt = Arc::clone(&self.tt);
        let thread_shared = Arc::clone(&shared);
        let root_mate_mb = root_mate_mb(self.budget_mb);
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let tables = driver::Tables { tt, root_mate_mb };
                driver::run(pos, limits, options, tables, thread_shared, histories, events)
            })
            .expect("the search thread starts");
        self.shared = Some(shared);
        self.handle = Some(handle);
    }

    /// Asks the running search to stop; its `Done` event follows promptly.
    pub fn stop(&self) {
        if let Some(s) = &self.shared {
            s.pondering.store(false, Ordering::Relaxed);
            s.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The ponder move was played: from now on the search runs on its own clock. A time control
    /// sent with `ponderhit` (an extension some GUIs use) replaces the one given with `go ponder`.
    pub fn ponderhit(&self, time: Option<TimeControl>) {
        if let Some(s) = &self.shared {
            if let Some(tc) = time {
                *s.budget.lock().unwrap_or_else(|e| e.into_inner()) = self.time_context.budget(&tc);
            }
            s.clock_start_ms.store(s.elapsed_ms(), Ordering::Relaxed);
            s.pondering.store(false, Ordering::Relaxed);
        }
    }

    /// Records that an answer due at its hard limit was written `late_ms` after it; the next
    /// searches keep that much more time back.
    pub fn record_lateness(&mut self, late_ms: u64) {
        self.lateness.record(late_ms);
    }

    /// Waits for the running search (if any) to finish, keeping its histories.
    pub fn wait(&mut self) {
        if let Some(h) = self.handle.take() {
            if let Ok(histories) = h.join() {
                self.histories = histories;
            }
        }
    }
}

impl Drop for Searcher {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

/// Searches `pos` exactly `depth` plies with `algorithm` in the window (`alpha`, `beta`) on the
/// calling thread, without time limits, and returns the fail-soft value from the side to move's
/// point of view. `Minimax` ignores the window. Used to check the search against the reference.
pub fn search_value(
    pos: &Position,
    depth: i32,
    algorithm: SearchAlgorithm,
    alpha: Value,
    beta: Value,
) -> Value {
    let tt = TranspositionTable::new(1);
    tt.new_search();
    let shared = Shared::new(1, Instant::now(), None);
    let opts = SearchOptions { algorithm, ..SearchOptions::default() };
    let mut w = node::Worker::new(0, pos.clone(), &tt, &shared, opts, History::new());
    w.root_depth = depth;
    match algorithm {
        SearchAlgorithm::Minimax => w.minimax(depth, 0),
        _ => w.search::<true>(depth, alpha, beta, 0),
    }
}
