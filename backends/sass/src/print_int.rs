//! nvdisasm's text of SGXT and IDP (`encode_int.rs`).

use crate::ir::*;
use crate::print::{dst, join, src};

pub(crate) fn print_int(i: &Instr) -> String {
    let [a, b, c, ..] = &i.srcs;
    let d = dst(&i.dsts[0]);
    match i.op {
        Opcode::Sgxt { signed, wrap } => format!(
            "SGXT{}{} {}",
            if wrap { ".W" } else { "" },
            if signed { "" } else { ".U32" },
            join(&[d, src(a), src(b)])
        ),
        Opcode::Idp {
            pairs,
            hi,
            a_signed,
            b_signed,
        } => {
            let sign = |s: bool| if s { "S" } else { "U" };
            let shape = match (pairs, hi) {
                (false, _) => "4A",
                (true, false) => "2A.LO",
                (true, true) => "2A.HI",
            };
            format!(
                "IDP.{shape}.{}{}.{}8 {}",
                sign(a_signed),
                if pairs { "16" } else { "8" },
                sign(b_signed),
                join(&[d, src(a), src(b), src(c)])
            )
        }
        _ => String::new(),
    }
}
