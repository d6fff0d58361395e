//! `go mate`: the df-pn solver on its own thread, reporting through the protocol's output channel.

use super::info::nps;
use super::JobOutput;
use crate::mate::{MateLimits, MateProgress, MateResult, MateSolver};
use crate::shogi::Position;
use crossbeam_channel::Sender;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A running `go mate`.
pub(super) struct MateJob {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

impl MateJob {
    /// Starts solving `pos` with a table of `hash_mb` megabytes (freed when the thread ends);
    /// `info` lines and finally one `checkmate ...` line go to `out`.
    pub fn start(pos: Position, time_ms: Option<u64>, hash_mb: usize, out: Sender<JobOutput>) -> MateJob {
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        let handle = std::thread::Builder::new()
            .name("mate".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let Some(mut solver) = MateSolver::try_new(hash_mb) else {
                    let error = format!("info string error: cannot allocate {hash_mb} MB for the mate table");
                    let _ = out.send(JobOutput::Line(error));
                    let _ = out.send(JobOutput::Line(answer_line(&MateResult::Timeout)));
                    return;
                };
                let limits = MateLimits { time: time_ms.map(Duration::from_millis), nodes: None };
                let progress_out = out.clone();
                let mut progress = |p: MateProgress| {
                    let _ = progress_out.send(JobOutput::Line(progress_line(&p)));
                };
                let result = solver.solve(&pos, limits, &thread_stop, &mut progress);
                let stats = solver.stats();
                let ms = stats.time.as_millis() as u64;
                let summary = format!("info nodes {} nps {} time {}", stats.nodes, nps(stats.nodes, ms), ms);
                let _ = out.send(JobOutput::Line(summary));
                let _ = out.send(JobOutput::Line(answer_line(&result)));
            })
            .expect("the mate thread starts");
        MateJob { stop, handle }
    }

    pub fn is_running(&self) -> bool {
        !self.handle.is_finished()
    }

    /// Asks the solver to stop; it answers `checkmate timeout` unless it has just finished.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Stops and waits for the thread; its last lines are in the channel afterwards.
    pub fn finish(self) {
        self.stop();
        let _ = self.handle.join();
    }
}

fn infinite_or(n: u32) -> String {
    if n == u32::MAX {
        "inf".to_string()
    } else {
        n.to_string()
    }
}

fn progress_line(p: &MateProgress) -> String {
    format!(
        "info nodes {} nps {} time {} hashfull {} string proof number {} disproof number {}",
        p.nodes,
        nps(p.nodes, p.time_ms),
        p.time_ms,
        p.hashfull,
        infinite_or(p.root_pn),
        infinite_or(p.root_dn)
    )
}

/// The `checkmate` reply.
pub(super) fn answer_line(result: &MateResult) -> String {
    match result {
        MateResult::Mate(line) => {
            let moves: Vec<String> = line.iter().map(|m| m.to_string()).collect();
            format!("checkmate {}", moves.join(" "))
        }
        MateResult::NoMate => "checkmate nomate".to_string(),
        MateResult::Timeout => "checkmate timeout".to_string(),
    }
}
