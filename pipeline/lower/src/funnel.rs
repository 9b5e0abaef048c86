//! `shf.{l,r}.{wrap,clamp}.b32 d, a, b, c`: the funnel shift of `{b:a}` by `c`, as ptxas selects
//! it: SHF.L.U32.HI (left, the high word) or SHF.R.U32 (right, the low word), `.W` for `.wrap`.

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::ir::*;

use crate::ctx::operands_exactly as operands;
use crate::ctx::{Ctx, LResult};

impl Ctx<'_> {
    pub(crate) fn lower_shf(&mut self, i: &Instruction) -> LResult<()> {
        let right = i.has_mod("r");
        let wrap = i.has_mod("wrap");
        if right == i.has_mod("l") || wrap == i.has_mod("clamp") {
            return Err(format!("'shf.{}' is not supported yet", i.mods().join(".")));
        }
        let o = operands(i, 4)?;
        let d = self.dst(&o[0])?;
        let lo = self.reg_src32(&o[1])?;
        let hi = self.reg_src32(&o[2])?;
        let n = match self.src32(&o[3])? {
            // An immediate amount: its low five bits wrap, at most 32 clamps.
            Src {
                val: SrcVal::Imm(v),
                ..
            } => Src::imm(if wrap { v & 31 } else { v.min(32) }),
            s => self.in_reg(s),
        };
        let op = if wrap {
            Opcode::ShfWrap { right, hi: !right }
        } else {
            Opcode::Shf {
                right,
                signed: false,
                wide: false,
                hi: !right,
            }
        };
        self.emit(op, &[Dst::Reg(d)], &[lo, n, hi]);
        Ok(())
    }
}
