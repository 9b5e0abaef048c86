//! The PTX ISA's older integer forms that compilers still write now and then: `mul24`/`mad24`
//! (24-bit products), `slct` (select by a third operand's sign), `cnot` (C's `!`) and `szext`
//! (sign or zero extension of a register-sized field, SGXT), lowered as ptxas 13.5 does.

use ptxforge_ptx::ast::{Instruction, Type};
use ptxforge_sass::ir::*;

use crate::ctx::unsupported;
use crate::ctx::{operands_exactly, Ctx, LResult};

impl Ctx<'_> {
    /// Lowers `i` when it is one of this file's forms; `None` leaves it to the other lowerings.
    pub(crate) fn lower_legacy_int(&mut self, i: &Instruction) -> Option<LResult<()>> {
        let wide = || i.ty().is_some_and(|t| t.size_bytes() != 4);
        Some(match i.opcode() {
            "mul24" | "mad24" if wide() || i.has_mod("sat") => Err(unsupported(i)),
            "mul24" | "mad24" => self.mul24(i),
            "slct" => self.slct(i),
            "cnot" if wide() => Err(unsupported(i)),
            "cnot" => self.cnot(i),
            "szext" => self.szext(i),
            _ => return None,
        })
    }

    /// `mul24.lo/.hi` and `mad24.lo/.hi`: the 48-bit product of the operands' low 24 bits
    /// (sign-extended for `.s32`, SGXT; zero-extended for `.u32`, PRMT), its low word for `.lo`
    /// and bits 16..47 for `.hi` (IMAD.WIDE, then a 64-bit funnel shift right by 16).
    fn mul24(&mut self, i: &Instruction) -> LResult<()> {
        let mad = i.opcode() == "mad24";
        let o = operands_exactly(i, if mad { 4 } else { 3 })?;
        let signed = i.ty().is_some_and(|t| t.is_signed());
        let d = self.dst(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let b = self.reg_src32(&o[2])?;
        let (a, b) = (self.low24(a, signed), self.low24(b, signed));
        let c = if mad {
            self.reg_src32(&o[3])?
        } else {
            Src::ZERO
        };
        if !i.has_mod("hi") {
            let lo = Opcode::Imad {
                mode: ImadMode::Lo,
                signed: true,
                x: false,
            };
            self.emit(lo, &[Dst::Reg(d)], &[a, b, c]);
            return Ok(());
        }
        let product = self.temp64();
        let wide = Opcode::Imad {
            mode: ImadMode::Wide,
            signed,
            x: false,
        };
        self.emit(wide, &[Dst::Reg(product)], &[a, b, Src::ZERO]);
        let shr = crate::intops::shf(true, false, true, false);
        let (lo, hi) = (Src::reg(product.part(0)), Src::reg(product.part(1)));
        let target = if mad { self.temp() } else { d };
        self.emit(shr, &[Dst::Reg(target)], &[lo, Src::imm(16), hi]);
        if mad {
            self.emit(
                Opcode::Iadd3 { x: false },
                &[Dst::Reg(d), Dst::None],
                &[Src::reg(target), c, Src::ZERO],
            );
        }
        Ok(())
    }

    /// `v`'s low 24 bits, sign- or zero-extended to 32.
    fn low24(&mut self, v: Src, signed: bool) -> Src {
        let t = self.temp();
        if signed {
            let sgxt = Opcode::Sgxt {
                signed: true,
                wrap: false,
            };
            self.emit(sgxt, &[Dst::Reg(t)], &[v, Src::imm(24)]);
        } else {
            let prmt = Opcode::Prmt {
                mode: PrmtMode::Index,
            };
            self.emit(prmt, &[Dst::Reg(t)], &[v, Src::imm(0x7210), Src::ZERO]);
        }
        Src::reg(t)
    }

    /// `slct.dt.ct d, a, b, c`: `d = c >= 0 ? a : b`, the test in `c`'s type (`.s32` or `.f32`,
    /// where NaN selects `b` and `.ftz` reads a subnormal `c` as zero).
    fn slct(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands_exactly(i, 4)?;
        let test_type = i.types().last().copied().ok_or_else(|| unsupported(i))?;
        if i.types().iter().any(|t| t.size_bytes() != 4) {
            return Err(unsupported(i));
        }
        let d = self.dst(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let b = self.src32(&o[2])?;
        let b = self.in_reg_unless_imm(b);
        let c = self.reg_src32(&o[3])?;
        let p = self.temp_pred();
        let test = if test_type == Type::F32 {
            Opcode::Fsetp {
                cmp: FloatCmp::Ge,
                combine: BoolOp::And,
                ftz: i.has_mod("ftz"),
            }
        } else {
            Opcode::Isetp {
                cmp: IntCmp::Ge,
                signed: true,
                combine: BoolOp::And,
                ex: false,
            }
        };
        self.emit(test, &[Dst::Reg(p), Dst::None], &[c, Src::ZERO, Src::TRUE]);
        self.emit(Opcode::Sel, &[Dst::Reg(d)], &[a, b, Src::reg(p)]);
        Ok(())
    }

    /// `cnot.b32 d, a`: 1 where `a` is zero, else 0.
    fn cnot(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands_exactly(i, 2)?;
        let d = self.dst(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let zero = self.temp_pred();
        let eq = Opcode::Isetp {
            cmp: IntCmp::Eq,
            signed: false,
            combine: BoolOp::And,
            ex: false,
        };
        self.emit(eq, &[Dst::Reg(zero), Dst::None], &[a, Src::ZERO, Src::TRUE]);
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(d)],
            &[Src::ZERO, Src::imm(1), Src::reg(zero).negated()],
        );
        Ok(())
    }

    /// `szext.{clamp,wrap}.{s32,u32} d, a, n`: SGXT, whose `.W` takes `n` modulo 32.
    fn szext(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands_exactly(i, 3)?;
        let signed = i.ty().is_some_and(|t| t.is_signed());
        let d = self.dst(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let n = self.src32(&o[2])?;
        let n = self.in_reg_unless_imm(n);
        let sgxt = Opcode::Sgxt {
            signed,
            wrap: i.has_mod("wrap"),
        };
        self.emit(sgxt, &[Dst::Reg(d)], &[a, n]);
        Ok(())
    }
}
