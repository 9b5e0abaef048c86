//! `--compiler-stats`: ptxas's `STAT:` lines from the compile's measured times and peak memory,
//! followed by ptxforge's own pipeline figures in the same shapes.
//!
//! Phases map onto ptxforge's stages: Parse-time = parse, DAGgen-time = lower + optimize,
//! OCG-time = regalloc + schedule + encode, ELF-time = the ELF actor. ptxforge has no separate
//! compile-unit setup or debug-info phase (printed as 0). Per-phase memory is not tracked yet, so
//! only the process peak (VmHWM) is printed.
//!
//! With `time` and `phase-wise`, ptxforge's own groups follow ptxas's lines, each a
//! `STAT: Name = value` header and `name : value` lines as ptxas prints its phases:
//! * `KernelStages = N kernels`: per stage, latency over kernels (`<stage>-p50/-p90/-p99/-max`,
//!   from an HDR histogram) and the time kernels waited in the stage's channel
//!   (`<stage>-wait`, total, and `<stage>-wait-p99/-max`).
//! * `Workers = N`: per thread, busy time and its share of the compile's wall time
//!   (`worker-0` is the calling thread, `worker-i` runtime worker `i - 1`).
//! * `Tasks = N`: steals, parks, sections and each stage's mailbox high-water mark.
//! * `JobserverTokens = N` (with `--jobserver`): tokens taken from Make and the time spent waiting.
//!
//! `--compiler-stats-json FILE` writes all of it, and every kernel's per-stage spans, as JSON
//! (see [`crate::stats_json`]); `--fdevice-time-trace FILE` writes the spans as a Chrome trace
//! (see [`crate::trace`]).

use std::fmt::Write;
use std::time::Duration;

use hdrhistogram::Histogram;
use ptxforge_pipeline::{CompileOutput, KernelOutcome};

/// Which parts of the report were asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatsRequest {
    pub time: bool,
    pub memory: bool,
    pub phase_wise: bool,
    pub detailed: bool,
}

/// Parses `time,memory,phase-wise,detailed` (or `t,m,p,d`), ptxas's message on a bad value.
pub fn parse_request(v: &str) -> Result<StatsRequest, String> {
    let mut r = StatsRequest::default();
    for item in v.split(',') {
        match item {
            "time" | "t" => r.time = true,
            "memory" | "m" => r.memory = true,
            "phase-wise" | "p" => r.phase_wise = true,
            "detailed" | "d" => r.detailed = true,
            _ => {
                return Err(format!(
                    "Value '{v}' is not defined for option 'compiler-stats'"
                ))
            }
        }
    }
    Ok(r)
}

pub(crate) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn stage_sum(k: &KernelOutcome, stages: &[&str]) -> Duration {
    k.timings
        .iter()
        .filter(|t| stages.contains(&t.stage))
        .map(|t| t.duration)
        .sum()
}

const DAGGEN: [&str; 2] = ["lower", "optimize"];
const OCG: [&str; 3] = ["regalloc", "schedule", "encode"];

/// The report. `prefix` is `ptxas info    : STAT: ` on stderr and empty in the stats file, which
/// ptxas writes without either.
pub fn report(req: StatsRequest, out: &CompileOutput, prefix: &str) -> String {
    let mut s = String::new();
    if req.time {
        time_lines(&mut s, req, out, prefix);
    }
    if req.memory {
        let _ = writeln!(s, "{prefix}PeakMemoryUsage = {:.3} KB", peak_kb());
        if req.phase_wise {
            let _ = writeln!(s);
        }
    }
    if req.detailed && req.time {
        if !prefix.is_empty() {
            let _ = writeln!(s, "{prefix}");
        }
        for k in &out.kernels {
            let (dag, ocg) = (stage_sum(k, &DAGGEN), stage_sum(k, &OCG));
            let _ = writeln!(s, "Compile-unit with entry {}", k.name);
            let _ = writeln!(
                s,
                "\tTotal Compile-Unit time        = {:.3} ms",
                ms(dag + ocg)
            );
            let _ = writeln!(s, "\t\tDAGgen-time            : {:.3} ms", ms(dag));
            let _ = writeln!(s, "\t\tOCG-time               : {:.3} ms", ms(ocg));
            let _ = writeln!(s, "\t\tELF-time               : {:.3} ms", 0.0);
            let _ = writeln!(s);
        }
    }
    if req.time && req.phase_wise && !out.kernels.is_empty() {
        pipeline_lines(&mut s, out, prefix);
    }
    s
}

/// DAGgen-time and OCG-time summed over kernels.
pub(crate) fn daggen_ocg(out: &CompileOutput) -> (Duration, Duration) {
    let dag = out.kernels.iter().map(|k| stage_sum(k, &DAGGEN)).sum();
    let ocg = out.kernels.iter().map(|k| stage_sum(k, &OCG)).sum();
    (dag, ocg)
}

fn time_lines(s: &mut String, req: StatsRequest, out: &CompileOutput, prefix: &str) {
    let total = ms(out.total_time);
    if !req.phase_wise {
        let _ = writeln!(s, "{prefix}CompileTime = {total:.6} ms");
        return;
    }
    let (dag, ocg) = daggen_ocg(out);
    let pct = |d: f64| if total > 0.0 { 100.0 * d / total } else { 0.0 };
    let _ = writeln!(s, "{prefix}CompileTime = {total:.6} ms (100%)");
    for (name, t) in [
        ("Parse-time            ", ms(out.parse_time)),
        ("CompileUnitSetup-time ", 0.0),
        ("DAGgen-time           ", ms(dag)),
        ("OCG-time              ", ms(ocg)),
        ("ELF-time              ", ms(out.elf_time)),
        ("DebugInfo-time        ", 0.0),
    ] {
        let _ = writeln!(s, "{name}: {t:.3} ms ({:.2}%)", pct(t));
    }
    let _ = writeln!(s);
}

/// Peak resident memory of this process in KB (VmHWM), 0 where /proc is unavailable.
pub(crate) fn peak_kb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|st| {
            st.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(str::to_string)
        })
        .and_then(|l| {
            l.split_whitespace()
                .nth(1)
                .and_then(|v| v.parse::<f64>().ok())
        })
        .unwrap_or(0.0)
}

/// Latency figures of one set of durations: quantiles from an HDR histogram (3 significant
/// digits, clamped to the exact maximum), the exact maximum and the total.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Latency {
    pub count: usize,
    pub p50: Duration,
    pub p90: Duration,
    pub p99: Duration,
    pub max: Duration,
    pub total: Duration,
}

impl Latency {
    pub fn of(samples: impl IntoIterator<Item = Duration>) -> Latency {
        let mut hist = Histogram::<u64>::new(3).expect("3 significant digits is a valid precision");
        let mut l = Latency::default();
        for d in samples {
            let ns = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
            let _ = hist.record(ns); // auto-resizing: only a u64 overflow could fail
            l.count += 1;
            l.max = l.max.max(d);
            l.total += d;
        }
        if l.count > 0 {
            let q = |q: f64| Duration::from_nanos(hist.value_at_quantile(q)).min(l.max);
            (l.p50, l.p90, l.p99) = (q(0.50), q(0.90), q(0.99));
        }
        l
    }
}

/// One kernel stage over all kernels.
#[derive(Clone, Debug)]
pub struct StageSummary {
    pub stage: &'static str,
    /// How long the stage took per kernel.
    pub latency: Latency,
    /// How long kernels waited in the stage's channel before a worker took them.
    pub wait: Latency,
    pub mailbox_high_water: usize,
}

/// The kernel stages in pipeline order, summarised over kernels.
pub fn stage_summaries(out: &CompileOutput) -> Vec<StageSummary> {
    let mut stages: Vec<&'static str> = out
        .runtime
        .mailbox_high_water
        .iter()
        .map(|(s, _)| *s)
        .collect();
    for t in out.kernels.iter().flat_map(|k| &k.timings) {
        if !stages.contains(&t.stage) {
            stages.push(t.stage);
        }
    }
    stages
        .into_iter()
        .map(|stage| {
            let of_stage = || {
                out.kernels
                    .iter()
                    .flat_map(|k| &k.timings)
                    .filter(move |t| t.stage == stage)
            };
            StageSummary {
                stage,
                latency: Latency::of(of_stage().map(|t| t.duration)),
                wait: Latency::of(of_stage().map(|t| t.queue_wait)),
                mailbox_high_water: out
                    .runtime
                    .mailbox_high_water
                    .iter()
                    .find(|(s, _)| *s == stage)
                    .map_or(0, |(_, n)| *n),
            }
        })
        .collect()
}

/// Busy time per thread as `(id, busy)`; ids are the trace's thread ids: 0 = the calling thread
/// (which runs everything when there are no workers, and stages inline when a mailbox is full),
/// `i + 1` = worker `i`.
pub fn worker_busy(out: &CompileOutput) -> Vec<(usize, Duration)> {
    out.runtime
        .worker_busy
        .iter()
        .copied()
        .enumerate()
        .collect()
}

/// `part` as a percentage of `whole`.
pub(crate) fn percent(part: Duration, whole: Duration) -> f64 {
    if whole.is_zero() {
        0.0
    } else {
        100.0 * part.as_secs_f64() / whole.as_secs_f64()
    }
}

/// ptxforge's own groups (see the module docs), in ptxas's `Name = value` / `name : value` shapes.
fn pipeline_lines(s: &mut String, out: &CompileOutput, prefix: &str) {
    let line = |s: &mut String, name: &str, value: String| {
        let _ = writeln!(s, "{name:<22}: {value}");
    };
    let msf = |d: Duration| format!("{:.3} ms", ms(d));
    let _ = writeln!(s, "{prefix}KernelStages = {} kernels", out.kernels.len());
    for st in stage_summaries(out) {
        let (l, w) = (st.latency, st.wait);
        for (what, d) in [
            ("p50", l.p50),
            ("p90", l.p90),
            ("p99", l.p99),
            ("max", l.max),
            ("wait", w.total),
            ("wait-p99", w.p99),
            ("wait-max", w.max),
        ] {
            line(s, &format!("{}-{what}", st.stage), msf(d));
        }
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "{prefix}Workers = {}", out.runtime.workers);
    for (id, busy) in worker_busy(out) {
        line(
            s,
            &format!("worker-{id}-busy"),
            format!("{} ({:.2}%)", msf(busy), percent(busy, out.total_time)),
        );
    }
    let _ = writeln!(s);
    let rt = &out.runtime;
    let _ = writeln!(s, "{prefix}Tasks = {}", rt.tasks_run);
    line(s, "Steals", rt.steals.to_string());
    line(s, "Parks", rt.parks.to_string());
    line(s, "Sections", rt.sections.to_string());
    for (stage, n) in &rt.mailbox_high_water {
        line(s, &format!("{stage}-mailbox-peak"), n.to_string());
    }
    let _ = writeln!(s);
    if let Some(js) = &rt.jobserver {
        let _ = writeln!(s, "{prefix}JobserverTokens = {}", js.tokens_acquired);
        line(s, "JobserverWait", msf(js.wait_time));
        line(s, "JobserverMaxHeld", js.max_concurrent.to_string());
        let _ = writeln!(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_quantiles_are_ordered_and_bounded_by_the_exact_maximum() {
        let samples: Vec<Duration> = (1..=1000)
            .map(|i| Duration::from_micros(i * 7 + 3))
            .collect();
        let l = Latency::of(samples.iter().copied());
        assert_eq!((l.count, l.max), (1000, Duration::from_micros(7003)));
        assert!(l.p50 <= l.p90 && l.p90 <= l.p99 && l.p99 <= l.max, "{l:?}");
        let near =
            |d: Duration, want_us: f64| (d.as_secs_f64() * 1e6 - want_us).abs() <= want_us * 0.002;
        assert!(
            near(l.p50, 3503.0) && near(l.p90, 6303.0) && near(l.p99, 6933.0),
            "{l:?}"
        );
        assert_eq!(l.total, samples.iter().sum());
        assert_eq!(Latency::of([]), Latency::default());
    }
}
