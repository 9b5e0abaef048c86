//! f32 arithmetic and comparisons: FADD, FMUL, FFMA, FMNMX, FSETP (`.sat` as an FMNMX clamp).
//! Float immediates go through MOV.

use ptxforge_ptx::ast::{Instruction, Operand, Type};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// LOP3 truth table `b ? c : a` (bits of `c` where the mask `b` is set, of `a` elsewhere).
const LUT_MASK_SELECTS_C: u8 = 0xb8;

impl Ctx<'_> {
    pub fn lower_float(&mut self, i: &Instruction) -> LResult<()> {
        let ty = i.types().last().copied().ok_or("missing type")?;
        if i.opcode() == "testp" {
            return self.lower_testp(i, ty);
        }
        if i.opcode() == "copysign" && matches!(ty, Type::F32 | Type::F64) {
            return self.copysign(i, ty);
        }
        if let Some(done) = self.lower_mufu(i, ty) {
            return done;
        }
        if ty == Type::F64 {
            return self.lower_double(i);
        }
        if crate::half::is_half(ty) {
            return self.lower_half(i, ty);
        }
        if ty != Type::F32 {
            return Err(format!(
                "'{}.{}' is not supported yet",
                i.opcode(),
                i.mods().join(".")
            ));
        }
        if i.has_mod("sat") && matches!(i.opcode(), "add" | "sub" | "mul" | "fma" | "mad") {
            self.lower_f32(i, false)?;
            let d = self.dst(&i.operands[0])?;
            self.saturate_f32(d, i.has_mod("ftz"));
            return Ok(());
        }
        self.lower_f32(i, i.has_mod("sat"))
    }

    /// `.sat` on an f32 result: clamped to [+0, 1] in place, a NaN to +0 (FMNMX keeps the
    /// number), as FADD.SAT would leave it.
    pub(crate) fn saturate_f32(&mut self, d: Reg, ftz: bool) {
        let one = self.in_reg(Src::imm(0x3f80_0000));
        self.emit(
            Opcode::Fmnmx { ftz },
            &[Dst::Reg(d)],
            &[Src::reg(d), Src::ZERO, Src::FALSE],
        );
        self.emit(
            Opcode::Fmnmx { ftz },
            &[Dst::Reg(d)],
            &[Src::reg(d), one, Src::TRUE],
        );
    }

    /// The f32 ops (`sat`: a `.sat` not handled by the caller).
    fn lower_f32(&mut self, i: &Instruction, sat: bool) -> LResult<()> {
        let ftz = i.has_mod("ftz");
        if i.opcode() == "sqrt" && i.has_mod("rn") && !ftz {
            return self.sqrt_rn_f32(i);
        }
        if matches!(i.opcode(), "add" | "sub" | "mul") && !sat {
            let rnd = crate::double::rounding(i)?;
            if rnd != Round::Rn {
                return self.fbinary(i, ftz, rnd);
            }
        }
        if i.opcode() == "fma" && !sat {
            let rnd = crate::double::rounding(i)?;
            if rnd != Round::Rn {
                let [d, a, b, c] = self.fregs::<4>(i)?;
                let d = [Dst::Reg(d.as_reg().unwrap())];
                self.emit(Opcode::FfmaRound { ftz, rnd }, &d, &[a, b, c]);
                return Ok(());
            }
        }
        if sat
            || i.mods()
                .iter()
                .any(|m| matches!(m.as_str(), "rz" | "rm" | "rp" | "approx" | "full"))
        {
            return Err(format!(
                "'{}.{}' is not supported yet",
                i.opcode(),
                i.mods().join(".")
            ));
        }
        match i.opcode() {
            "add" | "sub" | "mul" => self.fbinary(i, ftz, Round::Rn),
            "fma" | "mad" => {
                let [d, a, b, c] = self.fregs::<4>(i)?;
                self.emit(
                    Opcode::Ffma { ftz },
                    &[Dst::Reg(d.as_reg().unwrap())],
                    &[a, b, c],
                );
                Ok(())
            }
            "neg" | "abs" => {
                let [d, a] = self.fregs::<2>(i)?;
                let a = if i.opcode() == "neg" {
                    a.negated()
                } else {
                    a.absolute()
                };
                self.emit(
                    Opcode::Fadd {
                        ftz,
                        rnd: Round::Rn,
                    },
                    &[Dst::Reg(d.as_reg().unwrap())],
                    &[a, Src::ZERO.negated()],
                );
                Ok(())
            }
            "min" | "max" => {
                let [d, a, b] = self.fregs::<3>(i)?;
                let sel = if i.opcode() == "min" {
                    Src::TRUE
                } else {
                    Src::FALSE
                };
                self.emit(
                    Opcode::Fmnmx { ftz },
                    &[Dst::Reg(d.as_reg().unwrap())],
                    &[a, b, sel],
                );
                Ok(())
            }
            "setp" => {
                let dsts = self.setp_dsts(&i.operands[0])?;
                self.setp_float(i, ftz, dsts)
            }
            _ => Err(format!(
                "'{}.{}' is not supported yet",
                i.opcode(),
                i.mods().join(".")
            )),
        }
    }

    /// Destination register and N-1 sources, all in registers.
    /// `copysign.f32 d, a, b` / `copysign.f64`: the magnitude of `b` with the sign of `a`, as
    /// ptxas writes it: one LOP3 on the (high) word, `sign mask ? a : b`; an f64's low word is
    /// `b`'s.
    fn copysign(&mut self, i: &Instruction, ty: Type) -> LResult<()> {
        crate::ctx::operands_exactly(i, 3)?;
        let d = self.dst(&i.operands[0])?;
        let (sign_word, magnitude_word, d_word) = if ty == Type::F64 {
            if d.comps != 2 {
                return Err(format!(
                    "expected a 64-bit register, found {:?}",
                    i.operands[0]
                ));
            }
            let (_, a_hi) = self.src64(&i.operands[1])?;
            let (b_lo, b_hi) = self.src64(&i.operands[2])?;
            self.emit(Opcode::Mov, &[Dst::Reg(d.part(0))], &[b_lo]);
            (a_hi, b_hi, d.part(1))
        } else {
            let a = self.src32(&i.operands[1])?;
            let b = self.src32(&i.operands[2])?;
            (a, b, d)
        };
        let magnitude = self.in_reg(magnitude_word);
        let sign = self.in_reg(sign_word);
        self.emit(
            Opcode::Lop3 {
                lut: LUT_MASK_SELECTS_C,
            },
            &[Dst::Reg(d_word), Dst::None],
            &[magnitude, Src::imm(0x8000_0000), sign, Src::FALSE],
        );
        Ok(())
    }

    fn fregs<const N: usize>(&mut self, i: &Instruction) -> LResult<[Src; N]> {
        crate::ctx::operands_exactly(i, N)?;
        let mut out = [Src::ZERO; N];
        out[0] = Src::reg(self.dst(&i.operands[0])?);
        for k in 1..N {
            out[k] = self.float_src(&i.operands[k])?;
        }
        Ok(out)
    }

    fn float_src(&mut self, op: &Operand) -> LResult<Src> {
        let s = self.src32(op)?;
        Ok(self.in_reg(s))
    }

    /// `add sub mul` on f32 in any rounding mode (FADD.RZ, FMUL.RZ ...).
    fn fbinary(&mut self, i: &Instruction, ftz: bool, rnd: Round) -> LResult<()> {
        let [d, a, b] = self.fregs::<3>(i)?;
        let d = [Dst::Reg(d.as_reg().unwrap())];
        match i.opcode() {
            "add" => self.emit(Opcode::Fadd { ftz, rnd }, &d, &[a, b]),
            "sub" => self.emit(Opcode::Fadd { ftz, rnd }, &d, &[a, b.negated()]),
            _ if rnd == Round::Rn => self.emit(Opcode::Fmul { ftz }, &d, &[a, b]),
            _ => self.emit(Opcode::FmulRound { ftz, rnd }, &d, &[a, b]),
        }
        Ok(())
    }

    /// `setp` (or `set`'s compare) on f32 sources into `d0, d1`.
    pub(crate) fn setp_float(
        &mut self,
        i: &Instruction,
        ftz: bool,
        (d0, d1): (Dst, Dst),
    ) -> LResult<()> {
        crate::int::check_setp_arity(i)?;
        let cmp = float_cmp(i)?;
        let (combine, accum) = self.setp_combine(i)?;
        let a = self.float_src(&i.operands[1])?;
        let b = self.float_src(&i.operands[2])?;
        self.emit(
            Opcode::Fsetp { cmp, combine, ftz },
            &[d0, d1],
            &[a, b, accum],
        );
        Ok(())
    }
}

/// Whether `m` names a float comparison (`lt`, `geu`, `num` ...).
pub(crate) fn is_float_cmp_name(m: &str) -> bool {
    cmp_of(m).is_some()
}

pub(crate) fn float_cmp(i: &Instruction) -> LResult<FloatCmp> {
    i.mods()
        .iter()
        .find_map(|m| cmp_of(m))
        .ok_or_else(|| "setp needs a comparison".into())
}

fn cmp_of(m: &str) -> Option<FloatCmp> {
    use FloatCmp::*;
    Some(match m {
        "eq" => Eq,
        "ne" => Ne,
        "lt" => Lt,
        "le" => Le,
        "gt" => Gt,
        "ge" => Ge,
        "equ" => Equ,
        "neu" => Neu,
        "ltu" => Ltu,
        "leu" => Leu,
        "gtu" => Gtu,
        "geu" => Geu,
        "num" => Num,
        "nan" => Nan,
        _ => return None,
    })
}
