//! QSPC (0x3aa; sm_75's form with a uniform-register address, 0x9aa): whether a generic address
//! lies in a state space's window, as ptxas's generic float atomics ask before their fallback
//! loops. Fields learned from ptxas 13.5 + nvdisasm: predicate result 81..83, register result
//! 16..23 (RZ in ptxas's code), address register pair 24..31 (.E at bit 72), the uniform pair at
//! 32..37 (0x9aa), offset 40..63, space 73..74: S (2) the CTA's shared window, D (3) the shared
//! memory of another CTA of the cluster (never, with the emulator's clusters of one CTA).

use super::{unsupported, Warp, SHARED_WINDOW, WARP};
use crate::decode::{field, sext, Inst, RZ, URZ};
use crate::EmuError;

pub(crate) fn qspc(w: &mut Warp, i: &Inst, exec: u32) -> Result<(), EmuError> {
    if i.f(16, 8) != RZ as u32 || !i.bit(72) {
        return Err(unsupported(
            i,
            "QSPC with a register result or a 32-bit address".into(),
        ));
    }
    let space = i.f(73, 2);
    if space < 2 {
        return Err(unsupported(i, format!("QSPC space {space}")));
    }
    let a = i.f(24, 8) as u8;
    let off = sext(field(i.w, 40, 24), 24) as u64;
    let ur = i.f(32, 6) as u8;
    let uniform = if i.f(0, 12) == 0x9aa && ur < URZ {
        w.ureg(ur) as u64 | (w.ureg(ur + 1) as u64) << 32
    } else {
        0
    };
    for l in (0..WARP).filter(|&l| exec >> l & 1 == 1) {
        let base = if a == RZ {
            0
        } else {
            w.reg(a, l) as u64 | (w.reg(a + 1, l) as u64) << 32
        };
        let addr = base.wrapping_add(uniform).wrapping_add(off);
        let shared = (SHARED_WINDOW..SHARED_WINDOW + (1 << 32)).contains(&addr);
        w.set_pred(i.f(81, 3) as u8, l, space == 2 && shared);
    }
    Ok(())
}
