//! Printing of the sm_90 SYNCS family and asynchronous-proxy fences (`syncs.rs`) in nvdisasm's
//! syntax.

use crate::ir::*;
use crate::print::{dst, pdst, pred, src};
use crate::syncs::SyncsOp;

fn ureg(s: &Src) -> String {
    match s.val {
        SrcVal::Reg(r) => format!("UR{}", r.idx),
        _ => "URZ".into(),
    }
}

pub(crate) fn udst(d: &Dst) -> String {
    match d {
        Dst::Reg(r) => format!("UR{}", r.idx),
        Dst::None => "URZ".into(),
    }
}

/// A SYNCS address: `[R11+URZ]` for a register, `[UR6]` for a uniform register, with the
/// immediate offset of slot 2 (`[R12+URZ+0x8]`; nvdisasm writes a negative one `+-0x10`).
fn address(s: &Src, off: &Src) -> String {
    let base = match s.val {
        SrcVal::Reg(r) if r.file == RegFile::Gpr => format!("R{}+URZ", r.idx),
        _ => ureg(s),
    };
    match off.val {
        SrcVal::Imm(v) if v as i32 > 0 => format!("{base}+{:#x}", v),
        SrcVal::Imm(v) if (v as i32) < 0 => format!("{base}+-{:#x}", (v as i32).unsigned_abs()),
        _ => base,
    }
}

/// nvdisasm's text of one SYNCS-family instruction (without the guard).
pub(crate) fn print_syncs(i: &Instr, op: SyncsOp) -> String {
    let [a, b, ..] = &i.srcs;
    match op {
        SyncsOp::Exch64 => format!(
            "SYNCS.EXCH.64 {}, [{}], {}",
            udst(&i.dsts[0]),
            ureg(a),
            ureg(b)
        ),
        SyncsOp::Arrive { mode, red, optout } => format!(
            "SYNCS.ARRIVE.TRANS64{}{}{} {}, [{}], {}",
            if red { ".RED" } else { "" },
            if optout { ".OPTOUT" } else { "" },
            mode.suffix(),
            dst(&i.dsts[0]),
            address(a, &i.srcs[2]),
            src(b)
        ),
        SyncsOp::PhaseChk { trywait } => format!(
            "SYNCS.PHASECHK.TRANS64{} {}, [{}], {}",
            if trywait { ".TRYWAIT" } else { "" },
            pdst(&i.dsts[0]),
            address(a, &i.srcs[2]),
            src(b)
        ),
        SyncsOp::CctlIv => format!("SYNCS.CCTL.IV [{}]", address(a, &i.srcs[2])),
        SyncsOp::FenceViewAsync { global } => {
            format!("FENCE.VIEW.ASYNC.{}", if global { "G" } else { "S" })
        }
        SyncsOp::CgaErrbar => "CGAERRBAR".into(),
        SyncsOp::Arrives(count) => crate::arrives::print_arrives(i, count),
        SyncsOp::AtomsArrive | SyncsOp::AtomsPopcInc => format!(
            "{} {}, [{}]",
            crate::mbarrier80::mnemonic(op == SyncsOp::AtomsPopcInc),
            dst(&i.dsts[0]),
            address(a, &i.srcs[2])
        ),
    }
}

/// nvdisasm's text of `ELECT d0(P), d1(UR), s0(P)`.
pub(crate) fn print_elect(i: &Instr) -> String {
    let p = match i.srcs[0].val {
        SrcVal::Zero => "PT".to_string(),
        _ => pred(&i.srcs[0]),
    };
    format!("ELECT {}, {}, {}", pdst(&i.dsts[0]), udst(&i.dsts[1]), p)
}
