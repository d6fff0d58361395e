//! SFEN and USI move text for Dobutsu, compatible with Fairy-Stockfish's `dobutsu` in USI mode.
//!
//! - Position: `gle/1c1/1C1/ELG b - 1`: ranks `a` to `d` from the top, each from file 3 to file
//!   1; L lion, G giraffe, E elephant, C chick, `+C` hen; upper case Black (first player), lower
//!   case White; side `b`/`w`; hand as in shogi SFEN (`-`, or e.g. `2Cg`); the ply number.
//! - Squares: file digit 1–3 counted from the right, rank letter a–d from the top (Black's
//!   Lion starts on `2d`).
//! - Moves: `2c2b`; a Chick that reaches the far rank promotes automatically, and it is written
//!   with a `+` suffix (`2b2a+`) as Fairy-Stockfish writes its promotions; on input the `+` may
//!   be left out. Drops: `C*2b`, `E*3c`, `G*1a`.

use super::movegen::legal_moves;
use super::position::{cell, Kind, Move, Position, FILES, RANKS, SQUARES};
use crate::types::Color;
use std::fmt;

/// The start position in SFEN.
pub const START_SFEN: &str = "gle/1c1/1C1/ELG b - 1";

/// Why an SFEN string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// Fewer than three fields (board, side, hand).
    MissingField(&'static str),
    /// More than four fields.
    TrailingText(String),
    /// The board does not have four ranks.
    RankCount(usize),
    /// A rank does not cover exactly three files.
    RankWidth {
        /// The rank's letter.
        rank: char,
        /// How many files it covers.
        width: usize,
    },
    /// A letter that is no Dobutsu piece.
    BadPiece(char),
    /// A `+` not followed by a chick.
    BadPromotion,
    /// The side to move is not `b` or `w`.
    BadSide(String),
    /// The hand field cannot be read.
    BadHand(String),
    /// The ply number is not a positive integer.
    BadPly(String),
    /// Each side must have exactly one Lion on the board.
    LionCount {
        /// The side.
        color: Color,
        /// Its Lions on the board.
        count: usize,
    },
    /// More than two pieces of one kind (Chick and Hen together) on board and in hands.
    TooMany(Kind),
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::MissingField(what) => write!(f, "missing {what} field"),
            SfenError::TrailingText(t) => write!(f, "unexpected text after the ply number: '{t}'"),
            SfenError::RankCount(n) => write!(f, "the board has {n} ranks, expected 4"),
            SfenError::RankWidth { rank, width } => {
                write!(f, "rank {rank} covers {width} files, expected 3")
            }
            SfenError::BadPiece(c) => write!(f, "'{c}' is not a dobutsu piece (L G E C, +C)"),
            SfenError::BadPromotion => write!(f, "'+' must be followed by a chick (C or c)"),
            SfenError::BadSide(s) => write!(f, "side to move '{s}' is not b or w"),
            SfenError::BadHand(s) => write!(f, "cannot read the hand '{s}'"),
            SfenError::BadPly(s) => write!(f, "ply number '{s}' is not a positive integer"),
            SfenError::LionCount { color, count } => {
                write!(f, "{color:?} has {count} lions on the board, expected 1")
            }
            SfenError::TooMany(k) => write!(f, "more than two pieces of kind {k:?}"),
        }
    }
}

impl std::error::Error for SfenError {}

/// The owner (by case) and kind of an SFEN piece letter; `None` for a letter that is no piece.
fn letter_kind(c: char) -> Option<(Color, Kind)> {
    let color = if c.is_ascii_uppercase() { Color::Black } else { Color::White };
    let kind = match c.to_ascii_uppercase() {
        'L' => Kind::Lion,
        'G' => Kind::Giraffe,
        'E' => Kind::Elephant,
        'C' => Kind::Chick,
        _ => return None,
    };
    Some((color, kind))
}

/// The letter of a piece as written in SFEN (without the `+`).
fn piece_letter(color: Color, kind: Kind) -> char {
    let c = kind.letter();
    if color == Color::White {
        c.to_ascii_lowercase()
    } else {
        c
    }
}

impl Position {
    /// Parses an SFEN (`startpos` is accepted too); the ply number may be left out.
    pub fn from_sfen(text: &str) -> Result<Position, SfenError> {
        let text = text.trim();
        if text == "startpos" {
            return Ok(Position::startpos());
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        let board = fields.first().ok_or(SfenError::MissingField("board"))?;
        let side = fields.get(1).ok_or(SfenError::MissingField("side to move"))?;
        let hand = fields.get(2).ok_or(SfenError::MissingField("hand"))?;
        if fields.len() > 4 {
            return Err(SfenError::TrailingText(fields[4..].join(" ")));
        }
        let mut pos = Position::empty();
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != RANKS {
            return Err(SfenError::RankCount(ranks.len()));
        }
        for (r, text) in ranks.iter().enumerate() {
            let rank_char = (b'a' + r as u8) as char;
            let mut col = 0usize;
            let mut promoted = false;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if promoted {
                        return Err(SfenError::BadPromotion);
                    }
                    col += d as usize;
                } else if ch == '+' {
                    if promoted {
                        return Err(SfenError::BadPromotion);
                    }
                    promoted = true;
                } else {
                    let (color, kind) = letter_kind(ch).ok_or(SfenError::BadPiece(ch))?;
                    let kind = if promoted {
                        if kind != Kind::Chick {
                            return Err(SfenError::BadPromotion);
                        }
                        Kind::Hen
                    } else {
                        kind
                    };
                    promoted = false;
                    if col >= FILES {
                        return Err(SfenError::RankWidth { rank: rank_char, width: col + 1 });
                    }
                    pos.board[r * FILES + col] = cell(kind, color);
                    col += 1;
                }
            }
            if promoted {
                return Err(SfenError::BadPromotion);
            }
            if col != FILES {
                return Err(SfenError::RankWidth { rank: rank_char, width: col });
            }
        }
        pos.side = match *side {
            "b" => Color::Black,
            "w" => Color::White,
            s => return Err(SfenError::BadSide(s.to_string())),
        };
        if *hand != "-" {
            let mut count: Option<u32> = None;
            for ch in hand.chars() {
                if let Some(d) = ch.to_digit(10) {
                    count = Some(count.unwrap_or(0) * 10 + d);
                    if count > Some(2) {
                        return Err(SfenError::BadHand(hand.to_string()));
                    }
                    continue;
                }
                let (color, kind) = letter_kind(ch).ok_or_else(|| SfenError::BadHand(hand.to_string()))?;
                let hi = kind.hand_index().ok_or_else(|| SfenError::BadHand(hand.to_string()))?;
                let n = count.take().unwrap_or(1);
                if n == 0 {
                    return Err(SfenError::BadHand(hand.to_string()));
                }
                pos.hands[color.index()][hi] += n as u8;
            }
            if count.is_some() {
                return Err(SfenError::BadHand(hand.to_string()));
            }
        }
        if let Some(ply) = fields.get(3) {
            pos.ply = match ply.parse::<u32>() {
                Ok(n) if n > 0 => n,
                _ => return Err(SfenError::BadPly(ply.to_string())),
            };
        }
        for color in Color::ALL {
            let lions = pos.board.iter().filter(|&&c| c == cell(Kind::Lion, color)).count();
            if lions != 1 {
                return Err(SfenError::LionCount { color, count: lions });
            }
        }
        for kind in Kind::HAND {
            let hi = kind.hand_index().unwrap_or(0);
            let on_board = (0..SQUARES)
                .filter(|&sq| pos.piece_at(sq).is_some_and(|(_, k)| k.unpromoted() == kind))
                .count();
            if on_board + (pos.hands[0][hi] + pos.hands[1][hi]) as usize > 2 {
                return Err(SfenError::TooMany(kind));
            }
        }
        Ok(pos)
    }

    /// The position as SFEN, e.g. `gle/1c1/1C1/ELG b - 1`.
    pub fn to_sfen(&self) -> String {
        let mut s = String::new();
        for r in 0..RANKS {
            if r > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for f in 0..FILES {
                match self.piece_at(r * FILES + f) {
                    None => empty += 1,
                    Some((color, kind)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        if kind == Kind::Hen {
                            s.push('+');
                        }
                        s.push(piece_letter(color, kind));
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
        }
        s.push(' ');
        s.push(self.side.sfen_char());
        s.push(' ');
        let mut hand = String::new();
        // Shogi SFEN order: Black's pieces first, larger pieces first.
        for color in Color::ALL {
            for kind in [Kind::Giraffe, Kind::Elephant, Kind::Chick] {
                let n = self.hand_count(color, kind);
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                if n > 0 {
                    hand.push(piece_letter(color, kind));
                }
            }
        }
        s.push_str(if hand.is_empty() { "-" } else { &hand });
        s.push(' ');
        s.push_str(&self.ply.to_string());
        s
    }
}

impl fmt::Display for Position {
    /// A small diagram (rank a at the top) followed by the SFEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  3  2  1")?;
        for r in 0..RANKS {
            write!(f, " ")?;
            for c in 0..FILES {
                match self.piece_at(r * FILES + c) {
                    None => write!(f, " . ")?,
                    Some((color, kind)) => {
                        let p = if kind == Kind::Hen { '+' } else { ' ' };
                        write!(f, "{p}{} ", piece_letter(color, kind))?
                    }
                }
            }
            writeln!(f, " {}", (b'a' + r as u8) as char)?;
        }
        write!(f, "sfen {}", self.to_sfen())
    }
}

/// The USI name of a square, e.g. `2d`.
pub fn square_name(sq: usize) -> String {
    let file = FILES - sq % FILES;
    let rank = (b'a' + (sq / FILES) as u8) as char;
    format!("{file}{rank}")
}

/// The square of a USI name such as `2d` (its first two bytes); `None` off the board.
fn parse_square(b: &[u8]) -> Option<usize> {
    let file = (b[0] as char).to_digit(10)? as usize;
    let rank = b[1].checked_sub(b'a')? as usize;
    if !(1..=FILES).contains(&file) || rank >= RANKS {
        return None;
    }
    Some(rank * FILES + FILES - file)
}

/// A move in USI notation: `2c2b`, `2b2a+` for a promoting Chick, `C*2b` for a drop.
pub fn move_to_usi(m: Move) -> String {
    if m.is_drop() {
        format!("{}*{}", m.kind.letter(), square_name(m.to as usize))
    } else {
        let plus = if m.promote { "+" } else { "" };
        format!("{}{}{plus}", square_name(m.from as usize), square_name(m.to as usize))
    }
}

/// Why a move string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `2c2b`, `2b2a+` or `C*2b`.
    Syntax(String),
    /// Well formed, but not legal in this position.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "'{s}' is not a dobutsu move (2c2b, 2b2a+, C*2b)"),
            MoveError::Illegal(s) => write!(f, "'{s}' is not legal in this position"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Parses a USI move and checks it is legal in `pos`. A promoting Chick move is accepted with
/// or without its `+`; a `+` on any other move is refused.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let syntax = || MoveError::Syntax(text.to_string());
    let b = text.as_bytes();
    let (from, to, drop_kind, plus) = match b.len() {
        4 if b[1] == b'*' => {
            let (_, kind) = letter_kind(b[0] as char).ok_or_else(syntax)?;
            if kind.hand_index().is_none() || b[0].is_ascii_lowercase() {
                return Err(syntax());
            }
            (Move::DROP, parse_square(&b[2..4]).ok_or_else(syntax)?, Some(kind), false)
        }
        4 | 5 => {
            if b.len() == 5 && b[4] != b'+' {
                return Err(syntax());
            }
            let from = parse_square(&b[0..2]).ok_or_else(syntax)?;
            let to = parse_square(&b[2..4]).ok_or_else(syntax)?;
            (from as u8, to, None, b.len() == 5)
        }
        _ => return Err(syntax()),
    };
    legal_moves(pos)
        .iter()
        .copied()
        .find(|m| {
            m.from == from
                && m.to as usize == to
                && drop_kind.is_none_or(|k| k == m.kind)
                && (!plus || m.promote)
        })
        .ok_or_else(|| MoveError::Illegal(text.to_string()))
}
