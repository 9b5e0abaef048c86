//! nvdisasm's text for the math family: MUFU.<func>, FMUL.<rnd> and FRND.F64.<rnd>.

use super::{dst, join, src};
use crate::ir::*;

fn mufu_name(func: MufuFunc) -> &'static str {
    match func {
        MufuFunc::Cos => "COS",
        MufuFunc::Sin => "SIN",
        MufuFunc::Ex2 => "EX2",
        MufuFunc::Lg2 => "LG2",
        MufuFunc::Rcp => "RCP",
        MufuFunc::Rsq => "RSQ",
        MufuFunc::Rcp64h => "RCP64H",
        MufuFunc::Rsq64h => "RSQ64H",
        MufuFunc::Sqrt => "SQRT",
        MufuFunc::Tanh => "TANH",
    }
}

/// FRND's rounding suffix (RN prints nothing).
fn frnd_suffix(rnd: Round) -> &'static str {
    match rnd {
        Round::Rn => "",
        Round::Rz => ".TRUNC",
        Round::Rm => ".FLOOR",
        Round::Rp => ".CEIL",
    }
}

pub(super) fn print_mufu_family(i: &Instr) -> String {
    let d0 = dst(&i.dsts[0]);
    let [a, b, ..] = &i.srcs;
    match i.op {
        Opcode::Mufu { func } => format!("MUFU.{} {d0}, {}", mufu_name(func), src(a)),
        Opcode::FmulRound { ftz, rnd } => format!(
            "FMUL{}{} {}",
            if ftz { ".FTZ" } else { "" },
            crate::print_double::round_suffix(rnd),
            join(&[d0, src(a), src(b)])
        ),
        Opcode::FrndF64 { rnd } => format!("FRND.F64{} {d0}, {}", frnd_suffix(rnd), src(a)),
        _ => String::new(),
    }
}
