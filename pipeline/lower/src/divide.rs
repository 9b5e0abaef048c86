//! Integer division and remainder (`div`/`rem` `.u32`/`.s32`/`.u64`) as ptxas computes them: a
//! reciprocal seed (I2F.RP, MUFU.RCP, minus two ulps, F2I.TRUNC), Newton steps (one for 32 bits,
//! two for 64), the quotient estimate `hi(r * a)`, two corrections, and all ones for a zero
//! divisor. ptxas calls a subroutine for 64 bits; here the same arithmetic is inline.

use ptxforge_ptx::ast::{Instruction, Type};
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// Adding this to an f32's bits multiplies it by 2^32 and takes two ulps off (an underestimate).
const SCALE_2_32_MINUS_2ULP: u32 = 0x0fff_fffe;
/// LOP3 table of `!b`: all ones for the zero divisor.
const LUT_NOT_B: u8 = 0x33;
/// The same for an f32 reciprocal scaled to 2^64.
const SCALE_2_64_MINUS_2ULP: u32 = 0x1fff_fffe;
/// LOP3 tables.
const LUT_OR: u8 = 0xfc;
const LUT_NOT_A: u8 = 0x0f;

/// A 64-bit value as its two 32-bit halves.
#[derive(Copy, Clone)]
struct Pair {
    lo: Src,
    hi: Src,
}

impl Pair {
    fn of(r: Reg) -> Pair {
        Pair {
            lo: Src::reg(r.part(0)),
            hi: Src::reg(r.part(1)),
        }
    }
}

impl Ctx<'_> {
    /// `div` and `rem` on 32-bit integers.
    pub fn lower_divide32(&mut self, i: &Instruction, ty: Type) -> LResult<()> {
        crate::ctx::operands_exactly(i, 3)?;
        let d = self.dst(&i.operands[0])?;
        let a = self.reg_src32(&i.operands[1])?;
        let b = self.reg_src32(&i.operands[2])?;
        let guard = std::mem::replace(&mut self.guard, Src::TRUE);
        let result = self.divide32(a, b, ty.is_signed(), i.opcode() == "rem");
        self.guard = guard;
        self.emit(Opcode::Mov, &[Dst::Reg(d)], &[Src::reg(result)]);
        Ok(())
    }

    fn emit_if(&mut self, p: Src, op: Opcode, dsts: &[Dst], srcs: &[Src]) {
        let saved = std::mem::replace(&mut self.guard, p);
        self.emit(op, dsts, srcs);
        self.guard = saved;
    }

    fn iadd(&mut self, d: Reg, a: Src, b: Src) {
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(d), Dst::None],
            &[a, b, Src::ZERO],
        );
    }

    fn isetp(&mut self, cmp: IntCmp, signed: bool, a: Src, b: Src) -> Src {
        let p = self.temp_pred();
        let op = Opcode::Isetp {
            cmp,
            signed,
            combine: BoolOp::And,
            ex: false,
        };
        self.emit(op, &[Dst::Reg(p), Dst::None], &[a, b, Src::TRUE]);
        Src::reg(p)
    }

    /// `r ≈ 2^32 / b` from below, refined by one Newton step: `r + hi(r * (-b * r))`.
    fn reciprocal32(&mut self, b: Src, signed_seed: bool) -> Reg {
        let (f, rcp, scaled, r, e, h, refined) = (
            self.temp(),
            self.temp(),
            self.temp(),
            self.temp(),
            self.temp(),
            self.temp(),
            self.temp(),
        );
        self.emit(
            Opcode::I2fRp {
                signed: signed_seed,
            },
            &[Dst::Reg(f)],
            &[b],
        );
        self.emit(Opcode::MufuRcp, &[Dst::Reg(rcp)], &[Src::reg(f)]);
        self.iadd(scaled, Src::reg(rcp), Src::imm(SCALE_2_32_MINUS_2ULP));
        self.emit(
            Opcode::F2i {
                signed: false,
                truncate: true,
            },
            &[Dst::Reg(r)],
            &[Src::reg(scaled)],
        );
        let neg_b = self.temp();
        self.iadd(neg_b, Src::ZERO, b.negated());
        let lo = Opcode::Imad {
            mode: ImadMode::Lo,
            signed: true,
            x: false,
        };
        self.emit(
            lo,
            &[Dst::Reg(e)],
            &[Src::reg(neg_b), Src::reg(r), Src::ZERO],
        );
        let hi = Opcode::Imad {
            mode: ImadMode::Hi,
            signed: false,
            x: false,
        };
        self.emit(hi, &[Dst::Reg(h)], &[Src::reg(r), Src::reg(e), Src::ZERO]);
        self.iadd(refined, Src::reg(h), Src::reg(r));
        refined
    }

    /// Quotient or remainder of `a / b`; signed operands divide their magnitudes and fix signs.
    pub(crate) fn divide32(&mut self, a: Src, b: Src, signed: bool, rem: bool) -> Reg {
        let (ua, ub) = if signed {
            let (x, y) = (self.temp(), self.temp());
            self.emit(Opcode::Iabs, &[Dst::Reg(x)], &[a]);
            self.emit(Opcode::Iabs, &[Dst::Reg(y)], &[b]);
            (Src::reg(x), Src::reg(y))
        } else {
            (a, b)
        };
        let r = self.reciprocal32(ub, signed);
        let (q, nq, m) = (self.temp(), self.temp(), self.temp());
        let hi = Opcode::Imad {
            mode: ImadMode::Hi,
            signed: false,
            x: false,
        };
        self.emit(hi, &[Dst::Reg(q)], &[Src::reg(r), ua, Src::ZERO]);
        self.iadd(nq, Src::ZERO, Src::reg(q).negated());
        let lo = Opcode::Imad {
            mode: ImadMode::Lo,
            signed: true,
            x: false,
        };
        self.emit(lo, &[Dst::Reg(m)], &[ub, Src::reg(nq), ua]);
        let add = Opcode::Iadd3 { x: false };
        // Two corrections: the estimate is at most two below the quotient.
        for _ in 0..2 {
            let p = self.isetp(IntCmp::Ge, false, Src::reg(m), ub);
            self.emit_if(
                p,
                add,
                &[Dst::Reg(m), Dst::None],
                &[Src::reg(m), ub.negated(), Src::ZERO],
            );
            if !rem {
                self.emit_if(
                    p,
                    add,
                    &[Dst::Reg(q), Dst::None],
                    &[Src::reg(q), Src::imm(1), Src::ZERO],
                );
            }
        }
        let out = if rem { m } else { q };
        if signed {
            // The quotient is negative when the signs differ; the remainder takes the dividend's sign.
            let sign_src = if rem {
                a
            } else {
                let x = self.temp();
                self.emit(
                    Opcode::Lop3 { lut: 0x3c },
                    &[Dst::Reg(x), Dst::None],
                    &[a, b, Src::ZERO, Src::FALSE],
                );
                Src::reg(x)
            };
            let non_negative = self.isetp(IntCmp::Ge, true, sign_src, Src::ZERO);
            self.emit_if(
                non_negative.negated(),
                add,
                &[Dst::Reg(out), Dst::None],
                &[Src::ZERO, Src::reg(out).negated(), Src::ZERO],
            );
        }
        let nonzero = self.isetp(IntCmp::Ne, false, b, Src::ZERO);
        self.emit_if(
            nonzero.negated(),
            Opcode::Lop3 { lut: LUT_NOT_B },
            &[Dst::Reg(out), Dst::None],
            &[Src::ZERO, b, Src::ZERO, Src::FALSE],
        );
        out
    }

    /// `div` and `rem` on 64-bit integers.
    pub fn lower_divide64(&mut self, i: &Instruction, signed: bool) -> LResult<()> {
        crate::ctx::operands_exactly(i, 3)?;
        let d = self.dst(&i.operands[0])?;
        let (al, ah) = self.src64(&i.operands[1])?;
        let (bl, bh) = self.src64(&i.operands[2])?;
        let a = Pair {
            lo: self.in_reg(al),
            hi: self.in_reg(ah),
        };
        let b = Pair {
            lo: self.in_reg(bl),
            hi: self.in_reg(bh),
        };
        let guard = std::mem::replace(&mut self.guard, Src::TRUE);
        let rem = i.opcode() == "rem";
        let result = if signed {
            self.divide64_signed(a, b, rem)
        } else {
            self.divide64(a, b, rem)
        };
        let result = self.all_ones_if_zero(result, b);
        self.guard = guard;
        self.emit(Opcode::Mov, &[Dst::Reg(d.part(0))], &[result.lo]);
        self.emit(Opcode::Mov, &[Dst::Reg(d.part(1))], &[result.hi]);
        Ok(())
    }

    // 64-bit values live in two 32-bit temporaries (written whole, so each one's live range
    // starts at its definition); register pairs appear only where an instruction needs one.

    /// `x * y` of 32-bit halves as a pair register (IMAD.WIDE.U32, written whole).
    fn mul_wide(&mut self, x: Src, y: Src) -> Pair {
        let d = self.temp64();
        self.emit(
            Opcode::Imad {
                mode: ImadMode::Wide,
                signed: false,
                x: false,
            },
            &[Dst::Reg(d)],
            &[x, y, Src::ZERO],
        );
        Pair::of(d)
    }

    /// `x + y` on pairs, into fresh temporaries.
    fn pair_add(&mut self, x: Pair, y: Pair) -> Pair {
        let (lo, hi, p) = (self.temp(), self.temp(), self.temp_pred());
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(lo), Dst::Reg(p)],
            &[x.lo, y.lo, Src::ZERO],
        );
        self.emit(
            Opcode::Iadd3 { x: true },
            &[Dst::Reg(hi), Dst::None],
            &[x.hi, y.hi, Src::ZERO, Src::reg(p), Src::FALSE],
        );
        Pair {
            lo: Src::reg(lo),
            hi: Src::reg(hi),
        }
    }

    /// The high 64 bits of the 128-bit product `x * y`.
    fn pair_mul_hi(&mut self, x: Pair, y: Pair) -> Pair {
        let t = self.mul_wide(x.lo, y.lo);
        let u = self.mul_wide(x.lo, y.hi);
        let u = self.pair_add(
            u,
            Pair {
                lo: t.hi,
                hi: Src::ZERO,
            },
        );
        let v = self.mul_wide(x.hi, y.lo);
        let v = self.pair_add(
            v,
            Pair {
                lo: u.lo,
                hi: Src::ZERO,
            },
        );
        let w = self.mul_wide(x.hi, y.hi);
        let w = self.pair_add(
            w,
            Pair {
                lo: u.hi,
                hi: Src::ZERO,
            },
        );
        self.pair_add(
            w,
            Pair {
                lo: v.hi,
                hi: Src::ZERO,
            },
        )
    }

    /// The low 64 bits of `x * y`.
    fn pair_mul_lo(&mut self, x: Pair, y: Pair) -> Pair {
        let w = self.mul_wide(x.lo, y.lo);
        let (t, hi) = (self.temp(), self.temp());
        let lo = Opcode::Imad {
            mode: ImadMode::Lo,
            signed: true,
            x: false,
        };
        self.emit(lo, &[Dst::Reg(t)], &[x.lo, y.hi, w.hi]);
        self.emit(lo, &[Dst::Reg(hi)], &[x.hi, y.lo, Src::reg(t)]);
        Pair {
            lo: w.lo,
            hi: Src::reg(hi),
        }
    }

    /// `p ? x : y` on pairs.
    fn pair_select(&mut self, p: Src, x: Pair, y: Pair) -> Pair {
        let (lo, hi) = (self.temp(), self.temp());
        self.emit(Opcode::Sel, &[Dst::Reg(lo)], &[x.lo, y.lo, p]);
        self.emit(Opcode::Sel, &[Dst::Reg(hi)], &[x.hi, y.hi, p]);
        Pair {
            lo: Src::reg(lo),
            hi: Src::reg(hi),
        }
    }

    /// `-x` on a pair: `~x + 1`.
    fn pair_neg(&mut self, x: Pair) -> Pair {
        let (nl, nh) = (self.temp(), self.temp());
        self.emit(
            Opcode::Lop3 { lut: LUT_NOT_A },
            &[Dst::Reg(nl), Dst::None],
            &[x.lo, Src::ZERO, Src::ZERO, Src::FALSE],
        );
        self.emit(
            Opcode::Lop3 { lut: LUT_NOT_A },
            &[Dst::Reg(nh), Dst::None],
            &[x.hi, Src::ZERO, Src::ZERO, Src::FALSE],
        );
        self.pair_add(
            Pair {
                lo: Src::reg(nl),
                hi: Src::reg(nh),
            },
            Pair {
                lo: Src::imm(1),
                hi: Src::ZERO,
            },
        )
    }

    /// Unsigned `x >= y` on pairs.
    fn pair_ge(&mut self, x: Pair, y: Pair) -> Src {
        let (lo, p) = (self.temp_pred(), self.temp_pred());
        let cmp = |ex| Opcode::Isetp {
            cmp: IntCmp::Ge,
            signed: false,
            combine: BoolOp::And,
            ex,
        };
        self.emit(
            cmp(false),
            &[Dst::Reg(lo), Dst::None],
            &[x.lo, y.lo, Src::TRUE],
        );
        self.emit(
            cmp(true),
            &[Dst::Reg(p), Dst::None],
            &[x.hi, y.hi, Src::TRUE, Src::reg(lo)],
        );
        Src::reg(p)
    }

    /// `r ≈ 2^64 / b` from below: the f32 seed, then two Newton steps `r + hi(r * -(b * r))`.
    fn reciprocal64(&mut self, b: Pair) -> Pair {
        let (f, rcp, scaled, seed, b_reg) = (
            self.temp(),
            self.temp(),
            self.temp(),
            self.temp64(),
            self.temp64(),
        );
        self.emit(Opcode::Mov, &[Dst::Reg(b_reg.part(0))], &[b.lo]);
        self.emit(Opcode::Mov, &[Dst::Reg(b_reg.part(1))], &[b.hi]);
        self.emit(
            Opcode::I2fWide {
                dst: NumFormat::F32,
                src: NumFormat::U64,
                rnd: Round::Rp,
            },
            &[Dst::Reg(f)],
            &[Src::reg(b_reg)],
        );
        self.emit(Opcode::MufuRcp, &[Dst::Reg(rcp)], &[Src::reg(f)]);
        self.iadd(scaled, Src::reg(rcp), Src::imm(SCALE_2_64_MINUS_2ULP));
        self.emit(
            Opcode::F2iWide {
                dst: NumFormat::U64,
                src: NumFormat::F32,
                rnd: Round::Rz,
            },
            &[Dst::Reg(seed)],
            &[Src::reg(scaled)],
        );
        let mut r = Pair::of(seed);
        for _ in 0..2 {
            let br = self.pair_mul_lo(b, r);
            let e = self.pair_neg(br);
            let h = self.pair_mul_hi(r, e);
            r = self.pair_add(r, h);
        }
        r
    }

    /// Quotient or remainder of 64-bit unsigned `a / b`.
    fn divide64(&mut self, a: Pair, b: Pair, rem: bool) -> Pair {
        let r = self.reciprocal64(b);
        let mut q = self.pair_mul_hi(r, a);
        let qb = self.pair_mul_lo(q, b);
        let nqb = self.pair_neg(qb);
        let mut m = self.pair_add(a, nqb);
        let nb = self.pair_neg(b);
        // Two corrections, by selection: the estimate is at most two below the quotient.
        for _ in 0..2 {
            let p = self.pair_ge(m, b);
            let m_less_b = self.pair_add(m, nb);
            m = self.pair_select(p, m_less_b, m);
            if !rem {
                let q_plus_1 = self.pair_add(
                    q,
                    Pair {
                        lo: Src::imm(1),
                        hi: Src::ZERO,
                    },
                );
                q = self.pair_select(p, q_plus_1, q);
            }
        }
        if rem {
            m
        } else {
            q
        }
    }

    /// A zero divisor gives all ones (as ptxas's sequence ends).
    fn all_ones_if_zero(&mut self, out: Pair, b: Pair) -> Pair {
        let any = self.temp();
        self.emit(
            Opcode::Lop3 { lut: LUT_OR },
            &[Dst::Reg(any), Dst::None],
            &[b.lo, b.hi, Src::ZERO, Src::FALSE],
        );
        let zero = self.isetp(IntCmp::Eq, false, Src::reg(any), Src::ZERO);
        let all_ones = Pair {
            lo: Src::imm(u32::MAX),
            hi: Src::imm(u32::MAX),
        };
        let (lo, hi) = (self.in_reg(out.lo), self.in_reg(out.hi));
        self.pair_select(zero.negated(), Pair { lo, hi }, all_ones)
    }

    /// `|x|` of a signed pair (MIN stays 2^63, its magnitude as unsigned).
    fn pair_abs(&mut self, x: Pair) -> Pair {
        let negative = self.isetp(IntCmp::Lt, true, x.hi, Src::ZERO);
        let neg = self.pair_neg(x);
        self.pair_select(negative, neg, x)
    }

    /// Signed 64-bit division: magnitudes divided, the quotient negated when the signs differ,
    /// the remainder given the dividend's sign.
    fn divide64_signed(&mut self, a: Pair, b: Pair, rem: bool) -> Pair {
        let (ua, ub) = (self.pair_abs(a), self.pair_abs(b));
        let out = self.divide64(ua, ub, rem);
        let sign = if rem {
            a.hi
        } else {
            let x = self.temp();
            self.emit(
                Opcode::Lop3 { lut: 0x3c },
                &[Dst::Reg(x), Dst::None],
                &[a.hi, b.hi, Src::ZERO, Src::FALSE],
            );
            Src::reg(x)
        };
        let negative = self.isetp(IntCmp::Lt, true, sign, Src::ZERO);
        let neg = self.pair_neg(out);
        self.pair_select(negative, neg, out)
    }
}
