//! The SIMD video instructions the interpreter runs: `vabsdiff4` on unsigned bytes
//! (`vabsdiff4.u32.u32.u32 d, a, b, c`: the four byte differences `|a.b - b.b|`, each truncated
//! to its byte; with `.add`, their sum plus `c`) and `vabsdiff2` on unsigned or signed halves (all
//! three types u32 or all s32; the two 16-bit differences, or with `.add` their sum plus `c`).
//! Mixed types, saturating, masked or lane-selected forms and the other secondary operations are
//! reported unsupported.

use crate::error::SimError;
use crate::exec::unsupported;
use crate::prep::Ins;

/// The video opcodes `arith` runs (through these functions).
pub(crate) const VIDEO_OPS: &[&str] = &["vabsdiff2", "vabsdiff4"];

/// `vabsdiff4.u32.u32.u32[.add] d, a, b, c`.
pub(crate) fn vabsdiff4(ins: &Ins, a: u64, b: u64, c: u64) -> Result<u64, SimError> {
    let plain = ins.mods.iter().all(|m| m == "u32" || m == "add");
    if !plain || ins.mods.iter().filter(|m| *m == "u32").count() != 3 {
        return Err(unsupported(ins, "this vabsdiff4 form"));
    }
    let diffs = (0..4).map(|k| {
        let (x, y) = ((a >> (8 * k)) as u8, (b >> (8 * k)) as u8);
        (u64::from(x.abs_diff(y)), k)
    });
    Ok(if ins.has("add") {
        diffs.fold(c, |sum, (d, _)| sum.wrapping_add(d)) & 0xffff_ffff
    } else {
        diffs.fold(0, |word, (d, k)| word | d << (8 * k))
    })
}

/// `vabsdiff2.{u32,s32}[.add] d, a, b, c` (all three types the same).
pub(crate) fn vabsdiff2(ins: &Ins, a: u64, b: u64, c: u64) -> Result<u64, SimError> {
    let count = |t: &str| ins.mods.iter().filter(|m| *m == t).count();
    let plain = ins
        .mods
        .iter()
        .all(|m| m == "u32" || m == "s32" || m == "add");
    if !plain || (count("u32") != 3 && count("s32") != 3) {
        return Err(unsupported(ins, "this vabsdiff2 form"));
    }
    let signed = count("s32") == 3;
    let half = |x: u64, k: u32| -> i64 {
        let h = (x >> (16 * k)) as u16;
        if signed {
            i64::from(h as i16)
        } else {
            i64::from(h)
        }
    };
    let diff = |k: u32| (half(a, k) - half(b, k)).unsigned_abs();
    Ok(if ins.has("add") {
        c.wrapping_add(diff(0)).wrapping_add(diff(1)) & 0xffff_ffff
    } else {
        (diff(0) & 0xffff) | (diff(1) & 0xffff) << 16
    })
}
