//! Encodings of SGXT (`bfe`'s sign or zero extension) and IDP (`dp4a`/`dp2a`), learned from
//! ptxas 13.5's output for the same PTX on sm_75..sm_90 and checked against nvdisasm.
//!
//! Both are plain ALU forms (A 24..31, B 32..39 or an immediate/cbuf, C 64..71): SGXT is base
//! 0x01a with `.U32` when bit 73 is clear and `.W` at 75; IDP is base 0x026 with A signed at 73, B signed at 74,
//! `.2A` at 76 and `.HI` at 77.

use crate::encode::{set_alu_abc, EResult, EncodeError, Word};
use crate::ir::*;

/// SGXT or IDP (the destination is written by the caller).
pub(crate) fn encode_int(w: &mut Word, i: &Instr) -> EResult<()> {
    let [a, b, c, ..] = &i.srcs;
    match i.op {
        Opcode::Sgxt { signed, wrap } => {
            set_alu_abc(w, 0x01a, a, b, &Src::ZERO)?;
            w.set(64, 8, 0);
            w.set(73, 1, signed as u64);
            w.set(75, 1, wrap as u64);
        }
        Opcode::Idp {
            pairs,
            hi,
            a_signed,
            b_signed,
        } => {
            if hi && !pairs {
                return Err(EncodeError("IDP.4A has no .HI".into()));
            }
            if matches!(b.val, SrcVal::Imm(_)) || matches!(c.val, SrcVal::Imm(_)) {
                return Err(EncodeError("IDP has no immediate form".into()));
            }
            set_alu_abc(w, 0x026, a, b, c)?;
            w.set(73, 1, a_signed as u64);
            w.set(74, 1, b_signed as u64);
            w.set(76, 1, pairs as u64);
            w.set(77, 1, hi as u64);
        }
        _ => return Err(EncodeError(format!("{:?} is not SGXT or IDP", i.op))),
    }
    Ok(())
}
