//! One engine process: its three pipes, each served by its own thread, and waiting on its output
//! with a deadline.
//!
//! Nothing the engine does may block the runner:
//! - stdin is written by a thread, so an engine that stops reading cannot stall a game;
//! - stdout is read by a thread into a bounded channel, lines cut at [`MAX_LINE`] bytes;
//! - stderr is drained all the time into a size-capped log file, so the pipe never fills;
//! - every wait has a deadline and a cancellation channel, and a process that does not quit in
//!   time is killed.

use crate::config::EngineConfig;
use crossbeam_channel::{bounded, select, unbounded, Receiver, Sender, TryRecvError};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Longest line kept from an engine; the rest of a longer line is dropped.
pub const MAX_LINE: usize = 64 * 1024;
/// Lines buffered between an engine's stdout thread and the game.
const CHANNEL_LINES: usize = 1024;
/// Lines of an engine's stderr kept in memory for error messages.
const STDERR_TAIL: usize = 12;

/// Reads one line into `line` (without the line end), keeping at most `max` bytes of it and
/// discarding the rest. Returns false at end of input when nothing was read.
pub fn read_line_capped<R: BufRead>(r: &mut R, line: &mut Vec<u8>, max: usize) -> io::Result<bool> {
    line.clear();
    let mut any = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any);
        }
        any = true;
        let newline = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..newline.unwrap_or(buf.len())];
        let room = max.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = newline.map_or(buf.len(), |i| i + 1);
        r.consume(used);
        if newline.is_some() {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(true);
        }
    }
}

/// A log file shared by every process of one engine, with a cap on its size. Writing never fails
/// the caller: a full or broken log only loses log lines.
#[derive(Clone)]
pub struct StderrLog(Arc<Mutex<LogInner>>);

struct LogInner {
    file: Option<File>,
    written: u64,
    limit: u64,
    capped: bool,
}

impl StderrLog {
    pub fn create(path: &Path, limit: u64) -> io::Result<StderrLog> {
        let file = File::create(path)?;
        Ok(StderrLog(Arc::new(Mutex::new(LogInner { file: Some(file), written: 0, limit, capped: false }))))
    }

    /// A log that keeps nothing.
    pub fn discard() -> StderrLog {
        StderrLog(Arc::new(Mutex::new(LogInner { file: None, written: 0, limit: 0, capped: true })))
    }

    pub fn write_line(&self, prefix: &str, line: &str) {
        let Ok(mut inner) = self.0.lock() else { return };
        let inner = &mut *inner;
        let Some(file) = inner.file.as_mut() else { return };
        if inner.capped {
            return;
        }
        let len = (prefix.len() + line.len() + 1) as u64;
        if inner.written + len > inner.limit {
            inner.capped = true;
            let _ = writeln!(
                file,
                "[shomei-arena] log reached {} bytes; further stderr output is dropped",
                inner.limit
            );
            return;
        }
        inner.written += len;
        let _ = writeln!(file, "{prefix}{line}");
    }
}

/// What the stdout thread reports.
enum Event {
    /// A line, with the time the stdout thread read it.
    Line(String, Instant),
    Closed,
}

/// Why a wait on an engine ended without the expected line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its stdout: it exited or crashed.
    Closed,
    /// The match is being stopped.
    Cancelled,
}

/// Whatever `usi` taught us about the engine.
#[derive(Clone, Debug, Default)]
pub struct EngineId {
    pub name: Option<String>,
    pub author: Option<String>,
    /// Names of the options it declared.
    pub options: Vec<String>,
}

/// A running engine.
pub struct EngineProcess {
    /// For messages: "engine 1 (`cmd`)".
    label: String,
    child: Child,
    input: Option<Sender<String>>,
    output: Receiver<Event>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    closed: bool,
    status: Option<ExitStatus>,
    /// When the line last returned by `next_line` was read from the pipe.
    last_at: Instant,
}

impl EngineProcess {
    /// Starts the engine. `log_prefix` goes before each stderr line in `log`.
    pub fn spawn(
        cfg: &EngineConfig,
        label: &str,
        log: StderrLog,
        log_prefix: String,
    ) -> io::Result<EngineProcess> {
        let mut cmd = Command::new(&cfg.program);
        cmd.args(&cfg.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        if let Some(dir) = &cfg.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");

        let (in_tx, in_rx) = unbounded::<String>();
        spawn_thread("engine-stdin", move || write_input(stdin, in_rx))?;

        let (out_tx, out_rx) = bounded::<Event>(CHANNEL_LINES);
        spawn_thread("engine-stdout", move || read_output(stdout, out_tx))?;

        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail2 = Arc::clone(&tail);
        spawn_thread("engine-stderr", move || drain_stderr(stderr, log, log_prefix, tail2))?;

        Ok(EngineProcess {
            label: label.to_string(),
            child,
            input: Some(in_tx),
            output: out_rx,
            stderr_tail: tail,
            closed: false,
            status: None,
            last_at: Instant::now(),
        })
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    /// Queues a line for the engine. Never blocks; lost if the engine is gone.
    pub fn send(&self, line: &str) {
        if let Some(tx) = &self.input {
            let _ = tx.send(line.to_string());
        }
    }

    /// When the last line returned was read from the engine's stdout: move times are measured
    /// to this instant, not to when the game got round to looking at the line.
    pub fn last_line_time(&self) -> Instant {
        self.last_at
    }

    /// Whether the engine has closed its stdout (exited or crashed).
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The next line from the engine, waiting until `deadline`.
    pub fn next_line(&mut self, deadline: Instant, cancel: &Receiver<()>) -> Result<String, WaitError> {
        if self.closed {
            return Err(WaitError::Closed);
        }
        let now = Instant::now();
        if now >= deadline {
            // Past the deadline, only output that has already arrived still counts.
            return match self.output.try_recv() {
                Ok(Event::Line(l, at)) => {
                    self.last_at = at;
                    Ok(l)
                }
                Ok(Event::Closed) | Err(TryRecvError::Disconnected) => {
                    self.closed = true;
                    Err(WaitError::Closed)
                }
                Err(TryRecvError::Empty) => Err(WaitError::Timeout),
            };
        }
        select! {
            recv(self.output) -> ev => match ev {
                Ok(Event::Line(l, at)) => {
                    self.last_at = at;
                    Ok(l)
                }
                Ok(Event::Closed) | Err(_) => {
                    self.closed = true;
                    Err(WaitError::Closed)
                }
            },
            recv(cancel) -> _ => Err(WaitError::Cancelled),
            default(deadline - now) => Err(WaitError::Timeout),
        }
    }

    /// Waits for a line whose first word is `word`, passing every other line to `other`.
    /// Lines already received when the deadline passes are still looked at, up to one channel's
    /// worth, so an engine flooding its output cannot keep the wait going.
    pub fn wait_for(
        &mut self,
        word: &str,
        deadline: Instant,
        cancel: &Receiver<()>,
        mut other: impl FnMut(&str),
    ) -> Result<String, WaitError> {
        let mut late = 0;
        loop {
            if Instant::now() >= deadline {
                late += 1;
                if late > CHANNEL_LINES {
                    return Err(WaitError::Timeout);
                }
            }
            let line = self.next_line(deadline, cancel)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
            other(&line);
        }
    }

    /// Throws away output already waiting (a stray second `bestmove`, late `info` lines), and
    /// notices if the engine has closed its output meanwhile.
    pub fn discard_pending(&mut self) {
        let _ = self.discard_pending_bestmove(Instant::now());
    }

    /// Throws away output already waiting, as `discard_pending`, and returns the first
    /// `bestmove` line among it that was read at or after `since`: a pondering engine must not
    /// answer before `ponderhit` or `stop`, and this is how that is caught.
    pub fn discard_pending_bestmove(&mut self, since: Instant) -> Option<String> {
        let mut found = None;
        while let Ok(ev) = self.output.try_recv() {
            match ev {
                Event::Closed => {
                    self.closed = true;
                    break;
                }
                Event::Line(line, at) => {
                    let answer = at >= since && line.split_whitespace().next() == Some("bestmove");
                    if answer && found.is_none() {
                        found = Some(line);
                    }
                }
            }
        }
        found
    }

    /// `usi` ... `usiok`, collecting the engine's name and options.
    pub fn usi(&mut self, deadline: Instant, cancel: &Receiver<()>) -> Result<EngineId, WaitError> {
        self.send("usi");
        self.wait_usiok(deadline, cancel)
    }

    /// Waits for `usiok` after `usi` was sent.
    pub fn wait_usiok(&mut self, deadline: Instant, cancel: &Receiver<()>) -> Result<EngineId, WaitError> {
        let mut id = EngineId::default();
        self.wait_for("usiok", deadline, cancel, |line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["id", "name", rest @ ..] => id.name = Some(rest.join(" ")),
                ["id", "author", rest @ ..] => id.author = Some(rest.join(" ")),
                // A name runs up to `type`: engines of UCI descent use names with spaces.
                ["option", "name", rest @ ..] => {
                    let name = rest.iter().take_while(|&&w| w != "type").copied().collect::<Vec<_>>();
                    id.options.push(name.join(" "));
                }
                _ => {}
            }
        })?;
        Ok(id)
    }

    /// Sends the options, then `isready`.
    pub fn send_options_and_isready(&self, options: &[(String, Option<String>)]) {
        for (name, value) in options {
            match value {
                Some(v) => self.send(&format!("setoption name {name} value {v}")),
                None => self.send(&format!("setoption name {name}")),
            }
        }
        self.send("isready");
    }

    /// The last lines the engine wrote to stderr, for error messages.
    pub fn stderr_tail(&self) -> Vec<String> {
        // Give the stderr thread a moment to catch up with a process that just died.
        thread::sleep(Duration::from_millis(20));
        self.stderr_tail.lock().map(|t| t.iter().cloned().collect()).unwrap_or_default()
    }

    /// How the process ended, waiting briefly for it to do so: "exit status: 3", "signal: 9".
    pub fn exit_description(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(500);
        loop {
            if let Some(st) = self.try_status() {
                return describe_status(st);
            }
            if Instant::now() >= until {
                return "process still running with its output closed".into();
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    fn try_status(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            self.status = self.child.try_wait().ok().flatten();
        }
        self.status
    }

    /// Closes stdin after sending `quit`, so the engine sees both.
    pub fn begin_quit(&mut self) {
        self.send("quit");
        self.input = None;
    }

    /// Waits until `deadline` for the process to exit, then kills it.
    pub fn finish(&mut self, deadline: Instant) {
        self.input = None;
        while self.try_status().is_none() {
            if Instant::now() >= deadline {
                let _ = self.child.kill();
                self.status = self.child.wait().ok();
                return;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Sends `quit`, waits up to `timeout`, kills if needed.
    pub fn shutdown(&mut self, timeout: Duration) {
        self.begin_quit();
        self.finish(Instant::now() + timeout);
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if self.try_status().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Shuts several engines down at once: `quit` to all, one shared wait, then kills.
pub fn shutdown_all(engines: &mut [&mut EngineProcess], timeout: Duration) {
    for e in engines.iter_mut() {
        e.begin_quit();
    }
    let deadline = Instant::now() + timeout;
    for e in engines.iter_mut() {
        e.finish(deadline);
    }
}

pub fn describe_status(st: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = st.signal() {
            return format!("killed by signal {sig}");
        }
    }
    match st.code() {
        Some(c) => format!("exit status {c}"),
        None => st.to_string(),
    }
}

fn spawn_thread(name: &str, f: impl FnOnce() + Send + 'static) -> io::Result<()> {
    thread::Builder::new().name(name.into()).stack_size(256 * 1024).spawn(f).map(|_| ())
}

fn write_input(mut stdin: ChildStdin, rx: Receiver<String>) {
    for line in rx {
        let mut bytes = line.into_bytes();
        bytes.push(b'\n');
        if stdin.write_all(&bytes).and_then(|_| stdin.flush()).is_err() {
            return;
        }
    }
}

fn read_output(stdout: impl Read, tx: Sender<Event>) {
    let mut r = BufReader::with_capacity(64 * 1024, stdout);
    let mut buf = Vec::new();
    loop {
        match read_line_capped(&mut r, &mut buf, MAX_LINE) {
            Ok(true) => {
                let line = String::from_utf8_lossy(&buf).into_owned();
                if tx.send(Event::Line(line, Instant::now())).is_err() {
                    return;
                }
            }
            _ => {
                let _ = tx.send(Event::Closed);
                return;
            }
        }
    }
}

fn drain_stderr(stderr: impl Read, log: StderrLog, prefix: String, tail: Arc<Mutex<VecDeque<String>>>) {
    let mut r = BufReader::with_capacity(64 * 1024, stderr);
    let mut buf = Vec::new();
    while let Ok(true) = read_line_capped(&mut r, &mut buf, MAX_LINE) {
        let line = String::from_utf8_lossy(&buf);
        log.write_line(&prefix, &line);
        if let Ok(mut t) = tail.lock() {
            if t.len() == STDERR_TAIL {
                t.pop_front();
            }
            t.push_back(line.chars().take(300).collect());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_lines() {
        let data = b"short\r\nthis line is long\nlast-without-newline".to_vec();
        let mut r = BufReader::with_capacity(4, &data[..]);
        let mut line = Vec::new();
        assert!(read_line_capped(&mut r, &mut line, 8).unwrap());
        assert_eq!(line, b"short");
        assert!(read_line_capped(&mut r, &mut line, 8).unwrap());
        assert_eq!(line, b"this lin");
        assert!(read_line_capped(&mut r, &mut line, 8).unwrap());
        assert_eq!(line, b"last-wit");
        assert!(!read_line_capped(&mut r, &mut line, 8).unwrap());
    }
}
