//! The module's `.target` against `-arch`, as ptxas 13.5 checks it once the module is otherwise
//! valid: a fatal without a place, exit status 255 and no output file. Each case states ptxas's
//! stderr; when ptxas is present it also runs side by side and must print the same.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ptxforge_sass::nvtools;

const HIGHER: &str =
    "ptxas fatal   : SM version specified by .target is higher than default SM version assumed\n";

/// (`.target` line(s), `-arch` or "" for none, ptxas's stderr; "" when it accepts).
const CASES: &[(&str, &str, &str)] = &[
    ("sm_90", "sm_80", HIGHER),
    ("sm_90", "sm_90", ""),
    ("sm_80", "sm_90", ""),
    ("sm_86", "sm_80", HIGHER),
    ("sm_90", "compute_80", HIGHER),
    ("sm_90", "compute_90", ""),
    ("sm_80", "compute_90a", ""),
    // ptxas assumes sm_75 without -arch.
    ("sm_75", "", ""),
    ("sm_80", "", HIGHER),
    // The last architecture named counts, in one directive or several.
    ("sm_80, sm_90", "sm_80", HIGHER),
    ("sm_90, sm_80", "sm_80", ""),
    ("sm_75\n.target sm_90", "sm_80", HIGHER),
    ("sm_90, texmode_independent", "sm_80", HIGHER),
    ("compute_90", "sm_80", HIGHER),
    ("compute_80", "sm_80", ""),
    // An `a` target compiles only for its own `a` architecture.
    ("sm_90a", "sm_80", HIGHER),
    ("sm_90a", "compute_90", "ptxas fatal   : PTX with .target 'sm_90a' cannot be compiled for architecture 'compute_90'\n"),
    ("sm_90a", "compute_90a", ""),
    ("sm_90a", "sm_90a", ""),
    ("sm_90", "sm_90a", ""),
    ("sm_80", "sm_90a", ""),
    ("sm_90a", "sm_90", "ptxas fatal   : PTX with .target 'sm_90a' cannot be compiled for architecture 'sm_90'\n"),
    ("sm_90a", "compute_100", "ptxas fatal   : Program with .target 'sm_90a' cannot be compiled to future architecture\n"),
    ("sm_80, sm_90a", "compute_90", "ptxas fatal   : PTX with .target 'sm_90a' cannot be compiled for architecture 'compute_90'\n"),
    // An `f` target compiles within its family (the same tens).
    ("sm_100f", "compute_103", ""),
    ("sm_100f", "compute_110", "ptxas fatal   : Program with .target 'sm_100f' cannot be compiled to different SM-family architecture\n"),
    ("sm_103f", "compute_100f", HIGHER),
    // Errors in the module come first; the .target check is never reached.
    ("sm_90, debug", "sm_80", "ptxas error   : Debug information not found in presence of .target debug\nptxas fatal   : Ptx assembly aborted due to errors\n"),
];

/// A module with `target` as its `.target` (a `.version` every target here accepts).
fn module(target: &str) -> String {
    format!(
        ".version 8.8\n.target {target}\n.address_size 64\n.visible .entry k()\n{{\n\tret;\n}}\n"
    )
}

/// Runs `tool` in `dir` on `t.ptx` with `arch` (none when empty), writing `t.cubin`.
fn run(tool: &Path, dir: &Path, arch: &str) -> Output {
    let _ = std::fs::remove_file(dir.join("t.cubin"));
    let mut cmd = Command::new(tool);
    cmd.current_dir(dir);
    if !arch.is_empty() {
        cmd.arg(format!("-arch={arch}"));
    }
    cmd.args(["t.ptx", "-o", "t.cubin"]).output().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "ptxforge-target-arch-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn target_against_arch_as_ptxas() {
    let dir = scratch("ours");
    let ours = PathBuf::from(env!("CARGO_BIN_EXE_ptxforge"));
    let mut failures = Vec::new();
    for (target, arch, expected) in CASES {
        std::fs::write(dir.join("t.ptx"), module(target)).unwrap();
        let out = run(&ours, &dir, arch);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let rejected = !expected.is_empty();
        let status_ok = if rejected {
            out.status.code() == Some(255)
        } else {
            out.status.success()
        };
        // A parse-only (compute_XX) run writes nothing even when it accepts.
        let wrote = dir.join("t.cubin").exists();
        let output_ok = !(rejected && wrote);
        if stderr != *expected || !status_ok || !output_ok {
            failures.push(format!(
                ".target {target:?} -arch={arch}: status {:?}, wrote {wrote}, stderr {stderr:?}",
                out.status.code()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

#[test]
fn ptxas_agrees_on_every_target_case() {
    let Some(ptxas) = nvtools::tool("ptxas") else {
        println!("skipped: ptxas not found (set PTXFORGE_NV or run scripts/fetch-nvidia-tools.sh)");
        return;
    };
    let dir = scratch("ptxas");
    let mut failures = Vec::new();
    for (target, arch, expected) in CASES {
        std::fs::write(dir.join("t.ptx"), module(target)).unwrap();
        let out = run(&ptxas, &dir, arch);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if stderr != *expected || out.status.success() != expected.is_empty() {
            failures.push(format!(
                ".target {target:?} -arch={arch}: ptxas status {:?}, stderr {stderr:?}",
                out.status.code()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "ptxas differs from the stated verdicts:\n{}",
        failures.join("\n")
    );
}

/// Bodies whose only errors are the link stage's (fatals without a place), under `.target sm_90`:
/// ptxas checks the target against `-arch` first, and reports them only when it passes.
const LINK_STAGE_CASES: &[(&str, &str)] = &[
    (".extern .func foo();\n.visible .entry k()\n{\n\tcall foo;\n\tret;\n}\n", "ptxas fatal   : Unresolved extern function 'foo'\n"),
    (
        ".extern .global .b32 arr[];\n.visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, arr;\n\tret;\n}\n",
        "ptxas fatal   : Unresolved extern variable 'arr'\n",
    ),
    (
        ".func f()\n{\n\tret;\n}\n.visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, f+4;\n\tret;\n}\n",
        "ptxas fatal   : Line No: 11: Cannot take address of function 'f' in arithmetic expressions\n",
    ),
];

/// Each link-stage case under `-arch=sm_80` (the `.target` fatal) and `-arch=sm_90` (its own
/// fatal), as `tool` prints them; the cases that differ.
fn link_stage_differences(tool: &Path, dir: &Path) -> Vec<String> {
    let mut failures = Vec::new();
    for (body, link_fatal) in LINK_STAGE_CASES {
        std::fs::write(
            dir.join("t.ptx"),
            format!(".version 8.8\n.target sm_90\n.address_size 64\n{body}"),
        )
        .unwrap();
        for (arch, expected) in [("sm_80", HIGHER), ("sm_90", *link_fatal)] {
            let out = run(tool, dir, arch);
            let stderr = String::from_utf8_lossy(&out.stderr);
            if stderr != expected || out.status.code() != Some(255) || dir.join("t.cubin").exists()
            {
                failures.push(format!(
                    "{body:?} -arch={arch}: status {:?}, stderr {stderr:?}",
                    out.status.code()
                ));
            }
        }
    }
    failures
}

#[test]
fn target_comes_before_link_stage_fatals() {
    let dir = scratch("link");
    let failures = link_stage_differences(Path::new(env!("CARGO_BIN_EXE_ptxforge")), &dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ptxas_agrees_on_the_link_stage_cases() {
    let Some(ptxas) = nvtools::tool("ptxas") else {
        println!("skipped: ptxas not found (set PTXFORGE_NV or run scripts/fetch-nvidia-tools.sh)");
        return;
    };
    let dir = scratch("link-ptxas");
    let failures = link_stage_differences(&ptxas, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "ptxas differs from the stated verdicts:\n{}",
        failures.join("\n")
    );
}

#[test]
fn last_input_names_the_target() {
    let dir = scratch("inputs");
    let ours = PathBuf::from(env!("CARGO_BIN_EXE_ptxforge"));
    std::fs::write(dir.join("a.ptx"), module("sm_75")).unwrap();
    std::fs::write(
        dir.join("b.ptx"),
        module("sm_90").replace(".entry k()", ".entry k2()"),
    )
    .unwrap();
    let run_pair = |first: &str, second: &str| {
        Command::new(&ours)
            .current_dir(&dir)
            .args(["-arch=sm_80", first, second, "-o", "t.cubin"])
            .output()
            .unwrap()
    };
    let sm90_last = run_pair("a.ptx", "b.ptx");
    assert_eq!(
        (
            sm90_last.status.code(),
            String::from_utf8_lossy(&sm90_last.stderr).as_ref()
        ),
        (Some(255), HIGHER)
    );
    let sm75_last = run_pair("b.ptx", "a.ptx");
    assert!(
        sm75_last.status.success(),
        "{}",
        String::from_utf8_lossy(&sm75_last.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// (`.section` names of a `.target sm_80, debug` module, ptxas's stderr for `-arch=sm_80`): any
/// section is debug information for it; missing `.debug_abbrev`/`.debug_info` are warnings.
const DEBUG_SECTION_CASES: &[(&[&str], &str)] = &[
    (&[], "ptxas error   : Debug information not found in presence of .target debug\nptxas fatal   : Ptx assembly aborted due to errors\n"),
    (&[".debug_str"], "ptxas warning :  .debug_abbrev section not found\nptxas warning :  .debug_info section not found\n"),
    (&[".foo"], "ptxas warning :  .debug_abbrev section not found\nptxas warning :  .debug_info section not found\n"),
    (&[".debug_abbrev"], "ptxas warning :  .debug_info section not found\n"),
    (&[".debug_info"], "ptxas warning :  .debug_abbrev section not found\nptxas info    : skipping .debug_info section due to missing .debug_abbrev section\n"),
];

fn debug_module(sections: &[&str]) -> String {
    let mut text = module("sm_80, debug");
    for s in sections {
        text.push_str(&format!(".section {s}\n{{\n.b8 0\n}}\n"));
    }
    text
}

/// Runs every debug-section case with `tool`; the cases whose stderr or status differ.
fn debug_section_failures(tool: &Path, dir: &Path) -> Vec<String> {
    let mut failures = Vec::new();
    for (sections, expected) in DEBUG_SECTION_CASES {
        std::fs::write(dir.join("t.ptx"), debug_module(sections)).unwrap();
        let out = run(tool, dir, "sm_80");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let rejected = expected.contains("error   :");
        let status_ok = if rejected {
            out.status.code() == Some(255)
        } else {
            out.status.success()
        };
        if stderr != *expected || !status_ok || (rejected && dir.join("t.cubin").exists()) {
            failures.push(format!(
                "sections {sections:?}: status {:?}, stderr {stderr:?}",
                out.status.code()
            ));
        }
    }
    failures
}

#[test]
fn target_debug_sections_as_ptxas() {
    let dir = scratch("debug-ours");
    let failures = debug_section_failures(Path::new(env!("CARGO_BIN_EXE_ptxforge")), &dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let Some(ptxas) = nvtools::tool("ptxas") else {
        println!("skipped: ptxas not found (set PTXFORGE_NV or run scripts/fetch-nvidia-tools.sh)");
        return;
    };
    let dir = scratch("debug-ptxas");
    let failures = debug_section_failures(&ptxas, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "ptxas differs from the stated verdicts:\n{}",
        failures.join("\n")
    );
}
