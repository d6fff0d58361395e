//! The staged move picker. Moves are generated in stages so that a cutoff by an early move saves
//! generating the rest:
//!
//! 1. the table move;
//! 2. captures and promotions, by victim value plus what the capture history learnt of them;
//!    those that lose material by static exchange are put aside;
//! 3. the two killers and the counter-move;
//! 4. quiet moves and drops, by history score, raised for checks that keep their piece;
//! 5. the captures put aside.
//!
//! In check, all evasions are generated at once and ordered captures first, then by history.
//! Quiescence uses stages 1 and 2 only (and all evasions in check).

use super::history::{ContinuationRows, History};
use super::params::{
    tuned, CAPTURE_ATTACKER_DIVISOR, CAPTURE_PROMOTION_BONUS, CAPTURE_VICTIM_WEIGHT, QUIET_CHECK_SEE_MARGIN,
};
use super::see::{exchange_value, see_ge};
use crate::shogi::movegen::{generate, GenType, MoveList, MAX_MOVES};
use crate::shogi::Position;
use crate::types::{Bitboard, Move, PieceKind};

/// Where the picker stands; `next` runs the stages in the order of the module's list, each
/// stage moving on to the next when it runs out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    /// Return the table move (already known legal) first.
    TableMove,
    /// Generate captures and promotions and score them.
    GenCaptures,
    /// Captures by score; those that lose material by SEE (main search only) go to `bad`.
    GoodCaptures,
    /// The newer killer, if it is a usable quiet move here.
    Killer1,
    /// The older killer, unless it repeats the first.
    Killer2,
    /// The counter-move to the opponent's last move, unless it repeats a killer.
    Counter,
    /// Generate the quiet moves and drops, less those already tried, and score them by history.
    GenQuiets,
    /// Quiet moves by history score, sorted a chunk at a time (`sort_next_quiets`).
    Quiets,
    /// The losing captures put aside, in the order they were found.
    BadCaptures,
    /// In check: generate every evasion and score it, captures first.
    GenEvasions,
    /// Evasions by score.
    Evasions,
    /// Nothing left.
    Done,
}

/// What the picker is for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum PickerKind {
    /// Every legal move (the main search).
    Main,
    /// Captures and promotions, or every evasion when in check (quiescence).
    Quiescence,
}

/// A move and its ordering score packed into one integer, so sorting is a plain integer sort.
#[inline(always)]
fn pack(score: i32, m: Move) -> i64 {
    ((score as i64) << 16) | m.raw() as i64
}

/// The move of a `pack`ed value (its low 16 bits).
#[inline(always)]
fn unpack(v: i64) -> Move {
    Move::from_raw(v as u16)
}

/// Hands out a node's moves one at a time, best expected first, generating them stage by stage.
pub struct MovePicker {
    /// Whether all moves are wanted or only quiescence's.
    kind: PickerKind,
    /// The stage the next call to `next` continues.
    stage: Stage,
    /// The table move, tried first; `Move::NONE` if none.
    tt_move: Move,
    /// The killers of this ply (none for quiescence).
    killers: [Move; 2],
    /// The counter-move to the opponent's last move (none for quiescence).
    counter: Move,
    /// Scored moves of the current stage, and the position of the next one to return.
    scored: Vec<i64>,
    /// Number of moves in `scored` for the current stage.
    len: usize,
    /// Index in `scored` of the next move to return.
    next: usize,
    /// Quiet stage: `scored[..sorted]` is in its final order (the best moves of the list, sorted).
    sorted: usize,
    /// Losing captures, tried after the quiet moves.
    bad: Vec<Move>,
    /// Index in `bad` of the next losing capture to return.
    bad_next: usize,
    /// Set by the search once late-move pruning has cut the rest of the quiet moves.
    skip_quiets: bool,
    /// Generation space, kept between nodes (a fresh list would be cleared, 1.2 KB, every time).
    list: Option<Box<MoveList>>,
}

/// Reusable storage for one picker, so a node neither allocates nor clears kilobytes of arrays.
pub struct PickerBuffers {
    /// Storage for `MovePicker::scored`.
    scored: Vec<i64>,
    /// Storage for `MovePicker::bad`.
    bad: Vec<Move>,
    /// Storage for `MovePicker::list`; `None` only in `EMPTY`.
    list: Option<Box<MoveList>>,
}

impl Default for PickerBuffers {
    fn default() -> Self {
        PickerBuffers {
            scored: Vec::with_capacity(MAX_MOVES),
            bad: Vec::with_capacity(64),
            list: Some(Box::new(MoveList::new())),
        }
    }
}

impl PickerBuffers {
    /// A placeholder that owns no memory, left behind while a node has the real buffers.
    pub const EMPTY: PickerBuffers = PickerBuffers { scored: Vec::new(), bad: Vec::new(), list: None };
}

impl MovePicker {
    /// `tt_move` must be legal in `pos` or `Move::NONE`.
    pub fn new(
        kind: PickerKind,
        pos: &Position,
        history: &History,
        ply: usize,
        tt_move: Move,
        buffers: PickerBuffers,
    ) -> MovePicker {
        let PickerBuffers { mut scored, mut bad, list } = buffers;
        scored.clear();
        bad.clear();
        let in_check = pos.in_check();
        let first = match (tt_move.is_none(), in_check) {
            (false, _) => Stage::TableMove,
            (true, true) => Stage::GenEvasions,
            (true, false) => Stage::GenCaptures,
        };
        let (killers, counter) = if kind == PickerKind::Main {
            (history.killers(ply), history.counter_move(pos))
        } else {
            ([Move::NONE; 2], Move::NONE)
        };
        MovePicker {
            kind,
            stage: first,
            tt_move,
            killers,
            counter,
            scored,
            len: 0,
            next: 0,
            sorted: 0,
            bad,
            bad_next: 0,
            skip_quiets: false,
            list,
        }
    }

    /// No more quiet moves (killers and counter-move included): the search prunes them all. The
    /// quiet moves are then not even generated if their stage has not come yet.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Hands the storage back for the next node at this ply.
    pub fn into_buffers(self) -> PickerBuffers {
        PickerBuffers { scored: self.scored, bad: self.bad, list: self.list }
    }

    /// Capture score: victim value first, a bonus for promoting, the cheaper attacker first,
    /// and what the capture history has learnt of such captures.
    fn capture_score(pos: &Position, history: &History, m: Move) -> i32 {
        let victim = if m.is_drop() { crate::types::Piece::NONE } else { pos.piece_on(m.to()) };
        let victim_value = if victim.is_some() { exchange_value(victim.kind()) } else { 0 };
        let promo = if m.is_promotion() { CAPTURE_PROMOTION_BONUS } else { 0 };
        victim_value * CAPTURE_VICTIM_WEIGHT + promo
            - exchange_value(pos.moved_piece_after(m).kind()) / CAPTURE_ATTACKER_DIVISOR
            + history.capture_score(pos, m)
    }

    /// Quiet-move score: the history's, raised by `QUIET_CHECK_BONUS` for a check whose
    /// checking piece is not simply lost (`check_squares`: the position's).
    fn quiet_score(
        pos: &Position,
        history: &History,
        rows: ContinuationRows,
        check_squares: &[Bitboard; 15],
        m: Move,
    ) -> i32 {
        let check_bonus = if pos.gives_check_from(m, check_squares) && see_ge(pos, m, QUIET_CHECK_SEE_MARGIN)
        {
            tuned!(QUIET_CHECK_BONUS)
        } else {
            0
        };
        history.quiet_score_in(rows, pos, m) + check_bonus
    }

    /// Generates the moves of `gen` into the kept list.
    fn generate(&mut self, pos: &Position, gen: GenType) -> Box<MoveList> {
        let mut list = self.list.take().unwrap_or_else(|| Box::new(MoveList::new()));
        list.clear();
        generate(pos, gen, &mut list);
        list
    }

    /// Loads `list` into `scored` unscored (the scores are set after), from the start.
    fn load(&mut self, list: &MoveList) {
        self.scored.clear();
        self.next = 0;
        for &m in list.iter() {
            self.scored.push(m.raw() as i64);
        }
        self.len = self.scored.len();
    }

    /// Quiescence keeps captures and the promotions that matter: a non-capturing promotion of
    /// a pawn; the plain variant of a capture only where it could not promote.
    fn quiescence_keeps(pos: &Position, m: Move) -> bool {
        let capture = pos.is_capture(m);
        let kind = pos.piece_on(m.from()).kind();
        if m.is_promotion() {
            capture || kind == PieceKind::Pawn
        } else {
            let us = pos.side_to_move();
            let could_promote = kind.can_promote() && (m.from().in_zone(us) || m.to().in_zone(us));
            capture && !could_promote
        }
    }

    /// Whether `m` is the table move, a killer or the counter-move, each tried in a stage of its own
    /// and so left out of the quiet list.
    fn is_special(&self, m: Move) -> bool {
        m == self.tt_move || m == self.killers[0] || m == self.killers[1] || m == self.counter
    }

    /// The best remaining move of the current stage (selection: few are usually needed).
    fn select_best(&mut self) -> Option<Move> {
        if self.next >= self.len {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..self.len {
            if self.scored[i] > self.scored[best] {
                best = i;
            }
        }
        self.scored.swap(self.next, best);
        let v = self.scored[self.next];
        self.next += 1;
        Some(unpack(v))
    }

    /// Puts the next chunk of quiet moves in order. Quiet lists are long (drops) and most nodes
    /// try only a few of them, so the best eight are split off and sorted first; when they run
    /// out, the next chunk, as long as the part already tried (the sorted part doubles). Scores
    /// are unique (the move is part of the key), so the order is that of sorting the whole list.
    fn sort_next_quiets(&mut self) {
        const FIRST_CHUNK: usize = 8;
        let rest = &mut self.scored[self.next..self.len];
        let chunk = FIRST_CHUNK.max(self.next);
        if rest.len() > chunk {
            rest.select_nth_unstable_by(chunk - 1, |a, b| b.cmp(a));
            rest[..chunk].sort_unstable_by(|a, b| b.cmp(a));
            self.sorted = self.next + chunk;
        } else {
            rest.sort_unstable_by(|a, b| b.cmp(a));
            self.sorted = self.len;
        }
    }

    /// A killer or counter-move is tried only if it is a legal quiet move here.
    fn usable_quiet(&self, pos: &Position, m: Move) -> bool {
        !m.is_none() && m != self.tt_move && pos.is_legal(m) && pos.is_quiet(m)
    }

    /// The next move to try, or `None` when all have been tried.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            if self.skip_quiets
                && matches!(
                    self.stage,
                    Stage::Killer1 | Stage::Killer2 | Stage::Counter | Stage::GenQuiets | Stage::Quiets
                )
            {
                self.stage = Stage::BadCaptures;
            }
            match self.stage {
                Stage::TableMove => {
                    self.stage = if pos.in_check() { Stage::GenEvasions } else { Stage::GenCaptures };
                    return Some(self.tt_move);
                }
                Stage::GenCaptures => {
                    let list = self.generate(pos, GenType::CapturesPromotions);
                    self.scored.clear();
                    self.next = 0;
                    for &m in list.iter() {
                        if self.kind == PickerKind::Quiescence && !Self::quiescence_keeps(pos, m) {
                            continue;
                        }
                        self.scored.push(pack(Self::capture_score(pos, history, m), m));
                    }
                    self.list = Some(list);
                    self.len = self.scored.len();
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.select_best() {
                    Some(m) if m == self.tt_move => {}
                    Some(m) => {
                        if self.kind == PickerKind::Main && !see_ge(pos, m, 0) {
                            self.bad.push(m);
                            continue;
                        }
                        return Some(m);
                    }
                    None => {
                        self.stage = if self.kind == PickerKind::Main { Stage::Killer1 } else { Stage::Done };
                    }
                },
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    if self.usable_quiet(pos, self.killers[0]) {
                        return Some(self.killers[0]);
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::Counter;
                    let k = self.killers[1];
                    if k != self.killers[0] && self.usable_quiet(pos, k) {
                        return Some(k);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenQuiets;
                    let c = self.counter;
                    if c != self.killers[0] && c != self.killers[1] && self.usable_quiet(pos, c) {
                        return Some(c);
                    }
                }
                Stage::GenQuiets => {
                    let list = self.generate(pos, GenType::Quiets);
                    self.scored.clear();
                    self.next = 0;
                    let rows = ContinuationRows::of(pos);
                    let check_squares = pos.check_squares();
                    for &m in list.iter() {
                        if self.is_special(m) {
                            continue;
                        }
                        self.scored.push(pack(Self::quiet_score(pos, history, rows, &check_squares, m), m));
                    }
                    self.list = Some(list);
                    self.len = self.scored.len();
                    self.sorted = 0;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.next < self.len {
                        if self.next == self.sorted {
                            self.sort_next_quiets();
                        }
                        let m = unpack(self.scored[self.next]);
                        self.next += 1;
                        return Some(m);
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.bad_next < self.bad.len() {
                        let m = self.bad[self.bad_next];
                        self.bad_next += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => {
                    let list = self.generate(pos, GenType::Evasions);
                    self.load(&list);
                    self.list = Some(list);
                    let rows = ContinuationRows::of(pos);
                    for i in 0..self.len {
                        let m = unpack(self.scored[i]);
                        let score = if pos.is_capture(m) {
                            (1 << 24) + Self::capture_score(pos, history, m)
                        } else {
                            history.quiet_score_in(rows, pos, m)
                        };
                        self.scored[i] = pack(score, m);
                    }
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match self.select_best() {
                    Some(m) if m == self.tt_move => {}
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::shogi::random_games::random_game_positions;

    /// Sorted raw codes, to compare move sets.
    fn raw_set(moves: &[Move]) -> Vec<u16> {
        let mut raw: Vec<u16> = moves.iter().map(|m| m.raw()).collect();
        raw.sort_unstable();
        raw
    }

    /// Random-game positions where a random quiet move "cuts" at every one, so the history holds
    /// scores of every sign; at each the picker must give every legal move exactly once, and its
    /// quiet stage the moves in falling order of score.
    #[test]
    fn the_picker_gives_each_legal_move_once_and_quiet_moves_best_first() {
        let mut rng = Rng::new(0x7069_636b);
        let mut history = History::new();
        let mut quiet_runs = 0;
        for pos in random_game_positions(0x6761_6d65, 30, 120) {
            let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
            if legal.is_empty() {
                continue;
            }
            let quiets: Vec<Move> = legal.iter().copied().filter(|&m| pos.is_quiet(m)).collect();
            if !quiets.is_empty() {
                let best = quiets[rng.below(quiets.len())];
                let tried: Vec<Move> = (0..4).map(|_| quiets[rng.below(quiets.len())]).collect();
                history.update_quiet(&pos, 0, best, &tried, 1 + rng.below(10) as i32);
            }
            let tt_move = if rng.below(2) == 0 { legal[rng.below(legal.len())] } else { Move::NONE };
            let mut picker =
                MovePicker::new(PickerKind::Main, &pos, &history, 0, tt_move, PickerBuffers::default());
            let mut given = Vec::new();
            let mut previous_key = i64::MAX;
            let mut quiet_stage_moves = 0;
            while let Some(m) = picker.next(&pos, &history) {
                given.push(m);
                if picker.stage == Stage::Quiets {
                    let key = pack(
                        MovePicker::quiet_score(
                            &pos,
                            &history,
                            ContinuationRows::of(&pos),
                            &pos.check_squares(),
                            m,
                        ),
                        m,
                    );
                    assert!(key < previous_key, "{pos:?}: {m:?} out of order");
                    previous_key = key;
                    quiet_stage_moves += 1;
                }
            }
            if quiet_stage_moves > 16 {
                quiet_runs += 1;
            }
            assert_eq!(raw_set(&given), raw_set(&legal), "{pos:?}");
        }
        // Lists longer than two chunks were met often enough for the later chunks to be tested.
        assert!(quiet_runs > 500, "{quiet_runs} long quiet lists");
    }

    /// With an empty history, the quiet stage gives the checks that keep their piece (by SEE)
    /// before every other quiet move, and the other quiet moves still come.
    #[test]
    fn safe_quiet_checks_come_first_in_the_quiet_stage() {
        let history = History::new();
        let mut positions_with_checks = 0;
        for pos in random_game_positions(0x6368_6b73, 40, 120) {
            let mut picker =
                MovePicker::new(PickerKind::Main, &pos, &history, 0, Move::NONE, PickerBuffers::default());
            let mut quiet_stage = Vec::new();
            while let Some(m) = picker.next(&pos, &history) {
                if picker.stage == Stage::Quiets {
                    quiet_stage.push(m);
                }
            }
            let safe_check = |&m: &Move| pos.gives_check(m) && see_ge(&pos, m, QUIET_CHECK_SEE_MARGIN);
            let checks = quiet_stage.iter().take_while(|m| safe_check(m)).count();
            assert!(quiet_stage[checks..].iter().all(|m| !safe_check(m)), "{pos:?}: a safe check came late");
            if checks > 0 && checks < quiet_stage.len() {
                positions_with_checks += 1;
            }
        }
        assert!(positions_with_checks > 100, "{positions_with_checks} positions with safe quiet checks");
    }
}
