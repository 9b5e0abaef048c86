//! Encodings of the FP64 unit's instructions: DADD, DMUL, DFMA and DSETP (register and RZ
//! operands; 64-bit values are named by the first register of their pair).
//!
//! Fields, as ptxas 13.5 writes them on sm_75..sm_90: A at 24..31 with neg/abs at 72/73; DMUL,
//! DFMA and DSETP read B at 32..39 (neg/abs 63/62); DADD's second addend and DFMA's addend sit in
//! the C field 64..71 (neg/abs 75/74), and DADD leaves B's field 0. Rounding 78..79 (RN RM RP RZ);
//! DSETP's test 76..79 (FSETP's compare codes, 0 = MIN, 15 = MAX), combine 74..75, predicates as
//! FSETP.

use crate::encode::{
    bool_op_code, float_cmp_code, set_setp_preds, src_gpr, EResult, EncodeError, Word, FORM_RRR,
};
use crate::ir::*;

/// Encodes DADD, DMUL, DFMA or DSETP into `w` (without guard, destination and control bits).
pub(crate) fn encode_double(i: &Instr, w: &mut Word) -> EResult<()> {
    let [a, b, c, ..] = &i.srcs;
    let fp64_sources: &[&Src] = if matches!(i.op, Opcode::Dfma { .. }) {
        &[a, b, c]
    } else {
        &[a, b]
    };
    for s in fp64_sources {
        if !matches!(s.val, SrcVal::Reg(_) | SrcVal::Zero) {
            return Err(EncodeError(format!(
                "{:?}: FP64 operands must be registers, found {s:?}",
                i.op
            )));
        }
    }
    let (base, rnd) = match i.op {
        Opcode::Dadd { rnd } => (0x029, Some(rnd)),
        Opcode::Dmul { rnd } => (0x028, Some(rnd)),
        Opcode::Dfma { rnd } => (0x02b, Some(rnd)),
        Opcode::Dsetp { .. } => (0x02a, None),
        _ => {
            return Err(EncodeError(format!(
                "{:?} is not an FP64 instruction",
                i.op
            )))
        }
    };
    w.set(0, 9, base);
    w.set(9, 3, FORM_RRR);
    set_operand(w, 24, (72, 73), a)?;
    match i.op {
        Opcode::Dadd { .. } => set_operand(w, 64, (75, 74), b)?,
        Opcode::Dfma { .. } => {
            set_operand(w, 32, (63, 62), b)?;
            set_operand(w, 64, (75, 74), c)?;
        }
        _ => set_operand(w, 32, (63, 62), b)?,
    }
    if let Some(rnd) = rnd {
        w.set(78, 2, round_code(rnd));
    }
    if let Opcode::Dsetp { test, combine } = i.op {
        let code = match test {
            DoubleTest::Cmp(cmp) => float_cmp_code(cmp),
            DoubleTest::Min => 0,
            DoubleTest::Max => 15,
        };
        w.set(74, 2, bool_op_code(combine));
        w.set(76, 4, code);
        set_setp_preds(w, i)?;
    }
    Ok(())
}

/// A register operand at `pos` with its (neg, abs) modifier bits.
fn set_operand(w: &mut Word, pos: u32, (neg, abs): (u32, u32), s: &Src) -> EResult<()> {
    w.set(pos, 8, src_gpr(s)?);
    w.set(neg, 1, s.neg as u64);
    w.set(abs, 1, s.abs as u64);
    Ok(())
}

/// Rounding field 78..79 of FP64 arithmetic and conversions.
pub(crate) fn round_code(r: Round) -> u64 {
    match r {
        Round::Rn => 0,
        Round::Rm => 1,
        Round::Rp => 2,
        Round::Rz => 3,
    }
}
