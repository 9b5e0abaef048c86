//! nvdisasm's text of LEA and LEA.HI.X (`encode_lea.rs`).

use crate::ir::*;
use crate::print::{dst, join, pdst, pred, src};

pub(crate) fn print_lea(i: &Instr, hi: bool, shift: u8) -> String {
    let [a, b, c, carry_in, _] = &i.srcs;
    let shift = format!("{shift:#x}");
    if hi {
        let parts = [
            dst(&i.dsts[0]),
            src(a),
            src(b),
            src(c),
            shift,
            pred(carry_in),
        ];
        return format!("LEA.HI.X {}", join(&parts));
    }
    let mut parts = vec![dst(&i.dsts[0])];
    if let Dst::Reg(_) = i.dsts[1] {
        parts.push(pdst(&i.dsts[1]));
    }
    parts.extend([src(a), src(b), shift]);
    format!("LEA {}", join(&parts))
}
