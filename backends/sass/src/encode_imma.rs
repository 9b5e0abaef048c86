//! Encodings of IMMA (0x237), BMMA (0x23d) and DMMA (0x23f); the fields are listed in
//! [`crate::imma`].

use crate::encode::{src_gpr, EResult, EncodeError, Word};
use crate::ir::*;

/// `D, A, B, C`: the four register groups of a matrix op (C may be RZ).
fn set_groups(w: &mut Word, i: &Instr, opcode: u64) -> EResult<()> {
    let Dst::Reg(d) = i.dsts[0] else {
        return Err(EncodeError("matrix op without a destination".into()));
    };
    w.set(0, 12, opcode);
    w.set(16, 8, src_gpr(&Src::reg(d))?);
    w.set(24, 8, src_gpr(&i.srcs[0])?);
    w.set(32, 8, src_gpr(&i.srcs[1])?);
    w.set(64, 8, src_gpr(&i.srcs[2])?);
    Ok(())
}

/// Encodes IMMA, BMMA or DMMA into `w` (without guard and control bits).
pub(crate) fn encode_matrix(i: &Instr, w: &mut Word) -> EResult<()> {
    match i.op {
        Opcode::Imma {
            shape, a, b, sat, ..
        } => {
            set_groups(w, i, 0x237)?;
            let (b75, b85, b86) = shape.code();
            w.set(74, 1, 1);
            w.set(75, 1, b75);
            w.set(76, 1, a.signed() as u64);
            w.set(78, 1, b.signed() as u64);
            w.set(82, 1, sat as u64);
            w.set(83, 1, a.four_bit() as u64);
            w.set(84, 1, b.four_bit() as u64);
            w.set(85, 1, b85);
            w.set(86, 1, b86);
        }
        Opcode::Bmma { shape, and, .. } => {
            set_groups(w, i, 0x23d)?;
            w.set(74, 1, 1);
            w.set(75, 2, shape.code());
            w.set(78, 1, and as u64);
            w.set(80, 1, 1);
        }
        Opcode::Dmma { shape } => {
            set_groups(w, i, 0x23f)?;
            w.set(76, 2, shape.code());
        }
        _ => return Err(EncodeError(format!("{:?} is not a matrix op", i.op))),
    }
    Ok(())
}
