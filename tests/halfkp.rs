//! YaneuraOu's HalfKP networks: shomei evaluates them number for number as YaneuraOu does.
//!
//! `tests/data/halfkp/<arch>.tsv` holds, for seeded random networks that shomei writes
//! (`HalfKpNet::random`, the same as `shomei nnue random <arch> <seed> nn.bin`), the evaluations
//! YaneuraOu's NNUE build of that architecture printed (`e`) for 1,200 varied positions at three
//! `FV_SCALE`s. The tests rebuild each net, write it and read it back through the file format,
//! and compare every evaluation exactly, by the AVX2 layers and by the portable ones.
//!
//! The fixtures are recorded by the ignored test `record_yaneuraou_evaluations` (the command is
//! in each file's header); CI has no YaneuraOu and only reads them.

mod common {
    pub mod halfkp_fixture;
    pub mod random_play;
    pub mod twins;
}

use common::halfkp_fixture::{read_fixture, FV_SCALES};
use common::random_play::random_play;
use common::twins::ungrid;
use shomei::eval::nnue::halfkp::{AnyHalfKp, Arch};
use shomei::eval::nnue::{self, AnyNetwork};
use shomei::rng::Rng;
use shomei::shogi::sfen::hands_sfen;
use shomei::types::{Color, Hand, PieceKind, Square};
use shomei::{Piece, Position};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The seed of every fixture's network.
const NET_SEED: u64 = 20_261_127;

/// The folder of the fixtures.
fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/halfkp")
}

fn fixture_path(arch: Arch) -> PathBuf {
    common::halfkp_fixture::fixture_path(&fixture_dir(), arch)
}

/// The fixture's network, written to a file and read back through `nnue::load`.
fn network_through_its_file(arch: Arch, seed: u64) -> AnyHalfKp {
    let net = AnyHalfKp::random(arch, seed);
    let path = std::env::temp_dir().join(format!("shomei-halfkp-{}-{}.bin", arch.name(), std::process::id()));
    std::fs::write(&path, net.to_bytes()).unwrap();
    let loaded = nnue::load(&path);
    std::fs::remove_file(&path).ok();
    match loaded {
        Ok(AnyNetwork::HalfKp { net: back, fv_scale: 16 }) => {
            assert_eq!(back, net);
            back
        }
        other => panic!("{} read back as {other:?}", arch.name()),
    }
}

/// Compares every evaluation of `arch`'s fixture; returns how many positions it holds.
fn check_fixture(arch: Arch) -> usize {
    let fixture = read_fixture(&fixture_dir(), arch);
    let net = network_through_its_file(arch, fixture.seed);
    let mut wrong = Vec::new();
    for (sfen, expected) in &fixture.rows {
        let pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        for (fv, want) in FV_SCALES.iter().zip(expected) {
            let got = net.evaluate(&pos, *fv);
            if got != *want {
                wrong.push(format!("FV_SCALE {fv}: {got} where YaneuraOu has {want}: {sfen}"));
            }
        }
        let (portable, avx2) = net.outputs_by_path(&pos);
        if avx2.is_some_and(|v| v != portable) {
            wrong.push(format!("AVX2 output {avx2:?}, portable {portable}: {sfen}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} differ, first: {:#?}",
        wrong.len(),
        fixture.rows.len(),
        &wrong[..wrong.len().min(5)]
    );
    fixture.rows.len()
}

#[test]
fn halfkp_256x2_32_32_evaluates_as_yaneuraou_does() {
    assert!(check_fixture(Arch::K256x2_32_32) >= 1000);
}

#[test]
fn halfkp_512x2_16_32_evaluates_as_yaneuraou_does() {
    assert!(check_fixture(Arch::K512x2_16_32) >= 1000);
}

#[test]
fn halfkp_1024x2_8_32_evaluates_as_yaneuraou_does() {
    assert!(check_fixture(Arch::K1024x2_8_32) >= 1000);
}

#[test]
fn halfkp_1024x2_8_64_evaluates_as_yaneuraou_does() {
    assert!(check_fixture(Arch::K1024x2_8_64) >= 1000);
}

/// The fixture's positions cover what the issue asks for: hands, promoted pieces, missing
/// pieces, each king on every rank, both sides to move; and the recorded values are varied
/// and sometimes clamped.
#[test]
fn the_fixture_positions_cover_hands_promotions_handicaps_and_every_king_rank() {
    let fixture = read_fixture(&fixture_dir(), Arch::K256x2_32_32);
    let (mut hands, mut promoted, mut missing, mut white_to_move) = (0, 0, 0, 0);
    let mut king_ranks = [BTreeSet::new(), BTreeSet::new()];
    for (sfen, _) in &fixture.rows {
        let pos = Position::from_sfen(sfen).unwrap();
        let mut pieces = 0;
        let mut any_promoted = false;
        for sq in Square::all() {
            let p = pos.piece_on(sq);
            if p.is_some() && p.kind() != PieceKind::King {
                pieces += 1;
                any_promoted |= p.kind().is_promoted();
            }
        }
        let in_hand: u32 =
            Color::ALL.iter().flat_map(|&c| PieceKind::HAND.map(|k| pos.hand(c).count(k))).sum();
        hands += usize::from(in_hand > 0);
        promoted += usize::from(any_promoted);
        missing += usize::from(pieces + in_hand < 38);
        white_to_move += usize::from(pos.side_to_move() == Color::White);
        for c in Color::ALL {
            king_ranks[c.index()].insert(pos.king_square(c).rank());
        }
    }
    let n = fixture.rows.len();
    assert!(hands > n / 2 && promoted > n / 4 && missing > 50, "{hands} {promoted} {missing} of {n}");
    assert!(white_to_move > n / 3 && white_to_move < 2 * n / 3, "{white_to_move} of {n}");
    assert_eq!(king_ranks, [(0..9).collect(), (0..9).collect()]);
    let values: BTreeSet<i32> = fixture.rows.iter().map(|r| r.1[0]).collect();
    assert!(values.len() > n / 2, "{} distinct values", values.len());
    assert!(fixture.rows.iter().any(|r| r.1[2].abs() == 31_753), "FV_SCALE 1 never reaches the clamp");
}

/// Damaged and foreign files are refused, each with its reason, through the same loader
/// `EvalFile` uses.
#[test]
fn damaged_and_foreign_files_are_refused_with_their_reason() {
    let good = AnyHalfKp::random(Arch::K256x2_32_32, 3).to_bytes();
    let dir = std::env::temp_dir().join(format!("shomei-halfkp-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let refused = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let e = nnue::load(&path).expect_err(name);
        std::fs::remove_file(&path).ok();
        e
    };
    let cut = refused("cut", &good[..good.len() - 1000]);
    assert!(cut.contains("cut short") && cut.contains("halfkp_256x2-32-32"), "{cut}");
    let mut long = good.clone();
    long.push(0);
    assert!(refused("long", &long).contains("longer than its architecture"));
    let mut header_hash = good.clone();
    header_hash[4] ^= 1;
    let e = refused("header", &header_hash);
    assert!(e.contains("header hash") && e.contains("damaged"), "{e}");
    let mut ft_hash = good.clone();
    ft_hash[12 + 178] ^= 0x80;
    let e = refused("transformer", &ft_hash);
    assert!(e.contains("feature transformer hash"), "{e}");
    let mut version = good.clone();
    version[0] ^= 1;
    assert!(refused("version", &version).contains("neither a shomei network"));
    assert!(refused("header only", &good[..10]).contains("header"));
    // Other architectures, named by their strings: refused, saying what they are.
    for (string, hash) in [
        ("Features=HalfKPE9(Friend)[1128492->256x2],Network=AffineTransform[1<-32](...)", 0x5f13_4cb8u32),
        ("Features=KP[1548->256x2],Network=AffineTransform[1<-32](...)", 0x1c10_4d0fu32),
        ("Features=HalfKP(Friend)[125388->1536x2],Network=SFNN", 0x3e5a_a6efu32),
    ] {
        let mut bytes = Vec::new();
        for w in [0x7AF3_2F16u32, hash, string.len() as u32] {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        bytes.extend_from_slice(string.as_bytes());
        bytes.extend_from_slice(&good[12 + 178..]);
        let e = refused("other", &bytes);
        assert!(e.contains(string) && e.contains("not one this build reads"), "{e}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

// ---- recording the fixtures (needs YaneuraOu) --------------------------------------------

/// Positions for the fixture: random games from the start and from handicaps (hands fill,
/// pieces promote), and random placements of all or most of the pieces with the kings on every
/// rank. All are game positions (no dead pieces, no two pawns on a file, the side not to move
/// not in check), as both engines read them.
fn fixture_positions() -> Vec<String> {
    let mut out = Vec::new();
    for (i, p) in random_play("startpos", 0x4b50_0001, 40, 160).iter().enumerate() {
        if i % 11 == 0 {
            out.push(p.to_sfen());
        }
    }
    let handicaps = [
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ];
    for (h, start) in handicaps.iter().enumerate() {
        for (i, p) in random_play(start, 0x4b50_0100 + h as u64, 6, 120).iter().enumerate() {
            if i % 19 == 0 {
                out.push(p.to_sfen());
            }
        }
    }
    let mut rng = Rng::new(0x4b50_0200);
    let mut placed = 0;
    while placed < 500 {
        if let Some(sfen) = random_placement(&mut rng, placed) {
            out.push(sfen);
            placed += 1;
        }
    }
    out
}

/// A random placement: the kings on ranks chosen from `n` (so that each king meets every
/// rank), every other piece on a random square (promoted a third of the time) or in a hand,
/// one in ten placements missing a few pieces. `None` when it is no game position.
fn random_placement(rng: &mut Rng, n: usize) -> Option<String> {
    let mut board = [Piece::NONE; 81];
    let black_king = Square::new(rng.below(9) as u8, (n % 9) as u8);
    let white_king = Square::new(rng.below(9) as u8, (n / 9 % 9) as u8);
    if black_king == white_king {
        return None;
    }
    board[black_king.index()] = Piece::new(Color::Black, PieceKind::King);
    board[white_king.index()] = Piece::new(Color::White, PieceKind::King);
    let mut hands = [Hand::EMPTY; 2];
    let left_out = if rng.below(10) == 0 { 1 + rng.below(6) } else { 0 };
    let mut pieces: Vec<PieceKind> =
        PieceKind::HAND.iter().flat_map(|&k| (0..k.set_count()).map(move |_| k)).collect();
    rng.shuffle(&mut pieces);
    for &kind in &pieces[left_out..] {
        let color = if rng.chance(50) { Color::Black } else { Color::White };
        if rng.below(4) == 0 {
            hands[color.index()].add(kind);
            continue;
        }
        let sq = Square::new(rng.below(9) as u8, rng.below(9) as u8);
        if board[sq.index()].is_some() {
            hands[color.index()].add(kind);
            continue;
        }
        let promote = kind.can_promote() && rng.below(3) == 0;
        board[sq.index()] = Piece::new(color, if promote { kind.promoted() } else { kind });
    }
    let side = if rng.chance(50) { "b" } else { "w" };
    let sfen = format!("{} {side} {} 1", board_sfen(&board), hands_sfen(hands[0], hands[1]));
    // Unpromoted pieces on squares they cannot leave, two pawns on a file: the parser refuses.
    let pos = Position::from_sfen(&sfen).ok()?;
    // The side not to move may not be in check.
    let other = format!(
        "{} {} {} 1",
        board_sfen(&board),
        if side == "b" { "w" } else { "b" },
        hands_sfen(hands[0], hands[1])
    );
    if Position::from_sfen(&other).ok()?.in_check() {
        return None;
    }
    Some(pos.to_sfen())
}

/// The SFEN board field of `board`.
fn board_sfen(board: &[Piece; 81]) -> String {
    let token = |p: Piece| if p.is_none() { String::new() } else { p.sfen() };
    let ranks: Vec<Vec<String>> = (0..9u8)
        .map(|rank| (0..9u8).rev().map(|file| token(board[Square::new(file, rank).index()])).collect())
        .collect();
    ungrid(&ranks)
}

/// YaneuraOu's evaluations (`e`) of `positions` with the network in `dir/nn.bin`, at each of
/// `FV_SCALES`.
fn yaneuraou_evaluations(engine: &str, dir: &Path, positions: &[String]) -> Vec<[i32; 3]> {
    let mut child = Command::new(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {engine}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let mut script = format!(
        "usi\nsetoption name Threads value 1\nsetoption name BookFile value no_book\nsetoption name EvalDir value {}\nisready\n",
        dir.display()
    );
    for fv in FV_SCALES {
        // A position is evaluated when it is set up, so FV_SCALE goes first.
        script.push_str(&format!("setoption name FV_SCALE value {fv}\n"));
        for sfen in positions {
            script.push_str(&format!("position sfen {sfen}\ne\n"));
        }
    }
    script.push_str("quit\n");
    let writer = std::thread::spawn(move || stdin.write_all(script.as_bytes()));
    let mut values = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let warning = ["Error", "Warning", "hash"].iter().any(|w| line.contains(w));
        assert!(!(line.starts_with("info string") && warning), "{engine}: {line}");
        if let Some(v) = line.strip_prefix("eval = ") {
            values.push(v.trim().parse::<i32>().unwrap());
        }
    }
    writer.join().unwrap().unwrap();
    child.wait().unwrap();
    assert_eq!(values.len(), 3 * positions.len(), "{engine} answered too few evaluations");
    (0..positions.len()).map(|i| std::array::from_fn(|k| values[k * positions.len() + i])).collect()
}

/// The SHA-256 of a file, by the system's `sha256sum`.
fn sha256(path: &Path) -> String {
    let out = Command::new("sha256sum").arg(path).output().expect("sha256sum runs");
    String::from_utf8(out.stdout).unwrap().split_whitespace().next().unwrap_or("?").to_string()
}

/// Records every fixture from YaneuraOu builds of each architecture. The engines are named by
/// the environment: `YANEURAOU_NNUE` (default `yaneuraou-nnue`, from `build_peers.sh`) for
/// halfkp_256x2-32-32, and `YANEURAOU_NNUE_<ARCH>` (as `YANEURAOU_NNUE_HALFKP_512X2_16_32`) for
/// the others, built from the same commit with `make normal YANEURAOU_EDITION=
/// YANEURAOU_ENGINE_NNUE_<ARCH> TARGET_CPU=AVX2`; an architecture without one is skipped.
#[test]
#[ignore = "needs YaneuraOu's NNUE builds; writes tests/data/halfkp"]
fn record_yaneuraou_evaluations() {
    let positions = fixture_positions();
    for arch in Arch::ALL {
        let var = format!("YANEURAOU_NNUE_{}", arch.name().to_uppercase().replace('-', "_"));
        let engine = match (arch, std::env::var(&var), std::env::var("YANEURAOU_NNUE")) {
            (_, Ok(e), _) => e,
            (Arch::K256x2_32_32, _, Ok(e)) => e,
            (Arch::K256x2_32_32, _, _) => "yaneuraou-nnue".to_string(),
            _ => {
                eprintln!("{}: no {var}, skipped", arch.name());
                continue;
            }
        };
        let dir = std::env::temp_dir().join(format!("shomei-record-{}", arch.name()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("nn.bin");
        std::fs::write(&file, AnyHalfKp::random(arch, NET_SEED).to_bytes()).unwrap();
        let evals = yaneuraou_evaluations(&engine, &dir, &positions);
        let mut text = format!(
            "# YaneuraOu's static evaluations (its `e` command) of a seeded random {name} network.\n\
             # Network: `shomei nnue random {name} {NET_SEED} nn.bin`, SHA-256 {sha}.\n\
             # Engine: {engine}: YaneuraOu 33ccf1f907eb7184889fa23051243f81ab0bf973, `make normal \
             YANEURAOU_EDITION=YANEURAOU_ENGINE_NNUE{edition} TARGET_CPU=AVX2 COMPILER=g++`, Threads 1, EvalDir <dir with nn.bin>.\n\
             # Recorded by: cargo test --release --test halfkp -- --ignored record_yaneuraou_evaluations\n\
             # Columns: evaluation at FV_SCALE {}, {}, {}; the position (sfen).\n\
             seed {NET_SEED}\n",
            FV_SCALES[0],
            FV_SCALES[1],
            FV_SCALES[2],
            name = arch.name(),
            sha = sha256(&file),
            edition = if arch == Arch::K256x2_32_32 {
                String::new()
            } else {
                format!("_{}", arch.name().to_uppercase().replace('-', "_"))
            },
        );
        for (sfen, e) in positions.iter().zip(&evals) {
            text.push_str(&format!("{}\t{}\t{}\t{sfen}\n", e[0], e[1], e[2]));
        }
        std::fs::create_dir_all(fixture_path(arch).parent().unwrap()).unwrap();
        std::fs::write(fixture_path(arch), text).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        eprintln!("{}: {} positions recorded", arch.name(), positions.len());
    }
}

/// A trained net's evaluations against YaneuraOu's on positions of real games: `SHOMEI_NET`
/// names an `nn.bin`, `SHOMEI_DATA` a gensfen file whose records, evenly spaced,
/// give `SHOMEI_POSITIONS` positions (default 1,000); `YANEURAOU_NNUE` the engine (default
/// `yaneuraou-nnue`). Every evaluation at every `FV_SCALE` of the fixtures must be equal.
#[test]
#[ignore = "needs YaneuraOu's NNUE build, a trained net and data (SHOMEI_NET, SHOMEI_DATA)"]
fn a_trained_net_evaluates_as_yaneuraou_does() {
    let net_path = PathBuf::from(std::env::var("SHOMEI_NET").expect("SHOMEI_NET: an nn.bin"));
    let data = std::fs::read(std::env::var("SHOMEI_DATA").expect("SHOMEI_DATA: a gensfen file")).unwrap();
    let wanted: usize = std::env::var("SHOMEI_POSITIONS").map_or(1000, |n| n.parse().unwrap());
    let engine = std::env::var("YANEURAOU_NNUE").unwrap_or_else(|_| "yaneuraou-nnue".into());
    let records = shomei::training_data::record::read_records(&mut data.as_slice()).unwrap();
    let step = (records.len() / wanted).max(1);
    let positions: Vec<String> =
        records.iter().step_by(step).take(wanted).map(|r| r.position().unwrap().to_sfen()).collect();
    let Ok(AnyNetwork::HalfKp { net, .. }) = nnue::load(&net_path) else { panic!("not a HalfKP net") };
    let dir = std::env::temp_dir().join(format!("shomei-trained-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(&net_path, dir.join("nn.bin")).unwrap();
    let theirs = yaneuraou_evaluations(&engine, &dir, &positions);
    std::fs::remove_dir_all(&dir).ok();
    let mut differ = 0;
    for (sfen, expected) in positions.iter().zip(&theirs) {
        let pos = Position::from_sfen(sfen).unwrap();
        for (fv, want) in FV_SCALES.iter().zip(expected) {
            if net.evaluate(&pos, *fv) != *want {
                differ += 1;
                eprintln!("FV_SCALE {fv}: shomei {}, YaneuraOu {want}: {sfen}", net.evaluate(&pos, *fv));
            }
        }
    }
    let spread = theirs.iter().map(|e| e[0]).fold((i32::MAX, i32::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    eprintln!(
        "{} positions, {} evaluations each: {differ} differ; YaneuraOu's at FV_SCALE 16 span {} to {}",
        positions.len(),
        FV_SCALES.len(),
        spread.0,
        spread.1
    );
    assert_eq!(differ, 0);
}
