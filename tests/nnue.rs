//! The network evaluation's inference: the search's accumulators, updated move by move, equal
//! the ones computed from scratch at every node of perft trees (every kind of move, king moves
//! that change a perspective's bucket or mirror, null moves, hands beyond the set), for shomei's
//! own net and for YaneuraOu's HalfKP nets, and the evaluation treats the colours alike.

mod common {
    pub mod random_play;
    pub mod twins;
}

use common::random_play::{pos, random_play};
use common::twins::colour_swapped;
use shomei::eval::nnue::halfkp::{HalfKpNet, Scaled, DEFAULT_FV_SCALE};
use shomei::eval::nnue::{
    evaluate_from_scratch, random_network, Accumulator, AccumulatorStack, Architecture,
};
use shomei::{Move, PieceKind, Position};
use std::sync::Arc;

/// What the walks went through, to show the tests cover what they claim to.
#[derive(Default, Debug)]
struct Seen {
    compared: u64,
    captures: u64,
    promotions: u64,
    drops: u64,
    /// King moves that change the mover's own view (a refresh of that perspective).
    view_changes: u64,
    /// King moves inside the same view (an update of the king's own feature).
    same_view_king_moves: u64,
    null_moves: u64,
    /// Captures and drops whose hand piece is beyond the set (no feature).
    beyond_set: u64,
}

struct Walk<'a, N: Architecture<L>, const L: usize> {
    net: &'a N,
    stack: AccumulatorStack<L>,
    line: Vec<Move>,
    seen: Seen,
    /// Counts nodes, to compare at only some inner nodes: the others are brought up to date
    /// lazily over several plies.
    nodes: u64,
}

impl<N: Architecture<L>, const L: usize> Walk<'_, N, L> {
    fn compare(&mut self, pos: &Position, root: &str) {
        self.seen.compared += 1;
        let incremental = *self.stack.accumulator(self.net, pos);
        if incremental != Accumulator::refreshed(self.net, pos) {
            let line: Vec<String> = self.line.iter().map(|m| m.to_string()).collect();
            panic!("accumulators differ after {root} moves {}", line.join(" "));
        }
        assert_eq!(self.stack.evaluate(self.net, pos), evaluate_from_scratch(self.net, pos));
    }

    fn note(&mut self, pos: &Position, m: Move) {
        let us = pos.side_to_move();
        if m.is_drop() {
            self.seen.drops += 1;
            if pos.hand(us).count(m.dropped_kind()) > m.dropped_kind().set_count() {
                self.seen.beyond_set += 1;
            }
            return;
        }
        if m.is_promotion() {
            self.seen.promotions += 1;
        }
        let captured = pos.piece_on(m.to());
        if captured.is_some() {
            self.seen.captures += 1;
            let k = captured.kind().unpromoted();
            if pos.hand(us).count(k) + 1 > k.set_count() {
                self.seen.beyond_set += 1;
            }
        }
        if pos.piece_on(m.from()).kind() == PieceKind::King {
            if N::view(us, m.from()) != N::view(us, m.to()) {
                self.seen.view_changes += 1;
            } else {
                self.seen.same_view_king_moves += 1;
            }
        }
    }

    /// Every line of `depth` moves below `pos`, and a null move (with each reply) at every node
    /// not in check.
    fn walk(&mut self, pos: &mut Position, depth: u32, root: &str) {
        self.nodes += 1;
        if depth == 0 || self.nodes.is_multiple_of(3) {
            self.compare(pos, root);
        }
        if depth == 0 {
            return;
        }
        if !pos.in_check() && depth >= 2 {
            self.seen.null_moves += 1;
            self.stack.push_null();
            pos.do_null_move();
            self.line.push(Move::NONE);
            self.compare(pos, root);
            for m in pos.legal_moves().iter().copied().take(8) {
                self.stack.push(pos, m);
                pos.do_move(m);
                self.compare(pos, root);
                pos.undo_move();
                self.stack.pop();
            }
            self.line.pop();
            pos.undo_null_move();
            self.stack.pop();
        }
        for m in pos.legal_moves().iter().copied() {
            self.note(pos, m);
            self.stack.push(pos, m);
            pos.do_move(m);
            self.line.push(m);
            self.walk(pos, depth - 1, root);
            self.line.pop();
            pos.undo_move();
            self.stack.pop();
        }
        // Back at this node after its whole subtree: still right.
        self.compare(pos, root);
    }
}

fn walk_all<N: Architecture<L>, const L: usize>(net: &N, roots: &[(&str, u32)]) -> Seen {
    let mut w =
        Walk { net, stack: AccumulatorStack::new(), line: Vec::new(), seen: Seen::default(), nodes: 0 };
    for &(sfen, depth) in roots {
        let mut p = pos(sfen);
        w.stack.reset(net, &p);
        w.walk(&mut p, depth, sfen);
        assert_eq!(w.stack.ply(), 0);
    }
    w.seen
}

/// Roots whose perft trees hold every kind of move the accumulators must follow.
const ROOTS: [(&str, u32); 8] = [
    ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 3),
    // Kings on 5h and 5b in the centre file with a silver each in hand: king steps cross
    // the rank zones, the file zones (4h) and the mirror (6h).
    ("lnsg1g1nl/1r2k2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2K2R1/LN1G1GSNL b Ss 1", 3),
    // A middlegame with pieces in hand, promoted pieces and a bishop that can promote.
    ("lnsgk1snl/1r4g2/p1ppppb1p/6pP1/7R1/2P6/P2PPPP1P/1SG6/LN2KGSNL b BP2p 21", 2),
    ("ln1gkg3/1r1s1sb2/ppppp4/5+B1p1/5nR2/2P1P2P1/PP1P1P2L/3S1S3/LN1GKG1N1 w L4Pp 46", 2),
    // Open kings in the middle of the board: every step changes the view or not.
    ("9/9/3pkp3/9/4K4/9/9/9/9 b S 1", 3),
    ("4k4/9/9/3G5/9/5K3/9/9/9 w g 1", 3),
    // Hands beyond the set (composed, more pawns than a set): the 19th pawn in a hand has no
    // feature when it is captured, nor when it is dropped.
    ("4k4/9/4p4/4R4/9/9/9/9/4K4 b 18P2p 1", 3),
    ("4k4/9/9/9/4r4/4P4/9/9/4K4 w 2P18p 1", 2),
];

/// Fails unless the walk compared many nodes and went through every kind of move (king moves
/// within one view only where the architecture has such moves).
fn assert_covered(seen: &Seen, same_view_king_moves: bool) {
    eprintln!("{seen:?}");
    assert!(seen.compared > 100_000, "{seen:?}");
    for (what, n) in [
        ("captures", seen.captures),
        ("promotions", seen.promotions),
        ("drops", seen.drops),
        ("view changes", seen.view_changes),
        ("same-view king moves", if same_view_king_moves { seen.same_view_king_moves } else { u64::MAX }),
        ("null moves", seen.null_moves),
        ("pieces beyond the set", seen.beyond_set),
    ] {
        assert!(n >= 20, "only {n} {what}: {seen:?}");
    }
}

#[test]
fn incremental_accumulators_equal_refreshed_ones_over_perft_trees() {
    let net = random_network(0x6e6e);
    assert_covered(&walk_all(&net, &ROOTS), true);
}

/// HalfKP refreshes a perspective at every move of its own king (its square is in every
/// feature), has no king features, and counts missing pieces (handicaps) as feature 0.
#[test]
fn halfkp_accumulators_equal_refreshed_ones_over_perft_trees() {
    let net = Scaled { net: Arc::new(HalfKpNet::<256, 32, 32>::random(0x6b70)), fv_scale: DEFAULT_FV_SCALE };
    let seen = walk_all(&net, &ROOTS);
    // Every king move is a view change for HalfKP.
    assert_covered(&seen, false);
    assert_eq!(seen.same_view_king_moves, 0);
    // A handicap (Black without its bishop and a lance): the missing pieces' feature stays put.
    let handicap = walk_all(&net, &[("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/7R1/1NSGKGSNL w - 1", 3)]);
    assert!(handicap.compared > 10_000, "{handicap:?}");
    // The widest member of the family, on a smaller tree.
    let wide = Scaled { net: Arc::new(HalfKpNet::<1024, 8, 64>::random(0x6b71)), fv_scale: DEFAULT_FV_SCALE };
    let seen = walk_all(
        &wide,
        &[ROOTS[1], ("lnsgk1snl/1r4g2/p1ppppb1p/6pP1/7R1/2P6/P2PPPP1P/1SG6/LN2KGSNL b BP2p 21", 2)],
    );
    assert!(seen.compared > 2_000 && seen.view_changes > 20, "{seen:?}");
}

#[test]
fn a_random_line_is_updated_lazily_over_many_plies() {
    // Random games evaluated only every few plies: the top is brought up to date from an
    // ancestor several moves down, through king moves and captures.
    let net = random_network(99);
    let mut rng = shomei::rng::Rng::new(5);
    for game in 0..40 {
        let mut p = Position::startpos();
        let mut stack = AccumulatorStack::new();
        stack.reset(&net, &p);
        for ply in 0..160 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            stack.push(&p, m);
            p.do_move(m);
            if rng.below(5) == 0 {
                assert_eq!(
                    *stack.accumulator(&net, &p),
                    Accumulator::refreshed(&net, &p),
                    "game {game} ply {ply}: {}",
                    p.to_sfen()
                );
            }
        }
        assert_eq!(stack.ply(), p.moves_played());
    }
}

#[test]
fn the_colour_swapped_position_evaluates_the_same_for_the_side_to_move() {
    let net = random_network(0x5157);
    let mut positions = random_play("startpos", 0x5eed_0002, 30, 120);
    positions.extend(random_play("9/9/3pkp3/9/4K4/9/9/9/9 b GS2r2b3g3s4n4l16p 1", 3, 10, 40));
    assert!(positions.len() >= 3000);
    let mut values = std::collections::HashSet::new();
    for p in &positions {
        let sfen = p.to_sfen();
        let twin = pos(&colour_swapped(&sfen));
        let v = evaluate_from_scratch(&net, p);
        assert_eq!(v, evaluate_from_scratch(&net, &twin), "{sfen}");
        // The side to move's accumulator of one is the other's: the same features.
        let us = p.side_to_move();
        assert_eq!(
            shomei::eval::nnue::refresh(&net, p, us),
            shomei::eval::nnue::refresh(&net, &twin, !us),
            "{sfen}"
        );
        values.insert(v);
    }
    // A net that scored everything alike would pass the above for nothing.
    assert!(values.len() > positions.len() / 4, "{} values", values.len());
}

/// The network built into the binary loads, is the search's default evaluator, treats the
/// colours alike, and sees a pawn's worth: the start position is close to level, and the same
/// position with Black's rook taken off is far better for White.
#[cfg(not(feature = "material"))]
#[test]
fn the_embedded_network_loads_and_is_the_default() {
    let net = shomei::eval::nnue::embedded::network().expect("a network is built in");
    assert!(net.check_ranges().is_ok());
    let default =
        shomei::search::SearchOptions::default().network.expect("the default uses the built-in net");
    assert!(matches!(default, shomei::eval::nnue::AnyNetwork::Shomei(d) if Arc::ptr_eq(&net, &d)));
    let start = Position::startpos();
    let level = evaluate_from_scratch(&net, &start);
    assert!(level.abs() < 150, "start position evaluated {level}");
    let rookless = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL b - 1");
    let down = evaluate_from_scratch(&net, &rookless);
    assert!(down < level - 400, "without its rook Black is evaluated {down}, level {level}");
    for p in random_play("startpos", 7, 40, 60) {
        let twin = pos(&colour_swapped(&p.to_sfen()));
        assert_eq!(evaluate_from_scratch(&net, &p), evaluate_from_scratch(&net, &twin));
    }
}
