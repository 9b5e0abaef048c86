//! BAR forms with a register barrier id or thread count (named barriers), and the special
//! register reads (S2R, CS2R, S2UR).

use ptxforge_sass::arch::Sm;
use ptxforge_sass::ir::*;

/// BAR with a barrier id or thread count in a register (named barriers of warp-specialized
/// kernels): register id with immediate count, immediate id with register count, ARV and SYNC.
pub fn named_barrier_forms(v: &mut Vec<Instr>) {
    for (mode, defer) in [
        (BarMode::Sync, true),
        (BarMode::Sync, false),
        (BarMode::Arrive, false),
    ] {
        let bar = Opcode::Warp(WarpOp::Bar {
            mode,
            defer,
            aligned: true,
        });
        v.push(Instr::new(
            bar,
            &[],
            &[Src::reg(Reg::gpr(4)), Src::imm(0x100), Src::TRUE],
        ));
        v.push(Instr::new(
            bar,
            &[],
            &[Src::imm(1), Src::reg(Reg::gpr(5)), Src::TRUE],
        ));
        v.push(Instr::new(
            bar,
            &[],
            &[Src::imm(15), Src::reg(Reg::gpr(9)), Src::TRUE],
        ));
        // A register id and count packed in one register.
        let packed = Src::reg(Reg::gpr(6));
        v.push(Instr::new(bar, &[], &[packed, packed, Src::TRUE]));
    }
}

/// S2R of the SM, warp and shared-size registers, CS2R (.32 and the pair) of the clocks and
/// global timers and the pair of SRZ (`%smid`, `%warpid`, `%nwarpid`, `%total_smem_size`, `%clock`, `%clock64`, ...).
pub fn special_reg_forms(sm: Sm, v: &mut Vec<Instr>) {
    use SpecialReg::*;
    for sr in [VirtCfg, VirtId, SmemSz, VirtualSmId] {
        v.push(Instr::new(Opcode::S2r(sr), &[Dst::Reg(Reg::gpr(7))], &[]));
    }
    if sm.num >= 90 {
        v.push(Instr::new(
            Opcode::S2r(CgaCtaId),
            &[Dst::Reg(Reg::gpr(7))],
            &[],
        ));
    }
    for sr in [ClockLo, ClockHi, GlobalTimerLo, GlobalTimerHi] {
        v.push(Instr::new(
            Opcode::Cs2r { sr, wide: false },
            &[Dst::Reg(Reg::gpr(9))],
            &[],
        ));
    }
    // Zero (SRZ): `CS2R R4, SRZ` zeroes a pair (`zero_pairs.rs`).
    for sr in [ClockLo, GlobalTimerLo, Zero] {
        v.push(Instr::new(
            Opcode::Cs2r { sr, wide: true },
            &[Dst::Reg(Reg::gpr64(4))],
            &[],
        ));
    }
    v.push(Instr::new(
        Opcode::S2ur(SmemSz),
        &[Dst::Reg(Reg::ugpr(4, 1))],
        &[],
    ));
}
