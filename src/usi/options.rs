//! The engine's USI options: their declarations for `usi`, and typed values for `setoption`.
//!
//! The evaluation's options (`EvalFile`, `EvalDir`, `FV_SCALE`, `UseNNUE`) are not declared in
//! the `material` build, whose evaluation is material alone; there, setting them is an error.
//!
//! `EvalFile` and `EvalDir` name the network together: `EvalFile` wins when it names a file;
//! at its default (`<embedded>`) the file `nn.bin` in `EvalDir` is read when `EvalDir` is set
//! (YaneuraOu's option, so that a user's YaneuraOu settings carry over), and the built-in
//! network otherwise. The network is read when either option is set; a file that cannot be
//! used is reported and the evaluator in use is kept, with the option's old value.

use crate::book::{BookPolicy, BookSource};
use crate::eval::nnue::{self, AnyNetwork};
use crate::search::{SearchAlgorithm, SearchOptions, TimeOptions};
use crate::shogi::EnteringKingRule;
use std::path::Path;

/// Current option values.
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub ponder: bool,
    pub threads: usize,
    pub multipv: usize,
    pub network_delay: u64,
    pub minimum_thinking_time: u64,
    pub max_moves_to_draw: u32,
    pub entering_king_rule: EnteringKingRule,
    pub resign_value: i32,
    pub draw_value: i32,
    pub algorithm: SearchAlgorithm,
    /// The game on the board: shogi, or Dobutsu shogi (3×4).
    pub variant: Variant,
    /// Where the solved Dobutsu table is read from (empty: none, play by search).
    pub dobutsu_table: String,
    /// Dobutsu: the occurrence of a position that draws the game (4, 3), or 0 for none.
    pub dobutsu_repetition: u32,
    /// `EvalFile`: `EMBEDDED`, or the path of a network file.
    pub eval_file: String,
    /// `EvalDir`: a folder holding `nn.bin`, or empty.
    pub eval_dir: String,
    /// Where `network` was read from: a path, or `EMBEDDED`.
    pub network_source: String,
    /// The network `EvalFile` and `EvalDir` name (`None`: no network is built in).
    pub network: Option<AnyNetwork>,
    /// `FV_SCALE`: the divisor of a HalfKP network's output.
    pub fv_scale: i32,
    /// `UseNNUE`: evaluate with `network` when there is one; false: the hand-written evaluation.
    pub use_nnue: bool,
    /// `USI_OwnBook`: play from the book (when `BookFile` names one).
    pub own_book: bool,
    /// `BookFile`: the book's path, or empty / `no_book` for none.
    pub book_file: String,
    /// `BookDir`: the folder a relative `BookFile` is in (empty: the working folder).
    pub book_dir: String,
    /// `BookOnTheFly`: look positions up in the file rather than reading it whole.
    pub book_on_the_fly: bool,
    /// `IgnoreBookPly`: book positions match whatever their ply.
    pub ignore_book_ply: bool,
    /// The options that choose among the book's moves.
    pub book: BookPolicy,
    /// `PvInterval` (ms): during an iteration, the current line is shown at least this often.
    pub pv_interval: u64,
    /// `ConsiderationMode`: at a fail high or low, show the last complete line, not a cut one.
    pub consideration_mode: bool,
    /// `OutputFailLHPV`: show lines at a fail high or low at all.
    pub output_fail_lh_pv: bool,
    /// `DepthLimit`: the depth of every search that `go` does not limit itself (0: none).
    pub depth_limit: u64,
    /// `NodesLimit`: the nodes of every search that `go` does not limit itself (0: none).
    pub nodes_limit: u64,
}

/// `EvalFile`'s value for the network built into the binary (the default).
const EMBEDDED: &str = "<embedded>";

/// `BookFile`'s value for no book (YaneuraOu's), the default.
const NO_BOOK: &str = "no_book";

/// `DobutsuRepetition`'s values: the occurrence of a position that draws (Fourfold as
/// Fairy-Stockfish rules, Threefold as the official rules, Off as Tanaka's analysis).
const REPETITION_NAMES: [(&str, u32); 3] = [("Fourfold", 4), ("Threefold", 3), ("Off", 0)];

/// The game the engine plays (`UCI_Variant`, the option name Fairy-Stockfish and the GUIs that
/// host it use; `USI_Variant` is accepted too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Shogi,
    Dobutsu,
}

/// The default `DobutsuTable`: where `shomei dobutsu solve` writes, in the user's cache.
pub fn default_dobutsu_table() -> String {
    crate::dobutsu::table::default_path().map(|p| p.display().to_string()).unwrap_or_default()
}

impl Default for Options {
    /// The search's defaults (written once, in `SearchOptions::default`) and the protocol's own.
    fn default() -> Self {
        let search = SearchOptions::default();
        Options {
            hash_mb: 64,
            ponder: false,
            threads: search.threads,
            multipv: search.multipv,
            network_delay: search.time.network_delay,
            minimum_thinking_time: search.time.minimum_thinking,
            max_moves_to_draw: search.max_moves_to_draw,
            entering_king_rule: search.entering_king_rule,
            resign_value: search.resign_value,
            draw_value: search.draw_value,
            algorithm: search.algorithm,
            variant: Variant::Shogi,
            dobutsu_table: default_dobutsu_table(),
            dobutsu_repetition: 4,
            eval_file: EMBEDDED.to_string(),
            eval_dir: String::new(),
            network_source: EMBEDDED.to_string(),
            network: nnue::embedded::network().map(AnyNetwork::Shomei),
            fv_scale: nnue::halfkp::DEFAULT_FV_SCALE,
            use_nnue: true,
            own_book: true,
            book_file: NO_BOOK.to_string(),
            book_dir: String::new(),
            book_on_the_fly: false,
            ignore_book_ply: false,
            book: BookPolicy::default(),
            pv_interval: search.pv_interval_ms,
            consideration_mode: search.consideration_mode,
            output_fail_lh_pv: search.output_fail_lh_pv,
            depth_limit: 0,
            nodes_limit: 0,
        }
    }
}

/// Only printable ASCII of `text` (others become `?`): GUIs read other bytes in their own code
/// page, and control characters could break their line parsing.
pub fn printable(text: &str) -> String {
    text.chars().map(|c| if (' '..='~').contains(&c) { c } else { '?' }).collect()
}

/// The file YaneuraOu reads from `EvalDir`.
pub const EVAL_DIR_FILE: &str = "nn.bin";

/// Where the network comes from, given `EvalFile` and `EvalDir`: `EvalFile` when it names a
/// file, else `nn.bin` in `EvalDir` when that is set, else the built-in network (`EMBEDDED`).
fn network_source(eval_file: &str, eval_dir: &str) -> String {
    if !eval_file.is_empty() && eval_file != EMBEDDED {
        eval_file.to_string()
    } else if !eval_dir.is_empty() {
        Path::new(eval_dir).join(EVAL_DIR_FILE).display().to_string()
    } else {
        EMBEDDED.to_string()
    }
}

/// The network at `source` (`EMBEDDED`: the built-in one, if any).
fn load_network(source: &str) -> Result<Option<AnyNetwork>, String> {
    if source == EMBEDDED {
        return Ok(nnue::embedded::network().map(AnyNetwork::Shomei));
    }
    nnue::load(Path::new(source)).map(Some)
}

/// A string option's value: GUIs send `<empty>` for an empty one.
fn string_value(value: &str) -> String {
    if value == "<empty>" {
        String::new()
    } else {
        value.to_string()
    }
}

const HASH_MAX_MB: i64 = 32_768;
/// `EnteringKingRule`'s values, YaneuraOu's names.
const RULE_NAMES: [(&str, EnteringKingRule); 6] = [
    ("NoEnteringKing", EnteringKingRule::None),
    ("CSARule24", EnteringKingRule::Csa24),
    ("CSARule24H", EnteringKingRule::Csa24H),
    ("CSARule27", EnteringKingRule::Csa27),
    ("CSARule27H", EnteringKingRule::Csa27H),
    ("TryRule", EnteringKingRule::Try),
];

/// Every spin option's name, minimum and maximum: `usi` declares and `setoption` checks from here.
const SPIN_RANGES: [(&str, i64, i64); 19] = [
    ("USI_Hash", 1, HASH_MAX_MB),
    ("Threads", 1, 256),
    ("MultiPV", 1, 600),
    ("NetworkDelay", 0, 10_000),
    ("MinimumThinkingTime", 0, 600_000),
    ("MaxMovesToDraw", 0, 100_000),
    ("ResignValue", 0, 99_999),
    ("DrawValue", -30_000, 30_000),
    ("FV_SCALE", nnue::halfkp::FV_SCALE_RANGE.0 as i64, nnue::halfkp::FV_SCALE_RANGE.1 as i64),
    // The book's and the analysis options' ranges are YaneuraOu's.
    ("BookMoves", 0, 10_000),
    ("BookIgnoreRate", 0, 100),
    ("BookEvalDiff", 0, 99_999),
    ("BookEvalBlackLimit", -99_999, 99_999),
    ("BookEvalWhiteLimit", -99_999, 99_999),
    ("BookDepthLimit", 0, 99_999),
    ("BookPvMoves", 1, 246),
    ("PvInterval", 0, 100_000_000),
    ("DepthLimit", 0, i32::MAX as i64),
    ("NodesLimit", 0, i64::MAX),
];

fn spin_range(name: &str) -> (i64, i64) {
    SPIN_RANGES.iter().find(|r| r.0 == name).map(|r| (r.1, r.2)).expect("every spin option has a range")
}

fn spin(name: &str, default: i64) -> String {
    let (min, max) = spin_range(name);
    format!("option name {name} type spin default {default} min {min} max {max}")
}

fn check(name: &str, default: bool) -> String {
    format!("option name {name} type check default {default}")
}

fn parse_check(name: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("option {name}: '{value}' is not true or false")),
    }
}

fn parse_spin(name: &str, value: &str) -> Result<i64, String> {
    let (min, max) = spin_range(name);
    match value.parse::<i64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!("option {name}: '{value}' is not a number from {min} to {max}")),
    }
}

/// Sets a search parameter of a `tune` build (its options are the parameters' names).
#[cfg(feature = "tune")]
fn set_search_parameter(name: &str, value: &str) -> Result<(), String> {
    let v = value.parse::<i32>().map_err(|_| format!("option {name}: '{value}' is not a number"))?;
    crate::search::set_tunable(name, v)
}

/// Search parameters are constants outside a `tune` build.
#[cfg(not(feature = "tune"))]
fn set_search_parameter(name: &str, _value: &str) -> Result<(), String> {
    Err(format!("option {name}: search parameters can be set only in a build with the tune feature"))
}

impl Options {
    /// The `option ...` lines answered to `usi`.
    pub fn declarations(&self) -> Vec<String> {
        let d = Options::default();
        let rule = RULE_NAMES.iter().find(|r| r.1 == d.entering_king_rule).map_or("CSARule27", |r| r.0);
        let mut rules = format!("option name EnteringKingRule type combo default {rule}");
        for (n, _) in RULE_NAMES {
            rules.push_str(&format!(" var {n}"));
        }
        let mut algos = "option name SearchAlgorithm type combo default Full".to_string();
        for n in SearchAlgorithm::NAMES {
            algos.push_str(&format!(" var {n}"));
        }
        let mut lines = vec![
            spin("USI_Hash", d.hash_mb as i64),
            format!("option name USI_Ponder type check default {}", d.ponder),
            spin("Threads", d.threads as i64),
            spin("MultiPV", d.multipv as i64),
            spin("NetworkDelay", d.network_delay as i64),
            spin("MinimumThinkingTime", d.minimum_thinking_time as i64),
            spin("MaxMovesToDraw", d.max_moves_to_draw as i64),
            rules,
            spin("ResignValue", d.resign_value as i64),
            spin("DrawValue", d.draw_value as i64),
            algos,
            "option name UCI_Variant type combo default shogi var shogi var dobutsu".to_string(),
            format!(
                "option name DobutsuTable type filename default {}",
                if d.dobutsu_table.is_empty() || d.dobutsu_table.contains(' ') {
                    "<empty>"
                } else {
                    &d.dobutsu_table
                }
            ),
            {
                let default =
                    REPETITION_NAMES.iter().find(|r| r.1 == d.dobutsu_repetition).map_or("Fourfold", |r| r.0);
                let vars: String = REPETITION_NAMES.iter().map(|r| format!(" var {}", r.0)).collect();
                format!("option name DobutsuRepetition type combo default {default}{vars}")
            },
        ];
        lines.extend([
            check("USI_OwnBook", d.own_book),
            format!("option name BookFile type filename default {}", d.book_file),
            "option name BookDir type string default <empty>".to_string(),
            spin("BookMoves", d.book.max_ply as i64),
            spin("BookIgnoreRate", d.book.ignore_rate as i64),
            spin("BookEvalDiff", d.book.eval_diff as i64),
            spin("BookEvalBlackLimit", d.book.black_limit as i64),
            spin("BookEvalWhiteLimit", d.book.white_limit as i64),
            spin("BookDepthLimit", d.book.depth_limit as i64),
            check("BookOnTheFly", d.book_on_the_fly),
            check("ConsiderBookMoveCount", d.book.consider_count),
            spin("BookPvMoves", d.book.pv_moves as i64),
            check("IgnoreBookPly", d.ignore_book_ply),
            check("FlippedBook", d.book.flipped),
            spin("PvInterval", d.pv_interval as i64),
            check("ConsiderationMode", d.consideration_mode),
            check("OutputFailLHPV", d.output_fail_lh_pv),
            spin("DepthLimit", d.depth_limit as i64),
            spin("NodesLimit", d.nodes_limit as i64),
        ]);
        if !cfg!(feature = "material") {
            lines.push(format!("option name EvalFile type string default {}", d.eval_file));
            lines.push("option name EvalDir type string default <empty>".to_string());
            lines.push(spin("FV_SCALE", d.fv_scale as i64));
            lines.push(format!("option name UseNNUE type check default {}", d.use_nnue));
        }
        #[cfg(feature = "tune")]
        for t in crate::search::tunables() {
            lines.push(format!(
                "option name {} type spin default {} min {} max {}",
                t.name, t.default, t.min, t.max
            ));
        }
        lines
    }

    /// What the engine evaluates with, for an `info string` after an evaluation option is set.
    pub fn evaluator_report(&self) -> String {
        match (self.evaluation(), &self.network) {
            (Some(net), _) => {
                format!("evaluation: network {} ({})", self.network_source, printable(&net.describe()))
            }
            (None, Some(_)) => {
                format!("evaluation: hand-written (UseNNUE is false; network {} loaded)", self.network_source)
            }
            (None, None) => "evaluation: hand-written (no network is built in)".to_string(),
        }
    }

    /// The network the search evaluates with (`None`: the hand-written evaluation), with the
    /// current `FV_SCALE`.
    pub fn evaluation(&self) -> Option<AnyNetwork> {
        let net = self.network.as_ref().filter(|_| self.use_nnue && !cfg!(feature = "material"))?;
        Some(net.clone().with_fv_scale(self.fv_scale))
    }

    /// Reads the network that `eval_file` and `eval_dir` name and makes them the options'
    /// values; on error nothing changes. The report says what was read, and how fast.
    fn set_network(&mut self, eval_file: String, eval_dir: String) -> Result<Option<String>, String> {
        let source = network_source(&eval_file, &eval_dir);
        let start = std::time::Instant::now();
        let network = load_network(&source)?;
        let ms = start.elapsed().as_millis();
        self.eval_file = eval_file;
        self.eval_dir = eval_dir;
        self.network = network;
        self.network_source = source;
        let mut report = self.evaluator_report();
        if self.network_source != EMBEDDED {
            report.push_str(&format!(", read in {ms} ms"));
            if let Some(warning) = nnue::unchecked_file_warning(Path::new(&self.network_source)) {
                report.push_str(&format!("; warning: {warning}"));
            }
        }
        Ok(Some(report))
    }

    /// Applies `setoption name <name> value <value>`; on error the old value is kept. Returns a
    /// line for the GUI to see, if the option calls for one.
    pub fn set(&mut self, name: &str, value: &str) -> Result<Option<String>, String> {
        match name {
            "EvalFile" | "EvalDir" | "FV_SCALE" | "UseNNUE" if cfg!(feature = "material") => {
                return Err(format!("option {name}: the material build evaluates by material alone"))
            }
            "EvalFile" => {
                let file = if value.is_empty() { EMBEDDED.to_string() } else { value.to_string() };
                let dir = self.eval_dir.clone();
                return self.set_network(file, dir).map_err(|e| format!("EvalFile: {e}"));
            }
            "EvalDir" => {
                let (file, dir) = (self.eval_file.clone(), string_value(value));
                if file != EMBEDDED {
                    // EvalFile names the network: nothing to read again.
                    self.eval_dir = dir;
                    return Ok(Some(format!("EvalDir set; EvalFile {} takes precedence", printable(&file))));
                }
                return self.set_network(file, dir).map_err(|e| format!("EvalDir: {e}"));
            }
            "FV_SCALE" => {
                self.fv_scale = parse_spin(name, value)? as i32;
                return Ok(Some(self.evaluator_report()));
            }
            "UseNNUE" => {
                self.use_nnue = match value {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("option UseNNUE: '{value}' is not true or false")),
                };
                return Ok(Some(self.evaluator_report()));
            }
            "USI_Hash" => self.hash_mb = parse_spin(name, value)? as usize,
            "USI_Ponder" => {
                self.ponder = match value {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("option USI_Ponder: '{value}' is not true or false")),
                }
            }
            "Threads" => self.threads = parse_spin(name, value)? as usize,
            "MultiPV" => self.multipv = parse_spin(name, value)? as usize,
            "NetworkDelay" => self.network_delay = parse_spin(name, value)? as u64,
            "MinimumThinkingTime" => self.minimum_thinking_time = parse_spin(name, value)? as u64,
            "MaxMovesToDraw" => self.max_moves_to_draw = parse_spin(name, value)? as u32,
            "EnteringKingRule" => {
                self.entering_king_rule =
                    RULE_NAMES.iter().find(|r| r.0 == value).map(|r| r.1).ok_or_else(|| {
                        let names: Vec<&str> = RULE_NAMES.iter().map(|r| r.0).collect();
                        format!("option EnteringKingRule: '{value}' is not one of {}", names.join(", "))
                    })?
            }
            "ResignValue" => self.resign_value = parse_spin(name, value)? as i32,
            "DrawValue" => self.draw_value = parse_spin(name, value)? as i32,
            "SearchAlgorithm" => {
                self.algorithm = SearchAlgorithm::parse(value).ok_or_else(|| {
                    format!("option SearchAlgorithm: '{value}' is not Full, AlphaBeta or Minimax")
                })?
            }
            "UCI_Variant" | "USI_Variant" => {
                self.variant = match value {
                    "shogi" => Variant::Shogi,
                    "dobutsu" => Variant::Dobutsu,
                    _ => return Err(format!("option {name}: '{value}' is not shogi or dobutsu")),
                }
            }
            "DobutsuTable" => self.dobutsu_table = string_value(value),
            "USI_OwnBook" => self.own_book = parse_check(name, value)?,
            "BookFile" => self.book_file = string_value(value),
            "BookDir" => self.book_dir = string_value(value),
            "BookMoves" => self.book.max_ply = parse_spin(name, value)? as u32,
            "BookIgnoreRate" => self.book.ignore_rate = parse_spin(name, value)? as u32,
            "BookEvalDiff" => self.book.eval_diff = parse_spin(name, value)? as i32,
            "BookEvalBlackLimit" => self.book.black_limit = parse_spin(name, value)? as i32,
            "BookEvalWhiteLimit" => self.book.white_limit = parse_spin(name, value)? as i32,
            "BookDepthLimit" => self.book.depth_limit = parse_spin(name, value)? as i32,
            "BookOnTheFly" => self.book_on_the_fly = parse_check(name, value)?,
            "ConsiderBookMoveCount" => self.book.consider_count = parse_check(name, value)?,
            "BookPvMoves" => self.book.pv_moves = parse_spin(name, value)? as usize,
            "IgnoreBookPly" => self.ignore_book_ply = parse_check(name, value)?,
            "FlippedBook" => self.book.flipped = parse_check(name, value)?,
            "PvInterval" => self.pv_interval = parse_spin(name, value)? as u64,
            "ConsiderationMode" => self.consideration_mode = parse_check(name, value)?,
            "OutputFailLHPV" => self.output_fail_lh_pv = parse_check(name, value)?,
            "DepthLimit" => self.depth_limit = parse_spin(name, value)? as u64,
            "NodesLimit" => self.nodes_limit = parse_spin(name, value)? as u64,
            "DobutsuRepetition" => {
                self.dobutsu_repetition =
                    REPETITION_NAMES.iter().find(|r| r.0 == value).map(|r| r.1).ok_or_else(|| {
                        format!("option DobutsuRepetition: '{value}' is not Fourfold, Threefold or Off")
                    })?
            }
            _ if crate::search::TUNABLE_NAMES.contains(&name) => set_search_parameter(name, value)?,
            _ => return Err(format!("unknown option '{name}'")),
        }
        Ok(None)
    }

    /// The search's view of the options.
    pub fn search_options(&self) -> SearchOptions {
        SearchOptions {
            threads: self.threads,
            multipv: self.multipv,
            algorithm: self.algorithm,
            time: TimeOptions {
                network_delay: self.network_delay,
                minimum_thinking: self.minimum_thinking_time,
            },
            draw_value: self.draw_value,
            max_moves_to_draw: self.max_moves_to_draw,
            entering_king_rule: self.entering_king_rule,
            resign_value: self.resign_value,
            network: self.evaluation(),
            incremental: true,
            pv_interval_ms: self.pv_interval,
            consideration_mode: self.consideration_mode,
            output_fail_lh_pv: self.output_fail_lh_pv,
        }
    }

    /// The book the options name (`BookFile`, in `BookDir` when relative), and how to read it;
    /// `None` when there is none or `USI_OwnBook` is off.
    pub fn book_source(&self) -> Option<BookSource> {
        if !self.own_book || self.book_file.is_empty() || self.book_file.eq_ignore_ascii_case(NO_BOOK) {
            return None;
        }
        let file = Path::new(&self.book_file);
        let path = if self.book_dir.is_empty() || file.is_absolute() {
            file.to_path_buf()
        } else {
            Path::new(&self.book_dir).join(file)
        };
        Some(BookSource {
            path: path.display().to_string(),
            on_the_fly: self.book_on_the_fly,
            ignore_ply: self.ignore_book_ply,
        })
    }

    /// The current value of the option `name` as `setoption` would set it (`getoption`).
    pub fn value_of(&self, name: &str) -> Option<String> {
        let rule = || RULE_NAMES.iter().find(|r| r.1 == self.entering_king_rule).map(|r| r.0.to_string());
        let text = |s: &str| if s.is_empty() { "<empty>".to_string() } else { s.to_string() };
        Some(match name {
            "USI_Hash" => self.hash_mb.to_string(),
            "USI_Ponder" => self.ponder.to_string(),
            "Threads" => self.threads.to_string(),
            "MultiPV" => self.multipv.to_string(),
            "NetworkDelay" => self.network_delay.to_string(),
            "MinimumThinkingTime" => self.minimum_thinking_time.to_string(),
            "MaxMovesToDraw" => self.max_moves_to_draw.to_string(),
            "EnteringKingRule" => rule()?,
            "ResignValue" => self.resign_value.to_string(),
            "DrawValue" => self.draw_value.to_string(),
            "SearchAlgorithm" => SearchAlgorithm::NAMES[self.algorithm as usize].to_string(),
            "UCI_Variant" => (if self.variant == Variant::Shogi { "shogi" } else { "dobutsu" }).to_string(),
            "DobutsuTable" => text(&self.dobutsu_table),
            "DobutsuRepetition" => {
                REPETITION_NAMES.iter().find(|r| r.1 == self.dobutsu_repetition).map(|r| r.0.to_string())?
            }
            "USI_OwnBook" => self.own_book.to_string(),
            "BookFile" => text(&self.book_file),
            "BookDir" => text(&self.book_dir),
            "BookMoves" => self.book.max_ply.to_string(),
            "BookIgnoreRate" => self.book.ignore_rate.to_string(),
            "BookEvalDiff" => self.book.eval_diff.to_string(),
            "BookEvalBlackLimit" => self.book.black_limit.to_string(),
            "BookEvalWhiteLimit" => self.book.white_limit.to_string(),
            "BookDepthLimit" => self.book.depth_limit.to_string(),
            "BookOnTheFly" => self.book_on_the_fly.to_string(),
            "ConsiderBookMoveCount" => self.book.consider_count.to_string(),
            "BookPvMoves" => self.book.pv_moves.to_string(),
            "IgnoreBookPly" => self.ignore_book_ply.to_string(),
            "FlippedBook" => self.book.flipped.to_string(),
            "PvInterval" => self.pv_interval.to_string(),
            "ConsiderationMode" => self.consideration_mode.to_string(),
            "OutputFailLHPV" => self.output_fail_lh_pv.to_string(),
            "DepthLimit" => self.depth_limit.to_string(),
            "NodesLimit" => self.nodes_limit.to_string(),
            "EvalFile" if !cfg!(feature = "material") => self.eval_file.clone(),
            "EvalDir" if !cfg!(feature = "material") => text(&self.eval_dir),
            "FV_SCALE" if !cfg!(feature = "material") => self.fv_scale.to_string(),
            "UseNNUE" if !cfg!(feature = "material") => self.use_nnue.to_string(),
            _ => return None,
        })
    }

    /// Every declared option's name, in the order `usi` lists them.
    pub fn names(&self) -> Vec<String> {
        self.declarations().iter().filter_map(|l| l.split(' ').nth(2).map(str::to_string)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_have_no_spaces_in_names_and_parse_back() {
        let o = Options::default();
        for line in o.declarations() {
            let words: Vec<&str> = line.split(' ').collect();
            assert_eq!(words[0..2], ["option", "name"]);
            assert_eq!(words[3], "type", "{line}");
        }
    }

    #[test]
    fn bad_values_keep_the_old_value() {
        let mut o = Options::default();
        assert!(o.set("USI_Hash", "0").is_err());
        assert!(o.set("USI_Hash", "lots").is_err());
        assert_eq!(o.hash_mb, 64);
        assert!(o.set("EnteringKingRule", "TryRules").is_err());
        assert_eq!(o.entering_king_rule, EnteringKingRule::Csa27);
        o.set("SearchAlgorithm", "Minimax").unwrap();
        assert_eq!(o.algorithm, SearchAlgorithm::Minimax);
        assert!(o.set("Nonexistent", "1").is_err());
    }

    #[test]
    fn search_parameters_are_options_only_in_a_tune_build() {
        let mut o = Options::default();
        let name = crate::search::TUNABLE_NAMES[0];
        let declared = o.declarations().iter().any(|l| l.starts_with(&format!("option name {name} ")));
        assert_eq!(declared, cfg!(feature = "tune"), "{name}");
        assert!(o.set(name, "not a number").is_err());
        // Its own default: a tune build's tests search at the same time, with the same values.
        #[cfg(feature = "tune")]
        let value = crate::search::tunables()[0].default.to_string();
        #[cfg(not(feature = "tune"))]
        let value = "1".to_string();
        assert_eq!(o.set(name, &value).is_ok(), cfg!(feature = "tune"));
    }

    #[test]
    fn every_spin_is_declared_and_checked_with_its_one_range() {
        let declarations = Options::default().declarations();
        for (name, min, max) in SPIN_RANGES {
            let Some(declared) = declarations.iter().find(|l| l.starts_with(&format!("option name {name} ")))
            else {
                // The material build has no network, so no FV_SCALE.
                assert!(cfg!(feature = "material") && name == "FV_SCALE", "{name} is not declared");
                continue;
            };
            assert!(declared.ends_with(&format!(" min {min} max {max}")), "{declared}");
            let mut o = Options::default();
            assert!(o.set(name, &min.to_string()).is_ok() && o.set(name, &max.to_string()).is_ok(), "{name}");
            assert!(o.set(name, &(min - 1).to_string()).is_err(), "{name} below {min}");
            assert!(o.set(name, &(max + 1).to_string()).is_err(), "{name} above {max}");
        }
    }
}
