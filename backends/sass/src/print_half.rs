//! nvdisasm's text for the half-precision ALU ops: `HADD2 R0, R4.H0_H0, -R5.H0_H0`,
//! `HFMA2.BF16_V2 R0, R4, R5, R6`, `HSETP2.GEU.AND P0, PT, R4.H0_H0, R5.H0_H0, PT`,
//! `HMNMX2.NAN R0, R4, R5, !PT`, `F2FP.BF16.PACK_AB R0, RZ, R4` (`F2FP.BF16.F32.PACK_AB` from
//! sm_89 on).

use crate::arch::Sm;
use crate::ir::*;
use crate::print::{bool_op_name, dst, float_cmp_name, join, pdst, pred, src};
use crate::print_double::round_suffix;

/// The text of a half-precision ALU op (without guard).
pub(crate) fn half_body(sm: Sm, i: &Instr) -> String {
    let [a, b, c, ..] = &i.srcs;
    let d0 = dst(&i.dsts[0]);
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
            let name = match op {
                HalfOp::Add => "HADD2",
                HalfOp::Mul => "HMUL2",
                HalfOp::Fma => "HFMA2",
            };
            let mut parts = vec![d0, hsrc(a, swz[0]), hsrc(b, swz[1])];
            if op == HalfOp::Fma {
                parts.push(hsrc(c, swz[2]));
            }
            format!(
                "{name}{}{}{}{}{} {}",
                flag(f32_out, ".F32"),
                flag(bf16, ".BF16_V2"),
                flag(ftz, ".FTZ"),
                flag(sat, ".SAT"),
                flag(relu, ".RELU"),
                join(&parts)
            )
        }
        Opcode::Hsetp2 {
            cmp,
            combine,
            ftz,
            bf16,
            swz,
        } => format!(
            "HSETP2{}.{}{}.{} {}",
            flag(bf16, ".BF16_V2"),
            float_cmp_name(cmp),
            flag(ftz, ".FTZ"),
            bool_op_name(combine),
            join(&[
                pdst(&i.dsts[0]),
                pdst(&i.dsts[1]),
                hsrc(a, swz[0]),
                hsrc(b, swz[1]),
                pred(c)
            ])
        ),
        Opcode::Hset2 {
            cmp,
            combine,
            ftz,
            bf16,
            bool_float,
            swz,
        } => format!(
            "HSET2{}{}.{}{}.{} {}",
            flag(bf16, ".BF16_V2"),
            flag(bool_float, ".BF"),
            float_cmp_name(cmp),
            flag(ftz, ".FTZ"),
            bool_op_name(combine),
            join(&[d0, hsrc(a, swz[0]), hsrc(b, swz[1]), pred(c)])
        ),
        Opcode::Hmnmx2 {
            bf16,
            ftz,
            nan,
            swz,
        } => format!(
            "HMNMX2{}{}{} {}",
            flag(bf16, ".BF16_V2"),
            flag(ftz, ".FTZ"),
            flag(nan, ".NAN"),
            join(&[d0, hsrc(a, swz[0]), hsrc(b, swz[1]), pred(c)])
        ),
        Opcode::F2fp { bf16, rnd, relu } => {
            let ty = match (bf16, sm.num >= 89) {
                (false, false) => "",
                (true, false) => ".BF16",
                (false, true) => ".F16.F32",
                (true, true) => ".BF16.F32",
            };
            format!(
                "F2FP{}{ty}.PACK_AB{} {}",
                flag(relu, ".RELU"),
                round_suffix(rnd),
                join(&[d0, src(a), src(b)])
            )
        }
        _ => format!("{:?}", i.op),
    }
}

fn flag(on: bool, text: &'static str) -> &'static str {
    if on {
        text
    } else {
        ""
    }
}

/// A source with its swizzle (`R4.H0_H0`, `|R4|.H1_H1`, `R4.F32`; none printed for H1_H0).
fn hsrc(s: &Src, swz: HalfSwizzle) -> String {
    let suffix = match swz {
        HalfSwizzle::H1H0 => "",
        HalfSwizzle::F32 => ".F32",
        HalfSwizzle::H0H0 => ".H0_H0",
        HalfSwizzle::H1H1 => ".H1_H1",
    };
    format!("{}{suffix}", src(s))
}
