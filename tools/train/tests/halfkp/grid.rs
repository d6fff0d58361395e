//! Training on the grid (`--grid-epochs`): a model on the grid computes exactly what the net it
//! writes computes (evaluation, loss and gradient, the same bits as its snapped model), and a
//! run on the grid reports the written net's loss as its own.

use crate::common::Labelled;
use crate::shared::{temp_dir, tiny_data};
use shomei::eval::nnue::halfkp::features::{INPUTS, PIECE_FEATURES};
use shomei::eval::nnue::halfkp::Arch;
use shomei::rng::Rng;
use shomei_train::cli::parse_nnue;
use shomei_train::halfkp::model::{HalfKpModel, Layout, Samples};
use shomei_train::halfkp::train;

/// The trainer's first weights with factor rows switched on and every weight moved off the
/// grid, so that rounding (and merging before rounding) matters everywhere.
fn off_grid_model() -> HalfKpModel {
    let mut m = HalfKpModel::random(Arch::K256x2_32_32, 5);
    let mut rng = Rng::new(6);
    let ft = m.layout().ft;
    for w in &mut m.params[INPUTS * ft..(INPUTS + PIECE_FEATURES) * ft] {
        *w = ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.1;
    }
    for w in &mut m.params {
        *w += ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.01;
    }
    m.clip();
    m
}

#[test]
fn on_the_grid_the_model_computes_what_its_written_net_computes() {
    let set = Labelled::from_fixture(Arch::K256x2_32_32, |i| i % 7 == 0, |i| (i % 5) as f32 / 4.0);
    let mut model = off_grid_model();
    let snapped = model.snapped();
    let x = &set.0[0].0;
    assert_ne!(model.evaluate(x), snapped.evaluate(x), "off the grid, rounding changes the evaluation");
    model.on_grid = true;
    for (x, _) in &set.0 {
        assert_eq!(model.evaluate(x).to_bits(), snapped.evaluate(x).to_bits());
    }
    assert_eq!(model.loss(&set, 600.0, 2).to_bits(), snapped.loss(&set, 600.0, 2).to_bits());

    // The gradient at the rounded weights (straight-through): the snapped model's, every entry.
    let batch: Vec<u32> = (0..set.len() as u32).collect();
    let n = Layout::of(Arch::K256x2_32_32).len();
    let (mut on_grid, mut of_snapped) = (vec![0.0f32; n], vec![0.0f32; n]);
    let a = model.gradient(&set, &batch, 600.0, 2, &mut on_grid);
    let b = snapped.gradient(&set, &batch, 600.0, 2, &mut of_snapped);
    assert_eq!(a.to_bits(), b.to_bits());
    let differ = on_grid.iter().zip(&of_snapped).filter(|(x, y)| x.to_bits() != y.to_bits()).count();
    assert_eq!(differ, 0, "{differ} gradient entries differ");
    assert!(on_grid.iter().any(|&g| g != 0.0));
}

#[test]
fn a_run_on_the_grid_reports_the_written_nets_loss() {
    let dir = temp_dir("halfkp-grid");
    let data = tiny_data(&dir);
    let line = format!(
        "--arch halfkp_256x2-32-32 --data {} --out {} --epochs 2 --grid-epochs 1 --batch-size 64 \
         --lr 1e-3 --validation-share 0.5 --seed 3 --threads 2 --no-progress",
        data.display(),
        dir.join("grid.bin").display()
    );
    let config = parse_nnue(&line.split_whitespace().map(String::from).collect::<Vec<_>>()).unwrap();
    let summary = train::run(&config, config.arch.unwrap(), &mut std::io::sink()).unwrap();
    assert!(summary.validation_positions > 0, "the seed should hold out a game");
    let written = &summary.history[summary.exported_epoch];
    assert!(
        (written.validation - summary.quantised_loss).abs() < 1e-9,
        "{written:?} against the written net's {}",
        summary.quantised_loss
    );
    // Only for HalfKP nets.
    let own = format!("--data {} --out x.nnue --grid-epochs 1", data.display());
    assert!(parse_nnue(&own.split_whitespace().map(String::from).collect::<Vec<_>>()).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
