//! Support for the tests that run ptxas beside ptxforge: finding both compilers, a scratch folder
//! per test, running a compile, and reading a cubin back with NVIDIA's tools.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ptxforge_sass::nvtools;

/// NVIDIA's ptxas, or `None` after printing the `skipped: ...` line a test without it shows.
pub fn ptxas_or_skip() -> Option<PathBuf> {
    let ptxas = nvtools::tool("ptxas");
    if ptxas.is_none() {
        println!("skipped: ptxas not found (set PTXFORGE_NV or run scripts/fetch-nvidia-tools.sh)");
    }
    ptxas
}

/// The ptxforge binary cargo built for these tests.
pub fn ptxforge() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ptxforge"))
}

/// A path relative to the repository root.
pub fn repo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(rel)
}

/// A fresh folder of this test process for `tag`'s files.
pub fn scratch_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxforge-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `tool OPTIONS INPUT -o OUT`, with any earlier `out` removed first.
pub fn run<S: AsRef<OsStr>>(tool: &Path, options: &[S], input: &Path, out: &Path) -> Output {
    let _ = std::fs::remove_file(out);
    Command::new(tool)
        .args(options)
        .arg(input)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap()
}

/// [`run`] with whitespace-separated options, asserting that the compile succeeds.
pub fn compile(tool: &Path, args: &str, ptx: &Path, out: &Path) {
    let options: Vec<&str> = args.split_whitespace().collect();
    let o = run(tool, &options, ptx, out);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{} {args}: {stderr}", tool.display());
}

/// The standard output of NVIDIA's `name ARGS FILE`, asserting that it accepts the file.
pub fn tool_output(name: &str, args: &[&str], file: &Path) -> String {
    let out = Command::new(nvtools::tool(name).unwrap())
        .args(args)
        .arg(file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{name} rejects {}", file.display());
    String::from_utf8_lossy(&out.stdout).into_owned()
}
