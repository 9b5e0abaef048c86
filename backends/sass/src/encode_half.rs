//! Encodings of the half-precision ALU ops: HADD2 (0x030), HFMA2 (0x031), HMUL2 (0x032), HSET2
//! (0x033), HSETP2 (0x034), HMNMX2 (0x040) and F2FP.PACK_AB (0x03e).
//!
//! Fields, as ptxas 13.5 writes them on sm_75..sm_90: A's negation 72, absolute value 73 and
//! swizzle 74..75; B's swizzle 60..61, absolute value 62, negation 63; HFMA2's C swizzle 81..82,
//! absolute value 83, negation 84; `.SAT` 77, `.F32` result 78, `.RELU` 79 (with 87..89 all ones),
//! `.FTZ` 80, `.BF16_V2` 85 (HSETP2's at 65). HSETP2: combine 69..70, comparison 76..79,
//! predicates as FSETP. HSET2: as HSETP2 with a register result, `.BF` 71, the accumulator
//! 87..90. HMNMX2: `.NAN` 81, the min/max predicate 87..90. F2FP: C is RZ, `.BF16`
//! 76, rounding 79..80.

use crate::encode::{bool_op_code, float_cmp_code, FORM_RRR};
use crate::encode::{set_alu_abc, set_pred, set_setp_preds, src_gpr, EResult, EncodeError, Word};
use crate::encode_double::round_code;
use crate::ir::*;

/// Encodes a half-precision ALU op into `w` (without guard, destination and control bits).
pub(crate) fn encode_half(i: &Instr, w: &mut Word) -> EResult<()> {
    let [a, b, c, ..] = &i.srcs;
    match i.op {
        Opcode::Half2 {
            op,
            bf16,
            ftz,
            sat,
            relu,
            f32_out,
            swz,
        } => {
            let base = match op {
                HalfOp::Add => 0x030,
                HalfOp::Fma => 0x031,
                HalfOp::Mul => 0x032,
            };
            let c = if op == HalfOp::Fma { *c } else { Src::ZERO };
            set_regs(w, base, a, b, &c)?;
            set_a_b_mods(w, a, b, swz[0], swz[1]);
            if op == HalfOp::Fma {
                w.set(81, 2, swz[2].code());
                w.set(83, 1, c.abs as u64);
                w.set(84, 1, c.neg as u64);
            } else {
                w.set(64, 8, 0);
            }
            w.set(77, 1, sat as u64);
            w.set(78, 1, f32_out as u64);
            w.set(79, 1, relu as u64);
            if relu {
                w.set(87, 3, 7);
            }
            w.set(80, 1, ftz as u64);
            w.set(85, 1, bf16 as u64);
        }
        Opcode::Hsetp2 {
            cmp,
            combine,
            ftz,
            bf16,
            swz,
        } => {
            set_regs(w, 0x034, a, b, &Src::ZERO)?;
            w.set(64, 8, 0);
            set_a_b_mods(w, a, b, swz[0], swz[1]);
            w.set(65, 1, bf16 as u64);
            w.set(69, 2, bool_op_code(combine));
            w.set(76, 4, float_cmp_code(cmp));
            w.set(80, 1, ftz as u64);
            set_setp_preds(w, i)?;
        }
        Opcode::Hset2 {
            cmp,
            combine,
            ftz,
            bf16,
            bool_float,
            swz,
        } => {
            set_regs(w, 0x033, a, b, &Src::ZERO)?;
            w.set(64, 8, 0);
            set_a_b_mods(w, a, b, swz[0], swz[1]);
            w.set(65, 1, bf16 as u64);
            w.set(69, 2, bool_op_code(combine));
            w.set(71, 1, bool_float as u64);
            w.set(76, 4, float_cmp_code(cmp));
            w.set(80, 1, ftz as u64);
            set_pred(w, 87, c)?;
        }
        Opcode::Hmnmx2 {
            bf16,
            ftz,
            nan,
            swz,
        } => {
            set_regs(w, 0x040, a, b, &Src::ZERO)?;
            w.set(64, 8, 0);
            set_a_b_mods(w, a, b, swz[0], swz[1]);
            w.set(80, 1, ftz as u64);
            w.set(81, 1, nan as u64);
            w.set(85, 1, bf16 as u64);
            set_pred(w, 87, c)?;
        }
        Opcode::F2fp { bf16, rnd, relu } => {
            set_regs(w, 0x03e, a, b, &Src::ZERO)?;
            w.set(64, 8, 0xff);
            w.set(75, 1, relu as u64);
            w.set(76, 1, bf16 as u64);
            w.set(79, 2, round_code(rnd));
        }
        _ => {
            return Err(EncodeError(format!(
                "{:?} is not a half-precision op",
                i.op
            )))
        }
    }
    Ok(())
}

/// A, B and C in registers (the register form); immediates and constants go through MOV first.
fn set_regs(w: &mut Word, base: u64, a: &Src, b: &Src, c: &Src) -> EResult<()> {
    for s in [a, b, c] {
        if !matches!(s.val, SrcVal::Reg(_) | SrcVal::Zero) {
            return Err(EncodeError(format!("half-precision source {s:?}")));
        }
    }
    set_alu_abc(w, base, a, b, c)?;
    w.set(9, 3, FORM_RRR);
    w.set(32, 8, src_gpr(b)?);
    Ok(())
}

fn set_a_b_mods(w: &mut Word, a: &Src, b: &Src, sa: HalfSwizzle, sb: HalfSwizzle) {
    w.set(72, 1, a.neg as u64);
    w.set(73, 1, a.abs as u64);
    w.set(74, 2, sa.code());
    w.set(60, 2, sb.code());
    w.set(62, 1, b.abs as u64);
    w.set(63, 1, b.neg as u64);
}
