//! `ptxforge sim`: agreement, a planted disagreement, an out-of-bounds access and usage errors,
//! through the binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn filetest(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../pipeline/driver/tests/filetests")
        .join(name)
}

fn sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxforge"))
        .arg("sim")
        .args(args)
        .output()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxforge-sim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn agreeing_runs_print_agree_and_exit_zero() {
    let vadd = filetest("vadd.ptx");
    let out = sim(&[
        vadd.to_str().unwrap(),
        "-arch",
        "sm_86",
        "--entry",
        "vadd",
        "--grid",
        "3",
        "--block",
        "128",
        "--args",
        "300",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "agree",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_reference_cubin_that_computes_something_else_is_reported_with_buffer_and_offset() {
    // The "reference" is vadd with the add turned into a sub, compiled by ptxforge itself.
    let text = std::fs::read_to_string(filetest("vadd.ptx"))
        .unwrap()
        .replace("add.f32", "sub.f32");
    let vsub = scratch("vsub.ptx");
    std::fs::write(&vsub, text).unwrap();
    let cubin = scratch("vsub.cubin");
    let built = Command::new(env!("CARGO_BIN_EXE_ptxforge"))
        .args([
            "-arch=sm_80",
            vsub.to_str().unwrap(),
            "-o",
            cubin.to_str().unwrap(),
        ])
        .status()
        .unwrap();
    assert!(built.success());
    let vadd = filetest("vadd.ptx");
    let out = sim(&[
        vadd.to_str().unwrap(),
        "-arch",
        "sm_80",
        "--entry",
        "vadd",
        "--grid",
        "1",
        "--block",
        "64",
        "--args",
        "64",
        "--reference-cubin",
        cubin.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.starts_with("differ: ptxas cubin: buffer 'vadd_param_2' offset 0x0 (written by block (0,0,0) thread (0,0,0))"),
        "{stdout}"
    );
}

#[test]
fn an_out_of_bounds_access_is_reported_with_exit_one() {
    // Random 64-bit indices send gather64 far outside its buffers.
    let addr64 = filetest("addr64.ptx");
    let out = sim(&[
        addr64.to_str().unwrap(),
        "--entry",
        "gather64",
        "--grid",
        "1",
        "--block",
        "32",
        "--args",
        "32",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("out-of-bounds"), "{stdout}");
    // Small values keep the same launch in bounds.
    let out = sim(&[
        addr64.to_str().unwrap(),
        "--entry",
        "gather64",
        "--grid",
        "1",
        "--block",
        "32",
        "--args",
        "32",
        "--fill",
        "small",
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "agree");
}

#[test]
fn usage_errors_exit_255_with_a_message() {
    let vadd = filetest("vadd.ptx");
    let cases: &[(&[&str], &str)] = &[
        (
            &[vadd.to_str().unwrap(), "--entry", "vadd"],
            "no value given for parameter 'vadd_param_3'",
        ),
        (&[vadd.to_str().unwrap()], "--entry is required"),
        (
            &[vadd.to_str().unwrap(), "--entry", "vadd", "--grid", "0"],
            "expected X[,Y,Z]",
        ),
        (
            &[vadd.to_str().unwrap(), "--entry", "vadd", "--bogus"],
            "unknown option '--bogus'",
        ),
        (&["/nonexistent.ptx", "--entry", "k"], "could not be opened"),
    ];
    for (args, message) in cases {
        let out = sim(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(255), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}
