//! Integer, logic, predicate, select, move and conversion instructions.

use ptxforge_ptx::ast::{Instruction, Operand, Type};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

const LUT_AND: u8 = 0xc0;
const LUT_OR: u8 = 0xfc;
const LUT_XOR: u8 = 0x3c;
const LUT_NOT_A: u8 = 0x0f;

use crate::ctx::operands_exactly as ops;
use crate::ctx::unsupported;

impl Ctx<'_> {
    pub fn lower_int(&mut self, i: &Instruction) -> LResult<()> {
        let ty = i.ty().ok_or_else(|| unsupported(i))?;
        let wide = ty.size_bytes() == 8;
        match (i.opcode(), wide) {
            _ if crate::intops::uses_carry(i) => self.lower_carry(i, ty),
            ("bfe", _) => self.lower_bfe(i, ty),
            ("shf", false) => self.lower_shf(i),
            ("fns", false) => self.lower_fns(i),
            ("dp4a" | "dp2a", _) => self.lower_dot(i),
            ("mov", _) => self.lower_mov(i, ty),
            ("add", false) => self.add32(i, false),
            ("sub", false) => self.add32(i, true),
            ("add", true) => self.add64(i),
            ("sub", true) => self.sub64(i),
            ("neg", true) => self.neg64(i),
            ("abs", true) => self.abs64(i),
            ("min", true) | ("max", true) => self.minmax64(i, ty),
            ("mul", false) | ("mad", false) => self.mul32(i, ty),
            ("mad", true) => self.mad64(i, ty),
            ("mul", true) if i.has_mod("lo") => self.mul_lo64(i),
            ("mul", true) if i.has_mod("hi") => self.mul_hi64(i, ty.is_signed()),
            ("neg", false) => {
                let o = ops(i, 2)?;
                let (d, a) = (self.dst(&o[0])?, self.reg_src32(&o[1])?);
                self.emit(
                    Opcode::Iadd3 { x: false },
                    &[Dst::Reg(d), Dst::None],
                    &[Src::ZERO, a.negated(), Src::ZERO],
                );
                Ok(())
            }
            ("abs", false) => {
                let o = ops(i, 2)?;
                let (d, a) = (self.dst(&o[0])?, self.reg_src32(&o[1])?);
                self.emit(Opcode::Iabs, &[Dst::Reg(d)], &[a]);
                Ok(())
            }
            ("min", false) | ("max", false) => self.minmax32(i, ty),
            ("and", _) | ("or", _) | ("xor", _) | ("not", _) if ty == Type::Pred => {
                self.pred_logic(i)
            }
            ("and", _) | ("or", _) | ("xor", _) | ("not", _) => self.logic(i, wide),
            ("shl", false) | ("shr", false) => self.shift32(i, ty),
            ("shl", true) | ("shr", true) => self.shift64(i, ty),
            ("setp", _) => {
                let dsts = self.setp_dsts(&i.operands[0])?;
                self.setp_int(i, dsts)
            }
            ("set", _) => self.set(i),
            ("sad", false) => self.sad(i),
            ("selp", _) => self.selp(i, wide),
            ("cvt", _) => self.cvt_int(i),
            ("cvta", _) => self.cvta(i),
            ("div" | "rem", false) => self.lower_divide32(i, ty),
            ("div" | "rem", true) => self.lower_divide64(i, ty.is_signed()),
            ("clz" | "popc" | "brev" | "bfind" | "bmsk" | "bfi" | "lop3" | "prmt", _) => {
                self.lower_bits(i, wide)
            }
            _ => Err(unsupported(i)),
        }
    }

    fn lower_mov(&mut self, i: &Instruction, ty: Type) -> LResult<()> {
        let o = ops(i, 2)?;
        let d = self.dst(&o[0])?;
        if ty == Type::Pred {
            let s = self.pred_src(&o[1])?;
            self.pred_copy(d, s);
            return Ok(());
        }
        self.copy_value(d, &o[1])
    }

    /// `d = src` for 32- and 64-bit values.
    fn copy_value(&mut self, d: Reg, src: &Operand) -> LResult<()> {
        if d.comps == 2 {
            let (lo, hi) = self.src64(src)?;
            self.set_pair(d, lo, hi);
        } else {
            let s = self.src32(src)?;
            self.emit(Opcode::Mov, &[Dst::Reg(d)], &[s]);
        }
        Ok(())
    }

    /// Writes the two halves of the 64-bit register `d`.
    pub(crate) fn set_pair(&mut self, d: Reg, lo: Src, hi: Src) {
        self.emit(Opcode::Mov, &[Dst::Reg(d.part(0))], &[lo]);
        self.emit(Opcode::Mov, &[Dst::Reg(d.part(1))], &[hi]);
    }

    /// `d = s` for predicates: ISETP.EQ.U32.AND d, PT, RZ, RZ, s.
    pub(crate) fn pred_copy(&mut self, d: Reg, s: Src) {
        let op = Opcode::Isetp {
            cmp: IntCmp::Eq,
            signed: false,
            combine: BoolOp::And,
            ex: false,
        };
        self.emit(op, &[Dst::Reg(d), Dst::None], &[Src::ZERO, Src::ZERO, s]);
    }

    /// `and/or/xor/not.pred` through a 0/1 register and ISETP's accumulator.
    fn pred_logic(&mut self, i: &Instruction) -> LResult<()> {
        if i.opcode() == "not" {
            let o = ops(i, 2)?;
            let (d, a) = (self.dst(&o[0])?, self.pred_src(&o[1])?);
            self.pred_copy(d, a.negated());
            return Ok(());
        }
        let o = ops(i, 3)?;
        let (d, a, b) = (
            self.dst(&o[0])?,
            self.pred_src(&o[1])?,
            self.pred_src(&o[2])?,
        );
        let t = self.temp();
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(t)],
            &[Src::ZERO, Src::imm(1), a.negated()],
        );
        let combine = match i.opcode() {
            "and" => BoolOp::And,
            "or" => BoolOp::Or,
            _ => BoolOp::Xor,
        };
        let op = Opcode::Isetp {
            cmp: IntCmp::Ne,
            signed: false,
            combine,
            ex: false,
        };
        self.emit(op, &[Dst::Reg(d), Dst::None], &[Src::reg(t), Src::ZERO, b]);
        Ok(())
    }

    fn add32(&mut self, i: &Instruction, sub: bool) -> LResult<()> {
        let o = ops(i, 3)?;
        let d = self.dst(&o[0])?;
        let (mut a, mut b) = (self.src32(&o[1])?, self.src32(&o[2])?);
        if sub && crate::planted::sub_operands_swapped() {
            std::mem::swap(&mut a, &mut b);
        }
        if !matches!(a.val, SrcVal::Reg(_)) && !sub {
            std::mem::swap(&mut a, &mut b);
        }
        let a = self.in_reg(a);
        let b = if sub { b.negated() } else { b };
        let b = if sub && !matches!(b.val, SrcVal::Imm(_)) {
            self.in_reg(Src { neg: false, ..b }).negated()
        } else {
            b
        };
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d), Dst::None],
            &[a, b, Src::ZERO],
        );
        Ok(())
    }

    fn add64(&mut self, i: &Instruction) -> LResult<()> {
        let o = ops(i, 3)?;
        let d = self.dst(&o[0])?;
        let (al, ah) = self.src64(&o[1])?;
        let (bl, bh) = self.src64(&o[2])?;
        self.add64_parts(d, (al, ah), (bl, bh));
        Ok(())
    }

    /// `d = a + b` on 64 bits: the low words' carry goes into the high words' IADD3.X.
    pub(crate) fn add64_parts(&mut self, d: Reg, (al, ah): (Src, Src), (bl, bh): (Src, Src)) {
        let (al, ah) = (self.in_reg(al), self.in_reg(ah));
        let p = self.temp_pred();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d.part(0)), Dst::Reg(p)],
            &[al, bl, Src::ZERO],
        );
        self.emit(
            Opcode::Iadd3 { x: true },
            &[Dst::Reg(d.part(1)), Dst::None],
            &[ah, bh, Src::ZERO, Src::reg(p), Src::FALSE],
        );
    }

    /// `d = a - b` on 64 bits: low half with borrow as carry, high half adds `~b.hi` and the carry.
    pub(crate) fn sub64_parts(&mut self, d: Reg, al: Src, ah: Src, bl: Src, bh: Src) {
        let (al, ah, bl, bh) = (
            self.in_reg(al),
            self.in_reg(ah),
            self.in_reg(bl),
            self.in_reg(bh),
        );
        let nbh = self.temp();
        self.emit(
            Opcode::Lop3 { lut: LUT_NOT_A },
            &[Dst::Reg(nbh), Dst::None],
            &[bh, Src::ZERO, Src::ZERO, Src::FALSE],
        );
        let p = self.temp_pred();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d.part(0)), Dst::Reg(p)],
            &[al, bl.negated(), Src::ZERO],
        );
        self.emit(
            Opcode::Iadd3 { x: true },
            &[Dst::Reg(d.part(1)), Dst::None],
            &[ah, Src::reg(nbh), Src::ZERO, Src::reg(p), Src::FALSE],
        );
    }

    fn sub64(&mut self, i: &Instruction) -> LResult<()> {
        let o = ops(i, 3)?;
        let d = self.dst(&o[0])?;
        let (al, ah) = self.src64(&o[1])?;
        let (bl, bh) = self.src64(&o[2])?;
        self.sub64_parts(d, al, ah, bl, bh);
        Ok(())
    }

    fn neg64(&mut self, i: &Instruction) -> LResult<()> {
        let o = ops(i, 2)?;
        let d = self.dst(&o[0])?;
        let (bl, bh) = self.src64(&o[1])?;
        self.sub64_parts(d, Src::ZERO, Src::ZERO, bl, bh);
        Ok(())
    }

    /// `abs.s64`: the negation (IADD3 + IADD3.X) selected where the high word is negative, as
    /// ptxas writes it (the most negative value stays itself).
    fn abs64(&mut self, i: &Instruction) -> LResult<()> {
        let o = ops(i, 2)?;
        let d = self.dst(&o[0])?;
        let (al, ah) = self.src64(&o[1])?;
        let (al, ah) = (self.in_reg(al), self.in_reg(ah));
        let neg = self.temp64();
        self.sub64_parts(neg, Src::ZERO, Src::ZERO, al, ah);
        let negative = self.temp_pred();
        self.emit(
            Opcode::Isetp {
                cmp: IntCmp::Lt,
                signed: true,
                combine: BoolOp::And,
                ex: false,
            },
            &[Dst::Reg(negative), Dst::None],
            &[ah, Src::ZERO, Src::TRUE],
        );
        for (half, word) in [(0, al), (1, ah)] {
            self.emit(
                Opcode::Sel,
                &[Dst::Reg(d.part(half))],
                &[Src::reg(neg.part(half)), word, Src::reg(negative)],
            );
        }
        Ok(())
    }

    /// 64-bit min/max: a two-word compare (ISETP + ISETP.EX), then SEL on each half.
    fn minmax64(&mut self, i: &Instruction, ty: Type) -> LResult<()> {
        let o = ops(i, 3)?;
        let d = self.dst(&o[0])?;
        let (al, ah) = self.src64(&o[1])?;
        let (bl, bh) = self.src64(&o[2])?;
        let (al, ah, bl, bh) = (
            self.in_reg(al),
            self.in_reg(ah),
            self.in_reg(bl),
            self.in_reg(bh),
        );
        let cmp = if i.opcode() == "min" {
            IntCmp::Lt
        } else {
            IntCmp::Gt
        };
        let (lo, p) = (self.temp_pred(), self.temp_pred());
        self.emit(
            Opcode::Isetp {
                cmp,
                signed: false,
                combine: BoolOp::And,
                ex: false,
            },
            &[Dst::Reg(lo), Dst::None],
            &[al, bl, Src::TRUE],
        );
        self.emit(
            Opcode::Isetp {
                cmp,
                signed: ty.is_signed(),
                combine: BoolOp::And,
                ex: true,
            },
            &[Dst::Reg(p), Dst::None],
            &[ah, bh, Src::TRUE, Src::reg(lo)],
        );
        let (rl, rh) = (self.temp(), self.temp());
        self.emit(Opcode::Sel, &[Dst::Reg(rl)], &[al, bl, Src::reg(p)]);
        self.emit(Opcode::Sel, &[Dst::Reg(rh)], &[ah, bh, Src::reg(p)]);
        self.set_pair(d, Src::reg(rl), Src::reg(rh));
        Ok(())
    }

    /// `mul.lo/.hi/.wide` and `mad.lo/.wide` on 32-bit sources.
    fn mul32(&mut self, i: &Instruction, ty: Type) -> LResult<()> {
        let mad = i.opcode() == "mad";
        let o = ops(i, if mad { 4 } else { 3 })?;
        let d = self.dst(&o[0])?;
        let (mut a, mut b) = (self.src32(&o[1])?, self.src32(&o[2])?);
        if !matches!(a.val, SrcVal::Reg(_)) {
            std::mem::swap(&mut a, &mut b);
        }
        let a = self.in_reg(a);
        let signed = ty.is_signed();
        let mode = if i.has_mod("wide") {
            ImadMode::Wide
        } else if i.has_mod("hi") {
            ImadMode::Hi
        } else {
            ImadMode::Lo
        };
        let c = match (mad, mode) {
            (false, _) => Src::ZERO,
            (true, ImadMode::Wide) => match &o[3] {
                Operand::Reg(n) => Src::reg(self.vreg(n)?),
                _ => return Err("mad.wide addend must be a register".into()),
            },
            (true, _) => self.reg_src32(&o[3])?,
        };
        if ty.size_bytes() == 2 && mode != ImadMode::Lo {
            return self.mul16(i, d, (a, b), signed, mode);
        }
        let b = if mode == ImadMode::Wide {
            b
        } else {
            self.in_reg_unless_imm(b)
        };
        if mode == ImadMode::Hi && mad {
            // IMAD.HI's C is a 64-bit pair added to the product: add the 32-bit addend after it.
            let h = self.temp();
            self.emit(
                Opcode::Imad {
                    mode,
                    signed,
                    x: false,
                },
                &[Dst::Reg(h)],
                &[a, b, Src::ZERO],
            );
            self.emit(
                Opcode::Iadd3 { x: false },
                &[Dst::Reg(d), Dst::None],
                &[Src::reg(h), c, Src::ZERO],
            );
            return Ok(());
        }
        self.emit(
            Opcode::Imad {
                mode,
                signed: signed || mode == ImadMode::Lo,
                x: false,
            },
            &[Dst::Reg(d)],
            &[a, b, c],
        );
        Ok(())
    }

    /// `mul/mad.wide` and `.hi` of 16-bit values: the exact 32-bit product of the extended halves
    /// (IMAD.WIDE would write a register pair into a 32-bit destination), then the high half for `.hi`.
    fn mul16(
        &mut self,
        i: &Instruction,
        d: Reg,
        (a, b): (Src, Src),
        signed: bool,
        mode: ImadMode,
    ) -> LResult<()> {
        let b = self.in_reg(b);
        let (a, b) = (self.extend32(a, 2, signed), self.extend32(b, 2, signed));
        let addend = if i.opcode() == "mad" {
            self.reg_src32(&ops(i, 4)?[3])?
        } else {
            Src::ZERO
        };
        let product = self.temp();
        let c = if mode == ImadMode::Wide {
            addend
        } else {
            Src::ZERO
        };
        self.emit(
            Opcode::Imad {
                mode: ImadMode::Lo,
                signed: true,
                x: false,
            },
            &[Dst::Reg(product)],
            &[a, b, c],
        );
        if mode == ImadMode::Wide {
            self.emit(Opcode::Mov, &[Dst::Reg(d)], &[Src::reg(product)]);
            return Ok(());
        }
        let high = self.temp();
        let shr = Opcode::Shf {
            right: true,
            signed,
            wide: false,
            hi: true,
        };
        self.emit(
            shr,
            &[Dst::Reg(high)],
            &[Src::ZERO, Src::imm(16), Src::reg(product)],
        );
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d), Dst::None],
            &[Src::reg(high), addend, Src::ZERO],
        );
        Ok(())
    }

    pub(crate) fn in_reg_unless_imm(&mut self, s: Src) -> Src {
        match s.val {
            SrcVal::Imm(_) => s,
            _ => self.in_reg(s),
        }
    }

    /// 64-bit `mul.lo`: IMAD.WIDE.U32 of the low halves plus the cross products in the high half.
    fn mul_lo64(&mut self, i: &Instruction) -> LResult<()> {
        let o = ops(i, 3)?;
        let d = self.dst(&o[0])?;
        let (al, ah) = self.src64(&o[1])?;
        let (bl, bh) = self.src64(&o[2])?;
        self.mul_lo64_parts(d, [al, ah], [bl, bh]);
        Ok(())
    }

    /// `d = (a * b) mod 2^64` from the halves of `a` and `b`.
    pub(crate) fn mul_lo64_parts(&mut self, d: Reg, [al, ah]: [Src; 2], [bl, bh]: [Src; 2]) {
        let (al, ah, bl, bh) = (
            self.in_reg(al),
            self.in_reg(ah),
            self.in_reg(bl),
            self.in_reg(bh),
        );
        let (w, t) = (self.temp64(), self.temp());
        let lo = Opcode::Imad {
            mode: ImadMode::Lo,
            signed: true,
            x: false,
        };
        self.emit(
            Opcode::Imad {
                mode: ImadMode::Wide,
                signed: false,
                x: false,
            },
            &[Dst::Reg(w)],
            &[al, bl, Src::ZERO],
        );
        self.emit(lo, &[Dst::Reg(t)], &[al, bh, Src::ZERO]);
        self.emit(lo, &[Dst::Reg(t)], &[ah, bl, Src::reg(t)]);
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d.part(1)), Dst::None],
            &[Src::reg(w.part(1)), Src::reg(t), Src::ZERO],
        );
        self.emit(Opcode::Mov, &[Dst::Reg(d.part(0))], &[Src::reg(w.part(0))]);
    }

    /// `mul.hi.{u64,s64}`: the high half of the 128-bit product from 32-bit limbs, each step an
    /// IMAD.WIDE.U32 whose sum fits in 64 bits (a*b + c with c < 2^32); the signed form then
    /// subtracts `b` where `a < 0` and `a` where `b < 0` (mod 2^64).
    fn mul_hi64(&mut self, i: &Instruction, signed: bool) -> LResult<()> {
        let o = ops(i, 3)?;
        let d = self.dst(&o[0])?;
        let (al, ah) = self.src64(&o[1])?;
        let (bl, bh) = self.src64(&o[2])?;
        self.mul_hi64_parts(d, [al, ah], [bl, bh], signed);
        Ok(())
    }

    /// `d = (a * b) >> 64` from the halves of `a` and `b`, signed or not.
    pub(crate) fn mul_hi64_parts(
        &mut self,
        d: Reg,
        [al, ah]: [Src; 2],
        [bl, bh]: [Src; 2],
        signed: bool,
    ) {
        let [al, ah, bl, bh] = [al, ah, bl, bh].map(|s| self.in_reg(s));
        let low = self.mul_wide_u32(al, bl, Src::ZERO);
        let mid_a = self.mul_wide_u32(ah, bl, Src::reg(low.part(1)));
        let mid_b = self.mul_wide_u32(al, bh, Src::reg(mid_a.part(0)));
        let top = self.mul_wide_u32(ah, bh, Src::reg(mid_a.part(1)));
        let unsigned = if signed { self.temp64() } else { d };
        let carry = self.temp_pred();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(unsigned.part(0)), Dst::Reg(carry)],
            &[Src::reg(top.part(0)), Src::reg(mid_b.part(1)), Src::ZERO],
        );
        self.emit(
            Opcode::Iadd3 { x: true },
            &[Dst::Reg(unsigned.part(1)), Dst::None],
            &[
                Src::reg(top.part(1)),
                Src::ZERO,
                Src::ZERO,
                Src::reg(carry),
                Src::FALSE,
            ],
        );
        if signed {
            let fixed = self.temp64();
            self.sub_where_negative(fixed, unsigned, ah, [bl, bh]);
            self.sub_where_negative(d, fixed, bh, [al, ah]);
        }
    }

    /// `a * b + c` as IMAD.WIDE.U32 into a fresh pair; `c` is a 32-bit addend (its pair's high
    /// half is zero).
    fn mul_wide_u32(&mut self, a: Src, b: Src, c: Src) -> Reg {
        let addend = match c.val {
            SrcVal::Zero => Src::ZERO,
            _ => Src::reg(self.pair_of([c, Src::ZERO])),
        };
        let t = self.temp64();
        self.emit(
            Opcode::Imad {
                mode: ImadMode::Wide,
                signed: false,
                x: false,
            },
            &[Dst::Reg(t)],
            &[a, b, addend],
        );
        t
    }

    /// `d = v - (sign_of < 0 ? x : 0)` on 64 bits (`sign_of` is the high word of a value).
    fn sub_where_negative(&mut self, d: Reg, v: Reg, sign_of: Src, x: [Src; 2]) {
        let negative = self.temp_pred();
        self.emit(
            Opcode::Isetp {
                cmp: IntCmp::Lt,
                signed: true,
                combine: BoolOp::And,
                ex: false,
            },
            &[Dst::Reg(negative), Dst::None],
            &[sign_of, Src::ZERO, Src::TRUE],
        );
        let [xl, xh] = x.map(|s| {
            let t = self.temp();
            self.emit(
                Opcode::Sel,
                &[Dst::Reg(t)],
                &[s, Src::ZERO, Src::reg(negative)],
            );
            Src::reg(t)
        });
        self.sub64_parts(d, Src::reg(v.part(0)), Src::reg(v.part(1)), xl, xh);
    }

    /// min/max via ISETP + SEL (one mechanism on every architecture).
    fn minmax32(&mut self, i: &Instruction, ty: Type) -> LResult<()> {
        let o = ops(i, 3)?;
        let d = self.dst(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let b = self.src32(&o[2])?;
        let p = self.temp_pred();
        let cmp = if i.opcode() == "min" {
            IntCmp::Lt
        } else {
            IntCmp::Gt
        };
        let op = Opcode::Isetp {
            cmp,
            signed: ty.is_signed(),
            combine: BoolOp::And,
            ex: false,
        };
        self.emit(op, &[Dst::Reg(p), Dst::None], &[a, b, Src::TRUE]);
        self.emit(Opcode::Sel, &[Dst::Reg(d)], &[a, b, Src::reg(p)]);
        Ok(())
    }

    fn logic(&mut self, i: &Instruction, wide: bool) -> LResult<()> {
        let not = i.opcode() == "not";
        let o = ops(i, if not { 2 } else { 3 })?;
        let d = self.dst(&o[0])?;
        let lut = match i.opcode() {
            "and" => LUT_AND,
            "or" => LUT_OR,
            "xor" => LUT_XOR,
            _ => LUT_NOT_A,
        };
        let halves: Vec<(Reg, Src, Src)> = if wide {
            let (al, ah) = self.src64(&o[1])?;
            let (bl, bh) = if not {
                (Src::ZERO, Src::ZERO)
            } else {
                self.src64(&o[2])?
            };
            vec![(d.part(0), al, bl), (d.part(1), ah, bh)]
        } else {
            let a = self.src32(&o[1])?;
            let b = if not { Src::ZERO } else { self.src32(&o[2])? };
            vec![(d, a, b)]
        };
        for (dr, a, b) in halves {
            let a = self.in_reg(a);
            self.emit(
                Opcode::Lop3 { lut },
                &[Dst::Reg(dr), Dst::None],
                &[a, b, Src::ZERO, Src::FALSE],
            );
        }
        Ok(())
    }

    fn shift32(&mut self, i: &Instruction, ty: Type) -> LResult<()> {
        let o = ops(i, 3)?;
        let d = self.dst(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let n = self.src32(&o[2])?;
        if let SrcVal::Imm(v) = n.val {
            if v >= 32 {
                return self.shift32_saturated(i, ty, d, a);
            }
        }
        let right = i.opcode() == "shr";
        let signed = right && ty.is_signed();
        let shf = Opcode::Shf {
            right,
            signed,
            wide: false,
            hi: right,
        };
        let srcs = if right {
            [Src::ZERO, n, a]
        } else {
            [a, n, Src::ZERO]
        };
        self.emit(shf, &[Dst::Reg(d)], &srcs);
        Ok(())
    }

    /// Shifts by 32 or more: 0, or the sign for `shr.s32`.
    fn shift32_saturated(&mut self, i: &Instruction, ty: Type, d: Reg, a: Src) -> LResult<()> {
        if i.opcode() == "shr" && ty.is_signed() {
            let shf = Opcode::Shf {
                right: true,
                signed: true,
                wide: false,
                hi: true,
            };
            self.emit(shf, &[Dst::Reg(d)], &[Src::ZERO, Src::imm(31), a]);
        } else {
            self.emit(Opcode::Mov, &[Dst::Reg(d)], &[Src::ZERO]);
        }
        Ok(())
    }

    fn shift64(&mut self, i: &Instruction, ty: Type) -> LResult<()> {
        let o = ops(i, 3)?;
        let d = self.dst(&o[0])?;
        let (al, ah) = self.src64(&o[1])?;
        let (al, ah) = (self.in_reg(al), self.in_reg(ah));
        let n = self.src32(&o[2])?;
        if let SrcVal::Imm(v) = n.val {
            if v >= 32 {
                return self.shift64_by_32_or_more(i, ty, d, al, ah, v);
            }
        }
        let (lo, hi) = (self.temp(), self.temp());
        if i.opcode() == "shl" {
            self.emit(
                Opcode::Shf {
                    right: false,
                    signed: false,
                    wide: true,
                    hi: true,
                },
                &[Dst::Reg(hi)],
                &[al, n, ah],
            );
            self.emit(
                Opcode::Shf {
                    right: false,
                    signed: false,
                    wide: false,
                    hi: false,
                },
                &[Dst::Reg(lo)],
                &[al, n, Src::ZERO],
            );
        } else {
            let signed = ty.is_signed();
            self.emit(
                Opcode::Shf {
                    right: true,
                    signed,
                    wide: true,
                    hi: false,
                },
                &[Dst::Reg(lo)],
                &[al, n, ah],
            );
            self.emit(
                Opcode::Shf {
                    right: true,
                    signed,
                    wide: false,
                    hi: true,
                },
                &[Dst::Reg(hi)],
                &[Src::ZERO, n, ah],
            );
        }
        self.set_pair(d, Src::reg(lo), Src::reg(hi));
        Ok(())
    }

    /// 64-bit shifts by an immediate of 32 or more: one half moves across, the other fills.
    fn shift64_by_32_or_more(
        &mut self,
        i: &Instruction,
        ty: Type,
        d: Reg,
        al: Src,
        ah: Src,
        v: u32,
    ) -> LResult<()> {
        let n = Src::imm((v - 32).min(31));
        let gone = v >= 64;
        let (lo, hi) = (self.temp(), self.temp());
        let shr = |signed| Opcode::Shf {
            right: true,
            signed,
            wide: false,
            hi: true,
        };
        if i.opcode() == "shl" {
            let src = if gone { Src::ZERO } else { al };
            self.emit(
                Opcode::Shf {
                    right: false,
                    signed: false,
                    wide: false,
                    hi: false,
                },
                &[Dst::Reg(hi)],
                &[src, n, Src::ZERO],
            );
            self.emit(Opcode::Mov, &[Dst::Reg(lo)], &[Src::ZERO]);
        } else if ty.is_signed() {
            self.emit(shr(true), &[Dst::Reg(lo)], &[Src::ZERO, n, ah]);
            self.emit(shr(true), &[Dst::Reg(hi)], &[Src::ZERO, Src::imm(31), ah]);
        } else {
            let src = if gone { Src::ZERO } else { ah };
            self.emit(shr(false), &[Dst::Reg(lo)], &[Src::ZERO, n, src]);
            self.emit(Opcode::Mov, &[Dst::Reg(hi)], &[Src::ZERO]);
        }
        self.set_pair(d, Src::reg(lo), Src::reg(hi));
        Ok(())
    }

    /// `sad.{s32,u32} d, a, b, c`: VABSDIFF d, a, b, c (|a - b| + c); one immediate at most, in b
    /// or c, as the ALU forms allow.
    fn sad(&mut self, i: &Instruction) -> LResult<()> {
        let o = ops(i, 4)?;
        let signed = i.ty().is_some_and(|t| t.is_signed());
        let d = self.dst(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let b = self.src32(&o[2])?;
        let c = match b.val {
            SrcVal::Reg(_) | SrcVal::Zero => self.src32(&o[3])?,
            _ => self.reg_src32(&o[3])?,
        };
        self.emit(Opcode::Vabsdiff { signed }, &[Dst::Reg(d)], &[a, b, c]);
        Ok(())
    }

    /// `set.cmp[.bool].dtype.stype d, a, b[, c]`: the `setp` compare into a fresh predicate, then
    /// `SEL d, RZ, all-ones (1.0 for an f32 result), !p`, as ptxas writes it.
    fn set(&mut self, i: &Instruction) -> LResult<()> {
        let &[dtype, stype] = i.types().as_slice() else {
            return Err("set needs a result type and a source type".into());
        };
        if crate::half::is_half(stype) {
            return self.half_set(i, dtype, stype);
        }
        // A half-precision result of a wider compare: ptxas converts its all-ones (HSET2/SEL then
        // I2F), not lowered here.
        if crate::half::is_half(dtype) {
            return Err(unsupported(i));
        }
        let p = self.temp_pred();
        let dsts = (Dst::Reg(p), Dst::None);
        match stype.size_bytes() {
            _ if stype == Type::F64 => self.double_setp(i, dsts)?,
            4 if stype.is_float() => self.setp_float(i, i.has_mod("ftz"), dsts)?,
            _ if stype.is_float() => return Err(unsupported(i)),
            _ => self.setp_int(i, dsts)?,
        }
        let d = self.dst(&i.operands[0])?;
        let truth = if dtype.is_float() {
            0x3f80_0000
        } else {
            u32::MAX
        };
        self.emit(
            Opcode::Sel,
            &[Dst::Reg(d)],
            &[Src::ZERO, Src::imm(truth), Src::reg(p).negated()],
        );
        Ok(())
    }

    /// Integer `setp` (32- and 64-bit), with an optional `.and/.or/.xor` predicate.
    pub(crate) fn setp_int(&mut self, i: &Instruction, (d0, d1): (Dst, Dst)) -> LResult<()> {
        check_setp_arity(i)?;
        let ty = i.types().last().copied().ok_or("setp needs a type")?;
        let cmp = int_cmp(i)?;
        let (combine, accum) = self.setp_combine(i)?;
        if ty.size_bytes() == 8 {
            let (al, ah) = self.src64(&i.operands[1])?;
            let (bl, bh) = self.src64(&i.operands[2])?;
            let (al, ah) = (self.in_reg(al), self.in_reg(ah));
            let lo = self.temp_pred();
            let lo_cmp = Opcode::Isetp {
                cmp,
                signed: false,
                combine: BoolOp::And,
                ex: false,
            };
            self.emit(lo_cmp, &[Dst::Reg(lo), Dst::None], &[al, bl, Src::TRUE]);
            let hi_cmp = Opcode::Isetp {
                cmp,
                signed: ty.is_signed(),
                combine,
                ex: true,
            };
            self.emit(hi_cmp, &[d0, d1], &[ah, bh, accum, Src::reg(lo)]);
        } else {
            let a = self.reg_src32(&i.operands[1])?;
            let b = self.src32(&i.operands[2])?;
            // The upper half of a 16-bit register is not always its value's extension (`mov.b32
            // {lo, hi}` leaves it): compare the low halves, sign-extended for an ordered signed
            // compare, else zero-extended.
            let ordered = !matches!(cmp, IntCmp::Eq | IntCmp::Ne);
            let (a, b) = if ty.size_bytes() == 2 {
                self.setp_extend16(a, b, ty.is_signed() && ordered)
            } else {
                (a, b)
            };
            let op = Opcode::Isetp {
                cmp,
                signed: ty.is_signed(),
                combine,
                ex: false,
            };
            self.emit(op, &[d0, d1], &[a, b, accum]);
        }
        Ok(())
    }

    /// The low halves of `a` (a register) and `b` sign- or zero-extended to 32 bits (PRMT 0x9910
    /// or LOP3 & 0xffff; an immediate `b` extended here).
    fn setp_extend16(&mut self, a: Src, b: Src, signed: bool) -> (Src, Src) {
        let mut extend = |x: Src| match x.val {
            SrcVal::Imm(v) if signed => Src::imm(v as u16 as i16 as i32 as u32),
            SrcVal::Imm(v) => Src::imm(v & 0xffff),
            SrcVal::Reg(_) => {
                let t = self.temp();
                if signed {
                    let op = Opcode::Prmt {
                        mode: PrmtMode::Index,
                    };
                    self.emit(op, &[Dst::Reg(t)], &[x, Src::imm(0x9910), Src::ZERO]);
                } else {
                    self.emit(
                        Opcode::Lop3 { lut: 0xc0 },
                        &[Dst::Reg(t), Dst::None],
                        &[x, Src::imm(0xffff), Src::ZERO, Src::FALSE],
                    );
                }
                Src::reg(t)
            }
            _ => x,
        };
        let a = extend(a);
        (a, extend(b))
    }

    pub fn setp_combine(&mut self, i: &Instruction) -> LResult<(BoolOp, Src)> {
        let combine = if i.has_mod("and") {
            BoolOp::And
        } else if i.has_mod("or") {
            BoolOp::Or
        } else if i.has_mod("xor") {
            BoolOp::Xor
        } else {
            return Ok((BoolOp::And, Src::TRUE));
        };
        let q = i
            .operands
            .get(3)
            .ok_or("setp with a combining operation needs a predicate")?;
        Ok((combine, self.pred_src(q)?))
    }

    pub fn setp_dsts(&mut self, op: &Operand) -> LResult<(Dst, Dst)> {
        match op {
            Operand::Reg(n) => Ok((Dst::Reg(self.vreg(n)?), Dst::None)),
            Operand::PredPair(pair) => {
                Ok((Dst::Reg(self.vreg(&pair.0)?), Dst::Reg(self.vreg(&pair.1)?)))
            }
            _ => Err("setp needs a predicate destination".into()),
        }
    }

    fn selp(&mut self, i: &Instruction, wide: bool) -> LResult<()> {
        let o = ops(i, 4)?;
        let d = self.dst(&o[0])?;
        let p = self.pred_src(&o[3])?;
        let pairs: Vec<(Reg, Src, Src)> = if wide {
            let (al, ah) = self.src64(&o[1])?;
            let (bl, bh) = self.src64(&o[2])?;
            vec![(d.part(0), al, bl), (d.part(1), ah, bh)]
        } else {
            vec![(d, self.src32(&o[1])?, self.src32(&o[2])?)]
        };
        for (dr, a, b) in pairs {
            let (a, b, p) = if matches!(a.val, SrcVal::Reg(_)) {
                (a, b, p)
            } else {
                (b, a, p.negated())
            };
            let a = self.in_reg(a);
            self.emit(Opcode::Sel, &[Dst::Reg(dr)], &[a, b, p]);
        }
        Ok(())
    }

    fn cvta(&mut self, i: &Instruction) -> LResult<()> {
        let o = ops(i, 2)?;
        if i.has_mod("local") {
            let d = self.dst(&o[0])?;
            return self.cvta_local(i, d, &o[1]);
        }
        if crate::mem::cta_shared(i) {
            let d = self.dst(&o[0])?;
            return self.cvta_shared(i, d, &o[1]);
        }
        if i.has_mod("param") {
            let d = self.dst(&o[0])?;
            return self.cvta_param(i, d, &o[1]);
        }
        // A global address is its generic address too (`cvta.global` and `cvta.to.global`).
        if !i.has_mod("global") {
            return Err(unsupported(i));
        }
        let d = self.dst(&o[0])?;
        self.copy_value(d, &o[1])
    }

    /// `cvt` between integer types: truncation, zero and sign extension.
    fn cvt_int(&mut self, i: &Instruction) -> LResult<()> {
        let tys = i.types();
        let [dt, st] = tys[..] else {
            return Err(unsupported(i));
        };
        if dt.is_float() || st.is_float() {
            return self.cvt_float(i, dt, st);
        }
        if i.has_mod("sat") {
            return self.cvt_int_sat(i, dt, st);
        }
        let o = ops(i, 2)?;
        let d = self.dst(&o[0])?;
        let src = if st.size_bytes() == 8 {
            self.src64(&o[1])?.0
        } else {
            self.src32(&o[1])?
        };
        let src = self.in_reg(src);
        let narrow = dt.size_bytes().min(st.size_bytes());
        let signed = st.is_signed() && dt.size_bytes() > st.size_bytes()
            || dt.is_signed() && dt.size_bytes() < 4;
        let v = self.extend32(src, narrow, signed);
        if dt.size_bytes() == 8 {
            let hi = if st.is_signed() || (st.size_bytes() < 4 && signed) {
                let t = self.temp();
                self.emit(
                    Opcode::Shf {
                        right: true,
                        signed: true,
                        wide: false,
                        hi: true,
                    },
                    &[Dst::Reg(t)],
                    &[Src::ZERO, Src::imm(31), v],
                );
                Src::reg(t)
            } else {
                Src::ZERO
            };
            self.emit(Opcode::Mov, &[Dst::Reg(d.part(0))], &[v]);
            self.emit(Opcode::Mov, &[Dst::Reg(d.part(1))], &[hi]);
        } else {
            self.emit(Opcode::Mov, &[Dst::Reg(d)], &[v]);
        }
        Ok(())
    }

    /// `cvt` between f32 and 32-bit integers: `.rn` int→f32, `.rzi`/`.rni` f32→int.
    fn cvt_float(&mut self, i: &Instruction, dt: Type, st: Type) -> LResult<()> {
        let general = |t: Type| t.size_bytes() != 4 || !matches!(t, Type::F32) && t.is_float();
        if general(dt) || general(st) {
            return self.cvt_general(i, dt, st);
        }
        let o = ops(i, 2)?;
        let d = self.dst(&o[0])?;
        let a = self.reg_src32(&o[1])?;
        let int32 = |t: Type| t.size_bytes() == 4 && !t.is_float();
        let op = match (dt, st) {
            (Type::F32, s) if int32(s) && i.has_mod("rn") => {
                if self.sm.num >= 86 {
                    Opcode::I2fp {
                        signed: s.is_signed(),
                    }
                } else {
                    Opcode::I2f {
                        signed: s.is_signed(),
                    }
                }
            }
            (t, Type::F32) if int32(t) && (i.has_mod("rzi") || i.has_mod("rni")) => Opcode::F2i {
                signed: t.is_signed(),
                truncate: i.has_mod("rzi"),
            },
            _ => return self.cvt_general(i, dt, st),
        };
        self.emit(op, &[Dst::Reg(d)], &[a]);
        Ok(())
    }

    /// The low `bytes` of `v`, sign- or zero-extended to 32 bits.
    pub(crate) fn extend32(&mut self, v: Src, bytes: u32, signed: bool) -> Src {
        if bytes >= 4 {
            return v;
        }
        let t = self.temp();
        if signed {
            let sel = if bytes == 1 { 0x8880 } else { 0x9910 };
            self.emit(
                Opcode::Prmt {
                    mode: PrmtMode::Index,
                },
                &[Dst::Reg(t)],
                &[v, Src::imm(sel), Src::ZERO],
            );
        } else {
            let mask = if bytes == 1 { 0xff } else { 0xffff };
            self.emit(
                Opcode::Lop3 { lut: LUT_AND },
                &[Dst::Reg(t), Dst::None],
                &[v, Src::imm(mask), Src::ZERO, Src::FALSE],
            );
        }
        Src::reg(t)
    }
}

/// `setp` takes a destination, two sources and (with a combining op) a predicate.
pub fn check_setp_arity(i: &Instruction) -> LResult<()> {
    let want = if i.has_mod("and") || i.has_mod("or") || i.has_mod("xor") {
        4
    } else {
        3
    };
    ops(i, want).map(|_| ())
}

pub fn int_cmp(i: &Instruction) -> LResult<IntCmp> {
    let m = i.mods().iter().find_map(|m| {
        Some(match m.as_str() {
            "eq" => IntCmp::Eq,
            "ne" => IntCmp::Ne,
            "lt" | "lo" => IntCmp::Lt,
            "le" | "ls" => IntCmp::Le,
            "gt" | "hi" => IntCmp::Gt,
            "ge" | "hs" => IntCmp::Ge,
            _ => return None,
        })
    });
    m.ok_or_else(|| "setp needs a comparison".into())
}
