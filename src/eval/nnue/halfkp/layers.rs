//! The layers above HalfKP's accumulators, in YaneuraOu's integer arithmetic: the clipped
//! accumulators (`0..=127`, bytes), two affine layers with int8 weights each followed by a
//! clipped ReLU (`(y >> 6)` clamped to `0..=127`), and the output neuron.
//!
//! Each affine layer keeps its weights *group-major*: the four weights from inputs `4g..4g+4`
//! to every output are stored together, group after group. A group of four zero inputs then
//! costs nothing: the first layer's input is the clipped accumulator, mostly zeros and
//! saturated values, and only its non-zero groups are visited (as YaneuraOu's
//! `AffineTransformSparseInput` does). The sums are exact in `i32`, so the order of the groups
//! does not change the result, and the AVX2 path (`avx2`) equals the portable one.

/// Right shift of an affine layer's output before its clipped ReLU (`kWeightScaleBits`).
pub const WEIGHT_SCALE_BITS: u32 = 6;
/// The largest value a clipped activation takes.
pub const CLIP: i32 = 127;
/// Affine inputs are padded to a multiple of this many bytes, in the file and in memory.
pub const PADDING: usize = 32;

/// `n` rounded up to a whole number of `PADDING`s.
pub const fn padded(n: usize) -> usize {
    n.div_ceil(PADDING) * PADDING
}

/// An affine layer from `inputs` (a multiple of `PADDING`) bytes to `OUT` sums.
#[derive(Clone, PartialEq, Eq)]
pub struct Affine<const OUT: usize> {
    /// The biases, one per output.
    pub bias: [i32; OUT],
    /// `weights[(g * OUT + r) * 4 + j]` weighs input `4 * g + j` into output `r`.
    weights: Vec<i8>,
    /// The number of input bytes (a multiple of `PADDING`).
    inputs: usize,
}

impl<const OUT: usize> Affine<OUT> {
    /// A layer from `inputs` bytes whose weight from input `c` to output `r` is `weight(r, c)`.
    pub fn from_fn(
        inputs: usize,
        bias: [i32; OUT],
        mut weight: impl FnMut(usize, usize) -> i8,
    ) -> Affine<OUT> {
        assert_eq!(inputs % PADDING, 0, "affine inputs are padded");
        let mut weights = vec![0; inputs * OUT];
        for r in 0..OUT {
            for c in 0..inputs {
                weights[(c / 4 * OUT + r) * 4 + c % 4] = weight(r, c);
            }
        }
        Affine { bias, weights, inputs }
    }

    /// The weight from input `c` to output `r`.
    #[inline]
    pub fn weight(&self, r: usize, c: usize) -> i8 {
        self.weights[(c / 4 * OUT + r) * 4 + c % 4]
    }

    /// How many input bytes the layer reads.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// The group-major weights of input group `g` (four inputs, `4 * OUT` bytes).
    #[inline(always)]
    fn group(&self, g: usize) -> &[i8] {
        &self.weights[g * OUT * 4..(g + 1) * OUT * 4]
    }

    /// `bias + W x` for `x` of `inputs` bytes, skipping groups of four zero inputs.
    #[inline]
    pub fn forward_portable(&self, x: &[u8]) -> [i32; OUT] {
        debug_assert_eq!(x.len(), self.inputs);
        let mut out = self.bias;
        for (g, xs) in x.chunks_exact(4).enumerate() {
            if xs == [0; 4] {
                continue;
            }
            for (o, w) in out.iter_mut().zip(self.group(g).chunks_exact(4)) {
                *o += (0..4).map(|j| i32::from(xs[j]) * i32::from(w[j])).sum::<i32>();
            }
        }
        out
    }
}

impl<const OUT: usize> std::fmt::Debug for Affine<OUT> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Affine({} -> {OUT})", self.inputs)
    }
}

/// The clipped ReLU after an affine layer: `(y >> 6)` clamped to `0..=127`, the shift
/// arithmetic (rounding toward minus infinity) and before the clamp.
#[inline(always)]
pub fn clipped_relu(y: i32) -> u8 {
    (y >> WEIGHT_SCALE_BITS).clamp(0, CLIP) as u8
}

/// An accumulator value clipped into the first layer's input byte (no shift).
#[inline(always)]
pub fn clip_accumulator(a: i16) -> u8 {
    a.clamp(0, CLIP as i16) as u8
}

/// The output neuron: `bias + w . x`.
#[inline]
pub fn output_portable(bias: i32, weights: &[i8], x: &[u8]) -> i32 {
    bias + weights.iter().zip(x).map(|(&w, &x)| i32::from(w) * i32::from(x)).sum::<i32>()
}

/// The same layers with AVX2 instructions, for processors that have them (the caller checks).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub mod avx2 {
    use super::Affine;
    use std::arch::x86_64::*;

    /// The clipped accumulator, 32 values at a time: saturate to `i8`, then take the maximum
    /// with 0. `packs` interleaves the 128-bit halves of its two inputs; the permutation puts the
    /// bytes back in order.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub fn clip_accumulator(acc: &[i16], out: &mut [u8]) {
        assert_eq!(acc.len(), out.len());
        assert_eq!(acc.len() % 32, 0);
        let zero = _mm256_setzero_si256();
        for (a, o) in acc.chunks_exact(32).zip(out.chunks_exact_mut(32)) {
            // SAFETY: `a` holds 32 `i16` (64 bytes) and `o` 32 bytes; unaligned loads and stores.
            unsafe {
                let lo = _mm256_loadu_si256(a.as_ptr().cast());
                let hi = _mm256_loadu_si256(a.as_ptr().add(16).cast());
                let packed = _mm256_max_epi8(_mm256_packs_epi16(lo, hi), zero);
                _mm256_storeu_si256(o.as_mut_ptr().cast(), _mm256_permute4x64_epi64(packed, 0b11_01_10_00));
            }
        }
    }

    /// `Affine::forward_portable`, visiting only the non-zero groups of four inputs. Each visit
    /// broadcasts the group's four bytes and multiplies them with the group's weights of eight
    /// outputs per register (`maddubs`: byte pairs into `i16`; `madd`: pairs into `i32`). A pair
    /// is at most `2 * 127 * 128`, so `maddubs` never saturates.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub fn forward<const OUT: usize>(layer: &Affine<OUT>, x: &[u8]) -> [i32; OUT] {
        const { assert!(OUT.is_multiple_of(8) && OUT <= 64) };
        assert_eq!(x.len(), layer.inputs);
        assert_eq!(x.len() % 32, 0);
        let ones = _mm256_set1_epi16(1);
        let mut acc = [_mm256_setzero_si256(); 8];
        let weights = layer.weights.as_ptr();
        for (block, bytes) in x.chunks_exact(32).enumerate() {
            // SAFETY: `bytes` holds 32 bytes.
            let v = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
            // Inputs are at most 127, so a group is non-zero exactly when, read as an `i32`, it
            // is positive.
            let mut nonzero =
                _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(v, _mm256_setzero_si256()))) as u32;
            while nonzero != 0 {
                let g = block * 8 + nonzero.trailing_zeros() as usize;
                nonzero &= nonzero - 1;
                let group = i32::from_le_bytes(x[4 * g..4 * g + 4].try_into().expect("4 bytes"));
                let xs = _mm256_set1_epi32(group);
                for (k, a) in acc.iter_mut().enumerate().take(OUT / 8) {
                    // SAFETY: group `g` < inputs / 4 owns `4 * OUT` bytes from `g * OUT * 4`, of
                    // which this reads the 32 at `k * 32`, with `k < OUT / 8`.
                    let w = unsafe { _mm256_loadu_si256(weights.add((g * OUT + 8 * k) * 4).cast()) };
                    *a = _mm256_add_epi32(*a, _mm256_madd_epi16(_mm256_maddubs_epi16(xs, w), ones));
                }
            }
        }
        let mut out = layer.bias;
        for (k, a) in acc.iter().enumerate().take(OUT / 8) {
            let mut sums = [0i32; 8];
            // SAFETY: `sums` holds 8 `i32` (32 bytes).
            unsafe { _mm256_storeu_si256(sums.as_mut_ptr().cast(), *a) };
            for (o, s) in out[8 * k..8 * k + 8].iter_mut().zip(sums) {
                *o += s;
            }
        }
        out
    }

    /// `output_portable` for 32 or 64 inputs.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub fn output(bias: i32, weights: &[i8], x: &[u8]) -> i32 {
        assert_eq!(weights.len(), x.len());
        assert_eq!(x.len() % 32, 0);
        let ones = _mm256_set1_epi16(1);
        let mut sum = _mm256_setzero_si256();
        for (w, xs) in weights.chunks_exact(32).zip(x.chunks_exact(32)) {
            // SAFETY: each chunk holds 32 bytes.
            let (w, xs) =
                unsafe { (_mm256_loadu_si256(w.as_ptr().cast()), _mm256_loadu_si256(xs.as_ptr().cast())) };
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_maddubs_epi16(xs, w), ones));
        }
        let half = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0b01_00_11_10));
        let last = _mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, 0b10_11_00_01));
        bias + _mm_cvtsi128_si32(last)
    }
}

/// Tests of the affine layers and the clipped ReLU, portable and AVX2.
#[cfg(test)]
mod tests {
    use super::*;

    /// A layer from `inputs` bytes with seeded random biases and weights.
    fn layer<const OUT: usize>(inputs: usize, seed: u64) -> Affine<OUT> {
        let mut rng = crate::rng::Rng::new(seed);
        let bias = std::array::from_fn(|_| rng.below(20_001) as i32 - 10_000);
        Affine::from_fn(inputs, bias, |_, _| (rng.below(256) as i32 - 128) as i8)
    }

    /// `n` seeded random input bytes, in groups of four that are all zero half the time.
    fn input(n: usize, seed: u64) -> Vec<u8> {
        let mut rng = crate::rng::Rng::new(seed);
        // Half the groups zero, the rest anything from 0 to 127, saturated values included.
        (0..n / 4)
            .flat_map(|_| {
                let zero = rng.chance(50);
                let v: Vec<u8> = (0..4).map(|_| if zero { 0 } else { rng.below(128) as u8 }).collect();
                v
            })
            .collect()
    }

    /// The weight of each input reaches exactly its output: a layer with a single non-zero
    /// weight moves one input into one output.
    #[test]
    fn weights_are_read_back_where_they_were_placed() {
        let l = Affine::<16>::from_fn(64, [0; 16], |r, c| if (r, c) == (5, 37) { 3 } else { 0 });
        let mut x = vec![0u8; 64];
        x[37] = 100;
        let mut expected = [0; 16];
        expected[5] = 300;
        assert_eq!(l.forward_portable(&x), expected);
        assert_eq!(l.weight(5, 37), 3);
    }

    #[test]
    fn the_portable_layer_is_the_plain_matrix_product() {
        let l = layer::<32>(512, 1);
        let x = input(512, 2);
        let y = l.forward_portable(&x);
        for (r, &yr) in y.iter().enumerate() {
            let plain: i32 =
                l.bias[r] + (0..512).map(|c| i32::from(l.weight(r, c)) * i32::from(x[c])).sum::<i32>();
            assert_eq!(yr, plain);
        }
    }

    #[test]
    fn the_clipped_relu_shifts_then_clamps() {
        assert_eq!(clipped_relu(-1), 0);
        assert_eq!(clipped_relu(63), 0);
        assert_eq!(clipped_relu(64), 1);
        assert_eq!(clipped_relu(127 * 64 + 63), 127);
        assert_eq!(clipped_relu(1 << 20), 127);
        assert_eq!(clip_accumulator(-5), 0);
        assert_eq!(clip_accumulator(300), 127);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    #[allow(unsafe_code)]
    fn the_avx2_layers_equal_the_portable_ones() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        for seed in 0..20 {
            let x = input(512, 100 + seed);
            let (l32, l16, l8) =
                (layer::<32>(512, seed), layer::<16>(512, seed + 1), layer::<8>(512, seed + 2));
            // SAFETY: this processor has AVX2.
            unsafe {
                assert_eq!(avx2::forward(&l32, &x), l32.forward_portable(&x));
                assert_eq!(avx2::forward(&l16, &x), l16.forward_portable(&x));
                assert_eq!(avx2::forward(&l8, &x), l8.forward_portable(&x));
                let w: Vec<i8> = x.iter().map(|&b| (b as i8).wrapping_mul(3)).collect();
                assert_eq!(avx2::output(7, &w[..64], &x[..64]), output_portable(7, &w[..64], &x[..64]));
                let acc: Vec<i16> =
                    (0..512).map(|i| ((i * 37 + seed as usize * 11) % 700) as i16 - 300).collect();
                let mut clipped = vec![0u8; 512];
                avx2::clip_accumulator(&acc, &mut clipped);
                let portable: Vec<u8> = acc.iter().map(|&a| clip_accumulator(a)).collect();
                assert_eq!(clipped, portable);
            }
        }
    }
}
