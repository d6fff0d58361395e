//! The trainer's gradient equals the central finite differences of its loss for every
//! parameter of a tiny net (12 inputs in 3 buckets of 4, 4 factors, 8 neurons), with most
//! accumulator values inside screlu's live range (0, 1) and some outside; and it does not
//! depend on the thread count. Loss weights scale each position's share of both.

use crate::common::uniform;
use shomei::rng::Rng;
use shomei_train::nnue::data::Positions;
use shomei_train::nnue::model::{Model, Set, Shape};

const SHAPE: Shape = Shape { inputs: 12, factors: 4, hidden: 8 };

/// `n` positions of 2 to 6 distinct features per perspective, with random scores and results.
fn tiny_positions(rng: &mut Rng, n: usize) -> Positions {
    let mut data = Positions::new();
    for _ in 0..n {
        let mut list = || {
            let mut f: Vec<usize> = (0..SHAPE.inputs).collect();
            rng.shuffle(&mut f);
            f.truncate(2 + rng.below(5));
            f
        };
        let (us, them) = (list(), list());
        let score = uniform(rng, 800.0);
        data.push(&us, &them, score, [0.0, 0.5, 1.0][rng.below(3)]);
    }
    data
}

fn tiny_model(rng: &mut Rng) -> Model {
    let mut m = Model::zeroed(SHAPE);
    let s = SHAPE;
    for (i, w) in m.params.iter_mut().enumerate() {
        *w = match i {
            i if i < s.bias_offset() => uniform(rng, 0.25),
            i if i < s.out_offset() => 0.5 + uniform(rng, 0.2),
            _ => uniform(rng, 1.0),
        };
    }
    m
}

#[test]
fn the_gradient_is_the_slope_of_the_loss() {
    let mut rng = Rng::new(17);
    let data = tiny_positions(&mut rng, 24);
    let targets = data.targets(600.0, 0.75);
    let set = Set { data: &data, targets: &targets, weights: None, k: 600.0 };
    let model = tiny_model(&mut rng);

    // Where the accumulators lie: mostly inside (0, 1), some on either side.
    let (mut inside, mut outside) = (0, 0);
    for i in 0..data.len() {
        let s = data.get(i);
        for features in [s.us, s.them] {
            let mut acc = vec![0.0; SHAPE.hidden];
            model.accumulate(features, &mut acc);
            for a in acc {
                if a > 0.0 && a < 1.0 {
                    inside += 1
                } else {
                    outside += 1
                }
            }
        }
    }
    eprintln!("accumulator values: {inside} inside (0, 1), {outside} outside");
    assert!(inside > 2 * outside && outside > 20, "{inside} inside, {outside} outside");

    let batch: Vec<u32> = (0..data.len() as u32).collect();
    let mut grad = vec![f32::NAN; SHAPE.len()];
    let loss_sum = model.gradient(set, &batch, 1, &mut grad);
    let base = model.loss(set, 1);
    assert!((loss_sum / data.len() as f64 - base).abs() < 1e-9, "{loss_sum} vs {base}");

    let h = 1e-3f32;
    let (mut checked, mut kinked, mut worst) = (0, 0, 0.0f64);
    for (p, &g) in grad.iter().enumerate() {
        let mut m = model.clone();
        m.params[p] = model.params[p] + h;
        let up = m.loss(set, 1);
        m.params[p] = model.params[p] - h;
        let down = m.loss(set, 1);
        // The steps actually taken in f32.
        let (step_up, step_down) = (
            (model.params[p] + h - model.params[p]) as f64,
            (model.params[p] - (model.params[p] - h)) as f64,
        );
        let (right, left) = ((up - base) / step_up, (base - down) / step_down);
        let numeric = (up - down) / (step_up + step_down);
        let analytic = g as f64;
        let scale = analytic.abs().max(numeric.abs());
        // A step that crosses one of screlu's kinks (0 or 1) makes the two one-sided slopes
        // disagree: the central difference means nothing there.
        if (right - left).abs() > 0.05 * scale + 1e-6 {
            kinked += 1;
            continue;
        }
        checked += 1;
        let error = (analytic - numeric).abs();
        worst = worst.max(error / (scale + 1e-4));
        assert!(error <= 5e-3 * scale + 2e-7, "parameter {p}: analytic {analytic:e}, numeric {numeric:e}");
    }
    eprintln!("{checked} parameters checked, {kinked} at a kink; worst relative error {worst:.2e}");
    assert!(kinked * 20 < SHAPE.len(), "{kinked} of {} parameters at a kink", SHAPE.len());
    // Every row group has a gradient: real rows, factor rows, biases, output weights.
    let s = SHAPE;
    for (name, range) in [
        ("real rows", 0..s.inputs * s.hidden),
        ("factor rows", s.inputs * s.hidden..s.bias_offset()),
        ("biases", s.bias_offset()..s.out_offset()),
        ("output", s.out_offset()..s.len()),
    ] {
        assert!(grad[range].iter().filter(|g| **g != 0.0).count() > 2, "{name}");
    }
}

#[test]
fn the_gradient_does_not_depend_on_the_thread_count() {
    let mut rng = Rng::new(18);
    // More than a chunk of positions, so the chunks' sums are added.
    let big = tiny_positions(&mut rng, 1100);
    assert!(big.len() > 4 * shomei_train::nnue::model::CHUNK);
    let targets = big.targets(600.0, 0.75);
    let set = Set { data: &big, targets: &targets, weights: None, k: 600.0 };
    let model = tiny_model(&mut rng);
    let batch: Vec<u32> = (0..big.len() as u32).rev().collect();
    let run = |threads: usize| {
        let mut grad = vec![0.0; SHAPE.len()];
        let loss = model.gradient(set, &batch, threads, &mut grad);
        (loss, grad, model.loss(set, threads))
    };
    let one = run(1);
    for threads in [2, 3] {
        assert!(one == run(threads), "{threads} threads");
    }
}

#[test]
fn weights_scale_each_positions_share_of_the_loss_and_gradient() {
    let mut rng = Rng::new(19);
    let data = tiny_positions(&mut rng, 24);
    let targets = data.targets(600.0, 0.75);
    let model = tiny_model(&mut rng);
    let plain = Set { data: &data, targets: &targets, weights: None, k: 600.0 };
    let (all, half): (Vec<u32>, Vec<u32>) = ((0..24).collect(), (0..12).collect());
    let gradient = |set: Set, batch: &[u32]| {
        let mut grad = vec![0.0; SHAPE.len()];
        let loss = model.gradient(set, batch, 1, &mut grad);
        (loss, grad)
    };
    // Weight 0 on the second half: the gradient of the first half alone, over twice as many.
    let zeros: Vec<f32> = (0..24).map(|i| if i < 12 { 1.0 } else { 0.0 }).collect();
    let (loss, grad) = gradient(Set { weights: Some(&zeros), ..plain }, &all);
    let (half_loss, half_grad) = gradient(plain, &half);
    assert!((loss - half_loss).abs() < 1e-12, "{loss} vs {half_loss}");
    for (p, (a, b)) in grad.iter().zip(&half_grad).enumerate() {
        assert!((a - b / 2.0).abs() <= 1e-6 * b.abs() + 1e-12, "parameter {p}: {a} vs {}", b / 2.0);
    }
    // Random weights: the loss is the weighted mean of the positions' losses.
    let weights: Vec<f32> = (0..24).map(|_| 1.0 + uniform(&mut rng, 1.0)).collect();
    let weighted = Set { weights: Some(&weights), ..plain };
    let each: f64 = (0..24).map(|i| weights[i as usize] as f64 * gradient(plain, &[i]).0).sum();
    assert!((model.loss(weighted, 1) - each / 24.0).abs() < 1e-9);
    assert!((gradient(weighted, &all).0 - each).abs() < 1e-9);
}
