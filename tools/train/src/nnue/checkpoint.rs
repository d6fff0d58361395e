//! The trainer's own checkpoint file: the float model, Adam's state and the loss history, so a
//! long run can be stopped and resumed exactly where it was; and the model of the epoch with
//! the lowest validation loss so far, the one exported.

use super::model::{Model, Shape};
use crate::adam::AdamF32;
use std::path::Path;

/// What a checkpoint holds: the float model, Adam's state and the loss history, enough to go
/// on training exactly where a run stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The model.
    pub model: Model,
    /// The optimiser's moments and step count.
    pub adam: AdamF32,
    /// The epochs done so far (epoch 0: before training).
    pub history: Vec<EpochLoss>,
    /// The best epoch so far (`best_epoch`) and its model, once an epoch is done (`None`
    /// before, and from a checkpoint of version 1, which did not keep it).
    pub best: Option<Best>,
}

/// The epoch with the lowest validation loss so far, and its model.
#[derive(Clone, Debug, PartialEq)]
pub struct Best {
    /// Its number.
    pub epoch: usize,
    /// The model after it.
    pub model: Model,
}

/// The epoch to export of `history`'s trained epochs (epoch 0, the first weights, is never
/// one): with validation positions the one with the lowest validation loss, the earliest of
/// equals; without (`validated` false), the last. `None` before the first epoch.
pub fn best_epoch(history: &[EpochLoss], validated: bool) -> Option<usize> {
    let mut trained = history.iter().filter(|e| e.epoch > 0);
    if !validated {
        return trained.next_back().map(|e| e.epoch);
    }
    let first = trained.next()?;
    Some(trained.fold(first, |best, e| if e.validation < best.validation { e } else { best }).epoch)
}

/// The losses after one epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochLoss {
    /// 1 for the first pass (0: before training).
    pub epoch: usize,
    /// The learning rate it used.
    pub lr: f64,
    /// Mean loss over the training positions: over the epoch's batches, each measured before
    /// its step (epoch 0: of the first weights).
    pub train: f64,
    /// Mean loss over the validation positions after the epoch (0 without any).
    pub validation: f64,
    /// Seconds the epoch took (training and validation).
    pub seconds: f64,
    /// Training positions per second of its training.
    pub speed: f64,
}

const MAGIC: &[u8; 8] = b"SHOMEICK";
const VERSION: u32 = 2;

impl Checkpoint {
    /// The file's bytes (little-endian): `SHOMEICK`, `u32` version, `u32` inputs, factors,
    /// hidden, `u64` Adam steps, `u32` history length and per epoch `u32` epoch and five `f64`
    /// (lr, train, validation, seconds, speed), `u32` best epoch (0 for none), then the
    /// parameters, Adam's first and second moments and (if there is a best epoch) its
    /// parameters, as `f32`. (Version 1 had no best epoch.)
    pub fn to_bytes(&self) -> Vec<u8> {
        let s = self.model.shape;
        let mut out = Vec::with_capacity(64 + 16 * s.len());
        out.extend_from_slice(MAGIC);
        for v in [VERSION, s.inputs as u32, s.factors as u32, s.hidden as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.adam.steps.to_le_bytes());
        out.extend_from_slice(&(self.history.len() as u32).to_le_bytes());
        for e in &self.history {
            out.extend_from_slice(&(e.epoch as u32).to_le_bytes());
            for x in [e.lr, e.train, e.validation, e.seconds, e.speed] {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out.extend_from_slice(&(self.best.as_ref().map_or(0, |b| b.epoch) as u32).to_le_bytes());
        let best = self.best.iter().flat_map(|b| &b.model.params);
        for w in self.model.params.iter().chain(&self.adam.m).chain(&self.adam.v).chain(best) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Reads a checkpoint's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        let mut at = 0;
        let mut take = |n: usize| {
            let s = bytes.get(at..at + n).ok_or("the checkpoint is cut short")?;
            at += n;
            Ok::<&[u8], String>(s)
        };
        if take(8)? != MAGIC {
            return Err("not a shomei-train checkpoint".into());
        }
        let mut u32s = [0u32; 4];
        for v in &mut u32s {
            *v = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
        }
        let [version, inputs, factors, hidden] = u32s;
        if !(1..=VERSION).contains(&version) {
            return Err(format!("checkpoint version {version}, this build reads 1 to {VERSION}"));
        }
        let shape = Shape { inputs: inputs as usize, factors: factors as usize, hidden: hidden as usize };
        let steps = u64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
        let epochs = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
        let mut history = Vec::new();
        for _ in 0..epochs {
            let epoch = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes")) as usize;
            let mut x = [0f64; 5];
            for v in &mut x {
                *v = f64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
            }
            let [lr, train, validation, seconds, speed] = x;
            history.push(EpochLoss { epoch, lr, train, validation, seconds, speed });
        }
        let best_epoch =
            if version >= 2 { u32::from_le_bytes(take(4)?.try_into().expect("4 bytes")) as usize } else { 0 };
        let mut floats = |n: usize| -> Result<Vec<f32>, String> {
            let b = take(4 * n)?;
            Ok(b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))).collect())
        };
        let n = shape.len();
        let (params, m, v) = (floats(n)?, floats(n)?, floats(n)?);
        let best = if best_epoch > 0 {
            Some(Best { epoch: best_epoch, model: Model { shape, params: floats(n)? } })
        } else {
            None
        };
        if at != bytes.len() {
            return Err("the checkpoint has bytes after its end".into());
        }
        Ok(Checkpoint { model: Model { shape, params }, adam: AdamF32 { m, v, steps }, history, best })
    }

    /// Writes the checkpoint to `path` (aside first, then renamed over, so a run stopped while
    /// writing leaves the previous one whole).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let mut aside = path.as_os_str().to_owned();
        aside.push(".part");
        std::fs::write(&aside, self.to_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        std::fs::rename(&aside, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Reads the checkpoint at `path`.
    pub fn load(path: &Path) -> Result<Checkpoint, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_round_trips() {
        let model = Model::random(Shape { inputs: 6, factors: 3, hidden: 4 }, 3);
        let mut adam = AdamF32::new(model.params.len());
        adam.m[2] = 0.5;
        adam.v[3] = 0.25;
        adam.steps = 17;
        let e = EpochLoss { epoch: 1, lr: 1e-3, train: 0.1, validation: 0.2, seconds: 3.0, speed: 9.0 };
        let best = Some(Best { epoch: 1, model: Model::random(model.shape, 4) });
        let mut c = Checkpoint { model, adam, history: vec![e, EpochLoss { epoch: 2, ..e }], best };
        let bytes = c.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes), Ok(c.clone()));
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Checkpoint::from_bytes(b"SHOMEINN").is_err());
        c.best = None;
        let bytes = c.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes), Ok(c.clone()));
        // Version 1: no best epoch.
        let mut v1 = bytes.clone();
        v1[8..12].copy_from_slice(&1u32.to_le_bytes());
        let at = 8 + 4 * 4 + 8 + 4 + 2 * (4 + 5 * 8);
        v1.drain(at..at + 4);
        assert_eq!(Checkpoint::from_bytes(&v1), Ok(c));
    }

    #[test]
    fn the_best_epoch_is_the_lowest_validation_loss() {
        let e = |epoch, validation| EpochLoss {
            epoch,
            lr: 1e-3,
            train: 0.1,
            validation,
            seconds: 1.0,
            speed: 1.0,
        };
        // Epoch 0 (the first weights) is never the best, even at the lowest loss.
        let history = [e(0, 0.01), e(1, 0.05), e(2, 0.03), e(3, 0.04), e(4, 0.03), e(5, 0.06)];
        assert_eq!(best_epoch(&history, true), Some(2));
        assert_eq!(best_epoch(&history[..2], true), Some(1));
        assert_eq!(best_epoch(&history[..1], true), None);
        assert_eq!(best_epoch(&[e(1, 0.05), e(2, f64::NAN), e(3, 0.01)], true), Some(3));
        // Without validation positions, the last.
        assert_eq!(best_epoch(&history, false), Some(5));
        assert_eq!(best_epoch(&history[..1], false), None);
    }
}
