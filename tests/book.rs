//! Opening books: the reader on a committed small book with every optional-field form and
//! malformed lines, lookups in the file (`BookOnTheFly`) against lookups in memory on every
//! entry of a large written book, the choice under each option, and books made, merged and
//! grown by searching, read back to the entries they were made of.

mod common {
    pub mod random_play;
}

use common::random_play::random_play;
use shomei::book::make::{self, Analysis, Analyst, Game, Growth};
use shomei::book::text::{self, BookData};
use shomei::book::{choose, key_of, Book, BookMove, BookPolicy, BookSource};
use shomei::rng::Rng;
use shomei::shogi::STARTPOS;
use shomei::{Move, Position};
use std::io::Cursor;
use std::path::{Path, PathBuf};

const SMALL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/book/small.db");
const AFTER_7G7F: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
const AFTER_7G7F_3C3D: &str = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";

fn mv(s: &str) -> Move {
    Move::parse_usi(s).unwrap_or_else(|| panic!("{s} is not a move"))
}

fn bm(m: &str, ponder: Option<&str>, value: i32, depth: i32, count: u64) -> BookMove {
    BookMove { mv: mv(m), ponder: ponder.map(mv), value, depth, count }
}

fn open(path: &Path, on_the_fly: bool, ignore_ply: bool) -> Book {
    let source = BookSource { path: path.display().to_string(), on_the_fly, ignore_ply };
    Book::open(&source).unwrap_or_else(|e| panic!("{e}")).0
}

/// A folder of its own for each test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shomei-book-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_small_book_reads_to_its_entries_and_reports_its_malformed_lines() {
    let file = std::fs::File::open(SMALL).unwrap();
    let (entries, report) = text::read(std::io::BufReader::new(file), false).unwrap();
    assert_eq!(report.positions, 3);
    assert_eq!(report.moves, 12);
    // Line 10: not a move; 16: not a position; 17: a move of it; 20: a value that is not a number.
    assert_eq!((report.malformed, report.first_malformed_line), (4, Some(10)));
    assert!(
        report.summary().contains("skipped 4 malformed lines, the first at line 10"),
        "{}",
        report.summary()
    );

    let start = entries.get(STARTPOS).expect("the start position");
    assert_eq!(
        start,
        [
            bm("7g7f", Some("3c3d"), 40, 20, 12),
            bm("2g2f", Some("8c8d"), 35, 20, 8),
            bm("5g5f", None, 10, 18, 1),
            bm("6i7h", None, 0, 0, 1),
            bm("1g1f", None, 0, 0, 1),
        ]
    );
    let second = entries.get(AFTER_7G7F).unwrap();
    assert_eq!(second[0], bm("3c3d", Some("2g2f"), -30, 20, 5));
    assert_eq!(second[1], bm("8c8d", None, -35, 20, 3));
    // Read as written: legality is judged where the position is at hand.
    assert!(second.contains(&bm("7g7f", Some("7f7e"), 0, 20, 1)));
    // A move given twice: the later line's fields, the counts added.
    let third = entries.get(AFTER_7G7F_3C3D).unwrap();
    assert_eq!(third, [bm("2g2f", Some("8c8d"), 30, 20, 5), bm("8h2b+", Some("3a2b"), 25, 20, 1)]);

    let (ignoring, _) =
        text::read(std::io::BufReader::new(std::fs::File::open(SMALL).unwrap()), true).unwrap();
    assert_eq!(ignoring.get(shomei::book::without_ply(STARTPOS)), Some(start));
    assert_eq!(ignoring.get(STARTPOS), None);
}

/// A book of many positions with random moves and fields, keyed by their SFEN.
fn random_book(seed: u64) -> BookData {
    let mut rng = Rng::new(seed);
    let mut data = BookData::new();
    for pos in random_play(STARTPOS, seed, 60, 40) {
        let legal = pos.legal_moves();
        let mut moves = Vec::new();
        for _ in 0..1 + rng.below(4) {
            let m = legal.as_slice()[rng.below(legal.len())];
            let ponder = rng.chance(50).then(|| legal.as_slice()[rng.below(legal.len())]);
            let value = rng.below(2001) as i32 - 1000;
            text::add_move(
                &mut moves,
                BookMove { mv: m, ponder, value, depth: rng.below(30) as i32, count: rng.below(5) as u64 },
            );
        }
        data.insert(pos.to_sfen(), moves);
    }
    data
}

#[test]
fn lookups_in_the_file_match_lookups_in_memory_on_every_entry() {
    let dir = scratch("fly");
    let path = dir.join("random.db");
    let data = random_book(7);
    let written = text::write(&data, std::fs::File::create(&path).unwrap()).unwrap();
    assert!(written > 1500, "{written} positions");
    for ignore_ply in [false, true] {
        let mut memory = open(&path, false, ignore_ply);
        let mut file = open(&path, true, ignore_ply);
        let Book::Memory(entries) = &memory else { panic!("not in memory") };
        let keys: Vec<String> = entries.iter().map(|(k, _)| k.to_string()).collect();
        assert_eq!(keys.len(), written);
        for key in &keys {
            let expected = memory.lookup(key);
            assert!(expected.is_some());
            assert_eq!(file.lookup(key), expected, "{key}");
        }
        // Positions the book does not have, before, between and after its entries.
        for pos in random_play(STARTPOS, 99, 5, 30) {
            let key = key_of(&pos, ignore_ply);
            assert_eq!(file.lookup(&key), memory.lookup(&key), "{key}");
        }
        for key in ["", "0", "zzzz", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0"] {
            assert_eq!(file.lookup(key), memory.lookup(key), "{key:?}");
        }
    }
    // Every written entry reads back to the moves it was written from.
    let (back, report) =
        text::read_data(std::io::BufReader::new(std::fs::File::open(&path).unwrap())).unwrap();
    assert_eq!(report.malformed, 0);
    for (sfen, moves) in &back {
        let mut expected = data[sfen].clone();
        shomei::book::sort_moves(&mut expected);
        assert_eq!(moves, &expected, "{sfen}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

fn memory_book(text_lines: &str) -> Book {
    let (entries, report) = text::read(Cursor::new(text_lines.to_string()), false).unwrap();
    assert_eq!(report.malformed, 0, "{}", report.summary());
    Book::Memory(entries)
}

fn open_policy() -> BookPolicy {
    BookPolicy {
        depth_limit: 0,
        black_limit: -99_999,
        white_limit: -99_999,
        eval_diff: 99_999,
        ..BookPolicy::default()
    }
}

/// How often each move is chosen in `runs` draws.
fn tally(book: &mut Book, pos: &Position, policy: &BookPolicy, runs: u64) -> Vec<(String, u64)> {
    let mut counts: Vec<(String, u64)> = Vec::new();
    for seed in 0..runs {
        let mut rng = Rng::new(seed);
        if let Some(c) = choose(book, pos, policy, &mut rng).choice {
            let m = c.chosen.mv.to_string();
            match counts.iter_mut().find(|(n, _)| *n == m) {
                Some((_, k)) => *k += 1,
                None => counts.push((m, 1)),
            }
        }
    }
    counts.sort();
    counts
}

#[test]
fn moves_not_legal_in_their_position_are_skipped_never_played() {
    let mut book = memory_book(&format!(
        "sfen {STARTPOS}\n3c3d none 500 30 100\n7g7f 3c3d 0 30 1\n7g7e none 900 30 50\nP*5e none 0 30 9\n\
         sfen {AFTER_7G7F}\n7g7f none 0 30 1\n"
    ));
    let start = Position::startpos();
    assert_eq!(tally(&mut book, &start, &open_policy(), 200), [("7g7f".to_string(), 200)]);
    let probe = choose(&mut book, &start, &open_policy(), &mut Rng::new(1));
    assert!(probe.notes.iter().any(|n| n.contains("3c3d 7g7e P*5e")), "{:?}", probe.notes);
    // Only illegal moves: out of the book.
    let after = Position::from_usi_args(&["startpos", "moves", "7g7f"]).unwrap();
    assert_eq!(choose(&mut book, &after, &open_policy(), &mut Rng::new(1)).choice, None);
}

#[test]
fn each_option_filters_as_yaneuraou_documents_it() {
    let mut book = memory_book(&format!(
        "sfen {STARTPOS}\n7g7f 3c3d 40 20 6\n2g2f 8c8d 60 20 3\n5g5f none 5 20 1\n1g1f none -80 20 0\n\
         sfen {AFTER_7G7F}\n3c3d none -50 12 1\n8c8d none -20 12 1\n"
    ));
    let start = Position::startpos();
    // The first move (most played) is the reference: within 30 of its 40 are 2g2f and 7g7f.
    let diff = BookPolicy { eval_diff: 30, ..open_policy() };
    assert_eq!(
        tally(&mut book, &start, &diff, 300).iter().map(|c| c.0.as_str()).collect::<Vec<_>>(),
        ["2g2f", "7g7f"]
    );
    // Black's limit; White's applies to White.
    let black = BookPolicy { black_limit: 50, ..open_policy() };
    assert_eq!(tally(&mut book, &start, &black, 100), [("2g2f".to_string(), 100)]);
    let after = Position::from_usi_args(&["startpos", "moves", "7g7f"]).unwrap();
    let white = BookPolicy { white_limit: -30, black_limit: 9_999, ..open_policy() };
    assert_eq!(tally(&mut book, &after, &white, 100), [("8c8d".to_string(), 100)]);
    // The depth limit is a minimum on the first move: too shallow, and the position is out.
    let deep = BookPolicy { depth_limit: 13, ..open_policy() };
    assert_eq!(choose(&mut book, &after, &deep, &mut Rng::new(3)).choice, None);
    assert!(choose(&mut book, &start, &deep, &mut Rng::new(3)).choice.is_some());
    // BookMoves: the start position is ply 1.
    let none = BookPolicy { max_ply: 0, ..open_policy() };
    assert_eq!(choose(&mut book, &start, &none, &mut Rng::new(3)), Default::default());
    let one = BookPolicy { max_ply: 1, ..open_policy() };
    assert!(choose(&mut book, &start, &one, &mut Rng::new(3)).choice.is_some());
    assert!(choose(&mut book, &after, &one, &mut Rng::new(3)).choice.is_none());
    // By count: 6:3:1, never the move of count 0; uniformly: all four.
    let by_count = BookPolicy { consider_count: true, ..open_policy() };
    let counts = tally(&mut book, &start, &by_count, 2000);
    assert_eq!(counts.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(), ["2g2f", "5g5f", "7g7f"]);
    let share = |m: &str| counts.iter().find(|c| c.0 == m).unwrap().1 as f64 / 2000.0;
    assert!((share("7g7f") - 0.6).abs() < 0.05 && (share("5g5f") - 0.1).abs() < 0.03, "{counts:?}");
    assert_eq!(tally(&mut book, &start, &open_policy(), 400).len(), 4);
    // The ignore rate: never at 100, always at 0.
    let ignore = BookPolicy { ignore_rate: 100, ..open_policy() };
    assert_eq!(tally(&mut book, &start, &ignore, 50), []);
}

#[test]
fn the_same_seed_chooses_the_same_moves_and_the_line_follows_the_book() {
    let mut book = memory_book(&format!(
        "sfen {STARTPOS}\n7g7f none 40 20 6\n2g2f 8c8d 40 20 6\nsfen {AFTER_7G7F}\n3c3d 2g2f -40 20 1\n\
         sfen {AFTER_7G7F_3C3D}\n2g2f 8c8d 40 20 1\n"
    ));
    let start = Position::startpos();
    let draws = |book: &mut Book| {
        (0..50)
            .map(|s| choose(book, &start, &open_policy(), &mut Rng::new(s)).choice.unwrap().chosen.mv)
            .collect::<Vec<_>>()
    };
    assert_eq!(draws(&mut book), draws(&mut book));
    let policy = BookPolicy { pv_moves: 8, ..open_policy() };
    for seed in 0..20 {
        let c = choose(&mut book, &start, &policy, &mut Rng::new(seed)).choice.unwrap();
        if c.chosen.mv == mv("7g7f") {
            // No ponder in the entry: the next position's first move; then the book's line.
            assert_eq!(c.ponder, Some(mv("3c3d")));
            assert_eq!(c.pv, [mv("7g7f"), mv("3c3d"), mv("2g2f")]);
        } else {
            assert_eq!((c.ponder, c.pv.clone()), (Some(mv("8c8d")), vec![mv("2g2f"), mv("8c8d")]));
        }
    }
}

#[test]
fn a_flipped_entry_serves_the_other_side() {
    // The book has White's reply to 7g7f; its twin is the board turned round, Black to move at
    // the same ply (a White pawn on 3d where Black's was on 7f).
    let mut book = memory_book(&format!("sfen {AFTER_7G7F}\n3c3d 2g2f -30 20 1\n"));
    let twin =
        Position::from_sfen("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2").unwrap();
    let c = choose(&mut book, &twin, &open_policy(), &mut Rng::new(0)).choice.expect("the flipped entry");
    assert_eq!((c.chosen.mv, c.ponder), (mv("7g7f"), Some(mv("8c8d"))));
    let off = BookPolicy { flipped: false, ..open_policy() };
    assert_eq!(choose(&mut book, &twin, &off, &mut Rng::new(0)).choice, None);
}

fn quick_analysis() -> Analysis {
    Analysis { depth: Some(3), movetime_ms: None, multipv: 2, threads: 1, hash_mb: 8, ..Analysis::default() }
}

#[test]
fn a_book_made_from_games_reads_back_to_the_same_entries() {
    let dir = scratch("make");
    let games_file = dir.join("games.txt");
    std::fs::write(
        &games_file,
        "startpos moves 7g7f 3c3d 2g2f 8c8d\nposition startpos moves 7g7f 8c8d 2g2f\nnot a game\n",
    )
    .unwrap();
    let (games, bad) = make::read_games(&games_file).unwrap();
    assert_eq!((games.len(), bad), (2, 1));
    let mut data = BookData::new();
    let mut analyst = Analyst::new(quick_analysis());
    let searched = make::add_games(&mut data, &games, 3, &mut analyst, |_, _, _| {});
    // Plies 1-3 of two games sharing the first move: startpos, two after one move... four.
    assert_eq!(searched, 4);
    let start = &data[STARTPOS];
    assert_eq!(start.len(), 2, "MultiPV 2 keeps two moves");
    assert!(start.iter().all(|m| m.depth == 3 && Position::startpos().is_legal(m.mv)));
    // The count of a searched move is how often the games played it.
    for m in start {
        assert_eq!(m.count, if m.mv == mv("7g7f") { 2 } else { 0 }, "{m:?}");
    }
    let path = dir.join("made.db");
    text::write(&data, std::fs::File::create(&path).unwrap()).unwrap();
    let (back, report) =
        text::read_data(std::io::BufReader::new(std::fs::File::open(&path).unwrap())).unwrap();
    assert_eq!(report.malformed, 0);
    assert_eq!(back.len(), data.len());
    for (sfen, moves) in &data {
        let mut expected = moves.clone();
        shomei::book::sort_moves(&mut expected);
        assert_eq!(back[sfen], expected, "{sfen}");
    }
    // Made again on the written book: nothing left to search.
    let mut again = back.clone();
    assert_eq!(make::add_games(&mut again, &games, 3, &mut analyst, |_, _, _| {}), 0);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn merging_keeps_every_position_and_the_deeper_search_of_a_move() {
    let mut a = BookData::new();
    a.insert(STARTPOS.to_string(), vec![bm("7g7f", None, 10, 10, 2), bm("2g2f", None, 20, 10, 1)]);
    let mut b = BookData::new();
    b.insert(STARTPOS.to_string(), vec![bm("7g7f", Some("3c3d"), 30, 12, 5), bm("5g5f", None, 0, 8, 1)]);
    b.insert(AFTER_7G7F.to_string(), vec![bm("3c3d", None, -30, 12, 1)]);
    make::merge(&mut a, b);
    assert_eq!(a.len(), 2);
    let start = &a[STARTPOS];
    assert_eq!(start[0], bm("7g7f", Some("3c3d"), 30, 12, 7));
    assert_eq!(start.len(), 3);
}

#[test]
fn think_grows_a_book_along_the_best_replies_and_extends_it_when_run_again() {
    let mut data = BookData::new();
    let mut analyst = Analyst::new(quick_analysis());
    // With no margin, the best replies only (more than one where they tie), three new positions a run.
    let growth = Growth { positions: 3, max_ply: 6, eval_diff: 0 };
    let root = Position::startpos();
    assert_eq!(make::think(&mut data, &root, &growth, &mut analyst, |_, _| {}), 3);
    assert_eq!(data.len(), 3);
    // The second position searched is the one after the root's best move.
    let best = data[STARTPOS].iter().max_by_key(|m| m.value).unwrap().mv;
    let mut after = root.clone();
    after.do_move(best);
    assert!(data.contains_key(&after.to_sfen()));
    assert_eq!(make::think(&mut data, &root, &growth, &mut analyst, |_, _| {}), 3);
    assert_eq!(data.len(), 6);
    assert!(data.keys().all(|k| Position::from_sfen(k).unwrap().game_ply() <= 6));
    // Run until a run searches nothing: nothing past ply 6 is expanded, so the tree is finite.
    for run in 3.. {
        if make::think(&mut data, &root, &growth, &mut analyst, |_, _| {}) == 0 {
            break;
        }
        assert!(run < 40, "the tree under ply 6 never ends");
    }
    // Then every best reply of a book position before ply 6 leads to a book position.
    for (sfen, moves) in &data {
        let pos = Position::from_sfen(sfen).unwrap();
        if pos.game_ply() >= 6 {
            continue;
        }
        let best = moves.iter().map(|m| m.value).max().unwrap();
        for m in moves.iter().filter(|m| m.value == best) {
            let mut next = pos.clone();
            next.do_move(m.mv);
            assert!(data.contains_key(&next.to_sfen()), "{sfen}: {} leads out of the book", m.mv);
        }
    }
    assert!(data.keys().all(|k| Position::from_sfen(k).unwrap().game_ply() <= 6));
}

#[test]
fn games_are_read_from_csa_records_as_the_arena_writes_them() {
    let dir = scratch("csa");
    let path = dir.join("game.csa");
    std::fs::write(
        &path,
        "V2.2\nN+shomei\nN-other\n$EVENT:test\nPI\n+\n+7776FU\nT0\n-3334FU\nT0\n+2726FU\n%TORYO\n",
    )
    .unwrap();
    let (games, _) = make::read_games(&path).unwrap();
    let g: &Game = &games[0];
    assert_eq!(g.moves, [mv("7g7f"), mv("3c3d"), mv("2g2f")]);
    std::fs::remove_dir_all(dir).unwrap();
}
