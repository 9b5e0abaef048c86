//! Half-precision ALU ops: HADD2 (0x030), HFMA2 (0x031, and HFMA2.MMA 0x035), HMUL2 (0x032),
//! HSETP2 (0x034), HSET2 (0x033), HMNMX2 (0x040) and F2FP.PACK_AB (0x03e), lane by lane on two f16 or bf16
//! values, rounded to nearest exactly (sums through TwoSum, products exact in f64); and the
//! rounding of an exact value to f16/bf16 in any mode, shared with the conversions.
//!
//! Fields (as the encoder in ptxforge-sass writes them): A's negation 72, absolute value 73,
//! swizzle 74..75; B's swizzle 60..61, absolute value 62, negation 63 (register and constant
//! forms); HFMA2's C swizzle 81..82, absolute value 83, negation 84; `.SAT` 77, `.F32` result 78,
//! `.RELU` 79, `.FTZ` 80, `.BF16_V2` 85 (HSETP2's at 65). Swizzles: 0 = H1_H0, 1 = F32 (the whole
//! register as an f32 in both lanes, truncated to the half format when the result is one), 2 =
//! H0_H0, 3 = H1_H1. NaN results are the canonical 0x7fff.

use crate::alu::{fcmp_code, round_f32, AluOut, Operands, CANONICAL_NAN};
use crate::decode::{Inst, Op, Operand};

/// A binary16-like format: exponent and mantissa bits.
#[derive(Copy, Clone)]
pub(crate) struct HalfFmt {
    ebits: u32,
    mbits: u32,
}

pub(crate) const F16: HalfFmt = HalfFmt {
    ebits: 5,
    mbits: 10,
};
pub(crate) const BF16: HalfFmt = HalfFmt { ebits: 8, mbits: 7 };
const HALF_NAN: u16 = 0x7fff;

impl HalfFmt {
    fn bias(self) -> i32 {
        (1 << (self.ebits - 1)) - 1
    }
    fn sign(self) -> u16 {
        1 << (self.ebits + self.mbits)
    }
    fn inf(self) -> u16 {
        (((1u32 << self.ebits) - 1) << self.mbits) as u16
    }
}

/// The value of `bits` in `f` (subnormals flushed to a signed zero under `ftz`).
pub(crate) fn decode_half(bits: u16, f: HalfFmt, ftz: bool) -> f64 {
    let neg = bits & f.sign() != 0;
    let e = ((bits >> f.mbits) as u32) & ((1 << f.ebits) - 1);
    let m = (bits as u32) & ((1 << f.mbits) - 1);
    let mag = if e == (1 << f.ebits) - 1 {
        if m != 0 {
            f64::NAN
        } else {
            f64::INFINITY
        }
    } else if e == 0 {
        if ftz {
            0.0
        } else {
            m as f64 * 2f64.powi(1 - f.bias() - f.mbits as i32)
        }
    } else {
        (m as f64 + (1 << f.mbits) as f64) * 2f64.powi(e as i32 - f.bias() - f.mbits as i32)
    };
    if neg {
        -mag
    } else {
        mag
    }
}

/// The exact value `x + tail` (|tail| far below an ulp of the result) rounded into `f` by `rm`
/// (0 RN, 1 RM, 2 RP, 3 RZ); NaN gives the canonical NaN.
pub(crate) fn round_half(x: f64, tail: f64, f: HalfFmt, rm: u32) -> u16 {
    if x.is_nan() {
        return HALF_NAN;
    }
    let neg = x.is_sign_negative() && !(x == 0.0 && tail > 0.0) || (x == 0.0 && tail < 0.0);
    let sign = if neg { f.sign() } else { 0 };
    let (a, t) = if neg { (-x, -tail) } else { (x, tail) };
    let emax = f.bias();
    let emin = 1 - f.bias();
    let max_finite = (2.0 - 2f64.powi(-(f.mbits as i32))) * 2f64.powi(emax);
    let away_dir = match rm {
        1 => neg,
        2 => !neg,
        _ => false,
    };
    if a.is_infinite() {
        return sign | f.inf();
    }
    let e = if a == 0.0 {
        emin
    } else {
        (a.log2().floor() as i32).max(emin)
    };
    // log2 may be off by one near powers of two; settle the exponent exactly.
    let e = if a >= 2f64.powi(e + 1) {
        e + 1
    } else if e > emin && a < 2f64.powi(e) {
        e - 1
    } else {
        e
    };
    let ulp = 2f64.powi(e - f.mbits as i32);
    let q = a / ulp;
    let fl = q.floor();
    let frac = q - fl;
    let m = if frac == 0.0 && t == 0.0 {
        fl
    } else if frac == 0.0 && t < 0.0 {
        // Just below fl.
        if rm == 3 || (rm != 0 && !away_dir) {
            fl - 1.0
        } else {
            fl
        }
    } else if frac == 0.0 {
        // Just above fl.
        if rm != 0 && rm != 3 && away_dir {
            fl + 1.0
        } else {
            fl
        }
    } else {
        match rm {
            0 => {
                let up = frac > 0.5 || (frac == 0.5 && (t > 0.0 || (t == 0.0 && fl % 2.0 == 1.0)));
                fl + up as u32 as f64
            }
            3 => fl,
            _ => fl + away_dir as u32 as f64,
        }
    };
    let v = m * ulp;
    if v > max_finite {
        let to_inf = rm == 0 || away_dir;
        return sign
            | if to_inf {
                f.inf()
            } else {
                encode_finite(max_finite, f)
            };
    }
    sign | encode_finite(v, f)
}

/// The bits of a representable non-negative finite value.
fn encode_finite(v: f64, f: HalfFmt) -> u16 {
    let emin = 1 - f.bias();
    if v < 2f64.powi(emin) {
        return (v / 2f64.powi(emin - f.mbits as i32)) as u16;
    }
    let mut e = v.log2().floor() as i32;
    if v >= 2f64.powi(e + 1) {
        e += 1;
    } else if v < 2f64.powi(e) {
        e -= 1;
    }
    let m = v / 2f64.powi(e - f.mbits as i32) - (1u32 << f.mbits) as f64;
    (((e + f.bias()) as u32) << f.mbits | m as u32) as u16
}

fn fmt_of(i: &Inst) -> HalfFmt {
    let bf16 = if matches!(i.op, Op::Hsetp2 | Op::Hset2) {
        i.bit(65)
    } else {
        i.bit(85)
    };
    if bf16 {
        BF16
    } else {
        F16
    }
}

/// The two lanes of a source: (value, its 32-bit word) by swizzle, with neg/abs applied.
fn lanes(v: u32, swz: u32, neg: bool, abs: bool, f: HalfFmt, ftz: bool) -> [f64; 2] {
    let half = |h: u32| decode_half(h as u16, f, ftz);
    let (lo, hi) = (half(v & 0xffff), half(v >> 16));
    let pair = match swz {
        0 => [lo, hi],
        1 => {
            let x = crate::alu::flush(f32::from_bits(v), ftz) as f64;
            [x, x]
        }
        2 => [lo, lo],
        _ => [hi, hi],
    };
    pair.map(|x| {
        let x = if abs { x.abs() } else { x };
        if neg {
            -x
        } else {
            x
        }
    })
}

fn a_lanes(i: &Inst, x: &impl Operands, f: HalfFmt, ftz: bool) -> [f64; 2] {
    lanes(x.val(i.a), i.f(74, 2), i.bit(72), i.bit(73), f, ftz)
}

/// B's lanes: an immediate holds two halves as they are; registers and constants are swizzled.
fn b_lanes(i: &Inst, x: &impl Operands, f: HalfFmt, ftz: bool) -> [f64; 2] {
    match i.b {
        Operand::Imm(v) => lanes(v, 0, false, false, f, ftz),
        o => lanes(x.val(o), i.f(60, 2), i.bit(63), i.bit(62), f, ftz),
    }
}

/// Operand forms whose modifier fields are known: registers (1) and an immediate B (4; HADD2's
/// and HMUL2's 2, as ptxas's scalar f16 atomic add writes `HADD2 R16, R7, 1, 1`).
fn check_form(i: &Inst) -> Result<(), String> {
    match i.f(9, 3) {
        1 | 4 => Ok(()),
        2 if matches!(i.op, Op::Hadd2 | Op::Hmul2) => Ok(()),
        form => Err(format!("operand form {form}")),
    }
}

/// HADD2, HMUL2, HFMA2 and HFMA2.MMA.
pub fn arith(i: &Inst, x: &impl Operands) -> Result<AluOut, String> {
    let mut out = AluOut::default();
    // HFMA2.MMA -RZ, RZ, c: a move of c (ptxas's constant materialisation).
    if i.op == Op::Hfma2Mma && i.a == Operand::R(255) && i.b == Operand::R(255) {
        out.r[0] = Some(x.val(i.c));
        return Ok(out);
    }
    check_form(i)?;
    let f = fmt_of(i);
    let (ftz, sat, f32_out, relu) = (i.bit(80), i.bit(77), i.bit(78), i.bit(79));
    // An f32 source of a half result is first truncated to the half format (sm_75 ptxas writes
    // cvt.rz.f16.f32 as `HADD2 Rd, Ra.F32, -RZ.H0_H0`).
    let narrowed = |v: [f64; 2], swz: u32| {
        if swz == 1 && !f32_out {
            v.map(|x| decode_half(round_half(x, 0.0, f, 3), f, false))
        } else {
            v
        }
    };
    let a = narrowed(a_lanes(i, x, f, ftz), i.f(74, 2));
    let b = narrowed(
        b_lanes(i, x, f, ftz),
        i.f(60, 2) * matches!(i.b, Operand::R(_)) as u32,
    );
    let fma = matches!(i.op, Op::Hfma2 | Op::Hfma2Mma);
    let c = if fma {
        lanes(x.val(i.c), i.f(81, 2), i.bit(84), i.bit(83), f, ftz)
    } else {
        [0.0; 2]
    };
    let exact = |k: usize| -> (f64, f64) {
        match i.op {
            Op::Hadd2 => two_sum(a[k], b[k]),
            Op::Hmul2 => (a[k] * b[k], 0.0),
            _ => two_sum(a[k] * b[k], c[k]),
        }
    };
    if f32_out {
        if relu || sat {
            return Err(".F32 with .SAT or .RELU".into());
        }
        let (s, e) = exact(0);
        let r = round_f32(s, e, 0);
        out.r[0] = Some(if r.is_nan() {
            CANONICAL_NAN
        } else {
            crate::alu::flush(r, ftz).to_bits()
        });
        return Ok(out);
    }
    let lane = |k: usize| {
        let (s, e) = exact(k);
        let mut r = round_half(s, e, f, 0);
        if ftz && r & !f.sign() < (1 << f.mbits) {
            r &= f.sign();
        }
        let v = decode_half(r, f, false);
        if sat {
            r = if v.is_nan() || v <= 0.0 {
                0
            } else if v >= 1.0 {
                round_half(1.0, 0.0, f, 0)
            } else {
                r
            };
        }
        if relu && (v.is_nan() || v < 0.0) {
            r = if v.is_nan() { HALF_NAN } else { 0 };
        }
        r as u32
    };
    out.r[0] = Some(lane(1) << 16 | lane(0));
    Ok(out)
}

/// A packed f16 (or bf16) pair add, each half rounded to nearest, subnormals kept (ATOMG/RED
/// `.F16x2.RN` / `.BF16x2.RN`); a NaN half is not claimed (its bits are not known).
pub(crate) fn add_pair_rn(a: u32, b: u32, bf16: bool) -> Result<u32, String> {
    let f = if bf16 { BF16 } else { F16 };
    let mut r = 0u32;
    for s in [0, 16] {
        let x = decode_half((a >> s) as u16, f, false);
        let y = decode_half((b >> s) as u16, f, false);
        let (sum, tail) = two_sum(x, y);
        if sum.is_nan() {
            return Err("packed half atomic add giving NaN".into());
        }
        r |= (round_half(sum, tail, f, 0) as u32) << s;
    }
    Ok(r)
}

fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    (s, if err.is_finite() { err } else { 0.0 })
}

/// HSETP2: d0 (81..83) from the low lanes, d1 (84..86) from the high lanes, each combined
/// (69..70) with the accumulator at 87..90; the comparison at 76..79 as FSETP's.
pub fn setp(i: &Inst, x: &impl Operands) -> Result<AluOut, String> {
    check_form(i)?;
    if i.bit(71) {
        return Err("HSETP2.H_AND".into());
    }
    let f = fmt_of(i);
    let ftz = i.bit(80);
    let (a, b) = (a_lanes(i, x, f, ftz), b_lanes(i, x, f, ftz));
    let acc = x.pred(i.pred(87));
    let combine = |r: bool| match i.f(69, 2) {
        0 => r && acc,
        1 => r || acc,
        _ => r ^ acc,
    };
    let mut out = AluOut::default();
    for k in 0..2 {
        out.p[k] = Some(combine(fcmp_code(i.f(76, 4), a[k].partial_cmp(&b[k]))));
    }
    Ok(out)
}

/// HSET2: each lane of the result all ones where its comparison (76..79, as HSETP2's), combined
/// (69..70) with the accumulator at 87..90, holds, else 0; `.BF` (71) writes 1.0 of the lane's
/// format instead of all ones.
pub fn set(i: &Inst, x: &impl Operands) -> Result<AluOut, String> {
    check_form(i)?;
    let f = fmt_of(i);
    let ftz = i.bit(80);
    let (a, b) = (a_lanes(i, x, f, ftz), b_lanes(i, x, f, ftz));
    let acc = x.pred(i.pred(87));
    let combine = |r: bool| match i.f(69, 2) {
        0 => r && acc,
        1 => r || acc,
        _ => r ^ acc,
    };
    let truth = match (i.bit(71), i.bit(65)) {
        (false, _) => 0xffff,
        (true, false) => 0x3c00,
        (true, true) => 0x3f80,
    };
    let mut word = 0u32;
    for k in 0..2 {
        if combine(fcmp_code(i.f(76, 4), a[k].partial_cmp(&b[k]))) {
            word |= truth << (16 * k);
        }
    }
    let mut out = AluOut::default();
    out.r[0] = Some(word);
    Ok(out)
}

/// HMNMX2: per lane, the minimum where the predicate at 87..90 holds, else the maximum; a NaN
/// loses to a number (`.NAN`, bit 81: any NaN gives NaN); -0 orders below +0.
pub fn minmax(i: &Inst, x: &impl Operands) -> Result<AluOut, String> {
    check_form(i)?;
    let f = fmt_of(i);
    let ftz = i.bit(80);
    let (a, b) = (a_lanes(i, x, f, ftz), b_lanes(i, x, f, ftz));
    let min = x.pred(i.pred(87));
    let pick = |k: usize| -> u32 {
        let (p, q) = (a[k], b[k]);
        let r = if p.is_nan() && q.is_nan() || (i.bit(81) && (p.is_nan() || q.is_nan())) {
            f64::NAN
        } else if p.is_nan() {
            q
        } else if q.is_nan() {
            p
        } else {
            let p_less = p < q || (p == q && p.is_sign_negative() && !q.is_sign_negative());
            if p_less == min {
                p
            } else {
                q
            }
        };
        round_half(r, 0.0, f, 0) as u32
    };
    let mut out = AluOut::default();
    out.r[0] = Some(pick(1) << 16 | pick(0));
    Ok(out)
}

/// F2FP.PACK_AB: A's f32 into the high half and B's into the low half, rounded (79..80) to f16
/// or (bit 76) bf16.
pub fn f2fp(i: &Inst, x: &impl Operands) -> Result<AluOut, String> {
    if crate::fp8::is_fp8(i) {
        return crate::fp8::f2fp8(i, x);
    }
    if i.f(72, 3) != 0 || i.f(77, 2) != 0 || i.f(81, 10) != 0 || i.f(9, 3) != 1 {
        return Err("F2FP other than PACK_AB of registers".into());
    }
    let f = if i.bit(76) { BF16 } else { F16 };
    let rm = i.f(79, 2);
    // .RELU (bit 75): a negative value (-0 included) becomes +0; a NaN stays the canonical NaN.
    let relu = i.bit(75);
    let half = |v: u32| {
        let x = f32::from_bits(v) as f64;
        match relu && x.is_sign_negative() && !x.is_nan() {
            true => 0,
            false => round_half(x, 0.0, f, rm) as u32,
        }
    };
    let mut out = AluOut::default();
    out.r[0] = Some(half(x.val(i.a)) << 16 | half(x.val(i.b)));
    Ok(out)
}
