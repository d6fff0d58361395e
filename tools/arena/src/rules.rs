//! The game a match plays, from the shomei rules: shogi, or Dobutsu shogi (`--variant
//! dobutsu`). A [`Board`] takes the engines' moves in USI notation, refuses illegal ones and
//! judges the position before each move; the rest of the runner does not know which game it is.
//! How a game ends ([`EndReason`], [`Outcome`]) is here too, with shogi's judgements of an
//! entering-king declaration and of a try.

use crate::config::{Repetition, Variant};
use shomei::dobutsu;
use shomei::shogi::rules::try_square;
use shomei::shogi::{Declaration, EnteringKingRule, MoveError, Sennichite};
use shomei::{Color, PieceKind, Position};

/// Where a game starts: the opening lines' root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Root {
    Startpos,
    /// A game position, in the SFEN shomei writes for it.
    Sfen(String),
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

/// A side's name in the words of an outcome.
pub(crate) fn color_name(c: Color) -> &'static str {
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

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndReason {
    /// The side to move was in check with no legal move.
    Checkmate,
    /// The side to move had no legal move without being in check (it loses all the same).
    NoLegalMove,
    Resign,
    /// A correct entering-king declaration (`bestmove win`).
    Declaration,
    /// A declaration worth a draw under the 24-point rule.
    DeclarationDraw,
    /// `bestmove win` without meeting the conditions.
    FalseDeclaration,
    /// Fourfold repetition, a draw.
    Sennichite,
    /// Fourfold repetition with one side checking throughout: that side loses.
    PerpetualCheck,
    MaxMoves,
    IllegalMove,
    /// The move took longer than the clock allowed, or never came.
    Time,
    /// The engine exited or closed its output.
    Crash,
    /// No `usiok` or `readyok` in time.
    NoResponse,
    /// A pondering engine gave no `bestmove` in time after `stop`.
    Hang,
    /// The engine broke the USI protocol: a `bestmove` to `go ponder` before `ponderhit` or
    /// `stop`.
    ProtocolError,
    /// Dobutsu: the side to move's Lion was captured.
    LionCaptured,
    /// Dobutsu: the opposing Lion reached the far rank and cannot be captured. Shogi under the
    /// try rule: the opposing king moved onto its try square.
    Try,
}

impl EndReason {
    /// Short code for tables and counts.
    pub fn code(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::NoLegalMove => "no-legal-move",
            EndReason::Resign => "resign",
            EndReason::Declaration => "declaration",
            EndReason::DeclarationDraw => "declaration-draw",
            EndReason::FalseDeclaration => "false-declaration",
            EndReason::Sennichite => "sennichite",
            EndReason::PerpetualCheck => "perpetual-check",
            EndReason::MaxMoves => "max-moves",
            EndReason::IllegalMove => "illegal-move",
            EndReason::Time => "time",
            EndReason::Crash => "crash",
            EndReason::NoResponse => "no-response",
            EndReason::Hang => "hang",
            EndReason::ProtocolError => "protocol-error",
            EndReason::LionCaptured => "lion-captured",
            EndReason::Try => "try",
        }
    }
}

/// The result of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// None: a draw.
    pub winner: Option<Color>,
    pub reason: EndReason,
    /// Who did what, in words.
    pub detail: String,
}

/// Judges a shogi position before the side to move is asked for a move (see `Board::adjudicate`).
pub fn adjudicate(pos: &Position, max_moves: u32) -> Option<Outcome> {
    Board::Shogi(Box::new(pos.clone())).adjudicate(max_moves)
}

/// Judges `bestmove win` from the side to move.
pub fn judge_declaration(pos: &Position, rule: EnteringKingRule) -> Outcome {
    let us = pos.side_to_move();
    let (points, pieces) = pos.declaration_points(us);
    let facts = format!("{points} points, {pieces} pieces in the camp, rule {rule:?}");
    // Under the try rule the try is a move: there is nothing to declare.
    let verdict = if rule == EnteringKingRule::Try { Declaration::Invalid } else { pos.declaration(rule) };
    match verdict {
        Declaration::Win => Outcome {
            winner: Some(us),
            reason: EndReason::Declaration,
            detail: format!("{} declared an entering-king win ({facts})", color_name(us)),
        },
        Declaration::Draw => Outcome {
            winner: None,
            reason: EndReason::DeclarationDraw,
            detail: format!("{} declared and scored a draw ({facts})", color_name(us)),
        },
        Declaration::Invalid => Outcome {
            winner: Some(!us),
            reason: EndReason::FalseDeclaration,
            detail: format!(
                "{} declared a win (bestmove win) without meeting the conditions ({facts}{})",
                color_name(us),
                if pos.in_check() { ", in check" } else { "" }
            ),
        },
    }
}

/// Under the try rule, the win of the side that just moved if that move took its king onto its
/// try square; the move was legal, so the square was safe.
pub fn judge_try(pos: &Position, rule: EnteringKingRule) -> Option<Outcome> {
    let mover = !pos.side_to_move();
    let m = pos.last_move()?;
    let reached =
        !m.is_drop() && m.to() == try_square(mover) && pos.piece_on(m.to()).kind() == PieceKind::King;
    (rule == EnteringKingRule::Try && reached).then(|| Outcome {
        winner: Some(mover),
        reason: EndReason::Try,
        detail: format!("{} moved its king onto the try square {}", color_name(mover), m.to()),
    })
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

    /// White king 1a behind pawns on 1c and 2c, Black rook 5b, Black king 9i.
    const PERPETUAL_SFEN: &str = "8k/4R4/7pp/9/9/9/9/9/K8 b - 1";

    #[test]
    fn adjudicates_mate_repetition_and_move_limit() {
        let mated = Position::from_sfen("8k/8G/8P/9/9/9/9/9/K8 w - 1").unwrap();
        let o = adjudicate(&mated, 300).unwrap();
        assert_eq!((o.winner, o.reason), (Some(Color::Black), EndReason::Checkmate));

        let mut pos = Position::startpos();
        let cycle = ["2h3h", "8b7b", "3h2h", "7b8b"];
        for i in 0..12 {
            assert!(adjudicate(&pos, 300).is_none(), "ended early at ply {i}");
            let m = pos.parse_move(cycle[i % 4]).unwrap();
            pos.do_move(m);
        }
        let o = adjudicate(&pos, 300).unwrap();
        assert_eq!((o.winner, o.reason), (None, EndReason::Sennichite));

        // White king shuttles 1a-1b while a Black rook checks from 5a and 5b.
        let mut pos = Position::from_sfen(PERPETUAL_SFEN).unwrap();
        let cycle = ["5b5a", "1a1b", "5a5b", "1b1a"];
        for i in 0..12 {
            assert!(adjudicate(&pos, 300).is_none(), "ended early at ply {i}");
            let m = pos.parse_move(cycle[i % 4]).unwrap();
            pos.do_move(m);
        }
        let o = adjudicate(&pos, 300).unwrap();
        assert_eq!((o.winner, o.reason), (Some(Color::White), EndReason::PerpetualCheck));

        let mut pos = Position::startpos();
        for m in ["7g7f", "3c3d", "2g2f"] {
            let m = pos.parse_move(m).unwrap();
            pos.do_move(m);
        }
        assert!(adjudicate(&pos, 4).is_none());
        let o = adjudicate(&pos, 3).unwrap();
        assert_eq!((o.winner, o.reason), (None, EndReason::MaxMoves));
    }

    #[test]
    fn judges_declarations() {
        // Black king on 5b; in the camp: 9 pawns, rook, bishop = 19 points over 11 pieces;
        // in hand 4 golds, 4 silvers, a knight = 9 points. 28 in all: a win under the 27-point
        // rule (Black needs 28), a draw under the 24-point rule (24..30).
        let pos = Position::from_sfen("9/1R2K2B1/PPPPPPPPP/9/9/9/9/9/4k4 b 4G4SNrb3n4l9p 1").unwrap();
        assert_eq!(pos.declaration_points(Color::Black), (28, 11));
        let o = judge_declaration(&pos, EnteringKingRule::Csa27);
        assert_eq!((o.winner, o.reason), (Some(Color::Black), EndReason::Declaration));
        let o = judge_declaration(&pos, EnteringKingRule::Csa24);
        assert_eq!((o.winner, o.reason), (None, EndReason::DeclarationDraw));
        let o = judge_declaration(&pos, EnteringKingRule::None);
        assert_eq!((o.winner, o.reason), (Some(Color::White), EndReason::FalseDeclaration));
        let o = judge_declaration(&Position::startpos(), EnteringKingRule::Csa27);
        assert_eq!((o.winner, o.reason), (Some(Color::White), EndReason::FalseDeclaration));
        // The try rule has no declaration.
        let o = judge_declaration(&pos, EnteringKingRule::Try);
        assert_eq!((o.winner, o.reason), (Some(Color::White), EndReason::FalseDeclaration));
    }

    #[test]
    fn judges_tries() {
        let mut pos = Position::from_sfen("9/4K4/9/9/9/9/9/9/4k4 b 2r2b4g4s4n4l18p 1").unwrap();
        let m = pos.parse_move("5b5a").unwrap();
        pos.do_move(m);
        let o = judge_try(&pos, EnteringKingRule::Try).unwrap();
        assert_eq!((o.winner, o.reason), (Some(Color::Black), EndReason::Try));
        assert!(judge_try(&pos, EnteringKingRule::Csa27).is_none());
        // Any other move, by the king or not, is no try.
        let mut pos = Position::from_sfen("9/4K4/9/9/9/9/9/9/4k4 b 2r2b4g4s4n4l18p 1").unwrap();
        let m = pos.parse_move("5b4a").unwrap();
        pos.do_move(m);
        assert!(judge_try(&pos, EnteringKingRule::Try).is_none());
    }
}
