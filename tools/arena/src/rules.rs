//! The game a match plays, from the shomei rules: shogi, or Dobutsu shogi (`--variant
//! dobutsu`). A [`Board`] takes the engines' moves in USI notation, refuses illegal ones and
//! judges the position before each move; the rest of the runner does not know which game it is.

use crate::game::{EndReason, Outcome};
use crate::openings::{Opening, Root};
use shomei::dobutsu;
use shomei::shogi::{MoveError, Sennichite};
use shomei::{Color, Position};

/// Which game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Shogi, 9×9.
    Shogi,
    /// Dobutsu shogi, 3×4; engines are told `setoption name UCI_Variant value dobutsu`.
    Dobutsu,
}

impl Variant {
    /// The `UCI_Variant` value engines are given, or `None` for standard shogi.
    pub fn uci_variant(self) -> Option<&'static str> {
        match self {
            Variant::Shogi => None,
            Variant::Dobutsu => Some("dobutsu"),
        }
    }
}

/// Dobutsu's repetition rule: the game is drawn when a position (board, hands, side to move)
/// occurs for the `draw_at`-th time; 0 means repetition is not counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repetition {
    /// The occurrence that draws (4 as Fairy-Stockfish, 3 as the official rules), or 0.
    pub draw_at: u32,
}

/// A game in progress: its position and the history its rules need.
#[derive(Clone, Debug)]
pub enum Board {
    /// Shogi: the position keeps its own history (sennichite). Boxed: a board per game, and
    /// the variants then have the same size.
    Shogi(Box<Position>),
    /// Dobutsu, with every position since the root for the repetition rule.
    Dobutsu {
        /// The current position.
        pos: dobutsu::Position,
        /// Every position so far, the current one last, with the ply number zeroed.
        seen: Vec<dobutsu::Position>,
        /// The rule in force.
        repetition: Repetition,
        /// Plies played since the root.
        plies: u32,
    },
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

impl Board {
    /// The root of `root` in `variant`, or why it is not a position of that game.
    pub fn at_root(variant: Variant, root: &Root, repetition: Repetition) -> Result<Board, String> {
        Ok(match variant {
            Variant::Shogi => Board::Shogi(Box::new(match root {
                Root::Startpos => Position::startpos(),
                Root::Sfen(s) => Position::from_sfen(s).map_err(|e| format!("invalid SFEN '{s}': {e}"))?,
            })),
            Variant::Dobutsu => {
                let pos = match root {
                    Root::Startpos => dobutsu::Position::startpos(),
                    Root::Sfen(s) => dobutsu::Position::from_sfen(s)
                        .map_err(|e| format!("invalid Dobutsu SFEN '{s}': {e}"))?,
                };
                Board::Dobutsu { pos, seen: vec![without_ply(pos)], repetition, plies: 0 }
            }
        })
    }

    /// The position after `opening`'s moves, which were checked when it was loaded.
    pub fn after_opening(variant: Variant, opening: &Opening, repetition: Repetition) -> Board {
        let mut board = Board::at_root(variant, &opening.root, repetition).expect("checked when loaded");
        for m in &opening.moves {
            board.play_usi(m).expect("checked when loaded");
        }
        board
    }

    /// The root's SFEN as this game writes it (for opening lines).
    pub fn sfen(&self) -> String {
        match self {
            Board::Shogi(p) => p.to_sfen(),
            Board::Dobutsu { pos, .. } => pos.to_sfen(),
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        match self {
            Board::Shogi(p) => p.side_to_move(),
            Board::Dobutsu { pos, .. } => pos.side_to_move(),
        }
    }

    /// Plays `text`, a move in USI notation, if it is legal here.
    pub fn play_usi(&mut self, text: &str) -> Result<(), MoveError> {
        match self {
            Board::Shogi(p) => {
                let m = p.parse_move(text)?;
                p.do_move(m);
            }
            Board::Dobutsu { pos, seen, plies, .. } => {
                let m = dobutsu::parse_move(pos, text).map_err(|e| match e {
                    dobutsu::MoveError::Illegal(_) => MoveError::Illegal,
                    dobutsu::MoveError::Syntax(_) => MoveError::Malformed,
                })?;
                *pos = pos.play(m);
                seen.push(without_ply(*pos));
                *plies += 1;
            }
        }
        Ok(())
    }

    /// Whether `text`, a move in USI notation, is legal here (a pondering engine's guess).
    pub fn is_legal_usi(&self, text: &str) -> bool {
        match self {
            Board::Shogi(p) => p.parse_move(text).is_ok(),
            Board::Dobutsu { pos, .. } => dobutsu::parse_move(pos, text).is_ok(),
        }
    }

    /// The legal moves here, in USI notation.
    pub fn legal_moves(&self) -> Vec<String> {
        match self {
            Board::Shogi(p) => p.legal_moves().iter().map(|m| m.to_string()).collect(),
            Board::Dobutsu { pos, .. } => {
                dobutsu::legal_moves(pos).iter().map(|&m| dobutsu::move_to_usi(m)).collect()
            }
        }
    }

    /// Judges the position before the side to move is asked for a move: a loss for a side that
    /// has lost under the rules, a draw by repetition or by the move limit.
    pub fn adjudicate(&self, max_moves: u32) -> Option<Outcome> {
        let us = self.side_to_move();
        let lost = |reason: EndReason, what: &str| {
            Some(Outcome { winner: Some(!us), reason, detail: format!("{} {what}", color_name(us)) })
        };
        let played = match self {
            Board::Shogi(pos) => {
                if pos.is_mated() {
                    return if pos.in_check() {
                        lost(EndReason::Checkmate, "is checkmated")
                    } else {
                        lost(EndReason::NoLegalMove, "has no legal move")
                    };
                }
                match pos.sennichite() {
                    Sennichite::None => {}
                    Sennichite::Draw => {
                        return Some(Outcome {
                            winner: None,
                            reason: EndReason::Sennichite,
                            detail: "the same position occurred four times".into(),
                        })
                    }
                    Sennichite::PerpetualCheck(checker) => {
                        return Some(Outcome {
                            winner: Some(!checker),
                            reason: EndReason::PerpetualCheck,
                            detail: format!(
                                "the same position occurred four times with {} checking on every move",
                                color_name(checker)
                            ),
                        })
                    }
                }
                pos.game_ply().saturating_sub(1)
            }
            Board::Dobutsu { pos, seen, repetition, plies } => {
                if pos.lion(us).is_none() {
                    return lost(EndReason::LionCaptured, "lost its Lion");
                }
                if pos.lost_to_try() {
                    return lost(EndReason::Try, "cannot stop the opposing Lion's Try");
                }
                if dobutsu::legal_moves(pos).is_empty() {
                    return lost(EndReason::NoLegalMove, "has no legal move");
                }
                let now = seen.last().expect("the root is seen");
                let times = seen.iter().filter(|p| *p == now).count() as u32;
                if repetition.draw_at > 0 && times >= repetition.draw_at {
                    return Some(Outcome {
                        winner: None,
                        reason: EndReason::Sennichite,
                        detail: format!("the same position occurred {times} times"),
                    });
                }
                *plies
            }
        };
        if played >= max_moves {
            return Some(Outcome {
                winner: None,
                reason: EndReason::MaxMoves,
                detail: format!("{played} moves played, the limit is {max_moves}"),
            });
        }
        None
    }
}

/// The position for repetition counting: the ply number is not part of it.
fn without_ply(mut p: dobutsu::Position) -> dobutsu::Position {
    p.set_ply(0);
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dobutsu(sfen: &str, draw_at: u32) -> Board {
        Board::at_root(Variant::Dobutsu, &Root::Sfen(sfen.into()), Repetition { draw_at }).unwrap()
    }

    fn reason(b: &Board) -> Option<(Option<Color>, EndReason)> {
        b.adjudicate(1000).map(|o| (o.winner, o.reason))
    }

    #[test]
    fn dobutsu_ends_by_capture_try_and_no_move() {
        // White can take Black's Lion: not over until it does, then White has won.
        let mut b = dobutsu("3/1l1/1L1/3 w - 1", 4);
        assert_eq!(reason(&b), None);
        b.play_usi("2b2c").unwrap();
        assert_eq!(reason(&b), Some((Some(Color::White), EndReason::LionCaptured)));
        // White's Lion on Black's back rank, out of reach: White's Try stands.
        assert_eq!(reason(&dobutsu("3/L2/3/1l1 b - 1", 4)), Some((Some(Color::White), EndReason::Try)));
        // The start goes on.
        let mut b = Board::at_root(Variant::Dobutsu, &Root::Startpos, Repetition { draw_at: 4 }).unwrap();
        assert_eq!(reason(&b), None);
        assert!(b.is_legal_usi("2c2b") && !b.is_legal_usi("2c2a") && !b.is_legal_usi("zz"));
        assert!(b.play_usi("2c2b").is_ok());
        assert_eq!(b.play_usi("2c2b"), Err(MoveError::Illegal));
        assert_eq!(b.play_usi("zz"), Err(MoveError::Malformed));
    }

    #[test]
    fn dobutsu_repetition_follows_the_rule() {
        // Giraffes step back and forth: the start position recurs every four plies.
        let shuffle = ["1d1c", "3a3b", "1c1d", "3b3a"];
        for draw_at in [3, 4] {
            let mut b = Board::at_root(Variant::Dobutsu, &Root::Startpos, Repetition { draw_at }).unwrap();
            let mut plies = 0;
            while reason(&b).is_none() {
                b.play_usi(shuffle[plies % 4]).unwrap();
                plies += 1;
                assert!(plies <= 16, "no draw after {plies} plies");
            }
            assert_eq!(reason(&b), Some((None, EndReason::Sennichite)));
            assert_eq!(plies, 4 * (draw_at as usize - 1), "draw at occurrence {draw_at}");
        }
        let mut off = Board::at_root(Variant::Dobutsu, &Root::Startpos, Repetition { draw_at: 0 }).unwrap();
        for p in 0..40 {
            off.play_usi(shuffle[p % 4]).unwrap();
        }
        assert_eq!(reason(&off), None);
    }
}
