//! The module layers that `src/lib.rs` describes are the ones the code has: no module in `src/`
//! names a module listed above its own in that list.
//!
//! The list is read from the doc comment of `src/lib.rs` (its lines `//! - `module`, ...`), the
//! uses from every `crate::name` path in code (comments and strings aside). A file's unit tests
//! (from its first `#[cfg(test)]` on) may use anything: they are not part of the layering.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The layer of each module: 0 at the top of the list.
fn layers(lib: &str) -> HashMap<String, usize> {
    let mut layer_of = HashMap::new();
    for (layer, line) in lib.lines().filter_map(|l| l.strip_prefix("//! - ")).enumerate() {
        let names = line.split(':').next().unwrap_or("");
        for name in names.split(',') {
            let name = name.trim().trim_matches('`');
            assert!(!name.is_empty() && !name.contains(' '), "a layer line names `{line}`");
            layer_of.insert(name.to_string(), layer);
        }
    }
    layer_of
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of `text` before its unit tests, without comments and string literals.
fn code_before_tests(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let line = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        // Drop what stands between double quotes (strings may quote paths).
        let mut in_string = false;
        for c in line.chars() {
            if c == '"' {
                in_string = !in_string;
            } else if !in_string {
                code.push(c);
            }
        }
        code.push('\n');
    }
    code
}

/// The top-level modules `code` names with `crate::`, including `crate::{a, b::c}` groups.
fn modules_used(code: &str) -> Vec<String> {
    let mut used = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inside = &group[..group.find('}').unwrap_or(group.len())];
            for item in inside.split(',') {
                let name: String =
                    item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                used.push(name);
            }
        } else {
            used.push(rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect());
        }
    }
    used.retain(|n| !n.is_empty() && n.chars().next().is_some_and(|c| c.is_lowercase()));
    used
}

#[test]
fn no_module_uses_a_module_above_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(root.join("lib.rs")).expect("src/lib.rs");
    let layer_of = layers(&lib);
    assert!(layer_of.len() >= 10, "src/lib.rs lists the layers: {layer_of:?}");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut violations = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&root).expect("below src/");
        let top = relative.components().next().expect("a path").as_os_str().to_string_lossy();
        let module = top.trim_end_matches(".rs").to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let Some(&own) = layer_of.get(&module) else {
            violations.push(format!("{}: module `{module}` is not in src/lib.rs's list", relative.display()));
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("a source file");
        for used in modules_used(&code_before_tests(&text)) {
            match layer_of.get(&used) {
                Some(&layer) if layer < own => violations
                    .push(format!("{}: `{module}` uses `{used}`, a layer above it", relative.display())),
                Some(_) => {}
                None => {
                    violations.push(format!("{}: uses `crate::{used}`, not in the list", relative.display()))
                }
            }
        }
    }
    violations.sort();
    violations.dedup();
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn the_checker_sees_grouped_and_plain_paths_but_not_comments_or_tests() {
    let code = code_before_tests(
        "use crate::{eval::Value, shogi};\nlet x = crate::search::MATE; // crate::usi\nlet s = \"crate::book\";\n#[cfg(test)]\nuse crate::bench;",
    );
    assert_eq!(modules_used(&code), ["eval", "shogi", "search"]);
}
