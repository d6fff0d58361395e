//! Choosing a move: exact from a solved table when one covers the position, otherwise by a
//! depth-limited alpha-beta search on the same rules.
//!
//! Search scores are from the side to move's point of view: `MATE - d` for a win that ends the
//! game in `d` plies, `-(MATE - d)` for a loss in `d` plies, material and Lion advance otherwise.

use super::movegen::legal_moves;
use super::position::{Kind, Move, Position, Status};
use super::table::{Table, Value};
use crate::types::Color;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The score of a game that is won now; a win in `d` plies scores `MATE - d`.
pub const MATE: i32 = 30_000;
/// Scores at or beyond this magnitude are forced results.
pub const MATE_BOUND: i32 = MATE - 1_000;

/// Why a move was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// From the solved table: the exact value kept by the move, for the side to move.
    Exact(Value),
    /// From the search, at `depth` plies: a score as described in the module docs.
    Search {
        /// The score for the side to move.
        score: i32,
        /// The depth searched, in plies.
        depth: u32,
    },
}

/// A heuristic score for the side to move: material (in hand counts a little more) and how far
/// each Lion has advanced.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = 0;
    for sq in 0..12 {
        if let Some((color, kind)) = pos.piece_at(sq) {
            let v = match kind {
                Kind::Chick => 100,
                Kind::Hen => 300,
                Kind::Elephant => 250,
                Kind::Giraffe => 300,
                Kind::Lion => {
                    // Ranks advanced from the own back rank, 0..3.
                    let adv = if color == Color::Black { 3 - sq / 3 } else { sq / 3 };
                    20 * adv as i32
                }
            };
            score += if color == pos.side_to_move() { v } else { -v };
        }
    }
    for kind in Kind::HAND {
        let v = match kind {
            Kind::Chick => 110,
            Kind::Elephant => 270,
            _ => 320,
        };
        let us = pos.hand_count(pos.side_to_move(), kind) as i32;
        let them = pos.hand_count(!pos.side_to_move(), kind) as i32;
        score += v * (us - them);
    }
    score
}

/// The score of a terminal position `ply` plies from the root, or `None` if play goes on.
#[inline]
fn terminal_score(pos: &Position, ply: u32) -> Option<i32> {
    match pos.status() {
        Status::Lost => Some(-(MATE - ply as i32)),
        Status::CanCatch => Some(MATE - ply as i32 - 1),
        Status::Ongoing => None,
    }
}

/// When an interruptible search gives up: a stop flag, a deadline, a node limit.
pub struct Abort<'a> {
    stop: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// Nodes searched so far.
    pub nodes: u64,
    aborted: bool,
}

impl<'a> Abort<'a> {
    /// A search that runs to its depth.
    pub fn never() -> Abort<'static> {
        Abort { stop: None, deadline: None, node_limit: None, nodes: 0, aborted: false }
    }

    /// A search that gives up when `stop` is set, at `deadline`, or after `node_limit` nodes.
    pub fn new(stop: &'a AtomicBool, deadline: Option<Instant>, node_limit: Option<u64>) -> Abort<'a> {
        Abort { stop: Some(stop), deadline, node_limit, nodes: 0, aborted: false }
    }

    /// Counts a node; true once the search must give up.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if !self.aborted && self.nodes.is_multiple_of(256) {
            self.aborted = self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
                || self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.node_limit.is_some_and(|n| self.nodes >= n);
        }
        self.aborted
    }

    /// Whether the search gave up.
    pub fn aborted(&self) -> bool {
        self.aborted
    }
}

/// Plain fail-hard alpha-beta (negamax) to `depth` plies; `ply` counts plies from the root.
pub fn alphabeta(pos: &Position, depth: u32, ply: u32, alpha: i32, beta: i32) -> i32 {
    alphabeta_within(pos, depth, ply, alpha, beta, &mut Abort::never())
}

/// `alphabeta` that gives up when `abort` says so (its value is then meaningless).
fn alphabeta_within(
    pos: &Position,
    depth: u32,
    ply: u32,
    mut alpha: i32,
    beta: i32,
    abort: &mut Abort,
) -> i32 {
    if abort.tick() {
        return 0;
    }
    if let Some(s) = terminal_score(pos, ply) {
        return s;
    }
    if depth == 0 {
        return evaluate(pos);
    }
    let moves = legal_moves(pos);
    for &m in ordered(pos, &moves).iter() {
        let s = -alphabeta_within(&pos.play(m), depth - 1, ply + 1, -beta, -alpha, abort);
        if s >= beta {
            return beta;
        }
        alpha = alpha.max(s);
    }
    alpha
}

/// Plain minimax (negamax, no pruning) to `depth` plies, the reference `alphabeta` must match.
pub fn minimax(pos: &Position, depth: u32, ply: u32) -> i32 {
    if let Some(s) = terminal_score(pos, ply) {
        return s;
    }
    if depth == 0 {
        return evaluate(pos);
    }
    legal_moves(pos)
        .iter()
        .map(|&m| -minimax(&pos.play(m), depth - 1, ply + 1))
        .max()
        .unwrap_or(-(MATE - ply as i32))
}

/// Captures first (a Lion capture above all), then the rest in generation order.
fn ordered(pos: &Position, moves: &super::MoveList) -> Vec<Move> {
    let mut v: Vec<Move> = moves.as_slice().to_vec();
    v.sort_by_key(|m| match pos.piece_at(m.to as usize) {
        Some((_, Kind::Lion)) => 0,
        Some(_) if !m.is_drop() => 1,
        _ => 2,
    });
    v
}

/// The best move by search to `depth` plies (iterative deepening, so a forced win is taken by
/// its shortest route), with its score; `None` when there is no legal move.
pub fn search(pos: &Position, depth: u32) -> Option<(Move, i32)> {
    search_within(pos, depth, &mut Abort::never(), &mut |_| true)
}

/// One completed iteration of `search_within`.
#[derive(Clone, Copy, Debug)]
pub struct Iteration {
    /// The depth this iteration searched.
    pub depth: u32,
    /// Its best move.
    pub best: Move,
    /// That move's score for the side to move (see the module docs).
    pub score: i32,
    /// Nodes searched so far, all iterations together.
    pub nodes: u64,
}

/// `search` that gives up when `abort` says so, returning the best move of the last completed
/// iteration (or the first legal move if none completed). After each iteration `report` is
/// called; it returns whether to go deeper.
pub fn search_within(
    pos: &Position,
    depth: u32,
    abort: &mut Abort,
    report: &mut dyn FnMut(Iteration) -> bool,
) -> Option<(Move, i32)> {
    let moves = legal_moves(pos);
    let mut order = ordered(pos, &moves);
    let mut best: Option<(Move, i32)> = order.first().map(|&m| (m, 0));
    for d in 1..=depth.max(1) {
        let mut alpha = -MATE - 1;
        let mut iter_best: Option<(Move, i32)> = None;
        for &m in &order {
            let s = -alphabeta_within(&pos.play(m), d - 1, 1, -MATE - 1, -alpha, abort);
            if abort.aborted() {
                return best;
            }
            if iter_best.is_none_or(|(_, b)| s > b) {
                iter_best = Some((m, s));
                alpha = alpha.max(s);
            }
        }
        best = iter_best;
        if let Some((bm, s)) = best {
            // Best move first at the next depth; a proven win cannot get shorter.
            order.retain(|&m| m != bm);
            order.insert(0, bm);
            let deeper = report(Iteration { depth: d, best: bm, score: s, nodes: abort.nodes });
            if s >= MATE_BOUND || !deeper {
                break;
            }
        }
    }
    best
}

/// The move to play: exact from `table` when it covers the position and all its successors,
/// otherwise from a search to `depth` plies. `None` when there is no legal move.
pub fn choose_move(pos: &Position, table: Option<&Table>, depth: u32) -> Option<(Move, Outcome)> {
    if let Some((m, v)) = table.and_then(|t| t.best_move(pos)) {
        return Some((m, Outcome::Exact(v)));
    }
    search(pos, depth).map(|(m, score)| (m, Outcome::Search { score, depth }))
}
