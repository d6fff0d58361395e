//! Books and analysis options through the real binary: a book move answered at once with its
//! book score, depth and line (and a ponder move), malformed and missing books reported without
//! losing the engine, the book taking effect by the next `go` without `isready`, `go ponder`
//! answered at `ponderhit`, `shomei book make` writing a book the engine then plays from; and
//! the analysis options a GUI sets once: `PvInterval`, `MultiPV` between `go infinite`s,
//! `DepthLimit`, `NodesLimit`, `getoption` and the entering-king rules.

mod common {
    pub mod usi_engine;
    pub mod usi_lines;
}

use common::usi_engine::{run_command, Engine, REPLY, SEARCH};
use common::usi_lines::{is_bestmove, is_pv_info, parse_pv_info, pv_infos};
use std::path::PathBuf;
use std::time::Duration;

const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const AFTER_7G7F: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
/// A middlegame of the bench set, where iterations take long enough to be seen.
const MIDDLEGAME: &str =
    "sfen ln1gkg3/1r1s1sb2/ppppp4/5+B1p1/5nR2/2P1P2P1/PP1P1P2L/3S1S3/LN1GKG1N1 w L4Pp 46";

/// A book file of its own for each test.
fn book_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shomei-usi-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn one_move_book(name: &str) -> PathBuf {
    book_file(name, &format!("#YANEURAOU-DB2016 1.00\nsfen {STARTPOS}\n7g7f 3c3d 40 20 1\nsfen {AFTER_7G7F}\n3c3d none -40 20 1\n"))
}

#[test]
fn a_book_move_is_answered_at_once_with_its_book_score_depth_and_ponder() {
    let path = one_move_book("answer.db");
    let mut e = Engine::spawn();
    e.send(&format!("setoption name BookFile value {}", path.display()));
    e.send("setoption name USI_Ponder value true");
    let ready = e.sync();
    assert!(
        ready.iter().any(|l| l.starts_with("info string book ") && l.contains("2 positions, 2 moves")),
        "{ready:?}"
    );
    e.send("position startpos");
    e.send("go btime 600000 wtime 600000 byoyomi 10000");
    let lines = e.collect_until(is_bestmove, REPLY);
    assert_eq!(lines.last().unwrap(), "bestmove 7g7f ponder 3c3d");
    let infos = pv_infos(&e, &lines);
    assert_eq!(infos.len(), 1, "one line, no search: {lines:?}");
    assert_eq!((infos[0].depth, infos[0].nodes), (20, 0));
    assert_eq!(infos[0].score, common::usi_lines::Score::Cp(40));
    assert_eq!(infos[0].pv, ["7g7f", "3c3d"]);
    assert!(lines.iter().any(|l| l.starts_with("info string book 7g7f: value 40, depth 20")), "{lines:?}");
    // Past the book: a search.
    e.send("position startpos moves 2g2f");
    e.send("go btime 600000 wtime 600000 byoyomi 300");
    let lines = e.collect_until(is_bestmove, SEARCH);
    assert!(pv_infos(&e, &lines).iter().any(|i| i.nodes > 0), "{lines:?}");
    e.quit();
}

#[test]
fn malformed_lines_are_summed_up_once_and_a_missing_book_is_an_error_not_a_crash() {
    let path = book_file(
        "malformed.db",
        &format!("#YANEURAOU-DB2016 1.00\nsfen {STARTPOS}\n7g7f 3c3d 40 20 1\nnot a move\nsfen nonsense\n2g2f\n7g7x none\n"),
    );
    let mut e = Engine::spawn();
    e.send(&format!("setoption name BookFile value {}", path.display()));
    e.send("setoption name BookDepthLimit value 0");
    let ready = e.sync();
    let reports: Vec<&String> = ready.iter().filter(|l| l.starts_with("info string book ")).collect();
    assert_eq!(reports.len(), 1, "{ready:?}");
    assert!(reports[0].contains("skipped 4 malformed lines, the first at line 4"), "{}", reports[0]);
    e.send("position startpos");
    e.send("go byoyomi 1000");
    assert_eq!(e.expect_line(is_bestmove, REPLY), "bestmove 7g7f");

    e.send("setoption name BookFile value /nonexistent/folder/book.db");
    let ready = e.sync();
    assert!(ready.iter().any(|l| l.starts_with("info string error: book /nonexistent")), "{ready:?}");
    e.send("position startpos");
    e.send("go byoyomi 300");
    let lines = e.collect_until(is_bestmove, SEARCH);
    assert!(pv_infos(&e, &lines).iter().any(|i| i.nodes > 0), "searched without a book: {lines:?}");
    e.assert_clean_stderr();
    e.quit();
}

#[test]
fn the_book_takes_effect_by_the_next_go_without_isready() {
    let path = one_move_book("no-isready.db");
    let mut e = Engine::spawn();
    e.send(&format!("setoption name BookFile value {}", path.display()));
    e.send("position startpos moves 7g7f");
    e.send("go byoyomi 1000");
    assert_eq!(e.expect_line(is_bestmove, REPLY), "bestmove 3c3d");
    // Off again, also without isready.
    e.send("setoption name USI_OwnBook value false");
    e.send("position startpos moves 7g7f");
    e.send("go byoyomi 300");
    let lines = e.collect_until(is_bestmove, SEARCH);
    assert!(pv_infos(&e, &lines).iter().any(|i| i.nodes > 0), "{lines:?}");
    e.quit();
}

#[test]
fn a_ponder_from_the_book_answers_at_ponderhit_and_analysis_searches() {
    let path = one_move_book("ponder.db");
    let mut e = Engine::spawn();
    e.send(&format!("setoption name BookFile value {}", path.display()));
    e.send("setoption name USI_Ponder value true");
    e.sync();
    e.send("position startpos");
    e.send("go ponder btime 10000 wtime 10000 byoyomi 1000");
    e.assert_no_line_for(is_bestmove, Duration::from_millis(300));
    e.send("ponderhit");
    assert_eq!(e.expect_line(is_bestmove, REPLY), "bestmove 7g7f ponder 3c3d");
    // `go infinite` is analysis: it searches, whatever the book says.
    e.send("position startpos");
    e.send("go infinite");
    e.assert_no_line_for(is_bestmove, Duration::from_millis(300));
    e.send("stop");
    let lines = e.collect_until(is_bestmove, REPLY);
    assert!(pv_infos(&e, &lines).iter().any(|i| i.nodes > 0), "{lines:?}");
    e.quit();
}

#[test]
fn a_book_made_by_shomei_book_make_is_played_from() {
    let games = book_file("games.txt", "startpos moves 7g7f 3c3d 2g2f\nstartpos moves 2g2f 8c8d\n");
    let out = games.with_file_name("made.db");
    let _ = std::fs::remove_file(&out);
    let args =
        ["book", "make", out.to_str().unwrap(), games.to_str().unwrap(), "--plies", "2", "--depth", "3"];
    run_command(&[&args[..], &["--threads", "1", "--hash", "8"]].concat(), SEARCH);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("#YANEURAOU-DB2016 1.00\n"), "{text}");
    assert_eq!(text.matches("\nsfen ").count(), 3, "{text}");
    let mut e = Engine::spawn();
    e.send(&format!("setoption name BookFile value {}", out.display()));
    e.send("setoption name BookDepthLimit value 0");
    e.send("setoption name BookOnTheFly value true");
    e.send("position startpos moves 7g7f");
    e.send("go byoyomi 1000");
    let lines = e.collect_until(is_bestmove, REPLY);
    assert!(lines.iter().any(|l| l.starts_with("info string book ") && l.contains("depth 3")), "{lines:?}");
    e.quit();
}

/// The `time` field of an `info` line.
fn time_of(line: &str) -> u64 {
    let words: Vec<&str> = line.split(' ').collect();
    let at = words.iter().position(|&w| w == "time").expect("a time field");
    words[at + 1].parse().unwrap()
}

/// The PV lines of a `go movetime` search of `ms` with `PvInterval` set to `interval`.
fn pv_lines_with_interval(interval: u64, ms: u64) -> Vec<String> {
    let mut e = Engine::spawn();
    e.send(&format!("setoption name PvInterval value {interval}"));
    e.sync();
    e.send(&format!("position {MIDDLEGAME}"));
    e.send(&format!("go movetime {ms}"));
    let lines = e.collect_until(is_bestmove, SEARCH);
    e.quit();
    lines.into_iter().filter(|l| is_pv_info(l)).collect()
}

#[test]
fn pv_interval_spaces_the_lines_shown_within_iterations_and_repeats_them_that_often() {
    // Every line: each root move that changes the line is shown, as a lower bound.
    let every = pv_lines_with_interval(0, 2500);
    let bounds = every.iter().filter(|l| l.contains(" lowerbound ") || l.contains(" upperbound ")).count();
    assert!(bounds > 0, "{every:?}");
    // A long interval: a line within an iteration (a bound) only that long after the one before
    // (but for the last, which shows the search as it stood at the stop).
    let interval = 700;
    let spaced = pv_lines_with_interval(interval, 2500);
    for pair in spaced[..spaced.len() - 1].windows(2) {
        if pair[1].contains("lowerbound") || pair[1].contains("upperbound") {
            assert!(time_of(&pair[1]) >= time_of(&pair[0]) + interval, "{pair:?}");
        }
    }
    for l in &spaced {
        parse_pv_info(l).unwrap_or_else(|e| panic!("{e}: {l}"));
    }
    // At least that often: however long an iteration runs, the line is shown again every
    // interval (with a second's slack for a loaded machine; an iteration here takes longer).
    let interval = 250;
    let lines = pv_lines_with_interval(interval, 6000);
    let times: Vec<u64> = lines.iter().map(|l| time_of(l)).filter(|&t| t >= 1000).collect();
    let widest = times.windows(2).map(|p| p[1] - p[0]).max().unwrap();
    assert!(widest <= interval + 1000, "{widest} ms between two lines: {lines:?}");
}

#[test]
fn multipv_changes_between_analysis_sessions_as_shogihome_sends_it() {
    let mut e = Engine::spawn();
    e.send("setoption name MultiPV value 3");
    e.sync();
    e.send(&format!("position {MIDDLEGAME}"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(600));
    e.send("stop");
    let lines = e.collect_until(is_bestmove, REPLY);
    let ranks: std::collections::BTreeSet<u32> =
        pv_infos(&e, &lines).iter().filter_map(|i| i.multipv).collect();
    assert_eq!(ranks.into_iter().collect::<Vec<_>>(), [1, 2, 3], "{lines:?}");
    e.send("setoption name MultiPV value 1");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(600));
    e.send("stop");
    let lines = e.collect_until(is_bestmove, REPLY);
    let infos = pv_infos(&e, &lines);
    assert!(!infos.is_empty() && infos.iter().all(|i| i.multipv.is_none()), "{lines:?}");
    e.quit();
}

#[test]
fn depth_and_node_limits_set_once_bound_every_go() {
    let mut e = Engine::spawn();
    e.send("setoption name DepthLimit value 4");
    e.send(&format!("position {MIDDLEGAME}"));
    e.send("go btime 600000 wtime 600000 byoyomi 60000");
    let lines = e.collect_until(is_bestmove, SEARCH);
    let deepest = pv_infos(&e, &lines).iter().map(|i| i.depth).max().unwrap();
    assert_eq!(deepest, 4, "{lines:?}");
    // The go's own depth wins over the option.
    e.send("go depth 2");
    let lines = e.collect_until(is_bestmove, SEARCH);
    assert_eq!(pv_infos(&e, &lines).iter().map(|i| i.depth).max(), Some(2));
    e.send("setoption name DepthLimit value 0");
    e.send("setoption name NodesLimit value 20000");
    e.send("go btime 600000 wtime 600000 byoyomi 60000");
    let lines = e.collect_until(is_bestmove, SEARCH);
    let nodes = pv_infos(&e, &lines).iter().map(|i| i.nodes).max().unwrap();
    assert!((1..25_000).contains(&nodes), "{nodes} nodes: {lines:?}");
    e.quit();
}

#[test]
fn getoption_prints_current_values() {
    let mut e = Engine::spawn();
    e.send("setoption name BookMoves value 24");
    e.send("getoption BookMoves");
    assert_eq!(
        e.expect_line(|l| l.starts_with("option name BookMoves"), REPLY),
        "option name BookMoves value 24"
    );
    e.send("getoption NoSuchOption");
    e.expect_line(|l| l.starts_with("info string error: getoption: no option 'NoSuchOption'"), REPLY);
    e.send("getoption");
    let all = e.collect_until(|l| l.starts_with("option name NodesLimit"), REPLY);
    assert!(all.iter().any(|l| l == "option name USI_Hash value 64"), "{all:?}");
    assert!(all.iter().any(|l| l == "option name BookFile value no_book"), "{all:?}");
    e.quit();
}

#[test]
fn every_entering_king_rule_is_accepted_and_the_try_rule_plays_its_move() {
    let mut e = Engine::spawn();
    for rule in ["NoEnteringKing", "CSARule24", "CSARule24H", "CSARule27", "CSARule27H", "TryRule"] {
        e.send(&format!("setoption name EnteringKingRule value {rule}"));
        e.send("getoption EnteringKingRule");
        assert_eq!(
            e.expect_line(|l| l.starts_with("option name EnteringKingRule"), REPLY),
            format!("option name EnteringKingRule value {rule}")
        );
    }
    // Black's king one step from 5a, which nothing of White's guards: the try wins at once.
    e.send("position sfen 9/4K4/9/9/9/9/9/9/k8 b 2r2b4g4s4n4l18p 1");
    e.send("go byoyomi 1000");
    assert_eq!(e.expect_line(is_bestmove, SEARCH), "bestmove 5b5a");
    e.assert_clean_stderr();
    e.quit();
}
