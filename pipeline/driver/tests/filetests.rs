//! Filetests: every `filetests/*.ptx` compiled for each architecture, SASS compared with
//! `filetests/expected/<name>.<sm>.sass`. `PTXFORGE_BLESS=1` rewrites the expectations.

mod common;

use common::{compile_for, filetest_inputs, sass_listing, FILETEST_DIR};
use ptxforge_sass::arch::SUPPORTED_SMS;
use std::path::PathBuf;

fn expected_path(name: &str, sm: ptxforge_sass::arch::Sm) -> PathBuf {
    PathBuf::from(FILETEST_DIR)
        .join("expected")
        .join(format!("{name}.{sm}.sass"))
}

#[test]
fn filetests_match_expected_sass() {
    let inputs = filetest_inputs();
    assert!(
        inputs.len() >= 15,
        "expected at least 15 filetests, found {}",
        inputs.len()
    );
    check_expected(&inputs, &SUPPORTED_SMS);
}

/// `filetests/sm80/*.ptx`: instructions from sm_80 on (cp.async), compiled for sm_80 and later
/// only; the other driver tests, which run every filetest on sm_75 too, leave this folder alone.
#[test]
fn sm80_filetests_match_expected_sass() {
    check_folder("sm80", 80);
}

/// `filetests/sm90/*.ptx`: sm_90 instructions (elect.sync, mbarrier, the async-proxy fences),
/// compiled for sm_90 only.
#[test]
fn sm90_filetests_match_expected_sass() {
    check_folder("sm90", 90);
}

/// `filetests/sm90a/*.ptx`: sm_90a-only instructions (setmaxnreg), compiled for sm_90a.
#[test]
fn sm90a_filetests_match_expected_sass() {
    check_expected(
        &folder_inputs("sm90a"),
        &[ptxforge_sass::arch::Sm::accelerated(90)],
    );
}

/// Checks the filetests of `filetests/<folder>` on the architectures from `sm_<from>` on.
fn check_folder(folder: &str, from: u32) {
    let inputs = folder_inputs(folder);
    let sms: Vec<_> = SUPPORTED_SMS
        .into_iter()
        .filter(|sm| sm.num >= from)
        .collect();
    check_expected(&inputs, &sms);
}

/// The `(name, text)` of every filetest in `filetests/<folder>`, by name.
fn folder_inputs(folder: &str) -> Vec<(String, String)> {
    let dir = PathBuf::from(FILETEST_DIR).join(folder);
    let mut inputs: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("filetests/{folder}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no {folder} filetests");
    inputs
}

/// Compiles every input for every architecture of `sms` and compares (or, with PTXFORGE_BLESS,
/// rewrites) the expected SASS.
fn check_expected(inputs: &[(String, String)], sms: &[ptxforge_sass::arch::Sm]) {
    let bless = std::env::var_os("PTXFORGE_BLESS").is_some();
    let mut failures = Vec::new();
    for (name, src) in inputs {
        for &sm in sms {
            let out = compile_for(&src, name, sm);
            let listing = match sass_listing(&out) {
                Ok(l) => l,
                Err(e) => {
                    failures.push(format!("{name} {sm}: compile failed:\n{e}"));
                    continue;
                }
            };
            let path = expected_path(name, sm);
            if bless {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &listing).unwrap();
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(want) if want == listing => {}
                Ok(want) => failures.push(format!(
                    "{name} {sm}: SASS differs\n{}",
                    first_diff(&want, &listing)
                )),
                Err(_) => failures.push(format!(
                    "{name} {sm}: no expectation at {} (run with PTXFORGE_BLESS=1)",
                    path.display()
                )),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} filetest failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The first differing line, for a readable failure.
fn first_diff(want: &str, got: &str) -> String {
    for (n, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        if w != g {
            return format!(
                "  line {}: expected `{w}`\n  line {}:      got `{g}`",
                n + 1,
                n + 1
            );
        }
    }
    format!(
        "  lengths differ: expected {} lines, got {}",
        want.lines().count(),
        got.lines().count()
    )
}
