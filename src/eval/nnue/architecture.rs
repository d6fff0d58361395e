//! What every network architecture tells the accumulator stack: how one side sees the board,
//! which input feature each piece switches on, the first layer's weights, and the layers above.
//!
//! Two families implement it: shomei's own net (`network`, king buckets and mirroring) and
//! YaneuraOu's HalfKP nets (`halfkp`, one copy of every feature per own-king square). Both are
//! sums of the rows of the features a position switches on, so one stack (`accumulator`) serves
//! them all; `L` is the accumulator's width per perspective.

use crate::eval::Value;
use crate::types::{Color, Piece, PieceKind, Square};
use crate::Position;
use std::sync::Arc;

/// The most features one perspective can have switched on: one per piece (shomei's own net
/// counts both kings, HalfKP neither, but always 38).
pub const MAX_ACTIVE: usize = 40;

/// A network's input layout and layers, as the accumulator stack drives them.
pub trait Architecture<const L: usize> {
    /// How one perspective sees the board, fixed by its own king's square. The accumulators of
    /// two positions with equal views differ by the rows of the features that differ; a move
    /// of the own king that changes the view needs that perspective computed from scratch.
    type View: Copy + Eq;

    /// The view of `perspective` whose king stands on `king` (`Square::NO_KING` for a side
    /// without one, as in composed problems).
    fn view(perspective: Color, king: Square) -> Self::View;

    /// The feature of `piece` on `sq`, if that piece has one in this view.
    fn board_feature(view: Self::View, piece: Piece, sq: Square) -> Option<usize>;

    /// The feature of the `nth` (1-based) piece of `kind` in `owner`'s hand, if it has one.
    fn hand_feature(view: Self::View, owner: Color, kind: PieceKind, nth: u32) -> Option<usize>;

    /// Every feature `pos` switches on in `view`; a feature may appear more than once.
    fn active_features(view: Self::View, pos: &Position) -> ActiveFeatures;

    /// The first layer's biases.
    fn bias(&self) -> &[i16; L];

    /// The first layer's weights of feature `f`.
    fn row(&self, f: usize) -> &[i16; L];

    /// The evaluation from the two accumulators, the side to move's first.
    fn output(&self, us: &[i16; L], them: &[i16; L]) -> Value;
}

/// A shared network is used as the network itself.
impl<const L: usize, N: Architecture<L>> Architecture<L> for Arc<N> {
    type View = N::View;

    #[inline(always)]
    fn view(perspective: Color, king: Square) -> Self::View {
        N::view(perspective, king)
    }

    #[inline(always)]
    fn board_feature(view: Self::View, piece: Piece, sq: Square) -> Option<usize> {
        N::board_feature(view, piece, sq)
    }

    #[inline(always)]
    fn hand_feature(view: Self::View, owner: Color, kind: PieceKind, nth: u32) -> Option<usize> {
        N::hand_feature(view, owner, kind, nth)
    }

    #[inline(always)]
    fn active_features(view: Self::View, pos: &Position) -> ActiveFeatures {
        N::active_features(view, pos)
    }

    #[inline(always)]
    fn bias(&self) -> &[i16; L] {
        (**self).bias()
    }

    #[inline(always)]
    fn row(&self, f: usize) -> &[i16; L] {
        (**self).row(f)
    }

    #[inline(always)]
    fn output(&self, us: &[i16; L], them: &[i16; L]) -> Value {
        (**self).output(us, them)
    }
}

/// The features one perspective has switched on (at most `MAX_ACTIVE`).
#[derive(Clone, Copy, Debug)]
pub struct ActiveFeatures {
    /// How many of `features` are set.
    len: usize,
    /// The active features; the first `len` are used.
    features: [usize; MAX_ACTIVE],
}

impl ActiveFeatures {
    /// None yet.
    pub(crate) const fn new() -> ActiveFeatures {
        ActiveFeatures { len: 0, features: [0; MAX_ACTIVE] }
    }

    /// Adds `f`. More than `MAX_ACTIVE` pieces cannot be set up; the guard keeps a malformed
    /// position from panicking.
    #[inline]
    pub(crate) fn push(&mut self, f: usize) {
        if self.len < MAX_ACTIVE {
            self.features[self.len] = f;
            self.len += 1;
        }
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The features, in the order they were found.
    pub fn as_slice(&self) -> &[usize] {
        &self.features[..self.len]
    }
}

/// Accumulator values summed at a time, kept in registers while every row is added.
pub(crate) const CHUNK: usize = 64;

/// The accumulator of `perspective` computed from scratch: biases plus the rows of every
/// active feature.
#[inline(always)]
pub fn refresh<const L: usize, N: Architecture<L>>(net: &N, pos: &Position, perspective: Color) -> [i16; L] {
    let active = N::active_features(N::view(perspective, pos.king_square(perspective)), pos);
    sum_rows(net.bias(), |f| net.row(f), &active)
}

/// `bias` plus the rows of the `active` features, wrapping in `i16`, chunk by chunk so that each
/// chunk stays in registers while every row is added.
#[inline(always)]
pub(crate) fn sum_rows<'a, const L: usize>(
    bias: &[i16; L],
    row: impl Fn(usize) -> &'a [i16; L],
    active: &ActiveFeatures,
) -> [i16; L] {
    let mut acc = [0; L];
    for c in (0..L).step_by(CHUNK) {
        let mut v: [i16; CHUNK] = bias[c..c + CHUNK].try_into().expect("a chunk");
        for &f in active.as_slice() {
            for (x, w) in v.iter_mut().zip(&row(f)[c..c + CHUNK]) {
                *x = x.wrapping_add(*w);
            }
        }
        acc[c..c + CHUNK].copy_from_slice(&v);
    }
    acc
}

/// The evaluation of `pos` from the side to move's point of view, computed from scratch.
pub fn evaluate_from_scratch<const L: usize, N: Architecture<L>>(net: &N, pos: &Position) -> Value {
    let us = pos.side_to_move();
    net.output(&refresh(net, pos, us), &refresh(net, pos, !us))
}
