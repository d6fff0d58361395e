//! `setoption name UCI_Variant value dobutsu`: the protocol on the 3×4 board. `position`, `go`
//! (every form), `go perft`, `go mate`, `d`, `stop` and `ponderhit` work as for shogi; the
//! player (`dobutsu::player`) chooses the moves and runs as a job like the shogi search, and
//! every `go` gets one legal `bestmove`. This file only draws the board for `d`.

use crate::dobutsu::{Kind, Position};
use crate::types::Color;

/// `d`: the board as the first player sees it, hands, side to move and SFEN.
pub fn diagram(p: &Position) -> String {
    let mut s = String::from("  3  2  1\n");
    for rank in 0..4 {
        for file in 0..3 {
            let cell = match p.piece_at(rank * 3 + file) {
                None => " . ".to_string(),
                Some((c, k)) => {
                    let letter = if k == Kind::Hen { "+C".to_string() } else { k.letter().to_string() };
                    let text = if c == Color::Black { letter } else { letter.to_lowercase() };
                    format!("{text:>3}")
                }
            };
            s.push_str(&cell);
        }
        s.push_str(&format!("  {}\n", (b'a' + rank as u8) as char));
    }
    s.push_str(&format!("Sfen: {}\nStatus: {:?}", p.to_sfen(), p.status()));
    s
}
