//! Encodings of the scalar forms that are an existing instruction plus one field, learned from
//! ptxas 13.5's output for `fma.{rz,rm,rp}.f32` and `shf.{l,r}.wrap.b32` (sm_75..sm_90 alike) and
//! checked against nvdisasm: FFMA with the rounding at 78..79, SHF with `.W` at bit 75.

use super::{encode_op, err, EResult, Word};
use crate::arch::Sm;
use crate::ir::*;

/// FFMA.rnd and SHF.W: the base instruction's bits, then the extra field.
pub(super) fn encode_scalar(
    sm: Sm,
    i: &Instr,
    pc: u32,
    offsets: &[u32],
    w: &mut Word,
) -> EResult<()> {
    let (base, field, value) = match i.op {
        Opcode::FfmaRound { ftz, rnd } => (
            Opcode::Ffma { ftz },
            (78, 2),
            crate::encode_double::round_code(rnd),
        ),
        Opcode::ShfWrap { right, hi } => (
            Opcode::Shf {
                right,
                signed: false,
                wide: false,
                hi,
            },
            (75, 1),
            1,
        ),
        _ => return err(i, "not a scalar-family op"),
    };
    let plain = Instr {
        op: base,
        ..i.clone()
    };
    encode_op(sm, &plain, pc, offsets, w)?;
    w.set(field.0, field.1, value);
    Ok(())
}
