//! Every `go` command through the real binary: iteration reports, each limit, `stop`,
//! `ponderhit`, `gameover` and `isready` during a search, `searchmoves`, `go mate` and `go perft`.
//!
//! Timeouts are generous because the machine is shared; no test asserts how fast the engine is.
//! Latencies worth knowing are printed to stderr (`--nocapture` shows them).

mod common {
    pub mod usi_engine;
    pub mod usi_lines;
}

use common::usi_engine::{Engine, REPLY, SEARCH};
use common::usi_lines::{
    assert_legal, assert_legal_sequence, expect_legal_bestmove, is_bestmove, is_info_depth, is_info_string,
    is_pv_info, is_readyok, ms, parse_bestmove, pv_infos, wait_for_bestmoves, PvInfo,
};
use std::time::{Duration, Instant};

/// Searches `position <args>` with `go <limit>`: every line up to `bestmove`, and its move.
fn search(e: &mut Engine, args: &str, limit: &str) -> (Vec<String>, String) {
    e.send(&format!("position {args}"));
    e.send(&format!("go {limit}"));
    let lines = e.collect_until(is_bestmove, SEARCH);
    let (best, _) = parse_bestmove(e, lines.last().unwrap());
    (lines, best)
}

#[test]
fn go_depth_reports_each_iteration_with_all_fields_and_stats_after_it() {
    let mut e = Engine::spawn();
    let args = "startpos moves 7g7f 3c3d";
    let depth = 6;
    let (lines, best) = search(&mut e, args, &format!("depth {depth}"));
    assert_legal(&e, args, &best);
    let infos = pv_infos(&e, &lines);
    let exact: Vec<&PvInfo> = infos.iter().filter(|i| !i.bound).collect();
    let reached: Vec<u32> = exact.iter().map(|i| i.depth).collect();
    if reached != (1..=depth).collect::<Vec<u32>>() {
        e.fail(&format!("go depth {depth}: iterations reported {reached:?}, expected 1..={depth}"));
    }
    let mut last_nodes = 0;
    for info in &infos {
        if info.seldepth < info.depth || info.hashfull > 1000 || info.multipv.is_some() {
            e.fail(&format!("implausible info fields {info:?}"));
        }
        if info.nodes < last_nodes {
            e.fail("node counts went down between info lines");
        }
        last_nodes = info.nodes;
        assert_legal_sequence(&e, args, &info.pv);
    }
    if exact.last().unwrap().pv[0] != best {
        e.fail("the bestmove is not the first move of the last iteration's pv");
    }
    // `info string stats depth=d ...` follows the PV line of iteration d, before the next one.
    for d in 1..=depth {
        let pv_at = lines.iter().position(|l| l.starts_with(&format!("info depth {d} ")) && is_pv_info(l));
        let stats_at = lines.iter().position(|l| l.starts_with(&format!("info string stats depth={d} ")));
        let next_at =
            lines.iter().position(|l| l.starts_with(&format!("info depth {} ", d + 1)) && is_pv_info(l));
        match (pv_at, stats_at) {
            (Some(p), Some(s)) if p < s && next_at.is_none_or(|n| s < n) => {}
            _ => e.fail(&format!("no 'info string stats depth={d}' line after iteration {d}")),
        }
    }
    if e.count(is_bestmove) != 1 {
        e.fail("go depth answered more than once");
    }
    e.quit();
}

#[test]
fn go_nodes_answers_legally_and_reports_no_iteration_past_the_limit() {
    let mut e = Engine::spawn();
    let args = "startpos moves 2g2f 8c8d";
    let limit = 20_000;
    let (lines, best) = search(&mut e, args, &format!("nodes {limit}"));
    assert_legal(&e, args, &best);
    let infos = pv_infos(&e, &lines);
    if infos.is_empty() {
        e.fail("go nodes printed no iteration");
    }
    // The limit is checked every 1024 nodes of the main thread.
    if let Some(over) = infos.iter().find(|i| i.nodes > limit + 2048) {
        e.fail(&format!("an iteration finished at {} nodes, past the limit {limit}", over.nodes));
    }
    e.quit();
}

#[test]
fn a_search_stopped_inside_an_iteration_ends_with_its_nodes_and_its_best_move() {
    let mut e = Engine::spawn();
    let args = "startpos moves 2g2f 8c8d";
    let limit = 50_000;
    let (lines, best) = search(&mut e, args, &format!("nodes {limit}"));
    let infos = pv_infos(&e, &lines);
    let Some(last) = infos.last() else { e.fail("go nodes printed no iteration") };
    // The node limit stops the search inside an iteration; the GUI's last line must still show
    // the whole search, not the last iteration that finished.
    if last.nodes < limit {
        e.fail(&format!("the last info line shows {} nodes, fewer than the {limit} searched", last.nodes));
    }
    if last.pv.first() != Some(&best) {
        e.fail(&format!("the last info line's pv {:?} does not start with bestmove {best}", last.pv));
    }
    e.quit();
}

#[test]
fn go_movetime_answers_with_a_legal_move() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    e.send("go movetime 1000");
    let start = Instant::now();
    expect_legal_bestmove(&mut e, "startpos", SEARCH);
    eprintln!("go movetime 1000 answered after {}", ms(start.elapsed()));
    e.assert_no_line_for(is_bestmove, Duration::from_millis(200));
    e.quit();
}

#[test]
fn go_byoyomi_only_uses_a_good_part_of_the_period_and_answers() {
    let mut e = Engine::spawn();
    for (args, go) in [
        ("startpos", "go btime 0 wtime 0 byoyomi 1000"),
        ("startpos moves 7g7f", "go btime 0 wtime 0 byoyomi 1000"),
    ] {
        e.send(&format!("position {args}"));
        e.send(go);
        let start = Instant::now();
        expect_legal_bestmove(&mut e, args, SEARCH);
        let took = start.elapsed();
        eprintln!("'{go}' from '{args}' answered after {}", ms(took));
        if took < Duration::from_millis(300) {
            e.fail(&format!("'{go}' answered after {took:?}: byoyomi time is free, it should be used"));
        }
        if took > Duration::from_secs(5) {
            e.fail(&format!("'{go}' answered after {took:?}, far past the byoyomi"));
        }
    }
    e.quit();
}

#[test]
fn go_fischer_increment_answers_with_a_legal_move() {
    let mut e = Engine::spawn();
    for args in ["startpos", "startpos moves 7g7f"] {
        e.send(&format!("position {args}"));
        e.send("go btime 5000 wtime 5000 binc 500 winc 500");
        let start = Instant::now();
        expect_legal_bestmove(&mut e, args, SEARCH);
        eprintln!("Fischer 5000+500 from '{args}' answered after {}", ms(start.elapsed()));
    }
    e.quit();
}

#[test]
fn go_sudden_death_answers_even_with_almost_no_time_left() {
    let mut e = Engine::spawn();
    for (args, go) in [
        ("startpos", "go btime 3000 wtime 3000"),
        ("startpos moves 7g7f", "go btime 3000 wtime 3000"),
        ("startpos", "go btime 50 wtime 50"),
        ("startpos moves 7g7f", "go btime 0 wtime 0"),
    ] {
        e.send(&format!("position {args}"));
        e.send(go);
        let start = Instant::now();
        expect_legal_bestmove(&mut e, args, SEARCH);
        eprintln!("'{go}' from '{args}' answered after {}", ms(start.elapsed()));
    }
    e.quit();
}

#[test]
fn go_sudden_death_uses_the_clock_of_the_side_to_move() {
    // The side to move has 2 s, the other an hour: spending by the wrong clock would take minutes.
    let mut e = Engine::spawn();
    for (args, go) in
        [("startpos", "go btime 2000 wtime 3600000"), ("startpos moves 7g7f", "go btime 3600000 wtime 2000")]
    {
        e.send(&format!("position {args}"));
        e.send(go);
        let start = Instant::now();
        expect_legal_bestmove(&mut e, args, SEARCH);
        let took = start.elapsed();
        eprintln!("'{go}' from '{args}' answered after {}", ms(took));
        if took > Duration::from_secs(5) {
            e.fail(&format!("'{go}' took {took:?} with 2 s on the clock of the side to move"));
        }
    }
    e.quit();
}

#[test]
fn go_infinite_answers_only_after_stop_exactly_once() {
    let mut e = Engine::spawn();
    let args = "startpos moves 7g7f";
    e.send(&format!("position {args}"));
    e.send("go infinite");
    let during = e.assert_no_line_for(is_bestmove, Duration::from_millis(1200));
    if !during.iter().any(|l| is_info_depth(l)) {
        e.fail("no info line during go infinite: is the search running?");
    }
    let start = Instant::now();
    e.send("stop");
    expect_legal_bestmove(&mut e, args, SEARCH);
    eprintln!("latency: stop (go infinite) -> bestmove: {}", ms(start.elapsed()));
    e.assert_no_line_for(is_bestmove, Duration::from_millis(300));
    e.sync();
    if e.count(is_bestmove) != 1 {
        e.fail("go infinite + stop answered more than once");
    }
    e.quit();
}

#[test]
fn go_ponder_answers_only_after_stop_exactly_once() {
    let mut e = Engine::spawn();
    let args = "startpos moves 7g7f 3c3d";
    e.send(&format!("position {args}"));
    e.send("go ponder btime 0 wtime 0 byoyomi 500");
    e.assert_no_line_for(is_bestmove, Duration::from_millis(1200));
    let start = Instant::now();
    e.send("stop");
    expect_legal_bestmove(&mut e, args, SEARCH);
    eprintln!("latency: stop (go ponder) -> bestmove: {}", ms(start.elapsed()));
    e.assert_no_line_for(is_bestmove, Duration::from_millis(300));
    e.sync();
    if e.count(is_bestmove) != 1 {
        e.fail("go ponder + stop answered more than once");
    }
    e.quit();
}

#[test]
fn gameover_during_ponder_stops_the_search_and_the_next_game_plays_normally() {
    let mut e = Engine::spawn();
    e.send("usinewgame");
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go ponder btime 0 wtime 0 byoyomi 1000");
    e.assert_no_line_for(is_bestmove, Duration::from_millis(800));
    e.send("gameover lose");
    e.sync();
    // A running search prints at least one info line a second; after a grace period, silence
    // shows it has stopped.
    e.assert_no_line_for(|_| false, Duration::from_millis(500));
    e.assert_no_line_for(is_info_depth, Duration::from_millis(1500));
    let after_gameover = e.count(is_bestmove);
    if after_gameover > 1 {
        e.fail("the pondering search answered more than once after gameover");
    }
    e.send("usinewgame");
    e.send("position startpos");
    e.send("go btime 0 wtime 0 byoyomi 300");
    expect_legal_bestmove(&mut e, "startpos", SEARCH);
    e.assert_no_line_for(is_bestmove, Duration::from_millis(300));
    e.sync();
    if e.count(is_bestmove) != after_gameover + 1 {
        e.fail("the next game's go did not get exactly one bestmove");
    }
    e.quit();
}

#[test]
fn isready_during_go_infinite_answers_readyok_while_the_search_keeps_running() {
    let mut e = Engine::spawn();
    let args = "startpos";
    e.send(&format!("position {args}"));
    e.send("go infinite");
    e.assert_no_line_for(is_bestmove, Duration::from_millis(300));
    let start = Instant::now();
    e.send("isready");
    let before = e.collect_until(is_readyok, REPLY);
    eprintln!("latency: isready during search -> readyok: {}", ms(start.elapsed()));
    if before.iter().any(|l| is_bestmove(l)) {
        e.fail("isready ended the search");
    }
    let after = e.assert_no_line_for(is_bestmove, Duration::from_millis(1500));
    if !after.iter().any(|l| is_info_depth(l)) {
        e.fail("no info line after readyok: the search stopped running");
    }
    e.send("stop");
    expect_legal_bestmove(&mut e, args, SEARCH);
    e.assert_no_line_for(is_bestmove, Duration::from_millis(300));
    if e.count(is_bestmove) != 1 {
        e.fail("go infinite answered more than once");
    }
    e.quit();
}

#[test]
fn every_go_gets_exactly_one_bestmove_across_go_stop_sequences() {
    let mut e = Engine::spawn();
    let args = "startpos moves 7g7f 8c8d";
    e.send(&format!("position {args}"));
    // (go, whether to send stop after it)
    let script: &[(&str, bool)] = &[
        ("go infinite", true),
        ("go depth 1", true),
        ("go ponder btime 0 wtime 0 byoyomi 100", true),
        ("go movetime 50", false),
        ("go btime 0 wtime 0 byoyomi 100", true),
        ("go nodes 1000", true),
        ("go depth 3", false),
        ("go infinite", true),
    ];
    // As a GUI does: wait for each bestmove before the next go.
    for (go, stop) in script {
        let before = e.count(is_bestmove);
        e.send(go);
        if *stop {
            e.assert_no_line_for(|_| false, Duration::from_millis(50));
            e.send("stop");
        }
        wait_for_bestmoves(&mut e, args, before + 1);
        e.assert_no_line_for(is_bestmove, Duration::from_millis(150));
        if e.count(is_bestmove) != before + 1 {
            e.fail(&format!("'{go}' got more than one bestmove"));
        }
    }
    // In a burst, without waiting: every go still owes exactly one bestmove.
    let expected = e.count(is_bestmove) + 3 * script.len();
    for _ in 0..3 {
        for (go, stop) in script {
            e.send(go);
            if *stop {
                e.send("stop");
            }
        }
    }
    e.sync();
    wait_for_bestmoves(&mut e, args, expected);
    e.assert_no_line_for(is_bestmove, Duration::from_millis(500));
    let got = e.count(is_bestmove);
    if got != expected {
        e.fail(&format!("{expected} go commands got {got} bestmoves"));
    }
    e.quit();
}

#[test]
fn go_searchmoves_restricts_the_bestmove_to_the_listed_moves() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    e.send("go depth 5 searchmoves 1g1f 9g9f");
    let lines = e.collect_until(is_bestmove, SEARCH);
    let (best, _) = parse_bestmove(&e, lines.last().unwrap());
    if best != "1g1f" && best != "9g9f" {
        e.fail(&format!("bestmove {best} is not among searchmoves 1g1f 9g9f"));
    }
    if let Some(i) = pv_infos(&e, &lines).iter().find(|i| i.pv[0] != "1g1f" && i.pv[0] != "9g9f") {
        e.fail(&format!("a pv starts outside searchmoves: {:?}", i.pv));
    }
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go btime 0 wtime 0 byoyomi 300 searchmoves 5i5h");
    let line = e.expect_line(is_bestmove, SEARCH);
    if line.split(' ').nth(1) != Some("5i5h") {
        e.fail("the only searchmove was not played");
    }
    // An illegal searchmove is reported and left out; the legal one is searched.
    e.send("position startpos");
    e.send("go depth 3 searchmoves 1g1f 5e5d");
    let lines = e.collect_until(is_bestmove, SEARCH);
    if !lines.iter().any(|l| is_info_string(l) && l.contains("5e5d")) {
        e.fail("the illegal searchmove 5e5d was not reported");
    }
    if lines.last().unwrap() != "bestmove 1g1f" {
        e.fail("with one legal searchmove, it must be the bestmove");
    }
    e.quit();
}

#[test]
fn go_mate_answers_a_checkmate_line_and_no_bestmove() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    e.send("go mate 1000");
    let lines = e.collect_until(|l| l.starts_with("checkmate"), REPLY);
    if lines.iter().any(|l| is_bestmove(l)) {
        e.fail("go mate answered with a bestmove");
    }
    e.assert_no_line_for(is_bestmove, Duration::from_millis(300));
    e.sync();
    e.quit();
}

#[test]
fn go_perft_prints_divide_lines_a_blank_line_and_the_total() {
    let mut e = Engine::spawn();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.collect_until(|l| l.starts_with("Nodes searched: "), REPLY);
    let blank = lines.iter().position(|l| l.is_empty()).unwrap_or_else(|| e.fail("no blank line"));
    let mut sum = 0u64;
    for l in &lines[..blank] {
        let Some((mv, n)) = l.split_once(": ") else { e.fail(&format!("not '<move>: <count>': '{l}'")) };
        assert_legal(&e, "startpos", mv);
        sum += n.parse::<u64>().unwrap_or_else(|_| e.fail(&format!("bad count in '{l}'")));
    }
    if blank != 30 || blank + 2 != lines.len() {
        e.fail("expected 30 divide lines, a blank line, then the total");
    }
    if sum != 25_470 || lines[blank + 1] != "Nodes searched: 25470" {
        e.fail("perft 3 from startpos is 25470");
    }
    e.assert_no_line_for(is_bestmove, Duration::from_millis(200));
    e.quit();
}

/// The singular-extension search runs in a real search: a depth-10 search of an opening position
/// reports table moves extended for being singular and nodes cut by multi-cut (both counters
/// stay at zero when the step is switched off or never reached).
#[test]
fn deep_search_reports_singular_extensions_and_multi_cuts() {
    let mut e = Engine::spawn();
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go depth 10");
    let lines = e.collect_until(is_bestmove, SEARCH);
    let Some(stats) = lines.iter().find(|l| l.starts_with("info string stats depth=10 ")) else {
        e.fail("no stats line for iteration 10");
    };
    let field = |name: &str| -> u64 {
        stats
            .split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    if field("singular_extensions") == 0 || field("multi_cuts") == 0 {
        e.fail(&format!("no singular extension or multi-cut in: {stats}"));
    }
}
