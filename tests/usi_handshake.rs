//! The USI handshake and a whole game through the real binary: `usi` declares every option
//! with its type, a GUI session plays legal moves and quits cleanly, and the ponder cycle works.
//!
//! Timeouts are generous because the machine is shared; no test asserts how fast the engine is.
//! Latencies worth knowing are printed to stderr (`--nocapture` shows them).

mod common {
    pub mod usi_engine;
    pub mod usi_lines;
}

use common::usi_engine::{Engine, REPLY, SEARCH};
use common::usi_lines::{
    assert_legal, expect_legal_bestmove, is_bestmove, is_info_depth, is_info_string, ms, parse_bestmove,
    position, with_moves,
};
use std::time::{Duration, Instant};

/// The options the engine declares, with their declaration (after `option name <name> `).
const OPTION_DECLARATIONS: &[(&str, &str)] = &[
    ("USI_Hash", "type spin"),
    ("USI_Ponder", "type check"),
    ("Threads", "type spin"),
    ("MultiPV", "type spin"),
    ("NetworkDelay", "type spin"),
    ("MinimumThinkingTime", "type spin"),
    ("MaxMovesToDraw", "type spin"),
    (
        "EnteringKingRule",
        "type combo default CSARule27 var NoEnteringKing var CSARule24 var CSARule24H var CSARule27 var CSARule27H \
         var TryRule",
    ),
    ("ResignValue", "type spin"),
    ("DrawValue", "type spin"),
    ("SearchAlgorithm", "type combo default Full var Full var AlphaBeta var Minimax"),
    ("USI_OwnBook", "type check default true"),
    ("BookFile", "type filename default no_book"),
    ("BookMoves", "type spin default 16 min 0 max 10000"),
    ("BookOnTheFly", "type check default false"),
    ("PvInterval", "type spin default 300"),
    ("DepthLimit", "type spin default 0"),
    ("NodesLimit", "type spin default 0"),
];

#[test]
fn usi_answers_id_every_option_with_its_type_then_usiok() {
    let mut e = Engine::spawn();
    e.send("usi");
    let lines = e.collect_until(|l| l == "usiok", REPLY);
    if !lines[0].starts_with("id name shomei") {
        e.fail("the first reply to usi is not 'id name shomei ...'");
    }
    if !lines.iter().any(|l| l.starts_with("id author ") && l.len() > "id author ".len()) {
        e.fail("no 'id author ...' line");
    }
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    for (name, decl) in OPTION_DECLARATIONS {
        let prefix = format!("option name {name} ");
        let Some(line) = options.iter().find(|l| l.starts_with(&prefix)) else {
            e.fail(&format!("option {name} is not declared"));
        };
        if !line[prefix.len()..].starts_with(decl) {
            e.fail(&format!("option {name}: expected '{decl}...', got '{line}'"));
        }
    }
    for line in &options {
        // `option name <id> type <t> ...`: the name is a single word.
        let words: Vec<&str> = line.split(' ').collect();
        if words.len() < 5 || words[1] != "name" || words[3] != "type" {
            e.fail(&format!("option line with a malformed or spaced name: '{line}'"));
        }
        match words[4] {
            "spin" => {
                let value = |key: &str| {
                    words.iter().position(|w| *w == key).and_then(|i| words.get(i + 1)?.parse::<i64>().ok())
                };
                match (value("default"), value("min"), value("max")) {
                    (Some(d), Some(lo), Some(hi)) if lo <= d && d <= hi => {}
                    _ => e.fail(&format!("spin option without default within min..max: '{line}'")),
                }
            }
            "check" => {
                if !(line.ends_with("default true") || line.ends_with("default false")) {
                    e.fail(&format!("check option without a true/false default: '{line}'"));
                }
            }
            "combo" => {
                let default = words.iter().position(|w| *w == "default").map(|i| words[i + 1]);
                let vars: Vec<&str> = words.windows(2).filter(|w| w[0] == "var").map(|w| w[1]).collect();
                if !default.is_some_and(|d| vars.contains(&d)) {
                    e.fail(&format!("combo option whose default is not one of its vars: '{line}'"));
                }
            }
            "button" | "string" | "filename" => {}
            other => e.fail(&format!("unknown option type '{other}'")),
        }
    }
    if lines.last().map(String::as_str) != Some("usiok") {
        e.fail("usi not ended by usiok");
    }
    e.sync();
    e.quit();
}

#[test]
fn gui_session_plays_a_game_with_one_legal_bestmove_per_go_and_quits_cleanly() {
    let mut e = Engine::spawn();
    e.send("usi");
    e.collect_until(|l| l == "usiok", REPLY);
    for (name, value) in [
        ("USI_Hash", "32"),
        ("USI_Ponder", "false"),
        ("Threads", "1"),
        ("MultiPV", "1"),
        ("NetworkDelay", "100"),
        ("MinimumThinkingTime", "0"),
        ("MaxMovesToDraw", "256"),
        ("EnteringKingRule", "CSARule27"),
        ("ResignValue", "99999"),
        ("DrawValue", "-50"),
        ("SearchAlgorithm", "Full"),
    ] {
        e.send(&format!("setoption name {name} value {value}"));
    }
    let replies = e.sync();
    if replies.iter().any(|l| is_info_string(l)) {
        e.fail("a valid setoption was answered with an error");
    }
    e.send("usinewgame");
    // The engine plays both sides for a few moves, as a GUI would drive a game.
    let plies = 8;
    let mut moves: Vec<String> = Vec::new();
    let (mut btime, mut wtime) = (10_000u64, 10_000u64);
    for ply in 0..plies {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let args = with_moves("startpos", &refs);
        e.send(&format!("position {args}"));
        e.send(&format!("go btime {btime} wtime {wtime} byoyomi 200"));
        let start = Instant::now();
        let mv = expect_legal_bestmove(&mut e, &args, SEARCH);
        let spent = start.elapsed().as_millis() as u64;
        if ply % 2 == 0 {
            btime = btime.saturating_sub(spent);
        } else {
            wtime = wtime.saturating_sub(spent);
        }
        moves.push(mv);
    }
    e.send("gameover win");
    e.sync();
    e.assert_no_line_for(is_bestmove, Duration::from_millis(200));
    let answered = e.count(is_bestmove);
    if answered != plies {
        e.fail(&format!("{plies} go commands got {answered} bestmoves"));
    }
    e.quit();
}

#[test]
fn ponder_cycle_bestmove_ponder_then_go_ponder_and_ponderhit_answers_without_stop() {
    let mut e = Engine::spawn();
    e.send("setoption name USI_Ponder value true");
    e.sync();
    e.send("usinewgame");
    e.send("position startpos");
    e.send("go btime 0 wtime 0 byoyomi 500");
    let line = e.expect_line(is_bestmove, SEARCH);
    let (mv, ponder) = parse_bestmove(&e, &line);
    assert_legal(&e, "startpos", &mv);
    // A PV of one move gives no ponder move; any legal reply does for the rest of the test.
    let reply = match ponder {
        Some(p) => {
            assert_legal(&e, &with_moves("startpos", &[&mv]), &p);
            p
        }
        None => position(&with_moves("startpos", &[&mv])).legal_moves()[0].to_string(),
    };
    let args = with_moves("startpos", &[&mv, &reply]);
    e.send(&format!("position {args}"));
    e.send("go ponder btime 0 wtime 0 byoyomi 1000");
    // Without ponder this clock answers within a second; pondering waits for the GUI.
    let during = e.assert_no_line_for(is_bestmove, Duration::from_millis(1500));
    if !during.iter().any(|l| is_info_depth(l)) {
        e.fail("no info line while pondering: is the search running?");
    }
    let start = Instant::now();
    e.send("ponderhit");
    expect_legal_bestmove(&mut e, &args, SEARCH);
    let latency = start.elapsed();
    eprintln!("latency: ponderhit (byoyomi 1000) -> bestmove: {}", ms(latency));
    e.assert_no_line_for(is_bestmove, Duration::from_millis(300));
    e.sync();
    if e.count(is_bestmove) != 2 {
        e.fail("two go commands should get exactly two bestmoves");
    }
    e.quit();
}
