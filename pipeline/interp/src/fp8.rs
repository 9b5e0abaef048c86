//! FP8 conversions (`cvt` with `.e4m3x2`/`.e5m2x2`): packing two f32 (or an f16x2) into two FP8
//! values and unpacking them to f16x2.
//!
//! e5m2 is IEEE-like (bias 15, infinities and NaNs) and rounds through `float::round_to`. e4m3 has
//! bias 7, no infinities, a single NaN code per sign (`0x7f`/`0xff`) and a largest finite value of
//! 448; it rounds by searching its 126 positive finite values (ties to the even code).

use crate::float::{self, Fmt, Rnd};

const E5M2: Fmt = Fmt { ebits: 5, mbits: 2 };

/// The positive finite e4m3 values by code (0x00..=0x7e).
fn e4m3_value(code: u8) -> f64 {
    let e = (code >> 3) & 0xf;
    let m = (code & 7) as f64;
    if e == 0 {
        m * 2f64.powi(-9)
    } else {
        (8.0 + m) * 2f64.powi(e as i32 - 10)
    }
}

pub fn decode(code: u8, e4m3: bool) -> f64 {
    if !e4m3 {
        return float::decode(code as u64, E5M2);
    }
    if code & 0x7f == 0x7f {
        return f64::NAN;
    }
    let v = e4m3_value(code & 0x7f);
    if code & 0x80 != 0 {
        -v
    } else {
        v
    }
}

/// `x` rounded to nearest (ties to even) into e4m3 or e5m2; `satfinite` clamps overflow (and
/// infinities) to the largest finite value, otherwise overflow gives NaN (e4m3) or infinity (e5m2).
pub fn encode(x: f64, e4m3: bool, satfinite: bool, relu: bool) -> u8 {
    let x = if relu && (x < 0.0) { 0.0 } else { x };
    if !e4m3 {
        let mut b = float::round_to(x, 0, Rnd::Rn, E5M2) as u8;
        if satfinite && b & 0x7f == 0x7c {
            b = (b & 0x80) | 0x7b;
        }
        return b;
    }
    if x.is_nan() {
        return 0x7f;
    }
    let sign = if x.is_sign_negative() { 0x80 } else { 0 };
    let a = x.abs();
    let max = e4m3_value(0x7e);
    if a >= max + 16.0 || a.is_infinite() {
        return sign | if satfinite { 0x7e } else { 0x7f };
    }
    if a >= max {
        return sign | 0x7e;
    }
    // Largest code whose value is <= a, then pick it or the next by distance (ties to even).
    let lo = (0..=0x7eu8)
        .rev()
        .find(|&c| e4m3_value(c) <= a)
        .unwrap_or(0);
    let hi = lo + 1;
    let (dl, dh) = (a - e4m3_value(lo), e4m3_value(hi) - a);
    let code = if dl < dh || (dl == dh && lo & 1 == 0) {
        lo
    } else {
        hi
    };
    sign | code
}
