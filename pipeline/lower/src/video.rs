//! SIMD video instructions: `vabsdiff4.u32.u32.u32[.add] d, a, b, c` as ptxas writes it on
//! sm_75..sm_90, one VABSDIFF4.U8 (`.add`: VABSDIFF4.U8.ACC, the sum of the four byte differences
//! plus c). Other video forms (signed, `.sat`, masks, lane selectors, `.min/.max` reductions)
//! stay "not supported yet".

use ptxforge_ptx::ast::{Instruction, Operand};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// Whether `i` is the unsigned byte form this file lowers.
pub(crate) fn is_vabsdiff4_u8(i: &Instruction) -> bool {
    let mods = i.mods();
    i.opcode() == "vabsdiff4"
        && mods.iter().filter(|m| *m == "u32").count() == 3
        && mods.iter().all(|m| m == "u32" || m == "add")
        && i.operands.len() == 4
        && i.operands.iter().all(|o| matches!(o, Operand::Reg(_)))
}

impl Ctx<'_> {
    /// `vabsdiff4.u32.u32.u32[.add] d, a, b, c`.
    pub fn lower_vabsdiff4(&mut self, i: &Instruction) -> LResult<()> {
        crate::ctx::operands_exactly(i, 4)?;
        let d = self.dst(&i.operands[0])?;
        let a = self.reg_src32(&i.operands[1])?;
        let b = self.reg_src32(&i.operands[2])?;
        let c = self.reg_src32(&i.operands[3])?;
        let acc = i.has_mod("add");
        self.emit(Opcode::Vabsdiff4 { acc }, &[Dst::Reg(d)], &[a, b, c]);
        Ok(())
    }
}
