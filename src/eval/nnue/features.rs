//! The network's input features: which of `INPUTS` binary inputs a position switches on, as
//! seen by one side (the *perspective*).
//!
//! Each perspective sees the board from its own side: White's squares are rotated 180 degrees,
//! so both sides' kings start on rank `i` of their own view, and "ours" / "theirs" replace the
//! colours. When the own king stands on the left half of that view (files 6-9), the files are
//! mirrored so that it always stands on files 1-5: shogi's rules do not change under a mirror,
//! and the net learns one castle where it would otherwise learn two.
//!
//! The own king's square picks a *bucket*, a separate copy of every feature (`BUCKETS` of them):
//! a piece two squares from a castled king and the same piece beside a king in the centre mean
//! different things. Inside a bucket:
//! - board features: (ours or theirs) x 14 kinds (kings included) x 81 squares;
//! - hand features: (ours or theirs) x the hand kinds, one feature per piece held — holding
//!   three pawns switches on the features "1st pawn", "2nd pawn" and "3rd pawn".
//!
//! So every piece of the 40 switches on exactly one feature per perspective, and a move changes
//! at most three of them (the mover leaves a square, arrives on another, a captured piece goes to
//! a hand) unless the own king changes bucket or side, which needs a full refresh.

pub use super::architecture::{ActiveFeatures, MAX_ACTIVE};
use crate::types::{Color, Piece, PieceKind, Square};
use crate::Position;

/// King buckets: 3 rank zones of the own king (home rank, the rank above it, higher) x 2 file
/// zones (files 1-3 after mirroring, where castles stand, and files 4-5, the centre).
pub const BUCKETS: usize = 6;
/// Board features in one bucket: ours/theirs x 14 kinds x 81 squares.
pub const BOARD_FEATURES: usize = 2 * 14 * 81;
/// Hand features per side: at most 18 pawns, 4 lances, 4 knights, 4 silvers, 4 golds, 2 bishops
/// and 2 rooks.
pub const HAND_FEATURES_PER_SIDE: usize = 38;
/// Features in one bucket.
pub const PER_BUCKET: usize = BOARD_FEATURES + 2 * HAND_FEATURES_PER_SIDE;
/// Every input of the network, per perspective.
pub const INPUTS: usize = BUCKETS * PER_BUCKET;

/// Where each hand kind's features start inside a side's 38, indexed by `PieceKind::index()`.
const HAND_OFFSET: [usize; 8] = [0, 0, 18, 22, 26, 34, 36, 30];

/// How one perspective sees the board: its colour, whether its files are mirrored, and the
/// first feature of its bucket. Two positions with equal views can be updated one from the
/// other; a different view needs a refresh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// The side whose king the view is built from; its pieces are the own ones.
    perspective: Color,
    /// Whether files are mirrored: the own king stands on files 6 to 9 of the oriented board, so
    /// that every view sees it on files 1 to 5.
    mirror: bool,
    /// The first feature of the bucket of the own king's zone.
    base: usize,
}

impl View {
    /// The view of `perspective` whose king stands on `king` (`Square::NO_KING` for a side
    /// without a king, as in composed problems: no mirror, the home bucket).
    pub fn new(perspective: Color, king: Square) -> View {
        if king == Square::NO_KING {
            return View { perspective, mirror: false, base: 0 };
        }
        let oriented = orient(perspective, king);
        let mirror = oriented.file() > 4;
        let file = if mirror { 8 - oriented.file() } else { oriented.file() };
        // Rank 8 of the oriented board (rank `i`) is the own home rank.
        let rank_zone = match oriented.rank() {
            8 => 0,
            7 => 1,
            _ => 2,
        };
        let file_zone = usize::from(file >= 3);
        View { perspective, mirror, base: (rank_zone * 2 + file_zone) * PER_BUCKET }
    }

    /// The view of `perspective` in `pos`.
    pub fn of(pos: &Position, perspective: Color) -> View {
        View::new(perspective, pos.king_square(perspective))
    }

    /// The side this view belongs to.
    pub fn perspective(self) -> Color {
        self.perspective
    }

    /// The bucket, 0..BUCKETS.
    pub fn bucket(self) -> usize {
        self.base / PER_BUCKET
    }

    /// The feature of `piece` standing on `sq`.
    #[inline]
    pub fn board(self, piece: Piece, sq: Square) -> usize {
        let mut s = orient(self.perspective, sq);
        if self.mirror {
            s = Square::new(8 - s.file(), s.rank());
        }
        let side = usize::from(piece.color() != self.perspective);
        self.base + (side * 14 + piece.kind().index() - 1) * 81 + s.index()
    }

    /// The feature of the `nth` (1-based) piece of `kind` in `owner`'s hand.
    #[inline]
    pub fn hand(self, owner: Color, kind: PieceKind, nth: u32) -> usize {
        debug_assert!(nth >= 1 && nth <= kind.set_count());
        let side = usize::from(owner != self.perspective);
        self.base + BOARD_FEATURES + side * HAND_FEATURES_PER_SIDE + HAND_OFFSET[kind.index()] + nth as usize
            - 1
    }

    /// Every feature `pos` switches on in this view, in board-then-hand order.
    pub fn active(self, pos: &Position) -> ActiveFeatures {
        let mut out = ActiveFeatures::new();
        let mut occupied = pos.occupied();
        while occupied.is_some() {
            let sq = occupied.pop();
            out.push(self.board(pos.piece_on(sq), sq));
        }
        for owner in Color::ALL {
            let hand = pos.hand(owner);
            for kind in PieceKind::HAND {
                // A composed problem may hold more than the set (its parser allows it); those extra
                // pieces have no feature.
                for nth in 1..=hand.count(kind).min(kind.set_count()) {
                    out.push(self.hand(owner, kind, nth));
                }
            }
        }
        out
    }
}

/// `sq` as `perspective` sees it: unchanged for Black, rotated 180 degrees for White.
#[inline]
fn orient(perspective: Color, sq: Square) -> Square {
    match perspective {
        Color::Black => sq,
        Color::White => sq.flip(),
    }
}

/// Tests of the feature numbering: hand offsets, features per side, mirroring.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_offsets_tile_the_38_features() {
        let mut seen = [false; HAND_FEATURES_PER_SIDE];
        for kind in PieceKind::HAND {
            for nth in 0..kind.set_count() as usize {
                let f = HAND_OFFSET[kind.index()] + nth;
                assert!(!seen[f], "{kind:?} overlaps at {f}");
                seen[f] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn start_position_switches_on_forty_distinct_features_per_side() {
        let pos = Position::startpos();
        for c in Color::ALL {
            let view = View::of(&pos, c);
            // Both kings start on 5i / 5a: the centre-file, home-rank bucket, not mirrored.
            assert_eq!(view.bucket(), 1);
            let mut f = view.active(&pos).as_slice().to_vec();
            assert_eq!(f.len(), 40);
            f.sort_unstable();
            f.dedup();
            assert_eq!(f.len(), 40);
            assert!(f.iter().all(|&x| x < INPUTS));
        }
        // The start position is symmetric: both sides see the same features.
        let mut b = View::of(&pos, Color::Black).active(&pos).as_slice().to_vec();
        let mut w = View::of(&pos, Color::White).active(&pos).as_slice().to_vec();
        b.sort_unstable();
        w.sort_unstable();
        assert_eq!(b, w);
    }

    #[test]
    fn a_king_on_the_left_half_is_mirrored_into_the_same_bucket() {
        // Black's king on 8h (file index 7) mirrors to 2h (file index 1).
        let left = View::new(Color::Black, Square::new(7, 7));
        let right = View::new(Color::Black, Square::new(1, 7));
        assert_eq!(left.bucket(), right.bucket());
        let pawn = Piece::new(Color::Black, PieceKind::Pawn);
        assert_eq!(left.board(pawn, Square::new(7, 6)), right.board(pawn, Square::new(1, 6)));
        // White's king on 2b is Black's 8h rotated: the same view for White.
        let white = View::new(Color::White, Square::new(1, 1));
        assert_eq!(white.bucket(), left.bucket());
        let white_pawn = Piece::new(Color::White, PieceKind::Pawn);
        assert_eq!(white.board(white_pawn, Square::new(1, 2)), left.board(pawn, Square::new(7, 6)));
    }
}
