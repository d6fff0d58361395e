//! Dobutsu rules on constructed positions: Try (safe and unsafe), drops on the far rank, a
//! side with no move, Hens returning as Chicks, SFEN and move text.

use shomei::dobutsu::{legal_moves, parse_move, perft, Kind, MoveError, Position, SfenError, Status};
use shomei::Color;

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn play(p: &Position, usi: &str) -> Position {
    p.play(parse_move(p, usi).unwrap_or_else(|e| panic!("{usi}: {e}")))
}

#[test]
fn start_position_text_round_trips() {
    let start = Position::startpos();
    assert_eq!(start.to_sfen(), "gle/1c1/1C1/ELG b - 1");
    assert_eq!(pos("startpos"), start);
    assert_eq!(pos("gle/1c1/1C1/ELG b - 1"), start);
    assert_eq!(start.lion(Color::Black), Some(10), "Black's Lion starts on 2d");
    let moves: Vec<String> = legal_moves(&start).iter().map(|&m| shomei::dobutsu::move_to_usi(m)).collect();
    assert_eq!(moves.len(), 4);
    for m in ["2c2b", "2d3c", "2d1c", "1d1c"] {
        assert!(moves.contains(&m.to_string()), "{m} in {moves:?}");
    }
}

#[test]
fn try_that_cannot_be_captured_wins() {
    // White's giraffe on 1a guards 2a, not 3a.
    let p = pos("2g/L2/2l/3 b - 1");
    assert_eq!(p.status(), Status::Ongoing);
    let safe = play(&p, "3b3a");
    assert_eq!(safe.status(), Status::Lost, "White to move has lost to the Try");
    assert!(safe.lost_to_try());
    // A Try does not cut perft: White still has moves.
    assert!(perft(&safe, 1) > 0);
}

#[test]
fn try_that_can_be_captured_loses() {
    let p = pos("2g/L2/2l/3 b - 1");
    let unsafe_try = play(&p, "3b2a");
    assert!(!unsafe_try.lost_to_try());
    assert_eq!(unsafe_try.status(), Status::CanCatch, "White captures the Lion");
    let caught = play(&unsafe_try, "1a2a");
    assert_eq!(caught.lion(Color::Black), None);
    assert_eq!(caught.status(), Status::Lost);
    assert_eq!(perft(&caught, 1), 0, "no moves once the Lion is captured");
}

#[test]
fn moving_into_capture_is_legal() {
    let p = pos("1l1/3/1L1/3 b - 1");
    // Black's Lion on 2c may step next to White's Lion on 2a.
    let moves: Vec<String> = legal_moves(&p).iter().map(|&m| shomei::dobutsu::move_to_usi(m)).collect();
    assert_eq!(moves.len(), 8);
    assert!(moves.contains(&"2c2b".to_string()));
    assert_eq!(play(&p, "2c2b").status(), Status::CanCatch);
}

#[test]
fn chick_dropped_on_far_rank_stays_a_chick_and_cannot_move() {
    let p = pos("l2/3/3/2L b C 1");
    let after = play(&p, "C*2a");
    assert_eq!(after.piece_at(1), Some((Color::Black, Kind::Chick)));
    let mut black_again = after;
    black_again.set_side_to_move(Color::Black);
    assert!(legal_moves(&black_again).iter().all(|m| m.from != 1), "the dropped chick cannot move");
    // A Chick that moves onto the far rank promotes, written with '+' and accepted without it.
    let q = pos("l2/1C1/3/2L b - 1");
    let m = parse_move(&q, "2b2a").unwrap();
    assert!(m.promote);
    assert_eq!(parse_move(&q, "2b2a+"), Ok(m));
    assert_eq!(shomei::dobutsu::move_to_usi(m), "2b2a+");
    assert_eq!(q.play(m).piece_at(1), Some((Color::Black, Kind::Hen)));
    assert!(matches!(parse_move(&p, "2d1c+"), Err(MoveError::Illegal(_)) | Err(MoveError::Syntax(_))));
}

#[test]
fn captured_hen_returns_as_chick() {
    let p = pos("l2/3/1+c1/1L1 b - 1");
    let after = play(&p, "2d2c");
    assert_eq!(after.hand_count(Color::Black, Kind::Chick), 1);
    assert_eq!(after.to_sfen(), "l2/3/1L1/3 w C 2");
    let drop = play(
        &{
            let mut a = after;
            a.set_side_to_move(Color::Black);
            a
        },
        "C*1a",
    );
    assert_eq!(drop.piece_at(2), Some((Color::Black, Kind::Chick)));
}

#[test]
fn side_without_a_move_has_lost() {
    // Black's Lion in the 3a corner walled in by its own pieces, none of which can move.
    let p = pos("LGE/CC1/1l1/3 b eg 1");
    assert!(legal_moves(&p).is_empty());
    assert!(!p.can_catch());
    assert_eq!(p.status(), Status::Lost);
}

#[test]
fn bad_sfen_is_refused_with_a_reason() {
    assert_eq!(Position::from_sfen("gle/1c1/1C1 b - 1"), Err(SfenError::RankCount(3)));
    assert!(matches!(Position::from_sfen("gle/1c1/1C1/EL b - 1"), Err(SfenError::RankWidth { .. })));
    assert_eq!(Position::from_sfen("gxe/1c1/1C1/ELG b - 1"), Err(SfenError::BadPiece('x')));
    assert_eq!(Position::from_sfen("gle/1c1/1C1/ELG x - 1"), Err(SfenError::BadSide("x".into())));
    assert!(matches!(Position::from_sfen("ge1/1c1/1C1/ELG b - 1"), Err(SfenError::LionCount { .. })));
    assert_eq!(Position::from_sfen("gle/1c1/1C1/ELG b C 1"), Err(SfenError::TooMany(Kind::Chick)));
    assert_eq!(Position::from_sfen("gle/1+e1/1C1/LG1 b - 1"), Err(SfenError::BadPromotion));
    assert!(matches!(Position::from_sfen("gle/1c1/1C1/ELG b - 0"), Err(SfenError::BadPly(_))));
    assert_eq!(Position::from_sfen("gle/1c1/1C1/ELG"), Err(SfenError::MissingField("side to move")));
    let p = Position::startpos();
    assert!(matches!(parse_move(&p, "2c2"), Err(MoveError::Syntax(_))));
    assert!(matches!(parse_move(&p, "4c2b"), Err(MoveError::Syntax(_))));
    assert!(matches!(parse_move(&p, "2c2a"), Err(MoveError::Illegal(_))));
    assert!(matches!(parse_move(&p, "C*2b"), Err(MoveError::Illegal(_))));
    assert!(matches!(parse_move(&p, "c*2b"), Err(MoveError::Syntax(_))));
}

#[test]
fn hands_in_sfen() {
    let p = pos("1l1/3/1L1/3 b 2CEg 7");
    assert_eq!(p.hand_count(Color::Black, Kind::Chick), 2);
    assert_eq!(p.hand_count(Color::Black, Kind::Elephant), 1);
    assert_eq!(p.hand_count(Color::White, Kind::Giraffe), 1);
    assert_eq!(p.to_sfen(), "1l1/3/1L1/3 b E2Cg 7");
    assert_eq!(pos(&p.to_sfen()), p);
}
