//! Node counting, and the main thread's watch over the running search: every 1,024 nodes it
//! asks the time manager whether the search must stop now, shows the last line again when none
//! has been shown for a while, and reports progress. Apart from the search because none of it
//! changes what the search finds, only when it ends and what is shown meanwhile.

use super::Worker;
use crate::job::EventSink;
use crate::search::{ProgressInfo, PvInfo, SearchEvent};
use std::sync::atomic::Ordering;

/// What only the main thread does: report to whoever started the search, and watch the limits.
pub(crate) struct MainThreadDuties {
    /// Where the main thread's events go: lines, progress and, at the end, `Done`.
    events: EventSink<SearchEvent>,
    /// When the last `Progress` event was sent, in ms after the `go`.
    last_progress_ms: u64,
    /// When the last `Pv` event was sent, in ms after the `go` (0 before the first).
    last_pv_ms: u64,
    /// The last line sent: shown again, with the nodes and time of the moment, when an
    /// iteration runs `pv_interval_ms` without a new one.
    shown_line: Option<PvInfo>,
}

impl MainThreadDuties {
    /// The duties of a main thread that reports to `events`.
    pub(crate) fn new(events: EventSink<SearchEvent>) -> MainThreadDuties {
        MainThreadDuties { events, last_progress_ms: 0, last_pv_ms: 0, shown_line: None }
    }

    /// Sends `event`.
    pub(crate) fn send(&self, event: SearchEvent) {
        self.events.send(event);
    }

    /// Sends the line `info`, noting it as the line shown and when.
    pub(crate) fn send_pv(&mut self, info: PvInfo) {
        self.last_pv_ms = info.time_ms;
        self.shown_line = Some(info.clone());
        self.send(SearchEvent::Pv(info));
    }

    /// Keeps `info` for the next periodic showing instead of sending it now.
    pub(crate) fn keep_for_showing(&mut self, info: PvInfo) {
        self.shown_line = Some(info);
    }

    /// Whether `interval_ms` has passed at `now_ms` (both since the `go`) since the last line.
    pub(crate) fn pv_due(&self, now_ms: u64, interval_ms: u64) -> bool {
        now_ms.saturating_sub(self.last_pv_ms) >= interval_ms
    }
}

impl Worker<'_> {
    /// Counts a node, publishes the count, and on the main thread checks limits now and then.
    #[inline]
    pub(crate) fn count_node(&mut self) {
        self.stats.nodes += 1;
        self.shared.set_nodes(self.id, self.stats.nodes);
        if self.stats.nodes & 1023 == 0 && self.main.is_some() {
            self.check_limits();
        }
    }

    /// Whether the search has been told to stop (by a limit, or from outside).
    #[inline]
    pub(crate) fn stopped(&self) -> bool {
        self.shared.stopped()
    }

    /// Stops the search at its hard limit, shows the last line again if one is due, and sends a
    /// `Progress` event once a second.
    fn check_limits(&mut self) {
        let shared = self.shared;
        let elapsed = shared.elapsed_ms();
        let Some(main) = self.main.as_mut() else { return };
        if shared.time.hard_stop_due(|| shared.total_nodes()) {
            shared.stop.store(true, Ordering::Relaxed);
        }
        let interval = self.opts.pv_interval_ms;
        if interval > 0 && elapsed >= main.last_pv_ms + interval {
            if let Some(line) = main.shown_line.as_mut() {
                line.nodes = shared.total_nodes();
                line.hashfull = self.tt.hashfull();
                line.time_ms = elapsed;
                main.last_pv_ms = elapsed;
                main.events.send(SearchEvent::Pv(line.clone()));
            }
        }
        if elapsed >= main.last_progress_ms + 1000 {
            main.last_progress_ms = elapsed;
            let nodes = shared.total_nodes();
            main.events.send(SearchEvent::Progress(ProgressInfo {
                depth: self.root_depth,
                seldepth: self.seldepth,
                nodes,
                hashfull: self.tt.hashfull(),
                time_ms: elapsed,
            }));
        }
    }
}
