//! Two packed 16-bit integers (sm_90) as ptxas writes them: `add.{s,u}16x2` is one VIADD.16x2,
//! `min`/`max.{s,u}16x2[.relu]` one VIMNMX.{S,U}16x2[.RELU] (PT: min, !PT: max). `add.sat`
//! (PTX ISA 9.2) stays "not supported yet".

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// Whether `i` works on two packed 16-bit integers.
pub(crate) fn is_packed_i16(i: &Instruction) -> bool {
    matches!(i.opcode(), "add" | "min" | "max") && (i.has_mod("s16x2") || i.has_mod("u16x2"))
}

impl Ctx<'_> {
    pub fn lower_packed_i16(&mut self, i: &Instruction) -> LResult<()> {
        crate::ctx::operands_exactly(i, 3)?;
        if i.has_mod("sat") {
            return Err("add.sat on packed 16-bit integers".into());
        }
        let d = self.dst(&i.operands[0])?;
        let a = self.reg_src32(&i.operands[1])?;
        let b = self.reg_src32(&i.operands[2])?;
        let (op, srcs) = match i.opcode() {
            "add" => (Opcode::Viadd16x2, vec![a, b]),
            min_max => {
                let op = Opcode::Vimnmx16x2 {
                    signed: i.has_mod("s16x2"),
                    relu: i.has_mod("relu"),
                };
                let pick = if min_max == "min" {
                    Src::TRUE
                } else {
                    Src::FALSE
                };
                (op, vec![a, b, pick])
            }
        };
        self.emit(op, &[Dst::Reg(d)], &srcs);
        Ok(())
    }
}
