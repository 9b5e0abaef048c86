//! nvdisasm's text for FFMA in a directed rounding mode (`FFMA[.FTZ].RZ`) and the wrapping
//! funnel shift (`SHF.{L,R}.W.U32[.HI]`).

use super::{fsrc, join, src};
use crate::ir::*;

pub(super) fn print_scalar(i: &Instr) -> String {
    let d0 = super::dst(&i.dsts[0]);
    let [a, b, c, ..] = &i.srcs;
    match i.op {
        Opcode::FfmaRound { ftz, rnd } => format!(
            "FFMA{}{} {}",
            if ftz { ".FTZ" } else { "" },
            crate::print_double::round_suffix(rnd),
            join(&[d0, fsrc(a), fsrc(b), fsrc(c)])
        ),
        Opcode::ShfWrap { right, hi } => format!(
            "SHF.{}.W.U32{} {}",
            if right { "R" } else { "L" },
            if hi { ".HI" } else { "" },
            join(&[d0, src(a), src(b), src(c)])
        ),
        _ => String::new(),
    }
}
