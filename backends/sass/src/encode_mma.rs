//! Encodings of the tensor-core ops (`Opcode::Mma`): HMMA (opcode 0x23c) and QMMA (0x27a).
//!
//! Learned from ptxas 13.5 + nvdisasm on sm_75..sm_90: D 16..23, A 24..31, B 32..39, C 64..71
//! (RZ for a zero accumulator). HMMA: bit 75 = k16 (16816), bit 76 = f32 accumulator, bit 78 =
//! k4 (1684, tf32), bit 82 = bf16, bit 83 = tf32. QMMA: bit 74 always set, bit 75 = k32, bit 77 =
//! f32 accumulator, bit 78 = A is e5m2, bit 79 = B is e5m2.

use super::{src_gpr, EResult, EncodeError, Word};
use crate::arch::Sm;
use crate::ir::*;

fn fail<T>(op: &MmaOp) -> EResult<T> {
    Err(EncodeError(format!("mma {op:?}")))
}

/// One HMMA or QMMA.
pub(crate) fn encode_mma(sm: Sm, w: &mut Word, i: &Instr, op: &MmaOp) -> EResult<()> {
    if !op.is_native(sm) {
        return fail(op);
    }
    let Dst::Reg(d) = i.dsts[0] else {
        return fail(op);
    };
    w.set(16, 8, d.idx as u64);
    w.set(24, 8, src_gpr(&i.srcs[0])?);
    w.set(32, 8, src_gpr(&i.srcs[1])?);
    w.set(64, 8, src_gpr(&i.srcs[2])?);
    let f32_acc = op.acc == MmaElem::F32;
    let k = op.shape.k;
    match op.unit() {
        MmaUnit::Hmma => {
            w.set(0, 12, 0x23c);
            w.set(75, 1, (k == 16) as u64);
            w.set(76, 1, f32_acc as u64);
            w.set(78, 1, (k == 4) as u64);
            w.set(82, 1, (op.a == MmaElem::Bf16) as u64);
            w.set(83, 1, (op.a == MmaElem::Tf32) as u64);
        }
        MmaUnit::Qmma => {
            w.set(0, 12, 0x27a);
            w.set(74, 1, 1);
            w.set(75, 1, (k == 32) as u64);
            w.set(77, 1, f32_acc as u64);
            w.set(78, 1, (op.a == MmaElem::E5m2) as u64);
            w.set(79, 1, (op.b == MmaElem::E5m2) as u64);
        }
        _ => return fail(op),
    }
    Ok(())
}
