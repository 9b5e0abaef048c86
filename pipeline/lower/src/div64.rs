//! `div.{rn,rz,rm,rp}.f64` and `rcp.{rz,rm,rp}.f64` (as `1 / b`; `rcp.rn.f64` has ptxas's own
//! sequence, `div64/rcp.rs`): IEEE f64 division, correctly rounded, as ptxas 13.5 writes it on
//! sm_75..sm_90. Every path is computed for every lane and
//! selected (ptxas branches to a subroutine for the slow path):
//! - the fast path (`.rn` only): `r` = MUFU.RCP64H of `b`'s high word (low word 1) refined by
//!   [`Ctx::rcp64_refined`], `q = a r`, `q1 = q + r (a - b q)`; ptxas takes it when `a`'s high
//!   word, as an f32, is at least 0x03500000 (or NaN), `b`'s is finite and `q1`'s lies in
//!   (0x00100000, 0x7f800000] (integer tests here, the same sets);
//! - the slow path normalizes: `B` is `b`'s significand in [1, 2) (a denormal `b` is scaled by
//!   2^1023 instead), `A` is `a`'s significand with the exponent 2^565 (when `a`'s exponent is at
//!   least `b`'s) or 2^-565 (a denormal `a` rescaled by an exact DFMA); `q1 = A / B` as above,
//!   then the result is `q1 S` with `S` the power of two that undoes the scaling (the exponent
//!   difference clamped to +-1130, so overflow and underflow happen in that one DMUL).
//!   `.rn`: a denormal result that DMUL rounded from a tie is rounded again toward the remainder
//!   `A - B q1` (DMUL.RP on the signed scale). `.rz/.rm/.rp`: `q2 = q1 + r (A - B q1)` with the
//!   DFMAs and the DMUL in the wanted direction (directed roundings compose);
//! - zeros, infinities and NaNs (the normalized exponent fields 0 or 0x7ff): a NaN operand quieted
//!   (`a` first), 0/0 and inf/inf the NaN 0xfff80000_00000000, inf/x and x/0 a signed infinity,
//!   else a signed zero.

use ptxforge_ptx::ast::Instruction;
use ptxforge_sass::ir::*;

use crate::ctx::{Ctx, LResult};

const ONE_HI: u32 = 0x3ff0_0000;
const TWO_HI: u32 = 0x4000_0000;
const TWO_POW_1023_HI: u32 = 0x7fe0_0000;
const EXPONENT: u32 = 0x7ff0_0000;
const SIGN_AND_FRACTION: u32 = 0x800f_ffff;
const SIGN: u32 = 0x8000_0000;
const MAGNITUDE: u32 = 0x7fff_ffff;
const EXPONENT_ONE: u32 = 0x0010_0000;
/// The high words of the dividend's scale: 2^565 when its exponent is at least the divisor's,
/// else 2^-565.
const SCALE_UP_HI: u32 = 0x6340_0000;
const SCALE_DOWN_HI: u32 = 0x1ca0_0000;
/// The exponent difference (in high-word units) is clamped to +-1130.
const GAP_LIMIT: u32 = 0x46a0_0000;
/// The fast path's bounds (high words read as f32 magnitudes).
const FAST_A_MIN: u32 = 0x0350_0000;
const F32_INF: u32 = 0x7f80_0000;
/// 1075 in the exponent field: half a unit of the smallest denormal, 2^-1075, relative to 1.
const HALF_DENORMAL_ULP: u32 = 0x4330_0000;
const INVALID_NAN_HI: u32 = 0xfff8_0000;
const LUT_AND: u8 = 0xc0;
const LUT_OR: u8 = 0xfc;
const LUT_XOR: u8 = 0x3c;

/// What the slow path's normalization leaves.
#[derive(Copy, Clone)]
struct Normalized {
    big_a: Reg,
    big_b: Reg,
    /// The scale `S` (a power of two) and the integer `k` with `S`'s high word `k + 0x7fe00000`.
    scale: Reg,
    k: Reg,
    /// The normalized exponent fields (`a`'s own for a normal `a`, `A`'s for a denormal one;
    /// `b`'s own for a normal `b`, `b 2^1023`'s for a denormal one).
    exp_a: Reg,
    exp_b: Reg,
}

impl Ctx<'_> {
    /// `div.rnd.f64 d, a, b` and `rcp.rnd.f64 d, b` (IEEE rounding `rnd`).
    pub fn div_f64(&mut self, i: &Instruction, rnd: Round) -> LResult<()> {
        let rcp = i.opcode() == "rcp";
        crate::ctx::operands_exactly(i, if rcp { 2 } else { 3 })?;
        let d = self.dst(&i.operands[0])?;
        if d.comps != 2 {
            return Err(format!(
                "expected a 64-bit register, found {:?}",
                i.operands[0]
            ));
        }
        let a = if rcp {
            self.pair_of([Src::ZERO, Src::imm(ONE_HI)])
        } else {
            self.d64_operand(&i.operands[1])?
        };
        let b = self.d64_operand(&i.operands[i.operands.len() - 1])?;
        let out = if rcp && rnd == Round::Rn {
            self.rcp64_rn(b)
        } else {
            self.div64(a, b, rnd)
        };
        for half in 0..2 {
            self.emit(
                Opcode::Mov,
                &[Dst::Reg(d.part(half))],
                &[Src::reg(out.part(half))],
            );
        }
        Ok(())
    }

    /// `a / b` rounded as `rnd` says.
    fn div64(&mut self, a: Reg, b: Reg, rnd: Round) -> Reg {
        let n = self.div64_normalize(a, b);
        let (r, q1) = self.div64_quotient(n.big_a, n.big_b);
        let scaled = if rnd == Round::Rn {
            self.div64_scale_rn(&n, b, q1)
        } else {
            self.div64_scale_directed(&n, r, q1, rnd)
        };
        let special = self.div64_special(a, b, &n);
        let special_case = self.div64_special_case(&n);
        let slow = self.d64_select(special, scaled, special_case);
        if rnd != Round::Rn {
            return slow;
        }
        let (_, fast) = self.div64_quotient(a, b);
        let fast_ok = self.div64_fast_ok(a, b, fast);
        self.d64_select(fast, slow, fast_ok)
    }

    /// 1 / `b` for the f64 `b`: MUFU.RCP64H on the high word, `seed_lo` as the low word, then
    /// ptxas's refinement `e = 1 - b r`, `r += r (e + e^2)`, `r += r (1 - b r)`.
    pub(crate) fn rcp64_refined(&mut self, b: Reg, seed_lo: Src) -> Reg {
        let seed_hi = self.temp();
        self.emit(
            Opcode::Mufu {
                func: MufuFunc::Rcp64h,
            },
            &[Dst::Reg(seed_hi)],
            &[Src::reg(b.part(1))],
        );
        let r = self.pair_of([seed_lo, Src::reg(seed_hi)]);
        let one = self.pair_of([Src::ZERO, Src::imm(ONE_HI)]);
        let e = self.d64_fma(Round::Rn, Src::reg(b).negated(), r, one);
        let e = self.d64_fma(Round::Rn, Src::reg(e), e, e);
        let r = self.d64_fma(Round::Rn, Src::reg(r), e, r);
        let e = self.d64_fma(Round::Rn, Src::reg(b).negated(), r, one);
        self.d64_fma(Round::Rn, Src::reg(r), e, r)
    }

    /// `(r, q1)`: the refined reciprocal of `b` and `q1 = q + r (a - b q)` with `q = a r`.
    fn div64_quotient(&mut self, a: Reg, b: Reg) -> (Reg, Reg) {
        let r = self.rcp64_refined(b, Src::imm(1));
        let q = self.d64_mul(Round::Rn, a, r);
        let rem = self.d64_fma(Round::Rn, Src::reg(b).negated(), q, a);
        let q1 = self.d64_fma(Round::Rn, Src::reg(r), rem, q);
        (r, q1)
    }

    /// `A`, `B`, the scale and the normalized exponent fields (see the file's comment).
    fn div64_normalize(&mut self, a: Reg, b: Reg) -> Normalized {
        let (a_hi, b_hi) = (Src::reg(a.part(1)), Src::reg(b.part(1)));
        let ea = self.d64_lop(LUT_AND, a_hi, Src::imm(EXPONENT));
        let eb = self.d64_lop(LUT_AND, b_hi, Src::imm(EXPONENT));
        let up = self.d64_isetp(IntCmp::Ge, Src::reg(ea), Src::reg(eb));
        let up_hi = self.in_reg(Src::imm(SCALE_UP_HI));
        let e = self.d64_sel_src(up_hi, Src::imm(SCALE_DOWN_HI), up);
        // B: b's significand in [1, 2), or b 2^1023 for a denormal (or zero) b.
        let b_frac = self.d64_lop(LUT_AND, b_hi, Src::imm(SIGN_AND_FRACTION));
        let b_frac = self.d64_lop(LUT_OR, Src::reg(b_frac), Src::imm(ONE_HI));
        let b_unit = self.pair_of([Src::reg(b.part(0)), Src::reg(b_frac)]);
        let big = self.pair_of([Src::ZERO, Src::imm(TWO_POW_1023_HI)]);
        let b_scaled = self.d64_mul(Round::Rn, b, big);
        let b_normal = self.d64_exponent_nonzero(b_hi);
        let big_b = self.d64_select(b_unit, b_scaled, b_normal);
        let eb_scaled = self.d64_lop(LUT_AND, Src::reg(b_scaled.part(1)), Src::imm(EXPONENT));
        let exp_b = self.d64_sel(eb, Src::reg(eb_scaled), b_normal);
        // A: a's significand with the exponent of `e`; a denormal a as 2 A - 2^(e + 1).
        let a_frac = self.d64_lop(LUT_AND, a_hi, Src::imm(SIGN_AND_FRACTION));
        let a_frac = self.d64_lop(LUT_OR, Src::reg(a_frac), Src::reg(e));
        let a_unit = self.pair_of([Src::reg(a.part(0)), Src::reg(a_frac)]);
        let a_sign = self.d64_lop(LUT_AND, a_hi, Src::imm(SIGN));
        let lead = self.d64_lop(LUT_OR, Src::reg(a_sign), Src::reg(e));
        let lead = self.d64_lop(LUT_OR, Src::reg(lead), Src::imm(EXPONENT_ONE));
        let lead = self.pair_of([Src::ZERO, Src::reg(lead)]);
        let two = self.pair_of([Src::ZERO, Src::imm(TWO_HI)]);
        let a_rescaled =
            self.d64_fma_to(Round::Rn, Src::reg(a_unit), two, Src::reg(lead).negated());
        let a_normal = self.d64_exponent_nonzero(a_hi);
        let big_a = self.d64_select(a_unit, a_rescaled, a_normal);
        let ea_rescaled = self.d64_lop(LUT_AND, Src::reg(a_rescaled.part(1)), Src::imm(EXPONENT));
        let exp_a = self.d64_sel(ea, Src::reg(ea_rescaled), a_normal);
        // S: high word clamp(ea - eb, +-1130) - e + 0x7fe00000.
        let gap = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(gap), Dst::None],
            &[Src::reg(ea), Src::reg(eb).negated(), Src::ZERO],
        );
        let gap = self.d64_clamp(gap, GAP_LIMIT);
        let k = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(k), Dst::None],
            &[Src::reg(gap), Src::reg(e).negated(), Src::ZERO],
        );
        let scale_hi = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(scale_hi), Dst::None],
            &[Src::reg(k), Src::imm(TWO_POW_1023_HI), Src::ZERO],
        );
        let scale = self.pair_of([Src::ZERO, Src::reg(scale_hi)]);
        Normalized {
            big_a,
            big_b,
            scale,
            k,
            exp_a,
            exp_b,
        }
    }

    /// `.rn`: `q1 S`, except that a denormal result DMUL rounded from an exact tie is rounded
    /// toward the sign of the remainder `A - B q1` (relative to `b`'s sign) instead.
    fn div64_scale_rn(&mut self, n: &Normalized, b: Reg, q1: Reg) -> Reg {
        let res = self.d64_mul(Round::Rn, q1, n.scale);
        let rem = self.d64_fma(Round::Rn, Src::reg(n.big_b).negated(), q1, n.big_a);
        let rem_hi = Src::reg(rem.part(1));
        let rem_mag = self.d64_lop(LUT_AND, rem_hi, Src::imm(MAGNITUDE));
        let res_mag = self.d64_lop(LUT_AND, Src::reg(res.part(1)), Src::imm(MAGNITUDE));
        let tiny = self.d64_isetp(IntCmp::Le, Src::reg(res_mag), Src::imm(EXPONENT_ONE));
        let p = self.d64_isetp_acc(IntCmp::Ne, Src::reg(rem_mag), Src::ZERO, tiny);
        // The remainder's direction, carried as the scale's sign: DMUL.RP rounds toward it.
        let direction = self.d64_lop(LUT_XOR, rem_hi, Src::reg(b.part(1)));
        let direction = self.d64_lop(LUT_AND, Src::reg(direction), Src::imm(SIGN));
        let signed_hi = self.d64_lop(LUT_OR, Src::reg(direction), Src::reg(n.scale.part(1)));
        let signed_scale = self.pair_of([Src::ZERO, Src::reg(signed_hi)]);
        let up = self.d64_mul(Round::Rp, q1, signed_scale);
        let up_hi = self.d64_lop(LUT_XOR, Src::reg(up.part(1)), Src::reg(direction));
        let toward = self.pair_of([Src::reg(up.part(0)), Src::reg(up_hi)]);
        // The rounding error of `res`, in q1's scale: a tie when it is half a denormal unit.
        let inverse_hi = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(inverse_hi), Dst::None],
            &[Src::reg(n.k).negated(), Src::ZERO, Src::ZERO],
        );
        let inverse = self.pair_of([Src::ZERO, Src::reg(inverse_hi)]);
        let err = self.d64_fma(Round::Rn, Src::reg(inverse).negated(), res, q1);
        let err_mag = self.d64_lop(LUT_AND, Src::reg(err.part(1)), Src::imm(MAGNITUDE));
        let half_ulp = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(half_ulp), Dst::None],
            &[
                Src::reg(n.k).negated(),
                Src::imm(HALF_DENORMAL_ULP.wrapping_neg()),
                Src::ZERO,
            ],
        );
        let p = self.d64_isetp_acc(IntCmp::Eq, Src::reg(err_mag), Src::reg(half_ulp), p);
        self.d64_select(toward, res, p)
    }

    /// `.rz/.rm/.rp`: `S (q1 + r (A - B q1))`, the last DFMAs and the DMUL rounded as `rnd`.
    fn div64_scale_directed(&mut self, n: &Normalized, r: Reg, q1: Reg, rnd: Round) -> Reg {
        let rem = self.d64_fma(rnd, Src::reg(n.big_b).negated(), q1, n.big_a);
        let q2 = self.d64_fma(rnd, Src::reg(r), rem, q1);
        self.d64_mul(rnd, n.scale, q2)
    }

    /// Whether a normalized exponent field is 0 or 0x7ff (a zero, an infinity or a NaN).
    fn div64_special_case(&mut self, n: &Normalized) -> Src {
        let pa = self.d64_exponent_extreme(n.exp_a, Src::FALSE);
        self.d64_exponent_extreme(n.exp_b, pa)
    }

    /// The quotient where an operand is a zero, an infinity or a NaN.
    fn div64_special(&mut self, a: Reg, b: Reg, n: &Normalized) -> Reg {
        let (a_hi, b_hi) = (Src::reg(a.part(1)), Src::reg(b.part(1)));
        let sign = self.d64_lop(LUT_XOR, a_hi, b_hi);
        let sign = self.d64_lop(LUT_AND, Src::reg(sign), Src::imm(SIGN));
        let inf_hi = self.d64_lop(LUT_OR, Src::reg(sign), Src::imm(EXPONENT));
        let a_inf = self.d64_isetp(IntCmp::Eq, Src::reg(n.exp_a), Src::imm(EXPONENT));
        let infinite = self.d64_isetp_or(IntCmp::Eq, Src::reg(n.exp_b), Src::ZERO, a_inf);
        let hi = self.d64_sel(inf_hi, Src::reg(sign), infinite);
        let invalid = self.d64_isetp(IntCmp::Eq, Src::reg(n.exp_a), Src::reg(n.exp_b));
        let nan_hi = self.in_reg(Src::imm(INVALID_NAN_HI));
        let hi = self.d64_sel_src(nan_hi, Src::reg(hi), invalid);
        let v = self.pair_of([Src::ZERO, Src::reg(hi)]);
        let b_quiet = self.d64_quieted(b);
        let b_nan = self.d64_is_nan(b);
        let v = self.d64_select(b_quiet, v, b_nan);
        let a_quiet = self.d64_quieted(a);
        let a_nan = self.d64_is_nan(a);
        self.d64_select(a_quiet, v, a_nan)
    }

    /// ptxas's test for the fast path's answer (see the file's comment).
    fn div64_fast_ok(&mut self, a: Reg, b: Reg, q1: Reg) -> Src {
        let a_mag = self.d64_lop(LUT_AND, Src::reg(a.part(1)), Src::imm(MAGNITUDE));
        let b_mag = self.d64_lop(LUT_AND, Src::reg(b.part(1)), Src::imm(MAGNITUDE));
        let q_mag = self.d64_lop(LUT_AND, Src::reg(q1.part(1)), Src::imm(MAGNITUDE));
        let p = self.d64_isetp(IntCmp::Ge, Src::reg(a_mag), Src::imm(FAST_A_MIN));
        let p = self.d64_isetp_acc(IntCmp::Lt, Src::reg(b_mag), Src::imm(F32_INF), p);
        let q_off = self.temp();
        self.emit(
            Opcode::Iadd3 { x: false },
            &[Dst::Reg(q_off), Dst::None],
            &[
                Src::reg(q_mag),
                Src::imm((EXPONENT_ONE + 1).wrapping_neg()),
                Src::ZERO,
            ],
        );
        let span = F32_INF - (EXPONENT_ONE + 1);
        self.d64_isetp_acc(IntCmp::Le, Src::reg(q_off), Src::imm(span), p)
    }
}

mod helpers;
mod rcp;
