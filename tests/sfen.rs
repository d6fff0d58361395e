//! SFEN parsing: every malformed input is a typed error naming what is wrong, valid input
//! round-trips, and no input string can panic the parser.

use proptest::prelude::*;
use shomei::shogi::{PositionError, SfenMode};
use shomei::{Color, Position, SfenError, Square};

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

fn err(sfen: &str) -> SfenError {
    match Position::from_sfen(sfen) {
        Ok(p) => panic!("{sfen} parsed as {}", p.to_sfen()),
        Err(e) => e,
    }
}

#[test]
fn startpos_round_trips() {
    assert_eq!(Position::startpos().to_sfen(), START);
    assert_eq!(Position::from_sfen("startpos").unwrap().to_sfen(), START);
}

#[test]
fn move_number_is_optional_and_kept() {
    let p = Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -").unwrap();
    assert_eq!(p.to_sfen(), START);
    let p = Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 42").unwrap();
    assert!(p.to_sfen().ends_with(" w - 42"));
}

#[test]
fn hands_in_any_order_are_written_canonically() {
    let a =
        Position::from_sfen("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1").unwrap();
    let b =
        Position::from_sfen("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1").unwrap();
    assert_eq!(a.to_sfen(), b.to_sfen());
    assert!(a.to_sfen().contains(" w RGgsn5p "));
    assert_eq!(a.key(), b.key());
    let c = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b p2PS10pr 1").unwrap();
    assert!(c.to_sfen().contains(" b S2Pr11p "), "{}", c.to_sfen());
}

#[test]
fn each_malformation_has_its_own_error() {
    use SfenError::*;
    assert_eq!(err("lnsgkgsnl/1r5b1 b - 1"), RankCount(2));
    assert_eq!(err("lnsgkgsnl b"), FieldCount(2));
    assert_eq!(err(&format!("{START} extra")), FieldCount(5));
    assert!(matches!(
        err("lnsgkgsnl/1r5b/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
        RankWidth { rank: 'b', width: 8 }
    ));
    assert!(matches!(
        err("lnsgkgsnl/1r5b11/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
        RankWidth { rank: 'b', .. }
    ));
    assert_eq!(err("lnsgkgsnl/1r5x1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"), UnknownLetter('x'));
    assert!(matches!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+GKGSNL b - 1"),
        BadPromotion(_)
    ));
    assert!(matches!(
        err("lnsg+kgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
        BadPromotion(_)
    ));
    assert!(matches!(
        err("lnsgkgsnl/1r5b+/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
        BadPromotion(_)
    ));
    assert_eq!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1"),
        TooManyPieces { kind: 'R', count: 3, max: 2 }
    );
    assert_eq!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 19p 1"),
        BadHand("count in '19p' is out of range".into())
    );
    assert_eq!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG1GSNL b - 1"),
        KingCount { color: Color::Black, count: 0 }
    );
    assert_eq!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B2K2R1/LNSGKGSNL b - 1"),
        KingCount { color: Color::Black, count: 2 }
    );
    assert_eq!(
        err("P3k4/9/9/9/9/9/9/9/4K4 b - 1"),
        DeadPiece { piece: "P".into(), square: Square::parse("9a").unwrap() }
    );
    assert!(matches!(err("4k4/N8/9/9/9/9/9/9/4K4 b - 1"), DeadPiece { .. }));
    assert!(matches!(err("4k4/9/9/9/9/9/9/9/l3K4 b - 1"), DeadPiece { .. }));
    assert!(matches!(err("4k4/9/9/9/9/9/9/n8/4K4 b - 1"), DeadPiece { .. }));
    assert_eq!(err("4k4/9/4P4/9/9/9/4P4/9/4K4 b - 1"), TwoPawnsOnFile { color: Color::Black, file: 5 });
    assert_eq!(err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1"), BadSide("x".into()));
    assert!(matches!(err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2 1"), BadHand(_)));
    assert!(matches!(err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b K 1"), BadHand(_)));
    assert!(matches!(err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b x 1"), BadHand(_)));
    assert!(matches!(err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 0P 1"), BadHand(_)));
    assert_eq!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - one"),
        BadMoveNumber("one".into())
    );
    assert_eq!(err("4k4/4R4/9/9/9/9/9/9/4K4 b - 1"), SideNotToMoveInCheck);
    // Tokins do not count for nifu.
    assert!(Position::from_sfen("4k4/9/4+P4/9/9/9/4P4/9/4K4 b - 1").is_ok());
}

#[test]
fn errors_read_as_sentences() {
    let e = err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1");
    assert_eq!(e.to_string(), "3 pieces of kind R but a set holds only 2");
    let e = err("4k4/9/4P4/9/9/9/4P4/9/4K4 b - 1");
    assert_eq!(e.to_string(), "Black has two pawns on file 5");
}

#[test]
fn composed_positions_allow_a_missing_king_and_surplus_pieces() {
    let tsume = "3sks3/9/4+P4/9/9/+B8/9/9/9 b S2rb4gs4n4l17p 1";
    assert!(matches!(
        Position::from_sfen(tsume),
        Err(SfenError::KingCount { color: Color::Black, count: 0 })
    ));
    let p = Position::from_sfen_mode(tsume, SfenMode::Composed).unwrap();
    assert!(!p.has_king(Color::Black));
    assert_eq!(p.to_sfen(), tsume);
    let surplus = "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1";
    assert!(matches!(Position::from_sfen(surplus), Err(SfenError::TooManyPieces { .. })));
    assert!(Position::from_sfen_mode(surplus, SfenMode::Composed).is_ok());
    // A position without any king (an empty board among them) is no game and no problem.
    for kingless in ["9/9/9/9/9/9/9/9/9 b - 1", "9/9/9/9/4P4/9/9/9/9 w 2P 1", "9/9/9/9/9/9/9/9/9 b 18P 1"] {
        assert_eq!(Position::from_sfen_mode(kingless, SfenMode::Composed).err(), Some(SfenError::NoKing));
    }
    // An extra king is never allowed.
    assert!(Position::from_sfen_mode("4k4/9/9/9/9/9/9/9/3KK4 b - 1", SfenMode::Composed).is_err());
}

#[test]
fn position_command_reports_the_failing_move() {
    let e = Position::from_usi_args(&["startpos", "moves", "7g7f", "3c3d", "7f7e", "9z9y"]).unwrap_err();
    assert_eq!(e.to_string(), "move 4 '9z9y' is not a move in USI notation");
    let e = Position::from_usi_args(&["startpos", "moves", "7g7f", "7g7f"]).unwrap_err();
    assert!(matches!(e, PositionError::Move { index: 1, .. }), "{e}");
    assert_eq!(e.to_string(), "move 2 '7g7f' is illegal in that position");
    assert!(Position::from_usi_args(&["sfen", "garbage"]).is_err());
    assert!(Position::from_usi_args(&[]).is_err());
    assert!(Position::from_usi_args(&["startpos", "7g7f"]).is_err());
    let p = Position::from_usi_args(&[
        "sfen",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
        "b",
        "-",
        "1",
        "moves",
        "7g7f",
    ])
    .unwrap();
    assert_eq!(
        p.to_sfen(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 2"
            .replace("9/9/9/PPPPPPPPP", "9/9/2P6/PP1PPPPPP")
    );
}

#[test]
fn non_promotions_that_gui_may_send_parse() {
    // A pawn may stay unpromoted on 2c (YaneuraOu's flip test position).
    let p = Position::from_sfen("lnsgk1snl/1r4g2/p1ppppb1p/6pP1/7R1/2P6/P2PPPP1P/1SG6/LN2KGSNL b BP2p 21")
        .unwrap();
    assert!(p.parse_move("2d2c").is_ok());
    assert!(p.parse_move("2d2c+").is_ok());
    // The bishop may capture on 2b without promoting.
    let p = Position::from_usi_args(&["startpos", "moves", "7g7f", "3c3d"]).unwrap();
    assert!(p.parse_move("8h2b").is_ok());
    assert!(p.parse_move("8h2b+").is_ok());
    // A pawn reaching the last rank must promote.
    let p = Position::from_sfen("4k4/P8/9/9/9/9/9/9/4K4 b - 1").unwrap();
    assert!(p.parse_move("9b9a").is_err());
    assert!(p.parse_move("9b9a+").is_ok());
}

fn sfen_like() -> impl Strategy<Value = String> {
    // Strings over the SFEN alphabet, and mutations of real SFENs, reach deep into the parser.
    let alphabet = proptest::collection::vec(
        prop_oneof![
            Just('/'),
            Just(' '),
            Just('+'),
            Just('-'),
            Just('b'),
            Just('w'),
            proptest::char::range('0', '9'),
            proptest::sample::select("plnsgbrkPLNSGBRKxX".chars().collect::<Vec<_>>())
        ],
        0..120,
    )
    .prop_map(|v| v.into_iter().collect::<String>());
    let mutated = (0usize..START.len(), proptest::char::any(), 0usize..3).prop_map(|(i, c, op)| {
        let mut s: Vec<char> = START.chars().collect();
        let i = i.min(s.len() - 1);
        match op {
            0 => s[i] = c,
            1 => s.insert(i, c),
            _ => {
                s.remove(i);
            }
        }
        s.into_iter().collect()
    });
    prop_oneof![alphabet, mutated, any::<String>()]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn no_string_panics_the_parser(s in sfen_like()) {
        for mode in [SfenMode::Game, SfenMode::Composed] {
            if let Ok(p) = Position::from_sfen_mode(&s, mode) {
                // Whatever parses is a position that writes back and parses again the same.
                let again = Position::from_sfen_mode(&p.to_sfen(), mode).unwrap();
                prop_assert_eq!(again.to_sfen(), p.to_sfen());
                let _ = p.legal_moves();
            }
        }
    }

    #[test]
    fn no_position_command_panics(words in proptest::collection::vec("[a-z0-9+*/ ]{0,12}", 0..12)) {
        let mut args = vec!["startpos", "moves"];
        args.extend(words.iter().map(String::as_str));
        let _ = Position::from_usi_args(&args);
        let _ = Position::from_usi_args(&words.iter().map(String::as_str).collect::<Vec<_>>());
    }

    #[test]
    fn any_raw_move_is_safe_to_test(raw in any::<u16>()) {
        let p = Position::from_sfen("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1").unwrap();
        let m = shomei::Move::from_raw(raw);
        prop_assert_eq!(p.is_legal(m), p.legal_moves().contains(m));
    }
}
