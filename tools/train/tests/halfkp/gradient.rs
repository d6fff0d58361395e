//! The trainer's HalfKP gradient equals the central finite differences of its loss, for
//! parameters of every group (feature rows, factor rows, accumulator biases, both hidden
//! layers, the output), and does not depend on the thread count.

use crate::common::Labelled;
use shomei::eval::nnue::halfkp::features::{INPUTS, PIECE_FEATURES};
use shomei::eval::nnue::halfkp::Arch;
use shomei_train::halfkp::model::{HalfKpModel, Samples};

#[test]
fn the_gradient_is_the_slope_of_the_loss_whatever_the_threads() {
    let set = Labelled::from_fixture(Arch::K256x2_32_32, |i| i < 40, |i| [0.1, 0.5, 0.9][i % 3]);
    let mut model = HalfKpModel::random(Arch::K256x2_32_32, 3);
    let l = model.layout();
    // Wider feature rows, so that some accumulators fall outside (0, 1), and a larger output,
    // so that every group has slope.
    for w in &mut model.params[..INPUTS * l.ft] {
        *w *= 2.0;
    }
    for w in &mut model.params[l.w3()..l.b3()] {
        *w *= 8.0;
    }
    let (mut inside, mut outside) = (0, 0);
    for (x, _) in &set.0 {
        for &a in &model.accumulators(x) {
            if a > 0.0 && a < 1.0 {
                inside += 1
            } else {
                outside += 1
            }
        }
    }
    assert!(inside > 4 * outside && outside > 100, "{inside} inside (0, 1), {outside} outside");
    let batch: Vec<u32> = (0..set.len() as u32).collect();
    let k = 600.0;
    let mut grad = vec![0.0; model.params.len()];
    model.gradient(&set, &batch, k, 1, &mut grad);
    let mut grad3 = vec![0.0; model.params.len()];
    model.gradient(&set, &batch, k, 3, &mut grad3);
    assert!(grad == grad3, "the thread count changed the gradient");

    let first = set.0[0].0.us[5] as usize;
    let factor = INPUTS + first % PIECE_FEATURES;
    let mut checked = Vec::new();
    for (name, index) in [
        ("feature row", first * l.ft + 7),
        ("factor row", factor * l.ft + 7),
        ("accumulator bias", l.ft_bias() + 3),
        ("hidden 1 weight", l.w1() + 300),
        ("hidden 1 bias", l.b1() + 2),
        ("hidden 2 weight", l.w2() + 40),
        ("hidden 2 bias", l.b2() + 5),
        ("output weight", l.w3() + 1),
        ("output bias", l.b3()),
    ] {
        let h = 1e-2f32;
        let mut m = model.clone();
        m.params[index] += h;
        let up = m.loss(&set, k, 1);
        m.params[index] -= 2.0 * h;
        let down = m.loss(&set, k, 1);
        let slope = (up - down) / (2.0 * h as f64);
        let g = grad[index] as f64;
        assert!(
            (slope - g).abs() <= 0.05 * slope.abs().max(g.abs()) + 1e-7,
            "{name}: gradient {g}, finite difference {slope}"
        );
        checked.push((name, g));
    }
    assert!(checked.iter().filter(|(_, g)| g.abs() > 1e-6).count() >= 7, "{checked:?}");
}
