//! A HalfKP training run (`shomei-train nnue --arch halfkp_...`): read the records (kept
//! packed, 44 bytes a position, and unpacked batch by batch, so 100 M positions fit in about
//! 4.4 GB), derive more positions labelled by a teacher if asked, start from seeded weights or
//! an `nn.bin` (`--init`), then epochs of Adam on shuffled mini-batches, writing the `nn.bin` of
//! the epoch with the lowest validation loss as soon as it is found, and the loss curve.

use super::model::{HalfKpModel, Samples};
use super::stream::{keep_usable, RecordSet, Scanned, Stream, BLOCK_RECORDS};
use crate::adam::AdamF32;
use crate::data::{read_blocks, LoadStats};
use crate::logistic::sigmoid;
use crate::nnue::checkpoint::{best_epoch, EpochLoss};
use crate::nnue::data::{derive, derive_seed};
use crate::nnue::plot;
use crate::nnue::train::NnueConfig;
use crate::parallel::map_chunks;
use shomei::eval::nnue::halfkp::{AnyHalfKp, Arch};
use shomei::eval::nnue::{self, AnyNetwork};
use shomei::rng::{splitmix64, Rng};
use shomei::training_data::record::PackedSfenValue;
use shomei::Position;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// The training and validation positions and what reading found.
pub struct Loaded {
    /// Positions fitted (records, then derived ones).
    pub train: RecordSet,
    /// Positions held out, whole games of them.
    pub validation: RecordSet,
    /// What reading found.
    pub stats: LoadStats,
    /// Records read from each file.
    pub per_file: Vec<u64>,
}

/// Reads `config.data`, keeping records that unpack, carry a result and a score below
/// `EVAL_LIMIT`, and holding out `config.validation_share` of the games.
pub fn load(config: &NnueConfig) -> Result<Loaded, String> {
    let (k, lambda, threads) = (config.k, config.lambda, config.train.threads);
    let (mut train, mut validation) = (RecordSet::default(), RecordSet::default());
    let mut stats = LoadStats::default();
    let counts = read_blocks(&config.data, config.validation_share, config.train.seed, |block, held_out| {
        keep_usable(block, held_out, k, lambda, threads, &mut stats, |r, t, v| {
            let set = if v { &mut validation } else { &mut train };
            set.records.push(*r);
            set.targets.push(t);
        });
    })?;
    stats.records = counts.per_file.iter().sum();
    stats.games = counts.games;
    Ok(Loaded { train, validation, stats, per_file: counts.per_file })
}

/// Appends to `train` the positions derived from its records (`--augment`), the random moves
/// drawn from `seed`, labelled `sigmoid(teacher / k)` where `teacher` is the network given, or
/// the hand-written evaluation; in the order of (source, copy), so the result does not depend
/// on the threads. Returns how many were added.
pub fn augment(train: &mut RecordSet, config: &NnueConfig, teacher: Option<&AnyNetwork>, seed: u64) -> usize {
    let a = &config.augment;
    let sources = train.records.len();
    let limit = a.planned(sources);
    let found = map_chunks(sources, 1024, config.train.threads, |range| {
        let mut out = Vec::new();
        for i in range {
            let Ok(source) = train.records[i].position() else { continue };
            for c in 0..a.copies {
                let seed = derive_seed(seed, i as u64, c as u64);
                let Some(pos) = derive(&source, seed, a.max_plies) else { continue };
                let score = match teacher {
                    Some(net) => net.evaluate(&pos),
                    None => shomei::eval::evaluate(&pos),
                };
                let score = score.clamp(-(i16::MAX as i32), i16::MAX as i32) as i16;
                let any_move = pos.legal_moves().as_slice()[0];
                if let Ok(r) = PackedSfenValue::new(&pos, score, any_move, 0) {
                    out.push((r, sigmoid(score as f64 / config.k) as f32));
                }
            }
        }
        out
    });
    let mut added = 0;
    for (r, t) in found.into_iter().flatten().take(limit) {
        train.records.push(r);
        train.targets.push(t);
        added += 1;
    }
    added
}

/// The seed of epoch `epoch`'s shuffle.
fn epoch_seed(seed: u64, epoch: usize) -> u64 {
    splitmix64(seed ^ splitmix64(epoch as u64 ^ 0x4a1f).1).1
}

/// What a run did.
#[derive(Clone, Debug, PartialEq)]
pub struct HalfKpSummary {
    /// Positions fitted, derived ones included.
    pub train_positions: usize,
    /// Positions held out.
    pub validation_positions: usize,
    /// The losses before training (epoch 0) and after each epoch.
    pub history: Vec<EpochLoss>,
    /// The epoch written.
    pub exported_epoch: usize,
    /// The loss (validation, else training) of the network written, its weights read back
    /// from the file (the float model on the integers' grid).
    pub quantised_loss: f64,
}

/// Runs a HalfKP training of architecture `arch`; progress goes to `log`.
pub fn run(config: &NnueConfig, arch: Arch, log: &mut impl Write) -> Result<HalfKpSummary, String> {
    macro_rules! say {
        ($($t:tt)*) => {{
            let _ = writeln!(log, $($t)*);
        }};
    }
    if config.resume.is_some() {
        return Err("--resume is for shomei's own nets; go on with a HalfKP net by --init NET.bin".into());
    }
    let options = &config.train;
    let (k, threads) = (config.k, options.threads);
    let begun = Instant::now();
    let teacher = match (config.augment.copies, &config.augment_teacher) {
        (0, _) | (_, None) => None,
        (_, Some(path)) => Some(nnue::load(path)?),
    };
    let labeller = config
        .augment_teacher
        .as_deref()
        .map_or("the hand-written evaluation".into(), |p| p.display().to_string());
    let (source, validation) = match config.stream {
        None => {
            let Loaded { mut train, validation, stats, .. } = load(config)?;
            let seconds = begun.elapsed().as_secs_f64();
            say!("nnue: {}", stats.describe(train.len(), validation.len(), "with mate scores", seconds));
            if train.records.is_empty() {
                return Err("no training positions".into());
            }
            if config.augment.copies > 0 {
                let begun = Instant::now();
                let added = augment(&mut train, config, teacher.as_ref(), options.seed);
                say!(
                    "nnue: augment: {added} positions derived ({} per record, 1 to {} random moves), labelled by \
                     {labeller} in {:.1} s",
                    config.augment.copies,
                    config.augment.max_plies,
                    begun.elapsed().as_secs_f64()
                );
            }
            (Source::Memory(train), validation)
        }
        Some(buffer) => {
            let Scanned { stream, validation, stats } = Stream::scan(config, buffer, BLOCK_RECORDS)?;
            let seconds = begun.elapsed().as_secs_f64();
            say!(
                "nnue: {}",
                stats.describe(stream.train_positions, validation.len(), "with mate scores", seconds)
            );
            if stream.train_positions == 0 {
                return Err("no training positions".into());
            }
            say!(
                "nnue: streaming the training positions from disk each epoch, {buffer} at a time{}",
                if config.augment.copies > 0 {
                    format!(
                        ", each batch of them with {} derived per record labelled by {labeller}",
                        config.augment.copies
                    )
                } else {
                    String::new()
                }
            );
            (Source::Disk(stream), validation)
        }
    };
    let sample = match &source {
        Source::Memory(_) => None,
        Source::Disk(stream) => {
            let mut first = stream.sample()?;
            if config.augment.copies > 0 {
                augment(&mut first, config, teacher.as_ref(), options.seed);
            }
            Some(first)
        }
    };
    let train_measured: &dyn Samples = match (&source, &sample) {
        (Source::Memory(train), _) => train,
        (Source::Disk(_), Some(first)) => first,
        (Source::Disk(_), None) => unreachable!("a stream has its sample"),
    };
    let has_validation = !validation.records.is_empty();
    let measured: &dyn Samples = if has_validation { &validation } else { train_measured };
    let mut model = match &config.init {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let net = AnyHalfKp::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            if net.arch() != arch {
                return Err(format!("{} is {}, not {arch}", path.display(), net.arch()));
            }
            say!("nnue: starting from the weights of {}", path.display());
            HalfKpModel::from_plain(&net.to_plain())
        }
        None => HalfKpModel::random(arch, options.seed),
    };
    let mut adam = AdamF32::new(model.params.len());
    say!(
        "nnue: {arch}, {} parameters (factors included), K {k}, lambda {}, {} epochs, lr {} (decay {}), \
         weight decay {}, batch {}, {threads} threads, seed {}",
        model.params.len(),
        config.lambda,
        options.epochs,
        options.lr,
        options.lr_decay,
        config.weight_decay,
        options.batch_size,
        options.seed
    );
    // With epochs on the grid, every loss is the written net's: the best epoch is chosen by it.
    let grid_from = options.epochs.saturating_sub(config.grid_epochs) + 1;
    let on_grid = config.grid_epochs > 0;
    if on_grid {
        say!(
            "nnue: epochs {grid_from}-{} on the file's grid (straight-through); losses measured on the grid",
            options.epochs
        );
    }
    let first = EpochLoss {
        epoch: 0,
        lr: 0.0,
        train: loss_as(&mut model, on_grid, train_measured, k, threads),
        validation: if has_validation { loss_as(&mut model, on_grid, &validation, k, threads) } else { 0.0 },
        seconds: 0.0,
        speed: 0.0,
    };
    let line = |e: &EpochLoss| {
        format!(
            "epoch {:>3}  lr {:.3e}  train {:.6}  validation {:.6}  {:.1} s  {:.0} pos/s",
            e.epoch, e.lr, e.train, e.validation, e.seconds, e.speed
        )
    };
    say!("{}", line(&first));
    let mut history = vec![first];
    let (csv, svg) = (config.beside_out(".csv"), config.beside_out(".svg"));
    if let Some(dir) = config.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut exported = None;
    let mut grad = vec![0.0f32; model.params.len()];
    for epoch in 1..=options.epochs {
        let begun = Instant::now();
        let lr = options.lr_of_epoch(epoch);
        model.on_grid = on_grid && epoch >= grid_from;
        let mut step = Step { model: &mut model, adam: &mut adam, grad: &mut grad, config, lr };
        let (loss, fitted) = match &source {
            Source::Memory(train) => (step.fit(train, epoch_seed(options.seed, epoch)), train.len()),
            Source::Disk(stream) => {
                let (mut loss, mut fitted, mut batch) = (0.0, 0, 0u64);
                stream.for_each_buffer(epoch_seed(options.seed, epoch), |mut set| {
                    batch += 1;
                    let seed = splitmix64(epoch_seed(options.seed, epoch) ^ batch).1;
                    if config.augment.copies > 0 {
                        augment(&mut set, config, teacher.as_ref(), seed);
                    }
                    loss += step.fit(&set, seed ^ 1);
                    fitted += set.len();
                    Ok(())
                })?;
                (loss, fitted)
            }
        };
        let trained = begun.elapsed().as_secs_f64();
        let e = EpochLoss {
            epoch,
            lr,
            train: loss / fitted.max(1) as f64,
            validation: if has_validation {
                loss_as(&mut model, on_grid, &validation, k, threads)
            } else {
                0.0
            },
            seconds: begun.elapsed().as_secs_f64(),
            speed: fitted as f64 / trained.max(1e-9),
        };
        say!("{}", line(&e));
        history.push(e);
        let title = format!("shomei-train nnue --arch {arch}: {}", config.out.display());
        write(&csv, &plot::csv(&history))?;
        write(&svg, &plot::svg(&history, &title))?;
        if best_epoch(&history, has_validation) == Some(epoch) {
            write_net(&model, &config.out)?;
            exported = Some(epoch);
        }
    }
    let exported = match exported {
        Some(e) => e,
        None => {
            // No epoch improved on the start (or none ran): write the model as it is.
            write_net(&model, &config.out)?;
            history.last().map_or(0, |e| e.epoch)
        }
    };
    let net = read_back(&config.out)?;
    let written = HalfKpModel::from_plain(&net.to_plain());
    let quantised_loss = written.loss(measured, k, threads);
    say!(
        "nnue: wrote {} (epoch {exported}); its {} loss, weights read back from the file, \
         {quantised_loss:.6}; the start position evaluates {}",
        config.out.display(),
        if has_validation { "validation" } else { "training" },
        net.evaluate(&Position::startpos(), 16)
    );
    Ok(HalfKpSummary {
        train_positions: match &source {
            Source::Memory(train) => train.len(),
            Source::Disk(stream) => stream.train_positions,
        },
        validation_positions: validation.len(),
        history,
        exported_epoch: exported,
        quantised_loss,
    })
}

/// `model`'s loss over `set`, on the grid or not.
fn loss_as(model: &mut HalfKpModel, on_grid: bool, set: &dyn Samples, k: f64, threads: usize) -> f64 {
    let was = std::mem::replace(&mut model.on_grid, on_grid);
    let loss = model.loss(set, k, threads);
    model.on_grid = was;
    loss
}

/// Where an epoch's training positions come from.
enum Source {
    /// All in memory, derived ones included.
    Memory(RecordSet),
    /// Read from disk every epoch; derived ones made for each buffer.
    Disk(Stream),
}

/// One epoch's optimiser steps.
struct Step<'a> {
    model: &'a mut HalfKpModel,
    adam: &'a mut AdamF32,
    grad: &'a mut Vec<f32>,
    config: &'a NnueConfig,
    lr: f64,
}

impl Step<'_> {
    /// Fits `set` in mini-batches shuffled by `seed`; returns the summed loss of the batches.
    fn fit(&mut self, set: &RecordSet, seed: u64) -> f64 {
        let options = &self.config.train;
        let mut order: Vec<u32> = (0..set.len() as u32).collect();
        Rng::new(seed).shuffle(&mut order);
        let mut loss = 0.0;
        for batch in order.chunks(options.batch_size.max(1)) {
            loss += self.model.gradient(set, batch, self.config.k, options.threads, self.grad);
            self.adam.step(&mut self.model.params, self.grad, self.lr, options.threads);
            self.model.decay(self.lr * self.config.weight_decay);
            self.model.clip();
        }
        loss
    }
}

/// Writes the quantised network of `model` to `path`.
fn write_net(model: &HalfKpModel, path: &Path) -> Result<(), String> {
    let net = model.to_network();
    let mut file = std::io::BufWriter::new(
        std::fs::File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?,
    );
    net.write_to(&mut file)
        .and_then(|()| file.flush())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The network in the file at `path`.
fn read_back(path: &Path) -> Result<AnyHalfKp, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    AnyHalfKp::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `text` to `path`.
fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
