//! Differential test of shomei's move generator against `shogi_legality_lite`, an independent
//! table-free legality checker that reproduces the published perft counts.
//!
//! Seeded random games from quiet, drop-heavy and composed start positions visit at least
//! 20,000 positions (100,000 in release builds). At every one the test compares with the
//! oracle: the legal move set in USI notation, the in-check status and the SFEN. It also checks that `Position::is_legal` agrees
//! with membership in `legal_moves()` for every legal move and for many illegal candidates.
//! Games are steered by playing styles (uniform, capture-hungry, check- and pawn-drop-hungry) so
//! that full hands, evasions and refused drop-pawn mates (uchifuzume) all occur. In games
//! steered towards checks, `gives_check` and `GenType::Checks` are compared with the oracle too.
//!
//! Run with `cargo test --release --test movegen_oracle -- --nocapture` to see the counts.

mod common {
    pub mod oracle;
}

use common::oracle::{oracle_from_sfen, oracle_square};
use std::collections::BTreeSet;
use std::time::Instant;

use shogi_core::{
    Color as OColor, IllegalMoveKind, Move as OMove, PartialPosition, Piece as OPiece, PieceKind as OKind,
    Square as OSquare,
};
use shogi_legality_lite::prelegality::will_king_be_captured;
use shomei::rng::Rng;
use shomei::shogi::{generate, GenType, MoveList, SfenMode};
use shomei::{Move, PieceKind, Position, Square};

/// The fewest positions the test accepts having compared.
const MIN_POSITIONS: usize = 20_000;
/// New games start until this many positions are compared: more in release builds, where the
/// whole run still takes only seconds.
const TARGET_POSITIONS: usize = if cfg!(debug_assertions) { MIN_POSITIONS } else { 100_000 };
/// Every this many positions, `is_legal` is probed with all 65,536 raw move values.
const FULL_SWEEP_EVERY: usize = 64;
/// Otherwise one raw value in this many is probed, from a random offset.
const RAW_STRIDE: usize = 61;

/// Start positions: public test positions (see perft.tsv), chosen to cover quiet openings,
/// full hands, composed positions without a king, a position with no legal move, and
/// drop-pawn mate.
const STARTS: &[&str] = &[
    // Initial position.
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    // "Matsuri": canonical hand order, and YaneuraOu's non-canonical spelling (to_sfen must
    // canonicalise it).
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    // The 593-move position.
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    // Bare kings, every other piece in hand.
    "9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    // The USI draft's example, move number 124.
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    // Middle game at move 91.
    "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91",
    // Promoted pieces and every kind in Black's hand.
    "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1",
    // Black has no king, only pawns in hand (two-pawn rule everywhere).
    "4k4/9/9/9/9/9/9/9/9 b 16P 1",
    // Black is in check with four evasions.
    "r7k/6K2/7SP/4s2bb/9/9/9/9/9 b r4g2s4n4l17p 1",
    // A single legal move.
    "l7l/5bS2/p1np5/6Sk1/4p2B1/PSpPPn1G1/1P1G2g1N/2+l6/L1KN1+r3 b R3Pgs7p 1",
    // No legal move at all (the game restarts at once).
    "+R+N+SGKG+S+N+R/+B+N+SG+LG+S+N+B/P+LPP+LPP+LP/1P2P2P1/9/9/9/9/4k4 b 9P 200",
    // P*1b would be drop-pawn mate.
    "7lk/9/8S/9/9/9/9/7L1/8K b P 1",
];

/// Hand kinds in SFEN's canonical order.
const HAND_ORDER: [OKind; 7] =
    [OKind::Rook, OKind::Bishop, OKind::Gold, OKind::Silver, OKind::Knight, OKind::Lance, OKind::Pawn];

// ---------------------------------------------------------------------------------------------
// The oracle side: SFEN in and out, USI move strings and check detection, written here against
// shogi_core's types so that nothing is shared with shomei's own parser or printer.

fn base_letter(kind: OKind) -> char {
    match kind {
        OKind::Pawn => 'P',
        OKind::Lance => 'L',
        OKind::Knight => 'N',
        OKind::Silver => 'S',
        OKind::Gold => 'G',
        OKind::Bishop => 'B',
        OKind::Rook => 'R',
        OKind::King => 'K',
        promoted => base_letter(promoted.unpromote().expect("a promoted kind")),
    }
}

fn square_usi(sq: OSquare) -> String {
    format!("{}{}", sq.file(), char::from(b'a' + sq.rank() - 1))
}

/// The oracle position's SFEN, written the canonical way (hands R B G S N L P, Black first).
fn oracle_sfen(pos: &PartialPosition) -> String {
    let mut s = String::new();
    for rank in 1..=9u8 {
        if rank > 1 {
            s.push('/');
        }
        let mut empty = 0u8;
        for file in (1..=9u8).rev() {
            let Some(piece) = pos.piece_at(oracle_square(file, rank)) else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                s.push(char::from(b'0' + empty));
                empty = 0;
            }
            let kind = piece.piece_kind();
            if kind.unpromote().is_some() {
                s.push('+');
            }
            let letter = base_letter(kind);
            s.push(if piece.color() == OColor::Black { letter } else { letter.to_ascii_lowercase() });
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
    }
    s.push_str(if pos.side_to_move() == OColor::Black { " b " } else { " w " });
    let mut hands = String::new();
    for color in [OColor::Black, OColor::White] {
        let hand = pos.hand_of_a_player(color);
        for kind in HAND_ORDER {
            let n = hand.count(kind).expect("hand kind");
            if n == 0 {
                continue;
            }
            if n > 1 {
                hands.push_str(&n.to_string());
            }
            let letter = base_letter(kind);
            hands.push(if color == OColor::Black { letter } else { letter.to_ascii_lowercase() });
        }
    }
    s.push_str(if hands.is_empty() { "-" } else { &hands });
    s.push(' ');
    s.push_str(&pos.ply().to_string());
    s
}

fn oracle_usi(m: OMove) -> String {
    match m {
        OMove::Normal { from, to, promote } => {
            format!("{}{}{}", square_usi(from), square_usi(to), if promote { "+" } else { "" })
        }
        OMove::Drop { piece, to } => {
            format!("{}*{}", base_letter(piece.piece_kind()), square_usi(to))
        }
    }
}

/// In check: could the opponent, were it their turn, capture our king?
fn oracle_in_check(pos: &PartialPosition) -> bool {
    let mut flipped = pos.clone();
    flipped.side_to_move_set(pos.side_to_move().flip());
    will_king_be_captured(&flipped) == Some(true)
}

fn oracle_is_capture(pos: &PartialPosition, m: OMove) -> bool {
    matches!(m, OMove::Normal { to, .. } if pos.piece_at(to).is_some())
}

/// The oracle's legal moves with their USI strings, sorted by string, and how many pawn drops
/// had to be restored (see `restore_stalemating_pawn_drops`).
fn oracle_moves(pos: &PartialPosition) -> (Vec<(String, OMove)>, usize) {
    let mut moves = shogi_legality_lite::all_legal_moves_partial(pos);
    let restored = restore_stalemating_pawn_drops(pos, &mut moves);
    let mut moves: Vec<(String, OMove)> = moves.into_iter().map(|m| (oracle_usi(m), m)).collect();
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    (moves, restored)
}

/// Works around a defect of shogi_legality_lite 0.1.3: it refuses every pawn drop after which
/// the opponent has no legal move as drop-pawn mate, because its `prelegality::is_mate` does not
/// require check. The rule forbids only a pawn drop that checkmates, so a pawn drop the oracle
/// refuses for that reason is legal again when it gives no check and leaves our king safe.
/// Returns how many drops were restored.
fn restore_stalemating_pawn_drops(pos: &PartialPosition, moves: &mut Vec<OMove>) -> usize {
    let us = pos.side_to_move();
    let pawn = OPiece::new(OKind::Pawn, us);
    if pos.hand(pawn) == Some(0) {
        return 0;
    }
    let mut restored = 0;
    for to in pos.vacant_bitboard() {
        let drop = OMove::Drop { piece: pawn, to };
        if moves.contains(&drop)
            || shogi_legality_lite::is_legal_partial(pos, drop) != Err(IllegalMoveKind::DropPawnMate)
        {
            continue;
        }
        let mut next = pos.clone();
        next.make_move(drop).expect("a valid drop");
        let our_king_safe = will_king_be_captured(&next) != Some(true);
        if our_king_safe && !oracle_in_check(&next) {
            moves.push(drop);
            restored += 1;
        }
    }
    restored
}

// ---------------------------------------------------------------------------------------------

#[derive(Default)]
struct Stats {
    games: usize,
    positions: usize,
    moves: usize,
    drops: usize,
    in_check: usize,
    no_moves: usize,
    uchifuzume_refused: usize,
    is_legal_probes: usize,
    check_sets_compared: usize,
    oracle_drops_restored: usize,
}

/// One bit per 16-bit move value: O(1) membership in the current legal set.
struct MoveBits(Vec<u64>);

impl MoveBits {
    fn new() -> MoveBits {
        MoveBits(vec![0; 1 << 10])
    }

    fn set(&mut self, raw: u16, on: bool) {
        let bit = 1u64 << (raw & 63);
        let word = &mut self.0[raw as usize >> 6];
        if on {
            *word |= bit;
        } else {
            *word &= !bit;
        }
    }

    fn get(&self, raw: u16) -> bool {
        (self.0[raw as usize >> 6] >> (raw & 63)) & 1 != 0
    }
}

#[derive(Clone, Copy, Debug)]
enum Style {
    /// Any legal move.
    Uniform,
    /// Mostly captures, so hands fill up.
    Captures,
    /// Mostly checks and pawn drops, so evasions and drop-pawn mates come up.
    Attack,
}

const STYLES: [Style; 3] = [Style::Uniform, Style::Captures, Style::Attack];

/// Fails with the SFEN and the moves only one side has, if the two sets differ.
fn assert_same_moves(what: &str, sfen: &str, ours: &BTreeSet<String>, theirs: &BTreeSet<String>) {
    if ours != theirs {
        let only_ours: Vec<&String> = ours.difference(theirs).collect();
        let only_theirs: Vec<&String> = theirs.difference(ours).collect();
        panic!("{what} differ at {sfen}\n  only shomei: {only_ours:?}\n  only oracle: {only_theirs:?}");
    }
}

/// Compares shomei and the oracle on one position and returns the (equal) legal move list.
fn compare_position(
    pos: &Position,
    opos: &PartialPosition,
    rng: &mut Rng,
    bits: &mut MoveBits,
    stats: &mut Stats,
) -> Vec<(String, OMove)> {
    let sfen = oracle_sfen(opos);
    assert_eq!(pos.to_sfen(), sfen, "SFEN differs (left shomei, right oracle)");

    let ours = pos.legal_moves();
    let our_set: BTreeSet<String> = ours.iter().map(|m| m.to_string()).collect();
    assert_eq!(our_set.len(), ours.len(), "shomei generated a move twice at {sfen}: {:?}", ours.as_slice());
    let (theirs, restored) = oracle_moves(opos);
    stats.oracle_drops_restored += restored;
    let their_set: BTreeSet<String> = theirs.iter().map(|(s, _)| s.clone()).collect();
    assert_same_moves("legal moves", &sfen, &our_set, &their_set);
    let in_check = oracle_in_check(opos);
    assert_eq!(pos.in_check(), in_check, "in-check status differs at {sfen} (left shomei, right oracle)");

    stats.positions += 1;
    stats.moves += ours.len();
    stats.drops += ours.iter().filter(|m| m.is_drop()).count();
    stats.in_check += usize::from(in_check);
    stats.no_moves += usize::from(ours.is_empty());
    count_uchifuzume(opos, stats);

    let full_sweep = stats.positions.is_multiple_of(FULL_SWEEP_EVERY);
    check_is_legal(pos, &sfen, &ours, &theirs, rng, bits, full_sweep, stats);
    theirs
}

/// Counts positions where the oracle refuses the pawn drop in front of the enemy king as
/// drop-pawn mate, to show the games reach that rule (the move sets already compared it).
fn count_uchifuzume(opos: &PartialPosition, stats: &mut Stats) {
    let us = opos.side_to_move();
    let pawn = OPiece::new(OKind::Pawn, us);
    let Some(king) = opos.king_position(us.flip()) else {
        return;
    };
    if opos.hand(pawn) == Some(0) {
        return;
    }
    // A pawn checks from the square next to the enemy king on the dropping side's side.
    let rank = if us == OColor::Black { king.rank() + 1 } else { king.rank().wrapping_sub(1) };
    let Some(to) = OSquare::new(king.file(), rank) else {
        return;
    };
    let drop = OMove::Drop { piece: pawn, to };
    if shogi_legality_lite::is_legal_partial(opos, drop) == Err(IllegalMoveKind::DropPawnMate) {
        stats.uchifuzume_refused += 1;
    }
}

/// `is_legal(m)` must hold exactly for the moves in `legal_moves()`. Probed with every oracle
/// move, promotion-toggled legal moves, every board move of every own piece, every drop of every
/// kind on every square, and a strided (sometimes full) sweep of raw 16-bit values.
#[allow(clippy::too_many_arguments)]
fn check_is_legal(
    pos: &Position,
    sfen: &str,
    ours: &MoveList,
    theirs: &[(String, OMove)],
    rng: &mut Rng,
    bits: &mut MoveBits,
    full_sweep: bool,
    stats: &mut Stats,
) {
    for m in ours.iter() {
        bits.set(m.raw(), true);
    }
    let mut probes = 0usize;
    let mut probe = |raw: u16| {
        let m = Move::from_raw(raw);
        let expected = bits.get(raw);
        let got = pos.is_legal(m);
        assert_eq!(
            got, expected,
            "is_legal({m}) = {got} but membership in legal_moves() = {expected} at {sfen} (raw {raw:#06x})"
        );
        probes += 1;
    };

    for (usi, _) in theirs {
        let m =
            Move::parse_usi(usi).unwrap_or_else(|| panic!("shomei cannot parse oracle move {usi} at {sfen}"));
        assert!(pos.is_legal(m), "is_legal rejects oracle-legal {usi} at {sfen}");
        probe(m.raw());
    }
    for m in ours.iter() {
        probe(m.raw() ^ (1 << 14));
    }
    let us = pos.side_to_move();
    for from in Square::all() {
        let p = pos.piece_on(from);
        if p.is_none() || p.color() != us {
            continue;
        }
        for to in Square::all() {
            if to != from {
                probe(Move::board(from, to, false).raw());
                probe(Move::board(from, to, true).raw());
            }
        }
    }
    for kind in PieceKind::ALL {
        for to in Square::all() {
            probe(Move::drop(kind, to).raw());
        }
    }
    if full_sweep {
        (0..=u16::MAX).for_each(&mut probe);
    } else {
        let offset = rng.below(RAW_STRIDE);
        (offset..=u16::MAX as usize).step_by(RAW_STRIDE).for_each(|raw| probe(raw as u16));
    }
    stats.is_legal_probes += probes;

    for m in ours.iter() {
        bits.set(m.raw(), false);
    }
}

/// The oracle's checking moves (by index into `moves`), cross-checked against shomei's
/// `gives_check` and its `GenType::Checks` generator.
fn checking_moves(
    pos: &Position,
    opos: &PartialPosition,
    moves: &[(String, OMove)],
    stats: &mut Stats,
) -> Vec<usize> {
    let mut checks = Vec::new();
    for (i, (usi, om)) in moves.iter().enumerate() {
        let mut next = opos.clone();
        next.make_move(*om).expect("oracle makes its own legal move");
        let gives = oracle_in_check(&next);
        let m = Move::parse_usi(usi).expect("parsed before");
        assert_eq!(
            pos.gives_check(m),
            gives,
            "gives_check({usi}) differs at {} (left shomei, right oracle)",
            pos.to_sfen()
        );
        if gives {
            checks.push(i);
        }
    }
    let mut list = MoveList::new();
    generate(pos, GenType::Checks, &mut list);
    let ours: BTreeSet<String> = list.iter().map(|m| m.to_string()).collect();
    let theirs: BTreeSet<String> = checks.iter().map(|&i| moves[i].0.clone()).collect();
    assert_same_moves("GenType::Checks", &pos.to_sfen(), &ours, &theirs);
    stats.check_sets_compared += 1;
    checks
}

/// Picks the index of the next move according to `style`.
fn choose(
    style: Style,
    pos: &Position,
    opos: &PartialPosition,
    moves: &[(String, OMove)],
    rng: &mut Rng,
    stats: &mut Stats,
) -> usize {
    match style {
        Style::Uniform => rng.below(moves.len()),
        Style::Captures => {
            let caps: Vec<usize> =
                (0..moves.len()).filter(|&i| oracle_is_capture(opos, moves[i].1)).collect();
            if !caps.is_empty() && rng.chance(85) {
                rng.pick(&caps)
            } else {
                rng.below(moves.len())
            }
        }
        Style::Attack => {
            let checks = checking_moves(pos, opos, moves, stats);
            let pawn_drops: Vec<usize> = (0..moves.len()).filter(|&i| moves[i].0.starts_with("P*")).collect();
            if !checks.is_empty() && rng.chance(70) {
                rng.pick(&checks)
            } else if !pawn_drops.is_empty() && rng.chance(50) {
                rng.pick(&pawn_drops)
            } else {
                rng.below(moves.len())
            }
        }
    }
}

/// Plays one game from `start`, comparing every position, until no move is left or the ply
/// budget runs out.
fn play_game(
    start: &str,
    style: Style,
    max_plies: usize,
    rng: &mut Rng,
    bits: &mut MoveBits,
    stats: &mut Stats,
) {
    let mut pos = Position::from_sfen_mode(start, SfenMode::Composed)
        .unwrap_or_else(|e| panic!("shomei rejects start position {start}: {e:?}"));
    let mut opos = oracle_from_sfen(start);
    stats.games += 1;
    for _ in 0..=max_plies {
        let moves = compare_position(&pos, &opos, rng, bits, stats);
        if moves.is_empty() {
            return;
        }
        let (usi, om) = &moves[choose(style, &pos, &opos, &moves, rng, stats)];
        let m = pos
            .parse_move(usi)
            .unwrap_or_else(|e| panic!("shomei refuses {usi} at {}: {e:?}", pos.to_sfen()));
        pos.do_move(m);
        opos.make_move(*om).expect("oracle makes its own legal move");
    }
}

/// A middle-game start: capture-biased random play from the initial position, on the oracle
/// alone, so hands fill up.
fn capture_heavy_start(rng: &mut Rng, plies: usize) -> String {
    let mut opos = PartialPosition::startpos();
    for _ in 0..plies {
        let moves = shogi_legality_lite::all_legal_moves_partial(&opos);
        if moves.is_empty() {
            break;
        }
        let caps: Vec<OMove> = moves.iter().copied().filter(|&m| oracle_is_capture(&opos, m)).collect();
        let m = if !caps.is_empty() && rng.chance(90) { rng.pick(&caps) } else { rng.pick(&moves) };
        opos.make_move(m).expect("oracle makes its own legal move");
    }
    oracle_sfen(&opos)
}

#[test]
fn oracle_sfen_round_trip() {
    for sfen in STARTS {
        let canonical = Position::from_sfen_mode(sfen, SfenMode::Composed).expect("valid start").to_sfen();
        assert_eq!(oracle_sfen(&oracle_from_sfen(sfen)), canonical, "oracle SFEN printer for {sfen}");
    }
    assert_eq!(oracle_from_sfen(STARTS[0]), PartialPosition::startpos());
}

#[test]
fn movegen_matches_oracle() {
    let started = Instant::now();
    let mut rng = Rng::new(0x0510_7e10_ac1e);
    let mut starts: Vec<String> = STARTS.iter().map(|s| s.to_string()).collect();
    for i in 0..5 {
        starts.push(capture_heavy_start(&mut rng, 50 + 20 * i));
    }
    let mut bits = MoveBits::new();
    let mut stats = Stats::default();
    let mut game = 0;
    while stats.positions < TARGET_POSITIONS {
        // Every start meets every style in turn.
        let start = &starts[game % starts.len()];
        let style = STYLES[(game / starts.len()) % STYLES.len()];
        let max_plies = 40 + rng.below(200);
        play_game(start, style, max_plies, &mut rng, &mut bits, &mut stats);
        game += 1;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "movegen_oracle: {} games, {} positions, {} legal moves compared ({} drops), {} positions in check, \
         {} with no legal move, {} drop-pawn mates refused, {} non-checking pawn drops restored in the oracle, \
         {} check sets compared, {} is_legal probes, {secs:.1} s",
        stats.games,
        stats.positions,
        stats.moves,
        stats.drops,
        stats.in_check,
        stats.no_moves,
        stats.uchifuzume_refused,
        stats.oracle_drops_restored,
        stats.check_sets_compared,
        stats.is_legal_probes,
    );
    assert!(stats.positions >= MIN_POSITIONS, "only {} positions compared", stats.positions);
    assert!(stats.in_check > 0, "no evasion was exercised");
    assert!(stats.uchifuzume_refused > 0, "no drop-pawn mate was exercised");
}
