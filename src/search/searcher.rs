//! Running searches: the `Searcher` owns the transposition table and the per-thread histories
//! between searches and runs one search at a time on a background thread (`root::run`);
//! `search_value` runs one fixed-depth search on the calling thread.

use super::history::History;
use super::node::Worker;
use super::root;
use super::shared::Shared;
use super::time::{Lateness, TimeControl, TimeManager};
use super::tt::TranspositionTable;
use super::value::Value;
use super::{Limits, SearchAlgorithm, SearchEvent, SearchOptions};
use crate::job::{EventSink, Job};
use crate::mate::MateSolver;
use crate::shogi::Position;
use std::sync::Arc;
use std::time::Instant;

/// Owns the transposition table and the per-thread histories between searches, and runs one
/// search at a time on background threads.
pub struct Searcher {
    /// The search's transposition table, shared with the search threads while one runs.
    tt: Arc<TranspositionTable>,
    /// The memory budget (`USI_Hash`, MB) the tables are sized for.
    budget_mb: usize,
    /// Whether the search table's memory is lent to `go mate`; `resize` allocates it again.
    released: bool,
    /// Per-thread move-ordering histories, kept between searches; empty until the first search, or
    /// after `clear`.
    histories: Vec<History>,
    /// State shared with the running (or last) search's threads: `stop`, `ponderhit` and the answer's
    /// lateness reach it through this.
    shared: Option<Arc<Shared>>,
    /// The root's short df-pn solver, kept with its table between searches.
    root_mate: Option<MateSolver>,
    /// The running search; it gives back the histories and the root's solver when it ends.
    job: Option<Job<(Vec<History>, Option<MateSolver>)>>,
    /// How late answers have landed after their hard limit.
    lateness: Lateness,
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
            job: None,
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
        mut limits: Limits,
        mut options: SearchOptions,
        received: Instant,
        events: impl Into<EventSink<SearchEvent>>,
    ) {
        let events = events.into();
        self.stop();
        self.wait();
        if let Some(skill) = options.skill {
            // A strength level: its depth and node bounds (or lower ones asked for), one thread so that a
            // seed replays the same game, and the lines it chooses among.
            let (depth, nodes) = (skill.depth_limit(), skill.node_limit());
            limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
            limits.nodes = Some(limits.nodes.map_or(nodes, |n| n.min(nodes)));
            options.threads = 1;
            options.multipv = options.lines_searched();
        }
        let threads = options.threads.max(1);
        let time = TimeManager::new(&limits, &pos, options.time, self.lateness.margin_ms(), received);
        let shared = Arc::new(Shared::new(threads, time));
        self.tt.new_search();
        let mut histories = std::mem::take(&mut self.histories);
        histories.resize_with(threads, History::new);
        let tt = Arc::clone(&self.tt);
        let thread_shared = Arc::clone(&shared);
        let root_mate_mb = root_mate_mb(self.budget_mb);
        let root_mate = self.root_mate.take();
        let stop_shared = Arc::clone(&shared);
        let job = Job::with_stop(
            "search",
            Some(64 << 20),
            move || stop_shared.request_stop(),
            move || {
                let tables = root::Tables { tt, root_mate_mb, root_mate };
                root::run(pos, limits, options, tables, thread_shared, histories, events)
            },
        );
        self.shared = Some(shared);
        self.job = Some(job);
    }

    /// Asks the running search to stop; its `Done` event follows promptly.
    pub fn stop(&self) {
        if let Some(job) = &self.job {
            job.stop();
        }
    }

    /// Whether the running search is a `go ponder` still waiting for `ponderhit`.
    pub fn is_pondering(&self) -> bool {
        self.job.is_some() && self.shared.as_ref().is_some_and(|s| s.time.is_pondering())
    }

    /// The ponder move was played: from now on the search runs on its own clock. A time control
    /// sent with `ponderhit` (an extension some GUIs use) replaces the one given with `go ponder`.
    pub fn ponderhit(&self, time: Option<TimeControl>) {
        if let Some(s) = &self.shared {
            s.time.ponderhit(time);
        }
    }

    /// The protocol wrote the last search's answer `written_ms` after its `go` was read. If the
    /// search stopped at its hard limit, the time manager learns how late the answer landed: the
    /// next searches keep that much more time back.
    pub fn answer_written(&mut self, written_ms: u64) {
        if let Some(deadline) = self.shared.as_ref().and_then(|s| s.time.deadline_reached_ms()) {
            self.lateness.record(written_ms.saturating_sub(deadline));
        }
    }

    /// Waits for the running search (if any) to finish, keeping its histories.
    pub fn wait(&mut self) {
        if let Some(job) = self.job.take() {
            if let Some((histories, root_mate)) = job.wait() {
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
    let shared = Shared::new(1, TimeManager::unlimited(Instant::now()));
    let algorithm = opts.algorithm;
    let mut w = Worker::new(0, pos.clone(), &tt, &shared, opts, History::new());
    w.start_iteration(depth);
    match algorithm {
        SearchAlgorithm::Minimax => w.minimax(depth, 0),
        _ => w.search::<true>(depth, alpha, beta, 0),
    }
}
