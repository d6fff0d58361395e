//! The model the tuner fits: the evaluation under a weight vector, through a sigmoid, against
//! each position's target; its mean squared error and that error's gradient, on all cores.
//!
//! Work is cut into fixed chunks of positions whose results are added in chunk order, so the
//! numbers are the same bits whatever the thread count.

use crate::data::{Dataset, Traced};
use crate::logistic::sigmoid;
use crate::parallel::map_chunks;
use shomei::eval::trace::{self, Term, TERM_COUNT, WEIGHT_COUNT};

/// Positions per chunk of work.
pub const CHUNK: usize = 1024;

/// The evaluation's terms, and the sigmoid's scale.
#[derive(Clone, Debug)]
pub struct Model {
    /// Every term of the trace, by id.
    pub terms: Vec<Term>,
    /// Evaluations are divided by this before the sigmoid (centipawns).
    pub k: f64,
}

/// Positions with their targets.
#[derive(Clone, Copy, Debug)]
pub struct Set<'a> {
    /// The traced positions.
    pub data: &'a Dataset,
    /// Each position's target, 0 to 1.
    pub targets: &'a [f64],
}

impl Model {
    /// The model with sigmoid scale `k`.
    pub fn new(k: f64) -> Model {
        Model { terms: trace::terms(), k }
    }

    /// Each term's value under `weights`.
    pub fn term_values(&self, weights: &[f64]) -> Vec<f64> {
        trace::term_values(&self.terms, weights)
    }

    /// The evaluation of `p` (side to move, centipawns, unclamped).
    #[inline]
    pub fn evaluate(p: &Traced, weights: &[f64], term_values: &[f64]) -> f64 {
        let terms: f64 = p.terms.iter().map(|&(t, n)| n as f64 * term_values[t as usize]).sum();
        terms + p.kings.iter().map(|k| k.value(weights)).sum::<f64>() + p.rounding
    }

    /// The evaluation of every position of `data`.
    pub fn evaluations(&self, data: &Dataset, weights: &[f64], threads: usize) -> Vec<f64> {
        let values = self.term_values(weights);
        let parts = map_chunks(data.len(), CHUNK, threads, |r| {
            r.map(|i| Self::evaluate(&data.get(i), weights, &values)).collect::<Vec<_>>()
        });
        parts.concat()
    }

    /// The mean squared error of the predictions over `set`.
    pub fn error(&self, set: Set, weights: &[f64], threads: usize) -> f64 {
        if set.data.is_empty() {
            return 0.0;
        }
        let values = self.term_values(weights);
        let sums = map_chunks(set.data.len(), CHUNK, threads, |r| {
            r.map(|i| {
                let e = Self::evaluate(&set.data.get(i), weights, &values);
                (sigmoid(e / self.k) - set.targets[i]).powi(2)
            })
            .sum::<f64>()
        });
        sums.iter().sum::<f64>() / set.data.len() as f64
    }

    /// The gradient by each weight of the mean squared error over the positions `batch` of
    /// `set` (indices into it).
    pub fn gradient(&self, set: Set, batch: &[u32], weights: &[f64], threads: usize) -> Vec<f64> {
        let values = self.term_values(weights);
        // Per chunk: the gradient by each term's value, and by each weight directly (king safety).
        let parts = map_chunks(batch.len(), CHUNK, threads, |r| {
            let mut by_term = vec![0.0; TERM_COUNT];
            let mut by_weight = vec![0.0; WEIGHT_COUNT];
            for &i in &batch[r] {
                let p = set.data.get(i as usize);
                let e = Self::evaluate(&p, weights, &values);
                let s = sigmoid(e / self.k);
                // d/de of (s - target)^2
                let g = 2.0 * (s - set.targets[i as usize]) * s * (1.0 - s) / self.k;
                for &(t, n) in p.terms {
                    by_term[t as usize] += g * n as f64;
                }
                for king in p.kings {
                    king.add_gradient(weights, g, &mut by_weight);
                }
            }
            (by_term, by_weight)
        });
        let mut by_term = vec![0.0; TERM_COUNT];
        let mut grad = vec![0.0; WEIGHT_COUNT];
        for (t, w) in parts {
            by_term.iter_mut().zip(t).for_each(|(a, b)| *a += b);
            grad.iter_mut().zip(w).for_each(|(a, b)| *a += b);
        }
        for (term, &g) in self.terms.iter().zip(&by_term) {
            if g != 0.0 {
                term.add_gradient(weights, g, &mut grad);
            }
        }
        let n = batch.len().max(1) as f64;
        grad.iter_mut().for_each(|g| *g /= n);
        grad
    }
}

/// The range `fit_k` searches, in centipawns.
pub const K_RANGE: (f64, f64) = (10.0, 10_000.0);

/// The scale `k` (within `K_RANGE`) at which the sigmoid of the evaluations best predicts
/// `results` (mean squared error; a golden-section search on log k).
pub fn fit_k(evaluations: &[f64], results: &[f32]) -> f64 {
    let error = |log_k: f64| {
        let k = log_k.exp();
        let sum: f64 =
            evaluations.iter().zip(results).map(|(&e, &r)| (sigmoid(e / k) - r as f64).powi(2)).sum();
        sum / evaluations.len().max(1) as f64
    };
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (K_RANGE.0.ln(), K_RANGE.1.ln());
    let (mut c, mut d) = (b - phi * (b - a), a + phi * (b - a));
    let (mut fc, mut fd) = (error(c), error(d));
    for _ in 0..80 {
        if fc < fd {
            (b, d, fd) = (d, c, fc);
            c = b - phi * (b - a);
            fc = error(c);
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + phi * (b - a);
            fd = error(d);
        }
    }
    ((a + b) / 2.0).exp()
}
