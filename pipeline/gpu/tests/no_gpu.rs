//! The hardware check where there is no GPU (CI, this project's build machines): the runner and
//! `scripts/gpu-check.sh` print `skipped: no GPU (...)` and exit 0 instead of failing or
//! panicking; where there is one, the runner's launch of a stress kernel must agree.

use std::path::Path;
use std::process::Command;

const RUNNER: &str = env!("CARGO_BIN_EXE_ptxforge-gpu");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .parent()
        .unwrap()
}

/// Whether this machine has a GPU the driver can open (the runner's own probe).
fn has_gpu() -> bool {
    let out = Command::new(RUNNER).arg("--probe").output().unwrap();
    assert!(out.status.success(), "--probe failed: {out:?}");
    !String::from_utf8_lossy(&out.stdout).starts_with("skipped: no GPU")
}

#[test]
fn the_runner_skips_without_a_gpu_and_agrees_with_one() {
    let kernel = root().join("pipeline/sim/tests/kernels/hw_stress.ptx");
    let out = Command::new(RUNNER)
        .arg(&kernel)
        .args(["--entry", "dep_chain", "--grid", "1", "--block", "128"])
        .args(["--retarget", "--seed-structs"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if has_gpu() {
        assert_eq!(stdout.trim(), "agree", "{out:?}");
    } else {
        assert!(stdout.starts_with("skipped: no GPU ("), "{out:?}");
        assert!(out.status.success(), "{out:?}");
        assert!(out.stderr.is_empty(), "no panic or warning: {out:?}");
    }
}

#[test]
fn the_runner_still_refuses_a_bad_command_line() {
    let out = Command::new(RUNNER).args(["--grid", "2"]).output().unwrap();
    assert_eq!(out.status.code(), Some(255), "{out:?}");
}

#[test]
fn the_script_skips_without_a_gpu() {
    if has_gpu() {
        println!("skipped: there is a GPU here; scripts/gpu-check.sh is the check itself");
        return;
    }
    let empty_carry =
        std::env::temp_dir().join(format!("ptxforge-gpu-carry-{}", std::process::id()));
    let out = Command::new("bash")
        .arg(root().join("scripts/gpu-check.sh"))
        .env("PTXFORGE_GPU_BIN", RUNNER)
        .env("PTXFORGE_GPU_CARRY", &empty_carry)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("skipped: no GPU ("), "{out:?}");
    assert!(out.status.success(), "{out:?}");
}
