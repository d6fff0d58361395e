//! The USI protocol loop: reads commands, drives the search, and writes replies.
//!
//! stdin is read on its own thread and the search runs on others; this loop waits on both and
//! never blocks on the search. Nothing read from stdin may panic the engine: every malformed line
//! gets an `info string` reply and the previous state is kept.

mod book;
mod command;
mod dobutsu;
mod info;
mod options;

use command::{parse_command, Command, GoCommand};
use options::{Options, Variant};

use crate::bench;
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
const ENGINE_AUTHOR: &str = "the shomei developers";

/// What a background job (`go perft`, `bench`, the Dobutsu `go` and `go mate`) sends to the
/// protocol loop.
enum JobOutput {
    /// A line to print while the job goes on (Dobutsu `info` lines and answers).
    Line(String),
    /// The result of a `go perft` or `bench`; its thread ends right after sending it.
    Finished(String),
}

/// What the shogi board's thinking owes the GUI. A game search and a `go mate` share the
/// memory budget and answer differently, so at most one of them runs: each `go` form first
/// finishes the other.
enum State {
    /// Nothing owes an answer.
    Idle,
    /// A `go` owes its `bestmove`.
    Searching {
        /// The position searched: the answer is checked against it. Boxed, as it is large.
        position: Box<Position>,
        /// Started with `go ponder` and not yet `ponderhit`.
        ponder: bool,
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
        ponder: Option<Move>,
        /// When the `go` was read.
        go_received: Instant,
    },
}

/// The protocol state.
struct Engine<W: Write> {
    out: W,
    position: Position,
    options: Options,
    searcher: Searcher,
    events_tx: Sender<SearchEvent>,
    events_rx: Receiver<SearchEvent>,
    mate_tx: Sender<MateEvent>,
    mate_rx: Receiver<MateEvent>,
    state: State,
    /// Output of a background job (`go perft`, `bench`), which must not block the loop.
    job_tx: Sender<JobOutput>,
    job_rx: Receiver<JobOutput>,
    /// The running `go perft` or `bench` (one at a time), kept until its `Finished` is printed.
    /// It is not part of `state`: it works on its own copy of the position with its own tables
    /// (bench) or none (perft), so a script may start one beside a search, and a Dobutsu
    /// `go perft` runs here too.
    job: Option<std::thread::JoinHandle<()>>,
    /// The Dobutsu board and its jobs, used while `UCI_Variant` is `dobutsu`.
    dobutsu: dobutsu::Dobutsu,
    /// The opening book `BookFile` names, once opened.
    book: book::BookState,
    /// The `go mate` solver of the last solve, kept with its table for the next one while
    /// `USI_Hash` stays the same. Its table and the search's are never held together: each is
    /// freed before the other is allocated, so the memory stays within `USI_Hash`.
    mate_solver: Option<MateSolver>,
}

impl<W: Write> Engine<W> {
    pub fn new(out: W) -> Engine<W> {
        let options = Options::default();
        let (events_tx, events_rx) = crossbeam_channel::unbounded();
        let (job_tx, job_rx) = crossbeam_channel::unbounded();
        let (mate_tx, mate_rx) = crossbeam_channel::unbounded();
        Engine {
            out,
            position: Position::startpos(),
            searcher: Searcher::new(options.hash_mb),
            options,
            events_tx,
            events_rx,
            mate_tx,
            mate_rx,
            state: State::Idle,
            job_tx,
            job_rx,
            job: None,
            dobutsu: dobutsu::Dobutsu::new(),
            book: book::BookState::new(),
            mate_solver: None,
        }
    }

    /// Where background jobs send their output; the loop prints each message.
    pub fn job_output(&self) -> Receiver<JobOutput> {
        self.job_rx.clone()
    }

    /// Prints a background job's output. A finished perft or bench is joined at once, so the
    /// next one a script sends right after the result is not refused.
    pub fn handle_job_output(&mut self, output: JobOutput) {
        match output {
            JobOutput::Line(text) => self.say(&text),
            JobOutput::Finished(text) => {
                self.say(&text);
                if let Some(job) = self.job.take() {
                    let _ = job.join();
                }
            }
        }
    }

    /// Prints whatever background jobs have sent so far.
    fn drain_job_output(&mut self) {
        while let Ok(output) = self.job_rx.try_recv() {
            self.handle_job_output(output);
        }
    }

    /// Runs `work` on its own thread; its result is printed when done. One job at a time.
    fn start_job(&mut self, name: &str, work: impl FnOnce() -> String + Send + 'static) {
        if self.job.as_ref().is_some_and(|j| !j.is_finished()) {
            self.error(&format!("{name} ignored: a perft or bench is still running"));
            return;
        }
        // A job that has finished but whose result the loop has not printed yet: print it now,
        // so that its `Finished` cannot later be taken for the new job's.
        self.finish_job();
        let tx = self.job_tx.clone();
        self.job = Some(std::thread::spawn(move || {
            let _ = tx.send(JobOutput::Finished(work()));
        }));
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

    /// Where the search's events arrive; the loop hands each to `handle_event`.
    pub fn events(&self) -> Receiver<SearchEvent> {
        self.events_rx.clone()
    }

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

    /// Handles one line, read at `received`. Returns false when the engine should exit.
    pub fn handle_line(&mut self, line: &str, received: Instant) -> bool {
        let command = match parse_command(line) {
            Ok(c) => c,
            Err(e) => {
                self.error(&e.to_string());
                return true;
            }
        };
        if self.options.variant == Variant::Dobutsu && self.handle_dobutsu(&command, received) {
            return true;
        }
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
            Command::IsReady => {
                // Tables are (re)sized only while nothing uses the memory budget.
                let busy = match &self.state {
                    State::Idle | State::BookPonder { .. } => false,
                    State::Searching { .. } => true,
                    State::Mate(m) => m.is_running(),
                };
                if !busy {
                    self.finish_mate();
                    // A mate table kept at the current size stays for the next `go mate` (a
                    // tsume script may send isready between problems); `go` allocates the
                    // search's when it comes.
                    if !self.mate_table_kept() {
                        self.apply_hash_size();
                    }
                }
                self.sync_book(true);
                self.say("readyok");
            }
            Command::UsiNewGame => {
                self.finish_search();
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
                    self.finish_search();
                    self.dobutsu.finish();
                    self.position = Position::startpos();
                    self.dobutsu.reset();
                }
            }
            Command::Position(args) => {
                let words: Vec<&str> = args.iter().map(String::as_str).collect();
                match Position::from_usi_args(&words) {
                    Ok(p) => self.position = p,
                    Err(e) => self.error(&format!("{e}; position unchanged")),
                }
            }
            Command::Go(GoCommand::Perft(depth)) => {
                let mut pos = self.position.clone();
                self.start_job("go perft", move || perft_report(&mut pos, depth));
            }
            Command::Go(GoCommand::Mate(time_ms)) => {
                self.finish_search();
                // No game search runs during `go mate`: its table gets the search table's memory,
                // the whole `USI_Hash` (changed since the last `isready` or not). The last
                // solve's table is reused when its size is still right.
                let table = match self.mate_solver.take() {
                    Some(kept) if kept.hash_mb() == self.options.hash_mb => MateTable::Kept(kept),
                    _ => {
                        self.searcher.release_table();
                        MateTable::New(self.options.hash_mb)
                    }
                };
                let pos = self.position.clone();
                let limits = MateLimits { time: time_ms.map(Duration::from_millis), nodes: None };
                self.state = State::Mate(MateJob::start(pos, limits, table, self.mate_tx.clone()));
            }
            Command::Go(GoCommand::Search(limits)) => self.go(limits, received),
            Command::Stop => match &self.state {
                State::Searching { .. } => self.searcher.stop(),
                State::Mate(m) if m.is_running() => m.stop(),
                State::BookPonder { .. } => self.answer_book_ponder(),
                _ => self.error("stop ignored: no search is running"),
            },
            Command::PonderHit(time) => match &mut self.state {
                State::Searching { ponder: ponder @ true, .. } => {
                    *ponder = false;
                    self.searcher.ponderhit(time);
                }
                State::BookPonder { .. } => self.answer_book_ponder(),
                _ => self.error("ponderhit ignored: not pondering"),
            },
            // The game is over: a running search (even a ponder) stops and answers as for `stop`.
            Command::GameOver => {
                self.searcher.stop();
                match &self.state {
                    State::Mate(m) => m.stop(),
                    State::BookPonder { .. } => self.answer_book_ponder(),
                    _ => {}
                }
            }
            Command::GetOption(name) => self.get_option(name.as_deref()),
            Command::Display => {
                let d = self.position.diagram();
                self.say(&d);
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
                self.finish_search();
                // The evaluator the options name (EvalFile, UseNNUE); the depth, the table and the
                // single thread are bench's own, so the node count stays the search's signature.
                let network = self.options.evaluation();
                let config = bench::BenchConfig { network, ..bench::BenchConfig::default() };
                self.start_job("bench", move || bench::run(&config).trim_end().to_string());
            }
            Command::Quit => {
                self.shutdown();
                return false;
            }
        }
        true
    }

    /// Prints what the search reports.
    pub fn handle_event(&mut self, event: SearchEvent) {
        let show_multipv = self.options.multipv > 1;
        match event {
            SearchEvent::Pv(p) => self.say(&info::pv_line(&p, show_multipv)),
            SearchEvent::Progress(p) => self.say(&info::progress_line(&p)),
            SearchEvent::Stats(s) => self.say(&info::stats_line(&s)),
            SearchEvent::Done { best, ponder, deadline_ms, .. } => {
                // Every search is started by a `go`, which is `Searching` until this event.
                let (position, go_received) = match std::mem::replace(&mut self.state, State::Idle) {
                    State::Searching { position, go_received, .. } => (position, go_received),
                    other => {
                        self.state = other;
                        log::error!("a search ended that no go started");
                        return;
                    }
                };
                self.answer(*position, go_received, best, ponder);
                // Only a search that stopped at its hard limit tells how late answers land.
                if let Some(deadline) = deadline_ms {
                    let written = go_received.elapsed().as_millis() as u64;
                    self.searcher.record_lateness(written.saturating_sub(deadline));
                }
            }
        }
    }

    /// Where a `go mate`'s events arrive; the loop hands each to `handle_mate_event`.
    pub fn mate_events(&self) -> Receiver<MateEvent> {
        self.mate_rx.clone()
    }

    /// Prints what a `go mate` reports.
    pub fn handle_mate_event(&mut self, event: MateEvent) {
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

    fn go(&mut self, mut limits: Limits, received: Instant) {
        self.finish_search();
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
        self.state = State::Searching {
            position: Box::new(self.position.clone()),
            ponder: limits.ponder,
            go_received: received,
        };
        self.searcher.start(
            self.position.clone(),
            limits,
            self.options.search_options(),
            received,
            self.events_tx.clone(),
        );
    }

    /// Opens the book the options name if it changed (`retry`: also one that failed before),
    /// printing what was read or why not.
    fn sync_book(&mut self, retry: bool) {
        for line in self.book.sync(self.options.book_source(), retry) {
            self.say(&line);
        }
    }

    /// Answers a `go` from the book when it has a move here: at once, or for `go ponder` at
    /// `ponderhit` or `stop`. Analysis (`go infinite`) and `searchmoves` always search, and so
    /// does a position where a declaration wins.
    fn play_from_book(&mut self, limits: &Limits, received: Instant) -> bool {
        if limits.infinite || !limits.searchmoves.is_empty() {
            return false;
        }
        self.sync_book(false);
        let declare = self.position.declaration(self.options.entering_king_rule);
        if declare == crate::shogi::Declaration::Win {
            return false;
        }
        let probe = self.book.probe(&self.position, &self.options.book);
        for note in &probe.notes {
            self.say(&format!("info string {}", options::printable(note)));
        }
        let Some(choice) = probe.choice else { return false };
        for line in book::answer_lines(&choice) {
            self.say(&line);
        }
        if limits.ponder {
            self.state = State::BookPonder {
                position: Box::new(self.position.clone()),
                best: choice.chosen.mv,
                ponder: choice.ponder,
                go_received: received,
            };
        } else {
            self.answer(self.position.clone(), received, BestMove::Move(choice.chosen.mv), choice.ponder);
        }
        true
    }

    /// The `bestmove` a book move found under `go ponder` owes.
    fn answer_book_ponder(&mut self) {
        if !matches!(self.state, State::BookPonder { .. }) {
            return;
        }
        if let State::BookPonder { position, best, ponder, go_received } =
            std::mem::replace(&mut self.state, State::Idle)
        {
            self.answer(*position, go_received, BestMove::Move(best), ponder);
        }
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

    /// Stops a running search and prints everything it still had to say, its bestmove included.
    fn finish_search(&mut self) {
        self.answer_book_ponder();
        self.finish_mate();
        if !matches!(self.state, State::Searching { .. }) {
            return;
        }
        self.searcher.stop();
        self.searcher.wait();
        while let Ok(ev) = self.events_rx.try_recv() {
            self.handle_event(ev);
        }
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
                while let Ok(event) = self.mate_rx.try_recv() {
                    self.handle_mate_event(event);
                }
            }
            other => self.state = other,
        }
    }

    /// Stops everything before exit.
    pub fn shutdown(&mut self) {
        self.finish_search();
        self.dobutsu.finish();
        self.drain_job_output();
    }

    /// Handles the commands that mean something else on the Dobutsu board; false for the rest
    /// (options, `usi`, `bench`, `quit`), which the shogi path handles.
    fn handle_dobutsu(&mut self, command: &Command, received: Instant) -> bool {
        match command {
            Command::IsReady => {
                self.sync_dobutsu_table();
                self.say("readyok");
            }
            Command::UsiNewGame => self.dobutsu.finish(),
            Command::Position(args) => {
                let words: Vec<&str> = args.iter().map(String::as_str).collect();
                if let Err(e) = self.dobutsu.set_position(&words) {
                    self.error(&format!("{e}; position unchanged"));
                }
            }
            Command::Go(GoCommand::Perft(depth)) => {
                let job = self.dobutsu.perft_job(*depth);
                self.start_job("go perft", job);
            }
            Command::Go(GoCommand::Mate(time_ms)) => {
                self.sync_dobutsu_table();
                self.dobutsu.mate(*time_ms, self.job_tx.clone());
            }
            Command::Go(GoCommand::Search(limits)) => {
                self.sync_dobutsu_table();
                let time = self.options.search_options().time;
                self.dobutsu.go(
                    limits.clone(),
                    time,
                    self.options.dobutsu_repetition,
                    received,
                    self.job_tx.clone(),
                );
            }
            Command::Stop | Command::PonderHit(_) | Command::GameOver => {
                if self.dobutsu.is_running() {
                    self.dobutsu.stop();
                } else if matches!(command, Command::Stop) {
                    self.error("stop ignored: no search is running");
                } else if matches!(command, Command::PonderHit(_)) {
                    self.error("ponderhit ignored: not pondering");
                }
            }
            Command::Display => {
                let d = self.dobutsu.diagram();
                self.say(&d);
            }
            Command::Eval => {
                self.error("eval: Dobutsu has no static evaluation (the solved table or a search decides)")
            }
            _ => return false,
        }
        true
    }

    /// Reads the Dobutsu table `DobutsuTable` names if it is not the one in use: at `isready`,
    /// or at the next `go` when none came. A running job keeps the table it started with.
    fn sync_dobutsu_table(&mut self) {
        let default = options::default_dobutsu_table();
        let path = self.options.dobutsu_table.clone();
        if let Some(line) = self.dobutsu.use_table(&path, Some(&default)) {
            self.say(&line);
        }
    }

    /// Waits for a running `go perft` or `bench` and prints its result. At end of input a script
    /// still wants the numbers it asked for; `quit` does not wait.
    pub fn finish_job(&mut self) {
        if let Some(job) = self.job.take() {
            let _ = job.join();
        }
        self.drain_job_output();
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
    let jobs = engine.job_output();
    let mates = engine.mate_events();
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
                    engine.finish_job();
                    break;
                }
            },
            recv(events) -> ev => {
                if let Ok(ev) = ev {
                    engine.handle_event(ev);
                }
            }
            recv(jobs) -> text => {
                if let Ok(text) = text {
                    engine.handle_job_output(text);
                }
            }
            recv(mates) -> ev => {
                if let Ok(ev) = ev {
                    engine.handle_mate_event(ev);
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
            let events = e.mate_events();
            loop {
                let event = events.recv_timeout(Duration::from_secs(30)).expect("go mate answers");
                let done = matches!(event, MateEvent::Done { .. } | MateEvent::NoMemory { .. });
                e.handle_mate_event(event);
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
        e.finish_search();
        let out = String::from_utf8(e.out.clone()).unwrap();
        assert_eq!(out.matches("checkmate ").count(), 5, "{out}");
        assert!(!out.contains("checkmate nomate") && !out.contains("timeout"), "{out}");
    }
}
