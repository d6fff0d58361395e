//! The one shape of everything that thinks: the shogi search, `go mate`, `go perft` and `bench`,
//! and the Dobutsu player each run as a [`Job`] on a thread of their own, which the protocol can
//! ask to stop and then wait for, and report through an [`EventSink`] of their own typed events.
//! The protocol turns every job's events into one channel of its own event type, so it waits on
//! one channel whatever is thinking.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Work running on its own named thread. It is asked to stop through the flag it was given (or
/// the stop action of [`Job::with_stop`]) and returns an `R` when it ends: what the next job may
/// reuse (tables, histories).
pub struct Job<R> {
    /// Asks the work to stop: sets the flag `spawn` gave it, or the action given to `with_stop`.
    request_stop: Box<dyn Fn() + Send + Sync>,
    /// The thread; joining it gives the work's result.
    handle: JoinHandle<R>,
}

impl<R: Send + 'static> Job<R> {
    /// Runs `work` on a thread called `name` (with `stack_bytes` of stack when given: the
    /// recursive searches need more than the default). `work` reads the stop flag as it goes.
    pub fn spawn(
        name: &str,
        stack_bytes: Option<usize>,
        work: impl FnOnce(&AtomicBool) -> R + Send + 'static,
    ) -> Job<R> {
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        Job::with_stop(
            name,
            stack_bytes,
            move || stop.store(true, Ordering::Relaxed),
            move || work(&thread_stop),
        )
    }

    /// Runs `work` on a thread called `name`; `request_stop` is how it is asked to stop (the
    /// search keeps its flag with the state its threads share).
    pub fn with_stop(
        name: &str,
        stack_bytes: Option<usize>,
        request_stop: impl Fn() + Send + Sync + 'static,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> Job<R> {
        let mut builder = std::thread::Builder::new().name(name.into());
        if let Some(bytes) = stack_bytes {
            builder = builder.stack_size(bytes);
        }
        let handle = builder.spawn(work).unwrap_or_else(|e| panic!("the {name} thread starts: {e}"));
        Job { request_stop: Box::new(request_stop), handle }
    }

    /// Asks the work to end soon; it still reports what it owes (a `bestmove`, a `checkmate`).
    pub fn stop(&self) {
        (self.request_stop)();
    }

    /// Whether the thread still runs (it may have sent its last event already).
    pub fn is_running(&self) -> bool {
        !self.handle.is_finished()
    }

    /// Waits for the work to end by itself and returns its result (`None` if it panicked).
    pub fn wait(self) -> Option<R> {
        self.handle.join().ok()
    }

    /// Stops the work, waits for it, and returns its result (`None` if it panicked).
    pub fn finish(self) -> Option<R> {
        self.stop();
        self.wait()
    }
}

/// Holds an answer back until `released` says it may go: under `go infinite` or `go ponder` a
/// job that has finished thinking still waits for `stop` (or `ponderhit`) before it answers.
pub fn hold_until(released: impl Fn() -> bool) {
    while !released() {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Where a job sends its events: a channel of the events' own type, or any conversion into the
/// protocol's. Sending never fails: a receiver that is gone has nobody left to tell.
pub struct EventSink<E> {
    /// Hands an event on: to a channel, maybe converted on the way.
    send: Arc<dyn Fn(E) + Send + Sync>,
}

impl<E> Clone for EventSink<E> {
    fn clone(&self) -> Self {
        EventSink { send: Arc::clone(&self.send) }
    }
}

impl<E: 'static> EventSink<E> {
    /// A sink that hands each event to `send`.
    pub fn new(send: impl Fn(E) + Send + Sync + 'static) -> EventSink<E> {
        EventSink { send: Arc::new(send) }
    }

    /// Delivers `event`.
    pub fn send(&self, event: E) {
        (self.send)(event)
    }
}

impl<E: Send + 'static> From<crossbeam_channel::Sender<E>> for EventSink<E> {
    fn from(tx: crossbeam_channel::Sender<E>) -> EventSink<E> {
        EventSink::new(move |event| {
            let _ = tx.send(event);
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_job_stops_when_asked_and_gives_back_its_result() {
        let job = Job::spawn("test", None, |stop| {
            let mut spins = 0u64;
            while !stop.load(Ordering::Relaxed) {
                spins += 1;
                std::thread::sleep(Duration::from_millis(1));
            }
            spins
        });
        assert!(job.is_running());
        assert!(job.finish().is_some());
        let done = Job::spawn("test", Some(1 << 20), |_| 7);
        assert_eq!(done.wait(), Some(7));
    }

    #[test]
    fn a_sink_converts_into_the_receivers_type() {
        let (tx, rx) = crossbeam_channel::unbounded::<String>();
        let sink: EventSink<u32> = EventSink::new(move |n: u32| {
            let _ = tx.send(format!("event {n}"));
        });
        sink.clone().send(3);
        assert_eq!(rx.try_recv().as_deref(), Ok("event 3"));
        let (tx, rx) = crossbeam_channel::unbounded();
        EventSink::from(tx).send(5u8);
        assert_eq!(rx.try_recv(), Ok(5));
    }
}
