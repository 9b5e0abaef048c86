//! A chain of stage actors over bounded flume mailboxes, run on the [`Executor`].
//!
//! ## Protocol
//! Every stage `k` owns a bounded mailbox. A *pump* task for stage `k` takes one message from the
//! mailbox (`try_recv`, never blocking), runs the stage's handler and offers the result to mailbox
//! `k+1` with `try_send`. On success it spawns one pump for stage `k+1`. If mailbox `k+1` is full,
//! the pump does not wait: it runs a pump of stage `k+1` inline (helping the consumer) and offers
//! again. The last stage sends to the sink, which is unbounded (the ELF stage keeps every kernel
//! anyway), so the caller thread collects results in any order and puts them back by index.
//!
//! ## Why it cannot deadlock
//! No worker ever blocks on a channel: receives and sends are `try_*`. A full mailbox `k+1` means
//! it holds a message, so the inline pump of stage `k+1` makes progress; the chain of inline pumps
//! ends at the sink, which never refuses. Each successful send spawns a pump for the receiving
//! stage, so every message is eventually taken (a pump that finds its mailbox empty because a
//! helper took the message simply returns). The source is fed by the caller with the same rule.
//! With one worker, or none (the caller runs every task), the same argument holds.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use flume::{Receiver, Sender, TrySendError};

use crate::executor::{Executor, Spawner};

/// When and where one message spent time in one stage.
#[derive(Clone, Debug)]
pub struct StageTiming {
    pub stage: &'static str,
    /// Worker index; `usize::MAX` for the caller's thread.
    pub worker: usize,
    pub start: Instant,
    pub duration: Duration,
    /// Time between arriving in the stage's mailbox and being taken (time spent helping a full
    /// mailbox drain before the message got in is not part of it).
    pub queue_wait: Duration,
}

/// A message with its position in the input and its history.
pub struct Envelope<T> {
    pub index: usize,
    pub value: T,
    pub timings: Vec<StageTiming>,
    enqueued: Instant,
}

/// An actor: a named handler for the messages of one stage. The pipeline runs it as tasks on the
/// executor; several workers may run the same actor at once, each on a message taken from the
/// stage's one mailbox (several instances pulling from one channel).
pub trait Actor<T>: Send + Sync + 'static {
    fn name(&self) -> &'static str;
    fn handle(&self, msg: T) -> T;
}

/// A closure as an actor.
struct FnActor<F> {
    name: &'static str,
    f: F,
}

impl<T, F: Fn(T) -> T + Send + Sync + 'static> Actor<T> for FnActor<F> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn handle(&self, msg: T) -> T {
        (self.f)(msg)
    }
}

/// The address of a stage: its bounded mailbox. Sending never blocks (see `offer`).
struct Addr<T> {
    tx: Sender<Envelope<T>>,
}

type Handler<T> = Arc<dyn Actor<T>>;
/// Turns a panic in a stage into a value (`stage name`, panic message).
type Recover<T> = Arc<dyn Fn(&'static str, String) -> T + Send + Sync>;

struct Stage<T> {
    name: &'static str,
    handler: Handler<T>,
    rx: Receiver<Envelope<T>>,
    high_water: AtomicUsize,
}

struct Chain<T> {
    stages: Vec<Stage<T>>,
    addrs: Vec<Addr<T>>,
    sink: Sender<Envelope<T>>,
    recover: Recover<T>,
}

/// A pipeline under construction: stages in order, each `Fn(T) -> T`.
pub struct Pipeline<T> {
    stages: Vec<(usize, Handler<T>)>,
    recover: Recover<T>,
}

/// Per-stage statistics after a run.
#[derive(Clone, Debug)]
pub struct StageStats {
    pub name: &'static str,
    pub mailbox_high_water: usize,
}

impl<T: Send + 'static> Pipeline<T> {
    /// `recover` builds the value that replaces a message whose stage handler panicked.
    pub fn new(recover: impl Fn(&'static str, String) -> T + Send + Sync + 'static) -> Pipeline<T> {
        Pipeline {
            stages: Vec::new(),
            recover: Arc::new(recover),
        }
    }

    /// Adds a stage run by `actor`, with a mailbox of `capacity` messages.
    pub fn actor(mut self, capacity: usize, actor: impl Actor<T>) -> Self {
        self.stages.push((capacity.max(1), Arc::new(actor)));
        self
    }

    /// Adds a stage whose actor is a closure.
    pub fn stage(
        self,
        name: &'static str,
        capacity: usize,
        handler: impl Fn(T) -> T + Send + Sync + 'static,
    ) -> Self {
        self.actor(capacity, FnActor { name, f: handler })
    }

    /// Runs every input through all stages on `exec`; returns envelopes in input order.
    pub fn run(self, exec: &Executor, inputs: Vec<T>) -> (Vec<Envelope<T>>, Vec<StageStats>) {
        let total = inputs.len();
        let (sink_tx, sink_rx) = flume::unbounded();
        let chain = Arc::new(self.into_chain(sink_tx));
        let spawner = exec.spawner();
        let mut out: Vec<Option<Envelope<T>>> = (0..total).map(|_| None).collect();
        let mut received = 0;
        let mut pending = inputs.into_iter().enumerate().peekable();
        while received < total {
            if let Some((index, value)) = pending.next() {
                let env = Envelope {
                    index,
                    value,
                    timings: Vec::new(),
                    enqueued: Instant::now(),
                };
                exec.on_caller(|| offer(&chain, &spawner, 0, env));
            }
            let drained = drain_sink(&sink_rx, &mut out);
            received += drained;
            if drained == 0 && pending.peek().is_none() && !exec.help() {
                if let Ok(env) = sink_rx.recv_timeout(Duration::from_millis(50)) {
                    let i = env.index;
                    out[i] = Some(env);
                    received += 1;
                }
            }
        }
        let stats = chain.stats();
        (
            out.into_iter()
                .map(|e| e.expect("every message reaches the sink"))
                .collect(),
            stats,
        )
    }

    fn into_chain(self, sink: Sender<Envelope<T>>) -> Chain<T> {
        let mut stages = Vec::new();
        let mut addrs = Vec::new();
        for (cap, handler) in self.stages {
            let (tx, rx) = flume::bounded(cap);
            addrs.push(Addr { tx });
            stages.push(Stage {
                name: handler.name(),
                handler,
                rx,
                high_water: AtomicUsize::new(0),
            });
        }
        Chain {
            stages,
            addrs,
            sink,
            recover: self.recover,
        }
    }
}

impl<T> Chain<T> {
    fn stats(&self) -> Vec<StageStats> {
        self.stages
            .iter()
            .map(|s| StageStats {
                name: s.name,
                mailbox_high_water: s.high_water.load(Ordering::Relaxed),
            })
            .collect()
    }
}

fn drain_sink<T>(rx: &Receiver<Envelope<T>>, out: &mut [Option<Envelope<T>>]) -> usize {
    let mut n = 0;
    while let Ok(env) = rx.try_recv() {
        let i = env.index;
        out[i] = Some(env);
        n += 1;
    }
    n
}

/// Offers `env` to stage `k` (or the sink past the last stage), helping downstream while full.
fn offer<T: Send + 'static>(
    chain: &Arc<Chain<T>>,
    spawner: &Spawner,
    k: usize,
    mut env: Envelope<T>,
) {
    if k == chain.stages.len() {
        let _ = chain.sink.send(env);
        return;
    }
    loop {
        env.enqueued = Instant::now();
        match chain.addrs[k].tx.try_send(env) {
            Ok(()) => {
                let len = chain.stages[k].rx.len();
                chain.stages[k].high_water.fetch_max(len, Ordering::Relaxed);
                let c = Arc::clone(chain);
                let sp = spawner.clone();
                spawner.spawn(Box::new(move || pump(&c, &sp, k)));
                return;
            }
            Err(TrySendError::Full(back)) => {
                env = back;
                pump(chain, spawner, k);
            }
            Err(TrySendError::Disconnected(_)) => return,
        }
    }
}

/// Takes one message from stage `k`'s mailbox, runs the stage, and passes the result on.
fn pump<T: Send + 'static>(chain: &Arc<Chain<T>>, spawner: &Spawner, k: usize) {
    let stage = &chain.stages[k];
    let Ok(mut env) = stage.rx.try_recv() else {
        return;
    };
    let start = Instant::now();
    let queue_wait = start - env.enqueued;
    let handler = Arc::clone(&stage.handler);
    let value = env.value;
    let value = match catch_unwind(AssertUnwindSafe(move || handler.handle(value))) {
        Ok(v) => v,
        Err(p) => (chain.recover)(stage.name, panic_message(&*p)),
    };
    env.value = value;
    let worker = Executor::current_worker().unwrap_or(usize::MAX);
    env.timings.push(StageTiming {
        stage: stage.name,
        worker,
        start,
        duration: start.elapsed(),
        queue_wait,
    });
    offer(chain, spawner, k + 1, env);
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}
