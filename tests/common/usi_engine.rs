//! A scripted-stdin harness around the real `shomei` binary: spawn it with piped stdio, send
//! lines, and wait for output lines matching a predicate, failing with the transcript so far.

// Each test crate includes this file and uses a different part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Wait for replies that normally take milliseconds: the machine is shared and noisy.
pub const REPLY: Duration = Duration::from_secs(20);
/// Wait for a search that normally takes well under a second.
pub const SEARCH: Duration = Duration::from_secs(30);

/// How many transcript entries a failure message shows (the most recent ones).
const TRANSCRIPT_TAIL: usize = 120;
/// How many characters of one transcript entry a failure message shows.
const ENTRY_CHARS: usize = 300;

/// One running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Receiver<String>,
    stdout_closed: bool,
    stderr: Arc<Mutex<Vec<u8>>>,
    started: Instant,
    /// Sent (`>`) and received (`<`) lines in order, with the time since start.
    transcript: Vec<String>,
    /// Every stdout line received so far.
    received: Vec<String>,
}

fn clip(s: &str) -> String {
    if s.chars().count() <= ENTRY_CHARS {
        s.to_string()
    } else {
        let head: String = s.chars().take(ENTRY_CHARS).collect();
        format!("{head}... ({} chars)", s.chars().count())
    }
}

impl Engine {
    /// Starts `shomei` in USI mode.
    pub fn spawn() -> Engine {
        Engine::spawn_with_args(&[])
    }

    pub fn spawn_with_args(args: &[&str]) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_shomei"));
        command.args(args);
        Engine::spawn_command(command)
    }

    /// Starts the engine under an address-space limit (`ulimit -v`, in KiB), as on a machine
    /// with that much memory. Needs a POSIX shell.
    pub fn spawn_with_memory_limit(kib: u64) -> Engine {
        let mut command = Command::new("sh");
        command.args(["-c", &format!("ulimit -v {kib} && exec \"$0\""), env!("CARGO_BIN_EXE_shomei")]);
        Engine::spawn_command(command)
    }

    pub fn spawn_command(mut command: Command) -> Engine {
        let mut child = command
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take();
        let mut out = BufReader::new(child.stdout.take().expect("piped stdout"));
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match out.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buf);
                        let line = text.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut err = child.stderr.take().expect("piped stderr");
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = err.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        });
        Engine {
            child,
            stdin,
            stdout: rx,
            stdout_closed: false,
            stderr,
            started: Instant::now(),
            transcript: Vec::new(),
            received: Vec::new(),
        }
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn note(&mut self, dir: char, text: &str) {
        let ms = self.started.elapsed().as_millis();
        self.transcript.push(format!("[{ms:>6} ms] {dir} {}", clip(text)));
    }

    /// The transcript so far (its tail) and the engine's stderr, for failure messages.
    pub fn transcript(&self) -> String {
        let skip = self.transcript.len().saturating_sub(TRANSCRIPT_TAIL);
        let mut s = String::new();
        if skip > 0 {
            s.push_str(&format!("    ... {skip} earlier entries\n"));
        }
        for t in &self.transcript[skip..] {
            s.push_str("    ");
            s.push_str(t);
            s.push('\n');
        }
        let err = self.stderr_text();
        if !err.trim().is_empty() {
            s.push_str("  stderr:\n");
            for l in err.lines().take(40) {
                s.push_str("    ");
                s.push_str(&clip(l));
                s.push('\n');
            }
        }
        s
    }

    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    #[track_caller]
    pub fn fail(&self, why: &str) -> ! {
        panic!("{why}\n  transcript (> sent, < received):\n{}", self.transcript())
    }

    /// Sends one line (a newline is appended).
    #[track_caller]
    pub fn send(&mut self, line: &str) {
        self.note('>', line);
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.write(&bytes);
    }

    /// Sends raw bytes as they are (no newline appended).
    #[track_caller]
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.note('>', &format!("(raw) {:?}", String::from_utf8_lossy(bytes)));
        self.write(bytes);
    }

    #[track_caller]
    fn write(&mut self, bytes: &[u8]) {
        let result = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(bytes).and_then(|_| stdin.flush()),
            None => self.fail("send after stdin was closed"),
        };
        if let Err(e) = result {
            self.fail(&format!("writing to the engine failed: {e}"));
        }
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.note('>', "(close stdin)");
        self.stdin = None;
    }

    /// The next stdout line before `deadline`, or `None` at the deadline or end of output.
    fn next_line(&mut self, deadline: Instant) -> Option<String> {
        if self.stdout_closed {
            return None;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.stdout.recv_timeout(wait) {
            Ok(line) => {
                self.note('<', &line);
                self.received.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                self.stdout_closed = true;
                self.note('<', "(stdout closed)");
                None
            }
        }
    }

    /// Reads lines until one matches, and returns it; fails on timeout or end of output.
    #[track_caller]
    pub fn expect_line(&mut self, pred: impl Fn(&str) -> bool, timeout: Duration) -> String {
        self.collect_until(pred, timeout).pop().expect("collect_until returns the match")
    }

    /// Reads lines until one matches; returns every line read, the match last.
    #[track_caller]
    pub fn collect_until(&mut self, pred: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            match self.next_line(deadline) {
                Some(line) => {
                    let done = pred(&line);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                None if self.stdout_closed => self.fail("the engine closed stdout before the expected line"),
                None => self.fail(&format!("no expected line within {timeout:?}")),
            }
        }
    }

    /// Reads lines for `duration` and fails if one matches; returns the lines read.
    #[track_caller]
    pub fn assert_no_line_for(&mut self, pred: impl Fn(&str) -> bool, duration: Duration) -> Vec<String> {
        let deadline = Instant::now() + duration;
        let mut lines = Vec::new();
        while let Some(line) = self.next_line(deadline) {
            if pred(&line) {
                self.fail(&format!("unexpected line within {duration:?}: {}", clip(&line)));
            }
            lines.push(line);
        }
        lines
    }

    /// Every stdout line received so far.
    pub fn received(&self) -> &[String] {
        &self.received
    }

    /// How many lines received so far match.
    pub fn count(&self, pred: impl Fn(&str) -> bool) -> usize {
        self.received.iter().filter(|l| pred(l)).count()
    }

    /// Sends `isready` and waits for `readyok`; returns the lines read meanwhile.
    #[track_caller]
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.collect_until(|l| l == "readyok", REPLY)
    }

    /// Waits for the process to exit; returns its status and how long the wait took.
    #[track_caller]
    pub fn wait_exit(&mut self, timeout: Duration) -> (ExitStatus, Duration) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                let took = start.elapsed();
                self.note('*', &format!("(exited with {status} after {took:?})"));
                // Drain what the engine printed before it exited, up to the end of its stdout.
                let drain_until = Instant::now() + REPLY;
                while !self.stdout_closed && Instant::now() < drain_until {
                    self.next_line(drain_until);
                }
                return (status, took);
            }
            if start.elapsed() > timeout {
                self.fail(&format!("the engine did not exit within {timeout:?}"));
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Fails if the engine logged an error or a panic on stderr.
    #[track_caller]
    pub fn assert_clean_stderr(&self) {
        let err = self.stderr_text();
        if err.contains("panicked") || err.contains("ERROR") {
            self.fail("the engine reported an error or panic on stderr");
        }
    }

    /// Sends `quit`, expects a prompt successful exit and a clean stderr.
    #[track_caller]
    pub fn quit(mut self) {
        self.send("quit");
        let (status, _) = self.wait_exit(REPLY);
        if !status.success() {
            self.fail(&format!("exit status {status} after quit"));
        }
        self.assert_clean_stderr();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Runs `shomei <args>` to completion and returns its stdout; fails unless it succeeds.
pub fn run_command(args: &[&str], timeout: Duration) -> String {
    let mut e = Engine::spawn_with_args(args);
    e.close_stdin();
    let (status, _) = e.wait_exit(timeout);
    if !status.success() {
        e.fail(&format!("`shomei {}` exited with {status}", args.join(" ")));
    }
    e.received().join("\n")
}
