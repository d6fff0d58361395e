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
//!
//! The parts: this file holds the solver and its main loop (pick the best child, pass the
//! thresholds down); `node.rs` the numbers a frame and its children carry and how a table probe
//! fills them in; `expand.rs` pushes a frame and creates its children; `result.rs` turns a
//! decided frame into its result, proof or disproof hand included, and hands it to the parent.

mod expand;
mod node;
mod result;

use super::tt::{Table, INF, PN_MAX};
use crate::shogi::Position;
use crate::types::{Color, Hand};
use node::{Child, Frame};
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Deepest ply the df-pn solver descends to; deeper nodes count as unsolved (never as disproven).
/// (The alpha-beta search has its own, much smaller `search::value::MAX_PLY`.)
pub const MAX_MATE_PLY: u32 = 12_000;

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The root is proven.
    Proven {
        /// The length of the proof found, in plies: a bound of the shortest mate, not always equal to it.
        len: u16,
        /// The proof hand: the least attacker hand the proof needs.
        hand: Hand,
    },
    /// `certain`: the disproof does not rest on the depth cap.
    Disproven {
        /// No mate within this many plies; `UNLIMITED` for none at all.
        depth: u16,
        /// Whether the disproof is final (`false` when it rests on the depth cap).
        certain: bool,
    },
    /// The budget ran out, or `stop` came, before the root was decided.
    Aborted,
}

/// When to give up.
pub(crate) struct Budget<'a> {
    /// Set from outside to end the search at once.
    pub stop: &'a AtomicBool,
    /// When to give up, if the search has a time limit.
    pub deadline: Option<Instant>,
    /// Absolute value of the engine's node counter at which to stop.
    pub node_limit: Option<u64>,
}

/// Progress numbers sampled during a search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sample {
    /// Nodes searched so far (the solver's counter).
    pub nodes: u64,
    /// The root's current proof number.
    pub root_pn: u32,
    /// The root's current disproof number.
    pub root_dn: u32,
    /// The table's use, per mille.
    pub hashfull: u32,
}

/// The df-pn solver: the table it works with, the stack of frames on the current path and
/// their children.
pub(crate) struct Solver<'t> {
    /// The table the proofs and disproofs go to, also read by the line extraction.
    pub tt: &'t mut Table,
    /// The side that mates: the table is keyed by its hand.
    attacker: Color,
    /// The frames of the current path, root first.
    frames: Vec<Frame>,
    /// The children of every frame on the path, each frame's in its `start..end`.
    children: Vec<Child>,
    /// Board keys on the current path, with multiplicity.
    path: FxHashMap<u64, u32>,
    /// Nodes searched, counted on across this solver's searches (node limits are absolute).
    pub nodes: u64,
    /// Node count at which `should_abort` next looks at the limits.
    next_check: u64,
    /// When the solve started, for progress reports.
    started: Instant,
    /// Milliseconds after `started` at which the next progress report is due.
    next_report_ms: u64,
    /// Deepest ply reached.
    pub max_ply: u32,
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

/// The threshold of the best child for the number its node sums (OR: dn, AND: pn): the node's
/// `threshold` less what the other children contribute to the node's `sum`.
#[inline]
fn summand_threshold(threshold: u32, sum: u32, child: u32) -> u32 {
    if threshold == INF {
        INF
    } else {
        (threshold as u64 - sum as u64 + child as u64).min(PN_MAX as u64) as u32
    }
}

impl<'t> Solver<'t> {
    /// A solver of `attacker`'s mates working with `tt`, its stack empty.
    pub fn new(tt: &'t mut Table, attacker: Color) -> Solver<'t> {
        Solver {
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
            let (or_node, pn_threshold, dn_threshold, limit) =
                (f.or_node, f.pn_threshold, f.dn_threshold, f.limit);
            let child_limit = node::child_limit(limit);
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
                    let made = self.make_or_child(pos, c.mv, child_limit);
                    self.children[i] = made;
                    made
                } else if c.is_final() || fresh {
                    c
                } else {
                    // Undecided: work below a transposition may have changed its numbers.
                    let c = &mut self.children[i];
                    c.absorb(self.tt.probe(c.key, c.hand, child_limit));
                    *c
                };
                // The number this node takes the least of (OR: pn) and the one it sums (OR: dn).
                let (least, summand) = if or_node { (c.pn, c.dn) } else { (c.dn, c.pn) };
                if least < first {
                    second = first;
                    first = least;
                    best = i;
                } else if least < second {
                    second = least;
                }
                if summand == INF {
                    sum_inf = true;
                } else {
                    sum += summand as u64;
                }
            }
            let summed = if sum_inf { INF } else { sum.min(PN_MAX as u64) as u32 };
            let (pn, dn) = if or_node { (first, summed) } else { (summed, first) };
            if pn >= pn_threshold || dn >= dn_threshold || pn == 0 || dn == 0 {
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
            let (child_pn_threshold, child_dn_threshold) = if or_node {
                (pn_threshold.min(epsilon_threshold(second)), summand_threshold(dn_threshold, dn, c.dn))
            } else {
                (summand_threshold(pn_threshold, pn, c.pn), dn_threshold.min(epsilon_threshold(second)))
            };
            self.frames[top].current = best;
            let ply = self.frames[top].ply + 1;
            pos.do_move(c.mv);
            self.enter(pos, !or_node, ply, child_limit, child_pn_threshold, child_dn_threshold, false);
        }
    }
}
