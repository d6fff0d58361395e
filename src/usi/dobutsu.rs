//! `setoption name UCI_Variant value dobutsu`: the protocol on the 3×4 board. `position`, `go`
//! (every form), `go perft`, `go mate`, `d`, `stop` and `ponderhit` work as for shogi; moves come
//! from the solved table when one is loaded (exact: fastest win, slowest loss, a draw kept),
//! else from the second player's book embedded in the binary where it covers the position
//! (exact too: the fastest win), else from an alpha-beta search on the same rules. The thinking
//! runs on its own thread, so the loop keeps answering, and every `go` gets one legal `bestmove`.

use super::JobOutput;
use crate::dobutsu::play::{MATE, MATE_BOUND};
use crate::dobutsu::{legal_moves, move_to_usi, parse_move, perft, Kind, Position, Status, Table, Value};
use crate::game::search::{search_root, search_within, Abort, Iteration};
use crate::search::{time, Limits, TimeOptions};
use crossbeam_channel::Sender;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The deepest search `go` runs without a depth limit (the board is small: far beyond any
/// time control, so in practice `stop` or the clock ends it).
const MAX_DEPTH: u32 = 64;

/// The positions of the game so far, the current one last, with ply numbers zeroed: what the
/// repetition rule counts.
#[derive(Clone, Debug, Default)]
struct Seen(Vec<Position>);

impl Seen {
    fn of(pos: &Position) -> Position {
        let mut p = *pos;
        p.set_ply(0);
        p
    }

    /// Whether reaching `next` makes it occur for the `draw_at`-th time (0: never).
    fn draws(&self, next: &Position, draw_at: u32) -> bool {
        let key = Seen::of(next);
        draw_at > 0 && self.0.iter().filter(|&&p| p == key).count() as u32 + 1 >= draw_at
    }
}

/// The protocol state of the variant.
pub(super) struct Dobutsu {
    pub position: Position,
    /// The game's positions up to `position`, for the repetition rule.
    seen: Seen,
    table: Option<Arc<Table>>,
    /// The path the loaded table came from (or that failed last), so it is read once.
    table_path: Option<String>,
    job: Option<Job>,
}

/// A running `go` or `go mate`.
struct Job {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

impl Dobutsu {
    pub fn new() -> Dobutsu {
        let position = Position::startpos();
        Dobutsu { position, seen: Seen(vec![Seen::of(&position)]), table: None, table_path: None, job: None }
    }

    /// Loads the table at `path` unless it is loaded already; an empty path means none. Returns
    /// a line to print: an error for a table that cannot be read (the previous one is kept).
    pub fn use_table(&mut self, path: &str, default_path: Option<&str>) -> Option<String> {
        if self.table_path.as_deref() == Some(path) {
            return None;
        }
        self.table_path = Some(path.to_string());
        if path.is_empty() {
            self.table = None;
            return None;
        }
        match Table::load(std::path::Path::new(path)) {
            Ok(t) => {
                self.table = Some(Arc::new(t));
                let warning = if crate::dobutsu::table::is_unchecked_file(std::path::Path::new(path)) {
                    "; warning: a table of format 1 has no checksum, so damage to it cannot be detected \
                     (`shomei dobutsu solve` writes format 2)"
                } else {
                    ""
                };
                Some(format!("info string Dobutsu table {path} loaded: perfect play{warning}"))
            }
            // No table at the default place is the normal case before `shomei dobutsu solve`.
            Err(_) if Some(path) == default_path => {
                Some(format!(
                    "info string no Dobutsu table at {path}: playing by search, and by the embedded book as the second player"
                ))
            }
            Err(e) => Some(format!(
                "info string error: cannot read Dobutsu table {path}: {e}; keeping the previous one"
            )),
        }
    }

    /// `position startpos|sfen <sfen> [moves ...]` on the 3×4 board.
    pub fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args.iter().position(|&w| w == "moves").unwrap_or(args.len());
        let (setup, moves) = args.split_at(moves_at);
        let mut pos = match setup {
            ["startpos"] => Position::startpos(),
            ["sfen", fields @ ..] => Position::from_sfen(&fields.join(" ")).map_err(|e| e.to_string())?,
            _ => return Err("expected 'startpos' or 'sfen <sfen>'".into()),
        };
        let mut seen = Seen(vec![Seen::of(&pos)]);
        for (i, text) in moves.iter().skip(1).enumerate() {
            let m = parse_move(&pos, text).map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
            pos = pos.play(m);
            seen.0.push(Seen::of(&pos));
        }
        self.position = pos;
        self.seen = seen;
        Ok(())
    }

    /// Back to the start position (a new game, or the variant chosen again).
    pub fn reset(&mut self) {
        self.finish();
        self.position = Position::startpos();
        self.seen = Seen(vec![Seen::of(&self.position)]);
    }

    /// `go perft N` on the current position, as a job for the loop's background thread.
    pub fn perft_job(&self, depth: u32) -> impl FnOnce() -> String + Send + 'static {
        let pos = self.position;
        move || perft_listing(&pos, depth)
    }

    /// `d`: the board as the first player sees it, hands, side to move and SFEN.
    pub fn diagram(&self) -> String {
        let p = &self.position;
        let mut s = String::from("  3  2  1\n");
        for rank in 0..4 {
            for file in 0..3 {
                let cell = match p.piece_at(rank * 3 + file) {
                    None => " . ".to_string(),
                    Some((c, k)) => {
                        let letter = if k == Kind::Hen { "+C".to_string() } else { k.letter().to_string() };
                        let text =
                            if c == crate::types::Color::Black { letter } else { letter.to_lowercase() };
                        format!("{text:>3}")
                    }
                };
                s.push_str(&cell);
            }
            s.push_str(&format!("  {}\n", (b'a' + rank as u8) as char));
        }
        s.push_str(&format!("Sfen: {}\nStatus: {:?}", p.to_sfen(), p.status()));
        s
    }

    /// Starts thinking on `go`; the `bestmove` and `info` lines go to `out`. A move that makes
    /// a position occur for the `draw_at`-th time (the repetition rule; 0: none) is a draw.
    pub fn go(
        &mut self,
        limits: Limits,
        time_options: TimeOptions,
        draw_at: u32,
        received: Instant,
        out: Sender<JobOutput>,
    ) {
        self.finish();
        let pos = self.position;
        let seen = self.seen.clone();
        let draws = move |m: crate::dobutsu::Move| seen.draws(&pos.play(m), draw_at);
        let table = self.table.clone();
        // No lateness is learnt on this board (its answers are cheap): the cold-start margin.
        let margin = time::COLD_START_MARGIN_MS;
        let budget = time::budget(&limits.time, pos.side_to_move(), &time_options, pos.ply(), margin);
        self.spawn(move |stop| think(pos, table.as_deref(), &draws, &limits, budget, received, stop, &out));
    }

    /// `go mate`: the winning line for the side to move, from the table or a search.
    pub fn mate(&mut self, time_ms: Option<u64>, out: Sender<JobOutput>) {
        self.finish();
        let pos = self.position;
        let table = self.table.clone();
        let deadline = time_ms.map(|t| Instant::now() + Duration::from_millis(t));
        self.spawn(move |stop| {
            let answer = mate_line(&pos, table.as_deref(), deadline, stop);
            let _ = out.send(JobOutput::Line(answer));
        });
    }

    fn spawn(&mut self, work: impl FnOnce(&AtomicBool) + Send + 'static) {
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        let handle = std::thread::Builder::new()
            .name("dobutsu".into())
            .spawn(move || work(&thread_stop))
            .expect("the dobutsu thread starts");
        self.job = Some(Job { stop, handle });
    }

    /// Whether a `go` or `go mate` is still running.
    pub fn is_running(&self) -> bool {
        self.job.as_ref().is_some_and(|j| !j.handle.is_finished())
    }

    /// Asks the running job to answer now (`stop`, `ponderhit`, `gameover`).
    pub fn stop(&self) {
        if let Some(j) = &self.job {
            j.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Stops the running job and waits until it has answered.
    pub fn finish(&mut self) {
        if let Some(j) = self.job.take() {
            j.stop.store(true, Ordering::Relaxed);
            let _ = j.handle.join();
        }
    }
}

/// One line `<move>: <count>` per legal move, a blank line and the total, as for shogi. Every
/// legal move counts (moving into capture included) and the tree ends only where a Lion was
/// taken, as in Tanaka's analysis.
fn perft_listing(pos: &Position, depth: u32) -> String {
    let (lines, total) = perft::divide(pos, depth);
    let mut text: String = lines.iter().map(|(m, n)| format!("{m}: {n}\n")).collect();
    text.push_str(&format!("\nNodes searched: {total}"));
    text
}

/// The USI score of a table value for the side to move.
fn value_score(v: Value) -> String {
    match v {
        Value::Win(d) => format!("mate {d}"),
        Value::Loss(d) => format!("mate -{d}"),
        Value::Draw => "cp 0".to_string(),
    }
}

/// The USI score of a search score (see `dobutsu::play`).
fn search_score(s: i32) -> String {
    if s >= MATE_BOUND {
        format!("mate {}", MATE - s)
    } else if s <= -MATE_BOUND {
        format!("mate -{}", MATE + s)
    } else {
        format!("cp {s}")
    }
}

/// Under `go infinite` or `go ponder`, the answer waits for `stop` (or `ponderhit`).
fn wait_for_release(limits: &Limits, stop: &AtomicBool) {
    while (limits.infinite || limits.ponder) && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[allow(clippy::too_many_arguments)]
fn think(
    pos: Position,
    table: Option<&Table>,
    draws: &dyn Fn(crate::dobutsu::Move) -> bool,
    limits: &Limits,
    budget: Option<time::TimeBudget>,
    received: Instant,
    stop: &AtomicBool,
    out: &Sender<JobOutput>,
) {
    let say = |line: String| {
        let _ = out.send(JobOutput::Line(line));
    };
    let legal = legal_moves(&pos);
    if pos.status() == Status::Lost || legal.as_slice().is_empty() {
        wait_for_release(limits, stop);
        say("bestmove resign".into());
        return;
    }
    let ms = || received.elapsed().as_millis() as u64;
    let restricted = |m| {
        limits.searchmoves.is_empty() || limits.searchmoves.iter().any(|s| s.to_string() == move_to_usi(m))
    };
    // Exact: the full table, else the embedded second-player book where it covers the position.
    // Neither ever repeats a position while winning (the distance to the win falls with every
    // move); a lost position is saved by a move that draws by repetition.
    let exact = table.and_then(|t| t.best_move(&pos)).or_else(|| book_move(&pos)).map(|(m, v)| {
        match legal.iter().copied().find(|&d| draws(d)) {
            Some(d) if matches!(v, Value::Loss(_)) => (d, Value::Draw),
            _ => (m, v),
        }
    });
    if let Some((m, v)) = exact.filter(|&(m, _)| restricted(m)) {
        let depth = match v {
            Value::Win(d) | Value::Loss(d) => d,
            Value::Draw => 1,
        };
        say(format!(
            "info depth {depth} nodes 1 time {} score {} pv {}",
            ms(),
            value_score(v),
            move_to_usi(m)
        ));
        wait_for_release(limits, stop);
        say(format!("bestmove {}", move_to_usi(m)));
        return;
    }
    // Without the table: iterative deepening until the clock, the limits or `stop`.
    let deadline = budget.filter(|_| !limits.ponder && !limits.infinite).map(|b| received + b.maximum);
    let optimum = budget.map(|b| b.optimum.as_millis() as u64);
    let mut abort = Abort::new(stop, deadline, limits.nodes);
    let mut report = |it: Iteration<crate::dobutsu::Move>| {
        let t = ms();
        say(format!(
            "info depth {} nodes {} nps {} time {t} score {} pv {}",
            it.depth,
            it.nodes,
            it.nodes * 1000 / t.max(1),
            search_score(it.score),
            move_to_usi(it.best)
        ));
        // The next iteration takes several times longer: start it only early enough.
        limits.infinite || limits.ponder || optimum.is_none_or(|o| t * 2 < o)
    };
    let depth = limits.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH as i32) as u32);
    let repetition_score = |m| draws(m).then_some(0);
    let root = if limits.searchmoves.is_empty() {
        search_root(&pos, depth, &mut abort, &repetition_score, &mut report)
    } else {
        // searchmoves: the best of the listed moves by the same search one ply down.
        let listed: Vec<_> = legal.as_slice().iter().copied().filter(|&m| restricted(m)).collect();
        let mut best = None;
        for m in listed {
            let child = pos.play(m);
            let s = if draws(m) {
                0
            } else {
                search_within(&child, depth.saturating_sub(1).max(1), &mut abort, &mut |_| true)
                    .map_or(MATE, |(_, s)| -s)
            };
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((m, s));
            }
        }
        best
    };
    wait_for_release(limits, stop);
    let m = root.map(|(m, _)| m).unwrap_or(legal.as_slice()[0]);
    say(format!("bestmove {}", move_to_usi(m)));
}

/// The embedded second-player book's move and the value it keeps, if the book covers `pos`.
fn book_move(pos: &Position) -> Option<(crate::dobutsu::Move, Value)> {
    crate::dobutsu::book::embedded().ok()?.best_move(pos)
}

/// The `checkmate` answer: the side to move's winning line (a Lion capture or a safe Try ends
/// it), `nomate` when it has no forced win, `timeout` when neither was shown in time.
fn mate_line(pos: &Position, table: Option<&Table>, deadline: Option<Instant>, stop: &AtomicBool) -> String {
    let mut line = Vec::new();
    let mut p = *pos;
    if let Some(t) = table {
        match t.probe(pos) {
            Some(Value::Win(_)) => {
                while p.status() == Status::Ongoing {
                    match t.best_move(&p) {
                        Some((m, _)) => {
                            line.push(move_to_usi(m));
                            p = p.play(m);
                        }
                        None => break,
                    }
                }
                if p.status() == Status::CanCatch {
                    // The last move takes the Lion.
                    if let Some((m, _)) = crate::dobutsu::play::search(&p, 1) {
                        line.push(move_to_usi(m));
                    }
                }
                return format!("checkmate {}", line.join(" "));
            }
            Some(_) => return "checkmate nomate".to_string(),
            None => {}
        }
    }
    // No table: deepen until a forced win shows, then follow the search's moves.
    let mut abort = Abort::new(stop, deadline, None);
    let found = search_within(pos, MAX_DEPTH, &mut abort, &mut |it| it.score < MATE_BOUND);
    match found {
        Some((_, s)) if s >= MATE_BOUND && !abort.aborted() => {
            let mut plies = (MATE - s) as u32;
            while plies > 0 && p.status() != Status::Lost {
                let Some((m, _)) = crate::dobutsu::play::search(&p, plies) else { break };
                line.push(move_to_usi(m));
                p = p.play(m);
                plies -= 1;
            }
            format!("checkmate {}", line.join(" "))
        }
        _ => "checkmate timeout".to_string(),
    }
}
