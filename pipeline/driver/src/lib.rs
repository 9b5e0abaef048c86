//! The compile pipeline: each stage runs as an actor on the runtime; kernels flow through as messages.
//!
//! [`compile_module`] is the whole job: parse the module, send every kernel through lower →
//! optimize → regalloc → schedule → encode on the runtime's pipeline, and let the ELF stage
//! assemble the results in definition order, so the cubin never depends on timing.

pub mod actors;
pub mod compile;
pub mod options;
pub mod report;
pub mod stages;
pub mod timeline;

pub use compile::{compile_module, CompileOutput, KernelOutcome};
pub use options::{CompileOptions, JobserverHandle};
