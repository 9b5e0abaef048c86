//! `--fdevice-time-trace FILE`: the compile as a Chrome trace (open it in Perfetto or
//! chrome://tracing), with ptxas's option spellings and error messages.
//!
//! One `X` (complete) event per kernel per stage, on the thread that ran it (`tid` 0 = the calling
//! thread, `i + 1` = worker `i`), named after the stage, with the kernel in `args.name` and its
//! wait in the stage's channel in `args.channel_wait_us`; the module-level `parse` (one per
//! section), `validate` and `elf` events likewise on the thread that ran them, with the input in
//! `args.name`; `compile` on thread 0; `thread_name` / `process_name` metadata events. Times are in
//! microseconds from the compile's start.
//!
//! As with ptxas, the file is read back after the cubin is written and our events are appended to
//! its `traceEvents` array; everything else in it is kept, in order. Unlike ptxas, a missing file
//! is created. `--use-trace-pid N` sets the events' `pid`; otherwise it is our process id, or one
//! past the largest `pid` in the file when that is already taken, so our tracks never mix with
//! others. `--ftrace-phase-after NAME` starts our events where the file's event `NAME` ends (as
//! nvcc asks for after `LibNVVM`).

use std::collections::BTreeSet;
use std::time::Duration;

use ptxforge_pipeline::CompileOutput;

use crate::json::Json;

/// The trace options of the command line.
#[derive(Clone, Debug, Default)]
pub struct TraceOptions {
    /// `--fdevice-time-trace FILE`.
    pub file: Option<String>,
    /// `--use-trace-pid N`.
    pub pid: Option<i64>,
    /// `--ftrace-phase-after NAME`.
    pub phase_after: Option<String>,
}

const NOT_EXPECTED: &str = "Parsed trace file not in expected format : ";

impl TraceOptions {
    /// ptxas's warnings for trace options given without `--fdevice-time-trace`.
    pub fn warnings(&self) -> Vec<&'static str> {
        let mut w = Vec::new();
        if self.file.is_none() && self.pid.is_some() {
            w.push("Option '--use-trace-pid' requires option '--fdevice-time-trace'; ignoring since latter is not specified");
        }
        if self.file.is_none() && self.phase_after.is_some() {
            w.push("Option '--ftrace-phase-after' requires option fdevice-time-trace; ignoring since latter is not specified");
        }
        w
    }
}

/// Adds this compile's events to the trace file (creating it when missing). `Err` holds ptxas's
/// fatal message; the file is then left as it was.
pub fn write_trace(opts: &TraceOptions, input: &str, out: &CompileOutput) -> Result<(), String> {
    let Some(path) = &opts.file else {
        return Ok(());
    };
    let mut doc = read_trace(path)?;
    let events = trace_events(&mut doc)?;
    let offset_us = match &opts.phase_after {
        Some(name) => phase_end_us(events, name)
            .ok_or_else(|| format!("{NOT_EXPECTED}required phase entry not found in input file"))?,
        None => 0.0,
    };
    let offset_ns = (offset_us * 1e3).round() as i128;
    let pid = opts
        .pid
        .unwrap_or_else(|| free_pid(events, i64::from(std::process::id())));
    events.extend(our_events(input, out, pid, offset_ns));
    write_atomically(path, doc.to_text().as_bytes())
        .map_err(|_| format!("File '{path}' could not be opened"))
}

/// The file's document, or an empty trace when there is no file.
fn read_trace(path: &str) -> Result<Json, String> {
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Json::obj([("traceEvents", Json::Arr(Vec::new()))]))
        }
        Err(_) => return Err(format!("File '{path}' could not be opened")),
    };
    let text = String::from_utf8(text)
        .map_err(|_| format!("Input file '{path}' not in expected format"))?;
    if text.trim().is_empty() {
        return Err(format!(
            "{NOT_EXPECTED}Error reading input trace file to buffer"
        ));
    }
    Json::parse(&text).map_err(|_| format!("Input file '{path}' not in expected format"))
}

/// The document's `traceEvents` array.
fn trace_events(doc: &mut Json) -> Result<&mut Vec<Json>, String> {
    let Json::Obj(members) = doc else {
        return Err(format!("{NOT_EXPECTED}expected key 'traceEvents'"));
    };
    match members.iter_mut().find(|(k, _)| k == "traceEvents") {
        Some((_, Json::Arr(events))) => Ok(events),
        Some(_) => Err(format!(
            "{NOT_EXPECTED}expected key 'traceEvents' to be a JSON Array"
        )),
        None => Err(format!("{NOT_EXPECTED}expected key 'traceEvents'")),
    }
}

/// `ts + dur` of the first event named `name`.
fn phase_end_us(events: &[Json], name: &str) -> Option<f64> {
    let e = events
        .iter()
        .find(|e| matches!(e.get("name"), Some(Json::Str(n)) if n == name))?;
    Some(
        e.get("ts").and_then(Json::as_f64).unwrap_or(0.0)
            + e.get("dur").and_then(Json::as_f64).unwrap_or(0.0),
    )
}

/// `wanted`, or one past the largest pid in `events` when `wanted` is taken.
fn free_pid(events: &[Json], wanted: i64) -> i64 {
    let used: BTreeSet<i64> = events
        .iter()
        .filter_map(|e| e.get("pid").and_then(Json::as_f64))
        .map(|p| p as i64)
        .collect();
    match used.last() {
        Some(&max) if used.contains(&wanted) => max.saturating_add(1),
        _ => wanted,
    }
}

/// `d + offset_ns` in microseconds, exact to the nanosecond (so spans that touch never overlap).
fn us(d: Duration, offset_ns: i128) -> Json {
    let ns = d.as_nanos() as i128 + offset_ns;
    let sign = if ns < 0 { "-" } else { "" };
    Json::Num(format!("{sign}{}.{:03}", ns.abs() / 1000, ns.abs() % 1000))
}

/// A complete event, keys in ptxas's (sorted) order.
fn complete(name: &str, args: Json, tid: usize, ts: Json, dur: Duration, pid: i64) -> Json {
    Json::obj([
        ("args", args),
        ("dur", us(dur, 0)),
        ("name", Json::str(name)),
        ("ph", Json::str("X")),
        ("pid", Json::int(pid)),
        ("tid", Json::int(tid as u64)),
        ("ts", ts),
    ])
}

fn metadata(kind: &str, label: &str, tid: usize, pid: i64) -> Json {
    Json::obj([
        ("args", Json::obj([("name", Json::str(label))])),
        ("name", Json::str(kind)),
        ("ph", Json::str("M")),
        ("pid", Json::int(pid)),
        ("tid", Json::int(tid as u64)),
    ])
}

/// Metadata, module-level spans, then one span per kernel per stage in definition order.
fn our_events(input: &str, out: &CompileOutput, pid: i64, offset_ns: i128) -> Vec<Json> {
    let named = |s: &str| Json::obj([("name", Json::str(s))]);
    let spans = out
        .kernels
        .iter()
        .flat_map(|k| &k.timings)
        .chain(&out.module_spans);
    let mut tids: BTreeSet<usize> = spans.map(|t| t.worker).collect();
    tids.insert(0);
    let mut events = vec![metadata(
        "process_name",
        &format!("ptxforge {input}"),
        0,
        pid,
    )];
    for &tid in &tids {
        let label = if tid == 0 {
            "main".to_string()
        } else {
            format!("ptxforge-worker-{}", tid - 1)
        };
        events.push(metadata("thread_name", &label, tid, pid));
    }
    events.push(complete(
        "compile",
        named(input),
        0,
        us(Duration::ZERO, offset_ns),
        out.total_time,
        pid,
    ));
    for t in &out.module_spans {
        let args = Json::obj([
            ("channel_wait_us", us(t.queue_wait, 0)),
            ("name", Json::str(input)),
        ]);
        events.push(complete(
            t.stage,
            args,
            t.worker,
            us(t.start, offset_ns),
            t.duration,
            pid,
        ));
    }
    for k in &out.kernels {
        for t in &k.timings {
            let args = Json::obj([
                ("channel_wait_us", us(t.queue_wait, 0)),
                ("name", Json::str(&k.name)),
            ]);
            events.push(complete(
                t.stage,
                args,
                t.worker,
                us(t.start, offset_ns),
                t.duration,
                pid,
            ));
        }
    }
    events
}

/// Writes through a temporary file in the same folder and a rename.
fn write_atomically(path: &str, bytes: &[u8]) -> std::io::Result<()> {
    let target = std::path::Path::new(path);
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let name = target
        .file_name()
        .map_or_else(|| "trace".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.ptxforge-{}.tmp", std::process::id()));
    let written = std::fs::write(&tmp, bytes).and_then(|_| std::fs::rename(&tmp, target));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(text: &str) -> Vec<Json> {
        let mut doc = Json::parse(text).unwrap();
        trace_events(&mut doc).unwrap().clone()
    }

    #[test]
    fn pid_moves_past_the_files_pids_only_when_taken() {
        let e = events(r#"{"traceEvents":[{"pid":7},{"pid":3},{"name":"x"}]}"#);
        assert_eq!(free_pid(&e, 5), 5);
        assert_eq!(free_pid(&e, 3), 8);
        assert_eq!(free_pid(&[], 3), 3);
    }

    #[test]
    fn microseconds_are_exact_to_the_nanosecond() {
        assert_eq!(
            us(Duration::from_nanos(1_234_567), 0),
            Json::Num("1234.567".into())
        );
        assert_eq!(
            us(Duration::from_nanos(5), 150_500),
            Json::Num("150.505".into())
        );
        assert_eq!(us(Duration::ZERO, -1_500), Json::Num("-1.500".into()));
    }

    #[test]
    fn phase_after_starts_where_the_named_event_ends() {
        let e = events(
            r#"{"traceEvents":[{"name":"A","ts":5,"dur":1},{"name":"LibNVVM","ts":100,"dur":50.5}]}"#,
        );
        assert_eq!(phase_end_us(&e, "LibNVVM"), Some(150.5));
        assert_eq!(phase_end_us(&e, "Nope"), None);
    }

    #[test]
    fn ptxas_messages_for_files_that_hold_no_trace() {
        let mut no_key = Json::parse(r#"{"foo":1}"#).unwrap();
        assert_eq!(
            trace_events(&mut no_key).unwrap_err(),
            "Parsed trace file not in expected format : expected key 'traceEvents'"
        );
        let mut not_array = Json::parse(r#"{"traceEvents":{}}"#).unwrap();
        assert_eq!(
            trace_events(&mut not_array).unwrap_err(),
            "Parsed trace file not in expected format : expected key 'traceEvents' to be a JSON Array"
        );
        let mut array = Json::parse("[1]").unwrap();
        assert!(trace_events(&mut array).is_err());
    }

    #[test]
    fn warnings_name_the_missing_trace_option() {
        let o = TraceOptions {
            file: None,
            pid: Some(3),
            phase_after: Some("X".into()),
        };
        assert_eq!(o.warnings().len(), 2);
        assert!(TraceOptions {
            file: Some("t.json".into()),
            ..o
        }
        .warnings()
        .is_empty());
    }
}
