//! Dobutsu perft: exact counts from the start position, checked against an independent
//! brute-force generator written here on a plain 2-D array (no shared code with the engine).

use shomei::dobutsu::{legal_moves, move_to_usi, perft, Position};
use shomei::rng::Rng;
use std::collections::BTreeSet;

/// The independent model: `board[rank][col]`, rank 0 = rank a (top), col 0 = file 3.
/// A piece is (owner 'b'/'w', letter 'L','G','E','C','H').
#[derive(Clone)]
struct Brute {
    board: [[Option<(char, char)>; 3]; 4],
    hand: [Vec<char>; 2],
    black_to_move: bool,
}

impl Brute {
    fn from_sfen(sfen: &str) -> Brute {
        let mut f = sfen.split_whitespace();
        let rows = f.next().unwrap();
        let mut board = [[None; 3]; 4];
        for (r, row) in rows.split('/').enumerate() {
            let mut c = 0;
            let mut plus = false;
            for ch in row.chars() {
                if ch == '+' {
                    plus = true;
                } else if let Some(d) = ch.to_digit(10) {
                    c += d as usize;
                } else {
                    let owner = if ch.is_uppercase() { 'b' } else { 'w' };
                    let letter = if plus { 'H' } else { ch.to_ascii_uppercase() };
                    board[r][c] = Some((owner, letter));
                    plus = false;
                    c += 1;
                }
            }
        }
        let black_to_move = f.next().unwrap() == "b";
        let mut hand = [Vec::new(), Vec::new()];
        let h = f.next().unwrap();
        if h != "-" {
            let mut n = 1;
            for ch in h.chars() {
                if let Some(d) = ch.to_digit(10) {
                    n = d;
                    continue;
                }
                let side = if ch.is_uppercase() { 0 } else { 1 };
                for _ in 0..n {
                    hand[side].push(ch.to_ascii_uppercase());
                }
                n = 1;
            }
        }
        Brute { board, hand, black_to_move }
    }

    fn name(r: usize, c: usize) -> String {
        format!("{}{}", 3 - c, (b'a' + r as u8) as char)
    }

    /// Moves in USI text, each with the resulting position.
    fn moves(&self) -> Vec<(String, Brute)> {
        let me = if self.black_to_move { 'b' } else { 'w' };
        let lions = self.board.iter().flatten().filter(|p| matches!(p, Some((_, 'L')))).count();
        if lions < 2 {
            return Vec::new();
        }
        let fwd: i32 = if self.black_to_move { -1 } else { 1 };
        let mut out = Vec::new();
        for r in 0..4 {
            for c in 0..3 {
                let Some((owner, letter)) = self.board[r][c] else { continue };
                if owner != me {
                    continue;
                }
                let dirs: Vec<(i32, i32)> = match letter {
                    'C' => vec![(fwd, 0)],
                    'G' => vec![(1, 0), (-1, 0), (0, 1), (0, -1)],
                    'E' => vec![(1, 1), (1, -1), (-1, 1), (-1, -1)],
                    'H' => vec![(fwd, -1), (fwd, 0), (fwd, 1), (0, -1), (0, 1), (-fwd, 0)],
                    'L' => {
                        let mut v = Vec::new();
                        for dr in -1..=1 {
                            for dc in -1..=1 {
                                if (dr, dc) != (0, 0) {
                                    v.push((dr, dc));
                                }
                            }
                        }
                        v
                    }
                    _ => unreachable!(),
                };
                for (dr, dc) in dirs {
                    let (nr, nc) = (r as i32 + dr, c as i32 + dc);
                    if !(0..4).contains(&nr) || !(0..3).contains(&nc) {
                        continue;
                    }
                    let (nr, nc) = (nr as usize, nc as usize);
                    if matches!(self.board[nr][nc], Some((o, _)) if o == me) {
                        continue;
                    }
                    let mut next = self.clone();
                    if let Some((_, cap)) = next.board[nr][nc] {
                        let side = if self.black_to_move { 0 } else { 1 };
                        match cap {
                            'L' => {}
                            'H' => next.hand[side].push('C'),
                            x => next.hand[side].push(x),
                        }
                    }
                    let far = if self.black_to_move { 0 } else { 3 };
                    let promote = letter == 'C' && nr == far;
                    next.board[nr][nc] = Some((me, if promote { 'H' } else { letter }));
                    next.board[r][c] = None;
                    next.black_to_move = !self.black_to_move;
                    let text = format!(
                        "{}{}{}",
                        Self::name(r, c),
                        Self::name(nr, nc),
                        if promote { "+" } else { "" }
                    );
                    out.push((text, next));
                }
            }
        }
        let side = if self.black_to_move { 0 } else { 1 };
        let kinds: BTreeSet<char> = self.hand[side].iter().copied().collect();
        for k in kinds {
            for r in 0..4 {
                for c in 0..3 {
                    if self.board[r][c].is_some() {
                        continue;
                    }
                    let mut next = self.clone();
                    let i = next.hand[side].iter().position(|&x| x == k).unwrap();
                    next.hand[side].remove(i);
                    next.board[r][c] = Some((me, k));
                    next.black_to_move = !self.black_to_move;
                    out.push((format!("{k}*{}", Self::name(r, c)), next));
                }
            }
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves().iter().map(|(_, p)| p.perft(depth - 1)).sum()
    }
}

const START: &str = "gle/1c1/1C1/ELG b - 1";

/// Perft from the start, depths 1..=9 (moving into capture counted, a Try not cutting the tree,
/// no moves once a Lion is captured). Depth 10 is 532,892,528 (10 s, not run here).
const START_COUNTS: [u64; 9] = [4, 17, 123, 976, 8_122, 72_004, 655_030, 6_057_280, 56_230_516];

#[test]
fn start_position_counts() {
    let pos = Position::startpos();
    for (i, &want) in START_COUNTS.iter().enumerate() {
        assert_eq!(perft(&pos, i as u32 + 1), want, "depth {}", i + 1);
    }
}

#[test]
fn brute_force_agrees_from_the_start() {
    let brute = Brute::from_sfen(START);
    for depth in 1..=7 {
        assert_eq!(brute.perft(depth), START_COUNTS[depth as usize - 1], "depth {depth}");
    }
}

/// Compares move sets (as USI text) along pseudo-random playouts from several positions.
#[test]
fn move_sets_agree_on_random_playouts() {
    let starts = [
        START,
        "g1e/1cL/lC1/E1G b - 3",
        "1l1/3/1L1/3 b 2C2E2G 1",
        "1l1/C2/1L1/c2 w EGeg 1",
        "+C1l/3/1L+c/3 b EEgg 9",
        "l2/1C1/3/2L b EGceg 1",
    ];
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    for sfen in starts {
        for _ in 0..200 {
            let mut pos = Position::from_sfen(sfen).unwrap();
            let mut brute = Brute::from_sfen(sfen);
            for _ply in 0..40 {
                let ours: BTreeSet<String> = legal_moves(&pos).iter().map(|&m| move_to_usi(m)).collect();
                let theirs: Vec<(String, Brute)> = brute.moves();
                let their_set: BTreeSet<String> = theirs.iter().map(|m| m.0.clone()).collect();
                assert_eq!(ours, their_set, "{}", pos.to_sfen());
                assert_eq!(ours.len(), theirs.len(), "duplicate moves at {}", pos.to_sfen());
                if theirs.is_empty() {
                    break;
                }
                let (text, next) = &theirs[rng.below(theirs.len())];
                let m = shomei::dobutsu::parse_move(&pos, text).unwrap();
                pos = pos.play(m);
                brute = next.clone();
            }
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    let pos = Position::startpos();
    let (rows, total) = shomei::dobutsu::perft::divide(&pos, 4);
    assert_eq!(rows.len(), 4);
    assert_eq!(total, START_COUNTS[3]);
}

/// Fairy-Stockfish ends the game at a successful Try; its published count from the start.
#[test]
fn try_ending_the_game_matches_fairy_stockfish() {
    use shomei::dobutsu::perft::perft_try_ends;
    let pos = Position::startpos();
    assert_eq!(perft_try_ends(&pos, 5), 8_122, "no Try is possible within 5 plies");
    assert_eq!(perft_try_ends(&pos, 6), 71_677);
}
