//! Time controls, the `go` command for each, and each side's clock as the runner measures it.
//!
//! The runner trusts only its own measurements: a move's time runs from sending `go` to reading
//! `bestmove`. Under a clock, a side may think for its remaining main time plus the byoyomi, plus
//! the runner's tolerance; a move that takes longer loses on time. The Fischer increment is added
//! after each move and is not usable for the move being played (YaneuraOu's reading of `binc`).

use shomei::Color;
use std::fmt;
use std::time::Duration;

/// How long each side may think.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Main time, an increment added after each move, and a byoyomi used once the main time is
    /// gone. Increment and byoyomi are never both non-zero (USI sends one or the other).
    Clock { base: Duration, inc: Duration, byoyomi: Duration },
    /// `go nodes N` for every move.
    Nodes(u64),
    /// `go depth N` for every move.
    Depth(u32),
}

fn parse_seconds(text: &str, what: &str) -> Result<Duration, String> {
    let v: f64 = text.trim().parse().map_err(|_| format!("{what} '{text}' is not a number of seconds"))?;
    if !v.is_finite() || !(0.0..=1e7).contains(&v) {
        return Err(format!("{what} '{text}' is out of range"));
    }
    Ok(Duration::from_millis((v * 1000.0).round() as u64))
}

fn parse_millis(text: &str, what: &str) -> Result<Duration, String> {
    let v: u64 =
        text.trim().parse().map_err(|_| format!("{what} '{text}' is not a whole number of milliseconds"))?;
    Ok(Duration::from_millis(v))
}

impl TimeControl {
    /// Parses a time control:
    /// - `byoyomi=MS`: byoyomi only (milliseconds, as USI sends it);
    /// - `BASE+INC`: Fischer, seconds (`10+0.1`); `BASE+0` or `BASE` alone is sudden death;
    /// - `time=S,inc=S` / `time=S,byoyomi=MS`: the same in key=value form, also combined;
    /// - `nodes=N`, `depth=N`: a fixed search per move.
    pub fn parse(spec: &str) -> Result<TimeControl, String> {
        let spec = spec.trim();
        if spec.is_empty() {
            return Err("empty time control".into());
        }
        let tc = if spec.contains('=') {
            let (mut base, mut inc, mut byoyomi) = (None, None, None);
            let (mut nodes, mut depth) = (None, None);
            for part in spec.split(',') {
                let (key, value) = part
                    .split_once('=')
                    .ok_or_else(|| format!("'{part}' in time control '{spec}' is not key=value"))?;
                match key.trim() {
                    "time" => base = Some(parse_seconds(value, "time")?),
                    "inc" => inc = Some(parse_seconds(value, "inc")?),
                    "byoyomi" => byoyomi = Some(parse_millis(value, "byoyomi")?),
                    "nodes" => {
                        let n: u64 = value
                            .trim()
                            .parse()
                            .map_err(|_| format!("nodes '{value}' is not a whole number"))?;
                        nodes = Some(n);
                    }
                    "depth" => {
                        let d: u32 = value
                            .trim()
                            .parse()
                            .map_err(|_| format!("depth '{value}' is not a whole number"))?;
                        depth = Some(d);
                    }
                    k => {
                        return Err(format!(
                            "unknown time control key '{k}' (expected time, inc, byoyomi, nodes or depth)"
                        ))
                    }
                }
            }
            let clocked = base.is_some() || inc.is_some() || byoyomi.is_some();
            match (nodes, depth, clocked) {
                (Some(n), None, false) => TimeControl::Nodes(n),
                (None, Some(d), false) => TimeControl::Depth(d),
                (None, None, true) => TimeControl::Clock {
                    base: base.unwrap_or_default(),
                    inc: inc.unwrap_or_default(),
                    byoyomi: byoyomi.unwrap_or_default(),
                },
                _ => return Err(format!("time control '{spec}' mixes nodes, depth and clock settings")),
            }
        } else if let Some((base, inc)) = spec.split_once('+') {
            TimeControl::Clock {
                base: parse_seconds(base, "main time")?,
                inc: parse_seconds(inc, "increment")?,
                byoyomi: Duration::ZERO,
            }
        } else {
            TimeControl::Clock {
                base: parse_seconds(spec, "main time")?,
                inc: Duration::ZERO,
                byoyomi: Duration::ZERO,
            }
        };
        match tc {
            TimeControl::Clock { base, inc, byoyomi } => {
                if !inc.is_zero() && !byoyomi.is_zero() {
                    return Err(format!(
                        "time control '{spec}' has both an increment and a byoyomi; USI sends only one of them"
                    ));
                }
                if (base + inc + byoyomi).is_zero() {
                    return Err(format!("time control '{spec}' gives no time at all"));
                }
            }
            TimeControl::Nodes(0) => return Err("nodes must be at least 1".into()),
            TimeControl::Depth(0) => return Err("depth must be at least 1".into()),
            _ => {}
        }
        Ok(tc)
    }

    /// The time control in words, for humans and for record headers.
    pub fn describe(&self) -> String {
        let secs = |d: &Duration| {
            let s = d.as_secs_f64();
            if s.fract() == 0.0 {
                format!("{s:.0} s")
            } else {
                format!("{s} s")
            }
        };
        match self {
            TimeControl::Clock { base, inc, byoyomi } => {
                match (base.is_zero(), inc.is_zero(), byoyomi.is_zero()) {
                    (true, true, false) => format!("byoyomi {}", secs(byoyomi)),
                    (false, true, false) => format!("{} + byoyomi {}", secs(base), secs(byoyomi)),
                    (_, false, _) => format!("{} + {} per move (Fischer)", secs(base), secs(inc)),
                    _ => format!("{} sudden death", secs(base)),
                }
            }
            TimeControl::Nodes(n) => format!("{n} nodes per move"),
            TimeControl::Depth(d) => format!("depth {d} per move"),
        }
    }
}

impl fmt::Display for TimeControl {
    /// The canonical `--tc` spelling; it parses back to the same time control.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock { base, inc, byoyomi } => {
                let mut parts = Vec::new();
                if !base.is_zero() || (inc.is_zero() && byoyomi.is_zero()) {
                    parts.push(format!("time={}", base.as_secs_f64()));
                }
                if !inc.is_zero() {
                    parts.push(format!("inc={}", inc.as_secs_f64()));
                }
                if !byoyomi.is_zero() {
                    parts.push(format!("byoyomi={}", byoyomi.as_millis()));
                }
                write!(f, "{}", parts.join(","))
            }
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

/// Both sides' clocks for one game.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    /// Main time left, by colour (Black first).
    remaining: [Duration; 2],
    tolerance: Duration,
    /// For nodes and depth: how long a move may take before the engine counts as hung.
    max_move_time: Duration,
}

/// A move that took longer than its side was allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged {
    pub elapsed: Duration,
    pub limit: Duration,
}

impl Clock {
    pub fn new(tc: &TimeControl, tolerance: Duration, max_move_time: Duration) -> Clock {
        let base = match tc {
            TimeControl::Clock { base, .. } => *base,
            _ => Duration::ZERO,
        };
        Clock { tc: tc.clone(), remaining: [base; 2], tolerance, max_move_time }
    }

    /// Main time left for `side`.
    pub fn remaining(&self, side: Color) -> Duration {
        self.remaining[side.index()]
    }

    /// The `go` command for `side` to move now.
    pub fn go_command(&self) -> String {
        match &self.tc {
            TimeControl::Clock { inc, byoyomi, .. } => {
                let b = self.remaining[Color::Black.index()].as_millis();
                let w = self.remaining[Color::White.index()].as_millis();
                if inc.is_zero() {
                    format!("go btime {b} wtime {w} byoyomi {}", byoyomi.as_millis())
                } else {
                    let i = inc.as_millis();
                    format!("go btime {b} wtime {w} binc {i} winc {i}")
                }
            }
            TimeControl::Nodes(n) => format!("go nodes {n}"),
            TimeControl::Depth(d) => format!("go depth {d}"),
        }
    }

    /// The `go ponder` command sent after `side` moved: `go_command` with `ponder` after `go`,
    /// so the pondering engine sees the clock as it will stand when its turn comes.
    pub fn go_ponder_command(&self) -> String {
        let go = self.go_command();
        match go.strip_prefix("go") {
            Some(rest) => format!("go ponder{rest}"),
            None => go,
        }
    }

    /// What the clock itself gives `side` on this move, without the tolerance: main time plus
    /// byoyomi, or the move-time limit under `nodes=` / `depth=`.
    pub fn allowance(&self, side: Color) -> Duration {
        match &self.tc {
            TimeControl::Clock { byoyomi, .. } => self.remaining[side.index()] + *byoyomi,
            _ => self.max_move_time,
        }
    }

    /// The longest `side` may think on this move before losing on time, tolerance included.
    pub fn limit(&self, side: Color) -> Duration {
        match &self.tc {
            TimeControl::Clock { .. } => self.allowance(side) + self.tolerance,
            _ => self.max_move_time,
        }
    }

    /// Charges `elapsed` to `side`. A move over the limit flags; otherwise the main time goes
    /// down (never below zero: byoyomi and tolerance are not borrowed from it) and the increment
    /// is added.
    pub fn charge(&mut self, side: Color, elapsed: Duration) -> Result<(), Flagged> {
        let limit = self.limit(side);
        if elapsed > limit {
            return Err(Flagged { elapsed, limit });
        }
        if let TimeControl::Clock { inc, .. } = self.tc {
            let r = &mut self.remaining[side.index()];
            *r = r.saturating_sub(elapsed) + inc;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn parses_every_form() {
        assert_eq!(
            TimeControl::parse("byoyomi=1000").unwrap(),
            TimeControl::Clock { base: ms(0), inc: ms(0), byoyomi: ms(1000) }
        );
        assert_eq!(
            TimeControl::parse("10+0.1").unwrap(),
            TimeControl::Clock { base: ms(10_000), inc: ms(100), byoyomi: ms(0) }
        );
        assert_eq!(
            TimeControl::parse("60").unwrap(),
            TimeControl::Clock { base: ms(60_000), inc: ms(0), byoyomi: ms(0) }
        );
        assert_eq!(
            TimeControl::parse("time=30,byoyomi=500").unwrap(),
            TimeControl::Clock { base: ms(30_000), inc: ms(0), byoyomi: ms(500) }
        );
        assert_eq!(TimeControl::parse("nodes=5000").unwrap(), TimeControl::Nodes(5000));
        assert_eq!(TimeControl::parse("depth=6").unwrap(), TimeControl::Depth(6));
        for bad in
            ["", "abc", "10+x", "byoyomi=1.5", "time=1,inc=1,byoyomi=100", "nodes=0", "nodes=10,time=1", "0"]
        {
            assert!(TimeControl::parse(bad).is_err(), "{bad} should be rejected");
        }
    }

    #[test]
    fn display_round_trips() {
        for spec in ["byoyomi=1000", "10+0.1", "60", "time=30,byoyomi=500", "nodes=5000", "depth=6", "2.5+0"]
        {
            let tc = TimeControl::parse(spec).unwrap();
            assert_eq!(TimeControl::parse(&tc.to_string()).unwrap(), tc, "{spec} -> {tc}");
        }
        assert_eq!(TimeControl::parse("byoyomi=1000").unwrap().describe(), "byoyomi 1 s");
        assert_eq!(TimeControl::parse("10+0.1").unwrap().describe(), "10 s + 0.1 s per move (Fischer)");
    }

    #[test]
    fn byoyomi_clock() {
        let tc = TimeControl::parse("time=2,byoyomi=1000").unwrap();
        let mut c = Clock::new(&tc, ms(100), ms(0));
        assert_eq!(c.go_command(), "go btime 2000 wtime 2000 byoyomi 1000");
        assert_eq!(c.go_ponder_command(), "go ponder btime 2000 wtime 2000 byoyomi 1000");
        assert_eq!(c.allowance(Color::Black), ms(3000));
        assert_eq!(c.limit(Color::Black), ms(3100));
        // 1.5 s used: main time down to 0.5 s.
        c.charge(Color::Black, ms(1500)).unwrap();
        assert_eq!(c.remaining(Color::Black), ms(500));
        // 1.4 s: 0.5 s main + 0.9 s of byoyomi; main time stays at 0, not negative.
        c.charge(Color::Black, ms(1400)).unwrap();
        assert_eq!(c.remaining(Color::Black), ms(0));
        assert_eq!(c.go_command(), "go btime 0 wtime 2000 byoyomi 1000");
        // Limit now byoyomi + tolerance = 1.1 s; 1.1 s is allowed, 1.101 s flags.
        c.charge(Color::Black, ms(1100)).unwrap();
        assert_eq!(c.charge(Color::Black, ms(1101)), Err(Flagged { elapsed: ms(1101), limit: ms(1100) }));
    }

    #[test]
    fn fischer_clock() {
        let tc = TimeControl::parse("1+0.5").unwrap();
        let mut c = Clock::new(&tc, ms(50), ms(0));
        assert_eq!(c.go_command(), "go btime 1000 wtime 1000 binc 500 winc 500");
        // The increment is not usable on this move: the limit is main time + tolerance.
        assert_eq!(c.limit(Color::White), ms(1050));
        c.charge(Color::White, ms(300)).unwrap();
        assert_eq!(c.remaining(Color::White), ms(1200));
        // Within tolerance past the main time: clock goes to zero, then gets the increment.
        c.charge(Color::White, ms(1240)).unwrap();
        assert_eq!(c.remaining(Color::White), ms(500));
        assert!(c.charge(Color::White, ms(551)).is_err());
    }

    #[test]
    fn fixed_search_uses_the_move_time_limit() {
        let c = Clock::new(&TimeControl::Nodes(1000), ms(100), ms(30_000));
        assert_eq!(c.go_command(), "go nodes 1000");
        assert_eq!(c.go_ponder_command(), "go ponder nodes 1000");
        assert_eq!(c.limit(Color::Black), ms(30_000));
        assert_eq!(c.allowance(Color::Black), ms(30_000));
        let c = Clock::new(&TimeControl::Depth(3), ms(100), ms(5_000));
        assert_eq!(c.go_command(), "go depth 3");
    }
}
