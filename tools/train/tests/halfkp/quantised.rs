//! The file's integer evaluation of an exported net equals its float model on the integers'
//! grid (`snapped`) within a bound computed from the weights: the accumulators and the sums
//! are exact in integers, and each hidden layer's shift by 6 floors its value by less than
//! 1/127, an error the next layers carry forward by the absolute values of their weights; the
//! division by `FV_SCALE` truncates by less than 1 centipawn.

use crate::common::read_fixture;
use shomei::eval::nnue::halfkp::{AnyHalfKp, Arch};
use shomei::Position;
use shomei_train::halfkp::model::{Features, HalfKpModel, OUT_SCALE};

/// The largest difference the integer arithmetic can make to `model`'s evaluation
/// (centipawns), for a model already on the grid.
fn bound(model: &HalfKpModel) -> f64 {
    let l = model.layout();
    let p = &model.params;
    let step = 1.0 / 127.0;
    let e1 = step;
    let e2: Vec<f64> = (0..l.h2)
        .map(|r| {
            let row = &p[l.w2() + r * l.h1..l.w2() + (r + 1) * l.h1];
            row.iter().map(|&w| w.abs() as f64 * e1).sum::<f64>() + step
        })
        .collect();
    let out: f64 = (0..l.h2).map(|r| p[l.w3() + r].abs() as f64 * e2[r]).sum();
    out * OUT_SCALE as f64 + 1.0 + 0.01
}

fn check(model: &HalfKpModel, positions: &[Position]) -> (f64, f64) {
    let net = model.to_network();
    let snapped = model.snapped();
    let limit = bound(&snapped);
    let mut worst: f64 = 0.0;
    for pos in positions {
        let float = snapped.evaluate(&Features::of(pos)) as f64;
        let int = net.evaluate(pos, 16) as f64;
        let diff = (float - int).abs();
        assert!(diff <= limit, "{}: float {float}, integers {int}, bound {limit}", pos.to_sfen());
        worst = worst.max(diff);
    }
    (worst, limit)
}

#[test]
fn integer_evaluation_equals_the_float_model_within_the_bound() {
    let fixture = read_fixture(Arch::K256x2_32_32);
    let positions: Vec<Position> =
        fixture.rows.iter().step_by(3).map(|(sfen, _)| Position::from_sfen(sfen).unwrap()).collect();
    // The trainer's first weights: neurons mostly in their linear range.
    let fresh = HalfKpModel::random(Arch::K256x2_32_32, 11);
    let (worst, limit) = check(&fresh, &positions);
    assert!(worst > 0.0 || limit < 5.0, "the two computations should differ somewhere");
    // A seeded random file's weights: sums clipped at both ends, extreme weights.
    let wild = HalfKpModel::from_plain(&AnyHalfKp::random(Arch::K256x2_32_32, 12).to_plain());
    check(&wild, &positions);
}
