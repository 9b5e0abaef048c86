//! GNU make jobserver client: take a token before each compile section, give it back after.
//!
//! * `MAKEFLAGS` is searched for `--jobserver-auth=fifo:PATH`, `--jobserver-auth=R,W` or the older
//!   `--jobserver-fds=R,W` (the last one wins; negative descriptors mean "no jobserver").
//! * Our own file description: the fifo is opened by path, and pipe descriptors are reopened
//!   through `/proc/self/fd/N`, so `O_NONBLOCK` is set on a description nobody else shares
//!   (setting it on Make's shared description would break Make and its other children).
//! * The implicit token: the first acquire is free and that token is never written to the pipe.
//! * A reader thread polls the Make descriptor and an internal wake-up pipe; it reads bytes only
//!   while someone waits, hands them to waiters, and writes back any byte nobody needs.
//! * Release, in order: hand a held byte to a waiter; otherwise write it back to Make; a release
//!   with no byte held restores the implicit token. A release with nothing to give back is a
//!   protocol error. Errors are sticky: the first one wins.
//! * Every byte read is written back on drop. [`Jobserver::connect`] blocks SIGINT/SIGTERM in
//!   the calling thread (and so in every thread started after it) and a watcher thread waits for
//!   them: it takes the state lock, writes back every byte held, and re-raises. Bytes are read and
//!   written only under that lock, so the count it writes back is exact. EINTR is retried.

use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::fcntl::{open, OFlag};
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::stat::Mode;

/// ptxas's warning when `--jobserver` is given but Make offers none.
pub const NO_JOBSERVER_WARNING: &str =
    "GNU Jobserver support requested, but no compatible jobserver found. Ignoring '--jobserver'";
/// ptxas's warning when the jobserver fails during the compile.
pub const JOBSERVER_ERROR_WARNING: &str = "Jobserver requested, but an error occurred";

/// Where Make's tokens live, as `MAKEFLAGS` describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Auth {
    Fifo(String),
    Pipe(i32, i32),
}

/// Parses `MAKEFLAGS`; `None` when it names no usable jobserver.
pub fn parse_makeflags(flags: &str) -> Option<Auth> {
    let value = flags
        .split_whitespace()
        .filter_map(|w| {
            w.strip_prefix("--jobserver-auth=")
                .or_else(|| w.strip_prefix("--jobserver-fds="))
        })
        .last()?;
    if let Some(path) = value.strip_prefix("fifo:") {
        return (!path.is_empty()).then(|| Auth::Fifo(path.to_string()));
    }
    let (r, w) = value.split_once(',')?;
    let (r, w): (i32, i32) = (r.parse().ok()?, w.parse().ok()?);
    (r >= 0 && w >= 0).then_some(Auth::Pipe(r, w))
}

/// Counters for `--compiler-stats` and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobserverStats {
    pub tokens_acquired: u64,
    pub max_concurrent: usize,
    pub wait_time: Duration,
}

#[derive(Default)]
struct State {
    implicit_available: bool,
    /// Bytes read from Make and not yet given back (held by active sections or waiting in `ready`).
    ready: Vec<u8>,
    held: Vec<u8>,
    waiters: usize,
    active: usize,
    shutdown: bool,
    error: Option<String>,
    stats: JobserverStats,
}

struct Inner {
    read: OwnedFd,
    write: OwnedFd,
    wake_read: OwnedFd,
    wake_write: OwnedFd,
    state: Mutex<State>,
    cond: Condvar,
}

/// A connected jobserver client.
pub struct Jobserver {
    inner: Arc<Inner>,
    reader: Option<JoinHandle<()>>,
}

/// A held token; dropping it gives it back.
pub struct Token<'a> {
    js: &'a Jobserver,
}

impl Drop for Token<'_> {
    fn drop(&mut self) {
        self.js.release();
    }
}

impl Jobserver {
    /// Connects to the jobserver `MAKEFLAGS` names. `Ok(None)`: there is none (warn and go on).
    pub fn from_env() -> Result<Option<Jobserver>, String> {
        let Some(flags) = std::env::var_os("MAKEFLAGS") else {
            return Ok(None);
        };
        match parse_makeflags(&flags.to_string_lossy()) {
            Some(auth) => Jobserver::connect(&auth).map(Some),
            None => Ok(None),
        }
    }

    /// Opens our own non-blocking descriptions of Make's channel and starts the reader thread.
    pub fn connect(auth: &Auth) -> Result<Jobserver, String> {
        let flags = OFlag::O_RDWR | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC;
        let (read, write) = match auth {
            Auth::Fifo(path) => {
                let fd = open(path.as_str(), flags, Mode::empty())
                    .map_err(|e| format!("{path}: {e}"))?;
                let fd = own(fd);
                let dup = fd.try_clone().map_err(|e| e.to_string())?;
                (fd, dup)
            }
            Auth::Pipe(r, w) => (reopen(*r, OFlag::O_RDONLY)?, reopen(*w, OFlag::O_WRONLY)?),
        };
        let (wake_read, wake_write) = nix::unistd::pipe().map_err(|e| e.to_string())?;
        let inner = Arc::new(Inner {
            read,
            write,
            wake_read,
            wake_write,
            state: Mutex::new(State {
                implicit_available: true,
                ..State::default()
            }),
            cond: Condvar::new(),
        });
        watch_termination_signals(&inner)?;
        let reader_inner = Arc::clone(&inner);
        let reader = std::thread::Builder::new()
            .name("ptxforge-jobserver".into())
            .spawn(move || reader_loop(&reader_inner))
            .map_err(|e| e.to_string())?;
        Ok(Jobserver {
            inner,
            reader: Some(reader),
        })
    }

    /// Blocks until a token is held (the implicit one first). `Err` after a jobserver error.
    pub fn acquire(&self) -> Result<Token<'_>, String> {
        let started = Instant::now();
        let mut st = self
            .inner
            .state
            .lock()
            .map_err(|_| "poisoned".to_string())?;
        if let Some(e) = &st.error {
            return Err(e.clone());
        }
        if st.implicit_available {
            st.implicit_available = false;
        } else {
            st.waiters += 1;
            self.inner.cond.notify_all();
            let took = loop {
                // The implicit token may come back while we wait for Make's: take whichever
                // is first, or a process whose every section waits on an empty pipe never ends.
                if st.implicit_available {
                    st.implicit_available = false;
                    break Ok(None);
                }
                if let Some(byte) = st.ready.pop() {
                    break Ok(Some(byte));
                }
                if st.shutdown || st.error.is_some() {
                    break Err(st
                        .error
                        .clone()
                        .unwrap_or_else(|| "jobserver shut down".into()));
                }
                st = self
                    .inner
                    .cond
                    .wait(st)
                    .map_err(|_| "poisoned".to_string())?;
            };
            st.waiters -= 1;
            if let Some(byte) = took? {
                st.held.push(byte);
            }
            self.return_unwanted(&mut st);
        }
        st.active += 1;
        st.stats.tokens_acquired += 1;
        st.stats.max_concurrent = st.stats.max_concurrent.max(st.active);
        st.stats.wait_time += started.elapsed();
        Ok(Token { js: self })
    }

    /// Gives one token back: to a waiter, to Make, or as the implicit token.
    fn release(&self) {
        let Ok(mut st) = self.inner.state.lock() else {
            return;
        };
        st.active = st.active.saturating_sub(1);
        if let Some(byte) = st.held.pop() {
            if st.waiters > st.ready.len() {
                st.ready.push(byte);
                self.inner.cond.notify_all();
            } else {
                if let Err(e) = write_byte(&self.inner.write, byte) {
                    set_error(&mut st, format!("write: {e}"));
                }
            }
        } else if !st.implicit_available {
            st.implicit_available = true;
            self.inner.cond.notify_all();
        } else {
            set_error(&mut st, "token released twice".into());
        }
    }

    /// Writes back bytes read for waiters that took the implicit token instead.
    fn return_unwanted(&self, st: &mut State) {
        while st.ready.len() > st.waiters {
            let byte = st.ready.pop().expect("more ready bytes than waiters");
            if let Err(e) = write_byte(&self.inner.write, byte) {
                set_error(st, format!("write: {e}"));
            }
        }
    }

    /// The first error seen, if any (sticky).
    pub fn error(&self) -> Option<String> {
        self.inner.state.lock().ok().and_then(|s| s.error.clone())
    }

    pub fn stats(&self) -> JobserverStats {
        self.inner.state.lock().map(|s| s.stats).unwrap_or_default()
    }
}

impl Drop for Jobserver {
    /// Stops the reader and writes back every byte still held.
    fn drop(&mut self) {
        if let Ok(mut st) = self.inner.state.lock() {
            st.shutdown = true;
        }
        self.inner.cond.notify_all();
        let _ = write_byte(&self.inner.wake_write, b'x');
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
        give_back_everything(&self.inner);
    }
}

fn own(fd: std::os::fd::RawFd) -> OwnedFd {
    use std::os::fd::FromRawFd;
    // SAFETY: `fd` was just returned by open(2) and is owned by nobody else.
    unsafe { OwnedFd::from_raw_fd(fd) }
}

/// A new open file description for an inherited pipe end, so O_NONBLOCK stays ours.
fn reopen(fd: i32, access: OFlag) -> Result<OwnedFd, String> {
    let flags = access | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC;
    let path = format!("/proc/self/fd/{fd}");
    open(path.as_str(), flags, Mode::empty())
        .map(own)
        .map_err(|e| format!("jobserver fd {fd}: {e}"))
}

fn set_error(st: &mut State, e: String) {
    if st.error.is_none() {
        st.error = Some(e);
    }
}

fn write_byte(fd: &OwnedFd, byte: u8) -> Result<(), Errno> {
    loop {
        match nix::unistd::write(fd.as_fd(), &[byte]) {
            Ok(1) => return Ok(()),
            Ok(_) => return Err(Errno::EIO),
            Err(Errno::EINTR) => continue,
            Err(Errno::EAGAIN) => {
                let mut fds = [PollFd::new(fd.as_fd(), PollFlags::POLLOUT)];
                let _ = poll(&mut fds, PollTimeout::from(100u16));
            }
            Err(e) => return Err(e),
        }
    }
}

/// Reads one byte if one is there; `Ok(None)` when another reader got it first.
fn read_byte(fd: &OwnedFd) -> Result<Option<u8>, Errno> {
    let mut b = [0u8];
    loop {
        match nix::unistd::read(fd.as_raw_fd(), &mut b) {
            Ok(1) => return Ok(Some(b[0])),
            Ok(_) => return Err(Errno::EPIPE),
            Err(Errno::EINTR) => continue,
            Err(Errno::EAGAIN) => return Ok(None),
            Err(e) => return Err(e),
        }
    }
}

/// While someone waits: poll Make's descriptor and the wake-up pipe, and pass bytes on.
fn reader_loop(inner: &Inner) {
    loop {
        {
            let Ok(mut st) = inner.state.lock() else {
                return;
            };
            while st.waiters == 0 && !st.shutdown {
                st = match inner.cond.wait(st) {
                    Ok(s) => s,
                    Err(_) => return,
                };
            }
            if st.shutdown {
                return;
            }
        }
        let mut fds = [
            PollFd::new(inner.read.as_fd(), PollFlags::POLLIN),
            PollFd::new(inner.wake_read.as_fd(), PollFlags::POLLIN),
        ];
        match poll(&mut fds, PollTimeout::from(200u16)) {
            Err(Errno::EINTR) | Ok(0) => continue,
            Err(e) => return fail(inner, format!("poll: {e}")),
            Ok(_) => {}
        }
        if fds[1].revents().is_some_and(|r| !r.is_empty()) {
            return;
        }
        let Ok(mut st) = inner.state.lock() else {
            return;
        };
        if st.shutdown {
            return;
        }
        match read_byte(&inner.read) {
            Ok(Some(byte)) => deliver(inner, &mut st, byte),
            Ok(None) => {}
            Err(e) => {
                set_error(&mut st, format!("read: {e}"));
                drop(st);
                inner.cond.notify_all();
                return;
            }
        }
    }
}

/// Hands a byte just read (under the state lock) to a waiter, or gives it straight back when
/// nobody waits any more.
fn deliver(inner: &Inner, st: &mut State, byte: u8) {
    if st.waiters > st.ready.len() {
        st.ready.push(byte);
        inner.cond.notify_all();
    } else if let Err(e) = write_byte(&inner.write, byte) {
        set_error(st, format!("write: {e}"));
    }
}

fn fail(inner: &Inner, e: String) {
    if let Ok(mut st) = inner.state.lock() {
        set_error(&mut st, e);
    }
    inner.cond.notify_all();
}

/// Writes back every byte read from Make and not yet returned, and stops further reads.
fn give_back_everything(inner: &Inner) {
    let mut st = inner.state.lock().unwrap_or_else(|e| e.into_inner());
    st.shutdown = true;
    let mut bytes = std::mem::take(&mut st.held);
    bytes.append(&mut st.ready);
    for b in bytes {
        let _ = write_byte(&inner.write, b);
    }
}

/// Blocks SIGINT/SIGTERM here and in every thread started later, and starts a thread that, on
/// either, gives every token back and then dies of the same signal.
fn watch_termination_signals(inner: &Arc<Inner>) -> Result<(), String> {
    use nix::sys::signal::{raise, signal, SigHandler, SigSet, Signal};
    let mut set = SigSet::empty();
    set.add(Signal::SIGINT);
    set.add(Signal::SIGTERM);
    set.thread_block().map_err(|e| e.to_string())?;
    let inner = Arc::clone(inner);
    std::thread::Builder::new()
        .name("ptxforge-signals".into())
        .spawn(move || {
            let Ok(sig) = set.wait() else { return };
            give_back_everything(&inner);
            // SAFETY: restoring the default action; no handler of ours is replaced mid-call.
            let _ = unsafe { signal(sig, SigHandler::SigDfl) };
            let _ = set.thread_unblock();
            let _ = raise(sig);
        })
        .map(drop)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A jobserver on a pipe that holds no token: only the implicit one exists.
    fn tokenless() -> (Jobserver, OwnedFd, OwnedFd) {
        let (r, w) = nix::unistd::pipe().unwrap();
        let js = Jobserver::connect(&Auth::Pipe(r.as_raw_fd(), w.as_raw_fd())).unwrap();
        (js, r, w)
    }

    #[test]
    fn a_waiter_takes_the_implicit_token_when_it_comes_back() {
        let (js, _r, _w) = tokenless();
        let js = Arc::new(js);
        let first = js.acquire().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let waiter = Arc::clone(&js);
        // Not joined: with the bug it would wait for ever, and the test must fail, not hang.
        std::thread::spawn(move || {
            let token = waiter.acquire().unwrap();
            tx.send(()).unwrap();
            drop(token);
        });
        std::thread::sleep(Duration::from_millis(100));
        assert!(
            rx.try_recv().is_err(),
            "a second token out of an empty pipe"
        );
        drop(first);
        // Before the fix the waiter slept on Make's empty pipe for ever.
        rx.recv_timeout(Duration::from_secs(5))
            .expect("the waiter never got the implicit token back");
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(js.stats().tokens_acquired, 2);
        assert!(js.acquire().is_ok(), "the implicit token is free again");
    }

    #[test]
    fn makeflags_forms() {
        assert_eq!(
            parse_makeflags("-j4 --jobserver-auth=3,4"),
            Some(Auth::Pipe(3, 4))
        );
        assert_eq!(
            parse_makeflags("--jobserver-fds=5,6 -j"),
            Some(Auth::Pipe(5, 6))
        );
        assert_eq!(
            parse_makeflags("--jobserver-auth=fifo:/tmp/js"),
            Some(Auth::Fifo("/tmp/js".into()))
        );
        assert_eq!(parse_makeflags("--jobserver-auth=-2,-2"), None);
        assert_eq!(parse_makeflags("-k"), None);
        assert_eq!(
            parse_makeflags("--jobserver-fds=3,4 --jobserver-auth=fifo:/x"),
            Some(Auth::Fifo("/x".into()))
        );
    }
}
