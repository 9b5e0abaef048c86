//! FCHK Pd, a, b: the range check ptxas puts before f32 division's fast path (MUFU.RCP, Newton,
//! one correction); true sends the lane to the exact slow path. NVIDIA does not document which
//! operands it flags, so the emulator flags conservatively: everything but operands whose
//! exponent fields keep the operands, the reciprocal and the quotient far inside the normal
//! range (the region ptxforge's own lowering trusts, pipeline/lower/src/ieee_div.rs). Flagging
//! more lanes than the hardware changes no result, as the slow path is exact everywhere.

/// Whether `a / b` (f32 bits) leaves the fast path's safe region.
pub fn needs_slow_path(a: u32, b: u32) -> bool {
    let ea = (a >> 23) & 0xff;
    let eb = (b >> 23) & 0xff;
    let safe = (60..=250).contains(&ea) && (3..=250).contains(&eb) && ea.abs_diff(eb) <= 100;
    !safe
}
