//! Register allocation is checked by value tracking on every filetest kernel and architecture.

mod common;

use common::filetest_inputs;
use ptxforge_sass::arch::SUPPORTED_SMS;

#[test]
fn every_read_finds_its_value_after_allocation() {
    let mut checked = 0;
    for (name, src) in filetest_inputs() {
        let module = ptxforge_ptx::parse_module(&src, &name).unwrap();
        for f in module.functions.iter().filter(|f| f.is_entry) {
            for sm in SUPPORTED_SMS {
                let mut k = ptxforge_lower::lower_function(&module, f, sm).unwrap();
                ptxforge_lower::optimize(&mut k.func);
                // Predicates moved into GPRs add instructions; the assignment is checked on the
                // virtual code it assigned (allocation's own call then finds nothing to move).
                ptxforge_sass::pred_pressure::fit_predicates(&mut k.func);
                // Calls of subroutines move their values through the convention's registers
                // first; the allocation is checked on that code, before each subroutine's frame.
                ptxforge_sass::subroutine::expand_calls(&mut k.func).unwrap();
                let before = k.func.clone();
                ptxforge_sass::regalloc::assign_registers(&mut k.func, sm, 255).unwrap();
                if let Err(e) = ptxforge_sass::regalloc::verify_allocation(&before, &k.func) {
                    panic!("{name}/{} {sm}: {e}", f.name);
                }
                ptxforge_sass::subroutine::finish_subroutines(&mut k.func, sm).unwrap();
                checked += 1;
            }
        }
    }
    assert!(checked >= 100, "{checked}");
}

/// The filetest with more live predicates than physical ones gets some kept in GPRs, and the
/// allocation after that fits and verifies (above); moving them is checked for what it computes
/// by the differential check over every filetest (`ptxforge-sim`).
#[test]
fn predicates_beyond_seven_move_to_gprs() {
    let (name, src) = filetest_inputs()
        .into_iter()
        .find(|(n, _)| n == "handwritten_pred_pressure")
        .unwrap();
    let module = ptxforge_ptx::parse_module(&src, &name).unwrap();
    let sm = ptxforge_sass::arch::Sm::new(75);
    let mut k = ptxforge_lower::lower_function(&module, &module.functions[0], sm).unwrap();
    ptxforge_lower::optimize(&mut k.func);
    let n = k.func.num_instrs();
    ptxforge_sass::pred_pressure::fit_predicates(&mut k.func);
    assert!(k.func.num_instrs() > n, "no predicate was moved");
    let again = k.func.clone();
    ptxforge_sass::pred_pressure::fit_predicates(&mut k.func);
    assert_eq!(
        again, k.func,
        "a second pass must find the predicates fitting"
    );
    ptxforge_sass::regalloc::allocate_registers(&mut k.func, sm, 255).unwrap();
    assert!(k.func.reg_usage.preds <= 7);
}

/// The verifier is not vacuous: redirecting one read to another live register is caught.
#[test]
fn verifier_catches_a_wrong_register() {
    let (name, src) = filetest_inputs()
        .into_iter()
        .find(|(n, _)| n == "vadd")
        .unwrap();
    let module = ptxforge_ptx::parse_module(&src, &name).unwrap();
    let sm = ptxforge_sass::arch::Sm::new(80);
    let mut k = ptxforge_lower::lower_function(&module, &module.functions[0], sm).unwrap();
    ptxforge_lower::optimize(&mut k.func);
    let before = k.func.clone();
    ptxforge_sass::regalloc::allocate_registers(&mut k.func, sm, 255).unwrap();
    let fadd = k
        .func
        .blocks
        .iter_mut()
        .flat_map(|b| b.instrs.iter_mut())
        .find(|i| matches!(i.op, ptxforge_sass::ir::Opcode::Fadd { .. }))
        .unwrap();
    let (a, b) = (fadd.srcs[0], fadd.srcs[1]);
    fadd.srcs[0] = b;
    fadd.srcs[1] = a;
    assert!(ptxforge_sass::regalloc::verify_allocation(&before, &k.func).is_err());
}
