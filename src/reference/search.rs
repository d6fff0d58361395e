//! The reference searches on any [`Game`]: plain minimax, fail-hard alpha-beta, and iterative
//! deepening over alpha-beta that a clock, a node limit or a stop flag can interrupt.
//!
//! Scores are from the side to move's point of view: `G::WIN - d` for a win that ends the game
//! `d` plies from the root, `-(G::WIN - d)` for a loss, the game's evaluation otherwise. A
//! position whose side to move wins with its next move ([`Status::WinsNext`]) scores as a win
//! one ply further, at every depth, leaves included.

use super::{Game, Status};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Scores within this distance of `G::WIN` are forced results, not evaluations.
pub const WIN_MARGIN: i32 = 1_000;

/// Whether `score` is a forced win for the side it belongs to.
pub fn is_win<G: Game>(score: i32) -> bool {
    score >= G::WIN - WIN_MARGIN
}

/// Whether `score` is a forced loss.
pub fn is_loss<G: Game>(score: i32) -> bool {
    score <= -(G::WIN - WIN_MARGIN)
}

/// The score of a position that ends play, or wins with its next move, `ply` plies from the
/// root; `None` if play goes on.
#[inline]
fn terminal_score<G: Game>(pos: &G, ply: u32) -> Option<i32> {
    match pos.status() {
        Status::Lost => Some(-(G::WIN - ply as i32)),
        Status::WinsNext => Some(G::WIN - ply as i32 - 1),
        Status::Ongoing => None,
    }
}

/// When an interruptible search gives up: a stop flag, a deadline, a node limit.
pub struct Abort<'a> {
    /// Set by another thread to stop the search; `None` for a search that cannot be stopped.
    stop: Option<&'a AtomicBool>,
    /// When the search gives up, if it has a time limit.
    deadline: Option<Instant>,
    /// After how many nodes the search gives up, if it has a node limit.
    node_limit: Option<u64>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Set once a limit is hit: from then on every `tick` says to give up.
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

/// Plain minimax (negamax, no pruning) to `depth` plies; `ply` counts plies from the root. The
/// reference every other search must match.
pub fn minimax<G: Game>(pos: &G, depth: u32, ply: u32) -> i32 {
    if let Some(s) = terminal_score(pos, ply) {
        return s;
    }
    if depth == 0 {
        return pos.evaluate();
    }
    pos.legal_moves()
        .as_ref()
        .iter()
        .map(|&m| -minimax(&pos.after(m), depth - 1, ply + 1))
        .max()
        .unwrap_or(-(G::WIN - ply as i32))
}

/// Fail-hard alpha-beta (negamax) to `depth` plies in the window (`alpha`, `beta`).
pub fn alphabeta<G: Game>(pos: &G, depth: u32, ply: u32, alpha: i32, beta: i32) -> i32 {
    alphabeta_within(pos, depth, ply, alpha, beta, &mut Abort::never())
}

/// `alphabeta` that gives up when `abort` says so (its value is then meaningless).
fn alphabeta_within<G: Game>(
    pos: &G,
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
        return pos.evaluate();
    }
    let moves = pos.legal_moves();
    if moves.as_ref().is_empty() {
        return -(G::WIN - ply as i32);
    }
    for m in ordered(pos, moves.as_ref()) {
        let s = -alphabeta_within(&pos.after(m), depth - 1, ply + 1, -beta, -alpha, abort);
        if s >= beta {
            return beta;
        }
        alpha = alpha.max(s);
    }
    alpha
}

/// The moves in the game's order (stable: ties keep generation order).
fn ordered<G: Game>(pos: &G, moves: &[G::Move]) -> Vec<G::Move> {
    let mut v = moves.to_vec();
    v.sort_by_key(|&m| pos.order_key(m));
    v
}

/// One completed iteration of [`search_within`].
#[derive(Clone, Copy, Debug)]
pub struct Iteration<M> {
    /// The depth this iteration searched.
    pub depth: u32,
    /// Its best move.
    pub best: M,
    /// That move's score for the side to move.
    pub score: i32,
    /// Nodes searched so far, all iterations together.
    pub nodes: u64,
}

/// The best move by iterative deepening to `depth` plies (so a forced win is taken by its
/// shortest route), with its score; `None` when there is no legal move.
pub fn search<G: Game>(pos: &G, depth: u32) -> Option<(G::Move, i32)> {
    search_within(pos, depth, &mut Abort::never(), &mut |_| true)
}

/// [`search`] that gives up when `abort` says so, returning the best move of the last completed
/// iteration (or the first move in order if none completed). After each iteration `report` is
/// called; it returns whether to go deeper. A root move `root_score` scores `Some` of is not
/// searched but takes that score (a draw the game's history makes of it, say).
pub fn search_within<G: Game>(
    pos: &G,
    depth: u32,
    abort: &mut Abort,
    report: &mut dyn FnMut(Iteration<G::Move>) -> bool,
) -> Option<(G::Move, i32)> {
    search_root(pos, depth, abort, &|_| None, report)
}

/// [`search_within`] where `root_score(m)`, when `Some`, is the score of root move `m` instead of
/// its search (a repetition that ends the game in a draw, say).
pub fn search_root<G: Game>(
    pos: &G,
    depth: u32,
    abort: &mut Abort,
    root_score: &dyn Fn(G::Move) -> Option<i32>,
    report: &mut dyn FnMut(Iteration<G::Move>) -> bool,
) -> Option<(G::Move, i32)> {
    let mut order = ordered(pos, pos.legal_moves().as_ref());
    let mut best: Option<(G::Move, i32)> = order.first().map(|&m| (m, 0));
    for d in 1..=depth.max(1) {
        let mut alpha = -G::WIN - 1;
        let mut iter_best: Option<(G::Move, i32)> = None;
        for &m in &order {
            let s = match root_score(m) {
                Some(s) => s,
                None => -alphabeta_within(&pos.after(m), d - 1, 1, -G::WIN - 1, -alpha, abort),
            };
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
            if is_win::<G>(s) || !deeper {
                break;
            }
        }
    }
    best
}
