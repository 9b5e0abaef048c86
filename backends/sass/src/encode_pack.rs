//! Encoding of I2IP (0x239), `cvt.pack.sat.{s8,u8}.s32.b32`: two s32 saturated to 8 bits and
//! packed below C's low half. Fields (ptxas 13.5 + nvdisasm): D 16..23, A 24..31 (bits 8..15 of
//! the result), B 32..39 (bits 0..7), C 64..71 (its low half to bits 16..31; `.H1` 72 takes the
//! high half), the type 76..78 (U8 0, S8 1, U16 2), `.SAT` 74 on sm_90 (sm_75..89 saturate with 74
//! clear; on sm_86/89 nvdisasm reads a set 74 as no saturation).

use crate::arch::Sm;
use crate::encode::{src_gpr, EResult, EncodeError, Word};
use crate::ir::*;

/// `I2IP.{S8,U8}.S32.SAT d0, s0, s1, s2`.
pub(crate) fn encode_i2ip(sm: Sm, w: &mut Word, i: &Instr) -> EResult<()> {
    let Opcode::I2ip { signed } = i.op else {
        return Err(EncodeError("not an I2IP".into()));
    };
    let Dst::Reg(d) = i.dsts[0] else {
        return Err(EncodeError("I2IP without a destination".into()));
    };
    w.set(0, 12, 0x239);
    w.set(16, 8, src_gpr(&Src::reg(d))?);
    w.set(24, 8, src_gpr(&i.srcs[0])?);
    w.set(32, 8, src_gpr(&i.srcs[1])?);
    w.set(64, 8, src_gpr(&i.srcs[2])?);
    w.set(74, 1, (sm.num >= 90) as u64);
    w.set(76, 3, signed as u64);
    Ok(())
}
