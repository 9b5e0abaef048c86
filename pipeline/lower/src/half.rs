//! Half-precision arithmetic and comparisons on f16, f16x2, bf16 and bf16x2: HADD2, HMUL2, HFMA2,
//! HSETP2 and HMNMX2. A scalar reads the low half of its register into both lanes (`.H0_H0`); a
//! packed pair is used as it is.

use ptxforge_ptx::ast::{Instruction, Type};
use ptxforge_sass::ir::*;

use crate::ctx::unsupported;
use crate::ctx::{Ctx, LResult};
use crate::float::float_cmp;

/// Which of the four half types an instruction works on.
#[derive(Copy, Clone)]
struct HalfType {
    bf16: bool,
    packed: bool,
}

impl HalfType {
    fn of(ty: Type) -> Option<HalfType> {
        Some(match ty {
            Type::F16 => HalfType {
                bf16: false,
                packed: false,
            },
            Type::F16x2 => HalfType {
                bf16: false,
                packed: true,
            },
            Type::BF16 => HalfType {
                bf16: true,
                packed: false,
            },
            Type::BF16x2 => HalfType {
                bf16: true,
                packed: true,
            },
            _ => return None,
        })
    }

    fn swizzle(self) -> HalfSwizzle {
        if self.packed {
            HalfSwizzle::H1H0
        } else {
            HalfSwizzle::H0H0
        }
    }
}

/// The half-precision instructions of a `.f16`/`.bf16` (or x2) type.
pub(crate) fn is_half(ty: Type) -> bool {
    HalfType::of(ty).is_some()
}

impl Ctx<'_> {
    pub(crate) fn lower_half(&mut self, i: &Instruction, ty: Type) -> LResult<()> {
        let ht = HalfType::of(ty).ok_or_else(|| unsupported(i))?;
        // f16 arithmetic rounds to nearest only; `.rn` may be written out.
        let known = [
            "rn", "ftz", "sat", "relu", "NaN", "f16", "f16x2", "bf16", "bf16x2",
        ];
        let is_setp_mod = |m: &str| {
            i.opcode() == "setp"
                && (crate::float::is_float_cmp_name(m) || matches!(m, "and" | "or" | "xor"))
        };
        if i.mods()
            .iter()
            .any(|m| !known.contains(&m.as_str()) && !is_setp_mod(m))
        {
            return Err(unsupported(i));
        }
        let (ftz, sat, relu) = (i.has_mod("ftz"), i.has_mod("sat"), i.has_mod("relu"));
        match i.opcode() {
            "add" | "sub" | "mul" | "fma" | "neg" | "abs" => self.half_arith(i, ht, ftz, sat, relu),
            "min" | "max" if !sat && !relu => self.half_minmax(i, ht, ftz),
            "setp" if !sat && !relu => self.half_setp(i, ht, ftz),
            _ => Err(unsupported(i)),
        }
    }

    fn half_arith(
        &mut self,
        i: &Instruction,
        ht: HalfType,
        ftz: bool,
        sat: bool,
        relu: bool,
    ) -> LResult<()> {
        let n = match i.opcode() {
            "neg" | "abs" => 2,
            "fma" => 4,
            _ => 3,
        };
        crate::ctx::operands_exactly(i, n)?;
        let d = self.dst(&i.operands[0])?;
        let mut s = Vec::with_capacity(3);
        for op in &i.operands[1..] {
            s.push(self.reg_src32(op)?);
        }
        let sw = ht.swizzle();
        let zero = Src::ZERO;
        // (operation, sources, swizzles): neg/abs add -0 (or, for bf16 before sm_90, which has
        // no HADD2.BF16_V2, fma -0 * 0 + x).
        let bf16_fma = ht.bf16 && self.sm.num < 90;
        let (op, srcs, swz) = match i.opcode() {
            "add" => (HalfOp::Add, [s[0], s[1], zero], [sw, sw, sw]),
            "sub" => (HalfOp::Add, [s[0], s[1].negated(), zero], [sw, sw, sw]),
            "mul" => (HalfOp::Mul, [s[0], s[1], zero], [sw, sw, sw]),
            "fma" => (HalfOp::Fma, [s[0], s[1], s[2]], [sw, sw, sw]),
            "neg" | "abs" => {
                let x = if i.opcode() == "neg" {
                    s[0].negated()
                } else {
                    s[0].absolute()
                };
                let z = HalfSwizzle::H0H0;
                if bf16_fma {
                    (HalfOp::Fma, [zero.negated(), zero, x], [z, z, sw])
                } else {
                    (HalfOp::Add, [x, zero.negated(), zero], [sw, z, z])
                }
            }
            _ => return Err(unsupported(i)),
        };
        if bf16_fma && op != HalfOp::Fma {
            return Err(unsupported(i));
        }
        if relu && op != HalfOp::Fma {
            return Err(unsupported(i));
        }
        self.emit(
            Opcode::Half2 {
                op,
                bf16: ht.bf16,
                ftz,
                sat,
                relu,
                f32_out: false,
                swz,
            },
            &[Dst::Reg(d)],
            &srcs,
        );
        Ok(())
    }

    fn half_minmax(&mut self, i: &Instruction, ht: HalfType, ftz: bool) -> LResult<()> {
        crate::ctx::operands_exactly(i, 3)?;
        let d = self.dst(&i.operands[0])?;
        let a = self.reg_src32(&i.operands[1])?;
        let b = self.reg_src32(&i.operands[2])?;
        let sel = if i.opcode() == "min" {
            Src::TRUE
        } else {
            Src::FALSE
        };
        let sw = ht.swizzle();
        self.emit(
            Opcode::Hmnmx2 {
                bf16: ht.bf16,
                ftz,
                nan: i.has_mod("NaN"),
                swz: [sw, sw],
            },
            &[Dst::Reg(d)],
            &[a, b, sel],
        );
        Ok(())
    }

    /// `setp.cmp[.bool].f16 p[|q], a, b[, c]`; the packed forms write p from the low halves and
    /// q from the high halves.
    fn half_setp(&mut self, i: &Instruction, ht: HalfType, ftz: bool) -> LResult<()> {
        crate::int::check_setp_arity(i)?;
        let cmp = float_cmp(i)?;
        let (combine, accum) = self.setp_combine(i)?;
        let (d0, d1) = self.setp_dsts(&i.operands[0])?;
        if !ht.packed && d1 != Dst::None {
            return Err(unsupported(i));
        }
        let a = self.reg_src32(&i.operands[1])?;
        let b = self.reg_src32(&i.operands[2])?;
        let sw = ht.swizzle();
        self.emit(
            Opcode::Hsetp2 {
                cmp,
                combine,
                ftz,
                bf16: ht.bf16,
                swz: [sw, sw],
            },
            &[d0, d1],
            &[a, b, accum],
        );
        Ok(())
    }
}
