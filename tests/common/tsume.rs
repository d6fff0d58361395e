//! Tsume helpers shared by `tests/mate.rs` and the mate tools (`benches/mate_tools.rs`): solving
//! and line checking, `exhaustive` (a plain iterative-deepening AND/OR search over all legal
//! moves, written from the rules alone: slow, correct by construction), and seeded random
//! tsume-like and game positions.

// Each crate includes this file and uses a different part of it.
#![allow(dead_code)]

use shomei::mate::{MateLimits, MateResult, MateSolver};
use shomei::shogi::sfen::hands_sfen;
use shomei::shogi::SfenMode;
use shomei::{Color, Move, PieceKind, Position};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

// ---------------------------------------------------------------------------------------------
// Helpers

pub fn pos(sfen: &str) -> Position {
    Position::from_sfen_mode(sfen, SfenMode::Composed).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

pub fn line_str(line: &[Move]) -> String {
    line.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

/// Checks a mating line with the rules: every move legal, every attacker move gives check, every
/// defender move is one of its legal moves, and at the end the defender is in check without a
/// legal move. Panics with the reason otherwise.
pub fn check_line(sfen: &str, line: &[Move]) {
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

pub fn solve(sfen: &str, mb: usize, limits: MateLimits) -> (MateResult, MateSolver) {
    let p = pos(sfen);
    let mut solver = MateSolver::new(mb);
    let stop = AtomicBool::new(false);
    let r = solver.solve(&p, limits, &stop, &mut |_| {});
    (r, solver)
}

pub fn seconds(s: u64) -> MateLimits {
    MateLimits { time: Some(Duration::from_secs(s)), nodes: None }
}

/// Solves and expects a mate of exactly `len` plies, checked with the rules.
pub fn expect_mate(sfen: &str, len: usize) -> Vec<Move> {
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

pub fn expect_no_mate(sfen: &str) {
    let (r, _) = solve(sfen, 32, seconds(30));
    assert_eq!(r, MateResult::NoMate, "{sfen}");
}

// ---------------------------------------------------------------------------------------------
// The exhaustive reference search

/// Counts nodes and gives up past a cap. `memo` remembers exact answers: `(key, depth) ->
/// mate within depth?` for attacker-to-move positions (the key covers board, hands and side).
pub struct Exhaustive {
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
pub fn exhaustive(sfen: &str, max: u32, cap: u64) -> Result<Option<u32>, u32> {
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

pub use super::rng::Rng;

pub const KINDS: [PieceKind; 7] = [
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
pub fn random_tsume(rng: &mut Rng, attackers: u64, defenders: u64, in_hand: u64) -> Option<String> {
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
    // Counts per `KINDS` entry, all within a set, so each fits its `Hand` field.
    let as_hand = |counts: [u32; 7]| {
        let mut h = shomei::Hand::EMPTY;
        for (&k, &n) in KINDS.iter().zip(&counts) {
            h.set(k, n);
        }
        h
    };
    let h = hands_sfen(as_hand(hand), as_hand(pool));
    let sfen = format!("{s} b {h} 1");
    let p = Position::from_sfen_mode(&sfen, SfenMode::Composed).ok()?;
    // Reject positions where the defender could never be mated for trivial reasons? No: keep all.
    let _ = p;
    Some(sfen)
}

/// Positions from random games (both kings on the board), seeded.
pub fn random_game_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
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
pub fn mates_in_one(p: &mut Position) -> Vec<Move> {
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

pub fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

pub const PROBLEM_SET_HEADER: &str = "\
# Tsume problems with known mate lengths, for tests/mate.rs and benches/mate.rs.
#
# Format: one problem per line, tab-separated:
#   SFEN <tab> length in plies <tab> a mating line (USI) <tab> how the length was confirmed
#
# How they were made (benches/mate_tools.rs, `generate_problem_set`, seeded, reproducible):
# 1. Random tsume-like positions: White's king on one of the top three ranks, 2-5 Black pieces
#    (30% promoted) within two squares (sometimes four) of it, 0-5 White pieces next to it, 1-3
#    pieces in Black's hand and every remaining piece of the set in White's hand (the tsume
#    convention); Black, without a king, to move. Positions with a mate in one were dropped.
# 2. shomei's df-pn solver (500k-node budget) found a mate, shortened it until a search limited to
#    two plies fewer failed (so the length is the shortest mate against every defence, useless
#    interpositions included), and the line it reports has that same length (no useless
#    interposition is skipped on it). Boards seen before were skipped.
# 3. Independent check with a plain exhaustive AND/OR search over all legal moves (iterative
#    deepening, exact memo; tests/common/tsume.rs `exhaustive`), with a 20M-node cap:
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
pub fn sfen_from(board: &str, side: Color, black: shomei::Hand, white: shomei::Hand) -> String {
    format!("{board} {} {} 1", if side == Color::Black { 'b' } else { 'w' }, hands_sfen(black, white))
}

/// The position after dropping a Black pawn on `sq` (White to move), built from the SFEN.
pub fn with_pawn_dropped(p: &Position, sq: shomei::Square) -> Option<Position> {
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
