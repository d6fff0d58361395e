//! `shomei-openings` through the real binary: distinct, legal, reproducible opening lines.

use shomei_arena::openings::parse_line;
use std::collections::HashSet;
use std::process::Command;

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shomei-openings")).args(args).output().expect("runs");
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).expect("utf-8"))
}

#[test]
fn writes_distinct_legal_openings_the_same_for_the_same_seed() {
    let (code, text) = run(&["--count", "200", "--plies", "8", "--seed", "7"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 200);
    assert_eq!(lines.iter().collect::<HashSet<_>>().len(), 200, "lines repeat");
    for line in &lines {
        let rest = line.strip_prefix("position ").unwrap_or_else(|| panic!("no 'position': {line}"));
        let opening = parse_line(rest).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(opening.moves.len(), 8, "{line}");
    }
    assert_eq!(run(&["--count", "200", "--plies", "8", "--seed", "7"]).1, text);
    assert_ne!(run(&["--count", "200", "--plies", "8", "--seed", "8"]).1, text);
}

#[test]
fn refuses_missing_arguments_and_impossible_counts() {
    assert_eq!(run(&["--count", "5"]).0, 2);
    assert_eq!(run(&["--count", "5", "--plies", "61", "--seed", "1"]).0, 2);
    // One ply has only a few dozen distinct quiet moves.
    assert_eq!(run(&["--count", "1000", "--plies", "1", "--seed", "1"]).0, 1);
}
