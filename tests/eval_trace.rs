//! The evaluation trace (`eval::trace`): on positions from seeded random play (from the start,
//! from middlegames with hands, from composed problems without a king, both sides to move), the
//! traced sum under the weights of `params.rs` is the evaluation, and what it sets aside as
//! integer rounding stays within its bounds.

mod common {
    pub mod random_play;
}

use common::random_play::{pos, random_play};
use shomei::eval::trace::{current, term_values, terms, trace};
use shomei::eval::{evaluate, params};
use shomei::Position;

const MIDDLEGAMES: [&str; 3] = [
    "ln1g3nl/1r1sgk3/p1ppppsp1/1p4p1p/9/2P1P1P2/PPSP1P1PP/1B1G1S1R1/LN2KG1NL w b 22",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "4k4/3s1g1r1/4+ps3/9/9/2P6/PPSP5/1KG4R1/3G5 b - 1",
];

/// Composed problems, two without the attacker's king.
const PROBLEMS: [&str; 3] = [
    "7nl/6k2/6pp1/8p/9/9/9/9/9 b GS2rb3g3s3n3l15p 1",
    "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
];

fn positions() -> Vec<Position> {
    let mut v = random_play("startpos", 0x7ace_0001, 30, 160);
    for (i, sfen) in MIDDLEGAMES.iter().chain(&PROBLEMS).enumerate() {
        v.push(pos(sfen));
        v.extend(random_play(sfen, 0x7ace_0100 + i as u64, 8, 60));
    }
    v
}

#[test]
fn the_traced_sum_is_the_evaluation() {
    let w = current();
    let values = term_values(&terms(), &w);
    let positions = positions();
    assert!(positions.len() > 5000, "{}", positions.len());
    let mut sides = [0; 2];
    for p in &positions {
        let t = trace(p);
        let traced = t.value(&w, &values);
        let clamped = traced.clamp(-params::EVAL_LIMIT as f64, params::EVAL_LIMIT as f64);
        let e = evaluate(p) as f64;
        // The sum is exact but for the order of floating-point additions.
        assert!((clamped - e).abs() < 1e-6, "{}: traced {traced}, evaluate {e}", p.to_sfen());
        sides[p.side_to_move().index()] += 1;
    }
    assert!(sides[0] > 1000 && sides[1] > 1000, "{sides:?}");
}

#[test]
fn a_clamped_evaluation_is_traced_beyond_the_clamp() {
    let p = pos("k8/9/+R+R+R+R+R+R+R+R+R/+R+R+R+R+R+R+R+R+R/9/9/9/9/K8 w - 1");
    let w = current();
    let traced = trace(&p).value(&w, &term_values(&terms(), &w));
    assert!(traced < -(params::EVAL_LIMIT as f64));
    assert_eq!(evaluate(&p), -params::EVAL_LIMIT);
}

#[test]
fn rounding_is_what_integer_division_loses() {
    for p in positions().iter().step_by(7) {
        let t = trace(p);
        // Each rounded table entry loses less than 1.5 (a percentage of a percentage rounds
        // twice) and each king penalty less than 1.
        let pieces = p.occupied().count() as f64;
        assert!(t.rounding.abs() < 1.5 * pieces + 2.0, "{}: {}", p.to_sfen(), t.rounding);
        for k in &t.kings {
            // Two divisions, each rounding toward zero a non-negative number.
            assert!(k.offset > -2.0 && k.offset <= 0.0, "{}: {}", p.to_sfen(), k.offset);
        }
    }
}
