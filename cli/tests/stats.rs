//! `--compiler-stats` text (checked against ptxas's line shapes), `--compiler-stats-json` and
//! `--fdevice-time-trace` (parsed back), on the examples, the filetests and a 50-kernel module.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use regex::Regex;
use serde_json::Value;

mod common;

const STAGES: [&str; 5] = ["lower", "optimize", "regalloc", "schedule", "encode"];

fn ptxforge() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ptxforge"))
}

fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(rel)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxforge-stats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn run(args: &[&str], input: &Path, out: &Path) -> Output {
    let o = ptxforge()
        .args(args)
        .arg(input)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{args:?} {}: {}",
        input.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// A module of `n` entries (`k0`..), each a few instructions.
fn many_kernels(n: usize) -> PathBuf {
    let path = scratch(&format!("many{n}.ptx"));
    let mut s = String::from(".version 8.0\n.target sm_80\n.address_size 64\n");
    for i in 0..n {
        s += &format!(
            ".visible .entry k{i}(.param .u64 p)\n{{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\
             \tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\
             \tadd.s32 %r2, %r1, {i};\n\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd2, %rd2, %rd3;\n\
             \tst.global.u32 [%rd2], %r2;\n\tret;\n}}\n"
        );
    }
    std::fs::write(&path, s).unwrap();
    path
}

/// The shapes a `--compiler-stats` line may take; ptxas's lines and ours must all fit one.
fn line_shapes() -> Vec<(&'static str, Regex)> {
    let num = "[0-9]+(\\.[0-9]+)?";
    [
        (
            "header",
            format!(
                "^ptxas info    : STAT: ([A-Za-z]+ = {num}( ms| KB| kernels)?( \\({num}%\\))?)?$"
            ),
        ),
        (
            "phase",
            format!("^[A-Za-z][A-Za-z0-9-]* *: {num}( ms| KB)?( \\({num}%\\))?$"),
        ),
        (
            "unit",
            "^Compile-unit with entry [A-Za-z_$][A-Za-z0-9_$]*$".to_string(),
        ),
        (
            "unit total",
            format!(
                "^\\t(Total Compile-Unit time|Peak Compile-Unit memory usage) += {num} (ms|KB)$"
            ),
        ),
        ("unit phase", format!("^\\t\\t[A-Za-z-]+ +: {num} (ms|KB)$")),
    ]
    .into_iter()
    .map(|(n, re)| (n, Regex::new(&re).unwrap()))
    .collect()
}

fn unmatched<'a>(text: &'a str, shapes: &[(&str, Regex)]) -> Vec<&'a str> {
    text.lines()
        .filter(|l| !l.is_empty() && !shapes.iter().any(|(_, re)| re.is_match(l)))
        .collect()
}

/// `name : 1.234 ms` lines of a report, in ms.
fn figures(text: &str) -> BTreeMap<String, f64> {
    let re = Regex::new("^([A-Za-z0-9-]+) *: ([0-9]+\\.[0-9]+) ms").unwrap();
    text.lines()
        .filter_map(|l| re.captures(l))
        .map(|c| (c[1].to_string(), c[2].parse().unwrap()))
        .collect()
}

#[test]
fn stats_text_keeps_ptxas_shapes_and_adds_ours_in_the_same_shapes() {
    let shapes = line_shapes();
    let ptxas_sample = format!(
        "{}{}",
        common::PTXAS_STATS_DETAILED,
        common::PTXAS_STATS_TIME
    );
    assert_eq!(
        unmatched(&ptxas_sample, &shapes),
        Vec::<&str>::new(),
        "the shapes must fit ptxas's own lines"
    );
    let inputs = [
        repo("examples/vadd.ptx"),
        repo("pipeline/driver/tests/filetests/multi.ptx"),
        many_kernels(50),
    ];
    for input in &inputs {
        let o = run(
            &[
                "-arch=sm_80",
                "--split-compile",
                "2",
                "--compiler-stats=t,m,p,d",
            ],
            input,
            &scratch("text.cubin"),
        );
        let text = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            unmatched(&text, &shapes),
            Vec::<&str>::new(),
            "{}:\n{text}",
            input.display()
        );
        for (name, re) in &shapes {
            assert!(
                text.lines().any(|l| re.is_match(l)),
                "no `{name}` line in\n{text}"
            );
        }
        let f = figures(&text);
        for stage in STAGES {
            let get = |what: &str| {
                *f.get(&format!("{stage}-{what}"))
                    .unwrap_or_else(|| panic!("no {stage}-{what} in\n{text}"))
            };
            assert!(
                get("p50") <= get("p90") && get("p90") <= get("p99") && get("p99") <= get("max"),
                "{stage}:\n{text}"
            );
            assert!(
                get("wait-p99") <= get("wait-max") && get("wait-max") <= get("wait"),
                "{stage}:\n{text}"
            );
        }
        assert!(
            f.contains_key("worker-1-busy") && f.contains_key("worker-2-busy"),
            "{text}"
        );
        assert!(text.contains("\nSteals                : "), "{text}");
    }
    let plain = run(
        &["-arch=sm_80", "--compiler-stats=time"],
        &inputs[1],
        &scratch("text.cubin"),
    );
    assert_eq!(
        String::from_utf8_lossy(&plain.stderr).lines().count(),
        1,
        "`time` alone stays ptxas's one line"
    );
}

fn ms(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("no number `{key}` in {v}"))
}

#[test]
fn stats_json_has_every_kernel_and_stage_and_consistent_times() {
    let json = scratch("stats.json");
    let input = many_kernels(50);
    for section in ["1", "40"] {
        let o = ptxforge()
            .args([
                "-arch=sm_80",
                "--split-compile",
                "2",
                "--threads-min-section-size",
                section,
                "--compiler-stats-json",
            ])
            .arg(&json)
            .arg(&input)
            .arg("-o")
            .arg(scratch("j.cubin"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let kernels = doc["kernels"].as_array().unwrap();
        assert_eq!(kernels.len(), 50);
        for (i, k) in kernels.iter().enumerate() {
            assert_eq!(k["name"], format!("k{i}"));
            let spans = k["stages"].as_array().unwrap();
            let names: Vec<&str> = spans.iter().map(|s| s["stage"].as_str().unwrap()).collect();
            assert_eq!(names, STAGES, "{k}");
            let first = spans
                .iter()
                .map(|s| ms(s, "start_ms"))
                .fold(f64::MAX, f64::min);
            let last = spans
                .iter()
                .map(|s| ms(s, "start_ms") + ms(s, "duration_ms"))
                .fold(0.0, f64::max);
            let sum: f64 = spans.iter().map(|s| ms(s, "duration_ms")).sum();
            assert!(spans.iter().all(|s| ms(s, "duration_ms") >= 0.0
                && ms(s, "channel_wait_ms") >= 0.0
                && ms(s, "start_ms") >= 0.0));
            assert!((ms(k, "wall_ms") - (last - first)).abs() < 1e-5, "{k}");
            assert!(
                sum <= ms(k, "wall_ms") + 1e-5,
                "stage times {sum} exceed the wall time: {k}"
            );
            assert!(last <= ms(&doc, "compile_time_ms") + 1e-5);
        }
        assert_no_overlap_per_worker(kernels);
        let stages = doc["stages"].as_array().unwrap();
        assert_eq!(
            stages
                .iter()
                .map(|s| s["stage"].as_str().unwrap())
                .collect::<Vec<_>>(),
            STAGES
        );
        for s in stages {
            assert_eq!(s["kernels"], 50);
            let l = &s["latency_ms"];
            assert!(
                ms(l, "p50") <= ms(l, "p90")
                    && ms(l, "p90") <= ms(l, "p99")
                    && ms(l, "p99") <= ms(l, "max"),
                "{s}"
            );
        }
        let workers = doc["workers"].as_array().unwrap();
        assert_eq!(workers.len(), 3, "the calling thread and two workers");
        for w in workers {
            let u = w["utilization"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&u), "{w}");
        }
        let sections = doc["runtime"]["sections"].as_u64().unwrap();
        assert!(
            if section == "1" {
                sections == 50
            } else {
                (2..50).contains(&sections)
            },
            "{sections} sections"
        );
        assert!(doc["jobserver"].is_null());
        for phase in ["Parse-time", "DAGgen-time", "OCG-time", "ELF-time"] {
            assert!(ms(&doc["phases"], phase) >= 0.0);
        }
    }
}

/// A worker runs one stage of one kernel at a time, so its spans never overlap.
fn assert_no_overlap_per_worker(kernels: &[Value]) {
    let mut per_worker: BTreeMap<u64, Vec<(f64, f64)>> = BTreeMap::new();
    for s in kernels.iter().flat_map(|k| k["stages"].as_array().unwrap()) {
        let start = ms(s, "start_ms");
        per_worker
            .entry(s["worker"].as_u64().unwrap())
            .or_default()
            .push((start, start + ms(s, "duration_ms")));
    }
    for (w, mut spans) in per_worker {
        spans.sort_by(|a, b| a.0.total_cmp(&b.0));
        for pair in spans.windows(2) {
            assert!(
                pair[0].1 <= pair[1].0 + 2e-6,
                "worker {w}: {:?} overlaps {:?}",
                pair[0],
                pair[1]
            );
        }
    }
}

fn read_trace(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Our complete events by (kernel, stage), after checking their fields.
fn stage_events(events: &[Value], pid: i64) -> BTreeMap<(String, String), Value> {
    let threads: Vec<i64> = events
        .iter()
        .filter(|e| e["ph"] == "M" && e["name"] == "thread_name" && e["pid"] == pid)
        .map(|e| e["tid"].as_i64().unwrap())
        .collect();
    let mut out = BTreeMap::new();
    for e in events.iter().filter(|e| {
        e["ph"] == "X" && e["pid"] == pid && STAGES.contains(&e["name"].as_str().unwrap())
    }) {
        assert!(
            e["dur"].as_f64().unwrap() >= 0.0 && e["ts"].as_f64().unwrap() >= 0.0,
            "{e}"
        );
        assert!(
            threads.contains(&e["tid"].as_i64().unwrap()),
            "no thread_name for {e}"
        );
        let key = (
            e["args"]["name"].as_str().unwrap().to_string(),
            e["name"].as_str().unwrap().to_string(),
        );
        assert!(
            out.insert(key, e.clone()).is_none(),
            "two events for one kernel and stage: {e}"
        );
    }
    out
}

#[test]
fn trace_has_a_span_per_kernel_per_stage_on_worker_threads() {
    let trace = scratch("new_trace.json");
    let _ = std::fs::remove_file(&trace);
    let input = many_kernels(50);
    let o = ptxforge()
        .args([
            "-arch=sm_80",
            "--split-compile",
            "2",
            "--fdevice-time-trace",
        ])
        .arg(&trace)
        .arg(&input)
        .arg("-o")
        .arg(scratch("t.cubin"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let doc = read_trace(&trace);
    let events = doc["traceEvents"].as_array().unwrap();
    let pid = events[0]["pid"].as_i64().unwrap();
    let spans = stage_events(events, pid);
    assert_eq!(spans.len(), 50 * STAGES.len());
    let mut tids = std::collections::BTreeSet::new();
    for i in 0..50 {
        for stage in STAGES {
            tids.insert(
                spans[&(format!("k{i}"), stage.to_string())]["tid"]
                    .as_i64()
                    .unwrap(),
            );
        }
    }
    // The two workers and the calling thread (0, which runs stages inline while a mailbox is
    // full); which of them ran what depends on timing.
    assert!(tids.iter().all(|t| (0..=2).contains(t)), "{tids:?}");
    for module_stage in ["compile", "parse", "validate", "elf"] {
        assert!(
            events
                .iter()
                .any(|e| e["name"] == module_stage && e["ph"] == "X"),
            "no {module_stage} event"
        );
    }
    assert_properly_nested(events);
}

/// The `tid`s of our module-level events (`parse` per section, `validate`, `elf`) with `--split-compile N`.
fn module_event_threads(split: &str) -> BTreeMap<String, Vec<i64>> {
    let trace = scratch(&format!("module_trace{split}.json"));
    let _ = std::fs::remove_file(&trace);
    let input = many_kernels(12);
    let args = [
        "-arch=sm_80",
        "--split-compile",
        split,
        "--fdevice-time-trace",
        trace.to_str().unwrap(),
    ];
    run(&args, &input, &scratch(&format!("module{split}.cubin")));
    let doc = read_trace(&trace);
    let events = doc["traceEvents"].as_array().unwrap();
    let threads: Vec<i64> = events
        .iter()
        .filter(|e| e["ph"] == "M" && e["name"] == "thread_name")
        .map(|e| e["tid"].as_i64().unwrap())
        .collect();
    let mut out: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for e in events.iter().filter(|e| {
        e["ph"] == "X" && ["parse", "validate", "elf"].contains(&e["name"].as_str().unwrap())
    }) {
        let tid = e["tid"].as_i64().unwrap();
        assert!(threads.contains(&tid), "no thread_name for {e}");
        assert_eq!(e["args"]["name"].as_str(), input.to_str(), "{e}");
        out.entry(e["name"].as_str().unwrap().to_string())
            .or_default()
            .push(tid);
    }
    assert_properly_nested(events);
    out
}

#[test]
fn trace_puts_parse_validate_and_elf_on_the_thread_that_ran_them() {
    // One worker: the calling thread runs everything.
    let threads = module_event_threads("1");
    assert_eq!(
        threads.keys().collect::<Vec<_>>(),
        ["elf", "parse", "validate"]
    );
    assert!(threads.values().flatten().all(|&t| t == 0), "{threads:?}");
    // Two workers: the single ELF message finds room in its mailbox, so a worker takes it (the
    // caller only helps a full mailbox, as it may for the parse sections and the validation
    // chunks: the functions are checked in chunks, then one message puts the findings in order).
    let threads = module_event_threads("2");
    assert_eq!(threads["elf"].len(), 1);
    assert!(
        (1..=2).contains(&threads["elf"][0]),
        "elf on thread {:?}",
        threads["elf"]
    );
    assert!(threads["validate"].len() >= 2, "{threads:?}");
    for stage in ["parse", "validate"] {
        assert!(
            threads[stage].iter().all(|t| (0..=2).contains(t)),
            "{threads:?}"
        );
    }
}

/// Complete events on one thread either nest or follow each other (trace viewers drop the rest).
fn assert_properly_nested(events: &[Value]) {
    let ns = |v: &Value| (v.as_f64().unwrap() * 1e3).round() as i64;
    let mut per_thread: BTreeMap<(i64, i64), Vec<(i64, i64)>> = BTreeMap::new();
    for e in events.iter().filter(|e| e["ph"] == "X") {
        let start = ns(&e["ts"]);
        per_thread
            .entry((e["pid"].as_i64().unwrap(), e["tid"].as_i64().unwrap()))
            .or_default()
            .push((start, start + ns(&e["dur"])));
    }
    for (thread, mut spans) in per_thread {
        spans.sort_by_key(|&(start, end)| (start, -end));
        let mut open: Vec<(i64, i64)> = Vec::new();
        for (start, end) in spans {
            while open.last().is_some_and(|o| o.1 <= start) {
                open.pop();
            }
            if let Some(outer) = open.last() {
                assert!(
                    end <= outer.1,
                    "thread {thread:?}: {:?} overlaps {outer:?}",
                    (start, end)
                );
            }
            open.push((start, end));
        }
    }
}

#[test]
fn trace_merges_into_an_existing_file_keeping_its_events() {
    let trace = scratch("merge_trace.json");
    let theirs = r#"{"traceEvents":[{"name":"LibNVVM","ph":"X","ts":100,"dur":50,"pid":1,"tid":1}],"otherData":{"keep":[1.50,"x"]}}"#;
    std::fs::write(&trace, theirs).unwrap();
    let input = repo("pipeline/driver/tests/filetests/multi.ptx");
    for pid in ["7", "8"] {
        let o = ptxforge()
            .args([
                "-arch=sm_80",
                "--split-compile",
                "2",
                "--fdevice-time-trace",
            ])
            .arg(&trace)
            .args(["--use-trace-pid", pid, "--ftrace-phase-after=LibNVVM"])
            .arg(&input)
            .arg("-o")
            .arg(scratch("m.cubin"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let doc = read_trace(&trace);
    let old: Value = serde_json::from_str(theirs).unwrap();
    let events = doc["traceEvents"].as_array().unwrap();
    assert_eq!(events[0], old["traceEvents"][0]);
    assert_eq!(doc["otherData"], old["otherData"]);
    assert!(
        std::fs::read_to_string(&trace)
            .unwrap()
            .contains("\"keep\":[1.50,\"x\"]"),
        "numbers keep their text"
    );
    for pid in [7, 8] {
        let spans = stage_events(events, pid);
        assert_eq!(spans.len(), 3 * STAGES.len(), "pid {pid}");
        assert!(
            spans.values().all(|e| e["ts"].as_f64().unwrap() >= 150.0),
            "events start after LibNVVM"
        );
    }
}

#[test]
fn trace_file_that_holds_no_trace_is_a_ptxas_fatal_after_the_cubin() {
    let input = repo("examples/vadd.ptx");
    let cases = [
        ("{\"foo\":1}", "ptxas fatal   : Parsed trace file not in expected format : expected key 'traceEvents'"),
        (
            "{\"traceEvents\":{}}",
            "ptxas fatal   : Parsed trace file not in expected format : expected key 'traceEvents' to be a JSON Array",
        ),
        ("", "ptxas fatal   : Parsed trace file not in expected format : Error reading input trace file to buffer"),
    ];
    for (i, (content, message)) in cases.iter().enumerate() {
        let trace = scratch(&format!("bad_trace{i}.json"));
        std::fs::write(&trace, content).unwrap();
        let cubin = scratch(&format!("bad_trace{i}.cubin"));
        let _ = std::fs::remove_file(&cubin);
        let o = ptxforge()
            .arg("-arch=sm_80")
            .arg("--fdevice-time-trace")
            .arg(&trace)
            .arg(&input)
            .arg("-o")
            .arg(&cubin)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(255));
        assert_eq!(String::from_utf8_lossy(&o.stderr).trim_end(), *message);
        assert!(cubin.exists(), "the cubin is written before the trace");
        assert_eq!(
            std::fs::read_to_string(&trace).unwrap(),
            *content,
            "the file is left as it was"
        );
    }
    let o = ptxforge()
        .args(["-arch=sm_80", "--use-trace-pid", "3"])
        .arg(&input)
        .arg("-o")
        .arg(scratch("w.cubin"))
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains(
        "ptxas warning : Option '--use-trace-pid' requires option '--fdevice-time-trace'"
    ));
}
