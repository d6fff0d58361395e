//! The float HalfKP network the trainer fits, its loss and the loss's gradient.
//!
//! Per perspective `p` (side to move, other side) the accumulator is
//! `acc_p = b + sum over p's active features f of (W[f] + F[f % PIECE_FEATURES])`: `W` has a
//! row per (king square, piece feature) as the file does, and `F` a *factor* row per piece
//! feature whatever the king's square, which every king square's copy of that feature also
//! switches on. What a piece on a square means apart from the king's position is learnt once
//! from all positions instead of once for each of the 81 squares (a few million positions are
//! far too few for 32 million independent weights); at export `F` is added into every king
//! square's `W`, so the file has no factors.
//!
//! Above the accumulators, as the file's integer inference computes in the float domain
//! where 1.0 stands for 127: `x = clamp(acc, 0, 1)` for both perspectives (the side to move's
//! first), `a1 = clamp(W1 x + b1, 0, 1)`, `a2 = clamp(W2 a1 + b2, 0, 1)`, `out = w3 . a2 + b3`,
//! and the evaluation `out * OUT_SCALE` centipawns. The loss of a position is
//! `(sigmoid(evaluation / k) - target)^2`; a batch's loss is the mean.
//!
//! The gradient is found in two passes over a batch, as for shomei's own net: by fixed chunks
//! of positions, the dense layers' gradient (summed per chunk, then over chunks in order) and
//! each position's gradient by its accumulators; then the feature rows, each row owned by one
//! thread (`row % threads`) which adds the accumulator gradients in batch order. No sum depends
//! on the thread count, so neither does the result.

use super::grid::ft_on_grid;
use crate::logistic::sigmoid;
use crate::parallel::{fill_rows_by_owner, map_chunks};
use shomei::eval::nnue::halfkp::features::{INPUTS, PIECE_FEATURES};
use shomei::eval::nnue::halfkp::{Arch, KingView};
use shomei::rng::Rng;
use shomei::Position;
use std::borrow::Cow;

/// Positions per chunk of work.
pub const CHUNK: usize = 256;
/// The evaluation, in centipawns, of an output of 1.0.
pub const OUT_SCALE: f32 = 600.0;
/// At most this many features per perspective (38 in a game position).
pub const MAX_FEATURES: usize = 40;
/// Feature rows and factor rows are each kept within +-`FT_WEIGHT_CLIP`, and the accumulator
/// biases within +-`FT_BIAS_CLIP`: a merged row is then at most 2 * 3 = 6 (762 quantised),
/// and a bias plus 38 such rows at most 253 (32,131 quantised), inside the file's `i16`
/// accumulators.
pub const FT_WEIGHT_CLIP: f32 = 3.0;
/// See `FT_WEIGHT_CLIP`.
pub const FT_BIAS_CLIP: f32 = 25.0;
/// Hidden weights are `i8` in units of 1/64: at most 127/64.
pub const HIDDEN_WEIGHT_CLIP: f32 = 127.0 / 64.0;
/// Output weights are `i8` in units of 127 / (`OUT_SCALE` * `FV_SCALE` 16): at most 1.68.
pub const OUT_WEIGHT_CLIP: f32 = 127.0 * 127.0 / (OUT_SCALE * 16.0);

/// Where each group of parameters starts in `HalfKpModel::params`, for a size of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Accumulator neurons per perspective.
    pub ft: usize,
    /// First hidden layer's neurons.
    pub h1: usize,
    /// Second hidden layer's neurons.
    pub h2: usize,
}

impl Layout {
    /// The sizes of `arch`.
    pub fn of(arch: Arch) -> Layout {
        let (ft, h1, h2) = arch.dims();
        Layout { ft, h1, h2 }
    }
    /// Feature rows (`INPUTS`), then factor rows (`PIECE_FEATURES`).
    pub const ROWS: usize = INPUTS + PIECE_FEATURES;
    /// The accumulator biases.
    pub fn ft_bias(&self) -> usize {
        Self::ROWS * self.ft
    }
    /// The first hidden layer's weights, `h1` rows of `2 * ft`.
    pub fn w1(&self) -> usize {
        self.ft_bias() + self.ft
    }
    /// Its biases.
    pub fn b1(&self) -> usize {
        self.w1() + self.h1 * 2 * self.ft
    }
    /// The second hidden layer's weights, `h2` rows of `h1`.
    pub fn w2(&self) -> usize {
        self.b1() + self.h1
    }
    /// Its biases.
    pub fn b2(&self) -> usize {
        self.w2() + self.h2 * self.h1
    }
    /// The output weights.
    pub fn w3(&self) -> usize {
        self.b2() + self.h2
    }
    /// The output bias.
    pub fn b3(&self) -> usize {
        self.w3() + self.h2
    }
    /// The number of parameters.
    pub fn len(&self) -> usize {
        self.b3() + 1
    }
    /// Never empty.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// The network in floats.
#[derive(Clone, Debug, PartialEq)]
pub struct HalfKpModel {
    /// Its architecture (the sizes of its layers).
    pub arch: Arch,
    /// All parameters, laid out as `Layout` says.
    pub params: Vec<f32>,
    /// Whether evaluations, the loss and the gradient use the weights rounded to the file's
    /// integers (factors merged), as the written net will: training on the grid, each step's
    /// gradient, found at the rounded weights, moves the float ones (the straight-through
    /// estimate), so the net learns to live with its rounding.
    pub on_grid: bool,
}

/// The features of both perspectives of a position, the side to move's first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// The side to move's features.
    pub us: Vec<u32>,
    /// The other side's.
    pub them: Vec<u32>,
}

impl Features {
    /// The HalfKP features of `pos`, as the engine finds them.
    pub fn of(pos: &Position) -> Features {
        let side = pos.side_to_move();
        let list = |c| KingView::of(pos, c).active(pos).as_slice().iter().map(|&f| f as u32).collect();
        Features { us: list(side), them: list(!side) }
    }
}

/// A labelled position to fit: its features, its target and its loss weight.
pub trait Samples: Sync {
    /// The number of positions.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Position `i`'s features.
    fn features(&self, i: usize) -> Features;
    /// Position `i`'s target in `0..=1`.
    fn target(&self, i: usize) -> f32;
}

/// The intermediate values of one forward pass.
struct Forward {
    acc: Vec<f32>,
    z1: Vec<f32>,
    a1: Vec<f32>,
    z2: Vec<f32>,
    a2: Vec<f32>,
    out: f32,
}

/// `a . b`, summed in 8 lanes so that it vectorises (a fixed order: the same on every run).
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ca.zip(cb) {
        for i in 0..8 {
            lanes[i] += x[i] * y[i];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

#[inline]
fn clamp01(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

#[inline]
fn inside(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 {
        1.0
    } else {
        0.0
    }
}

impl HalfKpModel {
    /// The sizes of its layers.
    pub fn layout(&self) -> Layout {
        Layout::of(self.arch)
    }

    /// All zeros.
    pub fn zeroed(arch: Arch) -> HalfKpModel {
        HalfKpModel { arch, params: vec![0.0; Layout::of(arch).len()], on_grid: false }
    }

    /// Seeded first weights: small feature rows (factors at zero) and accumulator biases of
    /// 0.5, so that the clipped accumulators start in their linear range; hidden layers of
    /// uniform weights scaled by their inputs, biases of 0.5; output weights small.
    pub fn random(arch: Arch, seed: u64) -> HalfKpModel {
        let mut m = HalfKpModel::zeroed(arch);
        let l = m.layout();
        let mut rng = Rng::new(seed);
        let mut uniform =
            |half: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * half;
        for w in &mut m.params[..INPUTS * l.ft] {
            *w = uniform(0.05);
        }
        m.params[l.ft_bias()..l.w1()].fill(0.5);
        let half1 = (1.0 / (2 * l.ft) as f32).sqrt();
        for w in &mut m.params[l.w1()..l.b1()] {
            *w = uniform(half1);
        }
        m.params[l.b1()..l.w2()].fill(0.5);
        let half2 = (1.0 / l.h1 as f32).sqrt();
        for w in &mut m.params[l.w2()..l.b2()] {
            *w = uniform(half2);
        }
        m.params[l.b2()..l.w3()].fill(0.5);
        let half3 = 0.5 * (1.0 / l.h2 as f32).sqrt();
        for w in &mut m.params[l.w3()..l.b3()] {
            *w = uniform(half3);
        }
        m
    }

    /// Row `r` of the feature transformer (`Layout::ROWS` rows: features, then factors).
    #[inline]
    pub fn row(&self, r: usize) -> &[f32] {
        let ft = self.layout().ft;
        &self.params[r * ft..(r + 1) * ft]
    }

    /// One perspective's accumulator: `biases` plus the rows (and factor rows) of `features`;
    /// on the grid, each merged row rounded as the file holds it.
    fn accumulate(&self, features: &[u32], biases: &[f32], acc: &mut [f32]) {
        acc.copy_from_slice(biases);
        for &f in features {
            let f = f as usize;
            let (row, factor) = (self.row(f), self.row(INPUTS + f % PIECE_FEATURES));
            if self.on_grid {
                for ((a, w), v) in acc.iter_mut().zip(row).zip(factor) {
                    *a += ft_on_grid(w + v);
                }
            } else {
                for r in [row, factor] {
                    for (a, w) in acc.iter_mut().zip(r) {
                        *a += w;
                    }
                }
            }
        }
    }

    /// The parameters above the feature rows (accumulator biases, dense layers), from
    /// `Layout::ft_bias` on: the model's own, or on the grid rounded as the file holds them.
    pub fn dense(&self) -> Cow<'_, [f32]> {
        if self.on_grid {
            Cow::Owned(self.dense_on_grid())
        } else {
            Cow::Borrowed(&self.params[self.layout().ft_bias()..])
        }
    }

    /// Both perspectives' accumulators (the side to move's first), before clipping.
    pub fn accumulators(&self, x: &Features) -> Vec<f32> {
        self.forward(x, &self.dense()).acc
    }

    /// The forward pass with `dense` as the parameters from `Layout::ft_bias` on (`dense()`).
    fn forward(&self, x: &Features, dense: &[f32]) -> Forward {
        let l = self.layout();
        let base = l.ft_bias();
        let mut acc = vec![0.0; 2 * l.ft];
        let (us, them) = acc.split_at_mut(l.ft);
        let biases = &dense[..l.ft];
        self.accumulate(&x.us, biases, us);
        self.accumulate(&x.them, biases, them);
        let input: Vec<f32> = acc.iter().map(|&a| clamp01(a)).collect();
        let layer = |w: usize, b: usize, inputs: &[f32], outputs: usize| -> Vec<f32> {
            let n = inputs.len();
            let (w, b) = (w - base, b - base);
            (0..outputs)
                .map(|r| {
                    let row = &dense[w + r * n..w + (r + 1) * n];
                    dense[b + r] + dot(row, inputs)
                })
                .collect()
        };
        let z1 = layer(l.w1(), l.b1(), &input, l.h1);
        let a1: Vec<f32> = z1.iter().map(|&z| clamp01(z)).collect();
        let z2 = layer(l.w2(), l.b2(), &a1, l.h2);
        let a2: Vec<f32> = z2.iter().map(|&z| clamp01(z)).collect();
        let out = layer(l.w3(), l.b3(), &a2, 1)[0];
        Forward { acc, z1, a1, z2, a2, out }
    }

    /// The evaluation of a position with these features, in centipawns for the side to move.
    pub fn evaluate(&self, x: &Features) -> f32 {
        self.forward(x, &self.dense()).out * OUT_SCALE
    }

    /// The evaluation of `pos`.
    pub fn evaluate_position(&self, pos: &Position) -> f32 {
        self.evaluate(&Features::of(pos))
    }

    /// Keeps every group of weights within the range its integers can hold.
    pub fn clip(&mut self) {
        let l = self.layout();
        let clip = |s: &mut [f32], c: f32| s.iter_mut().for_each(|w| *w = w.clamp(-c, c));
        clip(&mut self.params[..l.ft_bias()], FT_WEIGHT_CLIP);
        clip(&mut self.params[l.ft_bias()..l.w1()], FT_BIAS_CLIP);
        clip(&mut self.params[l.w1()..l.b1()], HIDDEN_WEIGHT_CLIP);
        clip(&mut self.params[l.w2()..l.b2()], HIDDEN_WEIGHT_CLIP);
        clip(&mut self.params[l.w3()..l.b3()], OUT_WEIGHT_CLIP);
    }

    /// Decoupled weight decay of the feature rows: each is multiplied by `1 - rate`.
    pub fn decay(&mut self, rate: f64) {
        if rate > 0.0 {
            let keep = (1.0 - rate) as f32;
            let end = self.layout().ft_bias();
            self.params[..end].iter_mut().for_each(|w| *w *= keep);
        }
    }

    /// The mean loss over `set` (0 for no positions), on `threads` threads.
    pub fn loss(&self, set: &dyn Samples, k: f64, threads: usize) -> f64 {
        let n = set.len();
        let scale = OUT_SCALE as f64 / k;
        let dense = self.dense();
        let sums = map_chunks(n, CHUNK, threads, |range| {
            range
                .map(|i| {
                    let out = self.forward(&set.features(i), &dense).out as f64;
                    (sigmoid(out * scale) - set.target(i) as f64).powi(2)
                })
                .sum::<f64>()
        });
        sums.iter().sum::<f64>() / n.max(1) as f64
    }

    /// The gradient of the mean loss over the positions `batch` (indices into `set`), written
    /// into `grad` (one entry per parameter); returns the batch's summed loss.
    pub fn gradient(
        &self,
        set: &dyn Samples,
        batch: &[u32],
        k: f64,
        threads: usize,
        grad: &mut [f32],
    ) -> f64 {
        let l = self.layout();
        let (ft, h1, h2) = (l.ft, l.h1, l.h2);
        let scale = OUT_SCALE as f64 / k;
        let n = batch.len().max(1) as f64;
        let dense_len = l.len() - l.ft_bias();
        // The weights the forward pass uses (on the grid: rounded; their gradient moves the
        // float ones).
        let weights = self.dense();
        let weights: &[f32] = &weights;
        // Pass 1, by chunks: the loss, the dense layers' gradient, and each position's features
        // and gradient by its two accumulators.
        let chunks = map_chunks(batch.len(), CHUNK, threads, |range| {
            let mut loss = 0.0f64;
            let mut dense = vec![0.0f32; dense_len];
            let mut d_accs = Vec::with_capacity(range.len() * 2 * ft);
            let mut features = Vec::with_capacity(range.len());
            let at = |offset: usize| offset - l.ft_bias();
            for &i in &batch[range] {
                let x = set.features(i as usize);
                let f = self.forward(&x, weights);
                let p = sigmoid(f.out as f64 * scale);
                let error = p - set.target(i as usize) as f64;
                loss += error * error;
                let g = (2.0 * error * p * (1.0 - p) * scale / n) as f32;
                // Output layer.
                dense[at(l.b3())] += g;
                let mut d_z2 = vec![0.0f32; h2];
                for j in 0..h2 {
                    dense[at(l.w3()) + j] += g * f.a2[j];
                    d_z2[j] = g * weights[at(l.w3()) + j] * inside(f.z2[j]);
                }
                // Second hidden layer.
                let mut d_z1 = vec![0.0f32; h1];
                for (r, &d) in d_z2.iter().enumerate() {
                    if d == 0.0 {
                        continue;
                    }
                    dense[at(l.b2()) + r] += d;
                    let row = l.w2() + r * h1;
                    for c in 0..h1 {
                        dense[at(row) + c] += d * f.a1[c];
                        d_z1[c] += d * weights[at(row) + c];
                    }
                }
                for (d, &z) in d_z1.iter_mut().zip(&f.z1) {
                    *d *= inside(z);
                }
                // First hidden layer, and the gradient by the accumulators.
                let mut d_acc = vec![0.0f32; 2 * ft];
                for (r, &d) in d_z1.iter().enumerate() {
                    if d == 0.0 {
                        continue;
                    }
                    dense[at(l.b1()) + r] += d;
                    let row = l.w1() + r * 2 * ft;
                    let (d_w, w) =
                        (&mut dense[at(row)..at(row) + 2 * ft], &weights[at(row)..at(row) + 2 * ft]);
                    for c in 0..2 * ft {
                        d_w[c] += d * clamp01(f.acc[c]);
                        d_acc[c] += d * w[c];
                    }
                }
                for c in 0..2 * ft {
                    d_acc[c] *= inside(f.acc[c]);
                    dense[c % ft] += d_acc[c];
                }
                d_accs.extend_from_slice(&d_acc);
                features.push(x);
            }
            (loss, dense, d_accs, features)
        });
        let mut loss = 0.0;
        let (rows, rest) = grad.split_at_mut(l.ft_bias());
        rest.fill(0.0);
        for (chunk_loss, dense, _, _) in &chunks {
            loss += chunk_loss;
            rest.iter_mut().zip(dense).for_each(|(a, b)| *a += b);
        }
        // Pass 2: the feature rows, each owned by one thread.
        let threads = threads.max(1);
        fill_rows_by_owner(rows, ft, threads, |part, rows| {
            for (_, _, d_accs, features) in &chunks {
                for (x, d_acc) in features.iter().zip(d_accs.chunks_exact(2 * ft)) {
                    let (d_us, d_them) = d_acc.split_at(ft);
                    for (list, d) in [(&x.us, d_us), (&x.them, d_them)] {
                        for &f in list {
                            let f = f as usize;
                            for r in [f, INPUTS + f % PIECE_FEATURES] {
                                if r % threads == part {
                                    for (g, v) in rows[r / threads].iter_mut().zip(d) {
                                        *g += v;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        });
        loss
    }
}
