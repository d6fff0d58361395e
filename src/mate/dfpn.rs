//! Depth-first proof-number search (df-pn), written as a loop over an explicit stack of frames so
//! that problems more than a thousand plies deep need no deep native stack.
//!
//! OR nodes are attacker-to-move positions (children: the checking moves), AND nodes
//! defender-to-move positions (children: every legal evasion). Each frame keeps its children
//! with their current proof and disproof numbers in a shared arena; undecided children are
//! refreshed from the table on every visit, so work done below transpositions is seen.
//!
//! Details:
//! - **Heuristic initial values (df-pn+ style).** A new AND child gets `pn` = its number of
//!   evasions (drops on one square counted once) and `dn` = 1; no evasion means mate. A new OR
//!   child is tested for a mate in one (proven, length 1); without one it gets `pn` = 1 + a third
//!   of the defending king's free squares and `dn` = its number of checks (capped at 8); no check
//!   means disproven. (Measured on 54 random mates of 15-27 plies: evasion counts for `pn` need
//!   a third of the nodes of `pn` = 1; the king's room saves another ~13%.)
//! - **Delayed interpositions.** Of several drops on one square between king and checker only the
//!   first is expanded; the next waits until the one before it is proven (the proof after taking
//!   one interposed piece often settles the others through the table). Halved the nodes on long
//!   problems with the king in the open.
//! - **1 + epsilon.** The best child's threshold is `second * (1 + 1/3)` (at least `second + 1`)
//!   instead of `second + 1`, which cuts down switching between siblings.
//! - **Proof and disproof hands.** Proven nodes store the smallest attacker hand their proof needs,
//!   disproven nodes the largest hand their disproof survives (see `result_or`/`result_and`).
//! - **Mate length.** Proven nodes store the length of the proof found (OR: 1 + the shortest
//!   proven child, AND: 1 + the longest child). A search can be limited to a number of plies;
//!   disproofs found under a limit are stored with that depth ("no mate within d plies").
//! - **Repetitions.** A position whose board and side to move occur earlier on the current path
//!   with an attacker hand at least as large is a loss for the attacker (repeating gains nothing;
//!   in tsume rules perpetual check loses). Such a disproof depends on the path: it carries the
//!   ply of the earliest ancestor it relies on, is passed up through the parents' local child
//!   lists only, and is written to the table only at a node at or above that ancestor, where it
//!   no longer depends on the path (a shortest mate never revisits a position it has passed with
//!   an equal or larger hand). Proofs never depend on repetitions, so a repetition can never
//!   produce a false proof.

use super::gen::{generate_checks, generate_evasions};
use super::one::{find_mate_with_hand, interposition_requirement, king_escapes};
use super::tt::{Probe, Table, INF, PN_MAX, UNLIMITED};
use crate::shogi::movegen::MoveList;
use crate::shogi::Position;
use crate::types::{Bitboard, Color, Hand, Move, PieceKind};
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Deepest ply the df-pn solver descends to; deeper nodes count as unsolved (never as disproven).
/// (The alpha-beta search has its own, much smaller `search::value::MAX_PLY`.)
pub const MAX_MATE_PLY: u32 = 12_000;
/// "Depends on no ancestor."
const NO_DEP: u32 = u32::MAX;
/// Cap of the initial disproof number of an OR child.
const MAX_INIT_DN: u32 = 8;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    pub mv: Move,
    pub pn: u32,
    pub dn: u32,
    /// Proven: mate length; disproven: depth of the disproof.
    pub len: u16,
    /// Board key and attacker hand of the child position.
    pub key: u64,
    pub hand: Hand,
    /// Proof hand (proven) or disproof hand (disproven).
    pub res: Hand,
    /// Disproven only: ply + 1 of the earliest ancestor the disproof depends on; `NO_DEP` for
    /// none, 0 for "cut off by the depth limit".
    pub dep: u32,
    /// A drop interposition waiting for the one before it (same square) to be proven; its
    /// numbers are not looked at until then.
    pub delayed: bool,
}

impl Child {
    #[inline(always)]
    fn is_final(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// The value a finished frame hands back to its parent.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeResult {
    pub pn: u32,
    pub dn: u32,
    pub len: u16,
    pub res: Hand,
    pub dep: u32,
}

impl NodeResult {
    fn proven(len: u16, res: Hand) -> NodeResult {
        NodeResult { pn: 0, dn: INF, len, res, dep: NO_DEP }
    }
    fn disproven(depth: u16, res: Hand, dep: u32) -> NodeResult {
        NodeResult { pn: INF, dn: 0, len: depth, res, dep }
    }
}

struct Frame {
    or_node: bool,
    ply: u32,
    limit: u16,
    th_pn: u32,
    th_dn: u32,
    start: usize,
    end: usize,
    key: u64,
    hand: Hand,
    nodes0: u64,
    current: usize,
    /// AND nodes: the interposition part of the proof hand.
    req: Hand,
    /// A result known on entry (terminal position, repetition, table hit).
    terminal: Option<NodeResult>,
    /// Whether `terminal` must not be written to the table again.
    no_store: bool,
    /// Children were just created (their numbers are fresh from the table).
    fresh: bool,
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Proven {
        len: u16,
        hand: Hand,
    },
    /// `certain`: the disproof does not rest on the depth cap.
    Disproven {
        depth: u16,
        certain: bool,
    },
    Aborted,
}

/// When to give up.
pub(crate) struct Budget<'a> {
    pub stop: &'a AtomicBool,
    pub deadline: Option<Instant>,
    /// Absolute value of the engine's node counter at which to stop.
    pub node_limit: Option<u64>,
}

/// Progress numbers sampled during a search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sample {
    pub nodes: u64,
    pub root_pn: u32,
    pub root_dn: u32,
    pub hashfull: u32,
}

pub(crate) struct Engine<'t> {
    pub tt: &'t mut Table,
    attacker: Color,
    frames: Vec<Frame>,
    children: Vec<Child>,
    /// Board keys on the current path, with multiplicity.
    path: FxHashMap<u64, u32>,
    pub nodes: u64,
    next_check: u64,
    started: Instant,
    next_report_ms: u64,
    /// Deepest ply reached.
    pub max_ply: u32,
}

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

/// The 1 + epsilon threshold of the best child: a third above the second best (at least one).
#[inline]
fn epsilon_threshold(second: u32) -> u32 {
    if second >= PN_MAX {
        return INF;
    }
    let s = second as u64;
    (s + (s / 3).max(1)).min(PN_MAX as u64) as u32
}

impl<'t> Engine<'t> {
    pub fn new(tt: &'t mut Table, attacker: Color) -> Engine<'t> {
        Engine {
            tt,
            attacker,
            frames: Vec::with_capacity(256),
            children: Vec::with_capacity(4096),
            path: FxHashMap::default(),
            nodes: 0,
            next_check: 0,
            started: Instant::now(),
            next_report_ms: 1000,
            max_ply: 0,
        }
    }

    #[inline]
    fn attacker_hand(&self, pos: &Position) -> Hand {
        pos.hand(self.attacker)
    }

    /// The root's current numbers (for progress reports).
    fn root_numbers(&self) -> (u32, u32) {
        let Some(f) = self.frames.first() else { return (1, 1) };
        if let Some(t) = f.terminal {
            return (t.pn, t.dn);
        }
        let kids: Vec<Child> = self.children[f.start..f.end].iter().filter(|c| !c.delayed).copied().collect();
        if f.or_node {
            let pn = kids.iter().map(|c| c.pn).min().unwrap_or(INF);
            let dn = kids.iter().fold(0u64, |a, c| a + c.dn as u64).min(INF as u64) as u32;
            (pn, dn)
        } else {
            let dn = kids.iter().map(|c| c.dn).min().unwrap_or(INF);
            let pn = kids.iter().fold(0u64, |a, c| a + c.pn as u64).min(INF as u64) as u32;
            (pn, dn)
        }
    }

    /// Checks limits every few hundred nodes; reports progress about once a second.
    fn should_abort(&mut self, budget: &Budget, report: &mut dyn FnMut(Sample)) -> bool {
        if self.nodes < self.next_check {
            return false;
        }
        self.next_check = self.nodes + 256;
        if budget.stop.load(Ordering::Relaxed) {
            return true;
        }
        if let Some(limit) = budget.node_limit {
            if self.nodes >= limit {
                return true;
            }
        }
        self.tt.maybe_gc();
        let now = Instant::now();
        if let Some(d) = budget.deadline {
            if now >= d {
                return true;
            }
        }
        let ms = now.duration_since(self.started).as_millis() as u64;
        if ms >= self.next_report_ms {
            self.next_report_ms = ms + 1000;
            let (root_pn, root_dn) = self.root_numbers();
            report(Sample { nodes: self.nodes, root_pn, root_dn, hashfull: self.tt.hashfull() });
        }
        false
    }

    /// Starts the clock used for progress reports.
    pub fn set_start(&mut self, t: Instant) {
        self.started = t;
        let ms = t.elapsed().as_millis() as u64;
        self.next_report_ms = ms + 1000;
    }

    /// Runs df-pn from `pos` (attacker to move if `or_root`) until the root is decided or the
    /// budget runs out, allowing at most `limit` plies. `pos` is returned unchanged. With
    /// `trust_root`, a decided root entry in the table ends the search at once; without, the root
    /// is expanded anyway (to prove its children again).
    pub fn search(
        &mut self,
        pos: &mut Position,
        or_root: bool,
        limit: u16,
        budget: &Budget,
        report: &mut dyn FnMut(Sample),
        trust_root: bool,
    ) -> Outcome {
        self.frames.clear();
        self.children.clear();
        self.path.clear();
        self.next_check = self.nodes;
        self.enter(pos, or_root, 0, limit, INF, INF, trust_root);
        loop {
            let top = self.frames.len() - 1;
            if let Some(r) = self.frames[top].terminal {
                if let Some(out) = self.finish(pos, r) {
                    return out;
                }
                continue;
            }
            if self.should_abort(budget, report) {
                while self.frames.len() > 1 {
                    let f = self.frames.pop().expect("non-empty");
                    self.leave_path(f.key);
                    pos.undo_move();
                }
                if let Some(f) = self.frames.pop() {
                    self.leave_path(f.key);
                }
                return Outcome::Aborted;
            }
            let f = &self.frames[top];
            let (or_node, th_pn, th_dn, limit) = (f.or_node, f.th_pn, f.th_dn, f.limit);
            let child_limit = if limit == UNLIMITED { UNLIMITED } else { limit - 1 };
            let (start, end) = (f.start, f.end);
            let fresh = f.fresh;
            self.frames[top].fresh = false;
            // Refresh undecided children and find the best two.
            let mut best = start;
            let mut first = INF;
            let mut second = INF;
            let mut sum: u64 = 0;
            let mut sum_inf = false;
            for i in start..end {
                let c = self.children[i];
                let c = if c.delayed {
                    // Its turn comes when the interposition before it is proven.
                    if self.children[i - 1].pn != 0 || self.children[i - 1].delayed {
                        continue;
                    }
                    let a = self.make_or_child(pos, c.mv, child_limit);
                    self.children[i] = a;
                    a
                } else if c.is_final() || fresh {
                    c
                } else {
                    self.refresh(i, child_limit)
                };
                let (x, y) = if or_node { (c.pn, c.dn) } else { (c.dn, c.pn) };
                if x < first {
                    second = first;
                    first = x;
                    best = i;
                } else if x < second {
                    second = x;
                }
                if y == INF {
                    sum_inf = true;
                } else {
                    sum += y as u64;
                }
            }
            let summed = if sum_inf { INF } else { sum.min(PN_MAX as u64) as u32 };
            let (pn, dn) = if or_node { (first, summed) } else { (summed, first) };
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 {
                let r = if or_node {
                    self.result_or(pos, top, pn, dn)
                } else {
                    self.result_and(pos, top, pn, dn)
                };
                if let Some(out) = self.finish(pos, r) {
                    return out;
                }
                continue;
            }
            let c = self.children[best];
            let (cth_pn, cth_dn) = if or_node {
                let tp = th_pn.min(epsilon_threshold(second));
                let td = if th_dn == INF {
                    INF
                } else {
                    (th_dn as u64 - dn as u64 + c.dn as u64).min(PN_MAX as u64) as u32
                };
                (tp, td)
            } else {
                let td = th_dn.min(epsilon_threshold(second));
                let tp = if th_pn == INF {
                    INF
                } else {
                    (th_pn as u64 - pn as u64 + c.pn as u64).min(PN_MAX as u64) as u32
                };
                (tp, td)
            };
            self.frames[top].current = best;
            let ply = self.frames[top].ply + 1;
            pos.do_move(c.mv);
            self.enter(pos, !or_node, ply, child_limit, cth_pn, cth_dn, false);
        }
    }

    /// Re-reads an undecided child from the table.
    #[inline]
    fn refresh(&mut self, i: usize, limit: u16) -> Child {
        let c = &mut self.children[i];
        match self.tt.probe(c.key, c.hand, limit) {
            Probe::Proven { len, hand } => {
                c.pn = 0;
                c.dn = INF;
                c.len = len;
                c.res = hand;
            }
            Probe::Disproven { depth, hand } => {
                c.pn = INF;
                c.dn = 0;
                c.len = depth;
                c.res = hand;
                c.dep = NO_DEP;
            }
            Probe::Unknown { pn, dn } => {
                c.pn = pn;
                c.dn = dn;
            }
            Probe::Miss => {}
        }
        *c
    }

    fn leave_path(&mut self, key: u64) {
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
    fn enter(
        &mut self,
        pos: &mut Position,
        or_node: bool,
        ply: u32,
        limit: u16,
        th_pn: u32,
        th_dn: u32,
        trust_entry: bool,
    ) {
        let key = pos.board_key();
        let hand = self.attacker_hand(pos);
        let start = self.children.len();
        let mut frame = Frame {
            or_node,
            ply,
            limit,
            th_pn,
            th_dn,
            start,
            end: start,
            key,
            hand,
            nodes0: self.nodes,
            current: start,
            req: Hand::EMPTY,
            terminal: None,
            no_store: false,
            fresh: true,
        };
        if let Some(anc) = self.repetition(key, hand) {
            frame.terminal = Some(NodeResult::disproven(UNLIMITED, hand, anc + 1));
            frame.no_store = true;
        } else if ply >= MAX_MATE_PLY {
            frame.terminal = Some(NodeResult::disproven(UNLIMITED, hand, 0));
            frame.no_store = true;
        } else if trust_entry
            && !matches!(self.tt.probe(key, hand, limit), Probe::Miss | Probe::Unknown { .. })
        {
            frame.terminal = Some(match self.tt.probe(key, hand, limit) {
                Probe::Proven { len, hand } => NodeResult::proven(len, hand),
                Probe::Disproven { depth, hand } => NodeResult::disproven(depth, hand, NO_DEP),
                _ => unreachable!(),
            });
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

    fn expand_or(&mut self, pos: &mut Position, frame: &mut Frame) {
        if frame.limit == 0 {
            frame.terminal = Some(NodeResult::disproven(0, Hand::full(), NO_DEP));
            frame.no_store = true;
            return;
        }
        let mut list = MoveList::new();
        generate_checks(pos, &mut list);
        if list.is_empty() {
            frame.terminal =
                Some(NodeResult::disproven(UNLIMITED, no_move_disproof_hand(frame.hand), NO_DEP));
            return;
        }
        let child_limit = if frame.limit == UNLIMITED { UNLIMITED } else { frame.limit - 1 };
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

    fn expand_and(&mut self, pos: &mut Position, frame: &mut Frame) {
        let mut list = MoveList::new();
        generate_evasions(pos, &mut list);
        frame.req = interposition_requirement(pos);
        if list.is_empty() {
            frame.terminal = Some(NodeResult::proven(0, frame.req));
            return;
        }
        if frame.limit == 0 {
            frame.terminal = Some(NodeResult::disproven(0, frame.hand, NO_DEP));
            return;
        }
        let child_limit = if frame.limit == UNLIMITED { UNLIMITED } else { frame.limit - 1 };
        // Board moves first (king moves, captures, moved interpositions), then the drops grouped
        // by square. Of the drops on one square only the first is looked at; each next one
        // waits until the one before it is proven (delayed interposition): proofs after the
        // capture of one interposed piece often settle the others through the table.
        let ksq = pos.king_square(pos.side_to_move());
        list.as_mut_slice().sort_by_key(|m| {
            if m.is_drop() {
                (2u8, m.to().index() as u8, m.dropped_kind() as u8)
            } else if m.from() == ksq {
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
                    res: frame.hand,
                    dep: NO_DEP,
                    delayed: true,
                };
                self.children.push(c);
                continue;
            }
            prev_drop_to = m.is_drop().then(|| m.to().index());
            let c = self.make_or_child(pos, m, child_limit);
            self.children.push(c);
            if c.dn == 0 && c.dep == NO_DEP {
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
        let mut c = Child { mv: m, pn: 1, dn: 1, len: 0, key, hand, res: hand, dep: NO_DEP, delayed: false };
        match self.tt.probe(key, hand, limit) {
            Probe::Proven { len, hand } => {
                c.pn = 0;
                c.dn = INF;
                c.len = len;
                c.res = hand;
            }
            Probe::Disproven { depth, hand } => {
                c.pn = INF;
                c.dn = 0;
                c.len = depth;
                c.res = hand;
            }
            Probe::Unknown { pn, dn } => {
                c.pn = pn;
                c.dn = dn;
            }
            Probe::Miss => {
                let mut ev = MoveList::new();
                generate_evasions(pos, &mut ev);
                if ev.is_empty() {
                    c.pn = 0;
                    c.dn = INF;
                    c.len = 0;
                    c.res = interposition_requirement(pos);
                    self.tt.store_proven(key, c.res, 0, 1);
                } else if limit == 0 {
                    c.pn = INF;
                    c.dn = 0;
                    c.len = 0;
                    c.res = hand;
                } else {
                    c.pn = initial_and_pn(&ev);
                    c.dn = 1;
                    self.tt.store_unknown(key, hand, c.pn, c.dn, 1);
                }
            }
        }
        pos.undo_move();
        c
    }

    /// Makes a defender move `m` and evaluates the attacker's position it leads to.
    fn make_or_child(&mut self, pos: &mut Position, m: Move, limit: u16) -> Child {
        pos.do_move(m);
        self.nodes += 1;
        let key = pos.board_key();
        let hand = self.attacker_hand(pos);
        let mut c = Child { mv: m, pn: 1, dn: 1, len: 0, key, hand, res: hand, dep: NO_DEP, delayed: false };
        if let Some(anc) = self.repetition(key, hand) {
            c.pn = INF;
            c.dn = 0;
            c.len = UNLIMITED;
            c.dep = anc + 1;
            pos.undo_move();
            return c;
        }
        match self.tt.probe(key, hand, limit) {
            Probe::Proven { len, hand } => {
                c.pn = 0;
                c.dn = INF;
                c.len = len;
                c.res = hand;
            }
            Probe::Disproven { depth, hand } => {
                c.pn = INF;
                c.dn = 0;
                c.len = depth;
                c.res = hand;
            }
            Probe::Unknown { pn, dn } => {
                c.pn = pn;
                c.dn = dn;
            }
            Probe::Miss => {
                if limit == 0 {
                    c.pn = INF;
                    c.dn = 0;
                    c.len = 0;
                    c.res = Hand::full();
                } else {
                    let mut checks = MoveList::new();
                    generate_checks(pos, &mut checks);
                    let escapes = if checks.is_empty() { Bitboard::EMPTY } else { king_escapes(pos) };
                    if checks.is_empty() {
                        c.pn = INF;
                        c.dn = 0;
                        c.len = UNLIMITED;
                        c.res = no_move_disproof_hand(hand);
                        self.tt.store_disproven(key, c.res, UNLIMITED, 1);
                    } else if let Some((_, ph)) = find_mate_with_hand(pos, checks.as_slice(), escapes) {
                        c.pn = 0;
                        c.dn = INF;
                        c.len = 1;
                        c.res = ph;
                        self.tt.store_proven(key, ph, 1, 1);
                    } else if limit == 1 {
                        c.pn = INF;
                        c.dn = 0;
                        c.len = 1;
                        c.res = hand;
                    } else {
                        // Harder to mate with more room to run.
                        c.pn = 1 + escapes.count() / 3;
                        c.dn = (checks.len() as u32).min(MAX_INIT_DN);
                        self.tt.store_unknown(key, hand, c.pn, c.dn, 1);
                    }
                }
            }
        }
        pos.undo_move();
        c
    }

    /// The result of an OR frame whose numbers are `pn`, `dn`.
    fn result_or(&self, pos: &Position, top: usize, pn: u32, dn: u32) -> NodeResult {
        let f = &self.frames[top];
        let kids = &self.children[f.start..f.end];
        if pn == 0 {
            let c = kids.iter().filter(|c| c.pn == 0).min_by_key(|c| c.len).expect("a proven child");
            let mut res = c.res;
            if c.mv.is_drop() {
                res = res.plus(c.mv.dropped_kind());
            } else {
                let cap = pos.piece_on(c.mv.to());
                if cap.is_some() {
                    res = res.minus(cap.kind().unpromoted());
                }
            }
            return NodeResult::proven(c.len.saturating_add(1).min(UNLIMITED - 1), res.min(f.hand));
        }
        if dn == 0 {
            let mut res = Hand::full();
            let mut depth = UNLIMITED;
            let mut dep = NO_DEP;
            for c in kids {
                let mut h = c.res;
                if c.mv.is_drop() {
                    h = h.plus(c.mv.dropped_kind());
                } else {
                    let cap = pos.piece_on(c.mv.to());
                    if cap.is_some() {
                        h = h.minus(cap.kind().unpromoted());
                    }
                }
                res = res.min(h);
                depth = depth.min(c.len);
                dep = dep.min(c.dep);
            }
            // Kinds the attacker lacks would bring new drops: the disproof cannot assume them.
            for k in PieceKind::HAND {
                if f.hand.count(k) == 0 {
                    res.set(k, 0);
                }
            }
            let depth = if depth == UNLIMITED { UNLIMITED } else { depth + 1 };
            return NodeResult::disproven(depth, res.max(f.hand), dep);
        }
        NodeResult { pn, dn, len: 0, res: f.hand, dep: NO_DEP }
    }

    /// The result of an AND frame whose numbers are `pn`, `dn`.
    fn result_and(&self, pos: &Position, top: usize, pn: u32, dn: u32) -> NodeResult {
        let f = &self.frames[top];
        let kids = &self.children[f.start..f.end];
        if pn == 0 {
            let mut res = f.req;
            let mut len = 0u16;
            for c in kids {
                res = res.max(c.res);
                len = len.max(c.len);
            }
            return NodeResult::proven(len.saturating_add(1).min(UNLIMITED - 1), res.min(f.hand));
        }
        if dn == 0 {
            // Prefer a refutation that does not depend on the path, then the deepest.
            let c =
                kids.iter().filter(|c| c.dn == 0).max_by_key(|c| (c.dep, c.len)).expect("a disproven child");
            let mut res = c.res;
            if c.mv.is_drop() {
                // The defender must still hold the dropped piece: the attacker at most all but one.
                let k = c.mv.dropped_kind();
                let def = pos.hand(!self.attacker).count(k);
                let cap = (f.hand.count(k) + def).saturating_sub(1);
                res.set(k, res.count(k).min(cap));
            }
            let depth = if c.len == UNLIMITED { UNLIMITED } else { c.len + 1 };
            return NodeResult::disproven(depth, res.max(f.hand), c.dep);
        }
        NodeResult { pn, dn, len: 0, res: f.hand, dep: NO_DEP }
    }

    /// Stores the top frame's result, pops it and passes the result to the parent. Returns the
    /// outcome when the root was popped.
    fn finish(&mut self, pos: &mut Position, mut r: NodeResult) -> Option<Outcome> {
        let f = self.frames.pop().expect("a frame");
        self.leave_path(f.key);
        self.children.truncate(f.start);
        let work = self.nodes - f.nodes0 + 1;
        if !f.no_store {
            if r.pn == 0 {
                self.tt.store_proven(f.key, r.res, r.len, work);
            } else if r.dn == 0 {
                if r.dep > f.ply {
                    self.tt.store_disproven(f.key, r.res, r.len, work);
                    r.dep = NO_DEP;
                }
            } else {
                self.tt.store_unknown(f.key, f.hand, r.pn, r.dn, work);
            }
        } else if r.dn == 0 && r.dep != 0 && r.dep > f.ply {
            r.dep = NO_DEP;
        }
        if self.frames.is_empty() {
            return Some(if r.pn == 0 {
                Outcome::Proven { len: r.len, hand: r.res }
            } else if r.dn == 0 {
                Outcome::Disproven { depth: r.len, certain: r.dep != 0 }
            } else {
                // Thresholds at the root are infinite: only a decided root is popped.
                Outcome::Aborted
            });
        }
        pos.undo_move();
        let parent = self.frames.last().expect("a parent");
        let i = parent.current;
        let c = &mut self.children[i];
        c.pn = r.pn;
        c.dn = r.dn;
        c.len = r.len;
        c.res = r.res;
        c.dep = r.dep;
        None
    }
}

/// Disproof hand of an OR node without any check: more pieces of kinds already held add no new
/// move, a kind not held could.
fn no_move_disproof_hand(hand: Hand) -> Hand {
    let mut res = Hand::full();
    for k in PieceKind::HAND {
        if hand.count(k) == 0 {
            res.set(k, 0);
        }
    }
    res
}
