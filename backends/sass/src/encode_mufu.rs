//! Encodings of the math family's SASS: MUFU with every function (COS SIN EX2 LG2 RCP RSQ RCP64H
//! RSQ64H SQRT TANH), FMUL in a rounding mode, and FRND.F64; learned from ptxas 13.5's output for
//! `sin/cos/ex2/lg2/rcp/rsqrt/sqrt/tanh.approx` and `cvt.r*i.f64.f64` (sm_75..sm_90 alike) and
//! checked against nvdisasm.

use super::{err, set_alu_ab, set_float_mods, src_gpr, EResult, Word};
use crate::ir::*;

/// MUFU's function code (74..79).
pub(super) fn mufu_code(func: MufuFunc) -> u64 {
    match func {
        MufuFunc::Cos => 0,
        MufuFunc::Sin => 1,
        MufuFunc::Ex2 => 2,
        MufuFunc::Lg2 => 3,
        MufuFunc::Rcp => 4,
        MufuFunc::Rsq => 5,
        MufuFunc::Rcp64h => 6,
        MufuFunc::Rsq64h => 7,
        MufuFunc::Sqrt => 8,
        MufuFunc::Tanh => 9,
    }
}

/// MUFU.func, FMUL.rnd and FRND.F64.
pub(super) fn encode_mufu_family(w: &mut Word, i: &Instr) -> EResult<()> {
    let [a, b, ..] = &i.srcs;
    match i.op {
        Opcode::Mufu { func } => {
            w.set(0, 12, 0x308);
            w.set(32, 8, src_gpr(a)?);
            w.set(74, 6, mufu_code(func));
        }
        // FMUL's fields (0x020, 86 set as every FMUL) with the rounding at 78..79.
        Opcode::FmulRound { ftz, rnd } => {
            set_alu_ab(w, 0x020, a, b)?;
            set_float_mods(w, a, b);
            w.set(80, 1, ftz as u64);
            w.set(84, 3, 4);
            w.set(78, 2, crate::encode_double::round_code(rnd));
        }
        // FRND's layout (as encode_frnd) at opcode 0x313 with result and source sizes 3 (f64).
        Opcode::FrndF64 { rnd } => {
            w.set(0, 12, 0x313);
            w.set(32, 8, src_gpr(a)?);
            w.set(75, 2, 3);
            w.set(84, 2, 3);
            w.set(78, 2, crate::encode_double::round_code(rnd));
        }
        _ => return err(i, "not a MUFU-family op"),
    }
    Ok(())
}
