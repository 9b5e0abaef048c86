//! ARRIVES.LDGSTSBAR.64: the asynchronous arrive on an mbarrier that fires when the thread's
//! earlier LDGSTS copies have landed (`cp.async.mbarrier.arrive[.noinc]`), as ptxas 13.5 encodes
//! and prints it, and R2UR's predicate form that ptxas's uniform-address loop around it uses.
//!
//! Fields learned from ptxas's sm_80 and sm_90 code (nvdisasm -hex): opcode 0x9b0, address
//! register 24..31 (RZ in ptxas's code: the address is uniform), offset 40..63 (signed), uniform
//! register 64..69, what the arrival counts at 70..71 (sm_80..89: 0, plain; sm_90: 1 `.ARVCNT`
//! one arrival, 2 `.TRANSCNT` one transaction), bits 73, 75 (`.64`) and 91 always set. ptxas's
//! sm_90 code pairs `.TRANSCNT` with `SYNCS.ARRIVE.TRANS64.RED.A0T1` (one expected transaction,
//! the mode `ArriveMode::A0T1`), the non-`.noinc` form; `.noinc` is `.ARVCNT`.

use crate::encode::{EResult, EncodeError, Word};
use crate::ir::*;

/// What an ARRIVES.LDGSTSBAR.64 counts when the copies land (bits 70..71).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ArrivesCount {
    /// sm_80..89: one arrival on the sm_80 barrier layout (printed without a suffix).
    Plain,
    /// sm_90 `.ARVCNT`: one arrival (`.noinc`).
    ArvCnt,
    /// sm_90 `.TRANSCNT`: one completed transaction (after `SYNCS.ARRIVE.TRANS64.RED.A0T1`).
    TransCnt,
}

impl ArrivesCount {
    pub fn code(self) -> u64 {
        match self {
            ArrivesCount::Plain => 0,
            ArrivesCount::ArvCnt => 1,
            ArrivesCount::TransCnt => 2,
        }
    }

    pub fn suffix(self) -> &'static str {
        match self {
            ArrivesCount::Plain => "",
            ArrivesCount::ArvCnt => ".ARVCNT",
            ArrivesCount::TransCnt => ".TRANSCNT",
        }
    }
}

const RZ: u64 = 255;
const URZ: u64 = 63;

/// Encodes `ARRIVES.LDGSTSBAR.64[count] [s0(UR)+s2(offset)]` (guard and control bits are the
/// caller's). The address is a uniform register (or Zero for URZ), as in ptxas's code.
pub(crate) fn encode_arrives(w: &mut Word, i: &Instr, count: ArrivesCount) -> EResult<()> {
    w.set(0, 12, 0x9b0);
    w.set(24, 8, RZ);
    let ur = match i.srcs[0].val {
        SrcVal::Reg(r) if r.file == RegFile::UGpr && r.idx < 63 => r.idx as u64,
        SrcVal::Zero => URZ,
        _ => return Err(EncodeError(format!("ARRIVES: address {:?}", i.srcs[0]))),
    };
    w.set(64, 6, ur);
    match i.srcs[2].val {
        SrcVal::Imm(v) if (-(1 << 23)..1 << 23).contains(&(v as i32)) => {
            w.set(40, 24, v as u64 & 0xff_ffff)
        }
        SrcVal::Zero => {}
        _ => return Err(EncodeError(format!("ARRIVES: offset {:?}", i.srcs[2]))),
    }
    w.set(70, 2, count.code());
    w.set(73, 1, 1);
    w.set(75, 1, 1);
    w.set(91, 1, 1);
    Ok(())
}

/// nvdisasm's text of an ARRIVES.LDGSTSBAR.64 (without the guard): `[UR4+0x8]`, `[URZ]`.
pub(crate) fn print_arrives(i: &Instr, count: ArrivesCount) -> String {
    let base = match i.srcs[0].val {
        SrcVal::Reg(r) => format!("UR{}", r.idx),
        _ => "URZ".into(),
    };
    let addr = match i.srcs[2].val {
        SrcVal::Imm(v) if v as i32 > 0 => format!("{base}+{v:#x}"),
        SrcVal::Imm(v) if (v as i32) < 0 => format!("{base}+-{:#x}", (v as i32).unsigned_abs()),
        _ => base,
    };
    format!("ARRIVES.LDGSTSBAR.64{} [{addr}]", count.suffix())
}
