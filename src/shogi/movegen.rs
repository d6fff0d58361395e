//! Legal move generation: the full legal set, and the staged subsets a search asks for.
//!
//! Moves are produced legal directly: pinned pieces stay on their pin line, the king never steps
//! onto an attacked square, and in check only evasions are produced. So the lists never need a
//! make-and-test filter.

use super::attacks::{self, between, line, masks};
use super::Position;
use crate::types::{Bitboard, Color, Move, PieceKind, Square};

/// The most legal moves any shogi position has is 593.
pub const MAX_MOVES: usize = 600;

/// A fixed-capacity list of moves on the stack.
pub type MoveList = crate::types::MoveList<Move, MAX_MOVES>;

/// Which moves to generate. Not in check, `CapturesPromotions` and `Quiets` split the legal set
/// in two; in check, `Evasions` is the legal set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenType {
    /// Captures (every promotion variant) and non-capturing promotions. Not in check only.
    CapturesPromotions,
    /// Non-capturing moves that do not promote, and drops. Not in check only.
    Quiets,
    /// Every legal move when in check.
    Evasions,
    /// Every legal move when not in check.
    NonEvasions,
    /// Every legal move.
    Legal,
    /// Every legal move that gives check.
    Checks,
}

/// Mode bit (which variants of a move to emit): captures and promotions.
const CAPS: u8 = 1;
/// Mode bit: the other moves.
const QUIETS: u8 = 2;
/// Both mode bits: every move.
const ALL: u8 = CAPS | QUIETS;

/// Fills `list` (appending) with the moves of `gen` type.
pub fn generate(pos: &Position, gen: GenType, list: &mut MoveList) {
    match gen {
        GenType::CapturesPromotions => gen_non_evasions::<CAPS>(pos, list),
        GenType::Quiets => gen_non_evasions::<QUIETS>(pos, list),
        GenType::NonEvasions => gen_non_evasions::<ALL>(pos, list),
        GenType::Evasions => gen_evasions(pos, list),
        GenType::Legal => {
            if pos.in_check() {
                gen_evasions(pos, list)
            } else {
                gen_non_evasions::<ALL>(pos, list)
            }
        }
        GenType::Checks => {
            let mut all = MoveList::new();
            generate(pos, GenType::Legal, &mut all);
            for &m in all.iter() {
                if pos.gives_check(m) {
                    list.push(m);
                }
            }
        }
    }
}

/// The squares where a mode wants the plain (unpromoted) variant of a board move: captures in
/// `CAPS`, moves to empty squares in `QUIETS`, both in `ALL`. Promotions belong to `CAPS` alone.
#[inline(always)]
fn plain_targets<const MODE: u8>(pos: &Position, us: Color) -> Bitboard {
    match MODE {
        CAPS => pos.pieces_of(!us),
        QUIETS => !pos.occupied(),
        _ => Bitboard::FULL,
    }
}

/// Destination squares a mode can use: captures-only modes still need empty squares for
/// non-capturing promotions, so `plain_targets` does the final split.
#[inline(always)]
fn board_targets<const MODE: u8>(pos: &Position, us: Color) -> Bitboard {
    let enemy = pos.pieces_of(!us);
    let empty = !pos.occupied();
    match MODE {
        QUIETS => empty,
        _ => enemy | empty,
    }
}

/// Pushes the moves to the squares of `dests`, each from `origin(to)`: the promotion where
/// `promotable`, the plain move where the mode wants it (`plain`) and where the piece would
/// still have a move (`dead_end` excluded). Most sets hold no promotion, and those are pushed a
/// set at a time, with no per-square tests.
#[inline(always)]
fn push_moves<const MODE: u8>(
    list: &mut MoveList,
    dests: Bitboard,
    promotable: Bitboard,
    dead_end: Bitboard,
    plain: Bitboard,
    origin: impl Fn(Square) -> Square,
) {
    let promotions = if MODE & CAPS != 0 { dests & promotable } else { Bitboard::EMPTY };
    let plain_moves = (dests & plain).and_not(dead_end);
    if promotions.is_empty() {
        for to in plain_moves {
            list.push(Move::normal(origin(to), to));
        }
        return;
    }
    // Each promotion comes just before its plain move: the root tries moves in the order made
    // here, and keeping it keeps the search unchanged.
    for to in dests {
        if promotions.contains(to) {
            list.push(Move::promoting(origin(to), to));
        }
        if plain_moves.contains(to) {
            list.push(Move::normal(origin(to), to));
        }
    }
}

/// Board moves of all non-king pieces to squares in `targets`, pins respected; the plain
/// (unpromoted) variants only to squares in `plain`.
#[inline(always)]
fn gen_piece_moves<const MODE: u8>(
    pos: &Position,
    list: &mut MoveList,
    us: Color,
    targets: Bitboard,
    plain: Bitboard,
) {
    let occ = pos.occupied();
    let zone = masks::zone(us);
    let ksq = pos.king_square(us);
    let pinned = pos.pinned(us);
    let last = masks::last_rank(us);
    let last_two = masks::last_two_ranks(us);
    // A piece that starts in the zone may promote wherever it goes.
    let promotable_from = |from: Square| if zone.contains(from) { Bitboard::FULL } else { zone };

    // Pawns: the unpinned ones move in bulk; the square behind the target is the origin.
    let pawns = pos.pieces(us, PieceKind::Pawn);
    let free = pawns.and_not(pinned);
    let (dests, back): (Bitboard, i32) = match us {
        Color::Black => (free.shift_up() & targets, 1),
        Color::White => (free.shift_down() & targets, -1),
    };
    let origin = |to: Square| Square::from_index_unchecked((to.index() as i32 + back) as usize);
    push_moves::<MODE>(list, dests, zone, last, plain, origin);
    for from in pawns & pinned {
        let dests = attacks::pawn_attacks(us, from) & targets & line(ksq, from);
        push_moves::<MODE>(list, dests, zone, last, plain, |_| from);
    }

    // Pins are rare: test the set before the square.
    let pin_mask = |from: Square| {
        if pinned.is_some() && pinned.contains(from) {
            line(ksq, from)
        } else {
            Bitboard::FULL
        }
    };

    for from in pos.pieces(us, PieceKind::Lance) {
        let dests = attacks::lance_attacks(us, from, occ) & targets & pin_mask(from);
        push_moves::<MODE>(list, dests, zone, last, plain, |_| from);
    }
    // A pinned knight can never stay on its line.
    for from in pos.pieces(us, PieceKind::Knight).and_not(pinned) {
        let dests = attacks::knight_attacks(us, from) & targets;
        push_moves::<MODE>(list, dests, zone, last_two, plain, |_| from);
    }
    for from in pos.pieces(us, PieceKind::Silver) {
        let dests = attacks::silver_attacks(us, from) & targets & pin_mask(from);
        push_moves::<MODE>(list, dests, promotable_from(from), Bitboard::EMPTY, plain, |_| from);
    }
    for from in pos.golds(us) {
        let dests = attacks::gold_attacks(us, from) & targets & pin_mask(from);
        push_moves::<MODE>(list, dests, Bitboard::EMPTY, Bitboard::EMPTY, plain, |_| from);
    }
    for from in pos.pieces(us, PieceKind::Bishop) {
        let dests = attacks::bishop_attacks(from, occ) & targets & pin_mask(from);
        push_moves::<MODE>(list, dests, promotable_from(from), Bitboard::EMPTY, plain, |_| from);
    }
    for from in pos.pieces(us, PieceKind::Rook) {
        let dests = attacks::rook_attacks(from, occ) & targets & pin_mask(from);
        push_moves::<MODE>(list, dests, promotable_from(from), Bitboard::EMPTY, plain, |_| from);
    }
    for from in pos.pieces(us, PieceKind::Horse) {
        let dests = attacks::horse_attacks(from, occ) & targets & pin_mask(from);
        push_moves::<MODE>(list, dests, Bitboard::EMPTY, Bitboard::EMPTY, plain, |_| from);
    }
    for from in pos.pieces(us, PieceKind::Dragon) {
        let dests = attacks::dragon_attacks(from, occ) & targets & pin_mask(from);
        push_moves::<MODE>(list, dests, Bitboard::EMPTY, Bitboard::EMPTY, plain, |_| from);
    }
}

/// King steps to safe squares within `targets` (the king never promotes: callers pass only the
/// squares whose plain moves they want, so no other square's safety is tested).
#[inline(always)]
fn gen_king_moves(pos: &Position, list: &mut MoveList, us: Color, targets: Bitboard) {
    let ksq = pos.king_square(us);
    for to in attacks::king_attacks(ksq) & targets {
        if pos.king_safe_at(us, to) {
            list.push(Move::normal(ksq, to));
        }
    }
}

/// Files holding an unpromoted pawn of `c`: pawn drops there would be nifu.
#[inline(always)]
fn pawn_files(pos: &Position, c: Color) -> Bitboard {
    let mut files = Bitboard::EMPTY;
    for sq in pos.pieces(c, PieceKind::Pawn) {
        files |= masks::file(sq.file() as u32);
    }
    files
}

/// Drops onto `targets` (empty squares), with every drop rule applied.
#[inline(always)]
fn gen_drops(pos: &Position, list: &mut MoveList, us: Color, targets: Bitboard) {
    let hand = pos.hand(us);
    if hand.is_empty() || targets.is_empty() {
        return;
    }
    let last = masks::last_rank(us);
    if hand.has(PieceKind::Pawn) {
        let mut to_set = targets.and_not(last).and_not(pawn_files(pos, us));
        // Uchifuzume can only happen on the one square that checks the enemy king.
        if let Some(sq) = pawn_check_square(pos, us) {
            if to_set.contains(sq) && is_pawn_drop_mate(pos, us, sq) {
                to_set = to_set.without(sq);
            }
        }
        for to in to_set {
            list.push(Move::drop(PieceKind::Pawn, to));
        }
    }
    if hand.has(PieceKind::Lance) {
        for to in targets.and_not(last) {
            list.push(Move::drop(PieceKind::Lance, to));
        }
    }
    if hand.has(PieceKind::Knight) {
        for to in targets.and_not(masks::last_two_ranks(us)) {
            list.push(Move::drop(PieceKind::Knight, to));
        }
    }
    // The rest can go on any empty square.
    let mut kinds = [PieceKind::Silver; 4];
    let mut n = 0;
    for k in [PieceKind::Silver, PieceKind::Gold, PieceKind::Bishop, PieceKind::Rook] {
        if hand.has(k) {
            kinds[n] = k;
            n += 1;
        }
    }
    if n == 0 {
        return;
    }
    for to in targets {
        for &k in &kinds[..n] {
            list.push(Move::drop(k, to));
        }
    }
}

/// The square where a pawn of `us` would give check to the enemy king, if any.
#[inline(always)]
pub(crate) fn pawn_check_square(pos: &Position, us: Color) -> Option<Square> {
    let k = pos.king_square(!us);
    if !pos.has_king(!us) {
        return None;
    }
    match us {
        Color::Black if k.rank() < 8 => Some(Square::from_index_unchecked(k.index() + 1)),
        Color::White if k.rank() > 0 => Some(Square::from_index_unchecked(k.index() - 1)),
        _ => None,
    }
}

/// Whether dropping a pawn of `us` on `sq` (directly in front of the enemy king) mates.
/// The pawn is adjacent, so the defence is capturing it or moving the king; no interposition.
pub(crate) fn is_pawn_drop_mate(pos: &Position, us: Color, sq: Square) -> bool {
    let them = !us;
    let ksq = pos.king_square(them);
    let occ = pos.occupied().with(sq);
    // Capture by a piece other than the king that is free to move there.
    let pinned = pos.pinned(them);
    let capturers = pos.attackers_to(them, sq, occ).without(ksq);
    for c in capturers {
        if !pinned.contains(c) || line(ksq, c).contains(sq) {
            return false;
        }
    }
    // The king captures the pawn or steps away to a square we do not attack.
    let occ_without_king = occ.without(ksq);
    for to in attacks::king_attacks(ksq).and_not(pos.pieces_of(them)) {
        if !pos.is_attacked(us, to, occ_without_king) {
            return false;
        }
    }
    true
}

/// Board moves, king moves and drops when not in check, the variants of `MODE` only.
fn gen_non_evasions<const MODE: u8>(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let targets = board_targets::<MODE>(pos, us);
    let plain = plain_targets::<MODE>(pos, us);
    gen_piece_moves::<MODE>(pos, list, us, targets, plain);
    gen_king_moves(pos, list, us, targets & plain);
    if MODE & QUIETS != 0 {
        gen_drops(pos, list, us, !pos.occupied());
    }
}

/// Every legal move in check: king moves, then captures of a lone checker and interpositions.
fn gen_evasions(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let ksq = pos.king_square(us);
    let checkers = pos.checkers();
    gen_king_moves(pos, list, us, !pos.pieces_of(us));
    if checkers.more_than_one() {
        return;
    }
    let checker = checkers.lsb();
    let block = between(ksq, checker);
    gen_piece_moves::<ALL>(pos, list, us, block.with(checker), Bitboard::FULL);
    gen_drops(pos, list, us, block);
}

/// Number of legal moves, for perft's last ply.
pub fn count_legal(pos: &Position) -> usize {
    let mut list = MoveList::new();
    generate(pos, GenType::Legal, &mut list);
    list.len()
}

impl Position {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate(self, GenType::Legal, &mut list);
        list
    }

    /// Whether the side to move has no legal move (it has lost).
    pub fn is_mated(&self) -> bool {
        count_legal(self) == 0
    }

    /// Whether `m` is a legal move here. Works for any 16-bit value, including moves that a GUI
    /// sends, moves from a hash table, and non-promotions of pawns, lances, bishops and rooks.
    pub fn is_legal(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let to = m.to();
        if m.is_none() || to.index() >= 81 {
            return false;
        }
        if m.is_drop() {
            return self.is_legal_drop(m);
        }
        let from = m.from();
        if from.index() >= 81 || from == to {
            return false;
        }
        let p = self.piece_on(from);
        if p.is_none() || p.color() != us {
            return false;
        }
        let target = self.piece_on(to);
        if target.is_some() && target.color() == us {
            return false;
        }
        let kind = p.kind();
        if !attacks::attacks(us, kind, from, self.occupied()).contains(to) {
            return false;
        }
        let in_zone = from.in_zone(us) || to.in_zone(us);
        if m.is_promotion() {
            if !kind.can_promote() || !in_zone {
                return false;
            }
        } else {
            let dead = match kind {
                PieceKind::Pawn | PieceKind::Lance => masks::last_rank(us).contains(to),
                PieceKind::Knight => masks::last_two_ranks(us).contains(to),
                _ => false,
            };
            if dead {
                return false;
            }
        }
        let ksq = self.king_square(us);
        if kind == PieceKind::King {
            return self.king_safe_at(us, to);
        }
        let checkers = self.checkers();
        if checkers.is_some() {
            if checkers.more_than_one() {
                return false;
            }
            let c = checkers.lsb();
            if to != c && !between(ksq, c).contains(to) {
                return false;
            }
        }
        !self.pinned(us).contains(from) || line(ksq, from).contains(to)
    }

    /// `is_legal` for a drop: a kind in hand, onto an empty square where it can still move, an
    /// interposition when in check, and the two-pawn and pawn-drop-mate rules.
    fn is_legal_drop(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let to = m.to();
        let k = m.dropped_kind();
        let raw_kind = (m.raw() >> 7) & 0x7f;
        if !(1..=7).contains(&raw_kind) || m.is_promotion() {
            return false;
        }
        if !self.hand(us).has(k) || self.piece_on(to).is_some() {
            return false;
        }
        match k {
            PieceKind::Pawn | PieceKind::Lance if masks::last_rank(us).contains(to) => return false,
            PieceKind::Knight if masks::last_two_ranks(us).contains(to) => return false,
            _ => {}
        }
        // In check, a drop can only interpose against a single slider.
        let checkers = self.checkers();
        if checkers.is_some()
            && (checkers.more_than_one() || !between(self.king_square(us), checkers.lsb()).contains(to))
        {
            return false;
        }
        if k == PieceKind::Pawn {
            if pawn_files(self, us).contains(to) {
                return false;
            }
            if pawn_check_square(self, us) == Some(to) && is_pawn_drop_mate(self, us, to) {
                return false;
            }
        }
        true
    }
}
