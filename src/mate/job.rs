//! `go mate` on its own thread, as `search::Searcher` runs the game search on its own: the
//! solver reports typed `MateEvent`s and never prints; the protocol layer formats them.

use super::{MateLimits, MateProgress, MateResult, MateSolver, MateStats};
use crate::job::{EventSink, Job};
use crate::shogi::Position;

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

/// The solver a `MateJob` works with: one kept from an earlier solve (its table is reused: each
/// solve starts a new generation of it), or a new one with a table of this many megabytes.
pub enum MateTable {
    /// A solver kept from the last solve.
    Kept(MateSolver),
    /// Allocate a solver with a table of this many megabytes.
    New(usize),
}

/// A solve running on its own thread. Its solver (and table) comes back from `finish`, to be
/// kept for the next solve of the same size.
pub struct MateJob {
    /// The solver's thread; it hands the solver back, or `None` if its table could not be allocated.
    job: Job<Option<MateSolver>>,
}

impl MateJob {
    /// Starts solving `pos` within `limits` with `table`; the events go to `events`.
    pub fn start(
        pos: Position,
        limits: MateLimits,
        table: MateTable,
        events: impl Into<EventSink<MateEvent>>,
    ) -> MateJob {
        let events = events.into();
        let job = Job::spawn("mate", Some(64 << 20), move |stop| {
            let mut solver = match table {
                MateTable::Kept(solver) => solver,
                MateTable::New(hash_mb) => match MateSolver::try_new(hash_mb) {
                    Some(solver) => solver,
                    None => {
                        events.send(MateEvent::NoMemory { hash_mb });
                        return None;
                    }
                },
            };
            let mut progress = |p: MateProgress| events.send(MateEvent::Progress(p));
            let result = solver.solve(&pos, limits, stop, &mut progress);
            events.send(MateEvent::Done { result, stats: solver.stats() });
            Some(solver)
        });
        MateJob { job }
    }

    /// Whether the thread still runs (it may have sent its last event already).
    pub fn is_running(&self) -> bool {
        self.job.is_running()
    }

    /// Asks the solver to stop; it answers `Timeout` unless it has just finished.
    pub fn stop(&self) {
        self.job.stop();
    }

    /// Stops and waits for the thread; its last events are in the channel afterwards. Returns
    /// its solver, to keep or drop (`None` if it had none: no memory).
    pub fn finish(self) -> Option<MateSolver> {
        self.job.finish().flatten()
    }
}
