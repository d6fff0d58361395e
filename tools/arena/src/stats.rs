//! Match statistics: Elo difference and its 95% interval, likelihood of superiority, pentanomial
//! counts over colour-swapped pairs, and the SPRT log-likelihood ratio.
//!
//! Model and choices:
//! - Elo is logistic: expected score s = 1 / (1 + 10^(-elo/400)), elo = -400 log10(1/s - 1).
//! - Intervals come from the standard error of the mean score: s +- 1.96 se, each end turned
//!   into Elo. Two are reported: trinomial (per game: W/D/L, every finished game) and
//!   pentanomial (per colour-swapped pair: 0, 1/4, 1/2, 3/4, 1, complete pairs only). The
//!   pentanomial one is the honest one when games come in pairs sharing an opening, since the two
//!   games of a pair are correlated through the opening.
//! - LOS uses the normal approximation over decisive games: LOS = Phi((W - L) / sqrt(W + L)).
//! - SPRT is the GSPRT normal approximation fishtest uses, on pentanomial counts:
//!   LLR = N (s1 - s0) (2 mu - s0 - s1) / (2 var), with mu and var the mean and variance of the
//!   pair score, s0 and s1 the logistic scores of elo0 and elo1. As in fishtest, counts of zero
//!   are replaced by 1e-3 so that a sample without spread still has a variance. Bounds are
//!   ln(beta / (1 - alpha)) and ln((1 - beta) / alpha). Since a variance estimated from very few
//!   pairs is unreliable, bounds are only acted on from [`SPRT_MIN_PAIRS`] pairs on.

use std::collections::{BTreeMap, HashMap};

/// The z value of a two-sided 95% interval.
pub const Z95: f64 = 1.959963984540054;
/// Pairs needed before the SPRT may stop a match.
pub const SPRT_MIN_PAIRS: u32 = 10;

/// Expected score of the side `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score; infinite at 0 and 1.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The error function, to about 1e-13: its Taylor series below 2.5, the continued fraction of
/// erfc above.
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x == 0.0 || x.is_nan() {
        return x;
    }
    if x < 2.5 {
        // erf x = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1))
        let mut term = x; // (-1)^n x^(2n+1) / n!
        let mut sum = x;
        let mut n = 0.0;
        loop {
            n += 1.0;
            term *= -x * x / n;
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() <= 1e-17 * sum.abs() || n > 200.0 {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc x = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))
        let mut k = x;
        for i in (1..=60).rev() {
            k = x + (i as f64 / 2.0) / k;
        }
        1.0 - (-x * x).exp() / (std::f64::consts::PI.sqrt() * k)
    }
}

/// The standard normal distribution function.
pub fn phi(z: f64) -> f64 {
    0.5 * (1.0 + erf(z / std::f64::consts::SQRT_2))
}

/// A mean score with its standard error, and the Elo it stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Number of observations: games (trinomial) or pairs (pentanomial).
    pub n: u32,
    pub score: f64,
    /// Standard error of `score`.
    pub se: f64,
    pub elo: f64,
    /// Ends of the 95% interval, in Elo.
    pub elo_low: f64,
    pub elo_high: f64,
}

impl Estimate {
    /// From observations `values[i]` seen `counts[i]` times.
    fn from_counts(values: &[f64], counts: &[u32]) -> Option<Estimate> {
        let n: u32 = counts.iter().sum();
        if n == 0 {
            return None;
        }
        let nf = n as f64;
        let mean = values.iter().zip(counts).map(|(v, &c)| v * c as f64).sum::<f64>() / nf;
        let var = values.iter().zip(counts).map(|(v, &c)| c as f64 * (v - mean).powi(2)).sum::<f64>() / nf;
        let se = (var / nf).sqrt();
        Some(Estimate {
            n,
            score: mean,
            se,
            elo: elo_from_score(mean),
            elo_low: elo_from_score(mean - Z95 * se),
            elo_high: elo_from_score(mean + Z95 * se),
        })
    }

    /// Half the width of the interval, for "elo +- x"; infinite if either end is.
    pub fn half_width(&self) -> f64 {
        (self.elo_high - self.elo_low) / 2.0
    }
}

/// Per-game (trinomial) estimate from wins, losses and draws.
pub fn trinomial(wins: u32, losses: u32, draws: u32) -> Option<Estimate> {
    Estimate::from_counts(&[1.0, 0.0, 0.5], &[wins, losses, draws])
}

/// Per-pair (pentanomial) estimate; `penta[i]` counts pairs in which the engine scored i/2
/// points out of 2.
pub fn pentanomial(penta: &[u32; 5]) -> Option<Estimate> {
    Estimate::from_counts(&[0.0, 0.25, 0.5, 0.75, 1.0], penta)
}

/// Likelihood of superiority: the probability that the engine is the stronger one, from the
/// decisive games (normal approximation).
pub fn los(wins: u32, losses: u32) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    phi((wins as f64 - losses as f64) / ((wins + losses) as f64).sqrt())
}

/// An SPRT: H0 elo = elo0 against H1 elo = elo1 (logistic Elo).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtConfig {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    Continue,
    /// LLR at or below the lower bound.
    AcceptH0,
    /// LLR at or above the upper bound.
    AcceptH1,
}

impl SprtConfig {
    /// (lower, upper) = (ln(beta / (1 - alpha)), ln((1 - beta) / alpha)).
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio for pentanomial counts (GSPRT normal approximation).
    pub fn llr(&self, penta: &[u32; 5]) -> f64 {
        if penta.iter().sum::<u32>() == 0 {
            return 0.0;
        }
        let counts: Vec<f64> = penta.iter().map(|&c| (c as f64).max(1e-3)).collect();
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let n: f64 = counts.iter().sum();
        let mean = values.iter().zip(&counts).map(|(v, c)| v * c).sum::<f64>() / n;
        let var = values.iter().zip(&counts).map(|(v, c)| c * (v - mean).powi(2)).sum::<f64>() / n;
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    pub fn verdict(&self, penta: &[u32; 5]) -> (f64, SprtVerdict) {
        let llr = self.llr(penta);
        let pairs: u32 = penta.iter().sum();
        let (lower, upper) = self.bounds();
        let v = if pairs < SPRT_MIN_PAIRS {
            SprtVerdict::Continue
        } else if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        };
        (llr, v)
    }
}

/// Running results of a match, seen from engine 1.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Engine 1's wins, losses, draws.
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// Engine 1's wins, losses, draws when it played Black.
    pub as_black: [u32; 3],
    /// Games won by Black, by White, drawn.
    pub by_color: [u32; 3],
    /// Complete pairs by engine 1's points in the pair: 0, 0.5, 1, 1.5, 2.
    pub penta: [u32; 5],
    /// First result of pairs still waiting for their second game: engine 1's score.
    open_pairs: HashMap<usize, f64>,
    /// How games ended, by reason code.
    pub reasons: BTreeMap<String, u32>,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Adds one game: engine 1 scored `score` (0, 0.5 or 1) in game pair `pair`.
    pub fn add(&mut self, pair: usize, score: f64, engine1_black: bool, reason: &str) {
        let k = if score >= 1.0 {
            self.wins += 1;
            0
        } else if score <= 0.0 {
            self.losses += 1;
            1
        } else {
            self.draws += 1;
            2
        };
        if engine1_black {
            self.as_black[k] += 1;
        }
        let black_won = (score >= 1.0 && engine1_black) || (score <= 0.0 && !engine1_black);
        let white_won = (score >= 1.0 && !engine1_black) || (score <= 0.0 && engine1_black);
        self.by_color[if black_won {
            0
        } else if white_won {
            1
        } else {
            2
        }] += 1;
        match self.open_pairs.remove(&pair) {
            Some(first) => self.penta[((first + score) * 2.0).round() as usize] += 1,
            None => {
                self.open_pairs.insert(pair, score);
            }
        }
        *self.reasons.entry(reason.to_string()).or_default() += 1;
    }

    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / n as f64
    }

    /// "W - L - D [score]".
    pub fn wld(&self) -> String {
        format!("{} - {} - {}  [{:.3}]", self.wins, self.losses, self.draws, self.score())
    }
}

/// Elo for display: one decimal with sign, or +inf / -inf.
pub fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{e:+.1}")
    }
}

/// "+34.9 +/- 48.5 (95%: -12.9 .. +84.0)".
pub fn fmt_estimate(e: &Estimate) -> String {
    let hw = e.half_width();
    let hw = if hw.is_finite() { format!("{hw:.1}") } else { "inf".into() };
    format!("{} +/- {} (95%: {} .. {})", fmt_elo(e.elo), hw, fmt_elo(e.elo_low), fmt_elo(e.elo_high))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_and_score_are_inverse() {
        // 75%: -400 log10(1/0.75 - 1) = -400 log10(1/3) = 400 * 0.4771213 = 190.8485.
        assert!(close(elo_from_score(0.75), 190.8485, 1e-3));
        // 100 Elo: 1 / (1 + 10^-0.25) = 1 / (1 + 0.5623413) = 0.6400650.
        assert!(close(score_from_elo(100.0), 0.6400650, 1e-6));
        // -200 Elo: 1 / (1 + 10^0.5) = 1 / 4.1622777 = 0.2402531.
        assert!(close(score_from_elo(-200.0), 0.2402531, 1e-6));
        assert_eq!(elo_from_score(0.5), 0.0);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn erf_matches_tables() {
        for (x, v) in [
            (0.1, 0.1124629160182849),
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (2.0, 0.9953222650189527),
            (3.0, 0.9999779095030014),
            (4.0, 0.9999999845827421),
        ] {
            assert!(close(erf(x), v, 1e-12), "erf({x}) = {} not {v}", erf(x));
            assert!(close(erf(-x), -v, 1e-12));
        }
    }

    #[test]
    fn trinomial_by_hand() {
        // W 30, L 20, D 50: s = (30 + 50/2) / 100 = 0.55.
        // var = (30 (1-0.55)^2 + 50 (0.5-0.55)^2 + 20 (0-0.55)^2) / 100
        //     = (30*0.2025 + 50*0.0025 + 20*0.3025) / 100 = (6.075 + 0.125 + 6.05) / 100 = 0.1225
        // se = sqrt(0.1225 / 100) = 0.035.
        // elo = -400 log10(1/0.55 - 1) = -400 log10(0.8181818) = 34.860.
        // 95%: s +- 1.96 * 0.035 = 0.55 +- 0.0686 = [0.4814, 0.6186]
        //   elo(0.4814) = -400 log10(1.07727) = -12.93, elo(0.6186) = -400 log10(0.61655) = +84.01.
        let e = trinomial(30, 20, 50).unwrap();
        assert_eq!(e.n, 100);
        assert!(close(e.score, 0.55, 1e-12));
        assert!(close(e.se, 0.035, 1e-12));
        assert!(close(e.elo, 34.860, 1e-3));
        assert!(close(e.elo_low, -12.93, 0.01), "{}", e.elo_low);
        assert!(close(e.elo_high, 84.01, 0.01), "{}", e.elo_high);
        assert_eq!(fmt_estimate(&e), "+34.9 +/- 48.5 (95%: -12.9 .. +84.0)");
        assert!(trinomial(0, 0, 0).is_none());
        // All wins: the score is 1, the Elo infinite, the interval degenerate.
        let e = trinomial(5, 0, 0).unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        assert_eq!(fmt_elo(e.elo), "+inf");
    }

    #[test]
    fn pentanomial_by_hand() {
        // Pairs scoring 0, 1/4, 1/2, 3/4, 1 (per game): 2, 10, 20, 12, 6; 50 pairs.
        // mu = (0*2 + 0.25*10 + 0.5*20 + 0.75*12 + 1*6) / 50 = (2.5 + 10 + 9 + 6) / 50 = 0.55
        // var = (2*0.3025 + 10*0.09 + 20*0.0025 + 12*0.04 + 6*0.2025) / 50
        //     = (0.605 + 0.9 + 0.05 + 0.48 + 1.215) / 50 = 3.25 / 50 = 0.065
        // se = sqrt(0.065 / 50) = sqrt(0.0013) = 0.0360555.
        // 95%: 0.55 +- 0.070669 = [0.479331, 0.620669] -> [-14.37, +85.54] Elo.
        let e = pentanomial(&[2, 10, 20, 12, 6]).unwrap();
        assert_eq!(e.n, 50);
        assert!(close(e.score, 0.55, 1e-12));
        assert!(close(e.se, 0.0013f64.sqrt(), 1e-12));
        assert!(close(e.elo_low, -14.37, 0.01), "{}", e.elo_low);
        assert!(close(e.elo_high, 85.54, 0.01), "{}", e.elo_high);
    }

    #[test]
    fn los_by_hand() {
        // W 30, L 20: z = (30 - 20) / sqrt(50) = 1.4142136; LOS = Phi(z) = (1 + erf(1)) / 2
        // = (1 + 0.8427008) / 2 = 0.9213504.
        assert!(close(los(30, 20), 0.9213504, 1e-6));
        assert_eq!(los(0, 0), 0.5);
        assert!(close(los(20, 30), 1.0 - 0.9213504, 1e-6));
        assert!(close(los(10, 10), 0.5, 1e-12));
    }

    #[test]
    fn sprt_by_hand() {
        let cfg = SprtConfig { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
        // Bounds: ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = +2.944439.
        let (lo, hi) = cfg.bounds();
        assert!(close(lo, -2.944439, 1e-6) && close(hi, 2.944439, 1e-6));
        // alpha 0.05, beta 0.1: ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = 2.890372.
        let (lo, hi) = SprtConfig { beta: 0.1, ..cfg }.bounds();
        assert!(close(lo, -2.251292, 1e-6) && close(hi, 2.890372, 1e-6));

        // Pentanomial [2, 10, 20, 12, 6] (see above): N = 50, mu = 0.55, var = 0.065.
        // s0 = 0.5; s1 = 1 / (1 + 10^(-5/400)) = 1 / (1 + 0.9716279) = 0.5071951.
        // LLR = 50 * (0.5071951 - 0.5) * (1.1 - 0.5 - 0.5071951) / (2 * 0.065)
        //     = 50 * 0.0071951 * 0.0928049 / 0.13 = 0.256823.
        let p = [2, 10, 20, 12, 6];
        assert!(close(cfg.llr(&p), 0.256823, 1e-5), "{}", cfg.llr(&p));
        assert_eq!(cfg.verdict(&p).1, SprtVerdict::Continue);
        // Forty times as many pairs in the same proportions: forty times the LLR, 10.2729 > 2.944.
        let p40 = p.map(|c| c * 40);
        assert!(close(cfg.llr(&p40), 10.27291, 1e-4));
        assert_eq!(cfg.verdict(&p40).1, SprtVerdict::AcceptH1);
        // The mirror image: mu = 0.45, same variance;
        // LLR = 50 * 0.0071951 * (0.9 - 1.0071951) / 0.13 = -0.296645, and x40 below -2.944.
        let mirror = [6, 12, 20, 10, 2];
        assert!(close(cfg.llr(&mirror), -0.296645, 1e-5));
        assert_eq!(cfg.verdict(&mirror.map(|c| c * 40)).1, SprtVerdict::AcceptH0);
    }

    #[test]
    fn sprt_without_spread_and_few_pairs() {
        let cfg = SprtConfig { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
        // Ten pairs all won: zero counts become 1e-3, so N = 10.004, mu = 0.99975, var = 1.8736e-4,
        // and LLR = 10.004 * 0.0071951 * 0.992305 / (2 * 1.8736e-4) = 190.6: far above the bound.
        let all = [0, 0, 0, 0, 10];
        assert!(close(cfg.llr(&all), 190.608, 0.01), "{}", cfg.llr(&all));
        assert_eq!(cfg.verdict(&all).1, SprtVerdict::AcceptH1);
        // The same with fewer than SPRT_MIN_PAIRS pairs does not stop the match.
        assert_eq!(cfg.verdict(&[0, 0, 0, 0, SPRT_MIN_PAIRS - 1]).1, SprtVerdict::Continue);
        assert_eq!(cfg.llr(&[0; 5]), 0.0);
    }

    #[test]
    fn tally_pairs_and_colours() {
        let mut t = Tally::default();
        // Pair 0: engine 1 wins as Black, draws as White -> 1.5 points -> penta[3].
        t.add(0, 1.0, true, "checkmate");
        t.add(0, 0.5, false, "sennichite");
        // Pair 1: loses as Black; the second game is still missing.
        t.add(1, 0.0, true, "resign");
        // Pair 2, second game first: wins as White, then loses as Black -> 1 point -> penta[2].
        t.add(2, 1.0, false, "time");
        t.add(2, 0.0, true, "checkmate");
        assert_eq!((t.wins, t.losses, t.draws), (2, 2, 1));
        assert_eq!(t.penta, [0, 0, 1, 1, 0]);
        assert_eq!(t.as_black, [1, 2, 0]);
        // Black won game 1 only; White won games 3, 4 and 5; game 2 drawn.
        assert_eq!(t.by_color, [1, 3, 1]);
        assert_eq!(t.reasons["checkmate"], 2);
        assert!(close(t.score(), 0.5, 1e-12));
        assert_eq!(t.wld(), "2 - 2 - 1  [0.500]");
    }
}
