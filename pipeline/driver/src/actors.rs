//! Wires the per-kernel stages as actors on the runtime and collects outcomes in definition order.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use crate::compile::KernelOutcome;
use crate::options::CompileOptions;
use crate::report::StageTiming;
use crate::stages::{self, KernelError, KernelInFlight, StageResult};

type StageFn = fn(KernelInFlight) -> StageResult;

/// The stages in order, with their names.
const PIPELINE: [(&str, StageFn); 5] = [
    ("lower", stages::lower),
    ("optimize", stages::optimize),
    ("regalloc", stages::regalloc),
    ("schedule", stages::schedule),
    ("encode", stages::encode),
];

/// Runs every job through all stages; the result is in definition order whatever the timing.
pub fn run_kernel_pipeline(jobs: Vec<KernelInFlight>, _opts: &CompileOptions) -> Vec<KernelOutcome> {
    let epoch = Instant::now();
    let mut outcomes: Vec<KernelOutcome> = jobs.into_iter().map(|k| run_one(k, epoch)).collect();
    outcomes.sort_by_key(|o| o.index);
    outcomes
}

/// One kernel through every stage on the calling thread.
fn run_one(job: KernelInFlight, epoch: Instant) -> KernelOutcome {
    let name = job.name.clone();
    let index = job.index;
    let start = Instant::now();
    let mut timings = Vec::new();
    let mut current = Ok(job);
    for (stage, f) in PIPELINE {
        let Ok(k) = current else { break };
        let t0 = Instant::now();
        current = run_stage_caught(stage, &name, f, k);
        timings.push(StageTiming {
            stage,
            worker: 0,
            start: t0 - epoch,
            duration: t0.elapsed(),
            queue_wait: Duration::ZERO,
        });
    }
    finish(index, name, current, timings, start.elapsed())
}

/// Runs one stage; a panic becomes an internal error naming the kernel and the stage.
fn run_stage_caught(stage: &'static str, name: &str, f: StageFn, k: KernelInFlight) -> StageResult {
    match catch_unwind(AssertUnwindSafe(|| f(k))) {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".into());
            Err(KernelError {
                kernel: name.to_string(),
                stage,
                messages: vec![(0, format!("internal error: {what}"))],
            })
        }
    }
}

/// Turns the last stage's result into the kernel's outcome.
fn finish(
    index: usize,
    name: String,
    result: StageResult,
    timings: Vec<StageTiming>,
    wall: Duration,
) -> KernelOutcome {
    let mut o = KernelOutcome {
        index,
        name,
        regs: 0,
        barriers: 0,
        shared_bytes: 0,
        sass_text: None,
        image: None,
        timings,
        wall,
        error: None,
    };
    match result {
        Ok(k) => {
            if let Some(l) = &k.lowered {
                o.regs = l.func.reg_usage.gprs;
                o.barriers = u32::from(l.uses_barrier);
                o.shared_bytes = l.shared_bytes;
            }
            o.sass_text = k.sass_text;
            o.image = k.image;
        }
        Err(e) => o.error = Some(e),
    }
    o
}
