//! `fake-engine`: a scripted stand-in for a USI engine, for the arena's tests and for measuring
//! the runner's own cost (the `random` mode answers at once).
//!
//! usage: fake-engine [MODE] [KEY=VALUE ...]
//!
//! Modes (what happens on `go`, once `after` moves have been played as `random`):
//! - `random` (default): a random legal move; a mate in one when there is one; `bestmove win`
//!   when a 27-point declaration is valid; `resign` with no legal move
//! - `resign`, `declare` (`bestmove win`), `illegal` (a well-formed illegal move),
//!   `garbage` (binary junk, then an unparsable bestmove)
//! - `crash` (exits with status 3), `hang` (never answers, ignores `stop` and `quit`)
//! - `slow` (waits `delay` ms, then a random move), `flood` (floods stdout and stderr first)
//! - `script`: the k-th `go` plays the k-th of `moves=a,b,c` (cycling)
//! - `no-usiok`, `no-readyok`: never finish the handshake; `exit-at-start`: exits at once
//!
//! Keys: `after=K`, `seed=N`, `delay=MS`, `moves=...`, `lines=N` (flood size),
//! `fail-after=N countfile=PATH` (the first N starts, counted in PATH, behave; later ones never
//! answer `usiok`). Every `setoption`, `gameover`, `go ponder`, `ponderhit` and `stop` received
//! is echoed to stderr.
//!
//! Pondering: `ponders=a,b,c` makes the k-th answer `bestmove M ponder <k-th of the list>`
//! (cycling), `ponders=random` offers a random legal reply to M. `go ponder` waits for
//! `ponderhit` (then answers as to `go`) or `stop` (then answers a random move of the position
//! pondered); `ponder-mode=early` answers `go ponder` at once (a protocol error),
//! `ponder-mode=deaf` never answers `stop` while pondering.

use shomei::rng::Rng;
use shomei::shogi::{Declaration, EnteringKingRule};
use shomei::{Move, Position, Square};
use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::process::exit;
use std::thread::sleep;
use std::time::Duration;

fn hang_forever() -> ! {
    loop {
        sleep(Duration::from_secs(3600));
    }
}

fn say(out: &mut impl Write, text: &str) {
    if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
        exit(0);
    }
}

fn random_move(pos: &mut Position, rng: &mut Rng) -> String {
    let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
    if legal.is_empty() {
        return "resign".into();
    }
    if pos.declaration(EnteringKingRule::Csa27) == Declaration::Win {
        return "win".into();
    }
    for &m in &legal {
        pos.do_move(m);
        let mate = pos.is_mated();
        pos.undo_move();
        if mate {
            return m.to_string();
        }
    }
    legal[rng.below(legal.len())].to_string()
}

/// A well-formed move that is not legal here.
fn illegal_move(pos: &Position) -> String {
    for from in Square::all() {
        for to in Square::all() {
            let m = Move::normal(from, to);
            if from != to && !pos.is_legal(m) {
                return m.to_string();
            }
        }
    }
    "5e5d".into()
}

/// The engine's state between commands.
struct Fake {
    mode: String,
    kv: HashMap<String, String>,
    rng: Rng,
    script: Vec<String>,
    /// Ponder moves to offer, cycling; `random` offers a random reply.
    ponders: Vec<String>,
    /// The words after `position`.
    position: Vec<String>,
    /// `go` commands answered (a `ponderhit` counts as one).
    gos: u64,
    /// A `go ponder` waiting for `ponderhit` or `stop`.
    pondering: bool,
}

impl Fake {
    fn num(&self, k: &str, default: u64) -> u64 {
        self.kv.get(k).and_then(|v| v.parse().ok()).unwrap_or(default)
    }

    fn current_position(&self) -> Result<Position, String> {
        let args: Vec<&str> = self.position.iter().map(String::as_str).collect();
        Position::from_usi_args(&args).map_err(|e| e.to_string())
    }

    /// Answers a `go` (or a `ponderhit`) as the mode says.
    fn go(&mut self, out: &mut impl Write) {
        self.gos += 1;
        let mut pos = match self.current_position() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("fake-engine: bad position: {e}");
                say(out, "bestmove resign");
                return;
            }
        };
        let misbehave = self.gos > self.num("after", 0);
        let answer = match self.mode.as_str() {
            "resign" if misbehave => "resign".to_string(),
            "declare" if misbehave => "win".to_string(),
            "illegal" if misbehave => illegal_move(&pos),
            "crash" if misbehave => {
                eprintln!("fake-engine: crashing as asked");
                exit(3);
            }
            "hang" if misbehave => hang_forever(),
            "garbage" if misbehave => {
                let mut junk: Vec<u8> =
                    (0..10_000u32).map(|i| (i * 7919 % 251) as u8).filter(|&b| b != b'\n').collect();
                junk.extend_from_slice(b"\n\xff\xfe\x00 info \x1b[31m\n");
                let _ = out.write_all(&junk);
                let _ = out.write_all(b"bestmove \xff\xfe@@\n");
                let _ = out.flush();
                return;
            }
            "slow" => {
                sleep(Duration::from_millis(self.num("delay", 1000)));
                random_move(&mut pos, &mut self.rng)
            }
            "flood" => {
                flood(out, self.num("lines", 20_000));
                random_move(&mut pos, &mut self.rng)
            }
            "script" if !self.script.is_empty() => {
                self.script[((self.gos - 1) as usize) % self.script.len()].clone()
            }
            _ => random_move(&mut pos, &mut self.rng),
        };
        match self.ponder_offer(&mut pos, &answer) {
            Some(p) => say(out, &format!("bestmove {answer} ponder {p}")),
            None => say(out, &format!("bestmove {answer}")),
        }
    }

    /// The move to ponder on after `answer`, if pondering moves are offered.
    fn ponder_offer(&mut self, pos: &mut Position, answer: &str) -> Option<String> {
        match self.ponders.as_slice() {
            [] => None,
            [r] if r == "random" => {
                let m = pos.parse_move(answer).ok()?;
                pos.do_move(m);
                let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
                (!legal.is_empty()).then(|| legal[self.rng.below(legal.len())].to_string())
            }
            list => Some(list[((self.gos - 1) as usize) % list.len()].clone()),
        }
    }

    /// The answer to a stopped (or, `early`, unfinished) ponder search: any legal move there.
    fn ponder_answer(&mut self, out: &mut impl Write) {
        let answer = match self.current_position() {
            Ok(mut pos) => random_move(&mut pos, &mut self.rng),
            Err(_) => "resign".into(),
        };
        say(out, &format!("bestmove {answer}"));
    }
}

/// 20,000 `info` lines, a 200 kB line and 1 MB of stderr.
fn flood(out: &mut impl Write, lines: u64) {
    let mut buf = Vec::with_capacity(1 << 20);
    for i in 0..lines {
        let _ = writeln!(buf, "info depth {} nodes {i} score cp 0 pv 7g7f 3c3d 2g2f 8c8d", i % 30);
    }
    buf.extend(std::iter::repeat_n(b'x', 200_000));
    buf.push(b'\n');
    let _ = out.write_all(&buf);
    let _ = out.flush();
    let err_line = "e".repeat(500);
    let mut err = io::stderr().lock();
    for _ in 0..2000 {
        let _ = writeln!(err, "{err_line}");
    }
}

fn main() {
    let mut mode = "random".to_string();
    let mut kv: HashMap<String, String> = HashMap::new();
    for a in std::env::args().skip(1) {
        match a.split_once('=') {
            Some((k, v)) => {
                kv.insert(k.to_string(), v.to_string());
            }
            None => mode = a,
        }
    }
    let rng = Rng::new(kv.get("seed").and_then(|v| v.parse().ok()).unwrap_or_else(Rng::seed_from_entropy));
    if let (Some(limit), Some(path)) = (kv.get("fail-after"), kv.get("countfile")) {
        let limit: u64 = limit.parse().unwrap_or(0);
        let count: u64 = std::fs::read_to_string(path).ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0);
        let _ = std::fs::write(path, (count + 1).to_string());
        if count >= limit {
            mode = "no-usiok".into();
        }
    }
    if mode == "exit-at-start" {
        eprintln!("fake-engine: exiting at start as asked");
        exit(1);
    }
    let list = |k: &str| -> Vec<String> {
        kv.get(k).map(|m| m.split(',').map(str::to_string).collect()).unwrap_or_default()
    };
    let ponder_mode = kv.get("ponder-mode").cloned().unwrap_or_default();
    let mut fake = Fake {
        script: list("moves"),
        ponders: list("ponders"),
        mode,
        kv,
        rng,
        position: vec!["startpos".into()],
        gos: 0,
        pondering: false,
    };

    let stdin = io::stdin();
    let mut out = io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["usi", ..] => {
                say(&mut out, &format!("id name fake-{}", fake.mode));
                say(&mut out, "id author shomei-arena tests");
                say(&mut out, "option name Seed type spin default 0 min 0 max 1000000000");
                if fake.mode == "no-usiok" {
                    hang_forever();
                }
                say(&mut out, "usiok");
            }
            ["isready", ..] => {
                if fake.mode == "no-readyok" {
                    hang_forever();
                }
                say(&mut out, "readyok");
            }
            ["setoption", rest @ ..] => {
                eprintln!("fake-engine: got {line}");
                if let ["name", "Seed", "value", v] = rest {
                    if let Ok(s) = v.parse() {
                        fake.rng = Rng::new(s);
                    }
                }
            }
            ["gameover", ..] => eprintln!("fake-engine: got {line}"),
            ["position", rest @ ..] => fake.position = rest.iter().map(|w| w.to_string()).collect(),
            ["go", "ponder", ..] => {
                eprintln!("fake-engine: got {line}");
                if ponder_mode == "early" {
                    fake.ponder_answer(&mut out);
                } else {
                    fake.pondering = true;
                }
            }
            ["go", ..] => fake.go(&mut out),
            ["ponderhit", ..] => {
                eprintln!("fake-engine: got {line}");
                if std::mem::take(&mut fake.pondering) {
                    fake.go(&mut out);
                }
            }
            ["stop", ..] => {
                eprintln!("fake-engine: got {line}");
                if std::mem::take(&mut fake.pondering) && ponder_mode != "deaf" {
                    fake.ponder_answer(&mut out);
                }
            }
            ["quit", ..] => exit(0),
            _ => {}
        }
    }
}
