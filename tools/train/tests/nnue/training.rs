//! On positions of random games labelled by their material balance, training lowers the
//! training and the validation loss; the result is the same bits with one thread or two, and
//! after a stop and resume through a checkpoint; the trained net exports and the engine
//! evaluates as the float model on its grid does. The epoch of the lowest validation loss is
//! kept with its weights.

use crate::common::{material_positions, random_positions, GRID_BOUND};
use shomei::eval::nnue::{evaluate_from_scratch, Network};
use shomei_train::adam::TrainOptions;
use shomei_train::nnue::checkpoint::Checkpoint;
use shomei_train::nnue::model::{Set, Shape};
use shomei_train::nnue::train::{start, train_epoch};

const K: f64 = 600.0;
const EPOCHS: usize = 4;

fn options(threads: usize) -> TrainOptions {
    TrainOptions { epochs: EPOCHS, lr: 2e-3, lr_decay: 0.9, batch_size: 64, threads, seed: 5 }
}

#[test]
fn training_lowers_both_losses_deterministically() {
    let (train_pos, validation_pos) = (random_positions(61, 12, 60), random_positions(62, 3, 60));
    let (train_data, validation_data) = (material_positions(&train_pos), material_positions(&validation_pos));
    let (tt, vt) = (train_data.targets(K, 0.75), validation_data.targets(K, 0.75));
    let train = Set { data: &train_data, targets: &tt, weights: None, k: K };
    let validation = Some(Set { data: &validation_data, targets: &vt, weights: None, k: K });
    let run = |threads: usize, resume_after: Option<usize>| {
        let o = options(threads);
        let mut state = start(Shape::PRODUCTION, o.seed, train, validation, threads);
        for epoch in 1..=EPOCHS {
            train_epoch(&mut state, train, validation, &o, 0.0, |_, _| {});
            if resume_after == Some(epoch) {
                state = Checkpoint::from_bytes(&state.to_bytes()).unwrap();
            }
        }
        state
    };
    let state = run(1, None);
    let losses: Vec<(f64, f64)> = state.history.iter().map(|e| (e.train, e.validation)).collect();
    eprintln!(
        "{} training, {} validation positions; (train, validation) by epoch: {losses:.4?}",
        train_data.len(),
        validation_data.len()
    );
    let (first, last) = (losses[0], losses[EPOCHS]);
    assert!(last.0 < first.0 / 2.0, "training loss {} -> {}", first.0, last.0);
    assert!(last.1 < first.1 * 0.75, "validation loss {} -> {}", first.1, last.1);

    let two = run(2, None);
    assert!(two.model == state.model && two.adam == state.adam, "the thread count changed the result");
    let resumed = run(1, Some(2));
    assert!(resumed.model == state.model && resumed.adam == state.adam, "the resume changed the result");

    let net = Network::from_bytes(&state.model.to_network("trained").unwrap().to_bytes()).unwrap();
    let snapped = state.model.snapped();
    for pos in &validation_pos {
        let (engine, grid) = (evaluate_from_scratch(&net, pos) as f32, snapped.evaluate_position(pos));
        assert!((engine - grid).abs() <= GRID_BOUND, "{}: engine {engine}, grid {grid}", pos.to_sfen());
    }
}

#[test]
fn the_best_epoch_is_kept_with_its_weights() {
    // Few training positions and a large step: the validation loss does not fall every epoch.
    let (train_pos, validation_pos) = (random_positions(63, 2, 40), random_positions(64, 3, 60));
    let (train_data, validation_data) = (material_positions(&train_pos), material_positions(&validation_pos));
    let (tt, vt) = (train_data.targets(K, 0.75), validation_data.targets(K, 0.75));
    let train = Set { data: &train_data, targets: &tt, weights: None, k: K };
    let validation = Set { data: &validation_data, targets: &vt, weights: None, k: K };
    let o = TrainOptions { epochs: 8, lr: 2e-2, lr_decay: 1.0, batch_size: 16, threads: 1, seed: 6 };
    let mut state = start(Shape::PRODUCTION, o.seed, train, Some(validation), 1);
    for _ in 0..o.epochs {
        train_epoch(&mut state, train, Some(validation), &o, 0.0, |_, _| {});
    }
    let losses: Vec<f64> = state.history.iter().map(|e| e.validation).collect();
    eprintln!("validation loss by epoch: {losses:.4?}");
    let best = state.best.as_ref().expect("a best epoch");
    let lowest = (1..=o.epochs).min_by(|&a, &b| losses[a].total_cmp(&losses[b])).unwrap();
    assert_eq!(best.epoch, lowest);
    assert!(best.epoch < o.epochs, "the last epoch was the best: the test shows nothing");
    // The weights kept are that epoch's: they have its validation loss, to the bit.
    assert_eq!(best.model.loss(validation, 1), losses[best.epoch]);
    assert!(best.model != state.model);
    // A checkpoint keeps them.
    assert_eq!(Checkpoint::from_bytes(&state.to_bytes()).unwrap().best.as_ref(), Some(best));
}
