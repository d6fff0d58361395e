//! YaneuraOu's HalfKP networks (`nn.bin`, the format of most published shogi nets), evaluated
//! number for number as YaneuraOu evaluates them.
//!
//! - `features`: the inputs, YaneuraOu's `BonaPiece` numbering per own-king square;
//! - `layers`: the integer layers above the accumulators (portable and AVX2);
//! - `file`: the file's header, hashes and layout, and the family's sizes (`Arch`).
//!
//! Inference: the two accumulators (int16, wrapping sums of the active rows, side to move
//! first) are clipped to `0..=127` without a shift, then go through an affine layer of int8
//! weights, a clipped ReLU (`>> 6`, clamp), a second affine layer and clipped ReLU, and the
//! output neuron; the output divided by `FV_SCALE` (truncating toward zero, as C++ divides) and
//! clamped to `±MAX_EVAL` is the evaluation for the side to move.
//!
//! The format's facts (orders, hashes, padding, shifts) were learnt from reading YaneuraOu's
//! `source/eval/nnue/`, which is GPL; the code here is shomei's own.

pub mod features;
pub mod file;
pub mod layers;
pub mod plain;

pub use features::KingView;
pub use file::{Arch, FileError};
pub use plain::PlainWeights;

use super::architecture::{ActiveFeatures, Architecture};
use crate::eval::Value;
use crate::types::{Color, Piece, PieceKind, Square};
use crate::Position;
use features::INPUTS;
use layers::{clip_accumulator, clipped_relu, output_portable, padded, Affine};
use std::fmt;
use std::io::{self, Write};
use std::sync::Arc;

/// YaneuraOu's default `FV_SCALE`: the output is divided by it.
pub const DEFAULT_FV_SCALE: i32 = 16;
/// The range of the USI option `FV_SCALE`.
pub const FV_SCALE_RANGE: (i32, i32) = (1, 128);
/// The largest evaluation a HalfKP net returns (`VALUE_MAX_EVAL`: mate 32,000 minus 247).
pub const MAX_EVAL: Value = 31_753;

/// The feature weights, 64-byte aligned so that each row of `FT` values starts a cache line,
/// and advised onto large pages: a net reads rows scattered over 64 MB or more.
struct FeatureWeights {
    /// The allocation, `len` values and up to 32 more so that an aligned start can be chosen.
    buffer: Vec<i16>,
    /// Where the aligned values start in `buffer`.
    start: usize,
    /// The number of weights (`INPUTS * FT`).
    len: usize,
}

impl FeatureWeights {
    /// `len` zeros.
    fn zeroed(len: usize) -> FeatureWeights {
        const SLACK: usize = 32; // 64 bytes of i16
        let mut buffer: Vec<i16> = Vec::with_capacity(len + SLACK);
        crate::large_pages::advise_large_pages(buffer.spare_capacity_mut());
        buffer.resize(len + SLACK, 0);
        // An i16 vector is 2-aligned, so the distance to the next 64-byte boundary is even.
        let start = (64 - buffer.as_ptr() as usize % 64) % 64 / 2;
        FeatureWeights { buffer, start, len }
    }

    /// The `len` weights, from the aligned start.
    fn as_slice(&self) -> &[i16] {
        &self.buffer[self.start..self.start + self.len]
    }

    /// The `len` weights, from the aligned start, to fill.
    fn as_mut_slice(&mut self) -> &mut [i16] {
        &mut self.buffer[self.start..self.start + self.len]
    }
}

/// A HalfKP network of `FT` accumulator values per perspective and hidden layers of `H1` and
/// `H2`, in the integers YaneuraOu computes with.
pub struct HalfKpNet<const FT: usize, const H1: usize, const H2: usize> {
    /// The feature transformer's biases: the accumulator of a position with no active feature.
    ft_bias: Box<[i16; FT]>,
    /// The feature transformer's weights: one row of `FT` values per input feature.
    ft_weights: FeatureWeights,
    /// The first hidden layer, from both perspectives' clipped accumulators (side to move first).
    hidden1: Affine<H1>,
    /// The second hidden layer.
    hidden2: Affine<H2>,
    /// The output's bias.
    out_bias: i32,
    /// The output's weights, one per second-layer value, padded to a multiple of `PADDING`.
    out_weights: Vec<i8>,
    /// The architecture string of the file it came from.
    pub arch_string: String,
    /// That string's bytes as the file has them, written back by `write_to`.
    arch_text: Vec<u8>,
}

impl<const FT: usize, const H1: usize, const H2: usize> PartialEq for HalfKpNet<FT, H1, H2> {
    fn eq(&self, other: &Self) -> bool {
        self.ft_bias == other.ft_bias
            && self.ft_weights.as_slice() == other.ft_weights.as_slice()
            && self.hidden1 == other.hidden1
            && self.hidden2 == other.hidden2
            && self.out_bias == other.out_bias
            && self.out_weights == other.out_weights
            && self.arch_string == other.arch_string
            && self.arch_text == other.arch_text
    }
}

impl<const FT: usize, const H1: usize, const H2: usize> Eq for HalfKpNet<FT, H1, H2> {}

impl<const FT: usize, const H1: usize, const H2: usize> fmt::Debug for HalfKpNet<FT, H1, H2> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HalfKpNet({})", Self::ARCH)
    }
}

/// The weights a seeded random network draws, for `HalfKpNet::random`.
struct RandomDraw(crate::rng::Rng);

impl RandomDraw {
    /// Uniform in `-half..=half`.
    fn uniform(&mut self, half: i32) -> i32 {
        self.0.below(2 * half as usize + 1) as i32 - half
    }

    /// Mostly within `-half..=half`, one in 64 anywhere in `i8`: the extremes get exercised.
    fn weight(&mut self, half: i32) -> i8 {
        if self.0.below(64) == 0 {
            self.0.below(256) as i32 as u8 as i8
        } else {
            self.uniform(half) as i8
        }
    }
}

impl<const FT: usize, const H1: usize, const H2: usize> HalfKpNet<FT, H1, H2> {
    /// Which member of the family these sizes are.
    pub const ARCH: Arch = match (FT, H1, H2) {
        (256, 32, 32) => Arch::K256x2_32_32,
        (512, 16, 32) => Arch::K512x2_16_32,
        (1024, 8, 32) => Arch::K1024x2_8_32,
        (1024, 8, 64) => Arch::K1024x2_8_64,
        _ => panic!("not a member of the HalfKP family"),
    };

    /// The network in a file's bytes whose header `read_header` has checked (and whose
    /// architecture is these sizes).
    fn from_checked(bytes: &[u8], header: &file::Header) -> HalfKpNet<FT, H1, H2> {
        debug_assert_eq!(header.arch, Self::ARCH);
        let mut r = file::Reader::new(bytes, header.body_start + 4);
        let mut ft_bias = Box::new([0i16; FT]);
        r.i16s_into(&mut ft_bias[..]);
        let mut ft_weights = FeatureWeights::zeroed(INPUTS * FT);
        r.i16s_into(ft_weights.as_mut_slice());
        r.u32(); // the network's hash, checked with the header
        let hidden1 = read_affine::<H1>(&mut r, 2 * FT);
        let hidden2 = read_affine::<H2>(&mut r, padded(H1));
        let out_bias = r.i32();
        let out_weights = r.take(padded(H2)).iter().map(|&b| b as i8).collect();
        debug_assert!(r.at_end());
        HalfKpNet {
            ft_bias,
            ft_weights,
            hidden1,
            hidden2,
            out_bias,
            out_weights,
            arch_string: header.arch_string.clone(),
            arch_text: header.arch_text.clone(),
        }
    }

    /// The file's bytes, as YaneuraOu writes them: a net read from a file gives that file's
    /// bytes back; a random or trained net carries the architecture string of published nets,
    /// so that it reads like theirs.
    pub fn to_bytes(&self) -> Vec<u8> {
        let arch = Self::ARCH;
        let mut out = Vec::with_capacity(12 + self.arch_text.len() + arch.body_len());
        self.write_to(&mut out).expect("writing to memory cannot fail");
        out
    }

    /// Writes the file's bytes to `out` (a file, memory, or a hash of them).
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        let arch = Self::ARCH;
        let string = &self.arch_text;
        let hashes = arch.hashes();
        for w in [file::VERSION, hashes.header, string.len() as u32] {
            out.write_all(&w.to_le_bytes())?;
        }
        out.write_all(string)?;
        out.write_all(&hashes.transformer.to_le_bytes())?;
        for w in self.ft_bias.iter().chain(self.ft_weights.as_slice()) {
            out.write_all(&w.to_le_bytes())?;
        }
        out.write_all(&hashes.network.to_le_bytes())?;
        write_affine(out, &self.hidden1)?;
        write_affine(out, &self.hidden2)?;
        out.write_all(&self.out_bias.to_le_bytes())?;
        let out_weights: Vec<u8> = self.out_weights.iter().map(|&w| w as u8).collect();
        out.write_all(&out_weights)
    }

    /// A network of seeded random weights, drawn so that every path of the arithmetic is taken
    /// on ordinary positions: accumulators below 0, within and above `0..=127`, hidden sums
    /// clipped at both ends, extreme `i8` weights, and non-zero padding columns (which must
    /// not count). For tests and speed measurements; its evaluations mean nothing.
    pub fn random(seed: u64) -> HalfKpNet<FT, H1, H2> {
        let mut draw = RandomDraw(crate::rng::Rng::new(seed));
        let ft_bias = Box::new(std::array::from_fn(|_| (draw.uniform(60) + 40) as i16));
        let mut ft_weights = FeatureWeights::zeroed(INPUTS * FT);
        for w in ft_weights.as_mut_slice() {
            *w = draw.uniform(32) as i16;
        }
        // Wider layers get smaller weights, so that their sums stay near the clipping range.
        let half1 = match 2 * FT {
            512 => 6,
            1024 => 4,
            _ => 3,
        };
        let bias1 = std::array::from_fn(|_| draw.uniform(4000));
        let hidden1 = Affine::from_fn(2 * FT, bias1, |_, _| draw.weight(half1));
        let half2 = match H1 {
            32 => 24,
            16 => 34,
            _ => 48,
        };
        let bias2 = std::array::from_fn(|_| draw.uniform(2000));
        // Columns from H1 up are padding: they meet zero inputs, whatever they hold.
        let hidden2 = Affine::from_fn(padded(H1), bias2, |_, _| draw.weight(half2));
        let out_bias = draw.uniform(10_000);
        let out_weights = (0..padded(H2)).map(|_| draw.uniform(127) as i8).collect();
        HalfKpNet {
            ft_bias,
            ft_weights,
            hidden1,
            hidden2,
            out_bias,
            out_weights,
            arch_string: Self::ARCH.string(),
            arch_text: Self::ARCH.string().into_bytes(),
        }
    }

    /// The rows of feature `f`.
    #[inline(always)]
    fn feature_row(&self, f: usize) -> &[i16; FT] {
        self.ft_weights.as_slice()[f * FT..(f + 1) * FT].try_into().expect("a row is FT long")
    }

    /// The output neuron's value (before `FV_SCALE`) from the two accumulators, the side to
    /// move's first: with AVX2 where the processor has it.
    #[inline]
    #[allow(unsafe_code)] // Calling the AVX2 layers, only where the processor has AVX2.
    pub fn propagate(&self, us: &[i16; FT], them: &[i16; FT]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if super::simd::has_avx2() {
            // SAFETY: this processor has AVX2.
            return unsafe { self.propagate_avx2(us, them) };
        }
        self.propagate_portable(us, them)
    }

    /// `propagate` in plain Rust: the reference the AVX2 path is checked against.
    pub fn propagate_portable(&self, us: &[i16; FT], them: &[i16; FT]) -> i32 {
        let mut input = Input::<FT>([[0; FT]; 2]);
        for (x, &a) in input.0.as_flattened_mut().iter_mut().zip(us.iter().chain(them)) {
            *x = clip_accumulator(a);
        }
        let z1 = activations(&self.hidden1.forward_portable(input.0.as_flattened()));
        let z2 = activations(&self.hidden2.forward_portable(&z1[..padded(H1)]));
        output_portable(self.out_bias, &self.out_weights, &z2[..padded(H2)])
    }

    /// `propagate` with AVX2 instructions.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub fn propagate_avx2(&self, us: &[i16; FT], them: &[i16; FT]) -> i32 {
        use layers::avx2;
        let mut input = Input::<FT>([[0; FT]; 2]);
        avx2::clip_accumulator(us, &mut input.0[0]);
        avx2::clip_accumulator(them, &mut input.0[1]);
        let z1 = activations(&avx2::forward(&self.hidden1, input.0.as_flattened()));
        let z2 = activations(&avx2::forward(&self.hidden2, &z1[..padded(H1)]));
        avx2::output(self.out_bias, &self.out_weights, &z2[..padded(H2)])
    }

    /// The evaluation of `pos` for the side to move, computed from scratch.
    pub fn evaluate(&self, pos: &Position, fv_scale: i32) -> Value {
        let us = pos.side_to_move();
        score(self.propagate(&self.refresh(pos, us), &self.refresh(pos, !us)), fv_scale)
    }

    /// The accumulator of `perspective` computed from scratch.
    pub fn refresh(&self, pos: &Position, perspective: Color) -> [i16; FT] {
        let active = KingView::of(pos, perspective).active(pos);
        super::architecture::sum_rows(&self.ft_bias, |f| self.feature_row(f), &active)
    }
}

/// The clipped accumulators of both perspectives, side by side and aligned: the first layer's
/// input.
#[repr(C, align(64))]
struct Input<const FT: usize>([[u8; FT]; 2]);

/// The clipped ReLUs of a hidden layer's sums, zero-padded to the widest next layer's input
/// (64): the next layer reads the first `padded(N)`.
#[inline(always)]
fn activations<const N: usize>(sums: &[i32; N]) -> [u8; 64] {
    let mut z = [0u8; 64];
    for (z, &y) in z.iter_mut().zip(sums) {
        *z = clipped_relu(y);
    }
    z
}

/// The evaluation from the output neuron's value: divided as C++ divides integers (truncating
/// toward zero), then clamped to `±MAX_EVAL`.
#[inline(always)]
pub fn score(output: i32, fv_scale: i32) -> Value {
    (output / fv_scale).clamp(-MAX_EVAL, MAX_EVAL)
}

/// The first affine layer of `inputs` and its `OUT` outputs from a file: biases, then the rows.
fn read_affine<const OUT: usize>(r: &mut file::Reader, inputs: usize) -> Affine<OUT> {
    let bias = std::array::from_fn(|_| r.i32());
    let rows = r.take(OUT * inputs);
    Affine::from_fn(inputs, bias, |row, c| rows[row * inputs + c] as i8)
}

/// A layer as the file holds it: biases, then the weights row by row.
fn write_affine<const OUT: usize>(out: &mut impl Write, layer: &Affine<OUT>) -> io::Result<()> {
    for b in layer.bias {
        out.write_all(&b.to_le_bytes())?;
    }
    for r in 0..OUT {
        let row: Vec<u8> = (0..layer.inputs()).map(|c| layer.weight(r, c) as u8).collect();
        out.write_all(&row)?;
    }
    Ok(())
}

/// A HalfKP network with the `FV_SCALE` it is evaluated with: what the search's accumulator
/// stack drives.
#[derive(Clone, Debug)]
pub struct Scaled<const FT: usize, const H1: usize, const H2: usize> {
    /// The network.
    pub net: Arc<HalfKpNet<FT, H1, H2>>,
    /// The divisor of the output (YaneuraOu's `FV_SCALE`).
    pub fv_scale: i32,
}

impl<const FT: usize, const H1: usize, const H2: usize> Architecture<FT> for Scaled<FT, H1, H2> {
    type View = KingView;

    #[inline(always)]
    fn view(perspective: Color, king: Square) -> KingView {
        KingView::new(perspective, king)
    }

    #[inline(always)]
    fn board_feature(view: KingView, piece: Piece, sq: Square) -> Option<usize> {
        view.board(piece, sq)
    }

    #[inline(always)]
    fn hand_feature(view: KingView, owner: Color, kind: PieceKind, nth: u32) -> Option<usize> {
        view.hand(owner, kind, nth)
    }

    #[inline(always)]
    fn active_features(view: KingView, pos: &Position) -> ActiveFeatures {
        view.active(pos)
    }

    #[inline(always)]
    fn bias(&self) -> &[i16; FT] {
        &self.net.ft_bias
    }

    #[inline(always)]
    fn row(&self, f: usize) -> &[i16; FT] {
        self.net.feature_row(f)
    }

    #[inline(always)]
    fn output(&self, us: &[i16; FT], them: &[i16; FT]) -> Value {
        score(self.net.propagate(us, them), self.fv_scale)
    }
}

/// A HalfKP network of any size this build reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyHalfKp {
    /// `halfkp_256x2-32-32`.
    K256x2_32_32(Arc<HalfKpNet<256, 32, 32>>),
    /// `halfkp_512x2-16-32`.
    K512x2_16_32(Arc<HalfKpNet<512, 16, 32>>),
    /// `halfkp_1024x2-8-32`.
    K1024x2_8_32(Arc<HalfKpNet<1024, 8, 32>>),
    /// `halfkp_1024x2-8-64`.
    K1024x2_8_64(Arc<HalfKpNet<1024, 8, 64>>),
}

/// Runs `$body` with `$net` bound to the sized network inside an `AnyHalfKp`.
macro_rules! with_sized {
    ($any:expr, $net:ident => $body:expr) => {
        match $any {
            AnyHalfKp::K256x2_32_32($net) => $body,
            AnyHalfKp::K512x2_16_32($net) => $body,
            AnyHalfKp::K1024x2_8_32($net) => $body,
            AnyHalfKp::K1024x2_8_64($net) => $body,
        }
    };
}

impl AnyHalfKp {
    /// Reads a YaneuraOu NNUE file of the HalfKP family from its bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<AnyHalfKp, FileError> {
        let header = file::read_header(bytes)?;
        Ok(match header.arch {
            Arch::K256x2_32_32 => AnyHalfKp::K256x2_32_32(Arc::new(HalfKpNet::from_checked(bytes, &header))),
            Arch::K512x2_16_32 => AnyHalfKp::K512x2_16_32(Arc::new(HalfKpNet::from_checked(bytes, &header))),
            Arch::K1024x2_8_32 => AnyHalfKp::K1024x2_8_32(Arc::new(HalfKpNet::from_checked(bytes, &header))),
            Arch::K1024x2_8_64 => AnyHalfKp::K1024x2_8_64(Arc::new(HalfKpNet::from_checked(bytes, &header))),
        })
    }

    /// A seeded random network of `arch` (see `HalfKpNet::random`).
    pub fn random(arch: Arch, seed: u64) -> AnyHalfKp {
        match arch {
            Arch::K256x2_32_32 => AnyHalfKp::K256x2_32_32(Arc::new(HalfKpNet::random(seed))),
            Arch::K512x2_16_32 => AnyHalfKp::K512x2_16_32(Arc::new(HalfKpNet::random(seed))),
            Arch::K1024x2_8_32 => AnyHalfKp::K1024x2_8_32(Arc::new(HalfKpNet::random(seed))),
            Arch::K1024x2_8_64 => AnyHalfKp::K1024x2_8_64(Arc::new(HalfKpNet::random(seed))),
        }
    }

    /// Its architecture.
    pub fn arch(&self) -> Arch {
        match self {
            AnyHalfKp::K256x2_32_32(_) => Arch::K256x2_32_32,
            AnyHalfKp::K512x2_16_32(_) => Arch::K512x2_16_32,
            AnyHalfKp::K1024x2_8_32(_) => Arch::K1024x2_8_32,
            AnyHalfKp::K1024x2_8_64(_) => Arch::K1024x2_8_64,
        }
    }

    /// The architecture string of the file it came from.
    pub fn arch_string(&self) -> &str {
        with_sized!(self, net => &net.arch_string)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        with_sized!(self, net => net.to_bytes())
    }

    /// Writes the file's bytes to `out`.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        with_sized!(self, net => net.write_to(out))
    }

    /// The evaluation of `pos` for the side to move, computed from scratch.
    pub fn evaluate(&self, pos: &Position, fv_scale: i32) -> Value {
        with_sized!(self, net => net.evaluate(pos, fv_scale))
    }

    /// The output neuron's value for `pos` (before `FV_SCALE`) by the portable layers and by
    /// the AVX2 ones (`None` where the processor lacks AVX2): the two must agree.
    pub fn outputs_by_path(&self, pos: &Position) -> (i32, Option<i32>) {
        let us = pos.side_to_move();
        with_sized!(self, net => {
            let (a, b) = (net.refresh(pos, us), net.refresh(pos, !us));
            (net.propagate_portable(&a, &b), avx2_output(net, &a, &b))
        })
    }
}

/// `propagate_avx2` where the processor has AVX2.
#[allow(unsafe_code)]
fn avx2_output<const FT: usize, const H1: usize, const H2: usize>(
    net: &HalfKpNet<FT, H1, H2>,
    us: &[i16; FT],
    them: &[i16; FT],
) -> Option<i32> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: this processor has AVX2.
        return Some(unsafe { net.propagate_avx2(us, them) });
    }
    let _ = (net, us, them);
    None
}

/// Tests of the HalfKP network's file round trip and output scaling.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_round_trips_through_its_file() {
        let net = HalfKpNet::<256, 32, 32>::random(5);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), 64_217_066);
        let back = AnyHalfKp::from_bytes(&bytes).unwrap();
        assert_eq!(back, AnyHalfKp::K256x2_32_32(Arc::new(net)));
        assert_eq!(back.to_bytes(), bytes);
    }

    #[test]
    fn the_score_divides_toward_zero_and_clamps() {
        assert_eq!(score(31, 16), 1);
        assert_eq!(score(-31, 16), -1);
        assert_eq!(score(-15, 16), 0);
        assert_eq!(score(600_000, 16), MAX_EVAL);
        assert_eq!(score(-600_000, 1), -MAX_EVAL);
    }
}
