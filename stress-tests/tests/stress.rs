//! Stress: many messages through capacity-1 mailboxes at every worker count (no deadlock, nothing
//! lost, panics contained), and a 600-kernel module compiled at several thread counts (same bytes).

use ptxforge_pipeline::{compile_module, CompileOptions};
use ptxforge_runtime::{Executor, ExecutorConfig, Pipeline};
use ptxforge_sass::arch::Sm;

#[test]
fn capacity_one_mailboxes_under_load() {
    for workers in [0, 1, 2, 3, 8] {
        for dynamic in [false, true] {
            let exec = Executor::new(ExecutorConfig {
                workers,
                dynamic_scheduling: dynamic,
            });
            let p = Pipeline::new(|_, _| u64::MAX)
                .stage("a", 1, |x: u64| x.wrapping_mul(3))
                .stage("b", 1, |x| {
                    if x % 9973 == 0 {
                        panic!("planted")
                    } else {
                        x + 1
                    }
                })
                .stage("c", 1, |x| x ^ 0x55);
            let n = 30_000u64;
            let (out, _) = p.run(&exec, (0..n).collect());
            assert_eq!(out.len() as u64, n);
            for (i, env) in out.iter().enumerate() {
                let x = (i as u64).wrapping_mul(3);
                let want = if x % 9973 == 0 {
                    u64::MAX ^ 0x55
                } else {
                    (x + 1) ^ 0x55
                };
                assert_eq!(
                    env.value, want,
                    "workers {workers} dynamic {dynamic} item {i}"
                );
            }
        }
    }
}

fn many_kernel_module(n: usize) -> String {
    let mut src = String::from(".version 8.0\n.target sm_75\n.address_size 64\n");
    for i in 0..n {
        src.push_str(&format!(
            ".visible .entry k{i}(.param .u64 p, .param .u32 n)\n{{\n.reg .pred %p<2>;\n.reg .b32 %r<6>;\n.reg .b64 %rd<5>;\n\
             ld.param.u64 %rd1, [p];\nld.param.u32 %r1, [n];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r2, %tid.x;\n\
             setp.ge.u32 %p1, %r2, %r1;\n@%p1 bra $L_end;\nmul.wide.u32 %rd3, %r2, 4;\nadd.s64 %rd4, %rd2, %rd3;\n\
             ld.global.u32 %r3, [%rd4];\nadd.s32 %r4, %r3, {i};\nst.global.u32 [%rd4], %r4;\n$L_end:\nret;\n}}\n"
        ));
    }
    src
}

#[test]
fn big_module_same_bytes_at_every_thread_count() {
    let src = many_kernel_module(600);
    for sm in [Sm::new(75), Sm::new(80), Sm::new(90)] {
        let compile = |split_compile, dynamic_scheduling| {
            let opts = CompileOptions {
                sm,
                split_compile,
                dynamic_scheduling,
                ..CompileOptions::default()
            };
            let out = compile_module(&src, "big.ptx", &opts);
            assert!(!out.failed(), "{:?}", out.diagnostics.first());
            out.cubin.unwrap()
        };
        let reference = compile(1, false);
        for (split, dynamic) in [(2, false), (2, true), (4, true), (8, false)] {
            assert!(
                compile(split, dynamic) == reference,
                "{sm}: split {split} dynamic {dynamic} differs"
            );
        }
    }
}
