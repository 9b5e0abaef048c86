//! `div.rn.f32` and `rcp.rn.f32`: IEEE division, correctly rounded. The fast path is ptxas's
//! (ptxas 13.5, sm_75..sm_90): MUFU.RCP, one Newton step on the reciprocal, `q = a r`, and one
//! correction `q + r (a - b q)`. ptxas guards it with FCHK and calls a subroutine otherwise; here
//! the guard is an integer test on the exponent fields that keeps operands, reciprocal and
//! quotient well inside the normal range (`FAST_*` below), and the other path is inline,
//! computed for every lane and selected:
//! - zeros, infinities and NaNs: `a * rcp(b * s)` (the scaling by 2^24 or 2^-24 keeps the
//!   reciprocal of a denormal or huge `b` finite and nonzero, so `0 / b` is 0, `inf / b` is inf;
//!   `x / 0`, `x / inf`, `0 / 0`, `inf / inf` and NaNs come out of MUFU.RCP and FMUL as IEEE
//!   says);
//! - everything else (denormal operands and results, overflow, large exponent gaps): the
//!   quotient of |a| and |b| in f64 (MUFU.RCP64H and three Newton steps on 1/B, `q = A r`,
//!   `q1 = q + r (A - B q)` with the residual exact), rounded to f32 by F2F, with the sign of
//!   `a ^ b`. Rounding twice is exact here: a quotient of two 24-bit significands that is not
//!   itself an f64 lies at least 2^-49 (relative) from every point halfway between f32 values,
//!   denormal ones included, far more than q1's error; one that is an f64 (an exact halfway
//!   denormal, 3 * 2^-149 / 2) is q1 itself, as `q + r (A - B q)` misses it by about 2^-106.

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

/// The fast path's region, on the biased exponent fields ea, eb: `ea - FAST_EA_MIN <= FAST_EA_SPAN`,
/// `eb - FAST_EB_MIN <= FAST_EB_SPAN` and `ea - eb + FAST_GAP <= 2 FAST_GAP` (unsigned).
const FAST_EA_MIN: u32 = 60;
const FAST_EA_SPAN: u32 = 250 - 60;
const FAST_EB_MIN: u32 = 3;
const FAST_EB_SPAN: u32 = 250 - 3;
const FAST_GAP: u32 = 100;
const ONE_F32: u32 = 0x3f80_0000;
const TWO_POW_24_F32: u32 = 0x4b80_0000;
const TWO_POW_MINUS_24_F32: u32 = 0x3380_0000;
const ONE_F64_HI: u32 = 0x3ff0_0000;
const MAGNITUDE: u32 = 0x7fff_ffff;
const SIGN: u32 = 0x8000_0000;
const LUT_AND: u8 = 0xc0;
const LUT_XOR: u8 = 0x3c;
const LUT_OR: u8 = 0xfc;

impl Ctx<'_> {
    /// `div.rn.f32 d, a, b` and `rcp.rn.f32 d, b` (without `.ftz`).
    pub fn div_rn_f32(&mut self, i: &Instruction) -> LResult<()> {
        let rcp = i.opcode() == "rcp";
        crate::ctx::operands_exactly(i, if rcp { 2 } else { 3 })?;
        let d = self.dst(&i.operands[0])?;
        let a = if rcp {
            self.in_reg(Src::imm(ONE_F32))
        } else {
            self.reg_src32(&i.operands[1])?
        };
        let b = self.reg_src32(&i.operands[i.operands.len() - 1])?;
        let fast_ok = self.div_fast_region(a, b);
        let special = self.div_special(a, b);
        let fast = self.div_fast(a, b);
        let slow = self.div_f64_path(a, b);
        let special_q = self.div_special_quotient(a, b);
        let other = self.div_sel(special_q, slow, special);
        self.emit(Opcode::Sel, &[Dst::Reg(d)], &[fast, other, fast_ok]);
        Ok(())
    }

    /// ptxas's fast path: r = rcp(b) refined once, q = a r, q + r (a - b q).
    fn div_fast(&mut self, a: Src, b: Src) -> Src {
        let r0 = self.div_temp();
        self.emit(Opcode::MufuRcp, &[Dst::Reg(r0)], &[b]);
        let one = self.in_reg(Src::imm(ONE_F32));
        let e = self.ffma(b.negated(), Src::reg(r0), one);
        let r1 = self.ffma(Src::reg(r0), e, Src::reg(r0));
        let q0 = self.ffma(a, r1, Src::ZERO);
        let rem = self.ffma(b.negated(), q0, a);
        self.ffma(r1, rem, q0)
    }

    /// Both exponent fields and their difference inside the fast path's region.
    fn div_fast_region(&mut self, a: Src, b: Src) -> Src {
        let ea = self.exponent_field(a);
        let eb = self.exponent_field(b);
        let p = self.offset_within(ea, FAST_EA_MIN, FAST_EA_SPAN, Src::TRUE);
        let p = self.offset_within(eb, FAST_EB_MIN, FAST_EB_SPAN, p);
        let gap = self.div_temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(gap), Dst::None],
            &[ea, Src::imm(FAST_GAP), eb.negated()],
        );
        self.isetp_acc(IntCmp::Le, Src::reg(gap), Src::imm(2 * FAST_GAP), p)
    }

    /// `a` or `b` is a zero, an infinity or a NaN.
    pub(crate) fn div_special(&mut self, a: Src, b: Src) -> Src {
        let ea = self.exponent_field(a);
        let eb = self.exponent_field(b);
        let ma = self.div_lop(LUT_AND, a, Src::imm(MAGNITUDE));
        let mb = self.div_lop(LUT_AND, b, Src::imm(MAGNITUDE));
        let p = self.isetp_acc_or(IntCmp::Eq, ma, Src::ZERO, Src::FALSE);
        let p = self.isetp_acc_or(IntCmp::Eq, mb, Src::ZERO, p);
        let p = self.isetp_acc_or(IntCmp::Eq, ea, Src::imm(0xff), p);
        self.isetp_acc_or(IntCmp::Eq, eb, Src::imm(0xff), p)
    }

    /// `a * rcp(b * s)`: the IEEE answer where `a` or `b` is a zero, an infinity or a NaN; `s`
    /// (2^24 for a denormal `b`, 2^-24 from 2^126 up, else 1) keeps rcp finite and nonzero for a
    /// finite nonzero `b`.
    pub(crate) fn div_special_quotient(&mut self, a: Src, b: Src) -> Src {
        let eb = self.exponent_field(b);
        let denormal = self.isetp_acc(IntCmp::Eq, eb, Src::ZERO, Src::TRUE);
        let huge = self.isetp_acc(IntCmp::Ge, eb, Src::imm(253), Src::TRUE);
        let up = self.in_reg(Src::imm(TWO_POW_24_F32));
        let s = self.div_sel(up, Src::imm(ONE_F32), denormal);
        let down = self.in_reg(Src::imm(TWO_POW_MINUS_24_F32));
        let s = self.div_sel(down, s, huge);
        let scaled = self.div_temp();
        self.emit(Opcode::Fmul { ftz: false }, &[Dst::Reg(scaled)], &[b, s]);
        let r = self.div_temp();
        self.emit(Opcode::MufuRcp, &[Dst::Reg(r)], &[Src::reg(scaled)]);
        let q = self.div_temp();
        self.emit(
            Opcode::Fmul { ftz: false },
            &[Dst::Reg(q)],
            &[a, Src::reg(r)],
        );
        Src::reg(q)
    }

    /// |a| / |b| in f64, then rounded to f32, with the sign of `a ^ b`.
    fn div_f64_path(&mut self, a: Src, b: Src) -> Src {
        let big_a = self.abs_to_f64(a);
        let big_b = self.abs_to_f64(b);
        let r = self.rcp_f64(big_b);
        let q = self.dmul(big_a, r);
        let rem = self.dfma_rnd(Round::Rn, big_b.negated(), q, big_a);
        let q1 = self.dfma_rnd(Round::Rn, rem, r, q);
        let narrowed = self.div_temp();
        self.emit(
            Opcode::F2f {
                dst: NumFormat::F32,
                src: NumFormat::F64,
                rnd: Round::Rn,
            },
            &[Dst::Reg(narrowed)],
            &[q1],
        );
        let sign = self.div_lop_regs(LUT_XOR, a, b);
        let sign = self.div_lop(LUT_AND, sign, Src::imm(SIGN));
        self.div_lop_regs(LUT_OR, Src::reg(narrowed), sign)
    }

    /// 1 / B for a positive finite nonzero f64 B: MUFU.RCP64H and three Newton steps.
    pub(crate) fn rcp_f64(&mut self, big_b: Src) -> Src {
        let seed_hi = self.div_temp();
        self.emit(
            Opcode::Mufu {
                func: MufuFunc::Rcp64h,
            },
            &[Dst::Reg(seed_hi)],
            &[half(big_b, 1)],
        );
        let mut r = Src::reg(self.pair_of([Src::ZERO, Src::reg(seed_hi)]));
        let one = Src::reg(self.pair_of([Src::ZERO, Src::imm(ONE_F64_HI)]));
        for _ in 0..3 {
            let e = self.dfma_rnd(Round::Rn, big_b.negated(), r, one);
            r = self.dfma_rnd(Round::Rn, r, e, r);
        }
        r
    }

    /// |x| widened to f64 (exact, denormals included).
    fn abs_to_f64(&mut self, x: Src) -> Src {
        let magnitude = self.div_lop(LUT_AND, x, Src::imm(MAGNITUDE));
        let d = self.temp64();
        self.emit(
            Opcode::F2f {
                dst: NumFormat::F64,
                src: NumFormat::F32,
                rnd: Round::Rn,
            },
            &[Dst::Reg(d)],
            &[magnitude],
        );
        Src::reg(d)
    }

    /// The biased exponent field of an f32.
    fn exponent_field(&mut self, x: Src) -> Src {
        let e = self.div_temp();
        self.emit(
            Opcode::Shf {
                right: true,
                signed: false,
                wide: false,
                hi: true,
            },
            &[Dst::Reg(e)],
            &[Src::ZERO, Src::imm(23), x],
        );
        self.div_lop(LUT_AND, Src::reg(e), Src::imm(0xff))
    }

    /// `accum && (v - min <= span)` (unsigned).
    fn offset_within(&mut self, v: Src, min: u32, span: u32, accum: Src) -> Src {
        let t = self.div_temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(t), Dst::None],
            &[v, Src::imm(min.wrapping_neg()), Src::ZERO],
        );
        self.isetp_acc(IntCmp::Le, Src::reg(t), Src::imm(span), accum)
    }

    /// `ISETP.cmp.U32.AND p, a, b, accum`.
    fn isetp_acc(&mut self, cmp: IntCmp, a: Src, b: Src, accum: Src) -> Src {
        self.isetp_combined(cmp, a, b, accum, BoolOp::And)
    }

    /// `ISETP.cmp.U32.OR p, a, b, accum`.
    fn isetp_acc_or(&mut self, cmp: IntCmp, a: Src, b: Src, accum: Src) -> Src {
        self.isetp_combined(cmp, a, b, accum, BoolOp::Or)
    }

    fn isetp_combined(&mut self, cmp: IntCmp, a: Src, b: Src, accum: Src, combine: BoolOp) -> Src {
        let p = self.div_temp_pred();
        let op = Opcode::Isetp {
            cmp,
            signed: false,
            combine,
            ex: false,
        };
        self.emit(op, &[Dst::Reg(p), Dst::None], &[a, b, accum]);
        Src::reg(p)
    }

    /// `LOP3.lut d, a, b, RZ`.
    fn div_lop(&mut self, lut: u8, a: Src, b: Src) -> Src {
        let d = self.div_temp();
        self.emit(
            Opcode::Lop3 { lut },
            &[Dst::Reg(d), Dst::None],
            &[a, b, Src::ZERO, Src::FALSE],
        );
        Src::reg(d)
    }

    /// A two-register LOP3 (`a op b`, tables over a and b).
    fn div_lop_regs(&mut self, lut: u8, a: Src, b: Src) -> Src {
        let b = self.in_reg(b);
        self.div_lop(lut, a, b)
    }

    fn ffma(&mut self, a: Src, b: Src, c: Src) -> Src {
        let d = self.div_temp();
        self.emit(Opcode::Ffma { ftz: false }, &[Dst::Reg(d)], &[a, b, c]);
        Src::reg(d)
    }

    pub(crate) fn dmul(&mut self, a: Src, b: Src) -> Src {
        let d = self.temp64();
        self.emit(Opcode::Dmul { rnd: Round::Rn }, &[Dst::Reg(d)], &[a, b]);
        Src::reg(d)
    }

    pub(crate) fn dfma_rnd(&mut self, rnd: Round, a: Src, b: Src, c: Src) -> Src {
        let d = self.temp64();
        self.emit(Opcode::Dfma { rnd }, &[Dst::Reg(d)], &[a, b, c]);
        Src::reg(d)
    }

    /// `p ? a : b`.
    fn div_sel(&mut self, a: Src, b: Src, p: Src) -> Src {
        let a = self.in_reg(a);
        let d = self.div_temp();
        self.emit(Opcode::Sel, &[Dst::Reg(d)], &[a, b, p]);
        Src::reg(d)
    }

    fn div_temp(&mut self) -> Reg {
        self.temp()
    }

    fn div_temp_pred(&mut self) -> Reg {
        self.temp_pred()
    }
}

/// The low (0) or high (1) word of a register pair (RZ stays RZ).
fn half(s: Src, w: u8) -> Src {
    match s.val {
        SrcVal::Reg(r) => Src::reg(r.part(w)),
        _ => s,
    }
}
