//! Conversions with a 64-bit side: I2F (0x312), F2I (0x311) and F2F (0x310), IEEE-exact in every
//! rounding mode. Source size at 84..85 and result size at 75..76 (2: 32-bit, 3: a register pair),
//! rounding at 78..79 (RN, RM, RP, RZ); I2F's source is signed at 74, F2I's result at 72.

use crate::alu::{flush, hi, lo, round_f32, AluOut, Operands, CANONICAL_NAN};
use crate::decode::Inst;

/// Whether the operand whose size code sits at `pos` is 64-bit; 8- and 16-bit forms (codes 0
/// and 1) have not been run.
fn wide_at(i: &Inst, pos: u32) -> Result<bool, String> {
    match i.f(pos, 2) {
        2 => Ok(false),
        3 => Ok(true),
        code => Err(format!(
            "an 8- or 16-bit operand (size code {code} at bit {pos})"
        )),
    }
}

fn wide_source(i: &Inst) -> Result<bool, String> {
    wide_at(i, 84)
}

fn wide_result(i: &Inst) -> Result<bool, String> {
    wide_at(i, 75)
}

/// The result words: one register, or a pair.
fn result(i: &Inst, v: u64) -> Result<AluOut, String> {
    let mut out = AluOut::default();
    out.r = [Some(lo(v)), wide_result(i)?.then_some(hi(v))];
    Ok(out)
}

/// I2F: a 32- or 64-bit integer to f32 or f64.
pub fn i2f_wide(i: &Inst, x: &impl Operands) -> Result<AluOut, String> {
    let signed = i.bit(74);
    let v: i128 = match (wide_source(i)?, signed) {
        (true, true) => x.val64(i.b) as i64 as i128,
        (true, false) => x.val64(i.b) as i128,
        (false, true) => x.val(i.b) as i32 as i128,
        (false, false) => x.val(i.b) as i128,
    };
    let rm = i.f(78, 2);
    if wide_result(i)? {
        return result(i, int_to_f64(v, rm).to_bits());
    }
    // Split into an exact f64 sum of the high and low parts, rounded once to f32.
    let (high, low) = ((v >> 32) as f64 * 4294967296.0, (v & 0xffff_ffff) as f64);
    let (sum, err) = (high + low, (high + low - high) - low);
    result(i, round_f32(sum, -err, rm).to_bits() as u64)
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

/// F2I: f32 or f64 to a 32- or 64-bit integer, rounded by 78..79, saturating, NaN to 0.
pub fn f2i_wide(i: &Inst, x: &impl Operands) -> Result<AluOut, String> {
    let f = if wide_source(i)? {
        f64::from_bits(x.val64(i.b))
    } else {
        flush(f32::from_bits(x.val(i.b)), i.bit(80)) as f64
    };
    let r = match i.f(78, 2) {
        0 => f.round_ties_even(),
        1 => f.floor(),
        2 => f.ceil(),
        _ => f.trunc(),
    };
    let v = match (wide_result(i)?, i.bit(72)) {
        (true, true) => r as i64 as u64,
        (true, false) => r as u64,
        (false, true) => r as i32 as u32 as u64,
        (false, false) => r as u32 as u64,
    };
    result(i, v)
}

/// F2F between f32 and f64: f64 to f32 rounds by 78..79 (a NaN gives the canonical f32 NaN),
/// f32 to f64 is exact.
pub fn f2f(i: &Inst, x: &impl Operands) -> Result<AluOut, String> {
    match (wide_result(i)?, wide_source(i)?) {
        (false, true) => {
            let v = f64::from_bits(x.val64(i.b));
            let r = if v.is_nan() {
                CANONICAL_NAN
            } else {
                round_f32(v, 0.0, i.f(78, 2)).to_bits()
            };
            result(i, r as u64)
        }
        (true, false) => result(i, (f32::from_bits(x.val(i.b)) as f64).to_bits()),
        _ => Err("F2F other than between f32 and f64".into()),
    }
}
