//! The conversions I2F (0x306, 0x312), F2I (0x305, 0x311) and F2F (0x304, 0x310) between every
//! integer width, f16, f32 and f64, IEEE-exact in every rounding mode. Source size at 84..85 and
//! result size at 75..76 (0: 8-bit, 1: 16-bit (f16 for a float), 2: 32-bit, 3: a register pair);
//! an 8- or 16-bit source is the byte (60..61) or half (60) of its register that the selector
//! names; rounding at 78..79 (RN, RM, RP, RZ); I2F's source is signed at 74, F2I's result at 72.
//! F2I saturates to the result type (NaN gives 0) and writes an 8- or 16-bit result sign- or
//! zero-extended; narrow float results fill the low half, the high half zero. FRND (0x307) rounds
//! an f32 to an integral f32 in the same layout.

use crate::alu::{flush, hi, lo, round_f32, AluOut, Operands, CANONICAL_NAN};
use crate::decode::Inst;
use crate::half::{decode_half, round_half, BF16, F16};

fn result_size(i: &Inst) -> u32 {
    i.f(75, 2)
}

fn source_size(i: &Inst) -> u32 {
    i.f(84, 2)
}

/// The result words: one register, or a pair.
fn result(i: &Inst, v: u64) -> AluOut {
    let mut out = AluOut::default();
    out.r = [Some(lo(v)), (result_size(i) == 3).then_some(hi(v))];
    out
}

/// The source's bits: 8 or 16 of them picked by the selector, 32, or a pair.
fn source_bits(i: &Inst, x: &impl Operands) -> u64 {
    match source_size(i) {
        0 => (x.val(i.b) >> (8 * i.f(60, 2))) as u64 & 0xff,
        1 => (x.val(i.b) >> (16 * i.f(60, 1))) as u64 & 0xffff,
        2 => x.val(i.b) as u64,
        _ => x.val64(i.b),
    }
}

/// I2F: an integer of any width to f16, f32 or f64.
pub fn i2f(i: &Inst, x: &impl Operands) -> Result<AluOut, String> {
    let bits = 8 << source_size(i);
    let raw = source_bits(i, x);
    let v: i128 = if i.bit(74) {
        crate::decode::sext(raw, bits) as i128
    } else {
        raw as i128
    };
    let rm = i.f(78, 2);
    // An exact f64 sum of the high and low parts, rounded once.
    let (high, low) = ((v >> 32) as f64 * 4294967296.0, (v & 0xffff_ffff) as f64);
    let (sum, err) = (high + low, (high + low - high) - low);
    let r = match result_size(i) {
        1 => round_half(sum, -err, F16, rm) as u64,
        2 => round_f32(sum, -err, rm).to_bits() as u64,
        3 => int_to_f64(v, rm).to_bits(),
        _ => return Err("I2F to an 8-bit result".into()),
    };
    Ok(result(i, r))
}

/// A (65-bit) integer to f64, rounded by `rm`.
fn int_to_f64(v: i128, rm: u32) -> f64 {
    let near = v as f64;
    let above = (near as i128).cmp(&v);
    use std::cmp::Ordering::*;
    let step = match (rm, above) {
        (1, Greater) => -1,
        (2, Less) => 1,
        (3, Greater) if near > 0.0 => -1,
        (3, Less) if near < 0.0 => 1,
        _ => 0,
    };
    match step {
        0 => near,
        s => next_toward(near, s),
    }
}

/// The neighbour of a finite nonzero `v` one ulp up (`s > 0`) or down.
fn next_toward(v: f64, s: i32) -> f64 {
    let b = v.to_bits();
    f64::from_bits(if (v > 0.0) == (s > 0) { b + 1 } else { b - 1 })
}

/// A float source as f64: f16, bf16 (F2I), f32 (flushed under `.FTZ`, bit 80) or f64.
fn float_source(i: &Inst, x: &impl Operands) -> Result<f64, String> {
    let raw = source_bits(i, x);
    let v = match source_size(i) {
        // A bf16 source (F2I.*.BF16): size 0 with bit 86, 16 bits as size 1 reads them.
        0 if i.bit(86) => decode_half((x.val(i.b) >> (16 * i.f(60, 1))) as u16, BF16, false),
        1 => decode_half(raw as u16, F16, false),
        2 => flush(f32::from_bits(raw as u32), i.bit(80)) as f64,
        3 => f64::from_bits(raw),
        _ => return Err("an 8-bit float source".into()),
    };
    // The operand's |x| and -x modifiers (ptxas writes `FRND.TRUNC R7, -R0` for a negated value).
    Ok(match crate::alu::mod_bits(i, false) {
        Some((neg, abs)) => {
            let v = if i.bit(abs) { v.abs() } else { v };
            if i.bit(neg) {
                -v
            } else {
                v
            }
        }
        None => v,
    })
}

/// The f64 NaN NVIDIA GPUs return (as the emulator's DADD/DMUL/DFMA).
const CANONICAL_NAN64: u64 = 0x7fff_ffff_ffff_ffff;

/// FRND (0x307; 0x313 for f64): an f32 (or f64, sizes 3) rounded to an integral value of its
/// type by 78..79 (`.FTZ` flushes an f32 source); a NaN gives the canonical NaN of the type.
/// f16 forms are not run yet.
pub fn frnd(i: &Inst, x: &impl Operands) -> Result<AluOut, String> {
    if let Some(f) = frnd_half_format(i) {
        return frnd_half(i, x, f);
    }
    let wide = match (source_size(i), result_size(i)) {
        (2, 2) => false,
        (3, 3) => true,
        _ => return Err("FRND other than f32 or f64".into()),
    };
    let v = float_source(i, x)?;
    if v.is_nan() {
        let nan = if wide {
            CANONICAL_NAN64
        } else {
            CANONICAL_NAN as u64
        };
        return Ok(result(i, nan));
    }
    let r = match i.f(78, 2) {
        0 => v.round_ties_even(),
        1 => v.floor(),
        2 => v.ceil(),
        _ => v.trunc(),
    };
    if wide {
        return Ok(result(i, r.to_bits()));
    }
    Ok(result(i, (r as f32).to_bits() as u64))
}

/// F2I: f16, bf16, f32 or f64 to an integer of any width, rounded by 78..79, saturating, NaN to 0.
pub fn f2i(i: &Inst, x: &impl Operands) -> Result<AluOut, String> {
    let f = float_source(i, x)?;
    let r = match i.f(78, 2) {
        0 => f.round_ties_even(),
        1 => f.floor(),
        2 => f.ceil(),
        _ => f.trunc(),
    };
    let bits = 8 << result_size(i);
    let signed = i.bit(72);
    let (min, max) = if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    let v = if r.is_nan() {
        0
    } else {
        (r.clamp(min as f64, max as f64) as i128).clamp(min, max)
    };
    Ok(result(
        i,
        v as i64 as u64 & if bits == 64 { u64::MAX } else { 0xffff_ffff },
    ))
}

/// F2F between f16, f32 and f64, and from f32 or f64 to bf16 (bit 77 with result size 0):
/// widening is exact, narrowing rounds by 78..79; a NaN gives the canonical NaN of a narrower
/// format, or the quiet f64 NaN of its sign.
pub fn f2f(i: &Inst, x: &impl Operands) -> Result<AluOut, String> {
    let to_bf16 = i.bit(77) && result_size(i) == 0 && source_size(i) >= 2;
    if i.bit(77) && !to_bf16 {
        return Err("F2F from bf16".into());
    }
    let v = float_source(i, x)?;
    let rm = i.f(78, 2);
    if to_bf16 {
        return Ok(result(i, round_half(v, 0.0, BF16, rm) as u64));
    }
    let r = match result_size(i) {
        1 => round_half(v, 0.0, F16, rm) as u64,
        2 if v.is_nan() => CANONICAL_NAN as u64,
        2 => round_f32(v, 0.0, rm).to_bits() as u64,
        // A NaN widens to the quiet NaN of its sign.
        3 if v.is_nan() => (v.is_sign_negative() as u64) << 63 | 0x7ff8_0000_0000_0000,
        3 => v.to_bits(),
        _ => return Err("F2F to an 8-bit result".into()),
    };
    Ok(result(i, r))
}

/// FRND.F16 (sizes 1) or FRND.BF16 (sizes 0 with bits 77 and 86): the half format rounded.
fn frnd_half_format(i: &Inst) -> Option<crate::half::HalfFmt> {
    match (source_size(i), result_size(i), i.bit(77), i.bit(86)) {
        (1, 1, false, false) => Some(crate::half::F16),
        (0, 0, true, true) => Some(crate::half::BF16),
        _ => None,
    }
}

/// FRND.F16/.BF16: the low half of the source rounded by 78..79 to an integral value of its
/// format (exact, -0 kept), a NaN to the canonical half NaN; the high half of the result is 0.
fn frnd_half(i: &Inst, x: &impl Operands, f: crate::half::HalfFmt) -> Result<AluOut, String> {
    // Both formats read 16 bits (the half at 60 selecting the upper one), as size 1 does.
    let raw = (x.val(i.b) >> (16 * i.f(60, 1))) as u16;
    let v = crate::half::decode_half(raw, f, false);
    let v = match crate::alu::mod_bits(i, false) {
        Some((neg, abs)) => {
            let v = if i.bit(abs) { v.abs() } else { v };
            if i.bit(neg) {
                -v
            } else {
                v
            }
        }
        None => v,
    };
    let r = match i.f(78, 2) {
        0 => v.round_ties_even(),
        1 => v.floor(),
        2 => v.ceil(),
        _ => v.trunc(),
    };
    let mut out = AluOut::default();
    out.r[0] = Some(crate::half::round_half(r, 0.0, f, 0) as u32);
    Ok(out)
}
