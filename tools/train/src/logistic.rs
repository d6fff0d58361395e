//! The logistic scale the trainers fit on: a position's expected score is the sigmoid of its
//! evaluation over a scale `k`, and its target blends the same sigmoid of its search score with
//! its game's result.

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
