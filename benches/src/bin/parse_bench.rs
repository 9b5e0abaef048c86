//! Benchmark: PTX front-end throughput (lexing, parsing, validation) in MB/s per phase and in
//! total, on one thread and with sections parsed in parallel on the runtime, with
//! `ptxas -arch=compute_XX` (parse and check only, no code) on the same file as a ratio.
//!
//! Usage: `cargo run --release -p ptxforge-benches --bin parse_bench -- [-n REPS] [--threads N]
//! [--min-section N] [--generate-mb MB] [--no-ptxas] [--cpu-time] [FILE.ptx ...]`. With no files it reads every
//! module of `../shared/corpus`; it always adds a generated module of `--generate-mb` MB (default
//! 100; 0 = none) made of renamed copies of an nvcc-written kernel. Times are the best of REPS.

use std::alloc::{GlobalAlloc, Layout};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering::Relaxed};

use ptxforge_benches::corpus_files;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ptxforge_pipeline::actors::parse_in_sections;
use ptxforge_ptx::{lexer, parse_syntax, validate};
use ptxforge_runtime::{Executor, ExecutorConfig};

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// mimalloc, counting live heap bytes and their peak while [`HEAP_COUNTING`] is on.
struct CountingAlloc;

static HEAP_COUNTING: AtomicBool = AtomicBool::new(false);
static HEAP_LIVE: AtomicIsize = AtomicIsize::new(0);
static HEAP_PEAK: AtomicIsize = AtomicIsize::new(0);

fn count_heap(delta: isize) {
    if HEAP_COUNTING.load(Relaxed) {
        let live = HEAP_LIVE.fetch_add(delta, Relaxed) + delta;
        HEAP_PEAK.fetch_max(live, Relaxed);
    }
}

// SAFETY: every call is passed straight to mimalloc; the counting touches only atomics.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_heap(layout.size() as isize);
        mimalloc::MiMalloc.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count_heap(-(layout.size() as isize));
        mimalloc::MiMalloc.dealloc(ptr, layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_heap(layout.size() as isize);
        mimalloc::MiMalloc.alloc_zeroed(layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_heap(new_size as isize - layout.size() as isize);
        mimalloc::MiMalloc.realloc(ptr, layout, new_size)
    }
}

/// The most heap `f` had live at once beyond what was live before it (requested bytes, not
/// the allocator's pages), with its result alive until `f` returns.
fn heap_peak<T>(f: impl FnOnce() -> T) -> usize {
    HEAP_LIVE.store(0, Relaxed);
    HEAP_PEAK.store(0, Relaxed);
    HEAP_COUNTING.store(true, Relaxed);
    let r = f();
    HEAP_COUNTING.store(false, Relaxed);
    drop(r);
    HEAP_PEAK.load(Relaxed).max(0) as usize
}

/// The kernel the generated module repeats (nvcc output: loads, shared memory, barriers, branches).
const TEMPLATE: &str = include_str!("../../../pipeline/driver/tests/filetests/block_reduce.ptx");
/// ptxas gets this long on the generated module before it is stopped.
const PTXAS_LIMIT: Duration = Duration::from_secs(60);

const USAGE: &str = "usage: parse_bench [-n REPS] [--threads N] [--min-section N] [--generate-mb MB] [--no-ptxas] [--cpu-time] [FILE.ptx ...]
  -n REPS            best of REPS runs per phase (default 3)
  --threads N        workers for the sections run (default: all cores)
  --min-section N    smallest section, in statements, for the sections run (default 1)
  --generate-mb MB   also time a generated module of MB MB (default 100; 0 = none)
  --no-ptxas         leave out the ptxas -arch=compute_XX comparison
  --cpu-time         report CPU time instead of wall time
  FILE.ptx ...       modules to time (default: every module of ../shared/corpus)";

struct Config {
    reps: usize,
    threads: usize,
    min_section: usize,
    generate_mb: usize,
    ptxas: bool,
    files: Vec<PathBuf>,
}

fn parse_args() -> Config {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut cfg = Config {
        reps: 3,
        threads,
        min_section: 1,
        generate_mb: 100,
        ptxas: true,
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut num = |d: usize| args.next().and_then(|n| n.parse().ok()).unwrap_or(d);
        match a.as_str() {
            "-n" => cfg.reps = num(3).max(1),
            "--threads" => cfg.threads = num(threads).max(1),
            "--min-section" => cfg.min_section = num(1),
            "--generate-mb" => cfg.generate_mb = num(100),
            "--no-ptxas" => cfg.ptxas = false,
            "--cpu-time" => CPU_TIME.store(true, std::sync::atomic::Ordering::Relaxed),
            "-h" | "--help" => {
                println!("{}", USAGE);
                std::process::exit(0);
            }
            _ => cfg.files.push(PathBuf::from(a)),
        }
    }
    if cfg.files.is_empty() {
        cfg.files =
            corpus_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    }
    cfg
}

/// A module of about `mb` MB: the template's header once, then its kernel renamed `_0`, `_1`, ...
fn generate_module(mb: usize) -> String {
    let body_at = TEMPLATE
        .find(".visible .entry")
        .expect("template has an entry");
    let (header, body) = TEMPLATE.split_at(body_at);
    let mut src = String::with_capacity(mb * 1_000_000 + body.len() * 2);
    src.push_str(header);
    let mut i = 0;
    while src.len() < mb * 1_000_000 {
        src.push_str(&body.replace("block_reduce", &format!("block_reduce_{i}")));
        i += 1;
    }
    src
}

/// `struct timespec` of 64-bit Linux.
#[repr(C)]
struct Timespec {
    secs: i64,
    nanos: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, out: *mut Timespec) -> i32;
}

/// Linux's `CLOCK_THREAD_CPUTIME_ID`: the calling thread's CPU time, to the nanosecond
/// (`/proc/thread-self/schedstat` only moves at scheduler ticks, too coarse for small modules).
const CLOCK_THREAD_CPUTIME_ID: i32 = 3;

/// CPU time of the calling thread, when the system tells.
fn thread_cpu() -> Option<Duration> {
    let mut t = Timespec { secs: 0, nanos: 0 };
    // SAFETY: `t` is a valid, writable timespec; the call only writes it.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (rc == 0 && cfg!(target_os = "linux")).then(|| Duration::new(t.secs as u64, t.nanos as u32))
}

/// The best of `reps` timings of `f` (its result is dropped outside the timing). On a shared
/// machine the calling thread's CPU time is steadier than wall time, so single-thread phases
/// use it when `--cpu-time` is given.
fn best<T>(reps: usize, mut f: impl FnMut() -> T) -> Duration {
    let cpu = CPU_TIME.load(std::sync::atomic::Ordering::Relaxed);
    (0..reps)
        .map(|_| {
            let (t, c) = (Instant::now(), thread_cpu());
            let r = f();
            let d = match (cpu, c, thread_cpu()) {
                (true, Some(a), Some(b)) => b.saturating_sub(a),
                _ => t.elapsed(),
            };
            drop(r);
            d
        })
        .min()
        .unwrap_or_default()
}

/// `--cpu-time`: time single-thread phases by the thread's CPU time instead of wall time.
static CPU_TIME: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Per-phase times of the front end on one module.
struct Phases {
    lex: Duration,
    /// Lexing and parsing as the parser does them (it pulls tokens, and reads common
    /// instructions straight from the bytes, so the lexer's time is not a part of it).
    syntax: Duration,
    validate: Duration,
    parallel: Duration,
    /// Peak heap of one serial parse and validation (bytes).
    heap: usize,
    ok: bool,
}

fn measure(src: &str, name: &str, cfg: &Config, exec: &Executor) -> Phases {
    let lex = best(cfg.reps, || lexer::TokenStream::new(src, 0).count());
    let syntax = best(cfg.reps, || parse_syntax(src, name));
    let (module, diags) = parse_syntax(src, name);
    let ok = diags.is_empty();
    let validate = best(cfg.reps, || {
        validate::validate_module(src, &module, name, diags.clone())
    });
    drop(module);
    let heap = heap_peak(|| {
        let (module, diags) = parse_syntax(src, name);
        let checked = validate::validate_module(src, &module, name, diags);
        (module, checked)
    });
    let cpu = CPU_TIME.swap(false, std::sync::atomic::Ordering::Relaxed);
    let parallel = best(cfg.reps, || {
        parse_in_sections(exec, src, name, cfg.min_section)
    });
    CPU_TIME.store(cpu, std::sync::atomic::Ordering::Relaxed);
    Phases {
        lex,
        syntax,
        validate,
        parallel,
        heap,
        ok,
    }
}

/// `ptxas -arch=compute_XX` (XX from `.target`) on `path`; None when absent, failing or too slow.
fn ptxas_time(path: &Path, src: &str) -> Option<Result<Duration, String>> {
    let ptxas = ptxforge_sass::nvtools::tool("ptxas")?;
    let target = src
        .lines()
        .find_map(|l| l.trim().strip_prefix(".target"))
        .map(|t| t.trim().split(',').next().unwrap_or("").trim().to_string());
    let arch = target.unwrap_or_default().replace("sm_", "compute_");
    let t = Instant::now();
    let mut child = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg(path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(if status.success() {
                Ok(t.elapsed())
            } else {
                Err(format!("ptxas failed ({status})"))
            });
        }
        if t.elapsed() > PTXAS_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Some(Err(format!("ptxas > {} s, stopped", PTXAS_LIMIT.as_secs())));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn mb_per_s(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64().max(1e-9)
}

/// Sums over the corpus.
#[derive(Default)]
struct Totals {
    bytes: usize,
    lex: Duration,
    syntax: Duration,
    validate: Duration,
    parallel: Duration,
    /// Sum of the modules' heap peaks (their ratio to `bytes` is the mean, weighted by size).
    heap: usize,
    ptxas_bytes: usize,
    ptxas: Duration,
    ours_on_ptxas_files: Duration,
}

/// ptxas's throughput on `bytes` and how many times longer it took than we did (`ours`).
fn versus_ptxas(ptxas: Option<&Result<Duration, String>>, bytes: usize, ours: Duration) -> String {
    match ptxas {
        Some(Ok(d)) => format!(
            "ptxas {:5.1} MB/s = {:5.1}x our 1-thread time",
            mb_per_s(bytes, *d),
            d.as_secs_f64() / ours.as_secs_f64()
        ),
        Some(Err(e)) => e.clone(),
        None => "ptxas: skipped".into(),
    }
}

fn report(label: &str, bytes: usize, p: &Phases, vs: String, threads: usize) {
    let total = p.syntax + p.validate;
    println!(
        "{label:<44} {:7.2} MB  lex {:6.0}  lex+parse {:6.0}  validate {:6.0}  total(1 thr) {:6.0}  sections({threads} thr) {:6.0} MB/s  heap {:4.1}x{}  {vs}",
        bytes as f64 / 1e6,
        mb_per_s(bytes, p.lex),
        mb_per_s(bytes, p.syntax),
        mb_per_s(bytes, p.validate),
        mb_per_s(bytes, total),
        mb_per_s(bytes, p.parallel),
        p.heap as f64 / bytes.max(1) as f64,
        if p.ok { "" } else { " (syntax errors)" },
    );
}

fn main() {
    let cfg = parse_args();
    let exec = Executor::new(ExecutorConfig {
        workers: cfg.threads,
        dynamic_scheduling: true,
    });
    println!("front end MB/s: lex = the lexer alone over the whole text; lex+parse = parse_syntax; validate; total = parse_syntax + validate; heap = peak heap of parse + validate / input size");
    let mut t = Totals::default();
    for path in &cfg.files {
        let Ok(src) = std::fs::read_to_string(path) else {
            continue;
        };
        let name = path.display().to_string();
        let p = measure(&src, &name, &cfg, &exec);
        let ptxas = if cfg.ptxas {
            ptxas_time(path, &src)
        } else {
            None
        };
        let label = path.file_name().map_or(name.clone(), |f| {
            f.to_string_lossy().chars().take(44).collect()
        });
        report(
            &label,
            src.len(),
            &p,
            versus_ptxas(ptxas.as_ref(), src.len(), p.syntax + p.validate),
            cfg.threads,
        );
        t.bytes += src.len();
        t.lex += p.lex;
        t.syntax += p.syntax;
        t.validate += p.validate;
        t.parallel += p.parallel;
        t.heap += p.heap;
        if let Some(Ok(d)) = ptxas {
            t.ptxas_bytes += src.len();
            t.ptxas += d;
            t.ours_on_ptxas_files += p.syntax + p.validate;
        }
    }
    if t.bytes > 0 {
        let all = Phases {
            lex: t.lex,
            syntax: t.syntax,
            validate: t.validate,
            parallel: t.parallel,
            heap: t.heap,
            ok: true,
        };
        let ptxas = (t.ptxas_bytes > 0).then_some(Ok(t.ptxas));
        let vs = versus_ptxas(ptxas.as_ref(), t.ptxas_bytes, t.ours_on_ptxas_files);
        report(
            &format!("ALL {} files", cfg.files.len()),
            t.bytes,
            &all,
            vs,
            cfg.threads,
        );
    }
    if cfg.generate_mb > 0 {
        let src = generate_module(cfg.generate_mb);
        let path =
            std::env::temp_dir().join(format!("ptxforge-parse-bench-{}mb.ptx", cfg.generate_mb));
        let p = measure(&src, "generated.ptx", &cfg, &exec);
        let ptxas = if cfg.ptxas && std::fs::write(&path, &src).is_ok() {
            ptxas_time(&path, &src)
        } else {
            None
        };
        let _ = std::fs::remove_file(&path);
        let vs = versus_ptxas(ptxas.as_ref(), src.len(), p.syntax + p.validate);
        report(
            &format!("generated ({} kernels)", src.matches(".entry").count()),
            src.len(),
            &p,
            vs,
            cfg.threads,
        );
    }
}
