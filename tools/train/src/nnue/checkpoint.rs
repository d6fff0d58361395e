//! The trainer's own checkpoint file: the float model, Adam's state and the loss history, so a
//! long run can be stopped and resumed exactly where it was.

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
const VERSION: u32 = 1;

impl Checkpoint {
    /// The file's bytes (little-endian): `SHOMEICK`, `u32` version, `u32` inputs, factors,
    /// hidden, `u64` Adam steps, `u32` history length and per epoch `u32` epoch and five `f64`
    /// (lr, train, validation, seconds, speed), then the parameters, Adam's first and second
    /// moments as `f32`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let s = self.model.shape;
        let mut out = Vec::with_capacity(64 + 12 * s.len());
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
        for w in self.model.params.iter().chain(&self.adam.m).chain(&self.adam.v) {
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
        if version != VERSION {
            return Err(format!("checkpoint version {version}, this build reads {VERSION}"));
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
        let mut floats = |n: usize| -> Result<Vec<f32>, String> {
            let b = take(4 * n)?;
            Ok(b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))).collect())
        };
        let n = shape.len();
        let (params, m, v) = (floats(n)?, floats(n)?, floats(n)?);
        if at != bytes.len() {
            return Err("the checkpoint has bytes after its end".into());
        }
        Ok(Checkpoint { model: Model { shape, params }, adam: AdamF32 { m, v, steps }, history })
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
        let c = Checkpoint { model, adam, history: vec![e, EpochLoss { epoch: 2, ..e }] };
        let bytes = c.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes), Ok(c));
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Checkpoint::from_bytes(b"SHOMEINN").is_err());
    }
}
