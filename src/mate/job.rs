//! `go mate` on its own thread, as `search::Searcher` runs the game search on its own: the
//! solver reports typed `MateEvent`s over a channel and never prints; the protocol layer
//! formats them.

use super::{MateLimits, MateProgress, MateResult, MateSolver, MateStats};
use crate::shogi::Position;
use crossbeam_channel::Sender;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// What a `MateJob` reports: `Progress` while it solves, then exactly one `Done` or `NoMemory`,
/// last.
#[derive(Clone, Debug)]
pub enum MateEvent {
    /// About once a second while solving.
    Progress(MateProgress),
    /// The solve is over.
    Done {
        /// The answer.
        result: MateResult,
        /// The numbers of the solve (nodes, time, ...).
        stats: MateStats,
    },
    /// The table could not be allocated, so nothing was solved.
    NoMemory {
        /// The size asked for, in megabytes.
        hash_mb: usize,
    },
}

/// A solve running on its own thread, with a table of its own that is freed when it ends.
pub struct MateJob {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

impl MateJob {
    /// Starts solving `pos` within `limits` with a table of `hash_mb` megabytes; the events go
    /// to `events`.
    pub fn start(pos: Position, limits: MateLimits, hash_mb: usize, events: Sender<MateEvent>) -> MateJob {
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        let handle = std::thread::Builder::new()
            .name("mate".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let Some(mut solver) = MateSolver::try_new(hash_mb) else {
                    let _ = events.send(MateEvent::NoMemory { hash_mb });
                    return;
                };
                let mut progress = |p: MateProgress| {
                    let _ = events.send(MateEvent::Progress(p));
                };
                let result = solver.solve(&pos, limits, &thread_stop, &mut progress);
                let _ = events.send(MateEvent::Done { result, stats: solver.stats() });
            })
            .expect("the mate thread starts");
        MateJob { stop, handle }
    }

    /// Whether the thread still runs (it may have sent its last event already).
    pub fn is_running(&self) -> bool {
        !self.handle.is_finished()
    }

    /// Asks the solver to stop; it answers `Timeout` unless it has just finished.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Stops and waits for the thread; its last events are in the channel afterwards, and its
    /// table's memory is free.
    pub fn finish(self) {
        self.stop();
        let _ = self.handle.join();
    }
}
