//! Corpus modules that compile since the spill rounds go deeper and FP8 conversions and sm_90's
//! fp8 `mma` rewrite exist: compiled at their own target with the hazard checker on, every kernel
//! decoded by nvdisasm to exactly our printer's text; the spilled kernels' allocations pass the
//! allocation verifier. Prints `skipped: ...` without the corpus or nvdisasm.

mod common;

use std::path::{Path, PathBuf};

use common::compile_for;
use ptxforge_sass::arch::Sm;
use ptxforge_sass::nvtools;
use ptxforge_sass::regalloc::{allocate_registers, fit_gprs, verify_allocation};

/// The modules (under ../shared/corpus/cutlass) and the targets they are checked at.
const MODULES: &[(&str, &[&str])] = &[
    // Ran out of spill rounds (out of Gpr registers) at sm_80.
    ("12_gemm_bias_relu__gemm_bias_relu.sm_80.ptx", &["sm_80"]),
    (
        "13_two_tensor_op_fusion__fused_two_convs_f16_sm75_shmem.sm_80.ptx",
        &["sm_80"],
    ),
    (
        "16_ampere_tensorop_conv2dfprop__ampere_tensorop_conv2dfprop.sm_80.ptx",
        &["sm_80"],
    ),
    ("22_quaternion_conv__quaternion_conv.sm_80.ptx", &["sm_80"]),
    (
        "26_ampere_wgrad_mainloop_fusion__ampere_wgrad_mainloop_fusion.sm_80.ptx",
        &["sm_86"],
    ),
    ("38_syr2k_grouped__syr2k_grouped.sm_80.ptx", &["sm_89"]),
    // FP8 conversions (sm_89), and fp8 mma rewritten for sm_90.
    (
        "58_ada_fp8_gemm__ada_fp8_gemm.sm_89.ptx",
        &["sm_89", "sm_90"],
    ),
    (
        "64_ada_fp8_gemm_grouped__ada_fp8_gemm_grouped.sm_90a.ptx",
        &["sm_90a"],
    ),
];

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/cutlass")
}

/// Our printer's instruction texts, in order, from a kernel's `/*addr*/ text` listing.
fn printed_instrs(listing: &str) -> Vec<String> {
    listing
        .lines()
        .filter_map(ptxforge_sass::oracle::normalise)
        .collect()
}

/// Lowers and spills every entry of `module` for `sm` under the default budget, allocates and
/// runs the allocation verifier; returns how many entries spilled.
fn verify_spilled(module: &ptxforge_ptx::ast::Module, sm: Sm) -> usize {
    let mut spilled = 0;
    for f in module.functions.iter().filter(|f| f.is_entry) {
        let mut k = ptxforge_lower::lower_function(module, f, sm).expect("lowers");
        ptxforge_lower::optimize(&mut k.func);
        ptxforge_sass::pred_pressure::fit_predicates(&mut k.func);
        fit_gprs(&mut k.func, sm, 255).unwrap_or_else(|file| panic!("{}: {file:?}", f.name));
        if k.func.frame.spill_store_bytes == 0 {
            continue;
        }
        spilled += 1;
        let before = k.func.clone();
        allocate_registers(&mut k.func, sm, 255).unwrap();
        verify_allocation(&before, &k.func).unwrap_or_else(|e| panic!("{}: verifier: {e}", f.name));
    }
    spilled
}

#[test]
fn fixed_corpus_modules_compile_and_decode() {
    let dir = corpus_dir();
    if !dir.is_dir() || nvtools::tool("nvdisasm").is_none() {
        println!("skipped: no corpus at {} or no nvdisasm", dir.display());
        return;
    }
    let mut spilled = 0;
    for (file, targets) in MODULES {
        let src = std::fs::read_to_string(dir.join(file)).unwrap();
        for target in *targets {
            let sm: Sm = target.parse().unwrap();
            let src = src.replacen(".target sm_80\n", &format!(".target {target}\n"), 1);
            let src = src.replacen(".target sm_89\n", &format!(".target {target}\n"), 1);
            let out = compile_for(&src, file, sm);
            assert!(!out.failed(), "{file} {sm}: {:?}", out.diagnostics);
            for k in &out.kernels {
                let image = k.image.as_ref().expect("compiled kernel has an image");
                let ours = printed_instrs(k.sass_text.as_deref().unwrap());
                let theirs = ptxforge_sass::oracle::nvdisasm_raw(sm, &image.code)
                    .expect("nvdisasm ran")
                    .unwrap_or_else(|e| panic!("{file} {sm}: nvdisasm rejected our code: {e}"));
                let first = ours.iter().zip(&theirs).position(|(a, b)| a != b);
                assert!(
                    first.is_none() && ours.len() == theirs.len(),
                    "{file}/{} {sm}: instr {first:?}: ours `{:?}` nvdisasm `{:?}`",
                    k.name,
                    first.map(|n| &ours[n]),
                    first.map(|n| &theirs[n])
                );
            }
            let module = ptxforge_ptx::parse_module(&src, file).unwrap();
            spilled += verify_spilled(&module, sm);
        }
    }
    // Each of the six modules that ran out of rounds has a kernel that spills.
    assert!(spilled >= 6, "only {spilled} kernels spilled");
}

/// A kernel whose pressure is just over the file (quaternion conv: 9,597 f32 values, ptxas uses
/// 255 registers and a 32-byte frame) spills a few values, not all: the spill rounds once lowered
/// their limit each time the scan failed on the ranges' holes, down to spilling every value (10
/// registers, a 42,912-byte frame, and an ANNOTATIONS record too long for its 16-bit size).
#[test]
fn pressure_just_over_the_file_spills_a_few_values() {
    let file = "22_quaternion_conv__quaternion_conv.sm_80.ptx";
    let Ok(src) = std::fs::read_to_string(corpus_dir().join(file)) else {
        println!("skipped: no corpus at {}", corpus_dir().display());
        return;
    };
    let out = compile_for(&src, file, Sm::new(80));
    assert!(!out.failed(), "{:?}", out.diagnostics);
    let image = out.kernels[0].image.as_ref().expect("compiled");
    assert!(image.num_gprs >= 200, "{} registers", image.num_gprs);
    assert!(image.frame_size <= 2048, "{}-byte frame", image.frame_size);
}
