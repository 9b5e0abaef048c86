//! Encodings of the sm_80 asynchronous copies and matrix loads: LDGSTS, LDGDEPBAR, DEPBAR.LE and
//! LDSM.
//!
//! Fields learned from ptxas 13.5's output (nvdisasm -hex). LDGSTS (0xfae): shared address
//! register 16..23, global address register 24..31, global offset 32..43 (12-bit signed), shared
//! offset 44..63 (20-bit signed), descriptor UR 64..69 with bit 70 set, LTC128B 72, size 73..75,
//! bit 76 (.E), !BYPASS 81, ZFILL 82, bit 84, the zero-fill predicate 87..90, bit 91. DEPBAR
//! (0x91a): the count 38..43, `.LE SB0` bit 47. LDSM (0x83b): destination 16..23, address
//! 24..31, offset 40..63, the count (x1, x2, x4 as 0, 1, 2) 72..73, MT88 78.

use crate::encode::{mem_size_code, set_pred, src_gpr, EResult, EncodeError, Word};
use crate::ir::*;

fn ur(s: &Src) -> EResult<u64> {
    match s.val {
        SrcVal::Reg(r) if r.file == RegFile::UGpr => Ok(r.idx as u64),
        _ => Err(EncodeError("LDGSTS without a descriptor".into())),
    }
}

/// `LDGSTS [s0 + dst_offset], [s1 + src_offset][, s3]`, descriptor s2.
pub(crate) fn encode_ldgsts(w: &mut Word, i: &Instr) -> EResult<()> {
    let Opcode::Ldgsts {
        size,
        bypass,
        ltc128b,
        zfill,
        dst_offset,
        src_offset,
    } = i.op
    else {
        return Err(EncodeError("not an LDGSTS".into()));
    };
    if !(-2048..2048).contains(&src_offset) || !(-(1 << 19)..(1 << 19)).contains(&dst_offset) {
        return Err(EncodeError("LDGSTS offset out of range".into()));
    }
    w.set(0, 12, 0xfae);
    w.set(16, 8, src_gpr(&i.srcs[0])?);
    w.set(24, 8, src_gpr(&i.srcs[1])?);
    w.set(32, 12, src_offset as u64);
    w.set(44, 20, dst_offset as u64);
    w.set(64, 6, ur(&i.srcs[2])?);
    w.set(70, 1, 1);
    w.set(72, 1, ltc128b as u64);
    w.set(73, 3, mem_size_code(size));
    w.set(76, 1, 1);
    w.set(81, 1, !bypass as u64);
    w.set(82, 1, zfill as u64);
    w.set(84, 1, 1);
    if zfill {
        set_pred(w, 87, &i.srcs[3])?;
    } else {
        w.set(87, 3, 7);
    }
    w.set(91, 1, 1);
    Ok(())
}

/// `LDGDEPBAR`.
pub(crate) fn encode_ldgdepbar(w: &mut Word) {
    w.set(0, 12, 0x9af);
}

/// `DEPBAR.LE SB0, pending`.
pub(crate) fn encode_depbar_le(w: &mut Word, pending: u8) -> EResult<()> {
    if pending > 63 {
        return Err(EncodeError("DEPBAR count above 63".into()));
    }
    w.set(0, 12, 0x91a);
    w.set(38, 6, pending as u64);
    w.set(47, 1, 1);
    Ok(())
}

/// `LDSM.16.{M88,MT88}[.2|.4] d0, [s0 + offset]`.
pub(crate) fn encode_ldsm(
    w: &mut Word,
    i: &Instr,
    count: u8,
    trans: bool,
    offset: i32,
) -> EResult<()> {
    let Dst::Reg(d) = i.dsts[0] else {
        return Err(EncodeError("LDSM destination".into()));
    };
    let code = match count {
        1 => 0,
        2 => 1,
        4 => 2,
        _ => return Err(EncodeError("LDSM count".into())),
    };
    w.set(0, 12, 0x83b);
    w.set(16, 8, d.idx as u64);
    w.set(24, 8, src_gpr(&i.srcs[0])?);
    w.set(40, 24, offset as u64);
    w.set(72, 2, code);
    w.set(78, 1, trans as u64);
    Ok(())
}
