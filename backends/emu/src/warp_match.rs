//! MATCH (0x3a1): `MATCH.ANY[.U64] Rd, Ra` and `MATCH.ALL[.U64] Pd, Rd, Ra` over the executing
//! lanes (fields learned from ptxas 13.5 + nvdisasm: Rd 16..23, Ra 24..31 (a pair for .U64),
//! .U64 bit 73, ANY bit 79, ALL's predicate result 81..83). ANY: each lane gets the mask of the
//! executing lanes whose value equals its own. ALL: when every executing lane holds the same
//! value, Rd is the executing mask and Pd true; otherwise Rd 0 and Pd false.

use super::{lane_value, unsupported, Warp, WARP};
use crate::decode::Inst;
use crate::EmuError;

pub(crate) fn match_lanes(w: &mut Warp, i: &Inst, exec: u32, sm: u32) -> Result<(), EmuError> {
    let (wide, any) = (i.bit(73), i.bit(79));
    if !any && sm < 80 {
        // ptxas's sm_75 code computes match.all from MATCH.ANY; ALL never ran on its code there.
        return Err(unsupported(i, "MATCH.ALL on sm_75".into()));
    }
    let bytes = if wide { 8 } else { 4 };
    let vals: Vec<u64> = (0..WARP)
        .map(|l| lane_value(w, l, i.f(24, 8) as u8, bytes))
        .collect();
    let lanes = || (0..WARP).filter(|&l| exec >> l & 1 == 1);
    let same = |v: u64| {
        lanes()
            .filter(|&j| vals[j] == v)
            .fold(0u32, |m, j| m | 1 << j)
    };
    let results: Vec<(usize, u32)> = lanes().map(|l| (l, same(vals[l]))).collect();
    let agree = results.iter().all(|&(_, m)| m == exec);
    for (l, m) in results {
        if any {
            w.set_reg(i.dst(), l, m);
        } else {
            w.set_reg(i.dst(), l, if agree { exec } else { 0 });
            w.set_pred(i.f(81, 3) as u8, l, agree);
        }
    }
    Ok(())
}
