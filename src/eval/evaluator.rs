//! What a search thread evaluates with: the hand-written evaluation, or a network of any
//! architecture together with the accumulators of the thread's current line.
//!
//! The search calls `push` before each move, `pop` after taking it back and `evaluate` where it
//! needs a static evaluation, whatever the network; the choice of architecture is one `match`
//! per call, on a value that never changes during a search, so the branch is always predicted,
//! and each arm is the accumulator stack compiled for that architecture's sizes.

use super::nnue::halfkp::{AnyHalfKp, HalfKpNet, Scaled};
use super::nnue::{evaluate_from_scratch, AccumulatorStack, AnyNetwork, Architecture, Network};
use super::Value;
use crate::types::Move;
use crate::Position;
use std::sync::Arc;

/// A network and the accumulators of the current line.
pub struct Incremental<N: Architecture<L>, const L: usize> {
    /// The network, shared with the other threads (`Arc` inside).
    net: N,
    /// The accumulators of the current line, kept up to date by `push` and `pop`.
    stack: AccumulatorStack<L>,
    /// False: every evaluation is computed from scratch, the reference the updates are checked
    /// against.
    incremental: bool,
}

impl<N: Architecture<L>, const L: usize> Incremental<N, L> {
    /// `net` with its stack set at `pos`, the root of the coming search.
    fn new(net: N, pos: &Position, incremental: bool) -> Self {
        let mut stack = AccumulatorStack::new();
        stack.reset(&net, pos);
        Incremental { net, stack, incremental }
    }

    /// The network's evaluation of `pos`, the top of the stack: incrementally, or from scratch.
    #[inline(always)]
    fn evaluate(&mut self, pos: &Position) -> Value {
        if self.incremental {
            self.stack.evaluate(&self.net, pos)
        } else {
            evaluate_from_scratch(&self.net, pos)
        }
    }
}

/// A search thread's evaluation.
pub enum Evaluator {
    /// The hand-written evaluation (`eval::evaluate`): nothing to keep move by move.
    HandWritten,
    /// shomei's own network.
    Shomei(Incremental<Arc<Network>, 256>),
    /// `halfkp_256x2-32-32`.
    HalfKp256(Incremental<Scaled<256, 32, 32>, 256>),
    /// `halfkp_512x2-16-32`.
    HalfKp512(Incremental<Scaled<512, 16, 32>, 512>),
    /// `halfkp_1024x2-8-32`.
    HalfKp1024(Incremental<Scaled<1024, 8, 32>, 1024>),
    /// `halfkp_1024x2-8-64`.
    HalfKp1024x64(Incremental<Scaled<1024, 8, 64>, 1024>),
}

/// Runs `$body` with `$inc` bound to the network arm's `Incremental`, or `$hand` for the
/// hand-written evaluation.
macro_rules! dispatch {
    ($self:expr, $inc:ident => $body:expr, hand => $hand:expr) => {
        match $self {
            Evaluator::HandWritten => $hand,
            Evaluator::Shomei($inc) => $body,
            Evaluator::HalfKp256($inc) => $body,
            Evaluator::HalfKp512($inc) => $body,
            Evaluator::HalfKp1024($inc) => $body,
            Evaluator::HalfKp1024x64($inc) => $body,
        }
    };
}

impl Evaluator {
    /// The evaluator of `network` (the hand-written evaluation for `None`), its accumulators
    /// computed for `pos`, the root of the line to come. `incremental` false computes every
    /// evaluation from scratch instead.
    pub fn new(network: Option<&AnyNetwork>, pos: &Position, incremental: bool) -> Evaluator {
        let Some(network) = network else { return Evaluator::HandWritten };
        let (net, fv_scale) = match network {
            AnyNetwork::Shomei(net) => {
                return Evaluator::Shomei(Incremental::new(Arc::clone(net), pos, incremental))
            }
            AnyNetwork::HalfKp { net, fv_scale } => (net, *fv_scale),
        };
        /// The stack of one HalfKP size.
        fn sized<const FT: usize, const H1: usize, const H2: usize>(
            net: &Arc<HalfKpNet<FT, H1, H2>>,
            fv_scale: i32,
            pos: &Position,
            incremental: bool,
        ) -> Incremental<Scaled<FT, H1, H2>, FT> {
            Incremental::new(Scaled { net: Arc::clone(net), fv_scale }, pos, incremental)
        }
        match net {
            AnyHalfKp::K256x2_32_32(n) => Evaluator::HalfKp256(sized(n, fv_scale, pos, incremental)),
            AnyHalfKp::K512x2_16_32(n) => Evaluator::HalfKp512(sized(n, fv_scale, pos, incremental)),
            AnyHalfKp::K1024x2_8_32(n) => Evaluator::HalfKp1024(sized(n, fv_scale, pos, incremental)),
            AnyHalfKp::K1024x2_8_64(n) => Evaluator::HalfKp1024x64(sized(n, fv_scale, pos, incremental)),
        }
    }

    /// Records the legal move `m`; call it with the position *before* `pos.do_move(m)`.
    #[inline(always)]
    pub fn push(&mut self, pos: &Position, m: Move) {
        dispatch!(self, inc => inc.stack.push(pos, m), hand => ())
    }

    /// Records a null move.
    #[inline]
    pub fn push_null(&mut self) {
        dispatch!(self, inc => inc.stack.push_null(), hand => ())
    }

    /// Goes back one ply (after the move is taken back).
    #[inline]
    pub fn pop(&mut self) {
        dispatch!(self, inc => inc.stack.pop(), hand => ())
    }

    /// The static evaluation of `pos`, the position the pushed moves lead to, for the side to
    /// move.
    #[inline(always)]
    pub fn evaluate(&mut self, pos: &Position) -> Value {
        dispatch!(self, inc => inc.evaluate(pos), hand => super::evaluate(pos))
    }
}
