//! The match: engines probed once, games handed to worker threads, each result recorded and
//! printed as it comes, the SPRT checked, and the summary written after every game and at the end.
//!
//! Bad input is caught before the first game (openings, output folder, engines that do not start
//! or never say `usiok`). A failure later on (an engine that can no longer be started) stops the
//! match, but every game already finished stays in the records and the summary.

use crate::config::{EngineConfig, MatchConfig, OpeningOrder, OpeningSource, Variant};
use crate::engine::{EngineId, EngineProcess, StderrLog, WaitError};
use crate::game::{self, AnswerStats, GameError, GameJob, GameRecord, GameSettings, Player};
use crate::openings::OpeningBook;
use crate::record::{MatchInfo, RecordSink};
use crate::stats::{self, SprtConfig, SprtVerdict, Tally};
use crossbeam_channel::{never, unbounded, Receiver, TryRecvError};
use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// How a match ended.
#[derive(Debug)]
pub struct MatchResult {
    pub tally: Tally,
    /// The SPRT's verdict when it stopped the match.
    pub verdict: Option<SprtVerdict>,
    /// Why the match stopped before its last game, if it failed.
    pub error: Option<String>,
    pub summary: String,
}

/// Prints to stdout and copies to `arena.log` in the output folder.
struct Console {
    log: Option<File>,
}

impl Console {
    fn line(&mut self, text: &str) {
        // A closed stdout (`| head`) must not stop the match: the log and records go on.
        let _ = writeln!(std::io::stdout().lock(), "{text}");
        if let Some(f) = &mut self.log {
            let _ = writeln!(f, "{text}");
        }
    }
}

fn stderr_tail_text(lines: &[String]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let mut s = String::from("\n  last lines on its stderr:");
    for l in lines {
        s.push_str("\n    ");
        s.push_str(l);
    }
    s
}

/// Starts an engine once, before the match, to catch bad input early and learn its name.
pub fn probe(
    cfg: &EngineConfig,
    number: usize,
    log: &StderrLog,
    settings: &GameSettings,
) -> Result<EngineId, String> {
    let label = format!("engine {number} (`{}`)", cfg.command);
    let mut p = EngineProcess::spawn(cfg, &label, log.clone(), "[probe] ".into())
        .map_err(|err| format!("{label} cannot be started: {err}"))?;
    let never = never();
    let fail =
        |p: &mut EngineProcess, err: WaitError, awaited: &str, timeout: Duration, hint: &str| -> String {
            match err {
                WaitError::Closed => {
                    let st = p.exit_description();
                    format!(
                        "{label} exited before answering `{awaited}` ({st}){}",
                        stderr_tail_text(&p.stderr_tail())
                    )
                }
                _ => format!(
                    "{label} did not answer `{awaited}` within {} ms{hint}{}",
                    timeout.as_millis(),
                    stderr_tail_text(&p.stderr_tail())
                ),
            }
        };
    let id = p.usi(Instant::now() + settings.usi_timeout, &never).map_err(|err| {
        fail(
            &mut p,
            err,
            "usiok",
            settings.usi_timeout,
            "; is it a USI engine? (--usi-timeout raises the limit)",
        )
    })?;
    p.send_options_and_isready(&cfg.options);
    p.wait_for("readyok", Instant::now() + settings.ready_timeout, &never, |_| {}).map_err(|err| {
        fail(&mut p, err, "readyok", settings.ready_timeout, " (--ready-timeout raises the limit)")
    })?;
    p.shutdown(settings.quit_timeout);
    Ok(id)
}

fn cancelled(rx: &Receiver<()>) -> bool {
    matches!(rx.try_recv(), Err(TryRecvError::Disconnected))
}

/// Running totals for the summary.
#[derive(Default)]
struct Timing {
    games: u32,
    wall: Duration,
    think: Duration,
    setup: Duration,
    teardown: Duration,
    engine_moves: u64,
    /// Each engine's answers and pondering, by engine number.
    answers: [AnswerStats; 2],
}

struct SummaryCtx<'a> {
    names: &'a [String; 2],
    cfg: &'a MatchConfig,
    openings: &'a str,
}

fn summary_text(
    ctx: &SummaryCtx,
    tally: &Tally,
    timing: &Timing,
    elapsed: Duration,
    sprt: Option<(SprtConfig, f64, SprtVerdict)>,
    state: &str,
) -> String {
    let [n1, n2] = ctx.names;
    let cfg = ctx.cfg;
    let mut s = String::new();
    let mut line = |t: String| {
        s.push_str(&t);
        s.push('\n');
    };
    line(format!("Match {n1} vs {n2}: {} of {} games played ({state})", tally.games(), cfg.games));
    let rules = match cfg.variant {
        Variant::Shogi => format!("entering king {:?}", cfg.entering_king),
        Variant::Dobutsu => format!("Dobutsu, repetition draws at occurrence {}", cfg.repetition.draw_at),
    };
    line(format!(
        "Settings: {} (tolerance {} ms); max moves {}; {rules}; openings {}",
        cfg.tc.describe(),
        cfg.tolerance.as_millis(),
        cfg.max_moves,
        ctx.openings
    ));
    line(format!("Score of {n1} vs {n2}: {}  {} games", tally.wld(), tally.games()));
    let b = tally.as_black;
    let w = [tally.wins - b[0], tally.losses - b[1], tally.draws - b[2]];
    line(format!(
        "  {n1} as Black: {} - {} - {}, as White: {} - {} - {}",
        b[0], b[1], b[2], w[0], w[1], w[2]
    ));
    line(format!(
        "  Black won {}, White won {}, drawn {}",
        tally.by_color[0], tally.by_color[1], tally.by_color[2]
    ));
    match stats::trinomial(tally.wins, tally.losses, tally.draws) {
        Some(e) => {
            line(format!("Elo difference: {}  [trinomial: per game, {} games]", stats::fmt_estimate(&e), e.n))
        }
        None => line("Elo difference: no games".into()),
    }
    match stats::pentanomial(&tally.penta) {
        Some(e) => line(format!(
            "Elo difference: {}  [pentanomial: per colour-swapped pair, {} pairs]",
            stats::fmt_estimate(&e),
            e.n
        )),
        None => line("Elo difference (pentanomial): no complete pairs yet".into()),
    }
    line(format!("LOS: {:.1}%", 100.0 * stats::los(tally.wins, tally.losses)));
    let p = tally.penta;
    line(format!(
        "Pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 points for {n1}): {} {} {} {} {}",
        p[0], p[1], p[2], p[3], p[4]
    ));
    if let Some((sc, llr, verdict)) = sprt {
        let (lo, hi) = sc.bounds();
        let v = match verdict {
            SprtVerdict::Continue => "no decision yet",
            SprtVerdict::AcceptH0 => "H0 accepted (lower bound crossed)",
            SprtVerdict::AcceptH1 => "H1 accepted (upper bound crossed)",
        };
        line(format!(
            "SPRT elo0={} elo1={} alpha={} beta={} (logistic Elo, pentanomial GSPRT): LLR {:.3} in [{:.3}, {:.3}]: {v}",
            sc.elo0, sc.elo1, sc.alpha, sc.beta, llr, lo, hi
        ));
    }
    let reasons: Vec<String> = tally.reasons.iter().map(|(k, v)| format!("{k} {v}")).collect();
    line(format!("Endings: {}", if reasons.is_empty() { "-".into() } else { reasons.join(", ") }));
    for e in 0..2 {
        line(format!(
            "Slowest answer: engine {} ({}): {}",
            e + 1,
            ctx.names[e],
            slowest_text(&timing.answers[e])
        ));
    }
    if cfg.engines.iter().any(|ec| ec.ponder) {
        let each: Vec<String> = (0..2)
            .map(|e| {
                let what = if cfg.engines[e].ponder { ponder_text(&timing.answers[e]) } else { "off".into() };
                format!("engine {} ({}): {what}", e + 1, ctx.names[e])
            })
            .collect();
        line(format!("Ponder: {}", each.join("; ")));
    }
    if timing.games > 0 {
        let g = timing.games as f64;
        let outside = timing.wall.saturating_sub(timing.think);
        line(format!(
            "Time: {:.1} s wall for the match (concurrency {}); per game {:.3} s, of which {:.3} s on the engines' clocks",
            elapsed.as_secs_f64(),
            cfg.concurrency,
            timing.wall.as_secs_f64() / g,
            timing.think.as_secs_f64() / g
        ));
        // Outside the clocks: engine start-up and handshake, the runner's work and the pipes
        // between moves, and shutdown. The middle part is the runner's own cost.
        let ms = |d: Duration| d.as_secs_f64() * 1000.0 / g;
        let between = outside.saturating_sub(timing.setup + timing.teardown);
        let per_move = if timing.engine_moves > 0 {
            format!(" ({:.3} ms per move)", between.as_secs_f64() * 1000.0 / timing.engine_moves as f64)
        } else {
            String::new()
        };
        line(format!(
            "Outside the engines' clocks, per game: {:.1} ms = start-up and handshake {:.1} + between moves {:.1}{per_move} + shutdown {:.1}",
            ms(outside),
            ms(timing.setup),
            ms(between),
            ms(timing.teardown)
        ));
    }
    s
}

/// An engine's slowest answer and how many answers went past the clock into the tolerance.
fn slowest_text(a: &AnswerStats) -> String {
    match a.slowest {
        None => "no answers".into(),
        Some(s) => format!(
            "{} ms of {} allowed (game {}, ply {}); over the clock without the tolerance: {} of {} answers",
            s.time.as_millis(),
            s.allowed.as_millis(),
            s.game,
            s.ply,
            a.over_clock,
            a.answers
        ),
    }
}

/// How a pondering engine's `go ponder` searches ended.
fn ponder_text(a: &AnswerStats) -> String {
    let p = a.ponder;
    format!("{} go ponder, {} ponderhit, {} stop, {} at game end", p.go_ponder, p.ponderhit, p.stop, p.at_end)
}

/// The slowest answer of a game, for its line: "slowest 131 ms (new)".
fn game_slowest(rec: &GameRecord, names: &[String; 2]) -> String {
    let slowest = (0..2).filter_map(|e| rec.answers[e].slowest.map(|s| (s.time, e))).max();
    match slowest {
        Some((t, e)) => format!(", slowest {} ms ({})", t.as_millis(), names[e]),
        None => String::new(),
    }
}

fn game_line(rec: &GameRecord, total: usize, tally: &Tally, names: &[String; 2], llr: Option<f64>) -> String {
    let width = total.to_string().len();
    let mut s = format!(
        "game {:>w$}/{total}: {} (Black) vs {} (White): {} {}, {} plies, {:.1} s{} | {} vs {}: {}",
        rec.number,
        rec.names[0],
        rec.names[1],
        rec.result_text(),
        rec.outcome.reason.code(),
        rec.game_plies(),
        rec.wall.as_secs_f64(),
        game_slowest(rec, names),
        names[0],
        names[1],
        tally.wld(),
        w = width
    );
    if let Some(llr) = llr {
        s.push_str(&format!(" LLR {llr:.2}"));
    }
    s
}

/// Probes both engines at once; the first failure is the error.
fn probe_both(
    cfg: &MatchConfig,
    logs: &[StderrLog],
    settings: &GameSettings,
) -> Result<Vec<EngineId>, String> {
    let results: Vec<Result<EngineId, String>> = thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|e| {
                let (ec, log) = (&cfg.engines[e], &logs[e]);
                s.spawn(move || probe(ec, e + 1, log, settings))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err("probe thread panicked".into())))
            .collect()
    });
    results.into_iter().collect()
}

/// Names for output: `--nameN`, else `id name`, else the program's file name; made distinct.
fn engine_names(cfg: &MatchConfig, ids: &[EngineId]) -> [String; 2] {
    let mut names = [0, 1].map(|e| {
        let program = || cfg.engines[e].program.file_stem().map(|s| s.to_string_lossy().into_owned());
        cfg.engines[e].name.clone().or_else(|| ids[e].name.clone()).or_else(program).unwrap_or_default()
    });
    if names[0] == names[1] {
        names[0].push_str(" #1");
        names[1].push_str(" #2");
    }
    names
}

/// Plays the match described by `cfg`. An error before the first game is returned as `Err`;
/// a failure during the match ends it early with `MatchResult::error` set, after the summary
/// of the games already played has been printed and written.
pub fn run(cfg: &MatchConfig) -> Result<MatchResult, String> {
    let settings = GameSettings {
        tc: cfg.tc.clone(),
        tolerance: cfg.tolerance,
        max_move_time: cfg.max_move_time,
        max_moves: cfg.max_moves,
        entering_king: cfg.entering_king,
        variant: cfg.variant,
        repetition: cfg.repetition,
        usi_timeout: cfg.usi_timeout,
        ready_timeout: cfg.ready_timeout,
        quit_timeout: cfg.quit_timeout,
        stop_timeout: cfg.stop_timeout,
    };
    let book = OpeningBook::for_variant(cfg.variant, &cfg.openings, cfg.opening_order, cfg.seed)?;
    let openings_text = {
        let order = match cfg.opening_order {
            OpeningOrder::Sequential => "in order",
            OpeningOrder::Random => "shuffled",
        };
        match &cfg.openings {
            OpeningSource::Builtin if cfg.variant == Variant::Dobutsu => "startpos only".into(),
            OpeningSource::Builtin => {
                format!("built-in tools/openings.txt ({} lines, {order})", book.len().unwrap_or(0))
            }
            OpeningSource::Startpos => "startpos only".into(),
            OpeningSource::File(p) => format!("{} ({} lines, {order})", p.display(), book.len().unwrap_or(0)),
            OpeningSource::Random(n) => format!("random quiet openings of {n} plies"),
        }
    };

    // The output folder comes first, so that the probe's stderr has a log to go to.
    crate::record::check_out_dir(&cfg.out, cfg.overwrite)?;
    let logs_dir = cfg.out.join("logs");
    std::fs::create_dir_all(&logs_dir)
        .map_err(|e| format!("cannot create output folder '{}': {e}", logs_dir.display()))?;
    let mut logs = Vec::new();
    for e in 0..2 {
        let path = logs_dir.join(format!("engine{}.stderr.log", e + 1));
        let log = StderrLog::create(&path, cfg.stderr_limit)
            .map_err(|err| format!("cannot create log '{}': {err}", path.display()))?;
        logs.push(log);
    }
    let ids = probe_both(cfg, &logs, &settings)?;
    let names = engine_names(cfg, &ids);

    let info = MatchInfo {
        event: format!("shomei-arena {} vs {}", names[0], names[1]),
        tc: cfg.tc.clone(),
        max_moves: cfg.max_moves,
        entering_king: cfg.entering_king,
        variant: cfg.variant,
    };
    let mut sink = RecordSink::create(&cfg.out, cfg.overwrite, cfg.games, info)?;
    let mut console = Console { log: sink.open_append("arena.log").ok() };

    console.line(&format!(
        "shomei-arena: {} vs {}, {} games, {} (tolerance {} ms), concurrency {}",
        names[0],
        names[1],
        cfg.games,
        cfg.tc.describe(),
        cfg.tolerance.as_millis(),
        cfg.concurrency
    ));
    for e in 0..2 {
        let id = &ids[e];
        console.line(&format!(
            "  engine {}: {}  (`{}`, id name: {})",
            e + 1,
            names[e],
            cfg.engines[e].command,
            id.name.as_deref().unwrap_or("-")
        ));
        if cfg.engines[e].ponder {
            console.line(&format!(
                "  engine {} ponders (USI_Ponder true; stop answered within {} ms + tolerance)",
                e + 1,
                cfg.stop_timeout.as_millis()
            ));
        }
        for (opt, _) in &cfg.engines[e].options {
            if !id.options.iter().any(|o| o == opt) {
                console.line(&format!(
                    "  warning: engine {} does not declare option '{opt}'; it may ignore it",
                    e + 1
                ));
            }
        }
    }
    console.line(&format!("  openings: {openings_text}; seed {}", cfg.seed));
    console.line(&format!("  output: {}", cfg.out.display()));

    let players: [Player; 2] = [0, 1].map(|e| Player {
        config: cfg.engines[e].clone(),
        name: names[e].clone(),
        log: logs[e].clone(),
    });
    let ctx = SummaryCtx { names: &names, cfg, openings: &openings_text };
    let mut tally = Tally::default();
    let mut timing = Timing::default();
    let mut verdict = None;
    let mut error: Option<String> = None;
    let mut aborted = 0;
    let started = Instant::now();

    let (res_tx, res_rx) = unbounded::<(GameJob, Result<GameRecord, GameError>)>();
    let (cancel_tx, cancel_rx) = crossbeam_channel::bounded::<()>(0);
    let mut cancel_tx = Some(cancel_tx);
    let next = AtomicUsize::new(0);
    let workers = cfg.concurrency.min(cfg.games);

    thread::scope(|s| {
        for w in 0..workers {
            let (res_tx, cancel_rx) = (res_tx.clone(), cancel_rx.clone());
            let (next, book, settings, players) = (&next, &book, &settings, &players);
            let games = cfg.games;
            thread::Builder::new()
                .name(format!("game-worker-{w}"))
                .spawn_scoped(s, move || loop {
                    if cancelled(&cancel_rx) {
                        return;
                    }
                    let g = next.fetch_add(1, Ordering::SeqCst);
                    if g >= games {
                        return;
                    }
                    let job = GameJob {
                        number: g + 1,
                        pair: g / 2,
                        opening: book.for_pair(g / 2),
                        engine1_black: cfg.engine1_plays.black_in(g),
                    };
                    let result = game::play(settings, players, &job, &cancel_rx);
                    if res_tx.send((job, result)).is_err() {
                        return;
                    }
                })
                .expect("cannot start a worker thread");
        }
        drop(res_tx);

        for (job, result) in res_rx.iter() {
            match result {
                Ok(rec) => {
                    if let Err(e) = sink.write_game(&rec) {
                        error.get_or_insert(format!("cannot write the records of game {}: {e}", rec.number));
                        cancel_tx.take();
                    }
                    tally.add(rec.pair, rec.engine1_score(), rec.engine1_black, rec.outcome.reason.code());
                    timing.games += 1;
                    timing.wall += rec.wall;
                    timing.think += rec.think;
                    timing.setup += rec.setup;
                    timing.teardown += rec.teardown;
                    timing.engine_moves += rec.game_plies() as u64;
                    for e in 0..2 {
                        timing.answers[e].add(&rec.answers[e]);
                    }
                    let sprt_now = cfg.sprt.map(|sc| {
                        let (llr, v) = sc.verdict(&tally.penta);
                        (sc, llr, v)
                    });
                    console.line(&game_line(&rec, cfg.games, &tally, &names, sprt_now.map(|x| x.1)));
                    if let Some((_, _, v)) = sprt_now {
                        if v != SprtVerdict::Continue && verdict.is_none() && cancel_tx.is_some() {
                            verdict = Some(v);
                            cancel_tx.take();
                            console.line(
                                "SPRT bound crossed: stopping the match; games in progress are abandoned",
                            );
                        }
                    }
                    let text =
                        summary_text(&ctx, &tally, &timing, started.elapsed(), sprt_now, "in progress");
                    let _ = sink.write_summary(&text);
                }
                Err(GameError::Cancelled) => aborted += 1,
                Err(GameError::Spawn { engine, message }) => {
                    error.get_or_insert(format!("game {}: engine {}: {message}", job.number, engine + 1));
                    cancel_tx.take();
                }
                Err(GameError::BothFailed(message)) => {
                    error.get_or_insert(format!("game {}: {message}", job.number));
                    cancel_tx.take();
                }
            }
        }
    });

    let sprt_final = cfg.sprt.map(|sc| {
        let (llr, v) = sc.verdict(&tally.penta);
        (sc, llr, verdict.unwrap_or(v))
    });
    let state = if let Some(e) = &error {
        format!("stopped by an error: {e}")
    } else if verdict.is_some() {
        "stopped by the SPRT".to_string()
    } else {
        "finished".to_string()
    };
    let mut summary = summary_text(&ctx, &tally, &timing, started.elapsed(), sprt_final, &state);
    if aborted > 0 {
        summary.push_str(&format!("Abandoned games (not counted): {aborted}\n"));
    }
    summary.push_str(&format!(
        "Records: {}/games/*.{}, games.usi, results.tsv; engine stderr in {}/logs\n",
        sink.dir().display(),
        if cfg.variant == Variant::Dobutsu { "txt" } else { "csa" },
        sink.dir().display()
    ));
    console.line("");
    for l in summary.lines() {
        console.line(l);
    }
    if let Err(e) = sink.write_summary(&summary) {
        error.get_or_insert(format!("cannot write summary.txt: {e}"));
    }
    Ok(MatchResult { tally, verdict, error, summary })
}
