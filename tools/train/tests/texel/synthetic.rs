//! On targets made from known weights (the sigmoid of the evaluation under them), the tuner
//! started from `params.rs` brings the error close to zero, the evaluations close to those under
//! the known weights, and the weights these positions determine on their own (hand values)
//! close to the known ones.

use crate::common;

use shomei::eval::trace::{current, weight, GroupId, WEIGHT_COUNT};
use shomei::rng::Rng;
use shomei_train::adam::step_scales;
use shomei_train::logistic::sigmoid;
use shomei_train::model::{Model, Set};
use shomei_train::texel::{train, TrainOptions};

#[test]
fn the_tuner_recovers_known_weights() {
    let positions = common::random_positions(21, 60, 80);
    let data = common::dataset(&positions);
    let model = Model::new(1000.0);
    // The known weights: every weight moved by up to 20 hundredths of its group's size.
    let start = current();
    let scale = step_scales(WEIGHT_COUNT);
    let mut rng = Rng::new(9);
    let truth: Vec<f64> =
        (0..WEIGHT_COUNT).map(|i| start[i] + (rng.below(41) as f64 - 20.0) * scale[i]).collect();
    let values = model.term_values(&truth);
    let targets: Vec<f64> =
        (0..data.len()).map(|i| sigmoid(Model::evaluate(&data.get(i), &truth, &values) / model.k)).collect();
    let set = Set { data: &data, targets: &targets };

    let mut weights = start.clone();
    let options = TrainOptions { epochs: 30, lr: 1.0, lr_decay: 0.9, batch_size: 256, threads: 2, seed: 1 };
    let mut errors = Vec::new();
    let free = vec![false; WEIGHT_COUNT];
    let kept = train(&model, set, None, &mut weights, &options, &free, |e| errors.push(e.train));
    assert_eq!(kept, options.epochs, "without validation data the last epoch is kept");
    let (before, after) = (errors[0], *errors.last().unwrap());
    eprintln!("{} positions, error {before:.3e} -> {after:.3e}", data.len());

    // The evaluations, in centipawns, against those under the known weights.
    let eval_distance = |w: &[f64]| -> f64 {
        let (v, t) = (model.term_values(w), model.term_values(&truth));
        let sum: f64 = (0..data.len())
            .map(|i| {
                (Model::evaluate(&data.get(i), w, &v) - Model::evaluate(&data.get(i), &truth, &t)).powi(2)
            })
            .sum();
        (sum / data.len() as f64).sqrt()
    };
    // Hand values are determined by these positions on their own (board values share some of
    // their weight with tables every piece of a kind uses, such as the attack by distance).
    let hand = weight(GroupId::HandPawn, 0)..=weight(GroupId::HandRook, 0);
    let hand_distance = |w: &[f64]| -> f64 {
        hand.clone().map(|i| ((w[i] - truth[i]) / scale[i]).powi(2)).sum::<f64>().sqrt()
    };
    let (eval_before, eval_after) = (eval_distance(&start), eval_distance(&weights));
    let (hand_before, hand_after) = (hand_distance(&start), hand_distance(&weights));
    eprintln!(
        "evaluation {eval_before:.1} -> {eval_after:.1} cp, hand values {hand_before:.1} -> {hand_after:.1}"
    );
    assert!(after < before / 100.0, "error {before} -> {after}");
    assert!(eval_after < eval_before / 20.0);
    assert!(hand_after < hand_before / 10.0);
}

#[test]
fn the_epoch_with_the_lowest_validation_error_is_kept() {
    // Validation targets from weights moved the other way: every step toward the training
    // targets is a step away from them, so the weights before training are the ones kept.
    let data = common::dataset(&common::random_positions(22, 10, 80));
    let model = Model::new(1000.0);
    let start = current();
    let targets_for = |shift: f64| -> Vec<f64> {
        let mut w = start.clone();
        w[weight(GroupId::HandGold, 0)] += shift;
        w[weight(GroupId::Rook, 0)] -= shift;
        let values = model.term_values(&w);
        (0..data.len()).map(|i| sigmoid(Model::evaluate(&data.get(i), &w, &values) / model.k)).collect()
    };
    let (targets, contrary) = (targets_for(200.0), targets_for(-200.0));
    let options = TrainOptions { epochs: 5, lr: 1.0, lr_decay: 1.0, batch_size: 64, threads: 1, seed: 2 };
    let (train_set, validation) =
        (Set { data: &data, targets: &targets }, Set { data: &data, targets: &contrary });
    let mut weights = start.clone();
    let mut epochs = Vec::new();
    let free = vec![false; WEIGHT_COUNT];
    let kept = train(&model, train_set, Some(validation), &mut weights, &options, &free, |e| epochs.push(*e));
    assert!(epochs.last().unwrap().train < epochs[0].train);
    assert!(epochs.last().unwrap().validation > epochs[0].validation);
    assert_eq!(kept, 0);
    assert_eq!(weights, start);
}
