//! The state the search threads share with each other and with the controller that started
//! them: the stop flag, the node counters, and the time manager (the clock, the budget and the
//! ponder state of the running search).

use super::time::TimeManager;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// One thread's node count, alone on its cache lines: every thread writes its own at every node,
/// and counters sharing a line would make each write evict the line from the other cores.
/// (128 bytes: some processors fetch lines in adjacent pairs.)
#[derive(Default)]
#[repr(align(128))]
struct NodeCounter(AtomicU64);

/// State the search threads share with each other and with the controller.
pub(crate) struct Shared {
    /// Set once the search must end: at a hard limit, when the main thread is done, or on `stop`
    /// (`request_stop`).
    pub stop: AtomicBool,
    /// Nodes searched by each thread, indexed by thread id; summed for `info nodes` and node limits.
    nodes: Vec<NodeCounter>,
    /// Every decision about time, and whether the search is pondering.
    pub time: TimeManager,
}

impl Shared {
    /// Shared state for `threads` threads, not stopped, with every node count 0.
    pub fn new(threads: usize, time: TimeManager) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            nodes: (0..threads).map(|_| NodeCounter::default()).collect(),
            time,
        }
    }

    /// Time since `go`, as reported in `info time`.
    pub fn elapsed_ms(&self) -> u64 {
        self.time.elapsed_ms()
    }

    /// Nodes searched so far by all threads together.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.0.load(Ordering::Relaxed)).sum()
    }

    /// Publishes thread `id`'s node count.
    #[inline]
    pub fn set_nodes(&self, id: usize, nodes: u64) {
        self.nodes[id].0.store(nodes, Ordering::Relaxed);
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
