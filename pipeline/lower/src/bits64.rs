//! `bfind` in every form (`.u32/.s32/.u64/.s64`, with and without `.shiftamt`) as FLO[.U32][.SH],
//! the 64-bit forms from the two halves as ptxas selects them; `bfi.b64` with register position
//! or length (ptxas's mask `(1 << len) - 1` shifted by 64-bit funnel shifts, inserted by LOP3).

use ptxforge_ptx::ast::{Instruction, Operand};
use ptxforge_sass::ir::*;

use crate::ctx::operands_exactly as operands;
use crate::ctx::{Ctx, LResult};

/// LOP3 table of `a | (b & !c)`: `a` (the shifted field) over `b` outside the mask `c`.
const LUT_OVER: u8 = 0xf4;
/// LOP3 table of `a & b`.
const LUT_AND: u8 = 0xc0;
/// LOP3 table of `a ^ b`.
const LUT_XOR: u8 = 0x3c;

fn shl32() -> Opcode {
    Opcode::Shf {
        right: false,
        signed: false,
        wide: false,
        hi: false,
    }
}

fn shl64_hi() -> Opcode {
    Opcode::Shf {
        right: false,
        signed: false,
        wide: true,
        hi: true,
    }
}

fn isetp_ne_u32() -> Opcode {
    Opcode::Isetp {
        cmp: IntCmp::Ne,
        signed: false,
        combine: BoolOp::And,
        ex: false,
    }
}

impl Ctx<'_> {
    /// `bfind[.shiftamt].{u32,s32} d, a`: one FLO.
    pub(crate) fn bfind32(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands(i, 2)?;
        let (d, a) = (self.dst(&o[0])?, self.reg_src32(&o[1])?);
        let signed = i.types().iter().any(|t| t.is_signed());
        let sh = i.has_mod("shiftamt");
        self.emit(Opcode::Flo { signed, sh }, &[Dst::Reg(d)], &[a]);
        Ok(())
    }

    /// `bfind[.shiftamt].{u64,s64} d, a`: the high half's FLO when it found a bit, else the low
    /// half's (of `~lo` for a negative signed value), moved on by 32 (`.shiftamt`: the high
    /// half's count as it is, the low half's plus 32, -1 kept).
    pub(crate) fn bfind64(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands(i, 2)?;
        let d = self.dst(&o[0])?;
        let (lo, hi) = self.src64(&o[1])?;
        let (lo, hi) = (self.in_reg(lo), self.in_reg(hi));
        let signed = i.types().iter().any(|t| t.is_signed());
        let sh = i.has_mod("shiftamt");
        let (fh, fl) = (self.temp(), self.temp());
        self.emit(Opcode::Flo { signed, sh }, &[Dst::Reg(fh)], &[hi]);
        let lo = if signed {
            // lo ^ (hi >> 31): the low half inverted when the value is negative.
            let (sign, flipped) = (self.temp(), self.temp());
            let sar = Opcode::Shf {
                right: true,
                signed: true,
                wide: false,
                hi: true,
            };
            self.emit(sar, &[Dst::Reg(sign)], &[Src::ZERO, Src::imm(31), hi]);
            self.emit(
                Opcode::Lop3 { lut: LUT_XOR },
                &[Dst::Reg(flipped), Dst::None],
                &[lo, Src::reg(sign), Src::ZERO, Src::FALSE],
            );
            Src::reg(flipped)
        } else {
            lo
        };
        let flo_u = Opcode::Flo { signed: false, sh };
        self.emit(flo_u, &[Dst::Reg(fl)], &[lo]);
        let (found_hi, found_lo) = (self.temp_pred(), self.temp_pred());
        let all_ones = Src::imm(u32::MAX);
        let ne = isetp_ne_u32();
        self.emit(
            ne,
            &[Dst::Reg(found_hi), Dst::None],
            &[Src::reg(fh), all_ones, Src::TRUE],
        );
        let (from_hi, from_lo) = if sh {
            // hi's count is the answer; lo's moves on by 32 unless it is -1.
            let (plus, low) = (self.temp(), self.temp());
            self.emit(
                ne,
                &[Dst::Reg(found_lo), Dst::None],
                &[Src::reg(fl), all_ones, Src::TRUE],
            );
            self.add_imm32(plus, Src::reg(fl), 32);
            self.emit(
                Opcode::Sel,
                &[Dst::Reg(low)],
                &[Src::reg(plus), all_ones, Src::reg(found_lo)],
            );
            (Src::reg(fh), Src::reg(low))
        } else {
            let plus = self.temp();
            self.add_imm32(plus, Src::reg(fh), 32);
            (Src::reg(plus), Src::reg(fl))
        };
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(d)],
            &[from_hi, from_lo, Src::reg(found_hi)],
        );
        Ok(())
    }

    /// `d = a + imm` (IADD3).
    fn add_imm32(&mut self, d: Reg, a: Src, imm: u32) {
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d), Dst::None],
            &[a, Src::imm(imm), Src::ZERO],
        );
    }

    /// `bfi.b64 d, a, b, pos, len` with a register position or length, as ptxas: the mask
    /// `m = (1 << len) - 1` (all ones from 64 on; an immediate length gives it as constants),
    /// `a & m` and `m` shifted left by `pos` (0 from 64 on), `d = (a & m) << pos | b & ~(m << pos)`.
    pub(crate) fn bfi64_fields(&mut self, i: &Instruction) -> LResult<()> {
        let o = operands(i, 5)?;
        let d = self.dst(&o[0])?;
        let (al, ah) = self.src64(&o[1])?;
        let (bl, bh) = self.src64(&o[2])?;
        let [al, ah, bl, bh] = [al, ah, bl, bh].map(|s| self.in_reg(s));
        let pos = self.reg_src32(&o[3])?;
        let (ml, mh) = self.bfi64_mask(&o[4])?;
        let (fl, fh) = (self.temp(), self.temp());
        for (f, a, m) in [(fl, al, ml), (fh, ah, mh)] {
            self.emit(
                Opcode::Lop3 { lut: LUT_AND },
                &[Dst::Reg(f), Dst::None],
                &[a, m, Src::ZERO, Src::FALSE],
            );
        }
        let [sl, sh, kl, kh] = [(); 4].map(|_| self.temp());
        self.emit(shl32(), &[Dst::Reg(sl)], &[Src::reg(fl), pos, Src::ZERO]);
        self.emit(
            shl64_hi(),
            &[Dst::Reg(sh)],
            &[Src::reg(fl), pos, Src::reg(fh)],
        );
        let ml = self.in_reg(ml);
        let mh = self.in_reg(mh);
        self.emit(shl32(), &[Dst::Reg(kl)], &[ml, pos, Src::ZERO]);
        self.emit(shl64_hi(), &[Dst::Reg(kh)], &[ml, pos, mh]);
        for (k, s, b, m) in [(0u8, sl, bl, kl), (1, sh, bh, kh)] {
            self.emit(
                Opcode::Lop3 { lut: LUT_OVER },
                &[Dst::Reg(d.part(k)), Dst::None],
                &[Src::reg(s), b, Src::reg(m), Src::FALSE],
            );
        }
        Ok(())
    }

    /// The halves of `(1 << len) - 1` for `bfi.b64` (all ones for `len >= 64`): `bfe`'s mask of
    /// the field's low byte.
    fn bfi64_mask(&mut self, len: &Operand) -> LResult<(Src, Src)> {
        let len = match len {
            Operand::Imm(v) => Src::imm((*v & 0xff) as u32),
            _ => self.reg_src32(len)?,
        };
        Ok(self.low_mask64(len))
    }
}
