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

use crate::cli::EngineConfig;
use crate::clock::{Clock, TimeControl};
use crate::engine::{shutdown_all, EngineProcess, StderrLog, WaitError};
use crate::openings::Opening;
use crate::rules::{Board, Repetition, Variant};
use crossbeam_channel::Receiver;
use shomei::shogi::rules::try_square;
use shomei::shogi::{Declaration, EnteringKingRule, MoveError};
use shomei::{Color, PieceKind, Position};
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

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndReason {
    /// The side to move was in check with no legal move.
    Checkmate,
    /// The side to move had no legal move without being in check (it loses all the same).
    NoLegalMove,
    Resign,
    /// A correct entering-king declaration (`bestmove win`).
    Declaration,
    /// A declaration worth a draw under the 24-point rule.
    DeclarationDraw,
    /// `bestmove win` without meeting the conditions.
    FalseDeclaration,
    /// Fourfold repetition, a draw.
    Sennichite,
    /// Fourfold repetition with one side checking throughout: that side loses.
    PerpetualCheck,
    MaxMoves,
    IllegalMove,
    /// The move took longer than the clock allowed, or never came.
    Time,
    /// The engine exited or closed its output.
    Crash,
    /// No `usiok` or `readyok` in time.
    NoResponse,
    /// Dobutsu: the side to move's Lion was captured.
    LionCaptured,
    /// Dobutsu: the opposing Lion reached the far rank and cannot be captured. Shogi under the
    /// try rule: the opposing king moved onto its try square.
    Try,
}

impl EndReason {
    /// Short code for tables and counts.
    pub fn code(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::NoLegalMove => "no-legal-move",
            EndReason::Resign => "resign",
            EndReason::Declaration => "declaration",
            EndReason::DeclarationDraw => "declaration-draw",
            EndReason::FalseDeclaration => "false-declaration",
            EndReason::Sennichite => "sennichite",
            EndReason::PerpetualCheck => "perpetual-check",
            EndReason::MaxMoves => "max-moves",
            EndReason::IllegalMove => "illegal-move",
            EndReason::Time => "time",
            EndReason::Crash => "crash",
            EndReason::NoResponse => "no-response",
            EndReason::LionCaptured => "lion-captured",
            EndReason::Try => "try",
        }
    }
}

/// The result of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// None: a draw.
    pub winner: Option<Color>,
    pub reason: EndReason,
    /// Who did what, in words.
    pub detail: String,
}

/// A move of the game, in USI notation (checked legal); opening moves have no time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: String,
    pub time: Option<Duration>,
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

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

/// Judges a shogi position before the side to move is asked for a move (see `Board::adjudicate`).
pub fn adjudicate(pos: &Position, max_moves: u32) -> Option<Outcome> {
    Board::Shogi(Box::new(pos.clone())).adjudicate(max_moves)
}

/// Judges `bestmove win` from the side to move.
pub fn judge_declaration(pos: &Position, rule: EnteringKingRule) -> Outcome {
    let us = pos.side_to_move();
    let (points, pieces) = pos.declaration_points(us);
    let facts = format!("{points} points, {pieces} pieces in the camp, rule {rule:?}");
    // Under the try rule the try is a move: there is nothing to declare.
    let verdict = if rule == EnteringKingRule::Try { Declaration::Invalid } else { pos.declaration(rule) };
    match verdict {
        Declaration::Win => Outcome {
            winner: Some(us),
            reason: EndReason::Declaration,
            detail: format!("{} declared an entering-king win ({facts})", color_name(us)),
        },
        Declaration::Draw => Outcome {
            winner: None,
            reason: EndReason::DeclarationDraw,
            detail: format!("{} declared and scored a draw ({facts})", color_name(us)),
        },
        Declaration::Invalid => Outcome {
            winner: Some(!us),
            reason: EndReason::FalseDeclaration,
            detail: format!(
                "{} declared a win (bestmove win) without meeting the conditions ({facts}{})",
                color_name(us),
                if pos.in_check() { ", in check" } else { "" }
            ),
        },
    }
}

/// Under the try rule, the win of the side that just moved if that move took its king onto its
/// try square; the move was legal, so the square was safe.
pub fn judge_try(pos: &Position, rule: EnteringKingRule) -> Option<Outcome> {
    let mover = !pos.side_to_move();
    let m = pos.last_move()?;
    let reached =
        !m.is_drop() && m.to() == try_square(mover) && pos.piece_on(m.to()).kind() == PieceKind::King;
    (rule == EnteringKingRule::Try && reached).then(|| Outcome {
        winner: Some(mover),
        reason: EndReason::Try,
        detail: format!("{} moved its king onto the try square {}", color_name(mover), m.to()),
    })
}

fn tail_note(p: &EngineProcess) -> String {
    let tail = p.stderr_tail();
    match tail.last() {
        Some(last) => format!("; last stderr line: {last}"),
        None => String::new(),
    }
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
            if let Some(o) = self.one_move(&mut clock)? {
                return Ok(o);
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
        let position = position_command(&self.job.opening, self.moves.iter().map(|m| m.mv.as_str()));
        let proc = &mut self.procs[e];
        proc.discard_pending();
        if proc.is_closed() {
            let st = proc.exit_description();
            return lose(EndReason::Crash, format!("{who} exited ({st}) before its move{}", tail_note(proc)));
        }
        proc.send(&position);
        let go = clock.go_command();
        let limit = clock.limit(side);
        let t0 = Instant::now();
        proc.send(&go);
        let answer = loop {
            match proc.wait_for("bestmove", t0 + limit, self.cancel, |_| {}) {
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
                match &self.pos {
                    Board::Shogi(pos) => Ok(judge_try(pos, self.settings.entering_king)),
                    Board::Dobutsu { .. } => Ok(None),
                }
            }
            Err(why) => {
                let shown: String = line.chars().take(80).collect();
                let what = match why {
                    MoveError::Malformed => "which is not a move",
                    MoveError::Illegal => "which is illegal in this position",
                };
                lose(EndReason::IllegalMove, format!("{who} answered `{shown}`, {what}"))
            }
        }
    }

    /// `stop` to an engine still thinking, `gameover` to each engine still there, then `quit`
    /// and, after the quit timeout, a kill.
    fn finish(&mut self, outcome: Option<&Outcome>) {
        for e in 0..2 {
            let p = &self.procs[e];
            if p.is_closed() || self.failed[e].is_some() {
                continue;
            }
            if self.thinking[e] {
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
    let pos = Board::after_opening(settings.variant, &job.opening, settings.repetition);
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// White king 1a behind pawns on 1c and 2c, Black rook 5b, Black king 9i.
    const PERPETUAL_SFEN: &str = "8k/4R4/7pp/9/9/9/9/9/K8 b - 1";

    #[test]
    fn adjudicates_mate_repetition_and_move_limit() {
        let mated = Position::from_sfen("8k/8G/8P/9/9/9/9/9/K8 w - 1").unwrap();
        let o = adjudicate(&mated, 300).unwrap();
        assert_eq!((o.winner, o.reason), (Some(Color::Black), EndReason::Checkmate));

        let mut pos = Position::startpos();
        let cycle = ["2h3h", "8b7b", "3h2h", "7b8b"];
        for i in 0..12 {
            assert!(adjudicate(&pos, 300).is_none(), "ended early at ply {i}");
            let m = pos.parse_move(cycle[i % 4]).unwrap();
            pos.do_move(m);
        }
        let o = adjudicate(&pos, 300).unwrap();
        assert_eq!((o.winner, o.reason), (None, EndReason::Sennichite));

        // White king shuttles 1a-1b while a Black rook checks from 5a and 5b.
        let mut pos = Position::from_sfen(PERPETUAL_SFEN).unwrap();
        let cycle = ["5b5a", "1a1b", "5a5b", "1b1a"];
        for i in 0..12 {
            assert!(adjudicate(&pos, 300).is_none(), "ended early at ply {i}");
            let m = pos.parse_move(cycle[i % 4]).unwrap();
            pos.do_move(m);
        }
        let o = adjudicate(&pos, 300).unwrap();
        assert_eq!((o.winner, o.reason), (Some(Color::White), EndReason::PerpetualCheck));

        let mut pos = Position::startpos();
        for m in ["7g7f", "3c3d", "2g2f"] {
            let m = pos.parse_move(m).unwrap();
            pos.do_move(m);
        }
        assert!(adjudicate(&pos, 4).is_none());
        let o = adjudicate(&pos, 3).unwrap();
        assert_eq!((o.winner, o.reason), (None, EndReason::MaxMoves));
    }

    #[test]
    fn judges_declarations() {
        // Black king on 5b; in the camp: 9 pawns, rook, bishop = 19 points over 11 pieces;
        // in hand 4 golds, 4 silvers, a knight = 9 points. 28 in all: a win under the 27-point
        // rule (Black needs 28), a draw under the 24-point rule (24..30).
        let pos = Position::from_sfen("9/1R2K2B1/PPPPPPPPP/9/9/9/9/9/4k4 b 4G4SNrb3n4l9p 1").unwrap();
        assert_eq!(pos.declaration_points(Color::Black), (28, 11));
        let o = judge_declaration(&pos, EnteringKingRule::Csa27);
        assert_eq!((o.winner, o.reason), (Some(Color::Black), EndReason::Declaration));
        let o = judge_declaration(&pos, EnteringKingRule::Csa24);
        assert_eq!((o.winner, o.reason), (None, EndReason::DeclarationDraw));
        let o = judge_declaration(&pos, EnteringKingRule::None);
        assert_eq!((o.winner, o.reason), (Some(Color::White), EndReason::FalseDeclaration));
        let o = judge_declaration(&Position::startpos(), EnteringKingRule::Csa27);
        assert_eq!((o.winner, o.reason), (Some(Color::White), EndReason::FalseDeclaration));
        // The try rule has no declaration.
        let o = judge_declaration(&pos, EnteringKingRule::Try);
        assert_eq!((o.winner, o.reason), (Some(Color::White), EndReason::FalseDeclaration));
    }

    #[test]
    fn judges_tries() {
        let mut pos = Position::from_sfen("9/4K4/9/9/9/9/9/9/4k4 b 2r2b4g4s4n4l18p 1").unwrap();
        let m = pos.parse_move("5b5a").unwrap();
        pos.do_move(m);
        let o = judge_try(&pos, EnteringKingRule::Try).unwrap();
        assert_eq!((o.winner, o.reason), (Some(Color::Black), EndReason::Try));
        assert!(judge_try(&pos, EnteringKingRule::Csa27).is_none());
        // Any other move, by the king or not, is no try.
        let mut pos = Position::from_sfen("9/4K4/9/9/9/9/9/9/4k4 b 2r2b4g4s4n4l18p 1").unwrap();
        let m = pos.parse_move("5b4a").unwrap();
        pos.do_move(m);
        assert!(judge_try(&pos, EnteringKingRule::Try).is_none());
    }

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
