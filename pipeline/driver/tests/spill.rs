//! GPR spilling: spilled code is checked by the allocation verifier (value tracking) and, compiled
//! through the pipeline, by the hazard checker; budgets come from `--maxrregcount`, `.maxnreg`
//! and `.maxntid`/`.minnctapersm`.

mod common;

use common::{compile_for, filetest_inputs};
use ptxforge_pipeline::{compile_module, CompileOptions};
use ptxforge_sass::arch::{Sm, SUPPORTED_SMS};
use ptxforge_sass::regalloc::{assign_registers, fit_gprs, verify_allocation};

/// Spills `f` to fit `budget`, then allocates and verifies; whether anything was spilled, or why
/// it did not fit.
fn spill_and_verify(
    module: &ptxforge_ptx::ast::Module,
    f: &ptxforge_ptx::ast::Function,
    sm: Sm,
    budget: u32,
) -> Result<bool, String> {
    let mut k = ptxforge_lower::lower_function(module, f, sm).map_err(|e| format!("{e:?}"))?;
    ptxforge_lower::optimize(&mut k.func);
    ptxforge_sass::pred_pressure::fit_predicates(&mut k.func);
    // Calls of subroutines (recursion) through the convention's registers first: such code is
    // not spilled (`fit_gprs` fails where it does not fit).
    ptxforge_sass::subroutine::expand_calls(&mut k.func)?;
    let n = k.func.num_instrs();
    fit_gprs(&mut k.func, sm, budget).map_err(|file| format!("{file:?} did not fit"))?;
    let spilled = k.func.num_instrs() > n;
    assert_eq!(spilled, k.func.frame.spill_store_bytes > 0);
    let before = k.func.clone();
    assign_registers(&mut k.func, sm, budget).map_err(|e| e.to_string())?;
    assert_eq!(
        before.num_instrs(),
        k.func.num_instrs(),
        "allocation after fit_gprs spilled again"
    );
    verify_allocation(&before, &k.func).map_err(|e| format!("verifier: {e}"))?;
    ptxforge_sass::subroutine::finish_subroutines(&mut k.func, sm)?;
    assert!(
        k.func.reg_usage.gprs <= budget,
        "{} registers over a budget of {budget}",
        k.func.reg_usage.gprs
    );
    Ok(spilled)
}

/// Every filetest kernel on every architecture under budgets of 32 and 24 registers: where its
/// GPRs do not fit, values go to frame slots, and the allocation of the spilled code verifies and
/// keeps to the budget.
#[test]
fn every_filetest_kernel_spills_to_fit_small_budgets() {
    let (mut spilled, mut fitted, mut refused) = (0, 0, Vec::new());
    for (name, src) in filetest_inputs() {
        let module = ptxforge_ptx::parse_module(&src, &name).unwrap();
        for f in module.functions.iter().filter(|f| f.is_entry) {
            for sm in SUPPORTED_SMS {
                for budget in [32, 24] {
                    match spill_and_verify(&module, f, sm, budget) {
                        Ok(s) => {
                            fitted += 1;
                            spilled += s as usize;
                        }
                        Err(e) if e.starts_with("verifier") => {
                            panic!("{name}/{} {sm} budget {budget}: {e}", f.name)
                        }
                        Err(e) => refused.push(format!("{name}/{} {sm} {budget}: {e}", f.name)),
                    }
                }
            }
        }
    }
    println!("fitted {fitted}, of which spilled {spilled}; refused {refused:?}");
    assert!(spilled >= 25, "only {spilled} kernel runs spilled");
    assert!(
        refused.len() * 20 <= fitted,
        "{} refused: {refused:?}",
        refused.len()
    );
}

/// A kernel with more than 253 words live at once spills under the default budget of 255, and
/// the pipeline (hazard checker on) compiles it on every architecture.
#[test]
fn default_budget_spills_past_253_live_words() {
    let n = 280;
    let mut ptx = String::from(
        ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry wide(.param .u64 p)\n{\n",
    );
    ptx += &format!(".reg .b32 %r<{}>;\n.reg .b64 %rd<4>;\n", 2 * n + 2);
    ptx += "ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\n";
    for i in 0..n {
        ptx += &format!("ld.global.u32 %r{i}, [%rd2+{}];\n", 4 * i);
    }
    ptx += &format!("mov.u32 %r{n}, 0;\n");
    for i in 0..n {
        let (acc, next) = (n + i, n + i + 1);
        ptx += &format!("mad.lo.s32 %r{next}, %r{i}, %r{}, %r{acc};\n", n - 1 - i);
    }
    ptx += &format!("st.global.u32 [%rd2], %r{};\nret;\n}}\n", 2 * n);
    let module = ptxforge_ptx::parse_module(&ptx, "wide").unwrap();
    for sm in SUPPORTED_SMS {
        let spilled = spill_and_verify(&module, &module.functions[0], sm, 255);
        assert_eq!(spilled, Ok(true), "{sm}");
        let opts = CompileOptions {
            sm,
            check_hazards: true,
            ..CompileOptions::default()
        };
        let out = compile_module(&ptx, "wide.ptx", &opts);
        assert!(!out.failed(), "{sm}: {:?}", out.diagnostics);
        let k = &out.kernels[0];
        assert!(
            k.regs <= 255 && k.spill_stores > 0 && k.spill_loads > 0,
            "{sm}"
        );
        assert!(k.stack_frame >= k.spill_stores, "{sm}");
    }
}

/// `.maxnreg 32` and `.maxntid 128 .minnctapersm 8` hold the filetest's kernel to 32 and 64
/// registers, spilling (the directives' budgets reach the allocator through the pipeline), and so
/// does `--maxrregcount 32` without directives.
#[test]
fn directives_set_the_budget() {
    let (name, src) = filetest_inputs()
        .into_iter()
        .find(|(n, _)| n == "handwritten_spill")
        .unwrap();
    let occupancy = src.replace(".maxnreg 32", ".maxntid 128, 1, 1\n.minnctapersm 8");
    let free = src.replace(".maxnreg 32", "");
    for sm in SUPPORTED_SMS {
        for (text, budget) in [(&src, 32), (&occupancy, 64)] {
            let out = compile_for(text, &name, sm);
            assert!(!out.failed(), "{sm}: {:?}", out.diagnostics);
            let k = &out.kernels[0];
            assert!(k.regs <= budget, "{sm} {budget}: {} registers", k.regs);
            assert!(k.spill_stores > 0 && k.spill_loads > 0, "{sm} {budget}");
        }
        // Without the directives the same code fits without spilling.
        let out = compile_for(&free, &name, sm);
        assert!(out
            .kernels
            .iter()
            .all(|k| k.spill_stores == 0 && k.regs > 64));
        let opts = CompileOptions {
            sm,
            max_regs: Some(32),
            check_hazards: true,
            ..CompileOptions::default()
        };
        let out = compile_module(&free, "free.ptx", &opts);
        assert!(out
            .kernels
            .iter()
            .all(|k| k.error.is_none() && k.regs <= 32 && k.spill_stores > 0));
    }
}

/// The generated CUTLASS GEMMs (`benches/gen-ptx`, compiled by `scripts/gen-ptx.sh` into
/// `~/.cache/ptxforge/gen-ptx`) whose spill rounds once ran out: compiled for sm_90 under the
/// default budget every entry fits (spilling where it must), and the allocation verifies.
#[test]
fn generated_cutlass_gemms_always_fit() {
    let dir = std::path::PathBuf::from(std::env::var("HOME").unwrap_or_default())
        .join(".cache/ptxforge/gen-ptx");
    let path = dir.join("cutlass2_gemm_sm80.sm_80.ptx");
    let Ok(src) = std::fs::read_to_string(&path) else {
        println!("skipped: no {}", path.display());
        return;
    };
    let module = ptxforge_ptx::parse_module(&src, "cutlass2_gemm_sm80").unwrap();
    let sm = Sm::new(90);
    let mut entries = 0;
    for f in module.functions.iter().filter(|f| f.is_entry) {
        entries += 1;
        spill_and_verify(&module, f, sm, 255).unwrap_or_else(|e| panic!("{}: {e}", f.name));
    }
    assert!(entries > 0);
}

/// The last spill round spills every value it may: what is left fits the least budget (24
/// registers) at once, and the allocation of the spilled code verifies.
#[test]
fn the_last_round_spills_everything_and_fits() {
    let (name, src) = filetest_inputs()
        .into_iter()
        .find(|(n, _)| n == "handwritten_spill")
        .unwrap();
    let module = ptxforge_ptx::parse_module(&src, &name).unwrap();
    let f = module.functions.iter().find(|f| f.is_entry).unwrap();
    for sm in SUPPORTED_SMS {
        let mut k = ptxforge_lower::lower_function(&module, f, sm).unwrap();
        ptxforge_lower::optimize(&mut k.func);
        ptxforge_sass::pred_pressure::fit_predicates(&mut k.func);
        let files = ptxforge_sass::liveness::vreg_files(&k.func);
        let lr = ptxforge_sass::liveness::live_ranges(&k.func);
        let fresh = k.func.num_vregs;
        let last = ptxforge_sass::spill::ROUNDS - 1;
        assert!(ptxforge_sass::spill::spill_round(
            &mut k.func,
            sm,
            &lr,
            &files,
            21,
            last,
            fresh
        ));
        let before = k.func.clone();
        assign_registers(&mut k.func, sm, 24).unwrap_or_else(|e| panic!("{sm}: {e}"));
        assert_eq!(
            before.num_instrs(),
            k.func.num_instrs(),
            "{sm}: spilled again"
        );
        verify_allocation(&before, &k.func).unwrap_or_else(|e| panic!("{sm}: verifier: {e}"));
        assert!(
            k.func.reg_usage.gprs <= 24,
            "{sm}: {}",
            k.func.reg_usage.gprs
        );
    }
}
