//! `ptxforge sim --random`: the summary line, the exit status, and a planted miscompilation
//! (`PTXFORGE_PLANT_BUG=sub-swap` in the child's environment) found, reduced and written out.

use std::path::PathBuf;
use std::process::{Command, Output};

fn sim_random(args: &[&str], plant: bool) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ptxforge"));
    cmd.arg("sim").args(args);
    if plant {
        cmd.env("PTXFORGE_PLANT_BUG", "sub-swap");
    }
    cmd.output().unwrap()
}

fn out_dir(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("ptxforge-sim-random-{}-{name}", std::process::id()))
}

/// The counts of `random: N kernels, A agree, D disagree, E ptxforge errors, R ptxas rejects`.
fn summary(stdout: &str) -> [u64; 5] {
    let last = stdout.lines().last().expect("some output");
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words[0], "random:", "last line: {last}");
    let expect = ["kernels,", "agree,", "disagree,", "ptxforge", "ptxas"];
    let mut counts = [0; 5];
    let mut k = 0;
    for pair in words[1..].windows(2) {
        if k < 5 && pair[1] == expect[k] {
            counts[k] = pair[0].parse().unwrap();
            k += 1;
        }
    }
    assert_eq!(k, 5, "last line: {last}");
    assert!(last.ends_with(" ptxas rejects"), "last line: {last}");
    counts
}

#[test]
fn the_last_line_counts_the_kernels() {
    let dir = out_dir("plain");
    let out = sim_random(
        &[
            "--random",
            "4",
            "--seed",
            "1",
            "-arch",
            "sm_80",
            "--out",
            dir.to_str().unwrap(),
        ],
        false,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let [n, a, d, e, r] = summary(&stdout);
    assert_eq!(n, 4, "{stdout}");
    assert!(a + d + e + r <= n, "{stdout}");
    assert_eq!(
        out.status.code(),
        Some(if d > 0 { 1 } else { 0 }),
        "{stdout}"
    );
}

#[test]
fn a_planted_bug_exits_one_and_writes_its_reduced_kernel() {
    let dir = out_dir("planted");
    let out = sim_random(
        &[
            // Seeds 11..18: seeds 12, 14 and 17 observe a 32-bit sub (the mix moves as the
            // generator gains features; seed 6 did before MUFU, mma and rounding conversions).
            "--random",
            "8",
            "--seed",
            "11",
            "-arch",
            "sm_80",
            "--out",
            dir.to_str().unwrap(),
        ],
        true,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let [_, _, d, _, _] = summary(&stdout);
    assert!(d > 0, "{stdout}");
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let written = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("reduced kernel written to "))
        .unwrap_or_else(|| panic!("no file named:\n{stdout}"));
    let ptx = std::fs::read_to_string(written).unwrap();
    assert!(
        ptx.contains("// Rerun: ptxforge sim FILE -arch sm_80"),
        "{ptx}"
    );
    assert!(ptx.contains("sub.u32") || ptx.contains("sub.s32"), "{ptx}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn random_mode_needs_a_count_or_a_time() {
    let out = sim_random(&["--random", "0", "-arch", "sm_80"], false);
    assert_eq!(out.status.code(), Some(255));
    let out = sim_random(&["--random", "2", "--bogus"], false);
    assert_eq!(out.status.code(), Some(255));
}
