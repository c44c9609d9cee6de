//! Ctrl-C during a run: Python's SIGINT handler only trips a flag that the interpreter looks at
//! between bytecodes, which it cannot do while a run holds the thread. While a run goes on the
//! main thread, a handler of ours is installed in front of Python's: it sets the run's
//! interrupt flag (the run stops at its next step, its rows kept) and calls Python's handler,
//! whose `KeyboardInterrupt` the caller raises once the run returned
//! ([`crate::interruptible`]). Two `sigaction` calls per run: no thread, no polling.

use pyo3::prelude::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Watches for SIGINT during a run: until the guard is dropped, a SIGINT sets `flag` (and goes
/// on to the handler installed before, Python's). `None` (nothing installed) off the main
/// thread (Python raises `KeyboardInterrupt` on the main thread only), when SIGINT is ignored
/// or has its default action, when a watch is already installed, and off Unix.
pub(crate) fn watch(py: Python<'_>, flag: &Arc<AtomicBool>) -> Option<Guard> {
    if !on_main_thread(py) {
        return None;
    }
    imp::install(flag)
}

/// Whether this is the interpreter's main thread (the one Python runs signal handlers on).
fn on_main_thread(py: Python<'_>) -> bool {
    let check = || -> PyResult<bool> {
        let threading = py.import("threading")?;
        let current = threading.call_method0("current_thread")?;
        let main = threading.call_method0("main_thread")?;
        Ok(current.is(&main))
    };
    check().unwrap_or(false)
}

pub(crate) use imp::Guard;

#[cfg(unix)]
mod imp {
    use std::ptr;
    use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};
    use std::sync::Arc;

    /// The flag of the watched run (null when none is).
    static FLAG: AtomicPtr<AtomicBool> = AtomicPtr::new(ptr::null_mut());
    /// The handler installed before ours (its address) and whether it takes `siginfo`.
    static PREVIOUS: AtomicUsize = AtomicUsize::new(0);
    static PREVIOUS_SIGINFO: AtomicBool = AtomicBool::new(false);
    /// Whether a watch is installed (one at a time).
    static INSTALLED: AtomicBool = AtomicBool::new(false);

    type Handler = extern "C" fn(libc::c_int);
    type InfoHandler = extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void);

    /// Async-signal-safe: atomic stores, then the previous handler (itself a signal handler).
    extern "C" fn on_sigint(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        let flag = FLAG.load(Ordering::SeqCst);
        if !flag.is_null() {
            // SAFETY: the guard keeps the flag's Arc alive while FLAG points at it.
            unsafe { (*flag).store(true, Ordering::SeqCst) };
        }
        let previous = PREVIOUS.load(Ordering::SeqCst);
        if previous == libc::SIG_DFL || previous == libc::SIG_IGN {
            return;
        }
        // SAFETY: `previous` is the address of the handler sigaction reported, of the kind its
        // flags say.
        unsafe {
            if PREVIOUS_SIGINFO.load(Ordering::SeqCst) {
                std::mem::transmute::<usize, InfoHandler>(previous)(sig, info, ctx);
            } else {
                std::mem::transmute::<usize, Handler>(previous)(sig);
            }
        }
    }

    /// Restores the previous SIGINT action when dropped.
    pub(crate) struct Guard {
        previous: libc::sigaction,
        /// Kept alive while the handler may write to it.
        _flag: Arc<AtomicBool>,
    }

    pub(super) fn install(flag: &Arc<AtomicBool>) -> Option<Guard> {
        if INSTALLED
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            return None;
        }
        // SAFETY: sigaction with valid pointers; a zeroed sigaction is a valid value.
        unsafe {
            let mut previous: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGINT, ptr::null(), &mut previous) != 0
                || previous.sa_sigaction == libc::SIG_DFL
                || previous.sa_sigaction == libc::SIG_IGN
            {
                INSTALLED.store(false, Ordering::SeqCst);
                return None;
            }
            PREVIOUS.store(previous.sa_sigaction, Ordering::SeqCst);
            PREVIOUS_SIGINFO.store(previous.sa_flags & libc::SA_SIGINFO != 0, Ordering::SeqCst);
            FLAG.store(Arc::as_ptr(flag).cast_mut(), Ordering::SeqCst);
            let mut ours: libc::sigaction = std::mem::zeroed();
            let handler: InfoHandler = on_sigint;
            ours.sa_sigaction = handler as usize;
            ours.sa_flags = (previous.sa_flags | libc::SA_SIGINFO) & !libc::SA_RESETHAND;
            ours.sa_mask = previous.sa_mask;
            if libc::sigaction(libc::SIGINT, &ours, ptr::null_mut()) != 0 {
                FLAG.store(ptr::null_mut(), Ordering::SeqCst);
                INSTALLED.store(false, Ordering::SeqCst);
                return None;
            }
            Some(Guard {
                previous,
                _flag: Arc::clone(flag),
            })
        }
    }

    impl Drop for Guard {
        fn drop(&mut self) {
            // SAFETY: restores the action read at install.
            unsafe { libc::sigaction(libc::SIGINT, &self.previous, ptr::null_mut()) };
            FLAG.store(ptr::null_mut(), Ordering::SeqCst);
            INSTALLED.store(false, Ordering::SeqCst);
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    /// Nothing is installed off Unix: a Ctrl-C is raised once the run ends.
    pub(crate) struct Guard;

    pub(super) fn install(_flag: &Arc<AtomicBool>) -> Option<Guard> {
        None
    }
}
