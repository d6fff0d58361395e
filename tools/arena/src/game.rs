//! One game between two engine processes: handshake, moves under the clock, adjudication by the
//! rules, and the end (`gameover`, `quit`, kill if needed).
//!
//! The runner adjudicates everything itself, from the shomei rules (`rules::Board`):
//! - before each move: no legal move (checkmate, or a position without moves) loses;
//!   sennichite draws, or loses for the side that checked throughout; the move limit draws;
//!   in Dobutsu, a captured Lion or a safe Try against loses, and repetition draws per the rule;
//! - on the engine's answer: `resign` loses; `win` is checked against the entering-king rule
//!   (a false declaration loses; under the try rule every `win` is false); an illegal or
//!   malformed move loses; a late answer loses on time; under the try rule, a king move onto the
//!   try square wins;
//! - a crash, or no `usiok` / `readyok` / `bestmove` in time, loses for that engine.
//!
//! A pondering engine (`EngineConfig::ponder`) is driven as GUIs do: after `bestmove M ponder P`
//! it gets the position after M and P with `go ponder`; on its next turn `ponderhit` if P was
//! played (its clock runs from then, as from a `go`), else `stop`, whose answer is discarded
//! before the usual `position` and `go`. A `bestmove` before `ponderhit` or `stop` breaks the
//! protocol and loses; so does no answer to that `stop` within the stop timeout.

use crate::clock::{Clock, TimeControl};
use crate::config::{EngineConfig, Repetition, Variant};
use crate::engine::{shutdown_all, EngineProcess, StderrLog, WaitError};
use crate::openings::Opening;
use crate::rules::{color_name, judge_declaration, judge_try, Board, EndReason, Outcome};
use crossbeam_channel::Receiver;
use shomei::shogi::{EnteringKingRule, MoveError};
use shomei::Color;
use std::time::{Duration, Instant, SystemTime};

/// Rules and limits shared by every game of a match.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub tc: TimeControl,
    pub tolerance: Duration,
    pub max_move_time: Duration,
    /// Draw once this many moves (plies from the initial position) have been played.
    pub max_moves: u32,
    pub entering_king: EnteringKingRule,
    /// The game played.
    pub variant: Variant,
    /// Dobutsu's repetition rule (shogi's sennichite is fixed by its rules).
    pub repetition: Repetition,
    pub usi_timeout: Duration,
    pub ready_timeout: Duration,
    pub quit_timeout: Duration,
    /// How long a pondering engine may take to answer `stop` (the tolerance comes on top).
    pub stop_timeout: Duration,
}

/// One engine as a game sees it.
#[derive(Clone)]
pub struct Player {
    pub config: EngineConfig,
    pub name: String,
    pub log: StderrLog,
}

/// Which game to play.
#[derive(Clone, Debug)]
pub struct GameJob {
    /// 1-based game number.
    pub number: usize,
    /// 0-based pair number: games of a pair share the opening with colours swapped.
    pub pair: usize,
    pub opening: Opening,
    /// Whether engine 1 (index 0) plays Black.
    pub engine1_black: bool,
}

/// A move of the game, in USI notation (checked legal); opening moves have no time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: String,
    pub time: Option<Duration>,
}

/// An answer (`bestmove`) and how long it took, from `go` or `ponderhit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlowAnswer {
    pub time: Duration,
    /// The most the move could take before losing on time, tolerance included.
    pub allowed: Duration,
    /// 1-based game number.
    pub game: usize,
    /// 1-based ply of the move answered, counted from the opening's root.
    pub ply: usize,
}

/// How an engine's `go ponder` searches ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PonderCounts {
    /// `go ponder` commands sent.
    pub go_ponder: u32,
    /// Ended by `ponderhit`: the opponent played the move pondered on.
    pub ponderhit: u32,
    /// Ended by `stop` on another move.
    pub stop: u32,
    /// Ended by the end of the game (`stop` before `gameover`).
    pub at_end: u32,
}

/// One engine's answers, over a game or a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnswerStats {
    /// Answers timed: every `bestmove` to a `go` or after a `ponderhit`, late ones included.
    pub answers: u32,
    /// The slowest of them.
    pub slowest: Option<SlowAnswer>,
    /// Answers that took longer than the clock itself gave (main time + byoyomi), that is, that
    /// used the tolerance or lost on time.
    pub over_clock: u32,
    pub ponder: PonderCounts,
}

impl AnswerStats {
    /// Counts one answer.
    pub fn note(&mut self, answer: SlowAnswer, clock: Duration) {
        self.answers += 1;
        self.over_clock += u32::from(answer.time > clock);
        if self.slowest.is_none_or(|s| answer.time > s.time) {
            self.slowest = Some(answer);
        }
    }

    /// Adds another game's counts; the earlier slowest answer wins a tie.
    pub fn add(&mut self, other: &AnswerStats) {
        self.answers += other.answers;
        self.over_clock += other.over_clock;
        if let Some(o) = other.slowest {
            if self.slowest.is_none_or(|s| o.time > s.time) {
                self.slowest = Some(o);
            }
        }
        let (p, q) = (&mut self.ponder, other.ponder);
        p.go_ponder += q.go_ponder;
        p.ponderhit += q.ponderhit;
        p.stop += q.stop;
        p.at_end += q.at_end;
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub number: usize,
    pub pair: usize,
    pub opening: Opening,
    pub engine1_black: bool,
    /// Engine names by colour: Black, White.
    pub names: [String; 2],
    /// Opening moves first, then the moves of the game.
    pub moves: Vec<PlayedMove>,
    pub outcome: Outcome,
    pub started: SystemTime,
    /// Wall time of the whole game, start-up and shutdown included.
    pub wall: Duration,
    /// Time on the engines' clocks (all measured move times).
    pub think: Duration,
    /// From starting the processes to both `readyok`s (engine start-up and handshake).
    pub setup: Duration,
    /// From the end of the game to both processes gone (`gameover`, `quit`, exit or kill).
    pub teardown: Duration,
    /// Each engine's answers and pondering, by engine number (0 = engine 1).
    pub answers: [AnswerStats; 2],
}

impl GameRecord {
    /// "1-0", "0-1" or "1/2-1/2", Black's score first.
    pub fn result_text(&self) -> &'static str {
        match self.outcome.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// Engine 1's points: 1, 0.5 or 0.
    pub fn engine1_score(&self) -> f64 {
        let e1 = if self.engine1_black { Color::Black } else { Color::White };
        match self.outcome.winner {
            None => 0.5,
            Some(c) if c == e1 => 1.0,
            Some(_) => 0.0,
        }
    }

    /// Moves played by the engines, the opening excluded.
    pub fn game_plies(&self) -> usize {
        self.moves.len() - self.opening.moves.len()
    }

    /// The game as a USI `position` command.
    pub fn usi_line(&self) -> String {
        position_command(&self.opening, self.moves.iter().map(|m| m.mv.as_str()))
    }
}

/// Why a game could not be played to a result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// An engine process could not be started at all (missing program, no permission, ...).
    Spawn { engine: usize, message: String },
    /// Both engines failed before the first move; nobody can be blamed.
    BothFailed(String),
    /// The match is being stopped.
    Cancelled,
}

/// `position <root> [moves ...]`.
pub fn position_command<'a>(opening: &Opening, moves: impl Iterator<Item = &'a str>) -> String {
    let mut s = format!("position {}", opening.root_words());
    let mut first = true;
    for m in moves {
        if first {
            s.push_str(" moves");
            first = false;
        }
        s.push(' ');
        s.push_str(m);
    }
    s
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

fn tail_note(p: &EngineProcess) -> String {
    let tail = p.stderr_tail();
    match tail.last() {
        Some(last) => format!("; last stderr line: {last}"),
        None => String::new(),
    }
}

/// The move a `bestmove M ponder P` line offers to ponder on (P).
fn ponder_move(line: &str) -> Option<String> {
    match line.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["bestmove", _, "ponder", p, ..] => Some((*p).to_string()),
        _ => None,
    }
}

/// The loss of an engine that answered `go ponder` before `ponderhit` or `stop`.
fn early_answer(who: &str, line: &str) -> (EndReason, String) {
    let shown: String = line.chars().take(QUOTE).collect();
    (EndReason::ProtocolError, format!("{who} answered go ponder before ponderhit or stop (`{shown}`)"))
}

/// How an engine failed during the handshake.
fn handshake_failure(
    p: &mut EngineProcess,
    err: WaitError,
    awaited: &str,
    timeout: Duration,
) -> (EndReason, String) {
    match err {
        WaitError::Closed => {
            let st = p.exit_description();
            (EndReason::Crash, format!("exited before `{awaited}` ({st}){}", tail_note(p)))
        }
        _ => (EndReason::NoResponse, format!("no `{awaited}` within {} ms", ms(timeout))),
    }
}

/// A `go ponder` an engine is running.
struct Pondering {
    /// The opponent's move it ponders on.
    guess: String,
    /// The `go ponder` command, for messages.
    go: String,
    /// When `go ponder` was sent: a `bestmove` read since, before `ponderhit` or `stop`, breaks
    /// the protocol; one read earlier is a stray answer to an earlier `go`.
    since: Instant,
}

/// How an engine's turn begins.
enum Start {
    /// A normal `position` and `go` (it was not pondering, or its ponder search was stopped).
    Go,
    /// Its ponder move was played: `ponderhit` was sent at `t0`.
    Hit { t0: Instant, ponder: Pondering },
}

/// Why a turn stopped short: a loss for the engine to move, or the match being stopped.
enum Halt {
    Lose(EndReason, String),
    Cancelled,
}

/// At most this much of an engine's line is quoted in a message.
const QUOTE: usize = 80;

/// A game in progress: the engines, the position and what has been measured so far.
struct Table<'a> {
    settings: &'a GameSettings,
    /// By engine number (0 = engine 1).
    players: &'a [Player; 2],
    job: &'a GameJob,
    cancel: &'a Receiver<()>,
    /// By engine number.
    procs: Vec<EngineProcess>,
    pos: Board,
    moves: Vec<PlayedMove>,
    think: Duration,
    /// Engines that timed out while thinking: they get `stop` before `gameover`.
    thinking: [bool; 2],
    /// Pondering engines' searches in progress, by engine number.
    pondering: [Option<Pondering>; 2],
    /// The ponder move of the last answer, from an engine that ponders, not yet acted on.
    offer: Option<String>,
    /// Answers and pondering, by engine number.
    answers: [AnswerStats; 2],
    /// Engines that failed the handshake, and how.
    failed: [Option<(EndReason, String)>; 2],
}

impl Table<'_> {
    /// The engine playing `c`.
    fn engine_of(&self, c: Color) -> usize {
        if (c == Color::Black) == self.job.engine1_black {
            0
        } else {
            1
        }
    }

    /// The colour engine `e` plays.
    fn color_of(&self, e: usize) -> Color {
        if (e == 0) == self.job.engine1_black {
            Color::Black
        } else {
            Color::White
        }
    }

    /// `usi` / `usiok`, options, `isready` / `readyok`, both engines at once (shared deadlines).
    /// Failures are noted in `self.failed`.
    fn handshake(&mut self) -> Result<(), GameError> {
        let s = self.settings;
        for p in &self.procs {
            p.send("usi");
        }
        let deadline = Instant::now() + s.usi_timeout;
        for e in 0..2 {
            match self.procs[e].wait_usiok(deadline, self.cancel) {
                Ok(_) => {
                    // The variant first, so that the engine's own options apply to that game.
                    let mut options = self.players[e].config.options.clone();
                    if self.players[e].config.ponder {
                        options.insert(0, ("USI_Ponder".to_string(), Some("true".to_string())));
                    }
                    if let Some(v) = s.variant.uci_variant() {
                        options.insert(0, ("UCI_Variant".to_string(), Some(v.to_string())));
                    }
                    self.procs[e].send_options_and_isready(&options)
                }
                Err(WaitError::Cancelled) => return Err(GameError::Cancelled),
                Err(err) => {
                    self.failed[e] = Some(handshake_failure(&mut self.procs[e], err, "usiok", s.usi_timeout))
                }
            }
        }
        let deadline = Instant::now() + s.ready_timeout;
        for e in 0..2 {
            if self.failed[e].is_some() {
                continue;
            }
            match self.procs[e].wait_for("readyok", deadline, self.cancel, |_| {}) {
                Ok(_) => {}
                Err(WaitError::Cancelled) => return Err(GameError::Cancelled),
                Err(err) => {
                    self.failed[e] =
                        Some(handshake_failure(&mut self.procs[e], err, "readyok", s.ready_timeout))
                }
            }
        }
        Ok(())
    }

    /// Moves until the game is decided.
    fn play_moves(&mut self) -> Result<Outcome, GameError> {
        for p in &self.procs {
            p.send("usinewgame");
        }
        let s = self.settings;
        let mut clock = Clock::new(&s.tc, s.tolerance, s.max_move_time);
        loop {
            if let Some(o) = self.pos.adjudicate(s.max_moves) {
                return Ok(o);
            }
            // The game goes on: the engine that just moved may ponder on the opponent's time.
            self.start_ponder(&clock);
            if let Some(o) = self.one_move(&mut clock)? {
                return Ok(o);
            }
        }
    }

    /// After `bestmove M ponder P` from a pondering engine, and M played with the game going on:
    /// the position after M and P and `go ponder` with the clock as it now stands. A P that is
    /// not legal after M is not pondered on.
    fn start_ponder(&mut self, clock: &Clock) {
        let Some(guess) = self.offer.take() else { return };
        if !self.pos.is_legal_usi(&guess) {
            return;
        }
        let e = self.engine_of(!self.pos.side_to_move());
        let moves = self.moves.iter().map(|m| m.mv.as_str()).chain(std::iter::once(guess.as_str()));
        let position = position_command(&self.job.opening, moves);
        let go = clock.go_ponder_command();
        let proc = &self.procs[e];
        proc.send(&position);
        let since = Instant::now();
        proc.send(&go);
        self.answers[e].ponder.go_ponder += 1;
        self.pondering[e] = Some(Pondering { guess, go, since });
    }

    /// Ends engine `e`'s ponder search, if any, at the start of its turn: a `bestmove` already
    /// sent breaks the protocol; then `ponderhit` if the opponent played the move pondered on,
    /// else `stop` and a wait for the (discarded) answer. Output still waiting is discarded.
    /// A search that the game ends before `ponderhit` or `stop` stays pending for `finish`.
    fn begin_turn(&mut self, e: usize, who: &str) -> Result<Start, Halt> {
        let proc = &mut self.procs[e];
        // Before `ponderhit` or `stop` nothing may answer `go ponder`; earlier lines are strays.
        let since = self.pondering[e].as_ref().map_or_else(Instant::now, |p| p.since);
        if let Some(line) = proc.discard_pending_bestmove(since) {
            let (reason, detail) = early_answer(who, &line);
            return Err(Halt::Lose(reason, detail));
        }
        if proc.is_closed() {
            let st = proc.exit_description();
            let when = if self.pondering[e].is_some() { "while pondering" } else { "before its move" };
            return Err(Halt::Lose(
                EndReason::Crash,
                format!("{who} exited ({st}) {when}{}", tail_note(proc)),
            ));
        }
        let Some(ponder) = self.pondering[e].take() else { return Ok(Start::Go) };
        if self.moves.last().is_some_and(|m| m.mv == ponder.guess) {
            // The clock starts before `ponderhit` is written: an engine that answers at once can
            // have its line timed before this thread runs again, and a `t0` taken after the
            // write would make that answer look earlier than the `ponderhit` it answers.
            let t0 = Instant::now();
            proc.send("ponderhit");
            self.answers[e].ponder.ponderhit += 1;
            return Ok(Start::Hit { t0, ponder });
        }
        proc.send("stop");
        self.answers[e].ponder.stop += 1;
        let wait = self.settings.stop_timeout + self.settings.tolerance;
        match proc.wait_for("bestmove", Instant::now() + wait, self.cancel, |_| {}) {
            Ok(_) => {
                proc.discard_pending();
                Ok(Start::Go)
            }
            Err(WaitError::Cancelled) => Err(Halt::Cancelled),
            Err(WaitError::Timeout) => Err(Halt::Lose(
                EndReason::Hang,
                format!(
                    "{who} gave no bestmove within {} ms after stop while pondering on {} ({})",
                    ms(wait),
                    ponder.guess,
                    ponder.go
                ),
            )),
            Err(WaitError::Closed) => {
                let st = proc.exit_description();
                Err(Halt::Lose(
                    EndReason::Crash,
                    format!("{who} exited ({st}) after stop while pondering{}", tail_note(proc)),
                ))
            }
        }
    }

    /// Asks the side to move for its move and plays it; returns the outcome if that ends the game.
    fn one_move(&mut self, clock: &mut Clock) -> Result<Option<Outcome>, GameError> {
        let side = self.pos.side_to_move();
        let e = self.engine_of(side);
        let who = format!("{} ({})", color_name(side), self.players[e].name);
        let lose =
            |reason: EndReason, detail: String| Ok(Some(Outcome { winner: Some(!side), reason, detail }));
        let start = match self.begin_turn(e, &who) {
            Ok(start) => start,
            Err(Halt::Lose(reason, detail)) => return lose(reason, detail),
            Err(Halt::Cancelled) => return Err(GameError::Cancelled),
        };
        let limit = clock.limit(side);
        let proc = &mut self.procs[e];
        let (t0, go, ponder_since) = match start {
            Start::Go => {
                let moves = self.moves.iter().map(|m| m.mv.as_str());
                proc.send(&position_command(&self.job.opening, moves));
                let go = clock.go_command();
                let t0 = Instant::now();
                proc.send(&go);
                (t0, go, None)
            }
            Start::Hit { t0, ponder } => (t0, format!("ponderhit after {}", ponder.go), Some(ponder.since)),
        };
        let answer = loop {
            match proc.wait_for("bestmove", t0 + limit, self.cancel, |_| {}) {
                // Read after `go ponder` but before `ponderhit`: an answer the protocol forbids.
                Ok(line)
                    if ponder_since.is_some_and(|since| proc.last_line_time() >= since)
                        && proc.last_line_time() < t0 =>
                {
                    let (reason, detail) = early_answer(&who, &line);
                    return lose(reason, detail);
                }
                // Read before this `go` was sent: a stray second answer to an earlier one.
                Ok(_) if proc.last_line_time() < t0 => continue,
                other => break other,
            }
        };
        let line = match answer {
            Ok(line) => line,
            Err(WaitError::Cancelled) => return Err(GameError::Cancelled),
            Err(WaitError::Timeout) => {
                self.think += limit;
                self.thinking[e] = true;
                return lose(
                    EndReason::Time,
                    format!("{who} gave no bestmove within {} ms ({go})", ms(limit)),
                );
            }
            Err(WaitError::Closed) => {
                let st = proc.exit_description();
                return lose(
                    EndReason::Crash,
                    format!("{who} exited ({st}) while thinking{}", tail_note(proc)),
                );
            }
        };
        // Timed from `go` to when the line came off the pipe.
        let elapsed = proc.last_line_time().saturating_duration_since(t0);
        self.think += elapsed;
        let answer =
            SlowAnswer { time: elapsed, allowed: limit, game: self.job.number, ply: self.moves.len() + 1 };
        self.answers[e].note(answer, clock.allowance(side));
        if let Err(flag) = clock.charge(side, elapsed) {
            let (took, allowed) = (ms(flag.elapsed), ms(flag.limit));
            return lose(
                EndReason::Time,
                format!("{who} took {took} ms, more than the {allowed} ms allowed ({go})"),
            );
        }
        let text = line.split_whitespace().nth(1).unwrap_or("");
        match text {
            "resign" => return lose(EndReason::Resign, format!("{who} resigned")),
            "win" => {
                return match &self.pos {
                    Board::Shogi(pos) => Ok(Some(judge_declaration(pos, self.settings.entering_king))),
                    Board::Dobutsu { .. } => lose(
                        EndReason::FalseDeclaration,
                        format!("{who} declared a win, which Dobutsu has not"),
                    ),
                }
            }
            _ => {}
        }
        match self.pos.play_usi(text) {
            Ok(()) => {
                self.moves.push(PlayedMove { mv: text.to_string(), time: Some(elapsed) });
                if self.players[e].config.ponder {
                    self.offer = ponder_move(&line);
                }
                match &self.pos {
                    Board::Shogi(pos) => Ok(judge_try(pos, self.settings.entering_king)),
                    Board::Dobutsu { .. } => Ok(None),
                }
            }
            Err(why) => {
                let shown: String = line.chars().take(QUOTE).collect();
                let what = match why {
                    MoveError::Malformed => "which is not a move",
                    MoveError::Illegal => "which is illegal in this position",
                };
                lose(EndReason::IllegalMove, format!("{who} answered `{shown}`, {what}"))
            }
        }
    }

    /// `stop` to an engine still thinking or pondering, `gameover` to each engine still there,
    /// then `quit` and, after the quit timeout, a kill.
    fn finish(&mut self, outcome: Option<&Outcome>) {
        for e in 0..2 {
            let p = &self.procs[e];
            // Counted even for a dead engine: every `go ponder` ends somehow.
            let pondering = self.pondering[e].take().is_some();
            self.answers[e].ponder.at_end += u32::from(pondering);
            if p.is_closed() || self.failed[e].is_some() {
                continue;
            }
            if pondering || self.thinking[e] {
                p.send("stop");
            }
            if let Some(o) = outcome {
                let word = match o.winner {
                    None => "draw",
                    Some(c) if c == self.color_of(e) => "win",
                    Some(_) => "lose",
                };
                p.send(&format!("gameover {word}"));
            }
        }
        let mut refs: Vec<&mut EngineProcess> = self.procs.iter_mut().collect();
        shutdown_all(&mut refs, self.settings.quit_timeout);
    }
}

/// Plays one game. `players` are indexed by engine number (0 = engine 1).
pub fn play(
    settings: &GameSettings,
    players: &[Player; 2],
    job: &GameJob,
    cancel: &Receiver<()>,
) -> Result<GameRecord, GameError> {
    let started = SystemTime::now();
    let t_start = Instant::now();
    let mut procs = Vec::with_capacity(2);
    for (e, p) in players.iter().enumerate() {
        let label = format!("engine {} ({})", e + 1, p.name);
        let proc = EngineProcess::spawn(&p.config, &label, p.log.clone(), format!("[game {}] ", job.number))
            .map_err(|err| GameError::Spawn {
                engine: e,
                message: format!("cannot start `{}`: {err}", p.config.command),
            })?;
        procs.push(proc);
    }
    let pos = job.opening.board(settings.variant, settings.repetition);
    let moves = job.opening.moves.iter().map(|mv| PlayedMove { mv: mv.clone(), time: None }).collect();
    let mut t = Table {
        settings,
        players,
        job,
        cancel,
        procs,
        pos,
        moves,
        think: Duration::ZERO,
        thinking: [false; 2],
        pondering: [None, None],
        offer: None,
        answers: [AnswerStats::default(); 2],
        failed: [None, None],
    };

    t.handshake()?;
    let setup = t_start.elapsed();
    let outcome = match &t.failed {
        [Some((_, d0)), Some((_, d1))] => {
            let message = format!("both engines failed to start: engine 1 {d0}; engine 2 {d1}");
            t.finish(None);
            return Err(GameError::BothFailed(message));
        }
        [Some((reason, d)), None] | [None, Some((reason, d))] => {
            let e = if t.failed[0].is_some() { 0 } else { 1 };
            let c = t.color_of(e);
            Outcome {
                winner: Some(!c),
                reason: *reason,
                detail: format!("{} ({}) {d}", color_name(c), players[e].name),
            }
        }
        [None, None] => t.play_moves()?,
    };
    let t_end = Instant::now();
    t.finish(Some(&outcome));

    let names = [Color::Black, Color::White].map(|c| players[t.engine_of(c)].name.clone());
    Ok(GameRecord {
        number: job.number,
        pair: job.pair,
        opening: job.opening.clone(),
        engine1_black: job.engine1_black,
        names,
        moves: t.moves,
        outcome,
        started,
        wall: t_start.elapsed(),
        think: t.think,
        setup,
        teardown: t_end.elapsed(),
        answers: t.answers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shomei::Position;

    #[test]
    fn position_commands() {
        let o = Opening::startpos();
        assert_eq!(position_command(&o, std::iter::empty()), "position startpos");
        let m = Position::startpos().parse_move("7g7f").unwrap();
        assert_eq!(
            position_command(&o, std::iter::once(m.to_string().as_str())),
            "position startpos moves 7g7f"
        );
    }
}
