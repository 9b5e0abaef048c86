//! VIADD.16x2 and VIMNMX.{S,U}16x2[.RELU] (sm_90): each 16-bit half of A and B added, or the
//! smaller or larger taken (signed at bit 72), `.RELU` (bit 76) clamping a negative half to 0.

use crate::decode::{Inst, Op};

/// The packed result of `i` on `a` and `b`; `min` picks VIMNMX's minimum (its predicate true).
pub(crate) fn packed_i16(i: &Inst, a: u32, b: u32, min: bool) -> u32 {
    let signed = i.bit(72);
    let relu = i.bit(76);
    let mut out = 0u32;
    for k in 0..2 {
        let (x, y) = ((a >> (16 * k)) as u16, (b >> (16 * k)) as u16);
        let r = if i.op == Op::Viadd {
            x.wrapping_add(y)
        } else {
            let less = if signed {
                (x as i16) < (y as i16)
            } else {
                x < y
            };
            let r = if less == min { x } else { y };
            if relu && (r as i16) < 0 {
                0
            } else {
                r
            }
        };
        out |= (r as u32) << (16 * k);
    }
    out
}
