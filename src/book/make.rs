//! Making books: from games (each position up to a ply searched by shomei), by growing a tree
//! from a start position along its best replies (`think`), and by merging books.

use super::text::BookData;
use super::BookMove;
use crate::eval::nnue::AnyNetwork;
use crate::search::{Limits, Score, SearchEvent, SearchOptions, Searcher, TimeControl};
use crate::shogi::csa::parse_csa_games;
use crate::shogi::Position;
use crate::types::Move;
use std::collections::{BTreeMap, VecDeque};
use std::path::Path;

/// How each book position is searched.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Search this many plies (the default when no time is given).
    pub depth: Option<i32>,
    /// Or for this many milliseconds.
    pub movetime_ms: Option<u64>,
    /// Moves kept per position: the best this many lines.
    pub multipv: usize,
    /// Search threads.
    pub threads: usize,
    /// Table size in MB.
    pub hash_mb: usize,
    /// The evaluation (`None`: the hand-written one).
    pub network: Option<AnyNetwork>,
}

impl Default for Analysis {
    fn default() -> Self {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        Analysis {
            depth: Some(16),
            movetime_ms: None,
            multipv: 1,
            threads,
            hash_mb: 256,
            network: SearchOptions::default().network,
        }
    }
}

/// Searches positions for a book, keeping its table between them (book positions are close).
pub struct Analyst {
    /// The searcher, kept so that its hash table carries over from one position to the next.
    searcher: Searcher,
    /// How each position is searched.
    settings: Analysis,
}

/// A book value from a search score: centipawns, or a mate as YaneuraOu writes one
/// (32000 less the plies, negative when mated).
fn book_value(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n >= 0 => crate::search::value::MATE - n,
        Score::Mate(n) => -(crate::search::value::MATE + n),
    }
}

impl Analyst {
    /// An analyst with `settings`.
    pub fn new(settings: Analysis) -> Analyst {
        Analyst { searcher: Searcher::new(settings.hash_mb), settings }
    }

    /// The best lines of `pos` as book moves: move, ponder (the line's second move), value and
    /// depth from the search, count 0. Empty when `pos` has no legal move.
    pub fn analyse(&mut self, pos: &Position) -> Vec<BookMove> {
        if pos.legal_moves().is_empty() {
            return Vec::new();
        }
        let limits = Limits {
            depth: if self.settings.movetime_ms.is_some() { None } else { self.settings.depth.or(Some(16)) },
            time: self.settings.movetime_ms.map_or(TimeControl::Unbounded, TimeControl::MoveTime),
            ..Limits::default()
        };
        let options = SearchOptions {
            threads: self.settings.threads.max(1),
            multipv: self.settings.multipv.max(1),
            network: self.settings.network.clone(),
            ..SearchOptions::default()
        };
        let (tx, rx) = crossbeam_channel::unbounded();
        self.searcher.start(pos.clone(), limits, options, std::time::Instant::now(), tx);
        // The last line reported for each MultiPV rank is that rank's answer.
        let mut lines: BTreeMap<usize, BookMove> = BTreeMap::new();
        for event in rx.iter() {
            match event {
                SearchEvent::Pv(info) if !info.pv.is_empty() => {
                    let m = BookMove {
                        mv: info.pv[0],
                        ponder: info.pv.get(1).copied(),
                        value: book_value(info.score),
                        depth: info.depth,
                        count: 0,
                    };
                    lines.insert(info.multipv, m);
                }
                SearchEvent::Done { .. } => break,
                _ => {}
            }
        }
        self.searcher.wait();
        let mut moves: Vec<BookMove> = Vec::new();
        for m in lines.into_values() {
            if !moves.iter().any(|o| o.mv == m.mv) {
                moves.push(m);
            }
        }
        moves
    }
}

/// A game to take book positions from: where it starts and the moves played.
#[derive(Clone, Debug)]
pub struct Game {
    /// The start position.
    pub start: Position,
    /// The moves, each legal in turn.
    pub moves: Vec<Move>,
}

/// Reads games from a file: a CSA record (`.csa`, several games separated by `/`), or lines of
/// USI `position` arguments (`startpos moves ...`, `sfen ... moves ...`, with or without the
/// word `position`). Lines that cannot be read are reported in the error count.
pub fn read_games(path: &Path) -> Result<(Vec<Game>, usize), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let is_csa = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("csa"));
    if is_csa {
        let games = parse_csa_games(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok((games.into_iter().map(|g| Game { start: g.start, moves: g.moves }).collect(), 0));
    }
    let mut games = Vec::new();
    let mut bad = 0;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().skip_while(|&w| w == "position").collect();
        match game_from_usi_args(&words) {
            Some(game) => games.push(game),
            None => bad += 1,
        }
    }
    Ok((games, bad))
}

/// A game from `position` arguments, or `None` if they do not describe one.
fn game_from_usi_args(words: &[&str]) -> Option<Game> {
    let moves_at = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let start = Position::from_usi_args(&words[..moves_at]).ok()?;
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for text in words.iter().skip(moves_at + 1) {
        let m = pos.parse_move(text).ok()?;
        pos.do_move(m);
        moves.push(m);
    }
    Some(Game { start, moves })
}

/// The positions of `games` up to game ply `max_ply`, each with how often each move was played
/// from it, by canonical SFEN (with its ply).
pub fn positions_of_games(games: &[Game], max_ply: u32) -> BTreeMap<String, Vec<(Move, u64)>> {
    let mut seen: BTreeMap<String, Vec<(Move, u64)>> = BTreeMap::new();
    for game in games {
        let mut pos = game.start.clone();
        for &m in &game.moves {
            if pos.game_ply() > max_ply {
                break;
            }
            let played = seen.entry(pos.to_sfen()).or_default();
            match played.iter_mut().find(|(o, _)| *o == m) {
                Some((_, n)) => *n += 1,
                None => played.push((m, 1)),
            }
            pos.do_move(m);
        }
    }
    seen
}

/// Whether `data` already has `sfen` searched at least `depth` deep.
fn already_searched(data: &BookData, sfen: &str, depth: Option<i32>) -> bool {
    data.get(sfen)
        .is_some_and(|moves| !moves.is_empty() && depth.is_none_or(|d| moves.iter().all(|m| m.depth >= d)))
}

/// Adds the positions of `games` up to `max_ply` to `data`, each searched by `analyst`; the
/// count of a searched move is how often the games played it. Positions `data` already has at
/// the depth asked for are kept as they are. `progress` is called after each position with the
/// number done and the number to do. Returns the number of positions searched.
pub fn add_games(
    data: &mut BookData,
    games: &[Game],
    max_ply: u32,
    analyst: &mut Analyst,
    mut progress: impl FnMut(&BookData, usize, usize),
) -> usize {
    let positions = positions_of_games(games, max_ply);
    let todo: Vec<(&String, &Vec<(Move, u64)>)> = positions
        .iter()
        .filter(|(sfen, _)| !already_searched(data, sfen, analyst.settings_depth()))
        .collect();
    for (i, (sfen, played)) in todo.iter().enumerate() {
        let pos = Position::from_sfen(sfen).expect("positions of games are valid");
        let mut moves = analyst.analyse(&pos);
        for m in &mut moves {
            m.count = played.iter().find(|(o, _)| *o == m.mv).map_or(0, |(_, n)| *n);
        }
        data.insert((*sfen).clone(), moves);
        progress(data, i + 1, todo.len());
    }
    todo.len()
}

impl Analysis {
    /// The depth a finished position must have been searched to, when searches are by depth.
    fn depth_or_none(&self) -> Option<i32> {
        if self.movetime_ms.is_some() {
            None
        } else {
            self.depth
        }
    }
}

impl Analyst {
    /// The depth a position in the book must have to count as searched, `None` when searching by time.
    fn settings_depth(&self) -> Option<i32> {
        self.settings.depth_or_none()
    }
}

/// How `think` grows a book.
#[derive(Clone, Debug)]
pub struct Growth {
    /// New positions to search at most.
    pub positions: usize,
    /// Positions deeper than this game ply are not expanded.
    pub max_ply: u32,
    /// Replies within this many centipawns of a position's best are expanded.
    pub eval_diff: i32,
}

/// Grows `data` from `root`: breadth first, every position reached by a move within
/// `eval_diff` of its position's best is searched (unless `data` has it already) and its own
/// good moves expanded in turn, until `positions` new ones are searched or the tree ends at
/// `max_ply`. Running it again on the written book extends it. Returns the positions searched.
pub fn think(
    data: &mut BookData,
    root: &Position,
    growth: &Growth,
    analyst: &mut Analyst,
    mut progress: impl FnMut(&BookData, usize),
) -> usize {
    let mut queue = VecDeque::from([root.clone()]);
    let mut visited = std::collections::HashSet::new();
    let mut searched = 0;
    let depth = analyst.settings_depth();
    while let Some(pos) = queue.pop_front() {
        if pos.game_ply() > growth.max_ply || !visited.insert(pos.key()) {
            continue;
        }
        let sfen = pos.to_sfen();
        if !already_searched(data, &sfen, depth) {
            if searched >= growth.positions {
                break;
            }
            let moves = analyst.analyse(&pos);
            // A search replaces what the book said of a move, except how often it was played.
            let entry = data.entry(sfen).or_default();
            for m in moves {
                match entry.iter_mut().find(|o| o.mv == m.mv) {
                    Some(old) => *old = BookMove { count: old.count, ..m },
                    None => entry.push(m),
                }
            }
            searched += 1;
            progress(data, searched);
        }
        let moves = data.get(&pos.to_sfen()).cloned().unwrap_or_default();
        let Some(best) = moves.iter().map(|m| m.value).max() else { continue };
        for m in moves.iter().filter(|m| m.value >= best.saturating_sub(growth.eval_diff)) {
            if pos.is_legal(m.mv) {
                let mut next = pos.clone();
                next.do_move(m.mv);
                queue.push_back(next);
            }
        }
    }
    searched
}

/// Merges `other` into `data`: positions of either; for a move both have, the deeper search's
/// fields (the first book's on a tie) with the counts added.
pub fn merge(data: &mut BookData, other: BookData) {
    for (sfen, moves) in other {
        let entry = data.entry(sfen).or_default();
        for m in moves {
            match entry.iter_mut().find(|o| o.mv == m.mv) {
                Some(old) => {
                    let count = old.count.saturating_add(m.count);
                    if m.depth > old.depth {
                        *old = m;
                    }
                    old.count = count;
                }
                None => entry.push(m),
            }
        }
    }
}
