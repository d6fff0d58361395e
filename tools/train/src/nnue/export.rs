//! From the float model to the engine's network, and the trainer's own checkpoint files.
//!
//! Export merges the factor weights into every bucket's weights (`merged`), then rounds each
//! number to the nearest step of its quantisation: feature weights and biases times `QA`,
//! output weights times `QB`, the output bias times `QA * QB`. The clip ranges of `model` keep
//! the result within `Network::check_ranges`.

use super::model::{Model, Shape};
use shomei::eval::nnue::network::{QA, QB};
use shomei::eval::nnue::Network;

impl Model {
    /// The same function without factors: each real feature row plus its factor row.
    pub fn merged(&self) -> Model {
        let s = self.shape;
        let plain = Shape { factors: 0, ..s };
        let mut out = Model::zeroed(plain);
        let h = s.hidden;
        for f in 0..s.inputs {
            let row = &mut out.params[f * h..(f + 1) * h];
            row.copy_from_slice(self.row(f));
            if let Some(r) = s.factor_row(f) {
                row.iter_mut().zip(self.row(r)).for_each(|(a, b)| *a += b);
            }
        }
        out.params[plain.bias_offset()..].copy_from_slice(&self.params[s.bias_offset()..]);
        out
    }

    /// The merged model with every number rounded to its quantisation grid (still floats):
    /// the function the engine's integer inference computes, up to its output's truncations.
    pub fn snapped(&self) -> Model {
        let mut out = self.merged();
        let s = out.shape;
        let snap = |w: &mut f32, q: f32| *w = (*w * q).round() / q;
        let (qa, qb) = (QA as f32, QB as f32);
        out.params[..s.out_offset()].iter_mut().for_each(|w| snap(w, qa));
        out.params[s.out_offset()..s.out_bias_offset()].iter_mut().for_each(|w| snap(w, qb));
        snap(&mut out.params[s.out_bias_offset()], qa * qb);
        out
    }

    /// The engine's network, with `description`; an error if the model is not of the engine's
    /// shape or its weights are outside the ranges the engine accepts.
    pub fn to_network(&self, description: &str) -> Result<Network, String> {
        if self.shape != Shape::PRODUCTION {
            return Err(format!(
                "a net of shape {:?} is not the engine's {:?}",
                self.shape,
                Shape::PRODUCTION
            ));
        }
        let m = self.merged();
        let s = m.shape;
        let quantise = |w: &f32, q: i32| {
            let x = (*w * q as f32).round();
            i16::try_from(x as i64).map_err(|_| format!("weight {w} out of range"))
        };
        let all = |range: std::ops::Range<usize>, q| -> Result<Vec<i16>, String> {
            m.params[range].iter().map(|w| quantise(w, q)).collect()
        };
        let net = Network {
            ft_weights: all(0..s.bias_offset(), QA)?,
            ft_bias: all(s.bias_offset()..s.out_offset(), QA)?,
            out_weights: all(s.out_offset()..s.out_bias_offset(), QB)?,
            out_bias: (m.out_bias() * (QA * QB) as f32).round() as i32,
            description: description.to_string(),
        };
        net.check_ranges().map_err(|e| e.to_string())?;
        Ok(net)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_adds_the_factor_row_into_every_bucket() {
        let model = Model::random(Shape { inputs: 6, factors: 2, hidden: 3 }, 4);
        let merged = model.merged();
        assert_eq!(merged.shape, Shape { inputs: 6, factors: 0, hidden: 3 });
        for f in 0..6 {
            for i in 0..3 {
                assert_eq!(merged.row(f)[i], model.row(f)[i] + model.row(6 + f % 2)[i]);
            }
        }
        assert_eq!(merged.params[merged.shape.bias_offset()..], model.params[model.shape.bias_offset()..]);
    }
}
