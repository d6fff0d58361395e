//! An SFEN's twins under the symmetries of shogi: the colour-swapped rotation and the left-right
//! mirror, built on the text so that they do not depend on the engine's own square arithmetic.

// Each test crate includes this file and uses a different part of it.
#![allow(dead_code)]

/// The board of an SFEN as 9 ranks of 9 tokens ("" for empty, "+p", "K", ...), files 9 to 1.
fn grid(board: &str) -> Vec<Vec<String>> {
    board
        .split('/')
        .map(|rank| {
            let mut row = Vec::new();
            let mut plus = false;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    row.extend(std::iter::repeat_n(String::new(), d as usize));
                } else if c == '+' {
                    plus = true;
                } else {
                    row.push(if plus { format!("+{c}") } else { c.to_string() });
                    plus = false;
                }
            }
            row
        })
        .collect()
}

/// The SFEN board field of 9 ranks of 9 tokens, as `grid` reads them.
pub fn ungrid(g: &[Vec<String>]) -> String {
    let ranks: Vec<String> = g
        .iter()
        .map(|row| {
            let mut s = String::new();
            let mut empty = 0;
            for t in row {
                if t.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                s.push_str(t);
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    ranks.join("/")
}

fn swap_case(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
        .collect()
}

/// The board rotated 180 degrees with every piece, both hands and the side to move given to the
/// other colour.
pub fn colour_swapped(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let g = grid(f[0]);
    let rotated: Vec<Vec<String>> =
        (0..9).map(|r| (0..9).map(|c| swap_case(&g[8 - r][8 - c])).collect()).collect();
    let side = if f[1] == "b" { "w" } else { "b" };
    let hand = if f[2] == "-" { "-".to_string() } else { swap_case(f[2]) };
    format!("{} {} {} {}", ungrid(&rotated), side, hand, f[3])
}

/// The board mirrored left to right (file f to file 10 - f); colours and side unchanged.
pub fn file_mirrored(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let g = grid(f[0]);
    let mirrored: Vec<Vec<String>> = (0..9).map(|r| (0..9).map(|c| g[r][8 - c].clone()).collect()).collect();
    format!("{} {} {} {}", ungrid(&mirrored), f[1], f[2], f[3])
}
