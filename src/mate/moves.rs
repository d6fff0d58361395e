//! Move generation for the mate search: the attacker's checking moves, generated directly from
//! the squares that attack the enemy king, and an exact early-exit test for "does the side in
//! check have any legal move".
//!
//! `generate_checks` produces exactly the legal moves that give check (the set
//! `shogi::movegen::generate(.., GenType::Checks, ..)` produces, in another order) without
//! generating and filtering every legal move: only pieces that can check at all are looked at
//! (sliders, pieces uncovering a line to the king, knights that can jump to a checking square,
//! other pieces within two squares of the king). The tests hold it to that set on random game
//! positions and random tsume positions.

use crate::shogi::attacks::{self, between, line, masks};
use crate::shogi::movegen::{generate, is_pawn_drop_mate, pawn_check_square, GenType, MoveList};
use crate::shogi::Position;
use crate::types::{Bitboard, Color, Move, PieceKind, Square};

/// Files holding an unpromoted pawn of `c` (a pawn drop there would be nifu).
#[inline]
pub(crate) fn pawn_files(pos: &Position, c: Color) -> Bitboard {
    let mut files = Bitboard::EMPTY;
    for sq in pos.pieces(c, PieceKind::Pawn) {
        files |= masks::file(sq.file() as u32);
    }
    files
}

/// `Position::check_squares` cut down to the squares next to `ksq` for the sliders (knights keep
/// their two squares): all a search for contact checks needs, from table lookups alone (a square
/// next to the king is never cut off from it).
#[inline]
fn contact_check_squares(us: Color, ksq: Square) -> [Bitboard; 15] {
    let king = attacks::king_attacks(ksq);
    let lance = attacks::pawn_attacks(!us, ksq);
    attacks::check_squares_with(
        us,
        ksq,
        lance,
        attacks::bishop_pseudo(ksq) & king,
        attacks::rook_pseudo(ksq) & king,
    )
}

/// Every square a slider of `kind` and colour `us` on `from` could reach on an empty board (a
/// superset of its moves), or `None` for a step piece, whose moves are a cheap lookup anyway.
#[inline(always)]
fn empty_board_reach(us: Color, kind: PieceKind, from: Square) -> Option<Bitboard> {
    match kind {
        PieceKind::Lance => Some(attacks::lance_pseudo(us, from)),
        PieceKind::Bishop => Some(attacks::bishop_pseudo(from)),
        PieceKind::Rook => Some(attacks::rook_pseudo(from)),
        PieceKind::Horse => Some(attacks::bishop_pseudo(from) | attacks::king_attacks(from)),
        PieceKind::Dragon => Some(attacks::rook_pseudo(from) | attacks::king_attacks(from)),
        _ => None,
    }
}

/// Appends every legal move of the side to move that gives check. Nothing when the enemy has no
/// king. When the side to move is itself in check, these are its evasions that give check.
pub fn generate_checks(pos: &Position, list: &mut MoveList) {
    generate_checks_with(pos, list, None);
}

/// The checks that could mate at once, in `generate_checks`'s order, given `escapes`
/// (`one::king_escapes`): no pawn drop (a pawn drop never mates legally: a mating one is
/// illegal), no drop on an escape square (the king takes the piece: a drop changes no attack on
/// its own square), and no check from a distance by a drop or a move that uncovers no line where
/// the defender holds a silver, gold, bishop or rook to put in between. The rest are only
/// candidates, to be tested. `escapes` only filters drops: with an empty hand any value gives the
/// same list.
pub(crate) fn generate_mating_candidates(pos: &Position, list: &mut MoveList, escapes: Bitboard) {
    generate_checks_with(pos, list, Some(escapes));
}

/// `generate_checks`, or with `mate_escapes` the mating candidates among them.
fn generate_checks_with(pos: &Position, list: &mut MoveList, mate_escapes: Option<Bitboard>) {
    let us = pos.side_to_move();
    let them = !us;
    if !pos.has_king(them) {
        return;
    }
    if pos.in_check() {
        // Rare (only when the attacker has a king): filter the evasions.
        let mut all = MoveList::new();
        generate(pos, GenType::Evasions, &mut all);
        for &m in all.iter() {
            if pos.gives_check(m) {
                list.push(m);
            }
        }
        return;
    }
    let ksq = pos.king_square(them);
    let occ = pos.occupied();
    let empty = !occ;
    let own = pos.pieces_of(us);
    let adjacent = attacks::king_attacks(ksq);
    // Mating candidates only: a check from a distance by a piece that uncovers no line is answered
    // by a drop in between when the defender holds a silver, gold, bishop or rook, so only
    // contact checks (and knight checks, which nothing blocks) are left.
    let contact_only = mate_escapes.is_some() && pos.hand(them).has_any_square_piece();
    let discoverers = pos.blockers(them) & own;
    // Without a piece that uncovers a line, contact checks use the checking squares only next to
    // the king (knights' aside), and those need no slider attack sets.
    let chk = if contact_only && discoverers.is_empty() {
        contact_check_squares(us, ksq)
    } else {
        pos.check_squares()
    };

    // Drops.
    let hand = pos.hand(us);
    if !hand.is_empty() {
        let last = masks::last_rank(us);
        // Where drops may go: anywhere, or for mating candidates off the escape squares, and
        // only next to the king where a far drop would be blocked.
        let (mut targets, mut far_targets) = (empty, empty);
        if let Some(escapes) = mate_escapes {
            targets = targets.and_not(escapes);
            far_targets = if contact_only { targets & adjacent } else { targets };
        }
        if mate_escapes.is_none() && hand.has(PieceKind::Pawn) {
            if let Some(sq) = pawn_check_square(pos, us) {
                if empty.contains(sq)
                    && !last.contains(sq)
                    && !pawn_files(pos, us).contains(sq)
                    && !is_pawn_drop_mate(pos, us, sq)
                {
                    list.push(Move::drop(PieceKind::Pawn, sq));
                }
            }
        }
        let kinds: [(PieceKind, Bitboard, Bitboard); 6] = [
            (PieceKind::Lance, last, far_targets),
            (PieceKind::Knight, masks::last_two_ranks(us), targets),
            (PieceKind::Silver, Bitboard::EMPTY, targets),
            (PieceKind::Gold, Bitboard::EMPTY, targets),
            (PieceKind::Bishop, Bitboard::EMPTY, far_targets),
            (PieceKind::Rook, Bitboard::EMPTY, far_targets),
        ];
        for (k, dead, allowed) in kinds {
            if hand.has(k) {
                for to in (chk[k.index()] & allowed).and_not(dead) {
                    list.push(Move::drop(k, to));
                }
            }
        }
    }

    // Board moves.
    let our_ksq = pos.king_square(us);
    let pinned = pos.pinned(us);
    let zone = masks::zone(us);
    let last = masks::last_rank(us);
    let last_two = masks::last_two_ranks(us);
    let targets = !own;
    // Only some pieces can check at all: sliders, the uncovering pieces, knights that can jump
    // to a checking square (as knights or promoted), and the other step pieces within two
    // squares of the king.
    let near = attacks::within_two(ksq);
    let knight_from = attacks::knight_check_origins(them, ksq);
    let sliders = pos.pieces(us, PieceKind::Lance)
        | pos.pieces(us, PieceKind::Bishop)
        | pos.pieces(us, PieceKind::Rook)
        | pos.pieces(us, PieceKind::Horse)
        | pos.pieces(us, PieceKind::Dragon);
    let candidates = (own & near) | sliders | (pos.pieces(us, PieceKind::Knight) & knight_from) | discoverers;
    for from in candidates {
        let kind = pos.piece_on(from).kind();
        if kind == PieceKind::King {
            // A king never checks directly, but it can uncover a check.
            if discoverers.contains(from) {
                let off_line = !line(ksq, from);
                for to in attacks::king_attacks(from) & targets & off_line {
                    if pos.king_safe_at(us, to) {
                        list.push(Move::normal(from, to));
                    }
                }
            }
            continue;
        }
        let discovers = discoverers.contains(from);
        let mut plain = chk[kind.index()];
        let mut promo = if kind.can_promote() { chk[kind.promoted().index()] } else { Bitboard::EMPTY };
        if !discovers {
            if contact_only {
                // Knights check from two ranks away, where nothing comes in between.
                if kind != PieceKind::Knight {
                    plain &= adjacent;
                }
                promo &= adjacent;
            }
            // A slider whose lines miss the checking squares even on an empty board needs no
            // attack set.
            if empty_board_reach(us, kind, from).is_some_and(|reach| (reach & (plain | promo)).is_empty()) {
                continue;
            }
        }
        if discovers {
            let disc = !line(ksq, from);
            plain |= disc;
            if kind.can_promote() {
                promo |= disc;
            }
        }
        let mut dests = attacks::attacks(us, kind, from, occ) & targets;
        if pinned.contains(from) {
            dests &= line(our_ksq, from);
        }
        let cand = dests & (plain | promo);
        if cand.is_empty() {
            continue;
        }
        let from_zone = zone.contains(from);
        for to in cand {
            let can = kind.can_promote() && (from_zone || zone.contains(to));
            let must = match kind {
                PieceKind::Pawn | PieceKind::Lance => last.contains(to),
                PieceKind::Knight => last_two.contains(to),
                _ => false,
            };
            if can && promo.contains(to) {
                list.push(Move::promoting(from, to));
            }
            if !must && plain.contains(to) {
                list.push(Move::normal(from, to));
            }
        }
    }
}

/// Whether the side to move, which must be in check, has any legal move. Exact: the same answer
/// as "the evasion list is not empty", found without building the list.
pub fn has_evasion(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let ksq = pos.king_square(us);
    let own = pos.pieces_of(us);
    for to in attacks::king_attacks(ksq).and_not(own) {
        if pos.king_safe_at(us, to) {
            return true;
        }
    }
    let checkers = pos.checkers();
    if checkers.more_than_one() {
        return false;
    }
    let checker = checkers.lsb();
    let occ = pos.occupied();
    let pinned = pos.pinned(us);
    let free = |from: Square, to: Square| !pinned.contains(from) || line(ksq, from).contains(to);
    for from in pos.attackers_to(us, checker, occ).without(ksq) {
        if free(from, checker) {
            return true;
        }
    }
    let block = between(ksq, checker);
    if block.is_empty() {
        return false;
    }
    for sq in block {
        for from in pos.attackers_to(us, sq, occ).without(ksq) {
            if free(from, sq) {
                return true;
            }
        }
    }
    let hand = pos.hand(us);
    if hand.is_empty() {
        return false;
    }
    if hand.has_non_pawn() {
        if hand.has_any_square_piece() {
            return true;
        }
        if hand.has(PieceKind::Lance) && block.and_not(masks::last_rank(us)).is_some() {
            return true;
        }
        if hand.has(PieceKind::Knight) && block.and_not(masks::last_two_ranks(us)).is_some() {
            return true;
        }
    }
    if hand.has(PieceKind::Pawn) {
        let squares = block.and_not(masks::last_rank(us)).and_not(pawn_files(pos, us));
        for sq in squares {
            // A pawn drop that mates the other king is illegal for the defender too.
            if pawn_check_square(pos, us) == Some(sq) && is_pawn_drop_mate(pos, us, sq) {
                continue;
            }
            return true;
        }
    }
    false
}

/// All legal moves of the side to move, which is in check.
#[inline]
pub fn generate_evasions(pos: &Position, list: &mut MoveList) {
    generate(pos, GenType::Evasions, list);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::random_games::random_game_positions;
    use crate::shogi::SfenMode;

    fn sorted(list: &MoveList) -> Vec<u16> {
        let mut v: Vec<u16> = list.iter().map(|m| m.raw()).collect();
        v.sort_unstable();
        v
    }

    fn check_position(pos: &Position) {
        let mut fast = MoveList::new();
        generate_checks(pos, &mut fast);
        let mut slow = MoveList::new();
        generate(pos, GenType::Checks, &mut slow);
        assert_eq!(sorted(&fast), sorted(&slow), "{}", pos.to_sfen());
        // Every move listed once.
        let mut v = sorted(&fast);
        v.dedup();
        assert_eq!(v.len(), fast.len(), "{}", pos.to_sfen());
        for &m in slow.iter() {
            let mut p = pos.clone();
            p.do_move(m);
            let exact = !p.legal_moves().is_empty();
            assert_eq!(has_evasion(&p), exact, "{} after {m}", pos.to_sfen());
        }
        // The mating candidates: the checks in the same order, less only checks that do not mate.
        let mut candidates = MoveList::new();
        generate_mating_candidates(pos, &mut candidates, crate::mate::one::king_escapes(pos));
        let mut rest = candidates.iter().peekable();
        for &m in fast.iter() {
            if rest.peek() == Some(&&m) {
                rest.next();
                continue;
            }
            let mut p = pos.clone();
            p.do_move(m);
            assert!(!p.legal_moves().is_empty(), "{}: {m} mates but is not a candidate", pos.to_sfen());
        }
        assert!(rest.next().is_none(), "{}: candidates out of order", pos.to_sfen());
    }

    #[test]
    fn checks_match_the_filtered_legal_moves() {
        for pos in random_game_positions(0x1234_5678_9abc_def1, 60, 160) {
            check_position(&pos);
        }
    }

    #[test]
    fn checks_match_in_composed_positions() {
        let sfens = [
            "3sks3/9/4+P4/9/9/+B8/9/9/9 b S2rb4gs4n4l17p 1",
            "7nl/7k1/6p2/6S1p/9/9/9/9/9 b GS2r2b3g2s3n3l16p 1",
            "4k4/9/PPPPPPPPP/9/9/9/9/9/9 b B4L2rb4g4s4n9p 1",
            "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N5K b SP2gn2l11p 1",
            "7lk/9/8S/9/9/9/9/7L1/8K b P 1",
            "8k/9/7G1/9/9/9/9/9/K8 b RBGSNLP 1",
        ];
        for s in sfens {
            let pos = Position::from_sfen_mode(s, SfenMode::Composed).unwrap();
            check_position(&pos);
        }
    }
}
