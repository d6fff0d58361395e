//! Running searches: the `Searcher` owns the transposition table and the per-thread histories
//! between searches and runs one search at a time on a background thread (`driver::run`);
//! `search_value` runs one fixed-depth search on the calling thread.

use super::driver;
use super::history::History;
use super::node::Worker;
use super::shared::Shared;
use super::time::{self, Lateness, TimeBudget, TimeControl, TimeOptions};
use super::tt::TranspositionTable;
use super::value::Value;
use super::{Limits, SearchAlgorithm, SearchEvent, SearchOptions};
use crate::mate::MateSolver;
use crate::shogi::Position;
use crate::types::Color;
use crossbeam_channel::Sender;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

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
    /// The root's short df-pn solver, kept with its table between searches.
    root_mate: Option<MateSolver>,
    handle: Option<JoinHandle<(Vec<History>, Option<MateSolver>)>>,
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
fn root_mate_mb(budget_mb: usize) -> usize {
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
            root_mate: None,
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
        // Free the old tables first, so the new ones may use their memory.
        self.root_mate = None;
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
        self.root_mate = None;
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
        let root_mate = self.root_mate.take();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let tables = driver::Tables { tt, root_mate_mb, root_mate };
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
            if let Ok((histories, root_mate)) = h.join() {
                self.histories = histories;
                self.root_mate = root_mate;
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
    search_value_with(pos, depth, alpha, beta, SearchOptions { algorithm, ..SearchOptions::default() })
}

/// `search_value` with other options: their algorithm and evaluation (network or not) count;
/// threads, time and MultiPV do not.
pub fn search_value_with(
    pos: &Position,
    depth: i32,
    alpha: Value,
    beta: Value,
    opts: SearchOptions,
) -> Value {
    let tt = TranspositionTable::new(1);
    tt.new_search();
    let shared = Shared::new(1, Instant::now(), None);
    let algorithm = opts.algorithm;
    let mut w = Worker::new(0, pos.clone(), &tt, &shared, opts, History::new());
    w.root_depth = depth;
    match algorithm {
        SearchAlgorithm::Minimax => w.minimax(depth, 0),
        _ => w.search::<true>(depth, alpha, beta, 0),
    }
}
