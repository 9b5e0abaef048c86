//! Module `.const` variables (`__constant__`): laid out in constant bank 3 in declaration order,
//! each at its alignment, as ptxas lays out `.nv.constant3`. A variable's "address"
//! (`mov.u64 %rd, table`) is its offset in the bank; `ld.const [table+8]` reads the bank
//! directly (`MOV R0, c[0x3][0x8]`, LDC from sm_90 on, LDC/MOV pairs for 64 bits), and
//! `ld.const [%rd+4]` through a register is a register-indexed `LDC R0, c[0x3][R2+0x4]`, as
//! ptxas compiles them. A generic address of a constant (`cvta.const`) is not supported yet.

use ptxforge_ptx::ast::{self, AddrBase, Operand, StateSpace, Type};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};
use crate::globals::ModuleGlobal;

/// The constant bank of `.const` variables.
pub const CONST_BANK: u8 = 3;

/// The module's `.const` variables with storage, in declaration (= layout) order.
fn const_variables(module: &ast::Module) -> Vec<&ast::VarDecl> {
    module
        .globals
        .iter()
        .filter(|v| v.space == StateSpace::Const && v.array_len.is_some())
        .collect()
}

/// The `.const` variables as the cubin writer wants them (declaration order; the writer lays
/// them out by [`const_offsets`]' rule).
pub fn module_consts(module: &ast::Module) -> Vec<ModuleGlobal> {
    const_variables(module)
        .into_iter()
        .map(crate::globals::module_global)
        .collect()
}

/// Each variable's offset in bank 3: declaration order, each at its alignment.
pub fn const_offsets(vars: &[ModuleGlobal]) -> Vec<u64> {
    let mut end = 0u64;
    vars.iter()
        .map(|v| {
            let at = end.next_multiple_of(v.align.max(1));
            end = at + v.size;
            at
        })
        .collect()
}

/// The `.const` variable declarations, for the driver (same order as [`module_consts`]).
pub fn const_variable_decls(module: &ast::Module) -> Vec<&ast::VarDecl> {
    const_variables(module)
}

impl Ctx<'_> {
    /// The bank-3 offset of `.const` variable `name`, if it is one.
    pub(crate) fn const_offset(&self, name: &str) -> Option<u32> {
        let vars = module_consts(self.module());
        let k = vars.iter().position(|v| v.name == name)?;
        const_offsets(&vars).get(k).map(|&o| o as u32)
    }

    /// `ld.const{.v2,.v4}.type d, [addr]` (see the module comment): one load per element.
    pub(crate) fn lower_ld_const(
        &mut self,
        elems: &[&Operand],
        addr: &Operand,
        ty: Type,
    ) -> LResult<()> {
        let (base, offset) = self.address(addr)?;
        let (base, offset) = (base.clone(), offset);
        for (k, e) in elems.iter().enumerate() {
            if **e == Operand::Sink {
                continue;
            }
            let at = offset + (k as u32 * ty.size_bytes()) as i64;
            let d = self.dst(e)?;
            match &base {
                AddrBase::Reg(r) => {
                    let r = self.vreg(r)?;
                    let index = if r.comps == 2 { r.part(0) } else { r };
                    let at = u16::try_from(at).map_err(|_| "constant offset out of range")?;
                    self.const_indexed(d, ty, index, at);
                }
                AddrBase::Symbol(s) => {
                    let var = self
                        .const_offset(s)
                        .ok_or_else(|| format!("'{s}' is not a .const variable"))?;
                    self.const_fixed(d, ty, var as i64 + at)?;
                }
                AddrBase::None => self.const_fixed(d, ty, at)?,
            }
        }
        Ok(())
    }

    /// A load at a fixed bank-3 offset: MOV (LDC from sm_90) of 32 bits, two of them (LDC.64)
    /// for 64; narrower widths through a register-indexed LDC on RZ.
    fn const_fixed(&mut self, d: Reg, ty: Type, at: i64) -> LResult<()> {
        let at = u16::try_from(at).map_err(|_| "constant offset out of range")?;
        let cb = |o: u16| Src::cbuf(CONST_BANK, o);
        match ty.size_bytes() {
            8 if self.sm.num >= 90 => {
                self.emit(Opcode::Ldc { wide: true }, &[Dst::Reg(d)], &[cb(at)]);
            }
            8 => {
                self.emit(Opcode::Mov, &[Dst::Reg(d.part(0))], &[cb(at)]);
                self.emit(Opcode::Mov, &[Dst::Reg(d.part(1))], &[cb(at + 4)]);
            }
            4 => {
                let narrow = if d.comps == 2 { d.part(0) } else { d };
                let op = if self.sm.num >= 90 {
                    Opcode::Ldc { wide: false }
                } else {
                    Opcode::Mov
                };
                self.emit(op, &[Dst::Reg(narrow)], &[cb(at)]);
                self.widen_loaded(d, narrow, ty);
            }
            _ => {
                return Err(format!(
                    "'ld.const.{}' of a fixed address is not supported yet",
                    ty.name()
                ))
            }
        }
        Ok(())
    }

    /// `LDC[.size] d, c[0x3][index + at]`.
    fn const_indexed(&mut self, d: Reg, ty: Type, index: Reg, at: u16) {
        let size = crate::mem::mem_size(ty);
        let narrow = self.narrow_target(d, size);
        self.emit(
            Opcode::LdcIndexed { size },
            &[Dst::Reg(narrow)],
            &[Src::cbuf(CONST_BANK, at), Src::reg(index)],
        );
        self.widen_loaded(d, narrow, ty);
    }
}
