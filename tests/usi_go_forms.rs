//! Every `go` form of the README's table, through the real binary: a bounded form answers one
//! legal `bestmove` within its time plus a margin (and uses the byoyomi it is given), an
//! unbounded form only after `stop`. Then the exact line sequence of `cshogi.usi.Engine`, the
//! Python library most scripts drive engines with, which never reads the engine's stderr.
//!
//! The margin is generous because the 2-core machine runs other tests beside these; the
//! measured go-to-bestmove times come from `tools/go_latency.py`.

mod common {
    pub mod usi_engine;
    pub mod usi_lines;
}

use common::usi_engine::{Engine, REPLY, SEARCH};
use common::usi_lines::is_bestmove;
use shomei::Position;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Time a bounded `go` may take beyond its limit on a loaded machine before the test fails.
const MARGIN: Duration = Duration::from_millis(400);

/// Fails unless `line` is `bestmove <legal move> [ponder <move>]` in the position `args`.
#[track_caller]
fn assert_legal_bestmove(e: &Engine, args: &str, line: &str) {
    let words: Vec<&str> = args.split_whitespace().collect();
    let pos = Position::from_usi_args(&words).expect("test positions are valid");
    match line.split(' ').collect::<Vec<_>>().as_slice() {
        ["bestmove", mv] | ["bestmove", mv, "ponder", _] => {
            if pos.parse_move(mv).is_err() {
                e.fail(&format!("'{mv}' is not legal in 'position {args}'"));
            }
        }
        _ => e.fail(&format!("malformed bestmove line '{line}'")),
    }
}

/// What a `go` form promises.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// One bestmove after at least `min` and at most `max` (plus the margin) milliseconds.
    Within { min: u64, max: u64 },
    /// No bestmove until `stop`, then exactly one.
    UntilStop,
}

use Expect::*;

/// Black to move, and White to move.
const BLACK: &str = "startpos";
const WHITE: &str = "startpos moves 7g7f";

/// Sends `go`, checks the promise, and returns how long the answer took.
#[track_caller]
fn check_form(e: &mut Engine, args: &str, go: &str, expect: Expect) -> Duration {
    e.send(&format!("position {args}"));
    let start = Instant::now();
    e.send(go);
    let took = match expect {
        Within { min, max } => {
            let line = e.expect_line(is_bestmove, Duration::from_millis(max) + SEARCH);
            let took = start.elapsed();
            assert_legal_bestmove(e, args, &line);
            if took > Duration::from_millis(max) + MARGIN {
                e.fail(&format!("'{go}' from '{args}' answered after {took:?}, limit {max} ms"));
            }
            if took < Duration::from_millis(min) {
                e.fail(&format!("'{go}' from '{args}' answered after {took:?}: it should think {min} ms"));
            }
            took
        }
        UntilStop => {
            e.assert_no_line_for(is_bestmove, Duration::from_millis(800));
            e.send("stop");
            let line = e.expect_line(is_bestmove, SEARCH);
            assert_legal_bestmove(e, args, &line);
            start.elapsed()
        }
    };
    // Exactly one answer: nothing more after a short wait.
    e.assert_no_line_for(is_bestmove, Duration::from_millis(50));
    eprintln!("{go:<50} from {args:<20} answered after {took:?}");
    took
}

#[track_caller]
fn check_forms(network_delay: u64, forms: &[(&str, &str, Expect)]) {
    let mut e = Engine::spawn();
    e.send(&format!("setoption name NetworkDelay value {network_delay}"));
    e.send("usinewgame");
    e.sync();
    for &(args, go, expect) in forms {
        check_form(&mut e, args, go, expect);
    }
    e.sync();
    if e.received().iter().any(|l| l.starts_with("info string error")) {
        e.fail("a go form of the table was refused");
    }
    e.quit();
}

#[test]
fn byoyomi_forms_think_through_the_period_with_or_without_clocks() {
    // NetworkDelay 0: the whole byoyomi less the engine's own small safety margin.
    check_forms(
        0,
        &[
            (BLACK, "go byoyomi 300", Within { min: 240, max: 300 }),
            (WHITE, "go byoyomi 300", Within { min: 240, max: 300 }),
            (BLACK, "go btime 0 wtime 0 byoyomi 300", Within { min: 240, max: 300 }),
            (WHITE, "go btime 0 wtime 0 byoyomi 300", Within { min: 240, max: 300 }),
            // Main time on top of the byoyomi: at least the byoyomi, at most both.
            (BLACK, "go btime 600 wtime 600 byoyomi 200", Within { min: 150, max: 800 }),
            (WHITE, "go btime 100 wtime 100 byoyomi 200", Within { min: 230, max: 300 }),
            // A depth limit the time cuts short.
            (BLACK, "go depth 60 byoyomi 200", Within { min: 0, max: 200 }),
            // byoyomi 0 and no main time: answer at once.
            (BLACK, "go byoyomi 0", Within { min: 0, max: 0 }),
        ],
    );
}

#[test]
fn byoyomi_with_the_default_network_delay_keeps_the_delay_back() {
    // The default NetworkDelay (120 ms) is never more than half a byoyomi.
    check_forms(
        120,
        &[
            (BLACK, "go byoyomi 300", Within { min: 120, max: 180 }),
            (WHITE, "go byoyomi 1000", Within { min: 700, max: 880 }),
            (BLACK, "go btime 0 wtime 0 byoyomi 100", Within { min: 20, max: 50 }),
        ],
    );
}

#[test]
fn fischer_sudden_death_and_one_sided_clocks_are_bounded() {
    check_forms(
        0,
        &[
            (BLACK, "go btime 2000 wtime 2000 binc 100 winc 100", Within { min: 0, max: 2000 }),
            (WHITE, "go btime 2000 wtime 2000 binc 100 winc 100", Within { min: 0, max: 2000 }),
            // An increment without main time is the time for this move.
            (BLACK, "go binc 300 winc 300", Within { min: 0, max: 300 }),
            (WHITE, "go winc 300", Within { min: 0, max: 300 }),
            // Only one side's clock: the side to move's own missing clock counts as 0.
            (BLACK, "go btime 1500", Within { min: 0, max: 1500 }),
            (WHITE, "go btime 1500", Within { min: 0, max: 0 }),
            (BLACK, "go wtime 1500", Within { min: 0, max: 0 }),
            (WHITE, "go wtime 1500", Within { min: 0, max: 1500 }),
            (BLACK, "go btime 3000 wtime 3000 movestogo 1", Within { min: 0, max: 3000 }),
            (BLACK, "go btime -50 wtime 1000", Within { min: 0, max: 0 }),
        ],
    );
}

#[test]
fn fixed_time_depth_and_node_forms_are_bounded() {
    check_forms(
        0,
        &[
            (BLACK, "go movetime 400", Within { min: 300, max: 400 }),
            (WHITE, "go movetime 400", Within { min: 300, max: 400 }),
            // YaneuraOu's random time: from T to 3T.
            (BLACK, "go rtime 100", Within { min: 50, max: 300 }),
            (BLACK, "go depth 3", Within { min: 0, max: SEARCH.as_millis() as u64 }),
            (WHITE, "go nodes 20000", Within { min: 0, max: SEARCH.as_millis() as u64 }),
        ],
    );
}

#[test]
fn unbounded_forms_answer_only_after_stop() {
    check_forms(
        0,
        &[
            (BLACK, "go", UntilStop),
            (WHITE, "go infinite", UntilStop),
            // `infinite` wins over any clock given with it.
            (BLACK, "go infinite btime 100 wtime 100 byoyomi 100", UntilStop),
            (WHITE, "go ponder btime 0 wtime 0 byoyomi 100", UntilStop),
            (BLACK, "go ponder", UntilStop),
        ],
    );
}

#[test]
fn ponderhit_starts_the_clock_given_with_go_ponder_or_with_ponderhit() {
    let mut e = Engine::spawn();
    e.send("setoption name NetworkDelay value 0");
    e.sync();
    for (go, hit) in [
        ("go ponder btime 0 wtime 0 byoyomi 300", "ponderhit"),
        // ShogiHome's early ponder: times only with ponderhit.
        ("go ponder", "ponderhit btime 0 wtime 0 byoyomi 300"),
        ("go ponder", "ponderhit byoyomi 300"),
        // New times with ponderhit replace those given with go ponder.
        ("go ponder btime 0 wtime 0 byoyomi 60000", "ponderhit btime 0 wtime 0 byoyomi 300"),
    ] {
        e.send(&format!("position {WHITE}"));
        e.send(go);
        e.assert_no_line_for(is_bestmove, Duration::from_millis(500));
        let start = Instant::now();
        e.send(hit);
        let line = e.expect_line(is_bestmove, SEARCH);
        let took = start.elapsed();
        assert_legal_bestmove(&e, WHITE, &line);
        eprintln!("{go:<50} then {hit:<40} answered {took:?} after ponderhit");
        if took > Duration::from_millis(300) + MARGIN || took < Duration::from_millis(200) {
            e.fail(&format!("'{go}' + '{hit}' answered {took:?} after ponderhit, expected about 300 ms"));
        }
    }
    e.send("ponderhit wtime fast");
    e.expect_line(|l| l.starts_with("info string error"), REPLY);
    e.quit();
}

#[test]
fn positions_no_game_or_problem_can_have_are_refused_and_the_old_one_kept() {
    let mut e = Engine::spawn();
    e.send("position startpos moves 7g7f");
    for bad in ["position sfen 9/9/9/9/9/9/9/9/9 b - 1", "position sfen 9/9/9/9/4P4/9/9/9/9 b 2P 1"] {
        e.send(bad);
        let line = e.expect_line(|l| l.starts_with("info string"), REPLY);
        if !line.starts_with("info string error:") || !line.contains("king") {
            e.fail(&format!("'{bad}' answered '{line}'"));
        }
    }
    e.send("d");
    let lines = e.collect_until(|l| l.starts_with("Sfen:") || l.contains("sfen"), REPLY);
    if !lines.iter().any(|l| l.contains("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"))
    {
        e.fail("the position before the refused ones was not kept");
    }
    // A tsume without the attacker's king is still a problem.
    e.send("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G 1");
    e.send("go mate 1000");
    e.expect_line(|l| l == "checkmate G*5b", SEARCH);
    e.quit();
}

/// One line from the engine's stdout within `timeout`, as a script's blocking read would get it.
fn read_line(lines: &mpsc::Receiver<String>, timeout: Duration, transcript: &[String]) -> String {
    lines
        .recv_timeout(timeout)
        .unwrap_or_else(|_| panic!("no line within {timeout:?}; transcript:\n{}", transcript.join("\n")))
}

#[test]
fn the_exact_cshogi_engine_sequence_answers_every_go_without_reading_stderr() {
    // cshogi.usi.Engine pipes stderr and never reads it; its `go` blocks on stdout until a
    // `bestmove` line. The lines below are the ones its methods write.
    let mut child = Command::new(env!("CARGO_BIN_EXE_shomei"))
        .env("RUST_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let _stderr_never_read = child.stderr.take().unwrap();
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut transcript = Vec::new();
    let mut send = |line: &str, transcript: &mut Vec<String>| {
        transcript.push(format!("> {line}"));
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    };
    let until = |pred: &dyn Fn(&str) -> bool, timeout: Duration, transcript: &mut Vec<String>| loop {
        let line = read_line(&lines, timeout, transcript);
        transcript.push(format!("< {line}"));
        if pred(&line) {
            return line;
        }
    };
    send("usi", &mut transcript);
    until(&|l| l == "usiok", REPLY, &mut transcript);
    send("isready", &mut transcript);
    until(&|l| l == "readyok", REPLY, &mut transcript);
    send("usinewgame", &mut transcript);
    let game = "startpos moves 7g7f 3c3d 8h2b+";
    send(&format!("position {game}"), &mut transcript);
    let start = Instant::now();
    send("go byoyomi 300", &mut transcript);
    let best = until(&is_bestmove, Duration::from_millis(300) + MARGIN, &mut transcript);
    let first = start.elapsed();
    let words: Vec<&str> = game.split_whitespace().collect();
    let mv = best.split(' ').nth(1).unwrap_or("");
    assert!(Position::from_usi_args(&words).unwrap().parse_move(mv).is_ok(), "{best}");
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
    send(&format!("position sfen {sfen}"), &mut transcript);
    let start = Instant::now();
    send("go btime 2000 wtime 2000 binc 100 winc 100", &mut transcript);
    let best = until(&is_bestmove, Duration::from_millis(2000) + MARGIN, &mut transcript);
    let second = start.elapsed();
    let words: Vec<&str> = format!("sfen {sfen}").leak().split_whitespace().collect();
    let mv = best.split(' ').nth(1).unwrap_or("");
    assert!(Position::from_usi_args(&words).unwrap().parse_move(mv).is_ok(), "{best}");
    send("quit", &mut transcript);
    let status = child.wait().expect("the engine exits");
    assert!(status.success(), "exit status {status}");
    eprintln!("cshogi sequence: go byoyomi 300 answered after {first:?}, Fischer 2000+100 after {second:?}");
}
