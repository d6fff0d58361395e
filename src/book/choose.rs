//! Choosing a book move, with YaneuraOu's options and their meanings: how far into the game the
//! book is used (`BookMoves`), how often it is skipped (`BookIgnoreRate`), how deep its first
//! move must have been searched (`BookDepthLimit`), which moves are good enough
//! (`BookEvalDiff`, `BookEvalBlackLimit`, `BookEvalWhiteLimit`) and how one is drawn among them
//! (uniformly, or by count with `ConsiderBookMoveCount`).

use super::{Book, BookMove};
use crate::rng::Rng;
use crate::shogi::Position;
use crate::types::{Color, Move};

/// The book options that decide whether and how a book move is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookPolicy {
    /// `BookMoves`: use the book while the game ply (1 at the start) is at most this.
    pub max_ply: u32,
    /// `BookIgnoreRate`: the per cent of moves played without the book.
    pub ignore_rate: u32,
    /// `BookEvalDiff`: only moves scored within this of the first move's score.
    pub eval_diff: i32,
    /// `BookEvalBlackLimit`: with Black to move, only moves scored at least this.
    pub black_limit: i32,
    /// `BookEvalWhiteLimit`: with White to move, only moves scored at least this.
    pub white_limit: i32,
    /// `BookDepthLimit`: the position counts as out of the book when its first move was
    /// searched less deep than this (0: no limit).
    pub depth_limit: i32,
    /// `ConsiderBookMoveCount`: draw moves in proportion to their count, not uniformly.
    pub consider_count: bool,
    /// `BookPvMoves`: how long a line the book move is shown with.
    pub pv_moves: usize,
    /// `FlippedBook`: use the colour-flipped position's entry when the position has none.
    pub flipped: bool,
}

impl Default for BookPolicy {
    /// YaneuraOu's defaults.
    fn default() -> Self {
        BookPolicy {
            max_ply: 16,
            ignore_rate: 0,
            eval_diff: 30,
            black_limit: 0,
            white_limit: -140,
            depth_limit: 16,
            consider_count: false,
            pv_moves: 8,
            flipped: true,
        }
    }
}

/// The book's answer for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookChoice {
    /// The move chosen, with its book fields.
    pub chosen: BookMove,
    /// The reply to expect: the entry's ponder move, or else the book's first move in the
    /// position after the chosen one. Legal there.
    pub ponder: Option<Move>,
    /// The line to show: the chosen move, the ponder move, then the book's first moves on.
    pub pv: Vec<Move>,
    /// How many moves it was drawn from.
    pub candidates: usize,
    /// The sum of the candidates' counts (for the chosen one's share).
    pub total_count: u64,
}

/// What a probe found, with what the GUI should be told on the way.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BookProbe {
    /// The move to play, if the book has one.
    pub choice: Option<BookChoice>,
    /// Why the book was passed over or what it skipped, one line each (for `info string`).
    pub notes: Vec<String>,
}

/// The legal moves the book has for `pos`, sorted (see `super::sort_moves`); illegal ones are
/// dropped with a note.
fn legal_book_moves(
    book: &mut Book,
    pos: &Position,
    flipped: bool,
    notes: &mut Vec<String>,
) -> Option<Vec<BookMove>> {
    let moves = book.moves_for(pos, flipped)?;
    let (legal, illegal): (Vec<BookMove>, Vec<BookMove>) =
        moves.into_iter().partition(|m| pos.is_legal(m.mv));
    if !illegal.is_empty() {
        let list: Vec<String> = illegal.iter().map(|m| m.mv.to_string()).collect();
        notes.push(format!("book: skipped moves not legal in {}: {}", pos.to_sfen(), list.join(" ")));
    }
    Some(legal)
}

/// The first (most played, then best scored) legal book move of `pos`, for the shown line.
fn first_legal(book: &mut Book, pos: &Position, flipped: bool) -> Option<Move> {
    book.moves_for(pos, flipped)?.into_iter().map(|m| m.mv).find(|&m| pos.is_legal(m))
}

/// Draws one of `moves` (not empty): uniformly, or in proportion to count (moves of count 0
/// only when every count is 0).
fn draw(moves: &[BookMove], by_count: bool, rng: &mut Rng) -> BookMove {
    let total: u64 = moves.iter().map(|m| m.count).sum();
    if !by_count || total == 0 {
        return moves[rng.below(moves.len())];
    }
    let mut ticket = ((rng.next_u64() as u128 * total as u128) >> 64) as u64;
    for m in moves {
        if ticket < m.count {
            return *m;
        }
        ticket -= m.count;
    }
    moves[moves.len() - 1]
}

/// The book move to play in `pos` under `policy`, drawn with `rng`, or why there is none.
pub fn choose(book: &mut Book, pos: &Position, policy: &BookPolicy, rng: &mut Rng) -> BookProbe {
    let mut probe = BookProbe::default();
    if pos.game_ply() > policy.max_ply {
        return probe;
    }
    if policy.ignore_rate > 0 && rng.chance(policy.ignore_rate) {
        probe.notes.push(format!("book: not used this move (BookIgnoreRate {})", policy.ignore_rate));
        return probe;
    }
    let Some(moves) = legal_book_moves(book, pos, policy.flipped, &mut probe.notes) else {
        return probe;
    };
    let Some(first) = moves.first().copied() else {
        return probe;
    };
    if first.depth < policy.depth_limit {
        probe.notes.push(format!(
            "book: depth {} of the first move is below BookDepthLimit {}; searching",
            first.depth, policy.depth_limit
        ));
        return probe;
    }
    let side_limit = if pos.side_to_move() == Color::Black { policy.black_limit } else { policy.white_limit };
    let limit = first.value.saturating_sub(policy.eval_diff).max(side_limit);
    let good: Vec<BookMove> = moves.iter().copied().filter(|m| m.value >= limit).collect();
    if good.len() < moves.len() {
        probe.notes.push(format!(
            "book: {} of {} moves scored at least {limit} (BookEvalDiff {}, limit {side_limit})",
            good.len(),
            moves.len(),
            policy.eval_diff
        ));
    }
    if good.is_empty() {
        return probe;
    }
    let chosen = draw(&good, policy.consider_count, rng);
    let mut after = pos.clone();
    after.do_move(chosen.mv);
    let ponder =
        chosen.ponder.filter(|&p| after.is_legal(p)).or_else(|| first_legal(book, &after, policy.flipped));
    let pv = book_line(book, &after, chosen.mv, ponder, policy);
    probe.choice = Some(BookChoice {
        chosen,
        ponder,
        pv,
        candidates: good.len(),
        total_count: good.iter().map(|m| m.count).sum(),
    });
    probe
}

/// The line shown with a book move: the move, the ponder move, then the book's first move in
/// each position on, up to `BookPvMoves` moves, stopping where the book ends or a position
/// repeats.
fn book_line(
    book: &mut Book,
    after: &Position,
    mv: Move,
    ponder: Option<Move>,
    policy: &BookPolicy,
) -> Vec<Move> {
    let mut pv = vec![mv];
    let Some(p) = ponder else { return pv };
    let mut pos = after.clone();
    let mut next = Some(p);
    let mut seen = vec![pos.key()];
    while let Some(m) = next.filter(|_| pv.len() < policy.pv_moves.max(1)) {
        pv.push(m);
        pos.do_move(m);
        if seen.contains(&pos.key()) {
            break;
        }
        seen.push(pos.key());
        next = first_legal(book, &pos, policy.flipped);
    }
    pv.truncate(policy.pv_moves.max(1));
    pv
}
