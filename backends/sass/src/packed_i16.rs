//! Two packed 16-bit integers in one register (sm_90): `VIADD.16x2` (`add.s16x2`/`add.u16x2`) and
//! `VIMNMX.{S,U}16x2[.RELU]` (`min`/`max`), encoded and printed as ptxas 13.5 writes them
//! (learned from its output and nvdisasm).
//!
//! VIADD is base 0x036 and VIMNMX 0x048 in the register-register form (0x236/0x248), A at 24, B at
//! 32, C (64..71) zero; bit 73 selects the `.16x2` halves. VIMNMX takes a predicate at 87..90 (PT:
//! min, !PT: max) with the two predicate fields at 81..86 set to PT, its signedness at 72 and
//! `.RELU` (a negative half becomes 0) at 76.

use crate::encode::{set_alu_abc, set_pred, EResult, EncodeError, Word};
use crate::ir::*;
use crate::print::{dst, join, pred, src};

const FORM_RR: u64 = 1;

/// VIADD.16x2 or VIMNMX.*16x2 (the destination is written by the caller).
pub(crate) fn encode_packed_i16(w: &mut Word, i: &Instr) -> EResult<()> {
    let [a, b, c, ..] = &i.srcs;
    let base = match i.op {
        Opcode::Viadd16x2 => 0x036,
        Opcode::Vimnmx16x2 { .. } => 0x048,
        _ => return Err(EncodeError(format!("not a packed 16-bit op: {:?}", i.op))),
    };
    if !matches!(b.val, SrcVal::Reg(_)) {
        return Err(EncodeError("packed 16-bit ops take two registers".into()));
    }
    set_alu_abc(w, base, a, b, &Src::ZERO)?;
    w.set(9, 3, FORM_RR);
    w.set(64, 8, 0);
    w.set(73, 1, 1);
    if let Opcode::Vimnmx16x2 { signed, relu } = i.op {
        w.set(72, 1, signed as u64);
        w.set(76, 1, relu as u64);
        w.set(81, 6, 0x3f);
        set_pred(w, 87, c)?;
    }
    Ok(())
}

/// nvdisasm's text of the two.
pub(crate) fn print_packed_i16(i: &Instr) -> String {
    let [a, b, c, ..] = &i.srcs;
    let d = dst(&i.dsts[0]);
    match i.op {
        Opcode::Viadd16x2 => format!("VIADD.16x2 {}", join(&[d, src(a), src(b)])),
        Opcode::Vimnmx16x2 { signed, relu } => format!(
            "VIMNMX.{}16x2{} {}",
            if signed { "S" } else { "U" },
            if relu { ".RELU" } else { "" },
            join(&[d, src(a), src(b), pred(c)])
        ),
        _ => String::new(),
    }
}
