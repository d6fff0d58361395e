//! Game-ending rules beyond checkmate: repetition (sennichite) and entering-king declaration.

use super::attacks::masks;
use super::Position;
use crate::types::{Color, PieceKind};

/// The outcome of a repetition, from the rules of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sennichite {
    /// The current position has not occurred often enough.
    None,
    /// A draw by repetition.
    Draw,
    /// The side that gave check with every move through the cycle loses; this is that side.
    PerpetualCheck(Color),
}

/// How often the current position has occurred before, and how far back the earliest was.
/// Repetitions are looked for across the whole history: captures and drops do not rule them out,
/// since a captured piece can be dropped back.
fn earlier_occurrences(pos: &Position, max_back: usize) -> (usize, usize) {
    let key = pos.key();
    let mut count = 0;
    let mut farthest = 0;
    // Same side to move only: every second ply.
    for (back, k) in pos.key_history().take(max_back) {
        if back % 2 == 0 && k == key {
            count += 1;
            farthest = back;
        }
    }
    (count, farthest)
}

/// Which side, if either, gave check with every one of its moves over the last `plies` plies.
fn perpetual_checker(pos: &Position, plies: usize) -> Option<Color> {
    // `plies` is even; each side made plies/2 moves in it.
    let moves_each = (plies / 2) as u32;
    Color::ALL.into_iter().find(|&c| pos.checks_in_row(c) >= moves_each)
}

impl Position {
    /// Sennichite by the rules of the game: the current position (board, hands, side to move)
    /// occurs for the fourth time.
    pub fn sennichite(&self) -> Sennichite {
        let (count, farthest) = earlier_occurrences(self, usize::MAX);
        if count < 3 {
            return Sennichite::None;
        }
        match perpetual_checker(self, farthest) {
            Some(c) => Sennichite::PerpetualCheck(c),
            None => Sennichite::Draw,
        }
    }

    /// For the search: whether the current position repeats one of the last `max_back` plies,
    /// and if so how the cycle is judged. `ply` is the distance to the search's root: a repetition
    /// inside the searched line is enough (the side that could avoid it chose not to), while
    /// positions from before the root must have occurred twice already, as a game only ends at the
    /// fourth occurrence. No repetition reaches back across a null move.
    pub fn repetition(&self, max_back: usize, ply: usize) -> Sennichite {
        let key = self.key();
        let window = max_back.min(self.state().plies_from_null as usize).min(self.history_len());
        let mut before_root = 0;
        // Only the same side to move, at least two moves each back, can repeat the position.
        for back in (4..=window).step_by(2) {
            if self.key_plies_back(back) == key {
                if back > ply {
                    before_root += 1;
                    if before_root < 2 {
                        continue;
                    }
                }
                return match perpetual_checker(self, back) {
                    Some(c) => Sennichite::PerpetualCheck(c),
                    None => Sennichite::Draw,
                };
            }
        }
        Sennichite::None
    }
}

/// The entering-king (jishogi) declaration rule in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnteringKingRule {
    /// Declarations are not allowed.
    None,
    /// CSA 24-point rule: 31 points or more win, 24 to 30 draw.
    Csa24,
    /// CSA 27-point rule: 28 points (Black) or 27 (White) win.
    Csa27,
}

/// What a declaration by the side to move would bring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declaration {
    /// The conditions are not met: declaring would lose.
    Invalid,
    /// A draw (24-point rule, 24 to 30 points).
    Draw,
    /// A win.
    Win,
}

impl Position {
    /// Declaration points of `c`: rook and bishop (promoted or not) 5, the rest 1, over the pieces
    /// in `c`'s hand and `c`'s pieces in the enemy camp, king excluded. Also returns how many
    /// pieces other than the king are in the camp.
    pub fn declaration_points(&self, c: Color) -> (u32, u32) {
        let camp = masks::zone(c);
        let in_camp = self.pieces_of(c) & camp;
        let kings = self.pieces(c, PieceKind::King);
        let big = (self.pieces(c, PieceKind::Bishop)
            | self.pieces(c, PieceKind::Rook)
            | self.pieces(c, PieceKind::Horse)
            | self.pieces(c, PieceKind::Dragon))
            & camp;
        let count = in_camp.and_not(kings).count();
        let hand = self.hand(c);
        let hand_big = hand.count(PieceKind::Bishop) + hand.count(PieceKind::Rook);
        let hand_points = hand.total() + 4 * hand_big;
        (count + 4 * big.count() + hand_points, count)
    }

    /// Whether the side to move may declare a win (or draw) under `rule`.
    pub fn declaration(&self, rule: EnteringKingRule) -> Declaration {
        let us = self.side_to_move();
        if rule == EnteringKingRule::None || self.in_check() {
            return Declaration::Invalid;
        }
        if !masks::zone(us).contains(self.king_square(us)) {
            return Declaration::Invalid;
        }
        let (points, pieces) = self.declaration_points(us);
        if pieces < 10 {
            return Declaration::Invalid;
        }
        match rule {
            EnteringKingRule::Csa27 => {
                let needed = if us == Color::Black { 28 } else { 27 };
                if points >= needed {
                    Declaration::Win
                } else {
                    Declaration::Invalid
                }
            }
            EnteringKingRule::Csa24 => match points {
                31.. => Declaration::Win,
                24..=30 => Declaration::Draw,
                _ => Declaration::Invalid,
            },
            EnteringKingRule::None => Declaration::Invalid,
        }
    }
}
