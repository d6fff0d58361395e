//! Game-ending rules beyond checkmate: repetition (sennichite), entering-king declaration and
//! the try rule.

use super::attacks::{king_attacks, masks};
use super::Position;
use crate::types::{Color, Hand, Move, PieceKind, Square};

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

/// The entering-king (jishogi) rule in force. The point rules (`Csa24`, `Csa27` and their
/// handicap forms) let the side to move declare (`bestmove win`) when its king stands in the
/// enemy camp, it is not in check, at least ten of its other pieces are in the camp, and its
/// declaration points (`Position::declaration_points`) reach the rule's threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnteringKingRule {
    /// Declarations are not allowed.
    None,
    /// CSA 24-point rule: 31 points or more win, 24 to 30 draw.
    Csa24,
    /// CSA 27-point rule: 28 points (Black) or 27 (White) win.
    Csa27,
    /// `Csa24` for handicap games, where the handicap giver plays White: White's thresholds
    /// (win and draw) are lowered by the material missing from a full set
    /// (`56 - Position::total_material_points`). Black's are unchanged.
    Csa24H,
    /// `Csa27` for handicap games: White's threshold is lowered as in `Csa24H`.
    Csa27H,
    /// The try rule: no declaration; the side to move wins by moving its king onto the enemy's
    /// try square (5a for Black, 5i for White) when that move is legal (`Position::try_move`).
    Try,
}

/// The square `c`'s king wins on under the try rule: 5a for Black, 5i for White.
pub const fn try_square(c: Color) -> Square {
    // File 5 is index 4; rank a is 0, rank i is 8.
    match c {
        Color::Black => Square::new(4, 0),
        Color::White => Square::new(4, 8),
    }
}

/// Declaration points of a full set of pieces (`Position::total_material_points`).
const FULL_SET_POINTS: i32 = 56;

/// The pieces worth 5 declaration points.
const BIG: [PieceKind; 4] = [PieceKind::Bishop, PieceKind::Rook, PieceKind::Horse, PieceKind::Dragon];

/// What a declaration by the side to move would bring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declaration {
    /// The conditions are not met: declaring would lose.
    Invalid,
    /// A draw (24-point rule, 24 to 30 points).
    Draw,
    /// A win (under the try rule: the try move is on).
    Win,
}

/// Declaration points of the pieces in a hand: rook and bishop 5, the rest 1.
fn hand_points(hand: Hand) -> u32 {
    hand.total() + 4 * (hand.count(PieceKind::Bishop) + hand.count(PieceKind::Rook))
}

impl Position {
    /// Declaration points of `c`: rook and bishop (promoted or not) 5, the rest 1, over the pieces
    /// in `c`'s hand and `c`'s pieces in the enemy camp, king excluded. Also returns how many
    /// pieces other than the king are in the camp.
    pub fn declaration_points(&self, c: Color) -> (u32, u32) {
        let camp = masks::zone(c);
        let in_camp = self.pieces_of(c) & camp;
        let kings = self.pieces(c, PieceKind::King);
        let big: u32 = BIG.map(|k| (self.pieces(c, k) & camp).count()).iter().sum();
        let count = in_camp.and_not(kings).count();
        (count + 4 * big + hand_points(self.hand(c)), count)
    }

    /// Material of both sides, board and hands, counted as declaration points with both kings
    /// included at 1 point each: 56 for a full set, less in a handicap game.
    pub fn total_material_points(&self) -> u32 {
        let board_big: u32 =
            Color::ALL.into_iter().flat_map(|c| BIG.map(|k| self.pieces(c, k).count())).sum();
        let hands: u32 = Color::ALL.into_iter().map(|c| hand_points(self.hand(c))).sum();
        self.occupied().count() + 4 * board_big + hands
    }

    /// The king move that wins by the try rule: the side to move's king steps onto the enemy's
    /// try square (`try_square`: 5a for Black, 5i for White) when that move is legal, i.e. the
    /// square holds none of its own pieces and is not attacked once the king has left its square.
    pub fn try_move(&self) -> Option<Move> {
        let us = self.side_to_move();
        if !self.has_king(us) {
            return None;
        }
        let target = try_square(us);
        let ksq = self.king_square(us);
        let m = Move::normal(ksq, target);
        (king_attacks(ksq).contains(target) && self.is_legal(m)).then_some(m)
    }

    /// Whether the side to move may declare a win (or draw) under `rule`. Under `Try` there is
    /// no declaration: `Win` means the try move (`try_move`) is on.
    pub fn declaration(&self, rule: EnteringKingRule) -> Declaration {
        match rule {
            EnteringKingRule::None => Declaration::Invalid,
            EnteringKingRule::Try if self.try_move().is_some() => Declaration::Win,
            EnteringKingRule::Try => Declaration::Invalid,
            _ => self.point_declaration(rule),
        }
    }

    /// `declaration` under one of the point rules.
    fn point_declaration(&self, rule: EnteringKingRule) -> Declaration {
        let us = self.side_to_move();
        if self.in_check() || !masks::zone(us).contains(self.king_square(us)) {
            return Declaration::Invalid;
        }
        let (points, pieces) = self.declaration_points(us);
        if pieces < 10 {
            return Declaration::Invalid;
        }
        let (win, draw) = match rule {
            EnteringKingRule::Csa27 | EnteringKingRule::Csa27H if us == Color::Black => (28, None),
            EnteringKingRule::Csa27 | EnteringKingRule::Csa27H => (27, None),
            EnteringKingRule::Csa24 | EnteringKingRule::Csa24H => (31, Some(24)),
            EnteringKingRule::None | EnteringKingRule::Try => return Declaration::Invalid,
        };
        // In handicap games White, the giver, needs what its missing material is worth less.
        let handicap =
            matches!(rule, EnteringKingRule::Csa24H | EnteringKingRule::Csa27H) && us == Color::White;
        let lower = if handicap { FULL_SET_POINTS - self.total_material_points() as i32 } else { 0 };
        let points = points as i32;
        if points >= win - lower {
            Declaration::Win
        } else if draw.is_some_and(|d| points >= d - lower) {
            Declaration::Draw
        } else {
            Declaration::Invalid
        }
    }
}
