//! Pipeline and executor behaviour: ordering, backpressure without deadlock, panics, stealing, parking.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ptxforge_runtime::{Executor, ExecutorConfig, Pipeline};

fn exec(workers: usize, dynamic: bool) -> Executor {
    Executor::new(ExecutorConfig {
        workers,
        dynamic_scheduling: dynamic,
    })
}

fn three_stages(cap: usize) -> Pipeline<Result<u64, String>> {
    Pipeline::new(|stage, msg| Err(format!("{stage}: {msg}")))
        .stage("double", cap, |x: Result<u64, String>| x.map(|v| v * 2))
        .stage("inc", cap, |x| x.map(|v| v + 1))
        .stage("square", cap, |x| x.map(|v| v * v))
}

#[test]
fn results_come_back_in_input_order_at_any_worker_count() {
    for workers in [0, 1, 2, 4] {
        for dynamic in [false, true] {
            let e = exec(workers, dynamic);
            let inputs: Vec<_> = (0..500u64).map(Ok).collect();
            let (out, stats) = three_stages(1).run(&e, inputs);
            let got: Vec<u64> = out.into_iter().map(|env| env.value.unwrap()).collect();
            let want: Vec<u64> = (0..500u64).map(|v| (2 * v + 1) * (2 * v + 1)).collect();
            assert_eq!(got, want, "workers {workers} dynamic {dynamic}");
            assert!(stats.iter().all(|s| s.mailbox_high_water <= 1), "{stats:?}");
        }
    }
}

#[test]
fn capacity_one_single_worker_does_not_deadlock() {
    let e = exec(1, false);
    let (out, _) = three_stages(1).run(&e, (0..10_000u64).map(Ok).collect());
    assert_eq!(out.len(), 10_000);
}

#[test]
fn a_panicking_stage_fails_only_its_message() {
    let e = exec(2, true);
    let p = Pipeline::new(|stage, msg| Err(format!("{stage}: {msg}"))).stage(
        "check",
        2,
        |x: Result<u64, String>| x.map(|v| if v == 7 { panic!("seven") } else { v }),
    );
    let (out, _) = p.run(&e, (0..20u64).map(Ok).collect());
    for env in &out {
        match env.index {
            7 => assert_eq!(env.value, Err("check: seven".to_string())),
            i => assert_eq!(env.value, Ok(i as u64)),
        }
    }
    assert_eq!(out[3].timings.len(), 1);
    assert_eq!(out[3].timings[0].stage, "check");
}

fn spin(ms: u64) {
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(ms) {
        std::hint::spin_loop();
    }
}

/// Imbalanced raw tasks: worker 0 gets the slow ones in static mode.
fn run_imbalanced(dynamic: bool) -> u64 {
    let e = Arc::new(exec(2, dynamic));
    let done = Arc::new(AtomicUsize::new(0));
    let spawner = e.spawner();
    let d0 = Arc::clone(&done);
    e.spawn(Box::new(move || {
        for i in 0..40 {
            let d = Arc::clone(&d0);
            spawner.spawn(Box::new(move || {
                spin(if i % 2 == 0 { 4 } else { 0 });
                d.fetch_add(1, Ordering::SeqCst);
            }));
        }
    }));
    while done.load(Ordering::SeqCst) < 40 {
        std::thread::sleep(Duration::from_millis(1));
    }
    e.counters().steals
}

#[test]
fn stealing_only_in_dynamic_mode() {
    assert_eq!(run_imbalanced(false), 0);
    let steals: u64 = (0..5).map(|_| run_imbalanced(true)).sum();
    assert!(steals > 0, "no steal in 5 imbalanced dynamic runs");
}
