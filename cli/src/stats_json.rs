//! `--compiler-stats-json FILE`: the `--compiler-stats` figures and every kernel's per-stage spans
//! as one JSON object, written whether or not `--compiler-stats` is given and also when the
//! compile fails (times in milliseconds, relative to the compile's start):
//!
//! ```text
//! { "input", "compile_time_ms", "peak_memory_kb",
//!   "phases": { "Parse-time", "CompileUnitSetup-time", "DAGgen-time", "OCG-time", "ELF-time", "DebugInfo-time" },
//!   "stages": [ { "stage", "kernels", "mailbox_high_water",
//!                 "latency_ms": { "p50", "p90", "p99", "max", "total" }, "channel_wait_ms": { same } } ],
//!   "workers": [ { "worker", "busy_ms", "utilization" } ],
//!   "runtime": { "workers", "sections", "tasks_run", "steals", "parks" },
//!   "jobserver": null or { "tokens_acquired", "max_held", "wait_ms" },
//!   "kernels": [ { "index", "name", "wall_ms", "failed",
//!                  "stages": [ { "stage", "worker", "start_ms", "duration_ms", "channel_wait_ms" } ] } ] }
//! ```
//!
//! `worker` is the trace's thread id: 0 is the calling thread (it runs every stage when there are
//! no workers, and stages inline when a mailbox is full), `i + 1` runtime worker `i`.

use std::time::Duration;

use ptxforge_pipeline::{CompileOutput, KernelOutcome};

use crate::json::Json;
use crate::stats::{self, ms, Latency};

fn msj(d: Duration) -> Json {
    Json::fixed(ms(d), 6)
}

fn count(n: usize) -> Json {
    Json::int(n as u64)
}

/// The whole document for one compile of `input`.
pub fn document(input: &str, out: &CompileOutput) -> Json {
    let rt = &out.runtime;
    Json::obj([
        ("input", Json::str(input)),
        ("compile_time_ms", msj(out.total_time)),
        ("peak_memory_kb", Json::fixed(stats::peak_kb(), 3)),
        ("phases", phases(out)),
        (
            "stages",
            Json::Arr(stats::stage_summaries(out).iter().map(stage).collect()),
        ),
        (
            "workers",
            Json::Arr(
                stats::worker_busy(out)
                    .into_iter()
                    .map(|(id, busy)| worker(id, busy, out.total_time))
                    .collect(),
            ),
        ),
        (
            "runtime",
            Json::obj([
                ("workers", count(rt.workers)),
                ("sections", count(rt.sections)),
                ("tasks_run", Json::int(rt.tasks_run)),
                ("steals", Json::int(rt.steals)),
                ("parks", Json::int(rt.parks)),
            ]),
        ),
        (
            "jobserver",
            rt.jobserver.map_or(Json::Null, |js| {
                Json::obj([
                    ("tokens_acquired", Json::int(js.tokens_acquired)),
                    ("max_held", count(js.max_concurrent)),
                    ("wait_ms", msj(js.wait_time)),
                ])
            }),
        ),
        (
            "kernels",
            Json::Arr(out.kernels.iter().map(kernel).collect()),
        ),
    ])
}

/// ptxas's six timed phases, as `--compiler-stats=time,phase-wise` prints them.
fn phases(out: &CompileOutput) -> Json {
    let (dag, ocg) = stats::daggen_ocg(out);
    Json::obj([
        ("Parse-time", msj(out.parse_time)),
        ("CompileUnitSetup-time", msj(Duration::ZERO)),
        ("DAGgen-time", msj(dag)),
        ("OCG-time", msj(ocg)),
        ("ELF-time", msj(out.elf_time)),
        ("DebugInfo-time", msj(Duration::ZERO)),
    ])
}

fn latency(l: &Latency) -> Json {
    Json::obj([
        ("p50", msj(l.p50)),
        ("p90", msj(l.p90)),
        ("p99", msj(l.p99)),
        ("max", msj(l.max)),
        ("total", msj(l.total)),
    ])
}

fn stage(s: &stats::StageSummary) -> Json {
    Json::obj([
        ("stage", Json::str(s.stage)),
        ("kernels", count(s.latency.count)),
        ("mailbox_high_water", count(s.mailbox_high_water)),
        ("latency_ms", latency(&s.latency)),
        ("channel_wait_ms", latency(&s.wait)),
    ])
}

fn worker(id: usize, busy: Duration, wall: Duration) -> Json {
    Json::obj([
        ("worker", count(id)),
        ("busy_ms", msj(busy)),
        (
            "utilization",
            Json::fixed(stats::percent(busy, wall) / 100.0, 4),
        ),
    ])
}

fn kernel(k: &KernelOutcome) -> Json {
    let spans = k.timings.iter().map(|t| {
        Json::obj([
            ("stage", Json::str(t.stage)),
            ("worker", count(t.worker)),
            ("start_ms", msj(t.start)),
            ("duration_ms", msj(t.duration)),
            ("channel_wait_ms", msj(t.queue_wait)),
        ])
    });
    Json::obj([
        ("index", count(k.index)),
        ("name", Json::str(&k.name)),
        ("wall_ms", msj(k.wall)),
        ("failed", Json::Bool(k.error.is_some())),
        ("stages", Json::Arr(spans.collect())),
    ])
}

/// Writes the document to `path` (when given); `Err` holds ptxas's fatal message.
pub fn write_file(path: Option<&str>, input: &str, out: &CompileOutput) -> Result<(), String> {
    let Some(path) = path else { return Ok(()) };
    let text = document(input, out).to_text() + "\n";
    std::fs::write(path, text).map_err(|_| format!("Output file '{path}' could not be opened"))
}
