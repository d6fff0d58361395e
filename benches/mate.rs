//! Tsume solver speed: every problem of `tests/data/mate_problems.txt` (mate in 3 to 15, known
//! lengths), with per-problem time and nodes and the totals; the cost of `mate_in_one`; and,
//! on request, the long classic problems.
//!
//! ```text
//! cargo bench --bench mate                       # the problem set and mate_in_one
//! cargo bench --bench mate -- --classics         # also the long classics (minutes each)
//! cargo bench --bench mate -- --classics-only --secs 600 --hash 4096
//! ```
//! Options: `--hash MB` table size for the problem set (default 256) and, with the classics,
//! for them (default 4096); `--secs S` time limit per classic (default 600); `--only NAME`
//! runs one classic (`megalopolis`, `shintougenkyou`, `microcosmos`).
//!
//! Columns: `len` the recorded length (shortest mate counting every defence), `mate` the length
//! the solver proved shortest (`MateStats::mate_len`), `line` the length of the reported line,
//! "srch nodes" the nodes of the proof search, "nodes" those plus the searches of line
//! extraction (shortening to the shortest mate, re-proving, interposition tests). A node is a
//! move made inside the search.

#[path = "../tests/common/rng.rs"]
mod rng;

use rng::Rng;
use shomei::mate::{mate_in_one, MateLimits, MateProgress, MateResult, MateSolver};
use shomei::shogi::SfenMode;
use shomei::{Move, Position};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const PROBLEMS: &str = include_str!("../tests/data/mate_problems.txt");

struct Classic {
    id: &'static str,
    name: &'static str,
    sfen: &'static str,
    published: usize,
}

const CLASSICS: [Classic; 3] = [
    Classic {
        id: "megalopolis",
        name: "メガロポリス",
        sfen: "2G1+n3S/1gnP+lpkP1/3SS2ps/2G+pNG1+r1/2+p+pp+ppL1/1+p+p1+p4/+p+p1+p2N2/2+p2P3/9 b R2L2b 1",
        published: 515,
    },
    Classic {
        id: "shintougenkyou",
        name: "新桃花源",
        sfen: "p2+N3g1/P2R3+pP/g3+BnpP1/lPP1+p3p/+LnnS2+LS+p/G+P1l+Bp+P1+p/3pp1P1g/9/4kSR1s b - 1",
        published: 1205,
    },
    Classic {
        id: "microcosmos",
        name: "ミクロコスモス",
        sfen: "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1",
        published: 1525,
    },
];

fn pos(sfen: &str) -> Position {
    Position::from_sfen_mode(sfen, SfenMode::Composed).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// Every move legal, every attacker move a check, mate at the end.
fn line_ok(root: &Position, line: &[Move]) -> bool {
    let mut p = root.clone();
    for (i, &m) in line.iter().enumerate() {
        if !p.legal_moves().contains(m) || (i % 2 == 0 && !p.gives_check(m)) {
            return false;
        }
        p.do_move(m);
    }
    line.len() % 2 == 1 && p.in_check() && p.legal_moves().is_empty()
}

fn arg_value(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned()
}

fn problem_set(hash_mb: usize) {
    println!("== problem set (tests/data/mate_problems.txt), hash {hash_mb} MB, 60 s limit each");
    println!(
        "{:>3} {:>4} {:>4} {:>4} {:>11} {:>11} {:>9} {:>9}  sfen",
        "#", "len", "mate", "line", "srch nodes", "nodes", "ms", "knps"
    );
    let mut solver = MateSolver::new(hash_mb);
    let stop = AtomicBool::new(false);
    let (mut total_search, mut total_nodes, mut total_time) = (0u64, 0u64, Duration::ZERO);
    let (mut wrong, mut count) = (0, 0);
    let mut by_len: std::collections::BTreeMap<usize, (usize, u64, Duration)> = Default::default();
    let mut times: Vec<f64> = Vec::new();
    for line in PROBLEMS.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let (sfen, len) = (f[0], f[1].parse::<usize>().expect("length"));
        let root = pos(sfen);
        let limits = MateLimits { time: Some(Duration::from_secs(60)), nodes: None };
        let r = solver.solve(&root, limits, &stop, &mut |_| {});
        let st = solver.stats();
        // The shortest mate the solver proved, and the length of the line it reports (shorter
        // only where it skips a useless interposition).
        let (got, line_len) = match &r {
            MateResult::Mate(l) if line_ok(&root, l) => (st.mate_len as usize, l.len()),
            _ => (0, 0),
        };
        count += 1;
        if got != len || line_len > len {
            wrong += 1;
        }
        total_search += st.search_nodes;
        total_nodes += st.nodes;
        total_time += st.time;
        times.push(st.time.as_secs_f64() * 1000.0);
        let e = by_len.entry(len).or_default();
        e.0 += 1;
        e.1 += st.nodes;
        e.2 += st.time;
        let ms = st.time.as_secs_f64() * 1000.0;
        let knps = st.nodes as f64 / st.time.as_secs_f64().max(1e-9) / 1000.0;
        println!(
            "{count:3} {len:4} {got:4} {line_len:4} {:11} {:11} {ms:9.2} {knps:9.0}  {sfen}",
            st.search_nodes, st.nodes
        );
    }
    times.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let max = times.last().copied().unwrap_or(0.0);
    println!("-- by length: len, problems, nodes, time");
    for (len, (n, nodes, t)) in &by_len {
        println!("   {len:3} {n:4} {nodes:12} {:9.3}s", t.as_secs_f64());
    }
    let secs = total_time.as_secs_f64();
    println!(
        "-- {count} problems, {wrong} wrong or unsolved; {total_search} search nodes, {total_nodes} nodes in {secs:.2}s \
         ({:.0} knodes/s); per problem median {median:.1} ms, max {max:.1} ms",
        total_nodes as f64 / secs.max(1e-9) / 1000.0
    );
}

/// Positions from seeded random games that prefer captures (hands fill, kings get exposed).
fn game_positions() -> Vec<Position> {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut out = Vec::new();
    for _ in 0..40 {
        let mut p = Position::startpos();
        for _ in 0..120 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let caps: Vec<Move> = moves.iter().copied().filter(|&m| p.is_capture(m)).collect();
            let m = if !caps.is_empty() && rng.below(4) != 0 {
                caps[rng.index(caps.len())]
            } else {
                moves[rng.index(moves.len())]
            };
            p.do_move(m);
            out.push(p.clone());
        }
    }
    out
}

fn time_mate_in_one(label: &str, positions: &mut [Position]) {
    let reps = (200_000 / positions.len().max(1)).max(1);
    let mut found = 0;
    let start = Instant::now();
    for _ in 0..reps {
        for p in positions.iter_mut() {
            found += mate_in_one(p).is_some() as usize;
        }
    }
    let calls = reps * positions.len();
    let ns = start.elapsed().as_nanos() as f64 / calls as f64;
    println!(
        "== mate_in_one, {label}: {} positions x {reps}: {:.0} ns per call ({} of {} positions have one)",
        positions.len(),
        ns,
        found / reps,
        positions.len()
    );
}

fn mate_in_one_cost() {
    // Attacker-to-move positions from the set and one ply into each line (defender replies
    // included, so most have no mate in one).
    let mut positions = Vec::new();
    for line in PROBLEMS.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let mut p = pos(f[0]);
        positions.push(p.clone());
        for (i, m) in f[2].split_whitespace().enumerate() {
            let mv = p.parse_move(m).expect("line move");
            p.do_move(mv);
            if i % 2 == 1 {
                positions.push(p.clone());
            }
        }
    }
    time_mate_in_one("tsume positions", &mut positions);
    time_mate_in_one("random game positions", &mut game_positions());
}

fn classics(hash_mb: usize, secs: u64, only: Option<&str>) {
    for c in CLASSICS.iter().filter(|c| only.is_none_or(|o| o == c.id)) {
        println!("== {} ({}), published {} plies; hash {hash_mb} MB, {secs} s", c.name, c.id, c.published);
        let root = pos(c.sfen);
        let mut solver = MateSolver::new(hash_mb);
        let stop = AtomicBool::new(false);
        let limits = MateLimits { time: Some(Duration::from_secs(secs)), nodes: None };
        let mut last = 0u64;
        let r = solver.solve(&root, limits, &stop, &mut |p: MateProgress| {
            if p.time_ms >= last + 30_000 {
                last = p.time_ms;
                println!(
                    "   {:6} s {:13} nodes {:6} knps root pn {} dn {} hashfull {}",
                    p.time_ms / 1000,
                    p.nodes,
                    p.nodes / p.time_ms.max(1),
                    p.root_pn,
                    p.root_dn,
                    p.hashfull
                );
            }
        });
        let st = solver.stats();
        let mem_mb = st.table_used * 16 / (1024 * 1024);
        match &r {
            MateResult::Mate(l) => {
                println!(
                    "   mate in {} plies (line checked: {}), proof length {}, {} search nodes, {} nodes, {:.1} s",
                    l.len(),
                    line_ok(&root, l),
                    st.proof_len,
                    st.search_nodes,
                    st.nodes,
                    st.time.as_secs_f64()
                );
                println!(
                    "   table {} of {} entries (~{} MB), {} GC, deepest ply {}",
                    st.table_used, st.table_capacity, mem_mb, st.gc_runs, st.max_ply
                );
                let head: Vec<String> = l.iter().take(12).map(|m| m.to_string()).collect();
                println!("   line starts: {} ...", head.join(" "));
            }
            other => println!(
                "   {other:?} after {:.1} s, {} nodes, table {} of {} entries (~{} MB), {} GC, deepest ply {}",
                st.time.as_secs_f64(),
                st.nodes,
                st.table_used,
                st.table_capacity,
                mem_mb,
                st.gc_runs,
                st.max_ply
            ),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let has = |a: &str| args.iter().any(|x| x == a);
    let classics_only = has("--classics-only");
    if !classics_only {
        let hash = arg_value(&args, "--hash").and_then(|v| v.parse().ok()).unwrap_or(256);
        problem_set(if has("--classics") { 256 } else { hash });
        mate_in_one_cost();
    }
    if has("--classics") || classics_only {
        let hash = arg_value(&args, "--hash").and_then(|v| v.parse().ok()).unwrap_or(4096);
        let secs = arg_value(&args, "--secs").and_then(|v| v.parse().ok()).unwrap_or(600);
        let only = arg_value(&args, "--only");
        classics(hash, secs, only.as_deref());
    }
}
