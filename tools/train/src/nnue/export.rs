//! From the float model to the engine's network, and the trainer's own checkpoint files.
//!
//! Export merges the factor weights into every bucket's weights (`merged`), then rounds each
//! number to the nearest step of its quantisation: feature weights and biases times `QA`,
//! output weights times `QB`, the output bias times `QA * QB`. The clip ranges of `model` keep
//! the result within `Network::check_ranges`.

use super::model::{Model, Shape, FT_WEIGHT_CLIP};
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

    /// The engine's network as a float model of `Shape::PRODUCTION` to go on training from
    /// (`--init`): the inverse of `to_network`. Each feature's copies in the buckets are split
    /// into a factor row, the midpoint of their range (within the clip), and each bucket's
    /// difference from it, so exporting again gives the same network wherever the split fits
    /// the clip (a difference beyond it is clipped).
    pub fn from_network(net: &Network) -> Model {
        let s = Shape::PRODUCTION;
        let mut model = Model::zeroed(s);
        let (qa, qb) = (QA as f32, QB as f32);
        let h = s.hidden;
        for j in 0..s.factors {
            let copies: Vec<usize> = (j..s.inputs).step_by(s.factors).collect();
            for i in 0..h {
                let weight = |f: usize| net.feature(f)[i] as f32 / qa;
                let (lo, hi) = copies
                    .iter()
                    .map(|&f| weight(f))
                    .fold((f32::MAX, f32::MIN), |(lo, hi), w| (lo.min(w), hi.max(w)));
                let factor = ((lo + hi) / 2.0).clamp(-FT_WEIGHT_CLIP, FT_WEIGHT_CLIP);
                model.params[(s.inputs + j) * h + i] = factor;
                for &f in &copies {
                    model.params[f * h + i] = (weight(f) - factor).clamp(-FT_WEIGHT_CLIP, FT_WEIGHT_CLIP);
                }
            }
        }
        let bias = s.bias_offset();
        for (w, &b) in model.params[bias..bias + h].iter_mut().zip(&net.ft_bias) {
            *w = b as f32 / qa;
        }
        let out = s.out_offset();
        for (w, &v) in model.params[out..out + 2 * h].iter_mut().zip(&net.out_weights) {
            *w = v as f32 / qb;
        }
        model.params[s.out_bias_offset()] = net.out_bias as f32 / (qa * qb);
        model
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

    #[test]
    fn a_network_read_back_exports_to_the_same_network() {
        let mut model = Model::random(Shape::PRODUCTION, 9);
        // Some weights near the clip, so the split must use the factor rows' range too.
        let s = model.shape;
        for (n, w) in model.params[..s.bias_offset()].iter_mut().enumerate().step_by(997) {
            *w = if n % 2 == 0 { 0.97 } else { -0.95 };
        }
        let out_bias = s.out_bias_offset();
        model.params[out_bias] = 0.37;
        let net = model.to_network("original").unwrap();
        let read_back = Model::from_network(&net);
        assert_eq!(read_back.shape, Shape::PRODUCTION);
        assert!(read_back.params.iter().all(|w| w.is_finite()));
        let again = read_back.to_network("original").unwrap();
        assert!(net.ft_weights == again.ft_weights, "feature weights differ");
        assert_eq!(net.ft_bias, again.ft_bias);
        assert_eq!(net.out_weights, again.out_weights);
        assert_eq!(net.out_bias, again.out_bias);
    }
}
