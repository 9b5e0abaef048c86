//! Support for the client suites (Triton, LLVM/clang): finding the reference tools, a scratch
//! folder, a client's verdict line, the nvdisasm/cuobjdump checks on a cubin, `ptxforge sim`
//! three ways, and writing or checking a generated table between two markers in README.md.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A tool from the reference toolchain (`$PTXFORGE_NV/bin/NAME`), if present.
pub fn nv_tool(name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(std::env::var_os("PTXFORGE_NV")?)
        .join("bin")
        .join(name);
    p.exists().then_some(p)
}

/// A scratch folder private to this test process and `tag`.
pub fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ptxforge-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `program args... input` and returns (success, first error line with `input`'s path
/// written as FILE).
pub fn compile_verdict(program: &Path, args: &[String], input: &Path) -> (bool, String) {
    let o = Command::new(program).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).replace(input.to_str().unwrap(), "FILE");
    let first = err
        .lines()
        .find(|l| l.contains("error"))
        .unwrap_or("")
        .trim();
    (o.status.success(), first.to_string())
}

/// nvdisasm and cuobjdump must read `cubin` and name `kernel` in it (when the tools are here).
pub fn check_decodes(kernel: &str, what: &str, cubin: &Path) {
    if let Some(nvdisasm) = nv_tool("nvdisasm") {
        let o = Command::new(nvdisasm).arg(cubin).output().unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success() && text.contains(kernel),
            "{what}: nvdisasm: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    if let Some(cuobjdump) = nv_tool("cuobjdump") {
        let o = Command::new(cuobjdump)
            .arg("-sass")
            .arg(cubin)
            .output()
            .unwrap();
        assert!(
            o.status.success()
                && String::from_utf8_lossy(&o.stdout).contains(&format!("Function : {kernel}")),
            "{what}: cuobjdump"
        );
    }
}

/// `ptxforge sim PTX -arch SM --entry KERNEL ARGS...` must print "agree" (interpreter, emulator on
/// ptxas's cubin, emulator on ours). Returns the table's sim column; without ptxas it runs nothing.
pub fn sim_three_way(ptx: &Path, sm: &str, kernel: &str, args: &[&str], ulps: &str) -> String {
    if nv_tool("ptxas").is_none() {
        return "not run (no PTXFORGE_NV ptxas)".into();
    }
    let o = Command::new(env!("CARGO_BIN_EXE_ptxforge"))
        .arg("sim")
        .arg(ptx)
        .args(["-arch", sm, "--entry", kernel, "--ulps", ulps])
        .args(args)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        out.trim(),
        "agree",
        "{kernel} {sm}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    match ulps {
        "0" => "agree (3-way)".into(),
        _ => format!("agree (3-way, {ulps} ulps)"),
    }
}

/// The text between `begin` and `end` in README.md must be `table` (after a newline); with
/// PTXFORGE_BLESS set it is written instead. Without the reference tools the sim column reads "not
/// run" and rows that need a tool (starting with `tool_rows`, e.g. `| nvcc`) are absent, so the
/// comparison maps the recorded text the same way first.
pub fn readme_table(begin: &str, end: &str, table: &str, tool_rows: Option<&str>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let (Some(b), Some(e)) = (readme.find(begin), readme.find(end)) else {
        panic!("README.md lacks the markers {begin}")
    };
    let current = &readme[b + begin.len()..e];
    let wanted = format!("\n{table}");
    if std::env::var_os("PTXFORGE_BLESS").is_some() {
        let text = format!("{}{wanted}{}", &readme[..b + begin.len()], &readme[e..]);
        std::fs::write(&path, text).unwrap();
    } else if nv_tool("ptxas").is_none() {
        let mut recorded: String = current
            .split_inclusive('\n')
            .filter(|l| tool_rows.is_none_or(|p| !l.starts_with(p)))
            .collect();
        for agree in ["agree (3-way, 2 ulps)", "agree (3-way)"] {
            recorded = recorded.replace(agree, "not run (no PTXFORGE_NV ptxas)");
        }
        assert_eq!(recorded, wanted, "README table {begin} is stale");
    } else {
        assert_eq!(
            current, wanted,
            "README table {begin} is stale: rerun with PTXFORGE_BLESS=1"
        );
    }
}
