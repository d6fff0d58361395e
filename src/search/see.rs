//! Static exchange evaluation: does a move win at least a threshold once every recapture on its
//! square has been played out, least valuable attacker first?

use crate::shogi::attacks;
use crate::shogi::Position;
use crate::types::{Bitboard, Move, PieceKind, Square};

/// What losing a piece of this kind on the board costs: its board value plus what the capturer
/// gains in hand. Rough and fixed, as ordering needs only the order of magnitude.
///
/// These are not derived from the evaluation's `piece_value + hand_value` on purpose, although
/// they are close to it (pawn 200 against 90 + 100, dragon 2700 against 1395 + 1040): the SEE
/// pruning margins in `params.rs` and the capture ordering were tuned against these numbers, and
/// exchanging them for the evaluation's changes which moves are pruned and in what order they
/// are searched (deriving them gave bench 4801517 instead of 4822575). Retuning them together
/// is a functional change.
pub const fn exchange_value(kind: PieceKind) -> i32 {
    use PieceKind::*;
    match kind {
        Pawn => 200,
        Lance => 650,
        Knight => 800,
        Silver => 1050,
        Gold => 1150,
        Bishop => 1800,
        Rook => 2100,
        ProPawn => 650,
        ProLance => 900,
        ProKnight => 950,
        ProSilver => 1100,
        Horse => 2300,
        Dragon => 2700,
        King => 20000,
    }
}

/// Kinds in the order an exchange should use them: cheapest attacker first.
const ATTACKER_ORDER: [PieceKind; ATTACKER_KINDS] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::ProPawn,
    PieceKind::ProLance,
    PieceKind::ProKnight,
    PieceKind::Silver,
    PieceKind::ProSilver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Dragon,
    PieceKind::King,
];

/// Piece kinds that can take part in an exchange: all fourteen, king included (`ATTACKER_ORDER`).
const ATTACKER_KINDS: usize = 14;

/// Each kind's place in `ATTACKER_ORDER`, by `PieceKind::index()`.
const ATTACKER_RANK: [u8; 15] = {
    let mut rank = [u8::MAX; 15];
    let mut i = 0;
    while i < ATTACKER_KINDS {
        rank[ATTACKER_ORDER[i].index()] = i as u8;
        i += 1;
    }
    rank
};

/// The attacker in `attackers` (not empty) that an exchange plays next: the kind first in
/// `ATTACKER_ORDER`, and of those the lowest square. Attackers are few, so walking them beats
/// asking kind by kind.
#[inline]
fn least_valuable(pos: &Position, attackers: Bitboard) -> Option<(PieceKind, Square)> {
    let mut best: Option<(PieceKind, Square)> = None;
    let mut best_rank = u8::MAX;
    for sq in attackers {
        let kind = pos.piece_on(sq).kind();
        let rank = ATTACKER_RANK[kind.index()];
        if rank < best_rank {
            best_rank = rank;
            best = Some((kind, sq));
        }
    }
    best
}

/// Every piece of either colour in `occ` that attacks `sq` with the board's occupancy taken as `occ`.
fn all_attackers(pos: &Position, sq: Square, occ: Bitboard) -> Bitboard {
    pos.all_attackers_to(sq, occ) & occ
}

/// The slider that attacks `to` once the piece on `from`, with nothing between it and `to`, has
/// left (`occ` without `from`): the first piece beyond `from` on the line from `to`, if it slides
/// along that line toward `to`.
/// A step piece there cannot reach `to`, which is at least two squares away.
#[inline]
fn uncovered_slider(pos: &Position, to: Square, from: Square, occ: Bitboard) -> Bitboard {
    let beyond = attacks::ray_attacks_through(to, from, occ) & occ;
    if beyond.is_empty() {
        return beyond;
    }
    let sq = beyond.lsb();
    let piece = pos.piece_on(sq);
    let straight = sq.file() == to.file() || sq.rank() == to.rank();
    let slides = match piece.kind() {
        PieceKind::Rook | PieceKind::Dragon => straight,
        PieceKind::Bishop | PieceKind::Horse => !straight,
        PieceKind::Lance => attacks::lance_pseudo(piece.color(), sq).contains(to),
        _ => false,
    };
    if slides {
        beyond
    } else {
        Bitboard::EMPTY
    }
}

/// Whether the exchange started by legal move `m` gains at least `threshold`.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let to = m.to();
    let captured = pos.piece_on(to);
    let mut balance =
        if m.is_drop() || captured.is_none() { 0 } else { exchange_value(captured.kind()) } - threshold;
    if balance < 0 {
        return false;
    }
    let moved = pos.moved_piece_after(m);
    balance -= exchange_value(moved.kind());
    if balance >= 0 {
        return true;
    }
    let mut occ = pos.occupied().with(to);
    if !m.is_drop() {
        occ = occ.without(m.from());
    }
    let mut attackers = all_attackers(pos, to, occ);
    let mut stm = moved.color();
    let mut res = true;
    loop {
        stm = !stm;
        let mine = attackers & pos.pieces_of(stm);
        if mine.is_empty() {
            break;
        }
        res = !res;
        let found = least_valuable(pos, mine);
        let Some((kind, from)) = found else { break };
        if kind == PieceKind::King {
            // The king may only take last: if the other side still attacks, the capture is illegal.
            if (attackers & pos.pieces_of(!stm)).is_some() {
                res = !res;
            }
            break;
        }
        balance = -balance - 1 - exchange_value(kind);
        if balance >= 0 {
            break;
        }
        // Only a slider behind the piece that just captured can join.
        occ = occ.without(from);
        attackers = (attackers & occ) | uncovered_slider(pos, to, from, occ);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;

    fn mv(pos: &Position, s: &str) -> Move {
        pos.parse_move(s).unwrap()
    }

    #[test]
    fn all_attackers_are_both_colours_attackers() {
        let positions = crate::bench::POSITIONS.iter().filter_map(|p| p.strip_prefix("sfen "));
        for sfen in positions {
            let Ok(pos) = Position::from_sfen(sfen) else { continue };
            let full = pos.occupied();
            for sq in crate::types::Square::all() {
                // With every piece, and with the piece on `sq`'s lines thinned out.
                for occ in [full, full & Bitboard(0x5555_5555_5555_5555_5555_5555_5555_5555)] {
                    let both =
                        pos.attackers_to(Color::Black, sq, occ) | pos.attackers_to(Color::White, sq, occ);
                    assert_eq!(all_attackers(&pos, sq, occ), both & occ, "{sfen} {sq:?}");
                }
            }
        }
    }

    #[test]
    fn the_uncovered_slider_is_what_a_full_rescan_adds() {
        let mut pairs = 0;
        for pos in crate::shogi::random_games::random_game_positions(0x7365_6521, 40, 120) {
            for occ in [pos.occupied(), pos.occupied() & Bitboard(0x5555_5555_5555_5555_5555_5555_5555_5555)]
            {
                for to in Square::all() {
                    // In an exchange the piece leaving `from` attacked `to`: nothing stands between.
                    for from in
                        occ.without(to).into_iter().filter(|&f| (attacks::between(to, f) & occ).is_empty())
                    {
                        let after = occ.without(from);
                        let rescan =
                            pos.slider_attackers_to(to, after).and_not(pos.slider_attackers_to(to, occ))
                                & after;
                        assert_eq!(
                            uncovered_slider(&pos, to, from, after),
                            rescan,
                            "{pos:?} {to:?} {from:?}"
                        );
                        pairs += 1;
                    }
                }
            }
        }
        assert!(pairs > 100_000, "{pairs} pairs");
    }

    #[test]
    fn exchanges() {
        // Bishop takes an undefended pawn: wins.
        let p = Position::from_sfen("4k4/9/9/9/4p4/9/9/1B7/4K4 b - 1").unwrap();
        assert!(see_ge(&p, mv(&p, "8h5e"), 0));
        // Bishop takes a pawn defended by a pawn: loses the bishop.
        let p = Position::from_sfen("4k4/9/9/4g4/4p4/9/9/1B7/4K4 b - 1").unwrap();
        assert!(!see_ge(&p, mv(&p, "8h5e"), 0));
        assert!(see_ge(&p, mv(&p, "8h5e"), -2000));
        // Pawn takes pawn defended by gold, backed by a rook behind: even or better.
        let p = Position::from_sfen("4k4/9/4g4/4p4/4P4/9/9/4R4/4K4 b - 1").unwrap();
        assert!(see_ge(&p, mv(&p, "5e5d"), 0));
        // A drop onto an attacked square loses the piece.
        let p = Position::from_sfen("4k4/9/4p4/9/9/9/9/9/4K4 b G 1").unwrap();
        assert!(!see_ge(&p, mv(&p, "G*5d"), 0));
        assert!(see_ge(&p, mv(&p, "G*1e"), 0));
    }
}
