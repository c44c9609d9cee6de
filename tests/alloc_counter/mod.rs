//! A counting global allocator for the no-allocation tests: it counts the allocations (and
//! reallocations) of the thread inside [`count`] only. The test harness's own threads (its
//! output capture, the main thread waiting for the test) allocate at times of their own; a
//! process-wide flag counted those too, and made the tests fail about once in forty runs.
//!
//! Use: `mod alloc_counter;` and
//! `#[global_allocator] static GLOBAL: alloc_counter::Counting = alloc_counter::Counting;`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    /// Whether this thread is being counted, and how many allocations it made meanwhile.
    /// Const-initialized, so reading them never allocates.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// Counts the calling thread's allocations while [`count`] runs.
pub struct Counting;

fn note_allocation() {
    // `try_with`: a thread being torn down has no locals left; it is not being counted.
    let _ = COUNTING.try_with(|counting| {
        if counting.get() {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        }
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `f` and returns its result with the number of allocations this thread made in it.
pub fn count<R>(f: impl FnOnce() -> R) -> (R, usize) {
    ALLOCATIONS.with(|n| n.set(0));
    COUNTING.with(|c| c.set(true));
    let r = f();
    COUNTING.with(|c| c.set(false));
    (r, ALLOCATIONS.with(|n| n.get()))
}
