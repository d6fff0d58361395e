//! The network evaluation (NNUE: an efficiently updatable neural network).
//!
//! - `features`: which inputs a position switches on, per perspective (king buckets, mirroring);
//! - `network`: the quantised weights, their file format and the output layer;
//! - `accumulator`: the search's stack of accumulators, updated move by move;
//! - `embedded`: the network built into the binary, if any, and the default evaluator.

pub mod accumulator;
pub mod embedded;
pub mod features;
pub mod network;
mod simd;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use features::View;
pub use network::{Network, NetworkError};

use crate::types::Color;
use crate::Position;
use network::L1;
use std::path::Path;

/// Accumulator values `refresh` sums at a time, kept in registers while every feature is added.
const REFRESH_CHUNK: usize = 64;

/// The accumulator of one perspective computed from scratch: biases plus the weights of every
/// active feature.
pub fn refresh(net: &Network, pos: &Position, perspective: Color) -> [i16; L1] {
    refresh_inlined(net, pos, perspective)
}

/// `refresh`, inlined into its callers (`AccumulatorStack::evaluate`'s AVX2 copy among them).
#[inline(always)]
fn refresh_inlined(net: &Network, pos: &Position, perspective: Color) -> [i16; L1] {
    let active = View::of(pos, perspective).active(pos);
    let bias: &[i16; L1] = net.ft_bias.as_slice().try_into().expect("L1 biases");
    let mut acc = [0; L1];
    for c in (0..L1).step_by(REFRESH_CHUNK) {
        let mut v: [i16; REFRESH_CHUNK] = bias[c..c + REFRESH_CHUNK].try_into().expect("a chunk");
        for &f in active.as_slice() {
            for (x, w) in v.iter_mut().zip(&net.feature(f)[c..c + REFRESH_CHUNK]) {
                *x = x.wrapping_add(*w);
            }
        }
        acc[c..c + REFRESH_CHUNK].copy_from_slice(&v);
    }
    acc
}

/// The network's evaluation of `pos` from the side to move's point of view, computed from
/// scratch (the search updates its accumulators move by move instead).
pub fn evaluate_from_scratch(net: &Network, pos: &Position) -> crate::eval::Value {
    let us = pos.side_to_move();
    net.output(&refresh(net, pos, us), &refresh(net, pos, !us))
}

/// A network of seeded random weights, within the ranges `Network::check_ranges` accepts: for
/// tests of the inference and for speed measurements. Its evaluations mean nothing.
pub fn random_network(seed: u64) -> Network {
    let mut net = Network::zeroed(&format!("random network, seed {seed}"));
    let mut rng = crate::rng::Rng::new(seed);
    let mut uniform = |half_width: i16| rng.below(2 * half_width as usize + 1) as i16 - half_width;
    for w in net.ft_bias.iter_mut() {
        *w = uniform(100);
    }
    for w in net.ft_weights.iter_mut() {
        *w = uniform(60);
    }
    // 512 output weights of at most 64 keep the sum within `MAX_OUTPUT_WEIGHT_SUM`.
    for w in net.out_weights.iter_mut() {
        *w = uniform(64);
    }
    net.out_bias = i32::from(uniform(1000));
    debug_assert_eq!(net.check_ranges(), Ok(()));
    net
}

/// Reads and checks the network file at `path`; the error says which file and why. No more is
/// read than the longest network file could hold, so a path such as `/dev/zero` is refused at
/// once instead of holding the caller (the protocol loop) while it reads.
pub fn load(path: &Path) -> Result<Network, String> {
    use std::io::Read;
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(network::MAX_FILE_LEN as u64 + 1).read_to_end(&mut bytes).map_err(cannot)?;
    Network::from_bytes(&bytes).map_err(|e| format!("{} refused: {e}", path.display()))
}

/// A 64-bit FNV-1a hash of the network's weights (not its description): tells networks apart
/// where a file name would not, as in the settings `shomei gensfen` records.
pub fn fingerprint(net: &Network) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for w in net.ft_bias.iter().chain(&net.ft_weights).chain(&net.out_weights) {
        eat(&w.to_le_bytes());
    }
    eat(&net.out_bias.to_le_bytes());
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An endless file is refused after a bounded read (reading all of it would never end).
    #[cfg(unix)]
    #[test]
    fn an_endless_file_is_refused_after_a_bounded_read() {
        let refused = load(Path::new("/dev/zero")).expect_err("zeros are no network");
        assert!(refused.contains("no SHOMEINN header"), "{refused}");
    }

    /// A network file with bytes after its last weight is refused.
    #[test]
    fn a_file_longer_than_its_header_says_is_refused() {
        let path = std::env::temp_dir().join(format!("shomei-long-{}.nnue", std::process::id()));
        let mut bytes = random_network(3).to_bytes();
        bytes.push(0);
        std::fs::write(&path, &bytes).expect("temp file");
        let refused = load(&path).expect_err("one byte too many");
        std::fs::remove_file(&path).ok();
        assert!(refused.contains("its header needs"), "{refused}");
    }
}
