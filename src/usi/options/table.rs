//! Every USI option, declared once: its name, its type with its range or values, and how
//! `setoption` sets it and `getoption` reads it back. `usi`, `setoption` and `getoption` loop
//! over `OPTIONS`; an option's default is what its getter reads from `Options::default()`, so
//! that defaults are written in one place.

use super::{string_value, Options, Variant};
use crate::eval::nnue;
use crate::search::{skill, SearchAlgorithm};
use crate::shogi::EnteringKingRule;

/// What `setoption` answers: a line for the GUI to see, if any, or why the value was refused.
pub type Reply = Result<Option<String>, String>;

/// An option's USI type, with how its value is set and read back.
pub enum Kind {
    /// `check`: `true` or `false`.
    Check {
        /// Reads the value from the options.
        get: fn(&Options) -> bool,
        /// Stores a value `setoption` sent.
        set: fn(&mut Options, bool),
    },
    /// `spin`: a whole number from `min` to `max`.
    Spin {
        /// The least value `setoption` accepts.
        min: i64,
        /// The greatest value `setoption` accepts.
        max: i64,
        /// Reads the value from the options.
        get: fn(&Options) -> i64,
        /// Stores a value `setoption` sent, already checked against the range.
        set: fn(&mut Options, i64),
    },
    /// `combo`: one of `values`, which the getter and setter give by its index (the getter's
    /// `None`: the current value is none of them).
    Combo {
        /// The values, in the order `usi` declares them.
        values: &'static [&'static str],
        /// The index in `values` of the current value.
        get: fn(&Options) -> Option<usize>,
        /// Stores the value of an index in `values`.
        set: fn(&mut Options, usize),
    },
    /// `string`, or `filename` when `filename` is set: the setter reads the text as sent (GUIs
    /// send `<empty>` for an empty one), and may refuse it or report.
    Text {
        /// Declared as `filename` (GUIs offer a file dialog) rather than `string`.
        filename: bool,
        /// Reads the text from the options (empty for none).
        get: fn(&Options) -> &str,
        /// Stores the text as sent, or refuses it; may return a line for the GUI.
        set: fn(&mut Options, &str) -> Reply,
    },
}

/// One USI option.
pub struct Spec {
    /// Its name, as `usi` declares it and `setoption` and `getoption` match it (case-sensitively).
    pub name: &'static str,
    /// Another name `setoption` accepts for it (`getoption` does not).
    pub alias: Option<&'static str>,
    /// An evaluation option: the material build has none; once a check or spin one is set, the
    /// GUI is told what the engine evaluates with (a string one's setter says so itself).
    pub evaluation: bool,
    /// Its type, range or values, setter and getter.
    pub kind: Kind,
}

// The table's shorthands, one per USI type.

/// An option named `name` of `kind`: no alias, not an evaluation option.
const fn option(name: &'static str, kind: Kind) -> Spec {
    Spec { name, alias: None, evaluation: false, kind }
}

/// A `check` option.
const fn check(name: &'static str, get: fn(&Options) -> bool, set: fn(&mut Options, bool)) -> Spec {
    option(name, Kind::Check { get, set })
}

/// A `spin` option from `min` to `max`.
const fn spin(
    name: &'static str,
    min: i64,
    max: i64,
    get: fn(&Options) -> i64,
    set: fn(&mut Options, i64),
) -> Spec {
    option(name, Kind::Spin { min, max, get, set })
}

/// A `combo` option of `values`.
const fn combo(
    name: &'static str,
    values: &'static [&'static str],
    get: fn(&Options) -> Option<usize>,
    set: fn(&mut Options, usize),
) -> Spec {
    option(name, Kind::Combo { values, get, set })
}

/// A `string` option.
const fn string(name: &'static str, get: fn(&Options) -> &str, set: fn(&mut Options, &str) -> Reply) -> Spec {
    option(name, Kind::Text { filename: false, get, set })
}

/// A `filename` option: a string that GUIs let the user pick with a file dialog.
const fn filename(
    name: &'static str,
    get: fn(&Options) -> &str,
    set: fn(&mut Options, &str) -> Reply,
) -> Spec {
    option(name, Kind::Text { filename: true, get, set })
}

/// The names of a combo's `(name, value)` pairs, in their order.
const fn names<T, const N: usize>(pairs: &[(&'static str, T); N]) -> [&'static str; N] {
    let mut names = [""; N];
    let mut i = 0;
    while i < N {
        names[i] = pairs[i].0;
        i += 1;
    }
    names
}

/// `EnteringKingRule`'s values, YaneuraOu's names.
const RULES: [(&str, EnteringKingRule); 6] = [
    ("NoEnteringKing", EnteringKingRule::None),
    ("CSARule24", EnteringKingRule::Csa24),
    ("CSARule24H", EnteringKingRule::Csa24H),
    ("CSARule27", EnteringKingRule::Csa27),
    ("CSARule27H", EnteringKingRule::Csa27H),
    ("TryRule", EnteringKingRule::Try),
];
/// `EnteringKingRule`'s combo values.
const RULE_NAMES: [&str; 6] = names(&RULES);

/// `UCI_Variant`'s values (the option name Fairy-Stockfish and the GUIs that host it use).
const VARIANTS: [(&str, Variant); 2] = [("shogi", Variant::Shogi), ("dobutsu", Variant::Dobutsu)];
/// `UCI_Variant`'s combo values.
const VARIANT_NAMES: [&str; 2] = names(&VARIANTS);

/// `DobutsuRepetition`'s values: the occurrence of a position that draws (Fourfold as
/// Fairy-Stockfish rules, Threefold as the official rules, Off as Tanaka's analysis).
const REPETITIONS: [(&str, u32); 3] = [("Fourfold", 4), ("Threefold", 3), ("Off", 0)];
/// `DobutsuRepetition`'s combo values.
const REPETITION_NAMES: [&str; 3] = names(&REPETITIONS);

/// Every option, in the order `usi` declares them. The book's and the analysis options' ranges
/// are YaneuraOu's.
pub static OPTIONS: &[Spec] = &[
    spin("USI_Hash", 1, 32_768, |o| o.hash_mb as i64, |o, v| o.hash_mb = v as usize),
    check("USI_Ponder", |o| o.ponder, |o, v| o.ponder = v),
    spin("Threads", 1, 256, |o| o.threads as i64, |o, v| o.threads = v as usize),
    spin("MultiPV", 1, 600, |o| o.multipv as i64, |o, v| o.multipv = v as usize),
    spin("SkillLevel", 0, skill::MAX_LEVEL as i64, |o| o.skill_level as i64, |o, v| o.skill_level = v as u32),
    check("UCI_LimitStrength", |o| o.limit_strength, |o, v| o.limit_strength = v),
    spin(
        "UCI_Elo",
        skill::ELO_MIN as i64,
        skill::ELO_MAX as i64,
        |o| o.uci_elo as i64,
        |o, v| o.uci_elo = v as i32,
    ),
    spin("SkillSeed", 0, u32::MAX as i64, |o| o.skill_seed as i64, |o, v| o.skill_seed = v as u64),
    spin("NetworkDelay", 0, 10_000, |o| o.network_delay as i64, |o, v| o.network_delay = v as u64),
    spin(
        "MinimumThinkingTime",
        0,
        600_000,
        |o| o.minimum_thinking_time as i64,
        |o, v| o.minimum_thinking_time = v as u64,
    ),
    spin("MaxMovesToDraw", 0, 100_000, |o| o.max_moves_to_draw as i64, |o, v| o.max_moves_to_draw = v as u32),
    combo(
        "EnteringKingRule",
        &RULE_NAMES,
        |o| RULES.iter().position(|r| r.1 == o.entering_king_rule),
        |o, i| o.entering_king_rule = RULES[i].1,
    ),
    spin("ResignValue", 0, 99_999, |o| o.resign_value as i64, |o, v| o.resign_value = v as i32),
    spin("DrawValue", -30_000, 30_000, |o| o.draw_value as i64, |o, v| o.draw_value = v as i32),
    combo(
        "SearchAlgorithm",
        &SearchAlgorithm::NAMES,
        |o| Some(o.algorithm as usize),
        |o, i| {
            o.algorithm =
                SearchAlgorithm::parse(SearchAlgorithm::NAMES[i]).expect("every name in NAMES parses")
        },
    ),
    Spec {
        alias: Some("USI_Variant"),
        ..combo(
            "UCI_Variant",
            &VARIANT_NAMES,
            |o| VARIANTS.iter().position(|v| v.1 == o.variant),
            |o, i| o.variant = VARIANTS[i].1,
        )
    },
    filename("DobutsuTable", |o| &o.dobutsu_table, |o, v| store(&mut o.dobutsu_table, v)),
    combo(
        "DobutsuRepetition",
        &REPETITION_NAMES,
        |o| REPETITIONS.iter().position(|r| r.1 == o.dobutsu_repetition),
        |o, i| o.dobutsu_repetition = REPETITIONS[i].1,
    ),
    check("USI_OwnBook", |o| o.own_book, |o, v| o.own_book = v),
    filename("BookFile", |o| &o.book_file, |o, v| store(&mut o.book_file, v)),
    string("BookDir", |o| &o.book_dir, |o, v| store(&mut o.book_dir, v)),
    spin("BookMoves", 0, 10_000, |o| o.book.max_ply as i64, |o, v| o.book.max_ply = v as u32),
    spin("BookIgnoreRate", 0, 100, |o| o.book.ignore_rate as i64, |o, v| o.book.ignore_rate = v as u32),
    spin("BookEvalDiff", 0, 99_999, |o| o.book.eval_diff as i64, |o, v| o.book.eval_diff = v as i32),
    spin(
        "BookEvalBlackLimit",
        -99_999,
        99_999,
        |o| o.book.black_limit as i64,
        |o, v| o.book.black_limit = v as i32,
    ),
    spin(
        "BookEvalWhiteLimit",
        -99_999,
        99_999,
        |o| o.book.white_limit as i64,
        |o, v| o.book.white_limit = v as i32,
    ),
    spin("BookDepthLimit", 0, 99_999, |o| o.book.depth_limit as i64, |o, v| o.book.depth_limit = v as i32),
    check("BookOnTheFly", |o| o.book_on_the_fly, |o, v| o.book_on_the_fly = v),
    check("ConsiderBookMoveCount", |o| o.book.consider_count, |o, v| o.book.consider_count = v),
    spin("BookPvMoves", 1, 246, |o| o.book.pv_moves as i64, |o, v| o.book.pv_moves = v as usize),
    check("IgnoreBookPly", |o| o.ignore_book_ply, |o, v| o.ignore_book_ply = v),
    check("FlippedBook", |o| o.book.flipped, |o, v| o.book.flipped = v),
    spin("PvInterval", 0, 100_000_000, |o| o.pv_interval as i64, |o, v| o.pv_interval = v as u64),
    check("ConsiderationMode", |o| o.consideration_mode, |o, v| o.consideration_mode = v),
    check("OutputFailLHPV", |o| o.output_fail_lh_pv, |o, v| o.output_fail_lh_pv = v),
    spin("DepthLimit", 0, i32::MAX as i64, |o| o.depth_limit as i64, |o, v| o.depth_limit = v as u64),
    spin("NodesLimit", 0, i64::MAX, |o| o.nodes_limit as i64, |o, v| o.nodes_limit = v as u64),
    Spec { evaluation: true, ..string("EvalFile", |o| &o.eval_file, Options::set_eval_file) },
    Spec { evaluation: true, ..string("EvalDir", |o| &o.eval_dir, Options::set_eval_dir) },
    Spec {
        evaluation: true,
        ..spin(
            "FV_SCALE",
            nnue::halfkp::FV_SCALE_RANGE.0 as i64,
            nnue::halfkp::FV_SCALE_RANGE.1 as i64,
            |o| o.fv_scale as i64,
            |o, v| o.fv_scale = v as i32,
        )
    },
    Spec { evaluation: true, ..check("UseNNUE", |o| o.use_nnue, |o, v| o.use_nnue = v) },
];

/// Sets a string option that is only stored (`<empty>`: empty).
fn store(field: &mut String, value: &str) -> Reply {
    *field = string_value(value);
    Ok(None)
}

/// The options this build declares, in their order.
pub fn declared() -> impl Iterator<Item = &'static Spec> {
    OPTIONS.iter().filter(|o| o.in_this_build())
}

/// A spin option's `usi` line (a `tune` build's search parameters are declared with it too).
pub fn spin_declaration(name: &str, default: &str, min: i64, max: i64) -> String {
    format!("option name {name} type spin default {default} min {min} max {max}")
}

/// A combo's values as a refusal lists them: a short list as a phrase, a long one as a list.
fn alternatives(values: &[&str]) -> String {
    match values {
        [rest @ .., last] if values.len() <= 3 => format!("{} or {last}", rest.join(", ")),
        _ => format!("one of {}", values.join(", ")),
    }
}

impl Spec {
    /// Whether this build has the option: the material build has no evaluation options.
    pub fn in_this_build(&self) -> bool {
        !(self.evaluation && cfg!(feature = "material"))
    }

    /// The option's value in `o`, as `setoption` would set it (`None`: a combo's value is none
    /// of its values).
    pub fn value(&self, o: &Options) -> Option<String> {
        Some(match self.kind {
            Kind::Check { get, .. } => get(o).to_string(),
            Kind::Spin { get, .. } => get(o).to_string(),
            Kind::Combo { values, get, .. } => values[get(o)?].to_string(),
            Kind::Text { get, .. } => {
                let text = get(o);
                if text.is_empty() { "<empty>" } else { text }.to_string()
            }
        })
    }

    /// The `option ...` line `usi` answers, with the option's value in `defaults` as its default.
    pub fn declaration(&self, defaults: &Options) -> String {
        let name = self.name;
        let default = self.value(defaults).expect("every option's default is one of its values");
        match self.kind {
            Kind::Check { .. } => format!("option name {name} type check default {default}"),
            Kind::Spin { min, max, .. } => spin_declaration(name, &default, min, max),
            Kind::Combo { values, .. } => {
                let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            Kind::Text { filename, .. } => {
                let kind = if filename { "filename" } else { "string" };
                // The line is split at spaces: a default with one could not be read back.
                let default = if default.contains(' ') { "<empty>" } else { &default };
                format!("option name {name} type {kind} default {default}")
            }
        }
    }

    /// Applies `setoption name <name> value <value>` (`name`: as sent, the alias maybe); on
    /// error the old value is kept.
    pub fn apply(&self, o: &mut Options, name: &str, value: &str) -> Reply {
        if !self.in_this_build() {
            return Err(format!("option {name}: the material build evaluates by material alone"));
        }
        match self.kind {
            Kind::Check { set, .. } => set(o, parse_check(name, value)?),
            Kind::Spin { min, max, set, .. } => set(o, parse_spin(name, value, min, max)?),
            Kind::Combo { values, set, .. } => {
                let index = values.iter().position(|v| *v == value);
                let refusal = || format!("option {name}: '{value}' is not {}", alternatives(values));
                set(o, index.ok_or_else(refusal)?)
            }
            Kind::Text { set, .. } => return set(o, value),
        }
        Ok(self.evaluation.then(|| o.evaluator_report()))
    }
}

/// A `check` value: `true` or `false`; otherwise the refusal, naming the option.
fn parse_check(name: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("option {name}: '{value}' is not true or false")),
    }
}

/// A `spin` value: a whole number from `min` to `max`; otherwise the refusal, naming the option.
fn parse_spin(name: &str, value: &str, min: i64, max: i64) -> Result<i64, String> {
    match value.parse::<i64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!("option {name}: '{value}' is not a number from {min} to {max}")),
    }
}
