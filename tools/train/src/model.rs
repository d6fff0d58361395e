//! The model the tuner fits: the evaluation under a weight vector, through a sigmoid, against
//! each position's target; its mean squared error and that error's gradient, on all cores.
//!
//! Work is cut into fixed chunks of positions whose results are added in chunk order, so the
//! numbers are the same bits whatever the thread count.

use crate::data::{Dataset, Traced};
use shomei::eval::trace::{self, Term, TERM_COUNT, WEIGHT_COUNT};
use std::ops::Range;

/// Positions per chunk of work.
pub const CHUNK: usize = 1024;

/// The logistic function: the expected score of a position evaluated `x` times the scale.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The target of a position whose search score is `score` (centipawns, side to move) and
/// whose game's result is `result` (1, 0.5, 0): `lambda` parts the sigmoid of the score over
/// `k`, the rest the result.
#[inline]
pub fn target(score: f32, result: f32, k: f64, lambda: f64) -> f64 {
    lambda * sigmoid(score as f64 / k) + (1.0 - lambda) * result as f64
}

/// Runs `f` on the chunks of `0..n` (`chunk` long, the last one shorter) on `threads` threads;
/// the results in chunk order.
pub fn map_chunks<T: Send>(
    n: usize,
    chunk: usize,
    threads: usize,
    f: impl Fn(Range<usize>) -> T + Sync,
) -> Vec<T> {
    let chunks = n.div_ceil(chunk);
    let range = |c: usize| c * chunk..((c + 1) * chunk).min(n);
    let threads = threads.clamp(1, chunks.max(1));
    if threads == 1 {
        return (0..chunks).map(|c| f(range(c))).collect();
    }
    let f = &f;
    let mut parts: Vec<(usize, T)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || (t..chunks).step_by(threads).map(|c| (c, f(range(c)))).collect::<Vec<_>>())
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a tuner thread panicked")).collect()
    });
    parts.sort_by_key(|&(c, _)| c);
    parts.into_iter().map(|(_, r)| r).collect()
}

/// Zeroes feature rows of `width` floats and fills them on `threads` threads, row `r` owned by
/// thread `r % threads`: `fill(part, owned)` gets its part number and its rows, row `r` being
/// `owned[r / threads]`. Each row is written by one thread only, in the order `fill` visits the
/// positions, so the sums do not depend on the thread count.
pub fn fill_rows_by_owner(
    rows: &mut [f32],
    width: usize,
    threads: usize,
    fill: impl Fn(usize, &mut [&mut [f32]]) + Sync,
) {
    rows.fill(0.0);
    let threads = threads.max(1);
    let mut parts: Vec<Vec<&mut [f32]>> = (0..threads).map(|_| Vec::new()).collect();
    for (r, row) in rows.chunks_mut(width).enumerate() {
        parts[r % threads].push(row);
    }
    if threads == 1 {
        return fill(0, &mut parts[0]);
    }
    let fill = &fill;
    std::thread::scope(|scope| {
        for (part, rows) in parts.iter_mut().enumerate() {
            scope.spawn(move || fill(part, rows));
        }
    });
}

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
