//! `setoption name UCI_Variant value dobutsu` through the real binary: the option is declared,
//! `position`/`d`/`go perft`/`go`/`go mate` work on the 3×4 board, every `go` gets one legal
//! `bestmove` (bounded forms on their own, `go infinite` after `stop`), bad input is refused
//! with the position kept, a table given by `DobutsuTable` makes the answers exact, without a
//! table the embedded second-player book answers as the second player, and switching back to
//! shogi works.

mod common {
    pub mod usi_engine;
}

use common::usi_engine::{Engine, REPLY, SEARCH};
use shomei::dobutsu::{parse_move, solve, Position, SolveOptions, Value};
use std::time::{Duration, Instant};

fn is_bestmove(l: &str) -> bool {
    l.starts_with("bestmove ")
}

/// Fails unless `line` is a bestmove legal in `pos`.
#[track_caller]
fn assert_legal(e: &Engine, pos: &Position, line: &str) -> String {
    let mv = line.split(' ').nth(1).unwrap_or("");
    if parse_move(pos, mv).is_err() {
        e.fail(&format!("'{line}' is not legal in {}", pos.to_sfen()));
    }
    mv.to_string()
}

fn dobutsu_engine(table: &str) -> Engine {
    let mut e = Engine::spawn();
    e.send("usi");
    let lines = e.collect_until(|l| l == "usiok", REPLY);
    if !lines.iter().any(|l| l == "option name UCI_Variant type combo default shogi var shogi var dobutsu") {
        e.fail("UCI_Variant is not declared as a combo");
    }
    if !lines.iter().any(|l| l.starts_with("option name DobutsuTable type filename default ")) {
        e.fail("DobutsuTable is not declared");
    }
    e.send("setoption name UCI_Variant value dobutsu");
    e.send(&format!("setoption name DobutsuTable value {table}"));
    e.sync();
    e
}

#[test]
fn dobutsu_board_position_perft_and_display() {
    let mut e = dobutsu_engine("<empty>");
    e.send("position startpos");
    e.send("d");
    e.expect_line(|l| l == "Sfen: gle/1c1/1C1/ELG b - 1", REPLY);
    // Perft from the start (every legal move, moving into capture included).
    for (depth, count) in [(1, 4), (3, 123), (4, 976), (5, 8_122)] {
        e.send(&format!("go perft {depth}"));
        e.expect_line(|l| l == format!("Nodes searched: {count}"), SEARCH);
    }
    e.send("position startpos moves 2c2b 2a2b");
    e.send("d");
    e.expect_line(|l| l == "Sfen: g1e/1l1/3/ELG b Cc 3", REPLY);
    // Bad input: refused, position kept.
    for bad in [
        "position sfen lnsgkgsnl/9/9/9/9/9/9/9/9 b - 1",
        "position startpos moves 2c2a",
        "position startpos moves 2d2b",
    ] {
        e.send(bad);
        e.expect_line(|l| l.starts_with("info string error:"), REPLY);
    }
    e.send("d");
    e.expect_line(|l| l == "Sfen: g1e/1l1/3/ELG b Cc 3", REPLY);
    e.quit();
}

#[test]
fn every_go_form_answers_one_legal_bestmove_on_the_dobutsu_board() {
    let mut e = dobutsu_engine("<empty>");
    let start = Position::startpos();
    for (go, limit) in [
        ("go byoyomi 300", 300u64),
        ("go btime 0 wtime 0 byoyomi 300", 300),
        ("go btime 1000 wtime 1000 binc 100 winc 100", 1000),
        ("go movetime 200", 200),
        ("go depth 6", 30_000),
        ("go nodes 5000", 30_000),
    ] {
        e.send("position startpos");
        let t = Instant::now();
        e.send(go);
        let line = e.expect_line(is_bestmove, SEARCH);
        let took = t.elapsed();
        assert_legal(&e, &start, &line);
        if took > Duration::from_millis(limit + 400) {
            e.fail(&format!("'{go}' took {took:?}"));
        }
        e.assert_no_line_for(is_bestmove, Duration::from_millis(50));
    }
    // Unbounded: only after stop, at once.
    e.send("go infinite");
    e.assert_no_line_for(is_bestmove, Duration::from_millis(500));
    let t = Instant::now();
    e.send("stop");
    let line = e.expect_line(is_bestmove, REPLY);
    assert_legal(&e, &start, &line);
    eprintln!("dobutsu: stop -> bestmove in {:?}", t.elapsed());
    // A Lion capture is found at once and shown as a mate in 1.
    e.send("position sfen 3/1l1/1G1/1L1 b - 1");
    e.send("go depth 4");
    let lines = e.collect_until(is_bestmove, SEARCH);
    assert_eq!(lines.last().unwrap(), "bestmove 2c2b");
    if !lines.iter().any(|l| l.contains("score mate 1 ")) {
        e.fail("a Lion capture was not reported as mate 1");
    }
    // A lost position (the opponent's Lion has safely reached the far rank) answers resign.
    e.send("position sfen L2/3/2l/3 w - 1");
    e.send("go byoyomi 100");
    e.expect_line(|l| l == "bestmove resign", SEARCH);
    e.quit();
}

/// A small sub-game solved and saved, with one of its positions the side to move wins in `d`
/// plies (3 to 9).
struct SubGame {
    table: shomei::dobutsu::Table,
    path: std::path::PathBuf,
    won: Position,
    d: u32,
}

fn solved_subgame(name: &str) -> SubGame {
    let root = Position::from_sfen("1l1/1c1/1C1/1L1 b - 1").unwrap();
    let (table, _) = solve(&root, SolveOptions { threads: 2, progress: false });
    let path = std::env::temp_dir().join(format!("shomei-usi-dobutsu-{name}-{}.tbl", std::process::id()));
    table.save(&path).unwrap();
    let (won, v) = table
        .positions()
        .find(|(p, v)| {
            matches!(v, Value::Win(d) if (3..=9).contains(d))
                && p.status() == shomei::dobutsu::Status::Ongoing
        })
        .expect("the sub-game has short wins");
    let Value::Win(d) = v else { unreachable!() };
    SubGame { table, path, won, d }
}

#[test]
fn a_solved_table_makes_go_exact_and_go_mate_give_the_winning_line() {
    // A small sub-game solved here and handed over by DobutsuTable.
    let SubGame { table, path, won, d } = solved_subgame("exact");
    let mut e = dobutsu_engine(path.to_str().unwrap());
    e.send(&format!("position sfen {}", won.to_sfen()));
    e.send("go byoyomi 1000");
    let lines = e.collect_until(is_bestmove, SEARCH);
    let mv = assert_legal(&e, &won, lines.last().unwrap());
    if !lines.iter().any(|l| l.contains(&format!("score mate {d} "))) {
        e.fail(&format!("the table's win in {d} was not reported"));
    }
    // The move keeps the win: the opponent is then lost in d - 1.
    let after = won.play(parse_move(&won, &mv).unwrap());
    assert_eq!(table.probe(&after), Some(Value::Loss(d - 1)), "{}", won.to_sfen());
    e.send("go mate 1000");
    let answer = e.expect_line(|l| l.starts_with("checkmate"), SEARCH);
    let moves: Vec<&str> = answer.split(' ').skip(1).collect();
    assert_eq!(moves.len() as u32, d, "{answer}");
    let mut p = won;
    for m in &moves {
        p = p.play(parse_move(&p, m).unwrap_or_else(|_| panic!("{answer}: {m} illegal")));
    }
    assert_eq!(p.status(), shomei::dobutsu::Status::Lost, "{answer} does not end the game");
    // A missing table is refused and the loaded one kept.
    e.send("setoption name DobutsuTable value /nonexistent/shomei.tbl");
    e.send("isready");
    e.expect_line(|l| l.starts_with("info string error:") && l.contains("/nonexistent/shomei.tbl"), REPLY);
    e.expect_line(|l| l == "readyok", REPLY);
    e.send("go byoyomi 100");
    let lines = e.collect_until(is_bestmove, SEARCH);
    if !lines.iter().any(|l| l.contains(&format!("score mate {d} "))) {
        e.fail("the loaded table was not kept after a bad DobutsuTable");
    }
    // Back to shogi: the shogi start position and search.
    e.send("setoption name UCI_Variant value shogi");
    e.send("position startpos moves 7g7f");
    e.send("go depth 3");
    let line = e.expect_line(is_bestmove, SEARCH);
    let words = ["startpos", "moves", "7g7f"];
    let shogi = shomei::Position::from_usi_args(&words).unwrap();
    assert!(shogi.parse_move(line.split(' ').nth(1).unwrap()).is_ok(), "{line}");
    e.quit();
    std::fs::remove_file(&path).ok();
}

#[test]
fn without_a_table_the_embedded_book_plays_the_second_player() {
    use shomei::dobutsu::{book, legal_moves, move_to_usi};
    let book = book::embedded().expect("the embedded book loads");
    // No table anywhere: DobutsuTable names a file that does not exist.
    let mut e = Engine::spawn();
    e.send("usi");
    e.collect_until(|l| l == "usiok", REPLY);
    e.send("setoption name UCI_Variant value dobutsu");
    e.send("setoption name DobutsuTable value /nonexistent/shomei-dobutsu.tbl");
    e.send("isready");
    e.expect_line(|l| l.starts_with("info string error:") && l.contains("/nonexistent/"), REPLY);
    e.expect_line(|l| l == "readyok", REPLY);
    let start = Position::startpos();
    let mut lines_played = vec![];
    for &first in legal_moves(&start).iter() {
        lines_played.push(vec![first]);
    }
    // And a longer line: the first player's last move that keeps its Lion, four times, the
    // book answering in between.
    let mut p = start;
    let mut long = vec![];
    for i in 0..4 {
        let m = *legal_moves(&p)
            .iter()
            .rev()
            .find(|&&m| p.play(m).status() == shomei::dobutsu::Status::Ongoing)
            .expect("a move that keeps the Lion");
        long.push(m);
        if i == 3 {
            break;
        }
        let q = p.play(m);
        let (r, _) = book.best_move(&q).expect("covered");
        p = q.play(r);
        long.push(r);
    }
    lines_played.push(long);
    for moves in lines_played {
        let mut pos = start;
        for &m in &moves {
            pos = pos.play(m);
        }
        let (want, v) = book.best_move(&pos).expect("the book covers the position");
        let Value::Win(d) = v else { panic!("{v:?}") };
        let text: Vec<String> = moves.iter().map(|&m| move_to_usi(m)).collect();
        e.send(&format!("position startpos moves {}", text.join(" ")));
        let t = Instant::now();
        e.send("go byoyomi 100");
        let lines = e.collect_until(is_bestmove, SEARCH);
        let mv = assert_legal(&e, &pos, lines.last().unwrap());
        if mv != move_to_usi(want) {
            e.fail(&format!("after {}: {mv}, the book says {}", text.join(" "), move_to_usi(want)));
        }
        if !lines.iter().any(|l| l.contains(&format!("score mate {d} "))) {
            e.fail(&format!("the book's win in {d} was not reported"));
        }
        if t.elapsed() > Duration::from_millis(100 + 400) {
            e.fail(&format!("the book's answer took {:?}", t.elapsed()));
        }
    }
    // The first player is not in the book: the search answers, within the clock.
    e.send("position startpos");
    e.send("go byoyomi 100");
    let line = e.expect_line(is_bestmove, SEARCH);
    assert_legal(&e, &start, &line);
    e.quit();
}

/// The repetition rule (`DobutsuRepetition`): White, a Giraffe and an Elephant down, has
/// shuffled its Lion with Black's; the move that makes the position occur for the rule's count
/// draws the game, and the losing side takes it (score 0). One occurrence short, it does not
/// count as a draw.
#[test]
fn losing_side_takes_a_draw_by_repetition() {
    const ROOT: &str = "sfen l2/3/3/2L b EG 1";
    let cycle = ["1d1c", "3a3b", "1c1d", "3b3a"];
    let moves = |n: usize| (0..n).map(|i| cycle[i % 4]).collect::<Vec<_>>().join(" ");
    let last_score_and_move = |e: &mut Engine| {
        let lines = e.collect_until(is_bestmove, SEARCH);
        let score = lines.iter().rev().find_map(|l| l.split(" score ").nth(1)).map(|s| {
            let w: Vec<&str> = s.split(' ').take(2).collect();
            w.join(" ")
        });
        (score.unwrap_or_default(), lines.last().unwrap().clone())
    };
    let mut e = dobutsu_engine("<empty>");
    e.send("usi");
    let lines = e.collect_until(|l| l == "usiok", REPLY);
    assert!(
        lines.iter().any(|l| l == "option name DobutsuRepetition type combo default Fourfold var Fourfold var Threefold var Off"),
        "{lines:?}"
    );
    for (rule, plies, draws) in
        [("Fourfold", 11, true), ("Threefold", 7, true), ("Fourfold", 7, false), ("Off", 11, false)]
    {
        e.send(&format!("setoption name DobutsuRepetition value {rule}"));
        e.send(&format!("position {ROOT} moves {}", moves(plies)));
        e.send("go depth 4");
        let (score, best) = last_score_and_move(&mut e);
        if draws {
            assert_eq!(
                (score.as_str(), best.as_str()),
                ("cp 0", "bestmove 3b3a"),
                "{rule} after {plies} plies"
            );
        } else {
            assert_ne!(score, "cp 0", "{rule} after {plies} plies: no draw yet ({best})");
        }
    }
    e.send("setoption name DobutsuRepetition value Twice");
    e.expect_line(|l| l.starts_with("info string error:") && l.contains("DobutsuRepetition"), REPLY);
    e.quit();
}

#[test]
fn a_table_takes_effect_by_the_next_go_and_a_damaged_one_is_refused() {
    let SubGame { path, won, d, .. } = solved_subgame("next-go");
    let dir = std::env::temp_dir();
    let mate = format!("score mate {d} ");
    // No isready between the options and the go, as scripts send it.
    let mut e = Engine::spawn();
    e.send("setoption name UCI_Variant value dobutsu");
    e.send(&format!("setoption name DobutsuTable value {}", path.display()));
    e.send(&format!("position sfen {}", won.to_sfen()));
    e.send("go byoyomi 1000");
    let lines = e.collect_until(is_bestmove, SEARCH);
    assert!(
        lines.iter().any(|l| l.starts_with("info string Dobutsu table") && l.contains("perfect play")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("warning")), "format 2 has a checksum: {lines:?}");
    assert!(lines.iter().any(|l| l.contains(&mate)), "{lines:?}");
    // One flipped bit: refused with the reason, the table in use kept.
    let mut bytes = std::fs::read(&path).unwrap();
    let damaged = dir.join(format!("shomei-usi-dobutsu-damaged-{}.tbl", std::process::id()));
    let at = bytes.len() / 2;
    bytes[at] ^= 0x10;
    std::fs::write(&damaged, &bytes).unwrap();
    e.send(&format!("setoption name DobutsuTable value {}", damaged.display()));
    e.send("go byoyomi 300");
    let lines = e.collect_until(is_bestmove, SEARCH);
    assert!(lines.iter().any(|l| l.starts_with("info string error:") && l.contains("checksum")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains(&mate)), "the table in use was not kept: {lines:?}");
    // Format 1 (no checksum) is read, with a warning.
    let mut old = std::fs::read(&path).unwrap();
    old.truncate(old.len() - 32);
    old[..16].copy_from_slice(b"SHOMEI-DOBUTSU-1");
    let unchecked = dir.join(format!("shomei-usi-dobutsu-v1-{}.tbl", std::process::id()));
    std::fs::write(&unchecked, &old).unwrap();
    e.send(&format!("setoption name DobutsuTable value {}", unchecked.display()));
    let ready = e.sync();
    assert!(
        ready.iter().any(|l| l.contains("perfect play; warning: a table of format 1 has no checksum")),
        "{ready:?}"
    );
    e.assert_clean_stderr();
    e.quit();
    for p in [path, damaged, unchecked] {
        std::fs::remove_file(p).ok();
    }
}
