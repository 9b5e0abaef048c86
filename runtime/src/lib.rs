//! The concurrency substrate: work-stealing executor, bounded-channel actors, GNU make jobserver client.
//!
//! Knows nothing about PTX: the compiler's stages are plain `Fn(T) -> T` handlers chained into a
//! [`Pipeline`] and run on an [`Executor`].
//!
//! ## What lives where
//!
//! `executor.rs`: worker threads over crossbeam-deque (static round-robin inboxes, or injector +
//! local deques + stealing), parking on crossbeam `Parker`, counters. `pipeline.rs`: the `Actor`
//! trait and stage actors over bounded flume mailboxes with the help-downstream backpressure
//! protocol (documented there, with the no-deadlock argument). `jobserver.rs`: GNU make jobserver
//! client (fifo / pipe via `/proc/self/fd` reopen so `O_NONBLOCK` is ours, implicit token, reader
//! thread with a wake-up pipe, sticky errors, write-back on drop; SIGINT/SIGTERM are blocked from
//! `connect` on and a watcher thread, under the state lock that every read and write of a token
//! byte holds, writes back exactly the bytes held before re-raising). Knows nothing about PTX.

pub mod executor;
pub mod jobserver;
pub mod pipeline;

pub use executor::{Counters, Executor, ExecutorConfig, Spawner};
pub use jobserver::{Jobserver, JobserverStats, Token};
pub use pipeline::{Actor, Envelope, Pipeline, StageStats, StageTiming};
