//! A small divergence analysis: which virtual registers may differ between the threads of a warp.
//!
//! Thread-varying sources are `%tid`, `%laneid` and loads; everything computed from them varies.
//! ptxas records a CRS stack (EIATTR_CRS_STACK_SIZE) for kernels whose loops branch back on a
//! thread-varying condition, so lowering reports that fact for the cubin writer.

use ptxforge_sass::ir::*;

/// Whether any conditional backward branch depends on a thread-varying predicate.
pub fn has_divergent_backward_branch(f: &Function) -> bool {
    let varying = varying_vregs(f);
    let mut block_of_instr = Vec::new();
    for (b, block) in f.blocks.iter().enumerate() {
        block_of_instr.extend(std::iter::repeat(b).take(block.instrs.len()));
    }
    f.instrs()
        .zip(block_of_instr)
        .any(|(i, b)| match (i.op, i.guard.as_reg()) {
            (Opcode::Bra { target }, Some(p)) => target as usize <= b && varying[p.idx as usize],
            _ => false,
        })
}

/// The CRS-stack rule's sources: thread and lane ids, and loads.
fn varying_vregs(f: &Function) -> Vec<bool> {
    varying_from(f, |i| {
        matches!(
            i.op,
            Opcode::S2r(
                SpecialReg::TidX | SpecialReg::TidY | SpecialReg::TidZ | SpecialReg::LaneId
            ) | Opcode::Ldg { .. }
                | Opcode::Ld { .. }
                | Opcode::Lds { .. }
                | Opcode::Ldsm { .. }
                | Opcode::Ldl { .. }
        )
    })
}

/// Virtual registers that may differ between lanes: the results of instructions `is_source` names,
/// and everything computed from them (a fixpoint over the instructions, loops included).
pub fn varying_from(f: &Function, is_source: impl Fn(&Instr) -> bool) -> Vec<bool> {
    let mut varying = vec![false; f.num_vregs as usize];
    let mut changed = true;
    while changed {
        changed = false;
        for i in f.instrs() {
            let mut from_varying = is_source(i);
            i.visit_regs(|r, a| from_varying |= a == Access::Read && varying[r.idx as usize]);
            if !from_varying {
                continue;
            }
            for d in i.dsts.iter().filter_map(Dst::as_reg) {
                if !varying[d.idx as usize] {
                    varying[d.idx as usize] = true;
                    changed = true;
                }
            }
        }
    }
    varying
}
