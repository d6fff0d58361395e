//! The incremental key equals a key recomputed from scratch at every node, the key a move is
//! predicted to give (`key_after`) equals the key it gives, and unmaking a move restores the
//! position exactly.

use shomei::shogi::SfenMode;
use shomei::Position;

struct Snapshot {
    sfen: String,
    key: u64,
    checkers: shomei::Bitboard,
    pinned: [shomei::Bitboard; 2],
}

fn snapshot(pos: &Position) -> Snapshot {
    Snapshot {
        sfen: pos.to_sfen(),
        key: pos.key(),
        checkers: pos.checkers(),
        pinned: [pos.pinned(shomei::Color::Black), pos.pinned(shomei::Color::White)],
    }
}

fn walk(pos: &mut Position, depth: u32, nodes: &mut u64) {
    *nodes += 1;
    if let Err(e) = pos.check_consistency() {
        panic!("{} after {:?}: {e}", pos.to_sfen(), pos.history().collect::<Vec<_>>());
    }
    assert_eq!(pos.key(), pos.compute_key());
    if depth == 0 {
        return;
    }
    let before = snapshot(pos);
    for &m in pos.legal_moves().iter() {
        let predicted = pos.key_after(m);
        pos.do_move(m);
        assert_eq!(pos.key(), predicted, "key_after({m}) in {}", before.sfen);
        walk(pos, depth - 1, nodes);
        pos.undo_move();
        let after = snapshot(pos);
        assert_eq!(after.sfen, before.sfen, "undo of {m}");
        assert_eq!(after.key, before.key, "key after undo of {m}");
        assert_eq!(after.checkers, before.checkers);
        assert_eq!(after.pinned, before.pinned);
    }
}

#[test]
fn keys_match_recomputation_and_undo_restores() {
    let mut nodes = 0;
    for (sfen, depth) in [
        ("startpos", 4),
        ("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1", 3),
        ("9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1", 2),
        ("8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124", 3),
    ] {
        let mut pos = Position::from_sfen_mode(sfen, SfenMode::Composed).unwrap();
        walk(&mut pos, depth, &mut nodes);
    }
    assert!(nodes > 1_000_000, "only {nodes} nodes");
}

#[test]
fn transposed_move_orders_give_the_same_key() {
    let a = Position::from_usi_args(&["startpos", "moves", "7g7f", "3c3d", "2g2f", "8c8d"]).unwrap();
    let b = Position::from_usi_args(&["startpos", "moves", "2g2f", "8c8d", "7g7f", "3c3d"]).unwrap();
    assert_eq!(a.key(), b.key());
    let c = Position::from_usi_args(&["startpos", "moves", "2g2f", "8c8d", "7g7f"]).unwrap();
    assert_ne!(a.key(), c.key());
}

#[test]
fn hands_and_side_change_the_key() {
    let with_pawn = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
    let without = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
    let other_side = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w P 1").unwrap();
    let their_pawn = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b p 1").unwrap();
    let keys = [with_pawn.key(), without.key(), other_side.key(), their_pawn.key()];
    for i in 0..4 {
        for j in i + 1..4 {
            assert_ne!(keys[i], keys[j]);
        }
    }
}
