//! The training-data format: packed positions round-trip through SFEN on positions of random
//! games (hands, promoted pieces, both sides to move) and on known ones, the start position packs
//! to the bytes the format description gives, the 16-bit move encoding round-trips for every legal
//! move, records round-trip, and malformed bytes are refused with an error, never a panic.

use shomei::rng::Rng;
use shomei::shogi::sfen::hands_sfen;
use shomei::shogi::{random_game, MoveDraw, SfenMode};
use shomei::training_data::move16;
use shomei::training_data::packed::{self, PackError, UnpackError};
use shomei::training_data::record::{self, PackedSfenValue};
use shomei::{Color, Hand, Move, PieceKind, Position, Square};

/// Positions of seeded random games from the start: every position of each game, the start
/// included, until mate or `max_plies`; a game that runs its full length leaves out its last.
fn random_game_positions(seed: u64, games: usize, max_plies: usize) -> Vec<Position> {
    let (start, mut rng) = (Position::startpos(), Rng::new(seed));
    let mut out = Vec::new();
    for _ in 0..games {
        let mut game = random_game(&start, &mut rng, max_plies, MoveDraw::Uniform);
        game.truncate(max_plies);
        out.extend(game);
    }
    out
}

/// The SFEN of `pos` with some of its non-king pieces taken off the board and out of the hands
/// (they go to the format's piece box), if that is still a valid position.
fn thinned(pos: &Position, rng: &mut Rng) -> Option<Position> {
    let mut board = String::new();
    for rank in 0..9u8 {
        let mut empty = 0;
        for file in (0..9u8).rev() {
            let p = pos.piece_on(Square::new(file, rank));
            if p.is_none() || (p.kind() != PieceKind::King && rng.chance(40)) {
                empty += 1;
                continue;
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
                empty = 0;
            }
            board.push_str(&p.sfen());
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
        board.push(if rank < 8 { '/' } else { ' ' });
    }
    board.push(pos.side_to_move().sfen_char());
    let mut hands = [Hand::EMPTY; 2];
    for c in Color::ALL {
        // The draws go kind by kind in this order: another order would thin other pieces.
        for k in PieceKind::HAND_SFEN_ORDER {
            let kept = (0..pos.hand(c).count(k)).filter(|_| rng.chance(60)).count();
            hands[c.index()].set(k, kept as u32);
        }
    }
    let hand = hands_sfen(hands[0], hands[1]);
    Position::from_sfen(&format!("{board} {hand} {}", pos.game_ply())).ok()
}

/// SFEN -> packed -> SFEN gives the same text, and packing the unpacked position gives the same
/// bytes; every legal move round-trips through the 16-bit encoding and decodes as legal.
fn check_round_trip(pos: &Position) {
    let sfen = pos.to_sfen();
    let bytes = packed::pack(pos).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    let back = packed::unpack_at(&bytes, pos.game_ply()).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    assert_eq!(back.to_sfen(), sfen);
    assert_eq!(packed::pack(&back).unwrap(), bytes, "{sfen}");
    assert_eq!(back.key(), Position::from_sfen(&sfen).unwrap().key());
    for &m in pos.legal_moves().iter() {
        let v = move16::encode(m);
        assert_eq!(move16::decode(v), Ok(m), "{sfen}: {m}");
        assert_eq!(move16::decode_legal(&back, v), Some(m), "{sfen}: {m}");
    }
}

#[test]
fn random_game_positions_round_trip() {
    let positions = random_game_positions(0x5eed, 30, 160);
    let (mut hands, mut promoted, mut white, mut check) = (0, 0, 0, 0);
    for pos in &positions {
        check_round_trip(pos);
        hands += (!pos.hand(Color::Black).is_empty() && !pos.hand(Color::White).is_empty()) as usize;
        promoted += Square::all()
            .any(|sq| pos.piece_on(sq).is_some() && pos.piece_on(sq).kind().is_promoted())
            as usize;
        white += (pos.side_to_move() == Color::White) as usize;
        check += pos.in_check() as usize;
    }
    let n = positions.len();
    assert!(n >= 3000, "{n} positions");
    // The random games must reach what the format has to get right.
    assert!(
        hands > n / 3 && promoted > n / 3 && white > n / 3 && check > 10,
        "{hands} {promoted} {white} {check}"
    );
}

#[test]
fn positions_with_pieces_in_the_box_round_trip() {
    let mut rng = Rng::new(7);
    let mut checked = 0;
    for pos in random_game_positions(0xb0c5, 10, 120).iter().step_by(3) {
        if let Some(thin) = thinned(pos, &mut rng) {
            check_round_trip(&thin);
            checked += 1;
        }
    }
    assert!(checked > 200, "{checked}");
    for sfen in
        ["4k4/9/9/9/9/9/9/9/4K4 b - 1", "4k4/9/9/9/9/9/9/9/4K4 w G2p 5", "8k/9/9/9/9/9/9/9/K8 b RB 200"]
    {
        check_round_trip(&Position::from_sfen(sfen).unwrap());
    }
}

#[test]
fn known_positions_round_trip_and_composed_ones_are_refused() {
    let mut refused = 0;
    for text in shomei::bench::POSITIONS {
        let words: Vec<&str> = text.split_whitespace().collect();
        let pos = Position::from_usi_args(&words).unwrap();
        if Position::from_sfen(&pos.to_sfen()).is_ok() {
            check_round_trip(&pos);
        } else {
            let e = packed::pack(&pos).unwrap_err();
            assert!(matches!(e, PackError::MissingKing(_) | PackError::TooManyPieces { .. }), "{text}: {e}");
            refused += 1;
        }
    }
    assert!(refused >= 2, "the bench has composed positions without a king or with extra pieces");
    let extra = Position::from_sfen_mode("4k4/9/9/9/9/9/9/B1B6/4K3B b - 1", SfenMode::Composed).unwrap();
    assert_eq!(packed::pack(&extra), Err(PackError::TooManyPieces { kind: 'B', count: 3 }));
}

/// The start position's 256 bits, field by field, derived by hand from the format description in
/// `training_data::packed` (bits in stream order; each byte takes 8 of them, first bit in its bit 0).
///
/// - side to move Black: `0`;
/// - Black's king on 5i, index 4 * 9 + 8 = 44 = 0b0101100, 7 bits lowest first: `0011010`;
/// - White's king on 5a, index 36 = 0b0100100: `0010010`;
/// - then files 1 to 9, each from rank a to rank i, kings left out. An empty square is `0`; a
///   piece is `1`, its hand code (pawn `0`, lance `100`, knight `101`, silver `110`, gold
///   `1110`, bishop `11110`, rook `11111`), a promotion bit `0` (golds have none) and its colour
///   (Black `0`, White `1`). So a white lance is `1 100 0 1`, a black pawn `1 0 0 0`, a white
///   bishop `1 11110 0 1`, a black gold `1 1110 0`.
/// - no hands, no piece box: the 40 pieces fill the 256 bits exactly.
const STARTPOS_BITS: [&str; 12] = [
    "0",
    "0011010",
    "0010010",
    // File 1: wL . wP . . . bP . bL
    "110001 0 1001 0 0 0 1000 0 110000",
    // File 2: wN wB wP . . . bP bR bN
    "110101 11111001 1001 0 0 0 1000 11111100 110100",
    // File 3: wS . wP . . . bP . bS
    "111001 0 1001 0 0 0 1000 0 111000",
    // File 4: wG . wP . . . bP . bG
    "111101 0 1001 0 0 0 1000 0 111100",
    // File 5: (wK) . wP . . . bP . (bK)
    "0 1001 0 0 0 1000 0",
    // File 6 as file 4, file 7 as file 3.
    "111101 0 1001 0 0 0 1000 0 111100",
    "111001 0 1001 0 0 0 1000 0 111000",
    // File 8: wN wR wP . . . bP bB bN
    "110101 11111101 1001 0 0 0 1000 11111000 110100",
    // File 9 as file 1.
    "110001 0 1001 0 0 0 1000 0 110000",
];

/// The same 32 bytes, worked out from the bits above by hand.
const STARTPOS_BYTES: [u8; 32] = [
    0x58, 0xa4, 0x51, 0x22, 0x0c, 0xeb, 0x67, 0x22, 0x7e, 0x96, 0x53, 0x22, 0x1c, 0xaf, 0x44, 0x78, 0x24,
    0xc2, 0x2b, 0x11, 0x9e, 0x53, 0x22, 0x1c, 0xeb, 0x6f, 0x22, 0x3e, 0x96, 0x51, 0x22, 0x0c,
];

#[test]
fn the_start_position_packs_to_the_bytes_derived_by_hand() {
    let bits: String = STARTPOS_BITS.concat().chars().filter(|c| !c.is_whitespace()).collect();
    assert_eq!(bits.len(), 256);
    let mut from_bits = [0u8; 32];
    for (i, b) in bits.bytes().enumerate() {
        from_bits[i / 8] |= ((b == b'1') as u8) << (i % 8);
    }
    assert_eq!(from_bits, STARTPOS_BYTES);
    assert_eq!(packed::pack(&Position::startpos()).unwrap(), STARTPOS_BYTES);
    assert_eq!(packed::unpack(&STARTPOS_BYTES).unwrap().to_sfen(), shomei::shogi::STARTPOS);
}

#[test]
fn move_encoding_matches_the_layout_worked_by_hand() {
    // to in bits 0-6, from (or the dropped kind) in bits 7-13, drop bit 14, promotion bit 15.
    // 7g7f: to 7f = 6 * 9 + 5 = 59, from 7g = 6 * 9 + 6 = 60: 59 + 60 * 128 = 7739.
    // P*5e: to 5e = 4 * 9 + 4 = 40, pawn = 1: 40 + 1 * 128 + 16384 = 16552.
    // 8h2b+: to 2b = 10, from 8h = 7 * 9 + 7 = 70: 10 + 70 * 128 + 32768 = 41738.
    for (usi, v) in [("7g7f", 7739u16), ("P*5e", 16552), ("8h2b+", 41738), ("G*9i", 80 | 7 << 7 | 1 << 14)] {
        let m = Move::parse_usi(usi).unwrap();
        assert_eq!(move16::encode(m), v, "{usi}");
        assert_eq!(move16::decode(v).map(|m| m.to_string()), Ok(usi.to_string()));
    }
    assert_eq!(move16::encode(Move::NONE), 0);
    assert!(move16::decode(0).is_err());
    let start = Position::startpos();
    assert_eq!(move16::decode_legal(&start, 41738), None, "8h2b+ is not legal at the start");
}

#[test]
fn records_round_trip_through_a_file() {
    let positions = random_game_positions(99, 3, 60);
    let records: Vec<PackedSfenValue> = positions
        .iter()
        .enumerate()
        .map(|(i, pos)| {
            let best = pos.legal_moves().as_slice().first().copied().unwrap_or(Move::NONE);
            PackedSfenValue::new(pos, i as i16 * 37 - 1000, best, (i % 3) as i8 - 1).unwrap()
        })
        .collect();
    let mut bytes = Vec::new();
    record::write_records(&mut bytes, &records).unwrap();
    assert_eq!(bytes.len(), records.len() * record::RECORD_SIZE);
    let back = record::read_records(&mut bytes.as_slice()).unwrap();
    assert_eq!(back, records);
    for (rec, pos) in back.iter().zip(&positions) {
        let p = rec.position().unwrap();
        assert_eq!(p.to_sfen(), pos.to_sfen());
        let first = pos.legal_moves().as_slice().first().copied();
        assert_eq!(rec.best_move(&p), first);
    }
}

#[test]
fn malformed_bytes_are_refused_not_panicked_on() {
    // King fields 81 to 127 are off the board.
    let mut bytes = STARTPOS_BYTES;
    bytes[0] |= 0xfe; // Black's king field: all ones
    assert_eq!(
        packed::unpack(&bytes).unwrap_err(),
        UnpackError::KingSquare { color: Color::Black, index: 127 }
    );

    // Both kings on 1a.
    let mut bytes = [0u8; 32];
    assert_eq!(packed::unpack(&bytes).unwrap_err(), UnpackError::KingsOnOneSquare(Square::new(0, 0)));

    // Board codes all ones (rooks) run past 256 bits.
    bytes = STARTPOS_BYTES;
    bytes[2..].fill(0xff);
    assert!(matches!(packed::unpack(&bytes), Err(UnpackError::BoardOverrun(_))));

    // Kings on 1a and 9i, 79 empty squares (bits 15-93), then all ones: box rooks of 7 bits
    // each, 23 of them in the 162 bits left, and a 24th cut off.
    let mut bytes = [0u8; 32];
    for i in [8 + 4, 8 + 6].into_iter().chain(94..256) {
        // White's king field (bits 8-14) is 80 = 0b1010000.
        bytes[i / 8] |= 1 << (i % 8);
    }
    assert_eq!(packed::unpack(&bytes).unwrap_err(), UnpackError::HandOverrun);

    // Well-formed bits of a position no game has: the side not to move in check.
    let pos = Position::from_sfen("4k4/9/9/9/9/9/9/4r4/4K4 b - 1").unwrap();
    assert!(pos.in_check());
    let mut bytes = packed::pack(&pos).unwrap();
    bytes[0] ^= 1;
    assert!(matches!(packed::unpack(&bytes), Err(UnpackError::Position(_))));

    // Random bytes and single flipped bits: an error or a valid position, never a panic.
    let mut rng = Rng::new(3);
    let mut valid = 0;
    for _ in 0..50_000 {
        let mut b = [0u8; 32];
        b.iter_mut().for_each(|x| *x = rng.next_u64() as u8);
        if let Ok(p) = packed::unpack(&b) {
            valid += 1;
            assert!(packed::pack(&p).is_ok());
        }
    }
    for pos in random_game_positions(11, 2, 100).iter().step_by(5) {
        let good = packed::pack(pos).unwrap();
        for bit in 0..256 {
            let mut b = good;
            b[bit / 8] ^= 1 << (bit % 8);
            if let Ok(p) = packed::unpack(&b) {
                valid += 1;
                assert_eq!(packed::unpack(&packed::pack(&p).unwrap()).unwrap().to_sfen(), p.to_sfen());
            }
        }
    }
    assert!(valid > 0);
}
