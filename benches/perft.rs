//! Single-thread perft speed: shomei with bulk counting (`perft`, the last ply counted from the
//! generated list) and without (`perft_full`, every leaf made and unmade), next to
//! shogi_legality_lite's perft, the independent generator `tests/movegen_oracle.rs` checks
//! against. Run with `cargo bench --bench perft`.
//!
//! The oracle's perft also counts the last ply from its legal move list. It can be far slower;
//! when a run at the full depth is estimated to exceed `ORACLE_BUDGET_SECS` it is measured one
//! ply shallower, the table says so, and shomei is timed at that depth too. "nodes" is the
//! perft count (leaves), and Mnodes/s is leaves per second.

use std::time::Instant;

#[path = "../tests/common/oracle.rs"]
mod oracle;

use oracle::oracle_from_sfen;
use shogi_core::PartialPosition;
use shomei::shogi::perft::{perft, perft_full};
use shomei::Position;

/// The longest single oracle run we are willing to wait for.
const ORACLE_BUDGET_SECS: f64 = 180.0;

struct Case {
    name: &'static str,
    sfen: &'static str,
    depth: u32,
    /// Published perft counts, indexed by depth (see /work/shared/reference/perft.tsv).
    published: &'static [u64],
}

const CASES: [Case; 2] = [
    Case {
        name: "startpos",
        sfen: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        depth: 6,
        published: &[1, 30, 900, 25_470, 719_731, 19_861_490, 547_581_517],
    },
    Case {
        name: "matsuri",
        sfen: "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        depth: 4,
        published: &[1, 207, 28_684, 4_809_015, 516_925_165],
    },
];

struct Row {
    engine: &'static str,
    position: &'static str,
    depth: u32,
    counting: &'static str,
    nodes: u64,
    secs: f64,
    published_ok: bool,
    note: String,
}

/// Runs `f` once and returns its result and the wall time in seconds.
fn timed(f: impl FnOnce() -> u64) -> (u64, f64) {
    let start = Instant::now();
    let nodes = f();
    (nodes, start.elapsed().as_secs_f64())
}

fn oracle_perft(pos: &PartialPosition, depth: u32) -> u64 {
    shogi_legality_lite::perft::perft(pos.clone(), depth as usize).all
}

fn main() {
    let mut rows = Vec::new();
    for case in &CASES {
        let mut pos = Position::from_sfen(case.sfen).expect("valid SFEN");
        let d = case.depth;
        eprintln!("{}: shomei perft({d}) ...", case.name);
        let (nodes, secs) = timed(|| perft(&mut pos, d));
        rows.push(Row {
            engine: "shomei",
            position: case.name,
            depth: d,
            counting: "bulk",
            nodes,
            secs,
            published_ok: nodes == case.published[d as usize],
            note: String::new(),
        });
        eprintln!("{}: shomei perft_full({d}) ...", case.name);
        let (nodes, secs) = timed(|| perft_full(&mut pos, d));
        rows.push(Row {
            engine: "shomei",
            position: case.name,
            depth: d,
            counting: "full",
            nodes,
            secs,
            published_ok: nodes == case.published[d as usize],
            note: String::new(),
        });

        // The oracle's bulk perft costs about one legal-move generation per node at depth - 1,
        // so a run one ply shallower, scaled by perft(d-1)/perft(d-2), predicts the full run.
        let opos = oracle_from_sfen(case.sfen);
        eprintln!("{}: shogi_legality_lite perft({}) ...", case.name, d - 1);
        let (shallow_nodes, shallow_secs) = timed(|| oracle_perft(&opos, d - 1));
        let growth = case.published[d as usize - 1] as f64 / case.published[d as usize - 2] as f64;
        let estimate = shallow_secs * growth;
        let (depth, nodes, secs, note) = if estimate <= ORACLE_BUDGET_SECS {
            eprintln!("{}: shogi_legality_lite perft({d}) (estimated {estimate:.0} s) ...", case.name);
            let (nodes, secs) = timed(|| oracle_perft(&opos, d));
            (d, nodes, secs, String::new())
        } else {
            let note =
                format!("depth {d} skipped: estimated {estimate:.0} s > {ORACLE_BUDGET_SECS:.0} s budget");
            (d - 1, shallow_nodes, shallow_secs, note)
        };
        if depth < d {
            // Same-depth reference so the oracle's row has something to compare with.
            let (nodes, secs) = timed(|| perft(&mut pos, depth));
            rows.push(Row {
                engine: "shomei",
                position: case.name,
                depth,
                counting: "bulk",
                nodes,
                secs,
                published_ok: nodes == case.published[depth as usize],
                note: "same depth as the oracle".into(),
            });
        }
        rows.push(Row {
            engine: "shogi_legality_lite",
            position: case.name,
            depth,
            counting: "bulk",
            nodes,
            secs,
            published_ok: nodes == case.published[depth as usize],
            note,
        });
    }

    println!();
    println!(
        "{:<20} {:<9} {:>5} {:<8} {:>12} {:>9} {:>9}  {:<9} note",
        "engine", "position", "depth", "counting", "nodes", "seconds", "Mnodes/s", "published"
    );
    for r in &rows {
        println!(
            "{:<20} {:<9} {:>5} {:<8} {:>12} {:>9.3} {:>9.2}  {:<9} {}",
            r.engine,
            r.position,
            r.depth,
            r.counting,
            r.nodes,
            r.secs,
            r.nodes as f64 / r.secs / 1e6,
            if r.published_ok { "match" } else { "MISMATCH" },
            r.note
        );
    }
}
