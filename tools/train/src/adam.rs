//! Adam (Kingma and Ba, 2015), and the settings of a run of it.
//!
//! - `Adam`: the Texel tuner's, in f64 with a step size per weight. The weights live on
//!   different scales (a rook is worth 990, a defender 2 danger units), and Adam's step is about
//!   its learning rate in each weight's own units whatever the gradient's size, so each weight's
//!   learning rate is scaled to the size of its group (`step_scales`).
//! - `AdamF32`: the network trainer's, in f32 over millions of weights, one step on all threads.

use shomei::eval::trace::group_of;

/// The optimiser's settings, for both trainers.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Adam's learning rate (Texel: in hundredths of each weight group's size, see
    /// `step_scales`).
    pub lr: f64,
    /// The learning rate is multiplied by this after each epoch.
    pub lr_decay: f64,
    /// Positions per step.
    pub batch_size: usize,
    /// Threads.
    pub threads: usize,
    /// Seed of the shuffles (and of the network's first weights).
    pub seed: u64,
}

impl TrainOptions {
    /// The learning rate of epoch `epoch` (1 for the first): `lr * lr_decay^(epoch - 1)`.
    pub fn lr_of_epoch(&self, epoch: usize) -> f64 {
        self.lr * self.lr_decay.powi(epoch.saturating_sub(1) as i32)
    }
}

/// Adam's state for one weight vector.
#[derive(Clone, Debug)]
pub struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    steps: i32,
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-12;

/// The bias corrections `(1 - beta1^t, 1 - beta2^t)` after `steps` steps.
fn corrections(steps: i32) -> (f64, f64) {
    (1.0 - BETA1.powi(steps), 1.0 - BETA2.powi(steps))
}

impl Adam {
    /// Fresh state for `n` weights.
    pub fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n], steps: 0 }
    }

    /// One step down `grad`: weight `i` moves by about `lr * scale[i]`, unless `frozen[i]`.
    pub fn step(&mut self, weights: &mut [f64], grad: &[f64], lr: f64, scale: &[f64], frozen: &[bool]) {
        self.steps += 1;
        let (c1, c2) = corrections(self.steps);
        for i in 0..weights.len() {
            if frozen[i] {
                continue;
            }
            self.m[i] = BETA1 * self.m[i] + (1.0 - BETA1) * grad[i];
            self.v[i] = BETA2 * self.v[i] + (1.0 - BETA2) * grad[i] * grad[i];
            let (m, v) = (self.m[i] / c1, self.v[i] / c2);
            weights[i] -= lr * scale[i] * m / (v.sqrt() + EPSILON);
        }
    }
}

/// Each weight's step scale: a hundredth of the largest value in its `params.rs` group (at
/// least 0.01), so a learning rate of 1 moves a weight by about 1% of its group's size a step.
pub fn step_scales(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| {
            let largest = group_of(i).values.iter().map(|v| v.abs()).max().unwrap_or(0);
            (largest as f64 / 100.0).max(0.01)
        })
        .collect()
}

/// Adam in f32 for a network's weights: every weight is updated every step (dense), the
/// weights cut into one contiguous slice per thread. Each weight's update depends on its own
/// numbers only, so the result does not depend on the thread count.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamF32 {
    /// First moments.
    pub m: Vec<f32>,
    /// Second moments.
    pub v: Vec<f32>,
    /// Steps taken.
    pub steps: u64,
}

/// `AdamF32`'s epsilon, in the units of the gradient.
const EPSILON_F32: f32 = 1e-8;

impl AdamF32 {
    /// Fresh state for `n` weights.
    pub fn new(n: usize) -> AdamF32 {
        AdamF32 { m: vec![0.0; n], v: vec![0.0; n], steps: 0 }
    }

    /// One step of `lr` down `grad` on `threads` threads.
    pub fn step(&mut self, weights: &mut [f32], grad: &[f32], lr: f64, threads: usize) {
        self.steps += 1;
        let (c1, c2) = corrections(self.steps.min(i32::MAX as u64) as i32);
        // The step of the bias-corrected moments: lr * (m / c1) / (sqrt(v / c2) + eps).
        let (lr1, inv_c2) = ((lr / c1) as f32, (1.0 / c2) as f32);
        let (b1, b2) = (BETA1 as f32, BETA2 as f32);
        let update = |w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32]| {
            for i in 0..w.len() {
                m[i] = b1 * m[i] + (1.0 - b1) * g[i];
                v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
                w[i] -= lr1 * m[i] / ((v[i] * inv_c2).sqrt() + EPSILON_F32);
            }
        };
        let part = weights.len().div_ceil(threads.max(1)).max(1);
        if threads <= 1 {
            return update(weights, grad, &mut self.m, &mut self.v);
        }
        std::thread::scope(|s| {
            let slices = weights.chunks_mut(part).zip(grad.chunks(part));
            for ((w, g), (m, v)) in slices.zip(self.m.chunks_mut(part).zip(self.v.chunks_mut(part))) {
                s.spawn(move || update(w, g, m, v));
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adam_f32_does_not_depend_on_the_thread_count_and_descends() {
        // Minimise sum (w_i - i)^2 from 0.
        let n = 1001;
        let run = |threads: usize| {
            let mut w = vec![0f32; n];
            let mut adam = AdamF32::new(n);
            for _ in 0..200 {
                let g: Vec<f32> = w.iter().enumerate().map(|(i, &x)| 2.0 * (x - (i % 7) as f32)).collect();
                adam.step(&mut w, &g, 0.05, threads);
            }
            w
        };
        let one = run(1);
        assert_eq!(one, run(3));
        let error: f32 = one.iter().enumerate().map(|(i, &x)| (x - (i % 7) as f32).abs()).sum::<f32>();
        assert!(error / (n as f32) < 0.5, "{error}");
    }
}
