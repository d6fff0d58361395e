//! SFEN reading and writing, and USI `position` arguments (`startpos|sfen ... moves ...`).

use super::attacks::masks;
use super::Position;
use crate::types::{Color, Hand, Move, Piece, PieceKind, Square};
use std::fmt;

/// The initial position.
pub const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Why an SFEN string does not describe a valid position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// Not 3 or 4 space-separated fields.
    FieldCount(usize),
    /// The board does not have 9 ranks.
    RankCount(usize),
    /// A rank does not describe exactly 9 squares.
    RankWidth {
        /// The rank's letter.
        rank: char,
        /// How many squares it describes.
        width: usize,
    },
    /// A character that is no piece letter, digit or `+`.
    UnknownLetter(char),
    /// `+` before a piece that has no promoted form (gold, king), or before nothing.
    BadPromotion(String),
    /// More pieces of a kind (board and hands together) than a set holds.
    TooManyPieces {
        /// The kind's SFEN letter.
        kind: char,
        /// How many the position has.
        count: u32,
        /// How many a set holds.
        max: u32,
    },
    /// A side has no king or more than one.
    KingCount {
        /// The side.
        color: Color,
        /// Its kings.
        count: u32,
    },
    /// Neither side has a king (an empty board, for one): no game or problem has that.
    NoKing,
    /// A pawn, lance or knight on a square from which it could never move.
    DeadPiece {
        /// The piece, in SFEN.
        piece: String,
        /// Where it stands.
        square: Square,
    },
    /// Two unpromoted pawns of one side on a file.
    TwoPawnsOnFile {
        /// The side.
        color: Color,
        /// The file, as USI numbers it (1..=9).
        file: u8,
    },
    /// The side-to-move field is not `b` or `w`.
    BadSide(String),
    /// The hand field is malformed (reason).
    BadHand(String),
    /// The move number is not a non-negative integer.
    BadMoveNumber(String),
    /// The side that is not to move is in check: the previous move left its king en prise.
    SideNotToMoveInCheck,
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SfenError::*;
        match self {
            FieldCount(n) => write!(f, "expected 3 or 4 fields (board side hand [move number]), got {n}"),
            RankCount(n) => write!(f, "the board has {n} ranks, expected 9"),
            RankWidth { rank, width } => write!(f, "rank {rank} describes {width} squares, expected 9"),
            UnknownLetter(c) => write!(f, "unknown piece letter '{c}'"),
            BadPromotion(s) => write!(f, "'{s}' cannot be promoted"),
            TooManyPieces { kind, count, max } => {
                write!(f, "{count} pieces of kind {kind} but a set holds only {max}")
            }
            KingCount { color, count } => write!(f, "{color:?} has {count} kings, expected 1"),
            NoKing => write!(f, "neither side has a king"),
            DeadPiece { piece, square } => write!(f, "{piece} on {square} could never move"),
            TwoPawnsOnFile { color, file } => write!(f, "{color:?} has two pawns on file {file}"),
            BadSide(s) => write!(f, "side to move '{s}' is not 'b' or 'w'"),
            BadHand(s) => write!(f, "malformed hand: {s}"),
            BadMoveNumber(s) => write!(f, "malformed move number '{s}'"),
            SideNotToMoveInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for SfenError {}

/// Why a `position` command could not be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Neither `startpos` nor `sfen` followed `position`, or `moves` was misplaced.
    Syntax(String),
    /// The SFEN after `position sfen` is invalid.
    Sfen(SfenError),
    /// A move of the `moves` list is malformed or illegal.
    Move {
        /// Its place in the list, from 0.
        index: usize,
        /// The move as written.
        text: String,
        /// What is wrong with it.
        reason: MoveError,
    },
}

/// Why a move string is not a legal move here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not USI move syntax (`7g7f`, `8h2b+`, `P*5e`).
    Malformed,
    /// Well formed, but not a legal move in the position.
    Illegal,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Syntax(s) => write!(f, "{s}"),
            PositionError::Sfen(e) => write!(f, "invalid sfen: {e}"),
            PositionError::Move { index, text, reason } => {
                let why = match reason {
                    MoveError::Malformed => "is not a move in USI notation",
                    MoveError::Illegal => "is illegal in that position",
                };
                write!(f, "move {} '{}' {}", index + 1, text, why)
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// The board field: nine ranks separated by `/`, each exactly nine squares wide.
fn parse_board(field: &str) -> Result<[Piece; 81], SfenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 9 {
        return Err(SfenError::RankCount(ranks.len()));
    }
    let mut board = [Piece::NONE; 81];
    for (r, text) in ranks.iter().enumerate() {
        let rank_char = (b'a' + r as u8) as char;
        let mut squares = 0usize;
        let mut promoted = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if promoted || d == 0 {
                    return Err(if promoted {
                        SfenError::BadPromotion(format!("+{c}"))
                    } else {
                        SfenError::UnknownLetter(c)
                    });
                }
                squares += d as usize;
                continue;
            }
            if c == '+' {
                if promoted {
                    return Err(SfenError::BadPromotion("++".into()));
                }
                promoted = true;
                continue;
            }
            let kind = PieceKind::from_letter(c).ok_or(SfenError::UnknownLetter(c))?;
            let kind = if promoted {
                if !kind.can_promote() {
                    return Err(SfenError::BadPromotion(format!("+{c}")));
                }
                kind.promoted()
            } else {
                kind
            };
            promoted = false;
            if squares >= 9 {
                return Err(SfenError::RankWidth { rank: rank_char, width: squares + 1 });
            }
            let color = if c.is_ascii_uppercase() { Color::Black } else { Color::White };
            // Files run from 9 down to 1 across the rank.
            let sq = Square::new(8 - squares as u8, r as u8);
            board[sq.index()] = Piece::new(color, kind);
            squares += 1;
        }
        if promoted {
            return Err(SfenError::BadPromotion("+".into()));
        }
        if squares != 9 {
            return Err(SfenError::RankWidth { rank: rank_char, width: squares });
        }
    }
    Ok(board)
}

/// The hands field: `-`, or pieces with optional counts (up to 18), Black's in capitals.
fn parse_hands(field: &str) -> Result<[Hand; 2], SfenError> {
    let mut hands = [Hand::EMPTY; 2];
    if field == "-" {
        return Ok(hands);
    }
    let mut count: Option<u32> = None;
    for c in field.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if n > 18 || (count.is_none() && d == 0) {
                return Err(SfenError::BadHand(format!("count in '{field}' is out of range")));
            }
            count = Some(n);
            continue;
        }
        let kind = PieceKind::from_letter(c)
            .ok_or_else(|| SfenError::BadHand(format!("'{c}' is not a piece letter")))?;
        if kind == PieceKind::King {
            return Err(SfenError::BadHand("a king cannot be in hand".into()));
        }
        let color = if c.is_ascii_uppercase() { Color::Black } else { Color::White };
        let n = count.take().unwrap_or(1);
        let hand = &mut hands[color.index()];
        let total = hand.count(kind) + n;
        // The packed hand holds at most this many; the set-wide limit is checked later.
        if total > kind.set_count() {
            return Err(SfenError::TooManyPieces {
                kind: kind.base_letter(),
                count: total,
                max: kind.set_count(),
            });
        }
        hand.set(kind, total);
    }
    if count.is_some() {
        return Err(SfenError::BadHand(format!("'{field}' ends with a count and no piece")));
    }
    Ok(hands)
}

/// How strictly an SFEN is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SfenMode {
    /// A position that can arise in a game: one king each, no more pieces than the set holds.
    Game,
    /// A composed position (tsume problems, perft test positions): a side may lack its king and
    /// the board and hands may hold more pieces than one set, but one king at least is on the
    /// board. Every other rule still applies.
    Composed,
}

/// Checks a parsed position by the rules `mode` asks for: piece counts, kings, no piece left
/// without a move (a pawn, lance or knight too far forward), no two unpromoted pawns of one side
/// on a file.
fn validate(board: &[Piece; 81], hands: &[Hand; 2], mode: SfenMode) -> Result<(), SfenError> {
    let mut totals = [0u32; 15];
    let mut kings = [0u32; 2];
    for sq in Square::all() {
        let p = board[sq.index()];
        if p.is_none() {
            continue;
        }
        totals[p.kind().unpromoted().index()] += 1;
        if p.kind() == PieceKind::King {
            kings[p.color().index()] += 1;
        }
    }
    for h in hands {
        for k in PieceKind::HAND {
            totals[k.index()] += h.count(k);
        }
    }
    // Kings are checked per side below, which names the problem better.
    for k in PieceKind::HAND {
        let surplus_allowed = mode == SfenMode::Composed;
        if totals[k.index()] > k.set_count() && !surplus_allowed {
            return Err(SfenError::TooManyPieces {
                kind: k.base_letter(),
                count: totals[k.index()],
                max: k.set_count(),
            });
        }
    }
    // A problem may leave out the attacker's king, never both.
    if kings == [0, 0] && mode == SfenMode::Composed {
        return Err(SfenError::NoKing);
    }
    for c in Color::ALL {
        let missing_allowed = mode == SfenMode::Composed && kings[c.index()] == 0;
        if kings[c.index()] != 1 && !missing_allowed {
            return Err(SfenError::KingCount { color: c, count: kings[c.index()] });
        }
    }
    for sq in Square::all() {
        let p = board[sq.index()];
        if p.is_none() {
            continue;
        }
        let c = p.color();
        let dead = match p.kind() {
            PieceKind::Pawn | PieceKind::Lance => masks::last_rank(c).contains(sq),
            PieceKind::Knight => masks::last_two_ranks(c).contains(sq),
            _ => false,
        };
        if dead {
            return Err(SfenError::DeadPiece { piece: p.sfen(), square: sq });
        }
    }
    for c in Color::ALL {
        for file in 0..9u8 {
            let pawns = (0..9u8)
                .filter(|&r| board[Square::new(file, r).index()] == Piece::new(c, PieceKind::Pawn))
                .count();
            if pawns > 1 {
                return Err(SfenError::TwoPawnsOnFile { color: c, file: file + 1 });
            }
        }
    }
    Ok(())
}

/// The board field of a SFEN, with `piece_at` telling what stands on each square.
pub fn board_sfen(piece_at: impl Fn(Square) -> Piece) -> String {
    let mut s = String::with_capacity(96);
    for rank in 0..9u8 {
        if rank > 0 {
            s.push('/');
        }
        let mut empty = 0;
        for file in (0..9u8).rev() {
            let p = piece_at(Square::new(file, rank));
            if p.is_none() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
                empty = 0;
            }
            s.push_str(&p.sfen());
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
    }
    s
}

/// The hand field of a SFEN: Black's pieces in capitals, then White's in lower case, each side's
/// kinds in the canonical order R B G S N L P with the count before the letter when it is more
/// than one (`2Pb`); `-` when both hands are empty.
pub fn hands_sfen(black: Hand, white: Hand) -> String {
    let mut s = String::new();
    for (c, hand) in [(Color::Black, black), (Color::White, white)] {
        for k in PieceKind::HAND_SFEN_ORDER {
            let n = hand.count(k);
            if n == 0 {
                continue;
            }
            if n > 1 {
                s.push_str(&n.to_string());
            }
            let l = k.base_letter();
            s.push(if c == Color::Black { l } else { l.to_ascii_lowercase() });
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

impl Position {
    /// Parses the SFEN of a game position (`board side hand [move number]`), or `startpos`.
    pub fn from_sfen(sfen: &str) -> Result<Position, SfenError> {
        Position::from_sfen_mode(sfen, SfenMode::Game)
    }

    /// Parses an SFEN, checked as strictly as `mode` says.
    pub fn from_sfen_mode(sfen: &str, mode: SfenMode) -> Result<Position, SfenError> {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        if fields.len() == 1 && fields[0] == "startpos" {
            return Position::from_sfen(STARTPOS);
        }
        if fields.len() != 3 && fields.len() != 4 {
            return Err(SfenError::FieldCount(fields.len()));
        }
        let board = parse_board(fields[0])?;
        let side = match fields[1] {
            "b" => Color::Black,
            "w" => Color::White,
            s => return Err(SfenError::BadSide(s.into())),
        };
        let hands = parse_hands(fields[2])?;
        let start_ply = match fields.get(3) {
            None => 1,
            Some(s) => s.parse::<u32>().map_err(|_| SfenError::BadMoveNumber((*s).into()))?,
        };
        Position::from_checked_parts(board, hands, side, start_ply, mode)
    }

    /// The position with these pieces, hands, side to move and move number, checked as
    /// strictly as `mode` says, exactly as an SFEN saying the same is: for readers of other
    /// encodings (the packed positions of `training_data::packed`).
    pub(crate) fn from_checked_parts(
        board: [Piece; 81],
        hands: [Hand; 2],
        side: Color,
        start_ply: u32,
        mode: SfenMode,
    ) -> Result<Position, SfenError> {
        validate(&board, &hands, mode)?;
        let pos = Position::from_parts(board, hands, side, start_ply.max(1));
        let them = !side;
        if pos.is_attacked(side, pos.king_square(them), pos.occupied()) {
            return Err(SfenError::SideNotToMoveInCheck);
        }
        Ok(pos)
    }

    /// The SFEN of the current position, hands in canonical order, with the current game ply.
    pub fn to_sfen(&self) -> String {
        let mut s = board_sfen(|sq| self.piece_on(sq));
        s.push(' ');
        s.push(self.side_to_move().sfen_char());
        s.push(' ');
        s.push_str(&hands_sfen(self.hand(Color::Black), self.hand(Color::White)));
        s.push(' ');
        s.push_str(&self.game_ply().to_string());
        s
    }

    /// Parses a USI move string and checks it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = Move::parse_usi(text).ok_or(MoveError::Malformed)?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal)
        }
    }

    /// Builds the position a USI `position` command describes, from the words after `position`:
    /// `startpos [moves m1 m2 ...]` or `sfen <board> <side> <hand> [<n>] [moves m1 ...]`.
    /// Composed positions are accepted, since GUIs send tsume problems without the attacker's king.
    pub fn from_usi_args(args: &[&str]) -> Result<Position, PositionError> {
        let moves_at = args.iter().position(|&w| w == "moves").unwrap_or(args.len());
        let (setup, moves) = args.split_at(moves_at);
        let mut pos = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => Position::startpos(),
            Some(&"startpos") => {
                return Err(PositionError::Syntax(format!("unexpected '{}' after startpos", setup[1])))
            }
            Some(&"sfen") => Position::from_sfen_mode(&setup[1..].join(" "), SfenMode::Composed)
                .map_err(PositionError::Sfen)?,
            Some(w) => {
                return Err(PositionError::Syntax(format!("expected 'startpos' or 'sfen', got '{w}'")))
            }
            None => return Err(PositionError::Syntax("expected 'startpos' or 'sfen'".into())),
        };
        for (index, text) in moves.iter().skip(1).enumerate() {
            let m = pos.parse_move(text).map_err(|reason| PositionError::Move {
                index,
                text: (*text).into(),
                reason,
            })?;
            pos.do_move(m);
        }
        Ok(pos)
    }
}
