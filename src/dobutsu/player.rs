//! The Dobutsu player behind `setoption name UCI_Variant value dobutsu`: the game so far (for the
//! repetition rule), the solved table in use, and the thinking for `go` and `go mate`.
//!
//! Moves come from the solved table when one is loaded (exact: fastest win, slowest loss, a draw
//! kept), else from the second player's book embedded in the binary where it covers the position
//! (exact too: the fastest win), else from an alpha-beta search on the same rules. The thinking
//! runs as a [`Job`] and reports [`DobutsuEvent`]s; the protocol formats them. [`choose_move`]
//! makes the same choice at a fixed depth, for tools and tests.

use super::play::{search, MATE, MATE_BOUND};
use super::{legal_moves, move_to_usi, parse_move, perft, Move, Position, Status, Table, Value};
use crate::job::{hold_until, EventSink, Job};
use crate::reference::search::{search_root, search_within, Abort, Iteration};
use crate::search::{time, Limits, TimeOptions};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The deepest search `go` runs without a depth limit (the board is small: far beyond any
/// time control, so in practice `stop` or the clock ends it).
const MAX_DEPTH: u32 = 64;

/// Why a move was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// From the solved table: the exact value kept by the move, for the side to move.
    Exact(Value),
    /// From the search, at `depth` plies: a score on `play`'s scale.
    Search {
        /// The score for the side to move.
        score: i32,
        /// The depth searched, in plies.
        depth: u32,
    },
}

/// The move to play: exact from `table` when it covers the position and all its successors,
/// else exact from the embedded second-player book where it covers the position, otherwise
/// from a search to `depth` plies. `None` when there is no legal move.
pub fn choose_move(pos: &Position, table: Option<&Table>, depth: u32) -> Option<(Move, Outcome)> {
    if let Some((m, v)) = exact_move(pos, table) {
        return Some((m, Outcome::Exact(v)));
    }
    search(pos, depth).map(|(m, score)| (m, Outcome::Search { score, depth }))
}

/// The exact move where one is known: from `table` when it covers the position and all its
/// successors, else from the embedded second-player book where it covers the position.
fn exact_move(pos: &Position, table: Option<&Table>) -> Option<(Move, Value)> {
    let book = || super::book::embedded().ok().and_then(|b| b.best_move(pos));
    table.and_then(|t| t.best_move(pos)).or_else(book)
}

/// What the Dobutsu thinking reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DobutsuEvent {
    /// The exact move of the table or the book, with the value it keeps.
    Exact {
        /// The distance to the end in plies (1 for a draw), shown as the depth.
        depth: u32,
        /// Milliseconds since the `go` was read.
        time_ms: u64,
        /// The value for the side to move.
        value: Value,
        /// The move.
        mv: Move,
    },
    /// An iteration of the search finished.
    Iteration {
        /// Its depth in plies.
        depth: u32,
        /// Nodes searched so far.
        nodes: u64,
        /// Milliseconds since the `go` was read.
        time_ms: u64,
        /// The score for the side to move (`play`'s scale: `MATE - d` wins in `d` plies).
        score: i32,
        /// The best move found.
        mv: Move,
    },
    /// The answer to `go`: a move, or `None` to resign.
    BestMove(Option<Move>),
    /// The answer to `go mate`.
    Checkmate(Checkmate),
}

/// The answer to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checkmate {
    /// The side to move's winning line (a Lion capture or a safe Try ends it).
    Line(Vec<Move>),
    /// No forced win.
    NoMate,
    /// Neither was shown in time.
    Timeout,
}

/// What happened when a table was asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableNews {
    /// The table at this path is in use now; `unchecked`: it is of format 1, without a checksum.
    Loaded {
        /// Where it was read from.
        path: String,
        /// Whether damage to it would go unnoticed (format 1).
        unchecked: bool,
    },
    /// No table at the default place: the normal case before `shomei dobutsu solve`.
    NoneAtDefault {
        /// The default path.
        path: String,
    },
    /// The table could not be read; the previous one is kept.
    Failed {
        /// The path asked for.
        path: String,
        /// Why not.
        error: String,
    },
}

/// The positions of the game so far, the current one last, with ply numbers zeroed: what the
/// repetition rule counts.
#[derive(Clone, Debug, Default)]
struct Seen(Vec<Position>);

impl Seen {
    /// `pos` with its ply number zeroed, as `Seen` keeps positions and compares them.
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

/// The Dobutsu board between commands: the position, the game that led to it, and the table.
pub struct Player {
    /// The position `position` set last, moves played.
    position: Position,
    /// The game's positions up to `position`, for the repetition rule.
    seen: Seen,
    /// The solved table in use (`DobutsuTable`), shared with the running `go`; `None`: play by search.
    table: Option<Arc<Table>>,
    /// The path the loaded table came from (or that failed last), so it is read once.
    table_path: Option<String>,
}

impl Default for Player {
    fn default() -> Self {
        Player::new()
    }
}

impl Player {
    /// The start position, no table.
    pub fn new() -> Player {
        let position = Position::startpos();
        Player { position, seen: Seen(vec![Seen::of(&position)]), table: None, table_path: None }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Loads the table at `path` unless it is loaded already; an empty path means none. Returns
    /// what changed, if anything; a table that cannot be read leaves the previous one in use.
    pub fn use_table(&mut self, path: &str, default_path: Option<&str>) -> Option<TableNews> {
        if self.table_path.as_deref() == Some(path) {
            return None;
        }
        self.table_path = Some(path.to_string());
        if path.is_empty() {
            self.table = None;
            return None;
        }
        let path_string = path.to_string();
        match Table::load(Path::new(path)) {
            Ok(t) => {
                self.table = Some(Arc::new(t));
                let unchecked = super::table::is_unchecked_file(Path::new(path));
                Some(TableNews::Loaded { path: path_string, unchecked })
            }
            Err(_) if Some(path) == default_path => Some(TableNews::NoneAtDefault { path: path_string }),
            Err(e) => Some(TableNews::Failed { path: path_string, error: e.to_string() }),
        }
    }

    /// `position startpos|sfen <sfen> [moves ...]` on the 3×4 board; on error nothing changes.
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
        self.position = Position::startpos();
        self.seen = Seen(vec![Seen::of(&self.position)]);
    }

    /// `go perft N` on the current position: one line `<move>: <count>` per legal move, a blank
    /// line and the total, as for shogi. Every legal move counts (moving into capture included)
    /// and the tree ends only where a Lion was taken, as in Tanaka's analysis.
    pub fn perft_job(&self, depth: u32) -> impl FnOnce() -> String + Send + 'static {
        let pos = self.position;
        move || {
            let (lines, total) = perft::divide(&pos, depth);
            let mut text: String = lines.iter().map(|(m, n)| format!("{m}: {n}\n")).collect();
            text.push_str(&format!("\nNodes searched: {total}"));
            text
        }
    }

    /// Starts thinking on `go`; the events, ending with one `BestMove`, go to `events`. A move
    /// that makes a position occur for the `draw_at`-th time (the repetition rule; 0: none) is a
    /// draw.
    pub fn go(
        &self,
        limits: Limits,
        time_options: TimeOptions,
        draw_at: u32,
        received: Instant,
        events: EventSink<DobutsuEvent>,
    ) -> Job<()> {
        let pos = self.position;
        let seen = self.seen.clone();
        let draws = move |m: Move| seen.draws(&pos.play(m), draw_at);
        let table = self.table.clone();
        // No lateness is learnt on this board (its answers are cheap): the cold-start margin.
        let margin = time::COLD_START_MARGIN_MS;
        let budget = time::budget(&limits.time, pos.side_to_move(), &time_options, pos.ply(), margin);
        Job::spawn("dobutsu", None, move |stop| {
            let thinking = Thinking { pos, table: table.as_deref(), limits: &limits, received, stop };
            thinking.run(&draws, budget, &events)
        })
    }

    /// `go mate`: the winning line for the side to move, from the table or a search.
    pub fn mate(&self, time_ms: Option<u64>, events: EventSink<DobutsuEvent>) -> Job<()> {
        let pos = self.position;
        let table = self.table.clone();
        let deadline = time_ms.map(|t| Instant::now() + Duration::from_millis(t));
        Job::spawn("dobutsu", None, move |stop| {
            events.send(DobutsuEvent::Checkmate(mate_line(&pos, table.as_deref(), deadline, stop)))
        })
    }
}

/// One `go` being answered.
struct Thinking<'a> {
    /// The position of the `go`.
    pos: Position,
    /// The solved table, if one is loaded.
    table: Option<&'a Table>,
    /// The `go`'s limits: depth, nodes, time, `searchmoves`, `infinite` and `ponder`.
    limits: &'a Limits,
    /// When the `go` was read: times count from here.
    received: Instant,
    /// Set by `stop` (or `ponderhit`, `gameover`): answer now.
    stop: &'a AtomicBool,
}

impl Thinking<'_> {
    /// Under `go infinite` or `go ponder`, the answer waits for `stop` (or `ponderhit`).
    fn hold_answer(&self) {
        hold_until(|| !(self.limits.infinite || self.limits.ponder) || self.stop.load(Ordering::Relaxed));
    }

    /// Milliseconds since the `go` was read.
    fn elapsed_ms(&self) -> u64 {
        self.received.elapsed().as_millis() as u64
    }

    /// Whether `searchmoves` allows `m`.
    fn allowed(&self, m: Move) -> bool {
        self.limits.searchmoves.is_empty()
            || self.limits.searchmoves.iter().any(|s| s.to_string() == move_to_usi(m))
    }

    /// Answers the `go`: from the table or the embedded book when they know the position, else by
    /// search; sends the `info` events and then exactly one `BestMove`.
    fn run(
        &self,
        draws: &dyn Fn(Move) -> bool,
        budget: Option<time::TimeBudget>,
        events: &EventSink<DobutsuEvent>,
    ) {
        let legal = legal_moves(&self.pos);
        if self.pos.status() == Status::Lost || legal.as_slice().is_empty() {
            self.hold_answer();
            events.send(DobutsuEvent::BestMove(None));
            return;
        }
        // Exact: the full table, else the embedded second-player book where it covers the
        // position. Neither ever repeats a position while winning (the distance to the win falls
        // with every move); a lost position is saved by a move that draws by repetition.
        let exact =
            exact_move(&self.pos, self.table).map(|(m, v)| match legal.iter().copied().find(|&d| draws(d)) {
                Some(d) if matches!(v, Value::Loss(_)) => (d, Value::Draw),
                _ => (m, v),
            });
        if let Some((mv, value)) = exact.filter(|&(m, _)| self.allowed(m)) {
            let depth = match value {
                Value::Win(d) | Value::Loss(d) => d,
                Value::Draw => 1,
            };
            events.send(DobutsuEvent::Exact { depth, time_ms: self.elapsed_ms(), value, mv });
            self.hold_answer();
            events.send(DobutsuEvent::BestMove(Some(mv)));
            return;
        }
        let best = self.search(&legal, draws, budget, events);
        self.hold_answer();
        events.send(DobutsuEvent::BestMove(Some(best.unwrap_or(legal.as_slice()[0]))));
    }

    /// Without the table: iterative deepening until the clock, the limits or `stop`.
    fn search(
        &self,
        legal: &super::MoveList,
        draws: &dyn Fn(Move) -> bool,
        budget: Option<time::TimeBudget>,
        events: &EventSink<DobutsuEvent>,
    ) -> Option<Move> {
        let limits = self.limits;
        let deadline =
            budget.filter(|_| !limits.ponder && !limits.infinite).map(|b| self.received + b.maximum);
        let optimum = budget.map(|b| b.optimum.as_millis() as u64);
        let mut abort = Abort::new(self.stop, deadline, limits.nodes);
        let mut report = |it: Iteration<Move>| {
            let time_ms = self.elapsed_ms();
            let (depth, nodes, score, mv) = (it.depth, it.nodes, it.score, it.best);
            events.send(DobutsuEvent::Iteration { depth, nodes, time_ms, score, mv });
            // The next iteration takes several times longer: start it only early enough.
            limits.infinite || limits.ponder || optimum.is_none_or(|o| time_ms * 2 < o)
        };
        let depth = limits.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH as i32) as u32);
        let repetition_score = |m| draws(m).then_some(0);
        let root = if limits.searchmoves.is_empty() {
            search_root(&self.pos, depth, &mut abort, &repetition_score, &mut report)
        } else {
            // searchmoves: the best of the listed moves by the same search one ply down.
            let listed: Vec<_> = legal.as_slice().iter().copied().filter(|&m| self.allowed(m)).collect();
            let mut best = None;
            for m in listed {
                let child = self.pos.play(m);
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
        root.map(|(m, _)| m)
    }
}

/// The side to move's winning line (a Lion capture or a safe Try ends it), `NoMate` when it has
/// no forced win, `Timeout` when neither was shown in time.
fn mate_line(
    pos: &Position,
    table: Option<&Table>,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> Checkmate {
    let mut line = Vec::new();
    let mut p = *pos;
    if let Some(t) = table {
        match t.probe(pos) {
            Some(Value::Win(_)) => {
                while p.status() == Status::Ongoing {
                    match t.best_move(&p) {
                        Some((m, _)) => {
                            line.push(m);
                            p = p.play(m);
                        }
                        None => break,
                    }
                }
                if p.status() == Status::CanCatch {
                    // The last move takes the Lion.
                    if let Some((m, _)) = search(&p, 1) {
                        line.push(m);
                    }
                }
                return Checkmate::Line(line);
            }
            Some(_) => return Checkmate::NoMate,
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
                let Some((m, _)) = search(&p, plies) else { break };
                line.push(m);
                p = p.play(m);
                plies -= 1;
            }
            Checkmate::Line(line)
        }
        _ => Checkmate::Timeout,
    }
}
