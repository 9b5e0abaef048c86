//! `--compiler-stats`: ptxas's `STAT:` lines from the compile's measured times and peak memory.
//!
//! Phases map onto ptxforge's stages: Parse-time = parse, DAGgen-time = lower + optimize,
//! OCG-time = regalloc + schedule + encode, ELF-time = the ELF actor. ptxforge has no separate
//! compile-unit setup or debug-info phase (printed as 0). Per-phase memory is not tracked yet, so
//! only the process peak (VmHWM) is printed.

use std::fmt::Write;
use std::time::Duration;

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
            _ => return Err(format!("Value '{v}' is not defined for option 'compiler-stats'")),
        }
    }
    Ok(r)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn stage_sum(k: &KernelOutcome, stages: &[&str]) -> Duration {
    k.timings.iter().filter(|t| stages.contains(&t.stage)).map(|t| t.duration).sum()
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
            let _ = writeln!(s, "\tTotal Compile-Unit time        = {:.3} ms", ms(dag + ocg));
            let _ = writeln!(s, "\t\tDAGgen-time            : {:.3} ms", ms(dag));
            let _ = writeln!(s, "\t\tOCG-time               : {:.3} ms", ms(ocg));
            let _ = writeln!(s, "\t\tELF-time               : {:.3} ms", 0.0);
            let _ = writeln!(s);
        }
    }
    s
}

fn time_lines(s: &mut String, req: StatsRequest, out: &CompileOutput, prefix: &str) {
    let total = ms(out.total_time);
    if !req.phase_wise {
        let _ = writeln!(s, "{prefix}CompileTime = {total:.6} ms");
        return;
    }
    let dag: Duration = out.kernels.iter().map(|k| stage_sum(k, &DAGGEN)).sum();
    let ocg: Duration = out.kernels.iter().map(|k| stage_sum(k, &OCG)).sum();
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
fn peak_kb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|st| st.lines().find(|l| l.starts_with("VmHWM:")).map(str::to_string))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse::<f64>().ok()))
        .unwrap_or(0.0)
}
