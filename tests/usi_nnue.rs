//! The evaluation options through the real binary: `usi` declares `EvalFile` and `UseNNUE`; a
//! file that cannot be read or is refused is reported and the evaluator in use is kept; a
//! network file is loaded (its description confirmed) and searched with; `UseNNUE false` goes
//! back to the hand-written evaluation. Not in the `material` build, which has neither option.
#![cfg(not(feature = "material"))]

mod common {
    pub mod usi_engine;
    pub mod usi_lines;
}

use common::usi_engine::{Engine, REPLY, SEARCH};
use common::usi_lines::{assert_legal, expect_legal_bestmove, is_info_string};
use shomei::eval::nnue::random_network;
use std::path::PathBuf;

const POSITION: &str = "startpos moves 7g7f 3c3d 8h2b+ 3a2b";

/// A directory of its own for this test's files.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shomei-usi-nnue-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes a random network's file; returns its path and description.
fn write_net(dir: &std::path::Path, seed: u64) -> (String, String) {
    let net = random_network(seed);
    let path = dir.join(format!("net{seed}.nnue"));
    std::fs::write(&path, net.to_bytes()).unwrap();
    (path.display().to_string(), net.description)
}

/// A fresh search of `POSITION` to depth 4 (tables cleared first, so it is reproducible): its
/// last PV line without the timing fields, and the bestmove, which must be legal.
fn search_signature(e: &mut Engine) -> String {
    e.send("usinewgame");
    e.send(&format!("position {POSITION}"));
    e.send("go depth 4");
    let lines = e.collect_until(|l| l.starts_with("bestmove"), SEARCH);
    let best = lines.last().unwrap().clone();
    let mv = best.split(' ').nth(1).unwrap_or("").to_string();
    assert_legal(e, POSITION, &mv);
    let Some(pv_line) = lines.iter().rev().find(|l| l.starts_with("info depth 4 ") && l.contains(" pv "))
    else {
        e.fail("no depth 4 PV line")
    };
    let mut kept = Vec::new();
    let mut words = pv_line.split(' ');
    while let Some(w) = words.next() {
        if matches!(w, "time" | "nps" | "hashfull") {
            words.next();
        } else {
            kept.push(w);
        }
    }
    format!("{} / {best}", kept.join(" "))
}

/// Sends `setoption name <name> value <value>` and returns the `info string` it answers.
fn set(e: &mut Engine, name: &str, value: &str) -> String {
    e.send(&format!("setoption name {name} value {value}"));
    e.expect_line(is_info_string, REPLY)
}

#[test]
fn usi_declares_the_evaluation_options() {
    let mut e = Engine::spawn();
    e.send("usi");
    let lines = e.collect_until(|l| l == "usiok", REPLY);
    for expected in
        ["option name EvalFile type string default <embedded>", "option name UseNNUE type check default true"]
    {
        if !lines.iter().any(|l| l == expected) {
            e.fail(&format!("no '{expected}'"));
        }
    }
    e.quit();
}

#[test]
fn unusable_files_are_reported_and_the_evaluator_in_use_is_kept() {
    let dir = temp_dir("bad");
    let (net_path, _) = write_net(&dir, 31);
    let damaged = dir.join("damaged.nnue");
    let bytes = std::fs::read(&net_path).unwrap();
    std::fs::write(&damaged, &bytes[..bytes.len() / 2]).unwrap();

    let mut e = Engine::spawn();
    let hand = search_signature(&mut e);
    let reply = set(&mut e, "EvalFile", "/nonexistent/net.nnue");
    if !reply.starts_with("info string error: ") || !reply.contains("/nonexistent/net.nnue") {
        e.fail("a missing file is not reported as an error naming it");
    }
    if search_signature(&mut e) != hand {
        e.fail("after a missing file the engine no longer searches with the hand-written evaluation");
    }
    expect_legal_bestmove_after_go(&mut e);

    // With a network in use, a refused file keeps that network.
    let loaded = set(&mut e, "EvalFile", &net_path);
    if loaded.starts_with("info string error") {
        e.fail("a valid network was refused");
    }
    let with_net = search_signature(&mut e);
    let reply = set(&mut e, "EvalFile", &damaged.display().to_string());
    if !reply.starts_with("info string error: ") || !reply.contains("refused") {
        e.fail("a damaged file is not reported as refused");
    }
    if search_signature(&mut e) != with_net {
        e.fail("a refused file changed the evaluator in use");
    }
    // One flipped bit in a weight: the checksum refuses it, naming the mismatch.
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 3] ^= 0x08;
    let one_bit = dir.join("one-bit.nnue");
    std::fs::write(&one_bit, &flipped).unwrap();
    let reply = set(&mut e, "EvalFile", &one_bit.display().to_string());
    if !reply.starts_with("info string error: ") || !reply.contains("checksum") {
        e.fail("a file with one flipped bit is not refused for its checksum");
    }
    if search_signature(&mut e) != with_net {
        e.fail("a refused file changed the evaluator in use");
    }
    // Format 1 (no checksum) is read, with a warning.
    let old = dir.join("format1.nnue");
    std::fs::write(&old, random_network(31).to_unchecked_bytes()).unwrap();
    let reply = set(&mut e, "EvalFile", &old.display().to_string());
    if reply.starts_with("info string error") || !reply.contains("warning: format 1 has no checksum") {
        e.fail("a format-1 file is not read with a warning");
    }
    if search_signature(&mut e) != with_net {
        e.fail("the same weights in format 1 search differently");
    }
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

fn expect_legal_bestmove_after_go(e: &mut Engine) {
    e.send("position startpos");
    e.send("go depth 3");
    expect_legal_bestmove(e, "startpos", SEARCH);
}

#[test]
fn a_network_file_is_loaded_searched_with_and_switched_off() {
    let dir = temp_dir("good");
    let (path, description) = write_net(&dir, 32);
    let mut e = Engine::spawn();
    let default = search_signature(&mut e);
    set(&mut e, "UseNNUE", "false");
    let hand = search_signature(&mut e);
    set(&mut e, "UseNNUE", "true");
    let built_in = shomei::eval::nnue::embedded::network().is_some();
    if (default != hand) != built_in {
        e.fail("the default evaluator is not the built-in network (or, without one, the hand-written evaluation)");
    }

    let reply = set(&mut e, "EvalFile", &path);
    if reply.contains("error") || !reply.contains(&description) {
        e.fail(&format!("loading the network is not confirmed with its description '{description}'"));
    }
    let with_net = search_signature(&mut e);
    if with_net == hand || with_net == default {
        e.fail("the search with the network file is the hand-written evaluation's or the default's");
    }
    expect_legal_bestmove_after_go(&mut e);

    let reply = set(&mut e, "UseNNUE", "false");
    if !reply.contains("hand-written") {
        e.fail("UseNNUE false does not say the hand-written evaluation is used");
    }
    if search_signature(&mut e) != hand {
        e.fail("UseNNUE false does not search as the hand-written evaluation");
    }
    set(&mut e, "UseNNUE", "true");
    if search_signature(&mut e) != with_net {
        e.fail("UseNNUE true does not bring the network back");
    }
    // Back to the default: the built-in network (the hand-written evaluation without one).
    set(&mut e, "EvalFile", "<embedded>");
    if search_signature(&mut e) != default {
        e.fail("EvalFile <embedded> does not go back to the default evaluator");
    }
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The node count of the USI `bench` command's report.
fn bench_nodes(e: &mut Engine) -> String {
    e.send("bench");
    let lines = e.collect_until(|l| l.starts_with("Nodes/second"), SEARCH);
    match lines.iter().find_map(|l| l.strip_prefix("Nodes searched: ")) {
        Some(n) => n.to_string(),
        None => e.fail("bench printed no 'Nodes searched'"),
    }
}

#[test]
fn usi_bench_searches_with_the_evaluator_the_options_name() {
    let mut e = Engine::spawn();
    let default = bench_nodes(&mut e);
    set(&mut e, "UseNNUE", "false");
    let hand = bench_nodes(&mut e);
    let built_in = shomei::eval::nnue::embedded::network().is_some();
    if (default != hand) != built_in {
        e.fail(&format!("bench after UseNNUE false: {hand} nodes, by default {default}"));
    }
    set(&mut e, "UseNNUE", "true");
    if bench_nodes(&mut e) != default {
        e.fail("bench after UseNNUE true is not the default bench");
    }
    e.quit();
}
