//! nvdisasm's text of IMMA, BMMA and DMMA.

use crate::ir::*;
use crate::print::{dst, join, src};

/// The text of a matrix op (IMMA/BMMA print A's and B's layouts, DMMA none).
pub(crate) fn matrix_body(sm: u32, i: &Instr) -> String {
    let [a, b, c, ..] = &i.srcs;
    let d0 = dst(&i.dsts[0]);
    let laid = || {
        join(&[
            d0.clone(),
            format!("{}.ROW", src(a)),
            format!("{}.COL", src(b)),
            src(c),
        ])
    };
    match i.op {
        Opcode::Imma {
            shape, a, b, sat, ..
        } => format!(
            "IMMA.{}.{}.{}{} {}",
            shape.name(),
            a.name(),
            b.name(),
            if sat { ".SAT" } else { "" },
            laid()
        ),
        Opcode::Bmma { shape, and, .. } => format!(
            "BMMA.{}.{}.POPC {}",
            shape.name(),
            if and { "AND" } else { "XOR" },
            laid()
        ),
        Opcode::Dmma { shape } => format!(
            "DMMA.{} {}",
            shape.name(sm),
            join(&[d0, src(a), src(b), src(c)])
        ),
        _ => String::new(),
    }
}
