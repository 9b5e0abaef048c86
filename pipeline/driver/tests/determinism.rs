//! Determinism: the same module gives byte-identical cubins at any thread count and on every run.

mod common;

use common::{compile_with, filetest_inputs};
use ptxforge_sass::arch::SUPPORTED_SMS;

/// All filetests concatenated into one module would clash on `.version`; so each module is checked,
/// and `multi` (several kernels) is the case where ordering matters most.
#[test]
fn split_compile_1_and_4_give_identical_cubins() {
    let mut checked = 0;
    for (name, src) in filetest_inputs() {
        for sm in SUPPORTED_SMS {
            let one = compile_with(&src, &name, sm, 1).cubin;
            let four = compile_with(&src, &name, sm, 4).cubin;
            let again = compile_with(&src, &name, sm, 4).cubin;
            assert!(one.is_some(), "{name} {sm} did not compile");
            assert_eq!(one, four, "{name} {sm}: --split-compile 1 and 4 differ");
            assert_eq!(four, again, "{name} {sm}: two runs differ");
            checked += 1;
        }
    }
    assert!(checked >= 75);
}

/// A module with many kernels, where workers finish out of order.
#[test]
fn many_kernels_keep_definition_order() {
    let mut src = String::from(".version 8.0\n.target sm_75\n.address_size 64\n");
    for i in 0..40 {
        src.push_str(&format!(
            ".visible .entry k{i}(.param .u64 p)\n{{\n.reg .b32 %r<{n}>;\n.reg .b64 %rd<3>;\n\
             ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n",
            n = 4 + i
        ));
        for j in 0..(i % 7) {
            src.push_str(&format!("add.s32 %r1, %r1, {j};\n"));
        }
        src.push_str("st.global.u32 [%rd2], %r1;\nret;\n}\n");
    }
    for sm in SUPPORTED_SMS {
        let one = compile_with(&src, "many", sm, 1);
        let four = compile_with(&src, "many", sm, 4);
        let names: Vec<_> = four.kernels.iter().map(|k| k.name.clone()).collect();
        assert_eq!(names, (0..40).map(|i| format!("k{i}")).collect::<Vec<_>>());
        assert!(one.cubin.is_some(), "{sm}: {:?}", one.diagnostics);
        assert_eq!(
            one.cubin, four.cubin,
            "{sm}: thread count changed the cubin"
        );
    }
}

/// `--threads-min-section-size` batches small kernels into fewer messages, same cubin.
#[test]
fn min_section_size_batches_kernels() {
    let (_, src) = filetest_inputs()
        .into_iter()
        .find(|(n, _)| n == "multi")
        .unwrap();
    let sm = ptxforge_sass::arch::Sm::new(80);
    let mut opts = ptxforge_pipeline::CompileOptions {
        sm,
        split_compile: 2,
        ..Default::default()
    };
    let one_each = ptxforge_pipeline::compile_module(&src, "multi.ptx", &opts);
    opts.min_section_size = 1000;
    let batched = ptxforge_pipeline::compile_module(&src, "multi.ptx", &opts);
    assert_eq!(one_each.runtime.sections, 3);
    assert_eq!(batched.runtime.sections, 1);
    assert!(batched.runtime.tasks_run < one_each.runtime.tasks_run);
    assert_eq!(one_each.cubin, batched.cubin);
}
