//! The executor: worker threads over crossbeam-deque queues, static or work-stealing, that park
//! when idle.
//!
//! * `workers == 0` or `1`: no threads; tasks run on the thread that calls [`Executor::help`].
//! * Static scheduling: each spawned task goes to worker `n % workers` (n counts spawns), so the
//!   assignment is deterministic; workers only run their own queue.
//! * Dynamic scheduling: tasks go to the global injector (or the spawning worker's own deque);
//!   an idle worker takes local work first, then the injector, then steals from siblings.
//! * Idle workers park on a crossbeam `Parker`. A worker announces itself in a sleeper mask, looks
//!   for work once more, then parks; a spawn wakes one announced sleeper (static: the target).
//! * Each thread adds the time it spends on tasks to its own cache-padded counter
//!   ([`Executor::busy_times`], for `--compiler-stats` utilisation): slot 0 is the calling thread
//!   (tasks it runs in [`Executor::help`], and work it times with [`Executor::on_caller`]), slot
//!   `i + 1` is worker `i`.
//!
//! Compared with ptxas's pool (one mutex-protected FIFO, a broadcast condition variable, no
//! stealing; `../shared/seeds/000`): idle workers here are woken one at a time instead of all at
//! once (no thundering herd on every task), tasks spawned by a worker stay on its own deque (cache
//! locality, no global lock), and an idle worker steals from a busy sibling, so one long kernel
//! does not leave the rest of a static partition waiting behind it.

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_deque::{Injector, Steal, Stealer, Worker};
use crossbeam_utils::sync::{Parker, Unparker};
use crossbeam_utils::CachePadded;

/// A unit of work.
pub type Task = Box<dyn FnOnce() + Send + 'static>;

/// How the executor runs.
#[derive(Clone, Debug)]
pub struct ExecutorConfig {
    /// 0 or 1: everything on the calling thread; N: N worker threads.
    pub workers: usize,
    /// Work stealing (`--threads-dynamic-scheduling`) instead of static partitioning.
    pub dynamic_scheduling: bool,
}

/// Counters for `--compiler-stats` and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub tasks_run: u64,
    pub steals: u64,
    pub parks: u64,
    pub panics: u64,
}

struct Shared {
    injector: Injector<Task>,
    /// Per-worker inboxes for static scheduling (and for the caller when there are no workers).
    inboxes: Vec<Injector<Task>>,
    stealers: Vec<Stealer<Task>>,
    unparkers: Vec<Unparker>,
    dynamic: bool,
    /// Bit i set: worker i is about to park or parked (workers beyond 64 are always woken).
    sleepers: AtomicU64,
    shutdown: AtomicBool,
    spawned: AtomicUsize,
    tasks_run: AtomicU64,
    steals: AtomicU64,
    parks: AtomicU64,
    panics: AtomicU64,
    /// Nanoseconds spent running tasks: slot 0 the calling thread, slot `i + 1` worker `i`.
    busy_ns: Vec<CachePadded<AtomicU64>>,
}

thread_local! {
    /// The index of the current worker thread, if this thread is one.
    static WORKER_INDEX: Cell<Option<usize>> = const { Cell::new(None) };
    /// The current worker's own deque (dynamic scheduling pushes nested spawns here).
    static LOCAL_QUEUE: RefCell<Option<Worker<Task>>> = const { RefCell::new(None) };
}

/// A pool of workers (possibly empty) that runs spawned tasks.
pub struct Executor {
    shared: Arc<Shared>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl Executor {
    pub fn new(cfg: ExecutorConfig) -> Executor {
        let n = if cfg.workers <= 1 { 0 } else { cfg.workers };
        let locals: Vec<Worker<Task>> = (0..n).map(|_| Worker::new_fifo()).collect();
        let parkers: Vec<Parker> = (0..n).map(|_| Parker::new()).collect();
        let shared = Arc::new(Shared {
            injector: Injector::new(),
            inboxes: (0..n.max(1)).map(|_| Injector::new()).collect(),
            stealers: locals.iter().map(Worker::stealer).collect(),
            unparkers: parkers.iter().map(|p| p.unparker().clone()).collect(),
            dynamic: cfg.dynamic_scheduling,
            sleepers: AtomicU64::new(0),
            shutdown: AtomicBool::new(false),
            spawned: AtomicUsize::new(0),
            tasks_run: AtomicU64::new(0),
            steals: AtomicU64::new(0),
            parks: AtomicU64::new(0),
            panics: AtomicU64::new(0),
            busy_ns: (0..=n)
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
        });
        let threads = locals
            .into_iter()
            .zip(parkers)
            .enumerate()
            .map(|(i, (local, parker))| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("ptxforge-worker-{i}"))
                    .spawn(move || worker_loop(i, local, parker, shared))
                    .expect("spawn worker thread")
            })
            .collect();
        Executor {
            shared,
            threads: Mutex::new(threads),
        }
    }

    /// Number of worker threads (0 = the caller runs everything).
    pub fn workers(&self) -> usize {
        self.shared.unparkers.len()
    }

    /// Queues a task. Never blocks.
    pub fn spawn(&self, task: Task) {
        self.shared.spawn(task);
    }

    /// A cheap handle that tasks can carry to spawn more tasks.
    pub fn spawner(&self) -> Spawner {
        Spawner(Arc::clone(&self.shared))
    }

    /// Runs one queued task on the calling thread, if any is available; returns whether it did.
    pub fn help(&self) -> bool {
        match self.shared.find_for_caller() {
            Some(t) => {
                self.shared.run(0, t);
                true
            }
            None => false,
        }
    }

    pub fn counters(&self) -> Counters {
        let s = &self.shared;
        Counters {
            tasks_run: s.tasks_run.load(Ordering::Relaxed),
            steals: s.steals.load(Ordering::Relaxed),
            parks: s.parks.load(Ordering::Relaxed),
            panics: s.panics.load(Ordering::Relaxed),
        }
    }

    /// Time each thread spent on tasks so far: `[0]` the calling thread, `[i + 1]` worker `i`.
    pub fn busy_times(&self) -> Vec<Duration> {
        self.shared
            .busy_ns
            .iter()
            .map(|b| Duration::from_nanos(b.load(Ordering::Relaxed)))
            .collect()
    }

    /// Runs `work` on the calling thread and counts its time as the caller's busy time (for work
    /// the caller does outside tasks, such as running a stage inline while a mailbox is full).
    pub fn on_caller<R>(&self, work: impl FnOnce() -> R) -> R {
        let started = Instant::now();
        let r = work();
        self.shared.busy_ns[0].fetch_add(started.elapsed().as_nanos() as u64, Ordering::Relaxed);
        r
    }

    /// The worker index of the current thread (`None` on the caller's thread).
    pub fn current_worker() -> Option<usize> {
        WORKER_INDEX.with(Cell::get)
    }
}

/// A clonable handle for spawning tasks onto an [`Executor`] from inside tasks.
#[derive(Clone)]
pub struct Spawner(Arc<Shared>);

impl Spawner {
    pub fn spawn(&self, task: Task) {
        self.0.spawn(task);
    }
}

impl Drop for Executor {
    fn drop(&mut self) {
        self.shared.shutdown.store(true, Ordering::SeqCst);
        self.shared.unparkers.iter().for_each(Unparker::unpark);
        for t in self
            .threads
            .lock()
            .map(|mut v| std::mem::take(&mut *v))
            .unwrap_or_default()
        {
            let _ = t.join();
        }
        // Queued tasks may hold spawners (and so this executor's queues): drop them to break the cycle.
        let queues = std::iter::once(&self.shared.injector).chain(self.shared.inboxes.iter());
        for q in queues {
            while steal_one(q).is_some() {}
        }
    }
}

impl Shared {
    fn spawn(&self, task: Task) {
        let n = self.unparkers.len();
        if n == 0 {
            self.inboxes[0].push(task);
            return;
        }
        if self.dynamic {
            let leftover = LOCAL_QUEUE.with(|q| match q.borrow().as_ref() {
                Some(local) => {
                    local.push(task);
                    None
                }
                None => Some(task),
            });
            if let Some(task) = leftover {
                self.injector.push(task);
            }
            self.wake_one();
        } else {
            let target = self.spawned.fetch_add(1, Ordering::Relaxed) % n;
            self.inboxes[target].push(task);
            self.unparkers[target].unpark();
        }
    }

    /// Wakes one worker that announced it is going to sleep (all of them past 64 workers).
    fn wake_one(&self) {
        if self.unparkers.len() > 64 {
            self.unparkers.iter().for_each(Unparker::unpark);
            return;
        }
        // Claim one sleeper, so back-to-back spawns wake different workers.
        loop {
            let mask = self.sleepers.load(Ordering::SeqCst);
            if mask == 0 {
                return;
            }
            let bit = mask & mask.wrapping_neg();
            if self.sleepers.fetch_and(!bit, Ordering::SeqCst) & bit != 0 {
                self.unparkers[bit.trailing_zeros() as usize].unpark();
                return;
            }
        }
    }

    /// Work the calling (non-worker) thread may run: only when there are no workers.
    fn find_for_caller(&self) -> Option<Task> {
        if !self.unparkers.is_empty() {
            return None;
        }
        steal_one(&self.inboxes[0])
    }

    /// Local first, then own inbox / the injector, then (dynamic only) siblings.
    fn find_for_worker(&self, me: usize) -> Option<Task> {
        LOCAL_QUEUE.with(|q| {
            q.borrow()
                .as_ref()
                .and_then(|local| self.find_with_local(me, local))
        })
    }

    fn find_with_local(&self, me: usize, local: &Worker<Task>) -> Option<Task> {
        if let Some(t) = local.pop() {
            return Some(t);
        }
        if let Some(t) = steal_one(&self.inboxes[me]) {
            return Some(t);
        }
        if !self.dynamic {
            return None;
        }
        loop {
            match self.injector.steal_batch_and_pop(local) {
                Steal::Success(t) => return Some(t),
                Steal::Retry => continue,
                Steal::Empty => break,
            }
        }
        for (i, s) in self.stealers.iter().enumerate() {
            if i == me {
                continue;
            }
            if let Steal::Success(t) = s.steal() {
                self.steals.fetch_add(1, Ordering::Relaxed);
                return Some(t);
            }
        }
        None
    }

    /// Runs a task on worker `slot` and adds its run time there; a panic is counted and contained
    /// (tasks report failures themselves).
    fn run(&self, slot: usize, t: Task) {
        let started = Instant::now();
        if catch_unwind(AssertUnwindSafe(t)).is_err() {
            self.panics.fetch_add(1, Ordering::Relaxed);
        }
        self.busy_ns[slot].fetch_add(started.elapsed().as_nanos() as u64, Ordering::Relaxed);
        self.tasks_run.fetch_add(1, Ordering::Relaxed);
    }
}

fn steal_one(q: &Injector<Task>) -> Option<Task> {
    loop {
        match q.steal() {
            Steal::Success(t) => return Some(t),
            Steal::Retry => continue,
            Steal::Empty => return None,
        }
    }
}

fn worker_loop(me: usize, local: Worker<Task>, parker: Parker, shared: Arc<Shared>) {
    WORKER_INDEX.with(|w| w.set(Some(me)));
    LOCAL_QUEUE.with(|q| *q.borrow_mut() = Some(local));
    let bit = if me < 64 { 1u64 << me } else { 0 };
    while !shared.shutdown.load(Ordering::SeqCst) {
        if let Some(t) = shared.find_for_worker(me) {
            shared.run(me + 1, t);
            continue;
        }
        // Announce, look once more (a spawn may have raced with the first look), then park.
        shared.sleepers.fetch_or(bit, Ordering::SeqCst);
        match shared.find_for_worker(me) {
            Some(t) => {
                shared.sleepers.fetch_and(!bit, Ordering::SeqCst);
                shared.run(me + 1, t);
            }
            None if shared.shutdown.load(Ordering::SeqCst) => break,
            None => {
                shared.parks.fetch_add(1, Ordering::Relaxed);
                parker.park();
                shared.sleepers.fetch_and(!bit, Ordering::SeqCst);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nap() {
        std::thread::sleep(Duration::from_millis(2));
    }

    #[test]
    fn busy_time_is_counted_for_the_thread_that_did_the_work() {
        let alone = Executor::new(ExecutorConfig {
            workers: 0,
            dynamic_scheduling: false,
        });
        alone.spawn(Box::new(nap));
        assert!(alone.help());
        assert_eq!(alone.busy_times().len(), 1);
        assert!(alone.busy_times()[0] >= Duration::from_millis(2));

        let pool = Executor::new(ExecutorConfig {
            workers: 2,
            dynamic_scheduling: false,
        });
        for _ in 0..4 {
            pool.spawn(Box::new(nap));
        }
        // A task's busy time is added before it counts as run.
        while pool.counters().tasks_run < 4 {
            std::thread::yield_now();
        }
        assert!(pool.busy_times()[0].is_zero(), "the caller ran nothing yet");
        pool.on_caller(nap);
        let busy = pool.busy_times();
        assert_eq!(busy.len(), 3);
        assert!(busy[0] >= Duration::from_millis(2));
        assert!(
            busy[1] >= Duration::from_millis(4) && busy[2] >= Duration::from_millis(4),
            "{busy:?}"
        );
    }
}
