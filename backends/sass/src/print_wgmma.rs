//! nvdisasm's text of the warpgroup MMA family, VOTEU.ANY and the warpgroup barriers.

use crate::ir::*;
use crate::print::{dst, pred, src};
use crate::wgmma::{GmmaAcc, GmmaUnit, WgmmaOp};

/// A uniform predicate operand (`UP0`, `!UP1`, `!UPT`).
fn upred(s: &Src) -> String {
    let name = match s.val {
        SrcVal::Reg(r) => format!("UP{}", r.idx),
        _ => "UPT".into(),
    };
    if s.neg {
        format!("!{name}")
    } else {
        name
    }
}

/// `HGMMA.64x128x16.F32 R24, gdesc[UR4].tnspA, R24, UP0, gsb0`.
pub(crate) fn print_wgmma(i: &Instr, op: WgmmaOp) -> String {
    let (name, types) = match op.unit() {
        GmmaUnit::H => {
            let acc = if op.acc == GmmaAcc::F32 {
                ".F32"
            } else {
                ".F16"
            };
            let ty = match op.a {
                crate::wgmma::GmmaElem::F16 => String::new(),
                t => format!(".{}", t.name()),
            };
            ("HGMMA", format!("{acc}{ty}"))
        }
        GmmaUnit::Q => {
            let acc = if op.acc == GmmaAcc::F32 {
                ".F32"
            } else {
                ".F16"
            };
            ("QGMMA", format!("{acc}.{}.{}", op.a.name(), op.b.name()))
        }
        GmmaUnit::I => {
            let sat = if op.sat { ".SAT" } else { "" };
            ("IGMMA", format!(".{}.{}{sat}", op.a.name(), op.b.name()))
        }
    };
    let mut desc_mods = String::new();
    for (on, m) in [
        (op.neg_a && !op.reg_a, ".negA"),
        (op.neg_b, ".negB"),
        (op.tnsp_a, ".tnspA"),
        (op.tnsp_b, ".tnspB"),
    ] {
        if on {
            desc_mods.push_str(m);
        }
    }
    let group = if op.reg_a { &i.srcs[1] } else { &i.srcs[0] };
    let mut ops = vec![dst(&i.dsts[0])];
    if op.reg_a {
        let neg = if op.neg_a { "-" } else { "" };
        ops.push(format!("{neg}{}", src(&i.srcs[0])));
    }
    ops.push(format!("gdesc[{}]{desc_mods}", src(group)));
    ops.push(src(&i.srcs[2]));
    let p = &i.srcs[3];
    if !(p.val == SrcVal::True && !p.neg) {
        ops.push(upred(p));
    }
    if let Some(sel) = op.sparse {
        ops.push(src(&i.srcs[4]));
        if op.a.bits() > 8 {
            ops.push(format!("{sel:#x}"));
        }
    }
    if op.closes_group {
        ops.push("gsb0".into());
    }
    let sp = if op.sparse.is_some() { ".SP" } else { "" };
    format!(
        "{name}{sp}.64x{}x{}{types} {}",
        op.n,
        op.k(),
        ops.join(", ")
    )
}

/// `VOTEU.ANY UP0, P0`.
pub(crate) fn print_voteu_any(i: &Instr) -> String {
    let d = match i.dsts[0] {
        Dst::Reg(r) => format!("UP{}", r.idx),
        Dst::None => "UPT".into(),
    };
    format!("VOTEU.ANY {d}, {}", pred(&i.srcs[0]))
}
