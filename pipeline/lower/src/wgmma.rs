//! Lowering of sm_90a's warpgroup MMAs as ptxas 13.5 writes them: `wgmma.fence` (WARPGROUP.ARRIVE),
//! `wgmma.mma_async` (HGMMA/IGMMA/QGMMA), `wgmma.commit_group` (the group's last MMA gets `gsb0`)
//! and `wgmma.wait_group N` (WARPGROUP.DEPBAR.LE gsb0, N).
//!
//! The descriptors reach the uniform registers by R2UR (A's in the low pair of a group of four,
//! B's in the high pair: `gdesc[URx]`); a thread-varying scale-d predicate by VOTEU.ANY, the
//! immediates 1/0 as UPT/!UPT (with C = RZ for 0, as ptxas reads it). The accumulator operand must
//! be a register tuple bound to one group (`mma.rs`'s `bind_fragments`, which binds every
//! `wgmma` accumulator and register-A fragment): the hardware writes it asynchronously, so it is
//! updated in place and never moved between the MMA and its wait. Every wait names every
//! accumulator group of the function as read and written (`Opcode::WarpgroupDepbar`), so none is
//! reused, moved or read early across the asynchronous window.

use ptxforge_ptx::ast::{Instruction, Operand, Statement};
use ptxforge_sass::ir::*;
use ptxforge_sass::wgmma::{GmmaAcc, GmmaElem, WgmmaOp};

use crate::ctx::unsupported;
use crate::ctx::{Ctx, LResult};

/// `m64n128k16` as N and K.
fn parse_shape(m: &str) -> Option<(u16, u32)> {
    let rest = m.strip_prefix("m64n")?;
    let (n, k) = rest.split_once('k')?;
    Some((n.parse().ok()?, k.parse().ok()?))
}

/// The machine op of a `wgmma.mma_async` (transposes, negations and the sparsity selector
/// unset), `None` for forms not lowered (b1, other modifiers).
pub fn wgmma_op(i: &Instruction) -> Option<WgmmaOp> {
    if i.opcode() != "wgmma" || !i.has_mod("mma_async") {
        return None;
    }
    let mut shape = None;
    let mut types = Vec::new();
    let mut sat = false;
    let mut sparse = false;
    for m in i.mods() {
        match &**m {
            "sync" | "aligned" | "mma_async" => {}
            "sp" => sparse = true,
            "satfinite" => sat = true,
            m if parse_shape(m).is_some() => shape = parse_shape(m),
            "f32" => types.push(None),
            "s32" => types.push(None),
            m => types.push(Some(GmmaElem::parse(m)?)),
        }
    }
    let (n, k) = shape?;
    let acc = i.mods().iter().find_map(|m| match &**m {
        "f32" => Some(GmmaAcc::F32),
        "s32" => Some(GmmaAcc::S32),
        "f16" => Some(GmmaAcc::F16),
        _ => None,
    })?;
    let [_, Some(a), Some(b)] = types[..] else {
        return None;
    };
    let op = WgmmaOp {
        n,
        a,
        b,
        acc,
        neg_a: false,
        neg_b: false,
        tnsp_a: false,
        tnsp_b: false,
        sat,
        reg_a: matches!(i.operands.get(1), Some(Operand::Vector(_))),
        closes_group: false,
        sparse: sparse.then_some(0),
    };
    (op.is_valid() && op.k() == k).then_some(op)
}

/// The fragment operands of a `wgmma.mma_async` this module lowers with their register counts
/// (the accumulator; A where it is in registers), for `bind_fragments`.
pub(crate) fn wgmma_fragments(i: &Instruction) -> Vec<(&Operand, u8)> {
    let Some(op) = wgmma_op(i) else {
        return Vec::new();
    };
    let mut v: Vec<(&Operand, u8)> = i
        .operands
        .first()
        .map(|d| (d, op.acc_regs()))
        .into_iter()
        .collect();
    if op.reg_a {
        v.extend(i.operands.get(1).map(|a| (a, WgmmaOp::A_REGS)));
    }
    v
}

/// An immediate operand's value.
fn imm(op: Option<&Operand>) -> Option<i64> {
    match op {
        Some(Operand::Imm(v)) => i64::try_from(*v).ok(),
        _ => None,
    }
}

impl Ctx<'_> {
    /// Dispatches the `wgmma` family; `None` for other instructions.
    pub fn lower_wgmma(&mut self, i: &Instruction) -> Option<LResult<()>> {
        if i.opcode() != "wgmma" {
            return None;
        }
        if !self.sm.accel || self.guard != Src::TRUE {
            return Some(Err(unsupported(i)));
        }
        Some(if i.has_mod("fence") {
            self.emit(Opcode::WarpgroupArrive, &[], &[]);
            Ok(())
        } else if i.has_mod("commit_group") {
            self.close_wgmma_group(i)
        } else if i.has_mod("wait_group") {
            self.lower_wgmma_wait(i)
        } else {
            self.lower_wgmma_mma(i)
        })
    }

    /// `wgmma.commit_group`: the last MMA since the previous commit, in this block, closes the
    /// group (`gsb0`).
    fn close_wgmma_group(&mut self, i: &Instruction) -> LResult<()> {
        let block = self.f.blocks.last_mut().unwrap();
        for ins in block.instrs.iter_mut().rev() {
            match &mut ins.op {
                Opcode::Wgmma(op) if !op.closes_group => {
                    op.closes_group = true;
                    return Ok(());
                }
                Opcode::Wgmma(_) => break,
                _ => {}
            }
        }
        Err(format!(
            "{} without a wgmma.mma_async before it in its block",
            unsupported(i).trim_end_matches(" is not supported yet")
        ) + " is not supported yet")
    }

    /// `wgmma.wait_group N`: WARPGROUP.DEPBAR.LE gsb0, N naming the accumulator groups (two
    /// per instruction, read and written) and register-A groups (read); a function with more
    /// waits again for the rest (a second wait for the same count costs nothing more).
    fn lower_wgmma_wait(&mut self, i: &Instruction) -> LResult<()> {
        let pending = match imm(i.operands.first()) {
            Some(n) if (0..=7).contains(&n) && i.operands.len() == 1 => n as u8,
            _ => return Err(unsupported(i)),
        };
        let (accs, a_groups) = self.wgmma_groups();
        let mut waits: Vec<(Vec<Dst>, Vec<Src>)> = accs
            .chunks(2)
            .map(|c| {
                (
                    c.iter().map(|r| Dst::Reg(*r)).collect(),
                    c.iter().map(|r| Src::reg(*r)).collect(),
                )
            })
            .collect();
        for a in a_groups {
            match waits.last_mut() {
                Some((_, srcs)) if srcs.len() < 5 => srcs.push(Src::reg(a)),
                _ => waits.push((Vec::new(), vec![Src::reg(a)])),
            }
        }
        if waits.is_empty() {
            waits.push((Vec::new(), Vec::new()));
        }
        for (dsts, srcs) in waits {
            self.emit(Opcode::WarpgroupDepbar { pending }, &dsts, &srcs);
        }
        Ok(())
    }

    /// The accumulator groups and register-A groups (and sparse metadata registers) of every
    /// `wgmma.mma_async` of the function (whole groups, each once).
    fn wgmma_groups(&self) -> (Vec<Reg>, Vec<Reg>) {
        let (mut accs, mut a_groups): (Vec<Reg>, Vec<Reg>) = (Vec::new(), Vec::new());
        for s in &self.ptx_function().body {
            let Statement::Instr(i) = s else { continue };
            // A sparse form's metadata register is kept as register A is.
            let meta = wgmma_op(i).filter(|op| op.sparse.is_some()).and_then(|_| {
                match i.operands.get(3) {
                    Some(Operand::Reg(n)) => self.bound_vreg(n),
                    _ => None,
                }
            });
            if let Some(m) = meta.filter(|m| m.file == RegFile::Gpr && !a_groups.contains(m)) {
                a_groups.push(m);
            }
            for (k, (op, regs)) in wgmma_fragments(i).into_iter().enumerate() {
                let Some(r) = self.bound_fragment(op, regs) else {
                    continue;
                };
                let whole = Reg {
                    comps: self.f.vreg_comps[r.idx as usize],
                    comp: 0,
                    ..r
                };
                let list = if k == 0 { &mut accs } else { &mut a_groups };
                if !list.contains(&whole) {
                    list.push(whole);
                }
            }
        }
        (accs, a_groups)
    }

    /// `wgmma.mma_async.sync.aligned.shape.dtype.atype.btype d, a, b-desc, scale-d, ...`.
    fn lower_wgmma_mma(&mut self, i: &Instruction) -> LResult<()> {
        let mut op = wgmma_op(i).ok_or_else(|| unsupported(i))?;
        let ops = &i.operands;
        // The sparse forms take the metadata register and the selector after B's descriptor.
        let extra = 2 * op.sparse.is_some() as usize;
        // Immediates after scale-d: imm-scale-a/b (not for the integer forms), then the
        // transposes of A (shared-memory A only) and B (f16/bf16 only).
        let scales = op.acc != GmmaAcc::S32;
        let transposes = matches!(op.a, GmmaElem::F16 | GmmaElem::Bf16);
        let want = 4 + extra + 2 * scales as usize + transposes as usize * (1 + !op.reg_a as usize);
        if ops.len() != want {
            return Err(format!(
                "Arguments mismatch for instruction '{}'",
                i.opcode()
            ));
        }
        if op.sparse.is_some() {
            let sel = imm(ops.get(4)).filter(|s| (0..4).contains(s));
            op.sparse = Some(sel.ok_or_else(|| unsupported(i))? as u8);
            if !op.is_valid() {
                return Err(unsupported(i));
            }
        }
        let mut rest = ops[4 + extra..].iter().map(|o| imm(Some(o)));
        if scales {
            op.neg_a = rest.next().flatten() == Some(-1);
            op.neg_b = rest.next().flatten() == Some(-1);
        }
        if transposes {
            if !op.reg_a {
                op.tnsp_a = rest.next().flatten().ok_or_else(|| unsupported(i))? != 0;
            }
            op.tnsp_b = rest.next().flatten().ok_or_else(|| unsupported(i))? != 0;
        }
        let d = self.bound_fragment(&ops[0], op.acc_regs()).ok_or_else(|| {
            format!(
                "{} with an accumulator whose registers also appear elsewhere",
                unsupported(i).trim_end_matches(" is not supported yet")
            ) + " is not supported yet"
        })?;
        let descs = self.f.new_vreg(RegFile::UGpr, 4);
        let a = if op.reg_a {
            // A is read asynchronously too: it must be a bound group that the waits keep live.
            let a = self
                .bound_fragment(&ops[1], WgmmaOp::A_REGS)
                .ok_or_else(|| {
                    format!(
                        "{} with an A fragment whose registers also appear elsewhere",
                        unsupported(i).trim_end_matches(" is not supported yet")
                    ) + " is not supported yet"
                })?;
            Src::reg(a)
        } else {
            self.descriptor_to_uniform(&ops[1], descs, 0)?;
            Src::reg(descs)
        };
        self.descriptor_to_uniform(&ops[2], descs, 2)?;
        let meta = match op.sparse {
            Some(_) => self.reg_src32(&ops[3])?,
            None => Src::NONE,
        };
        let (c, scale_d) = match &ops[3 + extra] {
            Operand::Imm(0) => (Src::ZERO, Src::FALSE),
            Operand::Imm(_) => (Src::reg(d), Src::TRUE),
            p => {
                let p = self.pred_src(p)?;
                let up = self.f.new_vreg(RegFile::UPred, 1);
                self.emit(Opcode::VoteuAny, &[Dst::Reg(up)], &[p]);
                (Src::reg(d), Src::reg(up))
            }
        };
        let srcs = if op.reg_a {
            [a, Src::reg(descs), c, scale_d, meta]
        } else {
            [a, Src::NONE, c, scale_d, meta]
        };
        self.emit(Opcode::Wgmma(op), &[Dst::Reg(d)], &srcs);
        Ok(())
    }

    /// A 64-bit descriptor operand into parts `at`, `at + 1` of the uniform group `descs` (R2UR
    /// per half of a register, UMOV of an immediate).
    fn descriptor_to_uniform(&mut self, op: &Operand, descs: Reg, at: u8) -> LResult<()> {
        let (lo, hi) = self.src64(op)?;
        for (k, half) in [lo, hi].into_iter().enumerate() {
            let d = Dst::Reg(descs.part(at + k as u8));
            match half.val {
                SrcVal::Reg(_) => self.emit(Opcode::R2ur, &[d], &[half]),
                SrcVal::Imm(_) | SrcVal::Zero => {
                    let v = if let SrcVal::Imm(v) = half.val { v } else { 0 };
                    self.emit(Opcode::Umov, &[d], &[Src::imm(v)])
                }
                _ => return Err(format!("wgmma descriptor {op:?} is not supported yet")),
            }
        }
        Ok(())
    }
}
