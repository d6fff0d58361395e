//! The network evaluation (NNUE: an efficiently updatable neural network), in two formats.
//!
//! - `architecture`: what every network tells the accumulator stack (features, first layer,
//!   output), and the evaluation from scratch;
//! - `accumulator`: the search's stack of accumulators, updated move by move, for any network;
//! - `features`, `network`: shomei's own net (king buckets, `SHOMEINN` files);
//! - `halfkp`: YaneuraOu's HalfKP nets (`nn.bin`), evaluated as YaneuraOu evaluates them;
//! - `embedded`: the network built into the binary, if any, and the default evaluator.
//!
//! `load` reads either format, told apart by the first bytes of the file.

pub mod accumulator;
pub mod architecture;
pub mod embedded;
pub mod features;
pub mod halfkp;
pub mod network;
mod simd;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use architecture::{evaluate_from_scratch, refresh, ActiveFeatures, Architecture};
pub use features::View;
pub use network::{Network, NetworkError};

use crate::eval::Value;
use crate::Position;
use halfkp::AnyHalfKp;
use std::path::Path;
use std::sync::Arc;

/// A network the engine can evaluate with, of either format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyNetwork {
    /// shomei's own net.
    Shomei(Arc<Network>),
    /// A YaneuraOu HalfKP net, with the `FV_SCALE` its output is divided by.
    HalfKp {
        /// The network.
        net: AnyHalfKp,
        /// YaneuraOu's `FV_SCALE` (16 by default; some published nets want 24).
        fv_scale: i32,
    },
}

impl AnyNetwork {
    /// A YaneuraOu HalfKP net with the default `FV_SCALE`.
    pub fn halfkp(net: AnyHalfKp) -> AnyNetwork {
        AnyNetwork::HalfKp { net, fv_scale: halfkp::DEFAULT_FV_SCALE }
    }

    /// The same network evaluated with `fv_scale` (shomei's own nets have no such divisor).
    pub fn with_fv_scale(self, fv_scale: i32) -> AnyNetwork {
        match self {
            AnyNetwork::HalfKp { net, .. } => AnyNetwork::HalfKp { net, fv_scale },
            shomei => shomei,
        }
    }

    /// The evaluation of `pos` for the side to move, computed from scratch: for HalfKP nets
    /// exactly YaneuraOu's (its `e` command).
    pub fn evaluate(&self, pos: &Position) -> Value {
        match self {
            AnyNetwork::Shomei(net) => evaluate_from_scratch(&**net, pos),
            AnyNetwork::HalfKp { net, fv_scale } => net.evaluate(pos, *fv_scale),
        }
    }

    /// What the network is, in one line: its format and architecture, and its description
    /// (shomei's nets) or architecture string (YaneuraOu's).
    pub fn describe(&self) -> String {
        match self {
            AnyNetwork::Shomei(net) => format!(
                "shomei {} buckets x {} -> {}x2 -> 1, {}",
                features::BUCKETS,
                features::PER_BUCKET,
                network::L1,
                net.description
            ),
            AnyNetwork::HalfKp { net, fv_scale } => {
                format!("YaneuraOu {}, FV_SCALE {fv_scale}, {}", net.arch(), net.arch_string())
            }
        }
    }

    /// A 64-bit hash of the weights (FNV-1a): tells networks apart where a file name would not.
    pub fn fingerprint(&self) -> u64 {
        match self {
            AnyNetwork::Shomei(net) => fingerprint(net),
            AnyNetwork::HalfKp { net, .. } => {
                let mut h = Fnv1a::new();
                net.write_to(&mut h).expect("hashing cannot fail");
                h.0
            }
        }
    }
}

/// The FNV-1a hash of the bytes written to it, without holding them.
struct Fnv1a(u64);

impl Fnv1a {
    /// The hash of nothing: FNV-1a's offset basis.
    fn new() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl std::io::Write for Fnv1a {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
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

/// Reads and checks the network file at `path`, of either format; the error says which file
/// and why. No more is read than the longest network file of its format could hold, so a path
/// such as `/dev/zero` is refused at once instead of holding the caller (the protocol loop)
/// while it reads.
pub fn load(path: &Path) -> Result<AnyNetwork, String> {
    let bytes = read_network_file(path)?;
    let refused = |e: &dyn std::fmt::Display| format!("{} refused: {e}", path.display());
    if halfkp::file::is_yaneuraou_nnue(&bytes) {
        AnyHalfKp::from_bytes(&bytes).map(AnyNetwork::halfkp).map_err(|e| refused(&e))
    } else if bytes.starts_with(network::MAGIC) {
        Network::from_bytes(&bytes).map(|n| AnyNetwork::Shomei(Arc::new(n))).map_err(|e| refused(&e))
    } else {
        Err(refused(&"neither a shomei network (SHOMEINN) nor a YaneuraOu NNUE file (version 7AF32F16)"))
    }
}

/// A warning for a network file that cannot be checked for damage: shomei's format 1, which
/// has no checksum (`None` for any other file).
pub fn unchecked_file_warning(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = [0u8; 12];
    std::fs::File::open(path).ok()?.read_exact(&mut head).ok()?;
    let version = u32::from_le_bytes(head[8..12].try_into().ok()?);
    (head.starts_with(network::MAGIC) && version == network::VERSION_UNCHECKED).then(|| {
        "format 1 has no checksum, so damage to it cannot be detected; `shomei nnue upgrade` rewrites it \
         with one"
            .to_string()
    })
}

/// Reads shomei's own network file at `path` (the trainer's format).
pub fn load_shomei(path: &Path) -> Result<Network, String> {
    let bytes = read_network_file(path)?;
    Network::from_bytes(&bytes).map_err(|e| format!("{} refused: {e}", path.display()))
}

/// The bytes of the file at `path`, read no further than the longest network file of the
/// format its first bytes name.
fn read_network_file(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let mut file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    (&mut file).take(8).read_to_end(&mut bytes).map_err(cannot)?;
    let longest = if halfkp::file::is_yaneuraou_nnue(&bytes) {
        halfkp::file::MAX_FILE_LEN
    } else {
        network::MAX_FILE_LEN
    };
    if let Ok(meta) = file.metadata() {
        bytes.reserve((meta.len() as usize).min(longest));
    }
    file.take(longest as u64 + 1 - bytes.len() as u64).read_to_end(&mut bytes).map_err(cannot)?;
    Ok(bytes)
}

/// A 64-bit FNV-1a hash of the network's weights (not its description): tells networks apart
/// where a file name would not, as in the settings `shomei gensfen` records.
pub fn fingerprint(net: &Network) -> u64 {
    use std::io::Write;
    let mut h = Fnv1a::new();
    for w in net.ft_bias.iter().chain(&net.ft_weights).chain(&net.out_weights) {
        h.write_all(&w.to_le_bytes()).expect("hashing cannot fail");
    }
    h.write_all(&net.out_bias.to_le_bytes()).expect("hashing cannot fail");
    h.0
}

/// Tests of the file loader's limits on what it reads.
#[cfg(test)]
mod tests {
    use super::*;

    /// An endless file is refused after a bounded read (reading all of it would never end).
    #[cfg(unix)]
    #[test]
    fn an_endless_file_is_refused_after_a_bounded_read() {
        let refused = load(Path::new("/dev/zero")).expect_err("zeros are no network");
        assert!(refused.contains("neither a shomei network"), "{refused}");
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
