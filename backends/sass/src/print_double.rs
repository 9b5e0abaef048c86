//! nvdisasm's text for the FP64 unit's instructions: `DADD.RZ R6, R26, -R22`,
//! `DSETP.MAX.AND P0, P1, R2, R4, PT`.

use crate::ir::*;
use crate::print::{bool_op_name, dst, float_cmp_name, join, pdst, pred, src};

/// The text of DADD, DMUL, DFMA or DSETP (without guard).
pub(crate) fn double_body(i: &Instr) -> String {
    let [a, b, c, ..] = &i.srcs;
    let d0 = dst(&i.dsts[0]);
    match i.op {
        Opcode::Dadd { rnd } => {
            format!("DADD{} {}", round_suffix(rnd), join(&[d0, src(a), src(b)]))
        }
        Opcode::Dmul { rnd } => {
            format!("DMUL{} {}", round_suffix(rnd), join(&[d0, src(a), src(b)]))
        }
        Opcode::Dfma { rnd } => format!(
            "DFMA{} {}",
            round_suffix(rnd),
            join(&[d0, src(a), src(b), src(c)])
        ),
        Opcode::Dsetp { test, combine } => {
            let test = match test {
                DoubleTest::Cmp(cmp) => float_cmp_name(cmp),
                DoubleTest::Min => "MIN",
                DoubleTest::Max => "MAX",
            };
            let operands = [pdst(&i.dsts[0]), pdst(&i.dsts[1]), src(a), src(b), pred(c)];
            format!("DSETP.{test}.{} {}", bool_op_name(combine), join(&operands))
        }
        _ => format!("{:?}", i.op),
    }
}

/// `.RM`, `.RP`, `.RZ`; round to nearest is not printed.
pub(crate) fn round_suffix(r: Round) -> &'static str {
    match r {
        Round::Rn => "",
        Round::Rm => ".RM",
        Round::Rp => ".RP",
        Round::Rz => ".RZ",
    }
}
