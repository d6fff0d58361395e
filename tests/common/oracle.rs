//! The oracle's position (from `shogi_core`) built from an SFEN: the oracle crates have no SFEN
//! parser of their own. Used by the move-generator test and the perft bench.

// Each crate includes this file and uses a different part of it.
#![allow(dead_code)]

use shogi_core::{Color as OColor, PartialPosition, Piece as OPiece, PieceKind as OKind, Square as OSquare};

/// The oracle's kind of an SFEN piece letter (either case).
pub fn kind_from_letter(c: char) -> OKind {
    match c.to_ascii_uppercase() {
        'P' => OKind::Pawn,
        'L' => OKind::Lance,
        'N' => OKind::Knight,
        'S' => OKind::Silver,
        'G' => OKind::Gold,
        'B' => OKind::Bishop,
        'R' => OKind::Rook,
        'K' => OKind::King,
        _ => panic!("bad SFEN piece letter {c:?}"),
    }
}

/// The oracle's square at `file` and `rank` (both 1..=9).
pub fn oracle_square(file: u8, rank: u8) -> OSquare {
    OSquare::new(file, rank).expect("file and rank in 1..=9")
}

/// Builds the oracle's position from an SFEN (hands in any order).
pub fn oracle_from_sfen(sfen: &str) -> PartialPosition {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    assert!(fields.len() >= 3, "short SFEN {sfen}");
    let mut pos = PartialPosition::empty();
    for (rank, row) in fields[0].split('/').enumerate() {
        let mut file = 9u8;
        let mut promoted = false;
        for c in row.chars() {
            if let Some(empty) = c.to_digit(10) {
                file -= empty as u8;
            } else if c == '+' {
                promoted = true;
            } else {
                let mut kind = kind_from_letter(c);
                if promoted {
                    kind = kind.promote().expect("promotable kind after '+'");
                }
                let color = if c.is_ascii_uppercase() { OColor::Black } else { OColor::White };
                pos.piece_set(oracle_square(file, rank as u8 + 1), Some(OPiece::new(kind, color)));
                file -= 1;
                promoted = false;
            }
        }
    }
    pos.side_to_move_set(if fields[1] == "b" { OColor::Black } else { OColor::White });
    if fields[2] != "-" {
        let mut count = 0u32;
        for c in fields[2].chars() {
            if let Some(d) = c.to_digit(10) {
                count = count * 10 + d;
                continue;
            }
            let color = if c.is_ascii_uppercase() { OColor::Black } else { OColor::White };
            let hand = pos.hand_of_a_player_mut(color);
            for _ in 0..count.max(1) {
                *hand = hand.added(kind_from_letter(c)).expect("hand kind");
            }
            count = 0;
        }
    }
    let ply = fields.get(3).map_or(1, |s| s.parse().expect("move number"));
    assert!(pos.ply_set(ply), "move number must be positive");
    pos
}
