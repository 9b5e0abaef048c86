//! Wires the per-kernel stages as actors on the runtime and collects outcomes in definition order.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use ptxforge_runtime::{Executor, ExecutorConfig, Pipeline, StageTiming as RtTiming};

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

/// Runs every job through all stages as actors on the runtime; the result is in definition order
/// whatever the timing. `--split-compile` picks the worker count.
pub fn run_kernel_pipeline(jobs: Vec<KernelInFlight>, opts: &CompileOptions) -> Vec<KernelOutcome> {
    let epoch = Instant::now();
    let workers = match opts.split_compile {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let exec = Executor::new(ExecutorConfig { workers: workers.min(jobs.len().max(1)), dynamic_scheduling: opts.dynamic_scheduling });
    let mut pipeline = Pipeline::new(|stage: &'static str, msg: String| -> StageResult {
        Err(KernelError { kernel: String::new(), stage, messages: vec![(0, format!("internal error: {msg}"))] })
    });
    for (stage, f) in PIPELINE {
        let js = opts.jobserver.clone();
        pipeline = pipeline.stage(stage, opts.mailbox_capacity, move |r: StageResult| {
            let k = r?;
            let name = k.name.clone();
            let _token = js.as_ref().and_then(|j| j.0.acquire().ok());
            run_stage_caught(stage, &name, f, k)
        });
    }
    let names: Vec<(usize, String)> = jobs.iter().map(|k| (k.index, k.name.clone())).collect();
    let inputs = jobs.into_iter().map(Ok).collect();
    let (envelopes, _stats) = pipeline.run(&exec, inputs);
    envelopes
        .into_iter()
        .zip(names)
        .map(|(env, (index, name))| {
            let timings = env.timings.iter().map(|t| timing(t, epoch)).collect::<Vec<_>>();
            let wall = match (env.timings.first(), env.timings.last()) {
                (Some(a), Some(b)) => (b.start + b.duration).saturating_duration_since(a.start),
                _ => Duration::ZERO,
            };
            finish(index, name, env.value, timings, wall)
        })
        .collect()
}

fn timing(t: &RtTiming, epoch: Instant) -> StageTiming {
    StageTiming {
        stage: t.stage,
        worker: if t.worker == usize::MAX { 0 } else { t.worker + 1 },
        start: t.start.saturating_duration_since(epoch),
        duration: t.duration,
        queue_wait: t.queue_wait,
    }
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
        Err(mut e) => {
            if e.kernel.is_empty() {
                e.kernel = o.name.clone();
            }
            o.error = Some(e);
        }
    }
    o
}
