//! A text diagram of a position, for the `d` command.

use super::Position;
use crate::types::{Color, PieceKind, Square};
use std::fmt::Write;

/// One hand as the diagram writes it: ` R G2 P3`, or ` -` when empty.
fn hand_text(pos: &Position, c: Color) -> String {
    let mut s = String::new();
    for k in PieceKind::HAND_SFEN_ORDER {
        let n = pos.hand(c).count(k);
        if n > 0 {
            let _ = write!(s, " {}{}", k.base_letter(), if n > 1 { n.to_string() } else { String::new() });
        }
    }
    if s.is_empty() {
        s.push_str(" -");
    }
    s
}

impl Position {
    /// The board as text: White's hand, ranks a..i with files 9..1, Black's hand, then facts.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "White hand:{}", hand_text(self, Color::White));
        out.push_str("   9  8  7  6  5  4  3  2  1\n");
        out.push_str(" +---------------------------+\n");
        for rank in 0..9u8 {
            out.push_str(" |");
            for file in (0..9u8).rev() {
                let p = self.piece_on(Square::new(file, rank));
                if p.is_none() {
                    out.push_str(" . ");
                } else {
                    let s = p.sfen();
                    let _ = write!(out, "{:>3}", s);
                }
            }
            let _ = writeln!(out, "| {}", (b'a' + rank) as char);
        }
        out.push_str(" +---------------------------+\n");
        let _ = writeln!(out, "Black hand:{}", hand_text(self, Color::Black));
        let side = match self.side_to_move() {
            Color::Black => "black",
            Color::White => "white",
        };
        let _ = writeln!(out, "Side to move: {side}");
        let _ = writeln!(out, "Sfen: {}", self.to_sfen());
        let _ = writeln!(out, "Key: {:016x}", self.key());
        let _ = write!(out, "In check: {}", if self.in_check() { "yes" } else { "no" });
        out
    }
}
