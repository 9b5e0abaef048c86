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

/// A launch line as the sim tests write it, read by the runner's options for sm_90 (PTX
/// retargeted, per-architecture seed, ptxas run by the runner when `PTXFORGE_NV` has it), must
/// agree on the emulator: everything the GPU path does but the driver calls.
#[test]
fn launch_lines_agree_on_the_emulator() {
    let ptxas = std::env::var_os("PTXFORGE_NV")
        .map(|nv| Path::new(&nv).join("bin/ptxas"))
        .filter(|p| p.exists());
    let lines = [
        "pipeline/sim/tests/kernels/hw_stress.ptx --entry diverge_reconverge --grid 1 --block 128 \
         --ulps 0 --min-sm 75 --seed-per-arch 1801810542 --seed-structs --retarget",
        "pipeline/driver/tests/filetests/addr64.ptx --entry gather64 --grid 2,1,1 --block 32,1,1 \
         --args 50 --fill small --seed-per-arch 24301 --seed-structs",
    ];
    for line in lines {
        let mut words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        words[0] = root().join(&words[0]).display().to_string();
        if let Some(ptxas) = &ptxas {
            words.extend(["--ptxas".to_string(), ptxas.display().to_string()]);
        }
        let req = ptxforge_gpu::parse_args(&words)
            .unwrap()
            .for_arch(90)
            .unwrap();
        let retargeted = req.ptx.contains("\n.target sm_90\n");
        assert_eq!(retargeted, line.contains("--retarget"), "{line}");
        assert_eq!(req.seed, 90 + if retargeted { 1801810542 } else { 24301 });
        assert_eq!(req.reference_cubin.is_some(), ptxas.is_some(), "{line}");
        let verdict = ptxforge_sim::differential_check(&req).unwrap();
        assert_eq!(verdict, ptxforge_sim::Verdict::Agree, "{line}");
    }
}
