//! The Dobutsu solver on small sub-games, checked against an independent enumeration and plain
//! depth-limited minimax; the full game's published counts are an ignored test.

use shomei::dobutsu::{legal_moves, solve, Position, SolveOptions, Status, Value};
use std::collections::{HashMap, HashSet};

/// Tanaka's normal form as text: side to move made Black, then the smaller of the SFEN and its
/// mirror's SFEN (independent of the engine's ranking function).
fn normal_key(p: &Position) -> String {
    let p = if p.side_to_move() == shomei::Color::White { p.rotated() } else { *p };
    let mut a = p;
    let mut b = p.mirrored();
    a.set_ply(1);
    b.set_ply(1);
    a.to_sfen().min(b.to_sfen())
}

/// Breadth-first enumeration with a hash set: (reachable, catch, tried, other).
fn brute_counts(root: &Position) -> (u64, u64, u64, u64) {
    let mut seen = HashSet::new();
    let mut stack = vec![*root];
    seen.insert(normal_key(root));
    let (mut catch, mut tried, mut other) = (0, 0, 0);
    while let Some(p) = stack.pop() {
        if p.can_catch() {
            catch += 1;
            continue;
        }
        if p.lost_to_try() {
            tried += 1;
            continue;
        }
        other += 1;
        for &m in legal_moves(&p).iter() {
            let c = p.play(m);
            if seen.insert(normal_key(&c)) {
                stack.push(c);
            }
        }
    }
    (catch + tried + other, catch, tried, other)
}

/// Plain minimax with memo: can the side to move force a win within `d` plies?
struct Minimax {
    win: HashMap<(Position, i32), bool>,
    loss: HashMap<(Position, i32), bool>,
}

impl Minimax {
    fn terminal(p: &Position) -> Option<bool> {
        // Some(true): side to move has won (can catch); Some(false): it has lost.
        match p.status() {
            Status::CanCatch => Some(true),
            Status::Lost => Some(false),
            Status::Ongoing => None,
        }
    }

    fn win_within(&mut self, p: &Position, d: i32) -> bool {
        if d < 1 {
            return false;
        }
        if let Some(t) = Self::terminal(p) {
            return t;
        }
        let mut key = *p;
        key.set_ply(1);
        if let Some(&v) = self.win.get(&(key, d)) {
            return v;
        }
        let v = legal_moves(p).iter().any(|&m| self.lost_within(&p.play(m), d - 1));
        self.win.insert((key, d), v);
        v
    }

    fn lost_within(&mut self, p: &Position, d: i32) -> bool {
        if d < 0 {
            return false;
        }
        if let Some(t) = Self::terminal(p) {
            return !t;
        }
        let mut key = *p;
        key.set_ply(1);
        if let Some(&v) = self.loss.get(&(key, d)) {
            return v;
        }
        let v = legal_moves(p).iter().all(|&m| self.win_within(&p.play(m), d - 1));
        self.loss.insert((key, d), v);
        v
    }
}

fn check_sub_game(sfen: &str, depth: i32) -> usize {
    let root = Position::from_sfen(sfen).unwrap();
    let (table, stats) = solve(&root, SolveOptions { threads: 2, progress: false });
    let (reachable, catch, tried, other) = brute_counts(&root);
    assert_eq!(
        (stats.reachable, stats.catch, stats.tried, stats.other),
        (reachable, catch, tried, other),
        "{sfen}"
    );
    assert_eq!(table.len() as u64, other);
    assert_eq!(stats.wins + stats.losses + stats.draws, reachable);
    let mut mm = Minimax { win: HashMap::new(), loss: HashMap::new() };
    for (p, v) in table.positions() {
        assert_eq!(table.probe(&p), Some(v));
        assert_eq!(table.probe(&p.rotated()), Some(v), "rotation keeps the value");
        assert_eq!(table.probe(&p.mirrored()), Some(v), "mirror keeps the value");
        for d in 0..=depth {
            let win = matches!(v, Value::Win(k) if k as i32 <= d);
            let loss = matches!(v, Value::Loss(k) if k as i32 <= d);
            assert_eq!(mm.win_within(&p, d), win, "{} at {d}: table {v:?}", p.to_sfen());
            assert_eq!(mm.lost_within(&p, d), loss, "{} at {d}: table {v:?}", p.to_sfen());
        }
    }
    check_search_against_table(&table);
    table.len()
}

/// Alpha-beta equals plain minimax, and every forced result it claims (or should see within
/// its depth) agrees with the table, on a sample of the sub-game's positions.
fn check_search_against_table(table: &shomei::dobutsu::Table) {
    use shomei::dobutsu::play::{search, MATE, MATE_BOUND};
    use shomei::reference::search::{alphabeta, minimax};
    for (i, (p, v)) in table.positions().enumerate() {
        if i % 97 != 0 {
            continue;
        }
        for d in 1..=4u32 {
            let s = alphabeta(&p, d, 0, -MATE - 1, MATE + 1);
            if d <= 3 {
                assert_eq!(s, minimax(&p, d, 0), "{} depth {d}", p.to_sfen());
            }
            match v {
                Value::Win(k) if k <= d => assert_eq!(s, MATE - k as i32, "{} d{d}", p.to_sfen()),
                Value::Loss(k) if k <= d => assert_eq!(s, -(MATE - k as i32), "{} d{d}", p.to_sfen()),
                _ => {}
            }
            if s >= MATE_BOUND {
                assert_eq!(v, Value::Win((MATE - s) as u32), "{} d{d}", p.to_sfen());
            } else if s <= -MATE_BOUND {
                assert_eq!(v, Value::Loss((MATE + s) as u32), "{} d{d}", p.to_sfen());
            }
        }
        // The table's best move keeps the value, and the search finds a win of the same length.
        if let Some((m, kept)) = table.best_move(&p) {
            assert_eq!(kept, v);
            assert_eq!(table.probe(&p.play(m)).map(Value::parent), Some(v));
        }
        if let Value::Win(k) = v {
            if k <= 3 {
                let (_, s) = search(&p, 3).unwrap();
                assert_eq!(s, MATE - k as i32);
            }
        }
    }
}

#[test]
fn lions_and_chicks_agree_with_minimax() {
    let n = check_sub_game("1l1/1c1/1C1/1L1 b - 1", 7);
    assert!(n > 1000, "sub-game too small to mean much: {n}");
}

#[test]
fn lions_and_giraffes_agree_with_minimax() {
    let n = check_sub_game("l1g/3/3/G1L b - 1", 7);
    assert!(n > 1000, "{n}");
}

#[test]
fn lions_elephant_in_hand_agree_with_minimax() {
    let n = check_sub_game("2l/1c1/3/L2 w E 1", 7);
    assert!(n > 100, "{n}");
}

/// The full game from the start: every count Tanaka and later reproductions published.
/// About 10 minutes and 5 GB; run with `cargo test --release -- --ignored full_solve`.
#[test]
#[ignore]
fn full_solve_reproduces_published_counts() {
    let (table, s) = solve(&Position::startpos(), SolveOptions { progress: true, ..Default::default() });
    assert_eq!(s.reachable, 246_803_167);
    assert_eq!(s.catch, 140_298_614);
    assert_eq!(s.tried, 7_018_985);
    assert_eq!(s.other, 99_485_568);
    assert_eq!(s.wins, 196_773_087);
    assert_eq!(s.losses, 47_347_380);
    assert_eq!(s.draws, 2_682_700);
    assert_eq!(s.longest_win(), 173);
    assert_eq!(s.by_distance[1] - s.catch, 9_118_571);
    assert_eq!(s.by_distance[2], 9_343_557);
    assert_eq!(s.by_distance[3], 11_574_858);
    let start = Position::startpos();
    assert_eq!(table.probe(&start), Some(Value::Loss(78)));
    for &m in legal_moves(&start).iter() {
        let v = table.probe(&start.play(m)).unwrap();
        let text = shomei::dobutsu::move_to_usi(m);
        let want = if text == "2c2b" { Value::Win(75) } else { Value::Win(77) };
        assert_eq!(v, want, "{text}");
    }
}

#[test]
fn table_file_round_trips_and_drives_move_choice() {
    use shomei::dobutsu::{choose_move, Outcome, Table};
    let root = Position::from_sfen("1l1/1c1/1C1/1L1 b - 1").unwrap();
    let (table, _) = solve(&root, SolveOptions { threads: 2, progress: false });
    let path = std::env::temp_dir().join(format!("shomei-dobutsu-test-{}.tbl", std::process::id()));
    table.save(&path).unwrap();
    let loaded = Table::load(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert_eq!(loaded.len(), table.len());
    for (p, v) in table.positions().step_by(13) {
        assert_eq!(loaded.probe(&p), Some(v));
    }
    // With the table the choice is exact and keeps the value; without it, the search.
    let (m, outcome) = choose_move(&root, Some(&loaded), 4).unwrap();
    let v = loaded.probe(&root).unwrap();
    assert_eq!(outcome, Outcome::Exact(v));
    assert_eq!(loaded.probe(&root.play(m)).map(Value::parent), Some(v));
    assert!(matches!(choose_move(&root, None, 3), Some((_, Outcome::Search { depth: 3, .. }))));
    // A start-position query outside this sub-game's table falls back to search.
    let start = Position::startpos();
    assert_eq!(loaded.probe(&start), None);
    assert!(matches!(choose_move(&start, Some(&loaded), 2), Some((_, Outcome::Search { .. }))));
    // After any first move the embedded book answers: a win for the second player, as published.
    for &m in legal_moves(&start).iter() {
        let after = start.play(m);
        assert!(matches!(choose_move(&after, None, 2), Some((_, Outcome::Exact(Value::Win(75 | 77))))));
    }
    // A file that is not a table is refused.
    let junk = std::env::temp_dir().join(format!("shomei-dobutsu-junk-{}.tbl", std::process::id()));
    std::fs::write(&junk, b"not a table at all, just some bytes").unwrap();
    assert!(Table::load(&junk).is_err());
    std::fs::remove_file(&junk).ok();
}

#[test]
fn search_without_table_takes_a_safe_try_and_a_lion() {
    use shomei::dobutsu::play::{search, MATE};
    use shomei::dobutsu::{move_to_usi, parse_move};
    // Black's Lion on 3b can step to 3a, which nothing of White's attacks: a win in 1.
    let p = Position::from_sfen("2g/L2/2l/3 b - 1").unwrap();
    let (m, s) = search(&p, 4).unwrap();
    assert_eq!(move_to_usi(m), "3b3a");
    assert_eq!(s, MATE - 1);
    // White's Lion next to Black's giraffe: capture it.
    let q = Position::from_sfen("3/1l1/1G1/1L1 b - 1").unwrap();
    let (m, s) = search(&q, 3).unwrap();
    assert_eq!(m, parse_move(&q, "2c2b").unwrap());
    assert_eq!(s, MATE - 1);
}
