//! Integer bit operations: `clz`, `popc`, `brev`, `bfind` (`bits64.rs`), `bmsk`, `bfi`, `lop3`, `prmt`
//! (every mode), as ptxas selects them (FLO, POPC, BREV, BMSK, SHF + LOP3).

use ptxforge_ptx::ast::{Instruction, Operand};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// LOP3 table of `(a & b) | (c & !b)`: insert a's bits where the mask b is set.
const LUT_INSERT: u8 = 0xe2;

use crate::ctx::operands_exactly as operands;
use crate::ctx::unsupported;

/// SHF.L.U32: a 32-bit shift left (by 32 or more: 0).
fn shl_u32() -> Opcode {
    crate::intops::shf(false, false, false, false)
}

/// An immediate operand's value.
fn imm(op: &Operand) -> Option<i128> {
    match op {
        Operand::Imm(v) => Some(*v),
        _ => None,
    }
}

/// Whether `bfi`'s position and length are both immediates.
fn immediate_fields(i: &Instruction) -> bool {
    matches!(
        (i.operands.get(3), i.operands.get(4)),
        (Some(Operand::Imm(_)), Some(Operand::Imm(_)))
    )
}

impl Ctx<'_> {
    /// Dispatches the bit operations; `wide` when the type is 64-bit.
    pub fn lower_bits(&mut self, i: &Instruction, wide: bool) -> LResult<()> {
        match (i.opcode(), wide) {
            ("clz", false) => self.clz32(i),
            ("clz", true) => self.clz64(i),
            ("popc", _) => self.popc(i, wide),
            ("brev", _) => self.brev(i, wide),
            ("bfind", false) => self.bfind32(i),
            ("bfind", true) => self.bfind64(i),
            ("bmsk", false) => self.bmsk(i),
            ("bfi", false) => self.bfi32(i),
            ("bfi", true) if !immediate_fields(i) => self.bfi64_fields(i),
            ("bfi", true) => self.bfi64(i),
            ("lop3", false) => self.lop3(i),
            ("prmt", false) => self.prmt(i),
            _ => Err(unsupported(i)),
        }
    }

    /// `31 - FLO(a)`: FLO gives -1 for zero, so clz(0) = 32.
    fn clz32(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands(i, 2)?;
        let (d, a) = (self.dst(&o[0])?, self.reg_src32(&o[1])?);
        let t = self.temp();
        self.emit(
            Opcode::Flo {
                signed: false,
                sh: false,
            },
            &[Dst::Reg(t)],
            &[a],
        );
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d), Dst::None],
            &[Src::reg(t).negated(), Src::imm(0x1f), Src::ZERO],
        );
        Ok(())
    }

    /// High half non-zero ? 31 - FLO(hi) : 63 - FLO(lo) (64 for zero).
    fn clz64(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands(i, 2)?;
        let d = self.dst(&o[0])?;
        let (lo, hi) = self.src64(&o[1])?;
        let (lo, hi) = (self.in_reg(lo), self.in_reg(hi));
        let (fh, fl, ch, cl) = (self.temp(), self.temp(), self.temp(), self.temp());
        self.emit(
            Opcode::Flo {
                signed: false,
                sh: false,
            },
            &[Dst::Reg(fh)],
            &[hi],
        );
        self.emit(
            Opcode::Flo {
                signed: false,
                sh: false,
            },
            &[Dst::Reg(fl)],
            &[lo],
        );
        let p = self.temp_pred();
        let ne = Opcode::Isetp {
            cmp: IntCmp::Ne,
            signed: false,
            combine: BoolOp::And,
            ex: false,
        };
        self.emit(ne, &[Dst::Reg(p), Dst::None], &[hi, Src::ZERO, Src::TRUE]);
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(ch), Dst::None],
            &[Src::reg(fh).negated(), Src::imm(0x1f), Src::ZERO],
        );
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(cl), Dst::None],
            &[Src::reg(fl).negated(), Src::imm(0x3f), Src::ZERO],
        );
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(d)],
            &[Src::reg(ch), Src::reg(cl), Src::reg(p)],
        );
        Ok(())
    }

    /// POPC, summing the halves of a 64-bit value.
    fn popc(&mut self, i: &Instruction, wide: bool) -> LResult<()> {
        let o = operands(i, 2)?;
        let d = self.dst(&o[0])?;
        if !wide {
            let a = self.reg_src32(&o[1])?;
            self.emit(Opcode::Popc, &[Dst::Reg(d)], &[a]);
            return Ok(());
        }
        let (lo, hi) = self.src64(&o[1])?;
        let (lo, hi) = (self.in_reg(lo), self.in_reg(hi));
        let (cl, ch) = (self.temp(), self.temp());
        self.emit(Opcode::Popc, &[Dst::Reg(cl)], &[lo]);
        self.emit(Opcode::Popc, &[Dst::Reg(ch)], &[hi]);
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d), Dst::None],
            &[Src::reg(cl), Src::reg(ch), Src::ZERO],
        );
        Ok(())
    }

    /// BREV; a 64-bit value reverses each half into the other.
    fn brev(&mut self, i: &Instruction, wide: bool) -> LResult<()> {
        let o = operands(i, 2)?;
        let d = self.dst(&o[0])?;
        if !wide {
            let a = self.reg_src32(&o[1])?;
            self.emit(Opcode::Brev, &[Dst::Reg(d)], &[a]);
            return Ok(());
        }
        let (lo, hi) = self.src64(&o[1])?;
        let (lo, hi) = (self.in_reg(lo), self.in_reg(hi));
        let (rl, rh) = (self.temp(), self.temp());
        self.emit(Opcode::Brev, &[Dst::Reg(rl)], &[hi]);
        self.emit(Opcode::Brev, &[Dst::Reg(rh)], &[lo]);
        self.emit(Opcode::Mov, &[Dst::Reg(d.part(0))], &[Src::reg(rl)]);
        self.emit(Opcode::Mov, &[Dst::Reg(d.part(1))], &[Src::reg(rh)]);
        Ok(())
    }

    /// `bmsk.{clamp,wrap}.b32 d, start, width`: BMSK[.W].
    fn bmsk(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands(i, 3)?;
        let wrap = i.has_mod("wrap");
        if !wrap && !i.has_mod("clamp") {
            return Err(unsupported(i));
        }
        let d = self.dst(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let b = self.src32(&o[2])?;
        self.emit(Opcode::Bmsk { wrap }, &[Dst::Reg(d)], &[a, b]);
        Ok(())
    }

    /// `bfi.b32 d, a, b, pos, len`: `(a << pos)` under the mask of `len` bits from `pos`, `b` elsewhere.
    fn bfi32(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands(i, 5)?;
        let d = self.dst(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let b = self.reg_src32(&o[2])?;
        let mask = match (imm(&o[3]), imm(&o[4])) {
            (Some(pos), Some(len)) => {
                let (pos, len) = ((pos & 0xff) as u32, (len & 0xff) as u32);
                if len == 0 || pos >= 32 {
                    self.emit(Opcode::Mov, &[Dst::Reg(d)], &[b]);
                    return Ok(());
                }
                let end = (pos + len).min(32);
                Src::imm(((((1u64 << end) - 1) >> pos) << pos) as u32)
            }
            _ => {
                // Only the fields' low bytes count (pos 0x105 is 5): as bfe, through PRMT.
                let pos = self.field_byte(&o[3], 0x4)?;
                let pos = self.in_reg(pos);
                let len = self.field_byte(&o[4], 0x4)?;
                let m = self.temp();
                self.emit(Opcode::Bmsk { wrap: false }, &[Dst::Reg(m)], &[pos, len]);
                let shifted = self.temp();
                self.emit(shl_u32(), &[Dst::Reg(shifted)], &[a, pos, Src::ZERO]);
                self.emit(
                    Opcode::Lop3 { lut: LUT_INSERT },
                    &[Dst::Reg(d), Dst::None],
                    &[Src::reg(shifted), Src::reg(m), b, Src::FALSE],
                );
                return Ok(());
            }
        };
        let pos = self.src32(&o[3])?;
        let shifted = self.temp();
        self.emit(shl_u32(), &[Dst::Reg(shifted)], &[a, pos, Src::ZERO]);
        self.emit(
            Opcode::Lop3 { lut: LUT_INSERT },
            &[Dst::Reg(d), Dst::None],
            &[Src::reg(shifted), mask, b, Src::FALSE],
        );
        Ok(())
    }

    /// `bfi.b64 d, a, b, pos, len` with immediate fields: `a << pos` under the mask, per half.
    fn bfi64(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands(i, 5)?;
        let (Some(pos), Some(len)) = (imm(&o[3]), imm(&o[4])) else {
            return Err(unsupported(i));
        };
        let (pos, len) = ((pos & 0xff) as u32, (len & 0xff) as u32);
        let d = self.dst(&o[0])?;
        let (al, ah) = self.src64(&o[1])?;
        let (bl, bh) = self.src64(&o[2])?;
        let (al, ah) = (self.in_reg(al), self.in_reg(ah));
        if len == 0 || pos >= 64 {
            self.emit(Opcode::Mov, &[Dst::Reg(d.part(0))], &[bl]);
            self.emit(Opcode::Mov, &[Dst::Reg(d.part(1))], &[bh]);
            return Ok(());
        }
        let end = (pos + len).min(64);
        let mask = ((if end == 64 {
            u64::MAX
        } else {
            (1u64 << end) - 1
        }) >> pos)
            << pos;
        let shl = Opcode::Shf {
            right: false,
            signed: false,
            wide: false,
            hi: false,
        };
        let (sl, sh) = (self.temp(), self.temp());
        if pos >= 32 {
            self.emit(Opcode::Mov, &[Dst::Reg(sl)], &[Src::ZERO]);
            self.emit(shl, &[Dst::Reg(sh)], &[al, Src::imm(pos - 32), Src::ZERO]);
        } else {
            self.emit(shl, &[Dst::Reg(sl)], &[al, Src::imm(pos), Src::ZERO]);
            let funnel = Opcode::Shf {
                right: false,
                signed: false,
                wide: true,
                hi: true,
            };
            self.emit(funnel, &[Dst::Reg(sh)], &[al, Src::imm(pos), ah]);
        }
        for (k, shifted, b) in [(0u8, sl, bl), (1, sh, bh)] {
            let m = (mask >> (32 * k as u32)) as u32;
            let (dst, b) = (Dst::Reg(d.part(k)), self.in_reg(b));
            match m {
                0 => self.emit(Opcode::Mov, &[dst], &[b]),
                u32::MAX => self.emit(Opcode::Mov, &[dst], &[Src::reg(shifted)]),
                m => self.emit(
                    Opcode::Lop3 { lut: LUT_INSERT },
                    &[dst, Dst::None],
                    &[Src::reg(shifted), Src::imm(m), b, Src::FALSE],
                ),
            }
        }
        Ok(())
    }

    /// `lop3.b32 d, a, b, c, lut`; `lop3.{or,and}.b32 d|p, a, b, c, lut, q` (p = `d != 0` OR /
    /// AND q) as LOP3.LUT[.PAND] p, d, ..., q.
    fn lop3(&mut self, i: &Instruction) -> LResult<()> {
        if i.operands.len() == 6 {
            return self.lop3_pred(i);
        }
        let o = operands(i, 5)?;
        let lut = imm(&o[4]).ok_or("lop3 needs an immediate table")? as u8;
        let d = self.dst(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let b = self.src32(&o[2])?;
        let c = self.reg_src32(&o[3])?;
        self.emit(
            Opcode::Lop3 { lut },
            &[Dst::Reg(d), Dst::None],
            &[a, b, c, Src::FALSE],
        );
        Ok(())
    }

    fn lop3_pred(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands(i, 6)?;
        let (Operand::PredPair(pair), Some(lut)) = (&o[0], imm(&o[4])) else {
            return Err(unsupported(i));
        };
        let lut = lut as u8;
        let op = match (i.has_mod("and"), i.has_mod("or")) {
            (true, false) => Opcode::Lop3Pand { lut },
            (false, true) => Opcode::Lop3 { lut },
            _ => return Err(unsupported(i)),
        };
        let mut dst = |name: &str| -> LResult<Dst> {
            Ok(if name == "_" {
                Dst::None
            } else {
                Dst::Reg(self.vreg(name)?)
            })
        };
        let (d, p) = (dst(&pair.0)?, dst(&pair.1)?);
        let a = self.reg_src32(&o[1])?;
        let b = self.src32(&o[2])?;
        let c = self.reg_src32(&o[3])?;
        let q = self.pred_src(&o[5])?;
        self.emit(op, &[d, p], &[a, b, c, q]);
        Ok(())
    }

    /// `prmt.b32[.mode] d, a, b, selector`: PRMT[.MODE] d, a, selector, b.
    fn prmt(&mut self, i: &Instruction) -> LResult<()> {
        let mode = match i.mods().iter().find_map(|m| PrmtMode::from_ptx(m)) {
            Some(mode) => mode,
            None if i.mods().len() == 1 => PrmtMode::Index,
            None => return Err(unsupported(i)),
        };
        let o = operands(i, 4)?;
        let d = self.dst(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let b = self.reg_src32(&o[2])?;
        let sel = self.src32(&o[3])?;
        self.emit(Opcode::Prmt { mode }, &[Dst::Reg(d)], &[a, sel, b]);
        Ok(())
    }
}
