//! A HalfKP training run (`shomei-train nnue --arch halfkp_...`): read the records (kept
//! packed, 44 bytes a position, and unpacked batch by batch, so 100 M positions fit in about
//! 4.4 GB), derive more positions labelled by a teacher if asked, start from seeded weights or
//! an `nn.bin` (`--init`), then epochs of Adam on shuffled mini-batches, writing the `nn.bin` of
//! the epoch with the lowest validation loss as soon as it is found, and the loss curve.

use super::model::{Features, HalfKpModel, Samples};
use crate::adam::AdamF32;
use crate::data::{read_blocks, result_label, LoadStats};
use crate::model::{map_chunks, sigmoid, target};
use crate::nnue::checkpoint::{best_epoch, EpochLoss};
use crate::nnue::data::{derive, derive_seed};
use crate::nnue::plot;
use crate::nnue::train::NnueConfig;
use shomei::eval::nnue::halfkp::{AnyHalfKp, Arch};
use shomei::eval::nnue::{self, AnyNetwork};
use shomei::eval::params::EVAL_LIMIT;
use shomei::learn::record::PackedSfenValue;
use shomei::rng::{splitmix64, Rng};
use shomei::Position;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// Positions kept as their packed records, with their targets.
#[derive(Clone, Debug, Default)]
pub struct RecordSet {
    /// The records (decoded when a batch needs them).
    pub records: Vec<PackedSfenValue>,
    /// Each position's target.
    pub targets: Vec<f32>,
}

impl Samples for RecordSet {
    fn len(&self) -> usize {
        self.records.len()
    }

    fn features(&self, i: usize) -> Features {
        Features::of(&self.records[i].position().expect("loaded records unpack"))
    }

    fn target(&self, i: usize) -> f32 {
        self.targets[i]
    }
}

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
        let checked = map_chunks(block.len(), 4096, threads, |range| {
            block[range].iter().map(|r| r.position().is_ok() && result_label(r).is_some()).collect::<Vec<_>>()
        });
        for ((r, ok), &v) in block.iter().zip(checked.into_iter().flatten()).zip(held_out) {
            if !ok {
                stats.bad += 1;
            } else if i32::from(r.score).abs() >= EVAL_LIMIT {
                stats.clamped += 1;
            } else {
                let set = if v { &mut validation } else { &mut train };
                set.records.push(*r);
                set.targets.push(target(r.score as f32, result_label(r).expect("checked"), k, lambda) as f32);
            }
        }
    })?;
    stats.records = counts.per_file.iter().sum();
    stats.games = counts.games;
    Ok(Loaded { train, validation, stats, per_file: counts.per_file })
}

/// Appends to `train` the positions derived from its first `sources` records (`--augment`),
/// labelled `sigmoid(teacher / k)` where `teacher` is the network given, or the hand-written
/// evaluation; in the order of (source, copy), so the result does not depend on the threads.
/// Returns how many were added.
pub fn augment(train: &mut RecordSet, config: &NnueConfig, teacher: Option<&AnyNetwork>) -> usize {
    let a = &config.augment;
    let sources = train.records.len();
    let limit = a.planned(sources);
    let found = map_chunks(sources, 1024, config.train.threads, |range| {
        let mut out = Vec::new();
        for i in range {
            let Ok(source) = train.records[i].position() else { continue };
            for c in 0..a.copies {
                let seed = derive_seed(config.train.seed, i as u64, c as u64);
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
    let Loaded { mut train, validation, stats, .. } = load(config)?;
    let seconds = begun.elapsed().as_secs_f64();
    say!("nnue: {}", stats.describe(train.len(), validation.len(), "with mate scores", seconds));
    if train.records.is_empty() {
        return Err("no training positions".into());
    }
    if config.augment.copies > 0 {
        let teacher = config.augment_teacher.as_deref().map(nnue::load).transpose()?;
        let begun = Instant::now();
        let added = augment(&mut train, config, teacher.as_ref());
        say!(
            "nnue: augment: {added} positions derived ({} per record, 1 to {} random moves), labelled by {} in {:.1} s",
            config.augment.copies,
            config.augment.max_plies,
            config.augment_teacher.as_deref().map_or("the hand-written evaluation".into(), |p| p
                .display()
                .to_string()),
            begun.elapsed().as_secs_f64()
        );
    }
    let has_validation = !validation.records.is_empty();
    let measured: &dyn Samples = if has_validation { &validation } else { &train };
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
    let first = EpochLoss {
        epoch: 0,
        lr: 0.0,
        train: model.loss(&train, k, threads),
        validation: if has_validation { model.loss(&validation, k, threads) } else { 0.0 },
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
        let mut order: Vec<u32> = (0..train.len() as u32).collect();
        Rng::new(epoch_seed(options.seed, epoch)).shuffle(&mut order);
        let mut loss = 0.0;
        for batch in order.chunks(options.batch_size.max(1)) {
            loss += model.gradient(&train, batch, k, threads, &mut grad);
            adam.step(&mut model.params, &grad, lr, threads);
            model.decay(lr * config.weight_decay);
            model.clip();
        }
        let trained = begun.elapsed().as_secs_f64();
        let e = EpochLoss {
            epoch,
            lr,
            train: loss / train.len().max(1) as f64,
            validation: if has_validation { model.loss(&validation, k, threads) } else { 0.0 },
            seconds: begun.elapsed().as_secs_f64(),
            speed: train.len() as f64 / trained.max(1e-9),
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
        train_positions: train.len(),
        validation_positions: validation.len(),
        history,
        exported_epoch: exported,
        quantised_loss,
    })
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
