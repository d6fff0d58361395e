//! The tuned weights on disk: `NAME = value` lines (`PAWN = 90`, `GOLD_GUARD[1] = 40`) with `#`
//! comments, and the same numbers as Rust declarations to paste over those of `params.rs`.

use crate::adam::step_scales;
use shomei::eval::trace::{group_weights, names, GROUPS};
use std::path::Path;

/// The kinds of a 15-entry table by kind index, as `params.rs` comments them.
const KINDS: [&str; 15] = [
    "unused",
    "pawn",
    "lance",
    "knight",
    "silver",
    "bishop",
    "rook",
    "gold",
    "king",
    "tokin",
    "promoted lance",
    "promoted knight",
    "promoted silver",
    "horse",
    "dragon",
];

/// The tables `params.rs` writes one entry a line, each commented with its kind.
const ONE_ENTRY_A_LINE: [&str; 2] = ["ATTACK_WEIGHT", "ATTACKER_UNITS"];

/// `weights` (integers, in vector order) as `NAME = value` lines after `header` as comments.
pub fn params_text(weights: &[f64], header: &[String]) -> String {
    let mut text: String = header.iter().map(|h| format!("# {h}\n")).collect();
    for (name, w) in names().iter().zip(weights) {
        text.push_str(&format!("{name} = {}\n", w.round() as i64));
    }
    text
}

/// Reads `NAME = value` lines (blank lines and `#` comments skipped).
pub fn parse_params(text: &str) -> Result<Vec<(String, i64)>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, value) = line.split_once('=').ok_or_else(|| format!("line {}: no '='", n + 1))?;
        let value = value
            .trim()
            .parse()
            .map_err(|_| format!("line {}: '{}' is not an integer", n + 1, value.trim()))?;
        out.push((name.trim().to_string(), value));
    }
    Ok(out)
}

/// `weights` (integers) as the declarations of `params.rs`, after `header` as comments.
pub fn rust_snippet(weights: &[f64], header: &[String]) -> String {
    let mut text: String = header.iter().map(|h| format!("// {h}\n")).collect();
    for (g, group) in GROUPS.iter().enumerate() {
        let values: Vec<i64> = weights[group_weights(g)].iter().map(|w| w.round() as i64).collect();
        let (name, ty) = (group.name, group.rust_type);
        if !group.array {
            text.push_str(&format!("pub const {name}: {ty} = {};\n", values[0]));
        } else if ONE_ENTRY_A_LINE.contains(&name) {
            text.push_str(&format!("pub const {name}: [{ty}; {}] = [\n", values.len()));
            for (v, kind) in values.iter().zip(KINDS) {
                text.push_str(&format!("    {v}, // {kind}\n"));
            }
            text.push_str("];\n");
        } else {
            let list: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            text.push_str(&format!("pub const {name}: [{ty}; {}] = [{}];\n", values.len(), list.join(", ")));
        }
    }
    text
}

/// Writes `params_text` to `out` and `rust_snippet` to `snippet`.
pub fn write(out: &Path, snippet: &Path, weights: &[f64], header: &[String]) -> Result<(), String> {
    for (path, text) in [(out, params_text(weights, header)), (snippet, rust_snippet(weights, header))] {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// The `count` weights that moved most from `before` to `after`, measured in their step scales
/// (hundredths of their group's size), as `NAME: before -> after` lines.
pub fn largest_changes(before: &[f64], after: &[f64], count: usize) -> Vec<String> {
    let scale = step_scales(before.len());
    let names = names();
    let mut moved: Vec<(f64, usize)> = (0..before.len())
        .filter(|&i| after[i] != before[i])
        .map(|i| ((after[i] - before[i]).abs() / scale[i], i))
        .collect();
    moved.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    moved
        .iter()
        .take(count)
        .map(|&(size, i)| format!("{}: {} -> {} ({size:.0})", names[i], before[i], after[i]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shomei::eval::trace::{current, WEIGHT_COUNT};

    #[test]
    fn the_text_reads_back() {
        let w = current();
        let parsed = parse_params(&params_text(&w, &["a header".into()])).unwrap();
        assert_eq!(parsed.len(), WEIGHT_COUNT);
        for ((name, v), (n, &w)) in parsed.iter().zip(names().iter().zip(&w)) {
            assert_eq!((name, *v), (n, w as i64));
        }
        assert!(parse_params("PAWN = x").is_err());
        assert!(parse_params("PAWN 90").is_err());
    }

    #[test]
    fn the_snippet_declares_what_params_rs_declares() {
        let snippet = rust_snippet(&current(), &[]);
        assert!(snippet.contains("pub const ATTACKER_UNITS: [i32; 15] = [\n    0, // unused\n"), "{snippet}");
        let declarations = snippet.lines().filter(|l| l.starts_with("pub const")).count();
        assert_eq!(declarations, GROUPS.len());
        // Every one-line declaration is word for word the one in params.rs (or, for the piece
        // values, in the rules' material.rs, which params.rs names).
        let source =
            [include_str!("../../../src/eval/params.rs"), include_str!("../../../src/shogi/material.rs")]
                .concat();
        for line in snippet.lines().filter(|l| l.starts_with("pub const") && l.ends_with(';')) {
            assert!(source.contains(line), "params.rs has no line {line}");
        }
    }
}
