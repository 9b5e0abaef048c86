//! Idle workers park and burn no CPU (its own test binary, so no other test's CPU time counts).

use std::time::Duration;

use ptxforge_runtime::{Executor, ExecutorConfig};

fn exec(workers: usize, dynamic: bool) -> Executor {
    Executor::new(ExecutorConfig {
        workers,
        dynamic_scheduling: dynamic,
    })
}

/// User + system CPU time of this process, from /proc/self/stat (in clock ticks).
fn cpu_ticks() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let after_name = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[test]
fn idle_workers_park_and_use_no_cpu() {
    let e = exec(2, true);
    std::thread::sleep(Duration::from_millis(50));
    let (parks, ticks) = (e.counters().parks, cpu_ticks());
    std::thread::sleep(Duration::from_secs(1));
    let (parks_after, ticks_after) = (e.counters().parks, cpu_ticks());
    assert!(
        parks_after - parks <= 2,
        "workers woke {} times while idle",
        parks_after - parks
    );
    // 100 ticks per second per core; spinning workers would burn ~200.
    assert!(
        ticks_after - ticks <= 10,
        "{} ticks of CPU over an idle second",
        ticks_after - ticks
    );
}
