//! HalfKP's inputs, numbered as YaneuraOu numbers them: one copy of 1,548 piece features
//! (`BonaPiece`s) for each square of the perspective's own king.
//!
//! A perspective sees the board from its own side: White's squares are turned 180 degrees and
//! "own" and "opponent" replace the colours. The index of a feature is `1548 * king + piece`,
//! where `king` is the own king's square in that view (`file * 9 + rank`, as shomei numbers
//! squares) and `piece` is:
//! - for a piece in hand, the start of its kind's block plus `nth - 1` (the `nth` piece held
//!   switches on its own slot; holding three pawns switches on three);
//! - for a piece on the board, the start of its kind's block plus its square in the view.
//!   Promoted pawns, lances, knights and silvers share the golds' blocks.
//!
//! Kings are no features. Every position switches on 38 features per perspective: a piece the
//! position lacks (handicap games) counts as feature `piece = 0`, once per missing piece, as in
//! YaneuraOu, where such a piece keeps the empty slot of its piece list.

use crate::eval::nnue::architecture::ActiveFeatures;
use crate::types::{Color, Piece, PieceKind, Square};
use crate::Position;

/// Piece features per king square (`fe_end`): 90 hand slots, 18 board blocks of 81.
pub const PIECE_FEATURES: usize = 1548;
/// Every input of one perspective.
pub const INPUTS: usize = 81 * PIECE_FEATURES;
/// Features per perspective in every position: the 38 pieces other than the kings.
pub const PIECES: usize = 38;
/// The own king's square assumed when a side has none (composed problems): its home square,
/// 5i in its own view. YaneuraOu cannot evaluate such positions at all.
const HOME_SQUARE: usize = 44;

/// Where each hand kind's slots start, own and opponent's, by `PieceKind::index()`. Each block
/// has one slot more than the kind's count in a set; the last is never used.
const HAND_BLOCK: [[u16; 2]; 8] = {
    let mut t = [[0; 2]; 8];
    t[PieceKind::Pawn as usize] = [1, 20];
    t[PieceKind::Lance as usize] = [39, 44];
    t[PieceKind::Knight as usize] = [49, 54];
    t[PieceKind::Silver as usize] = [59, 64];
    t[PieceKind::Gold as usize] = [69, 74];
    t[PieceKind::Bishop as usize] = [79, 82];
    t[PieceKind::Rook as usize] = [85, 88];
    t
};

/// Where each board kind's 81 squares start, own and opponent's, by `PieceKind::index()`
/// (kings have none).
const BOARD_BLOCK: [[u16; 2]; 15] = {
    let gold = [738, 819];
    let mut t = [[0; 2]; 15];
    t[PieceKind::Pawn as usize] = [90, 171];
    t[PieceKind::Lance as usize] = [252, 333];
    t[PieceKind::Knight as usize] = [414, 495];
    t[PieceKind::Silver as usize] = [576, 657];
    t[PieceKind::Gold as usize] = gold;
    t[PieceKind::Bishop as usize] = [900, 981];
    t[PieceKind::Horse as usize] = [1062, 1143];
    t[PieceKind::Rook as usize] = [1224, 1305];
    t[PieceKind::Dragon as usize] = [1386, 1467];
    t[PieceKind::ProPawn as usize] = gold;
    t[PieceKind::ProLance as usize] = gold;
    t[PieceKind::ProKnight as usize] = gold;
    t[PieceKind::ProSilver as usize] = gold;
    t
};

/// One perspective's view: its colour and the first feature of its own king's square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingView {
    /// The side whose king the view is built from; its pieces are the own ones.
    perspective: Color,
    /// The first feature of the own king's square (its oriented square times `PIECE_FEATURES`).
    base: u32,
}

impl KingView {
    /// The view of `perspective` whose king stands on `king`.
    #[inline]
    pub fn new(perspective: Color, king: Square) -> KingView {
        let k = if king == Square::NO_KING { HOME_SQUARE } else { orient(perspective, king) };
        KingView { perspective, base: (k * PIECE_FEATURES) as u32 }
    }

    /// The view of `perspective` in `pos`.
    pub fn of(pos: &Position, perspective: Color) -> KingView {
        KingView::new(perspective, pos.king_square(perspective))
    }

    /// Which block of a kind-indexed table belongs to `owner`'s pieces: 0 own, 1 opponent's.
    #[inline(always)]
    fn side(self, owner: Color) -> usize {
        usize::from(owner != self.perspective)
    }

    /// The feature of `piece` on `sq`; `None` for a king.
    #[inline]
    pub fn board(self, piece: Piece, sq: Square) -> Option<usize> {
        let start = BOARD_BLOCK[piece.kind().index()][self.side(piece.color())];
        (start != 0).then(|| self.base as usize + start as usize + orient(self.perspective, sq))
    }

    /// The feature of the `nth` (1-based) piece of `kind` in `owner`'s hand; `None` beyond a
    /// set's count (composed positions may hold more).
    #[inline]
    pub fn hand(self, owner: Color, kind: PieceKind, nth: u32) -> Option<usize> {
        (nth >= 1 && nth <= kind.set_count()).then(|| {
            self.base as usize + HAND_BLOCK[kind.index()][self.side(owner)] as usize + nth as usize - 1
        })
    }

    /// The feature a missing piece stands for.
    #[inline]
    pub fn missing(self) -> usize {
        self.base as usize
    }

    /// Every feature `pos` switches on in this view: the pieces on the board, those in hand,
    /// then one `missing` feature for each of the 38 pieces the position lacks. A composed
    /// position may hold more than a set; the pieces beyond it have no feature (and none is
    /// missing), so a move in such a position changes the features as `board` and `hand` say.
    pub fn active(self, pos: &Position) -> ActiveFeatures {
        let mut out = ActiveFeatures::new();
        let mut pieces = 0;
        let mut occupied = pos.occupied();
        while occupied.is_some() {
            let sq = occupied.pop();
            if let Some(f) = self.board(pos.piece_on(sq), sq) {
                out.push(f);
                pieces += 1;
            }
        }
        for owner in Color::ALL {
            let hand = pos.hand(owner);
            for kind in PieceKind::HAND {
                pieces += hand.count(kind) as usize;
                for nth in 1..=hand.count(kind) {
                    if let Some(f) = self.hand(owner, kind, nth) {
                        out.push(f);
                    }
                }
            }
        }
        for _ in pieces..PIECES {
            out.push(self.missing());
        }
        out
    }
}

/// `sq`'s index as `perspective` sees it: unchanged for Black, turned 180 degrees for White.
#[inline(always)]
fn orient(perspective: Color, sq: Square) -> usize {
    match perspective {
        Color::Black => sq.index(),
        Color::White => 80 - sq.index(),
    }
}

/// Tests of the HalfKP feature numbering against YaneuraOu's.
#[cfg(test)]
mod tests {
    use super::*;

    /// Every slot of the 1,548 belongs to exactly one kind and side (hand slot 0 and the spare
    /// top slot of each hand block to none).
    #[test]
    fn the_blocks_tile_the_piece_features() {
        let mut owner = vec![0u32; PIECE_FEATURES];
        for (kind, starts) in HAND_BLOCK.iter().enumerate() {
            let Some(k) = PieceKind::from_u8(kind as u8) else { continue };
            for &start in starts {
                for slot in &mut owner[start as usize..start as usize + k.set_count() as usize] {
                    *slot += 1;
                }
            }
        }
        let mut board_starts: Vec<u16> = BOARD_BLOCK.iter().flatten().copied().filter(|&s| s != 0).collect();
        board_starts.sort_unstable();
        board_starts.dedup();
        assert_eq!(board_starts.len(), 18);
        for start in board_starts {
            for slot in &mut owner[start as usize..start as usize + 81] {
                *slot += 1;
            }
        }
        assert!(owner.iter().all(|&n| n <= 1));
        assert_eq!(owner[90..].iter().filter(|&&n| n == 1).count(), PIECE_FEATURES - 90);
    }

    /// The worked example of the format notes: Black's pawn on 7g in the start position.
    #[test]
    fn a_pawn_of_the_start_position_has_yaneuraous_index() {
        let pos = Position::startpos();
        let pawn = Piece::new(Color::Black, PieceKind::Pawn);
        let sq = Square::parse("7g").unwrap();
        assert_eq!(KingView::of(&pos, Color::Black).board(pawn, sq), Some(44 * 1548 + 90 + 60));
        assert_eq!(KingView::of(&pos, Color::White).board(pawn, sq), Some(44 * 1548 + 171 + 20));
    }

    #[test]
    fn every_position_switches_on_38_features_per_side() {
        let start = Position::startpos();
        let handicap =
            Position::from_sfen("lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1").unwrap();
        for pos in [&start, &handicap] {
            for c in Color::ALL {
                let view = KingView::of(pos, c);
                let active = view.active(pos);
                assert_eq!(active.len(), PIECES);
                let missing = active.as_slice().iter().filter(|&&f| f == view.missing()).count();
                assert_eq!(missing, if std::ptr::eq(pos, &start) { 0 } else { 1 });
                assert!(active.as_slice().iter().all(|&f| f < INPUTS));
            }
        }
    }
}
