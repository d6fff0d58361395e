//! A Texel run: load and trace the data, choose the sigmoid's scale, then minimise the mean
//! squared error between the sigmoid of the evaluation and each position's target with Adam on
//! shuffled mini-batches, reporting the training and validation errors after every epoch.

pub use crate::adam::TrainOptions;
use crate::adam::{step_scales, Adam};
use crate::data;
use crate::model::{fit_k, Model, Set, K_RANGE};
use crate::output;
use shomei::eval::trace::{self, GROUPS};
use shomei::rng::Rng;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// How the sigmoid's scale is chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KChoice {
    /// This many centipawns.
    Fixed(f64),
    /// Fitted to the game results under the current weights.
    Fit,
}

/// The errors after one epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    /// 1 for the first pass.
    pub epoch: usize,
    /// The learning rate it used.
    pub lr: f64,
    /// Mean squared error over the training positions.
    pub train: f64,
    /// Mean squared error over the validation positions (0 without any).
    pub validation: f64,
    /// Seconds since training began.
    pub seconds: f64,
}

/// Fits `weights` to `train` with Adam, leaving those `frozen` (by index) as they are; `report` is called with the errors before the first
/// epoch (epoch 0) and after each one. With `validation`, `weights` ends as it was after the
/// epoch with the lowest validation error (early stopping: on little data the weights go on
/// fitting the training games after they stop predicting others); that epoch is returned.
pub fn train(
    model: &Model,
    train: Set,
    validation: Option<Set>,
    weights: &mut [f64],
    options: &TrainOptions,
    frozen: &[bool],
    mut report: impl FnMut(&Epoch),
) -> usize {
    let start = Instant::now();
    let errors = |weights: &[f64], epoch: usize, lr: f64| Epoch {
        epoch,
        lr,
        train: model.error(train, weights, options.threads),
        validation: validation.map_or(0.0, |v| model.error(v, weights, options.threads)),
        seconds: start.elapsed().as_secs_f64(),
    };
    let first = errors(weights, 0, 0.0);
    report(&first);
    let mut best = (first.validation, 0, weights.to_vec());
    let scale = step_scales(weights.len());
    let mut adam = Adam::new(weights.len());
    let mut rng = Rng::new(options.seed);
    let mut order: Vec<u32> = (0..train.data.len() as u32).collect();
    let mut lr = options.lr;
    for epoch in 1..=options.epochs {
        rng.shuffle(&mut order);
        for batch in order.chunks(options.batch_size.max(1)) {
            let grad = model.gradient(train, batch, weights, options.threads);
            adam.step(weights, &grad, lr, &scale, frozen);
        }
        let e = errors(weights, epoch, lr);
        report(&e);
        if validation.is_none() || e.validation < best.0 {
            best = (e.validation, epoch, weights.to_vec());
        }
        lr *= options.lr_decay;
    }
    weights.copy_from_slice(&best.2);
    best.1
}

/// Everything `shomei-train texel` is told.
#[derive(Clone, Debug, PartialEq)]
pub struct TexelConfig {
    /// The gensfen files.
    pub data: Vec<PathBuf>,
    /// The share of the target taken from the search score (the rest from the result).
    pub lambda: f64,
    /// The sigmoid's scale.
    pub k: KChoice,
    /// Share of the games held out for validation.
    pub validation_share: f64,
    /// The optimiser's settings.
    pub train: TrainOptions,
    /// Groups of `params.rs` left as they are, by name.
    pub freeze: Vec<String>,
    /// The tuned weights as `NAME = value` lines.
    pub out: PathBuf,
    /// The tuned weights as Rust for `params.rs`.
    pub snippet: PathBuf,
}

/// What a run found; `weights` are those of `kept_epoch`.
#[derive(Clone, Debug, PartialEq)]
pub struct TexelSummary {
    /// Positions fitted.
    pub train_positions: usize,
    /// Positions held out.
    pub validation_positions: usize,
    /// The sigmoid's scale used.
    pub k: f64,
    /// The errors before training and after each epoch.
    pub epochs: Vec<Epoch>,
    /// The epoch whose weights were kept (the lowest validation error; 0: none improved on
    /// `params.rs`).
    pub kept_epoch: usize,
    /// The validation error (training error without validation data) with the tuned weights
    /// rounded to integers, as `params.rs` will hold them.
    pub rounded_error: f64,
    /// The tuned weights, unrounded.
    pub weights: Vec<f64>,
}

/// Runs `shomei-train texel`; progress goes to `log`.
pub fn run(config: &TexelConfig, log: &mut impl Write) -> Result<TexelSummary, String> {
    let mut say = |text: String| {
        let _ = writeln!(log, "{text}");
    };
    let threads = config.train.threads;
    let options = &config.train;
    let frozen = frozen(&config.freeze)?;
    let loading = Instant::now();
    let split = data::load(&config.data, config.validation_share, config.train.seed, threads)?;
    let s = &split.stats;
    let seconds = loading.elapsed().as_secs_f64();
    let found = s.describe(split.train.len(), split.validation.len(), "clamped", seconds);
    say(format!("texel: {found}"));
    if split.train.is_empty() {
        return Err("no training positions".into());
    }
    let mut weights = trace::current();
    let k = match config.k {
        KChoice::Fixed(k) => k,
        KChoice::Fit => {
            // The evaluations do not depend on the model's K.
            let evaluations = Model::new(1.0).evaluations(&split.train, &weights, threads);
            let k = fit_k(&evaluations, &split.train.results);
            say(format!("texel: K = {k:.1} fits the results best under the current weights"));
            if !(K_RANGE.0 * 1.01..K_RANGE.1 / 1.01).contains(&k) {
                say("texel: K is at the end of its range: the results say little about the evaluation".into());
            }
            k
        }
    };
    let model = Model::new(k);
    let targets = split.train.targets(k, config.lambda);
    let held_out = split.validation.targets(k, config.lambda);
    let train_set = Set { data: &split.train, targets: &targets };
    let validation =
        (!split.validation.is_empty()).then_some(Set { data: &split.validation, targets: &held_out });
    say(format!(
        "texel: K {k:.1}, lambda {}, {} epochs, lr {} (decay {}), batch {}, {} threads, seed {}",
        config.lambda,
        options.epochs,
        options.lr,
        options.lr_decay,
        options.batch_size,
        threads,
        options.seed
    ));
    let mut epochs = Vec::new();
    let kept = train(&model, train_set, validation, &mut weights, options, &frozen, |e| {
        say(format!(
            "epoch {:>3}  lr {:.3}  train {:.6}  validation {:.6}  {:.1} s",
            e.epoch, e.lr, e.train, e.validation, e.seconds
        ));
        epochs.push(*e);
    });
    if validation.is_some() {
        say(format!("texel: keeping the weights of epoch {kept}, the lowest validation error"));
    }
    let rounded: Vec<f64> = weights.iter().map(|w| w.round()).collect();
    let rounded_error = model.error(validation.unwrap_or(train_set), &rounded, threads);
    say(format!("texel: error with the weights rounded to integers: {rounded_error:.6}"));

    let header = summary_header(config, k, &split.stats, &epochs, kept, rounded_error);
    output::write(&config.out, &config.snippet, &rounded, &header)?;
    say(format!("texel: wrote {} and {}", config.out.display(), config.snippet.display()));
    say("texel: largest changes (in hundredths of their group's size):".into());
    for line in output::largest_changes(&trace::current(), &rounded, 20) {
        say(format!("  {line}"));
    }
    Ok(TexelSummary {
        train_positions: split.train.len(),
        validation_positions: split.validation.len(),
        k,
        epochs,
        kept_epoch: kept,
        rounded_error,
        weights,
    })
}

/// The frozen mask of the groups named in `names`.
fn frozen(names: &[String]) -> Result<Vec<bool>, String> {
    let mut mask = vec![false; trace::WEIGHT_COUNT];
    for name in names {
        let g = GROUPS
            .iter()
            .position(|g| g.name == name)
            .ok_or_else(|| format!("--freeze: no group {name} in params.rs"))?;
        mask[trace::group_weights(g)].iter_mut().for_each(|m| *m = true);
    }
    Ok(mask)
}

/// The comment lines at the top of both output files: data, settings, errors.
fn summary_header(
    config: &TexelConfig,
    k: f64,
    stats: &data::LoadStats,
    epochs: &[Epoch],
    kept: usize,
    rounded_error: f64,
) -> Vec<String> {
    let (first, last) = (epochs[0], epochs[kept]);
    let files: Vec<String> = config.data.iter().map(|p| p.display().to_string()).collect();
    vec![
        format!("shomei-train texel on {} ({} records, {} games)", files.join(","), stats.records, stats.games),
        format!(
            "K {k:.1}, lambda {}, epochs {}, lr {} (decay {}), batch {}, validation share {}, seed {}",
            config.lambda,
            config.train.epochs,
            config.train.lr,
            config.train.lr_decay,
            config.train.batch_size,
            config.validation_share,
            config.train.seed
        ),
        format!(
            "error before: train {:.6}, validation {:.6}; epoch {kept} (kept): train {:.6}, validation {:.6}; \
             rounded {:.6}",
            first.train, first.validation, last.train, last.validation, rounded_error
        ),
    ]
}
