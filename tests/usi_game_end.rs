//! Game-end answers through the real binary: `bestmove resign` without a legal move, and
//! `bestmove win` on an entering-king declaration.
//!
//! Timeouts are generous because the machine is shared; no test asserts how fast the engine is.
//! Latencies worth knowing are printed to stderr (`--nocapture` shows them).

mod common {
    pub mod usi_engine;
    pub mod usi_lines;
}

use common::usi_engine::{Engine, SEARCH};
use common::usi_lines::{expect_legal_bestmove, is_bestmove, position};
use std::time::Duration;

#[test]
fn no_legal_move_answers_bestmove_resign_for_every_go_form() {
    let args = "sfen 8k/9/8G/9/9/9/9/9/K8 b P 1 moves P*2b";
    assert!(position(args).legal_moves().is_empty(), "the test position must have no legal move");
    let mut e = Engine::spawn();
    e.send(&format!("position {args}"));
    for go in ["go btime 0 wtime 0 byoyomi 1000", "go depth 3", "go btime 1000 wtime 1000", "go movetime 200"]
    {
        e.send(go);
        let line = e.expect_line(is_bestmove, SEARCH);
        if line != "bestmove resign" {
            e.fail(&format!("'{go}' without a legal move answered '{line}'"));
        }
    }
    // Analysis still waits for stop before answering.
    e.send("go infinite");
    e.assert_no_line_for(is_bestmove, Duration::from_millis(500));
    e.send("stop");
    let line = e.expect_line(is_bestmove, SEARCH);
    if line != "bestmove resign" {
        e.fail("go infinite + stop without a legal move did not resign");
    }
    e.assert_no_line_for(is_bestmove, Duration::from_millis(200));
    if e.count(is_bestmove) != 5 {
        e.fail("five go commands did not get exactly five bestmoves");
    }
    e.quit();
}

#[test]
fn entering_king_declaration_answers_bestmove_win_unless_the_rule_is_off() {
    let black_wins = "sfen 4K4/1R1B1G1S1/PPPPPPPPP/9/9/9/9/9/4k4 b RB 1";
    let white_wins = "sfen 4K4/9/9/9/9/9/ppppppppp/1s1g1b1r1/4k4 w rb 1";
    // 26 points: short of Black's 28 under the 27-point rule.
    let too_few_points = "sfen 4K4/1R1B1G1S1/PPPPPPPPP/9/9/9/9/9/4k4 b B 1";
    let mut e = Engine::spawn();
    for args in [black_wins, white_wins] {
        e.send(&format!("position {args}"));
        for go in ["go btime 0 wtime 0 byoyomi 1000", "go depth 3"] {
            e.send(go);
            let line = e.expect_line(is_bestmove, SEARCH);
            if line != "bestmove win" {
                e.fail(&format!("'{go}' in a winning declaration position answered '{line}'"));
            }
        }
    }
    e.send(&format!("position {too_few_points}"));
    e.send("go depth 3");
    expect_legal_bestmove(&mut e, too_few_points, SEARCH);
    e.send("setoption name EnteringKingRule value NoEnteringKing");
    for args in [black_wins, white_wins] {
        e.send(&format!("position {args}"));
        e.send("go depth 3");
        expect_legal_bestmove(&mut e, args, SEARCH);
    }
    e.send("setoption name EnteringKingRule value CSARule27");
    e.send(&format!("position {black_wins}"));
    e.send("go depth 3");
    if e.expect_line(is_bestmove, SEARCH) != "bestmove win" {
        e.fail("setting CSARule27 back did not restore the declaration");
    }
    e.quit();
}
