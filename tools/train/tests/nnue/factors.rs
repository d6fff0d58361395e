//! Factor weights are bucket-independent: a model whose only feature weights are its factors
//! gives the same output for the same pieces whichever king buckets the perspectives are in,
//! in floats and, once exported, in the engine's integers; and export adds a factor row into
//! every bucket's copy of its feature.

use crate::common::{integer_eval, random_model, random_positions};
use shomei::eval::nnue::features::{BUCKETS, PER_BUCKET};
use shomei_train::nnue::data::{features_of, Sample};
use shomei_train::nnue::model::Shape;

#[test]
fn factor_weights_act_alike_in_every_bucket() {
    let s = Shape::PRODUCTION;
    let mut model = random_model(s, 51, 0.15, 0.3, 1.0, 0.05);
    // Only the factor rows keep their weights.
    model.params[..s.inputs * s.hidden].iter_mut().for_each(|w| *w = 0.0);
    let net = model.to_network("factors only").unwrap();
    for f in [0, 1, 700, PER_BUCKET - 1] {
        for b in 1..BUCKETS {
            assert_eq!(net.feature(b * PER_BUCKET + f), net.feature(f), "feature {f}, bucket {b}");
        }
    }
    let mut outputs = Vec::new();
    for pos in random_positions(52, 3, 50).iter().step_by(10) {
        let (us, them) = features_of(pos);
        // The same pieces (features within a bucket), moved into each pair of buckets.
        let within = |f: &[usize]| f.iter().map(|&x| x % PER_BUCKET).collect::<Vec<_>>();
        let (us, them) = (within(&us), within(&them));
        let mut seen = Vec::new();
        for (b_us, b_them) in [(0, 0), (1, 4), (5, 2), (3, 3)] {
            let shift = |f: &[usize], b: usize| f.iter().map(|&x| x + b * PER_BUCKET).collect::<Vec<_>>();
            let (u, t) = (shift(&us, b_us), shift(&them, b_them));
            let to_u16 = |f: &[usize]| f.iter().map(|&x| x as u16).collect::<Vec<_>>();
            let (u16s, t16s) = (to_u16(&u), to_u16(&t));
            let float = model.evaluate(Sample { us: &u16s, them: &t16s });
            seen.push((float, integer_eval(&net, &u, &t)));
        }
        assert!(seen.iter().all(|&x| x == seen[0]), "{seen:?}");
        outputs.push(seen[0].1);
    }
    // The outputs are not all alike, and not all zero.
    outputs.dedup();
    assert!(outputs.len() > 3, "{outputs:?}");
}

#[test]
fn export_adds_the_factor_into_every_bucket() {
    let s = Shape::PRODUCTION;
    let model = random_model(s, 53, 0.3, 0.3, 1.0, 0.0);
    let net = model.to_network("merged").unwrap();
    for f in [3, PER_BUCKET + 3, 5 * PER_BUCKET + 2000, 2 * PER_BUCKET - 1] {
        let factor = model.row(s.inputs + f % PER_BUCKET);
        let expected: Vec<i16> =
            model.row(f).iter().zip(factor).map(|(w, x)| ((w + x) * 255.0).round() as i16).collect();
        assert_eq!(net.feature(f), expected.as_slice(), "feature {f}");
    }
}
