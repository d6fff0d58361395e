//! Exact perft counts against the published table, and the staged generators checked against the
//! legal set at every node of a perft tree.

use shomei::shogi::movegen::{generate, GenType, MoveList};
use shomei::shogi::perft::{divide, perft, perft_full};
use shomei::shogi::SfenMode;
use shomei::{Move, Position};
use std::collections::HashSet;

/// Rows of `tests/data/perft.tsv`: (sfen, depth, count).
fn table() -> Vec<(String, u32, u64)> {
    include_str!("data/perft.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].parse().unwrap(), f[2].parse().unwrap())
        })
        .collect()
}

fn position(sfen: &str) -> Position {
    Position::from_sfen_mode(sfen, SfenMode::Composed).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

#[test]
fn every_published_count_is_reproduced() {
    let rows = table();
    assert!(rows.len() >= 38, "the table lost rows");
    for (sfen, depth, expected) in rows {
        let mut pos = position(&sfen);
        let got = perft(&mut pos, depth);
        assert_eq!(got, expected, "perft({depth}) of {sfen}");
        // Perft leaves the position as it found it.
        assert_eq!(pos.to_sfen(), position(&sfen).to_sfen());
    }
}

#[test]
fn initial_position_to_depth_five() {
    let mut pos = Position::startpos();
    let counts: Vec<u64> = (1..=5).map(|d| perft(&mut pos, d)).collect();
    assert_eq!(counts, [30, 900, 25_470, 719_731, 19_861_490]);
}

#[test]
fn bulk_counting_and_full_make_unmake_agree() {
    for (sfen, depth, expected) in table().into_iter().filter(|r| r.2 < 3_000_000) {
        let mut pos = position(&sfen);
        assert_eq!(perft_full(&mut pos, depth), expected, "perft_full({depth}) of {sfen}");
    }
}

#[test]
fn divide_sums_to_perft() {
    let mut pos = Position::startpos();
    let d = divide(&mut pos, 3);
    assert_eq!(d.len(), 30);
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), 25_470);
    let mut after = Position::from_usi_args(&["startpos", "moves", "7g7f"]).unwrap();
    let expected = perft(&mut after, 2);
    assert!(d.iter().any(|(m, n)| m.to_string() == "7g7f" && *n == expected));
}

fn gen(pos: &Position, t: GenType) -> Vec<Move> {
    let mut list = MoveList::new();
    generate(pos, t, &mut list);
    list.to_vec()
}

/// The staged generators must add up to exactly the legal set, without overlap.
fn check_stages(pos: &mut Position) {
    let legal = gen(pos, GenType::Legal);
    let legal_set: HashSet<Move> = legal.iter().copied().collect();
    assert_eq!(legal_set.len(), legal.len(), "duplicate moves in {}", pos.to_sfen());
    if pos.in_check() {
        let ev: HashSet<Move> = gen(pos, GenType::Evasions).into_iter().collect();
        assert_eq!(ev, legal_set, "evasions in {}", pos.to_sfen());
    } else {
        let caps = gen(pos, GenType::CapturesPromotions);
        let quiets = gen(pos, GenType::Quiets);
        let all: HashSet<Move> = gen(pos, GenType::NonEvasions).into_iter().collect();
        assert_eq!(all, legal_set, "non-evasions in {}", pos.to_sfen());
        assert_eq!(caps.len() + quiets.len(), legal.len(), "stages overlap or miss in {}", pos.to_sfen());
        let union: HashSet<Move> = caps.iter().chain(quiets.iter()).copied().collect();
        assert_eq!(union, legal_set, "stages in {}", pos.to_sfen());
        for &m in &caps {
            assert!(pos.is_capture(m) || m.is_promotion(), "{m} is neither capture nor promotion");
        }
        for &m in &quiets {
            assert!(pos.is_quiet(m), "{m} is not quiet");
        }
    }
    let checks: HashSet<Move> = gen(pos, GenType::Checks).into_iter().collect();
    for &m in &legal {
        assert_eq!(pos.gives_check(m), checks.contains(&m), "gives_check({m}) in {}", pos.to_sfen());
        pos.do_move(m);
        let checked = pos.in_check();
        pos.undo_move();
        assert_eq!(checked, checks.contains(&m), "check status of {m} in {}", pos.to_sfen());
    }
}

fn walk(pos: &mut Position, depth: u32, visited: &mut u64) {
    check_stages(pos);
    *visited += 1;
    if depth == 0 {
        return;
    }
    for &m in pos.legal_moves().iter() {
        pos.do_move(m);
        walk(pos, depth - 1, visited);
        pos.undo_move();
    }
}

#[test]
fn staged_generators_add_up_to_the_legal_set() {
    let mut visited = 0;
    for (sfen, depth) in [
        ("startpos", 3),
        ("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1", 2),
        ("8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124", 2),
        ("l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91", 2),
        ("k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1", 2),
        ("7lk/9/8S/9/9/9/9/7L1/8K b P 1", 2),
    ] {
        let mut pos = position(sfen);
        walk(&mut pos, depth, &mut visited);
    }
    assert!(visited > 50_000, "only {visited} nodes checked");
}

/// Deeper counts, run with `cargo test --release -- --ignored` (a few seconds each).
#[test]
#[ignore]
fn deep_counts() {
    let mut pos = Position::startpos();
    assert_eq!(perft(&mut pos, 6), 547_581_517);
    let mut pos = position("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1");
    assert_eq!(perft(&mut pos, 4), 516_925_165);
}
