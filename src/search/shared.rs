//! The state the search threads share with each other and with the controller that started
//! them: the stop flag, the node counters, and the time manager (the clock, the budget and the
//! ponder state of the running search).

use super::time::TimeManager;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// State the search threads share with each other and with the controller.
pub(crate) struct Shared {
    /// Set once the search must end: at a hard limit, when the main thread is done, or on `stop`
    /// (`request_stop`).
    pub stop: AtomicBool,
    /// Nodes searched by each thread, indexed by thread id; summed for `info nodes` and node limits.
    pub nodes: Vec<AtomicU64>,
    /// Every decision about time, and whether the search is pondering.
    pub time: TimeManager,
}

impl Shared {
    /// Shared state for `threads` threads, not stopped, with every node count 0.
    pub fn new(threads: usize, time: TimeManager) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            time,
        }
    }

    /// Time since `go`, as reported in `info time`.
    pub fn elapsed_ms(&self) -> u64 {
        self.time.elapsed_ms()
    }

    /// Nodes searched so far by all threads together.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Whether the search has been told to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Ends the search soon: also a ponder, which then answers as for `stop`.
    pub fn request_stop(&self) {
        self.time.end_pondering();
        self.stop.store(true, Ordering::Relaxed);
    }
}
