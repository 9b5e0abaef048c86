//! Loads and stores: kernel parameters (constant bank 0), global memory (LDG/STG) and shared memory.

use ptxforge_ptx::ast::{AddrBase, Instruction, Operand, Type};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

fn mem_size(ty: Type) -> MemSize {
    match (ty.size_bytes(), ty.is_signed()) {
        (1, true) => MemSize::S8,
        (1, false) => MemSize::U8,
        (2, true) => MemSize::S16,
        (2, false) => MemSize::U16,
        (8, _) => MemSize::B64,
        (16, _) => MemSize::B128,
        _ => MemSize::B32,
    }
}

impl Ctx<'_> {
    pub fn lower_mem(&mut self, i: &Instruction) -> LResult<()> {
        if i.operands.len() != 2 {
            return Err(format!("Arguments mismatch for instruction '{}'", i.opcode));
        }
        if i.mods.iter().any(|m| m.starts_with('v') && m[1..].parse::<u32>().is_ok()) {
            return Err(format!("vector '{}.{}' is not supported yet", i.opcode, i.mods.join(".")));
        }
        let ty = i.ty().ok_or("ld/st needs a type")?;
        let load = i.opcode != "st";
        let (val, addr) = if load { (&i.operands[0], &i.operands[1]) } else { (&i.operands[1], &i.operands[0]) };
        if i.has_mod("param") {
            return if load { self.load_param(val, addr, ty) } else { Err("st.param is not supported yet".into()) };
        }
        if i.has_mod("shared") {
            return self.shared_access(load, val, addr, ty);
        }
        if i.has_mod("global") {
            return self.global_access(load, val, addr, ty, i.has_mod("nc") || i.opcode == "ldu");
        }
        Err(format!("'{}.{}' (generic or other state space) is not supported yet", i.opcode, i.mods.join(".")))
    }

    fn load_param(&mut self, val: &Operand, addr: &Operand, ty: Type) -> LResult<()> {
        let (AddrBase::Symbol(name), off) = self.address(addr)? else {
            return Err("ld.param needs a parameter name".into());
        };
        let p = self.param(name)?;
        let offset = self.sm.param_base() + p.offset + off as u32;
        let d = self.dst(val)?;
        if ty.size_bytes() == 8 {
            if self.sm.num >= 90 {
                self.emit(Opcode::Ldc { wide: true }, &[Dst::Reg(d)], &[Src::cbuf(0, offset as u16)]);
            } else {
                self.emit(Opcode::Mov, &[Dst::Reg(d.part(0))], &[Src::cbuf(0, offset as u16)]);
                self.emit(Opcode::Mov, &[Dst::Reg(d.part(1))], &[Src::cbuf(0, offset as u16 + 4)]);
            }
        } else if ty.size_bytes() == 4 {
            self.load_const(d, offset);
        } else {
            return Err("parameters narrower than 32 bits are not supported yet".into());
        }
        Ok(())
    }

    fn global_access(&mut self, load: bool, val: &Operand, addr: &Operand, ty: Type, nc: bool) -> LResult<()> {
        let (AddrBase::Reg(base), offset) = self.address(addr)? else {
            return Err("global accesses need a 64-bit register address".into());
        };
        let base = self.vreg(base)?;
        if base.comps != 2 {
            return Err("global addresses must be 64-bit registers".into());
        }
        let desc = self.desc.map_or(Src::ZERO, Src::reg);
        let size = mem_size(ty);
        let offset = offset as i32;
        if load {
            let d = self.dst(val)?;
            let narrow = self.narrow_target(d, size);
            self.emit(Opcode::Ldg { size, constant: nc, offset }, &[Dst::Reg(narrow)], &[Src::reg(base), desc]);
            self.widen_loaded(d, narrow, ty);
        } else {
            let data = self.store_data(val, size)?;
            self.emit(Opcode::Stg { size, offset }, &[], &[Src::reg(base), data, desc]);
        }
        Ok(())
    }

    fn shared_access(&mut self, load: bool, val: &Operand, addr: &Operand, ty: Type) -> LResult<()> {
        let (base, offset) = self.address(addr)?;
        let (base, offset) = match base {
            AddrBase::Reg(r) => (Src::reg(self.vreg(r)?), offset as i32),
            AddrBase::Symbol(s) => {
                let off = *self.shared.get(s).ok_or_else(|| format!("Unknown symbol '{s}'"))?;
                self.shared_operand(off as i32 + offset as i32)
            }
            AddrBase::None => self.shared_operand(offset as i32),
        };
        let size = mem_size(ty);
        if load {
            let d = self.dst(val)?;
            let narrow = self.narrow_target(d, size);
            self.emit(Opcode::Lds { size, offset }, &[Dst::Reg(narrow)], &[base]);
            self.widen_loaded(d, narrow, ty);
        } else {
            let data = self.store_data(val, size)?;
            self.emit(Opcode::Sts { size, offset }, &[], &[base, data]);
        }
        Ok(())
    }

    /// Where a load of `size` lands: the low half when a value narrower than 64 bits is loaded into
    /// a 64-bit register (`ld.global.s32 %rd1, [..]`), else the register itself.
    fn narrow_target(&self, d: Reg, size: MemSize) -> Reg {
        if d.comps == 2 && !matches!(size, MemSize::B64 | MemSize::B128) {
            d.part(0)
        } else {
            d
        }
    }

    /// Completes a narrow load into a 64-bit register: the high half is the sign (signed types) or zero.
    fn widen_loaded(&mut self, d: Reg, narrow: Reg, ty: Type) {
        if narrow == d {
            return;
        }
        if ty.is_signed() {
            let shf = Opcode::Shf { right: true, signed: true, wide: false, hi: true };
            self.emit(shf, &[Dst::Reg(d.part(1))], &[Src::ZERO, Src::imm(31), Src::reg(narrow)]);
        } else {
            self.emit(Opcode::Mov, &[Dst::Reg(d.part(1))], &[Src::ZERO]);
        }
    }

    /// The register a store writes from (immediates are moved to a register first).
    fn store_data(&mut self, val: &Operand, size: MemSize) -> LResult<Src> {
        if size == MemSize::B64 {
            return match val {
                Operand::Reg(n) => Ok(Src::reg(self.vreg(n)?)),
                _ => Err("64-bit stores need a register".into()),
            };
        }
        let s = self.src32(val)?;
        Ok(self.in_reg(s))
    }
}
