//! Large pages for the big tables. A probe of a transposition table lands on a random cache line
//! of many megabytes; with 4 KB pages nearly every probe also misses the address-translation
//! cache (TLB). Linux backs memory advised with `MADV_HUGEPAGE` by 2 MB pages when transparent
//! huge pages are set to `madvise` or `always`, as Stockfish and YaneuraOu ask for their tables.

/// The size of a large page on x86-64 and aarch64 Linux.
const LARGE_PAGE: usize = 2 << 20;

/// Advises the kernel to back the whole large pages within `memory` by large pages. Only pages
/// not yet touched are affected at once (the kernel may merge others later), so call it before
/// the memory is first written (a vector's spare capacity will do). Advice only: where it is
/// refused or unknown, nothing changes.
#[allow(unsafe_code)]
pub(crate) fn advise_large_pages<T>(memory: &[T]) {
    #[cfg(target_os = "linux")]
    {
        extern "C" {
            fn madvise(addr: *mut u8, len: usize, advice: i32) -> i32;
        }
        const MADV_HUGEPAGE: i32 = 14;
        let start = memory.as_ptr() as usize;
        let len = std::mem::size_of_val(memory);
        let first = start.div_ceil(LARGE_PAGE) * LARGE_PAGE;
        let end = (start + len) / LARGE_PAGE * LARGE_PAGE;
        if end > first {
            // SAFETY: the range lies within `memory`, which the caller holds; madvise with
            // MADV_HUGEPAGE changes how it is backed, never its contents, and reports failure by
            // its result, which is ignored because the advice is optional.
            unsafe {
                madvise(first as *mut u8, end - first, MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = memory;
}
