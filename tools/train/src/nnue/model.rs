//! The float network the trainer fits, its loss and the loss's gradient.
//!
//! Per perspective `p` (side to move, other side) the accumulator is
//! `acc_p = b + sum over p's active features f of (W[f] + F[f % factors])`, where `W` are the
//! real feature weights (`inputs` rows of `hidden`) and `F` the *factor* weights: one
//! bucket-independent copy of a bucket's features, which every bucket's copy of a feature also
//! switches on. A piece's meaning that does not depend on the king's bucket is learnt once from
//! all positions instead of once per bucket; at export `F` is added into every bucket's `W`
//! (`export`), so the engine's net has no factors. The output is
//! `sum_i screlu(acc_us[i]) v[i] + sum_i screlu(acc_them[i]) v[hidden + i] + c` with
//! `screlu(x) = clamp(x, 0, 1)^2`, and the evaluation that output times `OUTPUT_SCALE`.
//!
//! The loss of a position is `(sigmoid(evaluation / k) - target)^2`; a batch's loss is the mean.
//! Its gradient is found in two passes over the batch:
//! 1. by fixed chunks of positions on the threads: the forward pass, the output layer's
//!    gradient (summed per chunk, then over chunks in chunk order) and each position's gradient
//!    by its two accumulators;
//! 2. the feature rows' gradient: the rows dealt out to the threads by `row % threads`, each
//!    thread adding, in batch order, the accumulator gradients of the positions that switch its
//!    rows on. Only active rows are touched.
//!
//! Every sum is taken in an order that does not depend on the thread count, so neither does
//! the result, to the bit.

use super::data::{Positions, Sample};
use crate::logistic::sigmoid;
use crate::parallel::{fill_rows_by_owner, map_chunks};
use shomei::eval::nnue::features::{INPUTS, MAX_ACTIVE, PER_BUCKET};
use shomei::eval::nnue::network::{L1, OUTPUT_SCALE};
use shomei::rng::Rng;
use shomei::Position;

/// Positions per chunk of work.
pub const CHUNK: usize = 256;

/// Neurons summed together in registers.
const LANES: usize = 32;

/// Real and factor feature weights are kept within +-`FT_WEIGHT_CLIP`, so a merged weight is
/// within +-1.98 and quantises (times `QA` = 255, rounded) to at most 505.
pub const FT_WEIGHT_CLIP: f32 = 0.99;
/// Accumulator biases are kept within +-`FT_BIAS_CLIP`. The engine's accumulators are `i16`,
/// and `Network::check_ranges` asks `|bias| + MAX_ACTIVE * max |weight| <= 32,767` per neuron:
/// with weights of at most 505, a bias up to (32,767 - 40 * 505) / 255 = 49.3 fits; 48 leaves
/// room for rounding. (An accumulator beyond 1 + 80 * 0.99 is as saturated as one at 1, so no
/// useful bias is cut.)
pub const FT_BIAS_CLIP: f32 = 48.0;
/// Output weights are kept within +-1: quantised (times `QB` = 64) each is at most 64, and all
/// `2 * L1` = 512 of them sum to at most 32,768, within `MAX_OUTPUT_WEIGHT_SUM` (33,025), so the
/// engine's `i32` output sum cannot overflow.
pub const OUT_WEIGHT_CLIP: f32 = 1.0;
/// The output bias is kept within +-`OUT_BIAS_CLIP` (an evaluation of 40,000): quantised (times
/// `QA * QB` = 16,320) it stays far inside `i32`.
pub const OUT_BIAS_CLIP: f32 = 100.0;

/// The network's dimensions. Runtime values, so tests can fit tiny nets; the engine's are
/// `Shape::PRODUCTION`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Real input features per perspective.
    pub inputs: usize,
    /// Factor features (0 for none): feature `f` also switches on factor `f % factors`, which
    /// must divide `inputs`.
    pub factors: usize,
    /// Accumulator neurons per perspective.
    pub hidden: usize,
}

impl Shape {
    /// The engine's network: `INPUTS` features with `PER_BUCKET` factors, `L1` neurons.
    pub const PRODUCTION: Shape = Shape { inputs: INPUTS, factors: PER_BUCKET, hidden: L1 };

    /// Feature rows: real, then factor.
    pub fn rows(&self) -> usize {
        self.inputs + self.factors
    }

    /// Where the accumulator biases start in the parameter vector (after the feature rows).
    pub fn bias_offset(&self) -> usize {
        self.rows() * self.hidden
    }

    /// Where the output weights start (side to move's `hidden`, then the other side's).
    pub fn out_offset(&self) -> usize {
        self.bias_offset() + self.hidden
    }

    /// Where the output bias is.
    pub fn out_bias_offset(&self) -> usize {
        self.out_offset() + 2 * self.hidden
    }

    /// The number of parameters.
    pub fn len(&self) -> usize {
        self.out_bias_offset() + 1
    }

    /// Whether there are no parameters (never: there is always the output bias).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The factor row feature `f` also switches on, if there are factors.
    #[inline]
    pub fn factor_row(&self, f: usize) -> Option<usize> {
        (self.factors > 0).then(|| self.inputs + f % self.factors)
    }
}

/// The network in floats: all parameters in one vector, laid out as `Shape`'s offsets say
/// (feature rows of `hidden`, real then factor; biases; output weights; output bias).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The dimensions.
    pub shape: Shape,
    /// The parameters.
    pub params: Vec<f32>,
}

/// `clamp(x, 0, 1)^2`.
#[inline]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The slope of `screlu`: `2x` inside (0, 1), 0 outside.
#[inline]
fn screlu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 {
        2.0 * x
    } else {
        0.0
    }
}

/// `a += b`, elementwise.
#[inline]
fn add(a: &mut [f32], b: &[f32]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// Positions with their targets and the sigmoid's scale: what a loss is measured on.
#[derive(Clone, Copy, Debug)]
pub struct Set<'a> {
    /// The positions.
    pub data: &'a Positions,
    /// Each position's target, 0 to 1.
    pub targets: &'a [f32],
    /// Each position's weight in the loss, if not all 1: a position's loss is its weight times
    /// its squared error, a batch's the sum over its positions divided by their number.
    pub weights: Option<&'a [f32]>,
    /// Evaluations (engine units) are divided by this before the sigmoid.
    pub k: f64,
}

impl Set<'_> {
    /// Position `i`'s weight in the loss.
    #[inline]
    pub fn weight(&self, i: usize) -> f64 {
        self.weights.map_or(1.0, |w| w[i] as f64)
    }
}

impl Model {
    /// A network of `shape` whose parameters are all zero.
    pub fn zeroed(shape: Shape) -> Model {
        assert!(
            shape.factors == 0 || shape.inputs.is_multiple_of(shape.factors),
            "factors must divide inputs"
        );
        assert!(shape.inputs + shape.factors <= 1 << 16, "features are u16");
        Model { shape, params: vec![0.0; shape.len()] }
    }

    /// The first weights, drawn from `seed`: feature rows uniform in +-1/sqrt(rows switched on,
    /// 80 with factors), so a perspective's accumulator starts with a spread of about 0.6
    /// around a zero bias (half of its neurons in screlu's live range); output weights uniform
    /// in +-0.5/sqrt(2 hidden), so evaluations start within a few tens of units of 0.
    pub fn random(shape: Shape, seed: u64) -> Model {
        let mut model = Model::zeroed(shape);
        let mut rng = Rng::new(seed);
        let mut uniform =
            |range: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * range;
        let per_feature = if shape.factors > 0 { 2 } else { 1 };
        let ft = 1.0 / ((MAX_ACTIVE * per_feature) as f32).sqrt();
        let out = 0.5 / ((2 * shape.hidden) as f32).sqrt();
        let (bias, outputs) = (shape.bias_offset(), shape.out_offset());
        for w in &mut model.params[..bias] {
            *w = uniform(ft);
        }
        for w in &mut model.params[outputs..outputs + 2 * shape.hidden] {
            *w = uniform(out);
        }
        model
    }

    /// Feature row `r` (real `0..inputs`, then factors).
    #[inline]
    pub fn row(&self, r: usize) -> &[f32] {
        let h = self.shape.hidden;
        &self.params[r * h..(r + 1) * h]
    }

    /// The accumulator biases.
    pub fn ft_bias(&self) -> &[f32] {
        &self.params[self.shape.bias_offset()..self.shape.out_offset()]
    }

    /// The output weights, side to move's first.
    pub fn out_weights(&self) -> &[f32] {
        &self.params[self.shape.out_offset()..self.shape.out_bias_offset()]
    }

    /// The output bias.
    pub fn out_bias(&self) -> f32 {
        self.params[self.shape.out_bias_offset()]
    }

    /// The accumulator of one perspective whose active features are `features`, into `acc`.
    #[inline]
    pub fn accumulate(&self, features: &[u16], acc: &mut [f32]) {
        if self.shape.hidden.is_multiple_of(LANES) {
            self.accumulate_by::<LANES>(features, acc)
        } else {
            self.accumulate_by::<1>(features, acc)
        }
    }

    /// `accumulate`, `N` neurons at a time (`N` dividing `hidden`) summed over all the rows in
    /// registers. Each neuron's sum is taken in the same order whatever `N`: the bias, then each
    /// feature's real row and factor row.
    #[inline]
    fn accumulate_by<const N: usize>(&self, features: &[u16], acc: &mut [f32]) {
        let h = self.shape.hidden;
        let lanes = |r: usize, start: usize| -> &[f32; N] {
            self.params[r * h + start..][..N].try_into().expect("N lanes")
        };
        for (start, out) in (0..h).step_by(N).zip(acc.chunks_exact_mut(N)) {
            let mut sum: [f32; N] = self.ft_bias()[start..start + N].try_into().expect("N lanes");
            for &f in features {
                let f = f as usize;
                let row = lanes(f, start);
                (0..N).for_each(|i| sum[i] += row[i]);
                if let Some(r) = self.shape.factor_row(f) {
                    let row = lanes(r, start);
                    (0..N).for_each(|i| sum[i] += row[i]);
                }
            }
            out.copy_from_slice(&sum);
        }
    }

    /// The float output (before `OUTPUT_SCALE`) from the two accumulators.
    #[inline]
    pub fn output(&self, us: &[f32], them: &[f32]) -> f32 {
        let (v_us, v_them) = self.out_weights().split_at(self.shape.hidden);
        let dot = |acc: &[f32], v: &[f32]| acc.iter().zip(v).map(|(&a, &w)| screlu(a) * w).sum::<f32>();
        dot(us, v_us) + dot(them, v_them) + self.out_bias()
    }

    /// The evaluation of `sample` (side to move, engine units).
    pub fn evaluate(&self, sample: Sample) -> f32 {
        let h = self.shape.hidden;
        let mut acc = vec![0.0; 2 * h];
        let (us, them) = acc.split_at_mut(h);
        self.accumulate(sample.us, us);
        self.accumulate(sample.them, them);
        self.output(us, them) * OUTPUT_SCALE as f32
    }

    /// The evaluation of `pos` with the engine's features.
    pub fn evaluate_position(&self, pos: &Position) -> f32 {
        let (us, them) = super::data::features_of(pos);
        let (us, them): (Vec<u16>, Vec<u16>) =
            (us.iter().map(|&f| f as u16).collect(), them.iter().map(|&f| f as u16).collect());
        self.evaluate(Sample { us: &us, them: &them })
    }

    /// Keeps every parameter within its clip range (the constants above), so that the
    /// quantised network passes `Network::check_ranges`.
    pub fn clip(&mut self) {
        let s = self.shape;
        let ranges = [
            (0..s.bias_offset(), FT_WEIGHT_CLIP),
            (s.bias_offset()..s.out_offset(), FT_BIAS_CLIP),
            (s.out_offset()..s.out_bias_offset(), OUT_WEIGHT_CLIP),
            (s.out_bias_offset()..s.len(), OUT_BIAS_CLIP),
        ];
        for (range, limit) in ranges {
            self.params[range].iter_mut().for_each(|w| *w = w.clamp(-limit, limit));
        }
    }

    /// Multiplies every feature weight (real and factor rows) by `1 - rate`: decoupled weight
    /// decay (Loshchilov and Hutter, 2019).
    pub fn decay(&mut self, rate: f64) {
        if rate > 0.0 {
            let keep = (1.0 - rate) as f32;
            self.params[..self.shape.bias_offset()].iter_mut().for_each(|w| *w *= keep);
        }
    }

    /// The mean (weighted) loss over `set` on `threads` threads (0 for no positions).
    pub fn loss(&self, set: Set, threads: usize) -> f64 {
        let n = set.data.len();
        let scale = OUTPUT_SCALE as f64 / set.k;
        let sums = map_chunks(n, CHUNK, threads, |range| {
            range
                .map(|i| {
                    let out = self.evaluate(set.data.get(i)) as f64 / OUTPUT_SCALE as f64;
                    set.weight(i) * (sigmoid(out * scale) - set.targets[i] as f64).powi(2)
                })
                .sum::<f64>()
        });
        sums.iter().sum::<f64>() / n.max(1) as f64
    }

    /// The gradient of the mean loss over the positions `batch` (indices into `set`), written
    /// into `grad` (one entry per parameter); returns the batch's summed loss (not the mean).
    pub fn gradient(&self, set: Set, batch: &[u32], threads: usize, grad: &mut [f32]) -> f64 {
        let s = self.shape;
        let h = s.hidden;
        let scale = OUTPUT_SCALE as f64 / set.k;
        let n = batch.len().max(1) as f64;
        // Pass 1, by chunks: loss, the gradient of biases and output layer, and each position's
        // gradient by its accumulators (side to move's then the other's, 2h per position).
        let chunks = map_chunks(batch.len(), CHUNK, threads, |range| {
            let mut loss = 0.0f64;
            // Accumulator biases, output weights, output bias.
            let mut dense = vec![0.0f64; 3 * h + 1];
            let mut d_acc = vec![0.0f32; range.len() * 2 * h];
            let mut acc = vec![0.0f32; 2 * h];
            let (v_us, v_them) = self.out_weights().split_at(h);
            for (j, &i) in batch[range].iter().enumerate() {
                let sample = set.data.get(i as usize);
                let (us, them) = acc.split_at_mut(h);
                self.accumulate(sample.us, us);
                self.accumulate(sample.them, them);
                let out = self.output(us, them) as f64;
                let p = sigmoid(out * scale);
                let error = p - set.targets[i as usize] as f64;
                let weight = set.weight(i as usize);
                loss += weight * error * error;
                // d(mean loss) / d(out)
                let g = 2.0 * weight * error * p * (1.0 - p) * scale / n;
                let (d_bias, d_out) = dense.split_at_mut(h);
                let perspectives = acc.chunks_exact(h).zip([v_us, v_them]);
                let d_perspectives = d_acc[j * 2 * h..(j + 1) * 2 * h].chunks_exact_mut(h);
                for (((a, v), d), d_v) in perspectives.zip(d_perspectives).zip(d_out.chunks_exact_mut(h)) {
                    for i in 0..h {
                        d_v[i] += g * screlu(a[i]) as f64;
                        d[i] = g as f32 * v[i] * screlu_slope(a[i]);
                        d_bias[i] += d[i] as f64;
                    }
                }
                dense[3 * h] += g;
            }
            (loss, dense, d_acc)
        });
        let mut loss = 0.0;
        let mut dense = vec![0.0f64; 3 * h + 1];
        for (l, d, _) in &chunks {
            loss += l;
            dense.iter_mut().zip(d).for_each(|(a, b)| *a += b);
        }
        let (rows, rest) = grad.split_at_mut(s.bias_offset());
        rest.iter_mut().zip(&dense).for_each(|(g, &d)| *g = d as f32);
        // Pass 2: the feature rows.
        let d_acc = |j: usize| &chunks[j / CHUNK].2[(j % CHUNK) * 2 * h..][..2 * h];
        let threads = threads.max(1);
        fill_rows_by_owner(rows, h, threads, |part, rows| {
            for (j, &i) in batch.iter().enumerate() {
                let sample = set.data.get(i as usize);
                let (d_us, d_them) = d_acc(j).split_at(h);
                for (features, d) in [(sample.us, d_us), (sample.them, d_them)] {
                    for &f in features {
                        let f = f as usize;
                        for r in std::iter::once(f).chain(s.factor_row(f)) {
                            if r % threads == part {
                                add(rows[r / threads], d);
                            }
                        }
                    }
                }
            }
        });
        loss
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shomei::eval::nnue::network::{MAX_OUTPUT_WEIGHT_SUM, QA, QB};

    #[test]
    fn the_production_layout() {
        let s = Shape::PRODUCTION;
        assert_eq!(s.rows(), 6 * 2344 + 2344);
        assert_eq!(s.len(), (INPUTS + PER_BUCKET) * L1 + L1 + 2 * L1 + 1);
        assert_eq!(s.factor_row(2344 * 3 + 5), Some(INPUTS + 5));
        assert_eq!(Shape { factors: 0, ..s }.factor_row(7), None);
    }

    #[test]
    fn the_clip_ranges_fit_the_engine_arithmetic() {
        let merged = (2.0 * FT_WEIGHT_CLIP * QA as f32).round() as i64;
        let bias = (FT_BIAS_CLIP * QA as f32).round() as i64;
        assert!(bias + MAX_ACTIVE as i64 * merged <= i16::MAX as i64);
        let out = (OUT_WEIGHT_CLIP * QB as f32).round() as i64;
        assert!(2 * L1 as i64 * out <= MAX_OUTPUT_WEIGHT_SUM);
    }

    #[test]
    fn clip_keeps_every_group_in_range() {
        let s = Shape { inputs: 4, factors: 2, hidden: 2 };
        let mut m = Model::zeroed(s);
        m.params.iter_mut().enumerate().for_each(|(i, w)| *w = if i % 2 == 0 { 500.0 } else { -500.0 });
        m.clip();
        assert_eq!(m.row(0), &[FT_WEIGHT_CLIP, -FT_WEIGHT_CLIP]);
        assert_eq!(m.row(5), &[FT_WEIGHT_CLIP, -FT_WEIGHT_CLIP]);
        assert_eq!(m.ft_bias(), &[FT_BIAS_CLIP, -FT_BIAS_CLIP]);
        assert_eq!(m.out_weights(), &[OUT_WEIGHT_CLIP, -OUT_WEIGHT_CLIP, OUT_WEIGHT_CLIP, -OUT_WEIGHT_CLIP]);
        assert_eq!(m.out_bias(), OUT_BIAS_CLIP);
    }

    #[test]
    fn decay_shrinks_the_feature_weights_only() {
        let s = Shape { inputs: 4, factors: 2, hidden: 2 };
        let mut m = Model::zeroed(s);
        m.params.iter_mut().for_each(|w| *w = 2.0);
        m.decay(0.25);
        assert!(m.params[..s.bias_offset()].iter().all(|&w| w == 1.5));
        assert!(m.params[s.bias_offset()..].iter().all(|&w| w == 2.0));
    }
}
