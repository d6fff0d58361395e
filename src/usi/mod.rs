//! The USI protocol loop: reads commands, starts and stops what thinks, and writes replies.
//!
//! stdin is read on its own thread and everything that thinks runs as a job on others (the
//! search, `go mate`, the Dobutsu player, `go perft` and `bench`); this loop waits on the input
//! and on one channel of their events, and never blocks on them. Nothing read from stdin may
//! panic the engine: every malformed line gets an `info string` reply and the previous state is
//! kept.

mod book;
mod command;
mod dobutsu;
mod info;
mod options;

use command::{parse_command, Command, GoCommand};
use options::{Options, Variant};

use crate::bench;
use crate::dobutsu::player::{DobutsuEvent, Player};
use crate::job::{EventSink, Job};
use crate::mate::{MateEvent, MateJob, MateLimits, MateResult, MateSolver, MateTable};
use crate::search::{BestMove, Limits, SearchEvent, Searcher};
use crate::shogi::perft::divide_listing;
use crate::shogi::Position;
use crate::types::Move;
use crossbeam_channel::{Receiver, Sender};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// Engine identity, as printed for `usi`.
const ENGINE_NAME: &str = concat!("shomei ", env!("CARGO_PKG_VERSION"));
/// The `id author` line printed for `usi`.
const ENGINE_AUTHOR: &str = "the shomei developers";

/// What the jobs tell the protocol loop, all on one channel.
enum Event {
    /// From the shogi search.
    Search(SearchEvent),
    /// From `go mate` on the shogi board.
    Mate(MateEvent),
    /// From the Dobutsu player.
    Dobutsu(DobutsuEvent),
    /// The result of a `go perft` or `bench`; its job ends right after sending it.
    Report(String),
}

/// What owes the GUI an answer. A game search and a `go mate` share the memory budget and
/// answer differently, so at most one thing thinks: each `go` form first finishes the last.
enum State {
    /// Nothing owes an answer.
    Idle,
    /// A `go` on the shogi board owes its `bestmove`.
    Searching {
        /// The position searched: the answer is checked against it. Boxed, as it is large.
        position: Box<Position>,
        /// When the `go` was read: the answer's lateness counts from here.
        go_received: Instant,
    },
    /// A `go mate` may still owe its `checkmate` (it may just have answered; see `finish_mate`).
    Mate(MateJob),
    /// A `go ponder` answered from the book owes its `bestmove` at `ponderhit` or `stop`.
    BookPonder {
        /// The position of the `go`. Boxed, as it is large.
        position: Box<Position>,
        /// The book's move and reply.
        best: Move,
        /// The reply the book expects, sent as the `ponder` move.
        ponder: Option<Move>,
        /// When the `go` was read.
        go_received: Instant,
    },
    /// A `go` or `go mate` on the Dobutsu board (it may just have answered).
    Dobutsu(Job<()>),
}

/// The protocol state.
struct Engine<W: Write> {
    /// Where replies go: stdout, or a buffer in tests.
    out: W,
    /// The shogi board's position, as the last `position` set it.
    position: Position,
    /// The current option values.
    options: Options,
    /// The shogi search, with its table and histories kept between `go`s.
    searcher: Searcher,
    /// Cloned into each job's `EventSink` (`sink`): every job's events come down one channel.
    events_tx: Sender<Event>,
    /// Where the loop reads the jobs' events (`events`).
    events_rx: Receiver<Event>,
    /// What owes the GUI an answer now.
    state: State,
    /// The running `go perft` or `bench` (one at a time), kept until its `Report` is printed.
    /// It is not part of `state`: it works on its own copy of the position with its own tables
    /// (bench) or none (perft), so a script may start one beside a search, and a Dobutsu
    /// `go perft` runs here too.
    side_job: Option<Job<()>>,
    /// The Dobutsu board, used while `UCI_Variant` is `dobutsu`.
    dobutsu: Player,
    /// The opening book `BookFile` names, once opened.
    book: book::BookState,
    /// Whether the running search's lines carry `multipv`: more than one line is searched
    /// (`MultiPV`, or the lines a strength level chooses among).
    show_multipv: bool,
    /// The `go mate` solver of the last solve, kept with its table for the next one while
    /// `USI_Hash` stays the same. Its table and the search's are never held together: each is
    /// freed before the other is allocated, so the memory stays within `USI_Hash`.
    mate_solver: Option<MateSolver>,
}

impl<W: Write> Engine<W> {
    /// A fresh engine writing to `out`: default options, the start position, nothing running.
    pub fn new(out: W) -> Engine<W> {
        let options = Options::default();
        let (events_tx, events_rx) = crossbeam_channel::unbounded();
        Engine {
            out,
            position: Position::startpos(),
            searcher: Searcher::new(options.hash_mb),
            options,
            events_tx,
            events_rx,
            state: State::Idle,
            side_job: None,
            dobutsu: Player::new(),
            book: book::BookState::new(),
            mate_solver: None,
            show_multipv: false,
        }
    }

    /// Where the jobs' events arrive; the loop hands each to `handle_event`.
    pub fn events(&self) -> Receiver<Event> {
        self.events_rx.clone()
    }

    /// A sink for one job's events, converted into the loop's.
    fn sink<E: 'static>(&self, wrap: fn(E) -> Event) -> EventSink<E> {
        let tx = self.events_tx.clone();
        EventSink::new(move |e| {
            let _ = tx.send(wrap(e));
        })
    }

    /// Prints whatever the jobs have sent so far.
    fn drain_events(&mut self) {
        while let Ok(event) = self.events_rx.try_recv() {
            self.handle_event(event);
        }
    }

    /// Runs `work` as the side job; its result is printed when done. One at a time.
    fn start_side_job(&mut self, name: &str, work: impl FnOnce() -> String + Send + 'static) {
        if self.side_job.as_ref().is_some_and(Job::is_running) {
            self.error(&format!("{name} ignored: a perft or bench is still running"));
            return;
        }
        // A job that has finished but whose result the loop has not printed yet: print it now,
        // so that its `Report` cannot later be taken for the new job's.
        self.finish_side_job();
        let report = self.sink(Event::Report);
        self.side_job = Some(Job::spawn(name, None, move |_| report.send(work())));
    }

    /// Gives the search its table at the option's size (freeing a kept mate table first); on
    /// failure keeps what it has and says so.
    fn apply_hash_size(&mut self) {
        self.mate_solver = None;
        if let Err(e) = self.searcher.resize(self.options.hash_mb) {
            self.options.hash_mb = self.searcher.hash_mb();
            self.error(&e);
        }
    }

    /// Writes `line` to the GUI and flushes it.
    fn say(&mut self, line: &str) {
        // A closed stdout means the GUI is gone; there is nobody left to tell.
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    /// Reports a problem. Only printable ASCII goes out: GUIs read other bytes in their own
    /// code page, and control characters could break their line parsing.
    fn error(&mut self, what: &str) {
        self.say(&format!("info string error: {}", options::printable(what)));
    }

    /// Whether the Dobutsu board is the one in play.
    fn on_dobutsu(&self) -> bool {
        self.options.variant == Variant::Dobutsu
    }

    /// Handles one line, read at `received`. Returns false when the engine should exit.
    pub fn handle_line(&mut self, line: &str, received: Instant) -> bool {
        let command = match parse_command(line) {
            Ok(c) => c,
            Err(e) => {
                self.error(&e.to_string());
                return true;
            }
        };
        match command {
            Command::Empty => {}
            Command::Usi => {
                self.say(&format!("id name {ENGINE_NAME}"));
                self.say(&format!("id author {ENGINE_AUTHOR}"));
                for line in self.options.declarations() {
                    self.say(&line);
                }
                self.say("usiok");
            }
            Command::IsReady => self.is_ready(),
            Command::UsiNewGame if self.on_dobutsu() => self.finish_thinking(),
            Command::UsiNewGame => {
                self.finish_thinking();
                if !self.mate_table_kept() {
                    self.apply_hash_size();
                }
                self.searcher.clear();
            }
            Command::SetOption { name, value } => {
                let variant = self.options.variant;
                match self.options.set(&name, &value) {
                    Err(e) => self.error(&e),
                    Ok(Some(report)) => self.say(&format!("info string {}", options::printable(&report))),
                    Ok(None) => {}
                }
                if self.options.variant != variant {
                    // Another game: its own start position, nothing of the other one running.
                    self.finish_thinking();
                    self.position = Position::startpos();
                    self.dobutsu.reset();
                }
            }
            Command::Position(args) => {
                let words: Vec<&str> = args.iter().map(String::as_str).collect();
                let result = if self.on_dobutsu() {
                    self.dobutsu.set_position(&words)
                } else {
                    Position::from_usi_args(&words).map(|p| self.position = p).map_err(|e| e.to_string())
                };
                if let Err(e) = result {
                    self.error(&format!("{e}; position unchanged"));
                }
            }
            Command::Go(GoCommand::Perft(depth)) if self.on_dobutsu() => {
                let job = self.dobutsu.perft_job(depth);
                self.start_side_job("go perft", job);
            }
            Command::Go(GoCommand::Perft(depth)) => {
                let mut pos = self.position.clone();
                self.start_side_job("go perft", move || perft_report(&mut pos, depth));
            }
            Command::Go(GoCommand::Mate(time_ms)) if self.on_dobutsu() => {
                self.sync_dobutsu_table();
                self.finish_thinking();
                self.state = State::Dobutsu(self.dobutsu.mate(time_ms, self.sink(Event::Dobutsu)));
            }
            Command::Go(GoCommand::Mate(time_ms)) => self.go_mate(time_ms),
            Command::Go(GoCommand::Search(limits)) if self.on_dobutsu() => {
                self.sync_dobutsu_table();
                self.finish_thinking();
                let time = self.options.time_options();
                let draw_at = self.options.dobutsu_repetition;
                let job = self.dobutsu.go(limits, time, draw_at, received, self.sink(Event::Dobutsu));
                self.state = State::Dobutsu(job);
            }
            Command::Go(GoCommand::Search(limits)) => self.go(limits, received),
            Command::Stop => match &self.state {
                State::Searching { .. } => self.searcher.stop(),
                State::Mate(m) if m.is_running() => m.stop(),
                State::Dobutsu(job) if job.is_running() => job.stop(),
                State::BookPonder { .. } => self.answer_book_ponder(),
                _ => self.error("stop ignored: no search is running"),
            },
            Command::PonderHit(time) => match &self.state {
                State::Searching { .. } if self.searcher.is_pondering() => self.searcher.ponderhit(time),
                // The Dobutsu player answers at once, as for `stop`.
                State::Dobutsu(job) if job.is_running() => job.stop(),
                State::BookPonder { .. } => self.answer_book_ponder(),
                _ => self.error("ponderhit ignored: not pondering"),
            },
            // The game is over: whatever thinks (even a ponder) stops and answers as for `stop`.
            Command::GameOver => match &self.state {
                State::Searching { .. } => self.searcher.stop(),
                State::Mate(m) => m.stop(),
                State::Dobutsu(job) => job.stop(),
                State::BookPonder { .. } => self.answer_book_ponder(),
                State::Idle => {}
            },
            Command::GetOption(name) => self.get_option(name.as_deref()),
            Command::Display => {
                let d = if self.on_dobutsu() {
                    dobutsu::diagram(self.dobutsu.position())
                } else {
                    self.position.diagram()
                };
                self.say(&d);
            }
            Command::Eval if self.on_dobutsu() => {
                self.error("eval: Dobutsu has no static evaluation (the solved table or a search decides)")
            }
            Command::Eval => {
                // The evaluator the options name, from scratch: for a HalfKP net the number
                // YaneuraOu's `e` prints for the same file and FV_SCALE.
                let value = match self.options.evaluation() {
                    Some(net) => net.evaluate(&self.position),
                    None => crate::eval::evaluate(&self.position),
                };
                self.say(&format!("eval = {value}"));
            }
            Command::Bench => {
                self.finish_thinking();
                // The evaluator the options name (EvalFile, UseNNUE); the depth, the table and the
                // single thread are bench's own, so the node count stays the search's signature.
                let network = self.options.evaluation();
                let config = bench::BenchConfig { network, ..bench::BenchConfig::default() };
                self.start_side_job("bench", move || bench::run(&config).trim_end().to_string());
            }
            Command::Quit => {
                self.shutdown();
                return false;
            }
        }
        true
    }

    /// `isready`: tables are (re)sized only while nothing uses the memory budget.
    fn is_ready(&mut self) {
        if self.on_dobutsu() {
            self.sync_dobutsu_table();
            self.say("readyok");
            return;
        }
        let busy = match &self.state {
            State::Idle | State::BookPonder { .. } => false,
            State::Searching { .. } => true,
            State::Mate(m) => m.is_running(),
            State::Dobutsu(job) => job.is_running(),
        };
        if !busy {
            self.finish_mate();
            // A mate table kept at the current size stays for the next `go mate` (a tsume script
            // may send isready between problems); `go` allocates the search's when it comes.
            if !self.mate_table_kept() {
                self.apply_hash_size();
            }
        }
        self.sync_book(true);
        self.say("readyok");
    }

    /// `go mate` on the shogi board.
    fn go_mate(&mut self, time_ms: Option<u64>) {
        self.finish_thinking();
        // No game search runs during `go mate`: its table gets the search table's memory, the
        // whole `USI_Hash` (changed since the last `isready` or not). The last solve's table is
        // reused when its size is still right.
        let table = match self.mate_solver.take() {
            Some(kept) if kept.hash_mb() == self.options.hash_mb => MateTable::Kept(kept),
            _ => {
                self.searcher.release_table();
                MateTable::New(self.options.hash_mb)
            }
        };
        let pos = self.position.clone();
        let limits = MateLimits { time: time_ms.map(Duration::from_millis), nodes: None };
        self.state = State::Mate(MateJob::start(pos, limits, table, self.sink(Event::Mate)));
    }

    /// Prints what a job reports.
    pub fn handle_event(&mut self, event: Event) {
        match event {
            Event::Search(e) => self.handle_search_event(e),
            Event::Mate(e) => self.handle_mate_event(e),
            Event::Dobutsu(e) => self.say(&info::dobutsu_line(&e)),
            Event::Report(text) => {
                self.say(&text);
                // Joined at once, so the next perft or bench a script sends right after the
                // result is not refused.
                self.join_side_job();
            }
        }
    }

    /// Prints what the search reports.
    fn handle_search_event(&mut self, event: SearchEvent) {
        let show_multipv = self.show_multipv;
        match event {
            SearchEvent::Pv(p) => self.say(&info::pv_line(&p, show_multipv)),
            SearchEvent::Progress(p) => self.say(&info::progress_line(&p)),
            SearchEvent::Stats(s) => self.say(&info::stats_line(&s)),
            SearchEvent::Done { best, ponder, .. } => {
                // Every search is started by a `go`, which is `Searching` until this event.
                let (position, go_received) = match std::mem::replace(&mut self.state, State::Idle) {
                    State::Searching { position, go_received } => (position, go_received),
                    other => {
                        self.state = other;
                        log::error!("a search ended that no go started");
                        return;
                    }
                };
                self.answer(*position, go_received, best, ponder);
                self.searcher.answer_written(go_received.elapsed().as_millis() as u64);
            }
        }
    }

    /// Prints what a `go mate` reports.
    fn handle_mate_event(&mut self, event: MateEvent) {
        match event {
            MateEvent::Progress(p) => self.say(&info::mate_progress_line(&p)),
            MateEvent::Done { result, stats } => {
                self.say(&info::mate_summary_line(&stats));
                self.say(&info::checkmate_line(&result));
            }
            MateEvent::NoMemory { hash_mb } => {
                self.error(&format!("cannot allocate {hash_mb} MB for the mate table"));
                self.say(&info::checkmate_line(&MateResult::Timeout));
            }
        }
    }

    /// Prints the `bestmove` a `go` on `pos` owes. The protocol, not the search, checks that
    /// it is legal: whatever produced the move (the tree search, the root mate search, a
    /// declaration), the GUI must never receive an illegal one, and only here is the position
    /// of the `go` at hand to check the ponder move too.
    fn answer(&mut self, mut pos: Position, go_received: Instant, best: BestMove, ponder: Option<Move>) {
        let text = match best {
            BestMove::Resign => "bestmove resign".to_string(),
            BestMove::Win => "bestmove win".to_string(),
            BestMove::Move(m) if pos.is_legal(m) => {
                pos.do_move(m);
                match ponder.filter(|&p| self.options.ponder && pos.is_legal(p)) {
                    Some(p) => format!("bestmove {m} ponder {p}"),
                    None => format!("bestmove {m}"),
                }
            }
            BestMove::Move(m) => {
                log::error!("search returned illegal move {m} in {}", pos.to_sfen());
                match pos.legal_moves().first() {
                    Some(&fallback) => format!("bestmove {fallback}"),
                    None => "bestmove resign".to_string(),
                }
            }
        };
        self.say(&text);
        log::debug!(
            "{text} written {:.1} ms after its go was read",
            go_received.elapsed().as_secs_f64() * 1e3
        );
    }

    /// A `go` on the shogi board: drops illegal `searchmoves`, applies `DepthLimit` and `NodesLimit`
    /// where the `go` sets no limit of its own, and answers from the book or starts the search.
    fn go(&mut self, mut limits: Limits, received: Instant) {
        self.finish_thinking();
        let illegal: Vec<String> = limits
            .searchmoves
            .iter()
            .filter(|&&m| !self.position.is_legal(m))
            .map(|m| m.to_string())
            .collect();
        if !illegal.is_empty() {
            self.error(&format!("searchmoves: {} not legal here, ignored", illegal.join(" ")));
            let pos = &self.position;
            limits.searchmoves.retain(|&m| pos.is_legal(m));
        }
        // Limits a GUI user set once, for every `go` that does not set its own.
        if limits.depth.is_none() && self.options.depth_limit > 0 {
            limits.depth = Some(self.options.depth_limit.min(i32::MAX as u64) as i32);
        }
        if limits.nodes.is_none() && self.options.nodes_limit > 0 {
            limits.nodes = Some(self.options.nodes_limit);
        }
        if self.play_from_book(&limits, received) {
            return;
        }
        self.apply_hash_size();
        self.state = State::Searching { position: Box::new(self.position.clone()), go_received: received };
        let events = self.sink(Event::Search);
        let options = self.options.search_options();
        self.show_multipv = options.lines_searched() > 1;
        self.searcher.start(self.position.clone(), limits, options, received, events);
    }

    /// `getoption [name]`: the current value of one option, or of every one.
    fn get_option(&mut self, name: Option<&str>) {
        let names = match name {
            Some(n) => vec![n.to_string()],
            None => self.options.names(),
        };
        for n in names {
            match self.options.value_of(&n) {
                Some(v) => self.say(&format!("option name {n} value {}", options::printable(&v))),
                None => self.error(&format!("getoption: no option '{n}'")),
            }
        }
    }

    /// Stops whatever thinks and prints everything it still had to say, its answer included.
    fn finish_thinking(&mut self) {
        self.answer_book_ponder();
        self.finish_mate();
        match std::mem::replace(&mut self.state, State::Idle) {
            // The search's `Done` event, drained below, answers and sets the state to idle.
            searching @ State::Searching { .. } => {
                self.state = searching;
                self.searcher.stop();
                self.searcher.wait();
            }
            State::Dobutsu(job) => {
                job.finish();
            }
            other => {
                self.state = other;
                return;
            }
        }
        self.drain_events();
    }

    /// Whether a `go mate` table is kept at the current `USI_Hash` size.
    fn mate_table_kept(&self) -> bool {
        self.mate_solver.as_ref().is_some_and(|s| s.hash_mb() == self.options.hash_mb)
    }

    /// Stops a `go mate` and prints what it still had to say; its solver is kept for the next.
    fn finish_mate(&mut self) {
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Mate(m) => {
                self.mate_solver = m.finish();
                self.drain_events();
            }
            other => self.state = other,
        }
    }

    /// Stops everything before exit.
    pub fn shutdown(&mut self) {
        self.finish_thinking();
        self.drain_events();
    }

    /// Reads the Dobutsu table `DobutsuTable` names if it is not the one in use: at `isready`,
    /// or at the next `go` when none came. A running job keeps the table it started with.
    fn sync_dobutsu_table(&mut self) {
        let default = options::default_dobutsu_table();
        let path = self.options.dobutsu_table.clone();
        if let Some(news) = self.dobutsu.use_table(&path, Some(&default)) {
            self.say(&info::dobutsu_table_line(&news));
        }
    }

    /// Waits for a running `go perft` or `bench` and prints its result. At end of input a script
    /// still wants the numbers it asked for; `quit` does not wait.
    pub fn finish_side_job(&mut self) {
        self.join_side_job();
        self.drain_events();
    }

    /// Waits for the `go perft` or `bench` thread, if any, to end.
    fn join_side_job(&mut self) {
        if let Some(job) = self.side_job.take() {
            job.wait();
        }
    }
}

/// The `go perft` listing, with its time in the log.
fn perft_report(pos: &mut Position, depth: u32) -> String {
    let start = std::time::Instant::now();
    let (text, total) = divide_listing(pos, depth);
    log::info!("perft {depth}: {total} nodes in {:?}", start.elapsed());
    text
}

/// Reads lines as bytes so that invalid UTF-8 is reported instead of ending the input. Each
/// line comes with the moment it was read: a `go`'s time counts from there, since the GUI's
/// clock runs while the loop may still be busy with the line before (`usinewgame` clearing a
/// large table, say).
fn spawn_reader<R: BufRead + Send + 'static>(mut input: R) -> Receiver<Option<(String, Instant)>> {
    let (tx, rx) = crossbeam_channel::unbounded();
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match input.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(Some((line, Instant::now()))).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = tx.send(None);
        })
        .expect("the input thread starts");
    rx
}

/// Runs the loop until `quit` or end of input.
pub fn run<R: BufRead + Send + 'static, W: Write>(input: R, out: W) {
    let lines = spawn_reader(input);
    let mut engine = Engine::new(out);
    let events = engine.events();
    loop {
        crossbeam_channel::select! {
            recv(lines) -> msg => match msg {
                Ok(Some((line, received))) => {
                    if !engine.handle_line(&line, received) {
                        break;
                    }
                }
                // End of input: stop a search promptly, as for `quit`, but let a perft or bench
                // that a script piped in finish and print.
                _ => {
                    engine.shutdown();
                    engine.finish_side_job();
                    break;
                }
            },
            recv(events) -> event => {
                if let Ok(event) = event {
                    engine.handle_event(event);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Sends `line` and, for a `go mate`, waits for its answer and ends the job.
    fn send(e: &mut Engine<Vec<u8>>, line: &str) {
        e.handle_line(line, Instant::now());
        if line.starts_with("go mate") {
            let events = e.events();
            loop {
                let event = events.recv_timeout(Duration::from_secs(30)).expect("go mate answers");
                let done = matches!(event, Event::Mate(MateEvent::Done { .. } | MateEvent::NoMemory { .. }));
                e.handle_event(event);
                if done {
                    break;
                }
            }
            e.finish_mate();
        }
    }

    fn kept(e: &Engine<Vec<u8>>) -> Option<(usize, u64)> {
        e.mate_solver.as_ref().map(|s| (s.hash_mb(), s.solves()))
    }

    #[test]
    fn go_mate_keeps_its_table_while_the_size_stays_and_gives_it_up_for_the_search() {
        let mut e = Engine::new(Vec::new());
        send(&mut e, "setoption name USI_Hash value 8");
        send(&mut e, "position sfen 3sks3/9/4+P4/9/9/+B8/9/9/9 b S2rb4gs4n4l17p 1");
        send(&mut e, "go mate 10000");
        assert_eq!(kept(&e), Some((8, 1)));
        // The same solver (one table) answers the next problems, isready and usinewgame between.
        send(&mut e, "isready");
        send(&mut e, "go mate 10000");
        send(&mut e, "usinewgame");
        send(&mut e, "go mate 10000");
        assert_eq!(kept(&e), Some((8, 3)));
        // Another size: a new table.
        send(&mut e, "setoption name USI_Hash value 16");
        send(&mut e, "go mate 10000");
        assert_eq!(kept(&e), Some((16, 1)));
        // isready at a size the kept table does not have gives the memory back to the search.
        send(&mut e, "setoption name USI_Hash value 8");
        send(&mut e, "isready");
        assert_eq!(kept(&e), None);
        send(&mut e, "go mate 10000");
        send(&mut e, "position startpos");
        send(&mut e, "go depth 1");
        assert_eq!(kept(&e), None, "a search frees the mate table before it allocates its own");
        e.finish_thinking();
        let out = String::from_utf8(e.out.clone()).unwrap();
        assert_eq!(out.matches("checkmate ").count(), 5, "{out}");
        assert!(!out.contains("checkmate nomate") && !out.contains("timeout"), "{out}");
    }
}
