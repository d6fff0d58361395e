//! From the float model to the file's integers and back.
//!
//! The file's inference (`shomei::eval::nnue::halfkp`, as YaneuraOu computes) holds 1.0 of the
//! float domain as 127 between layers: accumulators are `i16` clipped to `0..=127`; a hidden
//! layer's `i8` weights are in units of 1/64 and its `i32` biases in units of 1/(127 * 64), its
//! sums shifted right by 6 and clipped to `0..=127`; the output's `i8` weights are in units of
//! 127 / (`OUT_SCALE` * `FV_SCALE`) and its bias in units of 1 / (`OUT_SCALE` * `FV_SCALE`), so
//! that the output divided by `FV_SCALE` (16, the default) is the evaluation in centipawns.
//! Factor rows are added into every king square's rows before rounding.

use super::grid::{ft_on_grid, to_i16, to_i32, to_i8, FT_SCALE, HIDDEN_SCALE};
use super::model::{HalfKpModel, Layout, OUT_SCALE};
use shomei::eval::nnue::halfkp::features::{INPUTS, PIECE_FEATURES};
use shomei::eval::nnue::halfkp::{AnyHalfKp, PlainWeights, DEFAULT_FV_SCALE};

/// Output units per 1.0 of `out`.
const OUTPUT_UNITS: f32 = OUT_SCALE * DEFAULT_FV_SCALE as f32;

impl HalfKpModel {
    /// The parameters from `Layout::ft_bias` on as the file holds them, in floats: what
    /// `snapped` gives there, without going through the feature rows.
    pub fn dense_on_grid(&self) -> Vec<f32> {
        let l = self.layout();
        let p = &self.params;
        let mut out = Vec::with_capacity(l.len() - l.ft_bias());
        out.extend(p[l.ft_bias()..l.w1()].iter().map(|&w| ft_on_grid(w)));
        let hidden = |out: &mut Vec<f32>, w: std::ops::Range<usize>, b: std::ops::Range<usize>| {
            out.extend(p[w].iter().map(|&w| to_i8(w * HIDDEN_SCALE) as f32 / HIDDEN_SCALE));
            let unit = FT_SCALE * HIDDEN_SCALE;
            out.extend(p[b].iter().map(|&b| to_i32(b * unit) as f32 / unit));
        };
        hidden(&mut out, l.w1()..l.b1(), l.b1()..l.w2());
        hidden(&mut out, l.w2()..l.b2(), l.b2()..l.w3());
        out.extend(
            p[l.w3()..l.b3()]
                .iter()
                .map(|&w| to_i8(w * (OUTPUT_UNITS / FT_SCALE)) as f32 * FT_SCALE / OUTPUT_UNITS),
        );
        out.push(to_i32(p[l.b3()] * OUTPUT_UNITS) as f32 / OUTPUT_UNITS);
        out
    }

    /// The file's integers: factors merged, every weight rounded to its unit.
    pub fn quantise(&self) -> PlainWeights {
        let l = self.layout();
        let p = &self.params;
        let mut q = PlainWeights::zeroed(self.arch);
        for f in 0..INPUTS {
            let (row, factor) = (self.row(f), self.row(INPUTS + f % PIECE_FEATURES));
            for (j, out) in q.ft_weights[f * l.ft..(f + 1) * l.ft].iter_mut().enumerate() {
                *out = to_i16((row[j] + factor[j]) * FT_SCALE);
            }
        }
        let scaled = |range: std::ops::Range<usize>, unit: f32| p[range].iter().map(move |&w| w * unit);
        q.ft_bias = scaled(l.ft_bias()..l.w1(), FT_SCALE).map(to_i16).collect();
        q.hidden1_weights = scaled(l.w1()..l.b1(), HIDDEN_SCALE).map(to_i8).collect();
        q.hidden1_bias = scaled(l.b1()..l.w2(), FT_SCALE * HIDDEN_SCALE).map(to_i32).collect();
        q.hidden2_weights = scaled(l.w2()..l.b2(), HIDDEN_SCALE).map(to_i8).collect();
        q.hidden2_bias = scaled(l.b2()..l.w3(), FT_SCALE * HIDDEN_SCALE).map(to_i32).collect();
        q.out_weights = scaled(l.w3()..l.b3(), OUTPUT_UNITS / FT_SCALE).map(to_i8).collect();
        q.out_bias = to_i32(p[l.b3()] * OUTPUT_UNITS);
        q
    }

    /// The network file's net.
    pub fn to_network(&self) -> AnyHalfKp {
        self.quantise().to_network().expect("quantise fills every array to its size")
    }

    /// The float model of a file's integers (factor rows at zero): `quantise` gives them back.
    pub fn from_plain(q: &PlainWeights) -> HalfKpModel {
        let mut m = HalfKpModel::zeroed(q.arch);
        let l: Layout = m.layout();
        let p = &mut m.params;
        let mut put = |start: usize, values: &mut dyn Iterator<Item = f32>| {
            for (w, v) in p[start..].iter_mut().zip(values) {
                *w = v;
            }
        };
        put(0, &mut q.ft_weights.iter().map(|&w| w as f32 / FT_SCALE));
        put(l.ft_bias(), &mut q.ft_bias.iter().map(|&w| w as f32 / FT_SCALE));
        put(l.w1(), &mut q.hidden1_weights.iter().map(|&w| w as f32 / HIDDEN_SCALE));
        put(l.b1(), &mut q.hidden1_bias.iter().map(|&b| b as f32 / (FT_SCALE * HIDDEN_SCALE)));
        put(l.w2(), &mut q.hidden2_weights.iter().map(|&w| w as f32 / HIDDEN_SCALE));
        put(l.b2(), &mut q.hidden2_bias.iter().map(|&b| b as f32 / (FT_SCALE * HIDDEN_SCALE)));
        put(l.w3(), &mut q.out_weights.iter().map(|&w| w as f32 * FT_SCALE / OUTPUT_UNITS));
        put(l.b3(), &mut std::iter::once(q.out_bias as f32 / OUTPUT_UNITS));
        m
    }

    /// The model on the integers' grid: what the file holds, in floats (factors merged).
    pub fn snapped(&self) -> HalfKpModel {
        HalfKpModel::from_plain(&self.quantise())
    }
}
