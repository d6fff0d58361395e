//! Exit through the real binary: end of input or `quit`, idle or during a search, exits
//! promptly and with success.
//!
//! Timeouts are generous because the machine is shared; no test asserts how fast the engine is.
//! Latencies worth knowing are printed to stderr (`--nocapture` shows them).

mod common {
    pub mod usi_engine;
    pub mod usi_lines;
}

use common::usi_engine::{Engine, REPLY};
use common::usi_lines::{is_bestmove, ms};
use std::time::Duration;

#[test]
fn eof_while_idle_exits_promptly_with_success() {
    let mut e = Engine::spawn();
    e.sync();
    e.close_stdin();
    let (status, took) = e.wait_exit(REPLY);
    eprintln!("latency: EOF while idle -> exit: {}", ms(took));
    if !status.success() {
        e.fail(&format!("exit status {status} at end of input"));
    }
    e.assert_clean_stderr();
}

#[test]
fn eof_during_go_infinite_exits_promptly_with_success() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    e.send("go infinite");
    e.assert_no_line_for(is_bestmove, Duration::from_millis(500));
    e.close_stdin();
    let (status, took) = e.wait_exit(REPLY);
    eprintln!("latency: EOF during go infinite -> exit: {}", ms(took));
    if !status.success() {
        e.fail(&format!("exit status {status} at end of input during a search"));
    }
    e.assert_clean_stderr();
}

#[test]
fn quit_during_go_infinite_exits_promptly_with_success() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    e.send("go infinite");
    e.assert_no_line_for(is_bestmove, Duration::from_millis(500));
    e.send("quit");
    let (status, took) = e.wait_exit(REPLY);
    eprintln!("latency: quit during go infinite -> exit: {}", ms(took));
    if !status.success() {
        e.fail(&format!("exit status {status} after quit during a search"));
    }
    e.assert_clean_stderr();
}

#[test]
fn quit_during_go_ponder_exits_promptly_with_success() {
    let mut e = Engine::spawn();
    e.send("position startpos moves 7g7f");
    e.send("go ponder btime 0 wtime 0 byoyomi 1000");
    e.assert_no_line_for(is_bestmove, Duration::from_millis(500));
    e.send("quit");
    let (status, took) = e.wait_exit(REPLY);
    eprintln!("latency: quit during go ponder -> exit: {}", ms(took));
    if !status.success() {
        e.fail(&format!("exit status {status} after quit during ponder"));
    }
    e.assert_clean_stderr();
}
