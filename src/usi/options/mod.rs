//! The engine's USI options: their declarations for `usi`, and typed values for `setoption`.
//! Each option is declared once, in `table::OPTIONS`; `usi`, `setoption` and `getoption` go
//! through that table.
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
use crate::search::{skill, SearchAlgorithm, SearchOptions, Skill, TimeOptions};
use crate::shogi::EnteringKingRule;
use std::path::Path;
use table::{declared, Reply, OPTIONS};

mod table;

/// Current option values.
#[derive(Clone, Debug)]
pub struct Options {
    /// `USI_Hash`: the memory budget in MB, for the search's table or `go mate`'s.
    pub hash_mb: usize,
    /// `USI_Ponder`: whether `bestmove` may carry a `ponder` move.
    pub ponder: bool,
    /// `Threads`: search threads, the main one included.
    pub threads: usize,
    /// `MultiPV`: how many best lines to search and report.
    pub multipv: usize,
    /// `SkillLevel`: 0 (weakest) to 20 (full strength).
    pub skill_level: u32,
    /// `UCI_LimitStrength`: play at the level `UCI_Elo` names instead of `SkillLevel`.
    pub limit_strength: bool,
    /// `UCI_Elo`: the strength asked for, on the ladder's scale (`search::skill`).
    pub uci_elo: i32,
    /// `SkillSeed`: the seed a level's choices are drawn from (0: a new one each time the engine
    /// starts, so games vary).
    pub skill_seed: u64,
    /// The seed drawn at start, used while `skill_seed` is 0.
    entropy_seed: u64,
    /// `NetworkDelay` (ms): the delay between our `bestmove` and the GUI stopping our clock.
    pub network_delay: u64,
    /// `MinimumThinkingTime` (ms): think at least this long when the clock allows it.
    pub minimum_thinking_time: u64,
    /// `MaxMovesToDraw`: the game is drawn once it passes this ply (0: no limit).
    pub max_moves_to_draw: u32,
    /// `EnteringKingRule`: when an entered king wins by declaration, or the try rule.
    pub entering_king_rule: EnteringKingRule,
    /// `ResignValue`: resign when the best score is at or below minus this.
    pub resign_value: i32,
    /// `DrawValue`: the score of a draw for the side that started the search.
    pub draw_value: i32,
    /// `SearchAlgorithm`: the full search, or one of the simpler ones that check it.
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

/// The game the engine plays (`UCI_Variant`, the option name Fairy-Stockfish and the GUIs that
/// host it use; `USI_Variant` is accepted too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Shogi on the 9×9 board.
    Shogi,
    /// Dobutsu shogi on the 3×4 board, played by the solved table or by search.
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
            skill_level: skill::MAX_LEVEL,
            limit_strength: false,
            uci_elo: skill::ELO_MAX,
            skill_seed: 0,
            entropy_seed: crate::rng::Rng::seed_from_entropy(),
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
        let defaults = Options::default();
        let lines = declared().map(|o| o.declaration(&defaults));
        #[cfg(feature = "tune")]
        let lines =
            lines.chain(crate::search::tunables().into_iter().map(|t| {
                table::spin_declaration(t.name, &t.default.to_string(), t.min.into(), t.max.into())
            }));
        lines.collect()
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
    fn set_network(&mut self, eval_file: String, eval_dir: String) -> Reply {
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

    /// `setoption name EvalFile`: an empty value is the default, the built-in network.
    fn set_eval_file(&mut self, value: &str) -> Reply {
        let file = if value.is_empty() { EMBEDDED.to_string() } else { value.to_string() };
        let dir = self.eval_dir.clone();
        self.set_network(file, dir).map_err(|e| format!("EvalFile: {e}"))
    }

    /// `setoption name EvalDir`: read only when `EvalFile` does not name the network.
    fn set_eval_dir(&mut self, value: &str) -> Reply {
        let (file, dir) = (self.eval_file.clone(), string_value(value));
        if file != EMBEDDED {
            // EvalFile names the network: nothing to read again.
            self.eval_dir = dir;
            return Ok(Some(format!("EvalDir set; EvalFile {} takes precedence", printable(&file))));
        }
        self.set_network(file, dir).map_err(|e| format!("EvalDir: {e}"))
    }

    /// Applies `setoption name <name> value <value>`; on error the old value is kept. Returns a
    /// line for the GUI to see, if the option calls for one.
    pub fn set(&mut self, name: &str, value: &str) -> Reply {
        match OPTIONS.iter().find(|o| o.name == name || o.alias == Some(name)) {
            Some(option) => option.apply(self, name, value),
            None if crate::search::TUNABLE_NAMES.contains(&name) => {
                set_search_parameter(name, value).map(|()| None)
            }
            None => Err(format!("unknown option '{name}'")),
        }
    }

    /// The search's view of the options.
    pub fn search_options(&self) -> SearchOptions {
        SearchOptions {
            threads: self.threads,
            multipv: self.multipv,
            algorithm: self.algorithm,
            time: self.time_options(),
            draw_value: self.draw_value,
            max_moves_to_draw: self.max_moves_to_draw,
            entering_king_rule: self.entering_king_rule,
            resign_value: self.resign_value,
            network: self.evaluation(),
            incremental: true,
            pv_interval_ms: self.pv_interval,
            consideration_mode: self.consideration_mode,
            output_fail_lh_pv: self.output_fail_lh_pv,
            skill: self.skill(),
        }
    }

    /// How the clock is turned into a time budget (`NetworkDelay`, `MinimumThinkingTime`).
    pub fn time_options(&self) -> TimeOptions {
        TimeOptions { network_delay: self.network_delay, minimum_thinking: self.minimum_thinking_time }
    }

    /// The strength level the options ask for (`None`: full strength): `UCI_Elo`'s level under
    /// `UCI_LimitStrength`, else `SkillLevel`.
    pub fn skill(&self) -> Option<Skill> {
        let level = if self.limit_strength { skill::level_for_elo(self.uci_elo) } else { self.skill_level };
        let seed = if self.skill_seed == 0 { self.entropy_seed } else { self.skill_seed };
        Skill::new(level, seed)
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
        declared().find(|o| o.name == name)?.value(self)
    }

    /// Every declared option's name, in the order `usi` lists them.
    pub fn names(&self) -> Vec<String> {
        let names = declared().map(|o| o.name.to_string());
        #[cfg(feature = "tune")]
        let names = names.chain(crate::search::tunables().into_iter().map(|t| t.name.to_string()));
        names.collect()
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
        for option in OPTIONS {
            let table::Kind::Spin { min, max, .. } = option.kind else { continue };
            let name = option.name;
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
