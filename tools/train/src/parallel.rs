//! Work over the cores whose result does not depend on the thread count: positions cut into
//! fixed chunks whose results are taken in chunk order, and rows each owned by one thread.

use std::ops::Range;

/// Runs `f` on the chunks of `0..n` (`chunk` long, the last one shorter) on `threads` threads;
/// the results in chunk order.
pub fn map_chunks<T: Send>(
    n: usize,
    chunk: usize,
    threads: usize,
    f: impl Fn(Range<usize>) -> T + Sync,
) -> Vec<T> {
    let chunks = n.div_ceil(chunk);
    let range = |c: usize| c * chunk..((c + 1) * chunk).min(n);
    let threads = threads.clamp(1, chunks.max(1));
    if threads == 1 {
        return (0..chunks).map(|c| f(range(c))).collect();
    }
    let f = &f;
    let mut parts: Vec<(usize, T)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || (t..chunks).step_by(threads).map(|c| (c, f(range(c)))).collect::<Vec<_>>())
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a tuner thread panicked")).collect()
    });
    parts.sort_by_key(|&(c, _)| c);
    parts.into_iter().map(|(_, r)| r).collect()
}

/// Zeroes feature rows of `width` floats and fills them on `threads` threads, row `r` owned by
/// thread `r % threads`: `fill(part, owned)` gets its part number and its rows, row `r` being
/// `owned[r / threads]`. Each row is written by one thread only, in the order `fill` visits the
/// positions, so the sums do not depend on the thread count.
pub fn fill_rows_by_owner(
    rows: &mut [f32],
    width: usize,
    threads: usize,
    fill: impl Fn(usize, &mut [&mut [f32]]) + Sync,
) {
    rows.fill(0.0);
    let threads = threads.max(1);
    let mut parts: Vec<Vec<&mut [f32]>> = (0..threads).map(|_| Vec::new()).collect();
    for (r, row) in rows.chunks_mut(width).enumerate() {
        parts[r % threads].push(row);
    }
    if threads == 1 {
        return fill(0, &mut parts[0]);
    }
    let fill = &fill;
    std::thread::scope(|scope| {
        for (part, rows) in parts.iter_mut().enumerate() {
            scope.spawn(move || fill(part, rows));
        }
    });
}
