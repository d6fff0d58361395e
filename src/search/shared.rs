//! The state the search threads share with each other and with the controller that started
//! them: the stop and ponder flags, the node counters and the clock of the running search.

use super::time::TimeBudget;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

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
    pub(super) budget: Mutex<Option<TimeBudget>>,
    /// Set when the search stopped because its hard time limit was reached.
    pub stopped_by_clock: AtomicBool,
}

impl Shared {
    pub fn new(threads: usize, epoch: Instant, budget: Option<TimeBudget>) -> Shared {
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
