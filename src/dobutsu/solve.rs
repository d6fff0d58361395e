//! The solver: enumerate every position reachable from a root, then retrograde analysis.
//!
//! Enumeration follows Tanaka (2009): positions are normalised (`index`), a position where the
//! side to move can capture the opposing Lion is terminal (a "catch", won in 1 ply) and is not
//! expanded, and so is a position lost to a safe Try (0 plies). Everything else is expanded,
//! breadth first, with a shared bitmap over the index space marking what has been seen.
//!
//! Moves are generated once, during the enumeration, which also records for each expanded
//! position the indices of its non-terminal children. Retrograde analysis then works on the
//! non-terminal positions only: each gets a dense id (its rank in the bitmap), a count of its
//! non-terminal children, and a list of its non-terminal parents (the recorded edges turned
//! around). Values are then settled
//! level by level: level `d` holds the positions whose game ends in `d` plies. A position with a
//! Try move is won in 1; one whose every move lets the Lion be caught is lost in 2; one with no
//! move is lost in 0. A position lost in `d` makes every parent a win in `d + 1`; a position won
//! in `d` takes one from its parents' counts, and a parent whose count reaches zero is lost in
//! `d + 1` (its slowest move). What is never settled is a draw.
//!
//! Both phases run on all cores with `std::thread::scope`; shared state is atomics only.

use super::index::{index_of, index_of_normalised, position_of, SIZE};
use super::movegen::legal_moves;
use super::position::Position;
use super::table::Table;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

/// Counts of a solve, for the side to move in each position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Positions reachable from the root (normalised).
    pub reachable: u64,
    /// Reachable positions where the side to move can capture the opposing Lion.
    pub catch: u64,
    /// Reachable positions lost to a safe Try.
    pub tried: u64,
    /// The other reachable positions (the ones the table holds).
    pub other: u64,
    /// Moves from the non-terminal positions (edges of the game graph).
    pub edges: u64,
    /// Reachable positions won, lost and drawn by the side to move (terminal ones included).
    pub wins: u64,
    /// See `wins`.
    pub losses: u64,
    /// See `wins`.
    pub draws: u64,
    /// `by_distance[d]`: reachable positions whose game ends in `d` plies (catch ones at 1,
    /// tried ones at 0).
    pub by_distance: Vec<u64>,
}

impl SolveStats {
    /// The longest forced win, in plies.
    pub fn longest_win(&self) -> u32 {
        (0..self.by_distance.len()).rev().find(|&d| d % 2 == 1 && self.by_distance[d] > 0).unwrap_or(0) as u32
    }
}

/// Options for a solve.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Whether to write progress lines to stderr.
    pub progress: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions { threads: std::thread::available_parallelism().map_or(1, |n| n.get()), progress: false }
    }
}

/// A bitmap over the index space that threads can set bits in.
struct AtomicBitmap(Vec<AtomicU64>);

impl AtomicBitmap {
    /// A bitmap of `bits` clear bits.
    fn new(bits: u64) -> AtomicBitmap {
        AtomicBitmap((0..bits.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
    }

    /// Sets bit `i`; true if it was clear.
    #[inline]
    fn insert(&self, i: u64) -> bool {
        let mask = 1u64 << (i % 64);
        let word = &self.0[(i / 64) as usize];
        // A plain load first: most lookups find the bit set, and loads can overlap where the
        // locked read-modify-write cannot.
        word.load(Relaxed) & mask == 0 && word.fetch_or(mask, Relaxed) & mask == 0
    }

    /// The bitmap's words, for the table.
    fn into_words(self) -> Vec<u64> {
        self.0.into_iter().map(AtomicU64::into_inner).collect()
    }
}

/// What a move leads to, seen from the position after it (normalised, the opponent to move).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Child {
    /// The opponent can capture the mover's Lion.
    Catch,
    /// The mover's Lion made a safe Try.
    Tried,
    /// A non-terminal position.
    Inner,
}

/// What the position `c`, reached by a move and normalised, is for the mover.
#[inline]
fn classify(c: &Position) -> Child {
    match c.catch_and_try() {
        (true, _) => Child::Catch,
        (false, true) => Child::Tried,
        _ => Child::Inner,
    }
}

/// The children of a normalised position, normalised (Black to move again).
#[inline]
fn children(p: &Position) -> impl Iterator<Item = Position> + '_ {
    let moves = legal_moves(p);
    (0..moves.len()).map(move |i| p.play(moves.as_slice()[i]).rotated())
}

/// Runs `work(range)` over `0..n` in chunks of `chunk` on `threads` threads; returns each
/// thread's result.
fn parallel<R: Send>(
    n: usize,
    chunk: usize,
    threads: usize,
    work: impl Fn(std::ops::Range<usize>, &mut R) + Sync,
    init: impl Fn() -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut acc = init();
                    loop {
                        let lo = next.fetch_add(chunk, Relaxed);
                        if lo >= n {
                            break;
                        }
                        let hi = (lo + chunk).min(n);
                        work(lo..hi, &mut acc);
                    }
                    acc
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("solver thread panicked")).collect()
    })
}

/// The game graph recorded during enumeration, in expansion order: for each expanded
/// (non-terminal) position its index, its settled byte (0 when open, see `settle`) and, for an
/// open one, the indices of its non-terminal children.
#[derive(Default)]
struct Graph {
    /// The index of each expanded position (turned into its dense id before the fill).
    parents: Vec<u32>,
    /// Each expanded position's byte as `settle` gives it: 0 while its children decide.
    settled: Vec<u8>,
    /// Each expanded position's count of non-terminal children listed in `kids` (0 once settled).
    nkids: Vec<u8>,
    /// The non-terminal children of the open positions, one run of `nkids` after another.
    kids: Vec<u32>,
}

impl Graph {
    /// Moves `other`'s records to the end of `self`'s, keeping the order.
    fn append(&mut self, other: &mut Graph) {
        self.parents.append(&mut other.parents);
        self.settled.append(&mut other.settled);
        self.nkids.append(&mut other.nkids);
        self.kids.append(&mut other.kids);
    }
}

/// Counts finished work units and prints a line at every tenth when enabled.
struct Progress<'a> {
    /// What the progress lines call this phase.
    label: &'a str,
    /// The number of work units in the phase.
    total: usize,
    /// The work units finished so far, by all threads.
    done: AtomicUsize,
    /// Whether to print at all.
    on: bool,
    /// When the phase started, for the times printed.
    start: Instant,
}

impl Progress<'_> {
    /// Counts one finished unit, and prints when that crosses a tenth of the total.
    fn tick(&self) {
        let done = self.done.fetch_add(1, Relaxed) + 1;
        if self.on && done * 10 / self.total.max(1) > (done - 1) * 10 / self.total.max(1) {
            let pct = done * 100 / self.total.max(1);
            eprintln!("  {}: {pct:3}% ({:.1} s)", self.label, self.start.elapsed().as_secs_f64());
        }
    }
}

/// Per-thread enumeration results.
#[derive(Default)]
struct Found {
    /// New positions where the side to move can capture the opposing Lion.
    catch: u64,
    /// New positions lost to a safe Try.
    tried: u64,
    /// New non-terminal positions.
    other: u64,
    /// Moves generated.
    edges: u64,
    /// The new non-terminal positions' indices: this thread's share of the next frontier.
    next: Vec<u32>,
    /// The graph of the positions this thread expanded.
    graph: Graph,
}

/// The byte a position is settled with from its children alone: a Try wins in 1; no move
/// loses in 0; only moves into capture lose in 2; 0 when the non-terminal children decide.
fn settle(any_move: bool, any_try: bool, inner_children: usize) -> u8 {
    if any_try {
        byte(1)
    } else if !any_move {
        byte(0)
    } else if inner_children == 0 {
        byte(2)
    } else {
        0
    }
}

/// Enumerates the positions reachable from `root`; returns the bitmap of the non-terminal ones,
/// the graph between them, and the counts (reachable, catch, tried, other, edges).
fn enumerate(root: &Position, opts: SolveOptions) -> (Vec<u64>, Graph, SolveStats) {
    let seen = AtomicBitmap::new(SIZE);
    let inner = AtomicBitmap::new(SIZE);
    let mut stats = SolveStats::default();
    let mut graph = Graph::default();
    let root = super::index::normalised(root);
    let Some(ri) = index_of(&root) else {
        return (inner.into_words(), graph, stats);
    };
    seen.insert(ri);
    let mut frontier = Vec::new();
    match classify(&root) {
        Child::Catch => stats.catch += 1,
        Child::Tried => stats.tried += 1,
        Child::Inner => {
            stats.other += 1;
            inner.insert(ri);
            frontier.push(ri as u32);
        }
    }
    stats.reachable = 1;
    let start = Instant::now();
    let mut ply = 0;
    while !frontier.is_empty() {
        let results = parallel(
            frontier.len(),
            1024,
            opts.threads,
            |range, f: &mut Found| {
                let mut kids = Vec::new();
                for &i in &frontier[range] {
                    let p = position_of(i as u64);
                    let (mut any_move, mut any_try) = (false, false);
                    kids.clear();
                    for c in children(&p) {
                        any_move = true;
                        f.edges += 1;
                        let ci = index_of_normalised(&c).expect("children of expanded positions are indexed");
                        let kind = classify(&c);
                        match kind {
                            Child::Tried => any_try = true,
                            Child::Inner => kids.push(ci as u32),
                            Child::Catch => {}
                        }
                        if !seen.insert(ci) {
                            continue;
                        }
                        match kind {
                            Child::Catch => f.catch += 1,
                            Child::Tried => f.tried += 1,
                            Child::Inner => {
                                f.other += 1;
                                inner.insert(ci);
                                f.next.push(ci as u32);
                            }
                        }
                    }
                    let settled = settle(any_move, any_try, kids.len());
                    f.graph.parents.push(i);
                    f.graph.settled.push(settled);
                    if settled == 0 {
                        f.graph.nkids.push(u8::try_from(kids.len()).expect("fewer than 256 moves"));
                        f.graph.kids.extend_from_slice(&kids);
                    } else {
                        f.graph.nkids.push(0);
                    }
                }
            },
            Found::default,
        );
        frontier = Vec::new();
        for mut f in results {
            stats.catch += f.catch;
            stats.tried += f.tried;
            stats.other += f.other;
            stats.edges += f.edges;
            frontier.extend_from_slice(&f.next);
            graph.append(&mut f.graph);
        }
        ply += 1;
        stats.reachable = stats.catch + stats.tried + stats.other;
        if opts.progress {
            eprintln!(
                "  enumerate: ply {ply:3}, frontier {:11}, reachable {:11} ({:.1} s)",
                frontier.len(),
                stats.reachable,
                start.elapsed().as_secs_f64()
            );
        }
    }
    (inner.into_words(), graph, stats)
}

/// The stored byte for a game ending in `d` plies.
#[inline]
fn byte(d: usize) -> u8 {
    u8::try_from(d + 1).expect("distances fit in a byte")
}

/// Solves the game from `root`: every reachable position's value and distance.
pub fn solve(root: &Position, opts: SolveOptions) -> (Table, SolveStats) {
    let t0 = Instant::now();
    if opts.progress {
        eprintln!("dobutsu solve: enumerating reachable positions ({} threads)", opts.threads);
    }
    let (bits, mut graph, mut stats) = enumerate(root, opts);
    if opts.progress {
        eprintln!(
            "enumerated {} positions: {} catch, {} tried, {} other, {} edges, {} kept ({:.1} s)",
            stats.reachable,
            stats.catch,
            stats.tried,
            stats.other,
            stats.edges,
            graph.kids.len(),
            t0.elapsed().as_secs_f64()
        );
    }
    // Dense ids: the rank of each held index in the bitmap.
    let table = Table::new(bits, vec![0; stats.other as usize]);
    let m = table.len();
    let cnt: Vec<AtomicU8> = (0..m).map(|_| AtomicU8::new(0)).collect();
    let val: Vec<AtomicU8> = (0..m).map(|_| AtomicU8::new(0)).collect();
    let fill: Vec<AtomicU32> = (0..m + 1).map(|_| AtomicU32::new(0)).collect();

    // Work units of the recorded graph: runs of parents with the matching runs of children,
    // as disjoint mutable slices so that indices can be turned into dense ids in place.
    const RUN: usize = 4096;
    let mut units = Vec::new();
    {
        let (mut parents, mut kids): (&mut [u32], &mut [u32]) = (&mut graph.parents, &mut graph.kids);
        let (mut settled, mut nkids): (&[u8], &[u8]) = (&graph.settled, &graph.nkids);
        while !parents.is_empty() {
            let n = RUN.min(parents.len());
            let k: usize = nkids[..n].iter().map(|&x| x as usize).sum();
            let (p0, p1) = std::mem::take(&mut parents).split_at_mut(n);
            let (k0, k1) = std::mem::take(&mut kids).split_at_mut(k);
            units.push((p0, settled.split_at(n).0, nkids.split_at(n).0, k0));
            parents = p1;
            kids = k1;
            settled = &settled[n..];
            nkids = &nkids[n..];
        }
    }
    if opts.progress {
        eprintln!("retrograde: dense ids and parent counts");
    }
    let progress = Progress {
        label: "dense ids",
        total: units.len(),
        done: AtomicUsize::new(0),
        on: opts.progress,
        start: Instant::now(),
    };
    let queue = Mutex::new(units.iter_mut());
    std::thread::scope(|s| {
        for _ in 0..opts.threads.max(1) {
            s.spawn(|| loop {
                let Some((parents, settled, nkids, kids)) = queue.lock().expect("no poisoned lock").next()
                else {
                    break;
                };
                let mut k = 0;
                for j in 0..parents.len() {
                    let pid = table.id(parents[j] as u64).expect("expanded positions are held");
                    parents[j] = pid as u32;
                    val[pid].store(settled[j], Relaxed);
                    cnt[pid].store(nkids[j], Relaxed);
                    for kid in &mut kids[k..k + nkids[j] as usize] {
                        let cid = table.id(*kid as u64).expect("children of reachable positions are held");
                        *kid = cid as u32;
                        fill[cid].fetch_add(1, Relaxed);
                    }
                    k += nkids[j] as usize;
                }
                progress.tick();
            });
        }
    });
    // Prefix sums: parents of id `c` go to `rev[start[c]..start[c + 1]]`.
    let mut start = Vec::with_capacity(m + 1);
    let mut acc = 0u64;
    for f in &fill {
        start.push(u32::try_from(acc).expect("parent lists fit u32 offsets"));
        acc += f.load(Relaxed) as u64;
        f.store(start[start.len() - 1], Relaxed);
    }
    let rev: Vec<AtomicU32> = (0..acc).map(|_| AtomicU32::new(0)).collect();
    if opts.progress {
        eprintln!("retrograde: {acc} parent links ({:.1} s); filling", t0.elapsed().as_secs_f64());
    }
    let progress = Progress { label: "fill", done: AtomicUsize::new(0), start: Instant::now(), ..progress };
    let queue = Mutex::new(units.iter());
    std::thread::scope(|s| {
        for _ in 0..opts.threads.max(1) {
            s.spawn(|| loop {
                let Some((parents, _, nkids, kids)) = queue.lock().expect("no poisoned lock").next() else {
                    break;
                };
                let mut k = 0;
                for j in 0..parents.len() {
                    for &cid in &kids[k..k + nkids[j] as usize] {
                        let slot = fill[cid as usize].fetch_add(1, Relaxed);
                        rev[slot as usize].store(parents[j], Relaxed);
                    }
                    k += nkids[j] as usize;
                }
                progress.tick();
            });
        }
    });
    drop(units);
    drop(graph);
    drop(fill);

    // Level-by-level propagation.
    let mut levels: Vec<Vec<u32>> = vec![Vec::new(); 3];
    for (id, v) in val.iter().enumerate() {
        let b = v.load(Relaxed);
        if b != 0 {
            levels[b as usize - 1].push(id as u32);
        }
    }
    let mut d = 0;
    while d < levels.len() {
        let list = std::mem::take(&mut levels[d]);
        if list.is_empty() {
            d += 1;
            continue;
        }
        let next = Mutex::new(Vec::new());
        parallel(
            list.len(),
            4096,
            opts.threads,
            |range, local: &mut Vec<u32>| {
                for &c in &list[range] {
                    let (lo, hi) = (start[c as usize] as usize, start[c as usize + 1] as usize);
                    for r in &rev[lo..hi] {
                        let p = r.load(Relaxed) as usize;
                        if val[p].load(Relaxed) != 0 {
                            continue;
                        }
                        if d % 2 == 0 {
                            if val[p].compare_exchange(0, byte(d + 1), Relaxed, Relaxed).is_ok() {
                                local.push(p as u32);
                            }
                        } else if cnt[p].fetch_sub(1, Relaxed) == 1 {
                            val[p].store(byte(d + 1), Relaxed);
                            local.push(p as u32);
                        }
                    }
                }
                if local.len() > 1 << 16 {
                    next.lock().expect("no poisoned lock").append(local);
                }
            },
            Vec::new,
        )
        .into_iter()
        .for_each(|mut l| next.lock().expect("no poisoned lock").append(&mut l));
        let next = next.into_inner().expect("no poisoned lock");
        if !next.is_empty() {
            if levels.len() <= d + 1 {
                levels.resize(d + 2, Vec::new());
            }
            levels[d + 1].extend_from_slice(&next);
        }
        if opts.progress && d % 10 == 0 {
            eprintln!("  propagate: level {d} ({:.1} s)", t0.elapsed().as_secs_f64());
        }
        d += 1;
    }
    drop(rev);
    let values: Vec<u8> = val.into_iter().map(AtomicU8::into_inner).collect();
    let table = Table::new(table.bits, values);

    let mut by = vec![0u64; 256];
    by[0] = stats.tried;
    by[1] = stats.catch;
    let mut draws = 0;
    for &b in &table.values {
        if b == 0 {
            draws += 1;
        } else {
            by[b as usize - 1] += 1;
        }
    }
    while by.last() == Some(&0) {
        by.pop();
    }
    stats.wins = by.iter().skip(1).step_by(2).sum();
    stats.losses = by.iter().step_by(2).sum();
    stats.draws = draws;
    stats.by_distance = by;
    if opts.progress {
        eprintln!(
            "solved: win {}, loss {}, draw {}, longest win {} plies ({:.1} s)",
            stats.wins,
            stats.losses,
            stats.draws,
            stats.longest_win(),
            t0.elapsed().as_secs_f64()
        );
    }
    (table, stats)
}
