//! `rsqrt.approx.f64` (without `.ftz`) as ptxas 13.5 writes it on sm_75..sm_90: MUFU.RSQ64H of
//! the high word (low word zero) and one third-order Newton step, `y + (y e) (0.5 + 0.375 e)`
//! with `e = 1 - x y^2`; operands whose high word minus 2^20 is at least 0x7fe00000 (zeros,
//! denormals, infinities, NaNs, negatives) take ptxas's slow path, which here is computed for
//! every lane and selected: +-0 gives +-inf, a NaN `x + x`, a negative number the NaN
//! 0xfff80000_00000000, +inf +0, and a positive denormal the same step on `x * 2^54`, times
//! 2^27.

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// High words of f64 constants.
const ONE_HI: u32 = 0x3ff0_0000;
const HALF_HI: u32 = 0x3fe0_0000;
const THREE_EIGHTHS_HI: u32 = 0x3fd8_0000;
const TWO_POW_54_HI: u32 = 0x4350_0000;
const TWO_POW_27_HI: u32 = 0x41a0_0000;
const INF_HI: u32 = 0x7ff0_0000;
/// ptxas's NaN for a negative operand (high word; the low word is zero).
const NEGATIVE_NAN_HI: u32 = 0xfff8_0000;
/// The fast path holds where `hi - SLOW_BIAS < SLOW_LIMIT` (unsigned).
const SLOW_BIAS: u32 = 0x0010_0000;
const SLOW_LIMIT: u32 = 0x7fe0_0000;
const SIGN: u32 = 0x8000_0000;
const LUT_AND: u8 = 0xc0;
const LUT_OR: u8 = 0xfc;

impl Ctx<'_> {
    /// `rsqrt.approx.f64 d, a`.
    pub fn rsqrt_approx_f64(&mut self, i: &Instruction) -> LResult<()> {
        crate::ctx::operands_exactly(i, 2)?;
        let d = self.dst(&i.operands[0])?;
        if d.comps != 2 {
            return Err(format!(
                "expected a 64-bit register, found {:?}",
                i.operands[0]
            ));
        }
        let x = self.double_src(&i.operands[1])?;
        let x = self.in_pair(x);
        let hi = Src::reg(x.part(1));
        let fast = self.rsqrt64_step(Src::reg(x));
        let slow = self.rsqrt64_slow(x);
        let biased = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(biased), Dst::None],
            &[hi, Src::imm(SLOW_BIAS.wrapping_neg()), Src::ZERO],
        );
        let is_slow = self.rsqrt64_isetp(IntCmp::Ge, Src::reg(biased), Src::imm(SLOW_LIMIT));
        self.select_pair(d, Src::reg(slow), Src::reg(fast), is_slow);
        Ok(())
    }

    /// ptxas's slow path for every operand class, chosen by SEL (later tests take precedence).
    fn rsqrt64_slow(&mut self, x: Reg) -> Reg {
        let hi = Src::reg(x.part(1));
        let two_54 = self.f64_const(TWO_POW_54_HI);
        let scaled_x = self.temp64();
        self.emit(
            Opcode::Dmul { rnd: Round::Rn },
            &[Dst::Reg(scaled_x)],
            &[Src::reg(x), two_54],
        );
        let y = self.rsqrt64_step(Src::reg(scaled_x));
        let two_27 = self.f64_const(TWO_POW_27_HI);
        let denormal = self.temp64();
        self.emit(
            Opcode::Dmul { rnd: Round::Rn },
            &[Dst::Reg(denormal)],
            &[Src::reg(y), two_27],
        );
        // +inf (NaNs and negatives are taken by the later tests).
        let huge = self.rsqrt64_isetp(IntCmp::Ge, hi, Src::imm(INF_HI));
        let zero = self.temp64();
        self.select_pair(zero, Src::ZERO, Src::reg(denormal), huge);
        let negative = self.temp_pred();
        self.emit(
            Opcode::Isetp {
                cmp: IntCmp::Lt,
                signed: true,
                combine: BoolOp::And,
                ex: false,
            },
            &[Dst::Reg(negative), Dst::None],
            &[hi, Src::ZERO, Src::TRUE],
        );
        let nan_neg = self.f64_const(NEGATIVE_NAN_HI);
        let v = self.temp64();
        self.select_pair(v, nan_neg, Src::reg(zero), Src::reg(negative));
        let twice = self.temp64();
        self.emit(
            Opcode::Dadd { rnd: Round::Rn },
            &[Dst::Reg(twice)],
            &[Src::reg(x), Src::reg(x)],
        );
        let is_nan = self.rsqrt64_dsetp(FloatCmp::Nan, Src::reg(x), Src::reg(x));
        let w = self.temp64();
        self.select_pair(w, Src::reg(twice), Src::reg(v), is_nan);
        let is_zero = self.rsqrt64_dsetp(FloatCmp::Eq, Src::reg(x), Src::ZERO);
        let sign = self.temp();
        self.emit(
            Opcode::Lop3 { lut: LUT_AND },
            &[Dst::Reg(sign), Dst::None],
            &[hi, Src::imm(SIGN), Src::ZERO, Src::FALSE],
        );
        let inf_hi = self.temp();
        self.emit(
            Opcode::Lop3 { lut: LUT_OR },
            &[Dst::Reg(inf_hi), Dst::None],
            &[Src::reg(sign), Src::imm(INF_HI), Src::ZERO, Src::FALSE],
        );
        let signed_inf = self.pair_of([Src::ZERO, Src::reg(inf_hi)]);
        let out = self.temp64();
        self.select_pair(out, Src::reg(signed_inf), Src::reg(w), is_zero);
        out
    }

    /// One Newton step from MUFU.RSQ64H: `y + (y e) (0.5 + 0.375 e)`, `e = 1 - x y^2`.
    fn rsqrt64_step(&mut self, x: Src) -> Reg {
        let x_hi = match x.val {
            SrcVal::Reg(r) => Src::reg(r.part(1)),
            _ => Src::ZERO,
        };
        let seed = self.temp();
        self.emit(
            Opcode::Mufu {
                func: MufuFunc::Rsq64h,
            },
            &[Dst::Reg(seed)],
            &[x_hi],
        );
        let y = self.pair_of([Src::ZERO, Src::reg(seed)]);
        let one = self.f64_const(ONE_HI);
        let half = self.f64_const(HALF_HI);
        let three_eighths = self.f64_const(THREE_EIGHTHS_HI);
        let yy = self.temp64();
        self.emit(
            Opcode::Dmul { rnd: Round::Rn },
            &[Dst::Reg(yy)],
            &[Src::reg(y), Src::reg(y)],
        );
        let e = self.dfma_rnd(Round::Rn, x, Src::reg(yy).negated(), one);
        let h = self.dfma_rnd(Round::Rn, e, three_eighths, half);
        let ye = self.dmul(Src::reg(y), e);
        let out = self.dfma_rnd(Round::Rn, h, ye, Src::reg(y));
        match out.val {
            SrcVal::Reg(r) => r,
            _ => unreachable!("dfma_rnd returns a register"),
        }
    }

    /// A register pair holding the f64 whose high word is `hi` (low word zero).
    fn f64_const(&mut self, hi: u32) -> Src {
        Src::reg(self.pair_of([Src::ZERO, Src::imm(hi)]))
    }

    /// `x` in a register pair (RZ becomes a pair of zeros).
    fn in_pair(&mut self, x: Src) -> Reg {
        match x.val {
            SrcVal::Reg(r) => r,
            _ => self.pair_of([Src::ZERO, Src::ZERO]),
        }
    }

    /// `d = p ? a : b` on both words (an RZ side stays RZ).
    fn select_pair(&mut self, d: Reg, a: Src, b: Src, p: Src) {
        for half in 0..2 {
            let word = |s: Src| match s.val {
                SrcVal::Reg(r) => Src::reg(r.part(half)),
                _ => s,
            };
            let a_word = self.in_reg(word(a));
            self.emit(
                Opcode::Sel,
                &[Dst::Reg(d.part(half))],
                &[a_word, word(b), p],
            );
        }
    }

    /// `ISETP.cmp.U32.AND p, a, b, PT`.
    fn rsqrt64_isetp(&mut self, cmp: IntCmp, a: Src, b: Src) -> Src {
        let p = self.temp_pred();
        let op = Opcode::Isetp {
            cmp,
            signed: false,
            combine: BoolOp::And,
            ex: false,
        };
        self.emit(op, &[Dst::Reg(p), Dst::None], &[a, b, Src::TRUE]);
        Src::reg(p)
    }

    /// `DSETP.cmp.AND p, a, b, PT`.
    fn rsqrt64_dsetp(&mut self, cmp: FloatCmp, a: Src, b: Src) -> Src {
        let p = self.temp_pred();
        let op = Opcode::Dsetp {
            test: DoubleTest::Cmp(cmp),
            combine: BoolOp::And,
        };
        self.emit(op, &[Dst::Reg(p), Dst::None], &[a, b, Src::TRUE]);
        Src::reg(p)
    }
}
