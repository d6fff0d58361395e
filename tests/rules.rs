//! The rules of shogi, each shown on a small position named after the rule.

use shomei::shogi::{Declaration, EnteringKingRule, Sennichite};
use shomei::{Color, Move, Position};

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn legal(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(Move::to_string).collect()
}

fn has(p: &Position, m: &str) -> bool {
    legal(p).iter().any(|x| x == m)
}

#[test]
fn pawn_drop_mate_is_illegal() {
    // Published regression position: 85 legal moves, P*1b (mate) not among them.
    let p = pos("7lk/9/8S/9/9/9/9/7L1/8K b P 1");
    assert_eq!(p.legal_moves().len(), 85);
    assert!(!has(&p, "P*1b"));
    assert!(!p.is_legal(Move::parse_usi("P*1b").unwrap()));
    let p = pos("7lk/9/7G1/9/9/9/9/7L1/8K b P 1");
    assert!(!has(&p, "P*1b"));
    assert!(has(&p, "P*1d"));
}

#[test]
fn pawn_push_mate_is_legal() {
    let mut p = pos("7lk/9/7GP/9/9/9/9/7L1/8K b - 1");
    assert!(has(&p, "1c1b") && has(&p, "1c1b+"));
    p.do_move(p.parse_move("1c1b").unwrap());
    assert!(p.in_check() && p.is_mated());
}

#[test]
fn pawn_drop_that_checks_but_does_not_mate_is_legal() {
    // The king can take the undefended pawn.
    let p = pos("7lk/9/9/9/9/9/9/7L1/8K b P 1");
    assert!(has(&p, "P*1b"));
}

#[test]
fn pawn_drop_that_leaves_no_move_without_check_is_legal_and_wins() {
    let mut p = pos("8k/9/8G/9/9/9/9/9/K8 b P 1");
    assert!(has(&p, "P*2b"));
    p.do_move(p.parse_move("P*2b").unwrap());
    assert!(!p.in_check());
    assert!(p.is_mated(), "White has no legal move and so has lost");
}

#[test]
fn nifu_counts_pawns_but_not_tokins() {
    let p = pos("4k4/9/9/9/4+P4/9/9/9/4K4 b P 1");
    assert!(has(&p, "P*5c"));
    let p = pos("4k4/9/9/9/4P4/9/9/9/4K4 b P 1");
    assert!(!legal(&p).iter().any(|m| m.starts_with("P*5")));
    assert!(has(&p, "P*4c"));
}

#[test]
fn drops_never_where_the_piece_could_not_move() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b PLN 1");
    let moves = legal(&p);
    for m in &moves {
        if let Some(sq) = m.strip_prefix("P*").or(m.strip_prefix("L*")) {
            assert!(!sq.ends_with('a'), "{m}");
        }
        if let Some(sq) = m.strip_prefix("N*") {
            assert!(!sq.ends_with('a') && !sq.ends_with('b'), "{m}");
        }
    }
    assert!(has(&p, "N*5c") && has(&p, "L*5b") && has(&p, "P*5b"));
    // White's last ranks are at the bottom.
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 w pln 1");
    assert!(!has(&p, "P*1i") && !has(&p, "N*1h") && has(&p, "N*1g"));
}

#[test]
fn forced_and_optional_promotions() {
    let p = pos("4k4/9/P1L1N4/9/9/9/9/9/4K4 b - 1");
    // Pawn to the last rank: promotion only.
    assert!(has(&p, "9c9b") && has(&p, "9c9b+"));
    let p2 = pos("4k4/P8/9/9/9/9/9/9/4K4 b - 1");
    assert!(has(&p2, "9b9a+") && !has(&p2, "9b9a"));
    // Lance to the second rank may stay unpromoted, to the last rank may not.
    assert!(has(&p, "7c7b") && has(&p, "7c7b+") && has(&p, "7c7a+") && !has(&p, "7c7a"));
    // Knight to the first two ranks must promote.
    assert!(has(&p, "5c4a+") && !has(&p, "5c4a"));
    // Promotion on leaving the zone.
    let p = pos("4k4/9/4S4/9/9/9/9/9/4K4 b - 1");
    assert!(has(&p, "5c4d+") && has(&p, "5c4d"));
    // Gold and king never promote.
    let p = pos("4k4/9/4G4/9/9/9/9/9/4K4 b - 1");
    assert!(!legal(&p).iter().any(|m| m.ends_with('+')));
}

#[test]
fn pins_and_king_safety() {
    // The gold on 5h is pinned by the rook on 5a: it may only move along the file.
    let p = pos("4r3k/9/9/9/9/9/9/4G4/4K4 b - 1");
    assert!(has(&p, "5h5g") && !has(&p, "5h4h") && !has(&p, "5h4g"));
    // The king may not step along the rook's line away from it.
    let p = pos("4r3k/9/9/9/9/9/9/9/4K4 b - 1");
    assert!(p.in_check());
    assert!(!has(&p, "5i5h") && has(&p, "5i4h"));
    // Evasions include interposing drops and capturing the checker.
    let p = pos("4r3k/9/9/9/9/9/9/9/4K4 b G 1");
    assert!(has(&p, "G*5e") && !has(&p, "G*4e"));
}

#[test]
fn no_legal_move_is_a_loss() {
    let p = Position::from_sfen_mode(
        "+R+N+SGKG+S+N+R/+B+N+SG+LG+S+N+B/P+LPP+LPP+LP/1P2P2P1/9/9/9/9/4k4 b 9P 200",
        shomei::shogi::SfenMode::Composed,
    )
    .unwrap();
    assert!(p.is_mated() && !p.in_check());
}

fn play(p: &mut Position, moves: &[&str]) {
    for m in moves {
        let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e:?} in {}", p.to_sfen()));
        p.do_move(mv);
    }
}

#[test]
fn fourfold_repetition_is_a_draw() {
    let mut p = Position::startpos();
    let cycle = ["5i4h", "5a4b", "4h5i", "4b5a"];
    play(&mut p, &cycle);
    assert_eq!(p.repetition(16, 4), Sennichite::Draw, "a repetition inside the searched line is enough");
    assert_eq!(p.repetition(16, 0), Sennichite::None, "a single occurrence before the root is not");
    play(&mut p, &cycle);
    assert_eq!(p.sennichite(), Sennichite::None, "third occurrence");
    assert_eq!(p.repetition(16, 0), Sennichite::Draw, "two occurrences before the root are");
    play(&mut p, &cycle);
    assert_eq!(p.sennichite(), Sennichite::Draw);
}

#[test]
fn no_repetition_across_a_null_move() {
    let mut p = Position::startpos();
    play(&mut p, &["5i4h"]);
    p.do_null_move();
    play(&mut p, &["4h5i"]);
    p.do_null_move();
    // The start position again, Black to move, but only through two passes.
    assert_eq!(p.key(), Position::startpos().key());
    assert_eq!(p.repetition(16, 4), Sennichite::None);
}

#[test]
fn own_previous_move_names_the_piece_even_once_captured() {
    let name = |p: &Position| p.own_previous_move().map(|(m, piece)| (m.to_string(), piece.sfen()));
    let mut p = Position::startpos();
    assert_eq!(name(&p), None, "no move yet");
    play(&mut p, &["7g7f"]);
    assert_eq!(name(&p), None, "only the opponent's move");
    play(&mut p, &["3c3d"]);
    assert_eq!(name(&p), Some(("7g7f".into(), "P".into())));
    play(&mut p, &["8h2b+"]);
    assert_eq!(name(&p), Some(("3c3d".into(), "p".into())));
    // White takes the promoted bishop that Black's previous move put on 2b.
    play(&mut p, &["3a2b"]);
    assert_eq!(name(&p), Some(("8h2b+".into(), "+B".into())));
    play(&mut p, &["B*4e"]);
    assert_eq!(name(&p), Some(("3a2b".into(), "s".into())));
    p.do_null_move();
    assert_eq!(name(&p), None, "a pass breaks the chain");
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    let mut p = pos("8k/4R4/9/9/9/9/9/9/K8 b - 1");
    let cycle = ["5b5a", "1a1b", "5a5b", "1b1a"];
    for _ in 0..3 {
        play(&mut p, &cycle);
    }
    assert_eq!(p.sennichite(), Sennichite::PerpetualCheck(Color::Black));
    // One quiet move inside the cycle makes it an ordinary draw.
    let mut p = pos("8k/4R4/9/9/9/9/9/9/K8 b - 1");
    let cycle = ["5b5c", "1a1b", "5c5b", "1b1a"];
    for _ in 0..3 {
        play(&mut p, &cycle);
    }
    assert_eq!(p.sennichite(), Sennichite::Draw);
}

#[test]
fn entering_king_declaration_27_point_rule() {
    // Black: 13 pieces in the camp worth 21 points, plus R and B in hand (10): 31 points.
    let p = pos("4K4/1R1B1G1S1/PPPPPPPPP/9/9/9/9/9/4k4 b RB 1");
    assert_eq!(p.declaration_points(Color::Black), (31, 13));
    assert_eq!(p.declaration(EnteringKingRule::Csa27), Declaration::Win);
    assert_eq!(p.declaration(EnteringKingRule::None), Declaration::Invalid);
    // 27 points: enough for White, one short for Black.
    let p = pos("4K4/1R1B1G1S1/PPPPPPPPP/9/9/9/9/9/4k4 b RP 1");
    assert_eq!(p.declaration(EnteringKingRule::Csa27), Declaration::Invalid);
    let p = pos("4K4/9/9/9/9/9/ppppppppp/1s1g1b1r1/4k4 w rp 1");
    assert_eq!(p.declaration(EnteringKingRule::Csa27), Declaration::Win);
    // Fewer than ten pieces in the camp.
    let p = pos("4K4/9/PPPPPPPP1/9/9/9/9/9/4k4 b 2R2B2G 1");
    assert_eq!(p.declaration(EnteringKingRule::Csa27), Declaration::Invalid);
    // The king outside the camp.
    let p = pos("9/1R1B1G1S1/PPPPPPPPP/4K4/9/9/9/9/4k4 b RB 1");
    assert_eq!(p.declaration(EnteringKingRule::Csa27), Declaration::Invalid);
    // In check.
    let p = pos("4K4/1R1B1G1S1/PPPPPPPPP/9/9/9/9/9/4k3r b B 1");
    assert_eq!(p.declaration(EnteringKingRule::Csa27), Declaration::Invalid);
}

#[test]
fn entering_king_declaration_24_point_rule() {
    let win = pos("4K4/1R1B1G1S1/PPPPPPPPP/9/9/9/9/9/4k4 b RB 1");
    assert_eq!(win.declaration(EnteringKingRule::Csa24), Declaration::Win);
    // 26 points: a draw under the 24-point rule.
    let draw = pos("4K4/1R1B1G1S1/PPPPPPPPP/9/9/9/9/9/4k4 b B 1");
    assert_eq!(draw.declaration_points(Color::Black).0, 26);
    assert_eq!(draw.declaration(EnteringKingRule::Csa24), Declaration::Draw);
    assert_eq!(draw.declaration(EnteringKingRule::Csa27), Declaration::Invalid);
    // 22 points: too few even for a draw.
    let lose = pos("4K4/1R1B1G1S1/PPPPPPPPP/9/9/9/9/9/4k4 b P 1");
    assert_eq!(lose.declaration(EnteringKingRule::Csa24), Declaration::Invalid);
}

#[test]
fn handicap_rules_lower_whites_thresholds_by_the_missing_material() {
    // A set short of one rook (51 points): White has 22 points, 10 pieces in its camp.
    let p = pos("4K4/9/9/9/9/9/ppppppppp/4b4/4k4 w RB4N4L9P4g4s 1");
    assert_eq!(p.total_material_points(), 51);
    assert_eq!(p.declaration_points(Color::White), (22, 10));
    // 27 - 5 = 22 is enough; the 24-point rule's draw needs 24 - 5 = 19, its win 31 - 5 = 26.
    assert_eq!(p.declaration(EnteringKingRule::Csa27), Declaration::Invalid);
    assert_eq!(p.declaration(EnteringKingRule::Csa27H), Declaration::Win);
    assert_eq!(p.declaration(EnteringKingRule::Csa24), Declaration::Invalid);
    assert_eq!(p.declaration(EnteringKingRule::Csa24H), Declaration::Draw);
    // One point less.
    let p = pos("4K4/9/9/9/9/9/ppppppppp/4b4/4k4 w RBS4N4L9P4g3s 1");
    assert_eq!(p.declaration(EnteringKingRule::Csa27H), Declaration::Invalid);
    assert_eq!(p.declaration(EnteringKingRule::Csa24H), Declaration::Draw);
    // 26 points: a win under both handicap rules, a draw under the plain 24-point rule.
    let p = pos("4K4/9/9/9/9/9/ppppppppp/4b4/4k4 w RB4L9P4g4s4n 1");
    assert_eq!(p.declaration_points(Color::White).0, 26);
    assert_eq!(p.declaration(EnteringKingRule::Csa24H), Declaration::Win);
    assert_eq!(p.declaration(EnteringKingRule::Csa24), Declaration::Draw);
    assert_eq!(p.declaration(EnteringKingRule::Csa27), Declaration::Invalid);
    // Black's thresholds stay: 27 points on the same short set are not enough for it.
    let p = pos("4K4/4B4/PPPPPPPPP/9/9/9/9/9/4k4 b B4G4Sr4n4l9p 1");
    assert_eq!(p.total_material_points(), 51);
    assert_eq!(p.declaration_points(Color::Black), (27, 10));
    assert_eq!(p.declaration(EnteringKingRule::Csa27H), Declaration::Invalid);
    assert_eq!(p.declaration(EnteringKingRule::Csa24H), Declaration::Draw);
}

#[test]
fn handicap_rules_on_a_full_set_are_the_plain_rules() {
    assert_eq!(Position::startpos().total_material_points(), 56);
    // The first position above with the missing rook back, in Black's hand.
    let p = pos("4K4/9/9/9/9/9/ppppppppp/4b4/4k4 w 2RB4N4L9P4g4s 1");
    assert_eq!(p.total_material_points(), 56);
    for (plain, handicap) in [
        (EnteringKingRule::Csa27, EnteringKingRule::Csa27H),
        (EnteringKingRule::Csa24, EnteringKingRule::Csa24H),
    ] {
        assert_eq!(p.declaration(handicap), p.declaration(plain));
        assert_eq!(p.declaration(handicap), Declaration::Invalid);
    }
    // Promoted big pieces count 5 like unpromoted ones: still a full set.
    let p = pos("4K4/9/9/9/+R7+R/9/ppppppppp/4+b4/4k4 w B4N4L9P4g4s 1");
    assert_eq!(p.total_material_points(), 56);
    let p = pos("4K4/9/9/9/9/9/ppppppppp/4+b4/4k4 w RB4N4L9P4g4s 1");
    assert_eq!(p.total_material_points(), 51);
}

#[test]
fn try_rule_king_steps_onto_the_try_square() {
    let m = |s: &str| Some(Move::parse_usi(s).unwrap());
    // Black's king next to 5a, White's next to 5i.
    let p = pos("9/4K4/9/9/9/9/9/9/4k4 b - 1");
    assert_eq!(p.try_move(), m("5b5a"));
    assert_eq!(p.declaration(EnteringKingRule::Try), Declaration::Win);
    assert_eq!(p.declaration(EnteringKingRule::Csa27), Declaration::Invalid);
    let p = pos("9/9/9/9/9/9/9/3k5/K8 w - 1");
    assert_eq!(p.try_move(), m("6h5i"));
    assert_eq!(p.declaration(EnteringKingRule::Try), Declaration::Win);
    // Diagonally next to it.
    let p = pos("9/5K3/9/9/9/9/9/9/4k4 b - 1");
    assert_eq!(p.try_move(), m("4b5a"));
    // Escaping a check onto the square counts: there is no in-check condition.
    let p = pos("9/4K4/4g4/9/9/9/9/9/4k4 b - 1");
    assert!(p.in_check());
    assert_eq!(p.try_move(), m("5b5a"));
}

#[test]
fn try_rule_needs_a_legal_king_move_onto_the_square() {
    let none = |sfen: &str| {
        let p = pos(sfen);
        assert_eq!(p.try_move(), None, "{sfen}");
        assert_eq!(p.declaration(EnteringKingRule::Try), Declaration::Invalid, "{sfen}");
    };
    // An own piece on 5a.
    none("4G4/4K4/9/9/9/9/9/9/4k4 b - 1");
    // 5a attacked by a rook along rank a.
    none("r8/4K4/9/9/9/9/9/9/4k4 b - 1");
    // Attacked through the king's own square: the rook on 5e sees 5a once the king has left 5b.
    none("9/4K4/9/9/4r4/9/9/9/4k4 b - 1");
    // The king two squares away, or already on the square.
    none("9/9/4K4/9/9/9/9/9/4k4 b - 1");
    none("4K4/9/9/9/9/9/9/9/4k4 b - 1");
    // Only the side to move's king counts: White's on 5h does nothing for Black.
    none("K8/9/9/9/9/9/9/4k4/9 b - 1");
}
