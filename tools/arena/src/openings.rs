//! Openings: lines from a file (or the built-in `tools/openings.txt`), or random quiet openings.
//! Every line is checked with the shomei rules when it is loaded; a bad line is an error naming
//! its line number and what is wrong with it.
//!
//! File format, one opening per line (`#` starts a comment line, blank lines are skipped):
//! - `startpos`, `startpos moves 7g7f 3c3d ...`
//! - `sfen <board> <side> <hands> [<move number>] [moves ...]`, or the SFEN alone
//! - any of the above after a leading `position`.

use crate::config::{OpeningOrder, OpeningSource, Repetition, Variant};
use crate::rules::{Board, Root};
use shomei::dobutsu;
use shomei::rng::Rng;
use shomei::shogi::{MoveError, Sennichite};
use shomei::{Color, Move, PieceKind, Position};
use std::path::Path;

/// The shipped openings, built into the binary.
pub const BUILTIN: &str = include_str!("../../openings.txt");

/// An opening: a root position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Where it came from, for records: "openings.txt:12", "random #3", "startpos".
    pub label: String,
    pub root: Root,
    /// Moves in USI notation, already checked legal.
    pub moves: Vec<String>,
}

impl Opening {
    pub fn startpos() -> Opening {
        Opening { label: "startpos".into(), root: Root::Startpos, moves: Vec::new() }
    }

    /// The root position, before the opening moves.
    pub fn root_position(&self) -> Position {
        match &self.root {
            Root::Startpos => Position::startpos(),
            Root::Sfen(s) => Position::from_sfen(s).expect("checked when loaded"),
        }
    }

    /// The position after the opening moves.
    pub fn position(&self) -> Position {
        let mut pos = self.root_position();
        for m in &self.moves {
            let mv = pos.parse_move(m).expect("checked when loaded");
            pos.do_move(mv);
        }
        pos
    }

    /// The game after the opening moves in `variant`'s rules; the moves were checked when the
    /// opening was loaded.
    pub fn board(&self, variant: Variant, repetition: Repetition) -> Board {
        let mut board = Board::at_root(variant, &self.root, repetition).expect("checked when loaded");
        for m in &self.moves {
            board.play_usi(m).expect("checked when loaded");
        }
        board
    }

    /// The root as the words after `position`: `startpos` or `sfen ...`.
    pub fn root_words(&self) -> String {
        match &self.root {
            Root::Startpos => "startpos".into(),
            Root::Sfen(s) => format!("sfen {s}"),
        }
    }

    /// The opening as one `startpos moves ...` / `sfen ... moves ...` line.
    pub fn to_line(&self) -> String {
        if self.moves.is_empty() {
            self.root_words()
        } else {
            format!("{} moves {}", self.root_words(), self.moves.join(" "))
        }
    }
}

/// Parses and checks one shogi opening line (without comments). The label is left empty.
pub fn parse_line(line: &str) -> Result<Opening, String> {
    parse_line_for(Variant::Shogi, line)
}

/// Parses and checks one opening line of `variant`'s game: the root is a position of that game,
/// every move is legal, and the game is not over at the end. The label is left empty.
pub fn parse_line_for(variant: Variant, line: &str) -> Result<Opening, String> {
    let mut words: Vec<&str> = line.split_whitespace().collect();
    if words.first() == Some(&"position") {
        words.remove(0);
    }
    if words.is_empty() {
        return Err("empty line".into());
    }
    let moves_at = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let (setup, moves) = words.split_at(moves_at);
    let moves: &[&str] = if moves.is_empty() { &[] } else { &moves[1..] };
    let root = match setup {
        ["startpos"] => Root::Startpos,
        ["startpos", extra, ..] => return Err(format!("unexpected '{extra}' after startpos")),
        ["sfen", fields @ ..] | fields => {
            let given = Root::Sfen(fields.join(" "));
            Root::Sfen(Board::at_root(variant, &given, OPENING_REPETITION)?.sfen())
        }
    };
    let mut board = Board::at_root(variant, &root, OPENING_REPETITION)?;
    let mut opening = Opening { label: String::new(), root, moves: Vec::new() };
    for (i, text) in moves.iter().enumerate() {
        match board.play_usi(text) {
            Ok(()) => {}
            Err(MoveError::Malformed) => {
                return Err(format!("move {} '{text}' is not a move in USI notation", i + 1))
            }
            Err(MoveError::Illegal) => {
                return Err(format!("move {} '{text}' is illegal in that position", i + 1))
            }
        }
        opening.moves.push((*text).to_string());
        if let Some(o) = board.adjudicate(u32::MAX) {
            if o.winner.is_none() {
                return Err(format!("move {} '{text}' ends the game by repetition", i + 1));
            }
        }
    }
    if let Some(o) = board.adjudicate(u32::MAX) {
        return Err(format!("the game would be over: {} ({})", o.detail, o.reason.code()));
    }
    Ok(opening)
}

/// Openings are checked against the strictest repetition rule a match may use.
const OPENING_REPETITION: Repetition = Repetition { draw_at: 3 };

/// Parses a whole openings text; `source` names it in errors and labels.
pub fn parse_openings(text: &str, source: &str) -> Result<Vec<Opening>, String> {
    parse_openings_for(Variant::Shogi, text, source)
}

/// [`parse_openings`] for `variant`'s game.
pub fn parse_openings_for(variant: Variant, text: &str, source: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut o = parse_line_for(variant, line)
            .map_err(|e| format!("{source} line {}: {e}\n  the line: {line}", i + 1))?;
        o.label = format!("{source}:{}", i + 1);
        out.push(o);
    }
    if out.is_empty() {
        return Err(format!("{source} holds no opening lines"));
    }
    Ok(out)
}

/// Reads and checks an openings file.
pub fn load_file(variant: Variant, path: &Path) -> Result<Vec<Opening>, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read openings file '{}': {e}", path.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("openings file '{}' is not UTF-8 text", path.display()))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    parse_openings_for(variant, &text, &name)
}

/// Whether either side could capture something in this position. The side to move must not
/// be in check (a null move stands in for the other side's turn).
fn any_capture(pos: &mut Position) -> bool {
    if pos.legal_moves().iter().any(|&m| pos.is_capture(m)) {
        return true;
    }
    pos.do_null_move();
    let theirs = pos.legal_moves().iter().any(|&m| pos.is_capture(m));
    pos.undo_null_move();
    theirs
}

/// Whether `m` is a quiet developing move for a random opening: no capture, drop, promotion or
/// check; no lance or knight move (rarely sound this early); the king stays in its own camp; no
/// piece goes straight back to where it came from; and afterwards neither side has anything to
/// capture.
fn is_quiet(pos: &mut Position, m: Move) -> bool {
    if m.is_drop() || m.is_promotion() || pos.is_capture(m) || pos.gives_check(m) {
        return false;
    }
    let us = pos.side_to_move();
    match pos.piece_on(m.from()).kind() {
        PieceKind::Lance | PieceKind::Knight => return false,
        PieceKind::King if m.to().relative_rank(us) < 6 => return false,
        _ => {}
    }
    let history: Vec<Move> = pos.history().collect();
    if let Some(&mine) = history.len().checked_sub(2).and_then(|i| history.get(i)) {
        if !mine.is_drop() && mine.from() == m.to() && mine.to() == m.from() {
            return false;
        }
    }
    pos.do_move(m);
    let quiet = !pos.is_mated() && !any_capture(pos);
    pos.undo_move();
    quiet
}

/// A random but sane opening of up to `plies` plies from the initial position: each move is
/// drawn among the quiet moves (see `is_quiet`), so no material is offered or won on the way.
/// It stops early in the rare position without a quiet move.
pub fn random_opening(plies: u32, rng: &mut Rng) -> Opening {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let quiet: Vec<Move> = legal.into_iter().filter(|&m| is_quiet(&mut pos, m)).collect();
        if quiet.is_empty() {
            break;
        }
        let m = quiet[rng.below(quiet.len())];
        pos.do_move(m);
        if pos.sennichite() != Sennichite::None {
            pos.undo_move();
            break;
        }
        moves.push(m.to_string());
    }
    Opening { label: String::new(), root: Root::Startpos, moves }
}

/// A random Dobutsu opening of up to `plies` plies from the initial position: each move drawn
/// among those that leave the game going on with nothing of the mover's en prise, so no
/// material is offered on the way. It stops early where no such move is.
pub fn random_dobutsu_opening(plies: u32, rng: &mut Rng) -> Opening {
    let mut pos = dobutsu::Position::startpos();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let quiet: Vec<dobutsu::Move> = dobutsu::legal_moves(&pos)
            .iter()
            .copied()
            .filter(|&m| {
                let next = pos.play(m);
                let mover = !next.side_to_move();
                next.status() == dobutsu::Status::Ongoing
                    && next.attacks(next.side_to_move()) & occupied_by(&next, mover) == 0
            })
            .collect();
        if quiet.is_empty() {
            break;
        }
        let m = quiet[rng.below(quiet.len())];
        pos = pos.play(m);
        moves.push(dobutsu::move_to_usi(m));
    }
    Opening { label: String::new(), root: Root::Startpos, moves }
}

/// The squares `color`'s pieces stand on, as a 12-bit set.
fn occupied_by(pos: &dobutsu::Position, color: Color) -> u16 {
    (0..12).filter(|&sq| pos.piece_at(sq).is_some_and(|(c, _)| c == color)).fold(0, |set, sq| set | 1 << sq)
}

/// The openings of a match, one per pair of games.
pub enum OpeningBook {
    List { openings: Vec<Opening>, order: Vec<usize> },
    Random { plies: u32, seed: u64, variant: Variant },
}

impl OpeningBook {
    pub fn new(source: &OpeningSource, order: OpeningOrder, seed: u64) -> Result<OpeningBook, String> {
        OpeningBook::for_variant(Variant::Shogi, source, order, seed)
    }

    /// The openings of a match of `variant`. The built-in list is shogi's: Dobutsu plays from
    /// the start position instead.
    pub fn for_variant(
        variant: Variant,
        source: &OpeningSource,
        order: OpeningOrder,
        seed: u64,
    ) -> Result<OpeningBook, String> {
        let openings = match source {
            OpeningSource::Random(plies) => return Ok(OpeningBook::Random { plies: *plies, seed, variant }),
            OpeningSource::Startpos => vec![Opening::startpos()],
            OpeningSource::Builtin if variant == Variant::Dobutsu => vec![Opening::startpos()],
            OpeningSource::Builtin => parse_openings(BUILTIN, "openings.txt")?,
            OpeningSource::File(path) => load_file(variant, path)?,
        };
        let mut idx: Vec<usize> = (0..openings.len()).collect();
        if order == OpeningOrder::Random {
            Rng::new(seed).shuffle(&mut idx);
        }
        Ok(OpeningBook::List { openings, order: idx })
    }

    /// How many distinct openings there are (None: random, unlimited).
    pub fn len(&self) -> Option<usize> {
        match self {
            OpeningBook::List { openings, .. } => Some(openings.len()),
            OpeningBook::Random { .. } => None,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    /// The opening of game pair `pair` (0-based); the list wraps around.
    pub fn for_pair(&self, pair: usize) -> Opening {
        match self {
            OpeningBook::List { openings, order } => openings[order[pair % order.len()]].clone(),
            OpeningBook::Random { plies, seed, variant } => {
                let mut rng = Rng::new(seed ^ (pair as u64 + 1).wrapping_mul(0xD134_2543_DE82_EF95));
                let mut o = match variant {
                    Variant::Shogi => random_opening(*plies, &mut rng),
                    Variant::Dobutsu => random_dobutsu_opening(*plies, &mut rng),
                };
                o.label = format!("random #{} ({} plies)", pair + 1, o.moves.len());
                o
            }
        }
    }
}

/// Material of `c` by unpromoted kind, board and hand together.
pub fn material(pos: &Position, c: Color) -> [u32; 15] {
    let mut m = [0u32; 15];
    for sq in shomei::Square::all() {
        let p = pos.piece_on(sq);
        if p.is_some() && p.color() == c {
            m[p.kind().unpromoted().index()] += 1;
        }
    }
    for k in PieceKind::HAND {
        m[k.index()] += pos.hand(c).count(k);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_every_form() {
        let o = parse_line("startpos moves 7g7f 3c3d").unwrap();
        assert_eq!(o.root, Root::Startpos);
        assert_eq!(o.moves, ["7g7f", "3c3d"]);
        assert_eq!(o.to_line(), "startpos moves 7g7f 3c3d");
        assert_eq!(parse_line("position startpos").unwrap().moves.len(), 0);
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
        let a = parse_line(sfen).unwrap();
        let b = parse_line(&format!("sfen {sfen} moves 3c3d")).unwrap();
        assert_eq!(a.root, Root::Sfen(sfen.into()));
        assert_eq!(b.position().side_to_move(), Color::Black);
        assert_eq!(b.to_line(), format!("sfen {sfen} moves 3c3d"));
    }

    #[test]
    fn errors_name_line_and_cause() {
        let text = "# comment\nstartpos moves 7g7f\n\nstartpos moves 7g7f 7f7e\n";
        let e = parse_openings(text, "book.txt").unwrap_err();
        assert!(e.starts_with("book.txt line 4: move 2 '7f7e' is illegal"), "{e}");
        let e = parse_openings("startpos moves 7g7x", "b").unwrap_err();
        assert!(e.contains("line 1: move 1 '7g7x' is not a move"), "{e}");
        let e = parse_openings("sfen 9/9 b - 1", "b").unwrap_err();
        assert!(e.contains("invalid SFEN"), "{e}");
        let e = parse_openings("startpos foo", "b").unwrap_err();
        assert!(e.contains("unexpected 'foo'"), "{e}");
        assert!(parse_openings("# nothing\n", "b").unwrap_err().contains("no opening lines"));
        // A position where the side to move is already mated (White king 1a, Black gold 1b
        // guarded by a pawn on 1c).
        let e = parse_line("8k/8G/8P/9/9/9/9/9/K8 w - 1").unwrap_err();
        assert!(e.contains("would be over: White is checkmated"), "{e}");
        // The game would end by repetition inside the opening.
        let shuffle = "startpos moves 2h3h 8b7b 3h2h 7b8b 2h3h 8b7b 3h2h 7b8b 2h3h 8b7b 3h2h 7b8b";
        assert!(parse_line(shuffle).unwrap_err().contains("repetition"));
    }

    /// Whether the side to move can capture something that cannot be taken back.
    fn free_capture(pos: &mut Position) -> Option<Move> {
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        for m in moves {
            if !pos.is_capture(m) {
                continue;
            }
            pos.do_move(m);
            let recapture = pos.legal_moves().iter().any(|&r| !r.is_drop() && r.to() == m.to());
            pos.undo_move();
            if !recapture {
                return Some(m);
            }
        }
        None
    }

    #[test]
    fn shipped_openings_are_legal_varied_and_balanced() {
        let list = parse_openings(BUILTIN, "openings.txt").unwrap();
        assert!(list.len() >= 30, "only {} openings", list.len());
        let mut seen = std::collections::HashSet::new();
        let mut black_to_move = 0;
        for o in &list {
            let mut pos = o.position();
            assert!(seen.insert(pos.to_sfen()), "{}: same position as an earlier line", o.label);
            assert_eq!(
                material(&pos, Color::Black),
                material(&pos, Color::White),
                "{}: material differs",
                o.label
            );
            assert!(!pos.in_check(), "{}: ends in check", o.label);
            assert!(o.moves.len() >= 2 && o.moves.len() <= 16, "{}: {} plies", o.label, o.moves.len());
            if let Some(m) = free_capture(&mut pos) {
                panic!("{}: {m} wins material for nothing", o.label);
            }
            if pos.side_to_move() == Color::Black {
                black_to_move += 1;
            }
        }
        // Both sides get to move first out of the book in a fair share of lines.
        assert!(black_to_move >= list.len() / 4 && black_to_move <= list.len() * 3 / 4);
    }

    #[test]
    fn random_openings_are_quiet_and_reproducible() {
        for seed in 0..20u64 {
            let a = random_opening(12, &mut Rng::new(seed));
            let b = random_opening(12, &mut Rng::new(seed));
            assert_eq!(a, b);
            assert!(a.moves.len() >= 8, "{}", a.to_line());
            let mut pos = parse_line(&a.to_line()).unwrap().position();
            assert_eq!(material(&pos, Color::Black), material(&pos, Color::White));
            assert!(free_capture(&mut pos).is_none(), "{}", a.to_line());
        }
        let book = OpeningBook::new(&OpeningSource::Random(8), OpeningOrder::Sequential, 5).unwrap();
        assert_eq!(book.for_pair(3), book.for_pair(3));
        assert_ne!(book.for_pair(3).moves, book.for_pair(4).moves);
    }

    #[test]
    fn book_order_wraps_and_shuffles() {
        let seq = OpeningBook::new(&OpeningSource::Builtin, OpeningOrder::Sequential, 1).unwrap();
        let n = seq.len().unwrap();
        assert_eq!(seq.for_pair(0), seq.for_pair(n));
        assert_eq!(seq.for_pair(0).label, parse_openings(BUILTIN, "openings.txt").unwrap()[0].label);
        let shuffled = OpeningBook::new(&OpeningSource::Builtin, OpeningOrder::Random, 1).unwrap();
        let a: Vec<_> = (0..n).map(|p| seq.for_pair(p).label).collect();
        let mut b: Vec<_> = (0..n).map(|p| shuffled.for_pair(p).label).collect();
        assert_ne!(a, b);
        b.sort_by_key(|l| l.split(':').nth(1).unwrap().parse::<u32>().unwrap());
        assert_eq!(a, b);
    }
}
