//! Mate in one: is there a checking move after which the defender has no legal move?
//!
//! Every legal check is a candidate (drops and board moves alike) except pawn drops, which can
//! never mate legally. Most are rejected without making the move: before the scan we collect the
//! squares next to the enemy king it could step to now (`escapes`). A check can only mate if,
//! after it, each of those squares is attacked or occupied by the checking piece, or lies on a
//! line through the square it left (an over-approximation of lines it uncovers). A drop on one of
//! those squares is rejected (the king takes it), and so is any check from a distance by a piece
//! that uncovers no line, drop or board move, when the defender holds a piece (other than a pawn)
//! it could drop in between. Candidates that pass are made, and the defender's replies are looked
//! for with the early-exit `has_evasion`. Every rejection is exact (none rejects a mate), so the
//! test finds a mate whenever one exists.

use super::moves::{generate_mating_candidates, has_evasion, pawn_files};
use crate::shogi::attacks::{self, between, masks};
use crate::shogi::movegen::MoveList;
use crate::shogi::Position;
use crate::types::{Bitboard, Hand, Move, PieceKind};

/// Squares next to the enemy king that it could move to now: not held by its own pieces and not
/// attacked by ours, the king lifted off the board (it cannot hide behind itself on a line).
/// Our attacks there are gathered piece by piece from the pieces that can reach those squares,
/// which costs a fraction of asking square by square.
#[inline]
pub(crate) fn king_escapes(pos: &Position) -> Bitboard {
    let us = pos.side_to_move();
    let ksq = pos.king_square(!us);
    let around = attacks::king_attacks(ksq).and_not(pos.pieces_of(!us));
    if around.is_empty() {
        return around;
    }
    let occ = pos.occupied().without(ksq);
    let of = |k: PieceKind| pos.pieces(us, k);
    let (horses, dragons) = (of(PieceKind::Horse), of(PieceKind::Dragon));
    let (rooks, bishops) = (of(PieceKind::Rook) | dragons, of(PieceKind::Bishop) | horses);
    let (lances, knights) = (of(PieceKind::Lance), of(PieceKind::Knight));
    let mut attacked = Bitboard::EMPTY;
    // Step pieces reach the squares next to the king only from within two squares of it.
    let near = pos.pieces_of(us) & attacks::within_two(ksq);
    for from in near.and_not(rooks | bishops | lances | knights) {
        attacked |= attacks::attacks(us, pos.piece_on(from).kind(), from, occ);
    }
    for from in near & (horses | dragons) {
        attacked |= attacks::king_attacks(from);
    }
    for from in knights {
        attacked |= attacks::knight_attacks(us, from);
    }
    // Sliders whose lines miss the squares even on an empty board need no attack set.
    for from in rooks {
        if (attacks::rook_pseudo(from) & around).is_some() {
            attacked |= attacks::rook_attacks(from, occ);
        }
    }
    for from in bishops {
        if (attacks::bishop_pseudo(from) & around).is_some() {
            attacked |= attacks::bishop_attacks(from, occ);
        }
    }
    for from in lances {
        if (attacks::lance_pseudo(us, from) & around).is_some() {
            attacked |= attacks::lance_attacks(us, from, occ);
        }
    }
    around.and_not(attacked)
}

/// Whether a check given by the piece on `m.to()` alone, from a distance, can surely be answered by
/// the defender dropping a silver, gold, bishop, rook, lance or knight in between (pawns are left
/// to the full test: a pawn drop can be illegal in ways not worth checking here).
#[inline]
fn check_is_blockable(pos: &Position, m: Move) -> bool {
    let def = !pos.side_to_move();
    let block = between(pos.king_square(def), m.to());
    if block.is_empty() {
        return false;
    }
    let hand = pos.hand(def);
    if !hand.has_non_pawn() {
        return false;
    }
    hand.has_any_square_piece()
        || (hand.has(PieceKind::Lance) && block.and_not(masks::last_rank(def)).is_some())
        || (hand.has(PieceKind::Knight) && block.and_not(masks::last_two_ranks(def)).is_some())
}

/// Whether `m` could mate at all, judged from the king's current escape squares and, for checks
/// from a distance, from the defender's hand.
#[inline]
fn may_mate(pos: &Position, m: Move, escapes: Bitboard) -> bool {
    let us = pos.side_to_move();
    if m.is_drop() {
        // A drop next to the king on a square it may step to now: the king takes the piece (a
        // drop changes no attack on its own square).
        if escapes.contains(m.to()) || check_is_blockable(pos, m) {
            return false;
        }
    } else if !pos.blockers(!us).contains(m.from()) && check_is_blockable(pos, m) {
        // A piece that uncovers no line checks from its new square alone, and a far check is
        // blocked as a drop's is.
        return false;
    }
    let ksq = pos.king_square(!us);
    let to = m.to();
    if !m.is_drop() && attacks::king_attacks(ksq).contains(to) {
        // A piece that steps next to the king with nothing of ours behind it is taken by the
        // king. (A drop there is always defended: the square is no escape, so it was attacked.)
        let from = m.from();
        let occ = pos.occupied().without(from).without(ksq);
        if pos.attackers_to(us, to, occ).without(from).is_empty() {
            return false;
        }
    }
    if escapes.is_empty() {
        return true;
    }
    let kind = pos.moved_piece_after(m).kind();
    let mut occ = pos.occupied().with(to).without(ksq);
    let mut covered = Bitboard::from_square(to);
    if !m.is_drop() {
        let from = m.from();
        occ = occ.without(from);
        covered |= attacks::rook_pseudo(from) | attacks::bishop_pseudo(from);
    }
    covered |= attacks::attacks(us, kind, to, occ);
    escapes.and_not(covered).is_empty()
}

/// The part of a proof hand that a mated (or proven) defender position forces because of
/// interpositions: when the check comes from a distance, each kind the defender does not hold
/// but could drop on a square in between must stay entirely with the attacker (with fewer, the
/// defender would hold one and could interpose). The side to move must be the defender, in check.
pub(crate) fn interposition_requirement(pos: &Position) -> Hand {
    let def = pos.side_to_move();
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.more_than_one() {
        return Hand::EMPTY;
    }
    let ksq = pos.king_square(def);
    let block = between(ksq, checkers.lsb());
    if block.is_empty() {
        return Hand::EMPTY;
    }
    let def_hand = pos.hand(def);
    let att_hand = pos.hand(!def);
    let mut req = Hand::EMPTY;
    for k in PieceKind::HAND {
        if def_hand.has(k) || !att_hand.has(k) {
            continue;
        }
        let squares = match k {
            PieceKind::Pawn => block.and_not(masks::last_rank(def)).and_not(pawn_files(pos, def)),
            PieceKind::Lance => block.and_not(masks::last_rank(def)),
            PieceKind::Knight => block.and_not(masks::last_two_ranks(def)),
            _ => block,
        };
        if squares.is_some() {
            req.set(k, att_hand.count(k));
        }
    }
    req
}

/// Scans `checks` (checking moves of the side to move) for one that mates; `escapes` must be
/// `king_escapes(pos)`.
fn find_mate(pos: &mut Position, checks: &[Move], escapes: Bitboard) -> Option<Move> {
    for &m in checks {
        if !may_mate(pos, m, escapes) {
            continue;
        }
        pos.do_move(m);
        let mated = !has_evasion(pos);
        pos.undo_move();
        if mated {
            return Some(m);
        }
    }
    None
}

/// Like `find_mate`, also returning the proof hand of the mate; `escapes` must be
/// `king_escapes(pos)`.
pub(crate) fn find_mate_with_hand(
    pos: &mut Position,
    checks: &[Move],
    escapes: Bitboard,
) -> Option<(Move, Hand)> {
    if checks.is_empty() {
        return None;
    }
    for &m in checks {
        if !may_mate(pos, m, escapes) {
            continue;
        }
        let captured = if m.is_drop() {
            None
        } else {
            let p = pos.piece_on(m.to());
            p.is_some().then(|| p.kind().unpromoted())
        };
        pos.do_move(m);
        let mated = !has_evasion(pos);
        let hand = if mated {
            let req = interposition_requirement(pos);
            Some(if m.is_drop() {
                let k = m.dropped_kind();
                let mut h = req;
                h.set(k, req.count(k) + 1);
                h
            } else if let Some(k) = captured {
                req.minus(k)
            } else {
                req
            })
        } else {
            None
        };
        pos.undo_move();
        if let Some(h) = hand {
            return Some((m, h));
        }
    }
    None
}

/// A one-ply mate for the side to move, if it has one: a legal move that gives check and leaves
/// the defender without a legal move (pawn-drop mates are illegal and never returned).
/// Cheap when there is none: most checks are rejected by the escape-square test without being
/// made. Returns `None` when the opponent has no king.
pub fn mate_in_one(pos: &mut Position) -> Option<Move> {
    if !pos.has_king(!pos.side_to_move()) {
        return None;
    }
    // The escape squares only filter drops: with none to make, the candidates come first, and a
    // position without any (the common case) never needs the escapes.
    let drop_escapes = (!pos.hand(pos.side_to_move()).is_empty()).then(|| king_escapes(pos));
    let mut list = MoveList::new();
    generate_mating_candidates(pos, &mut list, drop_escapes.unwrap_or(Bitboard::EMPTY));
    if list.is_empty() {
        return None;
    }
    let escapes = drop_escapes.unwrap_or_else(|| king_escapes(pos));
    find_mate(pos, list.as_slice(), escapes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::random_games::random_game_positions;

    /// The definition `king_escapes` computes faster: each square next to the enemy king, not
    /// held by its pieces, where the king would be safe.
    fn escapes_square_by_square(pos: &Position) -> Bitboard {
        let them = !pos.side_to_move();
        let mut e = Bitboard::EMPTY;
        for sq in attacks::king_attacks(pos.king_square(them)).and_not(pos.pieces_of(them)) {
            if pos.king_safe_at(them, sq) {
                e = e.with(sq);
            }
        }
        e
    }

    #[test]
    fn king_escapes_match_the_square_by_square_test() {
        let mut checked = 0;
        for pos in random_game_positions(0x6b65_7363, 200, 160).iter().filter(|p| !p.in_check()) {
            assert_eq!(king_escapes(pos), escapes_square_by_square(pos), "{pos:?}");
            checked += 1;
        }
        assert!(checked > 10_000, "{checked} positions");
    }
}
