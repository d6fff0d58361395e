//! Speed of the static evaluation, computed from scratch, over positions reached by seeded random
//! play from the start position. Run with `cargo bench --bench eval`.
//!
//! Prints nanoseconds per call for the opening, middlegame and late plies separately: the fastest
//! of many short timed rounds (the least disturbed by other processes on a shared machine) and the
//! median round.

#[path = "../tests/common/rng.rs"]
mod rng;

use rng::Rng;
use std::hint::black_box;
use std::time::Instant;

use shomei::eval::evaluate;
use shomei::{Move, Position};

/// Random games per game phase, positions kept per phase, and timed rounds per set. A few hundred
/// positions stay in the cache, as the one position a search evaluates does.
const GAMES: usize = 400;
const KEEP: usize = 500;
const ROUNDS: usize = 61;
/// Calls per round: a round takes a few milliseconds, shorter than a scheduler time slice.
const CALLS_PER_ROUND: usize = 20_000;

/// Random games where captures are preferred half of the time, as in a game where material
/// changes hands; the positions at plies in `[lo, hi)` are kept.
fn positions(seed: u64, lo: usize, hi: usize) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..GAMES {
        let mut p = Position::startpos();
        for ply in 0..hi {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<Move> = moves.iter().copied().filter(|&m| p.is_capture(m)).collect();
            let m = if !captures.is_empty() && rng.next() & 1 == 0 {
                captures[rng.index(captures.len())]
            } else {
                moves.as_slice()[rng.index(moves.len())]
            };
            p.do_move(m);
            if ply + 1 >= lo {
                // Keep the position only, not the history the search would not copy either.
                out.push(Position::from_sfen(&p.to_sfen()).expect("a reached position is valid"));
            }
        }
    }
    // An even sample across the games.
    let step = out.len().div_ceil(KEEP);
    out.into_iter().step_by(step).collect()
}

/// Fastest and median nanoseconds per `evaluate` call over the set, and a checksum of the results.
fn measure(set: &[Position]) -> (f64, f64, i64) {
    let mut times = Vec::with_capacity(ROUNDS);
    let mut checksum = 0i64;
    for _ in 0..ROUNDS {
        let start = Instant::now();
        let mut i = 0;
        for _ in 0..CALLS_PER_ROUND {
            checksum += evaluate(black_box(&set[i])) as i64;
            i += 1;
            if i == set.len() {
                i = 0;
            }
        }
        times.push(start.elapsed().as_secs_f64() * 1e9 / CALLS_PER_ROUND as f64);
    }
    times.sort_by(f64::total_cmp);
    (times[0], times[ROUNDS / 2], checksum)
}

fn main() {
    let sets = [
        ("opening (plies 1-20)", positions(1, 1, 20)),
        ("middlegame (plies 30-80)", positions(2, 30, 80)),
        ("late (plies 100-150)", positions(3, 100, 150)),
    ];
    println!("{:<26} {:>6} {:>14} {:>14}", "positions", "count", "ns/eval (best)", "ns/eval (median)");
    for (name, set) in &sets {
        let (best, median, checksum) = measure(set);
        black_box(checksum);
        println!("{name:<26} {:>6} {best:>14.1} {median:>14.1}", set.len());
    }
}
