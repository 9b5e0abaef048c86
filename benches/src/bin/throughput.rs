//! The throughput benchmark: compiles a set of modules with ptxforge and with ptxas, alternating,
//! repeated, at `--split-compile 1` and at all CPUs, and prints per module and in total the
//! wall-time, CPU-time and peak-RSS ratios, kernels/s and PTX MB/s, ptxforge's one-to-all-threads
//! speed-up, and where ptxforge's time goes (from `--compiler-stats-json`). Markdown on stdout
//! (and into a file with `--markdown`), JSON with `--json`.
//!
//! Usage: `cargo build --release && cargo run --release -p ptxforge-benches --bin throughput --
//! [--reps N] [--full] [--load N] [--markdown BENCHMARKS.md] [--json FILE] [MODULE.ptx[:sm_XX] ...]`.
//! `--load N` adds a load report: the set, `--reps` times over, as one batch of jobs on a pool of
//! N processes (as `make -jN` runs them), each compiler in turn: sustained kernels/s and the p50
//! and p99 time per module.
//! Without modules: the corpus's two CCCL modules and synthetic ones (300 kernels, about 5 MB; a
//! 100,000-line kernel; with `--full` also 3,000 kernels, about 50 MB, and a 200 MB module).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use ptxforge_benches::measure::{measure, median, Run};
use ptxforge_benches::{bench_arch, synth};
use ptxforge_sass::nvtools;

/// One module to compile, and the architecture to compile it for.
struct Module {
    name: String,
    path: PathBuf,
    arch: String,
    bytes: u64,
    kernels: usize,
}

struct Config {
    reps: usize,
    full: bool,
    markdown: Option<PathBuf>,
    json: Option<PathBuf>,
    /// `--load N`: also run the whole set as one batch on a pool of N processes.
    load: Option<usize>,
    modules: Vec<(PathBuf, Option<String>)>,
}

fn parse_args() -> Config {
    let mut cfg = Config {
        reps: 3,
        full: false,
        markdown: None,
        json: None,
        load: None,
        modules: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => cfg.reps = args.next().and_then(|n| n.parse().ok()).unwrap_or(3),
            "--full" => cfg.full = true,
            "--markdown" => cfg.markdown = args.next().map(PathBuf::from),
            "--json" => cfg.json = args.next().map(PathBuf::from),
            "--load" => cfg.load = args.next().and_then(|n| n.parse().ok()),
            _ => {
                let (path, arch) = match a.rsplit_once(":sm_") {
                    Some((p, n)) => (p.to_string(), Some(format!("sm_{n}"))),
                    None => (a.clone(), None),
                };
                cfg.modules.push((PathBuf::from(path), arch));
            }
        }
    }
    cfg.reps = cfg.reps.max(1);
    cfg
}

fn module_from(path: PathBuf, arch: Option<String>) -> Module {
    let src = std::fs::read_to_string(&path).unwrap_or_default();
    Module {
        name: path.file_name().unwrap().to_string_lossy().into_owned(),
        arch: arch.unwrap_or_else(|| bench_arch(&src)),
        bytes: src.len() as u64,
        kernels: src.matches(".entry").count(),
        path,
    }
}

/// The default set: the corpus's CCCL modules, then the synthetic ones written to a temp folder.
fn default_modules(full: bool) -> Vec<Module> {
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/cccl");
    let mut modules: Vec<Module> = [
        "cub_device_algorithms.sm_90.ptx",
        "thrust_algorithms.sm_80.ptx",
    ]
    .iter()
    .map(|f| corpus.join(f))
    .filter(|p| p.is_file())
    .map(|p| module_from(p, None))
    .collect();
    if modules.is_empty() {
        println!(
            "note: no corpus at {} (synthetic modules only)",
            corpus.display()
        );
    }
    let dir = std::env::temp_dir().join("ptxforge-throughput");
    std::fs::create_dir_all(&dir).expect("temp folder");
    let mut synthetic = vec![
        ("synth_300_kernels.ptx", synth::many_kernels(300, 220)),
        ("synth_100k_line_kernel.ptx", synth::huge_kernel(100_000)),
    ];
    if full {
        synthetic.push(("synth_3000_kernels.ptx", synth::many_kernels(3000, 220)));
        synthetic.push(("synth_200mb.ptx", synth::module_of_mb(200)));
    }
    for (name, text) in synthetic {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write synthetic module");
        modules.push(module_from(path, None));
    }
    modules
}

/// Medians of one compiler's runs on one module at one thread count.
#[derive(Clone, Copy)]
struct Summary {
    wall: Duration,
    cpu: Duration,
    peak_rss_kb: u64,
    ok: bool,
}

fn summarise(runs: &[Run]) -> Summary {
    Summary {
        wall: median(&runs.iter().map(|r| r.wall).collect::<Vec<_>>()),
        cpu: median(&runs.iter().map(|r| r.cpu).collect::<Vec<_>>()),
        peak_rss_kb: median(&runs.iter().map(|r| r.peak_rss_kb).collect::<Vec<_>>()),
        ok: runs.iter().all(|r| r.success),
    }
}

/// One module at one thread count: ptxforge's and ptxas's medians.
struct Row {
    module: usize,
    threads: usize,
    ours: Summary,
    theirs: Summary,
}

fn compile_args(m: &Module, threads: usize, out: &Path) -> Vec<String> {
    vec![
        format!("-arch={}", m.arch),
        "--split-compile".into(),
        threads.to_string(),
        m.path.display().to_string(),
        "-o".into(),
        out.display().to_string(),
    ]
}

/// Runs both compilers `reps` times each, alternating, on one module at one thread count.
fn bench(ours: &Path, ptxas: &Path, m: &Module, threads: usize, reps: usize) -> (Summary, Summary) {
    let out =
        std::env::temp_dir().join(format!("ptxforge-throughput-{}.cubin", std::process::id()));
    let args = compile_args(m, threads, &out);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        a.push(measure(ours, &args).expect("run ptxforge"));
        b.push(measure(ptxas, &args).expect("run ptxas"));
    }
    let _ = std::fs::remove_file(&out);
    (summarise(&a), summarise(&b))
}

/// ptxforge's per-stage total milliseconds at `threads`, from one `--compiler-stats-json` run.
fn stage_breakdown(ours: &Path, m: &Module, threads: usize) -> Vec<(String, f64)> {
    let dir = std::env::temp_dir();
    let json = dir.join(format!("ptxforge-throughput-{}.json", std::process::id()));
    let mut args = compile_args(m, threads, &dir.join("ptxforge-throughput-stats.cubin"));
    args.push("--compiler-stats-json".into());
    args.push(json.display().to_string());
    if !measure(ours, &args).is_ok_and(|r| r.success) {
        return Vec::new();
    }
    let text = std::fs::read_to_string(&json).unwrap_or_default();
    let _ = std::fs::remove_file(&json);
    stage_totals(&text)
}

/// `("parse", ms)`, then each `{"stage":"NAME",... "total":MS` of the stats JSON, then `("elf", ms)`.
fn stage_totals(json: &str) -> Vec<(String, f64)> {
    let number_after = |text: &str, key: &str| -> Option<f64> {
        let at = text.find(key)? + key.len();
        let rest = &text[at..];
        let end = rest.find([',', '}']).unwrap_or(rest.len());
        rest[..end].trim().parse().ok()
    };
    let mut out = Vec::new();
    if let Some(ms) = number_after(json, "\"Parse-time\":") {
        out.push(("parse".to_string(), ms));
    }
    for piece in json.split("{\"stage\":\"").skip(1) {
        let name = piece.split('"').next().unwrap_or("").to_string();
        if let Some(ms) = number_after(piece, "\"total\":") {
            out.push((name, ms));
        }
    }
    if let Some(ms) = number_after(json, "\"ELF-time\":") {
        out.push(("elf".to_string(), ms));
    }
    out
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn ratio(theirs: f64, ours: f64) -> String {
    if ours > 0.0 {
        format!("{:.1}x", theirs / ours)
    } else {
        "-".into()
    }
}

fn markdown(
    modules: &[Module],
    rows: &[Row],
    stages: &[(usize, Vec<(String, f64)>)],
    cpus: usize,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "| module | MB | kernels | threads | ptxforge s | ptxas s | wall ptxas/ours | CPU ptxas/ours | RSS ours MB | RSS ptxas MB | RSS ptxas/ours | ours kernels/s | ours MB/s |");
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        let m = &modules[r.module];
        let mb = m.bytes as f64 / 1e6;
        let status = |ok: bool| if ok { "" } else { " (failed)" };
        let _ = writeln!(
            s,
            "| {} ({}) | {:.1} | {} | {} | {:.3}{} | {:.3}{} | {} | {} | {:.0} | {:.0} | {} | {:.0} | {:.1} |",
            m.name,
            m.arch,
            mb,
            m.kernels,
            if r.threads == 0 { format!("all ({cpus})") } else { r.threads.to_string() },
            secs(r.ours.wall),
            status(r.ours.ok),
            secs(r.theirs.wall),
            status(r.theirs.ok),
            ratio(secs(r.theirs.wall), secs(r.ours.wall)),
            ratio(secs(r.theirs.cpu), secs(r.ours.cpu)),
            r.ours.peak_rss_kb as f64 / 1024.0,
            r.theirs.peak_rss_kb as f64 / 1024.0,
            ratio(r.theirs.peak_rss_kb as f64, r.ours.peak_rss_kb as f64),
            m.kernels as f64 / secs(r.ours.wall),
            mb / secs(r.ours.wall),
        );
    }
    let _ = writeln!(
        s,
        "\n| module | ptxforge 1 thread / all threads | ptxas 1 thread / all threads |"
    );
    let _ = writeln!(s, "|---|---|---|");
    for (i, m) in modules.iter().enumerate() {
        let at = |t: usize| rows.iter().find(|r| r.module == i && r.threads == t);
        if let (Some(one), Some(all)) = (at(1), at(0)) {
            let _ = writeln!(
                s,
                "| {} | {} | {} |",
                m.name,
                ratio(secs(one.ours.wall), secs(all.ours.wall)),
                ratio(secs(one.theirs.wall), secs(all.theirs.wall))
            );
        }
    }
    let _ = writeln!(s, "\nWhere ptxforge's time goes (all threads; milliseconds summed over kernels, from `--compiler-stats-json`):\n");
    for (i, list) in stages {
        let parts: Vec<String> = list.iter().map(|(n, ms)| format!("{n} {ms:.0}")).collect();
        let _ = writeln!(s, "- {}: {}", modules[*i].name, parts.join(", "));
    }
    s
}

fn json(modules: &[Module], rows: &[Row]) -> String {
    let mut s = String::from("{\"rows\":[");
    for (n, r) in rows.iter().enumerate() {
        let m = &modules[r.module];
        let side = |x: &Summary| {
            format!(
                "{{\"wall_s\":{:.6},\"cpu_s\":{:.6},\"peak_rss_kb\":{},\"ok\":{}}}",
                secs(x.wall),
                secs(x.cpu),
                x.peak_rss_kb,
                x.ok
            )
        };
        let _ = write!(
            s,
            "{}{{\"module\":\"{}\",\"arch\":\"{}\",\"bytes\":{},\"kernels\":{},\"threads\":{},\"ptxforge\":{},\"ptxas\":{}}}",
            if n > 0 { "," } else { "" },
            m.name,
            m.arch,
            m.bytes,
            m.kernels,
            r.threads,
            side(&r.ours),
            side(&r.theirs)
        );
    }
    s.push_str("]}\n");
    s
}

/// The machine, date and commit the figures were taken on.
fn provenance(cpus: usize, reps: usize) -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines().find_map(|l| {
                l.strip_prefix("model name")
                    .map(|v| v.trim_start_matches([' ', '\t', ':']).to_string())
            })
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let run = |cmd: &str, args: &[&str]| {
        std::process::Command::new(cmd)
            .args(args)
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default()
    };
    format!(
        "Taken {} on {cpus} CPUs ({cpu}), commit {}; medians of {reps} runs of each compiler, alternating.\n",
        run("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
        run("git", &["rev-parse", "--short", "HEAD"]),
    )
}

fn main() {
    let cfg = parse_args();
    let Some(ptxas) = nvtools::tool("ptxas") else {
        println!("skipped: ptxas not found (run scripts/fetch-nvidia-tools.sh or set PTXFORGE_NV)");
        return;
    };
    let ours = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/ptxforge");
    if !ours.is_file() {
        println!("skipped: build target/release/ptxforge first (cargo build --release)");
        return;
    }
    let modules = if cfg.modules.is_empty() {
        default_modules(cfg.full)
    } else {
        cfg.modules
            .into_iter()
            .map(|(p, a)| module_from(p, a))
            .collect()
    };
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut rows = Vec::new();
    let mut stages = Vec::new();
    for (i, m) in modules.iter().enumerate() {
        for threads in [1, 0] {
            eprintln!(
                "{} at {} thread(s)...",
                m.name,
                if threads == 0 { cpus } else { 1 }
            );
            let (a, b) = bench(&ours, &ptxas, m, threads, cfg.reps);
            rows.push(Row {
                module: i,
                threads,
                ours: a,
                theirs: b,
            });
        }
        stages.push((i, stage_breakdown(&ours, m, 0)));
    }
    let mut table = markdown(&modules, &rows, &stages, cpus);
    if let Some(pool) = cfg.load {
        table.push_str(&load_report(&ours, &ptxas, &modules, pool, cfg.reps));
    }
    let text = format!("{}\n{table}", provenance(cpus, cfg.reps));
    print!("{text}");
    if let Some(path) = &cfg.markdown {
        let doc = std::fs::read_to_string(path).unwrap_or_default();
        std::fs::write(path, replace_results(&doc, &text)).expect("write markdown");
    }
    if let Some(path) = &cfg.json {
        std::fs::write(path, json(&modules, &rows)).expect("write json");
    }
}

/// Each compiler's run of the whole batch on `pool` processes: (wall, per-job walls).
fn run_batch(
    exe: &Path,
    modules: &[Module],
    pool: usize,
    reps: usize,
) -> (Duration, Vec<Duration>) {
    let jobs: Vec<&Module> = (0..reps).flat_map(|_| modules.iter()).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let times = std::sync::Mutex::new(Vec::new());
    let start = std::time::Instant::now();
    std::thread::scope(|s| {
        for slot in 0..pool {
            let (next, times, jobs) = (&next, &times, &jobs);
            s.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(m) = jobs.get(i) else { break };
                let out = std::env::temp_dir()
                    .join(format!("ptxforge-load-{}-{slot}.cubin", std::process::id()));
                let run = measure(exe, &compile_args(m, 1, &out)).expect("run compiler");
                let _ = std::fs::remove_file(&out);
                times.lock().unwrap().push(run.wall);
            });
        }
    });
    (start.elapsed(), times.into_inner().unwrap())
}

/// The load report: both compilers on the same batch and pool, one after the other.
fn load_report(ours: &Path, ptxas: &Path, modules: &[Module], pool: usize, reps: usize) -> String {
    let kernels: usize = modules.iter().map(|m| m.kernels).sum::<usize>() * reps;
    let mut s = format!(
        "\nLoad: {} jobs ({} modules x {reps}) on a pool of {pool} processes, each at `--split-compile 1`:\n\n\
         | compiler | batch s | kernels/s | p50 per module s | p99 per module s |\n|---|---|---|---|---|\n",
        modules.len() * reps,
        modules.len()
    );
    for (name, exe) in [("ptxforge", ours), ("ptxas", ptxas)] {
        eprintln!("load: {name} on {pool} processes...");
        let (wall, mut times) = run_batch(exe, modules, pool, reps);
        times.sort();
        let pick = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        let _ = writeln!(
            s,
            "| {name} | {:.2} | {:.0} | {:.3} | {:.3} |",
            secs(wall),
            kernels as f64 / secs(wall),
            secs(pick(0.5)),
            secs(pick(0.99))
        );
    }
    s
}

const BEGIN: &str = "<!-- throughput results: begin -->";
const END: &str = "<!-- throughput results: end -->";

/// `doc` with the text between the results markers replaced (appended when there are none).
fn replace_results(doc: &str, results: &str) -> String {
    let block = format!("{BEGIN}\n{results}{END}\n");
    match (doc.find(BEGIN), doc.find(END)) {
        (Some(b), Some(e)) if b < e => format!(
            "{}{block}{}",
            &doc[..b],
            &doc[e + END.len()..].trim_start_matches('\n')
        ),
        _ => format!("{doc}\n{block}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_totals_read_the_stats_json() {
        let json = r#"{"phases":{"Parse-time":12.5,"ELF-time":0.25},"stages":[{"stage":"lower","kernels":1,"latency_ms":{"p50":1,"total":3.5}},{"stage":"encode","latency_ms":{"total":2}}]}"#;
        let got = stage_totals(json);
        let names: Vec<_> = got.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["parse", "lower", "encode", "elf"]);
        assert_eq!(got[1].1, 3.5);
    }

    #[test]
    fn results_replace_between_markers() {
        let doc = format!("# B\nintro\n{BEGIN}\nold\n{END}\ntail\n");
        let new = replace_results(&doc, "new\n");
        assert!(
            new.contains("new") && !new.contains("old") && new.contains("tail"),
            "{new}"
        );
        assert!(replace_results("# B\n", "x\n").contains(BEGIN));
    }
}
