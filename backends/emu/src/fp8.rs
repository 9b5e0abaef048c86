//! The FP8 forms of F2FP (0x03e, sm_89+): `F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C` (A's f32 into
//! the high byte, B's into the low), `F2FP.SATFINITE.E5M2.F16.UNPACK_B_MERGE_C` (B's two f16
//! halves into two bytes) and `F2FP.F16.E4M3.UNPACK_B` (B's low two bytes into an f16x2), each
//! with `.RELU` at bit 75 (negative values become zero before rounding); an unpack's `.H1` at bit
//! 88 reads B's upper two bytes.
//!
//! Fields, as ptxas 13.5 writes them: bits 72..91 (`.RELU` cleared) name the form (table below).
//! Rounding is to nearest even, with saturation to the largest finite value (448 for e4m3, 57344
//! for e5m2); NaN becomes 0x7f (either format, sign dropped); e4m3 has no infinities. Widening is
//! exact, NaN becoming the canonical f16 0x7fff. A pack's upper half is C's lower half (MERGE_C:
//! ptxas gives RZ, or another pack's result to build a word of four bytes).

use crate::alu::{AluOut, Operands};
use crate::decode::Inst;
use crate::half::{decode_half, round_half, F16};

/// What an FP8 F2FP does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Form {
    PackF32,
    PackF16x2,
    Unpack,
}

/// Bits 72..91 (`.RELU` cleared) of each form and whether it is e4m3 (else e5m2).
const FORMS: [(u32, Form, bool); 6] = [
    (0x48070, Form::PackF32, true),
    (0x48060, Form::PackF32, false),
    (0x48032, Form::PackF16x2, true),
    (0x48022, Form::PackF16x2, false),
    (0x20006, Form::Unpack, true),
    (0x20004, Form::Unpack, false),
];

/// `.RELU`, within bits 72..91.
const RELU: u32 = 1 << 3;
/// An unpack's `.H1` on B (its upper two bytes), within bits 72..91.
const H1: u32 = 1 << 16;

/// Whether `i` (an F2FP) is one of the FP8 forms.
pub(crate) fn is_fp8(i: &Inst) -> bool {
    form_of(i).is_some()
}

fn form_of(i: &Inst) -> Option<(Form, bool)> {
    let bits = i.f(72, 20) & !RELU & !H1;
    FORMS
        .iter()
        .find(|(b, ..)| *b == bits)
        .map(|&(_, f, e4m3)| (f, e4m3))
}

/// Runs an FP8 F2FP for one thread.
pub(crate) fn f2fp8(i: &Inst, x: &impl Operands) -> Result<AluOut, String> {
    let (form, e4m3) = form_of(i).ok_or("F2FP form")?;
    if i.f(9, 3) != 1 {
        return Err("FP8 F2FP other than the register form".into());
    }
    let relu = i.f(72, 20) & RELU != 0;
    let h1 = i.f(72, 20) & H1 != 0;
    if h1 && form != Form::Unpack {
        return Err("`.H1` on an FP8 pack".into());
    }
    let b = if h1 { x.val(i.b) >> 16 } else { x.val(i.b) };
    let r = match form {
        Form::PackF32 => {
            let a = x.val(i.a);
            let f = |v: u32| to_fp8(f32::from_bits(v) as f64, e4m3, relu) as u32;
            x.val(i.c) << 16 | f(a) << 8 | f(b)
        }
        Form::PackF16x2 => {
            let f = |h: u32| to_fp8(decode_half(h as u16, F16, false), e4m3, relu) as u32;
            x.val(i.c) << 16 | f(b >> 16) << 8 | f(b & 0xffff)
        }
        Form::Unpack => {
            let f = |byte: u32| widen(byte as u8, e4m3, relu) as u32;
            f(b >> 8 & 0xff) << 16 | f(b & 0xff)
        }
    };
    let mut out = AluOut::default();
    out.r[0] = Some(r);
    Ok(out)
}

/// Mantissa bits, smallest normal exponent and largest finite value of the format.
fn params(e4m3: bool) -> (i32, i32, f64) {
    if e4m3 {
        (3, -6, 448.0)
    } else {
        (2, -14, 57344.0)
    }
}

/// `x` rounded to nearest even into e4m3 or e5m2 with saturation.
fn to_fp8(x: f64, e4m3: bool, relu: bool) -> u8 {
    if x.is_nan() {
        return 0x7f;
    }
    let x = if relu && x < 0.0 { 0.0 } else { x };
    let sign = if x.is_sign_negative() { 0x80 } else { 0 };
    let (mbits, emin, max) = params(e4m3);
    let a = x.abs().min(f64::MAX);
    // The quantum at a's exponent (subnormals share emin's), a multiple of it by ties to even.
    let e = if a == 0.0 {
        emin
    } else {
        exponent(a).max(emin)
    };
    let q = 2f64.powi(e - mbits);
    let r = ((a / q).round_ties_even() * q).min(max);
    sign | code_of(r, mbits, emin)
}

/// floor(log2(a)) for a finite positive `a`, exactly.
fn exponent(a: f64) -> i32 {
    let mut e = a.log2().floor() as i32;
    if a >= 2f64.powi(e + 1) {
        e += 1;
    } else if a < 2f64.powi(e) {
        e -= 1;
    }
    e
}

/// The 7-bit code of a representable non-negative value.
fn code_of(r: f64, mbits: i32, emin: i32) -> u8 {
    let bias = 1 - emin;
    if r < 2f64.powi(emin) {
        return (r / 2f64.powi(emin - mbits)) as u8;
    }
    let e = exponent(r);
    let m = r / 2f64.powi(e - mbits) - 2f64.powi(mbits);
    (((e + bias) << mbits) as u8) | m as u8
}

/// An FP8 byte widened exactly to f16 bits.
fn widen(byte: u8, e4m3: bool, relu: bool) -> u16 {
    let (mbits, emin, _) = params(e4m3);
    let mag = byte & 0x7f;
    let nan = if e4m3 { mag == 0x7f } else { mag > 0x7c };
    if nan {
        return 0x7fff;
    }
    if !e4m3 && mag == 0x7c {
        return if relu && byte & 0x80 != 0 {
            0
        } else {
            (byte as u16) << 8
        };
    }
    let (e, m) = ((mag >> mbits) as i32, (mag & ((1 << mbits) - 1)) as f64);
    let v = if e == 0 {
        m * 2f64.powi(emin - mbits)
    } else {
        (1.0 + m / 2f64.powi(mbits)) * 2f64.powi(e - 1 + emin)
    };
    let v = if byte & 0x80 != 0 { -v } else { v };
    let v = if relu && v < 0.0 { 0.0 } else { v };
    round_half(v, 0.0, F16, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_saturates_and_ties_to_even() {
        assert_eq!(to_fp8(448.0, true, false), 0x7e);
        assert_eq!(to_fp8(1e9, true, false), 0x7e);
        assert_eq!(to_fp8(f64::NEG_INFINITY, true, false), 0xfe);
        assert_eq!(to_fp8(f64::INFINITY, false, false), 0x7b);
        assert_eq!(to_fp8(f64::NAN, false, false), 0x7f);
        // 1 + 1/16 lies halfway between e4m3's 1 (0x38) and 1.125 (0x39): the even code.
        assert_eq!(to_fp8(1.0625, true, false), 0x38);
        assert_eq!(to_fp8(1.1875, true, false), 0x3a);
        // The smallest e4m3 subnormal, 2^-9, and half of it (ties to zero).
        assert_eq!(to_fp8(2f64.powi(-9), true, false), 0x01);
        assert_eq!(to_fp8(2f64.powi(-10), true, false), 0x00);
        assert_eq!(to_fp8(-3.0, false, true), 0x00);
    }

    #[test]
    fn widening_is_exact() {
        for byte in 0..=255u8 {
            if byte & 0x7f != 0x7f {
                assert_eq!(
                    to_fp8(
                        decode_half(widen(byte, true, false), F16, false),
                        true,
                        false
                    ),
                    byte
                );
            }
            let e5 = widen(byte, false, false);
            let nan = byte & 0x7f > 0x7c;
            assert_eq!(e5, if nan { 0x7fff } else { (byte as u16) << 8 });
        }
        assert_eq!(widen(0x7f, true, false), 0x7fff);
        assert_eq!(widen(0xb8, true, true), 0);
    }
}
