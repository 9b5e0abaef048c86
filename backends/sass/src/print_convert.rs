//! nvdisasm's text for the conversions with a 64-bit side: `I2F.F64.U64.RZ R4, R2`,
//! `F2I.S64.F64.FLOOR R4, R2`, `F2F.F32.F64.RM R5, R2`.

use crate::ir::*;
use crate::print::{dst, src};
use crate::print_double::round_suffix;

/// The text of I2F (0x312), F2I (0x311) or F2F (without guard).
pub(crate) fn convert_body(i: &Instr) -> String {
    let operands = format!("{}, {}", dst(&i.dsts[0]), src(&i.srcs[0]));
    match i.op {
        Opcode::I2fWide { dst, src, rnd } => {
            let to = if dst == NumFormat::F64 { ".F64" } else { "" };
            format!("I2F{to}{}{} {operands}", int_suffix(src), round_suffix(rnd))
        }
        Opcode::F2iWide { dst, src, rnd } => {
            let from = if src == NumFormat::F64 { ".F64" } else { "" };
            let rnd = match rnd {
                Round::Rn => "",
                Round::Rm => ".FLOOR",
                Round::Rp => ".CEIL",
                Round::Rz => ".TRUNC",
            };
            format!("F2I{}{from}{rnd} {operands}", int_suffix(dst))
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

/// The integer type suffix (S32, the default, is not printed).
fn int_suffix(f: NumFormat) -> &'static str {
    match f {
        NumFormat::S32 => "",
        other => name(other),
    }
}

fn name(f: NumFormat) -> &'static str {
    match f {
        NumFormat::F32 => ".F32",
        NumFormat::F64 => ".F64",
        NumFormat::S32 => ".S32",
        NumFormat::U32 => ".U32",
        NumFormat::S64 => ".S64",
        NumFormat::U64 => ".U64",
    }
}
