//! `testp.{finite,infinite,number,notanumber,normal,subnormal}.{f32,f64}` as ptxas selects
//! them: integer compares of the magnitude's bits (no float unit); `.normal` holds for zero too. An f64 is reduced to one word,
//! its high word's magnitude with bit 0 set when the low word is non-zero, which orders the same
//! way against the exponent boundaries.

use ptxforge_ptx::ast::{Instruction, Type};
use ptxforge_sass::ir::*;

use crate::ctx::operands_exactly as operands;
use crate::ctx::{Ctx, LResult};

const LUT_AND: u8 = 0xc0;
const LUT_OR: u8 = 0xfc;

/// The magnitude key's infinity and smallest normal for f32 and for an f64's high word.
fn bounds(ty: Type) -> (u32, u32) {
    if ty == Type::F64 {
        (0x7ff0_0000, 0x0010_0000)
    } else {
        (0x7f80_0000, 0x0080_0000)
    }
}

impl Ctx<'_> {
    pub(crate) fn lower_testp(&mut self, i: &Instruction, ty: Type) -> LResult<()> {
        let o = operands(i, 2)?;
        let form = i.mods().first().cloned().unwrap_or_default();
        let d = self.dst(&o[0])?;
        let key = match ty {
            Type::F32 => {
                let a = self.reg_src32(&o[1])?;
                self.magnitude(a)
            }
            Type::F64 => {
                let (lo, hi) = self.src64(&o[1])?;
                let (lo, hi) = (self.in_reg(lo), self.in_reg(hi));
                let m = self.magnitude(hi);
                let nz = self.temp_pred();
                self.compare(nz, IntCmp::Ne, lo, Src::ZERO);
                let bit = self.temp();
                self.emit(
                    Opcode::Sel,
                    &[Dst::Reg(bit)],
                    &[Src::ZERO, Src::imm(1), Src::reg(nz).negated()],
                );
                let k = self.temp();
                self.emit(
                    Opcode::Lop3 { lut: LUT_OR },
                    &[Dst::Reg(k), Dst::None],
                    &[m, Src::reg(bit), Src::ZERO, Src::FALSE],
                );
                Src::reg(k)
            }
            _ => {
                return Err(format!(
                    "'testp.{}' is not supported yet",
                    i.mods().join(".")
                ))
            }
        };
        let (inf, min_normal) = bounds(ty);
        match form.as_str() {
            "finite" => self.compare(d, IntCmp::Lt, key, Src::imm(inf)),
            "infinite" => self.compare(d, IntCmp::Eq, key, Src::imm(inf)),
            "number" => self.compare(d, IntCmp::Le, key, Src::imm(inf)),
            "notanumber" => self.compare(d, IntCmp::Gt, key, Src::imm(inf)),
            // min_normal <= key < inf (one unsigned compare), or zero, which PTX counts as normal;
            // 0 < key < min_normal likewise.
            "normal" => {
                let t = self.offset_key(key, min_normal);
                let in_range = self.temp_pred();
                self.compare(in_range, IntCmp::Lt, t, Src::imm(inf - min_normal));
                self.emit(
                    Opcode::Isetp {
                        cmp: IntCmp::Eq,
                        signed: false,
                        combine: BoolOp::Or,
                        ex: false,
                    },
                    &[Dst::Reg(d), Dst::None],
                    &[key, Src::ZERO, Src::reg(in_range)],
                );
            }
            "subnormal" => {
                let t = self.offset_key(key, 1);
                self.compare(d, IntCmp::Lt, t, Src::imm(min_normal - 1));
            }
            _ => {
                return Err(format!(
                    "'testp.{}' is not supported yet",
                    i.mods().join(".")
                ))
            }
        }
        Ok(())
    }

    /// `a & 0x7fffffff`.
    fn magnitude(&mut self, a: Src) -> Src {
        let m = self.temp();
        self.emit(
            Opcode::Lop3 { lut: LUT_AND },
            &[Dst::Reg(m), Dst::None],
            &[a, Src::imm(0x7fff_ffff), Src::ZERO, Src::FALSE],
        );
        Src::reg(m)
    }

    /// `key - by` (wrapping).
    fn offset_key(&mut self, key: Src, by: u32) -> Src {
        let t = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(t), Dst::None],
            &[key, Src::imm(by.wrapping_neg()), Src::ZERO],
        );
        Src::reg(t)
    }

    /// `d = a cmp b`, unsigned.
    fn compare(&mut self, d: Reg, cmp: IntCmp, a: Src, b: Src) {
        self.emit(
            Opcode::Isetp {
                cmp,
                signed: false,
                combine: BoolOp::And,
                ex: false,
            },
            &[Dst::Reg(d), Dst::None],
            &[a, b, Src::TRUE],
        );
    }
}
