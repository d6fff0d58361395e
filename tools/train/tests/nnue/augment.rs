//! Positions derived by `data::augment` (`--augment`): the same seed gives the same features
//! and targets with one thread or two, another seed others; every derived position is one
//! reachable from its source by 1 to `max_plies` legal moves, not in check and not ended, and
//! its target is sigmoid(hand evaluation / K) of that position, or of a teacher network's
//! evaluation, recomputed here by walking every such move sequence; the real positions stay as
//! they were, first; the limit cuts the same sequence short.

use crate::common::random_positions;
use shomei::eval::nnue::{evaluate_from_scratch, random_network};
use shomei::training_data::record::PackedSfenValue;
use shomei::Position;
use shomei_train::logistic::sigmoid;
use shomei_train::nnue::data::{augment, features_of, Augment, Augmented, Positions};
use std::collections::HashMap;

const K: f64 = 600.0;
const OPTIONS: Augment = Augment { copies: 3, max_plies: 2, limit: None, weight: 1.0 };

/// Positions of random games as training positions, with their records.
fn sources() -> (Positions, Vec<PackedSfenValue>) {
    let (mut data, mut records) = (Positions::new(), Vec::new());
    for (i, p) in random_positions(71, 3, 30).iter().enumerate() {
        let Some(&m) = p.legal_moves().as_slice().first() else { continue };
        records.push(PackedSfenValue::new(p, i as i16, m, 0).unwrap());
        data.push_position(p, i as f32, 0.0);
    }
    (data, records)
}

/// The features as `augment` stores them.
type Key = (Vec<u16>, Vec<u16>);

fn key(pos: &Position) -> Key {
    let (us, them) = features_of(pos);
    (us.iter().map(|&f| f as u16).collect(), them.iter().map(|&f| f as u16).collect())
}

/// Every position 1 to `plies` legal moves from `pos` that is not in check and has a legal
/// move, by its features, with `eval` of each position of those features.
fn reachable(
    pos: &Position,
    plies: usize,
    eval: &dyn Fn(&Position) -> i32,
    out: &mut HashMap<Key, Vec<i32>>,
) {
    if plies == 0 {
        return;
    }
    for &m in pos.legal_moves().as_slice() {
        let mut next = pos.clone();
        next.do_move(m);
        if !next.in_check() && !next.legal_moves().is_empty() {
            out.entry(key(&next)).or_default().push(eval(&next));
        }
        reachable(&next, plies - 1, eval, out);
    }
}

#[test]
fn derived_positions_are_reproducible_and_labelled_by_the_hand_evaluation() {
    let (real, records) = sources();
    let n = real.len();
    let run = |threads: usize, seed: u64, options: &Augment| -> (Positions, Augmented) {
        let mut data = real.clone();
        let a = augment(&mut data, &records, options, None, seed, threads);
        (data, a)
    };
    let (one, a) = run(1, 9, &OPTIONS);
    let (two, b) = run(2, 9, &OPTIONS);
    assert!(one == two && a.sources == b.sources && a.skipped == b.skipped, "the threads changed the result");
    let targets = one.augmented_targets(a.real, K, 0.75);
    assert_eq!(targets, two.augmented_targets(b.real, K, 0.75));
    eprintln!("{n} sources: {} derived, {} dropped, in {:.2} s", a.derived(), a.skipped, a.seconds);
    assert_eq!((a.real, one.len(), a.capped), (n, n + a.derived(), 0));
    assert_eq!(a.derived() as u64 + a.skipped, 3 * n as u64);
    assert!(a.derived() > 2 * n, "{} derived from {n}", a.derived());
    // The real positions first, as they were, with their targets.
    for i in 0..n {
        assert_eq!((one.get(i).us, one.get(i).them), (real.get(i).us, real.get(i).them));
    }
    assert_eq!(targets[..n], real.targets(K, 0.75)[..]);
    // Sources in order, each at most 3 times.
    assert!(a.sources.windows(2).all(|w| w[0] <= w[1]) && a.sources.windows(4).all(|w| w[0] < w[3]));
    assert!(run(1, 10, &OPTIONS).0 != one, "another seed, the same positions");

    check_labels(&one, &a, &records, &targets, &|p: &Position| shomei::eval::evaluate(p));

    // A limit: the same positions, cut short.
    let limited = Augment { limit: Some(50), ..OPTIONS };
    let (cut, c) = run(2, 9, &limited);
    assert_eq!((c.derived(), c.capped > 0), (50, true));
    assert!((0..n + 50).all(|i| cut.get(i).us == one.get(i).us && cut.get(i).them == one.get(i).them));
    assert_eq!(c.sources[..], a.sources[..50]);
}

/// Each derived position of the first sources is reachable from its source, and its score and
/// target are `eval` of such a position.
fn check_labels(
    data: &Positions,
    a: &Augmented,
    records: &[PackedSfenValue],
    targets: &[f32],
    eval: &dyn Fn(&Position) -> i32,
) {
    let n = a.real;
    let (mut checked, mut varied) = (0, 0);
    for source in 0..12u32 {
        let pos = records[source as usize].position().unwrap();
        let mut found = HashMap::new();
        reachable(&pos, OPTIONS.max_plies, eval, &mut found);
        let mut distinct = std::collections::HashSet::new();
        for j in (0..a.derived()).filter(|&j| a.sources[j] == source) {
            let s = data.get(n + j);
            let k = (s.us.to_vec(), s.them.to_vec());
            let evals =
                found.get(&k).unwrap_or_else(|| panic!("derived {j} is not 1 or 2 moves from {source}"));
            let (score, target) = (data.scores[n + j], targets[n + j]);
            assert!(
                evals.iter().any(|&e| e as f32 == score && sigmoid(e as f64 / K) as f32 == target),
                "derived {j}: score {score}, target {target}; evaluations there {evals:?}"
            );
            distinct.insert(k);
            checked += 1;
        }
        varied += usize::from(distinct.len() > 1);
    }
    assert!(checked > 24 && varied > 6, "{checked} checked, {varied} sources with distinct copies");
}

#[test]
fn a_teacher_network_labels_the_derived_positions() {
    let (real, records) = sources();
    let teacher = random_network(5);
    let (mut hand, mut taught) = (real.clone(), real.clone());
    let h = augment(&mut hand, &records, &OPTIONS, None, 9, 2);
    let t = augment(&mut taught, &records, &OPTIONS, Some(&teacher), 9, 2);
    assert_eq!(h.sources, t.sources, "the teacher changed which positions were derived");
    assert!(hand.scores != taught.scores, "the teacher's scores are the hand evaluation's");
    let targets = taught.augmented_targets(t.real, K, 0.75);
    check_labels(&taught, &t, &records, &targets, &|p: &Position| evaluate_from_scratch(&teacher, p));
}
