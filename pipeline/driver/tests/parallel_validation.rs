//! The driver's parse stage (sections parsed and functions validated in chunks on the runtime's
//! workers) gives exactly the serial `parse_module`: the same module, or the same diagnostics in
//! the same order, on the conformance suite (mostly invalid modules), the filetests, and modules
//! of many functions cut at every chunk size.

use std::path::{Path, PathBuf};

use ptxforge_pipeline::actors::parse_in_sections;
use ptxforge_runtime::{Executor, ExecutorConfig};

fn ptx_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    v.sort();
    v
}

fn assert_matches_serial(exec: &Executor, src: &str, name: &str, min_sections: &[usize]) {
    let serial = ptxforge_ptx::parse_module(src, name);
    for &min in min_sections {
        // The driver checks the debug information later, as ptxas (see `debug_information_errors`).
        let parallel = parse_in_sections(exec, src, name, min)
            .and_then(|m| ptxforge_ptx::debug_information_errors(src, name, m));
        match (&serial, &parallel) {
            (Ok(a), Ok(b)) => assert!(
                a == b,
                "{name}: module differs (chunks of >= {min} statements)"
            ),
            (Err(a), Err(b)) => assert_eq!(
                a, b,
                "{name}: diagnostics differ (chunks of >= {min} statements)"
            ),
            _ => panic!(
                "{name}: serial {:?} but parallel {:?} (chunks of >= {min})",
                serial.as_ref().err(),
                parallel.as_ref().err()
            ),
        }
    }
}

#[test]
fn conformance_cases_and_filetests_validate_alike_in_parallel() {
    let exec = Executor::new(ExecutorConfig {
        workers: 3,
        dynamic_scheduling: true,
    });
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = ptx_files(&root.join("../ptx/tests/conformance"));
    let cases = files.len();
    files.extend(ptx_files(&root.join("tests/filetests")));
    assert!(
        cases >= 200 && files.len() > cases,
        "{cases} conformance cases, {} files",
        files.len()
    );
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        assert_matches_serial(&exec, &src, &path.display().to_string(), &[1, usize::MAX]);
    }
}

/// Many functions, some with errors (an undeclared register, an unknown label, a bad type), so
/// each chunk holds findings and their order across chunks matters.
#[test]
fn many_functions_with_errors_keep_ptxas_order_at_every_chunk_size() {
    let mut src = String::from(".version 8.0\n.target sm_80\n.address_size 64\n");
    for k in 0..40 {
        src.push_str(&format!(
            ".visible .entry k{k}(.param .u64 p)\n{{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
        ));
        src.push_str("ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n");
        match k % 5 {
            1 => src.push_str("add.s32 %r9, %r1, 1;\n"),
            2 => src.push_str("bra.uni L_missing;\n"),
            3 => src.push_str("add.f32 %r2, %r1, %r1;\n"),
            _ => src.push_str("add.s32 %r2, %r1, 1;\n"),
        }
        src.push_str("st.global.u32 [%rd1], %r1;\nret;\n}\n");
    }
    let exec = Executor::new(ExecutorConfig {
        workers: 4,
        dynamic_scheduling: true,
    });
    let serial = ptxforge_ptx::parse_module(&src, "many.ptx");
    assert!(
        serial.as_ref().is_err_and(|d| d.len() > 20),
        "the module should hold many errors"
    );
    assert_matches_serial(&exec, &src, "many.ptx", &[1, 3, 7, 20, 100, usize::MAX]);
    let valid = src
        .replace("%r9", "%r2")
        .replace("bra.uni L_missing", "bar.sync 0")
        .replace("add.f32", "add.s32");
    assert!(ptxforge_ptx::parse_module(&valid, "valid.ptx").is_ok());
    assert_matches_serial(&exec, &valid, "valid.ptx", &[1, 5, usize::MAX]);
}
