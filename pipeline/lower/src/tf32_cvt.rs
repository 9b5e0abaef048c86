//! `cvt.rna.tf32.f32` (what `wmma::__float_to_tf32` writes) as ptxas compiles it: a finite value
//! gets 0x1000 added to its bits (round to nearest, ties away, at the tf32 mantissa's last bit), an
//! infinity or NaN stays; the 13 bits below tf32's mantissa are left as the add leaves them (the
//! tensor unit ignores them).

use ptxforge_ptx::ast::{Instruction, Name};
use ptxforge_sass::ir::*;

use crate::ctx::{operands_exactly, Ctx, LResult};

/// Whether `i` is the f32 to tf32 conversion.
pub fn is_tf32_cvt(i: &Instruction) -> bool {
    i.opcode() == "cvt" && i.has_mod("tf32")
}

impl Ctx<'_> {
    pub(crate) fn lower_cvt_tf32(&mut self, i: &Instruction) -> LResult<()> {
        let mods: Vec<&str> = i.mods().iter().map(Name::as_str).collect();
        if mods != ["rna", "tf32", "f32"] {
            return Err(format!("'cvt.{}' is not supported yet", mods.join(".")));
        }
        let ops = operands_exactly(i, 2)?;
        let d = self.dst(&ops[0])?;
        let x = self.src32(&ops[1])?;
        let x = self.in_reg(x);
        let special = self.temp_pred();
        self.emit(
            Opcode::Fsetp {
                cmp: FloatCmp::Geu,
                combine: BoolOp::And,
                ftz: false,
            },
            &[Dst::Reg(special), Dst::None],
            &[x.absolute(), Src::imm(0x7f80_0000), Src::TRUE],
        );
        let rounded = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(rounded), Dst::None],
            &[x, Src::imm(0x1000), Src::ZERO],
        );
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(d)],
            &[x, Src::reg(rounded), Src::reg(special)],
        );
        Ok(())
    }
}
