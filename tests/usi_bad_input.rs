//! Bad input through the real binary: each gets an `info string` reply, the previous state is
//! kept, and `isready` is still answered.
//!
//! Timeouts are generous because the machine is shared; no test asserts how fast the engine is.
//! Latencies worth knowing are printed to stderr (`--nocapture` shows them).

mod common {
    pub mod usi_engine;
    pub mod usi_lines;
}

use common::usi_engine::{Engine, REPLY, SEARCH};
use common::usi_lines::{
    any_line, assert_legal, current_sfen, expect_legal_bestmove, is_bestmove, is_info_string, is_pv_info,
    is_readyok, parse_bestmove, position,
};
use std::time::Duration;

#[test]
fn malformed_sfen_is_reported_and_the_previous_position_kept() {
    let mut e = Engine::spawn();
    e.send("position startpos moves 7g7f");
    let before = current_sfen(&mut e);
    for bad in [
        "position sfen xyz",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
        "position sfen",
        "position",
        "position startpos extra",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ] {
        e.send(bad);
        let reply = e.expect_line(any_line, REPLY);
        if !is_info_string(&reply) {
            e.fail(&format!("'{bad}' was not answered with an info string"));
        }
        e.sync();
        if current_sfen(&mut e) != before {
            e.fail(&format!("'{bad}' changed the position"));
        }
    }
    e.quit();
}

#[test]
fn illegal_move_in_position_is_reported_and_the_previous_position_kept() {
    let mut e = Engine::spawn();
    e.send("position startpos moves 7g7f 3c3d");
    let before = current_sfen(&mut e);
    if before != position("startpos moves 7g7f 3c3d").to_sfen() {
        e.fail("d does not show the position that was set");
    }
    for bad in [
        "position startpos moves 7g7f 7g7f",
        "position startpos moves 7g7f 3c3d 2b8h",
        "position startpos moves 5e5d",
        "position startpos moves P*5e",
        "position startpos moves 7g7f zz9z",
        "position startpos moves 8h2b+",
    ] {
        e.send(bad);
        let reply = e.expect_line(any_line, REPLY);
        if !is_info_string(&reply) {
            e.fail(&format!("'{bad}' was not answered with an info string"));
        }
        e.sync();
        if current_sfen(&mut e) != before {
            e.fail(&format!("'{bad}' changed the position"));
        }
    }
    // The kept position is the one searched.
    let args = "startpos moves 7g7f 3c3d";
    e.send("go depth 2");
    expect_legal_bestmove(&mut e, args, SEARCH);
    e.quit();
}

#[test]
fn unknown_command_is_reported_and_isready_still_answered() {
    let mut e = Engine::spawn();
    for bad in ["foo", "foo bar baz", "USI", "isready now", "go fast", "setoption", "setoption USI_Hash 16"] {
        e.send(bad);
        let reply = e.expect_line(any_line, REPLY);
        if !is_info_string(&reply) {
            e.fail(&format!("'{bad}' was not answered with an info string"));
        }
        let lines = e.sync();
        if lines.len() != 1 {
            e.fail(&format!("'{bad}' got more than one reply"));
        }
    }
    e.send("usi");
    e.collect_until(|l| l == "usiok", REPLY);
    e.quit();
}

#[test]
fn unknown_option_and_bad_option_values_are_reported_and_the_old_values_kept() {
    let mut e = Engine::spawn();
    e.send("setoption name EnteringKingRule value NoEnteringKing");
    e.send("setoption name MultiPV value 2");
    if e.sync().len() != 1 {
        e.fail("valid setoption commands were answered");
    }
    for bad in [
        "setoption name NoSuchOption value 1",
        "setoption name USI_Hash value -5",
        "setoption name USI_Hash value 0",
        "setoption name USI_Hash value lots",
        "setoption name USI_Hash value 99999999999999999999",
        "setoption name USI_Ponder value maybe",
        "setoption name Threads value 0",
        "setoption name MultiPV value abc",
        "setoption name MultiPV value 0",
        "setoption name EnteringKingRule value Foo",
        "setoption name EnteringKingRule value",
        "setoption name SearchAlgorithm value Quantum",
        "setoption name DrawValue value 1e3",
    ] {
        e.send(bad);
        let reply = e.expect_line(any_line, REPLY);
        if !is_info_string(&reply) {
            e.fail(&format!("'{bad}' was not answered with an info string"));
        }
        e.sync();
    }
    // EnteringKingRule is still NoEnteringKing: the declaration position plays a move.
    let args = "sfen 4K4/1R1B1G1S1/PPPPPPPPP/9/9/9/9/9/4k4 b RB 1";
    e.send(&format!("position {args}"));
    e.send("go depth 2");
    let lines = e.collect_until(is_bestmove, SEARCH);
    let (mv, _) = parse_bestmove(&e, lines.last().unwrap());
    assert_legal(&e, args, &mv);
    // MultiPV is still 2.
    if !lines.iter().any(|l| is_pv_info(l) && l.contains(" multipv 2 ")) {
        e.fail("MultiPV 2 was lost after bad MultiPV values");
    }
    e.quit();
}

#[test]
fn go_with_a_non_numeric_argument_is_reported_and_starts_no_search() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    for bad in [
        "go depth abc",
        "go depth",
        "go nodes -1",
        "go btime 0 wtime x byoyomi 100",
        "go movetime 1.5",
        "go perft",
        "go perft 0",
        "go searchmoves 7g7f zz",
        "go wibble",
    ] {
        e.send(bad);
        let reply = e.expect_line(any_line, REPLY);
        if !is_info_string(&reply) {
            e.fail(&format!("'{bad}' was not answered with an info string"));
        }
        e.sync();
        e.assert_no_line_for(is_bestmove, Duration::from_millis(100));
    }
    e.send("go depth 2");
    expect_legal_bestmove(&mut e, "startpos", SEARCH);
    e.quit();
}

#[test]
fn stop_and_ponderhit_without_a_search_are_reported_and_ignored() {
    let mut e = Engine::spawn();
    for cmd in ["stop", "ponderhit"] {
        e.send(cmd);
        let reply = e.expect_line(any_line, REPLY);
        if !is_info_string(&reply) {
            e.fail(&format!("'{cmd}' with no search was not answered with an info string"));
        }
        e.sync();
    }
    // ponderhit during a non-ponder search is not a ponderhit either.
    e.send("position startpos");
    e.send("go infinite");
    e.send("ponderhit");
    e.expect_line(is_info_string, REPLY);
    e.assert_no_line_for(is_bestmove, Duration::from_millis(500));
    e.send("stop");
    expect_legal_bestmove(&mut e, "startpos", SEARCH);
    e.assert_no_line_for(is_bestmove, Duration::from_millis(200));
    if e.count(is_bestmove) != 1 {
        e.fail("one go got more than one bestmove");
    }
    e.quit();
}

#[test]
fn invalid_utf8_and_binary_garbage_are_reported_and_the_position_kept() {
    let mut e = Engine::spawn();
    e.send("position startpos moves 2g2f");
    let before = current_sfen(&mut e);
    let garbage: &[&[u8]] = &[
        b"\xff\xfe\xfd\n",
        b"\x00\x01\x02\x03garbage\x7f\n",
        b"isready\xff\n",
        b"position startpos moves \xe3\x81\n",
        b"\x80\x80\x80 \xc0\xaf\n",
    ];
    for bytes in garbage {
        e.send_bytes(bytes);
        let reply = e.expect_line(any_line, REPLY);
        if !is_info_string(&reply) {
            e.fail(&format!("{bytes:?} was not answered with an info string"));
        }
        e.sync();
        if current_sfen(&mut e) != before {
            e.fail(&format!("{bytes:?} changed the position"));
        }
    }
    e.quit();
}

#[test]
fn a_very_long_line_is_reported_and_the_engine_keeps_answering() {
    let mut e = Engine::spawn();
    e.send("position startpos moves 7g7f");
    let before = current_sfen(&mut e);
    let long = "x".repeat(1 << 20);
    e.send(&long);
    let reply = e.expect_line(any_line, REPLY);
    if !is_info_string(&reply) {
        e.fail("a 1 MiB line was not answered with an info string");
    }
    e.sync();
    let long_position = format!("position startpos moves {}", "7g7f ".repeat(50_000));
    e.send(&long_position);
    e.expect_line(is_info_string, REPLY);
    e.sync();
    if current_sfen(&mut e) != before {
        e.fail("a long bad position changed the position");
    }
    e.quit();
}

#[test]
fn empty_and_blank_lines_are_ignored() {
    let mut e = Engine::spawn();
    for blank in ["", "   ", "\t", "\r", " \t \r"] {
        e.send(blank);
    }
    e.assert_no_line_for(any_line, Duration::from_millis(300));
    let lines = e.sync();
    if lines.len() != 1 {
        e.fail("blank lines were answered");
    }
    e.quit();
}

#[test]
fn crlf_line_endings_are_accepted() {
    let mut e = Engine::spawn();
    e.send_bytes(b"usi\r\n");
    e.collect_until(|l| l == "usiok", REPLY);
    e.send_bytes(b"setoption name USI_Hash value 16\r\nisready\r\n");
    if e.collect_until(is_readyok, REPLY).len() != 1 {
        e.fail("a CRLF setoption was answered");
    }
    e.send_bytes(b"position startpos moves 7g7f\r\n");
    if current_sfen(&mut e) != position("startpos moves 7g7f").to_sfen() {
        e.fail("a CRLF position was not taken");
    }
    e.send_bytes(b"go depth 2\r\n");
    expect_legal_bestmove(&mut e, "startpos moves 7g7f", SEARCH);
    e.send_bytes(b"quit\r\n");
    let (status, _) = e.wait_exit(REPLY);
    if !status.success() {
        e.fail("CRLF quit did not exit with success");
    }
}
