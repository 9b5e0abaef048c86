//! Subroutines: device functions kept as code of their own (the recursive ones), called with
//! `CALL.REL.NOINC` and left with `RET.REL.NODEC R20`, laid out after the entry's code in its
//! `.text` section as ptxas lays them out.
//!
//! ## The convention
//! ptxas's ABI registers: arguments from R4 up (a 64-bit value in an aligned pair), results the
//! same from R4, the return address in R20 (R21 = 0; `MOV R20, <return offset>` before the CALL),
//! the stack pointer R1 growing down, the frame in local memory. Unlike ptxas's ABI, a subroutine
//! saves every GPR it writes except its results (restoring R1 by arithmetic), so a caller may
//! keep any value in any GPR across a call. No predicate and no uniform value may live across a
//! call ("not supported yet"), except uniform values that every writer in a subroutine loads
//! from the same constant (the global-memory descriptor, the same in every function).
//!
//! ## The stages
//! Lowering emits `Call`, `Ret` and `SubArgs` whose slots hold the values' own virtual registers,
//! so the optimizer sees plain reads and writes. [`expand_calls`] (before register allocation)
//! moves each value through a register bound to its ABI register (`Function::fixed`);
//! [`finish_subroutines`] (after) removes `SubArgs`, gives each subroutine its save and restore
//! code and points each `RET` at R20.

use std::collections::BTreeSet;

use crate::arch::Sm;
use crate::encode::{EResult, EncodeError, Word};
use crate::frame::STACK_TOP_CBUF;
use crate::ir::*;

/// A subroutine of a function: its name (the PTX function's) and where its code starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subroutine {
    pub name: String,
    /// Its first block.
    pub block: u32,
    /// Bytes its prologue takes off R1 (the registers it saves), set by [`finish_subroutines`].
    pub frame_size: u32,
    /// Bytes of the registers it saves.
    pub saved_bytes: u32,
}

/// The first argument and result register.
pub const FIRST_ARG_REG: u32 = 4;
/// The register pair that holds the return address.
pub const RET_ADDR_REG: u32 = 20;
/// Argument (or result) registers end below the return address.
const ARG_REGS_END: u32 = RET_ADDR_REG;

/// The ABI register of each value of `comps` registers, in order.
pub(crate) fn abi_regs(comps: &[u8]) -> Option<Vec<u32>> {
    let mut next = FIRST_ARG_REG;
    let mut out = Vec::with_capacity(comps.len());
    for &c in comps {
        let c = c.max(1) as u32;
        next = next.div_ceil(c) * c;
        out.push(next);
        next += c;
    }
    (next <= ARG_REGS_END).then_some(out)
}

/// The registers in the value slots of `slots`.
pub(crate) fn slot_regs(slots: &[Src]) -> Vec<Reg> {
    slots.iter().filter_map(|s| s.as_reg()).collect()
}

/// A fresh register of `comps` bound to `phys`, and the moves `to <- from` part by part.
pub(crate) fn bound(f: &mut Function, comps: u8, phys: u32) -> Reg {
    let r = f.new_vreg(RegFile::Gpr, comps);
    f.fixed.push((r.idx, phys));
    r
}

pub(crate) fn moves(to: Reg, from: Reg, out: &mut Vec<Instr>) {
    for k in 0..to.comps {
        out.push(Instr::new(
            Opcode::Mov,
            &[Dst::Reg(to.part(k))],
            &[Src::reg(from.part(k))],
        ));
    }
}

/// Moves every call's arguments and results, each subroutine's arguments and each return's
/// results through their ABI registers; checks that no predicate or uniform value lives across
/// a call. Nothing to do in a function that makes no call.
pub fn expand_calls(f: &mut Function) -> Result<(), String> {
    // Expanded already (registers bound), or nothing to expand.
    if !f.fixed.is_empty()
        || !f.instrs().any(|i| {
            matches!(
                i.op,
                Opcode::Call { .. } | Opcode::CallAbs { .. } | Opcode::SubArgs
            )
        })
    {
        return Ok(());
    }
    calls_end_blocks(f)?;
    crate::extern_call::predicates_across_calls_to_gprs(f);
    for b in 0..f.blocks.len() {
        let old = std::mem::take(&mut f.blocks[b].instrs);
        let mut out = Vec::with_capacity(old.len() + 8);
        let mut arrived: Vec<(Reg, Reg)> = Vec::new();
        let mut after_args: Vec<Instr> = Vec::new();
        for mut i in old {
            if i.op != Opcode::SubArgs && !after_args.is_empty() {
                out.append(&mut after_args);
            }
            match i.op {
                Opcode::CallAbs { .. } => {
                    let mut back = crate::extern_call::expand(f, &mut i, &mut out)?;
                    out.push(i);
                    out.append(&mut back);
                }
                Opcode::SubArgs => {
                    for d in 0..2 {
                        let Dst::Reg(v) = i.dsts[d] else { continue };
                        arrived.push((v, v));
                        let comps: Vec<u8> = arrived.iter().map(|(v, _)| v.comps).collect();
                        let regs = abi_regs(&comps).ok_or("too many arguments")?;
                        let a = bound(f, v.comps, *regs.last().expect("one at least"));
                        i.dsts[d] = Dst::Reg(a);
                        moves(v, a, &mut after_args);
                    }
                    out.push(i);
                }
                Opcode::Call { .. } => {
                    let args = slot_regs(&i.srcs[..4]);
                    let rets: Vec<Reg> = i
                        .dsts
                        .iter()
                        .filter_map(|d| match d {
                            Dst::Reg(r) => Some(*r),
                            Dst::None => None,
                        })
                        .collect();
                    let comps: Vec<u8> = args.iter().map(|r| r.comps).collect();
                    let regs = abi_regs(&comps).ok_or("a call with too many arguments")?;
                    let mut srcs = [Src::NONE; 5];
                    for (k, (arg, phys)) in args.iter().zip(regs).enumerate() {
                        let a = bound(f, arg.comps, phys);
                        moves(a, *arg, &mut out);
                        srcs[k] = Src::reg(a);
                    }
                    let ra = bound(f, 2, RET_ADDR_REG);
                    out.push(Instr::new(
                        Opcode::RetAddr {
                            block: b as u32 + 1,
                        },
                        &[Dst::Reg(ra.part(0))],
                        &[],
                    ));
                    out.push(Instr::new(
                        Opcode::Mov,
                        &[Dst::Reg(ra.part(1))],
                        &[Src::ZERO],
                    ));
                    srcs[4] = Src::reg(ra);
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
                    out.push(i);
                    if !back.is_empty() {
                        let next = f
                            .blocks
                            .get_mut(b + 1)
                            .ok_or("a call at the end of the code")?;
                        next.instrs.splice(0..0, back);
                    }
                }
                Opcode::Ret => {
                    let vals = slot_regs(&i.srcs[1..]);
                    let comps: Vec<u8> = vals.iter().map(|r| r.comps).collect();
                    let regs = abi_regs(&comps).ok_or("too many results")?;
                    let mut srcs = [Src::NONE; 5];
                    for (k, (val, phys)) in vals.iter().zip(regs).enumerate() {
                        let r = bound(f, val.comps, phys);
                        moves(r, *val, &mut out);
                        srcs[k + 1] = Src::reg(r);
                    }
                    i.srcs = srcs;
                    out.push(i);
                }
                _ => out.push(i),
            }
        }
        out.append(&mut after_args);
        f.blocks[b].instrs = out;
    }
    check_live_across_calls(f)
}

/// Makes each `Call` its block's last instruction again: a pass may have put instructions after
/// it (loop-invariant code hoisted to the end of the block before a loop), which the return,
/// to the next block, would skip. They move to the start of the next block; a loop header there
/// runs them again on every trip, which computes the same pure values.
fn calls_end_blocks(f: &mut Function) -> Result<(), String> {
    for b in 0..f.blocks.len() {
        let Some(at) = f.blocks[b]
            .instrs
            .iter()
            .position(|i| matches!(i.op, Opcode::Call { .. }))
        else {
            continue;
        };
        let rest: Vec<Instr> = f.blocks[b].instrs.drain(at + 1..).collect();
        if rest.is_empty() {
            continue;
        }
        let next = f
            .blocks
            .get_mut(b + 1)
            .ok_or("a call at the end of the code")?;
        next.instrs.splice(0..0, rest);
    }
    Ok(())
}

/// The first block of the subroutines' code (all blocks from there on are theirs).
fn subroutine_code_start(f: &Function) -> usize {
    f.subroutines
        .iter()
        .map(|s| s.block as usize)
        .min()
        .unwrap_or(f.blocks.len())
}

/// No predicate lives across a call, and no uniform value unless every uniform write in the
/// subroutines loads that same constant (`ULDC` of one cbuf word) as the value.
fn check_live_across_calls(f: &Function) -> Result<(), String> {
    let files = crate::liveness::vreg_files(f);
    let lr = crate::liveness::live_ranges_in(f, &files, |file| file != RegFile::Gpr);
    let start = subroutine_code_start(f);
    let mut defs: Vec<Option<(Opcode, Src)>> = vec![None; f.num_vregs as usize];
    let mut sub_uniform_writes = BTreeSet::new();
    let mut calls = Vec::new();
    let mut extern_calls = Vec::new();
    let mut p = 0u32;
    for (b, block) in f.blocks.iter().enumerate() {
        for i in &block.instrs {
            if let Opcode::Call { .. } = i.op {
                calls.push(p);
            }
            if let Opcode::CallAbs { .. } = i.op {
                calls.push(p);
                extern_calls.push(p);
            }
            for d in &i.dsts {
                let Dst::Reg(r) = d else { continue };
                if matches!(r.file, RegFile::UGpr | RegFile::UPred) {
                    let what = format!("{:?} {:?}", i.op, i.srcs[0]);
                    defs[r.idx as usize] = Some((i.op, i.srcs[0]));
                    if b >= start {
                        sub_uniform_writes.insert(what);
                    }
                }
            }
            p += 1;
        }
    }
    let same_everywhere = |v: usize| match defs[v] {
        Some((op @ Opcode::Uldc { .. }, s)) => {
            sub_uniform_writes.len() <= 1
                && sub_uniform_writes
                    .iter()
                    .all(|w| *w == format!("{op:?} {s:?}"))
        }
        _ => false,
    };
    for v in 0..f.num_vregs as usize {
        let file = files[v];
        if file == RegFile::Gpr {
            continue;
        }
        let across = lr
            .of(v)
            .iter()
            .any(|&(s, e)| calls.iter().any(|&c| s <= 2 * c && e >= 2 * c + 2));
        if !across {
            continue;
        }
        let across_extern = lr
            .of(v)
            .iter()
            .any(|&(s, e)| extern_calls.iter().any(|&c| s <= 2 * c && e >= 2 * c + 2));
        if file == RegFile::UGpr && same_everywhere(v) && !across_extern {
            continue;
        }
        return Err(format!(
            "a {} value live across a call of a subroutine or an external function",
            match file {
                RegFile::Pred => "predicate",
                _ => "uniform",
            }
        ));
    }
    Ok(())
}

/// After register allocation: removes `SubArgs`, sets up the entry's stack pointer, gives each
/// subroutine its prologue (`IADD3 R1, R1, -size` and an `STL` per register it writes) and each
/// `RET` the restores before it and R20 as its operand.
pub fn finish_subroutines(f: &mut Function, sm: Sm) -> Result<(), String> {
    if f.fixed.is_empty() {
        return Ok(());
    }
    // The moves to and from the convention's registers that allocation made `MOV Rx, Rx`.
    let self_move = |i: &Instr| {
        i.op == Opcode::Mov
            && i.guard == Src::TRUE
            && matches!((i.dsts[0], i.srcs[0].as_reg()), (Dst::Reg(d), Some(s)) if d == s && i.srcs[0] == Src::reg(s))
    };
    for b in &mut f.blocks {
        b.instrs
            .retain(|i| i.op != Opcode::SubArgs && !self_move(i));
    }
    crate::extern_call::finish_extern_calls(f, sm)?;
    if f.subroutines.is_empty() {
        return Ok(());
    }
    let start = subroutine_code_start(f);
    let sp = Reg::gpr(crate::frame::STACK_PTR_PHYS);
    let mut bounds: Vec<usize> = f.subroutines.iter().map(|s| s.block as usize).collect();
    bounds.sort_unstable();
    bounds.push(f.blocks.len());
    for block in &f.blocks[start..] {
        for i in &block.instrs {
            let mut uses_sp = false;
            i.visit_regs(|r, _| uses_sp |= r.file == RegFile::Gpr && r.idx == sp.idx);
            if uses_sp {
                return Err("local memory or spilled registers in a subroutine".into());
            }
        }
    }
    for k in 0..f.subroutines.len() {
        let lo = f.subroutines[k].block as usize;
        let hi = bounds[bounds.iter().position(|&b| b == lo).expect("its own") + 1];
        let (frame, saved) = add_frame(f, lo, hi);
        f.subroutines[k].frame_size = frame;
        f.subroutines[k].saved_bytes = saved;
    }
    // A device function compiled on its own (`-c`): its code is one subroutine from block 0,
    // called from elsewhere with the caller's stack pointer, and it returns to an absolute address.
    if crate::linked_call::standalone(f) {
        crate::linked_call::finish_standalone(f)?;
        return Ok(());
    }
    if f.frame.stack_ptr.is_none() {
        let load = if sm.num >= 90 {
            Opcode::Ldc { wide: false }
        } else {
            Opcode::Mov
        };
        let init = Instr::new(load, &[Dst::Reg(sp)], &[Src::cbuf(0, STACK_TOP_CBUF)]);
        f.blocks[0].instrs.insert(0, init);
    }
    Ok(())
}

/// Saves the GPRs blocks `lo..hi` write (results and R1 aside) at their start and restores them
/// before each RET; the frame's size and the bytes saved.
fn add_frame(f: &mut Function, lo: usize, hi: usize) -> (u32, u32) {
    let sp = Reg::gpr(crate::frame::STACK_PTR_PHYS);
    let mut results = BTreeSet::new();
    let mut written = BTreeSet::new();
    for block in &f.blocks[lo..hi] {
        for i in &block.instrs {
            if i.op == Opcode::Ret {
                for r in slot_regs(&i.srcs[1..]) {
                    (0..r.comps as u32).for_each(|c| {
                        results.insert(r.idx + c);
                    });
                }
            }
            i.visit_regs(|r, a| {
                if a == Access::Write && r.file == RegFile::Gpr && r.idx < 255 {
                    (0..r.comps as u32).for_each(|c| {
                        written.insert(r.idx + c);
                    });
                }
            });
        }
    }
    // A device function of its own need not keep what its callers may lose anyway
    // (`linked_call.rs`), but for the return address, which allocation may have reused.
    let standalone = crate::linked_call::standalone(f);
    let saved: Vec<u32> = written
        .into_iter()
        .filter(|r| *r != sp.idx && !results.contains(r))
        .filter(|&r| !(standalone && crate::linked_call::callee_may_clobber(r)))
        .collect();
    let size = (saved.len() as u32 * 4).div_ceil(8) * 8;
    let slot = |n: usize| (n * 4) as i32;
    let adjust = |by: u32| {
        Instr::new(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(sp), Dst::None],
            &[Src::reg(sp), Src::imm(by), Src::ZERO],
        )
    };
    let mut prologue = Vec::new();
    if size > 0 {
        prologue.push(adjust(size.wrapping_neg()));
    }
    for (n, &r) in saved.iter().enumerate() {
        prologue.push(Instr::new(
            Opcode::Stl {
                size: MemSize::B32,
                offset: slot(n),
            },
            &[],
            &[Src::reg(sp), Src::reg(Reg::gpr(r))],
        ));
    }
    f.blocks[lo].instrs.splice(0..0, prologue);
    for block in &mut f.blocks[lo..hi] {
        let Some(at) = block.instrs.iter().position(|i| i.op == Opcode::Ret) else {
            continue;
        };
        let mut epilogue = Vec::new();
        for (n, &r) in saved.iter().enumerate() {
            epilogue.push(Instr::new(
                Opcode::Ldl {
                    size: MemSize::B32,
                    offset: slot(n),
                },
                &[Dst::Reg(Reg::gpr(r))],
                &[Src::reg(sp)],
            ));
        }
        if size > 0 {
            epilogue.push(adjust(size));
        }
        block.instrs[at].srcs[0] = Src::reg(Reg::gpr64(RET_ADDR_REG));
        block.instrs.splice(at..at, epilogue);
    }
    (size, saved.len() as u32 * 4)
}

/// Each subroutine's `(name, code offset, code size, frame size, bytes saved)`, from the encoded
/// layout (`code_len`: the function's bytes, trailer included).
pub fn subroutine_layout(f: &Function, code_len: u32) -> Vec<(String, u32, u32, u32, u32)> {
    let offsets = crate::encode::block_offsets(f);
    let mut starts: Vec<u32> = f
        .subroutines
        .iter()
        .map(|s| offsets[s.block as usize])
        .collect();
    starts.sort_unstable();
    f.subroutines
        .iter()
        .map(|s| {
            let at = offsets[s.block as usize];
            // A subroutine's code ends at the next one's, the last one at its last RET.
            let end = starts
                .iter()
                .copied()
                .find(|&x| x > at)
                .unwrap_or_else(|| last_ret_end(f, &offsets).unwrap_or(code_len));
            (s.name.clone(), at, end - at, s.frame_size, s.saved_bytes)
        })
        .collect()
}

/// The offset just past the last `RET`.
fn last_ret_end(f: &Function, offsets: &[u32]) -> Option<u32> {
    let mut end = None;
    for (b, block) in f.blocks.iter().enumerate() {
        for (k, i) in block.instrs.iter().enumerate() {
            if i.op == Opcode::Ret {
                end = Some(offsets[b] + 16 * (k as u32 + 1));
            }
        }
    }
    end
}

/// `CALL.REL.NOINC`, `RET.REL.NODEC` and the return address's `MOV`.
pub(crate) fn encode_call_family(
    sm: Sm,
    w: &mut Word,
    i: &Instr,
    pc: u32,
    offsets: &[u32],
) -> EResult<()> {
    let block_offset = |b: u32| {
        offsets
            .get(b as usize)
            .copied()
            .ok_or_else(|| EncodeError(format!("{:?}: block {b}", i.op)))
    };
    match i.op {
        Opcode::Call { target } => {
            let t = block_offset(target)?;
            w.set(0, 12, 0x944);
            crate::encode::set_branch_offset(sm, w, t as i64 - (pc as i64 + 16));
            w.set(86, 1, 1);
            w.set(87, 3, 7);
        }
        Opcode::Ret => {
            let Some(r) = i.srcs[0].as_reg() else {
                return Err(EncodeError("RET without its return address".into()));
            };
            w.set(0, 12, 0x950);
            w.set(24, 8, r.idx as u64);
            if i.srcs[0].abs {
                // RET.ABS.NODEC: the address is absolute, the offset field 0 (`linked_call.rs`).
                w.set(85, 1, 1);
            } else {
                crate::encode::set_branch_offset(sm, w, -(pc as i64 + 16));
            }
            w.set(86, 1, 1);
            w.set(87, 3, 7);
        }
        Opcode::RetAddr { block } => {
            let mov = Instr {
                op: Opcode::Mov,
                srcs: [
                    Src::imm(block_offset(block)?),
                    Src::NONE,
                    Src::NONE,
                    Src::NONE,
                    Src::NONE,
                ],
                ..*i
            };
            return crate::encode::encode_op(sm, &mov, pc, offsets, w);
        }
        _ => return Err(EncodeError(format!("{:?} has no code", i.op))),
    }
    Ok(())
}

/// The same as nvdisasm prints them (targets absolute).
pub(crate) fn print_call_family(i: &Instr, offsets: &[u32]) -> String {
    let at = |b: u32| offsets.get(b as usize).copied().unwrap_or(0);
    match i.op {
        Opcode::Call { target } => format!("CALL.REL.NOINC {:#x}", at(target)),
        Opcode::Ret => {
            let r = i.srcs[0].as_reg().map_or(RET_ADDR_REG, |r| r.idx);
            let kind = if i.srcs[0].abs { "ABS" } else { "REL" };
            format!("RET.{kind}.NODEC R{r} 0x0")
        }
        Opcode::RetAddr { block } => {
            let d = match i.dsts[0] {
                Dst::Reg(r) => format!("R{}", r.idx),
                Dst::None => "RZ".into(),
            };
            format!("MOV {d}, {:#x}", at(block))
        }
        _ => "SUBARGS".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abi_registers_follow_ptxas() {
        assert_eq!(abi_regs(&[1, 1]), Some(vec![4, 5]));
        assert_eq!(abi_regs(&[1, 2, 1]), Some(vec![4, 6, 8]));
        assert_eq!(abi_regs(&[2; 8]).map(|r| r[7]), Some(18));
        assert_eq!(abi_regs(&[2; 9]), None);
    }
}
