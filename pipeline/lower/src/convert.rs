//! `cvt` between every integer width, f16, bf16, f32 and f64 (the forms other than f32 <-> 32-bit
//! integers, which `int.rs` lowers): I2F, F2I and F2F in every rounding mode PTX allows, HADD2.F32
//! for f16 to f32, F2FP.PACK_AB (sm_80+) for f32 to f16/bf16 and the packed pairs, a byte
//! permutation for bf16 to f32.

use ptxforge_ptx::ast::{Instruction, Type};
use ptxforge_sass::ir::*;

use crate::ctx::unsupported;
use crate::ctx::{Ctx, LResult};

impl Ctx<'_> {
    /// `cvt{.rnd}{.ftz}{.sat}.dst.src` where a side is 64-bit, 8- or 16-bit, or a half type.
    pub fn cvt_general(&mut self, i: &Instruction, dt: Type, st: Type) -> LResult<()> {
        if matches!(dt, Type::F16x2 | Type::BF16x2) {
            return self.cvt_pack_pair(i, dt, st);
        }
        crate::ctx::operands_exactly(i, 2)?;
        let (dst, src) = (
            num_format(dt).ok_or_else(|| unsupported(i))?,
            num_format(st).ok_or_else(|| unsupported(i))?,
        );
        if i.has_mod("relu") || i.has_mod("satfinite") {
            return Err(unsupported(i));
        }
        let d = self.dst(&i.operands[0])?;
        if (d.comps == 2) != dst.is_wide() {
            return Err(format!(
                "'{}' needs a {}-bit destination register",
                i.opcode(),
                if dst.is_wide() { 64 } else { 32 }
            ));
        }
        let a = if src.is_wide() {
            self.double_src(&i.operands[1])?
        } else {
            self.reg_src32(&i.operands[1])?
        };
        if dst.is_float() && src.is_float() {
            return self.cvt_float_float(i, d, dst, src, a);
        }
        let op = match (dst.is_float(), src.is_float()) {
            (true, false) if !i.has_mod("sat") && dst != NumFormat::Bf16 => Opcode::I2fWide {
                dst,
                src,
                rnd: float_rounding(i)?,
            },
            // F2I saturates to the result type, so `.sat` changes nothing.
            // From bf16 only on sm_90 (F2I.*.BF16), as the front end requires.
            (false, true) if src != NumFormat::Bf16 || self.sm.num >= 90 => Opcode::F2iWide {
                dst,
                src,
                rnd: integral_rounding(i)?,
            },
            _ => return Err(unsupported(i)),
        };
        // A flushed subnormal input only matters where it could round away from zero.
        let flush_matters = !matches!(
            op,
            Opcode::F2iWide {
                rnd: Round::Rn | Round::Rz,
                ..
            }
        );
        if i.has_mod("ftz") && flush_matters {
            return Err(unsupported(i));
        }
        self.emit(op, &[Dst::Reg(d)], &[a]);
        Ok(())
    }

    /// Conversions between floats: exact widenings, and narrowings rounded by `.rnd`.
    fn cvt_float_float(
        &mut self,
        i: &Instruction,
        d: Reg,
        dst: NumFormat,
        src: NumFormat,
        a: Src,
    ) -> LResult<()> {
        use NumFormat::*;
        if (dst, src) == (F32, F32) {
            let ftz = i.has_mod("ftz");
            match integral_rounding(i) {
                Ok(rnd) => self.emit(Opcode::Frnd { ftz, rnd }, &[Dst::Reg(d)], &[a]),
                Err(_) if i.has_mod("sat") => self.emit(Opcode::Mov, &[Dst::Reg(d)], &[a]),
                Err(e) => return Err(e),
            }
            if i.has_mod("sat") {
                self.saturate_f32(d, ftz);
            }
            return Ok(());
        }
        if (dst, src) == (F64, F64) && !i.has_mod("sat") {
            return self.frnd_f64(d, a, integral_rounding(i)?);
        }
        if matches!((dst, src), (F16, F16) | (Bf16, Bf16)) && !i.has_mod("sat") && !i.has_mod("ftz")
        {
            let (rnd, bf16) = (integral_rounding(i)?, dst == Bf16);
            let a = self.in_reg(a);
            self.emit(Opcode::FrndHalf { rnd, bf16 }, &[Dst::Reg(d)], &[a]);
            return Ok(());
        }
        if dst == src || i.has_mod("sat") {
            return Err(unsupported(i));
        }
        let widening = matches!((src, dst), (F16 | Bf16, F32 | F64) | (F32, F64));
        if i.has_mod("ftz") && !widening {
            return Err(unsupported(i));
        }
        let rnd = if widening {
            Round::Rn
        } else {
            float_rounding(i)?
        };
        let z = HalfSwizzle::H0H0;
        match (dst, src) {
            (F32, F16) => self.emit(
                Opcode::Half2 {
                    op: HalfOp::Add,
                    bf16: false,
                    ftz: false,
                    sat: false,
                    relu: false,
                    f32_out: true,
                    swz: [z, z, z],
                },
                &[Dst::Reg(d)],
                &[a, Src::ZERO.negated()],
            ),
            // The bf16 bits become the high half of the f32.
            (F32, Bf16) => self.emit(
                Opcode::Prmt {
                    mode: PrmtMode::Index,
                },
                &[Dst::Reg(d)],
                &[a, Src::imm(0x1044), Src::ZERO],
            ),
            (F16 | Bf16, F32) if self.sm.num >= 80 && matches!(rnd, Round::Rn | Round::Rz) => self
                .emit(
                    Opcode::F2fp {
                        bf16: dst == Bf16,
                        rnd,
                        relu: false,
                    },
                    &[Dst::Reg(d)],
                    &[Src::ZERO, a],
                ),
            (F16, F32) | (F16, F64) | (F64, F16) | (F32, F64) | (F64, F32) | (Bf16, F64) => {
                self.emit(Opcode::F2f { dst, src, rnd }, &[Dst::Reg(d)], &[a])
            }
            // bf16 from f32 rounded down or up: F2F.BF16.F32.RM/.RP (sm_80+).
            (Bf16, F32) if self.sm.num >= 80 => {
                self.emit(Opcode::F2f { dst, src, rnd }, &[Dst::Reg(d)], &[a])
            }
            _ => return Err(unsupported(i)),
        }
        Ok(())
    }

    /// `cvt.rnd{.relu}.f16x2.f32 d, a, b` (and bf16x2): a into the high half, b into the low half.
    fn cvt_pack_pair(&mut self, i: &Instruction, dt: Type, st: Type) -> LResult<()> {
        let extra = i
            .mods()
            .iter()
            .any(|m| matches!(m.as_str(), "satfinite" | "sat" | "ftz"));
        if st != Type::F32 || i.operands.len() != 3 || extra || self.sm.num < 80 {
            return Err(unsupported(i));
        }
        let rnd = float_rounding(i)?;
        if !matches!(rnd, Round::Rn | Round::Rz) {
            return Err(unsupported(i));
        }
        let d = self.dst(&i.operands[0])?;
        let a = self.reg_src32(&i.operands[1])?;
        let b = self.reg_src32(&i.operands[2])?;
        self.emit(
            Opcode::F2fp {
                bf16: dt == Type::BF16x2,
                rnd,
                relu: i.has_mod("relu"),
            },
            &[Dst::Reg(d)],
            &[a, b],
        );
        Ok(())
    }
}

fn num_format(t: Type) -> Option<NumFormat> {
    Some(match t {
        Type::F16 => NumFormat::F16,
        Type::BF16 => NumFormat::Bf16,
        Type::F32 => NumFormat::F32,
        Type::F64 => NumFormat::F64,
        Type::S8 => NumFormat::S8,
        Type::U8 | Type::B8 => NumFormat::U8,
        Type::S16 => NumFormat::S16,
        Type::U16 | Type::B16 => NumFormat::U16,
        Type::S32 => NumFormat::S32,
        Type::U32 | Type::B32 => NumFormat::U32,
        Type::S64 => NumFormat::S64,
        Type::U64 | Type::B64 => NumFormat::U64,
        _ => return None,
    })
}

/// `.rn/.rz/.rm/.rp`, required on conversions that round to a float.
fn float_rounding(i: &Instruction) -> LResult<Round> {
    rounding_of(i, ["rn", "rm", "rp", "rz"])
}

/// `.rni/.rzi/.rmi/.rpi`, required on float to integer conversions.
fn integral_rounding(i: &Instruction) -> LResult<Round> {
    rounding_of(i, ["rni", "rmi", "rpi", "rzi"])
}

fn rounding_of(i: &Instruction, names: [&str; 4]) -> LResult<Round> {
    let modes = [Round::Rn, Round::Rm, Round::Rp, Round::Rz];
    let found: Vec<Round> = i
        .mods()
        .iter()
        .filter_map(|m| names.iter().position(|n| n == m).map(|k| modes[k]))
        .collect();
    match found[..] {
        [r] => Ok(r),
        _ => Err(unsupported(i)),
    }
}
