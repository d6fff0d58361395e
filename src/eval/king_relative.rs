//! Piece placement relative to both kings, and the king's own square.
//!
//! Each non-king piece scores twice: once by where it stands relative to its own king (defence:
//! generals next to the king, the pawn shield, the rook kept away) and once relative to the enemy
//! king (attack: pieces close to it, rooks and lances on its file, knights one jump away).
//!
//! Offsets are taken from the owner's point of view (White's are rotated 180 degrees), so both
//! colours share one table per kind, and every formula uses only the distance between files, so a
//! position and its left-right mirror score the same. The tables are built at compile time from the
//! short formulas below and the numbers in `params`.

use super::params::*;
use super::Value;
use crate::types::{Color, PieceKind, Square};
use crate::Position;

/// An offset from a king to a piece is packed as `SPAN * (file offset + 8) + (rank offset + 8)`,
/// both in -8..=8 and seen from the piece owner's side: a negative rank offset means the piece
/// stands further toward the enemy than the king.
const SPAN: i32 = 17;
/// The packed index of offset (0, 0).
const CENTRE: i32 = 8 * SPAN + 8;
/// Packed offsets: the width of each table row.
const RELATIONS: usize = (SPAN * SPAN) as usize;

/// Square index with each file padded to `SPAN` ranks: the difference of two padded indices is
/// `SPAN * file offset + rank offset`, which identifies the offset uniquely (unlike raw indices).
const PADDED: [i32; 81] = {
    let mut t = [0; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = (i as i32 / 9) * SPAN + (i as i32 % 9);
        i += 1;
    }
    t
};

/// The larger of two values (`Ord::max` is not `const`).
const fn max(a: i32, b: i32) -> i32 {
    if a > b {
        a
    } else {
        b
    }
}

/// Chebyshev distance of an offset.
const fn cheb(dx: i32, dy: i32) -> usize {
    max(dx, dy.abs()) as usize
}

/// A guard bonus, reduced for squares behind the king (`dy > 0`), which protect it less.
const fn guard(profile: &[Value; 9], dx: i32, dy: i32) -> Value {
    let v = profile[cheb(dx, dy)];
    if dy > 0 {
        v * GUARD_BEHIND_PERCENT / 100
    } else {
        v
    }
}

/// Score of a piece of `kind` at file distance `dx` and rank offset `dy` from its own king.
const fn own_king_term(kind: PieceKind, dx: i32, dy: i32) -> Value {
    use PieceKind::*;
    match kind {
        Gold => guard(&GOLD_GUARD, dx, dy),
        Silver => guard(&SILVER_GUARD, dx, dy),
        ProPawn | ProLance | ProKnight | ProSilver => {
            guard(&GOLD_GUARD, dx, dy) * PROMOTED_GUARD_PERCENT / 100
        }
        Horse => HORSE_GUARD[cheb(dx, dy)],
        Rook => ROOK_NEAR_KING[cheb(dx, dy)],
        // The shield: pawns up to three ranks ahead of the king, on its file or near it.
        Pawn if dy < 0 && dy >= -3 && dx <= 2 => {
            let v = PAWN_SHIELD[(-dy) as usize];
            if dx == 2 {
                v * PAWN_SHIELD_WIDE_PERCENT / 100
            } else {
                v
            }
        }
        _ => 0,
    }
}

/// Score of a piece of `kind` at file distance `dx` and rank offset `dy` from the enemy king
/// (`dy > 0`: the piece stands on its owner's side of that king, facing it).
const fn enemy_king_term(kind: PieceKind, dx: i32, dy: i32) -> Value {
    use PieceKind::*;
    let near = ATTACK_WEIGHT[kind.index()] * ATTACK_BY_DISTANCE[cheb(dx, dy)] / ATTACK_WEIGHT_DIV;
    let shape = match kind {
        // A knight jumps two ranks forward: from 1-3 ranks in front of the king and within two
        // files it lands next to the king.
        Knight if dy >= 1 && dy <= 3 && dx <= 2 => KNIGHT_JUMP,
        Rook if dx <= 1 => ROOK_ON_KING_FILE[dx as usize],
        // A lance only looks forward: it must stand on the owner's side of the king.
        Lance if dx <= 1 && dy > 0 => LANCE_ON_KING_FILE[dx as usize],
        _ => 0,
    };
    near + shape
}

/// By kind index (slot 0 and the king's slot stay zero; 16 rows so `kind & 15` needs no check),
/// then by packed offset.
type Table = [[i16; RELATIONS]; 16];

/// Builds a table by kind and packed offset from one of the two formulas.
const fn build(own: bool) -> Table {
    let mut t = [[0i16; RELATIONS]; 16];
    let mut k = 1;
    while k < 15 {
        let kind = match PieceKind::from_u8(k as u8) {
            Some(kind) => kind,
            None => PieceKind::Pawn,
        };
        let mut i = 0;
        while i < RELATIONS {
            let dx = (i as i32 / SPAN - 8).abs();
            let dy = i as i32 % SPAN - 8;
            let v = if matches!(kind, PieceKind::King) || (dx == 0 && dy == 0) {
                0
            } else if own {
                own_king_term(kind, dx, dy)
            } else {
                enemy_king_term(kind, dx, dy)
            };
            t[k][i] = v as i16;
            i += 1;
        }
        k += 1;
    }
    t
}

/// What each piece scores by its offset from its own king.
static OWN_KING: Table = build(true);
/// What each piece scores by its offset from the enemy king.
static ENEMY_KING: Table = build(false);
/// Stands in for either table when that king is missing (a composed problem), looked up as if the
/// king stood on square index 0, so the loop below needs no test per piece and never touches
/// `Square::NO_KING`.
static NO_KING_TABLE: Table = [[0; RELATIONS]; 16];

/// The king's own square from Black's point of view (White looks up the rotated square).
static KING_SQUARE: [i16; 81] = {
    let mut t = [0i16; 81];
    let mut i = 0;
    while i < 81 {
        let file = (i / 9) as i32;
        let rank = i % 9;
        t[i] = (KING_RANK[rank] + KING_FILE[(file - 4).unsigned_abs() as usize]) as i16;
        i += 1;
    }
    t
};

/// One side's placement: its pieces relative to both kings, and its king's square, in one pass
/// over its pieces. (Material is the position's own, kept move by move.)
#[inline(always)]
fn side(pos: &Position, us: Color) -> Value {
    // Offsets are rotated for White: relation = base + sign * PADDED[piece].
    let sign = if us == Color::Black { 1 } else { -1 };
    let lookup = |c: Color, table: &'static Table| {
        if pos.has_king(c) {
            (table, CENTRE - sign * PADDED[pos.king_square(c).index()])
        } else {
            (&NO_KING_TABLE, CENTRE - sign * PADDED[0])
        }
    };
    let (own_t, own_base) = lookup(us, &OWN_KING);
    let (enemy_t, enemy_base) = lookup(!us, &ENEMY_KING);

    let mut placement = 0;
    if pos.has_king(us) {
        let k = pos.king_square(us);
        let seen_as_black = if us == Color::Black { k } else { k.flip() };
        placement += KING_SQUARE[seen_as_black.index()] as Value;
    }
    // The king is visited too: its table rows are zero.
    let bb = pos.pieces_of(us).0;
    for (mut bits, offset) in [(bb as u64, 0), ((bb >> 64) as u64, 64)] {
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize + offset;
            bits &= bits - 1;
            let kind = pos.piece_on(Square::from_index_unchecked(sq)).index() & 15;
            let padded = sign * PADDED[sq];
            placement += own_t[kind][(own_base + padded) as usize] as Value
                + enemy_t[kind][(enemy_base + padded) as usize] as Value;
        }
    }
    placement
}

/// Placement of both sides' pieces and kings, from Black's point of view.
#[inline]
pub fn placement(pos: &Position) -> Value {
    side(pos, Color::Black) - side(pos, Color::White)
}

/// Tests of the king-relative tables.
#[cfg(test)]
mod tests {
    use super::*;

    /// The table index of a piece of colour `c` on `piece` relative to the king on `king`. The rank
    /// offset is negative when the piece stands further up the board (toward the enemy) than the king.
    fn relation(c: Color, piece: Square, king: Square) -> usize {
        let d = PADDED[piece.index()] - PADDED[king.index()];
        (CENTRE + if c == Color::Black { d } else { -d }) as usize
    }

    /// The square of a USI name such as `5e`.
    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn offsets_are_seen_from_the_owner() {
        // A black gold on 5h in front of the king on 5i, and a white gold on 5b in front of 5a,
        // have the same offset (one rank ahead).
        let b = relation(Color::Black, sq("5h"), sq("5i"));
        let w = relation(Color::White, sq("5b"), sq("5a"));
        assert_eq!(b, w);
        assert_eq!(b as i32, CENTRE - 1);
        // One file to either side is the same distance.
        let l = relation(Color::Black, sq("4h"), sq("5i"));
        let r = relation(Color::Black, sq("6h"), sq("5i"));
        assert_eq!(OWN_KING[PieceKind::Gold.index()][l], OWN_KING[PieceKind::Gold.index()][r]);
    }

    #[test]
    fn generals_guard_and_rooks_stay_away() {
        let next = relation(Color::Black, sq("6h"), sq("5i"));
        let far = relation(Color::Black, sq("1a"), sq("5i"));
        let gold = &OWN_KING[PieceKind::Gold.index()];
        // Relative, not absolute: a constant shift of the guard table trades with the gold's
        // material value (a direction the Texel fit leaves free).
        assert!(gold[next] > gold[far]);
        assert!(OWN_KING[PieceKind::Rook.index()][next] < 0);
        // A dragon next to the enemy king is worth more than one far away.
        let dragon = &ENEMY_KING[PieceKind::Dragon.index()];
        assert!(dragon[relation(Color::Black, sq("5b"), sq("5a"))] > dragon[far]);
    }

    #[test]
    fn king_prefers_its_own_camp() {
        assert!(KING_SQUARE[sq("8h").index()] > KING_SQUARE[sq("5e").index()]);
        assert_eq!(KING_SQUARE[sq("2h").index()], KING_SQUARE[sq("8h").index()]);
    }
}
