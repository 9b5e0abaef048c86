//! nvdisasm's text of I2IP (`cvt.pack.sat.{s8,u8}.s32.b32`).

use crate::ir::*;
use crate::print::{dst, join, src};

pub(crate) fn i2ip_body(i: &Instr) -> String {
    let Opcode::I2ip { signed } = i.op else {
        return String::new();
    };
    let [a, b, c, ..] = &i.srcs;
    format!(
        "I2IP.{}.S32.SAT {}",
        if signed { "S8" } else { "U8" },
        join(&[dst(&i.dsts[0]), src(a), src(b), src(c)])
    )
}
