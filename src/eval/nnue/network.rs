//! The quantised network and its file format.
//!
//! Shape: `INPUTS` binary features per perspective -> `L1` accumulator neurons (int16), for the
//! side to move and the other side -> squared clipped ReLU -> one output. In floats the output
//! is `sum_i screlu(a_i) * w_i + b`, with `screlu(x) = clamp(x, 0, 1)^2`; the evaluation is that
//! output times `OUTPUT_SCALE`. Quantised, accumulator values are floats times `QA` and output
//! weights floats times `QB`.
//!
//! File (all little-endian): the 8 bytes `SHOMEINN`, `u32` format version, `u32` inputs, `u32`
//! accumulator size, `u32` length and UTF-8 text of a description (how the net was made), then
//! `i16` accumulator biases (`L1`), `i16` feature weights (`INPUTS` rows of `L1`, feature by
//! feature), `i16` output weights (`2 * L1`: side to move first) and one `i32` output bias.
//! Format 2 ends with the SHA-256 of every byte before it, so that a damaged file (one flipped
//! bit) is refused; format 1, the same without it, is still read (its damage cannot be seen).

use super::architecture::{ActiveFeatures, Architecture};
use super::features::{View, INPUTS, MAX_ACTIVE};
use crate::eval::Value;
use crate::types::{Color, Piece, PieceKind, Square};
use crate::Position;
use std::fmt;

/// Accumulator neurons per perspective.
pub const L1: usize = 256;
/// Quantisation of accumulator values: 1.0 is `QA`.
pub const QA: i32 = 255;
/// Quantisation of output weights: 1.0 is `QB`.
pub const QB: i32 = 64;
/// Evaluation units per unit of the float output.
pub const OUTPUT_SCALE: i32 = 400;
/// The file format's version: 2 ends with a checksum.
pub const VERSION: u32 = 2;
/// The version without the checksum, still read.
pub const VERSION_UNCHECKED: u32 = 1;
/// The length of the checksum that ends a file of format 2.
const CHECKSUM_LEN: usize = 32;
/// The first bytes of every file of this format.
pub const MAGIC: &[u8; 8] = b"SHOMEINN";
/// The longest description a file may carry.
pub const MAX_DESCRIPTION: usize = 1 << 16;
/// The longest network file of this shape: no reader needs more bytes than this to refuse one.
pub const MAX_FILE_LEN: usize = file_len(MAX_DESCRIPTION) + CHECKSUM_LEN;

/// The length of a format-1 file whose description is `description` bytes long: the 24-byte
/// header, the description, the `i16` weights and the `i32` output bias (format 2 adds the
/// checksum).
const fn file_len(description: usize) -> usize {
    24 + description + 2 * (L1 + INPUTS * L1 + 2 * L1) + 4
}

/// The largest sum of absolute output weights for which the output cannot overflow `i32`: each
/// activation is at most `QA * QA`.
pub const MAX_OUTPUT_WEIGHT_SUM: i64 = i32::MAX as i64 / (QA as i64 * QA as i64);

/// A quantised network, ready for inference.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Accumulator biases.
    pub ft_bias: Vec<i16>,
    /// Feature weights: feature `f` owns `ft_weights[f * L1..(f + 1) * L1]`.
    pub ft_weights: Vec<i16>,
    /// Output weights: the side to move's `L1`, then the other side's `L1`.
    pub out_weights: Vec<i16>,
    /// Output bias, in units of `QA * QB`.
    pub out_bias: i32,
    /// How the net was made (data, trainer settings), as stored in the file.
    pub description: String,
}

/// The first 8 bytes of a checksum, in hex, for messages.
fn short_hex(digest: &[u8]) -> String {
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({} inputs x {L1}, {:?})", INPUTS, self.description)
    }
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The file does not start with `SHOMEINN`.
    BadMagic,
    /// The file is of another format version.
    Version(u32),
    /// The file's net has another shape (inputs, accumulator size).
    Shape(u32, u32),
    /// The file is shorter or longer than its header says.
    Length {
        /// The bytes the header calls for.
        expected: usize,
        /// The bytes there are.
        found: usize,
    },
    /// The description is not UTF-8.
    Description,
    /// The header gives the description more than `MAX_DESCRIPTION` bytes.
    DescriptionLength(u32),
    /// Its weights could overflow the integer arithmetic of inference.
    Overflow(&'static str),
    /// The checksum at the end does not match the bytes before it: the file is damaged.
    Checksum {
        /// The checksum the file carries (hex, first 8 bytes).
        stored: String,
        /// The checksum of its contents (hex, first 8 bytes).
        computed: String,
    },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::BadMagic => write!(f, "not a shomei network (no SHOMEINN header)"),
            NetworkError::Version(v) => {
                write!(f, "network format version {v}, this build reads {VERSION_UNCHECKED} and {VERSION}")
            }
            NetworkError::Checksum { stored, computed } => write!(
                f,
                "network file damaged: its checksum is {stored}..., its contents give {computed}..."
            ),
            NetworkError::Shape(i, l) => {
                write!(f, "network of {i} inputs x {l}, this build uses {INPUTS} x {L1}")
            }
            NetworkError::Length { expected, found } => {
                write!(f, "network file of {found} bytes, its header needs {expected}")
            }
            NetworkError::Description => write!(f, "network description is not UTF-8"),
            NetworkError::DescriptionLength(n) => {
                write!(f, "network description of {n} bytes, at most {MAX_DESCRIPTION} allowed")
            }
            NetworkError::Overflow(what) => write!(f, "network {what} could overflow inference"),
        }
    }
}

impl std::error::Error for NetworkError {}

impl Network {
    /// A network whose weights are all zero (evaluates every position as `out_bias`).
    pub fn zeroed(description: &str) -> Network {
        Network {
            ft_bias: vec![0; L1],
            ft_weights: vec![0; INPUTS * L1],
            out_weights: vec![0; 2 * L1],
            out_bias: 0,
            description: description.to_string(),
        }
    }

    /// The weights of feature `f`.
    #[inline]
    pub fn feature(&self, f: usize) -> &[i16] {
        &self.ft_weights[f * L1..(f + 1) * L1]
    }

    /// The evaluation from two accumulators: the side to move's and the other side's.
    #[inline(always)]
    pub fn output(&self, us: &[i16; L1], them: &[i16; L1]) -> Value {
        let (w_us, w_them) = self.out_weights.split_at(L1);
        let sum = screlu_dot(us, w_us) + screlu_dot(them, w_them);
        ((sum / QA + self.out_bias) as i64 * OUTPUT_SCALE as i64 / (QA as i64 * QB as i64)) as Value
    }

    /// Reads a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8) != Some(MAGIC.as_slice()) {
            return Err(NetworkError::BadMagic);
        }
        let header = (r.u32(), r.u32(), r.u32(), r.u32());
        let (Some(version), Some(inputs), Some(l1), Some(desc_len)) = header else {
            return Err(NetworkError::Length { expected: 24, found: bytes.len() });
        };
        if version != VERSION && version != VERSION_UNCHECKED {
            return Err(NetworkError::Version(version));
        }
        if inputs as usize != INPUTS || l1 as usize != L1 {
            return Err(NetworkError::Shape(inputs, l1));
        }
        if desc_len as usize > MAX_DESCRIPTION {
            return Err(NetworkError::DescriptionLength(desc_len));
        }
        let checksum_len = if version == VERSION { CHECKSUM_LEN } else { 0 };
        let expected = file_len(desc_len as usize) + checksum_len;
        if bytes.len() != expected {
            return Err(NetworkError::Length { expected, found: bytes.len() });
        }
        if version == VERSION {
            let (contents, stored) = bytes.split_at(expected - CHECKSUM_LEN);
            let computed = crate::sha256::digest(contents);
            if computed.as_slice() != stored {
                return Err(NetworkError::Checksum {
                    stored: short_hex(stored),
                    computed: short_hex(&computed),
                });
            }
        }
        let description = r.take(desc_len as usize).expect("length checked");
        let description = String::from_utf8(description.to_vec()).map_err(|_| NetworkError::Description)?;
        let net = Network {
            ft_bias: r.i16s(L1),
            ft_weights: r.i16s(INPUTS * L1),
            out_weights: r.i16s(2 * L1),
            out_bias: r.u32().expect("length checked") as i32,
            description,
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// The file's bytes, in the current format (checksum included).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.to_bytes_of(VERSION);
        let checksum = crate::sha256::digest(&out);
        out.extend_from_slice(&checksum);
        out
    }

    /// The file's bytes in format 1, without a checksum: what older builds write and read.
    pub fn to_unchecked_bytes(&self) -> Vec<u8> {
        self.to_bytes_of(VERSION_UNCHECKED)
    }

    /// The header and weights, with `version` in the header.
    fn to_bytes_of(&self, version: u32) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.description.len() + 2 * (INPUTS + 3) * L1);
        out.extend_from_slice(MAGIC);
        for v in [version, INPUTS as u32, L1 as u32, self.description.len() as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(self.description.as_bytes());
        for w in self.ft_bias.iter().chain(&self.ft_weights).chain(&self.out_weights) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        out
    }

    /// Refuses weights with which the integer inference could overflow: an accumulator of
    /// `MAX_ACTIVE` features must fit `i16`, and the output's sum `i32`.
    pub fn check_ranges(&self) -> Result<(), NetworkError> {
        // Each neuron's largest weight, in one pass over the rows (feature-major, as stored).
        let mut largest = [0i64; L1];
        for row in self.ft_weights.chunks_exact(L1) {
            for (m, &w) in largest.iter_mut().zip(row) {
                *m = (*m).max(i64::from(w).abs());
            }
        }
        for (&bias, &largest) in self.ft_bias.iter().zip(&largest) {
            if i64::from(bias).abs() + MAX_ACTIVE as i64 * largest > i64::from(i16::MAX) {
                return Err(NetworkError::Overflow("feature weights"));
            }
        }
        let sum: i64 = self.out_weights.iter().map(|&w| i64::from(w).abs()).sum();
        if sum > MAX_OUTPUT_WEIGHT_SUM {
            return Err(NetworkError::Overflow("output weights"));
        }
        Ok(())
    }
}

/// shomei's own net: king buckets and mirroring (`features`), every piece a feature.
impl Architecture<L1> for Network {
    type View = View;

    #[inline(always)]
    fn view(perspective: Color, king: Square) -> View {
        View::new(perspective, king)
    }

    #[inline(always)]
    fn board_feature(view: View, piece: Piece, sq: Square) -> Option<usize> {
        Some(view.board(piece, sq))
    }

    #[inline(always)]
    fn hand_feature(view: View, owner: Color, kind: PieceKind, nth: u32) -> Option<usize> {
        Some(view.hand(owner, kind, nth))
    }

    #[inline(always)]
    fn active_features(view: View, pos: &Position) -> ActiveFeatures {
        view.active(pos)
    }

    #[inline(always)]
    fn bias(&self) -> &[i16; L1] {
        self.ft_bias.as_slice().try_into().expect("L1 biases")
    }

    #[inline(always)]
    fn row(&self, f: usize) -> &[i16; L1] {
        self.feature(f).try_into().expect("a row is L1 long")
    }

    #[inline(always)]
    fn output(&self, us: &[i16; L1], them: &[i16; L1]) -> Value {
        Network::output(self, us, them)
    }
}

/// `sum_i clamp(a_i, 0, QA)^2 * w_i`, written so the compiler vectorises it.
#[inline(always)]
fn screlu_dot(a: &[i16; L1], w: &[i16]) -> i32 {
    let w = &w[..L1];
    let mut sum = 0i32;
    for i in 0..L1 {
        let x = i32::from(a[i]).clamp(0, QA);
        // x * w fits i16 territory (255 * 127 at most after range checks); times x again in i32.
        sum += x * i32::from(w[i]) * x;
    }
    sum
}

/// A cursor over a file's bytes.
struct Reader<'a> {
    /// The whole file.
    bytes: &'a [u8],
    /// The offset of the next byte to read.
    at: usize,
}

impl<'a> Reader<'a> {
    /// The next `n` bytes, or `None` past the end.
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }

    /// The next little-endian `u32`, or `None` past the end.
    fn u32(&mut self) -> Option<u32> {
        self.take(4).map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
    }

    /// `n` values; the caller has checked the length.
    fn i16s(&mut self, n: usize) -> Vec<i16> {
        let b = self.take(2 * n).expect("length checked");
        b.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect()
    }
}

/// Tests of the network file format and of the output against the float formula.
#[cfg(test)]
mod tests {
    use super::*;

    /// A network of seeded random weights, the same on every run.
    fn sample() -> Network {
        let mut net = Network::zeroed("test net");
        let mut rng = crate::rng::Rng::new(1);
        let mut next = || rng.below(401) as i16 - 200;
        for w in net.ft_bias.iter_mut().chain(net.ft_weights.iter_mut()) {
            *w = next();
        }
        for w in net.out_weights.iter_mut() {
            *w = next() / 4;
        }
        net.out_bias = -12345;
        net
    }

    #[test]
    fn a_network_round_trips_through_its_file() {
        let net = sample();
        assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net));
    }

    #[test]
    fn format_one_without_a_checksum_is_still_read() {
        let net = sample();
        assert_eq!(Network::from_bytes(&net.to_unchecked_bytes()), Ok(net.clone()));
        assert_eq!(net.to_bytes().len(), net.to_unchecked_bytes().len() + CHECKSUM_LEN);
    }

    #[test]
    fn any_flipped_bit_is_refused() {
        let bytes = sample().to_bytes();
        let mut rng = crate::rng::Rng::new(5);
        // Every byte of the header and the checksum, and a sample of the weights.
        let mut positions: Vec<usize> = (0..64).chain(bytes.len() - 40..bytes.len()).collect();
        positions.extend((0..300).map(|_| rng.below(bytes.len())));
        for at in positions {
            let mut bad = bytes.clone();
            bad[at] ^= 1 << rng.below(8);
            assert!(Network::from_bytes(&bad).is_err(), "a flipped bit at byte {at} was accepted");
        }
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = sample().to_bytes();
        assert!(matches!(Network::from_bytes(&bytes[..bytes.len() - 1]), Err(NetworkError::Length { .. })));
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(Network::from_bytes(&bad), Err(NetworkError::BadMagic));
        let mut other = bytes.clone();
        other[8] = 9;
        assert_eq!(Network::from_bytes(&other), Err(NetworkError::Version(9)));
        assert_eq!(Network::from_bytes(b"SHOME"), Err(NetworkError::BadMagic));
        let mut long = bytes.clone();
        long[20..24].copy_from_slice(&(MAX_DESCRIPTION as u32 + 1).to_le_bytes());
        assert_eq!(
            Network::from_bytes(&long),
            Err(NetworkError::DescriptionLength(MAX_DESCRIPTION as u32 + 1))
        );
        let mut weight = bytes.clone();
        weight[5000] ^= 4;
        assert!(matches!(Network::from_bytes(&weight), Err(NetworkError::Checksum { .. })));
        let mut big = sample();
        big.ft_weights[7 * L1] = 1000;
        assert_eq!(Network::from_bytes(&big.to_bytes()), Err(NetworkError::Overflow("feature weights")));
    }

    #[test]
    fn output_matches_the_float_formula() {
        let net = sample();
        let us: [i16; L1] = std::array::from_fn(|i| (i as i16 * 7) % 300 - 20);
        let them: [i16; L1] = std::array::from_fn(|i| (i as i16 * 13) % 280 - 10);
        let screlu = |v: i16| (f64::from(v).clamp(0.0, QA as f64) / QA as f64).powi(2);
        let mut float = net.out_bias as f64 / (QA * QB) as f64;
        for i in 0..L1 {
            float += screlu(us[i]) * net.out_weights[i] as f64 / QB as f64;
            float += screlu(them[i]) * net.out_weights[L1 + i] as f64 / QB as f64;
        }
        let expected = float * OUTPUT_SCALE as f64;
        let got = net.output(&us, &them) as f64;
        assert!((got - expected).abs() <= 1.0, "{got} vs {expected}");
    }
}
