//! The tsume solver (`shomei::mate`) on problems with known answers.
//!
//! Every reported line is checked move by move with the rules code (`check_line`): each move
//! legal, each attacker move a check, and the defender mated at the end. Lengths are compared
//! with published answers, or with `exhaustive`, a plain iterative-deepening AND/OR search over
//! all legal moves written here from the rules alone (slow, correct by construction).

use shomei::mate::{mate_in_one, MateLimits, MateProgress, MateResult, MateSolver};
use shomei::shogi::SfenMode;
use shomei::{Color, Move, PieceKind, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// Helpers

fn pos(sfen: &str) -> Position {
    Position::from_sfen_mode(sfen, SfenMode::Composed).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn line_str(line: &[Move]) -> String {
    line.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

/// Checks a mating line with the rules: every move legal, every attacker move gives check, every
/// defender move is one of its legal moves, and at the end the defender is in check without a
/// legal move. Panics with the reason otherwise.
fn check_line(sfen: &str, line: &[Move]) {
    let mut p = pos(sfen);
    assert!(line.len() % 2 == 1, "{sfen}: a mating line has odd length: {}", line_str(line));
    for (i, &m) in line.iter().enumerate() {
        let legal = p.legal_moves();
        assert!(
            legal.contains(m) && p.is_legal(m),
            "{sfen}: ply {} {m} is illegal in {}",
            i + 1,
            line_str(line)
        );
        if i % 2 == 0 {
            assert!(p.gives_check(m), "{sfen}: attacker move {} {m} does not check", i + 1);
        } else {
            assert!(p.in_check(), "{sfen}: defender not in check before ply {}", i + 1);
        }
        p.do_move(m);
    }
    assert!(
        p.in_check() && p.legal_moves().is_empty(),
        "{sfen}: line does not end in mate: {}",
        line_str(line)
    );
}

fn solve(sfen: &str, mb: usize, limits: MateLimits) -> (MateResult, MateSolver) {
    let p = pos(sfen);
    let mut solver = MateSolver::new(mb);
    let stop = AtomicBool::new(false);
    let r = solver.solve(&p, limits, &stop, &mut |_| {});
    (r, solver)
}

fn seconds(s: u64) -> MateLimits {
    MateLimits { time: Some(Duration::from_secs(s)), nodes: None }
}

/// Solves and expects a mate of exactly `len` plies, checked with the rules.
fn expect_mate(sfen: &str, len: usize) -> Vec<Move> {
    let (r, _) = solve(sfen, 32, seconds(30));
    match r {
        MateResult::Mate(line) => {
            check_line(sfen, &line);
            assert_eq!(line.len(), len, "{sfen}: {}", line_str(&line));
            line
        }
        other => panic!("{sfen}: expected a mate in {len}, got {other:?}"),
    }
}

fn expect_no_mate(sfen: &str) {
    let (r, _) = solve(sfen, 32, seconds(30));
    assert_eq!(r, MateResult::NoMate, "{sfen}");
}

// ---------------------------------------------------------------------------------------------
// The exhaustive reference search

/// Counts nodes and gives up past a cap. `memo` remembers exact answers: `(key, depth) ->
/// mate within depth?` for attacker-to-move positions (the key covers board, hands and side).
struct Exhaustive {
    nodes: u64,
    cap: u64,
    memo: std::collections::HashMap<(u64, u32), bool>,
}

impl Exhaustive {
    fn new(cap: u64) -> Exhaustive {
        Exhaustive { nodes: 0, cap, memo: std::collections::HashMap::new() }
    }

    /// Attacker to move: a mate within `depth` plies (odd)? `None` when the node cap was hit.
    fn or_node(&mut self, p: &mut Position, depth: u32) -> Option<bool> {
        if let Some(&r) = self.memo.get(&(p.key(), depth)) {
            return Some(r);
        }
        let mut result = false;
        for m in p.legal_moves().iter().copied() {
            if !p.gives_check(m) {
                continue;
            }
            self.nodes += 1;
            if self.nodes > self.cap {
                return None;
            }
            p.do_move(m);
            let r = self.and_node(p, depth - 1);
            p.undo_move();
            if r? {
                result = true;
                break;
            }
        }
        self.memo.insert((p.key(), depth), result);
        Some(result)
    }

    fn and_node(&mut self, p: &mut Position, depth: u32) -> Option<bool> {
        let moves = p.legal_moves();
        if moves.is_empty() {
            return Some(true);
        }
        if depth == 0 {
            return Some(false);
        }
        for m in moves.iter().copied() {
            self.nodes += 1;
            p.do_move(m);
            let r = self.or_node(p, depth - 1);
            p.undo_move();
            if !r? {
                return Some(false);
            }
        }
        Some(true)
    }
}

/// The shortest mate of at most `max` plies by exhaustive search: `Ok(Some(n))`, `Ok(None)` (no
/// mate within `max`), or `Err(d)` when the node cap stopped it while looking at length `d`.
fn exhaustive(sfen: &str, max: u32, cap: u64) -> Result<Option<u32>, u32> {
    let mut p = pos(sfen);
    let mut ex = Exhaustive::new(cap);
    let mut d = 1;
    while d <= max {
        match ex.or_node(&mut p, d) {
            Some(true) => return Ok(Some(d)),
            Some(false) => {}
            None => return Err(d),
        }
        d += 2;
    }
    Ok(None)
}

// ---------------------------------------------------------------------------------------------
// Random positions

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

const KINDS: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
];

/// A random tsume-like position: White's king near the top edge, a few White pieces around it,
/// a few Black pieces near it and some in Black's hand, the rest of the set in White's hand;
/// Black (no king) to move. `None` when the placement is not a valid position.
fn random_tsume(rng: &mut Rng, attackers: u64, defenders: u64, in_hand: u64) -> Option<String> {
    let mut pool = [18u32, 4, 4, 4, 4, 2, 2];
    let mut board: [[Option<(Color, PieceKind, bool)>; 9]; 9] = [[None; 9]; 9]; // [rank][file]
    let kf = rng.below(9) as i32;
    let kr = rng.below(3) as i32;
    board[kr as usize][kf as usize] = Some((Color::White, PieceKind::King, false));
    let take = |rng: &mut Rng, pool: &mut [u32; 7]| -> Option<usize> {
        for _ in 0..20 {
            let i = rng.below(7) as usize;
            if pool[i] > 0 {
                pool[i] -= 1;
                return Some(i);
            }
        }
        None
    };
    let mut place = |rng: &mut Rng, pool: &mut [u32; 7], color: Color, spread: i32| {
        let Some(i) = take(rng, pool) else { return };
        for _ in 0..20 {
            let f = kf + rng.below((2 * spread + 1) as u64) as i32 - spread;
            let r = kr + rng.below((2 * spread + 1) as u64) as i32 - spread
                + if color == Color::Black { 1 } else { 0 };
            if !(0..9).contains(&f) || !(0..9).contains(&r) || board[r as usize][f as usize].is_some() {
                continue;
            }
            let kind = KINDS[i];
            let promoted = kind != PieceKind::Gold && rng.chance(if color == Color::Black { 30 } else { 10 });
            board[r as usize][f as usize] = Some((color, kind, promoted));
            return;
        }
        pool[i] += 1;
    };
    for _ in 0..attackers {
        let spread = if rng.chance(80) { 2 } else { 4 };
        place(rng, &mut pool, Color::Black, spread);
    }
    for _ in 0..defenders {
        place(rng, &mut pool, Color::White, 1);
    }
    let mut hand = [0u32; 7];
    for _ in 0..in_hand {
        if let Some(i) = take(rng, &mut pool) {
            hand[i] += 1;
        }
    }
    let mut s = String::new();
    for (r, row) in board.iter().enumerate() {
        let mut empty = 0;
        for f in (0..9).rev() {
            match row[f] {
                None => empty += 1,
                Some((c, k, promoted)) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    if promoted {
                        s.push('+');
                    }
                    let l = k.base_letter();
                    s.push(if c == Color::Black { l } else { l.to_ascii_lowercase() });
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if r < 8 {
            s.push('/');
        }
    }
    let mut h = String::new();
    for (counts, upper) in [(hand, true), (pool, false)] {
        for k in PieceKind::HAND_SFEN_ORDER {
            let i = KINDS.iter().position(|&x| x == k).unwrap();
            let n = counts[i];
            if n == 0 {
                continue;
            }
            if n > 1 {
                h.push_str(&n.to_string());
            }
            let l = k.base_letter();
            h.push(if upper { l } else { l.to_ascii_lowercase() });
        }
    }
    if h.is_empty() {
        h.push('-');
    }
    let sfen = format!("{s} b {h} 1");
    let p = Position::from_sfen_mode(&sfen, SfenMode::Composed).ok()?;
    // Reject positions where the defender could never be mated for trivial reasons? No: keep all.
    let _ = p;
    Some(sfen)
}

/// Positions from random games (both kings on the board), seeded.
fn random_game_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Position::startpos();
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Captures three times as likely, so hands fill and kings get exposed.
            let caps: Vec<Move> = moves.iter().copied().filter(|&m| p.is_capture(m)).collect();
            let m = if !caps.is_empty() && rng.chance(75) {
                caps[rng.below(caps.len() as u64) as usize]
            } else {
                moves[rng.below(moves.len() as u64) as usize]
            };
            p.do_move(m);
            out.push(p.clone());
        }
    }
    out
}

/// Every legal move that mates at once (brute force).
fn mates_in_one(p: &mut Position) -> Vec<Move> {
    let mut out = Vec::new();
    for m in p.legal_moves().iter().copied() {
        if !p.gives_check(m) {
            continue;
        }
        p.do_move(m);
        if p.legal_moves().is_empty() {
            out.push(m);
        }
        p.undo_move();
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Mate in one

/// `generate_checks` lists exactly the legal moves that give check.
fn check_checks(p: &Position) {
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

#[test]
fn mate_in_one_drops_and_board_moves() {
    // Gold drop on the head of a cornered king, backed by a pawn.
    one("8k/9/8P/9/9/9/9/9/9 b G 1", Some("G*1b"));
    // Board move: the gold steps up beside the knight.
    one("7nk/9/7G1/9/9/9/9/9/9 b - 1", None);
    let mut p = pos("7nk/9/7G1/6N2/9/9/9/9/9 b - 1");
    let mut mates: Vec<String> = mates_in_one(&mut p).iter().map(|m| m.to_string()).collect();
    mates.sort();
    assert_eq!(mates, ["2c2b", "3d2b+"]);
    assert!(check_mate_in_one(&mut p));
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

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
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

/// Writes `tests/data/mate_problems.txt` (see its header). Run with
/// `cargo test --release -p shomei --test mate generate_problem_set -- --ignored --nocapture`.
#[test]
#[ignore]
fn generate_problem_set() {
    // Wanted problems per length.
    let quota: [(usize, usize); 7] = [(3, 14), (5, 16), (7, 16), (9, 16), (11, 14), (13, 12), (15, 12)];
    let mut found: std::collections::BTreeMap<usize, Vec<String>> = std::collections::BTreeMap::new();
    let mut rng = Rng(0x7573_756d_655f_3031);
    let mut solver = MateSolver::new(128);
    let stop = AtomicBool::new(false);
    let mut tried = 0u64;
    let t0 = Instant::now();
    let full = |found: &std::collections::BTreeMap<usize, Vec<String>>| {
        quota.iter().all(|&(l, q)| found.get(&l).map_or(0, |v| v.len()) >= q)
    };
    let mut seen = std::collections::HashSet::new();
    while !full(&found) && t0.elapsed() < Duration::from_secs(3 * 3600) {
        // Two mixes of piece counts; the second gives longer mates more often.
        let (a, d, h) = if tried.is_multiple_of(2) {
            (2 + rng.below(3), rng.below(3), 1 + rng.below(3))
        } else {
            (3 + rng.below(3), rng.below(6), 1 + rng.below(2))
        };
        let Some(s) = random_tsume(&mut rng, a, d, h) else { continue };
        tried += 1;
        let mut p = pos(&s);
        if mate_in_one(&mut p).is_some() {
            continue;
        }
        let r = solver.solve(&p, MateLimits { time: None, nodes: Some(500_000) }, &stop, &mut |_| {});
        let st = solver.stats();
        let MateResult::Mate(line) = r else { continue };
        let len = line.len();
        let Some(&(_, q)) = quota.iter().find(|&&(l, _)| l == len) else { continue };
        if found.get(&len).map_or(0, |v| v.len()) >= q || !st.exact || st.mate_len as usize != len {
            continue;
        }
        if !seen.insert(p.board_key()) {
            continue;
        }
        check_line(&s, &line);
        // Independent confirmation by the exhaustive search.
        let note = if len <= 7 {
            match exhaustive(&s, len as u32, 20_000_000) {
                Ok(Some(n)) if n as usize == len => "exhaustive: shortest mate".to_string(),
                Ok(other) => panic!("{s}: solver says {len}, exhaustive search says {other:?}"),
                Err(_) => continue,
            }
        } else {
            match exhaustive(&s, len as u32 - 2, 20_000_000) {
                Ok(None) => format!("exhaustive: no mate within {}", len - 2),
                Ok(Some(n)) => panic!("{s}: solver says {len}, exhaustive search finds {n}"),
                Err(d) if d >= 7 => format!("exhaustive: no mate within {} (capped at {d})", d - 2),
                Err(_) => continue,
            }
        };
        println!("{len:2} {s} ({} nodes) {note}", st.nodes);
        found.entry(len).or_default().push(format!("{s}\t{len}\t{}\t{note}", line_str(&line)));
    }
    let mut out = String::new();
    out.push_str(PROBLEM_SET_HEADER);
    for v in found.values() {
        for l in v {
            out.push_str(l);
            out.push('\n');
        }
    }
    std::fs::create_dir_all("tests/data").unwrap();
    std::fs::write("tests/data/mate_problems.txt", out).unwrap();
    println!("{tried} positions tried in {:?}", t0.elapsed());
}

const PROBLEM_SET_HEADER: &str = "\
# Tsume problems with known mate lengths, for tests/mate.rs and benches/mate.rs.
#
# Format: one problem per line, tab-separated:
#   SFEN <tab> length in plies <tab> a mating line (USI) <tab> how the length was confirmed
#
# How they were made (tests/mate.rs, `generate_problem_set`, seeded, reproducible):
# 1. Random tsume-like positions: White's king on one of the top three ranks, 2-5 Black pieces
#    (30% promoted) within two squares (sometimes four) of it, 0-5 White pieces next to it, 1-3
#    pieces in Black's hand and every remaining piece of the set in White's hand (the tsume
#    convention); Black, without a king, to move. Positions with a mate in one were dropped.
# 2. shomei's df-pn solver (500k-node budget) found a mate, shortened it until a search limited to
#    two plies fewer failed (so the length is the shortest mate against every defence, useless
#    interpositions included), and the line it reports has that same length (no useless
#    interposition is skipped on it). Boards seen before were skipped.
# 3. Independent check with a plain exhaustive AND/OR search over all legal moves (iterative
#    deepening, exact memo; tests/mate.rs `exhaustive`), with a 20M-node cap:
#    - length <= 7: the exhaustive search finds the shortest mate and it has exactly this length;
#    - length >= 9: the exhaustive search finds no mate within length - 2 (or, had the cap
#      stopped it, within the depth noted; it never did for this set), and the line was checked
#      move by move with the rules (legal, every attacker move checks, ends in checkmate).
# Lengths count every defence, useless interpositions included (the shortest mate by minimax);
# 46 problems (3-7 plies) were confirmed by finding the mate, 54 (9-15) by excluding shorter ones.
# The solver's `MateStats::mate_len` must equal the length; its reported line may be shorter
# only where it skips a useless interposition (none does on the recorded lines).
";

/// An SFEN from a board field, side and both hands.
fn sfen_from(board: &str, side: Color, black: shomei::Hand, white: shomei::Hand) -> String {
    let mut h = String::new();
    for (c, hh) in [(Color::Black, black), (Color::White, white)] {
        for k in PieceKind::HAND_SFEN_ORDER {
            let n = hh.count(k);
            if n == 0 {
                continue;
            }
            if n > 1 {
                h.push_str(&n.to_string());
            }
            let l = k.base_letter();
            h.push(if c == Color::Black { l } else { l.to_ascii_lowercase() });
        }
    }
    if h.is_empty() {
        h.push('-');
    }
    format!("{board} {} {h} 1", if side == Color::Black { 'b' } else { 'w' })
}

/// The position after dropping a Black pawn on `sq` (White to move), built from the SFEN.
fn with_pawn_dropped(p: &Position, sq: shomei::Square) -> Option<Position> {
    let mut rows: Vec<String> = Vec::new();
    for r in 0..9u8 {
        let mut row = String::new();
        let mut empty = 0;
        for file in (0..9u8).rev() {
            let s = shomei::Square::new(file, r);
            let pc = p.piece_on(s);
            if s == sq {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push('P');
            } else if pc.is_none() {
                empty += 1;
            } else {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push_str(&pc.sfen());
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    let mut hand = p.hand(Color::Black);
    hand.remove(PieceKind::Pawn);
    Position::from_sfen_mode(
        &sfen_from(&rows.join("/"), Color::White, hand, p.hand(Color::White)),
        SfenMode::Composed,
    )
    .ok()
}

// ---------------------------------------------------------------------------------------------
// Tools (ignored tests), run with `cargo test --release -p shomei --test mate <name> -- --ignored
// --nocapture` and the environment variables named in each.

/// Solves `N` random tsume-like positions (`SEED`, piece-count ranges `AMIN` `ARANGE` `DRANGE`
/// `HMIN` `HRANGE`, node cap `CAP`) and prints the distribution of results; mates of 13 plies or
/// more are printed in full.
#[test]
#[ignore]
fn tool_random_distribution() {
    let n: usize = std::env::var("N").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    let seed: u64 = std::env::var("SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let mut rng = Rng(0x1234_5678 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut solver = MateSolver::new(64);
    let stop = AtomicBool::new(false);
    let mut hist = std::collections::BTreeMap::new();
    let mut tried = 0;
    let t0 = Instant::now();
    let mut total_nodes = 0;
    let amin = env_or("AMIN", 2);
    let arange = env_or("ARANGE", 4);
    let drange = env_or("DRANGE", 6);
    let hmin = env_or("HMIN", 0);
    let hrange = env_or("HRANGE", 4);
    let cap = env_or("CAP", 300_000);
    while tried < n {
        let (a, d, h) = (amin + rng.below(arange), rng.below(drange), hmin + rng.below(hrange));
        let Some(s) = random_tsume(&mut rng, a, d, h) else { continue };
        tried += 1;
        let r = solver.solve(&pos(&s), MateLimits { time: None, nodes: Some(cap) }, &stop, &mut |_| {});
        let st = solver.stats();
        total_nodes += st.nodes;
        let key = match &r {
            MateResult::Mate(l) => {
                check_line(&s, l);
                if l.len() >= 13 {
                    println!("{s}\t{}\t{} nodes {:?} exact {}", l.len(), st.nodes, st.time, st.exact);
                }
                format!("mate{:02}", l.len())
            }
            MateResult::NoMate => "nomate".into(),
            MateResult::Timeout => "timeout".into(),
        };
        *hist.entry(key).or_insert(0) += 1;
    }
    println!("{hist:?} in {:?}, {} nodes", t0.elapsed(), total_nodes);
}

/// Solves `SFEN` with a table of `MB` megabytes for at most `SECS` seconds, printing progress.
#[test]
#[ignore]
fn tool_solve() {
    let s = std::env::var("SFEN").unwrap();
    let mb: usize = std::env::var("MB").ok().and_then(|v| v.parse().ok()).unwrap_or(256);
    let secs: u64 = std::env::var("SECS").ok().and_then(|v| v.parse().ok()).unwrap_or(30);
    let p = pos(&s);
    let mut solver = MateSolver::new(mb);
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let r = solver.solve(&p, seconds(secs), &stop, &mut |pr: MateProgress| {
        println!("info {pr:?}");
    });
    println!("{:?} {:?} {:?}", t.elapsed(), solver.stats(), r.clone());
    if let MateResult::Mate(line) = r {
        check_line(&s, &line);
        println!("len {} {}", line.len(), line_str(&line));
    }
}

/// Solves every problem of a file (`FILE`: the problem-set format, or lines `len sfen...`),
/// printing nodes and times (`MB`, `MINLEN`).
#[test]
#[ignore]
fn tool_solve_file() {
    let file = std::env::var("FILE").unwrap();
    let mb: usize = std::env::var("MB").ok().and_then(|v| v.parse().ok()).unwrap_or(64);
    let min_len: usize = std::env::var("MINLEN").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    let text = std::fs::read_to_string(file).unwrap();
    let mut solver = MateSolver::new(mb);
    let stop = AtomicBool::new(false);
    let (mut tn, mut ts, mut tt) = (0u64, 0u64, 0f64);
    let mut bad = 0;
    for l in text.lines() {
        if l.starts_with('#') || l.trim().is_empty() {
            continue;
        }
        let (sfen, len) = if l.contains('\t') {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].parse::<usize>().unwrap())
        } else {
            let t: Vec<&str> = l.split_whitespace().collect();
            let Ok(len) = t[0].parse::<usize>() else { continue };
            (t[1..5].join(" "), len)
        };
        if len < min_len {
            continue;
        }
        let r = solver.solve(&pos(&sfen), seconds(20), &stop, &mut |_| {});
        let st = solver.stats();
        tn += st.nodes;
        ts += st.search_nodes;
        tt += st.time.as_secs_f64();
        let got = match &r {
            MateResult::Mate(line) => {
                check_line(&sfen, line);
                line.len()
            }
            _ => 0,
        };
        if got != len {
            bad += 1;
        }
        println!(
            "{len:2} {got:2} {:9} {:9} {:8.3}s {sfen}",
            st.search_nodes,
            st.nodes,
            st.time.as_secs_f64()
        );
    }
    println!("total search nodes {ts} nodes {tn} time {tt:.2}s wrong {bad}");
}

/// The exhaustive search on `SFEN` up to `MAX` plies with a node cap `CAP`.
#[test]
#[ignore]
fn tool_exhaustive() {
    let s = std::env::var("SFEN").unwrap();
    let max: u32 = env_or("MAX", 11) as u32;
    let cap = env_or("CAP", 200_000_000);
    let t = Instant::now();
    println!("{:?} in {:?}", exhaustive(&s, max, cap), t.elapsed());
}

/// Looks for test positions among `N` random ones (`SEED`): lines that skip a useless
/// interposition, and positions decided by the pawn-drop-mate rule (`UCHIFU_ONLY=1`).
#[test]
#[ignore]
fn tool_find_special() {
    let n = env_or("N", 3000);
    let mut rng = Rng(env_or("SEED", 77));
    let mut solver = MateSolver::new(64);
    let stop = AtomicBool::new(false);
    let mut tried = 0;
    while tried < n {
        let (a, d, h) = (2 + rng.below(3), rng.below(4), 1 + rng.below(3));
        let Some(s) = random_tsume(&mut rng, a, d, h) else { continue };
        tried += 1;
        let p = pos(&s);
        // Pawn-drop mate on the king's head?
        let ksq = p.king_square(Color::White);
        let mut uchifu = false;
        if ksq.rank() < 8 && p.hand(Color::Black).has(PieceKind::Pawn) {
            let sq = shomei::Square::new(ksq.file(), ksq.rank() + 1);
            if p.piece_on(sq).is_none() {
                if let Some(q) = with_pawn_dropped(&p, sq) {
                    uchifu = q.in_check() && q.legal_moves().is_empty();
                }
            }
        }
        if !uchifu && env_or("UCHIFU_ONLY", 0) == 1 {
            continue;
        }
        let r = solver.solve(&p, MateLimits { time: None, nodes: Some(200_000) }, &stop, &mut |_| {});
        let st = solver.stats();
        match &r {
            MateResult::Mate(line) => {
                if uchifu && line.len() <= 9 && line.len() >= 3 {
                    println!("UCHIFU-MATE {} {s}\t{}", line.len(), line_str(line));
                }
                if (line.len() as u32) < st.mate_len && st.exact && st.mate_len <= 9 {
                    println!("USELESS {} {} {s}\t{}", line.len(), st.mate_len, line_str(line));
                }
            }
            MateResult::NoMate if uchifu => println!("UCHIFU-NOMATE {s}"),
            _ => {}
        }
    }
}
