//! nvdisasm's text for the conversions I2F, F2I and F2F: `I2F.F64.U64.RZ R4, R2`,
//! `I2F.F16.S8 R0, R2`, `F2I.S64.F64.FLOOR R4, R2`, `F2I.S8.F16.TRUNC.NTZ R0, R2`,
//! `F2F.F32.F64.RM R5, R2`, `F2F.F16.F32 R0, R2`.

use crate::ir::*;
use crate::print::{dst, src};
use crate::print_double::round_suffix;

/// The text of I2F, F2I or F2F (without guard).
pub(crate) fn convert_body(i: &Instr) -> String {
    let operands = format!("{}, {}", dst(&i.dsts[0]), src(&i.srcs[0]));
    match i.op {
        Opcode::I2fWide { dst, src, rnd } => format!(
            "I2F{}{}{} {operands}",
            unless(dst, NumFormat::F32),
            unless(src, NumFormat::S32),
            round_suffix(rnd)
        ),
        Opcode::F2iWide { dst, src, rnd } => {
            let rnd = match rnd {
                Round::Rn => "",
                Round::Rm => ".FLOOR",
                Round::Rp => ".CEIL",
                Round::Rz => ".TRUNC",
            };
            let ntz = if dst.is_wide() || src.is_wide() {
                ""
            } else {
                ".NTZ"
            };
            format!(
                "F2I{}{}{rnd}{ntz} {operands}",
                unless(dst, NumFormat::S32),
                unless(src, NumFormat::F32)
            )
        }
        Opcode::F2f { dst, src, rnd } => format!(
            "F2F{}{}{} {operands}",
            name(dst),
            name(src),
            round_suffix(rnd)
        ),
        _ => format!("{:?}", i.op),
    }
}

/// The type suffix, left out for the format nvdisasm takes as the default.
fn unless(f: NumFormat, default: NumFormat) -> &'static str {
    if f == default {
        ""
    } else {
        name(f)
    }
}

fn name(f: NumFormat) -> &'static str {
    match f {
        NumFormat::F16 => ".F16",
        NumFormat::Bf16 => ".BF16",
        NumFormat::F32 => ".F32",
        NumFormat::F64 => ".F64",
        NumFormat::S8 => ".S8",
        NumFormat::U8 => ".U8",
        NumFormat::S16 => ".S16",
        NumFormat::U16 => ".U16",
        NumFormat::S32 => ".S32",
        NumFormat::U32 => ".U32",
        NumFormat::S64 => ".S64",
        NumFormat::U64 => ".U64",
    }
}
