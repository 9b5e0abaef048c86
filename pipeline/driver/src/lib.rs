//! The compile pipeline: each stage runs as an actor on the runtime; kernels flow through as messages.
//!
//! [`compile_module`] is the whole job: parse the module, send every kernel through lower →
//! optimize → regalloc → schedule → encode on the runtime's pipeline, and let the ELF stage
//! assemble the results in definition order, so the cubin never depends on timing.
//!
//! ## What lives where
//!
//! `compile_module`: the stages as plain functions (`stages.rs`), wrapped in `StageActor`s with
//! sections and jobserver tokens (`actors.rs`), ELF assembly in order (`compile.rs`), diagnostics
//! (`report.rs`), `timeline.rs` (per-kernel, per-stage spans stamped by the stage actors: start,
//! end, worker, channel wait), `lineinfo.rs` (`-lineinfo`'s line tables from `.file`/`.loc` and
//! each instruction's PTX line). `compile_sources` takes several inputs (ptxas joins them into one
//! cubin), and checks the last input's `.target` against `-arch` (`CompileOptions::arch`, set by
//! the CLI: a higher SM, an `a` target on another architecture, an `f` target outside its family
//! are ptxas's fatals, with no output file). Filetests, determinism, oracle, allocation-verifier
//! and fault tests live in its `tests/`.

pub mod actors;
pub mod compile;
pub mod lineinfo;
pub mod options;
mod relocatable;
pub mod report;
pub mod stages;
pub mod timeline;

pub use compile::{compile_module, CompileOutput, KernelOutcome};
pub use options::{CompileOptions, JobserverHandle, LaunchDefaults};
pub use ptxforge_lower::{CacheOp, CachePolicy};
