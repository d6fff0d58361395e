//! Expansion: pushing the frame of the current position and creating its children, each
//! with the numbers the table, a quick terminal test or the df-pn+ heuristics give it.

use super::node::{child_limit, Child, Frame, NodeResult, NO_DEPENDENCY};
use super::result::no_move_disproof_hand;
use super::{Solver, MAX_MATE_PLY};
use crate::mate::moves::{generate_checks, generate_evasions};
use crate::mate::one::{find_mate_with_hand, interposition_requirement, king_escapes};
use crate::mate::tt::UNLIMITED;
use crate::shogi::movegen::MoveList;
use crate::shogi::Position;
use crate::types::{Bitboard, Hand, Move};

/// Cap of the initial disproof number of an OR child.
const MAX_INIT_DN: u32 = 8;

/// Initial proof number of an AND node with these evasions: one per evasion, drops on one
/// square counted once (they are expanded one at a time).
fn initial_and_pn(evasions: &[Move]) -> u32 {
    let mut n = 0u32;
    let mut drop_squares = 0u128;
    for m in evasions {
        if m.is_drop() {
            let bit = 1u128 << m.to().index();
            if drop_squares & bit == 0 {
                drop_squares |= bit;
                n += 1;
            }
        } else {
            n += 1;
        }
    }
    n.max(1)
}

impl Solver<'_> {
    /// The attacker's hand in `pos`: with the board key, what the table is keyed by.
    #[inline]
    fn attacker_hand(&self, pos: &Position) -> Hand {
        pos.hand(self.attacker)
    }

    /// Takes the board `key` off the path once, as the frame that put it there is popped.
    pub(super) fn leave_path(&mut self, key: u64) {
        if let Some(n) = self.path.get_mut(&key) {
            *n -= 1;
            if *n == 0 {
                self.path.remove(&key);
            }
        }
    }

    /// The ply of an ancestor on the path with this board and an attacker hand covering `hand`.
    fn repetition(&self, key: u64, hand: Hand) -> Option<u32> {
        if !self.path.contains_key(&key) {
            return None;
        }
        // Earliest such ancestor: that is the weakest dependency.
        self.frames.iter().find(|f| f.key == key && f.hand.covers(hand)).map(|f| f.ply)
    }

    /// Pushes the frame for the current position and expands it (or records a result known
    /// at once).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn enter(
        &mut self,
        pos: &mut Position,
        or_node: bool,
        ply: u32,
        limit: u16,
        pn_threshold: u32,
        dn_threshold: u32,
        trust_entry: bool,
    ) {
        let key = pos.board_key();
        let hand = self.attacker_hand(pos);
        let start = self.children.len();
        let mut frame = Frame {
            or_node,
            ply,
            limit,
            pn_threshold,
            dn_threshold,
            start,
            end: start,
            key,
            hand,
            nodes_at_entry: self.nodes,
            current: start,
            interposition_hand: Hand::EMPTY,
            terminal: None,
            no_store: false,
            fresh: true,
        };
        if let Some(ancestor_ply) = self.repetition(key, hand) {
            frame.terminal = Some(NodeResult::disproven(UNLIMITED, hand, ancestor_ply + 1));
            frame.no_store = true;
        } else if ply >= MAX_MATE_PLY {
            frame.terminal = Some(NodeResult::disproven(UNLIMITED, hand, 0));
            frame.no_store = true;
        } else if let Some(r) =
            trust_entry.then(|| NodeResult::from_table(self.tt.probe(key, hand, limit))).flatten()
        {
            frame.terminal = Some(r);
            frame.no_store = true;
        } else if or_node {
            self.expand_or(pos, &mut frame);
        } else {
            self.expand_and(pos, &mut frame);
        }
        *self.path.entry(key).or_insert(0) += 1;
        self.frames.push(frame);
        self.max_ply = self.max_ply.max(ply);
    }

    /// Creates an OR node's children, one per check (stopping at a mate in one), sorted by proof
    /// number. With no plies left, or no check, the node is disproven at once.
    fn expand_or(&mut self, pos: &mut Position, frame: &mut Frame) {
        if frame.limit == 0 {
            frame.terminal = Some(NodeResult::disproven(0, Hand::full(), NO_DEPENDENCY));
            frame.no_store = true;
            return;
        }
        let mut list = MoveList::new();
        generate_checks(pos, &mut list);
        if list.is_empty() {
            frame.terminal =
                Some(NodeResult::disproven(UNLIMITED, no_move_disproof_hand(frame.hand), NO_DEPENDENCY));
            return;
        }
        let child_limit = child_limit(frame.limit);
        for &m in list.iter() {
            let c = self.make_and_child(pos, m, child_limit);
            self.children.push(c);
            if c.pn == 0 && c.len == 0 {
                // A mate in one: nothing shorter exists, the other checks need no look.
                break;
            }
        }
        frame.end = self.children.len();
        self.children[frame.start..frame.end].sort_by_key(|c| c.pn);
    }

    /// Creates an AND node's children, one per evasion: board moves first, then drops grouped by
    /// square, all but the first drop of a square delayed. With no evasion the node is mated; with no
    /// plies left it is disproven within 0.
    fn expand_and(&mut self, pos: &mut Position, frame: &mut Frame) {
        let mut list = MoveList::new();
        generate_evasions(pos, &mut list);
        frame.interposition_hand = interposition_requirement(pos);
        if list.is_empty() {
            frame.terminal = Some(NodeResult::proven(0, frame.interposition_hand));
            return;
        }
        if frame.limit == 0 {
            frame.terminal = Some(NodeResult::disproven(0, frame.hand, NO_DEPENDENCY));
            return;
        }
        let child_limit = child_limit(frame.limit);
        // Board moves first (king moves, captures, moved interpositions), then the drops grouped
        // by square. Of the drops on one square only the first is looked at; each next one
        // waits until the one before it is proven (delayed interposition): proofs after the
        // capture of one interposed piece often settle the others through the table.
        let king_sq = pos.king_square(pos.side_to_move());
        list.as_mut_slice().sort_by_key(|m| {
            if m.is_drop() {
                (2u8, m.to().index() as u8, m.dropped_kind() as u8)
            } else if m.from() == king_sq {
                (0, 0, 0)
            } else {
                (1, 0, 0)
            }
        });
        let mut prev_drop_to: Option<usize> = None;
        for &m in list.iter() {
            if m.is_drop() && prev_drop_to == Some(m.to().index()) {
                let c = Child {
                    mv: m,
                    pn: 1,
                    dn: 1,
                    len: 0,
                    key: 0,
                    hand: frame.hand,
                    result_hand: frame.hand,
                    depends_on: NO_DEPENDENCY,
                    delayed: true,
                };
                self.children.push(c);
                continue;
            }
            prev_drop_to = m.is_drop().then(|| m.to().index());
            let c = self.make_or_child(pos, m, child_limit);
            self.children.push(c);
            if c.dn == 0 && c.depends_on == NO_DEPENDENCY {
                // One refutation decides the node.
                break;
            }
        }
        frame.end = self.children.len();
    }

    /// Makes an attacker check `m` and evaluates the defender's position it leads to.
    fn make_and_child(&mut self, pos: &mut Position, m: Move, limit: u16) -> Child {
        pos.do_move(m);
        self.nodes += 1;
        let key = pos.board_key();
        let hand = self.attacker_hand(pos);
        let mut c = Child::new(m, key, hand);
        if !c.absorb(self.tt.probe(key, hand, limit)) {
            let mut evasions = MoveList::new();
            generate_evasions(pos, &mut evasions);
            if evasions.is_empty() {
                c.set(NodeResult::proven(0, interposition_requirement(pos)));
                self.tt.store_proven(key, c.result_hand, 0, 1);
            } else if limit == 0 {
                c.set(NodeResult::disproven(0, hand, NO_DEPENDENCY));
            } else {
                c.pn = initial_and_pn(&evasions);
                c.dn = 1;
                self.tt.store_unknown(key, hand, c.pn, c.dn, 1);
            }
        }
        pos.undo_move();
        c
    }

    /// Makes a defender move `m` and evaluates the attacker's position it leads to.
    pub(super) fn make_or_child(&mut self, pos: &mut Position, m: Move, limit: u16) -> Child {
        pos.do_move(m);
        self.nodes += 1;
        let key = pos.board_key();
        let hand = self.attacker_hand(pos);
        let mut c = Child::new(m, key, hand);
        if let Some(ancestor_ply) = self.repetition(key, hand) {
            c.set(NodeResult::disproven(UNLIMITED, hand, ancestor_ply + 1));
            pos.undo_move();
            return c;
        }
        if !c.absorb(self.tt.probe(key, hand, limit)) {
            if limit == 0 {
                c.set(NodeResult::disproven(0, Hand::full(), NO_DEPENDENCY));
            } else {
                let mut checks = MoveList::new();
                generate_checks(pos, &mut checks);
                let escapes = if checks.is_empty() { Bitboard::EMPTY } else { king_escapes(pos) };
                if checks.is_empty() {
                    c.set(NodeResult::disproven(UNLIMITED, no_move_disproof_hand(hand), NO_DEPENDENCY));
                    self.tt.store_disproven(key, c.result_hand, UNLIMITED, 1);
                } else if let Some((_, proof_hand)) = find_mate_with_hand(pos, checks.as_slice(), escapes) {
                    c.set(NodeResult::proven(1, proof_hand));
                    self.tt.store_proven(key, proof_hand, 1, 1);
                } else if limit == 1 {
                    c.set(NodeResult::disproven(1, hand, NO_DEPENDENCY));
                } else {
                    // Harder to mate with more room to run.
                    c.pn = 1 + escapes.count() / 3;
                    c.dn = (checks.len() as u32).min(MAX_INIT_DN);
                    self.tt.store_unknown(key, hand, c.pn, c.dn, 1);
                }
            }
        }
        pos.undo_move();
        c
    }
}
