//! The arithmetic of ATOM/ATOMG/ATOMS/RED: each operation and type on the old value and the operand.

use crate::decode::{Inst, Op};

/// The new value of a 32-bit atomic: ATOMG/RED/ATOMS operation field (87..90, RED: 87..89) on
/// the type (73..75: U32 or S32).
pub(crate) fn atomic(
    i: &Inst,
    ty: crate::decode::AtomicOperand,
    old: u64,
    v: u64,
) -> Result<u64, String> {
    let op = match i.op {
        Op::Red => i.f(87, 3),
        // POPC.INC (88..90 = 5): each lane adds one (bit 87 differs between sm_80 and sm_90 code);
        // ARRIVE.64 (4): an mbarrier arrival.
        Op::Atoms if i.f(0, 12) == 0xf8c => {
            return if i.f(88, 3) == 5 {
                Ok((old as u32).wrapping_add(1) as u64)
            } else if i.f(88, 3) == 4 && ty.bytes == 8 {
                // ATOMS.ARRIVE.64: one arrival on the sm_80 barrier word.
                Ok(crate::barrier80::arrive(old))
            } else {
                Err("ATOMS operation".into())
            };
        }
        _ => i.f(87, 4),
    };
    if let Some(bf16) = ty.half2_bf16 {
        return match op {
            0 => crate::half::add_pair_rn(old as u32, v as u32, bf16).map(u64::from),
            _ => Err("packed half atomic operation".into()),
        };
    }
    if ty.float && ty.bytes == 8 {
        // f64 add rounded to nearest; a NaN's bits are not known, so it is not claimed.
        let sum = f64::from_bits(old) + f64::from_bits(v);
        return match op {
            0 if !sum.is_nan() => Ok(sum.to_bits()),
            0 => Err("f64 atomic add giving NaN".into()),
            _ => Err("f64 atomic operation".into()),
        };
    }
    if ty.float {
        return match op {
            0 => Ok(f32_add_ftz(old as u32, v as u32) as u64),
            _ => Err("f32 atomic operation".into()),
        };
    }
    let wide = ty.bytes == 8;
    let mask = if wide { u64::MAX } else { 0xffff_ffff };
    // Values as ordered by the operation's signedness.
    let key = |x: u64| {
        if !ty.signed {
            x as i128
        } else if wide {
            x as i64 as i128
        } else {
            x as u32 as i32 as i128
        }
    };
    Ok(match op {
        0 => old.wrapping_add(v) & mask,
        1 => {
            if key(v) < key(old) {
                v
            } else {
                old
            }
        }
        2 => {
            if key(v) > key(old) {
                v
            } else {
                old
            }
        }
        // INC/DEC (32-bit only): wrap to 0 past v, to v below 1 or above v.
        3 if !wide => {
            if old >= v {
                0
            } else {
                old + 1
            }
        }
        4 if !wide => {
            if old == 0 || old > v {
                v
            } else {
                old - 1
            }
        }
        5 => old & v,
        6 => old | v,
        7 => old ^ v,
        8 if i.op != Op::Red => v,
        _ => return Err(format!("atomic operation {op}")),
    })
}

/// ATOMG/RED.ADD.F32.FTZ.RN: subnormal operands and results flushed to zero of their sign.
fn f32_add_ftz(a: u32, b: u32) -> u32 {
    let flush = |x: u32| {
        if x & 0x7f80_0000 == 0 {
            x & 0x8000_0000
        } else {
            x
        }
    };
    let sum = f32::from_bits(flush(a)) + f32::from_bits(flush(b));
    if sum.is_nan() {
        crate::alu::CANONICAL_NAN
    } else {
        flush(sum.to_bits())
    }
}
