//! Calls of external functions (`vprintf`, `__assertfail`): `CALL.ABS.NOINC` through the
//! address in a `.nv.constant4` slot (relocated R_CUDA_64 to the undefined function symbol), with
//! ptxas's ABI as its cubins show it (learned from ptxas 13.5 and nvdisasm, sm_75..sm_90).
//!
//! ## The sequence
//! ```text
//! STL [R1+k], Rx              // each caller-saved GPR live across the call (ours)
//! LDC.64 R2, c[0x4][8*slot]   // the callee's address
//! LEPC R20                    // sm_75..89: this instruction's address, then + 0x40 ...
//! IADD3 R20, P0, R20, 0x40, RZ
//! IADD3.X R21, RZ, R21, RZ, P0, !PT   // ... = the address after the CALL
//! LEPC R20, <after the CALL>  // sm_90: the return address at once
//! CALL.ABS.NOINC R2
//! LDL Rx, [R1+k]              // restores
//! ```
//! Arguments go from R4 up (a 64-bit value in an aligned pair: `vprintf`'s format pointer in
//! R4:R5, its argument buffer in R6:R7), the result comes back in R4, the return address in
//! R20:R21, the stack pointer R1 must be set up. The callee may overwrite the caller-saved
//! registers R0, R2..R15, R20, R21 (ptxas keeps values across such a call in R16..R19 and R22
//! up), every predicate and the uniform registers below UR36 (ptxas moves the memory descriptor
//! to UR36 in a function that makes such a call): no predicate or uniform value may live across
//! the call ("not supported yet"), and the caller-saved GPRs live across it are saved in frame
//! slots around it. The emulator clobbers the same registers in its model of the call.

use crate::arch::Sm;
use crate::encode::{EResult, EncodeError, Word};
use crate::frame::{SlotKind, STACK_PTR_PHYS, STACK_TOP_CBUF};
use crate::ir::*;
use crate::subroutine::{abi_regs, bound, moves, slot_regs};

/// The GPRs an external callee may overwrite.
pub fn caller_saved(r: u32) -> bool {
    r == 0 || (2..16).contains(&r) || r == 20 || r == 21
}

/// The register pair that holds the callee's address.
const TARGET_REG: u32 = 2;
/// The return address pair.
const RET_REG: u32 = crate::subroutine::RET_ADDR_REG;

/// Moves the arguments of the call `i` into their ABI registers (the moves go to `out` before
/// it) and its results out of theirs (returned, to follow it).
pub(crate) fn expand(
    f: &mut Function,
    i: &mut Instr,
    out: &mut Vec<Instr>,
) -> Result<Vec<Instr>, String> {
    let args = slot_regs(&i.srcs);
    let comps: Vec<u8> = args.iter().map(|r| r.comps).collect();
    let regs = abi_regs(&comps).ok_or("a call with too many arguments")?;
    let mut srcs = [Src::NONE; 5];
    for (k, (arg, phys)) in args.iter().zip(regs).enumerate() {
        let a = bound(f, arg.comps, phys);
        moves(a, *arg, out);
        srcs[k] = Src::reg(a);
    }
    let rets: Vec<Reg> = i
        .dsts
        .iter()
        .filter_map(|d| match d {
            Dst::Reg(r) => Some(*r),
            Dst::None => None,
        })
        .collect();
    let comps: Vec<u8> = rets.iter().map(|r| r.comps).collect();
    let regs = abi_regs(&comps).ok_or("a call with too many results")?;
    let mut dsts = [Dst::None; 2];
    let mut back = Vec::new();
    for (k, (ret, phys)) in rets.iter().zip(regs).enumerate() {
        let r = bound(f, ret.comps, phys);
        dsts[k] = Dst::Reg(r);
        moves(*ret, r, &mut back);
    }
    i.srcs = srcs;
    i.dsts = dsts;
    Ok(back)
}

/// Keeps the predicates live across a call of an external function in GPRs (the callee may
/// overwrite every predicate): `pred_pressure`'s mirrors, written and read back around their
/// uses. Before register allocation.
pub(crate) fn predicates_across_calls_to_gprs(f: &mut Function) {
    let files = crate::liveness::vreg_files(f);
    let lr = crate::liveness::live_ranges_in(f, &files, |file| file == RegFile::Pred);
    let calls: Vec<u32> = f
        .instrs()
        .enumerate()
        .filter(|(_, i)| matches!(i.op, Opcode::CallAbs { .. }))
        .map(|(p, _)| p as u32)
        .collect();
    let mut out = vec![false; f.num_vregs as usize];
    let mut any = false;
    for (v, o) in out.iter_mut().enumerate() {
        if files[v] == RegFile::Pred
            && lr
                .of(v)
                .iter()
                .any(|&(s, e)| calls.iter().any(|&c| s <= 2 * c && e >= 2 * c + 2))
        {
            *o = true;
            any = true;
        }
    }
    if any {
        crate::pred_pressure::move_to_gprs(f, &out);
    }
}

/// The GPRs (bit per register) live at the end of each block, after register allocation.
fn live_out(f: &Function) -> Vec<[u64; 4]> {
    let n = f.blocks.len();
    let succ: Vec<Vec<usize>> = (0..n).map(|b| crate::regalloc::successors(f, b)).collect();
    let mut live_in = vec![[0u64; 4]; n];
    let mut out = vec![[0u64; 4]; n];
    loop {
        let mut changed = false;
        for b in (0..n).rev() {
            let mut o = [0u64; 4];
            for &s in &succ[b] {
                (0..4).for_each(|w| o[w] |= live_in[s][w]);
            }
            out[b] = o;
            let mut live = o;
            for i in f.blocks[b].instrs.iter().rev() {
                step_back(i, &mut live);
            }
            if live != live_in[b] {
                live_in[b] = live;
                changed = true;
            }
        }
        if !changed {
            return out;
        }
    }
}

/// Liveness before `i` from liveness after it.
fn step_back(i: &Instr, live: &mut [u64; 4]) {
    let unguarded = i.guard == Src::TRUE;
    let mut set = |r: &Reg, on: bool| {
        if r.file != RegFile::Gpr {
            return;
        }
        for c in 0..r.comps.max(1) as u32 {
            let x = (r.idx + c) as usize;
            if x < 255 {
                if on {
                    live[x / 64] |= 1 << (x % 64);
                } else {
                    live[x / 64] &= !(1 << (x % 64));
                }
            }
        }
    };
    if unguarded {
        i.visit_regs(|r, a| {
            if a == Access::Write {
                set(&r, false);
            }
        });
    }
    i.visit_regs(|r, a| {
        if a == Access::Read {
            set(&r, true);
        }
    });
}

/// After register allocation: gives every `CallAbs` its address load, return address, and the
/// saves and restores of the caller-saved GPRs live across it; sets the stack pointer up.
pub fn finish_extern_calls(f: &mut Function, sm: Sm) -> Result<(), String> {
    if !f.instrs().any(|i| matches!(i.op, Opcode::CallAbs { .. })) {
        return Ok(());
    }
    let outs = live_out(f);
    let mut slots: Vec<(u32, u32)> = Vec::new();
    let sp = Reg::gpr(STACK_PTR_PHYS);
    for b in 0..f.blocks.len() {
        let old = std::mem::take(&mut f.blocks[b].instrs);
        // Liveness after each instruction, walking back from the block's end.
        let mut after = vec![[0u64; 4]; old.len()];
        let mut live = outs[b];
        for (k, i) in old.iter().enumerate().rev() {
            after[k] = live;
            step_back(i, &mut live);
        }
        let mut out = Vec::with_capacity(old.len() + 16);
        for (k, mut i) in old.into_iter().enumerate() {
            let Opcode::CallAbs { slot, .. } = i.op else {
                out.push(i);
                continue;
            };
            let mut results = [0u64; 4];
            for d in &i.dsts {
                if let Dst::Reg(r) = d {
                    for c in 0..r.comps as u32 {
                        let x = (r.idx + c) as usize;
                        results[x / 64] |= 1 << (x % 64);
                    }
                }
            }
            let saved: Vec<u32> = (0..64u32)
                .filter(|&r| caller_saved(r))
                .filter(|&r| after[k][0] >> r & 1 == 1 && results[0] >> r & 1 == 0)
                .collect();
            let mut restores = Vec::new();
            for &r in &saved {
                let at = match slots.iter().find(|s| s.0 == r) {
                    Some(s) => s.1,
                    None => {
                        // Not a spill slot: ptxas keeps such values in callee-saved
                        // registers, and lists no spill there.
                        let kind = SlotKind::Local(format!(" saved R{r}"));
                        let at = f.frame.allocate(4, 4, kind);
                        slots.push((r, at));
                        at
                    }
                };
                out.push(Instr::new(
                    Opcode::Stl {
                        size: MemSize::B32,
                        offset: at as i32,
                    },
                    &[],
                    &[Src::reg(sp), Src::reg(Reg::gpr(r))],
                ));
                restores.push(Instr::new(
                    Opcode::Ldl {
                        size: MemSize::B32,
                        offset: at as i32,
                    },
                    &[Dst::Reg(Reg::gpr(r))],
                    &[Src::reg(sp)],
                ));
            }
            let target = Reg::gpr64(TARGET_REG);
            let linked = slot == crate::linked_call::LINKED_SLOT;
            if !linked {
                let offset = slot.checked_mul(8).ok_or("too many module variables")?;
                out.push(Instr::new(
                    Opcode::Ldc { wide: true },
                    &[Dst::Reg(target)],
                    &[Src::cbuf(4, offset)],
                ));
            }
            let ra = Reg::gpr64(RET_REG);
            // Physical registers: the pair's halves by number.
            let (lo, hi) = (Reg::gpr(RET_REG), Reg::gpr(RET_REG + 1));
            if sm.num >= 90 {
                out.push(Instr::new(Opcode::Lepc, &[Dst::Reg(ra)], &[Src::imm(0x20)]));
            } else {
                out.push(Instr::new(Opcode::Lepc, &[Dst::Reg(ra)], &[]));
                out.push(Instr::new(
                    Opcode::Iadd3 { x: false },
                    &[Dst::Reg(lo), Dst::Reg(Reg::pred(0))],
                    &[Src::reg(lo), Src::imm(0x40), Src::ZERO],
                ));
                out.push(Instr::new(
                    Opcode::Iadd3 { x: true },
                    &[Dst::Reg(hi), Dst::None],
                    &[
                        Src::ZERO,
                        Src::reg(hi),
                        Src::ZERO,
                        Src::reg(Reg::pred(0)),
                        Src::TRUE.negated(),
                    ],
                ));
            }
            // s1: the return address, read by the callee (the CALL waits for it to land).
            i.srcs = [
                if linked { Src::NONE } else { Src::reg(target) },
                Src::reg(ra),
                Src::NONE,
                Src::NONE,
                Src::NONE,
            ];
            out.push(i);
            out.append(&mut restores);
        }
        f.blocks[b].instrs = out;
    }
    set_up_stack(f, sm);
    Ok(())
}

/// The callee needs the stack pointer: a function without a frame gets ptxas's prologue
/// (`MOV R1, c[0x0][0x28]`, LDC on sm_90), and `IADD3 R1, R1, -size` when the saves took slots.
fn set_up_stack(f: &mut Function, sm: Sm) {
    if f.frame.stack_ptr.is_some() {
        crate::frame::resize_prologue(f);
        return;
    }
    let sp = Reg::gpr(STACK_PTR_PHYS);
    let load = if sm.num >= 90 {
        Opcode::Ldc { wide: false }
    } else {
        Opcode::Mov
    };
    let mut prologue = vec![Instr::new(
        load,
        &[Dst::Reg(sp)],
        &[Src::cbuf(0, STACK_TOP_CBUF)],
    )];
    let size = f.frame.size();
    if size > 0 {
        prologue.push(Instr::new(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(sp), Dst::None],
            &[Src::reg(sp), Src::imm(size.wrapping_neg()), Src::ZERO],
        ));
    }
    f.blocks[0].instrs.splice(0..0, prologue);
}

/// `CALL.ABS.NOINC s0` and `LEPC d0` (sm_90: with the return offset in s0).
pub(crate) fn encode_extern_call(sm: Sm, w: &mut Word, i: &Instr) -> EResult<()> {
    match i.op {
        Opcode::CallAbs { slot, .. } if slot == crate::linked_call::LINKED_SLOT => {
            crate::linked_call::encode_linked_call(w);
        }
        Opcode::CallAbs { .. } => {
            let Some(r) = i.srcs[0].as_reg() else {
                return Err(EncodeError("CALL.ABS without its target register".into()));
            };
            w.set(0, 12, 0x343);
            w.set(24, 8, r.idx as u64);
            w.set(86, 1, 1);
            w.set(87, 3, 7);
        }
        _ => {
            let Dst::Reg(d) = i.dsts[0] else {
                return Err(EncodeError("LEPC without a destination".into()));
            };
            w.set(16, 8, d.idx as u64);
            match i.srcs[0].val {
                SrcVal::Imm(to) if sm.num >= 90 => {
                    // The offset in bytes from the next instruction at 24.. (as ptxas: 0x10).
                    w.set(0, 12, 0x94e);
                    w.set(24, 32, (to as i64 - 16) as u32 as u64);
                }
                _ => w.set(0, 12, 0x34e),
            }
        }
    }
    Ok(())
}

/// As nvdisasm prints them (`pc`: the instruction's offset, for sm_90's LEPC target).
pub(crate) fn print_extern_call(i: &Instr, pc: u32) -> String {
    match (i.op, i.dsts[0], i.srcs[0].val) {
        (Opcode::CallAbs { slot, .. }, _, _) if slot == crate::linked_call::LINKED_SLOT => {
            "CALL.ABS.NOINC 0x0".into()
        }
        (Opcode::CallAbs { .. }, _, _) => {
            let r = i.srcs[0].as_reg().map_or(TARGET_REG, |r| r.idx);
            format!("CALL.ABS.NOINC R{r}")
        }
        (_, Dst::Reg(d), SrcVal::Imm(to)) => format!("LEPC R{}, {:#x}", d.idx, pc + to),
        (_, Dst::Reg(d), _) => format!("LEPC R{}", d.idx),
        _ => "LEPC RZ".into(),
    }
}
