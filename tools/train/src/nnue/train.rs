//! A network training run: load the positions (and derive more from the training ones, if
//! asked: `data::augment`), start from seeded weights (or a checkpoint), then epochs of Adam on
//! shuffled mini-batches with the learning rate decayed per epoch, reporting the training and
//! validation losses after each epoch, saving a checkpoint and the loss curve as it goes, and
//! at the end writing the quantised network of the epoch with the lowest validation loss.

use super::checkpoint::{best_epoch, Best, Checkpoint, EpochLoss};
use super::data::{self, Augment, Positions};
use super::model::{Model, Set, Shape};
use super::plot;
use crate::adam::{AdamF32, TrainOptions};
use crate::logistic::sigmoid;
use shomei::eval::nnue::{self, evaluate_from_scratch};
use shomei::rng::{splitmix64, Rng};
use shomei::Position;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Everything `shomei-train nnue` is told.
#[derive(Clone, Debug, PartialEq)]
pub struct NnueConfig {
    /// The gensfen files.
    pub data: Vec<PathBuf>,
    /// The network file to write; the checkpoint, CSV and SVG go beside it (`OUT.ckpt`,
    /// `OUT.csv`, `OUT.svg`).
    pub out: PathBuf,
    /// The share of the target taken from the search score (the rest from the result).
    pub lambda: f64,
    /// The sigmoid's scale, in engine units.
    pub k: f64,
    /// Share of the games held out for validation.
    pub validation_share: f64,
    /// The optimiser's settings (`seed` also draws the first weights and the split).
    pub train: TrainOptions,
    /// Decoupled weight decay of the feature weights: each step multiplies them by
    /// `1 - lr * weight_decay`.
    pub weight_decay: f64,
    /// Positions derived from the training positions, labelled by the hand evaluation.
    pub augment: Augment,
    /// A checkpoint to go on from, instead of fresh weights.
    pub resume: Option<PathBuf>,
    /// A network file that labels the derived positions instead of the hand evaluation.
    pub augment_teacher: Option<PathBuf>,
    /// A network file whose weights the training starts from, instead of fresh ones (Adam at
    /// rest): fine-tuning a net on new data.
    pub init: Option<PathBuf>,
    /// Whether to draw a progress bar during each epoch.
    pub progress: bool,
    /// A HalfKP architecture to train (`halfkp`) instead of shomei's own net.
    pub arch: Option<shomei::eval::nnue::halfkp::Arch>,
    /// HalfKP: read the training positions from disk each epoch, this many in memory at once
    /// (`--stream N`), instead of holding them all.
    pub stream: Option<usize>,
    /// HalfKP: the last this many epochs train on the file's integer grid (`HalfKpModel::on_grid`),
    /// and every loss is then measured there.
    pub grid_epochs: usize,
    /// The command line, recorded in the network's description.
    pub command: String,
}

impl NnueConfig {
    /// `OUT` with `suffix` appended (`net.nnue` -> `net.nnue.ckpt`).
    pub fn beside_out(&self, suffix: &str) -> PathBuf {
        let mut name = self.out.clone().into_os_string();
        name.push(suffix);
        PathBuf::from(name)
    }
}

/// The seed of epoch `epoch`'s shuffle: a function of the run's seed and the epoch alone, so a
/// resumed run shuffles as the uninterrupted one would have.
fn epoch_seed(seed: u64, epoch: usize) -> u64 {
    splitmix64(seed ^ splitmix64(epoch as u64).1).1
}

/// A fresh start: the first weights drawn from `seed`, Adam at rest, and epoch 0's losses.
pub fn start(shape: Shape, seed: u64, train: Set, validation: Option<Set>, threads: usize) -> Checkpoint {
    start_from(Model::random(shape, seed), train, validation, threads)
}

/// A start from `model`'s weights, Adam at rest, and epoch 0's losses.
pub fn start_from(model: Model, train: Set, validation: Option<Set>, threads: usize) -> Checkpoint {
    let first = EpochLoss {
        epoch: 0,
        lr: 0.0,
        train: model.loss(train, threads),
        validation: validation.map_or(0.0, |v| model.loss(v, threads)),
        seconds: 0.0,
        speed: 0.0,
    };
    let adam = AdamF32::new(model.params.len());
    Checkpoint { model, adam, history: vec![first], best: None }
}

/// The next epoch of `state` (its history's last plus one): every training position once, in
/// an order drawn from the seed and the epoch, in batches of `options.batch_size`, each an
/// Adam step then a clip. `progress` is told after each batch the positions done and the
/// running mean loss. The epoch's losses are added to the history and returned; if it is the
/// best epoch so far (`best_epoch`), its model is kept as `state.best`.
pub fn train_epoch(
    state: &mut Checkpoint,
    train: Set,
    validation: Option<Set>,
    options: &TrainOptions,
    weight_decay: f64,
    mut progress: impl FnMut(usize, f64),
) -> EpochLoss {
    let begun = Instant::now();
    let epoch = state.history.last().map_or(0, |e| e.epoch) + 1;
    let lr = options.lr_of_epoch(epoch);
    let mut order: Vec<u32> = (0..train.data.len() as u32).collect();
    Rng::new(epoch_seed(options.seed, epoch)).shuffle(&mut order);
    let mut grad = vec![0.0f32; state.model.params.len()];
    let (mut loss, mut done) = (0.0, 0);
    for batch in order.chunks(options.batch_size.max(1)) {
        loss += state.model.gradient(train, batch, options.threads, &mut grad);
        state.adam.step(&mut state.model.params, &grad, lr, options.threads);
        state.model.decay(lr * weight_decay);
        state.model.clip();
        done += batch.len();
        progress(done, loss / done as f64);
    }
    let trained = begun.elapsed().as_secs_f64();
    let e = EpochLoss {
        epoch,
        lr,
        train: loss / done.max(1) as f64,
        validation: validation.map_or(0.0, |v| state.model.loss(v, options.threads)),
        seconds: begun.elapsed().as_secs_f64(),
        speed: done as f64 / trained.max(1e-9),
    };
    state.history.push(e);
    if best_epoch(&state.history, validation.is_some()) == Some(epoch) {
        state.best = Some(Best { epoch, model: state.model.clone() });
    }
    e
}

/// What a run did.
#[derive(Clone, Debug, PartialEq)]
pub struct NnueSummary {
    /// Positions fitted, derived ones included.
    pub train_positions: usize,
    /// Of which derived (`data::augment`).
    pub derived_positions: usize,
    /// Positions held out.
    pub validation_positions: usize,
    /// The losses before training (epoch 0) and after each epoch.
    pub history: Vec<EpochLoss>,
    /// The loss of predicting the mean training target everywhere, on the validation positions
    /// (training positions without any).
    pub constant_loss: f64,
    /// The epoch exported: the one with the lowest validation loss (`best_epoch`).
    pub exported_epoch: usize,
    /// The validation (or training) loss of the quantised network (the float model on the
    /// quantisation grid, as the engine computes it).
    pub quantised_loss: f64,
    /// The size of the network file written.
    pub bytes: usize,
}

/// A progress bar drawn over one line of `log`, at most every quarter of a second.
struct Bar {
    drawn: Option<Instant>,
    started: Instant,
}

impl Bar {
    const WIDTH: usize = 30;

    fn new() -> Bar {
        Bar { drawn: None, started: Instant::now() }
    }

    fn draw(&mut self, log: &mut impl Write, epoch: usize, done: usize, total: usize, loss: f64) {
        let now = Instant::now();
        if done < total && self.drawn.is_some_and(|t| now - t < Duration::from_millis(250)) {
            return;
        }
        self.drawn = Some(now);
        let filled = Self::WIDTH * done / total.max(1);
        let speed = done as f64 / (now - self.started).as_secs_f64().max(1e-9);
        let _ = write!(
            log,
            "\repoch {epoch:>3} [{}{}] {:>3}%  {speed:>8.0} pos/s  loss {loss:.6}",
            "#".repeat(filled),
            "-".repeat(Self::WIDTH - filled),
            100 * done / total.max(1)
        );
        let _ = log.flush();
    }

    fn clear(log: &mut impl Write) {
        let _ = write!(log, "\r{:80}\r", "");
    }
}

/// The mean of `(prediction(i) - targets[i])^2`.
fn mean_squared(targets: &[f32], prediction: impl Fn(usize) -> f64) -> f64 {
    let sum: f64 = targets.iter().enumerate().map(|(i, &t)| (prediction(i) - t as f64).powi(2)).sum();
    sum / targets.len().max(1) as f64
}

/// Runs `shomei-train nnue`; progress goes to `log`.
pub fn run(config: &NnueConfig, log: &mut impl Write) -> Result<NnueSummary, String> {
    macro_rules! say {
        ($($t:tt)*) => {{
            let _ = writeln!(log, $($t)*);
        }};
    }
    let options = &config.train;
    let loading = Instant::now();
    let augment = &config.augment;
    let mut split =
        data::load(&config.data, config.validation_share, options.seed, options.threads, augment.copies > 0)?;
    let s = &split.stats;
    let seconds = loading.elapsed().as_secs_f64();
    let found = s.describe(split.train.len(), split.validation.len(), "with mate scores", seconds);
    say!("nnue: {found}");
    if split.train.is_empty() {
        return Err("no training positions".into());
    }
    let real = split.train.len();
    let mut derived = 0;
    if augment.copies > 0 {
        let planned = augment.planned(real);
        // Each position also has its target, and its weight if not 1.
        let bytes = Positions::BYTES_PER_POSITION + if augment.weight != 1.0 { 8 } else { 4 };
        say!(
            "nnue: augment: deriving up to {planned} positions ({} per training position, 1 to {} random \
             moves{}), about {:.0} MB",
            augment.copies,
            augment.max_plies,
            augment.limit.map_or(String::new(), |l| format!(", at most {l} in all")),
            (planned * bytes) as f64 / 1e6
        );
        let records = std::mem::take(&mut split.train_records);
        let teacher = match &config.augment_teacher {
            Some(path) => {
                say!("nnue: augment: the derived positions labelled by {}", path.display());
                Some(nnue::load_shomei(path)?)
            }
            None => None,
        };
        let a = data::augment(
            &mut split.train,
            &records,
            augment,
            teacher.as_ref(),
            options.seed,
            options.threads,
        );
        derived = a.derived();
        say!(
            "nnue: augment: {derived} positions added in {:.1} s ({} dropped: in check or without a legal \
             move{}); {} training positions in all",
            a.seconds,
            a.skipped,
            if a.capped > 0 { format!("; {} not tried: over the limit", a.capped) } else { String::new() },
            split.train.len()
        );
    }
    let (k, lambda) = (config.k, config.lambda);
    let (train_targets, validation_targets) =
        (split.train.augmented_targets(real, k, lambda), split.validation.targets(k, lambda));
    let train_weights: Option<Vec<f32>> = (derived > 0 && augment.weight != 1.0).then(|| {
        (0..split.train.len()).map(|i| if i < real { 1.0 } else { augment.weight as f32 }).collect()
    });
    let train = Set { data: &split.train, targets: &train_targets, weights: train_weights.as_deref(), k };
    let validation = (!split.validation.is_empty()).then_some(Set {
        data: &split.validation,
        targets: &validation_targets,
        weights: None,
        k,
    });
    let (baseline_data, baseline): (&Positions, &[f32]) =
        validation.map_or((&split.train, &train_targets), |v| (v.data, v.targets));
    let mean_target = train_targets.iter().map(|&t| t as f64).sum::<f64>() / train_targets.len() as f64;
    let constant_loss = mean_squared(baseline, |_| mean_target);
    let teacher_loss = mean_squared(baseline, |i| sigmoid(baseline_data.scores[i] as f64 / k));
    say!(
        "nnue: baselines on the {} positions: constant {mean_target:.4}: {constant_loss:.6}; sigmoid(score / K): \
         {teacher_loss:.6}",
        if validation.is_some() { "validation" } else { "training" }
    );

    let mut state = match &config.resume {
        Some(path) => {
            let c = Checkpoint::load(path)?;
            if c.model.shape != Shape::PRODUCTION {
                return Err(format!(
                    "{}: a net of shape {:?}, not the engine's",
                    path.display(),
                    c.model.shape
                ));
            }
            say!(
                "nnue: resuming from {} after epoch {}",
                path.display(),
                c.history.last().map_or(0, |e| e.epoch)
            );
            c
        }
        None => match &config.init {
            Some(path) => {
                let net = nnue::load_shomei(path)?;
                say!("nnue: starting from the weights of {}", path.display());
                start_from(Model::from_network(&net), train, validation, options.threads)
            }
            None => start(Shape::PRODUCTION, options.seed, train, validation, options.threads),
        },
    };
    say!(
        "nnue: K {k}, lambda {lambda}, {} epochs, lr {} (decay {} per epoch), weight decay {}, derived \
         positions' weight {}, batch {}, {} threads, seed {}",
        options.epochs,
        options.lr,
        options.lr_decay,
        config.weight_decay,
        augment.weight,
        options.batch_size,
        options.threads,
        options.seed
    );
    let line = |e: &EpochLoss| {
        format!(
            "epoch {:>3}  lr {:.3e}  train {:.6}  validation {:.6}  {:.1} s  {:.0} pos/s",
            e.epoch, e.lr, e.train, e.validation, e.seconds, e.speed
        )
    };
    for e in &state.history {
        say!("{}", line(e));
    }
    let (checkpoint, csv, svg) =
        (config.beside_out(".ckpt"), config.beside_out(".csv"), config.beside_out(".svg"));
    if let Some(dir) = config.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    while state.history.last().map_or(0, |e| e.epoch) < options.epochs {
        let mut bar = Bar::new();
        let epoch = state.history.last().map_or(0, |e| e.epoch) + 1;
        let e = train_epoch(&mut state, train, validation, options, config.weight_decay, |done, loss| {
            if config.progress {
                bar.draw(log, epoch, done, train.data.len(), loss);
            }
        });
        if config.progress {
            Bar::clear(log);
        }
        say!("{}", line(&e));
        state.save(&checkpoint)?;
        let title = format!("shomei-train nnue: {}", config.out.display());
        write(&csv, &plot::csv(&state.history))?;
        write(&svg, &plot::svg(&state.history, &title))?;
    }

    let last = *state.history.last().expect("epoch 0");
    let (exported, model) = match &state.best {
        Some(b) => (b.epoch, &b.model),
        None => (last.epoch, &state.model),
    };
    let chosen = *state.history.iter().find(|e| e.epoch == exported).expect("the exported epoch's losses");
    match best_epoch(&state.history, validation.is_some()) {
        Some(best) if best != exported => say!(
            "nnue: epoch {best} had the lowest validation loss, but its weights were not kept (a checkpoint \
             of version 1); exporting epoch {exported}"
        ),
        _ if validation.is_some() => say!(
            "nnue: exporting epoch {exported} of {}, the lowest validation loss ({:.6})",
            last.epoch,
            chosen.validation
        ),
        _ => say!("nnue: exporting epoch {exported}, the last (no validation positions)"),
    }
    let snapped = model.snapped();
    let quantised_loss = snapped.loss(validation.unwrap_or(train), options.threads);
    let why = if validation.is_some() { "lowest validation loss" } else { "the last" };
    let description = describe(config, &split.per_file, derived, (&chosen, last.epoch, why), quantised_loss);
    let net = model.to_network(&description)?;
    let bytes = net.to_bytes();
    let start = Position::startpos();
    say!(
        "nnue: the start position evaluates {} (float model {:.1})",
        evaluate_from_scratch(&net, &start),
        model.evaluate_position(&start)
    );
    std::fs::write(&config.out, &bytes).map_err(|e| format!("cannot write {}: {e}", config.out.display()))?;
    say!(
        "nnue: quantised network's {} loss {quantised_loss:.6}",
        if validation.is_some() { "validation" } else { "training" }
    );
    say!(
        "nnue: wrote {} ({} bytes), {}, {} and {}",
        config.out.display(),
        bytes.len(),
        checkpoint.display(),
        csv.display(),
        svg.display()
    );
    Ok(NnueSummary {
        train_positions: split.train.len(),
        derived_positions: derived,
        validation_positions: split.validation.len(),
        history: state.history,
        constant_loss,
        exported_epoch: exported,
        quantised_loss,
        bytes: bytes.len(),
    })
}

/// Writes `text` to `path`.
fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The network's description, on one line (the engine shows it in a USI `info string`): the
/// command line, the data files with their record counts, the derived positions, the seed, and
/// the losses of the epoch exported (`exported`: its losses, the epochs run, why it was chosen).
fn describe(
    config: &NnueConfig,
    per_file: &[u64],
    derived: usize,
    exported: (&EpochLoss, usize, &str),
    quantised: f64,
) -> String {
    let (epoch, epochs, why) = exported;
    // A folder of shards stands for several files: then only the total is shown.
    let files: Vec<String> = if per_file.len() == config.data.len() {
        config.data.iter().zip(per_file).map(|(p, n)| format!("{} ({n} records)", p.display())).collect()
    } else {
        let all: Vec<String> = config.data.iter().map(|p| p.display().to_string()).collect();
        vec![format!("{} ({} records)", all.join(", "), per_file.iter().sum::<u64>())]
    };
    let augmented = if derived > 0 {
        format!("; {derived} positions derived by the hand evaluation")
    } else {
        String::new()
    };
    format!(
        "{}; data: {}{augmented}; seed {}; epoch {} of {} ({why}): train loss {:.6}, \
         validation loss {:.6}, quantised {:.6}",
        config.command,
        files.join(", "),
        config.train.seed,
        epoch.epoch,
        epochs,
        epoch.train,
        epoch.validation,
        quantised
    )
}
