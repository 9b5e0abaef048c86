//! sm_80 asynchronous copies and matrix loads: `cp.async.{ca,cg}.shared.global` as LDGSTS,
//! `cp.async.commit_group` as LDGDEPBAR, `cp.async.wait_group`/`wait_all` as DEPBAR.LE SB0, and
//! `ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16` as LDSM, as ptxas selects them
//! (sm_80 on; ldmatrix from sm_75).

use ptxforge_ptx::ast::{Instruction, Operand};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};
use crate::mem::Space;

/// The LDGSTS global offset field is 12-bit signed.
const SRC_OFFSET_RANGE: std::ops::Range<i128> = -2048..2048;

impl Ctx<'_> {
    /// `cp.async...`, `None` for forms that are not this module's (bulk copies).
    pub fn lower_async(&mut self, i: &Instruction) -> Option<LResult<()>> {
        match i.opcode() {
            "cp" if i.has_mod("async") && !i.has_mod("bulk") && !i.has_mod("mbarrier") => {}
            "ldmatrix" => return Some(self.lower_ldmatrix(i)),
            _ => return None,
        }
        if self.sm.num < 80 {
            return Some(Err(format!(
                "'{}.{}' is not supported yet on this target",
                i.opcode(),
                i.mods().join(".")
            )));
        }
        Some(if i.has_mod("commit_group") {
            self.emit(Opcode::Ldgdepbar, &[], &[]);
            Ok(())
        } else if i.has_mod("wait_all") {
            self.emit(Opcode::Ldgdepbar, &[], &[]);
            self.emit(Opcode::DepbarLe { pending: 0 }, &[], &[]);
            Ok(())
        } else if i.has_mod("wait_group") {
            self.lower_wait_group(i)
        } else {
            self.lower_cp_async(i)
        })
    }

    fn lower_wait_group(&mut self, i: &Instruction) -> LResult<()> {
        match i.operands.first() {
            Some(Operand::Imm(n)) if (0..64).contains(n) => {
                self.emit(Opcode::DepbarLe { pending: *n as u8 }, &[], &[]);
                Ok(())
            }
            o => Err(format!(
                "cp.async.wait_group count {o:?} is not supported yet"
            )),
        }
    }

    fn unsupported(i: &Instruction) -> String {
        format!(
            "'{}.{}' is not supported yet",
            i.opcode(),
            i.mods().join(".")
        )
    }

    /// `cp.async.{ca,cg}.shared{::cta}.global[.L2::128B] [dst], [src], size[, src_size]`.
    fn lower_cp_async(&mut self, i: &Instruction) -> LResult<()> {
        let known = |m: &str| {
            matches!(
                m,
                "async" | "ca" | "cg" | "shared" | "shared::cta" | "global" | "L2::128B"
            )
        };
        if !i.mods().iter().all(|m| known(m)) || !(2..=4).contains(&(i.operands.len() - 1)) {
            return Err(Self::unsupported(i));
        }
        let ops = &i.operands[..];
        let size = match ops.get(2) {
            Some(Operand::Imm(4)) => MemSize::B32,
            Some(Operand::Imm(8)) => MemSize::B64,
            Some(Operand::Imm(16)) => MemSize::B128,
            _ => return Err(Self::unsupported(i)),
        };
        let bytes = size.bytes() as i128;
        let bypass = i.has_mod("cg");
        if bypass && bytes != 16 || ops.len() > 4 {
            return Err(Self::unsupported(i));
        }
        let (dst, dst_offset) = self.mem_address(Space::Shared, &ops[0])?;
        let (src, src_offset) = self.mem_address(Space::Global { nc: false }, &ops[1])?;
        let mut src = src;
        let mut src_offset = src_offset as i128;
        let mut fill = None;
        match ops.get(3) {
            None => {}
            Some(Operand::Imm(n)) if *n == bytes => {}
            Some(Operand::Imm(n)) if (0..bytes).contains(n) => {
                src_offset += (bytes - n) & (bytes - 1);
                fill = Some(if *n != 0 { Src::TRUE } else { Src::FALSE });
            }
            Some(o @ Operand::Reg(_)) => {
                let n = self.src32(o)?;
                let (addr, p) = self.zero_fill_address(src, n, bytes as u32);
                src = addr;
                fill = Some(Src::reg(p));
            }
            _ => return Err(Self::unsupported(i)),
        }
        if !SRC_OFFSET_RANGE.contains(&src_offset) {
            src = self.add_to_pair(src, Src::imm(src_offset as u32), src_offset < 0);
            src_offset = 0;
        }
        let desc = self.desc.map_or(Src::ZERO, Src::reg);
        self.emit(
            Opcode::Ldgsts {
                size,
                bypass,
                ltc128b: i.has_mod("L2::128B"),
                zfill: fill.is_some(),
                dst_offset,
                src_offset: src_offset as i32,
            },
            &[],
            &[dst, src, desc, fill.unwrap_or(Src::TRUE)],
        );
        Ok(())
    }

    /// The zero-fill form of a copy of `bytes` of which `n` are read: the address moved on by
    /// `(bytes - n) % bytes` (the bytes LDGSTS.ZFILL zeroes) and the predicate `n != 0`.
    fn zero_fill_address(&mut self, addr: Src, n: Src, bytes: u32) -> (Src, Reg) {
        let n = self.in_reg(n);
        let left = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(left), Dst::None],
            &[n.negated(), Src::imm(bytes), Src::ZERO],
        );
        let skip = self.temp();
        self.emit(
            Opcode::Lop3 { lut: 0xc0 },
            &[Dst::Reg(skip), Dst::None],
            &[Src::reg(left), Src::imm(bytes - 1), Src::ZERO, Src::FALSE],
        );
        let p = self.temp_pred();
        self.emit(
            Opcode::Isetp {
                cmp: IntCmp::Ne,
                signed: false,
                combine: BoolOp::And,
                ex: false,
            },
            &[Dst::Reg(p), Dst::None],
            &[n, Src::ZERO, Src::TRUE],
        );
        (self.add_to_pair(addr, Src::reg(skip), false), p)
    }

    /// A 64-bit address plus a 32-bit amount (sign-extended when `negative`).
    fn add_to_pair(&mut self, addr: Src, amount: Src, negative: bool) -> Src {
        let SrcVal::Reg(a) = addr.val else {
            return addr;
        };
        let d = self.temp64();
        let carry = self.temp_pred();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d.part(0)), Dst::Reg(carry)],
            &[Src::reg(a.part(0)), amount, Src::ZERO],
        );
        let high = if negative {
            Src::imm(u32::MAX)
        } else {
            Src::ZERO
        };
        self.emit(
            Opcode::Iadd3 { x: true },
            &[Dst::Reg(d.part(1)), Dst::None],
            &[
                Src::reg(a.part(1)),
                high,
                Src::ZERO,
                Src::reg(carry),
                Src::FALSE,
            ],
        );
        Src::reg(d)
    }

    /// `ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared{::cta}.b16 {d..}, [addr]`.
    fn lower_ldmatrix(&mut self, i: &Instruction) -> LResult<()> {
        let known = |m: &str| {
            matches!(
                m,
                "sync"
                    | "aligned"
                    | "m8n8"
                    | "x1"
                    | "x2"
                    | "x4"
                    | "trans"
                    | "shared"
                    | "shared::cta"
                    | "b16"
            )
        };
        if !i.mods().iter().all(|m| known(m)) || i.operands.len() != 2 {
            return Err(Self::unsupported(i));
        }
        let count: u8 = if i.has_mod("x4") {
            4
        } else if i.has_mod("x2") {
            2
        } else {
            1
        };
        let elems: Vec<Operand> = match &i.operands[0] {
            Operand::Vector(v) => v.to_vec(),
            o => vec![o.clone()],
        };
        if elems.len() != count as usize {
            return Err(Self::unsupported(i));
        }
        let (base, offset) = self.mem_address(Space::Shared, &i.operands[1])?;
        // A destination bound to an mma fragment's group (`mma.rs`) is written in place.
        let bound = self.bound_fragment(&i.operands[0], count);
        let group = bound.unwrap_or_else(|| self.f.new_vreg(RegFile::Gpr, count));
        self.emit(
            Opcode::Ldsm {
                count,
                trans: i.has_mod("trans"),
                offset,
            },
            &[Dst::Reg(group)],
            &[base],
        );
        for (k, e) in elems.iter().enumerate() {
            if *e == Operand::Sink || bound.is_some() {
                continue;
            }
            let d = self.dst(e)?;
            let part = if count == 1 {
                group
            } else {
                group.part(k as u8)
            };
            self.emit(Opcode::Mov, &[Dst::Reg(d)], &[Src::reg(part)]);
        }
        Ok(())
    }
}
