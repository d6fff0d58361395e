//! `USI_Hash` is what the engine holds: the peak resident memory of the real binary, read from
//! `/proc/<pid>/status` (Linux), stays within `USI_Hash` plus a fixed 64 MB after a timed `go`
//! (search table and root mate table), a `go mate` that fills its table (it gets the search
//! table's memory), `go perft` and `bench`.

#![cfg(target_os = "linux")]

mod common {
    pub mod usi_engine;
}

use common::usi_engine::{Engine, REPLY, SEARCH};
use std::time::Duration;

/// What the engine may hold beyond `USI_Hash`: code, stacks, histories, buffers.
const OVERHEAD_MB: u64 = 64;

/// A long classic (Microcosmos, mate in 1525): a few seconds of df-pn fill any table tested here.
const HARD_TSUME: &str =
    "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1";

/// Peak and current resident memory of the process, in MB.
fn memory_mb(e: &Engine) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.pid())).expect("/proc status");
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{name} missing in /proc status"))
            / 1024
    };
    (field("VmHWM:"), field("VmRSS:"))
}

#[track_caller]
fn assert_within_budget(e: &Engine, hash_mb: u64, after: &str) {
    let (peak, now) = memory_mb(e);
    eprintln!("USI_Hash {hash_mb}: after {after:<34} peak {peak:5} MB, resident {now:5} MB");
    if peak > hash_mb + OVERHEAD_MB {
        e.fail(&format!(
            "USI_Hash {hash_mb}: peak resident {peak} MB after {after}, over {hash_mb} + {OVERHEAD_MB}"
        ));
    }
}

fn check_budget(hash_mb: u64) {
    let mut e = Engine::spawn();
    e.send(&format!("setoption name USI_Hash value {hash_mb}"));
    e.sync();
    assert_within_budget(&e, hash_mb, "isready");

    // A timed search runs the root df-pn beside the search table.
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go btime 0 wtime 0 byoyomi 1500");
    e.expect_line(|l| l.starts_with("bestmove "), SEARCH);
    assert_within_budget(&e, hash_mb, "go byoyomi 1500");

    // go mate long enough to fill its table, which has the whole budget. Its progress lines come
    // about once a second; after three, the table must hold memory (the search table is gone,
    // so what is resident is mostly the mate table: both at once would break the budget).
    e.send(&format!("position sfen {HARD_TSUME}"));
    e.send("go mate 4000");
    for _ in 0..3 {
        e.expect_line(|l| l.starts_with("info nodes ") && l.contains("proof number"), SEARCH);
    }
    let (_, resident) = memory_mb(&e);
    assert_within_budget(&e, hash_mb, "3 s of go mate");
    if resident < hash_mb / 4 {
        e.fail(&format!("go mate holds only {resident} MB of {hash_mb}: the test did not fill its table"));
    }
    e.expect_line(|l| l.starts_with("checkmate "), SEARCH);
    assert_within_budget(&e, hash_mb, "go mate 4000");

    // The search table comes back for the next game search.
    e.sync();
    e.send("position startpos");
    e.send("go btime 0 wtime 0 byoyomi 500");
    e.expect_line(|l| l.starts_with("bestmove "), SEARCH);
    assert_within_budget(&e, hash_mb, "isready, go again");

    e.send("go perft 5");
    e.expect_line(|l| l.starts_with("Nodes searched"), SEARCH);
    assert_within_budget(&e, hash_mb, "go perft 5");

    e.send("bench");
    e.expect_line(|l| l.starts_with("Nodes/second"), Duration::from_secs(300));
    assert_within_budget(&e, hash_mb, "bench");
    e.quit();
}

#[test]
fn peak_memory_stays_within_usi_hash_64() {
    check_budget(64);
}

#[test]
fn peak_memory_stays_within_usi_hash_1024() {
    check_budget(1024);
}

#[test]
fn go_mate_with_a_hash_size_the_machine_cannot_give_is_refused_and_the_engine_keeps_going() {
    // 3 GB of address space: an 8192 MB budget is refused at isready, the old one kept, and
    // go mate runs within it.
    let mut e = Engine::spawn_with_memory_limit(3_000_000);
    e.send("setoption name USI_Hash value 8192");
    e.send("isready");
    let lines = e.collect_until(|l| l == "readyok", REPLY);
    if !lines.iter().any(|l| l.starts_with("info string error:") && l.contains("8192 MB")) {
        e.fail("USI_Hash 8192 under a 3 GB limit was not refused at isready");
    }
    e.send("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G 1");
    e.send("go mate 2000");
    e.expect_line(|l| l == "checkmate G*5b", SEARCH);
    e.send("position startpos");
    e.send("go depth 4");
    e.expect_line(|l| l.starts_with("bestmove "), SEARCH);
    e.quit();
}
