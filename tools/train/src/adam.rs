//! Adam (Kingma and Ba, 2015), with a step size per weight.
//!
//! The weights live on different scales (a rook is worth 990, a defender 2 danger units), and
//! Adam's step is about its learning rate in each weight's own units whatever the gradient's
//! size, so each weight's learning rate is scaled to the size of its group (`step_scales`).

use shomei::eval::trace::group_of;

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

impl Adam {
    /// Fresh state for `n` weights.
    pub fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n], steps: 0 }
    }

    /// One step down `grad`: weight `i` moves by about `lr * scale[i]`, unless `frozen[i]`.
    pub fn step(&mut self, weights: &mut [f64], grad: &[f64], lr: f64, scale: &[f64], frozen: &[bool]) {
        self.steps += 1;
        let (c1, c2) = (1.0 - BETA1.powi(self.steps), 1.0 - BETA2.powi(self.steps));
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
