//! The SIMD video instructions the interpreter runs: `vabsdiff4` on unsigned bytes
//! (`vabsdiff4.u32.u32.u32 d, a, b, c`: the four byte differences `|a.b - b.b|`, each truncated
//! to its byte; with `.add`, their sum plus `c`). Signed, saturating, masked or lane-selected forms
//! and the other secondary operations are reported unsupported.

use crate::error::SimError;
use crate::exec::unsupported;
use crate::prep::Ins;

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
