//! Tsume (mate) solving: a one-ply mate test for the main search, and a df-pn solver for
//! `go mate` and for the root mate search that runs beside the game search.
//!
//! In a mate problem the side to move is the attacker: every attacker move must give check, and
//! the defender may play any legal move (which, being in check, is an evasion). The attacker may
//! lack a king (composed problems); if it has one and is in check at the root, its first move
//! must be an evasion that also gives check (none: no mate).
//!
//! - [`mate_in_one`]: a legal check after which the defender has no legal move (pawn-drop mates
//!   excluded). Most checks are rejected without being made (escape squares, drops that can be
//!   interposed); about 0.3 us per call on game positions, 0.6 us on tsume positions.
//! - [`MateSolver`]: depth-first proof-number search (`dfpn`: main loop, node numbers,
//!   expansion, results) over the checks and evasions of `moves`, with its own transposition
//!   table (`tt`), then extraction of the mating line (`pv`). In short:
//!   - **df-pn+**: evasion counts as initial proof numbers, check counts as initial disproof
//!     numbers, a mate-in-one test at every new attacker node, the 1 + 1/3 threshold trick,
//!     delayed expansion of drop interpositions on one square.
//!   - **Table**: 16-byte entries, 8 to a 128-byte bucket per board; decided entries carry proof
//!     or disproof hands (hand dominance), mate lengths or disproof depths.
//!   - **Garbage collection**: entries carry the work spent below them (log scale); a full bucket
//!     replaces its least valuable entry, and at 80% use a sweep removes the least valuable
//!     entries down to ~45%. Decided entries count as if 4x the work, so they are kept longer.
//!   - **Hand dominance**: a proof with hand H holds for every attacker hand covering H (same
//!     board and side), a disproof with hand H for every hand H covers. Proof hands are computed
//!     minimal-ish (drops add, captures subtract, AND nodes take the union, interpositions the
//!     defender could make with pieces it lacks keep those pieces with the attacker); disproof
//!     hands symmetric (kinds the attacker lacks stay at zero).
//!   - **Repetitions**: reaching a position already on the path (same board and side, attacker
//!     hand no larger) is no mate. Such a disproof is path-dependent and only stored once it no
//!     longer depends on the path; proofs never rely on repetitions, so no false proof.
//!   - **Line**: attacker shortest, defender longest, useless drop interpositions not chosen,
//!     lengths shortened to the true minimum when the budget allows, verified move by move;
//!     see `pv` for the exact rule.
//! - [`MateJob`]: a solve on its own thread for `go mate`, reporting [`MateEvent`]s that the
//!   protocol formats, as `search::Searcher` runs the game search (`job`).
mod dfpn;
mod job;
mod moves;
mod one;
mod pv;
mod tt;

pub use job::{MateEvent, MateJob, MateTable};
pub use moves::{generate_checks, has_evasion};
pub use one::mate_in_one;
pub use pv::verify_line;

use crate::shogi::Position;
use crate::types::Move;
use dfpn::{Budget, Outcome, Sample, Solver};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// What ends a solve besides `stop`. `None` means no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MateLimits {
    /// The search for a proof stops here. Shortening the line to the shortest mate stops here
    /// too; only re-proving positions whose proofs the table lost (rare) may run on, by at most
    /// half of this time, to still return a line.
    pub time: Option<Duration>,
    /// Nodes for the proof search and the shortening together (re-proving lost positions does
    /// not count).
    pub nodes: Option<u64>,
}

/// Search progress, reported about once a second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MateProgress {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the solve started.
    pub time_ms: u64,
    /// Proof number of the root: how hard a mate still looks (`u32::MAX` = infinite: no mate).
    pub root_pn: u32,
    /// Disproof number of the root: how hard a defence still looks (`u32::MAX`: mate).
    pub root_dn: u32,
    /// Permille of the table in use.
    pub hashfull: u32,
}

/// The answer of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A mate: the moves from the root, alternately attacker and defender, ending in checkmate.
    Mate(Vec<Move>),
    /// There is no mate (every check has a defence).
    NoMate,
    /// Undecided within the limits, or stopped.
    Timeout,
}

/// Numbers of the last solve, for benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MateStats {
    /// Nodes of the proof search proper.
    pub search_nodes: u64,
    /// Nodes in total, including the searches of line extraction.
    pub nodes: u64,
    /// How long the solve took.
    pub time: Duration,
    /// Length of the proof the search found, before line extraction.
    pub proof_len: u32,
    /// The mate length of the root after shortening: a mate within this many plies exists
    /// against every defence (useless interpositions included).
    pub mate_len: u32,
    /// Whether `mate_len` was shown to be the shortest (no mate within `mate_len - 2`) and the
    /// refinement budget lasted through the whole line.
    pub exact: bool,
    /// Table entries in use at the end (an entry takes 16 bytes).
    pub table_used: u64,
    /// Entries the table holds at most.
    pub table_capacity: u64,
    /// Garbage collections run on the table.
    pub gc_runs: u64,
    /// Deepest ply the searches reached.
    pub max_ply: u32,
}

/// A df-pn tsume solver with its own table of about `hash_mb` megabytes.
pub struct MateSolver {
    /// The transposition table, a new generation for each solve.
    table: tt::Table,
    /// The size asked for, in megabytes: a solver is kept for the next solve of that size.
    hash_mb: usize,
    /// How many solves this solver has run.
    solves: u64,
    /// What the last solve counted (reset as each solve starts).
    stats: MateStats,
}

impl MateSolver {
    /// A solver with a table of about `hash_mb` megabytes. Panics if memory runs out; use
    /// `try_new` for sizes a user chose.
    pub fn new(hash_mb: usize) -> MateSolver {
        MateSolver::try_new(hash_mb).expect("memory for the mate table")
    }

    /// A solver with a table of about `hash_mb` megabytes, or `None` when that much memory
    /// cannot be had.
    pub fn try_new(hash_mb: usize) -> Option<MateSolver> {
        Some(MateSolver {
            table: tt::Table::try_new(hash_mb)?,
            hash_mb,
            solves: 0,
            stats: MateStats::default(),
        })
    }

    /// The size of its table as asked for, in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// How many solves this solver has run (with its one table).
    pub fn solves(&self) -> u64 {
        self.solves
    }

    /// Numbers of the last `solve`.
    pub fn stats(&self) -> MateStats {
        self.stats
    }

    /// Solves `pos` for the side to move. `progress` is called about once a second. `stop` is
    /// polled every few hundred nodes.
    pub fn solve(
        &mut self,
        pos: &Position,
        limits: MateLimits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(MateProgress),
    ) -> MateResult {
        let start = Instant::now();
        self.solves += 1;
        self.table.new_search();
        self.stats = MateStats::default();
        let attacker = pos.side_to_move();
        if !pos.has_king(!attacker) {
            return MateResult::NoMate;
        }
        let deadline = limits.time.map(|t| start + t);
        let mut root = pos.clone();
        let mut solver = Solver::new(&mut self.table, attacker);
        solver.set_start(start);
        let budget = Budget { stop, deadline, node_limit: limits.nodes };
        let mut report = |s: Sample| {
            let ms = start.elapsed().as_millis() as u64;
            progress(MateProgress {
                nodes: s.nodes,
                time_ms: ms,
                root_pn: s.root_pn,
                root_dn: s.root_dn,
                hashfull: s.hashfull,
            });
        };
        let outcome = solver.search(&mut root, true, tt::UNLIMITED, &budget, &mut report, true);
        let search_nodes = solver.nodes;
        let result = match outcome {
            Outcome::Aborted => MateResult::Timeout,
            Outcome::Disproven { certain, .. } => {
                if certain {
                    MateResult::NoMate
                } else {
                    MateResult::Timeout
                }
            }
            Outcome::Proven { len, .. } => {
                self.stats.proof_len = len as u32;
                // Optional refinement: until the solve's own limits, and at most about as many
                // nodes again as the proof took (at least a few hundred thousand).
                let refine_nodes = search_nodes + search_nodes.max(300_000);
                let refine_limit =
                    limits.nodes.map_or(refine_nodes, |n| n.max(search_nodes).min(refine_nodes));
                let refine = Budget { stop, deadline, node_limit: Some(refine_limit) };
                // Re-proving positions whose proofs left the table is needed for any line at
                // all: it may run past the time limit by half of it, and still obeys `stop`.
                // (Usually nothing is left to re-prove and the line is read from the table.)
                let hard_deadline = limits.time.map(|t| start + t + t / 2);
                let hard = Budget { stop, deadline: hard_deadline, node_limit: None };
                let line =
                    extract(&mut solver, &root, len, attacker, refine, hard, &mut report, &mut self.stats);
                match line {
                    Some(line) => MateResult::Mate(line),
                    None => MateResult::Timeout,
                }
            }
        };
        self.stats.search_nodes = search_nodes;
        self.stats.nodes = solver.nodes;
        self.stats.max_ply = solver.max_ply;
        self.stats.time = start.elapsed();
        let ts = self.table.stats();
        self.stats.table_used = ts.used;
        self.stats.table_capacity = ts.capacity;
        self.stats.gc_runs = ts.gc_runs;
        result
    }
}

/// Shortens the root's length, walks the line and verifies it; falls back to a plain walk (no
/// refinement, no interposition tests) if that fails.
#[allow(clippy::too_many_arguments)]
fn extract(
    solver: &mut Solver,
    root: &Position,
    proof_len: u16,
    attacker: crate::types::Color,
    refine: Budget,
    hard: Budget,
    report: &mut dyn FnMut(Sample),
    stats: &mut MateStats,
) -> Option<Vec<Move>> {
    let mut walk = pv::Walk { solver, refine, hard, attacker, exact: true, report };
    let mut pos = root.clone();
    let mut len = proof_len;
    let mut exact = false;
    while len >= 3 && walk.refine_left() {
        match walk.run_search(&mut pos, true, len - 2, false) {
            Outcome::Proven { len: l, .. } if l < len => len = l,
            Outcome::Disproven { .. } => {
                exact = true;
                break;
            }
            _ => break,
        }
    }
    if len < 3 {
        exact = true;
    }
    stats.mate_len = len as u32;
    let w = walk.walk(root, len);
    if let Some(line) = w {
        if verify_line(root, &line) {
            stats.exact = exact && walk.refine_left();
            return Some(line);
        }
    }
    walk.exact = false;
    let line = walk.walk(root, proof_len.max(len))?;
    stats.exact = false;
    verify_line(root, &line).then_some(line)
}
