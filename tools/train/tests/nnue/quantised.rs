//! The exported network, read back by the engine, evaluates positions as the float model does:
//! to within `GRID_BOUND` (about 1 unit) for the model on the quantisation grid, and within
//! the spread its rounding explains for the model itself.

use crate::common::{random_model, random_positions, GRID_BOUND};
use shomei::eval::nnue::evaluate_from_scratch;
use shomei::eval::nnue::network::{Network, QA, QB};
use shomei_train::nnue::data::features_of;
use shomei_train::nnue::model::{screlu, Model, Shape, FT_BIAS_CLIP, FT_WEIGHT_CLIP, OUT_WEIGHT_CLIP};

/// A production-shaped model whose evaluations spread over hundreds of units.
fn model() -> Model {
    random_model(Shape::PRODUCTION, 31, 0.15, 0.3, 1.0, 0.05)
}

/// The standard deviation, in evaluation units, of the difference between the engine's output
/// and the float model's that rounding each weight to its grid makes (errors uniform over a
/// step, independent): each neuron's accumulator moves by the sum of `n + 1` rounding errors
/// of `1 / QA` steps (`n` features and the bias), which moves the output by the screlu's slope
/// times its output weight; each output weight's error of a `1 / QB` step moves it by the
/// neuron's screlu; the bias's by a `1 / (QA * QB)` step.
fn rounding_spread(model: &Model, us: &[u16], them: &[u16]) -> f64 {
    let h = model.shape.hidden;
    let step_var = |q: f64| 1.0 / (12.0 * q * q);
    let mut var = step_var((QA * QB) as f64);
    for (p, features) in [us, them].into_iter().enumerate() {
        let mut acc = vec![0.0; h];
        model.accumulate(features, &mut acc);
        for (i, &a) in acc.iter().enumerate() {
            let v = model.out_weights()[p * h + i] as f64;
            let slope = if a > 0.0 && a < 1.0 { 2.0 * a as f64 } else { 0.0 };
            var += (slope * v).powi(2) * (features.len() + 1) as f64 * step_var(QA as f64);
            var += (screlu(a) as f64).powi(2) * step_var(QB as f64);
        }
    }
    400.0 * var.sqrt()
}

#[test]
fn the_engine_evaluates_as_the_float_model() {
    let model = model();
    let net = Network::from_bytes(&model.to_network("test").unwrap().to_bytes()).unwrap();
    let snapped = model.snapped();
    let positions: Vec<_> = random_positions(41, 8, 60).into_iter().step_by(2).take(200).collect();
    assert_eq!(positions.len(), 200);
    let (mut grid_worst, mut sum_sq, mut spread_sq, mut evals) = (0.0f32, 0.0, 0.0, Vec::new());
    for pos in &positions {
        let engine = evaluate_from_scratch(&net, pos) as f32;
        let on_grid = snapped.evaluate_position(pos);
        assert!((engine - on_grid).abs() <= GRID_BOUND, "{}: engine {engine}, grid {on_grid}", pos.to_sfen());
        grid_worst = grid_worst.max((engine - on_grid).abs());

        let float = model.evaluate_position(pos);
        let (us, them) = features_of(pos);
        let (us, them): (Vec<u16>, Vec<u16>) =
            (us.iter().map(|&f| f as u16).collect(), them.iter().map(|&f| f as u16).collect());
        let spread = rounding_spread(&model, &us, &them);
        let d = (engine - float) as f64;
        // Six standard deviations, for one of 200 draws: exceeded by chance about once in 5
        // million runs of this test (and the draws are fixed by the seeds).
        assert!(
            d.abs() <= GRID_BOUND as f64 + 6.0 * spread,
            "{}: engine {engine}, float {float}",
            pos.to_sfen()
        );
        sum_sq += d * d;
        spread_sq += spread * spread;
        evals.push(float as f64);
    }
    let n = positions.len() as f64;
    let (rms, expected) = ((sum_sq / n).sqrt(), (spread_sq / n).sqrt());
    let mean = evals.iter().sum::<f64>() / n;
    let deviation = (evals.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / n).sqrt();
    eprintln!(
        "grid: worst {grid_worst:.3} units; float: rms {rms:.2} units against {expected:.2} expected; \
         evaluations spread {deviation:.0} units"
    );
    // Over 200 positions the mean square is close to its expectation.
    assert!(rms <= 1.5 * expected + GRID_BOUND as f64, "rms {rms} against {expected}");
    // The evaluations differ enough for a misplaced weight to show.
    assert!(deviation > 100.0, "{deviation}");
}

#[test]
fn a_model_at_every_clip_limit_exports() {
    let s = Shape::PRODUCTION;
    let mut model = Model::zeroed(s);
    for (i, w) in model.params.iter_mut().enumerate() {
        *w = if i < s.bias_offset() {
            FT_WEIGHT_CLIP
        } else if i < s.out_offset() {
            FT_BIAS_CLIP
        } else if i < s.out_bias_offset() {
            OUT_WEIGHT_CLIP * if i % 2 == 0 { 1.0 } else { -1.0 }
        } else {
            -1.0
        };
    }
    let net = model.to_network("limits").unwrap();
    assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
    assert_eq!(net.feature(7)[0], (2.0 * FT_WEIGHT_CLIP * QA as f32).round() as i16);
    // Past the limits, export refuses.
    model.params[s.bias_offset()] = FT_BIAS_CLIP + 2.0;
    assert!(model.to_network("over").unwrap_err().contains("overflow"));
}
