//! The static evaluation: symmetry over positions from seeded random play, material signs and
//! ordering, hand and promotion values, king safety, kingless problems and bounds.

mod common {
    pub mod random_play;
    pub mod twins;
}

use common::random_play::{pos, random_play};
use common::twins::{colour_swapped, file_mirrored};
use shomei::eval::{breakdown, evaluate, hand_value, params, piece_value, Value};
use shomei::rng::Rng;
use shomei::{Color, PieceKind, Position};

/// Composed problems without the attacker's king (and one with both), to cover the king-less paths.
const PROBLEMS: [&str; 3] = [
    "7nl/6k2/6pp1/8p/9/9/9/9/9 b GS2rb3g3s3n3l15p 1",
    "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
];

fn symmetry_positions() -> Vec<Position> {
    let mut v = random_play("startpos", 0x5eed_0001, 40, 120);
    for (i, p) in PROBLEMS.iter().enumerate() {
        v.push(pos(p));
        v.extend(random_play(p, 0x5eed_0100 + i as u64, 10, 30));
    }
    v
}

#[test]
fn colour_swapped_rotation_scores_the_same() {
    let positions = symmetry_positions();
    assert!(positions.len() >= 3000, "only {} positions", positions.len());
    for p in &positions {
        let sfen = p.to_sfen();
        let twin = pos(&colour_swapped(&sfen));
        assert_eq!(evaluate(p), evaluate(&twin), "{sfen}");
        let (a, b) = (breakdown(p), breakdown(&twin));
        assert_eq!(
            (a.material, a.placement, a.king_safety),
            (-b.material, -b.placement, -b.king_safety),
            "{sfen}"
        );
    }
}

#[test]
fn left_right_mirror_scores_the_same() {
    for p in &symmetry_positions() {
        let sfen = p.to_sfen();
        let twin = pos(&file_mirrored(&sfen));
        assert_eq!(breakdown(p), breakdown(&twin), "{sfen}");
    }
}

#[test]
fn breakdown_adds_up_to_evaluate() {
    for p in random_play("startpos", 7, 10, 100) {
        let b = breakdown(&p);
        let black = b.material + b.placement + b.king_safety;
        let v = if p.side_to_move() == Color::Black { black } else { -black };
        assert_eq!(b.total, (v + b.tempo).clamp(-params::EVAL_LIMIT, params::EVAL_LIMIT));
        assert_eq!(b.total, evaluate(&p));
        assert_eq!(b.king_safety, b.king_penalty[1] - b.king_penalty[0]);
        assert!(b.king_penalty.iter().all(|&x| x >= 0));
    }
}

#[test]
fn start_position_is_balanced() {
    let black = evaluate(&pos("startpos"));
    let white = evaluate(&pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"));
    assert_eq!(black, white);
    assert_eq!(black, params::TEMPO);
    assert!(black.abs() <= 30);
}

const START_WITHOUT: [(&str, &str); 7] = [
    ("rook", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL"),
    ("bishop", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL"),
    ("gold", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGK1SNL"),
    ("silver", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKG1NL"),
    ("knight", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGS1L"),
    ("lance", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN1"),
    ("pawn", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL"),
];

#[test]
fn missing_material_shows_in_the_sign_and_in_order() {
    let mut previous = Value::MIN;
    for (name, board) in START_WITHOUT {
        let for_black = evaluate(&pos(&format!("{board} b - 1")));
        let for_white = evaluate(&pos(&format!("{board} w - 1")));
        assert!(for_black < 0 && for_white > 0, "without a {name}: {for_black} / {for_white}");
        // Losing a bigger piece hurts more (the list runs from the biggest down).
        assert!(for_black > previous, "without a {name}: {for_black}, bigger piece {previous}");
        previous = for_black;
    }
    let no_rook = evaluate(&pos(&format!("{} b - 1", START_WITHOUT[0].1)));
    assert!(no_rook < -800, "a rook down: {no_rook}");
}

#[test]
fn material_changes_by_the_published_values() {
    // A capture gains the captured piece's board value and its hand value; a promotion gains the
    // difference of the board values; a drop trades the hand value for the board value.
    let mut rng = Rng::new(99);
    for _ in 0..20 {
        let mut p = pos("startpos");
        for _ in 0..150 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            let sign = if p.side_to_move() == Color::Black { 1 } else { -1 };
            let before = breakdown(&p).material * sign;
            let mut expected = 0;
            if m.is_drop() {
                let k = m.dropped_kind();
                expected += piece_value(k) - hand_value(k);
            } else {
                let moved = p.piece_on(m.from()).kind();
                let captured = p.piece_on(m.to());
                if captured.is_some() {
                    expected += piece_value(captured.kind()) + hand_value(captured.kind());
                }
                if m.is_promotion() {
                    expected += piece_value(moved.promoted()) - piece_value(moved);
                }
            }
            p.do_move(m);
            assert_eq!(breakdown(&p).material * sign - before, expected, "{m} before {}", p.to_sfen());
        }
    }
}

#[test]
fn a_piece_in_hand_is_worth_at_least_as_much_as_on_the_board() {
    // The same piece on a square far from both kings, or in the owner's hand.
    for (letter, kind) in [
        ('P', PieceKind::Pawn),
        ('L', PieceKind::Lance),
        ('N', PieceKind::Knight),
        ('S', PieceKind::Silver),
        ('G', PieceKind::Gold),
        ('B', PieceKind::Bishop),
        ('R', PieceKind::Rook),
    ] {
        assert!(hand_value(kind) >= piece_value(kind), "{kind:?}");
        let on_board = evaluate(&pos(&format!("4k4/9/9/{letter}8/9/9/9/9/4K4 b - 1")));
        let in_hand = evaluate(&pos(&format!("4k4/9/9/9/9/9/9/9/4K4 b {letter} 1")));
        assert!(in_hand >= on_board, "{kind:?}: hand {in_hand} < board {on_board}");
        // And the same seen from White's side.
        let lower = letter.to_ascii_lowercase();
        let on_board = evaluate(&pos(&format!("4k4/9/9/9/9/8{lower}/9/9/4K4 w - 1")));
        let in_hand = evaluate(&pos(&format!("4k4/9/9/9/9/9/9/9/4K4 w {lower} 1")));
        assert!(in_hand >= on_board, "white {kind:?}: hand {in_hand} < board {on_board}");
    }
}

/// Promotion gains for pawn, lance, knight and the majors. Not asserted for the silver: it
/// trades its backward diagonals for a gold's steps, and the Texel fit on self-play data (see
/// `eval/params.rs`) values a promoted silver slightly below a silver.
#[test]
fn promoted_pieces_are_worth_more() {
    for (plain, promoted) in [("P", "+P"), ("L", "+L"), ("N", "+N"), ("B", "+B"), ("R", "+R")] {
        let a = evaluate(&pos(&format!("4k4/9/9/{plain}8/9/9/9/9/4K4 b - 1")));
        let b = evaluate(&pos(&format!("4k4/9/9/{promoted}8/9/9/9/9/4K4 b - 1")));
        assert!(b > a, "{promoted} {b} <= {plain} {a}");
    }
}

#[test]
fn a_castled_king_is_safer_than_a_surrounded_one() {
    // The same pieces; Black's king sits in a castle, or stands in the open among White's pieces
    // while its own generals are far away.
    let castled = pos("4k4/3s1g1r1/4+ps3/9/9/2P6/PPSP5/1KG4R1/3G5 b - 1");
    let surrounded = pos("4k4/7r1/4+p4/3s5/4K4/2P1sg3/PP1P5/7R1/GS6G b - 1");
    let (a, b) = (breakdown(&castled), breakdown(&surrounded));
    assert_eq!(a.material, b.material);
    assert!(b.king_penalty[0] > a.king_penalty[0] + 100, "{a:?} / {b:?}");
    assert!(evaluate(&castled) > evaluate(&surrounded) + 200, "{a:?} / {b:?}");
}

#[test]
fn drops_in_the_enemy_hand_raise_the_danger() {
    // An exposed black king: the more White holds in hand, the larger the penalty.
    let board = "4k4/9/9/9/4K4/9/9/9/9";
    let mut last = -1;
    for hand in ["-", "p", "gp", "gsp", "rgsp", "rbgsp"] {
        let b = breakdown(&pos(&format!("{board} b {hand} 1")));
        assert!(b.king_penalty[0] > last, "{hand}: {b:?}");
        last = b.king_penalty[0];
    }
    assert!(last > 50, "{last}");
}

#[test]
fn evaluation_stays_far_below_mate_scores() {
    for p in random_play("startpos", 3, 20, 200) {
        assert!(evaluate(&p).abs() <= params::EVAL_LIMIT);
    }
    // A composed board full of dragons is clamped.
    let p = pos("k8/9/+R+R+R+R+R+R+R+R+R/+R+R+R+R+R+R+R+R+R/9/9/9/9/K8 w - 1");
    assert_eq!(evaluate(&p), -params::EVAL_LIMIT);
    const { assert!(params::EVAL_LIMIT < 30_000) };
}
