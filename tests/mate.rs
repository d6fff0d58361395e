//! The tsume solver (`shomei::mate`) on problems with known answers.
//!
//! Every reported line is checked move by move with the rules code (`check_line`): each move
//! legal, each attacker move a check, and the defender mated at the end. Lengths are compared
//! with published answers, or with `exhaustive` (in `common/tsume.rs`), a plain
//! iterative-deepening AND/OR search over all legal moves written from the rules alone (slow,
//! correct by construction). The tools once kept here as ignored tests are in
//! `benches/mate_tools.rs`.

mod common {
    pub mod rng;
    pub mod tsume;
}

use common::tsume::*;
use shomei::mate::{mate_in_one, MateLimits, MateResult, MateSolver};
use shomei::{Color, Move, PieceKind, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// Mate in one

/// `generate_checks` lists exactly the legal moves that give check, and the list form of the
/// test (`check_squares`, `gives_check_from`) agrees with `gives_check` on every legal move.
fn check_checks(p: &Position) {
    let squares = p.check_squares();
    for &m in p.legal_moves().iter() {
        assert_eq!(p.gives_check_from(m, &squares), p.gives_check(m), "{} {m}", p.to_sfen());
    }
    let mut fast = shomei::shogi::MoveList::new();
    shomei::mate::generate_checks(p, &mut fast);
    let mut a: Vec<u16> = fast.iter().map(|m| m.raw()).collect();
    let mut b: Vec<u16> = p.legal_moves().iter().filter(|&&m| p.gives_check(m)).map(|m| m.raw()).collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "{}", p.to_sfen());
}

fn check_mate_in_one(p: &mut Position) -> bool {
    check_checks(p);
    let brute = mates_in_one(p);
    let fast = mate_in_one(p);
    let sfen = p.to_sfen();
    match fast {
        Some(m) => assert!(brute.contains(&m), "{sfen}: {m} is not a mate (mates: {brute:?})"),
        None => assert!(brute.is_empty(), "{sfen}: missed mates {brute:?}"),
    }
    fast.is_some()
}

/// `mate_in_one` finds a mate exactly when one exists and returns one of them; `unique` names the
/// only mate when there is just one.
fn one(sfen: &str, unique: Option<&str>) {
    let mut p = pos(sfen);
    let brute: Vec<String> = mates_in_one(&mut p).iter().map(|m| m.to_string()).collect();
    let fast = mate_in_one(&mut p).map(|m| m.to_string());
    match unique {
        Some(u) => {
            assert_eq!(brute, vec![u.to_string()], "{sfen}");
            assert_eq!(fast.as_deref(), Some(u), "{sfen}");
        }
        None => assert!(fast.is_none() && brute.is_empty(), "{sfen}: {fast:?} {brute:?}"),
    }
}

/// The position has exactly the mates `expected` (in sorted order), and `mate_in_one` finds one.
fn exactly_these_mates(sfen: &str, expected: &[&str]) {
    let mut p = pos(sfen);
    let mut mates: Vec<String> = mates_in_one(&mut p).iter().map(|m| m.to_string()).collect();
    mates.sort();
    assert_eq!(mates, expected, "{sfen}");
    assert!(check_mate_in_one(&mut p));
}

#[test]
fn mate_in_one_drops_and_board_moves() {
    // Gold drop on the head of a cornered king, backed by a pawn.
    one("8k/9/8P/9/9/9/9/9/9 b G 1", Some("G*1b"));
    // Board move: the gold steps up beside the knight.
    one("7nk/9/7G1/9/9/9/9/9/9 b - 1", None);
    exactly_these_mates("7nk/9/7G1/6N2/9/9/9/9/9 b - 1", &["2c2b", "3d2b+"]);
    // A knight drop: nothing can interpose against a knight.
    one("7sk/7nl/9/9/9/9/9/9/9 b N 1", Some("N*2c"));
    // Rook drops along the edge file mate from any distance when nothing can interpose...
    let mut p = pos("7lk/7p1/9/9/9/9/9/9/9 b R 1");
    let mates = mates_in_one(&mut p);
    assert_eq!(mates.len(), 7, "{mates:?}");
    assert!(check_mate_in_one(&mut p));
    // ...and from none when the defender holds a pawn: only the adjacent drop is left, which the
    // king takes.
    one("7lk/7p1/9/9/9/9/9/9/9 b Rp 1", None);
}

#[test]
fn mate_in_one_far_board_checks() {
    // A rook move along the edge rank mates from a distance when nothing can interpose...
    let mut p = pos("8k/7pp/9/9/9/9/9/9/R3K4 b - 1");
    assert!(check_mate_in_one(&mut p));
    // ...and not when the defender holds a gold to drop in between.
    one("8k/7pp/9/9/9/9/9/9/R3K4 b g 1", None);
    // The bishop checks from a distance and uncovers the lance: a double check, which no drop in
    // between answers, so the gold in hand does not help.
    exactly_these_mates("7pk/9/9/9/8B/9/9/9/4K3L b g 1", &["1e3c", "1e3c+"]);
}

#[test]
fn mate_in_one_excludes_pawn_drop_mate() {
    // P*1b would mate, but a pawn-drop mate is illegal.
    let mut p = pos("7lk/9/8S/9/9/9/9/7L1/8K b P 1");
    assert_eq!(mate_in_one(&mut p), None);
    assert!(mates_in_one(&mut p).is_empty());
    // Pushing a pawn to mate is legal.
    let mut p = pos("7lk/9/7GP/9/9/9/9/7L1/8K b - 1");
    assert!(mate_in_one(&mut p).is_some());
    check_mate_in_one(&mut p);
    // No false positive when the attacker's only mate would be the pawn drop.
    let mut p = pos("7lk/9/8S/9/9/9/9/7L1/9 b P 1");
    assert_eq!(mate_in_one(&mut p), None);
}

#[test]
fn mate_in_one_matches_brute_force_on_random_positions() {
    let mut found = 0;
    let mut total = 0;
    for mut p in random_game_positions(0xdead_beef_1234, 40, 150) {
        total += 1;
        found += check_mate_in_one(&mut p) as u32;
    }
    let mut rng = Rng(0x05ee_d0f7_503e);
    let mut n = 0;
    while n < 4000 {
        let (a, d, h) = (1 + rng.below(5), rng.below(5), rng.below(4));
        let Some(s) = random_tsume(&mut rng, a, d, h) else { continue };
        n += 1;
        total += 1;
        found += check_mate_in_one(&mut pos(&s)) as u32;
    }
    // The sample must contain mates for the comparison to mean something.
    assert!(found > 200, "{found} mates in {total} positions");
}

// ---------------------------------------------------------------------------------------------
// Problems with known answers

/// YaneuraOu's `test matebench2` examples (usi-and-rules.md section 4); the lengths are the
/// shortest mates, confirmed here by the exhaustive search.
const REFERENCE: [(&str, usize); 3] = [
    ("3sks3/9/4+P4/9/9/+B8/9/9/9 b S2rb4gs4n4l17p 1", 3),
    ("7nl/7k1/6p2/6S1p/9/9/9/9/9 b GS2r2b3g2s3n3l16p 1", 5),
    ("4k4/9/PPPPPPPPP/9/9/9/9/9/9 b B4L2rb4g4s4n9p 1", 11),
];

#[test]
fn reference_problems() {
    for (sfen, len) in REFERENCE {
        let line = expect_mate(sfen, len);
        assert_eq!(exhaustive(sfen, len as u32, 50_000_000), Ok(Some(len as u32)), "{sfen}");
        println!("{sfen}: {}", line_str(&line));
    }
    // The first moves are forced in the two short ones.
    assert_eq!(line_str(&expect_mate(REFERENCE[0].0, 3)), "9f5b 4a5b S*4b");
    assert!(line_str(&expect_mate(REFERENCE[1].0, 5)).starts_with("S*2c"));
}

/// The cshogi df-pn smoke test: a long mate (69 plies counting every defence) with the king in
/// the open and both sides' kings on the board.
#[test]
fn cshogi_smoke_test() {
    let sfen = "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N5K b SP2gn2l11p 1";
    let (r, solver) = solve(sfen, 256, seconds(120));
    let MateResult::Mate(line) = r else { panic!("{sfen}: {r:?}") };
    check_line(sfen, &line);
    let st = solver.stats();
    println!(
        "{} plies, mate_len {}, {} nodes in {:?}: {}",
        line.len(),
        st.mate_len,
        st.nodes,
        st.time,
        line_str(&line)
    );
    assert!(line.len() as u32 <= st.mate_len);
}

#[test]
fn positions_without_mate() {
    // Lone king in the middle, a rook and a bishop in hand: checks but no mate.
    expect_no_mate("9/9/9/9/4k4/9/9/9/9 b RBrb4g4s4n4l18p 1");
    // Close calls: one guard short.
    for sfen in [
        // The gold drop on the king's head is taken by the king (nothing protects it).
        "8k/9/9/9/9/9/9/9/9 b G 1",
        // Two silvers cannot cover everything around a king with a free edge square.
        "7nk/9/9/9/9/9/9/9/9 b 2S 1",
        // Lance from afar, but the defender interposes and the attacker has nothing left.
        "7lk/7p1/9/9/9/9/9/9/9 b Rp 1",
        // The attacker is in check and no evasion gives check.
        "r7k/9/9/9/9/9/9/9/K8 b G 1",
    ] {
        expect_no_mate(sfen);
        // No mate within 9 plies by the exhaustive search either.
        assert_eq!(exhaustive(sfen, 9, 50_000_000), Ok(None), "{sfen}");
    }
}

/// Whether a Black pawn dropped in front of White's king would mate (and so is illegal).
fn pawn_drop_would_mate(p: &Position) -> bool {
    let k = p.king_square(Color::White);
    let sq = shomei::Square::new(k.file(), k.rank() + 1);
    let drop = Move::drop(PieceKind::Pawn, sq);
    !p.is_legal(drop) && with_pawn_dropped(p, sq).is_some_and(|q| q.in_check() && q.legal_moves().is_empty())
}

#[test]
fn pawn_drop_mate_decides() {
    // The only mate would be the pawn drop on the king's head: no mate at all.
    for sfen in [
        "7lk/9/8S/9/9/9/9/7L1/9 b P 1",
        "7nk/9/7G1/9/9/9/9/9/9 b P 1",
        "7Sk/6+L2/9/9/9/9/9/9/9 b P2r2b4g3s4n3l17p 1",
        "kr7/9/+S8/2P6/9/9/9/9/9 b BPrb4g3s4n4l16p 1",
    ] {
        let mut p = pos(sfen);
        assert!(pawn_drop_would_mate(&p), "{sfen}");
        assert_eq!(mate_in_one(&mut p), None);
        expect_no_mate(sfen);
        assert_eq!(exhaustive(sfen, 9, 50_000_000), Ok(None), "{sfen}");
    }
    // The pawn-drop mate is there, but the mate must go another way.
    for (sfen, len) in [
        ("kl7/2R6/9/+P1R6/9/G8/9/9/9 b BNPb3g4s3n3l16p 1", 5),
        ("kp7/1R2B4/2G6/9/9/9/9/9/9 b BPr3g4s4n4l16p 1", 9),
    ] {
        assert!(pawn_drop_would_mate(&pos(sfen)), "{sfen}");
        let line = expect_mate(sfen, len);
        assert_eq!(exhaustive(sfen, len as u32, 50_000_000), Ok(Some(len as u32)), "{sfen}");
        assert!(!line_str(&line).starts_with("P*"), "{}", line_str(&line));
    }
}

/// A rook drop from a distance: the defender may interpose on the two squares between, but
/// every such piece is simply taken and the mate goes on without it. The shortest mate counting
/// every defence is 5 plies (through an interposition); the reported line does not count the
/// useless interpositions, so the defender steps aside instead and it is 3 plies.
#[test]
fn useless_interposition_does_not_lengthen_the_line() {
    let sfen = "3kr4/9/4L4/3+B1N3/2+B6/9/9/9/9 b RG3g4s3n3l18p 1";
    let (r, solver) = solve(sfen, 32, seconds(30));
    let MateResult::Mate(line) = r else { panic!("{r:?}") };
    check_line(sfen, &line);
    assert_eq!(line_str(&line), "R*9a 6a6b G*6c");
    assert_eq!(solver.stats().mate_len, 5);
    assert_eq!(exhaustive(sfen, 5, 50_000_000), Ok(Some(5)));
    // After R*9a every drop between rook and king is useless by the rule: the rook takes it, and
    // the position after that capture is still a mate with the piece handed back.
    let mut p = pos(sfen);
    p.do_move(p.parse_move("R*9a").unwrap());
    let drops: Vec<Move> = p.legal_moves().iter().copied().filter(|m| m.is_drop()).collect();
    assert!(drops.len() >= 10, "{drops:?}");
    for e in drops {
        p.do_move(e);
        let capture = Move::normal(shomei::Square::parse("9a").unwrap(), e.to());
        assert!(p.legal_moves().contains(capture) && p.gives_check(capture), "{e}");
        p.do_move(capture);
        let mut black = p.hand(Color::Black);
        let mut white = p.hand(Color::White);
        black.remove(e.dropped_kind());
        white.add(e.dropped_kind());
        let board = p.to_sfen().split_whitespace().next().unwrap().to_string();
        let returned = sfen_from(&board, Color::White, black, white);
        // The defender is to move there: every move it has leads to a mate.
        let mut b = pos(&returned);
        assert!(b.in_check());
        for d in b.legal_moves().iter().copied() {
            b.do_move(d);
            let sub = b.to_sfen();
            let (rr, _) = solve(&sub, 16, seconds(10));
            assert!(matches!(rr, MateResult::Mate(_)), "{returned} after {d}: {rr:?}");
            b.undo_move();
        }
        p.undo_move();
        p.undo_move();
    }
}

#[test]
fn attacker_in_check_at_the_root() {
    // Black's king on 5i is in check from the bishop on 1e. The lance takes the bishop: that
    // both answers the check and checks the king on 1a.
    let sfen = "8k/6+R2/9/9/8b/9/9/8L/4K4 b - 1";
    let p = pos(sfen);
    assert!(p.in_check());
    let (r, _) = solve(sfen, 16, seconds(10));
    let MateResult::Mate(line) = r else { panic!("{sfen}: {r:?}") };
    check_line(sfen, &line);
    let ex = exhaustive(sfen, 9, 50_000_000).unwrap().expect("a mate");
    assert_eq!(line.len() as u32, ex, "{}", line_str(&line));
    assert_eq!(line[0].to_string(), "1h1e");
}

#[test]
fn stop_and_limits_end_the_search() {
    // A hard position (the 515-ply メガロポリス): the solver has to stop because of the flag, the
    // nodes or the clock.
    let sfen = "2G1+n3S/1gnP+lpkP1/3SS2ps/2G+pNG1+r1/2+p+pp+ppL1/1+p+p1+p4/+p+p1+p2N2/2+p2P3/9 b R2L2b 1";
    let p = pos(sfen);
    let mut solver = MateSolver::new(16);
    let stop = AtomicBool::new(true);
    let t = Instant::now();
    assert_eq!(solver.solve(&p, MateLimits::default(), &stop, &mut |_| {}), MateResult::Timeout);
    assert!(t.elapsed() < Duration::from_millis(50));

    let stop = AtomicBool::new(false);
    let r = solver.solve(&p, MateLimits { time: None, nodes: Some(20_000) }, &stop, &mut |_| {});
    assert!(solver.stats().search_nodes < 25_000, "{:?} {r:?}", solver.stats());

    // `stop` set from another thread ends the solve within a few milliseconds.
    let stop = AtomicBool::new(false);
    let mut reports = Vec::new();
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(1300));
            stop.store(true, Ordering::Relaxed);
        });
        let t = Instant::now();
        let r = solver.solve(&p, MateLimits::default(), &stop, &mut |pr| reports.push(pr));
        let late = t.elapsed().saturating_sub(Duration::from_millis(1300));
        assert_eq!(r, MateResult::Timeout);
        assert!(late < Duration::from_millis(100), "stopped {late:?} late");
    });
    // About one progress report per second.
    assert!(!reports.is_empty() && reports.len() <= 2, "{reports:?}");
    assert!(reports[0].nodes > 0 && reports[0].time_ms >= 900);

    let t = Instant::now();
    let r = solver.solve(
        &p,
        MateLimits { time: Some(Duration::from_millis(300)), nodes: None },
        &stop_flag(),
        &mut |_| {},
    );
    assert_eq!(r, MateResult::Timeout);
    assert!(t.elapsed() < Duration::from_millis(400), "{:?}", t.elapsed());
}

fn stop_flag() -> AtomicBool {
    AtomicBool::new(false)
}

/// On random tsume-like positions the solver and the exhaustive search agree: a mate within 7
/// plies found by the exhaustive search is found by the solver with the same shortest length, and
/// a "no mate" from the solver has no mate within 7 plies by the exhaustive search (a check on
/// disproofs and disproof hands).
#[test]
fn solver_agrees_with_exhaustive_search() {
    let mut rng = Rng(0x00c0_ffee_1234_5678 ^ env_or("AGREE_SEED", 0));
    let mut solver = MateSolver::new(32);
    let stop = AtomicBool::new(false);
    let (mut mates, mut nomates, mut n) = (0, 0, 0);
    while n < env_or("AGREE_N", 400) {
        let (a, d, h) = (1 + rng.below(4), rng.below(5), rng.below(4));
        let Some(s) = random_tsume(&mut rng, a, d, h) else { continue };
        n += 1;
        let r = solver.solve(&pos(&s), MateLimits { time: None, nodes: Some(300_000) }, &stop, &mut |_| {});
        let st = solver.stats();
        let Ok(ex) = exhaustive(&s, 7, 3_000_000) else { continue };
        match (&r, ex) {
            (MateResult::Mate(line), Some(len)) => {
                check_line(&s, line);
                // Without the budget to finish shortening, the length is an upper bound.
                if st.exact {
                    assert_eq!(st.mate_len, len, "{s}: {}", line_str(line));
                } else {
                    assert!(st.mate_len >= len, "{s}: {}", line_str(line));
                }
                mates += 1;
            }
            (MateResult::Mate(line), None) => {
                check_line(&s, line);
                assert!(st.mate_len > 7, "{s}: {}", line_str(line));
            }
            (MateResult::NoMate, None) => nomates += 1,
            (MateResult::NoMate, Some(len)) => panic!("{s}: solver says no mate, exhaustive finds {len}"),
            (MateResult::Timeout, Some(len)) => panic!("{s}: solver timed out on a mate in {len}"),
            (MateResult::Timeout, None) => {}
        }
    }
    assert!(mates > 50 && nomates > 50, "{mates} mates, {nomates} without mate");
}

/// A small table forces garbage collection; the long problem is still solved.
#[test]
fn small_table_collects_garbage() {
    let sfen = "9/3k5/2b1R4/9/2L6/7+N1/9/9/9 b NPrb4g4s2n3l17p 1";
    let (r, solver) = solve(sfen, 1, seconds(60));
    let MateResult::Mate(line) = r else { panic!("{r:?}") };
    check_line(sfen, &line);
    let st = solver.stats();
    assert!(st.gc_runs > 0, "{st:?}");
    assert_eq!(st.mate_len, 15, "{}", line_str(&line));
}

// ---------------------------------------------------------------------------------------------
// The problem set

fn problem_set() -> Vec<(String, usize, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/mate_problems.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/mate_problems.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].parse().expect("length"), f[2].to_string())
        })
        .collect()
}

/// Every problem's recorded line is a mate of the recorded length.
#[test]
fn problem_set_lines_are_mates() {
    let set = problem_set();
    assert!(set.len() >= 100, "{} problems", set.len());
    for (sfen, len, line) in &set {
        let mut q = pos(sfen);
        let moves: Vec<Move> = line
            .split_whitespace()
            .map(|m| {
                let mv = q.parse_move(m).unwrap_or_else(|_| panic!("{sfen}: {m} in {line}"));
                q.do_move(mv);
                mv
            })
            .collect();
        check_line(sfen, &moves);
        assert_eq!(moves.len(), *len, "{sfen}");
        assert!((3..=15).contains(len));
    }
}

/// A sample of the set (every third problem, all lengths) solved with a small table: the mate
/// length the solver proves shortest equals the recorded one, and the reported line is a mate
/// no longer than it.
#[test]
fn problem_set_sample_is_solved() {
    let set = problem_set();
    let mut solver = MateSolver::new(64);
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let mut nodes = 0;
    for (sfen, len, _) in set.iter().step_by(3) {
        let r = solver.solve(&pos(sfen), seconds(20), &stop, &mut |_| {});
        let st = solver.stats();
        nodes += st.nodes;
        let MateResult::Mate(line) = r else { panic!("{sfen}: {r:?}") };
        check_line(sfen, &line);
        assert_eq!(st.mate_len as usize, *len, "{sfen}: {}", line_str(&line));
        assert!(line.len() <= *len, "{sfen}: {}", line_str(&line));
    }
    println!("{} problems, {nodes} nodes in {:?}", set.len().div_ceil(3), t.elapsed());
}
