//! The concurrency substrate: work-stealing executor, bounded-channel actors, GNU make jobserver client.
//!
//! Knows nothing about PTX: the compiler's stages are plain `Fn(T) -> T` handlers chained into a
//! [`Pipeline`] and run on an [`Executor`].

pub mod executor;
pub mod jobserver;
pub mod pipeline;

pub use executor::{Counters, Executor, ExecutorConfig, Spawner};
pub use jobserver::{Jobserver, JobserverStats, Token};
pub use pipeline::{Actor, Envelope, Pipeline, StageStats, StageTiming};
