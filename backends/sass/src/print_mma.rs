//! nvdisasm's text of the tensor-core ops (`Opcode::Mma`): `HMMA.16816.F32.BF16 R4, R8, R12, R16`,
//! `QMMA.16832.F32.E4M3.E5M2 R4, R8.ROW, R12.COL, RZ`.

use super::{dst, src};
use crate::ir::*;

fn type_name(e: MmaElem) -> &'static str {
    match e {
        MmaElem::F16 => "F16",
        MmaElem::Bf16 => "BF16",
        MmaElem::Tf32 => "TF32",
        MmaElem::E4m3 => "E4M3",
        MmaElem::E5m2 => "E5M2",
        MmaElem::F32 => "F32",
        MmaElem::F64 => "F64",
        MmaElem::S8 => "S8",
        MmaElem::U8 => "U8",
        MmaElem::S4 => "S4",
        MmaElem::U4 => "U4",
        MmaElem::B1 => "B1",
        MmaElem::S32 => "S32",
    }
}

pub(crate) fn print_mma(i: &Instr, op: &MmaOp) -> String {
    let [a, b, c, _, _] = &i.srcs;
    let d = dst(&i.dsts[0]);
    let shape = op.shape.digits();
    let acc = type_name(op.acc);
    match op.unit() {
        MmaUnit::Qmma => format!(
            "QMMA.{shape}.{acc}.{}.{} {d}, {}.ROW, {}.COL, {}",
            type_name(op.a),
            type_name(op.b),
            src(a),
            src(b),
            src(c)
        ),
        _ => {
            let input = if op.a == MmaElem::F16 {
                String::new()
            } else {
                format!(".{}", type_name(op.a))
            };
            format!(
                "HMMA.{shape}.{acc}{input} {d}, {}, {}, {}",
                src(a),
                src(b),
                src(c)
            )
        }
    }
}
