//! A HalfKP network's integers in plain row-major arrays, as the file orders them, without the
//! engine's layouts (aligned feature rows, group-major affine weights) or padding: what a
//! trainer quantises into and reads a published net back from.

use super::features::INPUTS;
use super::file::Arch;
use super::layers::{padded, Affine};
use super::{AnyHalfKp, FeatureWeights, HalfKpNet};
use std::sync::Arc;

/// The integers of a HalfKP network of architecture `arch` with sizes `(FT, H1, H2) =
/// arch.dims()`. Weight matrices are row-major, one row per output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlainWeights {
    /// The family member these sizes are.
    pub arch: Arch,
    /// `FT` accumulator biases.
    pub ft_bias: Vec<i16>,
    /// `INPUTS` rows of `FT`: feature `f`'s row starts at `f * FT`.
    pub ft_weights: Vec<i16>,
    /// `H1` biases of the first hidden layer.
    pub hidden1_bias: Vec<i32>,
    /// `H1` rows of `2 * FT` inputs (the side to move's accumulator, then the other side's).
    pub hidden1_weights: Vec<i8>,
    /// `H2` biases of the second hidden layer.
    pub hidden2_bias: Vec<i32>,
    /// `H2` rows of `H1` inputs.
    pub hidden2_weights: Vec<i8>,
    /// The output's bias.
    pub out_bias: i32,
    /// `H2` output weights.
    pub out_weights: Vec<i8>,
}

impl PlainWeights {
    /// All zeros, of `arch`'s sizes.
    pub fn zeroed(arch: Arch) -> PlainWeights {
        let (ft, h1, h2) = arch.dims();
        PlainWeights {
            arch,
            ft_bias: vec![0; ft],
            ft_weights: vec![0; INPUTS * ft],
            hidden1_bias: vec![0; h1],
            hidden1_weights: vec![0; h1 * 2 * ft],
            hidden2_bias: vec![0; h2],
            hidden2_weights: vec![0; h2 * h1],
            out_bias: 0,
            out_weights: vec![0; h2],
        }
    }

    /// An error naming the first array whose length is not `arch`'s.
    pub fn check_sizes(&self) -> Result<(), String> {
        let z = PlainWeights::zeroed_sizes(self.arch);
        let lens = [
            ("ft_bias", self.ft_bias.len(), z[0]),
            ("ft_weights", self.ft_weights.len(), z[1]),
            ("hidden1_bias", self.hidden1_bias.len(), z[2]),
            ("hidden1_weights", self.hidden1_weights.len(), z[3]),
            ("hidden2_bias", self.hidden2_bias.len(), z[4]),
            ("hidden2_weights", self.hidden2_weights.len(), z[5]),
            ("out_weights", self.out_weights.len(), z[6]),
        ];
        match lens.iter().find(|(_, got, want)| got != want) {
            Some((name, got, want)) => Err(format!("{name}: {got} values, {} has {want}", self.arch)),
            None => Ok(()),
        }
    }

    /// The length of each weight vector of `arch`, in the order `check_sizes` names them.
    fn zeroed_sizes(arch: Arch) -> [usize; 7] {
        let (ft, h1, h2) = arch.dims();
        [ft, INPUTS * ft, h1, h1 * 2 * ft, h2, h2 * h1, h2]
    }

    /// The network these integers make, ready to evaluate and write.
    pub fn to_network(&self) -> Result<AnyHalfKp, String> {
        self.check_sizes()?;
        Ok(match self.arch {
            Arch::K256x2_32_32 => AnyHalfKp::K256x2_32_32(Arc::new(HalfKpNet::from_plain(self))),
            Arch::K512x2_16_32 => AnyHalfKp::K512x2_16_32(Arc::new(HalfKpNet::from_plain(self))),
            Arch::K1024x2_8_32 => AnyHalfKp::K1024x2_8_32(Arc::new(HalfKpNet::from_plain(self))),
            Arch::K1024x2_8_64 => AnyHalfKp::K1024x2_8_64(Arc::new(HalfKpNet::from_plain(self))),
        })
    }
}

impl AnyHalfKp {
    /// The network's integers in plain arrays (the padding columns of the file left out).
    pub fn to_plain(&self) -> PlainWeights {
        match self {
            AnyHalfKp::K256x2_32_32(net) => net.to_plain(),
            AnyHalfKp::K512x2_16_32(net) => net.to_plain(),
            AnyHalfKp::K1024x2_8_32(net) => net.to_plain(),
            AnyHalfKp::K1024x2_8_64(net) => net.to_plain(),
        }
    }
}

impl<const FT: usize, const H1: usize, const H2: usize> HalfKpNet<FT, H1, H2> {
    /// The network of `plain`'s integers, whose sizes `check_sizes` has checked; padding
    /// columns are zero.
    fn from_plain(plain: &PlainWeights) -> HalfKpNet<FT, H1, H2> {
        let mut ft_weights = FeatureWeights::zeroed(INPUTS * FT);
        ft_weights.as_mut_slice().copy_from_slice(&plain.ft_weights);
        let bias1 = std::array::from_fn(|r| plain.hidden1_bias[r]);
        let hidden1 = Affine::from_fn(2 * FT, bias1, |r, c| plain.hidden1_weights[r * 2 * FT + c]);
        let bias2 = std::array::from_fn(|r| plain.hidden2_bias[r]);
        let hidden2 =
            Affine::from_fn(
                padded(H1),
                bias2,
                |r, c| if c < H1 { plain.hidden2_weights[r * H1 + c] } else { 0 },
            );
        let mut out_weights = plain.out_weights.clone();
        out_weights.resize(padded(H2), 0);
        HalfKpNet {
            ft_bias: Box::new(std::array::from_fn(|i| plain.ft_bias[i])),
            ft_weights,
            hidden1,
            hidden2,
            out_bias: plain.out_bias,
            out_weights,
            arch_string: Self::ARCH.string(),
            arch_text: Self::ARCH.string().into_bytes(),
        }
    }

    /// The network's integers in plain arrays.
    fn to_plain(&self) -> PlainWeights {
        let (h1, h2) = (&self.hidden1, &self.hidden2);
        PlainWeights {
            arch: Self::ARCH,
            ft_bias: self.ft_bias.to_vec(),
            ft_weights: self.ft_weights.as_slice().to_vec(),
            hidden1_bias: h1.bias.to_vec(),
            hidden1_weights: (0..H1).flat_map(|r| (0..2 * FT).map(move |c| h1.weight(r, c))).collect(),
            hidden2_bias: h2.bias.to_vec(),
            hidden2_weights: (0..H2).flat_map(|r| (0..H1).map(move |c| h2.weight(r, c))).collect(),
            out_bias: self.out_bias,
            out_weights: self.out_weights[..H2].to_vec(),
        }
    }
}

/// Tests of the plain weights' round trip and size checks.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_weights_round_trip_and_refuse_wrong_sizes() {
        // A random net's padding columns are not zero; once through plain arrays they are, and
        // from then on the round trip is the identity, to the byte.
        let net = AnyHalfKp::random(Arch::K512x2_16_32, 7);
        let plain = net.to_plain();
        let rebuilt = plain.to_network().unwrap();
        assert_eq!(rebuilt.to_plain(), plain);
        assert_eq!(rebuilt.to_plain().to_network().unwrap().to_bytes(), rebuilt.to_bytes());
        let pos = crate::Position::startpos();
        assert_eq!(rebuilt.evaluate(&pos, 16), net.evaluate(&pos, 16));
        let mut short = plain.clone();
        short.hidden2_weights.pop();
        assert!(short.to_network().unwrap_err().contains("hidden2_weights"));
    }
}
