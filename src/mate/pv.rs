//! Reading the mating line out of a proof, by tsume conventions, and checking it.
//!
//! The walk starts at the root with the proven length as a bound and goes down one move at a
//! time, every step to a position proven within a strictly smaller bound (so it ends):
//!
//! - **Attacker:** the check whose position is proven with the fewest plies.
//! - **Defender:** the evasion that resists longest, measured by the proven length of the
//!   attacker's position after it, **not counting useless interpositions** (rule below). When
//!   every evasion is a useless interposition, the conventional answer would stop before them; the
//!   line must still end in an actual checkmate, so the defender then plays the useless
//!   interposition that leads to the shortest finish.
//! - **Exact lengths.** A proof's length is only an upper bound of the shortest mate. When the
//!   refinement budget allows, the root's length is shortened (search again limited to two plies
//!   fewer, until that fails), and at a defender node each candidate that could beat the best so
//!   far is shortened the same way (branch and bound). The attacker then needs no extra search:
//!   at an exactly known bound, a child proven within bound - 1 is a shortest one.
//! - Positions whose proof left the table (garbage collection) are proven again, within the
//!   current bound.
//!
//! **Useless interposition (無駄合) rule implemented.** At a defender node in check from a single
//! slider at a distance, a *drop* on a square between king and checker, of kind `k`, is useless
//! when the attacker can capture the dropped piece on that square with a check, and the position
//! after that capture is a mate even with `k` handed back to the defender, i.e. proven with the
//! attacker's hand from *before* the interposition. The interposition and the capture then only
//! add two plies: the attacker never needs the piece. Interpositions by moving a piece on the
//! board (移動合) always count as defences.
//!
//! The finished line is verified move by move with the rules code: every move legal, every
//! attacker move a check, and the defender mated (in check, no legal move) at the end.

use super::dfpn::{Budget, Outcome, Sample, Solver};
use super::moves::{generate_checks, generate_evasions, has_evasion};
use super::tt::{Probe, UNLIMITED};
use crate::shogi::attacks::between;
use crate::shogi::movegen::MoveList;
use crate::shogi::sfen::hands_sfen;
use crate::shogi::{Position, SfenMode};
use crate::types::{Color, Hand, Move, PieceKind};

/// Budgets of the walk: `refine` for optional exactness searches, `hard` for the searches the
/// walk cannot do without (re-proving positions that left the table).
pub(crate) struct Walk<'a, 'b, 't> {
    /// The solver whose table holds the proof, and which runs the walk's searches.
    pub solver: &'a mut Solver<'t>,
    /// Budget of the optional searches that make lengths exact and test interpositions.
    pub refine: Budget<'b>,
    /// Budget of the searches the walk needs: proving again what left the table.
    pub hard: Budget<'b>,
    /// The side that mates.
    pub attacker: Color,
    /// Whether to shorten lengths and test interpositions (off for the plain fallback walk).
    pub exact: bool,
    /// Progress reports of the searches the walk runs.
    pub report: &'a mut dyn FnMut(Sample),
}

impl Walk<'_, '_, '_> {
    /// The attacker's hand in `pos`: the hand the table's entries are keyed by.
    fn hand(&self, pos: &Position) -> Hand {
        pos.hand(self.attacker)
    }

    /// A search under the hard or the refinement budget. A hard search re-proves a position whose
    /// children left the table, so it does not stop at the root's own entry.
    pub fn run_search(&mut self, pos: &mut Position, or_root: bool, limit: u16, hard: bool) -> Outcome {
        let budget = if hard { &self.hard } else { &self.refine };
        let b = Budget { stop: budget.stop, deadline: budget.deadline, node_limit: budget.node_limit };
        self.solver.search(pos, or_root, limit, &b, self.report, !hard)
    }

    /// Whether the refinement budget has anything left: not stopped, under its node limit and before
    /// its deadline.
    pub fn refine_left(&self) -> bool {
        if self.refine.stop.load(std::sync::atomic::Ordering::Relaxed) {
            return false;
        }
        if let Some(n) = self.refine.node_limit {
            if self.solver.nodes >= n {
                return false;
            }
        }
        if let Some(d) = self.refine.deadline {
            if std::time::Instant::now() >= d {
                return false;
            }
        }
        true
    }

    /// The proven length of `pos` (attacker to move if `or_node`) within `limit`, proving it
    /// again if the table lost it.
    fn proven_len(&mut self, pos: &mut Position, or_node: bool, limit: u16) -> Option<u16> {
        let key = pos.board_key();
        let hand = self.hand(pos);
        if let Probe::Proven { len, .. } = self.solver.tt.probe(key, hand, limit) {
            return Some(len);
        }
        match self.run_search(pos, or_node, limit, true) {
            Outcome::Proven { len, .. } => Some(len),
            _ => None,
        }
    }

    /// Shortens the proven length `len` of `pos` as far as the refinement budget allows.
    pub fn shorten(&mut self, pos: &mut Position, or_node: bool, mut len: u16) -> u16 {
        if !self.exact {
            return len;
        }
        while len >= 2 && self.refine_left() {
            match self.run_search(pos, or_node, len - 2, false) {
                Outcome::Proven { len: l, .. } if l < len => len = l,
                _ => break,
            }
        }
        len
    }

    /// Whether the evasion `e` of the defender (to move in `pos`) is a useless interposition.
    fn useless_interposition(&mut self, pos: &mut Position, e: Move) -> bool {
        if !e.is_drop() {
            return false;
        }
        let def = pos.side_to_move();
        let checkers = pos.checkers();
        if checkers.more_than_one() || !between(pos.king_square(def), checkers.lsb()).contains(e.to()) {
            return false;
        }
        let k = e.dropped_kind();
        let before = self.hand(pos);
        pos.do_move(e);
        let mut captures = MoveList::new();
        generate_checks(pos, &mut captures);
        let mut useless = false;
        for &x in captures.iter() {
            if x.is_drop() || x.to() != e.to() {
                continue;
            }
            pos.do_move(x);
            useless = match self.solver.tt.probe(pos.board_key(), before, UNLIMITED) {
                Probe::Proven { .. } => true,
                _ => self.prove_with_piece_returned(pos, k),
            };
            pos.undo_move();
            if useless {
                break;
            }
        }
        pos.undo_move();
        useless
    }

    /// Whether the defender-to-move `pos` is still a mate after one `k` goes from the attacker's
    /// hand back to the defender's.
    fn prove_with_piece_returned(&mut self, pos: &Position, k: PieceKind) -> bool {
        if !self.refine_left() {
            return false;
        }
        let def = pos.side_to_move();
        let mut att_hand = pos.hand(self.attacker);
        let mut def_hand = pos.hand(def);
        if !att_hand.has(k) {
            return false;
        }
        att_hand.remove(k);
        def_hand.add(k);
        let sfen = sfen_with_hands(pos, self.attacker, att_hand, def_hand);
        let Ok(mut b) = Position::from_sfen_mode(&sfen, SfenMode::Composed) else { return false };
        matches!(self.run_search(&mut b, false, UNLIMITED, false), Outcome::Proven { .. })
    }

    /// Walks the line from `root` (attacker to move, proven within `bound` plies).
    pub fn walk(&mut self, root: &Position, mut bound: u16) -> Option<Vec<Move>> {
        let mut pos = root.clone();
        let mut line = Vec::new();
        loop {
            let or_node = line.len() % 2 == 0;
            if or_node {
                if bound == 0 {
                    return None;
                }
                let mut list = MoveList::new();
                generate_checks(&pos, &mut list);
                let mut best: Option<(u16, Move)> = None;
                for attempt in 0..2 {
                    for &m in list.iter() {
                        pos.do_move(m);
                        let probe = if has_evasion(&pos) {
                            self.solver.tt.probe(pos.board_key(), self.hand(&pos), bound - 1)
                        } else {
                            Probe::Proven { len: 0, hand: Hand::EMPTY }
                        };
                        if let Probe::Proven { len, .. } = probe {
                            if best.is_none_or(|(l, _)| len < l) {
                                best = Some((len, m));
                            }
                        }
                        pos.undo_move();
                    }
                    if best.is_some() || attempt == 1 {
                        break;
                    }
                    // The proof left the table: prove this position again.
                    if !matches!(self.run_search(&mut pos, true, bound, true), Outcome::Proven { .. }) {
                        return None;
                    }
                }
                let (len, m) = best?;
                line.push(m);
                pos.do_move(m);
                bound = len;
            } else {
                let mut list = MoveList::new();
                generate_evasions(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                if bound == 0 {
                    return None;
                }
                let mut cands: Vec<(u16, Move)> = Vec::with_capacity(list.len());
                for &e in list.iter() {
                    pos.do_move(e);
                    let len = self.proven_len(&mut pos, true, bound - 1);
                    pos.undo_move();
                    cands.push((len?, e));
                }
                // Longest first; board moves before drops among equals.
                cands.sort_by_key(|&(l, m)| (std::cmp::Reverse(l), m.is_drop(), m.raw()));
                let mut best: Option<(u16, Move)> = None;
                let mut all_useless = true;
                for &(stored, e) in &cands {
                    if best.is_some_and(|(b, _)| stored <= b) {
                        all_useless = false;
                        break;
                    }
                    if self.exact && self.useless_interposition(&mut pos, e) {
                        continue;
                    }
                    all_useless = false;
                    pos.do_move(e);
                    let exact = self.shorten(&mut pos, true, stored);
                    pos.undo_move();
                    if best.is_none_or(|(b, _)| exact > b) {
                        best = Some((exact, e));
                    }
                }
                let (len, e) = if all_useless && best.is_none() {
                    *cands.iter().min_by_key(|&&(l, m)| (l, m.raw()))?
                } else {
                    best?
                };
                line.push(e);
                pos.do_move(e);
                bound = len;
            }
        }
        Some(line)
    }
}

/// The SFEN of `pos` with the attacker's and defender's hands replaced.
fn sfen_with_hands(pos: &Position, attacker: Color, att: Hand, def: Hand) -> String {
    let sfen = pos.to_sfen();
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let (black, white) = if attacker == Color::Black { (att, def) } else { (def, att) };
    format!("{} {} {} 1", fields[0], fields[1], hands_sfen(black, white))
}

/// Whether `line` is a mate from `root` by the rules: the attacker (side to move) checks with
/// every move, every move is legal, and the defender is mated at the end.
pub fn verify_line(root: &Position, line: &[Move]) -> bool {
    if line.is_empty() || line.len().is_multiple_of(2) {
        return false;
    }
    let mut pos = root.clone();
    for (i, &m) in line.iter().enumerate() {
        if !pos.is_legal(m) || !pos.legal_moves().contains(m) {
            return false;
        }
        if i % 2 == 0 && !pos.gives_check(m) {
            return false;
        }
        pos.do_move(m);
    }
    pos.in_check() && pos.is_mated()
}
