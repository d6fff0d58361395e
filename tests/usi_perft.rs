//! The foundation's user-facing commands driven through the real binary: `go perft`, `d`,
//! `shomei perft`, and bad `position` input that must leave the previous position in place.

mod common {
    pub mod usi_engine;
}

use common::usi_engine::{run_command, Engine, SEARCH};
use std::process::Command;

/// Runs the engine with `input` on stdin until it exits at the end of input, and returns its
/// stdout.
fn session(input: &str) -> String {
    let mut e = Engine::spawn();
    e.send_bytes(input.as_bytes());
    e.close_stdin();
    let (status, _) = e.wait_exit(SEARCH);
    if !status.success() {
        e.fail(&format!("the engine exited with {status}"));
    }
    e.received().iter().map(|l| format!("{l}\n")).collect()
}

#[test]
fn go_perft_prints_divide_then_total() {
    // End of input (not `quit`, which exits at once) lets a piped perft finish.
    let out = session("position startpos moves 7g7f\ngo perft 2\n");
    let lines: Vec<&str> = out.lines().collect();
    // 30 replies, each `<move>: <count>`, a blank line, then the total.
    let blank = lines.iter().position(|l| l.is_empty()).expect("blank line");
    assert_eq!(blank, 30, "{out}");
    for l in &lines[..blank] {
        let (m, n) = l.split_once(": ").expect("move: count");
        assert!(shomei::Move::parse_usi(m).is_some(), "{l}");
        assert!(n.parse::<u64>().is_ok(), "{l}");
    }
    let sum: u64 = lines[..blank].iter().map(|l| l.split_once(": ").unwrap().1.parse::<u64>().unwrap()).sum();
    assert_eq!(lines[blank + 1], format!("Nodes searched: {sum}"));
    let mut p = shomei::Position::from_usi_args(&["startpos", "moves", "7g7f"]).unwrap();
    assert_eq!(sum, shomei::shogi::perft::perft(&mut p, 2));
}

#[test]
fn crlf_and_extra_spaces_are_accepted() {
    let out = session("position   startpos\r\ngo  perft  1\r\n");
    assert!(out.contains("Nodes searched: 30"), "{out}");
}

#[test]
fn d_draws_board_hands_side_sfen_key_and_check() {
    let out = session("position sfen 4r3k/9/9/9/9/9/9/9/4K4 b G 1\nd\n");
    assert!(out.contains("Sfen: 4r3k/9/9/9/9/9/9/9/4K4 b G 1"), "{out}");
    assert!(out.contains("Side to move: black"));
    assert!(out.contains("In check: yes"));
    assert!(out.contains("Black hand: G"));
    assert!(out.contains("White hand: -"));
    assert!(out.lines().any(|l| l.starts_with("Key: ") && l.len() == 21));
    assert!(out.lines().any(|l| l.contains("+r") || l.contains(" r ")));
}

#[test]
fn bad_input_is_reported_and_the_old_position_kept() {
    let out = session(
        "position startpos moves 7g7f\nposition startpos moves 7g7f 7g7f\nposition sfen nonsense\n\
         position sfen 4k4/9/4P4/9/9/9/4P4/9/4K4 b - 1\nfoo bar\ngo perft x\ngo perft 1\n",
    );
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("info string")).collect();
    assert_eq!(errors.len(), 5, "{out}");
    assert!(errors[0].contains("'7g7f'") && errors[0].contains("illegal"));
    assert!(errors[1].contains("sfen"));
    assert!(errors[2].contains("two pawns on file 5"));
    assert!(errors[3].contains("unknown command 'foo'"));
    assert!(errors[4].contains("perft depth"));
    // Still the position after 7g7f: White has 30 moves.
    assert!(out.contains("Nodes searched: 30"));
    assert!(out.contains("3c3d: 1"));
}

#[test]
fn command_line_perft() {
    let text = run_command(
        &["perft", "3", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL", "w", "GR5pnsg", "1"],
        SEARCH,
    );
    assert!(text.ends_with("Nodes searched: 4809015"), "{text}");
    // A failing command line: the exit status and the whole stderr, which `output` waits for.
    let bad = Command::new(env!("CARGO_BIN_EXE_shomei")).args(["perft", "2", "bad"]).output().unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8(bad.stderr).unwrap().contains("invalid sfen"));
}
