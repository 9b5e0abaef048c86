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
    f.instrs().zip(block_of_instr).any(|(i, b)| match (i.op, i.guard.as_reg()) {
        (Opcode::Bra { target }, Some(p)) => target as usize <= b && varying[p.idx as usize],
        _ => false,
    })
}

fn varying_vregs(f: &Function) -> Vec<bool> {
    let mut varying = vec![false; f.num_vregs as usize];
    let mut changed = true;
    while changed {
        changed = false;
        for i in f.instrs() {
            let source = matches!(
                i.op,
                Opcode::S2r(SpecialReg::TidX | SpecialReg::TidY | SpecialReg::TidZ | SpecialReg::LaneId)
                    | Opcode::Ldg { .. }
                    | Opcode::Ld { .. }
                    | Opcode::Lds { .. }
            );
            let mut from_varying = source;
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
