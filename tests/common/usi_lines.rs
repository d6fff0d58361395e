//! Reading the engine's USI output in tests: line predicates, `bestmove` and `info` parsing,
//! and legality checks of the moves the engine answers with.

// Each test crate includes this file and uses a different part of it.
#![allow(dead_code)]

use super::usi_engine::{Engine, REPLY, SEARCH};
use shomei::Position;
use std::time::Duration;

pub fn is_bestmove(l: &str) -> bool {
    l == "bestmove" || l.starts_with("bestmove ")
}

pub fn is_info_string(l: &str) -> bool {
    l.starts_with("info string ")
}

pub fn is_readyok(l: &str) -> bool {
    l == "readyok"
}

/// Any `info depth ...` line: an iteration's PV line or a progress line.
pub fn is_info_depth(l: &str) -> bool {
    l.starts_with("info depth ")
}

/// An iteration's PV line (progress lines have no score).
pub fn is_pv_info(l: &str) -> bool {
    is_info_depth(l) && l.contains(" score ")
}

pub fn any_line(_: &str) -> bool {
    true
}

/// `bestmove <move> [ponder <move>]` split into its moves.
#[track_caller]
pub fn parse_bestmove(e: &Engine, line: &str) -> (String, Option<String>) {
    let words: Vec<&str> = line.split(' ').collect();
    match words.as_slice() {
        ["bestmove", m] => (m.to_string(), None),
        ["bestmove", m, "ponder", p] => (m.to_string(), Some(p.to_string())),
        _ => e.fail(&format!("malformed bestmove line '{line}'")),
    }
}

pub fn position(args: &str) -> Position {
    let words: Vec<&str> = args.split_whitespace().collect();
    Position::from_usi_args(&words).unwrap_or_else(|err| panic!("test position '{args}' is invalid: {err}"))
}

/// `args` (the words after `position`) followed by `moves`.
pub fn with_moves(args: &str, moves: &[&str]) -> String {
    if moves.is_empty() {
        args.to_string()
    } else if args.contains(" moves ") {
        format!("{args} {}", moves.join(" "))
    } else {
        format!("{args} moves {}", moves.join(" "))
    }
}

/// Fails unless `mv` is a legal move in the position `args` describes.
#[track_caller]
pub fn assert_legal(e: &Engine, args: &str, mv: &str) {
    if let Err(err) = position(args).parse_move(mv) {
        e.fail(&format!("'{mv}' is not a legal move in 'position {args}': {err:?}"));
    }
}

/// Fails unless `moves` are a legal sequence from the position `args` describes.
#[track_caller]
pub fn assert_legal_sequence(e: &Engine, args: &str, moves: &[String]) {
    let mut pos = position(args);
    for m in moves {
        match pos.parse_move(m) {
            Ok(mv) => pos.do_move(mv),
            Err(err) => e.fail(&format!("pv {moves:?} from 'position {args}': '{m}' is illegal: {err:?}")),
        }
    }
}

/// Waits for the one `bestmove` a search owes and checks it is a legal move.
#[track_caller]
pub fn expect_legal_bestmove(e: &mut Engine, args: &str, timeout: Duration) -> String {
    let line = e.expect_line(is_bestmove, timeout);
    let (mv, ponder) = parse_bestmove(e, &line);
    assert_legal(e, args, &mv);
    if let Some(p) = ponder {
        assert_legal(e, &with_moves(args, &[&mv]), &p);
    }
    mv
}

/// Reads until `total` bestmoves have arrived in all, then checks every bestmove so far is
/// legal in `args`.
#[track_caller]
pub fn wait_for_bestmoves(e: &mut Engine, args: &str, total: usize) {
    while e.count(is_bestmove) < total {
        e.expect_line(is_bestmove, SEARCH);
    }
    let all: Vec<String> = e.received().iter().filter(|l| is_bestmove(l)).cloned().collect();
    for line in all {
        let (mv, _) = parse_bestmove(e, &line);
        assert_legal(e, args, &mv);
    }
}

/// The `Sfen:` line of the `d` diagram: the engine's current position.
#[track_caller]
pub fn current_sfen(e: &mut Engine) -> String {
    e.send("d");
    // The diagram ends with `In check: yes|no`.
    let lines = e.collect_until(|l| l.starts_with("In check: "), REPLY);
    match lines.iter().find_map(|l| l.strip_prefix("Sfen: ")) {
        Some(sfen) => sfen.to_string(),
        None => e.fail("the d diagram has no 'Sfen: ' line"),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i64),
    Mate(i64),
}

impl Score {
    /// Orders scores: mates for us above every cp score, mates against us below.
    pub fn rank(self) -> i64 {
        match self {
            Score::Cp(v) => v,
            Score::Mate(n) if n > 0 => 1_000_000_000 - n,
            Score::Mate(n) => -1_000_000_000 - n,
        }
    }
}

/// One iteration's `info` line, parsed in the field order the engine promises:
/// `info depth D seldepth S [multipv K] score cp|mate V [lowerbound|upperbound] nodes N nps R
/// hashfull H time T pv M...`.
#[derive(Clone, Debug)]
pub struct PvInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: Option<u32>,
    pub score: Score,
    pub bound: bool,
    pub nodes: u64,
    pub hashfull: u32,
    pub pv: Vec<String>,
}

pub fn parse_pv_info(line: &str) -> Result<PvInfo, String> {
    fn num<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, String> {
        v.parse().map_err(|_| format!("'{key}' value '{v}' is not a number"))
    }
    /// The value after `key` at word `*i`, moving past both.
    fn take<'a>(words: &[&'a str], i: &mut usize, key: &str) -> Result<&'a str, String> {
        if words.get(*i) != Some(&key) {
            return Err(format!("expected '{key}' at word {}", *i));
        }
        let v = words.get(*i + 1).ok_or(format!("'{key}' has no value"))?;
        *i += 2;
        Ok(v)
    }
    let words: Vec<&str> = line.split(' ').collect();
    if words.first() != Some(&"info") {
        return Err("not an info line".into());
    }
    let mut i = 1;
    let depth = num("depth", take(&words, &mut i, "depth")?)?;
    let seldepth = num("seldepth", take(&words, &mut i, "seldepth")?)?;
    let multipv = match words.get(i) {
        Some(&"multipv") => Some(num("multipv", take(&words, &mut i, "multipv")?)?),
        _ => None,
    };
    let kind = take(&words, &mut i, "score")?;
    let value: i64 = num("score", words.get(i).ok_or("score has no value")?)?;
    i += 1;
    let score = match kind {
        "cp" => Score::Cp(value),
        "mate" => Score::Mate(value),
        other => return Err(format!("score kind '{other}' is not cp or mate")),
    };
    let bound = matches!(words.get(i), Some(&"lowerbound") | Some(&"upperbound"));
    if bound {
        i += 1;
    }
    let nodes = num("nodes", take(&words, &mut i, "nodes")?)?;
    let _nps: u64 = num("nps", take(&words, &mut i, "nps")?)?;
    let hashfull = num("hashfull", take(&words, &mut i, "hashfull")?)?;
    let _time: u64 = num("time", take(&words, &mut i, "time")?)?;
    if words.get(i) != Some(&"pv") || words.len() <= i + 1 {
        return Err("expected 'pv' followed by at least one move".into());
    }
    let pv = words[i + 1..].iter().map(|s| s.to_string()).collect();
    Ok(PvInfo { depth, seldepth, multipv, score, bound, nodes, hashfull, pv })
}

/// Every iteration `info` line among `lines`, parsed (failing on a malformed one).
#[track_caller]
pub fn pv_infos(e: &Engine, lines: &[String]) -> Vec<PvInfo> {
    lines
        .iter()
        .filter(|l| is_pv_info(l))
        .map(|l| parse_pv_info(l).unwrap_or_else(|why| e.fail(&format!("malformed info line ({why}): {l}"))))
        .collect()
}

/// `Nodes searched: N` and `Nodes/second: M` from a bench report.
pub fn bench_numbers(report: &str) -> Option<(u64, u64)> {
    let field =
        |key: &str| report.lines().find_map(|l| l.strip_prefix(key)).and_then(|v| v.trim().parse().ok());
    Some((field("Nodes searched:")?, field("Nodes/second:")?))
}

pub fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}
