//! The tuner's gradient equals the finite-difference gradient of its error, for every weight,
//! on a few positions (king safety's clamp and products of weights included).

use crate::common;

use shomei::eval::trace::GroupId::*;
use shomei::eval::trace::{current, names, weight, POSITIONAL, WEIGHT_COUNT};
use shomei::rng::Rng;
use shomei_train::model::{Model, Set};

#[test]
fn the_gradient_is_the_slope_of_the_error() {
    let positions = common::random_positions(11, 6, 70);
    let data = common::dataset(&positions);
    let mut rng = Rng::new(5);
    let targets: Vec<f64> = (0..data.len()).map(|_| rng.below(1001) as f64 / 1000.0).collect();
    let set = Set { data: &data, targets: &targets };
    let model = Model::new(400.0);
    // Away from the integer points where king danger meets its clamp.
    let weights: Vec<f64> = current().iter().map(|w| w + 0.3 + rng.below(1000) as f64 / 5000.0).collect();
    let batch: Vec<u32> = (0..data.len() as u32).collect();
    let grad = model.gradient(set, &batch, &weights, 2);
    let names = names();
    let mut moved = 0;
    for i in 0..WEIGHT_COUNT {
        let h = 1e-4;
        let mut w = weights.clone();
        w[i] += h;
        let up = model.error(set, &w, 1);
        w[i] -= 2.0 * h;
        let down = model.error(set, &w, 1);
        let numeric = (up - down) / (2.0 * h);
        let tolerance = 1e-5 * grad[i].abs().max(numeric.abs()) + 1e-11;
        assert!(
            (grad[i] - numeric).abs() <= tolerance,
            "{}: analytic {}, numeric {numeric}",
            names[i],
            grad[i]
        );
        if grad[i] != 0.0 {
            moved += 1;
        }
    }
    // Most weights are used by these positions, products and king safety among them.
    if POSITIONAL {
        assert!(moved > WEIGHT_COUNT / 2, "{moved} of {WEIGHT_COUNT}");
        for (g, i) in [(GuardBehindPercent, 0), (AttackWeight, 4), (AttackerUnits, 1), (DangerScale, 0)] {
            assert!(grad[weight(g, i)] != 0.0, "{}", names[weight(g, i)]);
        }
    } else {
        assert!(moved >= 10, "{moved} board and hand values");
    }
}

#[test]
fn the_numbers_do_not_depend_on_the_thread_count() {
    let positions = common::random_positions(12, 40, 80);
    let data = common::dataset(&positions);
    assert!(data.len() > 3 * shomei_train::model::CHUNK);
    let targets = vec![0.75; data.len()];
    let set = Set { data: &data, targets: &targets };
    let model = Model::new(600.0);
    let weights = current();
    let batch: Vec<u32> = (0..data.len() as u32).rev().collect();
    let one = (model.error(set, &weights, 1), model.gradient(set, &batch, &weights, 1));
    for threads in [2, 3] {
        assert_eq!(
            one,
            (model.error(set, &weights, threads), model.gradient(set, &batch, &weights, threads))
        );
    }
}
