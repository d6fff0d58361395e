//! Reading game records in CSA's standard format (V2.x): the start position and the moves.
//!
//! What a record may hold besides them (names, `$` facts, `'` comments, `T` times, `%` results)
//! is skipped. Several statements may share a line, separated by commas, and a file may hold
//! several games, separated by a line `/`.

use super::sfen::STARTPOS;
use super::Position;
use crate::types::{Move, PieceKind, Square};

/// One game read from a CSA record.
#[derive(Clone, Debug)]
pub struct CsaGame {
    /// The position the game starts from.
    pub start: Position,
    /// The moves played, each legal in its position.
    pub moves: Vec<Move>,
}

/// Every piece kind with its CSA name, the one table both directions read.
const CSA_NAMES: [(PieceKind, &str); 14] = {
    use PieceKind::*;
    [
        (Pawn, "FU"),
        (Lance, "KY"),
        (Knight, "KE"),
        (Silver, "GI"),
        (Gold, "KI"),
        (Bishop, "KA"),
        (Rook, "HI"),
        (King, "OU"),
        (ProPawn, "TO"),
        (ProLance, "NY"),
        (ProKnight, "NK"),
        (ProSilver, "NG"),
        (Horse, "UM"),
        (Dragon, "RY"),
    ]
};

/// The CSA name of a piece kind (`FU`, `UM`, ...), as records write it.
pub fn csa_name(kind: PieceKind) -> &'static str {
    CSA_NAMES.iter().find(|(k, _)| *k == kind).map_or("??", |(_, n)| n)
}

/// The piece kind a CSA name (`FU`, `UM`, ...) stands for.
fn csa_kind(name: &str) -> Option<PieceKind> {
    CSA_NAMES.iter().find(|(_, n)| *n == name).map(|(k, _)| *k)
}

/// The square of a CSA file and rank digit pair (`"77"`), `None` for `00` or anything else.
fn csa_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    let (file, rank) = (b.first()?.checked_sub(b'1')?, b.get(1)?.checked_sub(b'1')?);
    (file < 9 && rank < 9).then(|| Square::new(file, rank))
}

/// The board, hands and side to move as a record's position statements build them.
struct Setup {
    /// `cells[rank][file]`: a piece's SFEN letters, or empty.
    cells: [[String; 9]; 9],
    /// The pieces in each hand, Black's first, as the `P+`/`P-` statements add them.
    hands: [Vec<PieceKind>; 2],
    /// Whether the record has Black (`+`) move first.
    black_to_move: bool,
}

impl Setup {
    /// The board of an SFEN's first field, empty hands, Black to move: a CSA `PI` starting point.
    fn from_sfen_board(sfen: &str) -> Setup {
        let mut cells: [[String; 9]; 9] = Default::default();
        let board = sfen.split(' ').next().unwrap_or_default();
        for (rank, row) in board.split('/').enumerate() {
            let mut file = 9usize;
            let mut promoted = false;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    file -= n as usize;
                } else if c == '+' {
                    promoted = true;
                } else {
                    file -= 1;
                    cells[rank][file] = if promoted { format!("+{c}") } else { c.to_string() };
                    promoted = false;
                }
            }
        }
        Setup { cells, hands: [Vec::new(), Vec::new()], black_to_move: true }
    }

    /// The SFEN letters of `kind` for a side.
    fn letters(kind: PieceKind, black: bool) -> String {
        let base = kind.base_letter();
        let base = if black { base.to_ascii_uppercase() } else { base.to_ascii_lowercase() };
        if kind.is_promoted() {
            format!("+{base}")
        } else {
            base.to_string()
        }
    }

    /// `P1` .. `P9`: one rank, files 9 to 1, three characters a square.
    fn set_rank(&mut self, rank: usize, text: &str) -> Result<(), String> {
        let mut cells: Vec<char> = text.chars().collect();
        // An empty last square loses its trailing blank to editors that trim lines.
        if cells.len() >= 25 {
            cells.resize(cells.len().max(27), ' ');
        }
        if cells.len() < 27 {
            return Err(format!("P{}: nine squares of three characters expected", rank + 1));
        }
        for i in 0..9 {
            let cell: String = cells[i * 3..i * 3 + 3].iter().collect();
            let file = 8 - i;
            self.cells[rank][file] = match cell.as_str() {
                " * " => String::new(),
                _ => {
                    let black = match cell.chars().next() {
                        Some('+') => true,
                        Some('-') => false,
                        _ => return Err(format!("P{}: bad square '{cell}'", rank + 1)),
                    };
                    let kind = csa_kind(&cell[1..]).ok_or_else(|| format!("bad piece '{cell}'"))?;
                    Setup::letters(kind, black)
                }
            };
        }
        Ok(())
    }

    /// `P+` / `P-`: pieces placed on squares (`63FU`) or put in hand (`00KA`). `00AL` (all the
    /// pieces not yet placed, into this hand) is not supported.
    fn place(&mut self, black: bool, text: &str) -> Result<(), String> {
        for chunk in text.as_bytes().chunks(4) {
            let chunk = std::str::from_utf8(chunk).map_err(|_| "bad placement".to_string())?;
            if chunk.len() != 4 || !chunk.is_ascii() {
                return Err(format!("bad placement '{chunk}'"));
            }
            let kind = csa_kind(&chunk[2..]).ok_or_else(|| format!("bad piece in '{chunk}'"))?;
            if &chunk[..2] == "00" {
                if kind.is_promoted() || kind == PieceKind::King {
                    return Err(format!("'{chunk}' cannot be in hand"));
                }
                self.hands[usize::from(!black)].push(kind);
            } else {
                let sq = csa_square(&chunk[..2]).ok_or_else(|| format!("bad square in '{chunk}'"))?;
                self.cells[sq.rank() as usize][sq.file() as usize] = Setup::letters(kind, black);
            }
        }
        Ok(())
    }

    /// `PI` followed by squares to empty (`82HI` for a rook handicap).
    fn remove(&mut self, text: &str) -> Result<(), String> {
        for chunk in text.as_bytes().chunks(4) {
            let chunk = std::str::from_utf8(chunk).map_err(|_| "bad removal".to_string())?;
            let sq = csa_square(chunk).ok_or_else(|| format!("PI: bad square in '{chunk}'"))?;
            self.cells[sq.rank() as usize][sq.file() as usize].clear();
        }
        Ok(())
    }

    /// The position built, through its SFEN (move number 1), so that the SFEN parser checks it.
    fn to_position(&self) -> Result<Position, String> {
        let mut board = String::new();
        for (rank, row) in self.cells.iter().enumerate() {
            if rank > 0 {
                board.push('/');
            }
            let mut empty = 0;
            for file in (0..9).rev() {
                if row[file].is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        board.push_str(&empty.to_string());
                        empty = 0;
                    }
                    board.push_str(&row[file]);
                }
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
            }
        }
        let mut hands = String::new();
        for (i, hand) in self.hands.iter().enumerate() {
            for kind in PieceKind::HAND_SFEN_ORDER {
                let n = hand.iter().filter(|&&k| k == kind.unpromoted()).count();
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                if n > 0 {
                    hands.push_str(&Setup::letters(kind, i == 0));
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        let side = if self.black_to_move { 'b' } else { 'w' };
        let sfen = format!("{board} {side} {hands} 1");
        Position::from_sfen(&sfen).map_err(|e| format!("the record's position is not valid: {e}"))
    }
}

/// The move a CSA move statement (`+7776FU`, `-0055KA`) makes in `pos`, if it is legal there.
pub fn parse_csa_move(pos: &Position, text: &str) -> Result<Move, String> {
    let bad = || format!("'{text}' is not a CSA move");
    if text.len() != 7 || !text.is_ascii() {
        return Err(bad());
    }
    let black = match &text[..1] {
        "+" => true,
        "-" => false,
        _ => return Err(bad()),
    };
    if black != (pos.side_to_move() == crate::types::Color::Black) {
        return Err(format!("'{text}': the other side is to move"));
    }
    let to = csa_square(&text[3..5]).ok_or_else(bad)?;
    let kind = csa_kind(&text[5..7]).ok_or_else(bad)?;
    let m = if &text[1..3] == "00" {
        Move::drop(kind, to)
    } else {
        let from = csa_square(&text[1..3]).ok_or_else(bad)?;
        let before = pos.piece_on(from);
        if before.is_none() {
            return Err(format!("'{text}': no piece on its square"));
        }
        Move::board(from, to, kind != before.kind() && kind.is_promoted())
    };
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err(format!("'{text}' is not legal here"))
    }
}

/// Reads every game in a CSA record. A game ends at a `%` result, at `/`, or at the end of the
/// text; moves after an illegal one are dropped (the game is kept up to it).
pub fn parse_csa_games(text: &str) -> Result<Vec<CsaGame>, String> {
    let mut games = Vec::new();
    for (i, record) in text.split("\n/").enumerate() {
        let game = parse_one(record).map_err(|e| format!("game {}: {e}", i + 1))?;
        if let Some(game) = game {
            games.push(game);
        }
    }
    Ok(games)
}

/// One game of a record, or `None` when the record holds no position.
fn parse_one(record: &str) -> Result<Option<CsaGame>, String> {
    let mut setup: Option<Setup> = None;
    let mut game: Option<CsaGame> = None;
    let mut position: Option<Position> = None;
    for line in record.lines() {
        for statement in line.trim_end_matches('\r').split(',') {
            let s = statement.trim_end();
            if s.starts_with('\'') {
                break; // a comment runs to the end of the line
            }
            if s.starts_with('%') {
                return Ok(game.or_else(|| finish(setup.as_ref())));
            }
            if let Some(rest) = s.strip_prefix("PI") {
                let mut st = Setup::from_sfen_board(STARTPOS);
                st.remove(rest)?;
                setup = Some(st);
            } else if let Some(rank) = s.strip_prefix('P').and_then(|r| r.chars().next()?.to_digit(10)) {
                let st = setup.get_or_insert_with(|| Setup::from_sfen_board("9/9/9/9/9/9/9/9/9"));
                if !(1..=9).contains(&rank) {
                    return Err(format!("bad position line '{s}'"));
                }
                st.set_rank(rank as usize - 1, &s[2..])?;
            } else if let Some(rest) = s.strip_prefix("P+").or_else(|| s.strip_prefix("P-")) {
                let st = setup.get_or_insert_with(|| Setup::from_sfen_board("9/9/9/9/9/9/9/9/9"));
                st.place(s.as_bytes()[1] == b'+', rest)?;
            } else if s == "+" || s == "-" {
                if let Some(st) = setup.as_mut() {
                    st.black_to_move = s == "+";
                }
                let start = setup.as_ref().ok_or("side to move before any position")?.to_position()?;
                position = Some(start.clone());
                game = Some(CsaGame { start, moves: Vec::new() });
            } else if s.len() == 7 && (s.starts_with('+') || s.starts_with('-')) {
                let (Some(pos), Some(g)) = (position.as_mut(), game.as_mut()) else {
                    return Err(format!("move '{s}' before the position"));
                };
                match parse_csa_move(pos, s) {
                    Ok(m) => {
                        pos.do_move(m);
                        g.moves.push(m);
                    }
                    Err(e) => {
                        log::warn!("CSA record: {e}; the game is kept up to its move {}", g.moves.len());
                        return Ok(game);
                    }
                }
            }
        }
    }
    Ok(game.or_else(|| finish(setup.as_ref())))
}

/// A game with no moves from a position set up without a side-to-move line.
fn finish(setup: Option<&Setup>) -> Option<CsaGame> {
    let start = setup?.to_position().ok()?;
    Some(CsaGame { start, moves: Vec::new() })
}

/// Tests of reading CSA records.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_from_the_initial_position_reads_its_moves() {
        let text = "V2.2\nN+a\nN-b\n$EVENT:test\nPI\n+\n+7776FU\nT1\n-3334FU,T2\n+8822UM\n-3122GI\n+0055KA\n%TORYO\n";
        let games = parse_csa_games(text).unwrap();
        assert_eq!(games.len(), 1);
        let moves: Vec<String> = games[0].moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"]);
        assert_eq!(games[0].start.to_sfen(), STARTPOS);
    }

    #[test]
    fn a_set_up_position_with_hands_and_white_to_move() {
        let mut text = String::new();
        text.push_str("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n");
        text.push_str("P2 * -HI *  *  *  *  * -KA * \n");
        for rank in 3..=9 {
            text.push_str(&format!("P{rank} *  *  *  *  *  *  *  *  * \n"));
        }
        text.push_str("P+59OU00FU00FU00KI\nP-00HI\n-\n-8384FU\n");
        let games = parse_csa_games(&text).unwrap();
        assert_eq!(games[0].start.to_sfen(), "lnsgkgsnl/1r5b1/9/9/9/9/9/9/4K4 w G2Pr 1");
        assert_eq!(games[0].moves.len(), 0, "8384FU has no pawn to move: kept up to it");
    }

    #[test]
    fn handicaps_and_several_games() {
        let games = parse_csa_games("PI82HI\n-\n-3334FU\n/\nPI\n+\n+2726FU\n").unwrap();
        assert_eq!(games.len(), 2);
        assert!(games[0].start.to_sfen().starts_with("lnsgkgsnl/7b1/"), "{}", games[0].start.to_sfen());
        assert_eq!(games[1].moves[0].to_string(), "2g2f");
    }

    #[test]
    fn broken_records_are_errors_not_panics() {
        assert!(parse_csa_games("+7776FU\n").is_err());
        assert!(parse_csa_games("P1xx\n+\n").is_err());
        assert!(parse_csa_games("P+99ZZ\n+\n").is_err());
        assert!(parse_csa_games("PI\n+\n+7776F\u{e9}\n").unwrap()[0].moves.is_empty());
    }
}
