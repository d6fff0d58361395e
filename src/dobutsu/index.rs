//! A ranking function: a dense index for every normalised position, used by the solver and by
//! the table instead of a stored key list.
//!
//! Normalisation follows Tanaka: the side to move is made Black (rotating the board 180° and
//! swapping colours when White is to move), and a position and its left–right mirror share one
//! index (the smaller of the two).
//!
//! The index of a Black-to-move position with Black's Lion off rank `a` is
//! `lion_pair * BODY + body`:
//! - `lion_pair` (66 values): Black's Lion on one of the 6 squares of files 3 and 2 of ranks
//!   b–d (a Lion on file 1 is mirrored over), White's Lion on one of the 11 other squares;
//! - `body` (`BODY` = 17,269,416 values): the other 10 squares read in order, each empty or
//!   holding one of 8 pieces (Chick, Hen, Elephant, Giraffe × owner), ranked combinatorially
//!   under the limit of two pieces per kind (Hen counting as Chick), then the hands: for each
//!   kind with `r` pieces off the board, one of the `(r+1)(r+2)/2` splits between the hands
//!   (fewer than `r` in hand means pieces are out of play, so sub-games with fewer pieces fit).
//!
//! `SIZE` = 1,139,781,456 indices, so an index fits in a `u32`.

use super::position::{cell, col_of, rank_of, Cell, Kind, Position, SQUARES};
use crate::types::Color;

/// The piece states of a non-Lion square, in ranking order.
const STATES: [Cell; 9] = [
    0,
    cell(Kind::Chick, Color::Black),
    cell(Kind::Chick, Color::White),
    cell(Kind::Hen, Color::Black),
    cell(Kind::Hen, Color::White),
    cell(Kind::Elephant, Color::Black),
    cell(Kind::Elephant, Color::White),
    cell(Kind::Giraffe, Color::Black),
    cell(Kind::Giraffe, Color::White),
];

/// The budget slot (Chick 0, Elephant 1, Giraffe 2) each state uses; 3 for empty.
const STATE_KIND: [usize; 9] = [3, 0, 0, 0, 0, 1, 1, 2, 2];

/// Budget triples (Chick, Elephant, Giraffe pieces still to place), flattened as `c*9 + e*3 + g`.
const BUDGETS: usize = 27;

/// Number of ways to split `r` pieces between the hands, some possibly out of play.
const HAND_SPLITS: [u64; 3] = [1, 3, 6];

/// Ranking tables: completions and per-state offsets.
struct Tables {
    /// `ways[n][budget]`: completions of `n` squares plus hands.
    ways: [[u64; BUDGETS]; 11],
    /// `offset[n][budget][state]`: completions ranked below `state` on the next square.
    offset: [[[u32; 9]; BUDGETS]; 11],
}

/// The flat index of a budget triple (Chick, Elephant, Giraffe pieces still to place).
const fn budget_index(b: [usize; 3]) -> usize {
    b[0] * 9 + b[1] * 3 + b[2]
}

/// Fills `Tables` by squares left: `ways[0]` counts the splits of the hands, `ways[n]` sums
/// `ways[n - 1]` over the states the budget allows on the next square, `offset` is that running sum.
const fn build_tables() -> Tables {
    let mut ways = [[0u64; BUDGETS]; 11];
    let mut offset = [[[0u32; 9]; BUDGETS]; 11];
    let mut bi = 0;
    while bi < BUDGETS {
        ways[0][bi] = HAND_SPLITS[bi / 9] * HAND_SPLITS[bi / 3 % 3] * HAND_SPLITS[bi % 3];
        bi += 1;
    }
    let mut n = 1;
    while n <= 10 {
        let mut bi = 0;
        while bi < BUDGETS {
            let b = [bi / 9, bi / 3 % 3, bi % 3];
            let mut acc = 0u64;
            let mut s = 0;
            while s < 9 {
                offset[n][bi][s] = acc as u32;
                let k = STATE_KIND[s];
                if k == 3 {
                    acc += ways[n - 1][bi];
                } else if b[k] > 0 {
                    let mut nb = b;
                    nb[k] -= 1;
                    acc += ways[n - 1][budget_index(nb)];
                }
                s += 1;
            }
            ways[n][bi] = acc;
            bi += 1;
        }
        n += 1;
    }
    Tables { ways, offset }
}

/// The ranking tables, built at compile time.
static TABLES: Tables = build_tables();

/// Indices per Lion placement.
pub const BODY: u64 = build_tables().ways[10][26];
/// Lion placements: Black's Lion on 6 squares, White's on the 11 others.
pub const LION_PAIRS: u64 = 66;
/// Size of the index space.
pub const SIZE: u64 = LION_PAIRS * BODY;

/// Squares Black's Lion may stand on in an indexed position (files 3 and 2, ranks b–d).
const BLACK_LION_SQUARES: [usize; 6] = [3, 4, 6, 7, 9, 10];

/// The ranking state of each cell value (Lions and unused values map to 255).
const CELL_STATE: [u8; 16] = {
    let mut t = [255u8; 16];
    let mut s = 0;
    while s < 9 {
        t[STATES[s] as usize] = s as u8;
        s += 1;
    }
    t
};

/// `MIRROR[sq]`: the square reflected left to right.
const MIRROR: [usize; SQUARES] = [2, 1, 0, 5, 4, 3, 8, 7, 6, 11, 10, 9];

/// Index of a split `(black, white)` of up to `r` pieces between the hands.
fn hand_split_rank(black: usize, white: usize) -> u64 {
    // Splits ordered by total then by Black's count: (0,0) (0,1) (1,0) (0,2) (1,1) (2,0).
    let t = black + white;
    (t * (t + 1) / 2 + black) as u64
}

/// The split `(black, white)` of rank `i`: the inverse of `hand_split_rank`.
fn hand_split_unrank(i: u64) -> (u8, u8) {
    const SPLITS: [(u8, u8); 6] = [(0, 0), (0, 1), (1, 0), (0, 2), (1, 1), (2, 0)];
    SPLITS[i as usize]
}

/// The index of a Black-to-move position with Black's Lion on `bl` and White's on `wl`, read
/// as it stands (`mirror == false`) or reflected left to right; `None` when it is outside the
/// index (Black's Lion on file 1 or rank a after reflection, or too many pieces of a kind).
#[inline]
fn rank_oriented(pos: &Position, bl: usize, wl: usize, mirror: bool) -> Option<u64> {
    let at = |sq: usize| if mirror { MIRROR[sq] } else { sq };
    let (bl, wl) = (at(bl), at(wl));
    let bi = BLACK_LION_SQUARES.iter().position(|&s| s == bl)?;
    let wi = if wl > bl { wl - 1 } else { wl };
    let pair = (bi * 11 + wi) as u64;
    let mut budget = [2usize; 3];
    let mut body = 0u64;
    let mut n = 10;
    for sq in 0..SQUARES {
        if sq == bl || sq == wl {
            continue;
        }
        let s = CELL_STATE[pos.board[at(sq)] as usize] as usize;
        if s == 255 {
            return None;
        }
        body += TABLES.offset[n][budget_index(budget)][s] as u64;
        let k = STATE_KIND[s];
        if k < 3 {
            budget[k] = budget[k].checked_sub(1)?;
        }
        n -= 1;
    }
    let mut hand = 0u64;
    for k in (0..3).rev() {
        let (b, w) = (pos.hands[0][k] as usize, pos.hands[1][k] as usize);
        if b + w > budget[k] {
            return None;
        }
        hand = hand * HAND_SPLITS[budget[k]] + hand_split_rank(b, w);
    }
    Some(pair * BODY + body + hand)
}

/// The index of a Black-to-move position, mirror-normalised; `None` outside the index.
#[inline]
pub fn index_of_normalised(p: &Position) -> Option<u64> {
    let (mut bl, mut wl) = (usize::MAX, usize::MAX);
    for (sq, &c) in p.board.iter().enumerate() {
        if c == cell(Kind::Lion, Color::Black) {
            bl = sq;
        } else if c == cell(Kind::Lion, Color::White) {
            wl = sq;
        }
    }
    if bl == usize::MAX || wl == usize::MAX || rank_of(bl) == 0 {
        return None;
    }
    match col_of(bl) {
        0 => rank_oriented(p, bl, wl, false),
        2 => rank_oriented(p, bl, wl, true),
        _ => {
            let a = rank_oriented(p, bl, wl, false)?;
            let b = rank_oriented(p, bl, wl, true)?;
            Some(a.min(b))
        }
    }
}

/// The side-to-move-normalised copy of `pos` (Black to move).
#[inline]
pub fn normalised(pos: &Position) -> Position {
    if pos.side == Color::White {
        pos.rotated()
    } else {
        *pos
    }
}

/// The index of a position, normalised by side to move and mirror; `None` for positions
/// outside the index (a Lion missing, or the mover's own Lion already on its far rank).
pub fn index_of(pos: &Position) -> Option<u64> {
    index_of_normalised(&normalised(pos))
}

/// The Black-to-move position of an index (`index < SIZE`).
pub fn position_of(index: u64) -> Position {
    debug_assert!(index < SIZE);
    let pair = (index / BODY) as usize;
    let mut rest = index % BODY;
    let bl = BLACK_LION_SQUARES[pair / 11];
    let wi = pair % 11;
    let wl = if wi >= bl { wi + 1 } else { wi };
    let mut pos = Position::empty();
    pos.board[bl] = cell(Kind::Lion, Color::Black);
    pos.board[wl] = cell(Kind::Lion, Color::White);
    let mut budget = [2usize; 3];
    let mut n = 10;
    for sq in 0..SQUARES {
        if sq == bl || sq == wl {
            continue;
        }
        let offs = &TABLES.offset[n][budget_index(budget)];
        let mut chosen = 0;
        for s in 0..9 {
            let k = STATE_KIND[s];
            if (k == 3 || budget[k] > 0) && offs[s] as u64 <= rest {
                chosen = s;
            }
        }
        rest -= offs[chosen] as u64;
        pos.board[sq] = STATES[chosen];
        let k = STATE_KIND[chosen];
        if k < 3 {
            budget[k] -= 1;
        }
        n -= 1;
    }
    for k in 0..3 {
        let splits = HAND_SPLITS[budget[k]];
        let (b, w) = hand_split_unrank(rest % splits);
        rest /= splits;
        pos.hands[0][k] = b;
        pos.hands[1][k] = w;
    }
    pos
}

/// Tests of the ranking function.
#[cfg(test)]
mod tests {
    use super::*;

    /// The index of `p` as it stands, unmirrored; `None` without both Lions or outside the index.
    fn oriented(p: &Position) -> Option<u64> {
        rank_oriented(p, p.lion(Color::Black)?, p.lion(Color::White)?, false)
    }

    #[test]
    fn sizes() {
        assert_eq!(BODY, 17_269_416);
        assert_eq!(SIZE, 1_139_781_456);
        assert!(SIZE < u32::MAX as u64);
    }

    #[test]
    fn unrank_then_rank_is_identity_on_a_sample() {
        let mut i = 0u64;
        while i < SIZE {
            let p = position_of(i);
            assert_eq!(oriented(&p), Some(i), "{}", p.to_sfen());
            let canon = index_of(&p).unwrap();
            assert!(canon <= i);
            assert_eq!(index_of(&p.mirrored()), Some(canon));
            assert_eq!(index_of(&p.rotated()), Some(canon));
            i += 999_983;
        }
        assert_eq!(oriented(&position_of(SIZE - 1)), Some(SIZE - 1));
        assert_eq!(oriented(&position_of(0)), Some(0));
    }
}
