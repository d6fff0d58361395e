//! The network evaluation (NNUE: an efficiently updatable neural network).
//!
//! - `features`: which inputs a position switches on, per perspective (king buckets, mirroring);
//! - `network`: the quantised weights, their file format and the output layer.

pub mod features;
pub mod network;

pub use features::View;
pub use network::{Network, NetworkError};

use crate::types::Color;
use crate::Position;
use network::L1;

/// The accumulator of one perspective computed from scratch: biases plus the weights of every
/// active feature.
pub fn refresh(net: &Network, pos: &Position, perspective: Color) -> [i16; L1] {
    let mut acc: [i16; L1] = net.ft_bias.as_slice().try_into().expect("L1 biases");
    for &f in View::of(pos, perspective).active(pos).as_slice() {
        for (a, w) in acc.iter_mut().zip(net.feature(f)) {
            *a = a.wrapping_add(*w);
        }
    }
    acc
}

/// The network's evaluation of `pos` from the side to move's point of view, computed from
/// scratch (the search updates its accumulators move by move instead).
pub fn evaluate_from_scratch(net: &Network, pos: &Position) -> crate::eval::Value {
    let us = pos.side_to_move();
    net.output(&refresh(net, pos, us), &refresh(net, pos, !us))
}
