//! 64-bit `mad.lo/.hi.{u64,s64}` and their carry forms (`mad.cc`, `madc[.cc]`): the 64-bit
//! product's low or high half (`int.rs`'s multiplications) plus `c` as two 32-bit adds, the
//! carry flag read by the first and written by the second.

use ptxforge_ptx::ast::{Instruction, Type};
use ptxforge_sass::ir::*;

use crate::ctx::operands_exactly as operands;
use crate::ctx::{Ctx, LResult};

impl Ctx<'_> {
    pub(crate) fn mad64(&mut self, i: &Instruction, ty: Type) -> LResult<()> {
        if i.has_mod("sat") || i.has_mod("wide") || !(i.has_mod("lo") || i.has_mod("hi")) {
            return Err(format!(
                "'{}.{}' is not supported yet",
                i.opcode(),
                i.mods().join(".")
            ));
        }
        let o = operands(i, 4)?;
        let d = self.dst(&o[0])?;
        let (al, ah) = self.src64(&o[1])?;
        let (bl, bh) = self.src64(&o[2])?;
        let (cl, ch) = self.src64(&o[3])?;
        let product = self.temp64();
        if i.has_mod("hi") {
            self.mul_hi64_parts(product, [al, ah], [bl, bh], ty.is_signed());
        } else {
            self.mul_lo64_parts(product, [al, ah], [bl, bh]);
        }
        let carry_in = if i.opcode() == "madc" {
            Src::reg(self.carry_flag())
        } else {
            Src::FALSE
        };
        let carry_out = if i.has_mod("cc") {
            Dst::Reg(self.carry_flag())
        } else {
            Dst::None
        };
        let mid = self.temp_pred();
        let (pl, ph) = (Src::reg(product.part(0)), Src::reg(product.part(1)));
        self.add_word(d.part(0), (pl, cl), false, carry_in, Dst::Reg(mid));
        self.add_word(d.part(1), (ph, ch), false, Src::reg(mid), carry_out);
        Ok(())
    }
}
