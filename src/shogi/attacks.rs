//! Attack tables for every piece, built at compile time by `const fn`.
//!
//! Step pieces use per-square tables. Sliders use one ray mask per direction: on a ray that runs
//! toward higher square indices the first blocker is the lowest set bit of `occupied & ray`, on a ray
//! toward lower indices it is the highest. Isolating either bit is a few integer instructions, so no
//! magic numbers or large occupancy tables are needed.
//!
//! Every table has one extra, empty entry at index 81 (`Square::NO_KING`): a side without a king
//! (composed problems) keeps its king "square" there, and every attack and line from it is empty.

use crate::types::{Bitboard, Color, PieceKind, Square};

/// Ray directions as (file step, rank step); rank step -1 is toward rank `a`.
const DIRS: [(i8, i8); 8] = [
    // rays toward higher indices
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
    // rays toward lower indices
    (0, -1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];
/// Index in `DIRS` of the ray toward rank `i`.
const DOWN: usize = 0;
/// Index in `DIRS` of the ray toward file 9 and rank `a`.
const UP_LEFT: usize = 1;
/// Index in `DIRS` of the ray toward file 9.
const LEFT: usize = 2;
/// Index in `DIRS` of the ray toward file 9 and rank `i`.
const DOWN_LEFT: usize = 3;
/// Index in `DIRS` of the ray toward rank `a`.
const UP: usize = 4;
/// Index in `DIRS` of the ray toward file 1 and rank `i`.
const DOWN_RIGHT: usize = 5;
/// Index in `DIRS` of the ray toward file 1.
const RIGHT: usize = 6;
/// Index in `DIRS` of the ray toward file 1 and rank `a`.
const UP_RIGHT: usize = 7;

/// Whether file index `f` and rank index `r` (both 0..9) name a square.
const fn on_board(f: i8, r: i8) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 9
}

/// The bit of the square at file index `f` and rank index `r`.
const fn bit(f: i8, r: i8) -> u128 {
    1u128 << (f as u32 * 9 + r as u32)
}

/// Squares reached by single steps (file, rank) from `sq`, as seen by Black; White mirrors the rank.
const fn steps(sq: usize, color: Color, deltas: &[(i8, i8)]) -> Bitboard {
    let f = (sq / 9) as i8;
    let r = (sq % 9) as i8;
    let mut bb = 0u128;
    let mut i = 0;
    while i < deltas.len() {
        let (df, dr) = deltas[i];
        let dr = match color {
            Color::Black => dr,
            Color::White => -dr,
        };
        if on_board(f + df, r + dr) {
            bb |= bit(f + df, r + dr);
        }
        i += 1;
    }
    Bitboard(bb)
}

/// A pawn's step, as Black sees it: one rank forward.
const PAWN_STEPS: [(i8, i8); 1] = [(0, -1)];
/// A knight's two jumps, as Black sees them.
const KNIGHT_STEPS: [(i8, i8); 2] = [(-1, -2), (1, -2)];
/// A silver's five steps, as Black sees them: the three ahead and the two diagonals behind.
const SILVER_STEPS: [(i8, i8); 5] = [(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
/// A gold's six steps, as Black sees them: every neighbour but the two diagonals behind.
const GOLD_STEPS: [(i8, i8); 6] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
/// A king's eight steps.
const KING_STEPS: [(i8, i8); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
/// Every step of at most two files and two ranks.
const WITHIN_TWO_STEPS: [(i8, i8); 24] = {
    let mut t = [(0, 0); 24];
    let (mut i, mut df) = (0, -2);
    while df <= 2 {
        let mut dr = -2;
        while dr <= 2 {
            if df != 0 || dr != 0 {
                t[i] = (df, dr);
                i += 1;
            }
            dr += 1;
        }
        df += 1;
    }
    t
};

/// The squares `deltas` reach from each square, by colour (index 0 Black, 1 White) then square.
const fn step_table(deltas: &[(i8, i8)]) -> [[Bitboard; 82]; 2] {
    let mut t = [[Bitboard::EMPTY; 82]; 2];
    let mut sq = 0;
    while sq < 81 {
        t[0][sq] = steps(sq, Color::Black, deltas);
        t[1][sq] = steps(sq, Color::White, deltas);
        sq += 1;
    }
    t
}

/// Each direction's ray from each square: the squares after it up to the edge, by `DIRS` index.
const fn ray_table() -> [[Bitboard; 82]; 8] {
    let mut t = [[Bitboard::EMPTY; 82]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 81 {
            let (df, dr) = DIRS[d];
            let mut f = (sq / 9) as i8 + df;
            let mut r = (sq % 9) as i8 + dr;
            let mut bb = 0u128;
            while on_board(f, r) {
                bb |= bit(f, r);
                f += df;
                r += dr;
            }
            t[d][sq] = Bitboard(bb);
            sq += 1;
        }
        d += 1;
    }
    t
}

/// For every aligned pair: the squares strictly between them, and the whole line through both.
const fn line_tables() -> ([[Bitboard; 82]; 82], [[Bitboard; 82]; 82]) {
    let mut between = [[Bitboard::EMPTY; 82]; 82];
    let mut line = [[Bitboard::EMPTY; 82]; 82];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRS[d];
            let full = RAYS[d][a].0 | RAYS[(d + 4) % 8][a].0 | (1u128 << a);
            let mut f = (a / 9) as i8 + df;
            let mut r = (a % 9) as i8 + dr;
            let mut acc = 0u128;
            while on_board(f, r) {
                let b = (f as usize) * 9 + r as usize;
                between[a][b] = Bitboard(acc);
                line[a][b] = Bitboard(full);
                acc |= bit(f, r);
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

/// Pawn attacks, by colour and square.
static PAWN: [[Bitboard; 82]; 2] = step_table(&PAWN_STEPS);
/// Knight attacks, by colour and square.
static KNIGHT: [[Bitboard; 82]; 2] = step_table(&KNIGHT_STEPS);
/// Silver attacks, by colour and square.
static SILVER: [[Bitboard; 82]; 2] = step_table(&SILVER_STEPS);
/// Gold attacks (and those of the promoted small pieces), by colour and square.
static GOLD: [[Bitboard; 82]; 2] = step_table(&GOLD_STEPS);
/// King attacks, by square (the same for both colours).
static KING: [Bitboard; 82] = step_table(&KING_STEPS)[0];
/// The squares at most two files and two ranks away, by square (for `within_two`).
static WITHIN_TWO: [Bitboard; 82] = step_table(&WITHIN_TWO_STEPS)[0];
/// Where an enemy knight may stand to give check with its next move, by the king's colour and square.
static KNIGHT_CHECK_ORIGINS: [[Bitboard; 82]; 2] = knight_check_origin_table();

/// For a king of colour `c` on each square: the squares from which an enemy knight could jump to
/// a square where it checks, as a knight or promoted to a gold-mover.
const fn knight_check_origin_table() -> [[Bitboard; 82]; 2] {
    let knight = step_table(&KNIGHT_STEPS);
    let gold = step_table(&GOLD_STEPS);
    let mut t = [[Bitboard::EMPTY; 82]; 2];
    let mut c = 0;
    while c < 2 {
        let mut king = 0;
        while king < 81 {
            // The king's own colour's patterns, reversed: the squares that attack it.
            let checks = knight[c][king].0 | gold[c][king].0;
            let mut origins = 0u128;
            let mut sq = 0;
            while sq < 81 {
                if checks & (1u128 << sq) != 0 {
                    origins |= knight[c][sq].0;
                }
                sq += 1;
            }
            t[c][king] = Bitboard(origins);
            king += 1;
        }
        c += 1;
    }
    t
}
/// The rays, by `DIRS` index and square.
static RAYS: [[Bitboard; 82]; 8] = ray_table();
/// `line_tables()`: the squares between two aligned squares, and the line through them.
static LINES: ([[Bitboard; 82]; 82], [[Bitboard; 82]; 82]) = line_tables();
/// A rook's moves on an empty board, by square.
static ROOK_PSEUDO: [Bitboard; 82] = union_of_rays([DOWN, UP, LEFT, RIGHT]);
/// A bishop's moves on an empty board, by square.
static BISHOP_PSEUDO: [Bitboard; 82] = union_of_rays([UP_LEFT, DOWN_LEFT, DOWN_RIGHT, UP_RIGHT]);

/// For every square, the union of its rays in the four directions `dirs`: a slider's moves on an
/// empty board, looked up rather than ORed together at each call.
const fn union_of_rays(dirs: [usize; 4]) -> [Bitboard; 82] {
    let mut t = [Bitboard::EMPTY; 82];
    let mut sq = 0;
    while sq < 82 {
        let mut i = 0;
        while i < 4 {
            t[sq] = Bitboard(t[sq].0 | RAYS[dirs[i]][sq].0);
            i += 1;
        }
        sq += 1;
    }
    t
}

/// Squares a pawn of `c` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(c: Color, sq: Square) -> Bitboard {
    PAWN[c.index()][sq.index()]
}
/// Squares a knight of `c` on `sq` attacks (it jumps: no blockers).
#[inline(always)]
pub fn knight_attacks(c: Color, sq: Square) -> Bitboard {
    KNIGHT[c.index()][sq.index()]
}
/// Squares a silver of `c` on `sq` attacks.
#[inline(always)]
pub fn silver_attacks(c: Color, sq: Square) -> Bitboard {
    SILVER[c.index()][sq.index()]
}
/// Squares a gold (or promoted minor piece) of `c` on `sq` attacks.
#[inline(always)]
pub fn gold_attacks(c: Color, sq: Square) -> Bitboard {
    GOLD[c.index()][sq.index()]
}
/// Squares a king on `sq` attacks; empty for `Square::NO_KING`.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}
/// Squares at most two files and two ranks from `sq`, `sq` itself excluded.
#[inline(always)]
pub fn within_two(sq: Square) -> Bitboard {
    WITHIN_TWO[sq.index()]
}
/// Squares from which a knight of the enemy of `c` could jump to a square where it checks the king
/// of colour `c` on `ksq` (as a knight, or promoting there to move like a gold).
#[inline(always)]
pub fn knight_check_origins(c: Color, ksq: Square) -> Bitboard {
    KNIGHT_CHECK_ORIGINS[c.index()][ksq.index()]
}

/// The squares of `ray` (squares of rising index from its origin) up to and including the first
/// one occupied in `occ`.
#[inline(always)]
fn up_to_first_rising(ray: u128, occ: Bitboard) -> Bitboard {
    let x = occ.0 & ray;
    Bitboard((x ^ x.wrapping_sub(1)) & ray)
}

/// The squares of `ray` (squares of falling index from its origin) down to and including the
/// first one occupied in `occ`. Bit 0 (square 1a) is forced on as a sentinel: it is the last
/// square of any such ray that reaches it, so treating it as a blocker changes nothing.
#[inline(always)]
fn down_to_first_falling(ray: u128, occ: Bitboard) -> Bitboard {
    let x = (occ.0 & ray) | 1;
    let top = 127 - x.leading_zeros();
    Bitboard(ray & FROM_BIT[top as usize])
}

/// Attacks along a ray toward higher indices: up to and including the first blocker.
#[inline(always)]
fn ray_up_index(dir: usize, sq: Square, occ: Bitboard) -> Bitboard {
    up_to_first_rising(RAYS[dir][sq.index()].0, occ)
}

/// Attacks along a ray toward lower indices: down to and including the first blocker.
#[inline(always)]
fn ray_down_index(dir: usize, sq: Square, occ: Bitboard) -> Bitboard {
    down_to_first_falling(RAYS[dir][sq.index()].0, occ)
}

/// `FROM_BIT[i]`: every bit from `i` up. A lookup is cheaper than shifting a `u128` by a
/// variable amount, which takes several instructions and a branch on x86-64.
static FROM_BIT: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = u128::MAX << i;
        i += 1;
    }
    t
};

/// Squares a lance of `c` on `sq` attacks with `occ` occupied: forward up to the first blocker.
#[inline(always)]
pub fn lance_attacks(c: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match c {
        Color::Black => ray_down_index(UP, sq, occ),
        Color::White => ray_up_index(DOWN, sq, occ),
    }
}

/// Squares a rook on `sq` attacks with `occ` occupied: each way up to the first blocker.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    ray_up_index(DOWN, sq, occ)
        | ray_up_index(LEFT, sq, occ)
        | ray_down_index(UP, sq, occ)
        | ray_down_index(RIGHT, sq, occ)
}

/// Squares a bishop on `sq` attacks with `occ` occupied: each diagonal up to the first blocker.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    ray_up_index(UP_LEFT, sq, occ)
        | ray_up_index(DOWN_LEFT, sq, occ)
        | ray_down_index(DOWN_RIGHT, sq, occ)
        | ray_down_index(UP_RIGHT, sq, occ)
}

/// Squares a horse (promoted bishop) on `sq` attacks: bishop lines and king steps.
#[inline(always)]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    bishop_attacks(sq, occ) | KING[sq.index()]
}

/// Squares a dragon (promoted rook) on `sq` attacks: rook lines and king steps.
#[inline(always)]
pub fn dragon_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | KING[sq.index()]
}

/// Lance moves on an empty board.
#[inline(always)]
pub fn lance_pseudo(c: Color, sq: Square) -> Bitboard {
    match c {
        Color::Black => RAYS[UP][sq.index()],
        Color::White => RAYS[DOWN][sq.index()],
    }
}

/// Rook moves on an empty board.
#[inline(always)]
pub fn rook_pseudo(sq: Square) -> Bitboard {
    ROOK_PSEUDO[sq.index()]
}

/// Bishop moves on an empty board.
#[inline(always)]
pub fn bishop_pseudo(sq: Square) -> Bitboard {
    BISHOP_PSEUDO[sq.index()]
}

/// Squares strictly between `a` and `b` when they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    LINES.0[a.index()][b.index()]
}

/// The whole line through `a` and `b` (both included) when they share one, else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINES.1[a.index()][b.index()]
}

/// Squares attacked from `sq` along the half-line that runs through `through`, up to and
/// including the first piece of `occ` (empty when the two share no line). A static exchange uses
/// it to find the slider uncovered behind a piece that has just left `through`.
#[inline(always)]
pub fn ray_attacks_through(sq: Square, through: Square, occ: Bitboard) -> Bitboard {
    let line = line(sq, through).0;
    let s = sq.index();
    // Along a line, square indices rise or fall steadily: the half-line is the part of the line
    // on `through`'s side of `sq`.
    if through.index() > s {
        up_to_first_rising(line & FROM_BIT[s + 1], occ)
    } else {
        down_to_first_falling(line & !FROM_BIT[s], occ)
    }
}

/// Squares a piece of `kind` and colour `c` on `sq` attacks, given the occupancy.
#[inline(always)]
pub fn attacks(c: Color, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    use PieceKind::*;
    match kind {
        Pawn => pawn_attacks(c, sq),
        Lance => lance_attacks(c, sq, occ),
        Knight => knight_attacks(c, sq),
        Silver => silver_attacks(c, sq),
        Gold | ProPawn | ProLance | ProKnight | ProSilver => gold_attacks(c, sq),
        Bishop => bishop_attacks(sq, occ),
        Rook => rook_attacks(sq, occ),
        King => king_attacks(sq),
        Horse => horse_attacks(sq, occ),
        Dragon => dragon_attacks(sq, occ),
    }
}

/// For every piece kind (by `PieceKind::index()`; the king's slot empty), the squares from which
/// a piece of that kind and colour `us` would attack the enemy king on `ksq`, given the checking
/// squares of the three unpromoted sliders: attacks are symmetric, so the step pieces' come from
/// their tables seen from the king, the gold's serve the promoted small pieces, and the promoted
/// sliders add the king's steps. The mate search passes cut-down slider sets for contact checks.
#[inline(always)]
pub fn check_squares_with(
    us: Color,
    ksq: Square,
    lance: Bitboard,
    bishop: Bitboard,
    rook: Bitboard,
) -> [Bitboard; 15] {
    use PieceKind::*;
    let them = !us;
    let mut t = [Bitboard::EMPTY; 15];
    let gold = gold_attacks(them, ksq);
    let king = king_attacks(ksq);
    t[Pawn.index()] = pawn_attacks(them, ksq);
    t[Lance.index()] = lance;
    t[Knight.index()] = knight_attacks(them, ksq);
    t[Silver.index()] = silver_attacks(them, ksq);
    t[Gold.index()] = gold;
    t[Bishop.index()] = bishop;
    t[Rook.index()] = rook;
    t[ProPawn.index()] = gold;
    t[ProLance.index()] = gold;
    t[ProKnight.index()] = gold;
    t[ProSilver.index()] = gold;
    t[Horse.index()] = bishop | king;
    t[Dragon.index()] = rook | king;
    t
}

/// Board regions used by the move rules.
pub mod masks {
    use crate::types::{Bitboard, Color};

    /// The nine squares of rank index `rank`, as raw bits.
    const fn rank_mask(rank: u32) -> u128 {
        let mut bb = 0u128;
        let mut f = 0;
        while f < 9 {
            bb |= 1u128 << (f * 9 + rank);
            f += 1;
        }
        bb
    }

    /// The ranks `lo..=hi` (rank indices, 0 is rank `a`).
    const fn ranks(lo: u32, hi: u32) -> Bitboard {
        let mut bb = 0u128;
        let mut r = lo;
        while r <= hi {
            bb |= rank_mask(r);
            r += 1;
        }
        Bitboard(bb)
    }

    /// The nine squares of file `file` (0..9).
    pub const fn file(file: u32) -> Bitboard {
        Bitboard(0x1ffu128 << (file * 9))
    }

    /// Each colour's promotion zone: its far three ranks.
    const ZONES: [Bitboard; 2] = [ranks(0, 2), ranks(6, 8)];
    /// Each colour's far rank.
    const LAST_RANK: [Bitboard; 2] = [ranks(0, 0), ranks(8, 8)];
    /// Each colour's far two ranks.
    const LAST_TWO: [Bitboard; 2] = [ranks(0, 1), ranks(7, 8)];

    /// The promotion zone of `c`: its far three ranks.
    #[inline(always)]
    pub const fn zone(c: Color) -> Bitboard {
        ZONES[c.index()]
    }
    /// The rank where `c`'s pawns and lances cannot stay unpromoted.
    #[inline(always)]
    pub const fn last_rank(c: Color) -> Bitboard {
        LAST_RANK[c.index()]
    }
    /// The ranks where `c`'s knights cannot stay unpromoted.
    #[inline(always)]
    pub const fn last_two_ranks(c: Color) -> Bitboard {
        LAST_TWO[c.index()]
    }
}

/// Tests of the attack tables against their definitions and a square-by-square walk.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn composed_tables_match_their_definitions() {
        for ksq in Square::all() {
            let mut near = Bitboard::EMPTY;
            for sq in king_attacks(ksq) {
                near |= king_attacks(sq);
            }
            assert_eq!(within_two(ksq), near.without(ksq), "{ksq}");
            for c in Color::ALL {
                let mut origins = Bitboard::EMPTY;
                for sq in knight_attacks(c, ksq) | gold_attacks(c, ksq) {
                    origins |= knight_attacks(c, sq);
                }
                assert_eq!(knight_check_origins(c, ksq), origins, "{ksq} {c:?}");
            }
        }
    }

    /// The square of a USI name such as `5e`.
    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// Slider attacks by walking the board one square at a time, as the reference.
    fn walk(sq0: Square, dirs: &[(i8, i8)], occ: Bitboard) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (sq0.file() as i8 + df, sq0.rank() as i8 + dr);
            while on_board(f, r) {
                let s = Square::new(f as u8, r as u8);
                bb = bb.with(s);
                if occ.contains(s) {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        bb
    }

    #[test]
    fn sliders_match_a_square_by_square_walk() {
        let mut rng = crate::rng::Rng::new(0x9e3779b97f4a7c15);
        for _ in 0..2000 {
            let lo = rng.next_u64();
            let hi = rng.next_u64();
            let occ = Bitboard(((hi as u128) << 64 | lo as u128) & Bitboard::FULL.0 & (lo as u128 * 3));
            for s in Square::all() {
                let rook = [(0, 1), (0, -1), (1, 0), (-1, 0)];
                let bishop = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
                assert_eq!(rook_attacks(s, occ), walk(s, &rook, occ));
                assert_eq!(bishop_attacks(s, occ), walk(s, &bishop, occ));
                assert_eq!(lance_attacks(Color::Black, s, occ), walk(s, &[(0, -1)], occ));
                assert_eq!(lance_attacks(Color::White, s, occ), walk(s, &[(0, 1)], occ));
            }
        }
    }

    #[test]
    fn step_pieces_point_the_right_way() {
        assert_eq!(pawn_attacks(Color::Black, sq("7g")), Bitboard::from_square(sq("7f")));
        assert_eq!(pawn_attacks(Color::White, sq("3c")), Bitboard::from_square(sq("3d")));
        let n = knight_attacks(Color::Black, sq("8i"));
        assert_eq!(n, Bitboard::from_square(sq("7g")) | Bitboard::from_square(sq("9g")));
        assert_eq!(gold_attacks(Color::Black, sq("5e")).count(), 6);
        assert!(gold_attacks(Color::Black, sq("5e")).contains(sq("5f")));
        assert!(!gold_attacks(Color::Black, sq("5e")).contains(sq("4f")));
        assert!(silver_attacks(Color::White, sq("5e")).contains(sq("4f")));
        assert_eq!(king_attacks(sq("1a")).count(), 3);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("5a"), sq("5e")).count(), 3);
        assert_eq!(between(sq("1a"), sq("9i")).count(), 7);
        assert!(between(sq("1a"), sq("2c")).is_empty());
        assert!(line(sq("1a"), sq("2c")).is_empty());
        assert_eq!(line(sq("5e"), sq("5a")).count(), 9);
        assert!(line(sq("5e"), sq("5a")).contains(sq("5i")));
    }
}
