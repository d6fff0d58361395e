//! Tools for working on the tsume solver, driven by environment variables: not tests, so not
//! run by `cargo test`. Run one with
//!
//! ```text
//! cargo bench --bench mate_tools -- <tool>    (e.g. SFEN="..." cargo bench --bench mate_tools -- solve)
//! ```
//!
//! Tools: `generate_problem_set`, `random_distribution`, `solve`, `solve_file`, `exhaustive`,
//! `find_special`; each documents the variables it reads.

#[path = "../tests/common/rng.rs"]
mod rng;
#[path = "../tests/common/tsume.rs"]
mod tsume;

use shomei::mate::{mate_in_one, MateLimits, MateProgress, MateResult, MateSolver};
use shomei::{Color, PieceKind};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tsume::*;

const TOOLS: [(&str, fn()); 6] = [
    ("generate_problem_set", generate_problem_set),
    ("random_distribution", tool_random_distribution),
    ("solve", tool_solve),
    ("solve_file", tool_solve_file),
    ("exhaustive", tool_exhaustive),
    ("find_special", tool_find_special),
];

fn main() {
    // `cargo bench` passes `--bench`; the tool is the first other argument.
    let name = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    match name.and_then(|n| TOOLS.iter().find(|(t, _)| *t == n)) {
        Some((_, tool)) => tool(),
        None => {
            let names: Vec<&str> = TOOLS.iter().map(|(t, _)| *t).collect();
            eprintln!("usage: cargo bench --bench mate_tools -- <tool>; tools: {}", names.join(", "));
        }
    }
}

/// Writes `tests/data/mate_problems.txt` (see its header); takes hours.
fn generate_problem_set() {
    // Wanted problems per length.
    let quota: [(usize, usize); 7] = [(3, 14), (5, 16), (7, 16), (9, 16), (11, 14), (13, 12), (15, 12)];
    let mut found: std::collections::BTreeMap<usize, Vec<String>> = std::collections::BTreeMap::new();
    let mut rng = Rng(0x7573_756d_655f_3031);
    let mut solver = MateSolver::new(128);
    let stop = AtomicBool::new(false);
    let mut tried = 0u64;
    let t0 = Instant::now();
    let full = |found: &std::collections::BTreeMap<usize, Vec<String>>| {
        quota.iter().all(|&(l, q)| found.get(&l).map_or(0, |v| v.len()) >= q)
    };
    let mut seen = std::collections::HashSet::new();
    while !full(&found) && t0.elapsed() < Duration::from_secs(3 * 3600) {
        // Two mixes of piece counts; the second gives longer mates more often.
        let (a, d, h) = if tried.is_multiple_of(2) {
            (2 + rng.below(3), rng.below(3), 1 + rng.below(3))
        } else {
            (3 + rng.below(3), rng.below(6), 1 + rng.below(2))
        };
        let Some(s) = random_tsume(&mut rng, a, d, h) else { continue };
        tried += 1;
        let mut p = pos(&s);
        if mate_in_one(&mut p).is_some() {
            continue;
        }
        let r = solver.solve(&p, MateLimits { time: None, nodes: Some(500_000) }, &stop, &mut |_| {});
        let st = solver.stats();
        let MateResult::Mate(line) = r else { continue };
        let len = line.len();
        let Some(&(_, q)) = quota.iter().find(|&&(l, _)| l == len) else { continue };
        if found.get(&len).map_or(0, |v| v.len()) >= q || !st.exact || st.mate_len as usize != len {
            continue;
        }
        if !seen.insert(p.board_key()) {
            continue;
        }
        check_line(&s, &line);
        // Independent confirmation by the exhaustive search.
        let note = if len <= 7 {
            match exhaustive(&s, len as u32, 20_000_000) {
                Ok(Some(n)) if n as usize == len => "exhaustive: shortest mate".to_string(),
                Ok(other) => panic!("{s}: solver says {len}, exhaustive search says {other:?}"),
                Err(_) => continue,
            }
        } else {
            match exhaustive(&s, len as u32 - 2, 20_000_000) {
                Ok(None) => format!("exhaustive: no mate within {}", len - 2),
                Ok(Some(n)) => panic!("{s}: solver says {len}, exhaustive search finds {n}"),
                Err(d) if d >= 7 => format!("exhaustive: no mate within {} (capped at {d})", d - 2),
                Err(_) => continue,
            }
        };
        println!("{len:2} {s} ({} nodes) {note}", st.nodes);
        found.entry(len).or_default().push(format!("{s}\t{len}\t{}\t{note}", line_str(&line)));
    }
    let mut out = String::new();
    out.push_str(PROBLEM_SET_HEADER);
    for v in found.values() {
        for l in v {
            out.push_str(l);
            out.push('\n');
        }
    }
    std::fs::create_dir_all("tests/data").unwrap();
    std::fs::write("tests/data/mate_problems.txt", out).unwrap();
    println!("{tried} positions tried in {:?}", t0.elapsed());
}

/// Solves `N` random tsume-like positions (`SEED`, piece-count ranges `AMIN` `ARANGE` `DRANGE`
/// `HMIN` `HRANGE`, node cap `CAP`) and prints the distribution of results; mates of 13 plies or
/// more are printed in full.
fn tool_random_distribution() {
    let n: usize = std::env::var("N").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    let seed: u64 = std::env::var("SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let mut rng = Rng(0x1234_5678 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut solver = MateSolver::new(64);
    let stop = AtomicBool::new(false);
    let mut hist = std::collections::BTreeMap::new();
    let mut tried = 0;
    let t0 = Instant::now();
    let mut total_nodes = 0;
    let amin = env_or("AMIN", 2);
    let arange = env_or("ARANGE", 4);
    let drange = env_or("DRANGE", 6);
    let hmin = env_or("HMIN", 0);
    let hrange = env_or("HRANGE", 4);
    let cap = env_or("CAP", 300_000);
    while tried < n {
        let (a, d, h) = (amin + rng.below(arange), rng.below(drange), hmin + rng.below(hrange));
        let Some(s) = random_tsume(&mut rng, a, d, h) else { continue };
        tried += 1;
        let r = solver.solve(&pos(&s), MateLimits { time: None, nodes: Some(cap) }, &stop, &mut |_| {});
        let st = solver.stats();
        total_nodes += st.nodes;
        let key = match &r {
            MateResult::Mate(l) => {
                check_line(&s, l);
                if l.len() >= 13 {
                    println!("{s}\t{}\t{} nodes {:?} exact {}", l.len(), st.nodes, st.time, st.exact);
                }
                format!("mate{:02}", l.len())
            }
            MateResult::NoMate => "nomate".into(),
            MateResult::Timeout => "timeout".into(),
        };
        *hist.entry(key).or_insert(0) += 1;
    }
    println!("{hist:?} in {:?}, {} nodes", t0.elapsed(), total_nodes);
}

/// Solves `SFEN` with a table of `MB` megabytes for at most `SECS` seconds, printing progress.
fn tool_solve() {
    let s = std::env::var("SFEN").unwrap();
    let mb: usize = std::env::var("MB").ok().and_then(|v| v.parse().ok()).unwrap_or(256);
    let secs: u64 = std::env::var("SECS").ok().and_then(|v| v.parse().ok()).unwrap_or(30);
    let p = pos(&s);
    let mut solver = MateSolver::new(mb);
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let r = solver.solve(&p, seconds(secs), &stop, &mut |pr: MateProgress| {
        println!("info {pr:?}");
    });
    println!("{:?} {:?} {:?}", t.elapsed(), solver.stats(), r.clone());
    if let MateResult::Mate(line) = r {
        check_line(&s, &line);
        println!("len {} {}", line.len(), line_str(&line));
    }
}

/// Solves every problem of a file (`FILE`: the problem-set format, or lines `len sfen...`),
/// printing nodes and times (`MB`, `MINLEN`).
fn tool_solve_file() {
    let file = std::env::var("FILE").unwrap();
    let mb: usize = std::env::var("MB").ok().and_then(|v| v.parse().ok()).unwrap_or(64);
    let min_len: usize = std::env::var("MINLEN").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    let text = std::fs::read_to_string(file).unwrap();
    let mut solver = MateSolver::new(mb);
    let stop = AtomicBool::new(false);
    let (mut tn, mut ts, mut tt) = (0u64, 0u64, 0f64);
    let mut bad = 0;
    for l in text.lines() {
        if l.starts_with('#') || l.trim().is_empty() {
            continue;
        }
        let (sfen, len) = if l.contains('\t') {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].parse::<usize>().unwrap())
        } else {
            let t: Vec<&str> = l.split_whitespace().collect();
            let Ok(len) = t[0].parse::<usize>() else { continue };
            (t[1..5].join(" "), len)
        };
        if len < min_len {
            continue;
        }
        let r = solver.solve(&pos(&sfen), seconds(20), &stop, &mut |_| {});
        let st = solver.stats();
        tn += st.nodes;
        ts += st.search_nodes;
        tt += st.time.as_secs_f64();
        let got = match &r {
            MateResult::Mate(line) => {
                check_line(&sfen, line);
                line.len()
            }
            _ => 0,
        };
        if got != len {
            bad += 1;
        }
        println!(
            "{len:2} {got:2} {:9} {:9} {:8.3}s {sfen}",
            st.search_nodes,
            st.nodes,
            st.time.as_secs_f64()
        );
    }
    println!("total search nodes {ts} nodes {tn} time {tt:.2}s wrong {bad}");
}

/// The exhaustive search on `SFEN` up to `MAX` plies with a node cap `CAP`.
fn tool_exhaustive() {
    let s = std::env::var("SFEN").unwrap();
    let max: u32 = env_or("MAX", 11) as u32;
    let cap = env_or("CAP", 200_000_000);
    let t = Instant::now();
    println!("{:?} in {:?}", exhaustive(&s, max, cap), t.elapsed());
}

/// Looks for test positions among `N` random ones (`SEED`): lines that skip a useless
/// interposition, and positions decided by the pawn-drop-mate rule (`UCHIFU_ONLY=1`).
fn tool_find_special() {
    let n = env_or("N", 3000);
    let mut rng = Rng(env_or("SEED", 77));
    let mut solver = MateSolver::new(64);
    let stop = AtomicBool::new(false);
    let mut tried = 0;
    while tried < n {
        let (a, d, h) = (2 + rng.below(3), rng.below(4), 1 + rng.below(3));
        let Some(s) = random_tsume(&mut rng, a, d, h) else { continue };
        tried += 1;
        let p = pos(&s);
        // Pawn-drop mate on the king's head?
        let ksq = p.king_square(Color::White);
        let mut uchifu = false;
        if ksq.rank() < 8 && p.hand(Color::Black).has(PieceKind::Pawn) {
            let sq = shomei::Square::new(ksq.file(), ksq.rank() + 1);
            if p.piece_on(sq).is_none() {
                if let Some(q) = with_pawn_dropped(&p, sq) {
                    uchifu = q.in_check() && q.legal_moves().is_empty();
                }
            }
        }
        if !uchifu && env_or("UCHIFU_ONLY", 0) == 1 {
            continue;
        }
        let r = solver.solve(&p, MateLimits { time: None, nodes: Some(200_000) }, &stop, &mut |_| {});
        let st = solver.stats();
        match &r {
            MateResult::Mate(line) => {
                if uchifu && line.len() <= 9 && line.len() >= 3 {
                    println!("UCHIFU-MATE {} {s}\t{}", line.len(), line_str(line));
                }
                if (line.len() as u32) < st.mate_len && st.exact && st.mate_len <= 9 {
                    println!("USELESS {} {} {s}\t{}", line.len(), st.mate_len, line_str(line));
                }
            }
            MateResult::NoMate if uchifu => println!("UCHIFU-NOMATE {s}"),
            _ => {}
        }
    }
}
