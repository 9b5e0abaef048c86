//! `cvt` with a 64-bit side: integers to f32/f64 (I2F 0x312), f32/f64 to integers (F2I 0x311) and
//! between f32 and f64 (F2F), in every rounding mode PTX allows.

use ptxforge_ptx::ast::{Instruction, Type};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

impl Ctx<'_> {
    /// `cvt.rnd.dst.src` where the source or the destination is 64-bit and one of them is a float.
    pub fn cvt_wide(&mut self, i: &Instruction, dt: Type, st: Type) -> LResult<()> {
        if i.operands.len() != 2 {
            return Err(format!(
                "Arguments mismatch for instruction '{}'",
                i.opcode()
            ));
        }
        let (dst, src) = (
            num_format(dt).ok_or_else(|| unsupported(i))?,
            num_format(st).ok_or_else(|| unsupported(i))?,
        );
        let op = match (dt.is_float(), st.is_float()) {
            (true, false) if !i.has_mod("sat") => Opcode::I2fWide {
                dst,
                src,
                rnd: float_rounding(i)?,
            },
            (false, true) => Opcode::F2iWide {
                dst,
                src,
                rnd: integral_rounding(i)?,
            },
            (true, true) if dst != src && !i.has_mod("sat") => {
                // f32 -> f64 is exact (PTX gives it no rounding modifier).
                let rnd = if dst == NumFormat::F32 {
                    float_rounding(i)?
                } else {
                    Round::Rn
                };
                Opcode::F2f { dst, src, rnd }
            }
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
        self.emit(op, &[Dst::Reg(d)], &[a]);
        Ok(())
    }
}

fn num_format(t: Type) -> Option<NumFormat> {
    Some(match t {
        Type::F32 => NumFormat::F32,
        Type::F64 => NumFormat::F64,
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

fn unsupported(i: &Instruction) -> String {
    format!(
        "'{}.{}' is not supported yet",
        i.opcode(),
        i.mods().join(".")
    )
}
