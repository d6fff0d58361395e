//! YaneuraOu's HalfKP nets through the real binary, as a GUI user sets them up: `EvalFile` or
//! `EvalDir` (a folder with `nn.bin`; `EvalFile` wins when both are set), `FV_SCALE`, and
//! `eval` / `e` printing the static evaluation as YaneuraOu's `e` does. A file that cannot be
//! used is reported and the evaluator in use is kept. Not in the `material` build, which has
//! none of these options.
#![cfg(not(feature = "material"))]

mod common {
    pub mod usi_engine;
    pub mod usi_lines;
}

use common::usi_engine::{Engine, REPLY, SEARCH};
use common::usi_lines::{expect_legal_bestmove, is_info_string};
use shomei::eval::nnue::halfkp::{AnyHalfKp, Arch};
use shomei::Position;
use std::path::{Path, PathBuf};

const POSITION: &str = "sfen ln2k3+L/1r1sgg3/ppppp4/6+Bp1/5N2R/4P1pP1/P1NP1P3/1+b1S1S3/L2GKG2+p w SN3Pl2p 66";

/// A folder of this test's own holding `nn.bin`, a seeded random halfkp_256x2-32-32 net.
fn net_dir(test: &str, seed: u64) -> (PathBuf, AnyHalfKp) {
    let dir = std::env::temp_dir().join(format!("shomei-usi-halfkp-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = AnyHalfKp::random(Arch::K256x2_32_32, seed);
    std::fs::write(dir.join("nn.bin"), net.to_bytes()).unwrap();
    (dir, net)
}

fn sfen_position(args: &str) -> Position {
    Position::from_sfen(args.strip_prefix("sfen ").unwrap()).unwrap()
}

/// Sends `setoption name <name> value <value>` and returns the `info string` it answers.
fn set(e: &mut Engine, name: &str, value: &str) -> String {
    e.send(&format!("setoption name {name} value {value}"));
    e.expect_line(is_info_string, REPLY)
}

/// The number `command` (`eval` or `e`) prints for `POSITION`.
fn eval(e: &mut Engine, command: &str) -> i32 {
    e.send(&format!("position {POSITION}"));
    e.send(command);
    let line = e.expect_line(|l| l.starts_with("eval = "), REPLY);
    line["eval = ".len()..].parse().unwrap_or_else(|_| e.fail(&format!("'{line}' is not a number")))
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn usi_declares_evaldir_and_fv_scale() {
    let mut e = Engine::spawn();
    e.send("usi");
    let lines = e.collect_until(|l| l == "usiok", REPLY);
    for expected in [
        "option name EvalDir type string default <empty>",
        "option name FV_SCALE type spin default 16 min 1 max 128",
    ] {
        if !lines.iter().any(|l| l == expected) {
            e.fail(&format!("no '{expected}'"));
        }
    }
    e.quit();
}

#[test]
fn eval_file_loads_a_halfkp_net_that_evaluates_as_the_library_and_searches() {
    let (dir, net) = net_dir("file", 41);
    let pos = sfen_position(POSITION);
    let mut e = Engine::spawn();
    let default = eval(&mut e, "eval");
    let reply = set(&mut e, "EvalFile", &path(&dir.join("nn.bin")));
    if reply.contains("error")
        || !reply.contains("halfkp_256x2-32-32")
        || !reply.contains("Features=HalfKP(Friend)")
    {
        e.fail("loading a HalfKP net is not confirmed with its architecture and architecture string");
    }
    let with_net = eval(&mut e, "eval");
    if with_net != net.evaluate(&pos, 16) || with_net == default {
        e.fail(&format!("eval printed {with_net}, the net gives {}", net.evaluate(&pos, 16)));
    }
    if eval(&mut e, "e") != with_net {
        e.fail("e and eval differ");
    }
    set(&mut e, "FV_SCALE", "24");
    if eval(&mut e, "e") != net.evaluate(&pos, 24) {
        e.fail("FV_SCALE 24 is not applied to the evaluation");
    }
    e.send(&format!("position {POSITION}"));
    e.send("go depth 5");
    expect_legal_bestmove(&mut e, POSITION, SEARCH);
    e.send("position startpos");
    e.send("go btime 0 wtime 0 byoyomi 200");
    expect_legal_bestmove(&mut e, "startpos", SEARCH);
    e.quit();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn eval_dir_reads_nn_bin_and_eval_file_wins_when_both_are_set() {
    let (dir, net) = net_dir("dir", 42);
    let (other_dir, other) = net_dir("dir-other", 43);
    let pos = sfen_position(POSITION);
    let mut e = Engine::spawn();
    let built_in = eval(&mut e, "eval");
    let reply = set(&mut e, "EvalDir", &path(&dir));
    if reply.contains("error") || !reply.contains("nn.bin") {
        e.fail("EvalDir does not say it read nn.bin");
    }
    if eval(&mut e, "eval") != net.evaluate(&pos, 16) {
        e.fail("EvalDir's nn.bin is not the evaluator");
    }
    // EvalFile names a file: it wins over EvalDir, now and when EvalDir changes after it.
    set(&mut e, "EvalFile", &path(&other_dir.join("nn.bin")));
    if eval(&mut e, "eval") != other.evaluate(&pos, 16) {
        e.fail("EvalFile does not win over EvalDir");
    }
    let reply = set(&mut e, "EvalDir", &path(&dir));
    if !reply.contains("EvalFile") || eval(&mut e, "eval") != other.evaluate(&pos, 16) {
        e.fail("setting EvalDir after EvalFile replaced EvalFile's network");
    }
    // EvalFile back at its default: EvalDir's network; EvalDir emptied too: the built-in one.
    set(&mut e, "EvalFile", "<embedded>");
    if eval(&mut e, "eval") != net.evaluate(&pos, 16) {
        e.fail("EvalFile <embedded> with EvalDir set does not read EvalDir's nn.bin");
    }
    set(&mut e, "EvalDir", "<empty>");
    if eval(&mut e, "eval") != built_in {
        e.fail("with neither option set the evaluator is not the default one");
    }
    e.quit();
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&other_dir).ok();
}

#[test]
fn unusable_halfkp_files_are_refused_with_their_reason_and_the_net_in_use_is_kept() {
    let (dir, net) = net_dir("bad", 44);
    let bytes = std::fs::read(dir.join("nn.bin")).unwrap();
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() - 4096]).unwrap();
    let mut hash = bytes.clone();
    hash[4] ^= 0x10;
    let bad_hash = dir.join("hash.bin");
    std::fs::write(&bad_hash, &hash).unwrap();
    let mut foreign = bytes[..12].to_vec();
    let string = b"Features=HalfKPE9(Friend)[1128492->256x2],Network=AffineTransform[1<-32]";
    foreign[4..8].copy_from_slice(&0x1234_5678u32.to_le_bytes());
    foreign[8..12].copy_from_slice(&(string.len() as u32).to_le_bytes());
    foreign.extend_from_slice(string);
    let other_arch = dir.join("halfkpe9.bin");
    std::fs::write(&other_arch, &foreign).unwrap();
    let empty_dir = dir.join("no-net-here");
    std::fs::create_dir_all(&empty_dir).unwrap();

    let pos = sfen_position(POSITION);
    let mut e = Engine::spawn();
    set(&mut e, "EvalFile", &path(&dir.join("nn.bin")));
    let expected = net.evaluate(&pos, 16);
    for (file, reason) in [(&cut, "cut short"), (&bad_hash, "header hash"), (&other_arch, "HalfKPE9")] {
        let reply = set(&mut e, "EvalFile", &path(file));
        if !reply.starts_with("info string error: EvalFile") || !reply.contains(reason) {
            e.fail(&format!("{} is not refused with '{reason}'", file.display()));
        }
        if eval(&mut e, "eval") != expected {
            e.fail("a refused file changed the evaluator in use");
        }
    }
    set(&mut e, "EvalFile", "<embedded>");
    let built_in = eval(&mut e, "eval");
    let reply = set(&mut e, "EvalDir", &path(&empty_dir));
    if !reply.starts_with("info string error: EvalDir") || !reply.contains("nn.bin") {
        e.fail("an EvalDir without nn.bin is not reported");
    }
    if eval(&mut e, "eval") != built_in {
        e.fail("a refused EvalDir changed the evaluator in use");
    }
    e.send(&format!("position {POSITION}"));
    e.send("go depth 4");
    expect_legal_bestmove(&mut e, POSITION, SEARCH);
    e.quit();
    std::fs::remove_dir_all(&dir).ok();
}

/// `eval` without a network prints the hand-written evaluation; in Dobutsu it is an error.
#[test]
fn eval_prints_the_hand_written_evaluation_without_a_network() {
    let pos = sfen_position(POSITION);
    let mut e = Engine::spawn();
    set(&mut e, "UseNNUE", "false");
    if eval(&mut e, "eval") != shomei::eval::evaluate(&pos) {
        e.fail("eval with UseNNUE false is not the hand-written evaluation");
    }
    e.send("setoption name UCI_Variant value dobutsu");
    e.send("eval");
    e.expect_line(|l| l.starts_with("info string error: eval"), REPLY);
    e.quit();
}
