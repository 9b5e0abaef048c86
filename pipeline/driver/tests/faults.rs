//! A fault in one kernel is reported as an internal error naming the kernel and the stage, and the
//! other kernels still compile.

mod common;

use common::filetest_inputs;
use ptxforge_pipeline::{compile_module, CompileOptions};

#[test]
fn a_panicking_stage_fails_only_its_kernel() {
    let (_, src) = filetest_inputs()
        .into_iter()
        .find(|(n, _)| n == "multi")
        .unwrap();
    for split_compile in [1, 3] {
        let opts = CompileOptions {
            sm: ptxforge_sass::arch::Sm::new(80),
            split_compile,
            fault_injection: Some(("scale".into(), "regalloc".into())),
            ..CompileOptions::default()
        };
        let out = compile_module(&src, "multi.ptx", &opts);
        assert!(out.failed());
        assert!(out.cubin.is_none(), "no output on error");
        let text: Vec<String> = out.diagnostics.iter().map(|d| d.to_string()).collect();
        assert_eq!(text, vec!["ptxas error   : internal error: fault injected for a test (kernel 'scale', stage regalloc)"]);
        let ok: Vec<&str> = out
            .kernels
            .iter()
            .filter(|k| k.error.is_none())
            .map(|k| k.name.as_str())
            .collect();
        assert_eq!(ok, vec!["fill", "copy"], "split {split_compile}");
        assert!(out
            .kernels
            .iter()
            .filter(|k| k.error.is_none())
            .all(|k| k.image.is_some()));
    }
}
