//! Triton live (issue 25): the `triton` wheel itself compiles every kernel of
//! `tests/clients/triton/` for sm_80 and sm_90a with ptxforge as its ptxas (generate.py into a
//! scratch folder). Every kernel must come back "ok" from Triton, the command line Triton passed
//! must be the kept one, and the PTX Triton wrote must be the kept PTX (which `clients.rs` runs
//! through nvdisasm and `ptxforge sim`) up to the source path in `.file` and the debug sections.
//! Runs with the python that `scripts/fetch-triton.sh` installs (CI does), or
//! `PTXFORGE_TRITON_PYTHON`; prints `skipped: ...` without one.

use std::path::{Path, PathBuf};
use std::process::Command;

fn triton_python() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PTXFORGE_TRITON_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))?;
    let python = cache.join("ptxforge/triton-3.9.0/bin/python");
    python.exists().then_some(python)
}

/// The PTX without what names the machine it was written on: `.file` lines and the DWARF
/// sections after the code (their bytes spell the source path).
fn code_part(ptx: &str) -> String {
    let end = ptx.find(".section\t.debug").unwrap_or(ptx.len());
    ptx[..end]
        .lines()
        .filter(|l| !l.trim_start().starts_with(".file"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn triton_compiles_every_kernel_with_ptxforge_as_its_ptxas() {
    let Some(python) = triton_python() else {
        println!("skipped: Triton not installed (scripts/fetch-triton.sh, or set PTXFORGE_TRITON_PYTHON)");
        return;
    };
    let kept = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/triton");
    let out = std::env::temp_dir().join(format!("ptxforge-triton-live-{}", std::process::id()));
    let run = Command::new(&python)
        .arg(kept.join("generate.py"))
        .arg(env!("CARGO_BIN_EXE_ptxforge"))
        .arg(&out)
        .env("TRITON_DEFAULT_FP_FUSION", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "generate.py failed:\n{stderr}");
    let results = read(&out.join("triton_results.txt"));
    let rows: Vec<&str> = results.lines().filter(|l| !l.starts_with('#')).collect();
    let sources = std::fs::read_dir(&kept)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "py"))
        .count()
        - 1;
    assert_eq!(
        rows.len(),
        2 * sources,
        "one row per kernel and target: {results}"
    );
    let failed: Vec<&&str> = rows.iter().filter(|r| !r.ends_with("\tok")).collect();
    assert!(failed.is_empty(), "Triton saw ptxforge fail: {failed:#?}");
    assert_eq!(
        read(&out.join("command_line.txt")),
        read(&kept.join("command_line.txt")),
        "Triton's ptxas command line changed"
    );
    for row in &rows {
        let mut f = row.split('\t');
        let (kernel, sm) = (f.next().unwrap(), f.next().unwrap());
        let name = format!("{kernel}.{sm}.ptx");
        let (live, ours) = (read(&out.join(&name)), read(&kept.join(&name)));
        assert!(
            code_part(&live) == code_part(&ours),
            "{name}: Triton wrote other PTX than the kept one"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
    println!(
        "Triton compiled {} kernel/target pairs with ptxforge",
        rows.len()
    );
}
