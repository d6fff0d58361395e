//! Every loader of the engine fed random and mutated bytes: none panics, and none accepts a
//! file that differs from what was written. Files with a checksum (shomei's network, the
//! Dobutsu table and book) must refuse every change; formats without one (YaneuraOu's HalfKP
//! nets, opening books, packed positions) must read a changed file only as what it says, so
//! that writing what was read gives those bytes back. SFEN strings are fuzzed in `tests/sfen.rs`.

use proptest::prelude::*;
use shomei::book::text;
use shomei::dobutsu::book::{Book as DobutsuBook, EMBEDDED_BYTES};
use shomei::dobutsu::{solve, Position as DobutsuPosition, SolveOptions, Table};
use shomei::eval::nnue::halfkp::{AnyHalfKp, Arch};
use shomei::eval::nnue::network::Network;
use shomei::training_data::packed;
use std::io::Cursor;
use std::path::PathBuf;
use std::sync::OnceLock;

/// A change to a file: flip one bit, set one byte, cut the end, add bytes, or drop a slice.
#[derive(Clone, Debug)]
struct Mutation {
    op: u8,
    at: usize,
    value: u8,
    len: usize,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    (0..5u8, any::<usize>(), any::<u8>(), 1..64usize).prop_map(|(op, at, value, len)| Mutation {
        op,
        at,
        value,
        len,
    })
}

/// `bytes` changed by `m`; positions fall in the header and the end more often than not, where
/// the structure is.
fn mutate(bytes: &[u8], m: &Mutation) -> Vec<u8> {
    let n = bytes.len().max(1);
    let at = match m.at % 4 {
        0 => m.at / 4 % 64.min(n),
        1 => n - 1 - (m.at / 4 % 64.min(n)),
        _ => m.at / 4 % n,
    };
    let mut out = bytes.to_vec();
    match m.op {
        0 if !out.is_empty() => out[at] ^= 1 << (m.value % 8),
        1 if !out.is_empty() => out[at] = m.value,
        2 => out.truncate(at),
        3 => out.extend(std::iter::repeat_n(m.value, m.len)),
        _ => {
            let end = (at + m.len).min(out.len());
            out.drain(at.min(end)..end);
        }
    }
    out
}

fn shomei_network() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| shomei::eval::nnue::random_network(3).to_bytes())
}

fn halfkp_network() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| AnyHalfKp::random(Arch::K256x2_32_32, 5).to_bytes())
}

/// A solved Dobutsu sub-game, as `shomei dobutsu solve` writes it.
fn dobutsu_table() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let root = DobutsuPosition::from_sfen("1l1/1c1/1C1/1L1 b - 1").unwrap();
        let (table, _) = solve(&root, SolveOptions { threads: 1, progress: false });
        let path = scratch("source.tbl");
        table.save(&path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        std::fs::remove_file(path).ok();
        bytes
    })
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("shomei-loader-{}-{name}", std::process::id()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn a_changed_shomei_network_is_refused(m in mutation()) {
        let source = shomei_network();
        let changed = mutate(source, &m);
        let read = Network::from_bytes(&changed);
        if changed == source {
            prop_assert!(read.is_ok());
        } else {
            prop_assert!(read.is_err(), "accepted after {m:?}");
        }
    }

    #[test]
    fn a_changed_dobutsu_book_is_refused(m in mutation()) {
        let changed = mutate(EMBEDDED_BYTES, &m);
        prop_assert_eq!(DobutsuBook::parse(&changed).is_ok(), changed == EMBEDDED_BYTES, "after {:?}", m);
    }
}

proptest! {
    // Each case reads a 64 MB net or a table file of tens of MB (its bitmap spans the index).
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn a_changed_dobutsu_table_is_refused(m in mutation()) {
        let source = dobutsu_table();
        let changed = mutate(source, &m);
        let path = scratch(&format!("{}-{}-{}.tbl", m.op, m.at, m.value));
        std::fs::write(&path, &changed).unwrap();
        let read = Table::load(&path);
        std::fs::remove_file(&path).ok();
        prop_assert_eq!(read.is_ok(), changed == source, "after {:?}", m);
    }


    #[test]
    fn a_halfkp_net_is_read_only_as_what_its_bytes_say(m in mutation()) {
        let changed = mutate(halfkp_network(), &m);
        if let Ok(net) = AnyHalfKp::from_bytes(&changed) {
            prop_assert!(net.to_bytes() == changed, "read as something else after {m:?}");
        }
    }
}

/// Book-like text: the words and numbers of the format, and others, in lines.
fn book_text() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("sfen".to_string()),
        Just("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".to_string()),
        Just("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2".to_string()),
        Just("7g7f".to_string()),
        Just("3c3d".to_string()),
        Just("P*5e".to_string()),
        Just("none".to_string()),
        Just("#".to_string()),
        Just("//".to_string()),
        (-100_000i64..100_000).prop_map(|n| n.to_string()),
        "[ -~]{0,8}",
    ];
    proptest::collection::vec(proptest::collection::vec(word, 0..7), 0..40)
        .prop_map(|lines| lines.iter().map(|l| l.join(" ")).collect::<Vec<_>>().join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn a_book_reads_back_to_what_was_read(input in book_text()) {
        let (first, report) = text::read_data(Cursor::new(input.clone())).unwrap();
        prop_assert!(report.malformed <= input.lines().count());
        let mut written = Vec::new();
        text::write(&first, &mut written).unwrap();
        let (second, again) = text::read_data(Cursor::new(written)).unwrap();
        prop_assert_eq!(again.malformed, 0);
        // What was read is written whole (a position without moves is left out).
        let kept: Vec<_> = first.iter().filter(|(_, m)| !m.is_empty()).collect();
        prop_assert_eq!(second.len(), kept.len());
        for (sfen, moves) in kept {
            let mut sorted = moves.clone();
            shomei::book::sort_moves(&mut sorted);
            prop_assert_eq!(&second[sfen], &sorted);
        }
    }

    #[test]
    fn a_book_of_any_bytes_does_not_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = text::read(Cursor::new(bytes), false).unwrap();
    }

    #[test]
    fn packed_positions_read_only_as_what_they_say(bytes in any::<[u8; 32]>()) {
        if let Ok(pos) = packed::unpack(&bytes) {
            // Packed again and read again: the same position.
            let again = packed::unpack(&packed::pack(&pos).unwrap()).unwrap();
            prop_assert_eq!(again.to_sfen(), pos.to_sfen());
        }
    }
}
