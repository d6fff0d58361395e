//! Move-ordering memory of one search thread: killers, counter-moves and history scores; and,
//! beside them, the evaluation's correction history.

use super::correction::{last_move_slot, CorrectionHistory};
use super::params::{history_bonus, HISTORY_BONUS_CAP, HISTORY_MAX};
use super::value::MAX_PLY;
use crate::shogi::Position;
use crate::types::{Color, Move, Piece};

/// Board origins 0..81, then one slot per dropped kind.
const FROM_SLOTS: usize = 81 + 16;

/// The butterfly table's origin slot of a move: its square, or past the 81 squares its dropped kind.
fn from_slot(m: Move) -> usize {
    if m.is_drop() {
        81 + m.dropped_kind().index()
    } else {
        m.from().index()
    }
}

/// One search thread's move-ordering scores, kept from one search to the next (`ucinewgame` clears
/// them).
pub struct History {
    /// Quiet-move scores by side, origin (or dropped kind) and destination.
    butterfly: Vec<Score>,
    /// The quiet move that last refuted a given (piece, destination) of the opponent.
    counter: Vec<Move>,
    /// Two quiet moves per ply that were best at sibling nodes (beta cutoffs, and PV nodes).
    killers: [[Move; 2]; MAX_PLY + 4],
    /// Quiet-move scores given the opponent's previous move: (its piece kind and destination)
    /// by (our moving kind and destination). Colours follow from the side to move.
    continuation: Vec<Score>,
    /// The same given our own previous move (two plies back): which follow-ups work.
    follow_up: Vec<Score>,
    /// Capture (and promotion) scores by the piece put down, destination and captured kind (slot 0
    /// for a promotion that captures nothing): which captures have refuted, beyond their victim.
    capture: Vec<Score>,
    /// Corrections to the static evaluation learnt from earlier searches (kept here because,
    /// like the move scores, they carry over from one search to the next).
    pub correction: CorrectionHistory,
}

/// A stored history score. Scores stay within about +-HISTORY_MAX (16,384), so 16 bits hold
/// them: half the memory of 32, and the two continuation tables, 3 MB each, meet the cache more
/// often. Arithmetic is done in `i32`.
type Score = i16;

// A nudge moves a score by at most the bonus cap, and never past the bound by more than one.
const _: () = assert!(HISTORY_MAX + HISTORY_BONUS_CAP <= i16::MAX as i32);

/// Kinds index 1..=14; slot 0 stands for "no previous move".
const KIND_SLOTS: usize = 15;

/// The kind that a quiet move moves (or drops).
#[inline]
fn moving_kind(pos: &Position, m: Move) -> usize {
    if m.is_drop() {
        m.dropped_kind().index()
    } else {
        pos.piece_on(m.from()).kind().index()
    }
}

/// Index of the previous move's (kind, destination), or `None` at the root or after a null move.
#[inline]
fn previous_slot(pos: &Position) -> Option<usize> {
    let prev = pos.last_move()?;
    Some(pos.piece_on(prev.to()).kind().index() * 81 + prev.to().index())
}

/// Index of our own previous move's (kind, destination), two plies back.
#[inline]
fn own_previous_slot(pos: &Position) -> Option<usize> {
    let (m, piece) = pos.own_previous_move()?;
    Some(piece.kind().index() * 81 + m.to().index())
}

/// The rows of the two continuation tables that a node's quiet moves fall in (the opponent's
/// last move and our own previous one), found once for all the moves scored or updated together.
#[derive(Clone, Copy)]
pub struct ContinuationRows {
    /// Row of the opponent's last move in `continuation`; `None` at the root or after a null move.
    opponent: Option<usize>,
    /// Row of our own move two plies back in `follow_up`; `None` where there is none.
    own: Option<usize>,
}

impl ContinuationRows {
    /// The rows for the side to move at `pos`.
    #[inline]
    pub fn of(pos: &Position) -> ContinuationRows {
        ContinuationRows { opponent: previous_slot(pos), own: own_previous_slot(pos) }
    }
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

impl History {
    /// Empty tables: every score 0, no killers or counter-moves.
    pub fn new() -> History {
        History {
            butterfly: vec![0; 2 * FROM_SLOTS * 81],
            counter: vec![Move::NONE; Piece::COUNT * 81],
            killers: [[Move::NONE; 2]; MAX_PLY + 4],
            continuation: vec![0; KIND_SLOTS * 81 * KIND_SLOTS * 81],
            follow_up: vec![0; KIND_SLOTS * 81 * KIND_SLOTS * 81],
            capture: vec![0; Piece::COUNT * 81 * KIND_SLOTS],
            correction: CorrectionHistory::default(),
        }
    }

    /// A quiet move's column in the continuation tables: its (moving kind, destination).
    #[inline]
    fn continuation_column(pos: &Position, m: Move) -> usize {
        moving_kind(pos, m) * 81 + m.to().index()
    }

    /// Flat index of (row, column) in a continuation table of `KIND_SLOTS * 81` columns a row.
    #[inline]
    fn continuation_index(row: usize, column: usize) -> usize {
        row * KIND_SLOTS * 81 + column
    }

    /// The ordering score of a quiet move: butterfly history plus the continuation histories of
    /// the opponent's last move and of our own previous one.
    #[inline]
    pub fn quiet_score(&self, pos: &Position, m: Move) -> i32 {
        self.quiet_score_in(ContinuationRows::of(pos), pos, m)
    }

    /// `quiet_score` with the node's continuation rows found beforehand, for scoring many moves.
    #[inline]
    pub fn quiet_score_in(&self, rows: ContinuationRows, pos: &Position, m: Move) -> i32 {
        let column = Self::continuation_column(pos, m);
        let mut score = self.score(pos.side_to_move(), m);
        if let Some(row) = rows.opponent {
            score += self.continuation[Self::continuation_index(row, column)] as i32;
        }
        if let Some(row) = rows.own {
            score += self.follow_up[Self::continuation_index(row, column)] as i32;
        }
        score
    }

    /// Flat index of a move in `butterfly`: (side, origin slot, destination).
    #[inline]
    fn index(c: Color, m: Move) -> usize {
        (c.index() * FROM_SLOTS + from_slot(m)) * 81 + m.to().index()
    }

    /// The butterfly score of `m` played by `c`.
    #[inline]
    pub fn score(&self, c: Color, m: Move) -> i32 {
        self.butterfly[History::index(c, m)] as i32
    }

    /// Moves the score toward the bonus's sign, more slowly the larger it already is, so it
    /// stays within +-HISTORY_MAX.
    fn nudge(entry: &mut Score, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_BONUS_CAP, HISTORY_BONUS_CAP);
        let old = *entry as i32;
        *entry = (old + bonus - old * bonus.abs() / HISTORY_MAX) as Score;
    }

    /// Moves a quiet move's butterfly and continuation scores by `bonus`.
    fn nudge_quiet(&mut self, pos: &Position, rows: ContinuationRows, m: Move, bonus: i32) {
        Self::nudge(&mut self.butterfly[History::index(pos.side_to_move(), m)], bonus);
        let column = Self::continuation_column(pos, m);
        if let Some(row) = rows.opponent {
            Self::nudge(&mut self.continuation[Self::continuation_index(row, column)], bonus);
        }
        if let Some(row) = rows.own {
            Self::nudge(&mut self.follow_up[Self::continuation_index(row, column)], bonus);
        }
    }

    /// Flat index in `capture` of a capture or promotion: (piece after the move, destination, captured
    /// kind or 0).
    #[inline]
    fn capture_index(pos: &Position, m: Move) -> usize {
        let victim = pos.piece_on(m.to());
        let captured = if victim.is_some() { victim.kind().index() } else { 0 };
        (pos.moved_piece_after(m).index() * 81 + m.to().index()) * KIND_SLOTS + captured
    }

    /// The history score of a capture or promotion (not a drop).
    #[inline]
    pub fn capture_score(&self, pos: &Position, m: Move) -> i32 {
        self.capture[Self::capture_index(pos, m)] as i32
    }

    /// Rewards the best move of a node (a cutoff, or the move that raised alpha at a PV node) when
    /// it is a capture or promotion (`best`), and penalises the other captures and promotions tried.
    pub fn update_captures(&mut self, pos: &Position, best: Option<Move>, tried: &[Move], depth: i32) {
        let bonus = history_bonus(depth);
        if let Some(b) = best {
            Self::nudge(&mut self.capture[Self::capture_index(pos, b)], bonus);
        }
        for &m in tried {
            if Some(m) != best {
                Self::nudge(&mut self.capture[Self::capture_index(pos, m)], -bonus);
            }
        }
    }

    /// Penalises the quiet moves tried at a node whose best move was a capture or promotion.
    pub fn penalize_quiets(&mut self, pos: &Position, tried: &[Move], depth: i32) {
        let malus = -history_bonus(depth);
        let rows = ContinuationRows::of(pos);
        for &m in tried {
            self.nudge_quiet(pos, rows, m, malus);
        }
    }

    /// Rewards the opponent's last move, a quiet one, for having left the side to move no move
    /// that reaches alpha: by the cutoff bonus of `depth` (the depth of the node that failed low),
    /// in the opponent's butterfly table and in its continuation table after our move before it.
    /// The parent's own update may reward the move again; this one also reaches it where the
    /// parent searched it reduced and then again in full.
    pub fn reward_previous_quiet(&mut self, pos: &Position, depth: i32) {
        let Some(prev) = pos.last_move() else { return };
        if pos.last_captured().is_some() || prev.is_promotion() {
            return;
        }
        let bonus = history_bonus(depth);
        Self::nudge(&mut self.butterfly[History::index(!pos.side_to_move(), prev)], bonus);
        // The opponent's continuation row is our move two plies back; its column, the last
        // move's (kind, destination), which is its previous slot: a quiet move that does not
        // promote left the kind it moved there.
        if let (Some(row), Some(column)) = (own_previous_slot(pos), previous_slot(pos)) {
            Self::nudge(&mut self.continuation[Self::continuation_index(row, column)], bonus);
        }
    }

    /// The two killer moves of `ply`, the newer first (`Move::NONE` where unset).
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// The counter-move to the previous move (by the opponent), if any.
    pub fn counter_move(&self, pos: &Position) -> Move {
        last_move_slot(pos).map_or(Move::NONE, |i| self.counter[i])
    }

    /// Rewards the best move of a node, a quiet one (a cutoff, or the move that raised alpha at a PV
    /// node), and penalises the other quiet moves tried.
    pub fn update_quiet(&mut self, pos: &Position, ply: usize, best: Move, tried: &[Move], depth: i32) {
        let bonus = history_bonus(depth);
        let rows = ContinuationRows::of(pos);
        self.nudge_quiet(pos, rows, best, bonus);
        for &m in tried {
            if m != best {
                self.nudge_quiet(pos, rows, m, -bonus);
            }
        }
        let k = &mut self.killers[ply];
        if k[0] != best {
            k[1] = k[0];
            k[0] = best;
        }
        if let Some(i) = last_move_slot(pos) {
            self.counter[i] = best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::movegen::{generate, GenType, MoveList};

    #[test]
    fn nudged_scores_stay_within_the_bound() {
        for bonus in [1, 7, 700, 2_345, HISTORY_BONUS_CAP, 2 * HISTORY_BONUS_CAP] {
            for sign in [1, -1] {
                let mut entry: Score = 0;
                for _ in 0..10_000 {
                    History::nudge(&mut entry, sign * bonus);
                    assert!((entry as i32).abs() <= HISTORY_MAX + 1, "{bonus} {sign}: {entry}");
                }
                // Pushed back the other way, it comes down again.
                History::nudge(&mut entry, -sign * bonus);
                assert!((entry as i32).abs() < HISTORY_MAX);
            }
        }
    }

    #[test]
    fn a_refuting_capture_rises_and_the_captures_tried_before_it_fall() {
        // Black's silver on 5e can take any of the pawns on 6d, 5d and 4d.
        let pos = Position::from_sfen("lnsgkgsnl/1r5b1/ppp3ppp/3ppp3/4S4/9/PPPPPPPPP/1B5R1/LN1GKGSNL b - 1")
            .unwrap();
        let mut list = MoveList::new();
        generate(&pos, GenType::CapturesPromotions, &mut list);
        let captures: Vec<Move> = list.iter().copied().filter(|&m| pos.is_capture(m)).collect();
        assert!(captures.len() >= 2, "the test position needs two captures: {captures:?}");
        let (first, best) = (captures[0], captures[1]);
        let mut h = History::new();
        h.update_captures(&pos, Some(best), &[first, best], 8);
        assert!(h.capture_score(&pos, best) > 0);
        assert!(h.capture_score(&pos, first) < 0);
        // A quiet cutoff only penalises the captures tried before it.
        let before = h.capture_score(&pos, best);
        h.update_captures(&pos, None, &[best], 8);
        assert!(h.capture_score(&pos, best) < before);
    }

    #[test]
    fn a_quiet_move_that_leaves_no_good_reply_is_rewarded_where_it_was_chosen() {
        // After 7g7f 3c3d, Black's 2g2f is quiet; White's node after it failed low.
        let mut pos = Position::from_usi_args(&["startpos", "moves", "7g7f", "3c3d"]).unwrap();
        let quiet = pos.parse_move("2g2f").unwrap();
        let mut h = History::new();
        let (butterfly, whole) = (h.score(Color::Black, quiet), h.quiet_score(&pos, quiet));
        pos.do_move(quiet);
        h.reward_previous_quiet(&pos, 6);
        pos.undo_move();
        // Black's butterfly score and its continuation score after 3c3d each rose by the bonus.
        assert_eq!(h.score(Color::Black, quiet) - butterfly, history_bonus(6));
        assert_eq!(h.quiet_score(&pos, quiet) - whole, 2 * history_bonus(6));

        // A capture that leaves no good reply is not a quiet move's doing: nothing changes; nor
        // is a promotion: it changes the piece the continuation tables know it by.
        let mut h = History::new();
        for m in ["8h2b", "8h2b+"] {
            let m = pos.parse_move(m).unwrap();
            pos.do_move(m);
            h.reward_previous_quiet(&pos, 6);
            pos.undo_move();
        }
        assert!(h.butterfly.iter().chain(&h.continuation).all(|&s| s == 0));
    }
}
