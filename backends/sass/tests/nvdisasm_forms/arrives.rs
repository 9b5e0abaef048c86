//! ARRIVES.LDGSTSBAR.64 (`cp.async.mbarrier.arrive`), R2UR's predicate form and the A0T1 arrive
//! that ptxas pairs with `.TRANSCNT` (`arrives.rs`): sm_80 on, the counted forms sm_90; the
//! sm_80..89 mbarrier atomics ATOMS.ARRIVE.64 and ATOMS.POPC.INC.32 (`mbarrier80.rs`).

use ptxforge_sass::arch::Sm;
use ptxforge_sass::arrives::ArrivesCount;
use ptxforge_sass::ir::*;
use ptxforge_sass::syncs::{ArriveMode, SyncsOp};

pub fn arrives_forms(sm: Sm, v: &mut Vec<Instr>) {
    let ur = |i| Src::reg(Reg::ugpr(i, 1));
    let counts: &[ArrivesCount] = if sm.num >= 90 {
        &[ArrivesCount::ArvCnt, ArrivesCount::TransCnt]
    } else {
        &[ArrivesCount::Plain]
    };
    for &count in counts {
        for (base, off) in [
            (ur(4), Src::NONE),
            (Src::ZERO, Src::imm(0x8)),
            (ur(9), Src::imm(0x7ffff8)),
            (ur(4), Src::imm((-16i32) as u32)),
        ] {
            v.push(Instr::new(
                Opcode::Syncs(SyncsOp::Arrives(count)),
                &[],
                &[base, Src::NONE, off],
            ));
        }
    }
    for (p, u, r) in [(1, 4, 0), (0, 5, 12), (6, 62, 254)] {
        v.push(Instr::new(
            Opcode::R2urPred,
            &[Dst::Reg(Reg::ugpr(u, 1)), Dst::Reg(Reg::pred(p))],
            &[Src::reg(Reg::gpr(r))],
        ));
    }
    if sm.num < 90 {
        atoms_mbarrier_forms(v);
    }
    if sm.num >= 90 {
        v.push(Instr::new(
            Opcode::Syncs(SyncsOp::Arrive {
                mode: ArriveMode::A0T1,
                red: true,
                optout: false,
            }),
            &[Dst::None],
            &[ur(4), Src::ZERO, Src::NONE],
        ));
    }
}

/// ATOMS.ARRIVE.64 (with and without the old word) and ATOMS.POPC.INC.32 on a register or a
/// constant address, with and without an offset.
fn atoms_mbarrier_forms(v: &mut Vec<Instr>) {
    for op in [SyncsOp::AtomsArrive, SyncsOp::AtomsPopcInc] {
        for (base, off) in [
            (Src::reg(Reg::gpr(7)), Src::NONE),
            (Src::reg(Reg::gpr(12)), Src::imm(0x8)),
            (Src::ZERO, Src::imm(0x20)),
            (Src::reg(Reg::gpr(3)), Src::imm((-8i32) as u32)),
        ] {
            let dsts: &[Dst] = match (op, base.val) {
                (SyncsOp::AtomsArrive, SrcVal::Zero) => &[Dst::Reg(Reg::gpr64(4))],
                (SyncsOp::AtomsArrive, _) => &[Dst::Reg(Reg::gpr64(10))],
                _ => &[Dst::None],
            };
            v.push(Instr::new(Opcode::Syncs(op), dsts, &[base, Src::NONE, off]));
        }
        v.push(Instr::new(
            Opcode::Syncs(op),
            &[Dst::None],
            &[Src::reg(Reg::gpr(5)), Src::NONE, Src::imm(0x7ffff8)],
        ));
    }
}
