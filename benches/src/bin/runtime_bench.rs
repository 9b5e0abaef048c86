//! Runtime benchmark: per-task overhead, and scaling from 1 to 2 workers on an imbalanced
//! synthetic load, static partitioning vs work stealing. Prints times and ratios.
//!
//! Usage: `cargo run --release -p ptxforge-benches --bin runtime_bench`

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ptxforge_runtime::{Executor, ExecutorConfig, Pipeline};

fn spin(us: u64) {
    let t = Instant::now();
    while t.elapsed() < Duration::from_micros(us) {
        std::hint::spin_loop();
    }
}

/// Time to push `n` tasks of `cost(i)` microseconds through a one-stage pipeline.
fn run(
    workers: usize,
    dynamic: bool,
    n: usize,
    cost: impl Fn(usize) -> u64 + Send + Sync + 'static,
) -> Duration {
    let exec = Executor::new(ExecutorConfig {
        workers,
        dynamic_scheduling: dynamic,
    });
    let cost = Arc::new(cost);
    let p = Pipeline::new(|_, _| 0usize).stage("work", 8, move |i: usize| {
        spin(cost(i));
        i
    });
    let t = Instant::now();
    let (out, _) = p.run(&exec, (0..n).collect());
    assert_eq!(out.len(), n);
    t.elapsed()
}

/// Overhead of raw spawns of empty tasks, in ns per task.
fn spawn_overhead(workers: usize) -> f64 {
    let exec = Executor::new(ExecutorConfig {
        workers,
        dynamic_scheduling: true,
    });
    let n = 200_000;
    let done = Arc::new(AtomicUsize::new(0));
    let t = Instant::now();
    for _ in 0..n {
        let d = Arc::clone(&done);
        exec.spawn(Box::new(move || {
            d.fetch_add(1, Ordering::Relaxed);
        }));
    }
    while done.load(Ordering::Relaxed) < n {
        if !exec.help() {
            std::thread::yield_now();
        }
    }
    t.elapsed().as_nanos() as f64 / n as f64
}

fn main() {
    println!(
        "per-task overhead (spawn + run, empty task): inline {:.0} ns, 2 workers {:.0} ns",
        spawn_overhead(1),
        spawn_overhead(2)
    );
    let pipe_empty = run(1, false, 100_000, |_| 0);
    println!(
        "per-message pipeline overhead (1 stage, inline): {:.0} ns",
        pipe_empty.as_nanos() as f64 / 100_000.0
    );
    // Imbalanced: even items are 40x more expensive, so round-robin static partitioning of the
    // pump tasks tends to load one worker more than the other.
    let cost = |i: usize| if i % 2 == 0 { 2000 } else { 50 };
    let one = run(1, false, 400, cost);
    let two_static = run(2, false, 400, cost);
    let two_dynamic = run(2, true, 400, cost);
    println!(
        "imbalanced load, 400 items: 1 worker {:.1} ms",
        one.as_secs_f64() * 1e3
    );
    println!(
        "  2 workers static:  {:.1} ms, speedup {:.2}x",
        two_static.as_secs_f64() * 1e3,
        one.as_secs_f64() / two_static.as_secs_f64()
    );
    println!(
        "  2 workers dynamic: {:.1} ms, speedup {:.2}x",
        two_dynamic.as_secs_f64() * 1e3,
        one.as_secs_f64() / two_dynamic.as_secs_f64()
    );
    println!(
        "  dynamic vs static: {:.2}x",
        two_static.as_secs_f64() / two_dynamic.as_secs_f64()
    );
}
